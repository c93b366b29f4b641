// A comma-separated list of names (a CLI option, a workflow input): trimmed, empty entries dropped,
// duplicates removed, checked against the valid names. Each caller words its own error.

/**
 * @param {unknown} value e.g. "docker, dind,docker"
 * @param {readonly string[]} valid
 * @returns {{items: string[], unknown: string[]}} items in first-seen order; unknown: those not in `valid`
 */
export function parseList(value, valid) {
  const items = [
    ...new Set(
      String(value ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  return { items, unknown: items.filter((i) => !valid.includes(i)) };
}
