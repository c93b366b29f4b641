#!/usr/bin/env bash
# End to end: the two callers README.md prints, taken from README.md itself (so this breaks when the README
# drifts), each run under act, offline, in a scratch repository of its own that holds only:
#   - the caller, as printed, at the path its first line names (question 1, "Does DinD fit my job? In your
#     repository": .github/workflows/dind-fit.yml; question 2, "What does the next Engine line do to it? In
#     your repository": .github/workflows/engine-gate.yml);
#   - the workload, at the path the caller's `workload:` input names (the example's folder: its file and the
#     build context and compose file it names);
#   - a price: question 1 writes its own; question 2 takes the repository variables DIND_BENCH_PRICE_PER_MINUTE
#     and DIND_BENCH_BILLING (act --var);
#   - the workload's secrets, if it reads any: repository secrets (act --secret) passed by a `secrets:` block
#     added to the caller as docs/workloads.md ("In GitHub Actions") writes it.
# The suite is released as v1 and served as GitHub would download it, with the OIDC stand-in, as in
# consumer-e2e.sh (.ci/e2e-lib.sh). Each run must exit 0, its job summary (the compare Markdown) and its
# outputs must give the answer for the job, decided with its interval or open with the samples a side and
# runner minutes that would decide it, the caller's own later job must have read the outputs, and the engine
# must be left as found (no object of the run; the workload's image names as they were).
#
# The job: examples/workloads/script by default (a pull, 5 containers and a volume: seconds a job), standing
# in for CI time (2026-12-07, 2 cores, load average 16-31 from other work beside it: question 1 took 652 s,
# question 2 longer: three environments with the job, 5 rounds each; a quiet machine takes less). The real
# target is the Go service (examples/workloads/go-service: a cold Go build, PostgreSQL and a compose test,
# minutes a DinD job):
#   bash .ci/readme-callers-e2e.sh --workload examples/workloads/go-service [--question 1|2]
# Needs the images built (`dind-bench images build`, Engine 20.10 and 26.1, Debian), act, jq, python3.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: $0 [--workload DIR (default examples/workloads/script)] [--question 1|2 (default both)]" >&2; exit 2; }
workload_dir=examples/workloads/script
questions=(1 2)
while [ $# -gt 0 ]; do
  case $1 in
    --workload) [ $# -ge 2 ] || usage; workload_dir=${2%/}; shift 2 ;;
    --question) [ $# -ge 2 ] || usage; case $2 in 1|2) questions=("$2") ;; *) usage ;; esac; shift 2 ;;
    *) usage ;;
  esac
done
[ -f "$workload_dir/workload.yml" ] || { echo "$0: no workload.yml in $workload_dir" >&2; exit 2; }

# shellcheck source=.ci/e2e-lib.sh
. .ci/e2e-lib.sh
e2e_begin "readme callers e2e" callers
trap 'oidc_stop; e2e_cleanup' EXIT

# readme_caller HEADING: the ```yaml block under that heading of README.md, exactly as printed (empty when
# the heading has none before the next heading).
readme_caller() {
  awk -v h="$1" '
    $0 == h { under = 1; next }
    under && !inside && /^```yaml$/ { inside = 1; next }
    under && !inside && /^#/ { exit }
    inside && /^```$/ { exit }
    inside { print }' README.md
}
# The outputs join their words with a no-break space (src/compare/outputs.js): a pattern allows it where it
# allows a space, in a UTF-8 locale (one character) or the C one (two bytes).
nbsp=$'\xc2\xa0'
sp="[ $nbsp]+"
# act's line for the caller's rollout job having run its steps.
rollout_ran='\[engine-gate/rollout *\] *🏁 +Job succeeded'
headings=("" "### Does DinD fit my job? In your repository" "### What does the next Engine line do to it? In your repository")

# The workload's name, the variables it reads (registries' credentials, build secrets, a CA by variable),
# and the image names it gives the runner's engine (pulls, builds): from the file, as the run parses it.
workload_facts() {
  # shellcheck disable=SC2016 # JavaScript, whose template literals are its own
  node --input-type=module -e '
    import { readFileSync } from "node:fs";
    import { parse } from "yaml";
    const w = parse(readFileSync(process.argv[1], "utf8"));
    const envs = new Set();
    const walk = (v) => { if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) {
      if (k === "env" && typeof x === "string") envs.add(x); else walk(x); } };
    walk({ registries: w.registries, builds: w.builds });
    console.log(`name ${w.name}`);
    for (const e of envs) console.log(`secret ${e}`);
    for (const i of w.images ?? []) console.log(`image ${i.name}`);
    for (const b of w.builds ?? []) console.log(`image ${b.tag}`);
  ' "$1"
}
mapfile -t facts < <(workload_facts "$workload_dir/workload.yml")
workload_name=$(printf '%s\n' "${facts[@]}" | sed -n 's/^name //p')
mapfile -t secrets < <(printf '%s\n' "${facts[@]}" | sed -n 's/^secret //p')
mapfile -t images < <(printf '%s\n' "${facts[@]}" | sed -n 's/^image //p')
[ -n "$workload_name" ] || fail "$workload_dir/workload.yml has no name"
# What the runner's engine has under the workload's image names (name and image ID), compared at the end.
image_state() {
  local name
  for name in "${images[@]}"; do
    printf '%s %s\n' "$name" "$(docker image inspect --format '{{.Id}}' "$name" 2>/dev/null || echo absent)"
  done
}
images_before=$(image_state)

