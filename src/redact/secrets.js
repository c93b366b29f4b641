// Secrets out of every text the run keeps: its raw output, a failed cell's reason and log tail, each string
// of results.json. Two kinds of rule. The values the run knows (each registry password, the run's own
// registry passwords, each build-secret value), in the forms a tool prints them: as they are, and base64
// and base64url encoded, also inside a longer encoded blob (`user:password` in a docker config's `auth`,
// `echo "$PW" | base64` with its newline). And the shapes a secret takes whatever its value: a private key
// block, an Authorization header's credential, a docker config's auth and token fields, a URL's userinfo.
//
// The values are kept for the process, as the runner's own masking keeps them: they are known where the
// credentials are read (../workload/credentials.js, ../workload/shared.js), and every writer scrubs with
// what is known by then, without the list threaded through each context. In GitHub Actions each form is
// also masked in the job's log (core.setSecret): the runner masks the value it was given, not its base64.
import * as core from '@actions/core';

/** What a secret is replaced with: GitHub Actions' own mask, so a reader of either log knows it. */
export const MASK = '***';

/**
 * Shorter values are not scrubbed. A value of one to three characters ("1", "ab") is in every log as part
 * of ordinary words and numbers: replacing it would rewrite the whole output and hide nothing an attacker
 * could not guess in a few thousand tries anyway. Registry and build secrets are tokens and passwords far
 * longer than this.
 */
export const MIN_SECRET = 4;

/**
 * A base64 fragment shorter than this is not scrubbed: the middle of a short value's encoding in a longer
 * blob is a few characters, found by chance in any other base64 (digests, certificates). The whole
 * encoding of a value of MIN_SECRET characters is 6 or more, and is always scrubbed.
 */
const MIN_FRAGMENT = 8;

/** @type {Set<string>} every form of every value known to this process */
const known = new Set();
/** @type {RegExp | null} the known forms, longest first; null when it must be built again */
let knownPattern = null;

/**
 * `value`'s forms as a tool may print it: as it is, base64 and base64url encoded whole (padded or not), and
 * the part of its encoding that stays the same wherever it sits inside a longer encoded text (three
 * alignments). None for a value shorter than MIN_SECRET.
 * @param {string} value @returns {string[]}
 */
export function secretForms(value) {
  if (value.length < MIN_SECRET) return [];
  const bytes = Buffer.from(value, 'utf8');
  const forms = new Set([value]);
  for (const encoding of /** @type {const} */ (['base64', 'base64url'])) {
    forms.add(bytes.toString(encoding));
    forms.add(bytes.toString(encoding).replace(/=+$/, ''));
    for (const skip of [0, 1, 2]) {
      const inner = fragment(bytes, skip, encoding);
      if (inner.length >= MIN_FRAGMENT) forms.add(inner);
    }
  }
  return [...forms];
}

/**
 * The characters of `bytes`' encoding that depend on `bytes` alone when `skip` bytes of anything come
 * before them and anything may follow: the characters that mix in a neighbour's bits are left out.
 * @param {Buffer} bytes @param {number} skip 0, 1 or 2 @param {'base64' | 'base64url'} encoding
 */
function fragment(bytes, skip, encoding) {
  const text = Buffer.concat([Buffer.alloc(skip), bytes])
    .toString(encoding)
    .replace(/=+$/, '');
  // A 6-bit character is pure when its bits start and end inside the value: from bit skip*8, to its end.
  const from = Math.ceil((skip * 8) / 6);
  const to = Math.floor(((skip + bytes.length) * 8) / 6);
  return text.slice(from, to);
}

/**
 * A credential's forms: the password's, and the encoded ones of `user:password` (a docker config's `auth`,
 * HTTP Basic's). The user name is no secret: `user:password` as it is leaves it readable, as `user:***`.
 * @param {string} username @param {string} password @returns {string[]}
 */
export function credentialForms(username, password) {
  if (password.length < MIN_SECRET) return [];
  const pair = `${username}:${password}`;
  return [...secretForms(password), ...secretForms(pair).filter((f) => f !== pair)];
}

/**
 * Makes `value` a secret of this run: its forms are scrubbed from everything written after, and masked in
 * GitHub Actions' log.
 * @param {string} value @param {NodeJS.ProcessEnv} [env]
 */
export function knowSecret(value, env = process.env) {
  remember(secretForms(value), env);
}

/**
 * Makes a registry credential's password, and `user:password`, secrets of this run (see knowSecret).
 * @param {string} username @param {string} password @param {NodeJS.ProcessEnv} [env]
 */
export function knowCredential(username, password, env = process.env) {
  remember(credentialForms(username, password), env);
}

