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
