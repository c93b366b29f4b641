// A GitHub Actions workflow file, read to draft a workload from one of its jobs (./from-workflow.js). The
// file is hostile input like a workload file: bounded, one YAML document, a mapping with `jobs`, the job
// asked for present and a job of steps. Every error names the file, the job and what to do.
//
// Parsed with the `yaml` package the project already uses, not GitHub's @actions/workflow-parser: that
// package (0.3.61) imports its JSON schema without an import attribute, which Node 20's ESM loader refuses
// (ERR_IMPORT_ASSERTION_TYPE_MISSING); it is built for bundlers. The draft needs the job's plain values,
// not GitHub's validation of the whole workflow.
import { readBoundedText } from './bounded-file.js';
import YAML from 'yaml';
import { logText } from '../text/escape.js';

/** Real workflow files are a few KiB; the largest seen in the wild are well under this. */
export const MAX_WORKFLOW_BYTES = 256 * 1024;
/** A job id as GitHub takes it: a letter or `_`, then letters, digits, `-` and `_`. */
const JOB_ID = /^[A-Za-z_][A-Za-z0-9_-]{0,99}$/;
const ADVICE = 'give a GitHub Actions workflow file (.github/workflows/*.yml)';

export class WorkflowError extends Error {}

/**
 * @typedef {Record<string, unknown>} Mapping
 * @typedef {{ file: string, where: string, workflow: Mapping, job: Mapping, jobId: string }} WorkflowJob
 *   where: the file as printed (escaped); workflow: the whole document; job: the job's mapping
 */

/**
 * Reads the workflow file and finds the job.
 * @param {string} file @param {string} jobId
 * @returns {Promise<WorkflowJob>}
 */
export async function readWorkflowJob(file, jobId) {
  const where = logText(file);
  if (!JOB_ID.test(jobId))
    throw new WorkflowError(
      `${where}: --job ${logText(jobId.slice(0, 100))} is not a job id (a letter or "_", then letters, digits, "-" and "_"); give the key of the job under jobs:`,
    );
  const workflow = parseWorkflow(await readBounded(file, where), where);
  return { file, where, workflow, job: jobOf(workflow, jobId, where), jobId };
}

/** @param {string} file @param {string} where */
const readBounded = (file, where) =>
  readBoundedText(file, {
    maxBytes: MAX_WORKFLOW_BYTES,
    fail: (m) => new WorkflowError(m),
    unreadable: (code) => `${where}: cannot read the workflow file (${code}); ${ADVICE}`,
    notFile: `${where}: not a regular file (a link or a folder); ${ADVICE}`,
    tooLarge: (size) =>
      `${where}: ${size} bytes, more than a workflow file may have here (${MAX_WORKFLOW_BYTES}); ${ADVICE}`,
  });

/** @param {string} text @param {string} where @returns {Mapping} */
export function parseWorkflow(text, where) {
  const docs = YAML.parseAllDocuments(text, { uniqueKeys: true });
  if (!Array.isArray(docs) || docs.length !== 1)
    throw new WorkflowError(`${where}: expected exactly one YAML document; ${ADVICE}`);
  const error = docs[0].errors[0];
  if (error) {
    const at = error.linePos?.[0];
    throw new WorkflowError(
      `${where}${at ? `:${at.line}:${at.col}` : ''}: not valid YAML: ${logText(error.message.split('\n')[0])}; ${ADVICE}`,
    );
  }
  /** @type {unknown} */
  let doc;
  try {
    // GitHub takes anchors and aliases in workflows; bounded as the YAML library bounds them, so a
    // "billion laughs" file is refused rather than expanded.
    doc = docs[0].toJS({ maxAliasCount: 100 });
  } catch (e) {
    throw new WorkflowError(`${where}: ${logText(/** @type {Error} */ (e).message)}; ${ADVICE}`);
  }
  if (!isMapping(doc) || !isMapping(doc.jobs))
    throw new WorkflowError(
      `${where}: not a GitHub Actions workflow: expected a mapping with a "jobs" mapping; ${ADVICE}`,
    );
  return doc;
}

/** @param {Mapping} workflow @param {string} jobId @param {string} where @returns {Mapping} */
function jobOf(workflow, jobId, where) {
  const jobs = /** @type {Mapping} */ (workflow.jobs);
  const names = Object.keys(jobs);
  const job = Object.hasOwn(jobs, jobId) ? jobs[jobId] : undefined;
  if (job === undefined)
    throw new WorkflowError(
      `${where}: no job ${logText(jobId)}; its jobs: ${logText(names.slice(0, 30).join(', ') || 'none')}; give one of them with --job`,
    );
  const at = `${where}: job ${logText(jobId)}`;
  if (!isMapping(job)) throw new WorkflowError(`${at}: not a mapping of the job's keys (runs-on, steps, ...)`);
  if (typeof job.uses === 'string')
    throw new WorkflowError(
      `${at} calls a reusable workflow (uses: ${logText(job.uses.slice(0, 200))}); draft from a job of that workflow's file instead`,
    );
  if (!Array.isArray(job.steps) || job.steps.length === 0)
    throw new WorkflowError(`${at} has no steps; give a job with steps:`);
  if (!job.steps.every(isMapping))
    throw new WorkflowError(`${at}: every item of steps: must be a mapping (run: or uses:)`);
  return job;
}

/** @param {unknown} x @returns {x is Mapping} */
export const isMapping = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);
