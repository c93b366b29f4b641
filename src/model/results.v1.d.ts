// Generated from schema/results.v1.schema.json by `npm run types:schema`; do not edit by hand.
// Named aliases (Results, Cell, Metric, ...) are in results.js.

export type Line = string;
export type Person = null | {
  name?: string | null;
  email?: string | null;
  username?: string | null;
};
/**
 * a name that becomes a path segment or key in a history and is printed in reports: bounded, no control characters
 */
export type Name = string;
export type Text = string;
/**
 * a benchmark's or a metric's name: it becomes a key in a history, and a word of the workflow outputs a caller's `run:` step may read, so it is one word of letters, digits and `_ . : / -` (no space, quote or shell character), 1-100 characters, starting with a letter or digit
 */
export type SeriesName = string;
/**
 * an environment of src/environments/ (native, docker, dind, dind-vfs, dood, dind-rootless, ...)
 */
export type EnvironmentName = string;
export type Unit = string;

export interface DindBenchResultsOneRun {
  schemaVersion: 1;
  suite: {
    name: Line;
    version: Line;
    /**
     * the suite's own commit (its checkout, or DIND_BENCH_SUITE_COMMIT), not the caller's
     */
    commit: string | null;
    /**
     * git describe of the suite's checkout, or the action ref it was called at (e.g. v1)
     */
    ref?: string | null;
    /**
     * owner/name of the suite's repository when called as a remote action
     */
    repository?: string | null;
    [k: string]: unknown;
  };
  /**
   * the repository and commit whose workflow ran the suite (GitHub Actions); null elsewhere; absent in older files
   */
  caller?: null | {
    repository: string | null;
    commit: string | null;
    ref?: string | null;
    author?: Person;
    committer?: Person;
  };
  run: {
    id: Name;
    profile: 'quick' | 'standard' | 'tiny';
    iterations: number;
    /**
     * run --budget (or the profile's): the wall-time budget of adaptive sampling; iterations is then the planned minimum, each cell's sampling says what it got
     */
    budgetMs?: number;
    /**
     * how many times the run's sampling design could look at its decisions (src/model/decisions.js LOOKS; 1 for a fixed design, absent in older files): the reading spends its false-alarm rate over them
     */
    looks?: number;
    /**
     * at how many samples a side each of those looks was (as many as looks, increasing; absent in older files): the reading spends its false-alarm rate over them by Pocock-type spending (src/reading/decide.js lookLevels), else, without them, by Bonferroni over the looks
     *
     * @minItems 1
     * @maxItems 100
     */
    lookSizes?: [number, ...number[]];
    /**
     * with a budget: how this machine compared, before the plan, with the one the estimates were measured on (src/run/calibrate.js): a probe of CPU on two threads and fsynced writes took probeMs here, referenceMs there; the plan's estimates were factor times theirs (bounded); absent in older files
     */
    calibration?: {
      probeMs: number;
      referenceMs: number;
      factor: number;
    };
    /**
     * each time the plan, re-made after a cell's first iteration from the cells' own times (src/run/replan.js), left cells out to keep the run within its budget: after which cell, what the planned rounds left needed and what the budget had left, which cells (benchmark/environment/distribution) it left out and why; absent when nothing was left out then
     *
     * @maxItems 1000
     */
    replans?: {
      after: Line;
      remainingS: number;
      leftS: number;
      /**
       * @maxItems 1000
       */
      dropped: Line[];
      why: Text;
    }[];
    /**
     * runs with workload steps: how each step's processes were held (src/engine/step-pidns.js): a PID namespace of its own (what it started ends with it, wherever it forked), or, where none could be made, a process group only (a process that leaves the group, setsid or a double fork, can outlive the step), with unshare's reason; absent in older files and in runs without steps
     */
    stepIsolation?: {
      kind: 'pid-namespace' | 'process-group';
      how: Line;
    };
    /**
     * with a budget: when, in seconds from the run's start, the planned rounds were to end by the plan re-made once every cell had its own first iteration (the time the run said then)
     */
    replannedS?: number;
    /**
     * with a budget: each decision the run asked (a benchmark's decision metric, candidate against baseline, each `environment key/distribution`), the samples a side it had when it was decided or when its sampling stopped, and why it stopped (src/run/adaptive.js): decided, iteration cap, budget spent (its next sample did not fit), or left out for the budget (a side was)
     *
     * @maxItems 10000
     */
    questions?: {
      benchmark: SeriesName;
      metric: SeriesName;
      baseline: Line;
      candidate: Line;
      samples: number;
      stopped: 'decided' | 'iteration cap' | 'budget spent' | 'left out for the budget';
    }[];
    warmup: number;
    startedAt: string;
    endedAt: string;
    args: {
      [k: string]: unknown;
    };
    /**
     * interleaved: each benchmark's environments took turns step by step in one job; split: a merged run in which some benchmark's environment groups ran in different shard jobs (run.shards), so drift between them was not evened out
     */
    order?: 'interleaved' | 'split';
    /**
     * true when every cell that could run here ran without failure; false in a partial file
     */
    complete: boolean;
    /**
     * absent in older files (finished); running or interrupted: a partial file that `run --resume DIR` continues
     */
    state?: 'running' | 'interrupted' | 'finished';
    /**
     * each time `run --resume` continued this run
     */
    resumed?: {
      at: string;
      stepsDone: number;
      [k: string]: unknown;
    }[];
    /**
     * an engine that stopped answering during the run: the runner's own (waited for, then every environment set up again) or an environment's own (DinD: the inner daemon; re-created once); the step it happened at then ran again
     *
     * @maxItems 1000
     */
    engineEvents?: {
      at: string;
      step: Line;
      engine: 'runner' | 'environment';
      environment?: Name;
      outcome: 'came back' | 're-created' | 'did not come back';
      waitedMs: number;
      detail?: Line;
    }[];
    /**
     * merged from sample shards (a workload split over shard jobs): each shard ran every environment, interleaved, with a share of the samples, and each cell holds every shard's samples
     */
    pooled?: boolean;
    /**
     * the runs `dind-bench merge` made this one from
     */
    shards?: {
      id: string;
      runner: string;
      hostname?: string;
      startedAt: string;
      endedAt: string;
      cells: number;
      [k: string]: unknown;
    }[];
    [k: string]: unknown;
  };
  host: {
    hostname?: Line;
    cpuModel: Line;
    cores: number;
    memoryBytes: number;
    kernel: Line;
    arch?: Line;
    distribution: Line;
    cgroupVersion: '1' | '2';
    /**
     * the runner kind: k8s (a Kubernetes pod), machine (a VM or physical machine) or what DIND_BENCH_RUNNER_KIND said; part of the fingerprint unless machine. Absent in files from before kinds were recorded (machine)
     */
    kind?: string;
    fingerprint: Name;
    [k: string]: unknown;
  };
  runner: {
    name: Name;
    /**
     * @maxItems 100
     */
    labels: Line[];
    githubActions?: boolean;
    machineType: null | {
      cloud: string;
      machineType: string;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  engines: {
    outer: {
      version: Line;
      apiVersion: Line;
      storageDriver: Line;
      backingFilesystem: string | null;
      cgroupVersion: string | null;
      cgroupDriver: string | null;
      operatingSystem?: Line;
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  /**
   * @maxItems 1000
   */
  images: {
    ref: Line;
    status: 'ok' | 'unavailable';
    reason?: Text;
    id?: string;
    digest?: string | null;
    sizeBytes?: number;
    packages?: number | null;
    created?: string;
    [k: string]: unknown;
  }[];
  /**
   * @maxItems 100
   */
  environments: {
    key: Name;
    name: EnvironmentName;
    /**
     * the requested inner Engine version (DinD only)
     */
    engine: string | null;
    status: 'ok' | 'unavailable';
    reason?: Text;
    facts?: {
      engineVersion: string | null;
      storageDriver: string | null;
      backingFilesystem: string | null;
      /**
       * an environment's isolation trade-off, stated in the report (dood)
       */
      isolation?: string;
      /**
       * the builder builds on this environment's engine use (benchmarks that build): BuildKit through buildx's docker driver, with the versions of BuildKit and the client tools; Buildah through Podman's Docker-compatible /build (podman)
       */
      builder?: {
        kind: 'BuildKit' | 'legacy' | 'Buildah';
        buildkit?: string | null;
        docker?: string | null;
        buildx?: string | null;
        compose?: string | null;
        [k: string]: unknown;
      };
      dind?: {
        /**
         * how the outer container got its rights: --privileged, the capability set, an isolating runtime (sysbox), or only what a rootless engine's own user namespace needs (podman)
         */
        mode: 'privileged' | 'capabilities' | 'runtime' | 'userns';
        /**
         * the cgroups the DinD container got: its own namespace (private) or the host's tree bound in (host)
         */
        cgroup?: {
          namespace: 'private' | 'host';
          reason: Line;
          [k: string]: unknown;
        };
        outerImage: string;
        start_to_ready_ms: number;
        imageLoadMs: {
          [k: string]: number;
        };
        [k: string]: unknown;
      };
      [k: string]: unknown;
    };
    [k: string]: unknown;
  }[];
  /**
   * @maxItems 10000
   */
  cells: {
    benchmark: SeriesName;
    environment: EnvironmentName;
    environmentKey: Name;
    distro: Name;
    engine: string | null;
    image?: string | null;
    /**
     * pending: not finished (partial files only)
     */
    status: 'ok' | 'failed' | 'unavailable' | 'pending';
    /**
     * partial files: how many of the cell's planned steps (warm-ups first) finished
     */
    stepsDone?: number;
    reason?: Text;
    step?: Line;
    logTail?: Text;
    /**
     * @maxItems 10000
     */
    raw: Line[];
    /**
     * steps killed from outside (exit 137: SIGKILL, as the kernel's OOM killer or a kill from the host sends) while every engine answered, each run once more (src/run/kills.js): measured (the retry's samples count), killed again (that iteration has no samples; the cell's other iterations are measured) or failed (the retry failed otherwise: the cell's reason says why)
     *
     * @maxItems 10000
     */
    killed?: {
      iteration: Line;
      reason: Text;
      outcome: 'measured' | 'killed again' | 'failed';
      [k: string]: unknown;
    }[];
    /**
     * with run --budget: the measured iterations the cell got and why it stopped taking more (src/run/adaptive.js); left out for the budget: its planned rounds did not fit, so the cell is unavailable (src/run/budget.js at plan time with no iterations, or src/run/replan.js after its first iteration, which it keeps)
     */
    sampling?: {
      iterations: number;
      /**
       * decided: every decision the cell takes part in was made (or it has none); narrow enough: older files
       */
      stopped: 'decided' | 'iteration cap' | 'budget spent' | 'left out for the budget' | 'narrow enough';
      [k: string]: unknown;
    };
    /**
     * sampled series of measured iterations (e.g. memory from the engine's stats API); scope keeps the workload container apart from what the environment itself costs
     *
     * @maxItems 1000
     */
    timeseries?: {
      name: Name;
      unit: Unit;
      scope: 'workload' | 'environment';
      iteration: number;
      intervalMs: number;
      /**
       * milliseconds since sampling began
       *
       * @maxItems 100000
       */
      t: number[];
      /**
       * @maxItems 100000
       */
      v: number[];
    }[];
    /**
     * facts that are not timings (the isolation benchmark): each decided yes/no/unknown or described, with the evidence it was decided from and the scope it was seen in (src/parsers/isolation.js); no statistic reads them
     *
     * @maxItems 200
     */
    facts?: {
      name: Name;
      value: Line;
      evidence: Text;
      scope: 'workload' | 'parent' | 'engine';
    }[];
    /**
     * @maxItems 1000
     */
    metrics: {
      metric: SeriesName;
      unit: Unit;
      better: 'higher' | 'lower';
      /**
       * @maxItems 10000
       */
      samples: number[];
      /**
       * @maxItems 1000
       */
      warmup: number[];
    }[];
    [k: string]: unknown;
  }[];
  harness: {
    peakRssBytes: number;
    wallSeconds: number;
    [k: string]: unknown;
  };
}
