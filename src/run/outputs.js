// What a finished run leaves: DIR/results.json, DIR/report.md and DIR/report.html, and the report printed:
// each a layout of the run's one Reading (src/reading/read-run.js), built once here.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { htmlReport } from '../results/report-html.js';
import { markdownReport } from '../results/report.js';
import { modesTerminal } from '../text/modes.js';
import { costTable } from '../model/job-cost.js';
import { validateResults } from '../results/schema.js';
import { withoutSecrets } from '../redact/secrets.js';
import { readRun } from '../reading/read-run.js';
import { answerTerminal, costSentence, partsTerminal, problemLines } from '../text/answer.js';
import { textTable, wrap } from '../text/tables.js';

/** @typedef {Awaited<ReturnType<typeof import('./document.js').assembleResults>>} ResultsDocument */

/**
 * Validates the document, then writes results.json (write-then-rename: a reader never sees half a file)
 * and the Markdown and HTML reports next to it, from the run's Reading, which it returns. Every string of
 * the document is written without the run's secrets.
 * @param {string} outDir @param {string} file @param {ResultsDocument} assembled
 */
export async function writeOutputs(outDir, file, assembled) {
  // Every string without the run's secrets, and the reports made from that (../redact/secrets.js).
  const results = withoutSecrets(assembled);
  validateResults(JSON.parse(JSON.stringify(results)), file);
  await mkdir(outDir, { recursive: true });
  await writeFile(`${file}.tmp`, JSON.stringify(results, null, 2) + '\n');
  await rename(`${file}.tmp`, file);
  const reading = readRun(results);
  await writeFile(path.join(outDir, 'report.md'), markdownReport(reading, results));
  await writeFile(path.join(outDir, 'report.html'), htmlReport(reading, results));
  return reading;
}

/**
 * The answer first (the answer table, its caveats), then the cells that did not run (each reason once), the
 * workload's costs, the mode table, and where the files are. The medians of every metric are in report.md
 * and report.html, not here: a terminal shows what a person reads at a glance.
 * @param {import('../reading/read-run.js').RunReading} reading @param {ResultsDocument} results
 * @param {string} outDir @param {string} file @param {(s: string) => void} log
 */
export function printReport(reading, results, outDir, file, log) {
  if (costSentence(reading)) log(`\n${wrap(`Cost per job: ${costSentence(reading)}`)}`);
  log(`\n${answerTerminal(reading).join('\n')}`);
  for (const p of problemLines(reading)) log(`\n${wrap(p)}`);
  for (const w of reading.jobs) {
    const t = costTable(w);
    log(`\n${wrap(t.title)}\n${textTable(t.header, t.rows)}`);
  }
  if (reading.parts.length) log(partsTerminal(reading).join('\n'));
  for (const m of modesTerminal(reading.modes)) log(`\n${m}`);
  const rssMib = Math.round(results.harness.peakRssBytes / 2 ** 20);
  log(
    `\nresults: ${file}\nreport:  ${path.join(outDir, 'report.md')} and report.html (every metric's medians and comparisons)\nwall time ${results.harness.wallSeconds} s, harness peak RSS ${rssMib} MiB`,
  );
}