release_suite
suite_at v1
act_offline_args
echo "readme callers e2e: suite released as v1 at $released; the job: $workload_dir (workload.$workload_name)"

# The workload's secrets, offline values: a netrc where the name says one, else a token. Given to act as
# repository secrets; the caller passes them as docs/workloads.md writes it (add_secrets).
secret_args=()
for s in "${secrets[@]}"; do
  case $s in
    *NETRC*) value="machine modules.team.example login ci password offline-$RANDOM" ;;
    *) value="offline-$RANDOM$RANDOM" ;;
  esac
  secret_args+=(--secret "$s=$value")
done
# add_secrets FILE: a `secrets:` block after the caller's `uses:` line: the registry credential by its own
# names, every other secret in the JSON map DIND_BENCH_SECRETS, each value written with toJSON.
add_secrets() {
  local block="    secrets:" map="" s
  for s in "${secrets[@]}"; do
    case $s in
      DIND_BENCH_REGISTRY_USERNAME|DIND_BENCH_REGISTRY_PASSWORD) block+=$'\n'"      $s: \${{ secrets.$s }}" ;;
      *) map+="${map:+, }\"$s\": \${{ toJSON(secrets.$s) }}" ;;
    esac
  done
  [ -z "$map" ] || block+=$'\n'"      DIND_BENCH_SECRETS: '{$map}'"
  awk -v block="$block" '{ print } /^    uses: dind-bench\/dind-bench\/\.github\/workflows\/reusable-bench\.yml@/ { print block }' \
    "$1" > "$1.new"
  mv "$1.new" "$1"
}

# run_caller Q: question Q's caller from README.md in a scratch repository, run under act; sets file,
# out and status, and leaves act's log in $tmp/act.log.
run_caller() {
  local q=$1 caller workload repo
  caller=$(readme_caller "${headings[$q]}")
  [ -n "$caller" ] || fail "README.md has no yaml block under \"${headings[$q]}\""
  file=$(sed -n '1s|^# \(\.github/workflows/[A-Za-z0-9_-]*\.yml\):.*|\1|p' <<<"$caller")
  [ -n "$file" ] || fail "question $q's caller does not open with the path it goes to (# .github/workflows/NAME.yml: ...)"
  workload=$(sed -n 's|^      workload: \([^ #]*\).*|\1|p' <<<"$caller")
  [[ $workload =~ ^[A-Za-z0-9_.][A-Za-z0-9_./-]*\.ya?ml$ && $workload != *..* ]] \
    || fail "question $q's caller names no workload file in the repository (workload: ${workload:-none})"
  repo=$tmp/q$q
  mkdir -p "$repo/$(dirname "$file")" "$repo/$(dirname "$workload")"
  printf '%s\n' "$caller" > "$repo/$file"
  cp -a "$workload_dir/." "$repo/$(dirname "$workload")/"
  [ "$(basename "$workload")" = workload.yml ] || mv "$repo/$(dirname "$workload")/workload.yml" "$repo/$workload"
  if [ "${#secrets[@]}" -gt 0 ]; then add_secrets "$repo/$file"; fi
  commit_repo "$repo" "$file and our job"
  echo "readme callers e2e: question $q: $file from README.md, the job at $workload${secrets[*]:+, secrets ${secrets[*]}}"

  out=$tmp/out-q$q
  local price=()
  [ "$q" = 1 ] || price=(--var DIND_BENCH_PRICE_PER_MINUTE=0.0032 --var DIND_BENCH_BILLING=occupancy)
  oidc_stand_in refs/tags/v1 "$released"
  dispatch_event "$tmp/dispatch.json"
  local started=$SECONDS
  set +e
  (cd "$repo" && XDG_CACHE_HOME="$tmp/cache" XDG_CONFIG_HOME="$tmp/config" \
    act workflow_dispatch -W "$file" "${act_args[@]}" "${price[@]}" "${secret_args[@]}" \
    --env "DIND_BENCH_ACT_OUT=$out" --env "ACTIONS_ID_TOKEN_REQUEST_URL=$oidc_url" -e "$tmp/dispatch.json") > "$tmp/act.log" 2>&1
  status=$?
  set -e
  oidc_stop
  grep -E '❌|🏁|::error|USD per 1,000 jobs|rolling out' "$tmp/act.log" | cut -c1-240 || true
  echo "readme callers e2e: question $q: act exited $status after $((SECONDS - started)) s (load $(cut -d' ' -f1-3 /proc/loadavg))"
  [ "$status" -eq 0 ] || fail "question $q's caller exited $status"
}

