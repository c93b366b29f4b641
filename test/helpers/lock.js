// A lock shared by the test files of one `npm test` (each file is a process of its own; npm test gives
// them one temporary folder): a file named for the lock, holding its holder's PID, made with link(2) so it
// appears whole or not at all. A holder that died without letting go (a file killed at its timeout) is
// recognised by its PID and its lock taken over.
import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Whether the process is alive. @param {number} pid */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return /** @type {NodeJS.ErrnoException} */ (e).code === 'EPERM';
  }
}

/** The lock taken, or false when another living process holds it. @param {string} file */
function tryTake(file) {
  const mine = `${file}.${process.pid}`;
  writeFileSync(mine, String(process.pid));
  try {
    linkSync(mine, file);
    return true;
  } catch (e) {
    if (/** @type {NodeJS.ErrnoException} */ (e).code !== 'EEXIST') throw e;
    let holder;
    try {
      holder = Number(readFileSync(file, 'utf8'));
    } catch {
      return false; // let go of meanwhile: tried again
    }
    if (Number.isSafeInteger(holder) && holder > 0 && alive(holder)) return false;
    rmSync(file, { force: true });
    return false;
  } finally {
    rmSync(mine, { force: true });
  }
}

/**
 * `fn` run while holding the lock `name` (letters, digits, dashes), waiting for it as long as another
 * holds it: the test's own timeout bounds the wait.
 * @template T @param {string} name @param {() => Promise<T>} fn @returns {Promise<T>}
 */
export async function oneAtATime(name, fn) {
  if (!/^[a-z0-9-]{1,40}$/.test(name)) throw new Error(`lock name ${JSON.stringify(name.slice(0, 60))}`);
  const file = path.join(tmpdir(), `dind-bench-${name}.lock`);
  while (!tryTake(file)) await new Promise((r) => setTimeout(r, 250));
  try {
    return await fn();
  } finally {
    rmSync(file, { force: true });
  }
}
