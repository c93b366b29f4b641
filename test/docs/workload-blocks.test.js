// Every workload quoted in the docs is one, and every example plans (issue 55): each ```yaml (or ```yml)
// block of README.md and docs/ (every folder under it) that is a workload file (a mapping with `version: 1`
// and a `name`) parses, passes the workload's checks that need no folder, and is planned by the real CLI
// with no engine: in a folder of its own holding what it names (a build context with its Dockerfile and
// stages, a compose file with its test service, an archive, a registry's CA), with each variable it reads
// set. Each examples/workloads/*/workload.yml is planned where it stands. A failure names the file and the
// line its block opens on.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import YAML from 'yaml';
import { checkDocument } from '../../src/workload/load.js';
import { runCli } from '../helpers/run-cli.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-doc-workloads-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** Every Markdown file of README.md and docs/, folders included. @returns {string[]} relative to ROOT */
function markdownFiles(dir = 'docs') {
  /** @type {string[]} */
  const out = [];
  for (const e of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...markdownFiles(rel));
    else if (e.name.endsWith('.md')) out.push(rel);
  }
  return out;
}

/**
 * The ```yaml and ```yml blocks of one Markdown text, each with the line its fence opens on; a block
 * indented under a list item less the fence's indent.
 * @param {string} file as named in a failure @param {string} markdown
 * @returns {{ where: string, text: string }[]}
 */
function blocksOf(file, markdown) {
  const lines = markdown.split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```ya?ml\s*$/.exec(lines[i]);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && /^\s*```\s*$/.test(l));
    const body = lines.slice(i + 1, end < 0 ? lines.length : end);
    out.push({ where: `${file}:${i + 1}`, text: body.map((l) => l.slice(open[1].length)).join('\n') });
    if (end < 0) break;
    i = end;
  }
  return out;
}

/** Every block of README.md and docs/. */
const yamlBlocks = () =>
  ['README.md', ...markdownFiles()].flatMap((f) => blocksOf(f, readFileSync(path.join(ROOT, f), 'utf8')));

// A workload by its text (top-level `version: 1` and `name:`), so a block that no longer parses is still
// found, and failed; workflow snippets (`jobs:`) are not workloads.
const isWorkload = (/** @type {string} */ text) =>
  /^version: 1\b/m.test(text) && /^name: /m.test(text) && !/^jobs:/m.test(text);

const workloads = yamlBlocks()
  .filter((b) => isWorkload(b.text))
  .map((b) => ({ ...b, doc: YAML.parseDocument(b.text) }));

const EXAMPLES = readdirSync(path.join(ROOT, 'examples/workloads'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => `examples/workloads/${e.name}/workload.yml`);

// A real certificate for a registry's CA (a block naming one is checked as the run checks it).
const made = spawnSync(
  'openssl',
  ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'].concat([
    '-subj',
    '/CN=doc-registry-ca',
    '-keyout',
    path.join(work, 'ca.key'),
    '-out',
    path.join(work, 'ca.pem'),
  ]),
  { encoding: 'utf8' },
);
const PEM = made.status === 0 ? readFileSync(path.join(work, 'ca.pem'), 'utf8') : '';

/**
 * Each variable the workload reads (a registry's user, password and CA, a build secret), set to a value of
 * its kind: the run refuses an unset one, and so does plan.
 * @param {any} w @returns {Record<string, string>}
 */
function variablesOf(w) {
  /** @type {Record<string, string>} */
  const env = {};
  for (const r of w.registries ?? []) {
    for (const k of ['username', 'password']) if (r[k]?.env) env[r[k].env] = `doc-${k}`;
    if (r.ca?.env) env[r.ca.env] = PEM;
  }
  for (const b of w.builds ?? []) for (const s of b.secrets ?? []) if (s.env) env[s.env] = 'doc-secret';
  return env;
}

/**
 * A folder holding the block as workload.yml and each file and folder it names, as small as each can be.
 * @param {string} text @param {any} w @returns {string} the workload file
 */
function folderFor(text, w) {
  const dir = mkdtempSync(path.join(work, 'w-'));
  const put = (/** @type {string} */ rel, /** @type {string} */ content) => {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), content);
  };
  for (const r of w.registries ?? []) if (r.ca?.file) put(r.ca.file, PEM);
  for (const i of w.images ?? []) if (i.archive) put(i.archive, '');
  for (const b of w.builds ?? [])
    put(
      path.join(b.context, b.dockerfile ?? 'Dockerfile'),
      `FROM scratch AS base\n${b.target ? `FROM base AS ${b.target}\n` : ''}`,
    );
  if (w.compose)
    put(w.compose.file, YAML.stringify({ services: { [w.compose.test?.service ?? 'app']: { image: 'busybox:1' } } }));
  put('workload.yml', text);
  return path.join(dir, 'workload.yml');
}

/** The real plan with no engine: a socket that does not exist. @param {string} file @param {Record<string, string>} env */
const plan = (file, env) =>
  runCli(['plan', '--workload', file, '--env', 'docker,dind'], {
    env: { ...process.env, GITHUB_ACTIONS: '', DOCKER_HOST: `unix://${path.join(work, 'no.sock')}`, ...env },
  });

test('the docs quote at least the reference workload', () => {
  assert.ok(
    workloads.some((b) => b.where.startsWith('docs/workloads.md')),
    workloads.map((b) => b.where).join(', '),
  );
});

test('every workload quoted in the docs parses and passes the checks that need no folder', () => {
  for (const b of workloads) {
    assert.deepEqual(b.doc.errors, [], `${b.where}: not valid YAML`);
    assert.doesNotThrow(() => checkDocument(b.doc.toJS({ maxAliasCount: 0 }), b.where), b.where);
  }
});

test('every workload quoted in the docs plans with no engine, with what it names beside it', () => {
  assert.ok(PEM, `openssl made no certificate: ${made.stderr}`);
  const failed = [];
  for (const b of workloads) {
    const w = b.doc.toJS();
    const r = plan(folderFor(b.text, w), variablesOf(w));
    if (r.status !== 0 || !/checked, no engine asked/.test(r.stderr))
      failed.push(`${b.where} (exit ${r.status}): ${r.stderr.trim().split('\n').slice(-3).join(' / ')}`);
  }
  assert.deepEqual(failed, []);
});

test('every example workload plans with no engine where it stands', () => {
  assert.ok(EXAMPLES.length >= 4, EXAMPLES.join(', '));
  const failed = [];
  for (const rel of EXAMPLES) {
    const file = path.join(ROOT, rel);
    const r = plan(file, variablesOf(YAML.parse(readFileSync(file, 'utf8'))));
    if (r.status !== 0 || !/checked, no engine asked/.test(r.stderr))
      failed.push(`${rel}:1 (exit ${r.status}): ${r.stderr.trim().split('\n').slice(-3).join(' / ')}`);
  }
  assert.deepEqual(failed, []);
});

test('a block is found by its fence, ```yaml or ```yml, indented or not, and named by the line it opens on', () => {
  const md = [
    '# x',
    '',
    '1. a list item:',
    '',
    '   ```yml',
    '   version: 1',
    '   name: a',
    '   ```',
    '',
    '```yaml',
    'b: 1',
    '```',
    '',
  ];
  assert.deepEqual(blocksOf('docs/x.md', md.join('\n')), [
    { where: 'docs/x.md:5', text: 'version: 1\nname: a' },
    { where: 'docs/x.md:10', text: 'b: 1' },
  ]);
});
