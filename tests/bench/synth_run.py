#!/usr/bin/env python3
"""Write a synthetic results folder the size of a 48-rank procurement sweep
(configs/procurement.conf: 6 levels of 4..24 pairs, 11 sizes, 3 patterns,
REPS repetitions per cell), for timing what rank 0 does at the end of each
level (analysis, report, writing) and `swstress report`, without 48 nodes.
    python3 tests/bench/synth_run.py OUT_DIR [REPS] [NLEVELS]
Latency ~ 1.5 us + size / 10 GB/s, +3% per level, lognormal noise.
"""
import json, math, os, random, sys

out = sys.argv[1]
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 100
nlev = int(sys.argv[3]) if len(sys.argv) > 3 else 6
rng = random.Random(1)
N = 48
pairs = [(i, i + N // 2) for i in range(N // 2)]
levels = [4, 8, 12, 16, 20, 24][:nlev]
sizes = [4 * 4 ** i for i in range(11)]
patterns = ["pingpong", "stream", "bidir"]
hosts = ["node%02d" % i for i in range(N)]
cfg = {"nodes": ", ".join(str(2 * k) for k in levels), "sizes": "4..4MiB x4", "hops": "auto",
       "sample_time": "50ms", "patterns": "pingpong, stream, bidir", "window": "64", "pairing": "halves",
       "seed": "1", "repetitions": "10..%d" % max(reps, 10), "warmup": "2", "timeout": "120s",
       "allow_shared_node": "no", "yield": "auto", "label": "synth", "output": "results",
       "confidence": "0.95", "alpha": "0.05", "min_effect": "2", "ci_target": "0.02",
       "cell_budget": "30s", "bootstrap": "2000"}
os.makedirs(out, exist_ok=True)
cells = []
head = ("cell,level,nodes,pairs,pattern,size_bytes,hops,rep,pair,rank_a,rank_b,host_a,host_b,"
        "t_start_s,t_end_s,seconds,latency_us,bandwidth_MBps\n")
t = 0.0
with open(os.path.join(out, "samples.csv"), "w") as f:
    f.write("# swstress 0.1.0, run synth, started 2026-01-01T00:00:00Z, MB/s = 10^6 bytes/s\n" + head)
    ci = 0
    for lv, k in enumerate(levels):
        for pat in patterns:
            for size in sizes:
                lat = (1.5e-6 + size / 1e10) * (1 + 0.03 * lv)
                hops = max(2, int(0.05 / (1.5e-6 + size / 1e10)) // 2 * 2)   # auto hops: fixed at level 0
                for rep in range(reps):
                    for p in range(k):
                        s = lat * hops * math.exp(rng.gauss(0, 0.05))
                        a, b = pairs[p]
                        f.write("%d,%d,%d,%d,%s,%d,%d,%d,%d,%d,%d,%s,%s,%.17g,%.17g,%.17g,%.6f,%.6f\n" % (
                            ci, lv, 2 * k, k, pat, size, hops, rep, p, a, b, hosts[a], hosts[b], t, t + s, s,
                            s / hops * 1e6, size * hops / s / 1e6))
                    t += lat * hops
                cells.append({"cell": ci, "level": lv, "nodes": 2 * k, "pairs": k, "pattern": pat,
                              "size_bytes": size, "hops": hops, "hops_auto": True, "reps": reps,
                              "stop": "max-reps", "wall_s": reps * lat * hops * 1.2, "timed_s": reps * lat * hops})
                ci += 1
run = {"schema_version": 1, "tool_version": "0.1.0", "name": "synth", "started": "2026-01-01T00:00:00Z",
       "command_line": "synth_run.py", "mpi_version": "synthetic", "wtick": 1e-9, "wtime_global": False,
       "yield": False, "duration_s": t, "complete": True, "failure": "", "config": cfg,
       "ranks": [{"rank": i, "host": hosts[i]} for i in range(N)], "pairs": [list(p) for p in pairs],
       "levels": [{"pairs": k, "nodes": 2 * k} for k in levels], "cells": cells, "cpu": []}
json.dump(run, open(os.path.join(out, "run.json"), "w"), indent=1)
print("%s: %d cells, %d samples" % (out, len(cells), sum(c["reps"] * c["pairs"] for c in cells)))
