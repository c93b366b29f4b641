// Advice names what exists (issue 55, item 4: "every refusal's advice names an input that exists and says
// what to write instead"). Every `dind-bench COMMAND … --option` written in src/ (a refusal's advice, a
// hint, a next step), README.md and docs/ names options that command really has, read from the real command
// line (commander's own definitions, not a copy); every reusable-workflow input a refusal or the workflow's advice names is an
// input of .github/workflows/reusable-bench.yml; every workload field the drafter's notes tell a team to
// write is a field of the workload schema.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import YAML from 'yaml';
import { program } from '../../src/cli/main.js';
import { workflowAdvice } from '../../src/run/workload-plan.js';

const ROOT = new URL('../../', import.meta.url).pathname;

/** Every .js file under `dir`, relative to ROOT. @param {string} dir @returns {string[]} */
function jsFiles(dir) {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? jsFiles(`${dir}/${e.name}`) : e.name.endsWith('.js') ? [`${dir}/${e.name}`] : [],
  );
}

/** @typedef {import('commander').Command} Command */

/** Each command by its words ("run", "images build"), with its long options. @returns {Map<string, Set<string>>} */
function commandOptions() {
  /** @type {Map<string, Set<string>>} */
  const out = new Map();
  const walk = (/** @type {Command} */ cmd, /** @type {string} */ words) => {
    const own = cmd.options.map((o) => o.long).filter((l) => typeof l === 'string');
    out.set(words, new Set([...own, '--help']));
    for (const sub of cmd.commands) walk(sub, words ? `${words} ${sub.name()}` : sub.name());
  };
  walk(program(), '');
  return out;
}

/**
 * Each `dind-bench …` command line in a text: the command's words and the options after them, up to the end
 * of the quoted command (a backtick, a quote, a parenthesis, a semicolon or the line's end).
 * @param {string} text @param {Map<string, Set<string>>} commands
 * @param {boolean} [bare] also a command quoted without the program's name (src/: a doc's `run --rm` is compose's)
 * @returns {{ command: string, options: string[], line: number }[]}
 */
