// A YAML file the user names (a workload, a workflow), read as text only when it is a regular file (not a
// link, not a folder) within a size: one reader, each caller wording its own refusals.
import { lstat, open } from 'node:fs/promises';

/**
 * @param {string} file
 * @param {{ maxBytes: number, fail: (message: string) => Error, unreadable: (code: string) => string,
 *   notFile: string, tooLarge: (size: number) => string }} o the bound, and each refusal's words
 * @returns {Promise<string>}
 */
export async function readBoundedText(file, o) {
  const info = await lstat(file).catch((e) => {
    throw o.fail(o.unreadable(e.code ?? e.message));
  });
  if (!info.isFile()) throw o.fail(o.notFile);
  if (info.size > o.maxBytes) throw o.fail(o.tooLarge(info.size));
  const handle = await open(file, 'r');
  try {
    return (await handle.readFile({ encoding: 'utf8' })).slice(0, o.maxBytes);
  } finally {
    await handle.close();
  }
}
