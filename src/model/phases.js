// The start-up phases in the order they happen, with what a person reads for each. The same names and
// order as src/engine/startup.js (DIND_TIMELINE); test/site/waterfall.test.js checks they agree. No
// imports: the site and the Node tests both load this file.
/** @type {[phase: string, label: string][]} */
export const PHASES = [
  ['prepare', 'host set-up (socket folder, volume)'],
  ['outer_create', 'outer container created'],
  ['outer_start', 'outer container started'],
  ['entrypoint', 'entrypoint'],
  ['tls_material', 'TLS keys and certificates'],
  ['daemon_exec', 'dockerd process start'],
  ['containerd_start', 'containerd start'],
  ['daemon_init', 'storage, images, plugins'],
  ['network_setup', 'network, iptables, bridge'],
  ['api_start', 'API listening'],
  ['ping_ready', 'first /_ping'],
  ['daemon_facts', 'daemon facts read'],
  ['image_load', 'image made available'],
  ['first_create', 'first container created'],
  ['first_attach', 'output attached'],
  ['first_start', 'start to first output'],
];

/** The timeline metric prefixes: a DinD or Docker start, and a DinD start with TLS material made at start. */
export const TIMELINES = [
  ['startup', ''],
  ['startup_tls', ' (TLS on, to /_ping)'],
];

// One colour per phase, in PHASES' order, grouped: the host's set-up and the outer container (greys),
// entrypoint and TLS (reds), dockerd (oranges and yellows), client (blues), first container (greens). The
// report's waterfall (src/results/waterfall.js) and the site's draw with the same.
export const PHASE_COLOURS = [
  '#d0d7de',
  '#8c959f',
  '#57606a',
  '#cf222e',
  '#a40e26',
  '#e36209',
  '#bc4c00',
  '#bf8700',
  '#9a6700',
  '#7d4e00',
  '#0969da',
  '#54aeff',
  '#8250df',
  '#1a7f37',
  '#4ac26b',
  '#116329',
];
