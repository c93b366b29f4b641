// Text from an overview file as the page prints it (./answer.js, ./parts.js): checked for type and size,
// control and direction characters shown as a space, and every string put in a text node, never markup.

/** What a sane answer holds at most: far above any real run's (11 questions, 4 caveats), far below a page's limits. */
export const ANSWER_LIMITS = Object.freeze({ columns: 12, rows: 500, cell: 600, paragraph: 4000, caveats: 30 });

// Control characters, line and paragraph separators and the bidirectional overrides that would make a
// cell read differently from what it holds: shown as a space, as report.md shows them (src/text/escape.js).
// eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** @param {unknown} s @param {number} max @returns {s is string} */
export const isText = (s, max) => typeof s === 'string' && s.length <= max;

/** @param {string} s */
export const plain = (s) => s.replace(CONTROL, ' ');

/**
 * An element with text in it. Words are kept whole, each in a span that does not wrap: a line breaks only
 * between words, never inside a name such as dind-vfs@20.10 (at its hyphen) or a figure with its interval.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag @param {string} text @param {string} [cls] @returns {HTMLElementTagNameMap[K]}
 */
export function textElement(tag, text, cls) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  text.split(' ').forEach((word, i) => {
    if (i) el.append(' ');
    if (!word) return;
    const w = document.createElement('span');
    w.className = 'word';
    w.textContent = word;
    el.append(w);
  });
  return el;
}
