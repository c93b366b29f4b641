// The workflow outputs of actions/compare, from the gates `compare --json` wrote (one document per results
// file): the verdict over every file (regression / inconclusive / improvement / equivalent), how many
// metrics regressed and could not be judged, the worst regression, and the largest change the gate could
// not have seen; and the cost per job (seconds with an interval, dollars per 1,000 jobs). The sentences are
// the reading's (../reading/gate.js, ../reading/answer.js); this only merges and bounds them.
// actions/compare/compare-all.sh runs it: `node src/compare/outputs.js comparison-*.json >> $GITHUB_OUTPUT`.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const ORDER = ['regression', 'inconclusive', 'nothing gated', 'improvement', 'equivalent'];
/** Most bytes of a comparison document read; names in it are bounded (one line, 300 characters) on output. */
const MAX_BYTES = 64 * 2 ** 20;

/**
 * The characters an output may hold: ASCII letters, digits, `. , : % + - / @ = _` and the no-break space
 * (U+00A0) between words. Each is inert in a POSIX shell (sh, bash: unquoted, in double or in single
 * quotes, and after `W=`) and in PowerShell (a bare argument, an expandable "..." or a verbatim '...'
 * string), by their documented rules. No ASCII space, tab or line break: a caller writing
 * `W=${{ needs.x.outputs.worst }}` in bash or sh would run the word after the first one as a command (an
 * assignment before a command word), so an output is one shell word whatever it says: sh and bash split
 * words only at space, tab and newline, never at U+00A0, which still reads as a space. No quote of any kind
 * (PowerShell also takes the typographic ones, ‘ ’ ‚ ‛ “ ” „, as quotes), no `$` or backtick (expansion,
 * escape), no parentheses, brackets or braces (subexpressions, script blocks, type literals), no `; | & < >`
 * (separators, pipes, redirection), no `#` (a comment would cut the caller's line short), no `* ? ~ !`.
 * Two sequences of allowed characters are not inert in PowerShell and never appear (see clean): an `@` that
 * starts a word (splatting a variable) and `--%` (the stop-parsing token).
 */
export const OUTPUT_ALPHABET = /^[A-Za-z0-9\u00a0.,:%+\-/@=_]*$/;

/** What joins the words of an output (see OUTPUT_ALPHABET): a no-break space, never a word separator in sh. */
export const NO_BREAK_SPACE = '\u00a0';

/** Characters PowerShell reads as a dash (about_Parsing), and other Unicode a sentence uses, spelt in ASCII. */
const SPELT = /** @type {Record<string, string>} */ ({
  '\u2212': '-',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2015': '-',
  '\u00b1': '+-',
  '\u2265': 'at least ',
  '\u2264': 'at most ',
  '\u00d7': 'x',
  '\u2026': '...',
  '\u00a0': ' ',
});

/**
 * One line, bounded, and inert however a caller writes it into a `run:` step, bash, sh or pwsh (`${{ }}`
 * unquoted, in double or in single quotes, or as `W=${{ }}`; the outputs carry names from untrusted
 * results): of OUTPUT_ALPHABET only, one shell word. A semicolon becomes a comma, an opening parenthesis
 * or bracket ", " and a closing one ","; an apostrophe inside a word is dropped ("job's" reads "jobs"); a
 * few Unicode signs are spelt out (SPELT); control characters, line separators and bidirectional overrides
 * become spaces, invisible format characters (zero-width, word joiner) nothing; any other character
 * becomes an underscore; last, every space becomes NO_BREAK_SPACE.
 * @param {unknown} s @param {number} [max] characters kept
 */
