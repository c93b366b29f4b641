#!/usr/bin/env bash
# End to end: a workload too long for one job, under act on this machine (issue 54). bench.yml runs a tiny
# workload (.ci/e2e/shard-job: its `expected` time makes 4 samples a side too long for one job of
# max-minutes 7, while the real job takes seconds) beside lifecycle: prepare splits the workload's samples
# over two shard jobs of its own (2 a side each, every environment interleaved in each), the two run side by
# side on this machine, and merge pools them into one run. Its answer is checked against the same workload
# run on one runner (`dind-bench run`, 4 a side): the same questions, as many samples, overlapping intervals,
# and the merged reading says its samples came from 2 runners. Then the same dispatch with max-shards 1 must
# stop in prepare, naming what fits, before any bench job starts. Nothing of the runs is left on the engine.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=.ci/e2e-lib.sh
. .ci/e2e-lib.sh
e2e_begin "act shards e2e" act-shards

started=$SECONDS
repo=(--env GITHUB_REPOSITORY=local/dind-bench)
inputs=(--input layout=interleaved --input benchmarks=lifecycle --input workload=.ci/e2e/shard-job/workload.yml
  --input iterations=4 --input max-minutes=7 --input publish=false)
act_run() { # LOG ARGS...: act on bench.yml with this scenario's inputs
  local log=$1; shift
  XDG_CACHE_HOME="$tmp/cache" XDG_CONFIG_HOME="$tmp/config" act workflow_dispatch -W .github/workflows/bench.yml \
    --action-cache-path "$tmp/act" --env "DIND_BENCH_ACT_OUT=$tmp/out" "${repo[@]}" "${inputs[@]}" "$@" > "$log" 2>&1
}

set +e
act_run "$tmp/act.log"
status=$?
set -e
grep -E 'runs the workload|workload in 2 job|merge: |::error' "$tmp/act.log" | cut -c1-240 || true
echo "act shards e2e: sharded run: act exited $status after $((SECONDS - started)) s"
[ "$status" -eq 0 ] || fail "act exited $status"
merged=$tmp/out/results/local-interleaved-workload/results.json
[ -f "$merged" ] || fail "no merged run of the workload's shards ($merged)"
[ -f "$tmp/out/results/local-interleaved/results.json" ] || fail "no run of the benchmarks beside the workload"
jq -e '.run.pooled == true and (.run.shards | length) == 2' "$merged" >/dev/null \
  || fail "the workload's run was not pooled from two shards"
for shard in 1 2; do
  jq -e '[.cells[] | select(.benchmark == "workload.shard-job" and .status == "ok")
    | .metrics[0].samples | length == 2] | length == 2' \
    "$tmp/out/shards/shard-local-interleaved-workload-$shard/results.json" >/dev/null \
    || fail "shard $shard did not measure 2 samples a side in docker and dind"
done
[ -s "$tmp/out/compare/comparison.md" ] || fail "no comparison of the merged runs"

# The same workload on one runner: one run, 4 samples a side, interleaved.
one=$SECONDS
node bin/dind-bench.js run --workload .ci/e2e/shard-job/workload.yml --env native,docker,dind --engine 20.10 \
  --distro debian --profile tiny --iterations 4 --out "$tmp/one" > "$tmp/one.log" 2>&1 \
  || { tail -n 40 "$tmp/one.log"; fail "the one-runner run failed"; }
echo "act shards e2e: one-runner run in $((SECONDS - one)) s"
node .ci/e2e/same-answer.js "$merged" "$tmp/one/results.json" || fail "the merged answer is not the one-runner answer"

# No split allowed: refused in prepare, naming what fits, and no bench job started.
refused=$SECONDS
set +e
act_run "$tmp/act-refused.log" --input max-shards=1
status=$?
set -e
mv "$tmp/act-refused.log" "$tmp/act.log"
echo "act shards e2e: max-shards 1: act exited $status after $((SECONDS - refused)) s"
[ "$status" -ne 0 ] || fail "a plan that does not fit one runner ran with max-shards 1"
grep -q "max-shards 1 allows no split" "$tmp/act.log" || fail "the refusal does not say max-shards allows no split"
grep -Eq "What fits .*.iterations: [0-9]+. - [0-9]+ samples a side instead of 4 \(each interval about [0-9.]+x as wide\)" \
  "$tmp/act.log" || fail "the refusal does not name the samples that fit and the input that sets them"
if grep -q '^\[bench/bench (' "$tmp/act.log"; then fail "a bench job started after the refusal"; fi

leftover=$(owned)
[ -z "$leftover" ] || fail "the act runs left engine objects behind: $leftover"
echo "act shards e2e: ok: a workload split over 2 runners, merged, the one-runner answer within its intervals; refused with max-shards 1, in $((SECONDS - started)) s"
