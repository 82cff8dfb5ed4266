#!/usr/bin/env python3
"""Table of swstress against the OSU micro-benchmarks from the folder osu.sh fills.

OSU prints one figure per size per run: osu_latency the mean one-way latency
(half a round trip, µs), osu_bw and osu_bibw MB/s (10^6 bytes/s; bibw counts
both directions), osu_mbw_mr the aggregate MB/s of all pairs. swstress's
figure of a run is from its summary.csv: lat_median_us (pingpong),
bw_median_MBps (stream, bidir: bidir counts both directions) and
agg_median_MBps (4 pairs). Each cell is the median over repetitions; "best"
is the best repetition of each tool (which noise from other jobs cannot
improve; on a host that switches between speeds from run to run, the
fairer comparison); ratio = swstress / OSU. Targets (8 B..4 MiB): latency ratio <= 1.05,
bandwidth ratios >= 0.95.
"""
import csv, glob, os, re, statistics, sys

d = sys.argv[1]
TESTS = [  # test, swstress column, unit, lower is better
    ("latency", "lat_median_us", "µs", True),
    ("bw", "bw_median_MBps", "MB/s", False),
    ("bibw", "bw_median_MBps", "MB/s", False),
    ("mbw_mr", "agg_median_MBps", "MB/s", False),
]
LOW, HIGH = 8, 4 << 20


def osu_data(test):
    """{size: [figure per repetition]}; mbw_mr runs one file per size."""
    per = {}
    for f in glob.glob(os.path.join(d, "osu-%s-*.txt" % test)):
        rep = {}
        for line in open(f, errors="replace"):
            p = line.split()
            if len(p) >= 2 and re.fullmatch(r"\d+", p[0]) and re.fullmatch(r"[0-9.]+", p[1]):
                rep[int(p[0])] = float(p[1])
        for s, v in rep.items():
            per.setdefault(s, []).append(v)
    return per


def sw_data(test, col):
    per = {}
    for f in glob.glob(os.path.join(d, "sw-%s-*" % test, "*", "summary.csv")):
        for r in csv.DictReader(l for l in open(f) if not l.startswith("#")):
            per.setdefault(int(r["size_bytes"]), []).append(float(r[col]))
    return per


def size_name(b):
    for unit, n in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= n and b % n == 0:
            return "%d %s" % (b // n, unit)
    return "%d B" % b


info = open(os.path.join(d, "info.txt")).read() if os.path.exists(os.path.join(d, "info.txt")) else ""
print("```\n" + info.strip() + "\n```\n")
verdicts = []
for test, col, unit, lower in TESTS:
    od, sd = osu_data(test), sw_data(test, col)
    sizes = sorted(set(od) & set(sd))
    if not sizes:
        continue
    best = min if lower else max
    print("%s (%s; ratio = swstress / OSU, target %s)\n" % (test, unit, "<= 1.05" if lower else ">= 0.95"))
    print("| size | OSU median | swstress median | ratio | OSU best | swstress best | best ratio | reps OSU/sw |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    fails, checked, ratios, bfails, bratios = [], 0, [], [], []
    for s in sizes:
        om, sm = statistics.median(od[s]), statistics.median(sd[s])
        ob, sb = best(od[s]), best(sd[s])
        r = sm / om if om > 0 else float("nan")
        rb = sb / ob if ob > 0 else float("nan")
        print("| %s | %.4g | %.4g | %.2f | %.4g | %.4g | %.2f | %d/%d |" % (
            size_name(s), om, sm, r, ob, sb, rb, len(od[s]), len(sd[s])))
        if LOW <= s <= HIGH:
            checked += 1
            ratios.append(r)
            bratios.append(rb)
            for x, out in ((r, fails), (rb, bfails)):
                if (x > 1.05) if lower else (x < 0.95):
                    out.append("%s %.2f" % (size_name(s), x))
    print()
    for how, rs, fs in (("medians", ratios, fails), ("best against best", bratios, bfails)):
        verdicts.append("%s: %d of %d sizes (8 B..4 MiB) meet the target on %s, ratio %.2f..%.2f%s" % (
            test, checked - len(fs), checked, how, min(rs), max(rs),
            ("; missed at " + ", ".join(fs)) if fs else ""))
loads = [l.split() for l in open(os.path.join(d, "load.txt"))] if os.path.exists(os.path.join(d, "load.txt")) else []
if loads:
    xs = [float(x) for l in loads for x in l[3:5]]
    verdicts.append("load average (1 min) around the runs: %.2f..%.2f, median %.2f" % (
        min(xs), max(xs), statistics.median(xs)))
for v in verdicts:
    print("- " + v)
