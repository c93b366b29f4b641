#!/usr/bin/env bash
# Static checks of everything that is not JavaScript: the workflows and composite actions (actionlint,
# zizmor with no findings; the README's callers with actionlint), every shell script (shellcheck), the GCE cloud-init user data (cloud-init's
# own schema), and the Kubernetes runner values (Kubernetes' JSON schemas, offline). Tools: .ci/install-ci-tools.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== actionlint"
# actionlint runs shellcheck on every run: block too.
actionlint -color=false
actionlint -color=false examples/consumer/.github/workflows/*.yml
# The README's callers (each ```yaml block that opens with the path it goes to), as printed.
readme=$(mktemp -d)
trap 'rm -rf "$readme"' EXIT
awk -v dir="$readme" '
  /^```yaml$/ { inside = 1; out = ""; next }
  inside && /^```$/ { inside = 0; next }
  inside && out == "" && /^# \.github\/workflows\/[A-Za-z0-9_-]+\.yml:/ { out = dir "/" substr($2, 19, length($2) - 19) }
  inside && out != "" { print > out }' README.md
actionlint -color=false "$readme"/*.yml

echo "== zizmor (offline; .github/zizmor.yml)"
zizmor --offline --quiet --no-progress .
zizmor --offline --quiet --no-progress --config .github/zizmor.yml examples/consumer

echo "== shellcheck"
mapfile -t scripts < <(git ls-files --cached --others --exclude-standard '*.sh' .ci/run quickstart | sort -u)
shellcheck "${scripts[@]}"

if [ -d runners ]; then
  echo "== cloud-init schema"
  cloud-init schema --config-file runners/gce/cloud-init.yaml
  echo "== Kubernetes manifests"
  python3 runners/k8s/validate.py
fi
