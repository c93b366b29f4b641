# shellcheck shell=bash
# BROKER SIDE, sourced by jit-config.sh, runners/gce/create-fleet.sh and runners/lab/broker.sh: the labels
# a runner registers with are never those of GitHub-hosted runners. A job's runs-on names labels, so a
# self-hosted runner labelled `ubuntu-latest` would be given the jobs meant for GitHub's own machines, the
# ones holding write tokens among them (SECURITY.md, Workflows and runners). GitHub compares labels ignoring
# case, and so does this.

# refuse_hosted_labels WHAT LABELS: returns 1, naming WHAT and the label, when one of LABELS (comma-separated)
# starts with ubuntu-, windows- or macos- in any case.
refuse_hosted_labels() {
  local what=$1 label shown
  local -a labels
  IFS=',' read -r -a labels <<<"$2"
  for label in "${labels[@]}"; do
    label=${label#"${label%%[![:space:]]*}"}
    label=${label%"${label##*[![:space:]]}"}
    if [[ "${label,,}" =~ ^(ubuntu|windows|macos)- ]]; then
      shown=${label//[^A-Za-z0-9._-]/?}
      echo "runner labels: $what holds '${shown:0:100}', a label of GitHub-hosted runners (ubuntu-*, windows-*, macos-*): jobs meant for GitHub's own machines, those holding write tokens among them, would run on this self-hosted runner. Give it labels of its own (SECURITY.md, Workflows and runners)" >&2
      return 1
    fi
  done
}
