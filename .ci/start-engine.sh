#!/usr/bin/env bash
# Makes sure a Docker engine answers on the default socket. If one already answers, it is used as is.
# Otherwise dockerd starts in the background with a data-root of its own, and this script waits on the
# engine's /_ping (never on a sleep). Prints the PID of a dockerd it started to $ENGINE_PIDFILE.
set -euo pipefail

SOCK=/var/run/docker.sock
DATA_ROOT=${DIND_BENCH_DATA_ROOT:-/var/lib/dind-bench/docker}
LOG=${DIND_BENCH_ENGINE_LOG:-/var/log/dind-bench-dockerd.log}
ENGINE_PIDFILE=${ENGINE_PIDFILE:-/run/dind-bench-dockerd.pid}
TIMEOUT_S=${DIND_BENCH_ENGINE_TIMEOUT:-60}

ping() { curl -fsS --max-time 2 --unix-socket "$SOCK" http://localhost/_ping >/dev/null 2>&1; }

if ping; then
  echo "engine: already answering on $SOCK; using it"
  exit 0
fi
command -v dockerd >/dev/null || { echo "engine: dockerd is not installed; run .ci/install.sh first" >&2; exit 1; }

mkdir -p "$DATA_ROOT" "$(dirname "$LOG")"
echo "engine: starting dockerd (data-root $DATA_ROOT, log $LOG)"
# Only the unix socket: dind-bench never exposes an engine on TCP. Without the caller's TMPDIR: the engine
# (and runc under it) outlives whoever starts it, e.g. a test run whose own temp folder goes when it ends.
setsid env -u TMPDIR dockerd --data-root "$DATA_ROOT" --host "unix://$SOCK" --pidfile "$ENGINE_PIDFILE.dockerd" \
  >"$LOG" 2>&1 < /dev/null &
pid=$!
echo "$pid" > "$ENGINE_PIDFILE"

deadline=$((SECONDS + TIMEOUT_S))
until ping; do
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "engine: dockerd exited before answering /_ping; last lines of $LOG:" >&2
    tail -n 20 "$LOG" >&2
    exit 1
  fi
  if [ "$SECONDS" -ge "$deadline" ]; then
    echo "engine: dockerd did not answer /_ping within ${TIMEOUT_S}s; last lines of $LOG:" >&2
    tail -n 20 "$LOG" >&2
    exit 1
  fi
  sleep 0.1
done
echo "engine: ready (pid $pid, $(docker version --format '{{.Server.Version}}' 2>/dev/null))"
