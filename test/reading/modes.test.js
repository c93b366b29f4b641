// The mode table's answer from a real run (test/fixtures/results/modes-quick.json): the cheapest mode that
// meets a policy by the workload's cost where a workload ran, else by the start-up a job pays; a policy no
// mode meets says why each fails; report.html shows the rows with the evidence escaped.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parsePolicy } from '../../src/model/isolation.js';
import { modeTable } from '../../src/reading/modes.js';
import { readWithinRun } from '../../src/reading/index.js';
import { runHtml } from '../helpers/reading.js';

const run = () => JSON.parse(readFileSync(new URL('../fixtures/results/modes-quick.json', import.meta.url), 'utf8'));

test('by start-up when no workload ran; every row of the run, docker first, sysbox with its reason', () => {
  const r = run();
  const t = modeTable(r, readWithinRun(r), { policy: parsePolicy('no-privileged,no-runner-engine') });
  assert.equal(t.rows[0].env, 'docker');
  const keys = new Set(r.cells.map((/** @type {any} */ c) => c.environmentKey));
  assert.deepEqual(new Set(t.rows.map((x) => x.env)), keys);
  const sysbox = t.rows.find((x) => x.env.startsWith('sysbox'));
  assert.equal(sysbox?.status, 'unavailable');
  assert.match(sysbox?.reason ?? '', /sysbox-runc/);
  assert.deepEqual(sysbox?.policy, { meets: false, why: ['not probed'] });
  const meeting = t.rows.filter((x) => x.policy?.meets).map((x) => x.env);
  assert.deepEqual(meeting, ['dind-rootless@20.10']);
  assert.match(
    t.answer ?? '',
    /is dind-rootless@20\.10 \(start-up [\d.]+ s a job; cheapest by the start-up a job pays\)/,
  );
  // The probe's own wall time is no verdict on the mode.
  for (const row of t.rows) for (const v of row.verdicts) assert.doesNotMatch(v, /^isolation:/);
});

test("by the workload's cost per 1,000 jobs where a workload ran", () => {
  const r = run();
  // Two modes that both meet "no-runner-engine" ran the team's job: the cheaper per 1,000 jobs is named.
  const job = (/** @type {string} */ env, /** @type {number} */ ms) => ({
    benchmark: 'workload.app', environment: env.split('@')[0], environmentKey: env, distro: 'debian',
    engine: '20.10', image: null, status: 'ok', raw: [],
    metrics: [{ metric: 'job.total_ms', unit: 'ms', better: 'lower', samples: [ms, ms * 1.01, ms * 0.99], warmup: [] }],
  }); // prettier-ignore
  r.cells.push(job('dind@20.10', 130_000), job('dind-rootless@20.10', 70_000));
  const t = modeTable(r, readWithinRun(r), { policy: parsePolicy('no-runner-engine'), price: 0.006 });
  const rootless = t.rows.find((x) => x.env === 'dind-rootless@20.10');
  assert.equal(rootless?.job?.per1000, 12); // 70 s: 2 billed minutes at $0.006, times 1,000
  assert.match(
    t.answer ?? '',
    /is dind-rootless@20\.10 \(70 s a job, \$12\.00 per 1,000 jobs; cheapest by its workload cost among the 2 that ran it\)\. 5 modes meet it: /,
  );
});

test('a policy no mode meets says so and why each fails; unknown never meets', () => {
  const r = run();
  const t = modeTable(r, readWithinRun(r), { policy: parsePolicy('no-host-root,no-runner-engine,privileged=yes') });
  assert.match(
    t.answer ?? '',
    /^No mode measured on this runner meets the policy no-host-root,no-runner-engine,privileged=yes\. Not meeting it: docker \(/,
  );
});

test('report.html shows the mode table with each fact coloured and its evidence escaped', () => {
  const r = run();
  const iso = r.cells.find((/** @type {any} */ c) => c.benchmark === 'isolation' && c.environmentKey === 'dood');
  iso.facts[0].evidence = '<script>alert(1)</script>';
  iso.facts[0].name = 'privileged';
  iso.facts[0].value = 'yes';
  const html = runHtml(r);
  assert.match(html, /<table class="modes">/);
  assert.match(
    html,
    /<tr data-mode="dood"><td class="">dood<\/td><td class="bad">no: privileged is yes, runner-engine is yes<\/td><td class="bad" title="[^"]*&#60;script&#62;/,
  );
  assert.doesNotMatch(html, /<script>alert/);
});
