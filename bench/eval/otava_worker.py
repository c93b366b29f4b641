# Apache Otava's change-point detection over the detection evaluation's run sequences (bench/eval/peers.js).
# Run by bench/eval/otava.js with the Python of a throwaway virtual env that has `apache-otava` installed;
# never imported by dind-bench itself.
#
# Otava (https://otava.apache.org, PyPI apache-otava; "otava analyze --help") finds change points with
# e-divisive means (Matteson and James) in sliding windows followed by a merge step that keeps the change
# points whose two-sided t-test p-value is under --p-value (Fleming et al., "Hunter: Using Change Point
# Detection to Hunt for Performance Regressions", ICPE 2023). `otava analyze` does this per metric with
# otava.analysis.compute_change_points(values, window_len, max_pvalue, min_magnitude) on the metric's
# values; this worker calls the same function with the CLI's defaults (--window 50, --p-value 0.001,
# --magnitude 0), and other p-values for the threshold sweep.
#
# Usage: python otava_worker.py IN.json OUT.json
# Input (IN.json): {"pvalues": [...], "window": 50, "magnitude": 0.0,
#                       "sequences": [{"values": [medians, oldest first], "first": 12, "sign": 1 | -1}]}
#   sign: +1 when a higher value is worse (times), -1 when lower is worse (throughput).
# Output (OUT.json): per sequence, per p-value, a list of 0/1: was the run at index first + j
#   (j = 0 .. len(values) - first - 1), judged as the newest, announced by a NEW change point in the worse
#   direction at an index >= first (one Otava had not reported when the previous run was the newest)?
import json
import sys

from otava.analysis import compute_change_points


def worse_points(values, pvalue, window, magnitude, first, sign):
    points, _ = compute_change_points(values, window_len=window, max_pvalue=pvalue, min_magnitude=magnitude)
    found = set()
    for cp in points:
        if cp.index < first:
            continue
        change = cp.stats.forward_rel_change()
        if sign * change > 0:
            found.add(cp.index)
    return found


def main():
    with open(sys.argv[1]) as f:
        job = json.load(f)
    window = int(job.get("window", 50))
    magnitude = float(job.get("magnitude", 0.0))
    out = []
    for seq in job["sequences"]:
        values = [float(v) for v in seq["values"]]
        first = int(seq["first"])
        sign = int(seq["sign"])
        per_p = []
        for p in job["pvalues"]:
            alarms = []
            before = set()
            for end in range(first + 1, len(values) + 1):
                now = worse_points(values[:end], p, window, magnitude, first, sign)
                alarms.append(1 if now - before else 0)
                before = now
            per_p.append(alarms)
        out.append(per_p)
    with open(sys.argv[2], "w") as f:
        json.dump(out, f)


if __name__ == "__main__":
    main()
