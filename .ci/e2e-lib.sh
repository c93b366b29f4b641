# shellcheck shell=bash
# What the three end-to-end scripts under act share (.ci/act-e2e.sh, consumer-e2e.sh, fresh-runner-e2e.sh):
# a temporary folder removed at the end (kept with DIND_BENCH_KEEP_ACT_OUT=1), the owner label that marks
# everything dind-bench creates in this run, the leftover check on it, and how a failure is told.
# Sourced, after `set -euo pipefail`; the caller names itself: e2e_begin "act e2e" act.

# e2e_begin NAME PREFIX: sets tmp (a new /tmp/dind-bench-PREFIX.* folder) and DIND_BENCH_OWNER (kept if
# already set), and removes tmp on exit. A script with more to undo calls e2e_cleanup from its own trap.
e2e_begin() {
  e2e_name=$1
  tmp=$(mktemp -d "/tmp/dind-bench-$2.XXXXXX")
  # Everything dind-bench creates carries this owner label (act passes the environment on to its jobs),
  # so the leftover check sees this run's objects only, not those of other runs on a shared engine.
  export DIND_BENCH_OWNER=${DIND_BENCH_OWNER:-$2-e2e-$$-$RANDOM}
  trap e2e_cleanup EXIT
}

e2e_cleanup() {
  if [ -z "${DIND_BENCH_KEEP_ACT_OUT:-}" ]; then rm -rf "$tmp"; else echo "$e2e_name: outputs kept in $tmp"; fi
}

# The containers, volumes and networks of this run still on the engine.
owned() {
  { docker ps -aq --filter "label=dind-bench.owner=$DIND_BENCH_OWNER"
    docker volume ls -q --filter "label=dind-bench.owner=$DIND_BENCH_OWNER"
    docker network ls -q --filter "label=dind-bench.owner=$DIND_BENCH_OWNER"; } | sort
}

# fail MESSAGE...: what failed, what dind-bench itself said in act's log (its errors name the step), then
# the end of that log.
fail() {
  echo "$e2e_name: FAILED: $*" >&2
  if [ -f "$tmp/act.log" ]; then
    grep -E "\\| (dind-bench: |::error)" "$tmp/act.log" | tail -n 20 >&2 || true
    tail -n 60 "$tmp/act.log" >&2
  fi
  exit 1
}

# copy_checkout DIR: this checkout's tracked and new files, nothing git ignores (no node_modules), as
# GitHub would download a tag.
copy_checkout() {
  mkdir -p "$1"
  git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -C "$1" -xf -
}
