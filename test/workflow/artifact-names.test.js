// Several calls of the reusable workflow in one caller run keep their artifacts apart (issue 36): every
// artifact the workflow uploads or downloads is named from the call's `artifact-suffix` input (bench.yml's
// env ARTIFACT_SUFFIX and SHARD_PREFIX). Here each name is expanded for several calls and job ids (runner
// labels may hold dots), and no two calls share a name, nor does one call's shard pattern reach another's.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { parse } from 'yaml';

const ROOT = new URL('../..', import.meta.url).pathname;
const WORKFLOWS = ['.github/workflows/bench.yml', '.github/workflows/reusable-bench.yml'];
const tmp = mkdtempSync(path.join(tmpdir(), 'dind-bench-artifact-names-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** @param {string} rel */
const workflow = (rel) => parse(readFileSync(path.join(ROOT, rel), 'utf8'));

/** What each artifact action names, and with which input. */
const NAMED_BY = {
  'actions/upload-artifact': ['upload', 'name'],
  'actions/download-artifact': ['download', 'name'],
  'actions/upload-pages-artifact': ['upload', 'name'],
  'actions/deploy-pages': ['download', 'artifact_name'],
};

/**
 * Every artifact name a workflow writes or reads: [job, upload|download|pattern, name as written].
 * @param {any} w
 */
function artifactRefs(w) {
  /** @type {[string, string, string][]} */
  const refs = [];
  for (const [job, j] of Object.entries(/** @type {Record<string, any>} */ (w.jobs))) {
    for (const s of j.steps ?? []) {
      const action = String(s.uses ?? '').replace(/@.*/, '');
      if (action in NAMED_BY) {
        const [kind, input] = NAMED_BY[/** @type {keyof typeof NAMED_BY} */ (action)];
        if (kind === 'download' && s.with?.pattern !== undefined) refs.push([job, 'pattern', s.with.pattern]);
        else {
          // The pages actions' default name (github-pages) would be the same for every call.
          assert.ok(s.with?.[input], `${job}: ${action} names its artifact (${input})`);
          refs.push([job, kind, s.with[input]]);
        }
      }
      // The compare action uploads the whole comparison as an artifact of this name.
      if (/actions\/compare$/.test(action) && s.with?.['report-artifact'])
        refs.push([job, 'upload', s.with['report-artifact']]);
    }
  }
  return refs;
}

/** A call's env for its artifact-suffix, as bench.yml's env block computes it (checked as written). */
function callEnv(/** @type {any} */ w, /** @type {string} */ suffix) {
  assert.equal(w.env.ARTIFACT_SUFFIX, "${{ inputs.artifact-suffix && format('.{0}', inputs.artifact-suffix) || '' }}");
  assert.equal(
    w.env.SHARD_PREFIX,
    "${{ inputs.artifact-suffix && format('shard.{0}.', inputs.artifact-suffix) || 'shard-' }}",
  );
  return {
    'env.ARTIFACT_SUFFIX': suffix ? `.${suffix}` : '',
    'env.SHARD_PREFIX': suffix ? `shard.${suffix}.` : 'shard-',
  };
}

/** @param {string} text @param {Record<string, string>} values */
const expand = (text, values) =>
  text.replace(/\$\{\{ ([\w.-]+) \}\}/g, (_, key) => {
    assert.ok(key in values, `no value for ${key} in ${text}`);
    return values[key];
  });

/** A download-artifact pattern as minimatch reads one without `/`, `[`, `{`, `?` or `!`: `*` is any run. */
function glob(/** @type {string} */ pattern) {
  assert.match(pattern, /^[\w.-]*\*?$/, `${pattern}: only a trailing * as a wildcard`);
  return new RegExp(`^${pattern.replace(/[.]/g, '\\.').replace('*', '.*')}$`);
}

const CALLS = ['', 'gate-26', 'gate', 'gate-26-1', '1-dind', 'x_1'];
// Job ids from runner labels: letters, digits, . _ - (a host-engines label docker-26.1 brings a dot).
const JOB_IDS = ['gce-dind', 'gce-docker-26.1-dind', 'gce-docker-26.1-dind-1', 'local-interleaved-2'];

for (const rel of WORKFLOWS) {
  test(`${rel}: two calls in one caller run never share an artifact name, and each call reads its own`, () => {
    const w = workflow(rel);
    assert.ok('artifact-suffix' in (w.on.workflow_dispatch ?? w.on.workflow_call).inputs);
    const refs = artifactRefs(w);
    const kinds = new Set(refs.map(([, , n]) => n));
    for (const name of [
      '${{ env.SHARD_PREFIX }}${{ matrix.id }}',
      '${{ env.SHARD_PREFIX }}*',
      'results${{ env.ARTIFACT_SUFFIX }}',
      'comparison-report${{ env.ARTIFACT_SUFFIX }}',
      'pr-comment${{ env.ARTIFACT_SUFFIX }}',
      'github-pages${{ env.ARTIFACT_SUFFIX }}',
    ]) {
      assert.ok(kinds.has(name), `${name} is used`);
    }
    // Every name is the call's own: none is fixed text that two calls would share.
    for (const [job, kind, name] of refs) {
      assert.ok(
        /^\$\{\{ env\.SHARD_PREFIX \}\}/.test(name) || name.endsWith('${{ env.ARTIFACT_SUFFIX }}'),
        `${job}: ${kind} ${name} is the same for every call`,
      );
    }

    /** @type {Map<string, string>} concrete name -> the call that uploads it */
    const owner = new Map();
    /** @type {Map<string, {names: Set<string>, downloads: string[], patterns: RegExp[]}>} */
    const perCall = new Map();
    for (const suffix of CALLS) {
      const names = new Set();
      const downloads = [];
      const patterns = [];
      for (const id of JOB_IDS) {
        const values = { ...callEnv(w, suffix), 'matrix.id': id };
        for (const [, kind, name] of refs) {
          const concrete = expand(name, values);
          if (kind === 'upload') names.add(concrete);
          else if (kind === 'download') downloads.push(concrete);
          else patterns.push(glob(concrete));
        }
      }
      for (const name of names) {
        assert.ok(!owner.has(name), `calls '${owner.get(name)}' and '${suffix}' both upload ${name}`);
        owner.set(name, suffix);
      }
      perCall.set(suffix, { names, downloads, patterns });
    }
    for (const [suffix, { names, downloads, patterns }] of perCall) {
      // What a call downloads by name, it uploaded itself.
      for (const d of downloads) assert.ok(names.has(d), `call '${suffix}' downloads ${d}, which it never uploads`);
      // Its shard pattern matches all of its shards and nothing of another call.
      for (const re of patterns) {
        const matched = [...owner].filter(([n]) => re.test(n));
        assert.deepEqual(
          matched.filter(([, who]) => who !== suffix),
          [],
          `call '${suffix}': ${re} reaches another call's artifacts`,
        );
        assert.equal(matched.length, JOB_IDS.length, `call '${suffix}': ${re} matches each of its shards`);
      }
    }
  });
}

test("prepare refuses an artifact-suffix that could make another call's names (before anything runs)", () => {
  const w = workflow('.github/workflows/bench.yml');
  // The first steps of the first job: the hosted label's check, then this one.
  assert.equal(w.jobs.prepare.steps[0].name, 'Hosted runner label');
  const s = w.jobs.prepare.steps[1];
  assert.equal(s.name, 'Artifact names', 'the second step of the first job');
  assert.equal(s.env.SUFFIX, '${{ inputs.artifact-suffix }}');
  const run = (/** @type {string} */ suffix) => {
    const out = path.join(tmp, 'github-output');
    writeFileSync(out, '');
    const values = callEnv(w, suffix);
    return spawnSync('bash', ['-e', '-o', 'pipefail', '-c', s.run], {
      env: {
        PATH: process.env.PATH,
        GITHUB_OUTPUT: out,
        SUFFIX: suffix,
        ARTIFACT_SUFFIX: values['env.ARTIFACT_SUFFIX'],
        SHARD_PREFIX: values['env.SHARD_PREFIX'],
      },
      encoding: 'utf8',
    });
  };
  for (const good of CALLS) {
    const r = run(good);
    assert.equal(r.status, 0, `${good}: ${r.stdout}${r.stderr}`);
  }
  assert.match(
    run('gate-26').stdout,
    /artifacts: results\.gate-26, comparison-report\.gate-26, shard\.gate-26\.<job id>/,
  );
  for (const bad of ['a.b', '../x', 'a/b', 'a b', 'x*', 'a\n::warning::x', 'x'.repeat(41)]) {
    const r = run(bad);
    assert.notEqual(r.status, 0, JSON.stringify(bad));
    assert.match(r.stdout, /^::error title=dind-bench artifact-suffix::the input artifact-suffix must be/m);
    assert.ok(!r.stdout.includes('::warning'), 'the value is not echoed');
  }
});

test("use-in-your-repository.md's two calls in one run: real inputs, each call's own artifact-suffix", () => {
  const inputs = workflow('.github/workflows/reusable-bench.yml').on.workflow_call.inputs;
  const doc = readFileSync(path.join(ROOT, 'docs/use-in-your-repository.md'), 'utf8');
  const section = doc.split('## Several calls in one run')[1]?.split('\n## ')[0] ?? '';
  const block = parse(section.split('```yaml')[1]?.split('```')[0] ?? '');
  const calls = Object.values(/** @type {Record<string, any>} */ (block?.jobs ?? {}));
  assert.ok(calls.length >= 2, 'the section shows two calls');
  for (const call of calls) {
    assert.match(call.uses, /\/\.github\/workflows\/reusable-bench\.yml@/);
    assert.equal(call.permissions['id-token'], 'write', 'the suite job needs it');
    for (const name of Object.keys(call.with)) assert.ok(name in inputs, `${name} is an input of the workflow`);
    assert.match(call.with['artifact-suffix'], /^[A-Za-z0-9_-]{1,40}$/);
  }
  const suffixes = calls.map((c) => c.with['artifact-suffix']);
  assert.equal(new Set(suffixes).size, suffixes.length, 'each call its own suffix');
});
