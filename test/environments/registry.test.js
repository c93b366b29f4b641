// Each environment is declared once: its descriptor (src/model/environments.js) and its module
// (src/environments/<name>.js), bound by name. A name listed twice, a descriptor without its module, a
// module the registry does not know, or a second list of environment names elsewhere fails here.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BENCHMARK_NAMES } from '../../src/benchmarks/names.js';
import { NOT_ENVIRONMENTS, createEnvironment } from '../../src/environments/index.js';
import { ENVIRONMENTS, ENVIRONMENT_NAMES, descriptorOf } from '../../src/model/environments.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The names listed more than once. @param {string[]} names */
const twice = (names) => names.filter((n, i) => names.indexOf(n) !== i);

test('no environment or benchmark name is listed twice', () => {
  assert.deepEqual(twice(ENVIRONMENTS.map((e) => e.name)), []);
  assert.deepEqual(twice(ENVIRONMENT_NAMES), []);
  assert.deepEqual(twice(BENCHMARK_NAMES), []);
  assert.deepEqual(twice(['dind', 'podman', 'dind']), ['dind'], 'the check itself finds a repeat');
});

test('every descriptor has its module, and every module of the folder is an environment or a named helper', () => {
  const modules = readdirSync(new URL('../../src/environments/', import.meta.url)).filter((f) => f.endsWith('.js'));
  const environments = modules.filter((f) => !NOT_ENVIRONMENTS.includes(f)).map((f) => f.slice(0, -3));
  assert.deepEqual([...environments].sort(), [...ENVIRONMENT_NAMES].sort());
  for (const name of ENVIRONMENT_NAMES) {
    const env = createEnvironment(name, /** @type {any} */ ({}), descriptorOf(name)?.engineLines ? '20.10' : null);
    assert.equal(env.name, name);
    assert.equal(env.descriptor, descriptorOf(name), `${name}: its class states its own descriptor`);
  }
});

test('what the descriptors say holds for the environments made from them', () => {
  for (const d of ENVIRONMENTS) {
    const env = createEnvironment(d.name, /** @type {any} */ ({}), d.engineLines ? '20.10' : null);
    assert.equal(env.engine !== null, d.engineLines, `${d.name}: an Engine line exactly when it has engine lines`);
    if (d.builder && 'builder' in env) assert.equal(env.builder, d.builder, `${d.name}: its builder`);
    assert.equal(typeof env.jobEngine === 'function', d.credential !== null, `${d.name}: a job engine to log in to`);
    if (d.ownEngine) assert.equal(typeof env.daemonCycle, 'function', `${d.name}: an engine of its own to start`);
  }
});

test('no other list of environment names in src/ or the site: rules ask the descriptor', () => {
  const files = execFileSync('git', ['ls-files', 'src', 'site/js'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f.endsWith('.js') && f !== 'src/model/environments.js');
  // The workflow's job modes (docker, dind, interleaved) and a profile's own cells select environments for a
  // job or a run; they state no property of them.
  const allowed = new Set(['src/workflow/job-matrix.js', 'src/run/profiles.js']);
  const found = [];
  for (const file of files) {
    const text = readFileSync(`${ROOT}${file}`, 'utf8');
    for (const m of text.matchAll(/\[([^[\]]*)\]/g)) {
      const names = [...m[1].matchAll(/'([a-z0-9-]+)'/g)].map((x) => x[1]).filter((x) => ENVIRONMENT_NAMES.includes(x));
      const where = `${file}:${text.slice(0, m.index).split('\n').length}`;
      if (names.length >= 2 && !allowed.has(file)) found.push(`${where} ${names.join(', ')}`);
    }
    if (/startsWith\('dind/.test(text)) found.push(`${file}: a rule on the name's prefix (startsWith('dind'))`);
  }
  assert.deepEqual(found, []);
});
