#!/usr/bin/env python3
"""Write small synthetic results folders with a known truth, for the
catalog tests (publish, store, site).
    python3 tests/catalog/make_runs.py OUT_DIR NAME VENDOR MODEL DROP [SEED]
8 ranks (node01..node08), adjacent pairing, 1, 2 and 4 pairs, pingpong and
stream, 8 B and 64 KiB, 1000 hops, 10 repetitions. At 4 pairs the per-pair
bandwidth falls by DROP % and the per-hop latency grows by DROP %; at 2 pairs
by DROP/4 %. Noise: lognormal, sd 1%. Writes OUT_DIR/NAME/{run.json,
samples.csv}. NAME must look like LABEL-YYYYmmdd-HHMMSS.
With TIMED=1 in the environment the stream cells are timed (hops = auto:
each sample counts its own hops; the cell records hops 0).
With SHARED=1 every rank is on one host, node01 (allow_shared_node = yes).
"""
import json, math, os, random, sys

out, name, vendor, model, drop = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5])
rng = random.Random(int(sys.argv[6]) if len(sys.argv) > 6 else 1)
N, HOPS, REPS = 8, 1000, 10
pairs = [(0, 1), (2, 3), (4, 5), (6, 7)]
levels = [1, 2, 4]
factor = {1: 1.0, 2: 1 + drop / 400.0, 4: 1 + drop / 100.0}   # latency growth
patterns, sizes = ["pingpong", "stream"], [8, 65536]
shared = os.environ.get("SHARED") == "1"
hosts = ["node%02d" % (1 if shared else i + 1) for i in range(N)]
ts = name.rsplit("-", 2)
started = "%s-%s-%sT%s:%s:%sZ" % (ts[1][:4], ts[1][4:6], ts[1][6:], ts[2][:2], ts[2][2:4], ts[2][4:])
timed = os.environ.get("TIMED") == "1"
cfg = {"pairs": "1, 2, 4", "sizes": "8, 64KiB", "hops": "auto" if timed else "1000", "patterns": "pingpong, stream",
       "pairing": "adjacent", "repetitions": "10", "label": ts[0],
       "allow_shared_node": "yes" if shared else "no",
       "vendor": vendor, "model": model, "firmware": "1.2.3", "port_speed": "100GbE",
       "ports_used": "8", "topology": "single", "cabling": "3 m DAC", "nic": "ConnectX-6",
       "transport": "ucx/rc"}
d = os.path.join(out, name)
os.makedirs(d, exist_ok=True)
cells, t, ci = [], 0.0, 0
with open(os.path.join(d, "samples.csv"), "w") as f:
    f.write("# swstress 0.1.0, run %s, started %s, MB/s = 10^6 bytes/s\n" % (name, started))
    f.write("cell,level,nodes,pairs,pattern,size_bytes,hops,rep,pair,rank_a,rank_b,host_a,host_b,"
            "t_start_s,t_end_s,seconds,latency_us,bandwidth_MBps\n")
    for lv, k in enumerate(levels):
        for pat in patterns:
            for size in sizes:
                # stream: bandwidth falls by DROP%: time grows by 1/(1-DROP/100)
                g = factor[k] if pat == "pingpong" else 1 / (1 - (factor[k] - 1))
                lat = (1.5e-6 + size / 1e10) * g
                for rep in range(REPS):
                    for p in range(k):
                        s = lat * HOPS * math.exp(rng.gauss(0, 0.01))
                        a, b = pairs[p]
                        f.write("%d,%d,%d,%d,%s,%d,%d,%d,%d,%d,%d,%s,%s,%.17g,%.17g,%.17g,%.6f,%.6f\n" % (
                            ci, lv, 2 * k, k, pat, size, HOPS, rep, p, a, b, hosts[a], hosts[b], t, t + s, s,
                            s / HOPS * 1e6, size * HOPS / s / 1e6))
                    t += lat * HOPS * 1.1
                cells.append({"cell": ci, "level": lv, "nodes": 2 * k, "pairs": k, "pattern": pat,
                              "size_bytes": size, "hops": 0 if timed and pat == "stream" else HOPS,
                              "reps": REPS, "stop": "fixed",
                              "wall_s": REPS * lat * HOPS * 1.2, "timed_s": REPS * lat * HOPS})
                ci += 1
run = {"schema_version": 1, "tool_version": "0.1.0", "name": name, "started": started,
       "command_line": "mpiexec -n 8 swstress run -c configs/procurement.conf",
       "mpi_version": "MPICH Version: 4.0.2", "wtick": 1e-9, "wtime_global": False,
       "yield": False, "duration_s": t, "complete": True, "failure": "", "config": cfg,
       "ranks": [{"rank": i, "host": hosts[i]} for i in range(N)], "pairs": [list(p) for p in pairs],
       "levels": [{"pairs": k, "nodes": 2 * k} for k in levels], "cells": cells, "cpu": []}
json.dump(run, open(os.path.join(d, "run.json"), "w"), indent=1)
print(d)
