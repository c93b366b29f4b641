// What only the runner can tell about a workload, checked after the file (./load.js) and still before
// anything runs (the run's registry, its pulls and builds): every image the job takes from the runner's
// engine is there (a pull's `seed`, a present image), and the docker compose plugin is installed when the
// job has a compose stack. Found mid-run, after minutes of pulls and builds, each was a failed cell.
import { findPlugin } from '../engine/cli.js';
import { logText } from '../text/escape.js';
import { WorkloadError } from './load.js';

/** What to do when the compose plugin is missing (also said by the compose step, should it go meanwhile). */
export const COMPOSE_MISSING =
  "the workload's compose stack needs the docker compose v2 plugin, which is not installed " +
  "(`docker compose version` fails). Install it: `apt-get install docker-compose-plugin` where Docker's apt " +
  'repository is set up (runners/common/provision.sh --engine docker-ce), or on Debian 12, which packages ' +
  'only the retired docker-compose 1.29, `./quickstart --workload FILE` (it builds compose from its Go module ' +
  'into ~/.docker/cli-plugins when missing).';

/** The suite's own images (dind-bench/<bench>:<distro>): the run builds them before it starts, if missing. */
const SUITE_IMAGE = /^dind-bench\/[a-z0-9-]+:/;

/**
 * @param {import('./load.js').Workload} w
 * @param {{ docker: import('dockerode'), plugin?: (name: string) => string | null }} runner
 *   docker: the runner's engine; plugin: where a docker CLI plugin is installed (default: where the CLI looks)
 */
export async function checkOnRunner(w, { docker, plugin = findPlugin }) {
  const where = logText(w.file);
  if (w.compose && !plugin('docker-compose')) throw new WorkloadError(`${where}: field /compose: ${COMPOSE_MISSING}`);
  for (const [i, image] of (w.images ?? []).entries()) {
    const [field, local] =
      image.source === 'pull' && image.seed
        ? ['seed', image.seed]
        : image.source === 'present'
          ? [image.from ? 'from' : 'name', image.from ?? image.name]
          : [null, null];
    if (!field || !local || SUITE_IMAGE.test(local)) continue;
    if (await missing(docker, local))
      throw new WorkloadError(
        `${where}: field /images/${i}/${field}: ${logText(local)} is not an image of the runner's engine; ` +
          (field === 'seed'
            ? 'a seed is the local image the run pushes into its own registry: build or load it first (docker images lists what is there)'
            : 'a present image must already be on the runner: build or load it first, or give the image as source pull'),
      );
  }
}

/** True only when the engine says it has no such image (an engine that does not answer fails the run later, in its own words). @param {import('dockerode')} docker @param {string} name */
async function missing(docker, name) {
  try {
    await docker.getImage(name).inspect();
    return false;
  } catch (e) {
    return /** @type {{ statusCode?: number }} */ (e).statusCode === 404;
  }
}
