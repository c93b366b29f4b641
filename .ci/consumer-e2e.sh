#!/usr/bin/env bash
# End to end: another repository uses dind-bench by remote reference only, pinned to a release tag and to
# a commit SHA. examples/consumer becomes a git repository of its own in a temporary folder, and act runs
# its workflows there, offline:
#   bench.yml         calls dind-bench/dind-bench/.github/workflows/reusable-bench.yml@v1 (tiny profile)
#   custom.yml        calls dind-bench/dind-bench/actions/{setup,build-images,run,compare}@v1 in one job
#                     (these two in one act run, side by side, as on GitHub)
#   upgrade-gate.yml  calls the reusable workflow pinned to a commit SHA (not v1's): an A/B of two inner
#                     Engine lines with fail-on-regression, while this script throttles the candidate's
#                     engine (a real slowdown); the gate must stop the caller's rollout job.
# The suite is a git repository made from this checkout's files, released as docs/releasing.md says
# (v1.0.0 and the moving v1, annotated) with one more commit on top, so v1 and the pinned SHA differ.
# `--local-repository dind-bench/dind-bench@REF=DIR` serves each reference from a worktree at that ref, as
# GitHub would download it (no node_modules: the actions install the suite themselves). The reusable
# workflow finds its own commit in the job's OIDC token; GitHub's token service cannot run here, so a
# loopback stand-in (oidc_stand_in in .ci/e2e-lib.sh) issues the claims GitHub would: the workflow as the caller named
# it and the commit that ref resolves to in the suite's repository. Checks that every action ran from that
# commit (results' suite.commit, read from the fetched suite's own checkout), the workflow's outputs read
# by a later job, results, comparison, history and site, and that nothing is left on the engine.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=.ci/e2e-lib.sh
. .ci/e2e-lib.sh
e2e_begin "consumer e2e" consumer
# The workflow outputs join their words with a no-break space (src/compare/outputs.js: one shell word, so
# `W=${{ }}` runs nothing): a pattern over an output's words allows it where it allows a space, in a UTF-8
# locale (one character) or the C one (two bytes).
nbsp=$'\xc2\xa0'
sp="[ $nbsp]+"

# The suite as a repository, released (release_suite), then one commit more: the commit a caller pins by
# SHA in the gate run.
release_suite
echo "after the release" >> "$tmp/suite/CHANGELOG.md"
git_suite commit -q -am "A change after 1.0.0"
pinned=$(git_suite rev-parse HEAD)
if [ "$released" = "$pinned" ] || [ "$(git_suite rev-parse "v1.0.0^{commit}")" != "$released" ]; then
  fail "the release rehearsal did not tag v1.0.0 and v1 on one commit apart from main"
fi
suite_at v1
suite_at "$pinned"
echo "consumer e2e: suite released as v1.0.0 and v1 at $released; main at $pinned"

throttle_stop() { if [ -n "${throttle_pid:-}" ]; then kill "$throttle_pid" 2>/dev/null || true; wait "$throttle_pid" 2>/dev/null || true; throttle_pid=; fi; }
trap 'oidc_stop; throttle_stop; e2e_cleanup' EXIT

# The consumers: only examples/consumer, as repositories of their own; the gate's workflow apart.
consumer_repo() {
  cp -a examples/consumer "$1"
  commit_repo "$1" consumer
  if [ -e "$1/actions" ] || [ -e "$1/bin" ]; then fail "the consumer must hold nothing of dind-bench"; fi
}
consumer_repo "$tmp/consumer"
git -C "$tmp/consumer" rm -q .github/workflows/upgrade-gate.yml
git -C "$tmp/consumer" -c user.name=consumer -c user.email=consumer@localhost commit -q -m "bench and custom"
consumer_repo "$tmp/gate"
git -C "$tmp/gate" rm -q .github/workflows/bench.yml .github/workflows/custom.yml
# The gate pins the workflow by SHA: the commit after the release, so v1's actions would be a wrong answer.
sed -i "s|reusable-bench.yml@v1|reusable-bench.yml@$pinned|" "$tmp/gate/.github/workflows/upgrade-gate.yml"
git -C "$tmp/gate" -c user.name=consumer -c user.email=consumer@localhost commit -q -am "pin dind-bench by SHA"

# act's offline settings (act_offline_args), and the pinned commit served as GitHub would download it.
act_offline_args
args=("${act_args[@]}" --local-repository "dind-bench/dind-bench@$pinned=$tmp/at-$pinned")

