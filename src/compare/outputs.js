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
 * One line, bounded, and inert in a shell however a caller writes it into a `run:` (`${{ }}` unquoted, in
 * double or in single quotes; the outputs carry names from untrusted results): of ASCII only letters,
 * digits, space and `. , : % + - / @ = _ ( ) #` are kept, a semicolon becomes a comma and any other
 * character (`$`, backticks, quotes, backslash, `| & < > *`…) an underscore. Control characters, line
 * separators and bidirectional overrides become spaces; other Unicode (≥, ±) stays.
 * @param {unknown} s @param {number} [max] characters kept
 */
const clean = (s, max = 300) =>
  String(s)
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, ' ')
    .replace(/;/g, ',')
    .replace(/[^\x80-\uffffA-Za-z0-9 .,:%+\-/@=_()#]/gu, '_')
    .slice(0, max);

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
    // Money as "USD 0.42" and intervals in parentheses, so that clean() leaves them readable ($ and [ ] are not kept).
    cost: c
      ? clean(
          String(c.sentence)
            .replace(/\$(?=\d)/g, 'USD ')
            .replace(/\[/g, '(')
            .replace(/\]/g, ')'),
          600,
        )
      : '',
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
  const verdict = g.map((x) => x.verdict).sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b))[0];
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
