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
//   networkModes               the networks a client can reach a server over here: 'bridge' (docker: a
//                              user-defined network the run creates on the runner's engine; dind: one on
//                              the INNER engine, so traffic crosses the inner bridge) and 'host' (docker:
//                              the runner's namespace; dind: the outer DinD container's namespace).
//                              native offers only 'host': processes on 127.0.0.1.
//   startService({name, image, network, ports?, user?, cmd, readiness, readyTimeoutMs}) -> Service
//                              a long-running server (../engine/services.js has the types): `cmd({bind,
//                              ports})` is its command, `readiness({ports})` a probe run where the server
//                              runs, polled until it exits 0 (else ServiceNotReadyError naming the server
//                              with its last log lines). The handle has `host`, `port(s)` for clients and
//                              `stop()`; the ResourceTracker removes it on failure and Ctrl-C too.
//   run({..., network})        with network 'bridge' | 'host': the client joins that network
//   dataRootOnHost()           docker, dind, dind-vfs: the host path where the engine workloads run on keeps
//                              its data (for the disk counters of ../engine/disk.js)
//   teardown()                 removes everything it created

export const ENVIRONMENT_NAMES = ['native', 'docker', 'dind', 'dind-vfs'];

/**
 * @typedef {{
 *   name: string, engineVersion: string | null, storageDriver: string | null, backingFilesystem: string | null,
 *   dind?: { mode: 'privileged' | 'capabilities', outerImage: string, start_to_ready_ms: number, imageLoadMs: Record<string, number> },
 * }} EnvironmentFacts
 */
