#!/usr/bin/env bash
# Creates (or updates) a fleet of dind-bench runners on GCE: an instance template whose VMs install a
# pinned Docker Engine, run one job as an ephemeral runner and power off, and a managed instance group
# that keeps SIZE of them alive by replacing each finished VM with a fresh one.
#
#   PROJECT=my-project ZONE=europe-west1-b ENGINE_VERSION=28.2 \
#   MACHINE_TYPE=n2-standard-4 SIZE=2 bash runners/gce/create-fleet.sh
#
# Needs: gcloud, logged in with rights on compute in PROJECT. The VMs get NO service account (so nothing
# on them can call a Google API or read a secret), no external IP, and a network of their own
# (NETWORK, default dind-bench-runners; never the project's `default` network, which other VMs share and
# whose rules admit SSH from anywhere), created here if missing:
#   - a subnet in ZONE's region (SUBNET_RANGE, default 10.77.0.0/24) and Cloud NAT for outbound traffic;
#   - firewall: every inbound connection denied; outbound only to EGRESS_PORTS (default tcp:443,tcp:80:
#     GitHub, the registries and Docker's and Ubuntu's package archives) on public addresses; every
#     private range (other VPCs, peered networks, on-premises routes) and every other port denied. DNS and
#     the VM's own metadata go to the metadata server, which firewall rules do not govern;
#   - existing rules are updated to these values on every run.
# The VMs hold no GitHub credential either: broker.sh, run where the registration credential lives,
# gives each VM a single-use JIT runner configuration through its instance metadata.
set -euo pipefail
cd "$(dirname "$0")"

: "${PROJECT:?set PROJECT}" "${ZONE:?set ZONE}"
ENGINE_VERSION=${ENGINE_VERSION:-28.2}
MACHINE_TYPE=${MACHINE_TYPE:-n2-standard-4}
SIZE=${SIZE:-1}
NETWORK=${NETWORK:-dind-bench-runners}
SUBNET_RANGE=${SUBNET_RANGE:-10.77.0.0/24}
EGRESS_PORTS=${EGRESS_PORTS:-tcp:443,tcp:80}
LABELS=${LABELS:-gce}
# shellcheck source=/dev/null
. ../common/labels.sh
# MACHINE_TYPE and LABELS become the runners' labels (broker.sh hands them to jit-config.sh, which checks
# again): never a GitHub-hosted runner's, refused before anything is created.
refuse_hosted_labels "MACHINE_TYPE and LABELS" "$MACHINE_TYPE,$LABELS" || exit 2
if [ "$NETWORK" = default ]; then
  echo "create-fleet.sh: NETWORK=default is the project's shared network (its rules admit SSH, RDP and ICMP from anywhere, and other VMs live there). Runners get a network of their own: unset NETWORK (dind-bench-runners) or name a network only these runners use" >&2
  exit 2
fi
region=${ZONE%-*}
subnet="$NETWORK-$region"
private_ranges=10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,100.64.0.0/10
# One template per Engine version and machine type: an upgrade adds a fleet next to the old one.
name="dind-bench-${ENGINE_VERSION//./-}-${MACHINE_TYPE}"

gcloud config set project "$PROJECT" >/dev/null

# The runners' network: created once; its firewall rules set to the values above on every run.
exists() { gcloud compute "$@" >/dev/null 2>&1; }
exists networks describe "$NETWORK" || gcloud compute networks create "$NETWORK" --subnet-mode custom
exists networks subnets describe "$subnet" --region "$region" ||
  gcloud compute networks subnets create "$subnet" --network "$NETWORK" --region "$region" --range "$SUBNET_RANGE"
exists routers describe "$NETWORK-nat" --region "$region" ||
  gcloud compute routers create "$NETWORK-nat" --network "$NETWORK" --region "$region"
exists routers nats describe "$NETWORK-nat" --router "$NETWORK-nat" --region "$region" ||
  gcloud compute routers nats create "$NETWORK-nat" --router "$NETWORK-nat" --region "$region" \
    --auto-allocate-nat-external-ips --nat-all-subnet-ip-ranges
# rule NAME DIRECTION ACTION RULES RANGES PRIORITY (lower numbers win)
rule() {
  local ranges=--source-ranges
  [ "$2" = EGRESS ] && ranges=--destination-ranges
  if exists firewall-rules describe "$1"; then
    gcloud compute firewall-rules update "$1" --rules "$4" "$ranges" "$5" --priority "$6"
  else
    gcloud compute firewall-rules create "$1" --network "$NETWORK" --direction "$2" --action "$3" \
      --rules "$4" "$ranges" "$5" --priority "$6"
  fi
}
rule "$NETWORK-deny-ingress" INGRESS DENY all 0.0.0.0/0 100
rule "$NETWORK-deny-egress-private" EGRESS DENY all "$private_ranges" 100
rule "$NETWORK-allow-egress-web" EGRESS ALLOW "$EGRESS_PORTS" 0.0.0.0/0 1000
rule "$NETWORK-deny-egress" EGRESS DENY all 0.0.0.0/0 65000

env_file=$(mktemp)
trap 'rm -f "$env_file"' EXIT
cat > "$env_file" <<ENV
ENGINE_VERSION=$ENGINE_VERSION
ENV

gcloud compute instance-templates create "$name" \
  --machine-type "$MACHINE_TYPE" \
  --image-family ubuntu-2404-lts-amd64 --image-project ubuntu-os-cloud \
  --boot-disk-size 100GB --boot-disk-type pd-ssd \
  --network "$NETWORK" --subnet "projects/$PROJECT/regions/$region/subnetworks/$subnet" --no-address \
  --no-service-account --no-scopes \
  --shielded-secure-boot --shielded-vtpm --shielded-integrity-monitoring \
  --labels "app=dind-bench,engine=${ENGINE_VERSION//./-}" \
  --metadata "^;^block-project-ssh-keys=true;dind-bench-labels=dind-bench,docker-$ENGINE_VERSION,$MACHINE_TYPE,$LABELS" \
  --metadata-from-file "user-data=cloud-init.yaml,dind-bench-provision=../common/provision.sh,dind-bench-install-engine=../common/install-engine.sh,dind-bench-install-plugins=../common/install-plugins.sh,dind-bench-ephemeral-runner=../common/ephemeral-runner.sh,dind-bench-runner-release=../common/runner-release.sh,dind-bench-runner-version=../common/runner-version.sh,dind-bench-env=$env_file"

if gcloud compute instance-groups managed describe "$name" --zone "$ZONE" >/dev/null 2>&1; then
  gcloud compute instance-groups managed resize "$name" --zone "$ZONE" --size "$SIZE"
else
  gcloud compute instance-groups managed create "$name" --zone "$ZONE" --template "$name" --size "$SIZE"
fi
echo "fleet $name: $SIZE VM(s) of $MACHINE_TYPE with Docker Engine $ENGINE_VERSION, labels self-hosted,linux,x64,dind-bench,docker-$ENGINE_VERSION,$MACHINE_TYPE,$LABELS"
echo "network $NETWORK: no inbound connection; outbound only $EGRESS_PORTS to public addresses, through Cloud NAT"
echo "they take jobs once broker.sh runs for them, on the broker's host: FLEET=$name PROJECT=$PROJECT ZONE=$ZONE RUNNER_SCOPE=... bash runners/gce/broker.sh (runners/README.md)"