export const clean = (s, max = 300) =>
  String(s)
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, ' ')
    .replace(/[\u00ad\u200b-\u200f\u2060-\u2064\ufeff]/g, '')
    .replace(/[\u2212\u2010-\u2015\u00b1\u2265\u2264\u00d7\u2026\u00a0]/g, (c) => SPELT[c])
    .replace(/(?<=[A-Za-z])['\u2018\u2019\u02bc](?=[A-Za-z])/g, '')
    .replace(/;/g, ',')
    .replace(/[([{]/g, ', ')
    .replace(/[)\]}]/g, ',')
    .replace(/[^A-Za-z0-9 .,:%+\-/@=_]/g, '_')
    // Splatting (`@name` as a word) and the stop-parsing token (`--%`) of PowerShell.
    .replace(/(?<![A-Za-z0-9])@/g, '_')
    .replace(/-(?=%)/g, '_')
    // What the brackets left: no space before a comma, one comma, none before a full stop or at the end.
    .replace(/ +/g, ' ')
    .replace(/ ,/g, ',')
    .replace(/,(?:[ ,]*,)+/g, ',')
    .replace(/,(?=\.|$)/g, '')
    .trim()
    .slice(0, max)
    .trimEnd()
    // One word for sh and bash: `W=${{ }}` must not make the second word a command.
    .replace(/ /g, NO_BREAK_SPACE);

/** A finite number with two decimals ("4.22", "-0.35"), else empty. @param {unknown} x */
const fixed2 = (x) => (typeof x === 'number' && Number.isFinite(x) ? x.toFixed(2) : '');

/**
 * The cost per job as outputs (../reading/answer.js CostAnswer): the first document's that measured one
 * (the first results file's, as the job summary opens with it), else the first one's sentence saying it
 * was not measured. cost-seconds: the candidate's job time minus the baseline's, in seconds;
 * cost-interval: its 95% interval, "low,high"; cost-per-1000-jobs: dollars, in the billing model the
 * sentence names.
 * @param {Array<{ cost?: any }>} docs
 */
export function costOutputs(docs) {
  const costs = docs.map((d) => d.cost).filter((c) => c && typeof c === 'object' && typeof c.sentence === 'string');
  const c = costs.find((x) => x.seconds && typeof x.seconds === 'object') ?? costs[0];
  const low = fixed2(c?.seconds?.low);
  const high = fixed2(c?.seconds?.high);
  return {
    // The reading's own words for an output (money as "USD 0.42", an interval as "from LOW to HIGH", which
    // clean() keeps readable), bounded and made inert here; a document without them: its sentence, cleaned.
    cost: c ? clean(typeof c.outputSentence === 'string' ? c.outputSentence : c.sentence, 600) : '',
    'cost-seconds': fixed2(c?.seconds?.diff),
    'cost-interval': low && high ? `${low},${high}` : '',
    'cost-per-1000-jobs': fixed2(c?.per1000),
  };
}

/**
 * @param {Array<{ gate?: import('../reading/gate.js').Gate | null, cost?: any }>} docs
 * @returns {Record<string, string>}
 */
export function workflowOutputs(docs) {
  return { ...gateOutputs(docs), ...costOutputs(docs) };
}

/** @param {Array<{ gate?: import('../reading/gate.js').Gate | null }>} docs @returns {Record<string, string>} */
function gateOutputs(docs) {
  const gates = docs.map((d) => d.gate).filter((g) => g && typeof g === 'object');
  if (!gates.length) return { verdict: 'inconclusive', regressions: '0', inconclusive: '0', worst: '', unseen: '' };
  const g = /** @type {import('../reading/gate.js').Gate[]} */ (gates);
  // A verdict the gate does not give (a comparison document changed on the way) is no answer: inconclusive,
  // which fails closed, and never its text as an output.
  const known = g.map((x) => (ORDER.includes(x.verdict) ? x.verdict : 'inconclusive'));
  const verdict = known.sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b))[0];
  const regressed = g.flatMap((x) => x.regressed ?? []).sort((a, b) => (b.change ?? 0) - (a.change ?? 0));
  const inconclusive = g.flatMap((x) => x.inconclusive ?? []);
  const w = regressed[0];
  const worst = w ? `${w.benchmark} ${w.metric} on ${w.where} +${((w.change ?? 0) * 100).toFixed(1)}%` : '';
  const unseen = g.map((x) => x.unseen).filter((x) => x !== null && x !== undefined);
  const largest = unseen.length ? Math.max(...unseen.map((x) => (typeof x === 'number' ? x : Infinity))) : null;
  // (an 'any' from one gate, or a number JSON could not write, is no largest number: any change)
  return {
    verdict: verdict === 'nothing gated' ? 'inconclusive' : verdict,
    regressions: String(regressed.length),
    inconclusive: String(inconclusive.length),
    worst: clean(worst),
    unseen: largest === null ? '' : Number.isFinite(largest) ? `${(largest * 100).toFixed(0)}%` : 'any',
    sentence: clean(g.map((x) => x.sentence).join(' ')),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const docs = process.argv.slice(2).map((f) => {
    const text = readFileSync(f, 'utf8');
    if (text.length > MAX_BYTES) throw new Error(`${f}: larger than ${MAX_BYTES} bytes; not a comparison document`);
    return JSON.parse(text);
  });
  const out = workflowOutputs(docs);
  process.stdout.write(
    Object.entries(out)
      .map(([k, v]) => `${k}=${v}\n`)
      .join(''),
  );
}