/** @param {string[]} forms @param {NodeJS.ProcessEnv} env */
function remember(forms, env) {
  for (const f of forms) {
    if (known.has(f)) continue;
    known.add(f);
    knownPattern = null;
    if (env.GITHUB_ACTIONS === 'true') core.setSecret(f);
  }
}

/** The forms known now (for a test to see what a value registered). @returns {string[]} */
export const knownForms = () => [...known];

/** Forgets every known value: for tests, which register values of their own. */
export function forgetSecrets() {
  known.clear();
  knownPattern = null;
}

/** @param {string} s */
const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** @returns {RegExp | null} */
function knownRegExp() {
  if (!known.size) return null;
  knownPattern ??= new RegExp(
    [...known]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join('|'),
    'g',
  );
  return knownPattern;
}

/**
 * The shapes a secret takes whatever its value, each with what replaces it (the part that says what it
 * was stays, so a reader still sees a key or a header was there).
 * @type {[RegExp, string][]}
 */
const SHAPES = [
  // A private key block, whole; or from its first line to the end of a text cut before its last.
  [
    /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
    `-----BEGIN $1PRIVATE KEY----- ${MASK} -----END $1PRIVATE KEY-----`,
  ],
  // An Authorization header's credential, in a request dump, a curl command line or JSON: `Bearer X`, `Basic X`.
  [/\b((?:proxy-)?authorization["']?\s*[:=]\s*["']?(?:bearer|basic|token|digest)?\s*)[^\s"',;]+/gi, `$1${MASK}`],
  // A bearer token on its own (a `Bearer eyJ…` line): a token's characters, long enough not to be a word.
  [/\b(bearer\s+)[A-Za-z0-9\-._~+/]{16,}=*/gi, `$1${MASK}`],
  // A docker config's credential fields (`"auth": "dXNlcjpwYXNz"`, an identity or registry token).
  [/("(?:auth|identitytoken|registrytoken|password)"\s*:\s*")(?:[^"\\]|\\.)+(")/gi, `$1${MASK}$2`],
  // A URL's userinfo (`https://user:password@host/`, a token as the user name): all of it.
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi, `$1${MASK}@`],
];

/**
 * `text` without any secret the run knows, nor any text shaped like one.
 * @param {string} text @param {{ known?: boolean }} [o] known: false for the shapes alone
 * @returns {string}
 */
export function scrubSecrets(text, { known: values = true } = {}) {
  const pattern = values ? knownRegExp() : null;
  let out = pattern ? text.replace(pattern, MASK) : text;
  for (const [shape, by] of SHAPES) out = out.replace(shape, by);
  return out;
}

/**
 * The fields of a results document whose values are the project's own names for a series, its files and
 * its outcome (a benchmark, an environment, a metric, a raw file, a status), and the run's options that
 * name them. A secret or a runner's name equal to one of those words ("docker", "native") would rename
 * every series and fail the schema if replaced there; left there it tells nothing, as the word is there
 * whatever the secret is. What is shaped like a secret is scrubbed from them all the same.
 */
export const NAME_FIELDS = new Set([
  'benchmark',
  'bench',
  'environment',
  'environmentKey',
  'environmentName',
  'env',
  'name',
  'distro',
  'engine',
  'image',
  'metric',
  'unit',
  'better',
  'key',
  'raw',
  'status',
  'fingerprint',
]);

/**
 * A copy of the JSON value `doc`, as it would be written (a Date as its text, an undefined field left out),
 * with `scrub` applied to each of its strings (object keys stay: they are the document's own names). The
 * same shape, so the same type.
 * @template T @param {T} doc @param {(s: string, key: string | undefined) => string} scrub
 * @returns {T}
 */
export function scrubStrings(doc, scrub) {
  const written = doc === undefined ? doc : JSON.parse(JSON.stringify(doc));
  return /** @type {T} */ (walk(written, scrub, undefined));
}

/**
 * @param {unknown} v @param {(s: string, key: string | undefined) => string} scrub
 * @param {string | undefined} key the field that holds `v` (an array's items: the array's)
 * @returns {unknown}
 */
function walk(v, scrub, key) {
  if (typeof v === 'string') return scrub(v, key);
  if (Array.isArray(v)) return v.map((x) => walk(x, scrub, key));
  if (v && typeof v === 'object') {
    /** @type {Record<string, unknown>} */
    const out = {};
    for (const [k, x] of Object.entries(v)) out[k] = walk(x, scrub, k);
    return out;
  }
  return v;
}

/**
 * A copy of the results document (or any JSON value) `doc` with scrubSecrets over each of its strings, the
 * known values but in NAME_FIELDS.
 * @template T @param {T} doc @returns {T}
 */
export const withoutSecrets = (doc) =>
  scrubStrings(doc, (s, key) => scrubSecrets(s, { known: key === undefined || !NAME_FIELDS.has(key) }));
