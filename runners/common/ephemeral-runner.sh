#!/usr/bin/env bash
# ON THE RUNNER MACHINE, as root (GCE: cloud-init; lab: dind-bench-runner.service). Runs exactly ONE job:
#   1. unpacks a fresh runner into an emptied RUNNER_HOME from the root-owned, digest-checked release
#      copy (runner-release.sh): nothing a previous job changed in the runner is used again;
#   2. waits for the just-in-time (JIT) runner configuration a broker delivers (jit-config.sh, run where
#      the registration credential lives): from instance metadata (GCE) or a root-only spool file
#      (lab). This machine holds no credential that can register a runner or fetch one;
#   3. runs the runner with it as RUNNER_USER. After its one job the runner exits and GitHub removes it.
# The configuration is consumed: the spool file is deleted before the runner starts; on GCE the broker
# deletes the metadata key as soon as GitHub shows the runner online. A job can read its own runner's
# configuration (it runs as the runner's user), which is spent: GitHub accepts one session for that
# runner and removes it after its job. Nothing this machine says is trusted by a broker: it issues one
# configuration per VM instance (GCE) or per reset it made itself (lab), on what GitHub and the compute
# API report.
#
# Configuration, from the environment or /etc/dind-bench-runner.env:
#   JIT_SOURCE   gce (instance metadata attribute dind-bench-jit) or spool (default:
#                /var/lib/dind-bench-runner/jit/next, written by runners/lab/broker.sh)
#   RUNNER_USER  user the runner runs as (default: runner)
#   RUNNER_HOME  where the runner is unpacked (default: /opt/actions-runner)
set -euo pipefail
[ "$(id -u)" -eq 0 ] || { echo "ephemeral-runner.sh: run as root" >&2; exit 1; }
# shellcheck source=/dev/null
[ -f /etc/dind-bench-runner.env ] && . /etc/dind-bench-runner.env
lib=/usr/local/lib/dind-bench-runner
# shellcheck source=/dev/null
. "$lib/runner-version.sh"
user=${RUNNER_USER:-runner}
home=${RUNNER_HOME:-/opt/actions-runner}

# 1. A fresh runner from the pristine copy, checked again (a job runs with root-equivalent rights through
#    the docker group, so the copy is verified, not trusted).
if ! echo "$RUNNER_SHA256  $lib/$RUNNER_TARBALL" | sha256sum -c --quiet; then
  echo "ephemeral-runner.sh: $lib/$RUNNER_TARBALL does not match its pinned digest; reinstall (runner-release.sh)" >&2
  exit 1
fi
rm -rf "${home:?}"
install -d -o "$user" -g "$user" -m 0750 "$home"
runuser -u "$user" -- tar -C "$home" -xzf "$lib/$RUNNER_TARBALL"

# 2. The JIT configuration, delivered by the broker.
md=http://metadata.google.internal/computeMetadata/v1/instance
case "${JIT_SOURCE:-spool}" in
  gce)
    until jit=$(curl -fsS -H 'Metadata-Flavor: Google' "$md/attributes/dind-bench-jit" 2>/dev/null) && [ -n "$jit" ]; do sleep 5; done
    ;;
  spool)
    spool=/var/lib/dind-bench-runner/jit
    install -d -o root -g root -m 0700 "$spool"
    until [ -s "$spool/next" ]; do sleep 5; done
    jit=$(cat "$spool/next")
    rm -f "$spool/next"
    ;;
  *) echo "ephemeral-runner.sh: JIT_SOURCE must be gce or spool" >&2; exit 1 ;;
esac

# 3. One job.
echo "starting an ephemeral runner from its JIT configuration (one job)"
runuser -u "$user" -- "$home/run.sh" --jitconfig "$jit"
