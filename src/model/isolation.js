// Isolation facts of a mode (the `isolation` benchmark's `facts` of a cell), and policies over them.
// Import-free (part of the results model): the parser, the reading layer's mode table, the reports and the
// site share these names and rules.

/**
 * The facts a policy can name, each decided yes, no or unknown, in the order the mode table shows them.
 * `bad` is the answer that weakens isolation: every policy asks for the other one.
 */
export const ISOLATION_FACTS = Object.freeze([
  { key: 'privileged', label: 'privileged or equivalent', bad: 'yes' },
  { key: 'runner_engine', label: "reaches the runner's engine", bad: 'yes' },
  { key: 'host_root', label: "uid 0 is the host's", bad: 'yes' },
  { key: 'host_pids', label: "sees the host's processes", bad: 'yes' },
  { key: 'block_visible', label: 'host block devices visible', bad: 'yes' },
  { key: 'block_mount', label: 'host block device mountable', bad: 'yes' },
  { key: 'proc_sys_writable', label: '/proc/sys writable', bad: 'yes' },
  { key: 'host_cgroup_writable', label: "host's cgroup files writable", bad: 'yes' },
  { key: 'host_dev', label: "/dev is the host's", bad: 'yes' },
]);

/** The facts shown but not judged by a policy. */
export const DESCRIPTIVE_FACTS = Object.freeze(['capabilities', 'seccomp', 'apparmor']);

/**
 * @typedef {{ name: string, value: string, evidence: string, scope: 'workload' | 'parent' | 'engine' }} Fact
 * @typedef {{ value: 'yes' | 'no' | 'unknown', evidence: string[] }} ModeFact
 *   what the mode gives a job: the worst over the scopes a job reaches (its containers, the container its
 *   engine runs in, the engine it drives), with the evidence of the scopes that decided it
 */

/**
 * One mode's facts from its cells' facts: per policy key, yes when any scope says yes (a job that drives
 * an engine can reach what that engine's container holds), no when every scope that reported it says no,
 * otherwise unknown with the reasons.
 * @param {Fact[]} facts
 * @returns {Record<string, ModeFact>}
 */
export function modeFacts(facts) {
  /** @type {Record<string, ModeFact>} */
  const out = {};
  for (const { key } of ISOLATION_FACTS) {
    const of = facts.filter((f) => f.name === key);
    const said = (/** @type {string} */ v) => of.filter((f) => f.value === v).map((f) => `${f.scope}: ${f.evidence}`);
    if (!of.length) out[key] = { value: 'unknown', evidence: ['not probed in this mode'] };
    else if (said('yes').length) out[key] = { value: 'yes', evidence: said('yes') };
    else if (said('unknown').length) out[key] = { value: 'unknown', evidence: said('unknown') };
    else out[key] = { value: 'no', evidence: said('no') };
  }
  for (const key of DESCRIPTIVE_FACTS) {
    const of = facts.filter((f) => f.name === key);
    if (!of.length) continue;
    const w = of.find((f) => f.scope === 'workload') ?? of[0];
    out[key] = /** @type {ModeFact} */ ({
      value: w.value,
      evidence: of.map((f) => `${f.scope}: ${f.value} (${f.evidence})`),
    });
  }
  return out;
}

/** @typedef {Record<string, 'yes' | 'no'>} Policy what each named fact must be */

/** The valid policy words, for error messages and --help. */
export const POLICY_HELP = `KEY=yes|no or no-KEY, comma-separated; KEY one of ${ISOLATION_FACTS.map((f) => f.key.replace(/_/g, '-')).join(', ')}`;

/**
 * Parses `--policy`, e.g. "no-privileged,no-runner-engine" or "privileged=no,host-root=no" (keys with
 * - or _). Refuses an unknown key or value, naming it and listing the valid ones.
 * @param {string} text
 * @returns {Policy}
 */
export function parsePolicy(text) {
  if (typeof text !== 'string' || !text.trim()) throw new Error(`--policy is empty: give ${POLICY_HELP}`);
  if (text.length > 1000) throw new Error(`--policy is ${text.length} characters long; at most 1000`);
  const keys = ISOLATION_FACTS.map((f) => f.key);
  /** @type {Policy} */
  const policy = {};
  for (const raw of text.split(',')) {
    const item = raw.trim();
    const m = item.match(/^no-(.+)$/) ?? null;
    const [k, v] = m && !item.includes('=') ? [m[1], 'no'] : item.split('=', 2);
    const key = (k ?? '').trim().toLowerCase().replace(/-/g, '_');
    const shown = JSON.stringify(item.slice(0, 80));
    const valid = `valid keys: ${keys.map((x) => x.replace(/_/g, '-')).join(', ')}; write no-KEY or KEY=yes|no, comma-separated`;
    if (!keys.includes(key))
      throw new Error(
        `--policy: unknown key ${JSON.stringify(key.replace(/_/g, '-').slice(0, 80))} in ${shown}; ${valid}`,
      );
    const value = (v ?? '').trim().toLowerCase();
    if (value !== 'yes' && value !== 'no')
      throw new Error(
        `--policy: value ${JSON.stringify((v ?? '').slice(0, 40))} of ${key.replace(/_/g, '-')} is not one of: no, yes (e.g. no-${key.replace(/_/g, '-')})`,
      );
    policy[key] = value;
  }
  return policy;
}

