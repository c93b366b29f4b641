#!/usr/bin/env bash
# BROKER for a GCE fleet: the only place the registration credential lives (its own host: an operator's
# machine or a small VM of its own, the credential in a file only the broker's user can read), never a
# runner VM and never a GitHub secret (it refuses to run in a GitHub Actions job).
#
# Before anything else, and again before every configuration (../common/jit-config.sh), it checks with
# GitHub that the runners register in an organisation runner group that admits only bench.yml of main
# and bench-pr and no public repository (../common/github-runners.sh, check_runner_setup); otherwise it
# refuses, saying what to change.
#
# A VM's job controls the whole VM (docker group = root), so nothing a VM says about itself (guest
# attributes, files, its runner's output) is evidence here. A JIT runner configuration
# (../common/jit-config.sh) is issued only on facts a job cannot forge:
#   - from the compute API: the VM *instance* (its id and creation time; the instance group gives a
#     recreated VM new ones) has had no configuration yet. The broker marks the instance it configured
#     in the instance's own metadata (dind-bench-issued=<id>@<created>@<issued at>), which nothing on
#     the VM can write: the VMs have no service account. At most one configuration per instance;
#   - from GitHub: no runner of that instance is registered (the runner is named <vm>-<instance id>).
# After that, per instance and pass, only these happen:
#   - the configuration is removed from the metadata once GitHub shows its runner online or busy;
#   - the instance is recreated by the instance group (a fresh VM from the template, with a new id) once
#     GitHub no longer lists its runner (a JIT runner is removed after its one job), when the VM has
#     stopped (it powers off after its job), or when its runner has not come online within MAX_AGE
#     (the stale registration is removed first);
#   - registrations of VMs that no longer exist are removed.
# One instance that fails (an API error, a failed jit-config call) is reported and retried next pass;
# the others go on.
#
#   FLEET=dind-bench-28-2-n2-standard-4 PROJECT=... ZONE=... \
#   RUNNER_SCOPE=my-org RUNNER_GROUP_ID=7 RUNNER_REPOSITORY=my-org/my-repo \
#   RUNNER_APP_ID=... RUNNER_APP_INSTALLATION_ID=... RUNNER_APP_KEY_FILE=~/.dind-bench-app.pem \
#   bash runners/gce/broker.sh                                 (ONCE=1: one pass, e.g. from cron)
#   (the credential and the group's variables: ../common/github-runners.sh)
#   MAX_AGE  seconds a configured instance may go without its runner coming online (default 3600)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=/dev/null
. "$here/../common/github-runners.sh"

# The decision, from facts only (no I/O, so it is tested on its own: test/workflow/runner-broker.test.js).
#   decide STATUS INSTANCE MARK RUNNER HAS_JIT AGE MAX_AGE
#   STATUS   the compute API's status (RUNNING, TERMINATED, ...)
#   INSTANCE <id>@<creationTimestamp> from the compute API
#   MARK     the dind-bench-issued metadata value without its time (<id>@<created>), or empty
#   RUNNER   runner_state of <vm>-<id>: none, online, busy, offline
#   HAS_JIT  1 when the dind-bench-jit metadata key is there
#   AGE      seconds since the configuration was issued (0 when none)
# Prints one of: issue, hide (remove the configuration from the metadata), recreate, expire (remove the
# registration, then recreate), wait.
decide() {
  local status=$1 instance=$2 mark=$3 runner=$4 has_jit=$5 age=$6 max_age=$7
  case "$status" in
    RUNNING) ;;
    TERMINATED | STOPPED | SUSPENDED) [ "$runner" = none ] && echo recreate || echo expire; return ;;
    *) echo wait; return ;; # PROVISIONING, STAGING, STOPPING, REPAIRING: the group is at it
  esac
  if [ "$mark" != "$instance" ]; then
    # Never configured. A registered runner of this instance without the mark (the mark could not be
    # written after the configuration was made): never a second one; it expires like any other.
    if [ "$runner" = none ]; then echo issue; else echo wait; fi
    return
  fi
  case "$runner" in
    none) echo recreate ;; # its one job is done (or its configuration was never used and removed)
    online | busy) if [ "$has_jit" = 1 ]; then echo hide; else echo wait; fi ;;
    *) if [ "$age" -gt "$max_age" ]; then echo expire; else echo wait; fi ;;
  esac
}

g() { gcloud --project "$PROJECT" "$@"; }