started=$SECONDS
oidc_stand_in refs/tags/v1 "$released"
dispatch_event "$tmp/dispatch-v1.json" profile=tiny
echo "consumer e2e: act workflow_dispatch -W .github/workflows/ (bench.yml and custom.yml, at v1)"
set +e
(cd "$tmp/consumer" && XDG_CACHE_HOME="$tmp/cache" XDG_CONFIG_HOME="$tmp/config" \
  act workflow_dispatch -W .github/workflows/ "${args[@]}" --env "DIND_BENCH_ACT_OUT=$tmp/out" \
  --env "ACTIONS_ID_TOKEN_REQUEST_URL=$oidc_url" -e "$tmp/dispatch-v1.json") > "$tmp/act.log" 2>&1
status=$?
set -e
oidc_stop
grep -E '⭐ Run Main|❌|🏁|act: skipping|::error|Error' "$tmp/act.log" | cut -c1-200 || true
echo "consumer e2e: act exited $status after $((SECONDS - started)) s"
[ "$status" -eq 0 ] || fail "act exited $status"

# bench.yml: the reusable workflow, from images to the site.
results=$(find "$tmp/out/results" -name results.json | wc -l)
[ "$results" -ge 1 ] || fail "no results.json from the reusable workflow's bench job"
[ -s "$tmp/out/compare/comparison.md" ] || fail "no comparison written"
# The caller's own job (examples/consumer/workload/workload.yml), measured as a job in each environment.
jq -e '[.cells[] | select(.benchmark == "workload.consumer-job" and .status == "ok")] | length >= 2' \
  "$(find "$tmp/out/results" -name results.json | head -n1)" >/dev/null \
  || fail "the caller's workload did not run in docker and dind through the reusable workflow"
grep -q "workload.consumer-job (debian): cost per job" "$tmp/act.log" || fail "no cost table for the caller's workload"
grep -Eq "job +(regression|improvement|equivalent ±[0-9]+%|inconclusive) +[+-][0-9.,]+ s " "$tmp/act.log" \
  || fail "no answer row for the caller's job"
# A later job of the caller read the reusable workflow's outputs.
grep -Eq "dind-bench verdict: (regression|improvement|equivalent|inconclusive) \([0-9]+ regressed" "$tmp/act.log" \
  || fail "the caller's gate job did not read the reusable workflow's outputs"
# ... and the cost per job of its own workload (the outputs cost and cost-per-1000-jobs).
grep -Eq "dind-bench cost per job: Your${sp}job,${sp}workload\.consumer-job,${sp}debian,${sp}costs${sp}[+-][0-9.,]+${sp}s${sp}.* \(USD -?[0-9]+\.[0-9]{2} per 1,000 jobs\)" \
  "$tmp/act.log" || fail "the caller's gate job did not read the cost per job from the reusable workflow's outputs"
[ -f "$tmp/out/history/index.json" ] || fail "no history written"
[ -f "$tmp/out/site/index.html" ] || fail "no site built"
# The suite came from v1's commit, fetched by the workflow itself, installed by the actions (no node_modules).
grep -q "dind-bench: this workflow is dind-bench/dind-bench/.github/workflows/reusable-bench.yml@refs/tags/v1 (commit $released)" \
  "$tmp/act.log" || fail "the reusable workflow did not read its own ref and commit from the OIDC token"
grep -q "dind-bench: dind-bench/dind-bench@refs/tags/v1, commit $released, in .dind-bench-suite" "$tmp/act.log" \
  || fail "the reusable workflow's jobs did not fetch the suite at v1's commit"
while read -r f; do
  [ "$(jq -r .suite.commit "$f")" = "$released" ] || fail "$f: the suite that ran was not v1's commit ($(jq -r .suite.commit "$f"))"
done < <(find "$tmp/out/results" -name results.json)
grep -q "dind-bench suite: .*npm ci --omit=dev" "$tmp/act.log" || fail "no action installed the suite's npm dependencies"

# custom.yml: the actions in a job of the consumer's own, by reference.
[ -f "$tmp/out/custom/results/results.json" ] || fail "custom.yml wrote no results.json"
[ -s "$tmp/out/custom/compare/comparison.md" ] || fail "custom.yml wrote no comparison"
grep -q "LocalRepositoryCache read cachedir dind-bench/dind-bench with ref v1" "$tmp/act.log" \
  || fail "the actions were not served from the dind-bench/dind-bench@v1 reference"
grep -q "from dind-bench/dind-bench@v1" "$tmp/act.log" || fail "custom.yml did not record the suite's repository and ref"

