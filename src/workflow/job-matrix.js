// The job matrix of .github/workflows/bench.yml, from the workflow's inputs and the image matrix.
// Pure, so it is tested as a table of inputs -> jobs, and the workflow's prepare job only prints it.
//
// One job per runner label set x host Engine x layout:
//   separate    two jobs, `docker` (native, docker) and `dind` (the DinD environments): the way most CI
//               fleets actually use them, each job on a machine of its own;
//   interleaved one job with native, docker and DinD taking turns step by step (the suite's default), so
//               drift on the machine hits every environment alike;
//   both        all three.
// A host Engine version becomes the runner label `docker-<version>`, which runners/ put on every runner,
// so a fleet mid-upgrade runs the suite on the old and the new Engine and the history shows the change.

export const LAYOUTS = ['separate', 'interleaved', 'both'];
const LABEL = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Environments per job mode. */
export const MODE_ENVIRONMENTS = {
  docker: ['native', 'docker'],
  dind: ['dind'],
  interleaved: ['native', 'docker', 'dind'],
};

export class MatrixInputError extends Error {}

/**
 * @typedef {{
 *   id: string, name: string, runsOn: string[], mode: keyof typeof MODE_ENVIRONMENTS, environments: string,
 *   benchmarks: string, distributions: string, engines: string, hostEngine: string,
 * }} Job
 */

/**
 * @param {string} value @param {readonly string[]} valid @param {string} input the workflow input's name
 * @returns {string[]}
 */
function listInput(value, valid, input) {
  const items = [...new Set(String(value ?? '').split(',').map((s) => s.trim()).filter(Boolean))];
  if (!items.length) throw new MatrixInputError(`input ${input} is empty; valid: ${valid.join(', ')}`);
  const unknown = items.filter((i) => !valid.includes(i));
  if (unknown.length) throw new MatrixInputError(`input ${input}: unknown ${unknown.join(', ')}; valid: ${valid.join(', ')}`);
  return items;
}

/**
 * Runner label sets: `self-hosted,linux,gce; self-hosted,linux,lab` (sets separated by `;`, labels by `,`).
 * @param {string} value
 */
export function parseRunnerSets(value) {
  const sets = String(value ?? '')
    .split(';')
    .map((set) => [...new Set(set.split(',').map((l) => l.trim()).filter(Boolean))])
    .filter((set) => set.length);
  if (!sets.length) throw new MatrixInputError('input runners is empty; give label sets such as "self-hosted,linux,gce; self-hosted,linux,lab"');
  for (const set of sets) {
    const bad = set.filter((l) => !LABEL.test(l));
    if (bad.length) throw new MatrixInputError(`input runners: label ${JSON.stringify(bad[0])} is not a runner label (letters, digits, . _ - only)`);
  }
  return sets;
}

/** @param {string[]} labels */
const slug = (labels) => labels.filter((l) => l !== 'self-hosted' && l !== 'linux').join('-') || labels.join('-');

/**
 * @param {{
 *   bake: {distros: string[], engines: string[]},
 *   benchmarkNames: readonly string[],
 *   inputs: {benchmarks: string, distributions: string, engines: string, runners: string, hostEngines?: string, layout?: string},
 * }} args
 * @returns {{include: Job[]}}
 */
export function jobMatrix({ bake, benchmarkNames, inputs }) {
  const benchmarks = listInput(inputs.benchmarks, benchmarkNames, 'benchmarks');
  const distributions = listInput(inputs.distributions, bake.distros, 'distributions');
  const engines = listInput(inputs.engines, bake.engines, 'engines');
  const layout = inputs.layout || 'both';
  if (!LAYOUTS.includes(layout)) throw new MatrixInputError(`input layout: unknown ${layout}; valid: ${LAYOUTS.join(', ')}`);
  const hostEngines = String(inputs.hostEngines ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const v of hostEngines) {
    if (!/^\d+\.\d+(\.\d+)?$/.test(v)) throw new MatrixInputError(`input host-engines: ${JSON.stringify(v)} is not an Engine version such as 27.5 or 28.2.1`);
  }
  /** @type {(keyof typeof MODE_ENVIRONMENTS)[]} */
  const modes = layout === 'separate' ? ['docker', 'dind'] : layout === 'interleaved' ? ['interleaved'] : ['docker', 'dind', 'interleaved'];

  /** @type {Job[]} */
  const include = [];
  for (const set of parseRunnerSets(inputs.runners)) {
    for (const hostEngine of hostEngines.length ? hostEngines : ['']) {
      const runsOn = hostEngine ? [...set, `docker-${hostEngine}`] : set;
      for (const mode of modes) {
        const id = `${slug(runsOn)}-${mode}`;
        if (include.some((j) => j.id === id)) throw new MatrixInputError(`input runners: two label sets give the same job ${id}; list each set once`);
        include.push({
          id,
          name: `${slug(runsOn)} · ${mode}`,
          runsOn,
          mode,
          environments: MODE_ENVIRONMENTS[mode].join(','),
          benchmarks: benchmarks.join(','),
          distributions: distributions.join(','),
          engines: engines.join(','),
          hostEngine,
        });
      }
    }
  }
  return { include };
}
