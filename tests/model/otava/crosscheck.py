#!/usr/bin/env python3
"""Cross-check of Plimsoll's change points against Apache Otava's, on the same series.

Run with the Python of the virtual environment install.sh creates (it imports otava):
    crosscheck.py TOOL WORKDIR [PVALUE]
TOOL is plimsoll_otava_series: it writes the synthetic series of Plimsoll's unit tests as CSV
files into WORKDIR (fixed seeds), and runs model/changepoints on a file. Otava's analysis
(otava.analysis.compute_change_points: E-divisive means, t-test, split then merge) runs here on
the very same values, with the same window and p-value (defaults 50 and 0.001). The check:
wherever Otava finds change points, Plimsoll finds the same ones, each within one index, and
no others; where Otava finds none, neither does Plimsoll. The split step's weak points must be
identical. Exit 0 when every series agrees, 1 otherwise.

The one known difference, and why Plimsoll keeps it. When Otava's merge step removes the
weakest point at list position i, it re-tests positions i and i + 1 (the right neighbour and
the point after it); the left neighbour i − 1 keeps a p-value computed against the segment
that was just merged away. Plimsoll re-tests i − 1 and i, the two points that border the grown
segment. Against apache-otava 0.8.0 this shows on two of the series (weak points identical):
  step-among-outliers (a step of 100 → 108, σ 1, with outliers at 20 and 75): weak points
    50 and 76. 76 goes (p 0.43); Otava leaves 50 with p 0.0044, its test against [50, 76),
    and drops it; re-tested against [50, 100) its p is 1.4e-5, so Plimsoll keeps the step
    the unit test expects.
  late-change-window-30 (flat at 20 for 150 points, then 25): weak 3, 28, 150. 28 goes;
    Otava keeps 3 with p 0.00041 from [0, 3) vs [3, 28); against [3, 150) its p is 0.014,
    so Plimsoll drops it: three points at the start of a flat series are no change.
Such a series passes only when Otava's own weak points, merged with the left neighbour
re-tested (merge_retesting_both_neighbours below), give Plimsoll's answer: the difference must
be that detail and nothing else.
"""

import csv
import importlib.metadata
import os
import subprocess
import sys

from otava.analysis import TTestSignificanceTester, compute_change_points, split


def read_values(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return [float(r[0]) for r in rows[1:]]


def plimsoll_points(tool, path, window, pvalue):
    out = subprocess.run([tool, "detect", path, str(window), repr(pvalue)],
                         check=True, capture_output=True, text=True).stdout
    lines = dict(line.split(" ", 1) if " " in line else (line, "") for line in out.splitlines())
    return ([int(i) for i in lines["strong"].split()], [int(i) for i in lines["weak"].split()])


def first_pass_pvalue(pvalue):
    # As otava.analysis.compute_change_points: the split step's looser threshold.
    return pvalue * 10 if pvalue < 0.05 else (pvalue * 2 if pvalue < 0.5 else pvalue)


def otava_points(values, window, pvalue):
    """Otava's published analysis: (strong, weak) change-point indexes."""
    # A Python list, as Otava's own Series.analyze() passes: the split step slices it per
    # window (a numpy array would not be sliced by ChangePointDetector.get_change_points).
    strong, _ = compute_change_points(list(values), window_len=window, max_pvalue=pvalue)
    # compute_change_points returns as "weak" the very list its merge step deleted from, so
    # the weak points are taken from the split step directly.
    weak = split(list(values), window, first_pass_pvalue(pvalue))
    return [int(c.index) for c in strong], weak


def merge_retesting_both_neighbours(change_points, series, max_pvalue, min_magnitude=0.0):
    """otava.analysis.merge with one line changed: after removing the weakest point at list
    position i, Otava re-tests positions i and i + 1 — the right neighbour and the point after
    it — and leaves the LEFT neighbour (i − 1) with statistics computed against a segment that
    no longer exists. The segment that grew borders i − 1 and i, so those two are re-tested
    here, which is what Plimsoll does (model/trends/changepoints.cpp, detectChangePoints)."""
    tester = TTestSignificanceTester(max_pvalue)
    change_points = list(change_points)
    while change_points:
        weakest = max(change_points, key=lambda c: c.stats.pvalue)
        if weakest.stats.pvalue < max_pvalue:
            weakest = min(change_points, key=lambda c: c.stats.change_magnitude())
            if weakest.stats.change_magnitude() > min_magnitude:
                return change_points
        i = change_points.index(weakest)
        del change_points[i]
        intervals = tester.get_intervals(change_points)
        for k in (i - 1, i):  # Otava: (i, i + 1)
            if 0 <= k < len(change_points):
                change_points[k] = tester.change_point(change_points[k].to_candidate(), series,
                                                       intervals)
    return change_points


def within_one(a, b):
    """Every point of a has one of b within one index, and vice versa."""
    return all(any(abs(x - y) <= 1 for y in b) for x in a) and \
        all(any(abs(x - y) <= 1 for x in a) for y in b)


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    tool, workdir = sys.argv[1], sys.argv[2]
    pvalue = float(sys.argv[3]) if len(sys.argv) == 4 else 0.001
    os.makedirs(workdir, exist_ok=True)
    subprocess.run([tool, "generate", workdir], check=True)
    print(f"apache-otava {importlib.metadata.version('apache-otava')}, p = {pvalue}")

    with open(os.path.join(workdir, "manifest.csv"), newline="") as f:
        manifest = list(csv.DictReader(f))
    if not manifest:
        print(f"FAILED: {tool} generated no series", file=sys.stderr)
        return 1
    failures, explained = [], []
    for entry in manifest:
        name, window = entry["name"], int(entry["window"])
        path = os.path.join(workdir, name + ".csv")
        values = read_values(path)
        o_strong, o_weak_cps = otava_points(values, window, pvalue)
        o_weak = [int(c.index) for c in o_weak_cps]
        o_retested = [int(c.index) for c in
                      merge_retesting_both_neighbours(o_weak_cps, list(values), pvalue)]
        p_strong, p_weak = plimsoll_points(tool, path, window, pvalue)
        if o_strong == p_strong:
            verdict = "exact"
        elif within_one(o_strong, p_strong):
            verdict = "within one"
        elif within_one(o_retested, p_strong) and not within_one(o_retested, o_strong):
            # Otava's own points, merged with the left neighbour re-tested, are Plimsoll's:
            # the disagreement is that one merge detail and nothing else.
            verdict = f"differs by the merge detail only (Otava re-testing both: {o_retested})"
            explained.append(name)
        else:
            verdict = "DISAGREE"
            failures.append(name)
        print(f"{name:24} n={len(values):3} w={window}  otava={o_strong}  plimsoll={p_strong}"
              f"  expected=[{entry['expected']}]  {verdict}")
        # The split step has no such detail: its weak points must be the same, exactly.
        if o_weak != p_weak:
            print(f"{'':24} weak points differ: otava={o_weak} plimsoll={p_weak}")
            failures.append(name + " (weak)")
    if explained:
        print(f"explained by Otava's merge re-testing the right neighbours only: {', '.join(explained)}")
    if failures:
        print(f"FAILED: Plimsoll and Otava disagree on {', '.join(failures)}", file=sys.stderr)
        return 1
    print(f"all {len(manifest)} series agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