leftover=$(owned)
[ -z "$leftover" ] || fail "the act runs left engine objects behind: $leftover"
echo "consumer e2e: ok: reusable workflow at v1 and actions by reference in $((SECONDS - started)) s"

# The upgrade gate, pinned by SHA: dind@26.1 against dind@20.10 in one run, the candidate's inner engine
# throttled to a fifth of a core as soon as it starts (its containers carry the image's engine label).
# Twice, as the example offers it: with dry-run=true the dind-bench job reports and the caller's rollout
# job reads the verdict from the workflow's outputs and stops; with fail-on inconclusive (the default for an A/B) the
# dind-bench job itself fails. (act stops a run at a called workflow that failed, so there the later job is
# not reached; on GitHub it runs, `if: !cancelled()`, and stops the same way.)
mv "$tmp/act.log" "$tmp/act-v1.log"
gate_run() { # NAME DRY_RUN
  local name=$1 dry=$2 status
  started=$SECONDS
  oidc_stand_in "$pinned" "$pinned"
  ( while :; do
      for c in $(docker ps -q --filter "label=dind-bench.owner=$DIND_BENCH_OWNER" --filter label=dind-bench.engine=26.1); do
        docker update --cpus 0.2 "$c" >/dev/null 2>&1 || true
      done
      sleep 0.5
    done ) &
  throttle_pid=$!
  echo "consumer e2e: act workflow_dispatch -W .github/workflows/ (upgrade-gate.yml pinned to $pinned, dry-run=$dry)"
  dispatch_event "$tmp/dispatch-$name.json" "dry-run=$dry"
  set +e
  (cd "$tmp/gate" && XDG_CACHE_HOME="$tmp/cache" XDG_CONFIG_HOME="$tmp/config" \
    act workflow_dispatch -W .github/workflows/ "${args[@]}" --env "DIND_BENCH_ACT_OUT=$tmp/out-$name" \
    --env "ACTIONS_ID_TOKEN_REQUEST_URL=$oidc_url" -e "$tmp/dispatch-$name.json") > "$tmp/act.log" 2>&1
  status=$?
  set -e
  throttle_stop
  oidc_stop
  grep -E '❌|🏁|::error|upgrade gate:' "$tmp/act.log" | cut -c1-200 || true
  echo "consumer e2e: the gate's act ($name) exited $status after $((SECONDS - started)) s"
  [ "$status" -ne 0 ] || fail "the gate let a throttled engine line through: act exited 0"
  grep -q "dind-bench: dind-bench/dind-bench@$pinned, commit $pinned, in .dind-bench-suite" "$tmp/act.log" \
    || fail "the jobs did not fetch the suite at the pinned SHA"
  gate_results=$(find "$tmp/out-$name/results" -name results.json | head -n1)
  [ -n "$gate_results" ] || fail "the gate run wrote no results"
  [ "$(jq -r .suite.commit "$gate_results")" = "$pinned" ] \
    || fail "the suite that ran in the gate was not the pinned commit ($(jq -r .suite.commit "$gate_results"))"
  grep -Eq "::set-output:: worst=sysbench${sp}[^ $nbsp]+${sp}on${sp}dind@26\.1/debian${sp}\+[0-9.]+%" "$tmp/act.log" \
    || fail "the workflow's outputs do not name a regression of dind@26.1"
  leftover=$(owned)
  [ -z "$leftover" ] || fail "the gate run left engine objects behind: $leftover"
}

gate_run gate-read true
# The rollout job prints its answer in a step that succeeds and fails in the next: act (0.2.89) returns from a
# failed host step before copying its last output, so a line printed by the failing step itself can be lost.
grep -Eq "upgrade gate: regression \([1-9][0-9]* regressed; worst: sysbench${sp}[^ $nbsp]+${sp}on${sp}dind@26\.1" "$tmp/act.log" \
  || fail "the caller's later job did not read a regression of dind@26.1 from the workflow's outputs"
grep -q "the candidate regressed, or the run could not tell: not rolling out" "$tmp/act.log" || fail "the caller's rollout job did not stop"
grep -q "Job 'rollout' failed" "$tmp/act.log" || fail "the caller's rollout job did not fail"
echo "consumer e2e: ok: pinned by SHA, the caller's later job read the regression and stopped the rollout"

mv "$tmp/act.log" "$tmp/act-gate-read.log"
gate_run gate-fail false
grep -q "Job 'report' failed" "$tmp/act.log" || fail "fail-on did not fail the caller's dind-bench job"
echo "consumer e2e: ok: pinned by SHA, fail-on failed the caller's job on a throttled engine line"
