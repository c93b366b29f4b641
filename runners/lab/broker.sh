#!/usr/bin/env bash
# BROKER for lab machines, on a separate ADMIN machine: the only place the registration credential
# lives (a file only the broker's user can read), never a lab runner and never a GitHub secret (it
# refuses to run in a GitHub Actions job). It reaches each HOST as root over SSH. Before anything else,
# and again before every configuration, it checks with GitHub that the runners register in an
# organisation runner group that admits only bench.yml of main and bench-pr and no public repository
# (../common/github-runners.sh, check_runner_setup); otherwise it refuses, saying what to change.
#
# A job on a lab machine is root there (docker group), so nothing stored on the host is safe from it:
# not a spool file, not a "waiting" flag, not the runner service. The broker therefore decides only on
# what it did itself and what GitHub reports, kept on this machine (STATE_DIR, one file per host):
#   - it issues a JIT configuration (../common/jit-config.sh, runner <host>-<time>) only to a host it
#     has RESET since the last configuration, and only when GitHub lists no runner of that host's last
#     configuration (a JIT runner is removed after its one job): at most one configuration per reset;
#   - a host whose runner GitHub no longer lists (its job is done), or whose runner did not come online
#     within MAX_AGE (the registration is removed first), is reset before it gets another;
#   - the configuration is pushed over SSH into the root-only spool file the runner service reads.
# RESET_CMD (run here as `RESET_CMD HOST`) must bring the host back to a known state and verify it:
# reimage it (PXE, a snapshot or golden-image restore) and check it booted that image. Only that undoes
# a hostile job. Without RESET_CMD the broker refuses to start, unless LAB_REUSE=1 accepts that hosts
# are reused between jobs: then the reset is a restart of the runner service (clean-engine.sh), which
# removes what jobs ordinarily leave but not a root-level compromise, and a hostile job can take over
# every later job of that host (SECURITY.md, "Lab machines").
#
#   RUNNER_SCOPE=my-org RUNNER_GROUP_ID=7 RUNNER_REPOSITORY=my-org/my-repo \
#   RUNNER_APP_ID=... RUNNER_APP_INSTALLATION_ID=... RUNNER_APP_KEY_FILE=~/.dind-bench-app.pem \
#   LABELS=lab,rack-3 RESET_CMD=./reimage.sh bash runners/lab/broker.sh host1 host2
#                                                  (ONCE=1: one pass, e.g. from cron)
#   the credential and the group's variables: ../common/github-runners.sh
#   STATE_DIR  where the broker keeps what it did per host (default ~/.local/state/dind-bench-broker)
#   MAX_AGE    seconds a configured host may go without its runner coming online (default 3600)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=/dev/null
. "$here/../common/github-runners.sh"
# shellcheck source=/dev/null
. "$here/../common/labels.sh"
spool=/var/lib/dind-bench-runner/jit

# The decision, from facts only (tested on its own: test/workflow/runner-broker.test.js).
#   decide PHASE RUNNER AGE MAX_AGE
#   PHASE   from STATE_DIR: unknown (never seen: reset first), reset (reset by us, no configuration
#           since) or issued (configured since the last reset)
#   RUNNER  runner_state of the host's last configured runner (none when there is none)
#   AGE     seconds since that configuration was issued
# Prints issue, reset, expire (remove the registration, then reset) or wait.
decide() {
  local phase=$1 runner=$2 age=$3 max_age=$4
  case "$phase" in
    unknown) echo reset ;;
    reset) if [ "$runner" = none ]; then echo issue; else echo wait; fi ;;
    issued)
      case "$runner" in
        none) echo reset ;; # its one job is done: reset before the next configuration
        online | busy) echo wait ;;
        *) if [ "$age" -gt "$max_age" ]; then echo expire; else echo wait; fi ;;
      esac
      ;;
    *) echo wait ;;
  esac
}

remote() { ssh -o BatchMode=yes "root@$1" "${@:2}"; }

# Brings HOST to a known state: RESET_CMD, or (LAB_REUSE=1) a restart of its runner service.
reset_host() {
  if [ -n "${RESET_CMD:-}" ]; then
    "$RESET_CMD" "$1"
  else
    remote "$1" "rm -f $spool/next; systemctl restart dind-bench-runner"
  fi
}

