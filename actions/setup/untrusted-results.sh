#!/usr/bin/env bash
# Results from self-hosted runners are untrusted input: a job there can write anything into its
# artifact. Before any later step reads them, this refuses a results folder (or file) at $RESULTS that
# holds links or devices, more than $MAX_FILES files, more than $MAX_TOTAL_MIB in all, or a results.json
# over $MAX_RESULTS_MIB. Contents are validated after this by dind-bench itself (schema, bounds, escaping).
set -euo pipefail
: "${RESULTS:?}"
max_results=$(( ${MAX_RESULTS_MIB:-32} * 1024 * 1024 ))
max_total=$(( ${MAX_TOTAL_MIB:-512} * 1024 * 1024 ))
max_files=${MAX_FILES:-20000}
refuse() { echo "::error title=dind-bench untrusted results::$*"; exit 1; }

[ -e "$RESULTS" ] || refuse "no results at the given path (fix: check the results input and the artifact download)"
[ -L "$RESULTS" ] && refuse "the results path is a symbolic link; results are read only from real folders"
if [ -f "$RESULTS" ]; then
  size=$(stat -c %s "$RESULTS")
  [ "$size" -le "$max_results" ] \
    || refuse "the results file is $size bytes, over the bound of $max_results (MAX_RESULTS_MIB)"
  exit 0
fi
odd=$(find "$RESULTS" ! -type f ! -type d -printf '%P\n' | head -n 3)
[ -z "$odd" ] || refuse "links or special files in the results folder (first: ${odd//$'\n'/, }); refusing the artifact"
files=$(find "$RESULTS" -type f | head -n $((max_files + 1)) | wc -l)
[ "$files" -le "$max_files" ] || refuse "more than $max_files files in the results folder (MAX_FILES)"
total=$(find "$RESULTS" -type f -printf '%s\n' | awk '{s += $1} END {print s + 0}')
[ "$total" -le "$max_total" ] \
  || refuse "the results folder holds $total bytes, over the bound of $max_total (MAX_TOTAL_MIB)"
big=$(find "$RESULTS" -type f -name results.json -size +"$max_results"c -printf '%P\n' | head -n 1)
[ -z "$big" ] || refuse "a results.json is over $max_results bytes (MAX_RESULTS_MIB): ${big}"
echo "results: $files files, $total bytes, within the bounds"
