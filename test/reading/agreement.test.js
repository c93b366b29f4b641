// One verdict, one number and one sentence in every output (issue 34's property): for generated runs (a
// real 5-a-side run's cells, each metric's samples redrawn with a seeded generator: shifted by up to 3x
// either way, 3 to 9 samples a side) every comparison against Docker reads the same in `compare --json`,
// the compare Markdown (the job summary), the terminal, report.md, the site's overview (which the page shows
// as it is: test/site/agreement.test.js reads it in Chromium), and the gate's sentence is the same in the
// JSON, the Markdown, the terminal and the workflow outputs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { compareCommand } from '../../src/compare/command.js';
import { workflowOutputs } from '../../src/compare/outputs.js';
import { overviewOf } from '../../src/history/overview.js';
import { pointsOf } from '../../src/history/points.js';
import { reading } from '../../src/model/change.js';
import { withStartupWithoutImage } from '../../src/model/earlier-results.js';
import { runMarkdown } from '../helpers/reading.js';
import { seededRandom } from '../../src/stats/random.js';
import { tmpDir } from '../history/helpers.js';
import { writeFileSync } from 'node:fs';

const REAL = new URL('../fixtures/results/decide-quick-5.json', import.meta.url).pathname;

/** A run like the real one, every metric's samples redrawn. @param {number} seed */
function generated(seed) {
  const rnd = seededRandom(seed);
  const r = JSON.parse(readFileSync(REAL, 'utf8'));
  r.run.id = `generated-${seed}`;
  // As the current suite writes it (the real run predates the start-up without its image).
  r.cells = r.cells.map((/** @type {any} */ c) => withStartupWithoutImage(c));
  const n = 3 + Math.floor(rnd() * 7);
  for (const cell of r.cells)
    for (const m of cell.metrics) {
      const shift = Math.exp((rnd() - 0.5) * 2.2);
      const spread = rnd() * 0.3;
      const base = m.samples.length ? m.samples[0] : 1;
      m.samples = Array.from({ length: n }, () => Math.max(0, base * shift * (1 + spread * (rnd() - 0.5))));
      m.warmup = [];
    }
  r.run.iterations = n;
  return r;
}

/** Cells of a Markdown table row, unescaped enough to compare: "| a | b |" -> ["a", "b"]. @param {string} line */
const cells = (line) =>
  line
    .slice(1, -1)
    .split(' | ')
    .map((c) =>
      c
        .trim()
        .replace(/\\([[\]|*_`<>#])/g, '$1')
        .replace(/\u2060/g, ''),
    );

/** A table cell shows the reading whole: no table cuts. @param {string} cell @param {string} text */
const shows = (cell, text) => cell === text;

for (const seed of [1, 2, 3, 4, 5, 6]) {
  test(`generated run ${seed}: every output reads each comparison and the gate alike`, async () => {
    const dir = tmpDir(`agreement-${seed}`);
    const file = path.join(dir, 'results.json');
    const results = generated(seed);
    writeFileSync(file, JSON.stringify(results));
    let printed = '';
    const out = { markdown: path.join(dir, 'c.md'), json: path.join(dir, 'c.json') };
    await compareCommand({ results: file, ...out, githubActions: false, print: (t) => (printed += t) });
    const doc = JSON.parse(readFileSync(out.json, 'utf8'));
    const md = readFileSync(out.markdown, 'utf8').split('\n');
    const report = runMarkdown(results).split('\n');
    const overview = overviewOf(results, pointsOf(results), () => []);
    const against = doc.comparisons.filter((/** @type {any} */ c) => c.kind === 'dind-vs-docker');
    assert.ok(against.length >= 60, `${against.length} comparisons`);
    for (const c of against) {
      const text = reading({ ...c, ratio: { ...c.ratio, ratio: c.ratio.ratio ?? NaN } });
      const label = `${c.metric} (${c.unit})`;
      // compare's Markdown: the table of this pair, the row of this metric, the outcome column.
      const title = md.findIndex((l) =>
        l.startsWith(`### DinD vs Docker, ${c.benchmark} (debian): ${c.candidate.env}/debian`.replace('@', '@\u2060')),
      );
      assert.ok(title >= 0, `compare's table for ${c.benchmark} ${c.candidate.env}`);
      const row = md.slice(title + 1).find((l) => l.startsWith('|') && shows(cells(l)[0], label));
      assert.ok(
        row && shows(cells(row)[3], text),
        `compare Markdown ${c.metric} ${c.candidate.env}: ${row} vs ${text}`,
      );
      // report.md: the benchmark's table (the first after its heading), the column "<env> vs docker".
      const heading = report.findIndex((x) => x.startsWith(`## ${c.benchmark} (debian`));
      const start = report.findIndex((l, i) => i > heading && l.startsWith('| metric |'));
      const col = cells(report[start]).indexOf(`${c.candidate.env} vs docker`);
      const rrow = report.slice(start + 2).find((l) => shows(cells(l)[0], label));
      assert.ok(
        heading >= 0 && col > 0 && rrow && shows(cells(rrow)[col], text),
        `report.md ${c.metric} ${c.candidate.env}: ${rrow?.slice(0, 200)} vs ${text}`,
      );
      // The overview the site reads: the same outcome and ratio.
      const orow = overview.rows.find(
        (x) => x.benchmark === c.benchmark && x.metric === c.metric && x.distro === 'debian',
      );
      const v = orow?.vsDocker[c.candidate.env];
      assert.equal(v?.verdict ?? null, c.outcome, `overview ${c.metric} ${c.candidate.env}`);
      if (c.ratio.ratio !== null) assert.equal(v?.ratio, c.ratio.ratio);
    }
    // The answer table: the same cells in compare --json, the site's data, compare's Markdown, report.md
    // and the terminal.
    assert.deepEqual(overview.answer?.table, doc.table);
    const unmd = (/** @type {string} */ s) => s.replace(/\u2060/g, '').replace(/\\([[\]|*_`<>#$~])/g, '$1');
    for (const row of doc.table.rows) {
      const line = `| ${row.join(' | ')} |`;
      assert.ok(md.map(unmd).includes(line), `compare Markdown: ${line}`);
      assert.ok(report.map(unmd).includes(line), `report.md: ${line}`);
      const cellsInOrder = new RegExp(row.map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join(' +'));
      assert.match(printed, cellsInOrder, `terminal: ${row.join(' | ')}`);
    }
    assert.equal(
      workflowOutputs([doc]).verdict,
      doc.gate.verdict === 'nothing gated' ? 'inconclusive' : doc.gate.verdict,
    );
  });
}