function commandLines(text, commands, bare = true) {
  const out = [];
  for (const m of text.matchAll(/\bdind-bench ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?([^`'"()\n;]*)/g)) {
    const two = `${m[1]} ${m[2] ?? ''}`.trim();
    const command = commands.has(two) ? two : commands.has(m[1]) ? m[1] : null;
    if (command === null) continue;
    const rest = command === two ? m[3] : `${m[2] ?? ''}${m[3]}`;
    const options = [...rest.matchAll(/(?:^|\s)(--[a-z][a-z0-9-]*)/g)].map((o) => o[1]);
    out.push({ command, options, line: text.slice(0, m.index).split('\n').length });
  }
  // A command quoted without the program's name: `compare --history --json`, `run --budget 15m`.
  for (const m of bare ? text.matchAll(/`([a-z][a-z-]*)(?: ([a-z][a-z-]*))?((?: [^`\n]*)?)`/g) : []) {
    const two = `${m[1]} ${m[2] ?? ''}`.trim();
    const command = commands.has(two) ? two : commands.has(m[1]) ? m[1] : null;
    const rest = command === two ? m[3] : ` ${m[2] ?? ''}${m[3]}`;
    // Its options right after it (a sentence in a template literal, `run a step …`, is not a command).
    if (!command || !rest.startsWith(' --')) continue;
    const options = [...rest.matchAll(/(?:^|\s)(--[a-z][a-z0-9-]*)/g)].map((o) => o[1]);
    if (options.length) out.push({ command, options, line: text.slice(0, m.index).split('\n').length });
  }
  return out;
}

test('every `dind-bench COMMAND --option` written in src/, README.md and docs/ names an option that command has', () => {
  const commands = commandOptions();
  assert.ok(commands.get('workload init')?.has('--from'), 'the commands are read from the real command line');
  const wrong = [];
  let seen = 0;
  const docs = readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`);
  for (const file of [...jsFiles('src'), 'README.md', ...docs]) {
    for (const c of commandLines(readFileSync(path.join(ROOT, file), 'utf8'), commands, file.endsWith('.js'))) {
      seen += c.options.length;
      const has = /** @type {Set<string>} */ (commands.get(c.command));
      for (const o of c.options) if (!has.has(o)) wrong.push(`${file}:${c.line}: dind-bench ${c.command} has no ${o}`);
    }
  }
  assert.ok(seen >= 10, `${seen} options named after a command: the scan finds them`);
  assert.deepEqual(wrong, []);
});

test('the scan reads a command line as written, and catches an option the command lacks', () => {
  const commands = commandOptions();
  const found = commandLines(
    'x `dind-bench images build --distro bookworm --pull` y; "dind-bench plan --workload F (docs)" `dind-bench run --environments a` `compare --history --json` `run a step: docker run --rm`',
    commands,
  );
  assert.deepEqual(found, [
    { command: 'images build', options: ['--distro', '--pull'], line: 1 },
    { command: 'plan', options: ['--workload'], line: 1 },
    { command: 'run', options: ['--environments'], line: 1 },
    { command: 'compare', options: ['--history', '--json'], line: 1 },
  ]);
  assert.equal(commands.get('run')?.has('--environments'), false);
});

/** The reusable workflow's inputs. @returns {Set<string>} */
function reusableInputs() {
  const wf = YAML.parse(readFileSync(path.join(ROOT, '.github/workflows/reusable-bench.yml'), 'utf8'));
  return new Set(Object.keys(wf.on.workflow_call.inputs));
}

test("every input the workflow's refusals and its plan advice name is an input of the reusable workflow", () => {
  const inputs = reusableInputs();
  assert.ok(inputs.has('workload') && inputs.has('iterations'));
  /** @type {string[]} */
  const named = [];
  // The plan's advice under --advice workflow: each `name: value` is what a caller writes under with:.
  const advice = workflowAdvice(['20.10', '26.1']);
  for (const text of [advice.iterations(3), advice.split])
    named.push(...[...text.matchAll(/`([a-z][a-z0-9-]*): [^`]*`/g)].map((m) => m[1]));
  // The workflow's own refusals and src/workflow's messages: "input NAME", "inputs A, B and C".
  const texts = [
    readFileSync(path.join(ROOT, '.github/workflows/reusable-bench.yml'), 'utf8'),
    ...jsFiles('src/workflow').map((f) => readFileSync(path.join(ROOT, f), 'utf8')),
  ];
  for (const text of texts)
    for (const m of text.matchAll(/\b(?:the )?inputs? ((?:[a-z][a-z0-9]*-?[a-z0-9-]*(?:, | and )?)+)/g)) {
      const words = m[1].split(/, | and /).filter((w) => /^[a-z][a-z0-9-]*$/.test(w));
      // Prose ("input and output", "inputs of") is not a list of names: only words that look like one.
      named.push(...words.filter((w) => w.includes('-') || inputs.has(w) || /^(environments|env|engine)$/.test(w)));
    }
  assert.ok(named.includes('iterations') && named.includes('engines'), named.join(', '));
  assert.deepEqual(
    [...new Set(named)].filter((n) => !inputs.has(n)),
    [],
    'named as inputs of the reusable workflow, which has none of that name',
  );
});

test('every workload field the drafter tells a team to write is a field of the workload schema', () => {
  const schema = JSON.parse(readFileSync(path.join(ROOT, 'schema/workload.v1.schema.json'), 'utf8'));
  const top = new Set(Object.keys(schema.properties));
  const text = [
    'draft-steps.js',
    'draft-docker.js',
    'draft-services.js',
    'draft-actions.js',
    'draft-parts.js',
    'from-workflow.js',
  ]
    .map((f) => readFileSync(path.join(ROOT, 'src/workload', f), 'utf8'))
    .join('\n');
  // "under builds:", "add it under images:", "compose.test", "timeout: {job: …}", "registries: true", "runner.persist"
  const fields = [
    ...[...text.matchAll(/under (\w+):/g)].map((m) => m[1]),
    ...[...text.matchAll(/\b(compose|runner|timeout)\.(?!ya?ml\b)([a-z]\w*)/g)].map((m) => `${m[1]}.${m[2]}`),
    ...[...text.matchAll(/give the job's (\w+):/g)].map((m) => m[1]),
  ];
  assert.ok(fields.length >= 5, fields.join(', '));
  const missing = fields.filter((f) => {
    const [a, b] = f.split('.');
    if (!top.has(a)) return true;
    return b !== undefined && !Object.hasOwn(schema.properties[a].properties ?? {}, b);
  });
  assert.deepEqual(missing, []);
});
