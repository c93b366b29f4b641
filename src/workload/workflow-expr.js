// GitHub Actions expressions (`${{ … }}`) in a job being drafted into a workload (./from-workflow.js):
// the few a draft can know the value of are evaluated (a secret by its name, a matrix value of the
// combination drafted, a literal `env`, an input's default, a quoted literal, `a || b`); every other is
// named as one it cannot evaluate and stands as the word `draft`, which is a valid shell word and image
// tag, so the draft still loads and plans. Not a full evaluator: functions, comparisons and contexts of a
// real run (github.sha, steps.*.outputs) have no value before the run.
import { isMapping } from './workflow-file.js';

/**
 * @typedef {{ matrix: Record<string, string> | null, env: Record<string, string>, inputs: Record<string, string> }} ExprContext
 *   matrix: the combination drafted (null: the matrix could not be resolved); env: literal variables of
 *   the workflow and the job; inputs: defaults of workflow_dispatch and workflow_call inputs
 * @typedef {{ text: string, secrets: string[], unresolved: string[] }} Expanded
 *   secrets: the names of the secrets it uses; unresolved: each expression it could not evaluate, as written
 */

/** What stands where an expression could not be evaluated. */
export const UNRESOLVED = 'draft';
// Bounded: a `${{` with no `}}` after it costs at most 1,000 characters of scanning.
const EXPRESSION = /\$\{\{([\s\S]{0,1000}?)\}\}/g;
const SECRET = /^secrets\s*(?:\.\s*([A-Za-z_][A-Za-z0-9_]*)|\[\s*'([A-Za-z_][A-Za-z0-9_]*)'\s*\])$/;

/**
 * The text with each expression replaced by its value, a secret by `secretAs(name)`.
 * @param {string} text @param {ExprContext} ctx
 * @param {(name: string) => string} [secretAs] what a secret becomes (default: a reference to a variable of its name)
 * @returns {Expanded}
 */
export function expand(text, ctx, secretAs = (name) => `$${name}`) {
  /** @type {string[]} */
  const secrets = [];
  /** @type {string[]} */
  const unresolved = [];
  const out = text.replace(EXPRESSION, (whole, /** @type {string} */ inner) => {
    const secret = secretName(inner);
    if (secret) {
      secrets.push(secret);
      return secretAs(secret);
    }
    const value = evaluate(inner, ctx);
    if (value !== null) return value;
    unresolved.push(whole);
    return UNRESOLVED;
  });
  return { text: out, secrets, unresolved };
}

/** The secret's name when the expression is only `secrets.NAME`, else null. @param {string} inner */
export function secretName(inner) {
  const m = SECRET.exec(inner.trim());
  return m ? (m[1] ?? m[2]) : null;
}

/**
 * The value of an expression the draft can know, or null.
 * @param {string} inner @param {ExprContext} ctx @returns {string | null}
 */
function evaluate(inner, ctx) {
  const alternatives = inner.split('||').map((s) => s.trim());
  if (alternatives.length > 1) {
    // `a || b`: the first value that is not falsy, else the last (as GitHub's `||`); unknown when one
    // before it is unknown.
    /** @type {string | null} */
    let v = null;
    for (const alt of alternatives) {
      v = evaluate(alt, ctx);
      if (v === null) return null;
      if (v !== '' && v !== 'false' && v !== '0') return v;
    }
    return v;
  }
  const e = alternatives[0];
  const literal = /^'((?:[^']|'')*)'$/.exec(e);
  if (literal) return literal[1].replace(/''/g, "'");
  if (/^(true|false|-?[0-9]+(\.[0-9]+)?)$/.test(e)) return e;
  const ref = /^(matrix|env|inputs|github\.event\.inputs)\.([A-Za-z_][A-Za-z0-9_-]*)$/.exec(e);
  if (!ref) return null;
  const scope = ref[1] === 'matrix' ? ctx.matrix : ref[1] === 'env' ? ctx.env : ctx.inputs;
  if (scope && Object.hasOwn(scope, ref[2])) return scope[ref[2]];
  // A key the resolved combination does not have is null in GitHub's evaluation: empty, as false.
  return ref[1] === 'matrix' && scope ? '' : null;
}

