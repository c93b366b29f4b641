// What a public history site should not show, left out at publish (`publish --redact`): the runner's host
// name (host.hostname, runner.name, each shard's hostname), e-mail addresses (the caller's commit author
// and committer, and any address in a string), the runner's labels. Each is replaced by a placeholder the
// schema accepts, so the published file still validates; the series keys (hardware fingerprint,
// benchmark, metric, environment) do not use any of them, so verdicts are unchanged.
// Whatever is asked, run.args' file and folder options are published by their names alone (publicArgs).
// Names and addresses are also taken out of every string of the document, where a failed cell's reason or
// log tail may hold them (a step that printed its host name), in any case, but from the fields that name
// series and files (NAME_FIELDS of ../redact/secrets.js); and whatever is asked, every
// string loses what is shaped like a secret (../redact/secrets.js: a URL's userinfo, a key, a header).

import path from 'node:path';
import { NAME_FIELDS, scrubSecrets, scrubStrings } from '../redact/secrets.js';

export const REDACTABLE = /** @type {const} */ (['hostnames', 'emails', 'labels']);
/** @typedef {typeof REDACTABLE[number]} Redactable */

export const PLACEHOLDER = 'redacted';
// The domain's last label is letters (a top-level domain): `dind@20.10`, an environment key, is no address.
const EMAIL = /[\w.!#$%&'*+/=?^`{|}~-]+@[\w-]+(\.[\w-]+)*\.[A-Za-z][A-Za-z-]*\b/g;

/**
 * A copy of `results` without what `what` names.
 * @param {import('#model/results.js').Results} results a valid results document
 * @param {Redactable[]} what
 * @returns {import('#model/results.js').Results}
 */
export function redact(results, what) {
  // The host and runner names, in every string (a step that printed its host name): not the labels, which
  // are often the project's own words ("docker", "dind") that every string holds; they go from their fields.
  const names = identities(
    results,
    what.filter((w) => w === 'hostnames'),
  );
  const r = structuredClone(results);
  if (what.includes('hostnames')) {
    if (r.host.hostname !== undefined) r.host.hostname = PLACEHOLDER;
    r.runner.name = PLACEHOLDER;
    for (const s of r.run.shards ?? []) {
      if (s.hostname !== undefined) s.hostname = PLACEHOLDER;
      s.runner = PLACEHOLDER;
    }
  }
  if (what.includes('labels')) {
    r.runner.labels = [];
    // The labels the workflow passed to `run --runner-labels`, recorded with the run's options.
    if (r.run.args && 'runnerLabels' in r.run.args) r.run.args.runnerLabels = [];
  }
  const scrubbed = scrubStrings(r, (s, key) =>
    key !== undefined && NAME_FIELDS.has(key) ? scrubSecrets(s, { known: false }) : scrubSecrets(scrubText(s, names)),
  );
  return what.includes('emails') ? withoutEmails(scrubbed) : scrubbed;
}

/**
 * GitHub's own labels, which every self-hosted runner of a kind carries: they name no runner, and a report's
 * text uses them as plain words ("linux"), so scrubText leaves them. They still go with `labels`.
 */
const GENERIC_LABELS = new Set(['self-hosted', 'linux', 'windows', 'macos', 'x64', 'arm', 'arm64']);

/**
 * The strings in `results` that name this runner, by what `what` redacts: its host and runner names (the
 * shards' too) for `hostnames`, its labels but GitHub's generic ones for `labels`. Longest first, at least
 * three characters (a shorter one would match inside words).
 * @param {import('#model/results.js').Results} results a valid results document @param {Redactable[]} what
 * @returns {string[]}
 */
export function identities(results, what) {
  const found = new Set();
  const add = (/** @type {unknown} */ v) => {
    if (typeof v === 'string' && v.trim().length >= 3 && v !== PLACEHOLDER) found.add(v.trim());
  };
  if (what.includes('hostnames')) {
    add(results?.host?.hostname);
    add(results?.runner?.name);
    for (const s of results?.run?.shards ?? []) {
      add(s?.hostname);
      // A merged run's runner is its shards' names joined (results/merge.js): each counts.
      for (const n of String(s?.runner ?? '').split(' + ')) add(n);
    }
    for (const n of String(results?.runner?.name ?? '').split(' + ')) add(n);
  }
  if (what.includes('labels')) {
    const labels = [...(results?.runner?.labels ?? []), ...[results?.run?.args?.runnerLabels ?? []].flat()];
    for (const l of labels) if (typeof l === 'string' && !GENERIC_LABELS.has(l.trim().toLowerCase())) add(l);
  }
  return [...found].sort((a, b) => b.length - a.length);
}

/**
 * `text` with every one of `names` replaced by the placeholder, in any case: a step that printed its host
 * name upper-cased (a banner, `hostname | tr a-z A-Z`) names the runner all the same.
 * @param {string} text @param {string[]} names
 */
export function scrubText(text, names) {
  if (!names.length) return text;
  const any = new RegExp(names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'gi');
  return text.replace(any, PLACEHOLDER);
}

/**
 * `text` without what `what` names (the runner's identities, given as `names`; its e-mail addresses) and
 * without anything shaped like a secret: the rules of redact() for a text file of a run's folder.
 * @param {string} text @param {string[]} names @param {Redactable[]} what
 */
export function scrubFile(text, names, what) {
  const out = scrubSecrets(scrubText(text, names));
  return what.includes('emails') ? out.replace(EMAIL, PLACEHOLDER) : out;
}

/**
 * `doc` with every string's e-mail addresses replaced and a person's `email` emptied: the same shape, so
 * the same type (an `email` field of a results document may be null).
 * @template T @param {T} doc @returns {T}
 */
const withoutEmails = (doc) => /** @type {T} */ (scrubEmails(doc));

/** @param {unknown} v a JSON value @returns {unknown} */
function scrubEmails(v) {
  if (typeof v === 'string') return v.replace(EMAIL, PLACEHOLDER);
  if (Array.isArray(v)) return v.map(scrubEmails);
  if (v && typeof v === 'object') {
    /** @type {Record<string, unknown>} */
    const out = {};
    for (const [k, x] of Object.entries(v)) out[k] = k === 'email' && typeof x === 'string' ? null : scrubEmails(x);
    return out;
  }
  return v;
}

/**
 * `--redact`'s value: a comma-separated list of REDACTABLE, "all", or "none" (alone: publish everything, the
 * explicit way to turn off what the publish action and the workflow do by default).
 * @param {string} v @returns {Redactable[]}
 */
export function parseRedact(v) {
  const items = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 1 && items[0] === 'none') return [];
  if (items.includes('all')) return [...REDACTABLE];
  const bad = items.filter((x) => !(/** @type {readonly string[]} */ (REDACTABLE).includes(x)));
  if (bad.length || !items.length) {
    throw new Error(`--redact ${JSON.stringify(v)}: one or more of ${REDACTABLE.join(', ')}, or all, or none alone`);
  }
  return /** @type {Redactable[]} */ (items);
}

/** `run`'s options that name a file or folder on the runner (recorded in run.args; `--resume` reads them). */
export const PATH_ARGS = /** @type {const} */ (['out', 'resume', 'workload', 'config']);

/**
 * A copy of `results` whose run.args name files and folders by their last part when the runner gave an
 * absolute path (`/home/runner/work/_temp/results` is published as `results`): where the runner keeps its
 * work is not the history's business. Relative paths stay as they are.
 * @template {{ run: { args?: Record<string, unknown> } }} T
 * @param {T} results @returns {T}
 */
export function publicArgs(results) {
  const args = results.run.args;
  const absolute = (/** @type {unknown} */ v) =>
    typeof v === 'string' && (path.posix.isAbsolute(v) || path.win32.isAbsolute(v));
  if (!args || !PATH_ARGS.some((k) => absolute(args[k]))) return results;
  const out = { ...args };
  for (const k of PATH_ARGS) if (absolute(out[k])) out[k] = path.win32.basename(String(out[k]));
  return { ...results, run: { ...results.run, args: out } };
}
