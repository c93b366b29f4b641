// A failed cell in the job's own words (issue 43, item 5): report.md (the job summary) and report.html
// show the last lines of the failing command's output, stderr first, bounded and literal; a benchmark none
// of whose cells ran gets no table (it was titled "(native only)" for a workload that never runs in native).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { TAIL_SHOWN } from '../../src/reading/tables.js';
import { readRun, runHtml, runMarkdown } from '../helpers/reading.js';

const FIXTURE = new URL('../fixtures/results/workload-script-quick.json', import.meta.url);

/** The workload's run with every one of its cells failed at a step that said why on stderr. @param {string} tail */
function failedRun(tail) {
  const results = JSON.parse(readFileSync(FIXTURE, 'utf8'));
  for (const c of results.cells)
    if (c.benchmark.startsWith('workload.') && c.status === 'ok') {
      Object.assign(c, {
        status: 'failed',
        metrics: [],
        reason: `${c.benchmark} in ${c.environmentKey} (${c.distro}), #1, step step-volume: \`docker run ...\` exited 4: error: disk full`,
        logTail: tail,
      });
    }
  return results;
}

const TAIL = '--- stderr (2 lines) ---\nwarning: slow disk\nerror: disk full\n--- stdout (1 line) ---\nwriting 64 MiB';

test("report.md and report.html show the failed step's last lines, stderr first", () => {
  const results = failedRun(TAIL);
  const [group] = readRun(results).problems.filter((g) => g.status === 'failed');
  assert.equal(group.tail, TAIL);
  const md = runMarkdown(results);
  assert.match(md, /exited 4: error: disk full/);
  assert.ok(
    md.includes(`  \`\`\`text\n  --- stderr (2 lines) ---\n  warning: slow disk\n  error: disk full\n`),
    md.slice(-800),
  );
  const html = runHtml(results);
  assert.match(html, /<pre>--- stderr \(2 lines\) ---\nwarning: slow disk\nerror: disk full\n--- stdout/);
});

test("a step's output cannot close the block, start HTML or run past the bound", () => {
  const hostile = ['```', '</details><img src=x>', '@team', ...Array.from({ length: 60 }, (_, i) => `line ${i}`)].join(
    '\n',
  );
  const results = failedRun(hostile);
  const md = runMarkdown(results);
  const block = md.slice(md.indexOf('````text'));
  assert.ok(md.includes('  ````text\n  ```\n'), 'the fence is longer than any backtick run in the output');
  assert.match(block, /\(38 more lines in results\.json\)/);
  assert.ok(!block.includes(`line ${TAIL_SHOWN.lines}\n`), 'bounded to the shown lines');
  assert.match(runHtml(results), /&#60;\/details&#62;&#60;img src=x&#62;/);
});

test('a benchmark none of whose cells ran has no table, not one titled "(native only)"', () => {
  const results = failedRun(TAIL);
  const titles = readRun(results).tables.map((t) => t.title);
  assert.ok(!titles.some((t) => t.startsWith('workload.')), titles.join('\n'));
  assert.doesNotMatch(runMarkdown(results), /native only/);
});
