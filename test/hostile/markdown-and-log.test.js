// Markdown and workflow-command injection: a results file whose names carry images, links, raw HTML,
// @mentions, </details>, table pipes and newlines. report.md, the job summary (compare's Markdown) and
// the PR comment are rendered with a real GFM renderer (marked) and must show the names as plain text;
// nothing printed to a log may start an Actions workflow command.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { marked } from 'marked';
import { gabEntries, gabText } from '../../src/compare/gab-export.js';
import { markdownReport as compareMarkdown, prComment } from '../../src/compare/render.js';
import { compareWithinRun } from '../../src/results/within-run.js';
import { logSafe, logText, mdCode, mdText } from '../../src/text/escape.js';
import { compareOutcome, runMarkdown } from '../helpers/reading.js';
import { cli, fixture, tmpDir } from './helpers.js';
import { gateOf } from '../../src/reading/gate.js';

// One line of everything GitHub's Markdown would turn into something else (no control characters:
// the schema refuses those in names; reasons, which may have them, get a newline-split row below).
const EVIL =
  'x</details><img src=x onerror=alert(1)>![p](http://evil.example/p.png)[l](http://evil.example) @octocat www.evil.example https://evil.example | row | #1 *em* _u_ `c` $m$ <!-- \\';
const WJ = /\u2060/g;

/** A results document with EVIL in every name a report prints. */
function hostileResults() {
  const r = fixture();
  r.run.id = `run ${EVIL}`.slice(0, 200);
  r.runner.name = `runner ${EVIL}`.slice(0, 200);
  r.host.cpuModel = `cpu ${EVIL}`;
  r.engines.outer.version = `engine ${EVIL}`;
  r.environments[0].reason = `why\n| injected | row |\n::warning::pwned\n</details>`;
  for (const c of r.cells) if (c.benchmark === 'lifecycle') c.benchmark = `bench ${EVIL}`.slice(0, 200);
  for (const c of r.cells)
    for (const m of c.metrics) if (m.metric === 'container.create_ms') m.metric = `metric ${EVIL}`.slice(0, 200);
  return r;
}

/**
 * Checks rendered HTML: only the tags our templates make, no link, image or raw HTML from data, every
 * table row as wide as its header, no @mention or #reference GitHub would link, and the data's text
 * shown as it is.
 * @param {string} md @param {{ details?: number }} [o]
 */
