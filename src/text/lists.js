// A comma-separated list of names (a CLI option, a workflow input, an environment variable): trimmed,
// empty entries dropped; checked against the valid names by one function, each caller wording its error.

/** The entries of "a, b,,c": trimmed, empty ones dropped, in order. @param {unknown} value */
export const splitList = (value) =>
  String(value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * @param {unknown} value e.g. "docker, dind,docker"
 * @param {readonly string[]} valid
 * @returns {{items: string[], unknown: string[]}} items in first-seen order, duplicates removed; unknown: those not in `valid`
 */
export function parseList(value, valid) {
  const items = [...new Set(splitList(value))];
  return { items, unknown: items.filter((i) => !valid.includes(i)) };
}

/**
 * The names in a list: at least one, every one valid; else an error that ends with the valid names.
 * @param {unknown} value @param {readonly string[]} valid
 * @param {{empty: string, unknown: (names: string[]) => string, ErrorClass: new (message: string) => Error}} say
 *   empty: what an empty list is called; unknown: what the unknown names are called
 * @returns {string[]}
 */
export function namesIn(value, valid, say) {
  const { items, unknown } = parseList(value, valid);
  const choices = `valid: ${valid.join(', ')}`;
  if (items.length === 0) throw new say.ErrorClass(`${say.empty}; ${choices}`);
  if (unknown.length) throw new say.ErrorClass(`${say.unknown(unknown)}; ${choices}`);
  return items;
}
