#!/usr/bin/env node
// `npm run bench:workload-plan`: does a workload's plan hold (issue 55, item 6)? For each workload, the plan
// is asked first, with no engine (`dind-bench plan --workload FILE --json`: the wall time it announces and
// where each job's figure comes from, the file's `expected` times or a guess), then the same selection is
// run for real (`dind-bench run --workload FILE`) and its wall time taken; the error is the measured time
// against the announced one. The target is ±15%, quiet and throttled (`--cores 1`). The table goes to
// docs/workloads.md (section `plan-accuracy:NAME`) and bench/results/workload-plan-NAME.json.
// Usage: npm run bench:workload-plan -- [--workload a.yml,b.yml] [--env docker,dind] [--iterations N]
//          [--cores 1] [--load cpu|mixed] [--name quiet]
//   Default: every example under examples/workloads/. Needs a running engine with the images built; the
//   workloads' own registry secrets come from the environment, as `run` takes them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { describeLoad, loadKind, startLoad, stopLoad } from './load.js';
import { replaceSection } from './noise-table.js';
import { runWithProgress } from './run-progress.js';
import { throttleEngine } from './throttle.js';

const ROOT = new URL('..', import.meta.url).pathname;
const BIN = path.join(ROOT, 'bin/dind-bench.js');
const EXAMPLES = path.join(ROOT, 'examples/workloads');
const TARGET = 0.15;

const { values } = parseArgs({
  options: {
    workload: { type: 'string' },
    env: { type: 'string', default: 'docker,dind' },
    iterations: { type: 'string' },
    cores: { type: 'string' },
    load: { type: 'string' },
    name: { type: 'string' },
  },
});
const neighbour = loadKind(values.load, 'bench:workload-plan');
const name = values.name ?? (values.cores ? `cores-${values.cores}` : neighbour ? `load-${neighbour}` : 'quiet');
if (!/^[\w.-]+$/.test(name)) throw new Error(`--name ${name}: letters, digits, dot, dash, underscore`);
if (values.iterations !== undefined && !/^\d{1,3}$/.test(values.iterations))
  throw new Error(`--iterations ${values.iterations}: a whole number`);
const files = values.workload
  ? values.workload.split(',').map((f) => path.resolve(f.trim()))
  : readdirSync(EXAMPLES).map((d) => path.join(EXAMPLES, d, 'workload.yml'));
/** The same selection for `plan` and `run`. @param {string} file */
const selectionOf = (file) => [
  '--workload',
  file,
  '--env',
  values.env,
  ...(values.iterations ? ['--iterations', values.iterations] : []),
];

/**
 * @typedef {{ workload: string, from: string, announcedS: number, measuredS: number | null, error: number | null,
 *   exit: number | null, loadBefore: number[], loadAfter: number[] }} Row
 */
/** @type {Row[]} */
const rows = [];
const startedAt = new Date().toISOString();
const throttle = values.cores ? await throttleEngine(Number(values.cores)) : null;
const stress = neighbour ? startLoad(neighbour, 'bench:workload-plan') : null;
try {
  for (const file of files) {
    rows.push(await measure(file));
    write();
  }
} finally {
  if (stress) stopLoad(stress);
  throttle?.restore();
}
console.log(table());
console.log(`written: docs/workloads.md (section plan-accuracy:${name}), bench/results/workload-plan-${name}.json`);

/** @param {string} file @returns {Promise<Row>} */
async function measure(file) {
  const args = selectionOf(file);
  const asked = spawnSync(process.execPath, [BIN, 'plan', ...args, '--json'], { encoding: 'utf8' });
  if (asked.status !== 0 && asked.status !== 7) throw new Error(`plan ${file}: exit ${asked.status}\n${asked.stderr}`);
  const { workload } = JSON.parse(asked.stdout);
  const from = [...new Set(workload.rows.map((/** @type {{ from: string }} */ r) => r.from.split(' ')[0]))].join(', ');
  const out = mkdtempSync(path.join(os.tmpdir(), 'dind-bench-plan-accuracy-'));
  const loadBefore = os.loadavg();
  try {
    const run = await runWithProgress(['run', ...args, '--out', out], throttle?.harness);
    // 0 answered, 6 measured less than planned: a wall time to compare. Anything else failed: no figure.
    const measuredS = run.status === 0 || run.status === 6 ? run.wall : null;
    return {
      workload: path.relative(ROOT, file),
      from,
      announcedS: workload.totalS,
      measuredS,
      error: measuredS === null ? null : measuredS / workload.totalS - 1,
      exit: run.status,
      loadBefore,
      loadAfter: os.loadavg(),
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function table() {
  const pct = (/** @type {number | null} */ e) =>
    e === null ? 'failed' : `${e >= 0 ? '+' : ''}${(e * 100).toFixed(1)}%`;
  const load = (/** @type {number[]} */ l) => l.map((x) => x.toFixed(2)).join(' ');
  return [
    '| workload | job figures from | announced | measured | error | within ±15% | load before → after |',
    '| --- | --- | ---: | ---: | ---: | --- | --- |',
    ...rows.map(
      (r) =>
        `| \`${r.workload}\` | ${r.from} | ${r.announcedS.toFixed(0)} s | ${r.measuredS === null ? '–' : `${r.measuredS.toFixed(0)} s`} | ${pct(r.error)} | ${r.error !== null && Math.abs(r.error) <= TARGET ? 'yes' : 'no'} | ${load(r.loadBefore)} → ${load(r.loadAfter)} |`,
    ),
  ].join('\n');
}

function write() {
  const how = [
    `environments ${values.env}`,
    values.iterations ? `${values.iterations} iterations` : "the profile's iterations",
    throttle ? `the engine and the harness on ${throttle.cores} core(s)` : null,
    neighbour ? describeLoad(neighbour) : 'nothing started beside it',
  ].filter(Boolean);
  const head = `**${name}**: ${startedAt.slice(0, 16).replace('T', ' ')} UTC, ${os.cpus()[0]?.model}, ${os.cpus().length} cores; ${how.join('; ')}. Data: bench/results/workload-plan-${name}.json.`;
  const md = path.join(ROOT, 'docs/workloads.md');
  writeFileSync(md, replaceSection(readFileSync(md, 'utf8'), name, `${head}\n\n${table()}`, 'plan-accuracy'));
  const doc = { name, startedAt, endedAt: new Date().toISOString(), how, rows };
  writeFileSync(path.join(ROOT, `bench/results/workload-plan-${name}.json`), `${JSON.stringify(doc, null, 2)}\n`);
}
