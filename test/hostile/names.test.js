// Hostile names in results: too long, unicode look-alikes, `|`, `__proto__`, names Windows reserves,
// case-only pairs, control characters. Each is either stored under its own path (the same on every
// filesystem) or refused before anything is written, with what, where and what to do.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { appendRun, publishRun } from '../../src/history/append.js';
import { HistoryError } from '../../src/history/files.js';
import {
  ARCHIVE_DIR,
  INDEX_FILE,
  LATEST_FILE,
  LOCK_FILE,
  MARKER_FILE,
  latestPath,
  runCatalogPath,
  runPath,
  seriesDir,
} from '../../src/history/layout.js';
import { LAYOUT_NAMES, nameSegment } from '../../src/history/names.js';
import { openHistory } from '../../src/history/store.js';
import { smallRun, snapshot, tmpDir } from './helpers.js';

const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\.|$)/i;

test('a 10,000-character run id is refused by the schema, naming the field; nothing is written', async () => {
  const dir = tmpDir('names');
  const file = smallRun(tmpDir('runs'), 'long', { id: 'x'.repeat(10_000) });
  await assert.rejects(
    publishRun(dir, file),
    /not a valid results document:[\s\S]*\/run\/id must NOT have more than 200 characters/,
  );
  assert.deepEqual(readdirSync(dir), []);
});

test('a name past the schema (an import, a direct append) is refused before any write, with what to do', async () => {
  const dir = tmpDir('names');
  await publishRun(dir, smallRun(tmpDir('runs'), 'first'));
  const before = snapshot(dir);
  const run = {
    runId: 'ok',
    time: '2026-11-10T03:00:00.000Z',
    period: '2026-11',
    commit: null,
    runner: 'r',
    fingerprint: 'f',
    profile: 'quick',
    complete: true,
    outerEngine: '20.10',
  };
  const series = {
    fingerprint: 'f',
    runner: 'r',
    benchmark: 'b',
    metric: 'm',
    environmentKey: 'docker',
    distro: 'debian',
    unit: 'ms',
    better: /** @type {const} */ ('lower'),
  };
  const point = {
    runId: 'ok',
    time: run.time,
    commit: null,
    samples: [1],
    engines: { outer: '20.10', inner: null },
    storageDriver: null,
    runner: 'r',
  };
  const cases = [
    [{ run: { ...run, runId: 'y'.repeat(300) } }, /the run id is 300 characters long; at most 200/],
    [{ run: { ...run, runner: 'a\nb' } }, /the runner name contains a control character/],
    [{ points: [{ series: { ...series, metric: '' }, point }] }, /the metric of a series is empty/],
    [{ points: [{ series, point: { ...point, samples: [Infinity] } }] }, /a sample is not a finite number/],
    [{ points: [{ series, point: { ...point, samples: new Array(20_000).fill(1) } }] }, /20000 samples; 1 to 10000/],
  ];
  for (const [change, message] of cases) {
    const append = {
      where: 'input.json',
      run,
      points: [{ series: { key: 'k', ...series }, point }],
      provenance: {},
      ...change,
    };
    await assert.rejects(appendRun(dir, /** @type {any} */ (append)), (e) => {
      assert.ok(e instanceof HistoryError, String(e));
      assert.match(e.message, /^input\.json: /);
      assert.match(e.message, /** @type {RegExp} */ (message));
      assert.match(e.message, /nothing was written/);
      return true;
    });
  }
  assert.deepEqual(snapshot(dir), before);
});

test('names that collided before (unicode forms, `|`, case, reserved, __proto__) each keep their own series', async () => {
  const dir = tmpDir('names');
  const runs = tmpDir('runs');
  // Pairs that a naive encoding merges: NFC vs NFD é, `|` inside names, case-only, Windows device names.
  const fingerprints = [
    'caf\u00e9',
    'cafe\u0301',
    'a|b',
    'a',
    'Host',
    'host',
    'CON',
    'nul',
    'com1.x',
    '__proto__',
    '..',
    '.git',
  ];
  // `|` also in a distribution's name (a benchmark's or metric's is one word of `_ . : / -` and
  // alphanumerics: the results schema refuses `|` there).
  const distros = { 'a|b': 'c', a: 'b|c' };
  let i = 0;
  for (const fp of fingerprints) {
    const file = smallRun(runs, `r${i}`, {
      startedAt: `2026-11-10T0${i % 10}:${10 + i}:00.000Z`,
      edit: (r) => {
        r.host.fingerprint = fp;
        if (Object.hasOwn(distros, fp)) for (const c of r.cells) c.distro = distros[/** @type {'a'} */ (fp)];
      },
    });
    assert.equal((await publishRun(dir, file)).duplicate, false, fp);
    i++;
  }
  const h = await openHistory(dir);
  const byFp = new Map();
  for (const s of h.listSeries()) byFp.set(s.fingerprint, [...(byFp.get(s.fingerprint) ?? []), s]);
  assert.deepEqual([...byFp.keys()].sort(), [...fingerprints].sort(), 'every fingerprint has its series');
  for (const [fp, list] of byFp) {
    for (const s of list)
      assert.equal((await h.readSeries(s.key)).length, 1, `${JSON.stringify(fp)}: its point is there`);
  }
  // __proto__ is a runner like any other in latest.json.
  assert.ok(Object.hasOwn((await h.latest()).runners, '__proto__'));
  // Paths are unique even where case and Unicode normalisation are ignored, reserve no Windows name,
  // and stay under Windows' MAX_PATH.
  const files = Object.keys(snapshot(dir));
  const folded = new Set(files.map((f) => f.normalize('NFC').toLowerCase()));
  assert.equal(folded.size, files.length, 'two files differ only by case or normalisation');
  for (const f of files) {
    assert.ok(f.length < 260, f);
    for (const seg of f.split(path.sep))
      assert.ok(!RESERVED.test(seg) && !seg.endsWith('.') && !seg.endsWith(' '), `${f}: ${seg}`);
  }
});

