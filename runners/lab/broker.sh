#!/usr/bin/env bash
# BROKER for lab machines: the only place the registration credential lives (an operator's machine), never
# a lab runner. In a loop, for each HOST (reached as root over SSH): when its runner service waits for a
# job (/var/lib/dind-bench-runner/jit/waiting) and has no configuration, it gets a single-use JIT runner
# configuration (../common/jit-config.sh) in a root-only spool file, which the service consumes (deletes)
# before starting the runner. Labels: dind-bench, docker-<the host's Engine major.minor>, LABELS.
#
#   RUNNER_SCOPE=owner/repo RUNNER_PAT_FILE=./token LABELS=lab,rack-3 bash runners/lab/broker.sh host1 host2
#   (ONCE=1: one pass, e.g. from cron)
set -euo pipefail
cd "$(dirname "$0")"
[ "$#" -gt 0 ] || { echo "usage: broker.sh HOST..." >&2; exit 2; }
: "${RUNNER_SCOPE:?}" "${RUNNER_PAT_FILE:?}"
export RUNNER_SCOPE RUNNER_PAT_FILE
spool=/var/lib/dind-bench-runner/jit

while :; do
  for host in "$@"; do
    if ssh -o BatchMode=yes "root@$host" "test -e $spool/waiting && ! test -e $spool/next" 2>/dev/null; then
      engine=$(ssh -o BatchMode=yes "root@$host" "docker version --format '{{.Server.Version}}'" | cut -d. -f1,2)
      name="$host-$(date +%s)"
      # Over SSH's stdin into a temp file renamed into place: never on a command line, never half-written.
      bash ../common/jit-config.sh "$name" "dind-bench,docker-$engine${LABELS:+,$LABELS}" |
        ssh -o BatchMode=yes "root@$host" "umask 077; cat > $spool/next.tmp && mv $spool/next.tmp $spool/next"
      echo "$host: JIT configuration delivered ($name)"
    fi
  done
  [ -n "${ONCE:-}" ] && break
  sleep 10
done
