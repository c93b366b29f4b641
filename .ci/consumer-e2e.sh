#!/usr/bin/env bash
# End to end: another repository uses dind-bench by remote reference only. examples/consumer becomes a
# git repository of its own in a temporary folder, and act runs its two workflows there, offline, in one
# act run (the two run side by side, as on GitHub):
#   bench.yml   calls dind-bench/dind-bench/.github/workflows/reusable-bench.yml@v1 (tiny profile)
#   custom.yml  calls dind-bench/dind-bench/actions/{setup,build-images,run,compare}@v1 in one job
# `--local-repository dind-bench/dind-bench@v1=DIR` serves that reference from DIR: a copy of this
# checkout's files without node_modules or anything git ignores, as GitHub would download a tag, so the
# actions must install the suite themselves. Checks results, comparison, history and site, that the
# suite came from the reference (not from the consumer), and that nothing is left on the engine.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=.ci/e2e-lib.sh
. .ci/e2e-lib.sh
e2e_begin "consumer e2e" consumer

# The suite at "v1": tracked and new files of this checkout, nothing ignored (no node_modules).
copy_checkout "$tmp/suite"
[ ! -e "$tmp/suite/node_modules" ] || fail "the suite copy must not carry node_modules"

# The consumer: only examples/consumer, as a repository of its own.
cp -a examples/consumer "$tmp/consumer"
git -C "$tmp/consumer" init -q -b main
git -C "$tmp/consumer" -c user.name=consumer -c user.email=consumer@localhost add -A
git -C "$tmp/consumer" -c user.name=consumer -c user.email=consumer@localhost commit -q -m consumer
if [ -e "$tmp/consumer/actions" ] || [ -e "$tmp/consumer/bin" ]; then fail "the consumer must hold nothing of dind-bench"; fi

# act's offline settings: jobs on this host, and the suite's stand-in for every remote action it pins.
args=(--platform self-hosted=-self-hosted --platform ubuntu-latest=-self-hosted --no-cache-server
  --action-cache-path "$tmp/act" --env "DIND_BENCH_ACT_OUT=$tmp/out"
  --local-repository "dind-bench/dind-bench@v1=$tmp/suite")
while read -r spec; do
  args+=(--local-repository "${spec%%=*}=$tmp/suite/.github/act/offline-action")
done < <(sed -n 's/^--local-repository \(.*=\.github\/act\/offline-action\)$/\1/p' .actrc)

started=$SECONDS
echo "consumer e2e: act workflow_dispatch -W .github/workflows/ (bench.yml and custom.yml)"
set +e
(cd "$tmp/consumer" && XDG_CACHE_HOME="$tmp/cache" XDG_CONFIG_HOME="$tmp/config" \
  act workflow_dispatch -W .github/workflows/ "${args[@]}" --input profile=tiny) > "$tmp/act.log" 2>&1
status=$?
set -e
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
grep -q "On this runner your job (workload.consumer-job" "$tmp/act.log" || fail "no cost-per-job answer for the caller's workload"
# A later job of the caller read the reusable workflow's outputs.
grep -Eq "dind-bench verdict: (regression|improvement|no change|insufficient data) \([0-9]+ regressed" "$tmp/act.log" \
  || fail "the caller's gate job did not read the reusable workflow's outputs"
[ -f "$tmp/out/history/index.json" ] || fail "no history written"
[ -f "$tmp/out/site/index.html" ] || fail "no site built"
# The suite came from the reference, installed by the actions themselves (the copy had no node_modules).
grep -q "LocalRepositoryCache read cachedir dind-bench/dind-bench with ref v1" "$tmp/act.log" \
  || fail "the actions were not served from the dind-bench/dind-bench@v1 reference"
grep -q "dind-bench suite: .*npm ci --omit=dev" "$tmp/act.log" || fail "no action installed the suite's npm dependencies"

# custom.yml: the actions in a job of the consumer's own.
[ -f "$tmp/out/custom/results/results.json" ] || fail "custom.yml wrote no results.json"
[ -s "$tmp/out/custom/compare/comparison.md" ] || fail "custom.yml wrote no comparison"
grep -q "from dind-bench/dind-bench@v1" "$tmp/act.log" || fail "custom.yml did not record the suite's repository and ref"

leftover=$(owned)
[ -z "$leftover" ] || fail "the act runs left engine objects behind: $leftover"
echo "consumer e2e: ok: reusable workflow and actions by reference in $((SECONDS - started)) s"
