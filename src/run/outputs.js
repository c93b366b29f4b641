// What a finished run leaves: DIR/results.json, DIR/report.md and DIR/report.html, and the report printed.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { htmlReport } from '../results/report-html.js';
import {
  answers,
  leftOutNote,
  markdownReport,
  modesOf,
  modesTerminal,
  problems,
  summaryTables,
} from '../results/report.js';
import { costTable, jobSentence, workloadCosts } from '../results/job-cost.js';
import { validateResults } from '../results/schema.js';
import { textTable, wrap } from '../text/tables.js';

/** @typedef {Awaited<ReturnType<typeof import('./document.js').assembleResults>>} ResultsDocument */

/**
 * Validates the document, then writes results.json (write-then-rename: a reader never sees half a file)
 * and the Markdown and HTML reports next to it.
 * @param {string} outDir @param {string} file @param {ResultsDocument} results
 */
export async function writeOutputs(outDir, file, results) {
  validateResults(JSON.parse(JSON.stringify(results)), file);
  await mkdir(outDir, { recursive: true });
  await writeFile(`${file}.tmp`, JSON.stringify(results, null, 2) + '\n');
  await rename(`${file}.tmp`, file);
  await writeFile(path.join(outDir, 'report.md'), markdownReport(results));
  await writeFile(path.join(outDir, 'report.html'), htmlReport(results));
}

/**
 * The medians and verdicts per benchmark, the cells that did not run (each reason once), the answer per
 * DinD environment, and where the files are.
 * @param {ResultsDocument} results @param {string} outDir @param {string} file
 * @param {(s: string) => void} log
 */
export function printReport(results, outDir, file, log) {
  const jobs = workloadCosts(results);
  const left = leftOutNote(results);
  if (left) log(`\n${wrap(left)}`);
  for (const w of jobs) log(`\n${wrap(jobSentence(w))}`);
  for (const t of summaryTables(results)) log(`\n${t.title}\n${textTable(t.header, t.rows)}`);
  for (const p of problems(results)) log(`\n${wrap(p)}`);
  for (const a of answers(results)) log(`\n${wrap(a)}`);
  for (const w of jobs) {
    const t = costTable(w);
    log(`\n${t.title}\n${textTable(t.header, t.rows)}`);
  }
  // The mode table last: the answer to "which mode should our CI use" closes the run's output.
  for (const m of modesTerminal(modesOf(results))) log(`\n${m}`);
  const rssMib = Math.round(results.harness.peakRssBytes / 2 ** 20);
  log(
    `\nresults: ${file}\nreport:  ${path.join(outDir, 'report.md')} and report.html\nwall time ${results.harness.wallSeconds} s, harness peak RSS ${rssMib} MiB`,
  );
}
