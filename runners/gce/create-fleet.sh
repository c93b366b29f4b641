#!/usr/bin/env bash
# Creates (or updates) a fleet of dind-bench runners on GCE: an instance template whose VMs install a
# pinned Docker Engine, run one job as an ephemeral runner and power off, and a managed instance group
# that keeps SIZE of them alive by replacing each finished VM with a fresh one.
#
#   PROJECT=my-project ZONE=europe-west1-b ENGINE_VERSION=28.2 \
#   MACHINE_TYPE=n2-standard-4 SIZE=2 bash runners/gce/create-fleet.sh
#
# Needs: gcloud, logged in with rights on compute in PROJECT. The VMs get NO service account (so nothing
# on them can call a Google API or read a secret), no external IP, and the script opens no firewall
# port: runners only connect out (through the network's Cloud NAT). They hold no GitHub credential
# either: broker.sh, run where the registration credential lives, gives each VM a single-use JIT runner
# configuration through its instance metadata.
set -euo pipefail
cd "$(dirname "$0")"

: "${PROJECT:?set PROJECT}" "${ZONE:?set ZONE}"
ENGINE_VERSION=${ENGINE_VERSION:-28.2}
MACHINE_TYPE=${MACHINE_TYPE:-n2-standard-4}
SIZE=${SIZE:-1}
NETWORK=${NETWORK:-default}
LABELS=${LABELS:-gce}
# One template per Engine version and machine type: an upgrade adds a fleet next to the old one.
name="dind-bench-${ENGINE_VERSION//./-}-${MACHINE_TYPE}"

gcloud config set project "$PROJECT" >/dev/null

env_file=$(mktemp)
trap 'rm -f "$env_file"' EXIT
cat > "$env_file" <<ENV
ENGINE_VERSION=$ENGINE_VERSION
ENV

gcloud compute instance-templates create "$name" \
  --machine-type "$MACHINE_TYPE" \
  --image-family ubuntu-2404-lts-amd64 --image-project ubuntu-os-cloud \
  --boot-disk-size 100GB --boot-disk-type pd-ssd \
  --network "$NETWORK" --no-address \
  --no-service-account --no-scopes \
  --shielded-secure-boot --shielded-vtpm --shielded-integrity-monitoring \
  --labels "app=dind-bench,engine=${ENGINE_VERSION//./-}" \
  --metadata "^;^block-project-ssh-keys=true;dind-bench-labels=dind-bench,docker-$ENGINE_VERSION,$MACHINE_TYPE,$LABELS" \
  --metadata-from-file "user-data=cloud-init.yaml,dind-bench-provision=../common/provision.sh,dind-bench-install-engine=../common/install-engine.sh,dind-bench-ephemeral-runner=../common/ephemeral-runner.sh,dind-bench-runner-release=../common/runner-release.sh,dind-bench-runner-version=../common/runner-version.sh,dind-bench-env=$env_file"

if gcloud compute instance-groups managed describe "$name" --zone "$ZONE" >/dev/null 2>&1; then
  gcloud compute instance-groups managed resize "$name" --zone "$ZONE" --size "$SIZE"
else
  gcloud compute instance-groups managed create "$name" --zone "$ZONE" --template "$name" --size "$SIZE"
fi
echo "fleet $name: $SIZE VM(s) of $MACHINE_TYPE with Docker Engine $ENGINE_VERSION, labels self-hosted,linux,x64,dind-bench,docker-$ENGINE_VERSION,$MACHINE_TYPE,$LABELS"
echo "they take jobs once broker.sh runs for them: FLEET=$name PROJECT=$PROJECT ZONE=$ZONE bash runners/gce/broker.sh"
