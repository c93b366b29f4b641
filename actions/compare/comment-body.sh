#!/usr/bin/env bash
# Writes $OUT/pr-comment.md: the pull request comment parts that compare-all.sh listed in
# $OUT/pr-comment-parts.txt, merged and capped below GitHub's limit by `dind-bench comment`, with a link
# to the full report that is always kept:
#   REPORT_URL   the report artifact's address when the action uploaded it; else this workflow run's page
#   COMMENT_MAX  cap on the body (default 60000; GitHub refuses > 65536)
set -euo pipefail
: "${SUITE:?}" "${OUT:?}"
mapfile -t parts < "$OUT/pr-comment-parts.txt"
report_url=${REPORT_URL:-}
if [ -z "$report_url" ] && [ -n "${GITHUB_RUN_ID:-}" ] && [ -n "${GITHUB_REPOSITORY:-}" ]; then
  report_url="${GITHUB_SERVER_URL:-https://github.com}/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID"
fi
comment_args=(comment "${parts[@]}" --out "$OUT/pr-comment.md" --max "${COMMENT_MAX:-60000}")
if [ -n "$report_url" ]; then comment_args+=(--report-url "$report_url"); fi
node "$SUITE/bin/dind-bench.js" "${comment_args[@]}"
