// What `workload init` reads of a workflow's run: scripts and expressions (src/workload/workflow-shell.js,
// workflow-docker.js, workflow-expr.js): a docker command is carried only when it is certainly one, and
// anything the draft cannot take apart stays in its step as written.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { idOf } from '../../src/workload/draft-parts.js';
import { dockerCommandOf } from '../../src/workload/workflow-docker.js';
import { expand, matrixOf } from '../../src/workload/workflow-expr.js';
import { linesSeparable, logicalLines, simpleWords, tokens } from '../../src/workload/workflow-shell.js';

test('words: quotes removed, operators apart; substitutions and open quotes are not taken apart', () => {
  assert.deepEqual(simpleWords(`docker build -t "a b" 'c $d' e\\ f .`), [
    'docker',
    'build',
    '-t',
    'a b',
    'c $d',
    'e f',
    '.',
  ]);
  assert.equal(simpleWords('docker build . && echo ok'), null);
  assert.equal(tokens('docker build -t "$(git rev-parse HEAD)" .'), null);
  assert.equal(tokens('echo "open'), null);
  assert.deepEqual(simpleWords('docker pull a:1 # the base'), ['docker', 'pull', 'a:1']);
});

test('lines: continuations joined; a script with blocks, heredocs or strings over lines is kept whole', () => {
  assert.deepEqual(
    logicalLines('docker build \\\n  -t a:1 .\necho done').map((l) => l.text),
    ['docker build    -t a:1 .', 'echo done'],
  );
  assert.ok(linesSeparable('npm ci\ndocker build .'));
  assert.ok(!linesSeparable('if true; then\n  docker build .\nfi'));
  assert.ok(!linesSeparable('cat <<EOF\ndocker build .\nEOF'));
  assert.ok(!linesSeparable('echo "one\ndocker build .\n"'));
});

test('docker commands: builds with their secrets, compose tests, logins by variable; unknown options stay', () => {
  const build = dockerCommandOf(
    'docker buildx build --secret id=npm,env=NPM_TOKEN --secret id=key,src=key.txt --build-arg A=1 -f d/Dockerfile --target t -t "$IMAGE:1" --push ctx',
    { IMAGE: 'acme/api' },
  );
  assert.ok(build && 'kind' in build && build.kind === 'build');
  assert.equal(build.context, 'ctx');
  assert.equal(build.dockerfile, 'd/Dockerfile');
  assert.deepEqual(build.tags, ['acme/api:1']);
  assert.deepEqual(build.secrets, [{ id: 'npm', env: 'NPM_TOKEN' }]);
  assert.deepEqual(build.args, { A: '1' });
  assert.equal(build.lost.length, 2, JSON.stringify(build.lost)); // the file secret, the push
  assert.deepEqual(dockerCommandOf('docker build --squash-it .', {}), {
    unparsed: 'the build option --squash-it is not known here',
  });
  assert.match(
    /** @type {any} */ (dockerCommandOf('docker build -t "a:$SHA" .', {})).lost[0],
    /a variable the draft does not know/,
  );
  const run = dockerCommandOf('docker compose -f e2e/compose.yml run --rm -T tests npm test', {});
  assert.ok(run && 'kind' in run && run.kind === 'compose');
  assert.deepEqual(
    [run.files, run.sub, run.service, run.command],
    [['e2e/compose.yml'], 'run', 'tests', ['npm', 'test']],
  );
  const login = dockerCommandOf('echo "$TOKEN" | sudo docker login ghcr.io -u "$USER_NAME" --password-stdin', {});
  assert.deepEqual(login, { kind: 'login', registry: 'ghcr.io', username: 'USER_NAME', password: 'TOKEN', lost: [] });
  assert.equal(dockerCommandOf('docker run --rm alpine true', {}), null);
  assert.match(
    /** @type {any} */ (dockerCommandOf('docker compose up -d && docker compose logs', {})).unparsed,
    /inside a list/,
  );
});

test('expressions: secrets by name, the matrix drafted, literals; the rest stands as "draft"', () => {
  const ctx = { matrix: { node: '20' }, env: { IMAGE: 'acme/api' }, inputs: { level: 'info' } };
  assert.deepEqual(expand('${{ secrets.NPM_TOKEN }} ${{ matrix.node }} ${{ env.IMAGE }} ${{ inputs.level }}', ctx), {
    text: '$NPM_TOKEN 20 acme/api info',
    secrets: ['NPM_TOKEN'],
    unresolved: [],
  });
  assert.deepEqual(expand("${{ github.sha }}-${{ inputs.tag || 'latest' }}", ctx), {
    text: 'draft-draft',
    secrets: [],
    unresolved: ['${{ github.sha }}', "${{ inputs.tag || 'latest' }}"],
  });
  assert.equal(expand("${{ inputs.level || 'debug' }}", ctx).text, 'info');
  assert.deepEqual(matrixOf({ matrix: { node: [20, 22], os: ['a', 'b'], include: [{ node: 20, extra: 'x' }] } }), {
    values: { node: '20', os: 'a', extra: 'x' },
    combinations: 4,
  });
  assert.equal(matrixOf({ matrix: '${{ fromJSON(needs.a.outputs.m) }}' }).values, null);
});

test("names: a step's or a job's name as the workload's ids take it", () => {
  assert.equal(idOf('Build and push', 'x'), 'build-and-push');
  assert.equal(idOf('git config --global', 'x'), 'git-config-global');
  assert.equal(idOf('--', 'step-1'), 'step-1');
});
