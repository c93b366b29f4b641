#!/usr/bin/env bash
# Writes the input of benchmark-action/github-action-benchmark for every results.json under $RESULTS:
# `dind-bench compare --export-gab` per results file, merged into $OUT/smaller-is-better.json and
# $OUT/bigger-is-better.json (that action takes one file and one direction per call). Names get the
# results folder's name (the job, or the merged group of shard jobs) in front, `<job>: <name>`, so the
# same cell measured by two jobs stays two series; `history import-gab` reads that form back, each job a
# runner of its own (parseBenchName in src/history/gab.js: keep the two in step).
# Prints the two paths as step outputs `smaller` and `bigger`.
set -euo pipefail
: "${DIND_BENCH_SUITE:?run the setup action first}" "${RESULTS:?}" "${OUT:?}"
if [ -f "$RESULTS" ]; then files=("$RESULTS")
else mapfile -t files < <(find "$RESULTS" -name results.json -type f | sort); fi
if [ "${#files[@]}" -eq 0 ]; then
  echo "::error title=dind-bench github-action-benchmark::no results.json under the results folder"
  exit 1
fi

rm -rf "$OUT"
mkdir -p "$OUT/jobs"
for i in "${!files[@]}"; do
  file=${files[$i]}
  job=$(basename "$(dirname "$file")")
  # Job folder names come from the job matrix (letters, digits, . _ -); anything else is replaced.
  job=${job//[^A-Za-z0-9._-]/_}
  # ...starting with a letter or digit, at most 100 characters (what import-gab reads as a job).
  [[ "$job" =~ ^[A-Za-z0-9] ]] || job="job$job"
  job=${job:0:100}
  dir="$OUT/jobs/$i"
  node "$DIND_BENCH_SUITE/bin/dind-bench.js" compare "$file" --export-gab "$dir" >/dev/null
  for kind in smaller bigger; do
    jq --arg job "$job" 'map(.name = "\($job): \(.name)")' "$dir/$kind-is-better.json" > "$dir/$kind.prefixed.json"
  done
done
for kind in smaller bigger; do
  jq -s 'add // []' "$OUT"/jobs/*/"$kind".prefixed.json > "$OUT/$kind-is-better.json"
  file=$OUT/$kind-is-better.json
  echo "github-action-benchmark: $(jq length "$file") $kind-is-better values in $file"
  if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "$kind=$OUT/$kind-is-better.json" >> "$GITHUB_OUTPUT"; fi
done
