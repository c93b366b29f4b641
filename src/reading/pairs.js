// Which environment is judged against which: the one rule every output reads (the terminal, report.md and
// report.html, the site's overview, `compare --json`, the job summary and the workflow outputs).
// - Every environment but docker and native (each DinD variant, each Engine line, every alternative: dood,
//   dind-rootless, sysbox, ...) against plain Docker of the same benchmark and distribution.
// - Docker against native (what Docker itself costs), native cells having distro "host".
// - Alpine against Debian, in the same environment.
// - Each later inner Engine line against the run's oldest, in the same DinD variant (dind@26.1 against
//   dind@20.10): the upgrade question, asked of every benchmark both lines ran.
// - An A/B (`compare --baseline A --candidate B`): B against A, any two environments of the run.
import { comparedWithDocker } from '../model/environments.js';

/**
 * @typedef {'dind-vs-docker' | 'docker-vs-native' | 'alpine-vs-debian' | 'engine-line' | 'ab'} PairKind
 * 'dind-vs-docker' is every environment against Docker (its title names the environment, see versusTitle).
 * @typedef {{ kind: PairKind, baseline: any, candidate: any }} CellPair
 */

/**
 * The pairs a run asks about, whose decision metrics it decides: each environment against Docker, each later
 * Engine line against the oldest, an A/B. Docker against native and Alpine against Debian are described only.
 * @param {PairKind} kind
 */
export const isAsked = (kind) => kind === 'dind-vs-docker' || kind === 'engine-line' || kind === 'ab';

/**
 * The pairs of a run's cells that ran, in a stable order.
 * @param {any[]} cells cells with status ok
 * @returns {CellPair[]}
 */
export function withinRunPairs(cells) {
  /** @type {CellPair[]} */
  const pairs = [];
  const find = (/** @type {string} */ bench, /** @type {string} */ env, /** @type {string} */ distro) =>
    cells.find((c) => c.benchmark === bench && c.environmentKey === env && c.distro === distro);
  for (const c of cells) {
    if (!comparedWithDocker(c.environment)) continue;
    const docker = find(c.benchmark, 'docker', c.distro);
    if (docker) pairs.push({ kind: 'dind-vs-docker', baseline: docker, candidate: c });
  }
  for (const c of cells.filter((x) => x.environment === 'docker')) {
    const native = find(c.benchmark, 'native', 'host');
    if (native) pairs.push({ kind: 'docker-vs-native', baseline: native, candidate: c });
  }
  for (const c of cells.filter((x) => x.distro === 'alpine')) {
    const debian = find(c.benchmark, c.environmentKey, 'debian');
    if (debian) pairs.push({ kind: 'alpine-vs-debian', baseline: debian, candidate: c });
  }
  pairs.push(...engineLinePairs(cells));
  return pairs;
}

/**
 * Each later inner Engine line against the oldest line of the same DinD variant, benchmark and distribution.
 * @param {any[]} cells @returns {CellPair[]}
 */
function engineLinePairs(cells) {
  /** @type {CellPair[]} */
  const pairs = [];
  for (const c of cells.filter((x) => x.engine)) {
    const same = cells.filter(
      (x) => x.engine && x.environment === c.environment && x.benchmark === c.benchmark && x.distro === c.distro,
    );
    const oldest = same.reduce((a, b) => (compareVersions(b.engine, a.engine) < 0 ? b : a));
    if (oldest !== c) pairs.push({ kind: 'engine-line', baseline: oldest, candidate: c });
  }
  return pairs;
}

/** "20.10" before "26.1" before "29.8", numerically by part. @param {string} a @param {string} b */
export function compareVersions(a, b) {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d) return d;
  }
  return 0;
}

/**
 * The pairs of an A/B: each candidate cell against the baseline environment's cell of the same benchmark
 * and distribution (or its native cell, distro "host").
 * @param {any[]} cells cells with status ok @param {string} baseline @param {string} candidate
 * @returns {CellPair[]}
 */
export function abPairs(cells, baseline, candidate) {
  /** @type {CellPair[]} */
  const pairs = [];
  for (const cand of cells.filter((c) => c.environmentKey === candidate)) {
    const base = cells.find(
      (c) =>
        c.environmentKey === baseline &&
        c.benchmark === cand.benchmark &&
        (c.distro === cand.distro || c.distro === 'host'),
    );
    if (base) pairs.push({ kind: 'ab', baseline: base, candidate: cand });
  }
  return pairs;
}

/**
 * How a comparison is titled, by the environments actually compared: "DinD vs Docker" for dind, the
 * environment's own name for the other variants and alternatives ("dood vs Docker"), never DinD for what
 * is not.
 * @param {{ kind: PairKind, candidate: { env: string }, baseline: { env: string } }} c
 */
export function versusTitle(c) {
  if (c.kind === 'docker-vs-native') return 'Docker vs native';
  if (c.kind === 'alpine-vs-debian') return 'Alpine vs Debian';
  if (c.kind === 'ab' || c.kind === 'engine-line') return `${c.candidate.env} vs ${c.baseline.env}`;
  const name = c.candidate.env.split('@')[0];
  return `${name === 'dind' ? 'DinD' : name} vs Docker`;
}
