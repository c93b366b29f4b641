#!/usr/bin/env bash
# Creates (or updates) a fleet of dind-bench runners on GCE: an instance template whose VMs install a
# pinned Docker Engine, run one job as an ephemeral runner and power off, and a managed instance group
# that keeps SIZE of them alive by replacing each finished VM with a fresh one.
#
#   PROJECT=my-project ZONE=europe-west1-b SCOPE=owner/repo ENGINE_VERSION=28.2 \
#   MACHINE_TYPE=n2-standard-4 SIZE=2 bash runners/gce/create-fleet.sh
#
# Needs: gcloud, logged in with rights on compute, IAM and Secret Manager in PROJECT; a secret
# (SECRET, default dind-bench-runner-token) holding the registration token described in runners/README.md.
# The VMs get no external IP and the script opens no firewall port: runners only connect out (through
# the network's Cloud NAT).
set -euo pipefail
cd "$(dirname "$0")"

: "${PROJECT:?set PROJECT}" "${ZONE:?set ZONE}" "${SCOPE:?set SCOPE (owner/repo or organisation)}"
ENGINE_VERSION=${ENGINE_VERSION:-28.2}
MACHINE_TYPE=${MACHINE_TYPE:-n2-standard-4}
SIZE=${SIZE:-1}
SECRET=${SECRET:-dind-bench-runner-token}
NETWORK=${NETWORK:-default}
LABELS=${LABELS:-gce}
# One template per Engine version and machine type: an upgrade adds a fleet next to the old one.
name="dind-bench-${ENGINE_VERSION//./-}-${MACHINE_TYPE}"
sa="dind-bench-runner@$PROJECT.iam.gserviceaccount.com"

gcloud config set project "$PROJECT" >/dev/null
if ! gcloud iam service-accounts describe "$sa" >/dev/null 2>&1; then
  gcloud iam service-accounts create dind-bench-runner --display-name "dind-bench runner VMs"
fi
# The VMs may read this one secret and nothing else in the project.
gcloud secrets add-iam-policy-binding "$SECRET" --member "serviceAccount:$sa" \
  --role roles/secretmanager.secretAccessor >/dev/null

env_file=$(mktemp)
trap 'rm -f "$env_file"' EXIT
cat > "$env_file" <<ENV
RUNNER_SCOPE=$SCOPE
RUNNER_PAT_SECRET=$SECRET
RUNNER_PAT_FILE=/root/.dind-bench-runner-token
RUNNER_LABELS=$LABELS
ENGINE_VERSION=$ENGINE_VERSION
ENV

gcloud compute instance-templates create "$name" \
  --machine-type "$MACHINE_TYPE" \
  --image-family ubuntu-2404-lts-amd64 --image-project ubuntu-os-cloud \
  --boot-disk-size 100GB --boot-disk-type pd-ssd \
  --network "$NETWORK" --no-address \
  --service-account "$sa" --scopes cloud-platform \
  --shielded-secure-boot --shielded-vtpm --shielded-integrity-monitoring \
  --labels "app=dind-bench,engine=${ENGINE_VERSION//./-}" \
  --metadata block-project-ssh-keys=true \
  --metadata-from-file "user-data=cloud-init.yaml,shutdown-script=../common/deregister.sh,dind-bench-install-engine=../common/install-engine.sh,dind-bench-ephemeral-runner=../common/ephemeral-runner.sh,dind-bench-deregister=../common/deregister.sh,dind-bench-env=$env_file"

if gcloud compute instance-groups managed describe "$name" --zone "$ZONE" >/dev/null 2>&1; then
  gcloud compute instance-groups managed resize "$name" --zone "$ZONE" --size "$SIZE"
else
  gcloud compute instance-groups managed create "$name" --zone "$ZONE" --template "$name" --size "$SIZE"
fi
echo "fleet $name: $SIZE VM(s) of $MACHINE_TYPE with Docker Engine $ENGINE_VERSION, labels self-hosted,linux,x64,dind-bench,docker-$ENGINE_VERSION,$MACHINE_TYPE,$LABELS"
