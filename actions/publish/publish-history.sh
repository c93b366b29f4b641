#!/usr/bin/env bash
# Adds every results.json under $RESULTS to the history in $HISTORY with `dind-bench publish`. With
# $BRANCH set, the history lives on that git branch: when the push races another publisher, the history
# is fetched afresh and the results published again onto it (never a force push, so nothing recorded
# by the other publisher is lost), up to $ATTEMPTS times. $REDACT: what to leave out (publish --redact):
# private by default, so empty (an unset variable the workflow passes on) is `all`, and only an explicit
# `none` publishes host names, labels and e-mail addresses.
set -euo pipefail
: "${SUITE:?}" "${RESULTS:?}" "${HISTORY:?}"
here=$(cd "$(dirname "$0")" && pwd)
if [ -f "$RESULTS" ]; then files=("$RESULTS")
else mapfile -t files < <(find "$RESULTS" -name results.json -type f | sort); fi
if [ "${#files[@]}" -eq 0 ]; then
  echo "::error title=dind-bench publish::no results.json under $RESULTS"
  exit 1
fi

extra=(--redact "${REDACT:-all}")
publish_all() {
  for file in "${files[@]}"; do
    echo "publish $file"
    node "$SUITE/bin/dind-bench.js" publish "$file" --history "$HISTORY" "${extra[@]}"
  done
}

if [ -z "${BRANCH:-}" ]; then
  mkdir -p "$HISTORY"
  publish_all
  exit 0
fi

attempts=${ATTEMPTS:-5}
for attempt in $(seq 1 "$attempts"); do
  bash "$here/history-branch.sh" fetch
  publish_all
  set +e
  bash "$here/history-branch.sh" push
  code=$?
  set -e
  if [ "$code" -eq 0 ]; then
    echo "commit=$(git -C "$HISTORY" rev-parse HEAD)" >> "${GITHUB_OUTPUT:-/dev/null}"
    exit 0
  fi
  [ "$code" -eq 10 ] || exit "$code"
  echo "history: $BRANCH moved while publishing (attempt $attempt of $attempts); fetching it again"
  sleep $((attempt * 3))
done
echo "::error title=dind-bench publish::could not push $BRANCH after $attempts attempts"
exit 1
