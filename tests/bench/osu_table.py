#!/usr/bin/env python3
"""Table of swstress against the OSU micro-benchmarks from the folder osu.sh fills.

OSU prints one figure per size per run: osu_latency the mean one-way latency
(half a round trip, µs), osu_bw and osu_bibw MB/s (10^6 bytes/s; bibw counts
both directions), osu_mbw_mr the aggregate MB/s of all pairs. swstress's
figure of a run is from its summary.csv: lat_median_us (pingpong),
bw_median_MBps (stream, bidir: bidir counts both directions) and
agg_median_MBps (4 pairs). Each cell is the median over repetitions; "best"
is the best repetition of each tool (which noise from other jobs cannot
improve); "paired ratio" is the median over repetitions of swstress's
figure over OSU's run of the same size and repetition, next to it in time
(on a host that switches speeds every few seconds, the fairest of the
three), with a distribution-free 95% interval (order statistics of the
paired ratios, binomial). ratio = swstress / OSU. Targets (8 B..4 MiB):
latency ratio <= 1.05, bandwidth ratios >= 0.95. A paired ratio that misses
is "short" when its interval lies wholly on the wrong side of the target,
else "within noise" (more repetitions would tell).
"""
import csv, glob, math, os, re, statistics, sys

d = sys.argv[1]
TESTS = [  # test, swstress column, unit, lower is better
    ("latency", "lat_median_us", "µs", True),
    ("bw", "bw_median_MBps", "MB/s", False),
    ("bibw", "bw_median_MBps", "MB/s", False),
    ("mbw_mr", "agg_median_MBps", "MB/s", False),
    ("mbw_mr2", "agg_median_MBps", "MB/s", False),   # ranks_per_node = 2: one pair of nodes
]
LOW, HIGH = 8, 4 << 20


def rep_of(path, tool, test):
    """The repetition in a run's name: TOOL-TEST-REP[-SIZE] (one size per
    run, or every size in one run as earlier versions of osu.sh did)."""
    m = re.match(r"%s-%s-(\d+)(-\d+)?(\.txt)?$" % (tool, test), os.path.basename(path))
    return int(m.group(1)) if m else None


def osu_data(test):
    """{size: {repetition: figure}}."""
    per = {}
    for f in glob.glob(os.path.join(d, "osu-%s-*.txt" % test)):
        rep = rep_of(f, "osu", test)
        for line in open(f, errors="replace"):
            p = line.split()
            if rep is not None and len(p) >= 2 and re.fullmatch(r"\d+", p[0]) and re.fullmatch(r"[0-9.]+", p[1]):
                per.setdefault(int(p[0]), {})[rep] = float(p[1])
    return per


def sw_data(test, col):
    per = {}
    for f in glob.glob(os.path.join(d, "sw-%s-*" % test, "*", "summary.csv")):
        rep = rep_of(os.path.dirname(os.path.dirname(f)), "sw", test)
        for r in csv.DictReader(l for l in open(f) if not l.startswith("#")):
            if rep is not None:
                per.setdefault(int(r["size_bytes"]), {})[rep] = float(r[col])
    return per


def median_ci(xs, level=0.95):
    """The median of xs and a distribution-free interval for it: the k-th
    smallest and k-th largest, k the largest with P(Binomial(n, 1/2) < k)
    <= (1 - level) / 2 (coverage >= level); (nan, nan) when n < 6."""
    xs, n = sorted(xs), len(xs)
    k, tail = 0, 0.0
    while k < n and tail + math.comb(n, k) / 2.0 ** n <= (1 - level) / 2:
        tail += math.comb(n, k) / 2.0 ** n
        k += 1
    if k == 0:
        return statistics.median(xs), float("nan"), float("nan")
    return statistics.median(xs), xs[k - 1], xs[n - k]


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
    print("| size | OSU median | swstress median | ratio | OSU best | swstress best | best ratio | paired ratio [95% CI] | reps OSU/sw |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    checked, kinds = 0, {"medians": ([], []), "best against best": ([], []), "paired ratios": ([], [])}
    for s in sizes:
        o, w = list(od[s].values()), list(sd[s].values())
        om, sm, ob, sb = statistics.median(o), statistics.median(w), best(o), best(w)
        r = sm / om if om > 0 else float("nan")
        rb = sb / ob if ob > 0 else float("nan")
        pairs = [sd[s][k] / od[s][k] for k in od[s] if k in sd[s] and od[s][k] > 0]
        rp, lo, hi = median_ci(pairs) if pairs else (float("nan"),) * 3
        print("| %s | %.4g | %.4g | %.2f | %.4g | %.4g | %.2f | %.2f [%.2f, %.2f] | %d/%d |" % (
            size_name(s), om, sm, r, ob, sb, rb, rp, lo, hi, len(o), len(w)))
        if LOW <= s <= HIGH:
            checked += 1
            for i, (x, (rs, fs)) in enumerate(zip((r, rb, rp), kinds.values())):
                rs.append(x)
                if (x > 1.05) if lower else (x < 0.95):
                    note = ""
                    if i == 2:   # paired
                        short = (lo > 1.05) if lower else (hi < 0.95)
                        note = " (CI %.2f..%.2f: %s)" % (lo, hi, "short" if short else "within noise")
                    fs.append("%s %.2f%s" % (size_name(s), x, note))
    print()
    for how, (rs, fs) in kinds.items():
        verdicts.append("%s: %d of %d sizes (8 B..4 MiB) meet the target on %s, ratio %.2f..%.2f%s" % (
            test, checked - len(fs), checked, how, min(rs), max(rs),
            ("; missed at " + ", ".join(fs)) if fs else ""))
if set(osu_data("bibw")) & {8, 16}:
    verdicts.append("bibw at 8-16 B on shared memory: osu_bibw's own figure moves by a factor of about 2 with the "
                    "phase of UCX's FIFO when it starts; tests/bench/phase.sh sets both tools against it")
loads = [l.split() for l in open(os.path.join(d, "load.txt"))] if os.path.exists(os.path.join(d, "load.txt")) else []
if loads:
    xs = [float(x) for l in loads for x in l[3:5]]
    verdicts.append("load average (1 min) around the runs: %.2f..%.2f, median %.2f" % (
        min(xs), max(xs), statistics.median(xs)))
for v in verdicts:
    print("- " + v)
