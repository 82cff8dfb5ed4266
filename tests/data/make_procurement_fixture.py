#!/usr/bin/env python3
"""Generate tests/data/procurement-run/: the chart files of a procurement-sized
results folder with a known truth, for the chart tests (tests/unit/test_plot.c).

Shaped like configs/procurement.conf: 48 nodes, pairing halves (i with
i+24), 6 levels (8..48 nodes), 11 sizes (4 B..4 MiB x4), 3 patterns. No
samples.csv: the charts read only run.json, summary.csv, pairs.csv and
fits.csv. Every number comes from the formulas below, not from a
measurement, so a test knows what each chart must show:

- bandwidth drop (stream, bidir) grows with load past 16 nodes and with
  message size, up to ~45 % at 48 nodes and 4 MiB; latency inflation
  (pingpong) grows with load, most for small messages;
- stream 16 B is noisy: its drop at 48 nodes is -201.9 % [-420, -40] (the
  value that used to stretch the axis to -200 %);
- bidir 64 B is a little better under load (negative drop, significant);
- bidir 256 B and 1 KiB at 40 and 48 nodes are noisy: small changes with
  CIs down to -300 % (the CIs must not stretch the axis either);
- stream 4 B ran 2 hops a sample (too short: hatched);
- bidir ran time-bounded samples (hops 0 in summary.csv) of sample_time 50ms;
- stream and bidir at 48 nodes and >= 1 MiB overlap 0.8 (< 0.9: hatched);
- pair 5 (node06-node30) carries 60 % of its peers' bandwidth and is flagged.

Deterministic; rerun with: python3 tests/data/make_procurement_fixture.py
"""
import json, math, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_fixture import write_csv, SUMMARY_COLS, PAIRS_COLS, FITS_COLS  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "procurement-run")
NAME = "switch-A-20261130-140102"
STARTED = "2026-11-30T14:01:02Z"
HEAD = "# swstress 0.1.0, run %s, started %s, MB/s = 10^6 bytes/s\n" % (NAME, STARTED)
NODES = 48
HOSTS = ["node%02d" % (i + 1) for i in range(NODES)]
PAIRS = [(i, i + NODES // 2) for i in range(NODES // 2)]
LEVELS = [4, 8, 12, 16, 20, 24]              # pairs: 8, 16, ... 48 nodes
PATTERNS = ["pingpong", "stream", "bidir"]
SIZES = [4 * 4 ** j for j in range(11)]      # 4 B .. 4 MiB
MIN_EFFECT = 2.0
BAD_PAIR = 5
NAN = float("nan")


def load(k):
    """0 up to 16 nodes, then rising linearly to 1 at 48 nodes."""
    return max(0.0, (2 * k - 16) / 32.0)


def change(pat, size, k):
    """Known change in percent, positive = worse; (value, lo, hi)."""
    if pat == "pingpong":
        v = 3.0 + 60.0 * load(k) * 64.0 / (64.0 + size ** 0.5)
    elif pat == "stream" and size == 16:
        v = {8: 0.0, 16: -12.5, 24: -48.0, 32: -90.3, 40: -133.7, 48: -201.9}[2 * k]
        return v, v * 2.08 if v else -20.0, v * 0.2 if v else 20.0
    elif pat == "bidir" and size == 64:
        v = -1.5 - 4.0 * load(k)
    else:
        v = 45.0 * load(k) * size / (size + 65536.0) + (0.6 if pat == "bidir" else 0.3)
    half = 1.2 + 0.06 * abs(v)
    if pat == "bidir" and size in (256, 1024) and 2 * k >= 40:
        return v, -300.0, v + 40.0
    return v, v - half, v + half


def sample_lat_us(pat, size):
    """Unloaded per-hop latency (us)."""
    return (1.2 if pat == "pingpong" else 0.35) + size / 10000.0


def main():
    os.makedirs(OUT, exist_ok=True)
    summary, pairs_rows, fits = [], [], []
    cell = 0
    for li, k in enumerate(LEVELS):
        for pat in PATTERNS:
            for size in SIZES:
                lat0 = sample_lat_us(pat, size)
                bw0 = size / lat0 * (2 if pat == "bidir" else 1)
                hops = 2 if (pat == "stream" and size == 4) else max(2, int(0.05 / (lat0 * 1e-6)) // 2 * 2)
                if pat == "bidir":
                    hops = 0               # time-bounded samples of sample_time
                overlap = 1.0 if k == 1 else (0.8 if pat != "pingpong" and 2 * k == 48 and size >= 1 << 20 else 0.97)
                if li == 0:
                    infl = [NAN, NAN, NAN, NAN, 0]
                    drop = [NAN, NAN, NAN, NAN, 0]
                    lat, bw = lat0, bw0
                else:
                    v, lo, hi = change(pat, size, k)
                    sig = int((lo > 0 or hi < 0) and abs(v) > MIN_EFFECT)
                    if pat == "pingpong":
                        infl = [v, lo, hi, 1e-4 if sig else 0.3, sig]
                        lat = lat0 * (1 + v / 100)
                        bw = size / lat
                        d = (1 - bw / bw0) * 100
                        drop = [d, d - 1, d + 1, 1e-4 if sig else 0.3, sig]
                    else:
                        drop = [v, lo, hi, 1e-4 if sig else 0.3, sig]
                        bw = bw0 * (1 - v / 100)
                        lat = size / bw * (2 if pat == "bidir" else 1)
                        i = (lat / lat0 - 1) * 100
                        infl = [i, i - 1, i + 1, 1e-4 if sig else 0.3, sig]
                agg = bw * k * (overlap if overlap < 0.9 else 1)
                summary.append([cell, li, 2 * k, k, pat, size, hops, 10, 10, "ci", overlap,
                                lat, lat * 0.98, lat * 1.02, lat, lat * 0.98, lat * 1.02, lat * 0.01,
                                lat * 0.97, lat * 1.05, lat * 0.97, lat * 1.04,
                                bw, bw * 0.98, bw * 1.02, bw, bw * 0.95, bw * 1.03,
                                agg, agg * 0.98, agg * 1.02, bw0 * k] + infl + drop)
                for p in range(k):
                    ra, rb = PAIRS[p]
                    rel = 0.6 if (p == BAD_PAIR and pat != "pingpong" and size >= 4096) else \
                        1 + 0.03 * math.sin(1.7 * p + 0.3 * li + size % 7)
                    z = -9.0 if rel == 0.6 else (rel - 1) * 20
                    pairs_rows.append([cell, li, 2 * k, k, pat, size, hops, p, ra, rb, HOSTS[ra], HOSTS[rb],
                                       lat / rel, bw * rel, 1 / rel, rel, z, int(rel == 0.6)])
                cell += 1
            a = sample_lat_us(pat, 4) * (1 + 0.3 * load(k))
            fits.append([li, 2 * k, k, pat, 4, SIZES[-1], len(SIZES), a, 10000 * (1 - 0.3 * load(k)),
                         a * 10000 * (1 - 0.3 * load(k)), 0.999])

    for name, cols, rows in (("summary.csv", SUMMARY_COLS, summary), ("pairs.csv", PAIRS_COLS, pairs_rows),
                             ("fits.csv", FITS_COLS, fits)):
        write_csv(os.path.join(OUT, name), HEAD, cols, rows)
    run = {
        "schema_version": 1, "tool_version": "0.1.0", "name": NAME, "started": STARTED,
        "command_line": "mpiexec -f hosts -ppn 1 -n 48 swstress run configs/procurement.conf --label switch-A",
        "mpi_version": "MPICH Version: 4.0.2", "wtick": 1e-9, "complete": True, "failure": "",
        "config": {"label": "switch-A", "nodes": "8, 16, 24, 32, 40, 48", "sizes": "4..4MiB x4",
                   "patterns": "pingpong, stream, bidir", "hops": "auto", "sample_time": "50ms",
                   "timed": "auto", "pairing": "halves",
                   "confidence": "0.95", "alpha": "0.05", "min_effect": "2"},
        "ranks": [{"rank": i, "host": h} for i, h in enumerate(HOSTS)],
        "pairs": [list(p) for p in PAIRS],
        "levels": [{"pairs": k, "nodes": 2 * k} for k in LEVELS],
    }
    with open(os.path.join(OUT, "run.json"), "w") as f:
        json.dump(run, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
