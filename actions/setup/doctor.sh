#!/usr/bin/env bash
# Runs `dind-bench doctor --json` and turns each failed check into an annotation with its fix: an error
# (and a failed step) for what stops every run, a warning for what the run can go on without (a missing
# native tool, DinD refused: those cells are recorded as failed with the reason). STAGE says when it runs:
#   before-images   the engine and buildx must be there to build; base images are not built yet
#   after-images    the images are built or pulled; only an unreachable engine stops the run
# Prints the checks as JSON to $OUT_JSON when set.
set -euo pipefail
: "${DIND_BENCH_SUITE:?run suite.sh first}"
stage=${STAGE:-after-images}
case "$stage" in
  before-images) blocking='["engine reachable", "docker buildx"]' ;;
  after-images) blocking='["engine reachable"]' ;;
  *) echo "::error title=dind-bench doctor::unknown STAGE $stage (before-images or after-images)"; exit 2 ;;
esac
json=$(mktemp)
trap 'rm -f "$json"' EXIT
node "$DIND_BENCH_SUITE/bin/dind-bench.js" doctor --json > "$json" || true
jq -e 'type == "array"' "$json" >/dev/null 2>&1 || {
  echo "::error title=dind-bench doctor::doctor printed no checks; run \`dind-bench doctor\` on the runner to see why"
  exit 1
}
# Check names and details come from this machine: an annotation's text is escaped, and an ok line is kept
# on one line, so no newline in them can start a workflow command.
jq -r --argjson blocking "$blocking" --arg stage "$stage" '
  def esc: gsub("%"; "%25") | gsub("\r"; "%0D") | gsub("\n"; "%0A");
  .[] | if .ok then "ok    \(.check): \(.detail)" | gsub("[\r\n]"; " ")
  else (if (.check as $c | $blocking | index($c)) then "error" else "warning" end) as $level
    | (if .fix then " (fix: \(.fix))" else "" end) as $fix
    | "::\($level) title=dind-bench doctor (\($stage))::\(.check): \(.detail)\($fix)" | esc
  end' "$json"
if [ -n "${OUT_JSON:-}" ]; then jq -c . "$json" > "$OUT_JSON"; fi
failed=$(jq -r --argjson blocking "$blocking" \
  '[.[] | select((.ok | not) and (.check as $c | $blocking | index($c)))] | length' "$json")
[ "$failed" -eq 0 ] || exit 1
