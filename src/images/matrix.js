// The image matrix as data, read from the bake file itself (`docker buildx bake --print`), so the
// GitHub Actions job matrix can never drift from what `images build` would build.
import { bake } from './build.js';

/**
 * @typedef {{target: string, kind: string, ref: string, distro: string | null, engine: string | null, bench: string | null}} BakeTarget
 * @typedef {{distros: string[], engines: string[], images: string[], targets: BakeTarget[]}} BakeMatrix
 */

/**
 * Turns bake's printed definition into the matrix: distributions, DinD Engine versions, benchmark images.
 * Pure, so it is tested on a printed definition.
 * @param {{target: Record<string, {labels?: Record<string, string>, tags?: string[]}>}} printed
 * @returns {BakeMatrix}
 */
export function matrixFromBakePrint(printed) {
  /** @type {BakeTarget[]} */
  const targets = [];
  for (const [target, t] of Object.entries(printed.target ?? {})) {
    const labels = t.labels ?? {};
    const kind = labels['dind-bench.kind'];
    if (!kind) continue;
    targets.push({
      target,
      kind,
      ref: t.tags?.[0] ?? '',
      distro: labels['dind-bench.distro'] ?? null,
      engine: labels['dind-bench.engine'] ?? null,
      bench: labels['dind-bench.bench'] ?? null,
    });
  }
  const uniq = (/** @type {(string | null)[]} */ xs) => [...new Set(xs.filter((x) => x !== null))];
  return {
    distros: uniq(targets.filter((t) => t.kind === 'bench').map((t) => t.distro)),
    engines: uniq(targets.filter((t) => t.kind === 'dind').map((t) => t.engine)),
    images: uniq(targets.filter((t) => t.kind === 'bench').map((t) => t.bench)),
    targets,
  };
}

/** The matrix of images/docker-bake.hcl (the default group and the official DinD images). @returns {Promise<BakeMatrix>} */
export async function bakeMatrix() {
  return matrixFromBakePrint(JSON.parse(String(await bake(['--print', 'default', 'dind-official']))));
}