/** A policy as its words: "no-privileged,no-runner-engine". @param {Policy} policy */
export const policyText = (policy) =>
  Object.entries(policy)
    .map(([k, v]) => (v === 'no' ? `no-${k.replace(/_/g, '-')}` : `${k.replace(/_/g, '-')}=yes`))
    .join(',');

/**
 * Whether a mode meets a policy: every named fact decided and as asked. An unknown fact does not meet it
 * (it is never assumed); `why` lists what failed.
 * @param {Record<string, ModeFact>} facts @param {Policy} policy
 * @returns {{ meets: boolean, why: string[] }}
 */
export function meetsPolicy(facts, policy) {
  const why = [];
  for (const [key, want] of Object.entries(policy)) {
    const got = facts[key]?.value ?? 'unknown';
    if (got !== want) why.push(`${key.replace(/_/g, '-')} is ${got}`);
  }
  return { meets: why.length === 0, why };
}

/**
 * One mode (an environment of the run) in the mode table (../reading/modes.js builds it).
 * @typedef {{
 *   env: string, status: string, reason?: string,
 *   facts: Record<string, ModeFact> | null,
 *   startupMs: number | null,
 *   job: { benchmark: string, medianMs: number, per1000: number } | null,
 *   verdicts: string[],
 *   cells: { ran: number, failed: number, unavailable: number },
 *   policy: { meets: boolean, why: string[] } | null,
 * }} ModeRow
 *   facts: null when the isolation benchmark did not run or failed here (`reason` says which); startupMs: the
 *   median start-up a job pays before its images (lifecycle startup.without_image_ms); job: the team's workload; verdicts: the outcomes
 *   against docker by benchmark, in the reading's words; cells: how many ran, failed, could not run
 * @typedef {{ runner: string, probed: boolean, price: number, policy: string | null, rows: ModeRow[], answer: string | null }} ModeTable
 */

/** Seconds for a table cell. @param {number} ms */
const secs = (ms) => `${ms < 10_000 ? (ms / 1000).toFixed(2) : Math.round(ms / 1000).toLocaleString('en')} s`;

/**
 * The mode table as plain strings (callers escape them for their format): the header and one row per mode,
 * and where its parts begin (`at`: the isolation facts, the start-up a job pays, the verdicts against
 * docker), so a layout finds a column by its place, never by its heading's words.
 * @param {ModeTable} t
 * @returns {{ title: string, header: string[], rows: string[][], at: { facts: number, startup: number, against: number } }}
 */
export function modeTableText(t) {
  const facts = t.policy ? 2 : 1;
  // The facts, then seccomp and AppArmor; then the start-up and the workload's cost; then the verdicts.
  const at = { facts, startup: facts + ISOLATION_FACTS.length + 2, against: facts + ISOLATION_FACTS.length + 4 };
  const header = [
    'mode',
    ...(t.policy ? [`meets ${t.policy}`] : []),
    ...ISOLATION_FACTS.map((f) => f.label),
    'seccomp',
    'AppArmor',
    'start-up a job pays',
    `workload per 1,000 jobs ($${t.price}/min)`,
    'against docker',
    'cells failed',
  ];
  const rows = t.rows.map((r) => {
    const fact = (/** @type {string} */ k) => (r.facts ? (r.facts[k]?.value ?? 'unknown') : '–');
    const status =
      r.status !== 'ok'
        ? ` (${r.status}${r.reason ? `: ${r.reason}` : ''})`
        : r.facts
          ? ''
          : ` (${r.reason ?? 'not probed'})`;
    return [
      `${r.env}${status}`,
      ...(t.policy ? [r.policy ? (r.policy.meets ? 'yes' : `no: ${r.policy.why.join(', ')}`) : '–'] : []),
      ...ISOLATION_FACTS.map((f) => fact(f.key)),
      fact('seccomp'),
      fact('apparmor'),
      r.startupMs === null ? '–' : secs(r.startupMs),
      r.job ? `$${r.job.per1000.toFixed(2)} (${secs(r.job.medianMs)} a job)` : '–',
      r.env === 'docker' ? 'baseline' : r.verdicts.join('; ') || '–',
      r.cells.ran ? `${r.cells.failed} of ${r.cells.ran} (${Math.round((100 * r.cells.failed) / r.cells.ran)}%)` : '–',
    ];
  });
  return { title: `Which mode: speed and isolation on ${t.runner}`, header, rows, at };
}

/** How to read the table, once under it. */
export const MODE_TABLE_READING =
  'Isolation facts are measured by the isolation benchmark inside each mode (a workload container, the container its ' +
  'engine runs in or the job holds, and the engine the job drives); a mode has a fact when any of these has it, since a ' +
  'job that drives an engine can start a container with what that engine holds. "unknown" is never counted as ' +
  "meeting a policy. The evidence of each fact is in results.json (the isolation cells' facts) and raw/isolation/.";
