#!/usr/bin/env bash
# BROKER for a GCE fleet: the only place the registration credential lives (an operator's machine, or a
# scheduled job on a GitHub-hosted runner with the token as a secret), never a runner VM. In a loop:
#   - a VM of the fleet that reports "waiting" (guest attribute dind-bench/state) and has no
#     configuration yet gets a single-use JIT runner configuration (../common/jit-config.sh) in its
#     instance metadata (key dind-bench-jit), named after the VM, with the labels create-fleet.sh set;
#   - as soon as the VM reports "started", the key is deleted again, so a job cannot read it from the
#     metadata server (it could only read its own runner's spent configuration anyway);
#   - registrations of VMs that no longer exist are removed.
#
#   FLEET=dind-bench-28-2-n2-standard-4 PROJECT=... ZONE=... RUNNER_SCOPE=owner/repo \
#   RUNNER_PAT_FILE=./token bash runners/gce/broker.sh        (ONCE=1: one pass, e.g. from cron)
set -euo pipefail
cd "$(dirname "$0")"
: "${FLEET:?set FLEET (the instance group create-fleet.sh made)}" "${PROJECT:?}" "${ZONE:?}"
: "${RUNNER_SCOPE:?}" "${RUNNER_PAT_FILE:?}"
export RUNNER_SCOPE RUNNER_PAT_FILE
g() { gcloud --project "$PROJECT" "$@"; }

pass() {
  mapfile -t vms < <(g compute instance-groups managed list-instances "$FLEET" --zone "$ZONE" --format 'value(name)')
  for vm in "${vms[@]}"; do
    state=$(g compute instances get-guest-attributes "$vm" --zone "$ZONE" --query-path dind-bench/state \
      --format 'value(value)' 2>/dev/null || true)
    has_jit=$(g compute instances describe "$vm" --zone "$ZONE" --format json |
      jq -r '[.metadata.items[]? | select(.key == "dind-bench-jit")] | length')
    if [ "$state" = waiting ] && [ "$has_jit" = 0 ]; then
      labels=$(g compute instances describe "$vm" --zone "$ZONE" --format json |
        jq -r '.metadata.items[]? | select(.key == "dind-bench-labels") | .value')
      file=$(mktemp)
      # Through a root-only temp file, never a command line: the config starts a runner once.
      ( umask 077; bash ../common/jit-config.sh "$vm" "$labels" > "$file" )
      g compute instances add-metadata "$vm" --zone "$ZONE" --metadata-from-file "dind-bench-jit=$file" >/dev/null
      rm -f "$file"
      echo "$vm: JIT configuration delivered"
    elif [ "$state" = started ] && [ "$has_jit" != 0 ]; then
      g compute instances remove-metadata "$vm" --zone "$ZONE" --keys dind-bench-jit >/dev/null
      echo "$vm: runner started, configuration removed from its metadata"
    fi
  done
  # Registrations whose VM is gone (deleted before its runner took a job).
  case "$RUNNER_SCOPE" in */*) endpoint="repos/$RUNNER_SCOPE" ;; *) endpoint="orgs/$RUNNER_SCOPE" ;; esac
  mapfile -t offline < <(printf 'header = "Authorization: Bearer %s"\n' "$(cat "$RUNNER_PAT_FILE")" |
    curl -fsS -K - -H 'Accept: application/vnd.github+json' "https://api.github.com/$endpoint/actions/runners?per_page=100" |
    jq -r --arg f "$FLEET" '.runners[] | select(.status == "offline" and (.name | startswith($f))) | .name')
  for name in "${offline[@]}"; do
    printf '%s\n' "${vms[@]}" | grep -qxF "$name" || bash ../common/deregister.sh "$name"
  done
}

while :; do
  pass
  [ -n "${ONCE:-}" ] && break
  sleep 10
done
