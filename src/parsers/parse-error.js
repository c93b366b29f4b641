// What every parser returns (metrics) and throws (ParseError, which carries the offending line so the
// runner can say exactly where the tool's output stopped making sense).

/** One measured value of one iteration. @typedef {{metric: string, unit: string, better: 'higher' | 'lower', value: number}} Metric */
export class ParseError extends Error {
  /**
   * @param {string} tool e.g. "sysbench"
   * @param {string} problem what is wrong
   * @param {{lineNumber: number, line: string} | null} at the first offending line, when there is one
   */
  constructor(tool, problem, at) {
    super(
      at
        ? `${tool} output, line ${at.lineNumber}: ${problem}: ${JSON.stringify(at.line)}`
        : `${tool} output: ${problem}`,
    );
    this.tool = tool;
    this.at = at;
  }
}
