// Sampling until decided on the real engine (issue 45): a budgeted run of sysbench in docker and dind looks
// at its decision at the design's looks, samples while it is open, and records per cell why it stopped; the
// results say how many looks the design allowed, and the reading's outcome agrees with each stop: a cell
// that stopped "decided" has every decision it takes part in decided, an open decision says why it stopped.
// npm run test:e2e: a whole run sampling until its decisions are made
// npm test: alone: how many samples a cell takes follows the noise it measures, which a neighbour adds to
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { looksUpTo } from '../../src/model/decisions.js';
import { readWithinRun } from '../../src/reading/index.js';
import { validateResults } from '../../src/results/schema.js';
import { engineOrSkip, ensureImages } from '../helpers/engine.js';
import { NOTHING, streamCli, settled } from '../helpers/run-cli.js';
import { tmpDir } from '../history/helpers.js';

test(
  'a budgeted run samples until its decisions are decided, capped or out of budget, and says which per cell',
  { timeout: 600_000 },
  async (t) => {
    const outer = await engineOrSkip(t);
    if (!outer) return;
    await ensureImages(outer);
    const out = path.join(tmpDir('sampling'), 'run');
    const r = await streamCli([
      'run',
      '--profile',
      'quick',
      '--bench',
      'sysbench,lifecycle',
      '--env',
      'docker,dind',
      '--engine',
      '20.10',
      '--no-build',
      '--budget',
      '4m',
      '--out',
      out,
    ]);
    const log = r.lines.join('\n');
    assert.equal(r.code, 0, log);
    const results = validateResults(JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')), 'sampling');
    // The quick profile's design: the first look at 5, then 7, 10 and the cap of 12.
    assert.equal(results.run.looks, looksUpTo(5, 12).length);
    const decisions = readWithinRun(results).filter((c) => c.decision);
    assert.deepEqual(decisions.map((c) => `${c.benchmark}/${c.metric}`).sort(), [
      'lifecycle/startup.without_image_ms',
      'sysbench/cpu.events_per_second',
    ]);
    for (const cell of results.cells) {
      assert.ok(cell.sampling, `${cell.benchmark}/${cell.environmentKey} records its sampling`);
      const n = cell.metrics[0]?.samples.length ?? 0;
      assert.equal(cell.sampling.iterations, n);
      assert.ok(n >= 5 && n <= 12, `${cell.benchmark}/${cell.environmentKey}: ${n} samples`);
      const mine = decisions.filter((c) => c.benchmark === cell.benchmark);
      if (cell.sampling.stopped === 'decided')
        for (const c of mine) assert.notEqual(c.outcome, 'inconclusive', `${c.benchmark} stopped as decided`);
      else assert.ok(['iteration cap', 'budget spent'].includes(cell.sampling.stopped), cell.sampling.stopped);
    }
    // The start-up a job pays in DinD, before its images, is several times Docker's: decided at the first look.
    const startup = decisions.find((c) => c.benchmark === 'lifecycle');
    assert.equal(startup?.outcome, 'regression');
    assert.equal(startup?.candidate.n, 5);
    // Rounds went only to open decisions, and each said so.
    for (const line of r.lines.filter((l) => l.startsWith('sampling: ') && l.includes(' round ')))
      assert.match(line, /^sampling: sysbench round \d+ for 1 open decision\(s\)/);
    assert.deepEqual(await settled(outer), NOTHING);
  },
);
