// The start-up timeline: where the time goes between asking for an engine (or a container) and the
// first output of the first container on it.
//
// Marks come from three clocks that are one clock: the host's (performance.now(), turned into
// wall-clock time once per timeline), the DinD entrypoint's (`date +%s%N` lines it writes to the folder
// it shares with the host) and dockerd's own log timestamps. All three read the same kernel's realtime
// clock, so they can be merged onto one axis. Each phase is the time from one mark to the next, named
// for what happens in it. The total is not derived from the marks: it is a stopwatch of the host alone,
// from the call that asks for the engine (or container) to the first byte of output, so the sum of the
// phases can disagree with it: when work falls outside the marks (unattributed time, which then needs a
// phase of its own) or the host's marks were taken late. Marks out of order (a clock disagreed) are
// clamped and named.
import { startupWithoutImageMs } from '../model/earlier-results.js';

/**
 * The marks of a DinD start, in the order they happen, each with the phase that ends at it. A phase
 * name may appear twice (the entrypoint's work around the TLS step); its parts are added up.
 * Entrypoint marks are those of images/dind/dind-entrypoint.sh; daemon marks are DAEMON_LOG_MARKS.
 * @type {[mark: string, phase: string | null][]}
 */
export const DIND_TIMELINE = [
  ['begin', null],
  ['outer_create_call', 'prepare'], // the host's own set-up: socket folder, cgroup choice, data-root volume
  ['outer_created', 'outer_create'], // the outer engine creates the DinD container
  ['entrypoint_begin', 'outer_start'], // runtime set-up (namespaces, cgroups, network) up to the entrypoint
  ['tls_begin', 'entrypoint'],
  ['tls_done', 'tls_material'], // CA, server and client keys and certificates (TLS on only)
  ['exec_daemon', 'entrypoint'],
  ['daemon_logging', 'daemon_exec'], // dockerd's process start up to its first log line
  ['containerd_up', 'containerd_start'], // dockerd starts its managed containerd, up to "successfully booted"
  ['containers_loading', 'daemon_init'], // storage driver, image and volume stores, plugins
  ['containers_loaded', 'network_setup'], // network controller, iptables rules, the default bridge
  ['api_listening', 'api_start'], // daemon initialised, API socket listening
  ['ping_ok', 'ping_ready'], // the client's first OK answer from /_ping
  ['image_load_begin', 'daemon_facts'], // the client reads the daemon's facts (version, storage driver)
  ['image_loaded', 'image_load'], // the benchmark image made available (load here; pull where a registry is reachable)
  ...firstContainerMarks(),
];

/**
 * The marks of a Podman start (images/podman): the same outer container and entrypoint as DinD, then
 * Podman's API service from its exec to the first OK /_ping. Podman logs no phases of its own start
 * (there is no containerd, no network controller to bring up: it is one process that serves the API),
 * so that whole span is one phase, `ping_ready`.
 * @type {[mark: string, phase: string | null][]}
 */
export const PODMAN_TIMELINE = DIND_TIMELINE.filter(
  ([mark]) =>
    ![
      'tls_begin',
      'tls_done',
      'daemon_logging',
      'containerd_up',
      'containers_loading',
      'containers_loaded',
      'api_listening',
    ].includes(mark),
);

/** Every phase once, in the order it happens (a DinD start holds all of Docker's too). */
export const PHASE_ORDER = [...new Set(DIND_TIMELINE.map(([, p]) => p).filter((p) => p !== null))];

/**
 * The marks of the first container on an engine that is ready and has the image: Docker's whole start-up.
 * @type {[mark: string, phase: string | null][]}
 */
export const CONTAINER_TIMELINE = [['begin', null], ...firstContainerMarks()];

function firstContainerMarks() {
  return /** @type {[string, string][]} */ ([
    ['first_created', 'first_create'], // the engine creates the container
    ['first_start_called', 'first_attach'], // the client attaches to its output (so the first byte is seen)
    // From the start call to the first byte of output. Not split at the start call's return: the
    // output of a quick command can arrive before the engine's answer to that call.
    ['first_output', 'first_start'],
  ]);
}