/** GitHub runs at most 256 jobs of one matrix: a larger one is not a matrix it runs. */
const MAX_COMBINATIONS = 256;

/**
 * The matrix combination the draft is made for, as GitHub expands the matrix: every combination of the
 * lists, less each one an `exclude` entry matches, then each `include` entry added to every combination
 * whose original values it matches (its other keys added), or a combination of its own where it matches
 * none. The first combination is drafted; `combinations` counts them all.
 * @param {unknown} strategy the job's `strategy`
 * @returns {{ values: Record<string, string> | null, combinations: number, why?: string }}
 *   values null: the matrix cannot be resolved (why says so)
 */
export function matrixOf(strategy) {
  const matrix = isMapping(strategy) ? strategy.matrix : undefined;
  if (matrix === undefined) return { values: {}, combinations: 1 };
  if (!isMapping(matrix))
    return { values: null, combinations: 0, why: 'the matrix is not a mapping of lists (an expression?)' };
  /** @type {Record<string, string>[]} */
  let combos = [{}];
  for (const [key, list] of Object.entries(matrix)) {
    if (key === 'include' || key === 'exclude') continue;
    if (!Array.isArray(list) || list.length === 0 || !list.every(isScalar))
      return { values: null, combinations: 0, why: `matrix.${key} is not a list of plain values` };
    combos = combos.flatMap((c) => list.map((v) => ({ ...c, [key]: String(v) })));
    if (combos.length > MAX_COMBINATIONS)
      return { values: null, combinations: 0, why: `more than ${MAX_COMBINATIONS} combinations` };
  }
  const dims = Object.keys(combos[0]);
  for (const key of ['exclude', 'include']) {
    const list = matrix[key];
    if (list !== undefined && (!Array.isArray(list) || !list.every(isMapping)))
      return { values: null, combinations: 0, why: `matrix.${key} is not a list of mappings (an expression?)` };
  }
  const entries = (/** @type {'exclude' | 'include'} */ key) =>
    /** @type {Record<string, unknown>[]} */ (Array.isArray(matrix[key]) ? matrix[key] : []);
  const matches = (
    /** @type {Record<string, string>} */ c,
    /** @type {Record<string, unknown>} */ e,
    /** @type {string[]} */ keys,
  ) => Object.entries(e).every(([k, v]) => !keys.includes(k) || String(v) === c[k]);
  // A matrix of include entries only: each entry is a combination.
  combos = dims.length ? combos.filter((c) => !entries('exclude').some((e) => matches(c, e, Object.keys(e)))) : [];
  for (const entry of entries('include')) {
    const extra = Object.fromEntries(
      Object.entries(entry)
        .filter(([, v]) => isScalar(v))
        .map(([k, v]) => [k, String(v)]),
    );
    const hit = combos.filter((c) => dims.length && matches(c, entry, dims));
    // An entry adds its keys to the combinations it matches; it never overwrites an original value.
    for (const c of hit) for (const [k, v] of Object.entries(extra)) if (!dims.includes(k)) c[k] = v;
    if (!hit.length) combos.push(extra);
    if (combos.length > MAX_COMBINATIONS)
      return { values: null, combinations: 0, why: `more than ${MAX_COMBINATIONS} combinations` };
  }
  if (!combos.length) return { values: null, combinations: 0, why: 'its exclude entries leave no combination' };
  return { values: combos[0], combinations: combos.length };
}

/** @param {unknown} x @returns {x is string | number | boolean} */
const isScalar = (x) => typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean';

/** The secret's name when the value is only `${{ secrets.NAME }}`, else null. @param {unknown} v */
export function wholeSecret(v) {
  const m = /^\s*\$\{\{([^}]{1,200})\}\}\s*$/.exec(String(v ?? ''));
  return m ? secretName(m[1]) : null;
}