test('nameSegment is injective on a case-insensitive, normalising filesystem and bounded', () => {
  const names = [
    'a',
    'A',
    'a~',
    'a-',
    'A-',
    'x'.repeat(40),
    'x'.repeat(41),
    'X'.repeat(40),
    'dind@20.10',
    'DIND@20.10',
    '\u00e9',
    'e\u0301',
    'CON',
    'con.json',
    'a.tmp',
    'a.',
    '.',
    '..',
    '',
  ];
  const segs = names.map(nameSegment);
  assert.equal(new Set(segs.map((s) => s.toLowerCase())).size, names.length, segs.join(' '));
  for (const s of segs) {
    assert.match(s, /^[a-z0-9_@~][a-z0-9._@~-]*$/);
    assert.ok(s.length <= 41 && !RESERVED.test(s) && !s.endsWith('.'), s);
  }
  assert.equal(nameSegment('dind@20.10'), 'dind@20.10', 'plain names stay readable');
});

test('a run id equal to a fixed file name (`catalog`) gets its own file: the month catalog lists every run', async () => {
  const dir = tmpDir('names');
  const runs = tmpDir('runs');
  const ids = ['catalog', 'index', 'later'];
  for (const [i, id] of ids.entries()) {
    const file = smallRun(runs, `r${i}`, { id, startedAt: `2026-11-10T0${i}:00:00.000Z` });
    assert.equal((await publishRun(dir, file)).duplicate, false, id);
  }
  const catalog = JSON.parse(readFileSync(path.join(dir, runCatalogPath('2026-11')), 'utf8'));
  assert.deepEqual(
    catalog.runs.map((/** @type {any} */ r) => r.runId),
    ids,
    'the catalog is a catalog, with all runs',
  );
  for (const r of catalog.runs) {
    const stored = JSON.parse(readFileSync(path.join(dir, r.file), 'utf8'));
    assert.equal(stored.run.id, r.runId, `${r.file} holds its own run`);
  }
  assert.equal((await openHistory(dir)).index.runs, ids.length);
});

test('no name from data can be encoded to a name the layout uses for its own files and folders', () => {
  const fixed = [
    MARKER_FILE,
    INDEX_FILE,
    LATEST_FILE,
    LOCK_FILE,
    ARCHIVE_DIR,
    runCatalogPath('2026-11'),
    seriesDir({ fingerprint: 'f', benchmark: 'b', distro: 'd', environmentKey: 'e', metric: 'm' }),
    runPath('2026-11', 'r'),
    latestPath('f'),
  ];
  // Every fixed segment (not a month, not one of the names encoded above), without its extension.
  const bases = new Set();
  for (const rel of fixed) {
    for (const seg of rel.split('/')) {
      if (/^\d{4}-\d{2}(\.json)?$/.test(seg) || ['f', 'b', 'd', 'e', 'm', 'r', 'f.json', 'r.json'].includes(seg))
        continue;
      bases.add(seg.replace(/\.json$/, ''));
    }
  }
  assert.ok(bases.has('catalog') && bases.has('series') && bases.has('index'), [...bases].join(' '));
  for (const base of bases) {
    // A hashed segment always has `~`; so only the identity of a plain name could hit a fixed name.
    assert.ok(!base.includes('~'), base);
    assert.notEqual(nameSegment(base), base, `${base} is never a segment from data`);
    assert.ok(base.startsWith('.') || LAYOUT_NAMES.has(base), `${base} is listed in LAYOUT_NAMES`);
  }
});
