// `dind-bench comment`: the pull-request comment of a workflow run, merged from each benchmark job's
// `compare --pr-comment` file and capped below GitHub's limit, with a link to the full report.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InvalidArgumentError } from 'commander';
import { DEFAULT_COMMENT_MAX, GITHUB_COMMENT_LIMIT } from '../../text/limits.js';
import { log } from '../log.js';

/** Part files larger than this are not comments `compare` wrote. */
const MAX_PART_BYTES = 16 * 2 ** 20;

/** @param {import('commander').Command} cli */
export function register(cli) {
  cli
    .command('comment')
    .description(
      'merge pull-request comment files (from `compare --pr-comment`) into one body below ' +
        `GitHub's ${GITHUB_COMMENT_LIMIT}-character limit`,
    )
    .argument('<parts...>', 'comment files, in the order they should appear')
    .requiredOption('--out <file>', 'where to write the merged comment (Markdown)')
    .option(
      '--max <chars>',
      `cap on the body's length (at most ${GITHUB_COMMENT_LIMIT})`,
      wholeNumber,
      DEFAULT_COMMENT_MAX,
    )
    .option(
      '--report-url <url>',
      'link to the full report (the workflow run or its report artifact), always kept in the comment',
    )
    .action(async (parts, opts) => {
      const bodies = [];
      for (const file of parts) bodies.push(await readPart(file));
      const { mergeComments } = await import('../../compare/comment.js');
      const r = mergeComments(bodies, { max: opts.max, reportUrl: opts.reportUrl });
      await mkdir(path.dirname(path.resolve(opts.out)), { recursive: true });
      await writeFile(opts.out, r.body);
      const how = {
        no: 'complete',
        details: 'full reports left out (they are in the job summaries)',
        lines: 'shortened to fit',
      }[r.truncated];
      log(`comment: ${parts.length} part(s), ${r.length} characters (cap ${opts.max}), ${how}: ${opts.out}`);
    });
}

/** @param {string} file */
async function readPart(file) {
  try {
    const text = await readFile(file, 'utf8');
    if (Buffer.byteLength(text) > MAX_PART_BYTES)
      throw new Error(`larger than ${MAX_PART_BYTES} bytes: not a comment written by \`compare --pr-comment\``);
    return text;
  } catch (e) {
    const err = /** @type {NodeJS.ErrnoException} */ (e);
    throw new Error(
      `${file}: ${err.code === 'ENOENT' ? 'no such comment file (did `compare --pr-comment` run?)' : err.message}`,
    );
  }
}

/** @param {string} v */
function wholeNumber(v) {
  const n = Number(v);
  if (!Number.isInteger(n)) throw new InvalidArgumentError(`expected a whole number, got ${JSON.stringify(v)}`);
  return n;
}
