// A workload's plan that does not fit its bench job, made smaller by the reusable workflow's own inputs
// (it has no environments input): Docker and DinD in jobs of their own (`layout: separate`: each job runs
// the workload in its environments, on a runner of its own), or one inner Engine line (`engines`). Each
// smaller plan is sized as `plan` sizes the whole, against the same limits; only those that fit are named.
import { MODE_ENVIRONMENTS } from '../workflow/job-matrix.js';
import { duration } from './workload-plan.js';

/**
 * @typedef {import('./workload-plan.js').WorkloadPlan} WorkloadPlan
 * @typedef {(environments: string[], engines: string[]) => WorkloadPlan} SizeOf
 *   the workload's plan in these environments and inner Engine lines, sized against the run's limits
 */

/**
 * The smaller plans of fewer environments that fit, each in words with the input that sets it.
 * @param {{ environments: string[], engines: string[], sizeOf: SizeOf }} a
 * @returns {string[]}
 */
export function smallerPlans({ environments, engines, sizeOf }) {
  const docker = environments.filter((e) => MODE_ENVIRONMENTS.docker.includes(e));
  const dind = environments.filter((e) => !docker.includes(e));
  const out = [];
  if (docker.length && dind.length) {
    const [a, b] = [sizeOf(docker, engines), sizeOf(dind, engines)];
    if (a.fits && b.fits)
      out.push(
        `layout: separate (${docker.join(', ')} in one job, about ${duration(a.totalS)}; ` +
          `${dind.join(', ')} in another, about ${duration(b.totalS)}; each on a runner of its own)`,
      );
  }
  if (dind.length && engines.length > 1) {
    // The first line that fits alone: the caller's current one comes first in engines.
    const line = engines.map((e) => ({ e, p: sizeOf(environments, [e]) })).find((x) => x.p.fits);
    if (line)
      out.push(
        `engines: '${line.e}' (about ${duration(line.p.totalS)}; the next Engine line's question left for a run of its own)`,
      );
  }
  return out;
}
