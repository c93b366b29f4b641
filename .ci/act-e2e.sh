#!/usr/bin/env bash
# End to end: the benchmark workflow (.github/workflows/bench.yml) under act, on this machine, offline,
# exactly as the README's "Locally with act" runs it (.actrc: tiny profile, jobs on the host): prepare,
# Docker, DinD and interleaved jobs, compare, publish, site. Then checks that results, a comparison, a
# history and a site exist, and that no container, volume or network of the run is left on the engine.
# Then act runs the workflow a second time in the same checkout and output folder (interleaved layout
# only, to keep it short), as a user would: it must start from fresh results and add to the history.
# act's own folders and the outputs live in a temporary folder, removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=.ci/e2e-lib.sh
. .ci/e2e-lib.sh
e2e_begin "act e2e" act

started=$SECONDS
# act names the repository after the checkout's origin remote, which in a clone of a local folder (as CI
# makes) is a path: dind-bench refuses that as GITHUB_REPOSITORY. A name of the right form stands in.
repo=(--env GITHUB_REPOSITORY=local/dind-bench)
# XDG_* and --action-cache-path keep act's working copies and config folder out of the home folder.
set +e
XDG_CACHE_HOME="$tmp/cache" XDG_CONFIG_HOME="$tmp/config" act workflow_dispatch -W .github/workflows/bench.yml \
  --action-cache-path "$tmp/act" --env "DIND_BENCH_ACT_OUT=$tmp/out" "${repo[@]}" 2>&1 | tee "$tmp/act.log" | grep -E '⭐ Run|✅|❌|🏁|act: skipping|::error|Error'
status=${PIPESTATUS[0]}
set -e
echo "act e2e: act exited $status after $((SECONDS - started)) s"

[ "$status" -eq 0 ] || fail "act exited $status"
results=$(find "$tmp/out/results" -name results.json | wc -l)
[ "$results" -ge 3 ] || fail "expected results.json from the docker, dind and interleaved jobs, found $results"
[ -s "$tmp/out/compare/comparison.md" ] || fail "no comparison written"
[ -f "$tmp/out/history/index.json" ] || fail "no history written"
[ -f "$tmp/out/site/index.html" ] || fail "no site built"
grep -q 'act: skipping actions/upload-artifact' "$tmp/act.log" || fail "remote actions were not reported as skipped"

runs_before=$(jq '.runs | if type == "number" then . else length end' "$tmp/out/history/index.json" 2>/dev/null || echo 0)
second=$SECONDS
set +e
XDG_CACHE_HOME="$tmp/cache" XDG_CONFIG_HOME="$tmp/config" act workflow_dispatch -W .github/workflows/bench.yml \
  --action-cache-path "$tmp/act" --env "DIND_BENCH_ACT_OUT=$tmp/out" "${repo[@]}" --input layout=interleaved > "$tmp/act.log" 2>&1
status=$?
set -e
echo "act e2e: second run: act exited $status after $((SECONDS - second)) s"
[ "$status" -eq 0 ] || fail "the second act run in the same checkout exited $status"
results=$(find "$tmp/out/results" -name results.json | wc -l)
[ "$results" -eq 1 ] || fail "the second run should hold only its own interleaved results, found $results"
runs_after=$(jq '.runs | if type == "number" then . else length end' "$tmp/out/history/index.json" 2>/dev/null || echo 0)
[ "$runs_after" -gt "$runs_before" ] || fail "the second run added nothing to the history ($runs_before -> $runs_after runs)"

leftover=$(owned)
[ -z "$leftover" ] || fail "the act run left engine objects behind: $leftover"
echo "act e2e: ok: $results results, comparison, history and site in $((SECONDS - started)) s"
