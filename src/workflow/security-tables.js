// Writes SECURITY.md's "What runs where" tables from the workflows, between markers, so they cannot go stale
// (a test checks they are current; `npm run docs:actions` rewrites them): each job of the benchmark
// workflows with its runner, permissions, secrets and environment, read from bench.yml, the reusable
// workflow generated from it, seed.yml and ci.yml; and each artifact the benchmark workflow uploads, with
// what it holds and whether `redact` reaches it. An artifact or a job kind the notes below do not know
// stops the generator: every one is described.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { GUARD_RUNNER, HOSTED_ONLY_SCRIPT, HOSTED_RUNNER, SOURCE, reusableWorkflow } from './reusable.js';

export const DOC = fileURLToPath(new URL('../../SECURITY.md', import.meta.url));
const WORKFLOWS = fileURLToPath(new URL('../../.github/workflows/', import.meta.url));
const BEGIN = '<!-- tables from the workflows: npm run docs:actions -->';
const END = '<!-- end of security tables -->';

/**
 * A workflow file parsed, as far as these tables read it (the files are the project's own).
 * @typedef {{ uses?: string, run?: string, with?: Record<string, unknown> }} Step
 * @typedef {{ 'runs-on'?: unknown, permissions?: Record<string, string>, environment?: string | { name: string },
 *   steps?: Step[] }} Job
 * @typedef {{ permissions?: Record<string, string>, jobs: Record<string, Job> }} Workflow
 */

/**
 * What each uploaded artifact holds, by the start of its name (expressions left out); `NAME@JOB` where a job
 * uploads under a name another job gave first (first match wins).
 */
const ARTIFACT_NOTES = {
  'shard-@discard':
    "only when the merge job could not redact the merged results: a note replacing the shard's upload under its name (upload-artifact's overwrite deletes the old one), so nothing of it stays",
  'shard-':
    "one bench job's folder as the runner wrote it: `results.json` (measurements, hardware facts, engine versions, run options), `report.md`, `report.html`, `raw/` (logs and tool outputs); no secret the run was given, nor anything shaped like one (scrubbed as it is written); the runner's host and runner names and labels, and e-mail addresses, left out by `redact`",
  results:
    'each run merged from its shards, the same files; written on a GitHub-hosted runner from untrusted shard artifacts (bounded, validated), identity left out by `redact`; not uploaded when any merged run could not be redacted',
  'comparison-report':
    'the comparison against the history or the A/B (`comparison.md`, `comparison-*.json`, the comment body), made from the redacted results',
  'pr-comment': "the comment's Markdown alone (at most 65,536 characters), posted by the comment job by its SHA-256",
  'github-pages': 'the site built from the history: what the history holds (redacted at publish), nothing else',
};

