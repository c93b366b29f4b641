#!/usr/bin/env bash
# End to end: from a clean Debian root filesystem to a first result, provisioned ONLY by the project's
# runner script. The root filesystem is the project's own (debootstrap + `docker import`, made by
# src/images/base.js during `dind-bench images build`): Debian 13, nothing installed beyond minbase.
# In a container of it:
#   1. runners/common/provision.sh --engine none   (the engine is the one next to the runner: its socket
#      is mounted, as in actions-runner-controller's dind mode)
#   2. act runs .github/workflows/bench.yml (.actrc: tiny profile, lifecycle + sysbench; the interleaved
#      layout only, one job with native, docker and dind: .ci/act-e2e.sh covers every layout),
#      act standing in for the Actions runner agent, which provisioning leaves to runners/ (ephemeral-runner.sh)
# and checks results, a comparison, a history and a built site. The runner in a container reaches the
# DinD sockets through DIND_BENCH_SOCKET_DIR, a folder mounted at the same path in the runner and on the
# engine's host. npm's cache (a copy) stands in for the npm registry: act runs are offline.
set -euo pipefail
cd "$(dirname "$0")/.."

image=${DIND_BENCH_FRESH_IMAGE:-${DIND_BENCH_IMAGE_PREFIX:-dind-bench}/base:debian-trixie-slim}
# shellcheck source=.ci/e2e-lib.sh
. .ci/e2e-lib.sh
e2e_begin "fresh runner e2e" fresh-runner
runner=dind-bench-fresh-runner-$$
trap 'docker rm -f "$runner" >/dev/null 2>&1 || true; e2e_cleanup' EXIT
in_runner() { docker exec -w "$tmp/suite" "$runner" "$@"; }

docker image inspect "$image" >/dev/null 2>&1 \
  || fail "no clean root filesystem image $image" \
    "(fix: node bin/dind-bench.js images build --distro debian --engine 26.1)"
command -v act >/dev/null || fail "act is not installed (fix: bash .ci/install.sh)"

# The checkout's files (no node_modules, nothing ignored), a git repository of its own for act.
mkdir -p "$tmp/s" "$tmp/npm"
copy_checkout "$tmp/suite"
git -C "$tmp/suite" init -q -b main
git -C "$tmp/suite" -c user.name=e2e -c user.email=e2e@localhost add -A
git -C "$tmp/suite" -c user.name=e2e -c user.email=e2e@localhost commit -q -m suite
if [ -d "$HOME/.npm/_cacache" ]; then cp -a "$HOME/.npm/_cacache" "$tmp/npm/"; fi

started=$SECONDS
# $tmp is mounted at the same path, so paths the job hands to the engine (DinD socket folders) are
# the same folders on the engine's host.
docker run -d --name "$runner" --label "dind-bench.owner=$DIND_BENCH_OWNER" \
  -v /var/run/docker.sock:/var/run/docker.sock -v "$tmp:$tmp" -v "$tmp/npm:/root/.npm" \
  -v "$(command -v act):/usr/local/bin/act:ro" -e "DIND_BENCH_SOCKET_DIR=$tmp/s" \
  "$image" sleep infinity >/dev/null
if in_runner sh -c 'command -v node || command -v docker || command -v jq'; then
  fail "$image is not a clean root filesystem"
fi

t0=$SECONDS
# Native tools: those of the benchmarks this run asks for (lifecycle needs none).
in_runner bash runners/common/provision.sh --engine none --native-tools sysbench > "$tmp/provision.log" 2>&1 \
  || { cat "$tmp/provision.log" >&2; fail "provision.sh failed"; }
cat "$tmp/provision.log"
echo "fresh runner e2e: provisioned in $((SECONDS - t0)) s"

t0=$SECONDS
# GITHUB_REPOSITORY: act takes it from the checkout's origin remote, a path in a clone of a local folder.
set +e
in_runner env "DIND_BENCH_OWNER=$DIND_BENCH_OWNER" "DIND_BENCH_SOCKET_DIR=$tmp/s" \
  act workflow_dispatch -W .github/workflows/bench.yml --action-cache-path "$tmp/act" \
  --env "DIND_BENCH_ACT_OUT=$tmp/out" --env GITHUB_REPOSITORY=local/dind-bench --input layout=interleaved \
  > "$tmp/act.log" 2>&1
status=$?
set -e
grep -E '⭐ Run|✅|❌|🏁|act: skipping|::error|::warning' "$tmp/act.log" | cut -c1-200 || true
echo "fresh runner e2e: act exited $status after $((SECONDS - t0)) s"
[ "$status" -eq 0 ] || fail "act exited $status"
results=$(find "$tmp/out/results" -name results.json | wc -l)
[ "$results" -eq 1 ] || fail "expected the interleaved job's results.json, found $results"
file=$(find "$tmp/out/results" -name results.json)
for env in native docker dind; do
  jq -e --arg env "$env" 'any(.cells[]; .environment == $env and .status == "ok")' "$file" >/dev/null \
    || fail "no $env cell ran on the provisioned runner (see $file)"
done
[ -s "$tmp/out/compare/comparison.md" ] || fail "no comparison written"
[ -f "$tmp/out/history/index.json" ] || fail "no history written"
[ -f "$tmp/out/site/index.html" ] || fail "no site built"

docker rm -f "$runner" >/dev/null
leftover=$(owned)
[ -z "$leftover" ] || fail "the run left engine objects behind: $leftover"
echo "fresh runner e2e: ok: clean root filesystem -> provision.sh -> results, comparison, history, site" \
  "in $((SECONDS - started)) s"
