// The one interface every environment implements. Benchmarks only see this; they never branch on
// where they run.
//
// An environment:
//   name                       'native' | 'docker' | 'dind' | 'dind-vfs'
//   engine                     the inner Engine version for DinD environments, else null
//   setup({images, tracker})   makes it ready; `images` are the benchmark images it will run
//   facts                      EnvironmentFacts, after setup
//   run({image, cmd, timeoutMs, labels, volume}) -> RunResult (see ../engine/containers.js)
//                              volume (optional), e.g. '/scratch': a fresh scratch volume for this run,
//                              its path in the environment variable SCRATCH. native: a temporary folder;
//                              docker: a volume on the runner's engine; dind, dind-vfs: a volume on the
//                              inner engine. Tracked by the ResourceTracker and removed after the run.
//   probeLifecycle({image, timeoutMs})   one create/start/first-output/stop/remove cycle
//   daemonCycle?()             DinD only: start a fresh inner daemon and stop it, timed
//   teardown()                 removes everything it created

export const ENVIRONMENT_NAMES = ['native', 'docker', 'dind', 'dind-vfs'];

/**
 * @typedef {{
 *   name: string, engineVersion: string | null, storageDriver: string | null, backingFilesystem: string | null,
 *   dind?: { mode: 'privileged' | 'capabilities', outerImage: string, start_to_ready_ms: number, imageLoadMs: Record<string, number> },
 * }} EnvironmentFacts
 */
