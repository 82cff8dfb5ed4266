#!/usr/bin/env python3
"""Generate tests/data/fixture-run/: a small synthetic swstress results folder.

8 nodes (node01..node08), adjacent pairing, levels 1, 2, 4 pairs, patterns
pingpong and stream, sizes 8 B..1 MiB, 1000 hops, 10 repetitions. Latency
~ 1.2 us + size / 10 GB/s, growing with load; per-pair bandwidth ~20 % lower
at 4 pairs; pair 2 (node05-node06) ~40 % worse. A few CI fields are NaN on
purpose (the chart scripts must cope). Columns follow include/results.h.

Deterministic (seeded); rerun with: python3 tests/data/make_fixture.py
"""
import json, math, os, random, statistics

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixture-run")
NAME = "switch-A-20260314-093000"
STARTED = "2026-03-14T09:30:00Z"
HEAD = "# swstress 0.1.0, run %s, started %s, MB/s = 10^6 bytes/s\n" % (NAME, STARTED)
HOSTS = ["node%02d" % (i + 1) for i in range(8)]
PAIRS = [(0, 1), (2, 3), (4, 5), (6, 7)]
LEVELS = [1, 2, 4]
PATTERNS = ["pingpong", "stream"]
SIZES = [8, 1024, 65536, 1048576]
HOPS = 1000
REPS = 10
BAD_PAIR = 2
ALPHA, MIN_EFFECT, CONF = 0.05, 2.0, 0.95
NAN = float("nan")
rng = random.Random(20260314)

SAMPLE_COLS = "level,nodes,pairs,pattern,size_bytes,hops,rep,pair,rank_a,rank_b,host_a,host_b,t_start_s,t_end_s,seconds,latency_us,bandwidth_MBps"
SUMMARY_COLS = ("cell,level,nodes,pairs,pattern,size_bytes,hops,reps,n,stop,overlap,"
    "lat_median_us,lat_lo_us,lat_hi_us,lat_mean_us,lat_mean_lo_us,lat_mean_hi_us,lat_sd_us,lat_min_us,lat_max_us,lat_p1_us,lat_p99_us,"
    "bw_median_MBps,bw_lo_MBps,bw_hi_MBps,bw_mean_MBps,bw_min_MBps,bw_max_MBps,"
    "agg_median_MBps,agg_lo_MBps,agg_hi_MBps,ideal_agg_MBps,"
    "lat_infl_pct,lat_infl_lo,lat_infl_hi,lat_infl_p,lat_infl_sig,"
    "bw_drop_pct,bw_drop_lo,bw_drop_hi,bw_drop_p,bw_drop_sig")
PAIRS_COLS = "cell,level,nodes,pairs,pattern,size_bytes,hops,pair,rank_a,rank_b,host_a,host_b,lat_median_us,bw_median_MBps,lat_rel,bw_rel,z,flagged"
FITS_COLS = "level,nodes,pairs,pattern,size_lo,size_hi,npoints,alpha_us,beta_MBps,n_half_bytes,r2"


def load_factor(pairs):
    """How much slower a pair is when `pairs` pairs share the switch."""
    return {1: 1.0, 2: 1.07, 4: 1.25}[pairs]


def true_latency_us(pattern, size, pairs, pair):
    if pattern == "pingpong":
        t = 1.2 + size / 10000.0          # 10 GB/s = 10000 bytes/us
    else:                                  # stream: pipelined, less per-message cost
        t = 0.35 + size / 10000.0
    t *= load_factor(pairs)
    if pair == BAD_PAIR:
        t *= 1.0 / 0.6                     # 40 % less bandwidth
    return t


def fmt(x):
    if isinstance(x, str):
        return x
    if isinstance(x, bool):
        return "1" if x else "0"
    if isinstance(x, int):
        return str(x)
    if math.isnan(x):
        return "NaN"
    return "%.6g" % x


def write_csv(path, head, cols, rows):
    """A results CSV file: the comment line, the header, the rows."""
    with open(path, "w") as f:
        f.write(head)
        f.write(cols + "\n")
        for r in rows:
            f.write(",".join(fmt(x) for x in r) + "\n")