# One host: read what we did, ask GitHub, decide, act. Runs in its own bash (see pass), so `set -e`
# holds here and a failure ends this host's turn only.
one_host() {
  local host=$1 file phase=unknown name='' issued_at=0 runner=none age=0 action engine
  file="$STATE_DIR/$host"
  if [ -f "$file" ]; then read -r phase name issued_at <"$file"; fi
  if [ -n "$name" ]; then runner=$(runner_state "$name"); fi
  if [ "$phase" = issued ]; then age=$(($(date +%s) - issued_at)); fi
  action=$(decide "$phase" "$runner" "$age" "${MAX_AGE:-3600}")
  case "$action" in
    issue)
      # What the host says becomes a label only if it looks like an Engine version.
      engine=$(remote "$host" "docker version --format '{{.Server.Version}}'" | cut -d. -f1,2)
      [[ "$engine" =~ ^[0-9]{1,3}\.[0-9]{1,3}$ ]] || { echo "$host: no Engine version ($engine)" >&2; return 1; }
      name="$host-$(date +%s)"
      # Recorded before the configuration exists: should anything after it fail, the host is reset
      # before it gets another.
      printf 'issued %s %s\n' "$name" "$(date +%s)" >"$file.tmp" && mv "$file.tmp" "$file"
      # Over SSH's stdin into a temp file renamed into place: never on a command line, never half-written.
      bash "$here/../common/jit-config.sh" "$name" "dind-bench,docker-$engine${LABELS:+,$LABELS}" |
        remote "$host" "umask 077; mkdir -p $spool && cat > $spool/next.tmp && mv $spool/next.tmp $spool/next"
      echo "$host: JIT configuration delivered ($name)"
      ;;
    expire | reset)
      if [ "$action" = expire ]; then bash "$here/../common/deregister.sh" "$name"; fi
      reset_host "$host"
      printf 'reset %s %s\n' "$name" "$(date +%s)" >"$file.tmp" && mv "$file.tmp" "$file"
      echo "$host: reset${RESET_CMD:+ (RESET_CMD)}${RESET_CMD:- (runner service restarted, LAB_REUSE)}"
      ;;
    wait) ;;
    *) echo "$host: no decision ($action)" >&2; return 1 ;;
  esac
}

pass() {
  local host failed=0
  for host in "$@"; do
    if ! bash "${BASH_SOURCE[0]}" --host "$host"; then
      echo "$host: this pass failed for it; next pass tries again" >&2
      failed=1
    fi
  done
  return "$failed"
}

main() {
  : "${RUNNER_SCOPE:?set RUNNER_SCOPE (the organisation)}"
  STATE_DIR=${STATE_DIR:-${XDG_STATE_HOME:-$HOME/.local/state}/dind-bench-broker}
  if [ -z "${RESET_CMD:-}" ] && [ "${LAB_REUSE:-}" != 1 ]; then
    echo "broker.sh: set RESET_CMD to a command that reimages and verifies a host (RESET_CMD HOST), or LAB_REUSE=1 to reuse hosts between jobs without isolation (SECURITY.md)" >&2
    exit 2
  fi
  # LABELS become every host's runner labels: never a GitHub-hosted runner's (jit-config.sh checks again).
  refuse_hosted_labels LABELS "${LABELS:-}" || exit 2
  export STATE_DIR
  (umask 077 && mkdir -p "$STATE_DIR")
  if [ "${1:-}" = --host ]; then
    one_host "$2"
    return
  fi
  # The credential and the fork barrier, before any pass (jit-config.sh checks again every time).
  check_credential || exit 2
  check_runner_setup || exit 2
  [ "$#" -gt 0 ] || { echo "usage: broker.sh HOST..." >&2; exit 2; }
  while :; do
    if [ -n "${ONCE:-}" ]; then
      pass "$@"
      return
    fi
    pass "$@" || :
    sleep 10
  done
}

# Sourced (by the test), it only defines the functions.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then main "$@"; fi
