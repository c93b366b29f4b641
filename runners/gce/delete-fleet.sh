#!/usr/bin/env bash
# Removes a fleet created by create-fleet.sh: the instance group and the template (registrations of its
# VMs that never ran a job are removed by broker.sh).
#   PROJECT=... ZONE=... ENGINE_VERSION=28.2 MACHINE_TYPE=n2-standard-4 bash delete-fleet.sh
set -euo pipefail
: "${PROJECT:?}" "${ZONE:?}" "${ENGINE_VERSION:?}" "${MACHINE_TYPE:?}"
name="dind-bench-${ENGINE_VERSION//./-}-${MACHINE_TYPE}"
gcloud --project "$PROJECT" compute instance-groups managed delete "$name" --zone "$ZONE" --quiet
gcloud --project "$PROJECT" compute instance-templates delete "$name" --quiet