def quantile(xs, q):
    s = sorted(xs)
    pos = q * (len(s) - 1)
    lo = int(math.floor(pos))
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def median_ci(xs):
    """Nonparametric CI of the median from binomial order statistics."""
    s = sorted(xs)
    n = len(s)
    z = 1.959964
    j = max(0, int(math.floor(n / 2 - z * math.sqrt(n) / 2)))
    k = min(n - 1, int(math.ceil(n / 2 + z * math.sqrt(n) / 2)) - 1)
    return s[j], s[k]


def boot_change(base, xs, kind):
    """Bootstrap CI of the change in medians, percent."""
    vals = []
    for _ in range(400):
        b = statistics.median(rng.choice(base) for _ in base)
        x = statistics.median(rng.choice(xs) for _ in xs)
        vals.append((x / b - 1) * 100 if kind == "lat" else (1 - x / b) * 100)
    return quantile(vals, 0.025), quantile(vals, 0.975)


def mann_whitney_p(a, b):
    n1, n2 = len(a), len(b)
    u = sum((x > y) + 0.5 * (x == y) for x in a for y in b)
    mu, sd = n1 * n2 / 2, math.sqrt(n1 * n2 * (n1 + n2 + 1) / 12)
    z = abs(u - mu) / sd
    return math.erfc(z / math.sqrt(2))


