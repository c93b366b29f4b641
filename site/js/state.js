// The view's state lives in the page address (?runner=...&bench=...&env=a,b), so a view can be shared
// and the back button is never surprising. Empty lists mean "all".
const LISTS = ['env', 'distro', 'engine'];

/** @typedef {ReturnType<typeof readState>} State the view: the page address's filters */

export function readState() {
  const q = new URLSearchParams(location.search);
  const list = (/** @type {string} */ k) => (q.get(k) || '').split(',').filter(Boolean);
  return {
    runner: q.get('runner') || '',
    bench: q.get('bench') || '',
    env: list('env'),
    distro: list('distro'),
    engine: list('engine'),
    range: q.get('range') || '90',
  };
}

/** @param {ReturnType<typeof readState>} s */
export function writeState(s) {
  const q = new URLSearchParams();
  if (s.runner) q.set('runner', s.runner);
  if (s.bench) q.set('bench', s.bench);
  for (const k of LISTS) {
    const v = /** @type {string[]} */ (/** @type {any} */ (s)[k]);
    if (v.length) q.set(k, v.join(','));
  }
  if (s.range !== '90') q.set('range', s.range);
  const search = q.toString();
  history.replaceState(null, '', search ? `?${search}` : location.pathname);
}

/** Whether an environment key / distro passes the filters. @param {ReturnType<typeof readState>} s @param {string} envKey @param {string} distro */
export function visible(s, envKey, distro) {
  if (s.env.length && !s.env.includes(envKey)) return false;
  if (distro !== 'host' && s.distro.length && !s.distro.includes(distro)) return false;
  const engine = envKey.split('@')[1];
  if (engine && s.engine.length && !s.engine.includes(engine)) return false;
  return true;
}
