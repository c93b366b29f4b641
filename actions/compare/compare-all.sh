#!/usr/bin/env bash
# Runs `dind-bench compare` on every results.json under $RESULTS (a file or a folder of benchmark jobs'
# results), into $OUT, and appends the Markdown to the job summary. Sets the step outputs `markdown` and
# `regression`. Inputs come from the environment (see action.yml), never from the command line of a
# workflow expression:
#   FAIL_ON_REGRESSION  'true': regressions are error annotations (else warnings); the gate is the caller's
#   FAIL_ON             none, regression or inconclusive: what the gate fails on (`compare --fail-on`); empty:
#                       regression with FAIL_ON_REGRESSION, else inconclusive for an A/B (a gate fails closed
#                       by default), else none (a history run reports); written back as the output fail-on, over
#   GATE                the metrics it judges (`compare --gate`, benchmark/metric patterns; empty: all)
#   COMMENT_MAX         cap on the merged pull-request comment (default 60000; GitHub refuses > 65536)
#   REPORT_URL          link kept in the comment (default: this workflow run's page)
#   BASELINE, CANDIDATE two environment keys of each run (e.g. dind@20.10, dind@26.1): the A/B of the pair
#                       (`compare --baseline --candidate`) is the verdict instead of the history's
#   PRICE_PER_MINUTE    dollars per runner minute for the cost per job (`compare --price-per-minute`; empty:
#                       the run's, else the default)
#   BILLING             hosted or occupancy (`compare --billing`; empty: the run's, else hosted)
set -euo pipefail
: "${SUITE:?}" "${RESULTS:?}" "${OUT:?}"
case "${FAIL_ON_REGRESSION:-false}" in
  true|false) ;;
  *) echo "::error title=dind-bench compare::fail-on-regression must be 'true' or 'false'"; exit 2 ;;
esac
case "${FAIL_ON:-}" in
  ''|none|regression|inconclusive) ;;
  *) echo "::error title=dind-bench compare::fail-on must be empty, 'none', 'regression' or 'inconclusive'"; exit 2 ;;
esac
fail_on=${FAIL_ON:-}
if [ -z "$fail_on" ]; then
  if [ "${FAIL_ON_REGRESSION:-false}" = true ]; then fail_on=regression
  elif [ -n "${BASELINE:-}" ]; then fail_on=inconclusive
  else fail_on=none; fi
fi
# Checked here too, before anything is written, so the error names the input rather than a CLI option.
if [ -n "${PRICE_PER_MINUTE:-}" ] && ! [[ "$PRICE_PER_MINUTE" =~ ^[0-9]{1,6}(\.[0-9]{1,12})?$ ]]; then
  echo "::error title=dind-bench compare::price-per-minute must be dollars per runner minute such as 0.006 (an hourly price divided by 60): digits and one decimal point only"
  exit 2
fi
case "${BILLING:-}" in
  ''|hosted|occupancy) ;;
  *) echo "::error title=dind-bench compare::billing must be empty, 'hosted' (per started minute) or 'occupancy' (per second of runner time)"; exit 2 ;;
esac
gate=${GATE:-}
if [ "${#gate}" -gt 1000 ]; then echo "::error title=dind-bench compare::gate is longer than 1,000 characters"; exit 2; fi
if { [ -n "${BASELINE:-}" ] && [ -z "${CANDIDATE:-}" ]; } || { [ -z "${BASELINE:-}" ] && [ -n "${CANDIDATE:-}" ]; }; then
  echo "::error title=dind-bench compare::baseline and candidate go together: name both environments (e.g. dind@20.10 and dind@26.1)"
  exit 2
fi
mkdir -p "$OUT"
if [ -f "$RESULTS" ]; then files=("$RESULTS")
else mapfile -t files < <(find "$RESULTS" -name results.json -type f | sort); fi
if [ "${#files[@]}" -eq 0 ]; then
  echo "::error title=dind-bench compare::no results.json under $RESULTS (did the benchmark jobs upload their results?)"
  exit 1
fi

# A history that does not exist yet (first run, fresh history branch) is not an error: compare within the run.
use_history=false
if [ -n "${HISTORY:-}" ] && [ -d "$HISTORY" ] && [ -n "$(find "$HISTORY" -mindepth 1 -maxdepth 1 -not -name '.*' -print -quit)" ]; then
  use_history=true
elif [ -n "${HISTORY:-}" ]; then
  echo "no history in $HISTORY yet: comparing the environments within each run"
fi

regression=false
: > "$OUT/comparison.md"
parts=()
n=0
for file in "${files[@]}"; do
  n=$((n + 1))
  args=(compare "$file" --markdown "$OUT/comparison-$n.md" --json "$OUT/comparison-$n.json")
  if [ -n "${BASELINE:-}" ]; then args+=(--baseline "$BASELINE" --candidate "$CANDIDATE")
  else args+=(--pr-comment "$OUT/pr-comment-$n.md"); fi
  # The annotation level follows the caller's input: error annotations only when regressions fail the job.
  if [ "$fail_on" != none ]; then args+=(--fail-on "$fail_on"); fi
  if [ -n "${GATE:-}" ]; then args+=(--gate "$GATE"); fi
  if [ -n "${PRICE_PER_MINUTE:-}" ]; then args+=(--price-per-minute "$PRICE_PER_MINUTE"); fi
  if [ -n "${BILLING:-}" ]; then args+=(--billing "$BILLING"); fi
  if [ "$use_history" = true ] && [ -z "${BASELINE:-}" ]; then args+=(--history "$HISTORY"); fi
  echo "compare $file"
  set +e
  node "$SUITE/bin/dind-bench.js" "${args[@]}"
  code=$?
  set -e
  case "$code" in
    0|4|8) ;;
    *) echo "::error title=dind-bench compare::compare failed on $file (exit $code)"; exit "$code" ;;
  esac
  # Found from the gate compare wrote: without --fail-on-regression compare exits 0 on a regression too.
  found=$(node "$SUITE/src/compare/outputs.js" "$OUT/comparison-$n.json" | sed -n 's/^regressions=//p')
  if [ "$found" != 0 ]; then regression=true; echo "$found regression(s) in $file"; fi
  cat "$OUT/comparison-$n.md" >> "$OUT/comparison.md"
  # The A/B's Markdown opens with its answer and is short: it is the comment's part as it is.
  if [ -n "${BASELINE:-}" ]; then cp "$OUT/comparison-$n.md" "$OUT/pr-comment-$n.md"; fi
  parts+=("$OUT/pr-comment-$n.md")
done
# One comment for the pull request, capped below GitHub's limit, linking to the full report
# (comment-body.sh; the action writes it again once the report artifact has its own address).
printf '%s\n' "${parts[@]}" > "$OUT/pr-comment-parts.txt"
bash "$(dirname "$0")/comment-body.sh"
# No copy into $GITHUB_STEP_SUMMARY here: in Actions `compare` already writes the job summary itself
# (through @actions/core), once per results file.
# The answer for a pipeline (the reusable workflow's outputs): the gates `compare --json` wrote, merged by
# src/compare/outputs.js (verdict, regressions, inconclusive, worst, unseen, sentence, and the cost per job:
# cost, cost-seconds, cost-interval, cost-per-1000-jobs), each one bounded line.
node "$SUITE/src/compare/outputs.js" "$OUT"/comparison-*.json > "$OUT/outputs.txt"
{
  echo "markdown=$(cd "$OUT" && pwd)/comparison.md"
  echo "regression=$regression"
  cat "$OUT/outputs.txt"
  echo "fail-on=$fail_on"
} >> "${GITHUB_OUTPUT:-/dev/null}"