# check_answer Q CANDIDATE BASELINE: the job summary and the outputs answer for the job, candidate against
# baseline (a pattern): decided, with its interval, or open, with the samples a side and the runner minutes
# that would decide it.
check_answer() {
  local q=$1 candidate=$2 baseline=$3 doc answer
  doc=$(find "$out/compare" -name 'comparison-*.json' 2>/dev/null | head -n1)
  if [ -z "$doc" ] || [ ! -s "$out/compare/comparison.md" ]; then fail "question $q: no job summary (comparison) written"; fi
  answer=$(jq -r --arg b "workload.$workload_name" --arg c "$candidate" --arg base "$baseline" '
    [.questions[] | select(.benchmark == $b and .metric == "job.total_ms"
      and (.subject | test($c)) and (.baseline | test($base)))][0]
    | if . == null then "none"
      elif (.outcome == "regression" or .outcome == "improvement" or .outcome == "equivalent")
        and (.change.low | type) == "number" and (.change.high | type) == "number"
        then "decided: \(.outcome), \(.change.value * 100 | round)% [\(.change.low * 100 | round)%, \(.change.high * 100 | round)%]"
      elif (.toDecide | test("a side: .* runner minutes")) then "open: \(.toDecide)"
      else "neither decided nor saying what would decide it: \(.outcome) \(.toDecide)" end' "$doc")
  echo "readme callers e2e: question $q: $candidate against $baseline on the job: $answer"
  [[ $answer == decided:* || $answer == open:* ]] || fail "question $q: the job's answer is $answer"
  # The summary as GitHub shows it: the cost per job first, then the answer table with the job's row.
  grep -q "^\*\*Cost per job:\*\* Your job (workload\.$workload_name, debian) costs " "$out/compare/comparison.md" \
    || fail "question $q: the job summary does not open with the cost of the job"
  grep -Eq '^\| job \| (regression|improvement|equivalent ±[0-9.]+%|inconclusive) \| [+-]' "$out/compare/comparison.md" \
    || fail "question $q: the job summary has no answer row for the job"
  # The outputs: seconds with an interval, dollars per 1,000 jobs at the price the caller's repository gave.
  local o=$out/compare/outputs.txt
  grep -Eq '^cost-seconds=-?[0-9.]+$' "$o" || fail "question $q: no cost-seconds output: $(cat "$o")"
  # The interval, where the answer is decided (an open answer may have too few samples for one).
  if [[ $answer == decided:* ]] && ! grep -Eq '^cost-interval=-?[0-9.]+,-?[0-9.]+$' "$o"; then
    fail "question $q: a decided answer without its interval in the outputs: $(cat "$o")"
  fi
  grep -Eq '^cost-per-1000-jobs=-?[0-9.]+$' "$o" || fail "question $q: no cost-per-1000-jobs output: $(cat "$o")"
  grep -Eq "^cost=Your${sp}job,${sp}workload\.$workload_name,${sp}debian,${sp}costs${sp}.*at${sp}USD${sp}0\.0032${sp}a${sp}minute${sp}of${sp}runner${sp}time" "$o" \
    || fail "question $q: the cost output is not the job's at the price given: $(grep '^cost=' "$o")"
}

for q in "${questions[@]}"; do
  run_caller "$q"
  if [ "$q" = 1 ]; then
    check_answer 1 '^dind' '^docker$'
    # The caller's cost job read the outputs (the price the caller wrote, to the second).
    grep -Eq "USD per 1,000 jobs: -?[0-9]+\.[0-9]{2}$" "$tmp/act.log" || fail "question 1: the caller's cost job did not read the outputs"
  else
    check_answer 2 '^dind@26\.1$' '^dind@20\.10$'
    verdict=$(sed -n 's/^verdict=//p' "$out/compare/outputs.txt")
    echo "readme callers e2e: question 2: verdict $verdict"
    case $verdict in
      equivalent|improvement) grep -Eq "$rollout_ran" "$tmp/act.log" || fail "question 2: verdict $verdict, but the rollout did not run" ;;
      regression|inconclusive) if grep -Eq "$rollout_ran" "$tmp/act.log"; then fail "question 2: the rollout ran on $verdict"; fi ;;
      *) fail "question 2: verdict ${verdict:-none} with exit 0" ;;
    esac
  fi
  leftover=$(owned)
  [ -z "$leftover" ] || fail "question $q's run left engine objects behind: $leftover"
  [ "$(image_state)" = "$images_before" ] || fail "question $q's run changed the workload's image names on the engine: $(image_state)"
  mv "$tmp/act.log" "$tmp/act-q$q.log"
done
echo "readme callers e2e: ok: questions ${questions[*]} answered for $workload_dir in $SECONDS s"
