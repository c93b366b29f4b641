#!/usr/bin/env bash
# Runs `dind-bench compare` on every results.json under $RESULTS (a file or a folder of benchmark jobs'
# results), into $OUT, and appends the Markdown to the job summary. Sets the step outputs `markdown` and
# `regression`. Inputs come from the environment (see action.yml), never from the command line of a
# workflow expression.
set -euo pipefail
: "${SUITE:?}" "${RESULTS:?}" "${OUT:?}"
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
: > "$OUT/pr-comment.md"
n=0
for file in "${files[@]}"; do
  n=$((n + 1))
  args=(compare "$file" --markdown "$OUT/comparison-$n.md" --json "$OUT/comparison-$n.json"
        --pr-comment "$OUT/pr-comment-$n.md" --fail-on-regression)
  if [ "$use_history" = true ]; then args+=(--history "$HISTORY"); fi
  echo "compare $file"
  set +e
  node "$SUITE/bin/dind-bench.js" "${args[@]}"
  code=$?
  set -e
  case "$code" in
    0) ;;
    4) regression=true; echo "::warning title=dind-bench compare::regression in $file" ;;
    *) echo "::error title=dind-bench compare::compare failed on $file (exit $code)"; exit "$code" ;;
  esac
  cat "$OUT/comparison-$n.md" >> "$OUT/comparison.md"
  cat "$OUT/pr-comment-$n.md" >> "$OUT/pr-comment.md"
done
# No copy into $GITHUB_STEP_SUMMARY here: in Actions `compare` already writes the job summary itself
# (through @actions/core), once per results file.
{
  echo "markdown=$(cd "$OUT" && pwd)/comparison.md"
  echo "regression=$regression"
} >> "${GITHUB_OUTPUT:-/dev/null}"
