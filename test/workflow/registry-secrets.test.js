// A workload's registry credential reaches the run from a secret through `env:` only: the reusable workflow
// declares it (optional), bench.yml and the reusable workflow hand it to the run action's step in `env:`, and
// no `run:` script or `with:` input carries a secret.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import YAML from 'yaml';

const read = (/** @type {string} */ name) =>
  YAML.parse(readFileSync(new URL(`../../.github/workflows/${name}`, import.meta.url), 'utf8'));
const NAMES = ['DIND_BENCH_REGISTRY_USERNAME', 'DIND_BENCH_REGISTRY_PASSWORD'];

test('the reusable workflow declares the registry credential as optional secrets', () => {
  const secrets = read('reusable-bench.yml').on.workflow_call.secrets;
  for (const name of NAMES) assert.equal(secrets[name]?.required, false, name);
  assert.equal(secrets.DIND_BENCH_SECRETS?.required, false, "the map of the workload's other secrets");
});

for (const file of ['bench.yml', 'reusable-bench.yml']) {
  test(`${file}: the run step gets the credential through env, and secrets appear in no run: or with:`, () => {
    const jobs = Object.values(read(file).jobs);
    const steps = jobs.flatMap((/** @type {any} */ j) => j.steps ?? []);
    const run = steps.find((/** @type {any} */ s) => /actions\/run$/.test(s.uses ?? ''));
    assert.ok(run, 'the run action step');
    for (const name of NAMES) assert.equal(run.env?.[name], `\${{ secrets.${name} }}`, name);
    assert.equal(run.env?.DIND_BENCH_WORKLOAD_SECRETS, '${{ secrets.DIND_BENCH_SECRETS }}', 'the map, through env');
    for (const step of steps) {
      assert.doesNotMatch(String(step.run ?? ''), /secrets\./, `${step.name ?? step.uses}: run`);
      assert.doesNotMatch(
        JSON.stringify(step.with ?? {}),
        /secrets\.DIND_BENCH_REGISTRY/,
        `${step.name ?? step.uses}: with`,
      );
    }
  });
}
