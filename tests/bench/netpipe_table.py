#!/usr/bin/env python3
"""Table of swstress against NetPIPE from the folder netpipe.sh fills.

NetPIPE 3.7 writes "bytes Mbps t" per size, where t is the time of one
message (half a round trip in ping-pong; one message in -s; one message
each way in -2), Mbps = bits * (1 + bidir) / t / 2^20 and, with -2, bytes
is twice the message size. MB/s (10^6 bytes/s) = Mbps * 2^20 / 8 / 10^6.
NetPIPE keeps the best of 3 trials; swstress gives the median of its
samples (3 per run by default, SW_REPS), and its best sample (lat_min_us,
bw_max_MBps) is shown as well; the paired ratios set swstress's best of 3
against NetPIPE's best of 3.
Each figure is the median over repetitions ("best" columns: the best
over repetitions, which noise from other jobs cannot improve); "paired" is
the median over repetitions of swstress / NetPIPE for the same size and
repetition (one size per run, the two runs next to each other in time: the
fairest comparison on a host whose speed changes every few seconds). Runs
of every size at once (earlier versions of netpipe.sh) give no pairs.
"""
import csv, glob, os, re, statistics, sys

d = sys.argv[1]
MODES = ["pingpong", "stream", "bidir"]
rows_out = []


def med(xs):
    return statistics.median(xs) if xs else float("nan")


def run_key(path, tool, mode):
    """(repetition, size or None) from a run's name TOOL-MODE-REP[-SIZE]."""
    m = re.match(r"%s-%s-(\d+)(?:-(\d+))?(?:\.out)?$" % (tool, mode), os.path.basename(path))
    return (int(m.group(1)), m.group(2)) if m else None


def np_data(mode):
    """{size: {run key: (lat us, MB/s)}}"""
    per = {}
    for f in glob.glob(os.path.join(d, "np-%s-*.out" % mode)):
        k = run_key(f, "np", mode)
        for line in open(f):
            p = line.split()
            if k and len(p) >= 3:
                b = int(p[0]) // (2 if mode == "bidir" else 1)
                per.setdefault(b, {})[k] = (float(p[2]) * 1e6, float(p[1]) * 2**20 / 8 / 1e6)
    return per


def sw_data(mode):
    """{size: {run key: (lat us, MB/s, best lat us, best MB/s)}}"""
    per = {}
    for f in glob.glob(os.path.join(d, "sw-%s-*" % mode, "*", "summary.csv")):
        k = run_key(os.path.dirname(os.path.dirname(f)), "sw", mode)
        rows = csv.DictReader(l for l in open(f) if not l.startswith("#"))
        for r in rows:
            if k:
                per.setdefault(int(r["size_bytes"]), {})[k] = (
                    float(r["lat_median_us"]), float(r["bw_median_MBps"]), float(r["lat_min_us"]),
                    float(r["bw_max_MBps"]))
    return per


print("| mode | size B | NetPIPE lat us | swstress lat us | lat ratio | NetPIPE MB/s | swstress MB/s | bw ratio | best lat NP / sw us | best bw NP / sw MB/s | paired lat / bw ratio | reps |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
verdict = []
for mode in MODES:
    npd, swd = np_data(mode), sw_data(mode)
    for size in sorted(set(npd) & set(swd)):
        n, w = list(npd[size].values()), list(swd[size].values())
        nl, nb = med([x[0] for x in n]), med([x[1] for x in n])
        sl, sb = med([x[0] for x in w]), med([x[1] for x in w])
        bnl, bnb = min(x[0] for x in n), max(x[1] for x in n)
        bsl, bsb = min(x[2] for x in w), max(x[3] for x in w)
        lr, br = sl / nl, sb / nb
        keys = [k for k in npd[size] if k in swd[size] and k[1] is not None]
        pl = med([swd[size][k][2] / npd[size][k][0] for k in keys])
        pb = med([swd[size][k][3] / npd[size][k][1] for k in keys])
        print("| %s | %d | %.3f | %.3f | %.2f | %.1f | %.1f | %.2f | %.3f / %.3f | %.0f / %.0f | %.2f / %.2f | %d/%d |" % (
            mode, size, nl, sl, lr, nb, sb, br, bnl, bsl, bnb, bsb, pl, pb, len(n), len(w)))
        for how, l, b in (("medians", lr, br), ("paired", pl, pb)):
            if mode == "pingpong" and size == 8:
                verdict.append("pingpong 8 B latency ratio (%s) %.2f (target <= 1.05): %s" % (how, l, "PASS" if l <= 1.05 else "FAIL"))
            if size in (1 << 20, 4 << 20):
                verdict.append("%s %d B bandwidth ratio (%s) %.2f (target >= 0.95): %s" % (mode, size, how, b, "PASS" if b >= 0.95 else "FAIL"))
print()
for v in verdict:
    print("- " + v)