function assertInert(md, { details = 0 } = {}) {
  const html = marked.parse(md, { gfm: true, async: false });
  const tags = [...html.matchAll(/<\/?([a-zA-Z0-9]+)/g)].map((m) => m[1].toLowerCase());
  const allowed = new Set([
    'h1',
    'h2',
    'h3',
    'p',
    'strong',
    'ul',
    'li',
    'code',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'details',
    'summary',
    'br',
  ]);
  for (const t of tags) assert.ok(allowed.has(t), `<${t}> in the rendered report:\n${html.slice(0, 3000)}`);
  assert.equal(tags.filter((t) => t === 'details').length, details * 2, 'only our own <details>');
  for (const table of html.split('<table>').slice(1)) {
    const rows = table.split('</table>')[0].split('<tr>').slice(1);
    const widths = rows.map((row) => (row.match(/<t[hd][ >]/g) ?? []).length);
    assert.ok(
      widths.every((w) => w === widths[0]),
      `a row split or merged: ${widths}`,
    );
  }
  const text = html
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
  // GitHub links neither inside code spans.
  const linkable = html.replace(/<code>.*?<\/code>/gs, '').replace(/<[^>]*>/g, '');
  assert.doesNotMatch(linkable, /(^|[^A-Za-z0-9])@[A-Za-z0-9]/m, 'an @mention GitHub would notify');
  assert.doesNotMatch(linkable, /(^|\s)#\d/m, 'an issue reference GitHub would link');
  return text.replace(WJ, '');
}

test("the run's report.md renders every hostile name as plain text", () => {
  const text = assertInert(runMarkdown(hostileResults()));
  for (const s of [`run ${EVIL}`.slice(0, 200), `cpu ${EVIL}`, `engine ${EVIL}`])
    assert.ok(text.includes(s), `shown as written: ${s}`);
});

test("compare's job summary and PR comment render hostile names and reasons as plain text", () => {
  const results = hostileResults();
  const comparisons = compareWithinRun(results);
  assert.ok(
    comparisons.some((c) => c.metric.startsWith('metric ')),
    'the hostile metric is compared',
  );
  const v = {
    status: /** @type {const} */ ('regression'),
    benchmark: `bench ${EVIL}`,
    metric: `metric ${EVIL}`,
    unit: 'ms',
    environmentKey: `env ${EVIL}`,
    distro: 'debian',
    median: 2,
    pastMedian: 1,
    change: 1,
    p: 0.01,
    reason: `median doubled ${EVIL}`,
  };
  const gate = gateOf(
    [
      {
        benchmark: v.benchmark,
        metric: v.metric,
        where: `${v.environmentKey}/debian`,
        outcome: 'regression',
        change: 1,
        sees: null,
      },
    ],
    'regression',
  );
  const read = compareOutcome(results, {}, /** @type {any[]} */ ([v]));
  const outcome = { ...read, reading: { ...read.reading, gate } };
  const summary = assertInert(compareMarkdown(outcome));
  // The gate's sentence names the worst regression in full, as plain text (tables cut long names).
  assert.ok(summary.includes(`metric ${EVIL}`), 'the hostile metric named in the gate sentence');
  const comment = assertInert(prComment(outcome), { details: 1 });
  assert.ok(comment.includes(`median doubled ${EVIL}`));
});

test('escapers: one line, every character kept', () => {
  assert.equal(mdText('a\nb\r\u2028c'), 'a b  c');
  assert.equal(marked.parseInline(mdCode('a``b|c')), '<code>a``b¦c</code>');
  assert.equal(logText('id\n::warning::x'), 'id\\n::warning::x');
  for (const line of logSafe('ok\n::add-mask::x\n  ::stop-commands::t\r\n##[error]y').split('\n')) {
    assert.doesNotMatch(line, /^\s*::|##\[/);
  }
  // Every line terminator a log reader may honour, each followed by a command (some after whitespace).
  for (const brk of ['\n', '\r', '\r\n', '\v', '\f', '\u0085', '\u2028', '\u2029']) {
    const text = logSafe(`x${brk}::warning title=pwned::pwned${brk} \u0085${brk}::add-mask::y`);
    for (const line of text.split(LINE_BREAKS)) assert.doesNotMatch(line, COMMAND, JSON.stringify(text));
    assert.equal(text.replace(WJ, ''), `x${brk}::warning title=pwned::pwned${brk} \u0085${brk}::add-mask::y`);
  }
  assert.equal(logText('a\u0085b\u2028c\u2029d'), 'a\\u0085b\\u2028c\\u2029d');
});

// What any log reader may take for a line break, and a workflow command at a line's start after
// whatever it trims.
const LINE_BREAKS = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/;
const COMMAND = /^[\s\u0085]*::|##\[/;

test('a hostile key holding 1e999 is named in the error, escaped: no line of it starts a command', async () => {
  const dir = tmpDir('log');
  const keys = [
    'x\n\u0085::warning title=pwned::pwned',
    'y\u2028::warning title=pwned::pwned',
    'z\u2029::stop-commands::t',
  ];
  for (const [i, key] of keys.entries()) {
    // The document is written by hand: JSON.stringify cannot write 1e999, and keeps U+0085 and U+2028 raw.
    const text = JSON.stringify(fixture()).replace(/^\{/, `{${JSON.stringify(key)}: 1e999, `);
    assert.ok(text.includes(key.slice(1).replace('\n', '\\n')), 'the raw key is in the file');
    const file = path.join(dir, `bad${i}.json`);
    writeFileSync(file, text);
    for (const args of [
      ['publish', file, '--history', path.join(dir, 'h')],
      ['compare', file],
    ]) {
      const r = await cli(args, { GITHUB_ACTIONS: '' });
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, /number too large for a double at \/[xyz]\\(n\\u0085|u2028|u2029)::/, r.stderr);
      for (const out of [r.stdout, r.stderr]) {
        for (const line of out.split(LINE_BREAKS))
          assert.doesNotMatch(line, COMMAND, `a workflow command in: ${JSON.stringify(line)}`);
      }
    }
  }
});

test('nothing the CLI prints starts a workflow command: a hostile file path, and a metric named like one is refused', async () => {
  const dir = tmpDir('log');
  // A folder name that is itself a workflow command after a newline; the error names the file.
  const evilDir = path.join(dir, 'x\n::warning title=pwned::pwned\n##[error]legacy');
  mkdirSync(evilDir);
  writeFileSync(path.join(evilDir, 'results.json'), '{"schemaVersion": 1,');
  const r = await cli(['publish', path.join(evilDir, 'results.json'), '--history', path.join(dir, 'h')]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /not valid JSON/);
  // A metric named like a command would start a row of compare's terminal table: the schema refuses the
  // name (one word of letters, digits and `_ . : / -`, from a letter or digit), naming the file, the field
  // and what to do, and its message starts no command either.
  const doc = fixture();
  for (const c of doc.cells)
    for (const m of c.metrics) if (m.metric === 'container.create_ms') m.metric = '::stop-commands::token';
  writeFileSync(path.join(dir, 'run.json'), JSON.stringify(doc));
  const c = await cli(['compare', path.join(dir, 'run.json')], { GITHUB_ACTIONS: '' });
  assert.equal(c.code, 1, c.stderr);
  assert.ok(c.stderr.includes(`${path.join(dir, 'run.json')}: not a valid results document`), c.stderr);
  assert.match(
    c.stderr,
    /\/cells\/\d+\/metrics\/\d+\/metric is "::stop-commands::token": a benchmark or metric name is/,
  );
  assert.match(c.stderr, /rename it where the results were made/);
  assert.equal(c.stdout, '');
  for (const out of [r.stderr, c.stdout, c.stderr]) {
    for (const line of out.split(/\r\n|\r|\n/))
      assert.doesNotMatch(line, /^\s*::|##\[/, `a workflow command in: ${JSON.stringify(line)}`);
  }
  assert.ok(readFileSync(path.join(evilDir, 'results.json'), 'utf8'));
});

test('the github-action-benchmark export carries hostile names as inert plain text', () => {
  const results = hostileResults();
  results.run.id = `run ${EVIL} @@x _@y`.slice(0, 200);
  for (const c of results.cells) for (const m of c.metrics) m.unit = `ms ${EVIL}`.slice(0, 64);
  const { bigger, smaller } = gabEntries(results);
  const entries = [...bigger, ...smaller];
  assert.ok(entries.some((e) => e.name.startsWith('bench x-/details--img')) && entries.length > 10);
  for (const e of entries) {
    for (const text of [e.name, e.unit, e.extra]) {
      assert.match(text, /^[A-Za-z0-9 ._/@:;%[\]-]*$/, text);
      assert.doesNotMatch(text, /:\/\/|www\.|(?<![A-Za-z0-9])@/i, text);
    }
    // What that action makes of them: rows of a Markdown table in the job summary, and commit comments.
    const row = `| ${e.name} | ${e.value} | ${e.unit} | ${e.range ?? ''} | ${e.extra} |`;
    const md = `| name | value | unit | range | extra |\n| - | - | - | - | - |\n${row}\n`;
    // `dind@20.10` (a real environment key, kept so that action's charts keep their names) may become
    // a mailto: link; nothing else may link.
    const links = [...marked.parse(md, { gfm: true, async: false }).matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]);
    assert.ok(
      links.every((l) => l.startsWith('mailto:')),
      links.join(' '),
    );
    assertInert(md.replace(/(?<=[A-Za-z0-9])@/g, '(at)'));
  }
  // Real names pass unchanged.
  assert.equal(gabText('container.create_ms'), 'container.create_ms');
  assert.equal(gabText('dind@20.10'), 'dind@20.10');
});
