// Ablation of the verdict: judge() of src/stats/verdicts.js with one of its steps changed at a time, so the
// evaluation shows what each step buys in detection and costs in false alarms. The full rule is judge()
// itself with its default steps.
import { DEFAULT_RULE, judge } from '../../src/stats/verdicts.js';
import { EVAL_STEPS } from './methods.js';

/**
 * @param {string} name
 * @param {Partial<import('../../src/stats/verdicts.js').Steps>} steps
 * @param {Partial<import('../../src/stats/verdicts.js').Rule>} [rule]
 * @returns {import('./methods.js').Detector}
 */
function variant(name, steps, rule = {}) {
  const s = { ...EVAL_STEPS, ...steps };
  const r = { ...DEFAULT_RULE, ...rule };
  return {
    name,
    detect: (past, candidate, better) =>
      judge(
        past.map((samples) => ({ samples })),
        { samples: candidate },
        better,
        r,
        s,
      ).status === 'regression',
  };
}

export const ABLATIONS = [
  variant('verdict, all steps (as judge())', {}),
  // Since issue 45 the verdict judges this run alone; the split of issue 21 is the step it left out.
  variant('spans of 2-4 runs too (0.4/0.2/0.2/0.2, issue 21)', { spans: [0.4, 0.2, 0.2, 0.2] }),
  variant('run median instead of pseudo-median', { level: 'median' }),
  variant('two-sided', { sided: 'two' }),
  variant('own level error always a floor', { floor: 'always' }),
  variant('without the minimum change', {}, { minChange: 0 }),
];
