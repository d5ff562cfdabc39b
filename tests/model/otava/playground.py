"""Scores Plimsoll's series analysis and Apache Otava on Otava's own playground suite.

The suite is generated here by the generator Otava's project publishes (PyPI otava-test-data,
pinned in install.sh): 110 series of 50 and 500 points — constant, noise, steps, several
steps, a regression fixed ten points later, single outliers, variance changes, banding, phase
changes, and pairs of these added together — each with its labelled change indices.

A found index within 5 points of an unmatched label is a true positive, any other a false
positive, each unmatched label a false negative. Plimsoll's findings are every index
`plimsoll_otava_series analyze` marks (outliers, confident level changes, variance changes,
drift starts); Otava's are its change points with its defaults (window 50, p 0.001).

The table of precision, recall and F1 per pattern is printed for both, and Plimsoll's figures
are held to floors a little below what the analysis reached: overall F1 well above Otava's,
outliers, variance changes and short regressions found, and no confident change among the
last points of a series (the minimum segment).

    playground.py ANALYZE_TOOL WORK_DIR
"""

import collections
import csv
import json
import os
import shutil
import subprocess
import sys

from otava.analysis import compute_change_points

TOLERANCE = 5
MIN_SEGMENT = 5  # SeriesAnalysisOptions::minSegment

# Floors: (pattern, measure) -> least value. Raise them as the analysis improves.
FLOORS = {
    ("all", "f1"): 0.80,
    ("all", "precision"): 0.82,
    ("outlier", "recall"): 0.75,
    ("variance_change", "recall"): 0.25,
    ("regression_fix", "recall"): 0.95,
    ("multiple_changes", "recall"): 0.90,
    ("step_function", "f1"): 1.0,
    ("noise_normal", "precision"): 1.0,
    ("constant", "precision"): 1.0,
    ("banding", "precision"): 1.0,
}
# Otava's figure the overall F1 must beat by this much.
MARGIN_OVER_OTAVA = 0.07


def values(path):
    with open(path, newline="") as f:
        return [float(row["value"]) for row in csv.DictReader(f)]


def score(truth, found):
    truth = sorted(set(truth))
    matched = set()
    tp = 0
    for x in sorted(set(found)):
        for g in truth:
            if g not in matched and abs(x - g) <= TOLERANCE:
                matched.add(g)
                tp += 1
                break
    return tp, len(set(found)) - tp, len(truth) - len(matched)


def measures(t):
    tp, fp, fn = t
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    return {"precision": p, "recall": r, "f1": 2 * p * r / (p + r) if p + r else 0.0}


def main():
    if len(sys.argv) != 3:
        print("usage: playground.py ANALYZE_TOOL WORK_DIR", file=sys.stderr)
        return 2
    tool, work = sys.argv[1], sys.argv[2]
    suite = os.path.join(work, "suite")
    shutil.rmtree(suite, ignore_errors=True)
    gen = os.path.join(os.path.dirname(sys.executable), "otava-gen")
    subprocess.run([gen, "generate", "--output-dir", suite, "--lengths", "50", "500", "--seed", "42"],
                   check=True, stdout=subprocess.DEVNULL)
    with open(os.path.join(suite, "manifest.json")) as f:
        manifest = json.load(f)

    totals = {"otava": [0, 0, 0], "plimsoll": [0, 0, 0]}
    per = collections.defaultdict(lambda: {"otava": [0, 0, 0], "plimsoll": [0, 0, 0]})
    failures = []
    for entry in manifest:
        path = os.path.join(suite, entry["filename"])
        series = values(path)
        cps, _ = compute_change_points(series, window_len=50, max_pvalue=0.001)
        out = subprocess.run([tool, "analyze", path], capture_output=True, text=True)
        if out.returncode != 0:
            failures.append(f"{entry['filename']}: analyze exited {out.returncode}: {out.stderr.strip()}")
            continue
        found = {"otava": [int(c.index) for c in cps], "plimsoll": [int(x) for x in out.stdout.split()]}
        pattern = entry["generator"].split("(")[0].replace("+noise_normal", "")
        for who, indexes in found.items():
            s = score(entry["change_point_indices"], indexes)
            for i in range(3):
                totals[who][i] += s[i]
                per[pattern][who][i] += s[i]
        late = [i for i in found["plimsoll"] if i > len(series) - MIN_SEGMENT]
        if late:
            failures.append(f"{entry['filename']}: confident finding(s) {late} among the last "
                            f"{MIN_SEGMENT} of {len(series)} points")

    print(f"{'pattern':18s} {'':8s} {'P':>5s} {'R':>5s} {'F1':>5s}   tp  fp  fn")
    rows = sorted(per.items()) + [("all", totals)]
    for pattern, by in rows:
        for who in ("plimsoll", "otava"):
            m = measures(by[who])
            print(f"{pattern if who == 'plimsoll' else '':18s} {who:8s} {m['precision']:5.2f} {m['recall']:5.2f} "
                  f"{m['f1']:5.2f}  {by[who][0]:3d} {by[who][1]:3d} {by[who][2]:3d}")

    for (pattern, measure), floor in FLOORS.items():
        got = measures(totals["plimsoll"] if pattern == "all" else per[pattern]["plimsoll"])[measure]
        if got < floor:
            failures.append(f"{pattern}: {measure} {got:.3f} is below its floor {floor}")
    plimsoll_f1 = measures(totals["plimsoll"])["f1"]
    otava_f1 = measures(totals["otava"])["f1"]
    if plimsoll_f1 < otava_f1 + MARGIN_OVER_OTAVA:
        failures.append(f"overall F1 {plimsoll_f1:.3f} is not {MARGIN_OVER_OTAVA} above Otava's {otava_f1:.3f}")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