# One instance: gather the facts, decide, act. Runs in its own bash (see pass), so `set -e` holds here
# and a failure ends this instance's turn only.
one_instance() {
  local vm=$1 json instance status mark issued_at has_jit name runner age action labels file
  json=$(g compute instances describe "$vm" --zone "$ZONE" --format json)
  instance=$(jq -er '"\(.id)@\(.creationTimestamp)"' <<<"$json")
  status=$(jq -er '.status' <<<"$json")
  mark=$(jq -r '[.metadata.items[]? | select(.key == "dind-bench-issued") | .value][0] // ""' <<<"$json")
  has_jit=$(jq -r '[.metadata.items[]? | select(.key == "dind-bench-jit")] | length | if . > 0 then 1 else 0 end' <<<"$json")
  name="$vm-${instance%%@*}"
  runner=$(runner_state "$name")
  issued_at=${mark##*@}
  mark=${mark%@*}
  age=0
  if [ -n "$mark" ] && [[ "$issued_at" =~ ^[0-9]+$ ]]; then age=$(($(date +%s) - issued_at)); fi
  action=$(decide "$status" "$instance" "$mark" "$runner" "$has_jit" "$age" "${MAX_AGE:-3600}")
  case "$action" in
    issue)
      labels=$(jq -r '.metadata.items[]? | select(.key == "dind-bench-labels") | .value' <<<"$json")
      # The mark first: should anything after it fail, this instance is never configured twice.
      g compute instances add-metadata "$vm" --zone "$ZONE" \
        --metadata "dind-bench-issued=$instance@$(date +%s)" >/dev/null
      file=$(mktemp)
      # Expanded now: at exit, this function's local is gone (and set -u would fail the instance's turn).
      # shellcheck disable=SC2064
      trap "rm -f -- '$file'" EXIT
      # Through a temp file only the broker's user can read, never a command line.
      (umask 077 && bash "$here/../common/jit-config.sh" "$name" "$labels" >"$file")
      g compute instances add-metadata "$vm" --zone "$ZONE" --metadata-from-file "dind-bench-jit=$file" >/dev/null
      echo "$vm: JIT configuration delivered (runner $name)"
      ;;
    hide)
      g compute instances remove-metadata "$vm" --zone "$ZONE" --keys dind-bench-jit >/dev/null
      echo "$vm: runner $name is $runner; configuration removed from the metadata"
      ;;
    expire | recreate)
      if [ "$action" = expire ] && [ "$runner" != none ]; then bash "$here/../common/deregister.sh" "$name"; fi
      g compute instance-groups managed recreate-instances "$FLEET" --zone "$ZONE" --instances "$vm" >/dev/null
      echo "$vm: $status, runner $name $runner: recreated by the instance group"
      ;;
    wait) ;;
    *) echo "$vm: no decision ($action)" >&2; return 1 ;;
  esac
}

pass() {
  local vms vm failed=0 offline name
  mapfile -t vms < <(g compute instance-groups managed list-instances "$FLEET" --zone "$ZONE" --format 'value(name)')
  for vm in "${vms[@]}"; do
    if ! bash "${BASH_SOURCE[0]}" --instance "$vm"; then
      echo "$vm: this pass failed for it; next pass tries again" >&2
      failed=1
    fi
  done
  # Registrations of this fleet whose VM is gone (deleted before its runner took a job).
  if offline=$(gh_get 'actions/runners?per_page=100' |
    jq -r --arg f "$FLEET-" '.runners[] | select(.status == "offline" and (.name | startswith($f))) | .name'); then
    while read -r name; do
      [ -n "$name" ] || continue
      printf '%s\n' "${vms[@]}" | grep -qxF "${name%-*}" || bash "$here/../common/deregister.sh" "$name" || failed=1
    done <<<"$offline"
  else
    echo "could not list the runners; stale registrations are removed next pass" >&2
    failed=1
  fi
  return "$failed"
}

main() {
  : "${FLEET:?set FLEET (the instance group create-fleet.sh made)}" "${PROJECT:?}" "${ZONE:?}"
  : "${RUNNER_SCOPE:?set RUNNER_SCOPE (the organisation)}"
  export FLEET PROJECT ZONE
  if [ "${1:-}" = --instance ]; then
    one_instance "$2"
    return
  fi
  # The credential and the fork barrier, before any pass (jit-config.sh checks again every time).
  check_credential || exit 2
  check_runner_setup || exit 2
  while :; do
    if [ -n "${ONCE:-}" ]; then
      pass
      return
    fi
    pass || :
    sleep 10
  done
}

# Sourced (by the test), it only defines the functions.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then main "$@"; fi
