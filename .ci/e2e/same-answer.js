// The sharded act run's check (.ci/act-shards-e2e.sh): the workload's answers in the run merged from its
// sample shards against the same workload's answers in a run on one runner. Each question of the one-runner
// run must be in the merged run, read from as many samples a side, and its change's interval must overlap
// the merged run's (equal within their intervals: two measurements of one machine, not one number).
// Usage: node .ci/e2e/same-answer.js MERGED/results.json ONE/results.json; prints each pair; exit 1 on a miss.
import { readFileSync } from 'node:fs';
import { readRun } from '../../src/reading/read-run.js';

const [mergedFile, oneFile] = process.argv.slice(2);
/** @param {string} file */
const reading = (file) => readRun(JSON.parse(readFileSync(file, 'utf8')));
const merged = reading(mergedFile);
const one = reading(oneFile);
const asked = one.questions.filter((q) => q.benchmark.startsWith('workload.') && q.change);
/** @type {string[]} */
const misses = [];
if (!asked.length) misses.push(`the one-runner run has no workload answer with a change (${oneFile})`);
/** A change (a share, + worse) and its interval, in percent. @param {{ value: number, low: number, high: number }} c */
const text = (c) => `${(c.value * 100).toFixed(1)}% [${(c.low * 100).toFixed(1)}, ${(c.high * 100).toFixed(1)}]`;
for (const q of asked) {
  const m = merged.questions.find((x) => x.id === q.id);
  if (!m?.change || !q.change) {
    misses.push(`${q.id}: not answered in the merged run`);
    continue;
  }
  const overlap = m.change.low <= q.change.high && q.change.low <= m.change.high;
  console.log(
    `same-answer: ${q.id}: merged ${m.outcome} ${text(m.change)} from ${m.samples.candidate} a side; ` +
      `one runner ${q.outcome} ${text(q.change)} from ${q.samples.candidate} a side: ${overlap ? 'within' : 'NOT within'} the intervals`,
  );
  if (!overlap) misses.push(`${q.id}: the intervals do not overlap`);
  if (m.samples.candidate !== q.samples.candidate || m.samples.baseline !== q.samples.baseline)
    misses.push(`${q.id}: ${m.samples.candidate} samples merged, ${q.samples.candidate} on one runner`);
}
const pooled = merged.caveats.find((c) => c.startsWith('Samples came from 2 runners'));
if (pooled) console.log(`same-answer: the merged reading says: ${pooled}`);
else misses.push('the merged reading does not say its samples came from 2 runners');
for (const m of misses) console.error(`same-answer: ${m}`);
process.exit(misses.length ? 1 : 0);