def main():
    os.makedirs(OUT, exist_ok=True)
    samples, summary, pairs_rows, fits = [], [], [], []
    cells_json = []
    cell = 0
    base = {}            # (pattern, size) -> (lat list, bw list, bw median)
    t = 0.0
    lat_table = {}       # (level, pattern) -> [(size, median latency)]
    for li, k in enumerate(LEVELS):
        for pat in PATTERNS:
            for size in SIZES:
                lat, bw, per_pair, agg = [], [], {p: [] for p in range(k)}, []
                t_cell = t
                for rep in range(REPS):
                    rep_bw = 0.0
                    t0 = t
                    for p in range(k):
                        ra, rb = PAIRS[p]
                        l = true_latency_us(pat, size, k, p) * math.exp(rng.gauss(0, 0.02))
                        secs = l * HOPS / 1e6
                        b = size / l           # bytes/us = MB/s
                        start = t0 + rng.uniform(0, 2e-5)
                        samples.append([li, 2 * k, k, pat, size, HOPS, rep, p, ra, rb,
                                        HOSTS[ra], HOSTS[rb], start, start + secs, secs, l, b])
                        lat.append(l)
                        bw.append(b)
                        per_pair[p].append((l, b))
                        rep_bw += b
                        t = max(t, start + secs)
                    agg.append(rep_bw)
                    t += 1e-4
                lat_lo, lat_hi = median_ci(lat)
                bw_lo, bw_hi = median_ci(bw)
                agg_lo, agg_hi = median_ci(agg)
                mean = statistics.fmean(lat)
                sd = statistics.stdev(lat)
                half = 2.262 * sd / math.sqrt(len(lat))
                bw_med = statistics.median(bw)
                if li == 0:
                    base[(pat, size)] = (lat, bw, bw_med)
                blat, bbw, bbw_med = base[(pat, size)]
                if li == 0:
                    infl = [NAN] * 4 + [0]
                    drop = [NAN] * 4 + [0]
                else:
                    pct = (statistics.median(lat) / statistics.median(blat) - 1) * 100
                    lo, hi = boot_change(blat, lat, "lat")
                    p = mann_whitney_p(blat, lat)
                    infl = [pct, lo, hi, p, int(p < ALPHA and abs(pct) > MIN_EFFECT)]
                    pct = (1 - bw_med / bbw_med) * 100
                    lo, hi = boot_change(bbw, bw, "bw")
                    p = mann_whitney_p(bbw, bw)
                    drop = [pct, lo, hi, p, int(p < ALPHA and abs(pct) > MIN_EFFECT)]
                # Missing CIs on purpose: too few samples / bootstrap failed.
                if li == 0 and pat == "pingpong" and size == 1048576:
                    lat_lo = lat_hi = NAN
                if li == 1 and pat == "stream" and size == 8:
                    drop[1] = drop[2] = NAN
                overlap = 1.0 if k == 1 else 0.97 - 0.01 * k
                summary.append([cell, li, 2 * k, k, pat, size, HOPS, REPS, len(lat), "fixed", overlap,
                                statistics.median(lat), lat_lo, lat_hi, mean, mean - half, mean + half, sd,
                                min(lat), max(lat), quantile(lat, 0.01), quantile(lat, 0.99),
                                bw_med, bw_lo, bw_hi, statistics.fmean(bw), min(bw), max(bw),
                                statistics.median(agg), agg_lo, agg_hi, bbw_med * k] + infl + drop)
                cells_json.append({"cell": cell, "level": li, "nodes": 2 * k, "pairs": k,
                                   "pattern": pat, "size_bytes": size, "hops": HOPS, "reps": REPS,
                                   "stop": "fixed", "wall_s": round(t - t_cell + 0.01, 6),
                                   "timed_s": round(t - t_cell, 6)})
                lat_table.setdefault((li, pat), []).append((size, statistics.median(lat)))
                # Pairs against the cell.
                cmed_l = statistics.median(lat)
                meds = [statistics.median(x[0] for x in per_pair[p]) for p in range(k)]
                mad = statistics.median(abs(m - statistics.median(meds)) for m in meds)
                for p in range(k):
                    ra, rb = PAIRS[p]
                    lm = meds[p]
                    bm = statistics.median(x[1] for x in per_pair[p])
                    z = 0.0 if mad == 0 or k < 3 else (lm - statistics.median(meds)) / (1.4826 * mad)
                    pairs_rows.append([cell, li, 2 * k, k, pat, size, HOPS, p, ra, rb, HOSTS[ra], HOSTS[rb],
                                       lm, bm, lm / cmed_l, bm / bw_med, z, int(abs(z) > 3.5)])
                cell += 1
    # Hockney fits T(m) = alpha + m / beta by least squares over the sizes;
    # stream at 4 pairs has no fit (to test "where it exists").
    for (li, pat), pts in sorted(lat_table.items()):
        if pat == "stream" and LEVELS[li] == 4:
            continue
        n = len(pts)
        xs = [s for s, _ in pts]
        ys = [l for _, l in pts]
        mx, my = sum(xs) / n, sum(ys) / n
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
        alpha = my - slope * mx
        beta = 1 / slope
        ss = sum((y - (alpha + x * slope)) ** 2 for x, y in zip(xs, ys))
        st = sum((y - my) ** 2 for y in ys)
        k = LEVELS[li]
        fits.append([li, 2 * k, k, pat, xs[0], xs[-1], n, alpha, beta, alpha * beta, 1 - ss / st])

    def write(name, cols, rows):
        write_csv(os.path.join(OUT, name), HEAD, cols, rows)

    write("samples.csv", SAMPLE_COLS, samples)
    write("summary.csv", SUMMARY_COLS, summary)
    write("pairs.csv", PAIRS_COLS, pairs_rows)
    write("fits.csv", FITS_COLS, fits)

    run = {
        "schema_version": 1, "tool_version": "0.1.0", "name": NAME, "started": STARTED,
        "command_line": "mpiexec -n 8 swstress run configs/procurement.conf label=switch-A pairs=1,2,4",
        "mpi_version": "MPICH Version: 4.0.2", "wtick": 1e-9, "wtime_global": False,
        "yield": False, "duration_s": round(t, 3), "complete": True, "failure": "",
        "config": {"label": "switch-A", "pairs": "1,2,4", "patterns": "pingpong,stream",
                   "sizes": "8,1KiB,64KiB,1MiB", "hops": "1000", "repetitions": "10",
                   "pairing": "adjacent", "confidence": "0.95", "alpha": "0.05",
                   "min_effect": "2", "allow_shared_node": "no"},
        "ranks": [{"rank": i, "host": h} for i, h in enumerate(HOSTS)],
        "pairs": [list(p) for p in PAIRS],
        "levels": [{"pairs": k, "nodes": 2 * k} for k in LEVELS],
        "cells": cells_json,
        "cpu": [], "suspects": [{"host": "node05", "flagged": 8, "cells": 8},
                                {"host": "node06", "flagged": 8, "cells": 8}],
        "outliers": [{"cell": r[0], "pair": r[7], "host_a": r[10], "host_b": r[11], "z": round(r[16], 3)}
                     for r in pairs_rows if r[17]],
        "fits": [dict(zip(FITS_COLS.split(","), f)) for f in fits],
        "method": "median with 95% binomial CI; bootstrap CI of the change; Mann-Whitney U; fixed repetitions",
    }
    with open(os.path.join(OUT, "run.json"), "w") as f:
        json.dump(run, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