/**
 * dockerd's log lines that mark a phase boundary, the same from Engine 20.10 to 26.1 (the containerd
 * line is containerd's own, relayed by dockerd when it manages containerd).
 * @type {[mark: string, pattern: RegExp][]}
 */
export const DAEMON_LOG_MARKS = [
  ['daemon_logging', /msg="Starting up"/],
  ['containerd_up', /msg="containerd successfully booted in /],
  ['containers_loading', /msg="Loading containers: start\."/],
  ['containers_loaded', /msg="Loading containers: done\."/],
  ['api_listening', /msg="API listen on /],
];

const LOG_TIME = /^time="(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)"/;

/**
 * Wall-clock milliseconds of an RFC 3339 timestamp with up to nanosecond digits (Date.parse keeps only
 * milliseconds). NaN when it is not one.
 * @param {string} seconds 'YYYY-MM-DDTHH:MM:SS' @param {string | undefined} fraction @param {string} zone
 */
function logTimeMs(seconds, fraction, zone) {
  const whole = Date.parse(`${seconds}${zone}`);
  return whole + (fraction ? Number(`0.${fraction}`) * 1000 : 0);
}

/**
 * The first time each DAEMON_LOG_MARKS line appears in a dockerd log (text as `docker logs` gives it).
 * Lines without a full timestamp, or that match nothing, are ignored.
 * @param {string} text
 * @returns {Record<string, number>} mark -> wall-clock ms
 */
export function parseDaemonLog(text) {
  /** @type {Record<string, number>} */
  const marks = {};
  for (const line of text.split('\n')) {
    const t = line.match(LOG_TIME);
    if (!t || !t[2]) continue; // a seconds-only stamp (containerd's config warning) would misplace a mark
    for (const [mark, pattern] of DAEMON_LOG_MARKS) {
      if (!(mark in marks) && pattern.test(line)) {
        const ms = logTimeMs(t[1], t[2], t[3]);
        if (Number.isFinite(ms)) marks[mark] = ms;
      }
    }
  }
  return marks;
}

/**
 * The entrypoint's marks: lines "name epoch-nanoseconds" (see images/dind/dind-entrypoint.sh). Names
 * outside the timeline and malformed lines are ignored; the first of each name counts.
 * @param {string} text
 * @returns {Record<string, number>} mark -> wall-clock ms
 */
export function parseEntrypointMarks(text) {
  const known = new Set(DIND_TIMELINE.map(([m]) => m));
  /** @type {Record<string, number>} */
  const marks = {};
  for (const line of text.split('\n')) {
    const m = line.match(/^([a-z_]{1,40}) (\d{16,20})$/);
    if (!m || !known.has(m[1]) || m[1] in marks) continue;
    // Microseconds exactly (BigInt), then milliseconds: nanoseconds since 1970 exceed 2^53.
    marks[m[1]] = Number(BigInt(m[2]) / 1000n) / 1000;
  }
  return marks;
}

/**
 * A recorder of host marks on the wall clock. The offset between performance.now() and Date.now() is
 * read once, at the edge of a Date.now() millisecond tick, so host marks are sub-millisecond.
 */
export function hostClock() {
  const d0 = Date.now();
  let d;
  let p;
  do {
    p = performance.now();
    d = Date.now();
  } while (d === d0);
  const offset = d - p;
  /** @type {Record<string, number>} wall-clock ms */
  const marks = {};
  /** @type {Record<string, number>} performance.now() */
  const raw = {};
  return {
    marks,
    /** Records a mark now (or at a given performance.now() reading); a retried step's last try counts. */
    mark(/** @type {string} */ name, at = performance.now()) {
      raw[name] = at;
      marks[name] = offset + at;
    },
    /** Stopwatch milliseconds between two host marks: host clock only. */
    between(/** @type {string} */ from, /** @type {string} */ to) {
      return from in raw && to in raw ? raw[to] - raw[from] : NaN;
    },
  };
}

/**
 * A stopwatch on the host's monotonic clock, apart from any mark: started when made, stopped once (a
 * second stop is ignored, so the first output counts, not a later chunk).
 */
export function stopwatch() {
  const start = performance.now();
  let end = NaN;
  return {
    stop() {
      if (Number.isNaN(end)) end = performance.now();
    },
    /** Milliseconds from start to stop; NaN before stop. */
    get ms() {
      return end - start;
    },
  };
}

/**
 * @typedef {{phase: string, ms: number}} Phase
 * @typedef {{
 *   phases: Phase[], sum_ms: number, total_ms: number, missing: string[], clamped: string[],
 * }} Timeline
 *   phases: in order, each name once; sum_ms: their sum; total_ms: the host's stopwatch around the whole
 *   start (see stopwatch()), taken apart from the marks; missing: marks of the spec not seen (their time falls into the next phase);
 *   clamped: marks earlier than the mark before them, moved up to it (a clock disagreed).
 */

/**
 * Lays marks on the timeline of `spec` and measures each phase.
 * @param {[string, string | null][]} spec DIND_TIMELINE or CONTAINER_TIMELINE
 * @param {Record<string, number>} marks wall-clock ms by mark name, from every source
 * @param {number} totalMs the stopwatch total of the same start (stopwatch()), measured apart from the marks
 * @param {string[]} [optional] marks that are absent by design (the TLS marks when TLS is off)
 * @returns {Timeline}
 */
export function buildTimeline(spec, marks, totalMs, optional = []) {
  const [first] = spec[0];
  if (!(first in marks)) throw new Error(`start-up timeline: no "${first}" mark`);
  /** @type {Map<string, number>} */
  const phases = new Map();
  /** @type {string[]} */ const missing = [];
  /** @type {string[]} */ const clamped = [];
  let prev = marks[first];
  for (const [mark, phase] of spec.slice(1)) {
    if (!(mark in marks)) {
      if (!optional.includes(mark)) missing.push(mark);
      continue;
    }
    let at = marks[mark];
    if (at < prev) {
      clamped.push(mark);
      at = prev;
    }
    const name = /** @type {string} */ (phase);
    phases.set(name, (phases.get(name) ?? 0) + (at - prev));
    prev = at;
  }
  const list = [...phases].map(([phase, ms]) => ({ phase, ms: round(ms) }));
  const sum = [...phases.values()].reduce((a, ms) => a + ms, 0);
  return { phases: list, sum_ms: round(sum), total_ms: round(totalMs), missing, clamped };
}

const round = (/** @type {number} */ ms) => Math.round(ms * 1000) / 1000;

/**
 * The metrics of a timeline, for compare and history: one per phase and the total, under `prefix`.
 * @param {Timeline} timeline @param {string} prefix e.g. 'startup' or 'startup_tls'
 * @returns {{metric: string, unit: string, better: 'lower', value: number}[]} (benchmark Metrics)
 */
export function timelineMetrics(timeline, prefix) {
  const ms = (/** @type {string} */ name, /** @type {number} */ value) => ({
    metric: `${prefix}.${name}_ms`,
    unit: 'ms',
    better: /** @type {const} */ ('lower'),
    value,
  });
  return [
    ...timeline.phases.map((p) => ms(p.phase, p.ms)),
    ms('total', timeline.total_ms),
    ...(prefix === 'startup' ? [ms('without_image', withoutImageMs(timeline))] : []),
  ];
}

/**
 * The total without its image_load phase: the start-up a job pays before its own images, the same thing in
 * every environment (on an engine that already has the image there is no such phase, so it is the total).
 * The image is loaded from the runner's engine, a stand-in for the job's pulls, and its time drifts with
 * the machine's state, not with the engine: on the reference machine one fresh inner engine after another
 * took 0.7, 1.4, 2.7, 3.8 then 4.2-4.5 s for the same 76 MB image, the kernel busy in system time, and fast
 * again only after the page cache was dropped (docs/startup.md). A decision on a quantity that drifts
 * within a run would be wrong as often as not, so the start-up is decided without it, and the image's
 * time is described beside it.
 * @param {Timeline} timeline
 */
export function withoutImageMs(timeline) {
  return startupWithoutImageMs(timeline.total_ms, timeline.phases.find((p) => p.phase === 'image_load')?.ms ?? 0);
}
