#!/usr/bin/env bash
# ON THE RUNNER MACHINE, as root (GCE: cloud-init; lab: dind-bench-runner.service). Runs exactly ONE job:
#   1. unpacks a fresh runner into an emptied RUNNER_HOME from the root-owned, digest-checked release
#      copy (runner-release.sh): nothing a previous job changed in the runner is used again;
#   2. waits for the just-in-time (JIT) runner configuration a broker delivers (jit-config.sh, run where
#      the registration credential lives): from instance metadata (GCE) or a root-only spool file
#      (lab). This machine holds no credential that can register a runner or fetch one;
#   3. runs the runner with it as RUNNER_USER, updates disabled. After its one job the runner exits and
#      GitHub removes it.
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

# The JIT configuration JIT with the runner's settings (its ".runner" file) saying disableUpdate: the
# runner then never replaces itself with a release it downloads, so every job runs the pinned,
# digest-checked release (runner-version.sh, which bump-runner.sh moves to a new release). `run.sh --disableupdate` does
# not do this: the flag only counts when a runner is configured, and a JIT runner is configured by
# GitHub. A configuration this cannot read is refused, never run with updates on.
jit_without_updates() {
  printf '%s' "$1" | base64 -d | jq -ce '
    if (.[".runner"] | type) != "string" then error("it holds no .runner settings") else . end
    | .[".runner"] |= (@base64d | ltrimstr("\ufeff") | fromjson
        | with_entries(select(.key | ascii_downcase != "disableupdate")) | .disableUpdate = true
        | tojson | @base64)' | base64 -w0
}

main() {
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

  # 3. One job, on the pinned release: updates disabled.
  if ! jit=$(jit_without_updates "$jit"); then
    echo "ephemeral-runner.sh: the JIT configuration could not be read to disable runner updates; not starting a runner that could replace itself" >&2
    exit 1
  fi
  echo "starting an ephemeral runner from its JIT configuration (one job, runner $RUNNER_VERSION, updates disabled)"
  runuser -u "$user" -- "$home/run.sh" --jitconfig "$jit"
}

# Sourced (by the test), it only defines the functions.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then main "$@"; fi