/** A cell: one line, pipes escaped. @param {unknown} s */
const cell = (s) =>
  String(s ?? '')
    .replace(/\s+/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();

/** Where a job runs, in words. @param {unknown} runsOn */
function runner(runsOn) {
  if (runsOn === GUARD_RUNNER) return `GitHub-hosted (\`${GUARD_RUNNER}\`, written out)`;
  if (runsOn === HOSTED_RUNNER) return 'GitHub-hosted (`DIND_BENCH_HOSTED_RUNNER`, hosted labels only)';
  if (typeof runsOn === 'string' && /^ubuntu-[\w.-]+$/.test(runsOn)) return `GitHub-hosted (\`${runsOn}\`)`;
  if (String(runsOn).includes('matrix.runsOn')) return '**self-hosted** (the `runners` labels)';
  throw new Error(`a job runs on ${JSON.stringify(runsOn)}: say where in src/workflow/security-tables.js`);
}

/** What a job holding a write token adds to where it runs: its first step's check. @param {Job} job */
const hostedOnly = (job) =>
  job.steps?.[0]?.run === HOSTED_ONLY_SCRIPT
    ? '; its first step stops unless the runner says `RUNNER_ENVIRONMENT=github-hosted`'
    : '';

/** @param {Record<string, string> | undefined} p @param {Record<string, string>} fallback */
const permissions = (p, fallback) => {
  const list = Object.entries(p ?? fallback).map(([k, v]) => `${k}: ${v}`);
  return list.length ? list.join(', ') : 'none';
};

/** The secrets a job reads (`secrets.X`), and the job's token when it hands it to a step. @param {Job} job */
function secrets(job) {
  const text = JSON.stringify(job);
  const named = [...new Set([...text.matchAll(/secrets\.([A-Z0-9_]+)/g)].map((m) => m[1]))];
  const token = /github\.token|secrets\.GITHUB_TOKEN/.test(text) ? ['`GITHUB_TOKEN`'] : [];
  return [...token, ...named.filter((n) => n !== 'GITHUB_TOKEN').map((n) => `\`${n}\``)].join(', ') || 'none';
}

/** @param {Job['environment']} env */
const environment = (env) => (env ? `\`${typeof env === 'string' ? env : env.name}\`` : '');

/**
 * The jobs table. @param {Array<[string | ((job: string) => string), Workflow]>} workflows the file (or, per job,
 * the files) and the parsed workflow
 */
function jobsTable(workflows) {
  const rows = [];
  for (const [file, wf] of workflows) {
    for (const [name, job] of Object.entries(wf.jobs)) {
      rows.push(
        `| \`${name}\` | ${typeof file === 'function' ? file(name) : file} | ${runner(job['runs-on'])}${hostedOnly(job)} | ${cell(permissions(job.permissions, wf.permissions ?? {}))} | ${secrets(job)} | ${environment(job.environment)} |`,
      );
    }
  }
  return [
    '| job | workflow | runner | permissions | secrets | environment |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** Every artifact the workflow uploads: [name, job]. @param {Workflow} wf */
function uploads(wf) {
  /** @type {Array<[string, string]>} */
  const out = [];
  for (const [job, j] of Object.entries(wf.jobs)) {
    for (const s of j.steps ?? []) {
      const uses = String(s.uses ?? '');
      if (/^actions\/upload-(pages-)?artifact@/.test(uses)) out.push([String(s.with?.name ?? 'artifact'), job]);
      if (s.with?.['report-artifact']) out.push([String(s.with['report-artifact']), job]);
    }
  }
  return out;
}

/** The artifacts table. @param {Workflow} wf bench.yml parsed */
function artifactsTable(wf) {
  const rows = uploads(wf).map(([name, job]) => {
    // The names as a run has them: SHARD_PREFIX is shard- (or shard.NAME.), ARTIFACT_SUFFIX empty (or .NAME).
    const plain = name.replace(/\$\{\{\s*env\.SHARD_PREFIX\s*\}\}/g, 'shard-').replace(/\$\{\{[^}]*\}\}/g, '');
    const note = Object.entries(ARTIFACT_NOTES).find(([k]) =>
      k.includes('@') ? `${plain}@${job}`.startsWith(k.split('@')[0]) && k.endsWith(`@${job}`) : plain.startsWith(k),
    )?.[1];
    if (!note)
      throw new Error(
        `bench.yml uploads ${name}: say what it holds in ARTIFACT_NOTES of src/workflow/security-tables.js`,
      );
    return `| \`${cell(name)}\` | \`${job}\` | ${cell(note)} |`;
  });
  return ['| artifact | uploaded by | what it holds |', '|---|---|---|', ...rows].join('\n');
}

/** The generated tables. @param {string} bench bench.yml's text */
export function securityTables(bench) {
  const read = (/** @type {string} */ f) => parse(readFileSync(`${WORKFLOWS}${f}`, 'utf8'));
  const own = Object.keys(parse(bench).jobs);
  const workflows = /** @type {Array<[string | ((job: string) => string), Workflow]>} */ ([
    [
      (/** @type {string} */ job) => (own.includes(job) ? 'bench.yml, reusable-bench.yml' : 'reusable-bench.yml'),
      parse(reusableWorkflow(bench)),
    ],
    ['seed.yml', read('seed.yml')],
    ['ci.yml', read('ci.yml')],
  ]);
  return [
    "Every job of the workflows (the reusable workflow has all of `bench.yml`'s jobs, and `guard` and `suite` before them):",
    '',
    jobsTable(workflows),
    '',
    "Every artifact the benchmark workflow uploads (kept 90 days by default, readable by whoever can read the repository's Actions; `redact: all` is the default):",
    '',
    artifactsTable(parse(bench)),
  ].join('\n');
}

/** The doc with its tables replaced. @param {string} doc @param {string} bench */
export function withSecurityTables(doc, bench) {
  const start = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`SECURITY.md lacks the markers ${BEGIN} ... ${END}`);
  return `${doc.slice(0, start + BEGIN.length)}\n\n${securityTables(bench)}\n\n${doc.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(DOC, withSecurityTables(readFileSync(DOC, 'utf8'), readFileSync(SOURCE, 'utf8')));
  console.log('SECURITY.md');
}
