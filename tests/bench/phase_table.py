#!/usr/bin/env python3
"""Table of phase.sh: osu_bibw and swstress's timed bidir against the FIFO
phase (FIFO_SHIFT one-byte messages swapped after MPI_Init).

osu_bibw prints MB/s of both directions; swstress's summary.csv has
bw_median_MBps of both directions too. Each is turned into million
messages a second a way (MB/s / size / 2). Per shift: the median over
repetitions. Over the shifts: the lowest, the median and the highest of
those medians, each over osu_bibw's at shift 0.
"""
import csv, glob, os, re, statistics, sys

d = sys.argv[1]
fig = lambda x: f"{x:.2f}" if x else "-"
rate = {}   # (tool, size, shift) -> [M msg/s a way]
for path in glob.glob(os.path.join(d, "osu-*-*-*.txt")):
    m = re.match(r"osu-(\d+)-(\d+)-(\d+)\.txt$", os.path.basename(path))
    size, shift = int(m.group(1)), int(m.group(2))
    for line in open(path):
        f = line.split()
        if len(f) >= 2 and f[0] == str(size):
            rate.setdefault(("osu", size, shift), []).append(float(f[1]) / size / 2)
for path in glob.glob(os.path.join(d, "sw-*-*-*", "*", "summary.csv")):
    m = re.match(r"sw-(\d+)-(\d+)-(\d+)$", os.path.basename(os.path.dirname(os.path.dirname(path))))
    size, shift = int(m.group(1)), int(m.group(2))
    for row in csv.DictReader(line for line in open(path) if not line.startswith("#")):
        if row["cell"] == "0" and row["bw_median_MBps"] not in ("", "nan"):
            rate.setdefault(("sw", size, shift), []).append(float(row["bw_median_MBps"]) / size / 2)

print(open(os.path.join(d, "info.txt")).read().strip().replace("\n", "; "))
for size in sorted({k[1] for k in rate}):
    shifts = sorted({k[2] for k in rate if k[1] == size})
    med = {(t, k): statistics.median(rate[(t, size, k)]) for t in ("osu", "sw") for k in shifts
           if (t, size, k) in rate}
    print(f"\n### bidir {size} B: million messages a second a way\n")
    print("| FIFO_SHIFT | osu_bibw | swstress | swstress / osu_bibw |")
    print("|---:|---:|---:|---:|")
    for k in shifts:
        o, s = med.get(("osu", k)), med.get(("sw", k))
        print(f"| {k} | {fig(o)} | {fig(s)} | {fig(s / o) if o and s else '-'} |")
    base = med.get(("osu", 0))
    if not base:
        print("\n(no osu_bibw figure at shift 0)")
        continue
    print("\n| over the shifts, / osu_bibw at shift 0 | lowest | median | highest |")
    print("|---|---:|---:|---:|")
    for t, name in (("osu", "osu_bibw"), ("sw", "swstress")):
        v = [med[(t, k)] / base for k in shifts if (t, k) in med]
        if v:
            print(f"| {name} | {min(v):.2f} | {statistics.median(v):.2f} | {max(v):.2f} |")
