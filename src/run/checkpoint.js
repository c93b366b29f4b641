// A run written as it goes: DIR/results.json is a valid results document from the first step on, marked
// partial (`run.state` "running", `complete` false, unfinished cells "pending" with the number of their
// steps done), rewritten after every step (write-then-rename: a reader never sees half a file). On SIGTERM
// or SIGINT the last state is written once more as "interrupted". `run --resume DIR` reads it back and
// continues without repeating a finished step (see readPartial).
import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readJsonFile } from '../results/read-json.js';
import { validateResults } from '../results/schema.js';
import { withoutSecrets } from '../redact/secrets.js';

export class ResumeError extends Error {}

/**
 * The run to resume was recorded on other hardware (a re-run that landed on another CPU platform): its
 * samples cannot be pooled with this machine's. `run --resume` then starts afresh (./command.js).
 */
export class OtherHardwareError extends ResumeError {
  /** @param {string} message @param {import('#model/results.js').Results} results what was recorded */
  constructor(message, results) {
    super(message);
    this.results = results;
  }
}

/**
 * @typedef {{environments: object[], cells: import('./runner.js').CellResult[],
 *   engineEvents?: import('./engine-watch.js').EngineEvent[]}} RunState
 * A results document while the run is under way: its environments and cells as the run holds them.
 * @typedef {Omit<import('#model/results.js').Results, 'environments' | 'cells'> & Pick<RunState, 'environments' | 'cells'>} PartialResults
 */

export class Checkpoint {
  /**
   * @param {string} file DIR/results.json
   * @param {(state: RunState) => PartialResults} document the whole partial results document for a state
   */
  constructor(file, document) {
    this.file = file;
    this.document = document;
    /** @type {string | null} the last document written, serialized */
    this.last = null;
    this.closed = false;
    /** @type {Promise<void>} writes one after another, never two at once */
    this.queue = Promise.resolve();
  }

  /** Writes the state as a partial run. @param {RunState} state */
  save(state) {
    if (this.closed) return this.queue;
    // Every string without the run's secrets: a reason or a workload's text may hold one (../redact/secrets.js).
    const doc = withoutSecrets(this.document(state));
    doc.run.state = 'running';
    doc.run.complete = false;
    validateResults(JSON.parse(JSON.stringify(doc)), this.file);
    const text = JSON.stringify(doc, null, 2) + '\n';
    this.last = text;
    return this.enqueue(text);
  }

  /**
   * The last state written, marked interrupted; nothing is written after it (a step still finishing while
   * the run is torn down would otherwise overwrite it).
   */
  interrupted() {
    if (this.closed || this.last === null) return this.queue;
    this.closed = true;
    const doc = JSON.parse(this.last);
    doc.run.state = 'interrupted';
    doc.run.endedAt = new Date().toISOString();
    return this.enqueue(JSON.stringify(doc, null, 2) + '\n');
  }

  /** @param {string} text */
  enqueue(text) {
    this.queue = this.queue.then(async () => {
      await mkdir(path.dirname(this.file), { recursive: true });
      await writeFile(`${this.file}.tmp`, text);
      await rename(`${this.file}.tmp`, this.file);
    });
    return this.queue;
  }
}

/**
 * The partial run in DIR, checked before anything runs: it must be a valid results document, not finished,
 * recorded on this hardware with this suite version.
 * @param {string} dir @param {{fingerprint: string, suite: {version: string, commit: string | null}}} here
 * @returns {Promise<import('#model/results.js').Results>} the partial results document
 */
export async function readPartial(dir, here) {
  const file = path.join(path.resolve(dir), 'results.json');
  if (!existsSync(file)) {
    throw new ResumeError(
      `${file}: no such file: nothing to resume in ${dir} (start the run with \`dind-bench run --out ${dir}\`)`,
    );
  }
  const doc = await readJsonFile(file, {
    what: 'results file',
    advice: 'resume only a folder a `dind-bench run` wrote',
    ErrorClass: ResumeError,
  });
  let results;
  try {
    results = validateResults(doc, file);
  } catch (e) {
    throw new ResumeError(/** @type {Error} */ (e).message);
  }
  const state = results.run.state ?? 'finished';
  // A finished run is continued only to retry the cells that failed (a re-run of its job).
  if (state === 'finished' && !results.cells.some((c) => c.status === 'failed'))
    throw new ResumeError(
      `${file}: this run is finished; nothing to resume (start a new one with another --out folder)`,
    );
  if (results.host.fingerprint !== here.fingerprint) {
    throw new OtherHardwareError(
      `${file}: recorded on other hardware (fingerprint ${results.host.fingerprint}, here ${here.fingerprint})`,
      results,
    );
  }
  const was = `${results.suite.version} ${results.suite.commit ?? ''}`.trim();
  const now = `${here.suite.version} ${here.suite.commit ?? ''}`.trim();
  if (was !== now)
    throw new ResumeError(
      `${file}: recorded by dind-bench ${was}, this is ${now}: resume it with the same suite version`,
    );
  return results;
}

/**
 * The options of the run being resumed, from what it recorded (run.args), so the plan is the same.
 * @param {import('#model/results.js').Results} results
 */
export function resumedOptions(results) {
  const a = results.run.args ?? {};
  const list = (/** @type {unknown} */ v, /** @type {string} */ name) => {
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string'))
      throw new ResumeError(`run.args.${name} is not a list of names: cannot rebuild the plan`);
    return v;
  };
  return {
    profile: results.run.profile,
    benchmarks: list(a.bench, 'bench'),
    environments: list(a.env, 'env'),
    distros: list(a.distro, 'distro'),
    engines: list(a.engine ?? [], 'engine'),
    iterations: results.run.iterations,
    // An adaptive run resumes adaptive: its rounds after the plan get the budget again, counted from the resume.
    budgetMs: typeof results.run.budgetMs === 'number' ? results.run.budgetMs : undefined,
    build: a.build !== false,
    runnerLabels: Array.isArray(a.runnerLabels) ? a.runnerLabels : undefined,
    paramOverrides: a.paramOverrides && typeof a.paramOverrides === 'object' ? a.paramOverrides : {},
    pair:
      typeof a.baseline === 'string' && typeof a.candidate === 'string'
        ? { baseline: a.baseline, candidate: a.candidate }
        : undefined,
    // What the command line named: a fresh start on other hardware keeps it from the budget as the first did.
    named: Array.isArray(a.named) ? a.named.filter((/** @type {unknown} */ x) => typeof x === 'string') : undefined,
    args: a,
  };
}
