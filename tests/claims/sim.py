#!/usr/bin/env python3
"""sim.py - complete swstress run folders (run.json, samples.csv) with a
known truth, written from a model of the fabric, for the end-to-end claims
suite (tests/claims/run_tests.sh). Python 3 standard library only; shares
no code with src/: the format is the one results/README.md documents and
src/results.c reads.

A sweep run (design = blocks: block b is repetition b, every level visited
once per block in a shuffled order). A sample of pair p of cell c in block
b takes seconds per hop

    t = t0(c) * g(c) * exp(RUN + CELLRUN[c] + BLOCK[b] + REP[c,b] + PAIR[p,b] + E)

  t0(c)        the fabric's per-hop time at the size (1.5 us + size / 10 GB/s,
               stream at half the pingpong latency)
  g(c)         the planted truth: the level's load effect times any planted
               slowdown of the run (night) -- the only thing that differs
               between the truths a scenario contrasts
  RUN          ~ N(0, run_sd): the run-to-run spread shared by all cells of
               a run (a night, a switch's install, a day's temperature)
  CELLRUN[c]   ~ N(0, cell_sd): run-to-run spread of each cell on its own
  BLOCK[b]     ~ N(0, block_sd): the fabric's state during block b, shared
               by every level of the block (what the block design cancels)
  REP[c,b]     ~ N(0, rep_sd): one visit of a level, shared by its pairs
  PAIR[p,b]    ~ N(0, pair_sd): pair p in that visit
  E            sample noise: N(0, sample_sd) ("lognormal"), or Lomax
               (Pareto II, shape `lomax_shape`, scale `sample_sd`) taken as
               +-log(1 + X) with a random sign ("lomax": heavy tails,
               symmetric in logs) or +log(1 + X) ("lomax1": slow tails only)

With noise symmetric in logs (lognormal, lomax) the true per-hop time of a
cell is t0 g, so a level's true bandwidth drop is 100 (1 - g_base/g_level)
in %. An `outlier` multiplies one sample's time by 1000.

    sim.py OUT_DIR NAME [key=value ...]        (keys: see DEFAULTS)
    sim.py --map OUT_DIR NAME [key=value ...]  a fabric map (MAP_DEFAULTS)

NAME must look like LABEL-YYYYmmdd-HHMMSS. Prints the folder's path.
Also importable: write_run(out_dir, name, params) -> path.
"""
import json
import math
import os
import random
import sys

KIB = 1024

DEFAULTS = {
    "seed": 1,
    "levels": "1,4",          # pairs at each level
    "patterns": "pingpong,stream",
    "sizes": "8,65536",
    "reps": 10,
    "design": "blocks",
    "model": "SwA",           # the [switch] model ('' for none)
    "label": "",              # default: NAME's label
    "run_sd": 0.0,            # log-scale sds (0.02 is a 2% spread)
    "cell_sd": 0.0,
    "block_sd": 0.01,
    "rep_sd": 0.01,
    "pair_sd": 0.01,
    "sample_sd": 0.01,
    "tail": "lognormal",      # lognormal | lomax | lomax1
    "lomax_shape": 3.0,
    "load": 0.0,              # load effect: time x (1 + load * i / (L - 1)) at level i
    "slow": "",               # planted slowdowns: PATTERN:SIZE:LEVEL:FACTOR[;...]; '*' matches any
    "outlier": "",            # CELL:BLOCK:PAIR, or 'base' (a baseline-level cell, a random block)
    "window": "64",
    "distinct_buffers": "no",
    "sample_time": 0.01,      # s per timed (stream) sample
    "extra": "",              # more config keys, k1=v1;k2=v2 (stored in run.json's config)
}

# The config keys of a run (strings, as run.json stores them); the
# simulator fills the ones that describe its sweep.
BASE_CONFIG = [
    ("hops", "auto"), ("sample_time", "10ms"), ("timed", "auto"), ("window", "64"),
    ("distinct_buffers", "no"), ("blocking_waits", "no"), ("pairing", "adjacent"), ("seed", "1"),
    ("repetitions", "10"), ("design", "blocks"), ("schedule", "sweep"), ("map_rounds", "all"),
    ("map_concurrency", "all"), ("warmup", "1"), ("timeout", "60s"), ("allow_shared_node", "no"),
    ("allow_shared_kernel", "no"), ("yield", "auto"), ("ranks_per_node", "1"), ("victims", "0"),
    ("victim_size", "8"), ("cpu_control", "auto"), ("isolate", "auto"), ("drift_check", "auto"),
    ("label", "sim"), ("output", "results"), ("keep_days", "0"), ("confidence", "0.95"),
    ("alpha", "0.05"), ("min_effect", "2"), ("run_to_run", "5"), ("suspect_min_effect", "10"),
    ("ci_target", "0.02"), ("cell_budget", "30s"), ("bootstrap", "2000"), ("warn_drop", "10"),
    ("crit_drop", "25"), ("warn_inflation", "20"), ("crit_inflation", "50"), ("deadline", "300s"),
    ("nightly_sigma", "3"), ("baseline_window", "0"), ("ewma_lambda", "0.2"), ("ewma_limit", "3"),
    ("ports_used", "0"),
]


def params_from(args, defaults=None):
    defaults = defaults or DEFAULTS
    p = dict(defaults)
    for a in args:
        k, eq, v = a.partition("=")
        if not eq or k not in defaults:
            raise SystemExit("sim.py: '%s': not key=value of a known key (%s)" % (a, ", ".join(defaults)))
        p[k] = type(defaults[k])(v)
    return p


def started_of(name):
    parts = name.rsplit("-", 2)
    if len(parts) != 3 or len(parts[1]) != 8 or len(parts[2]) != 6:
        raise SystemExit("sim.py: name '%s' does not look like LABEL-YYYYmmdd-HHMMSS" % name)
    d, t = parts[1], parts[2]
    return parts[0], "%s-%s-%sT%s:%s:%sZ" % (d[:4], d[4:6], d[6:], t[:2], t[2:4], t[4:])


def size_text(s):
    if s % (1024 * KIB) == 0:
        return "%dMiB" % (s // (1024 * KIB))
    if s % KIB == 0:
        return "%dKiB" % (s // KIB)
    return str(s)


def noise(rng, p):
    sd = p["sample_sd"]
    if sd <= 0:
        return 0.0
    if p["tail"] == "lognormal":
        return rng.gauss(0, sd)
    x = sd * (rng.paretovariate(p["lomax_shape"]) - 1.0)   # Lomax(shape, scale sd)
    e = math.log1p(x)
    if p["tail"] == "lomax":
        return e if rng.random() < 0.5 else -e
    if p["tail"] == "lomax1":
        return e
    raise SystemExit("sim.py: tail '%s': not lognormal, lomax or lomax1" % p["tail"])


def slow_factor(spec, pattern, size, level):
    f = 1.0
    for item in filter(None, spec.split(";")):
        pt, sz, lv, fac = item.split(":")
        if pt in ("*", pattern) and sz in ("*", str(size)) and lv in ("*", str(level)):
            f *= float(fac)
    return f


def base_time(pattern, size):
    t = 1.5e-6 + size / 1e10
    return t / 2 if pattern == "stream" else t


def write_run(out, name, p):
    rng = random.Random(int(p["seed"]))
    label, started = started_of(name)
    levels = [int(x) for x in str(p["levels"]).split(",")]
    patterns = p["patterns"].split(",")
    sizes = [int(x) for x in str(p["sizes"]).split(",")]
    reps, nl = int(p["reps"]), len(levels)
    maxk = levels[-1]
    nranks = 2 * maxk
    hosts = ["n%03d" % (i + 1) for i in range(nranks)]
    pairs = [(2 * i, 2 * i + 1) for i in range(maxk)]
    blocks = p["design"] == "blocks"
    cfg = dict(BASE_CONFIG)
    cfg.update({"pairs": ", ".join(map(str, levels)), "sizes": ", ".join(size_text(s) for s in sizes),
                "patterns": ", ".join(patterns), "repetitions": str(reps), "design": p["design"],
                "label": p["label"] or label, "window": p["window"], "distinct_buffers": p["distinct_buffers"],
                "sample_time": "%gms" % (p["sample_time"] * 1e3)})
    if p["model"]:
        cfg["model"] = p["model"]
    for kv in filter(None, p["extra"].split(";")):
        k, _, v = kv.partition("=")
        cfg[k] = v
    cells = []
    for li in range(nl):
        for pt in patterns:
            for s in sizes:
                cells.append((li, pt, s))
    # the truth of each cell, and the run's draws
    RUN = rng.gauss(0, p["run_sd"]) if p["run_sd"] > 0 else 0.0
    CELLRUN = [rng.gauss(0, p["cell_sd"]) if p["cell_sd"] > 0 else 0.0 for _ in cells]
    order = []
    for b in range(reps):
        o = list(range(nl))
        if blocks:
            rng.shuffle(o)
        order.append(o)
    BLOCK = [rng.gauss(0, p["block_sd"]) if p["block_sd"] > 0 else 0.0 for _ in range(reps)]
    outl = None
    if p["outlier"] == "base":   # its own generator: the run's other draws stay the same
        orng = random.Random(int(p["seed"]) * 7919 + 1)
        base_cells = [i for i, c in enumerate(cells) if c[0] == 0]
        outl = (orng.choice(base_cells), orng.randrange(reps), 0)
    elif p["outlier"]:
        outl = tuple(int(x) for x in p["outlier"].split(":"))
    hops_pp = {}
    for s in sizes:   # pingpong: auto hops fixed once (10 ms of the fabric at that size)
        hops_pp[s] = max(2, int(p["sample_time"] / base_time("pingpong", s)) // 2 * 2)
    rows = []   # (cell, rep, pair, fields)
    wall = [0.0] * len(cells)
    t = 100.0
    seq = range(reps) if blocks else None
    visits = []   # (block, level) in the order they ran
    if blocks:
        for b in seq:
            for li in order[b]:
                visits.append((b, li))
    else:
        for li in range(nl):
            for b in range(reps):
                visits.append((b, li))
    for b, li in visits:
        k = levels[li]
        for ci, (cl, pt, s) in enumerate(cells):
            if cl != li:
                continue
            g = (1 + p["load"] * li / max(1, nl - 1)) * slow_factor(p["slow"], pt, s, li)
            REP = rng.gauss(0, p["rep_sd"]) if p["rep_sd"] > 0 else 0.0
            t0 = base_time(pt, s) * g * math.exp(RUN + CELLRUN[ci] + BLOCK[b] + REP)
            span = 0.0
            for pi in range(k):
                PAIR = rng.gauss(0, p["pair_sd"]) if p["pair_sd"] > 0 else 0.0
                hop = t0 * math.exp(PAIR + noise(rng, p))
                if outl == (ci, b, pi):
                    hop *= 1000.0
                if pt == "stream":    # timed: the sample counts its own hops
                    hops = max(4, int(round(p["sample_time"] / hop)))
                else:
                    hops = hops_pp[s]
                sec = hops * hop
                a, bb = pairs[pi]
                rows.append((ci, b, pi, "%d,%d,%d,%d,%s,%d,%d,%d,%d,%d,%d,%d,%s,%s,%.17g,%.17g,%.17g,%.6f,%.6f\n" % (
                    ci, li, 2 * k, k, pt, s, hops, b, b if blocks else -1, pi, a, bb, hosts[a], hosts[bb],
                    t, t + sec, sec, hop * 1e6, s / hop / 1e6)))
                span = max(span, sec)
            t += span * 1.05 + 1e-4
            wall[ci] += span * 1.1
    rows.sort(key=lambda r: r[:3])
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "samples.csv"), "w") as f:
        f.write("# swstress 0.1.0, run %s, started %s, MB/s = 10^6 bytes/s\n" % (name, started))
        f.write("cell,level,nodes,pairs,pattern,size_bytes,hops,rep,block,pair,rank_a,rank_b,host_a,host_b,"
                "t_start_s,t_end_s,seconds,latency_us,bandwidth_MBps\n")
        f.writelines(r[3] for r in rows)
    jcells = []
    for ci, (li, pt, s) in enumerate(cells):
        timed = pt == "stream"
        jcells.append({"cell": ci, "level": li, "nodes": 2 * levels[li], "pairs": levels[li], "pattern": pt,
                       "size_bytes": s, "hops": 0 if timed else hops_pp[s], "hops_auto": True, "timed": timed,
                       "reps": reps, "stop": "fixed", "wall_s": wall[ci], "timed_s": wall[ci] / 1.1})
    run = {"schema_version": 3, "tool_version": "0.1.0", "name": name, "started": started,
           "command_line": "tests/claims/sim.py (simulated)", "mpi_version": "simulated", "wtick": 1e-9,
           "round_trip_s": 2e-6,
           "sample_floor": {"messages": 4, "windows": 4, "ticks": 100, "round_trips": 5, "seconds": 1e-5},
           "wtime_global": False, "yield": False, "duration_s": t - 100.0, "complete": True, "failure": "",
           "config": cfg, "design": p["design"], "block_order": order if blocks else [],
           "ranks": [{"rank": i, "host": hosts[i]} for i in range(nranks)],
           "pairs": [list(x) for x in pairs], "victim_pairs": [], "victim_samples": [],
           "levels": [{"pairs": k, "nodes": 2 * k} for k in levels], "cells": jcells, "cpu": [],
           "probes": [], "baseline_again": []}
    with open(os.path.join(d, "run.json"), "w") as f:
        json.dump(run, f, indent=1)
    return d


MAP_DEFAULTS = {
    "seed": 1,
    "hosts": 16,
    "groups": 4,              # leaves, hosts split evenly in rank order ([topology] groups)
    "reps": 4,                # blocks: every round once a block, shuffled
    "size": 65536,
    "rate": 2.5e6,            # a healthy link's stream bandwidth, bytes/s
    "sample_time": 0.02,
    "block_sd": 0.02,         # the fabric's state in a block, shared by every link
    "rep_sd": 0.01,           # one round's visit, shared by its pairs
    "host_block_sd": 0.0,     # a host's state in a block, shared by its links there
    "sample_sd": 0.02,
    "tail": "lognormal",
    "lomax_shape": 3.0,
    "slow_host": "",          # RANK:FACTOR: the host's port at FACTOR of the rate
    "slow_uplink": "",        # GROUP:FACTOR: links leaving that group
    "bad_cable": "",          # RANK:RANK:FACTOR: that one link
    "model": "tree",
}


def map_pair(n, r, i):
    """Pair i of round r of the circle method (include/mapsched.h): M = n - 1
    rounds for even n, n for odd; round r pairs x with (2r - x) mod M, and
    r with n - 1 (even n); pair 0 is r's, then (r + i, r - i) mod M."""
    m = n - 1 if n % 2 == 0 else n
    if n % 2 == 0 and i == 0:
        x, y = r, n - 1
    else:
        j = i + 1 if n % 2 else i
        x, y = (r + j) % m, (r - j) % m
    return (x, y) if x < y else (y, x)


def map_truth(p):
    """Each link's planted factor of the rate: {(a, b): factor}, and the
    group of each rank."""
    n, ng = int(p["hosts"]), int(p["groups"])
    group = [i * ng // n for i in range(n)]
    port = [1.0] * n
    if p["slow_host"]:
        h, f = p["slow_host"].split(":")
        port[int(h)] = float(f)
    up_g, up_f = -1, 1.0
    if p["slow_uplink"]:
        g, f = p["slow_uplink"].split(":")
        up_g, up_f = int(g), float(f)
    cab = {}
    if p["bad_cable"]:
        a, b, f = p["bad_cable"].split(":")
        cab[(min(int(a), int(b)), max(int(a), int(b)))] = float(f)
    fac = {}
    for a in range(n):
        for b in range(a + 1, n):
            f = min(port[a], port[b])
            if group[a] != group[b] and up_g in (group[a], group[b]):
                f *= up_f
            f *= cab.get((a, b), 1.0)
            fac[(a, b)] = f
    return fac, group


def write_map(out, name, p):
    """A loaded fabric map (schedule = map, map_rounds = map_concurrency =
    all): stream at one size, every round of the pass once a block, the
    [topology] groups given. A link's bandwidth is rate x its planted
    factor x exp(-(BLOCK + REP + HB[a] + HB[b] + E)): BLOCK shared by every
    link of a block, REP by a round's pairs in it, HB by a host's links in
    it, E the sample's (lognormal, or Lomax tails as in write_run). The
    planted factor: the slower port of the two, times the uplink's when the
    link leaves the slow uplink's group, times the bad cable's."""
    rng = random.Random(int(p["seed"]))
    label, started = started_of(name)
    n, ng, reps, size = int(p["hosts"]), int(p["groups"]), int(p["reps"]), int(p["size"])
    fac, group = map_truth(p)
    m = n - 1 if n % 2 == 0 else n
    per = n // 2
    hosts = ["h%03d" % (i + 1) for i in range(n)]
    gnames = ["leaf%c" % (ord("A") + g) if ng <= 26 else "leaf%d" % g for g in range(ng)]
    cfg = dict(BASE_CONFIG)
    cfg.update({"nodes": "all", "sizes": size_text(size), "patterns": "stream", "repetitions": str(reps),
                "schedule": "map", "label": label, "sample_time": "%gms" % (p["sample_time"] * 1e3),
                "timed": "auto", "model": p["model"]})
    cfg.pop("pairs", None)
    order = []
    for b in range(reps):
        o = list(range(m))
        rng.shuffle(o)
        order.append(o)
    BLOCK = [rng.gauss(0, p["block_sd"]) for _ in range(reps)]
    HB = [[rng.gauss(0, p["host_block_sd"]) if p["host_block_sd"] > 0 else 0.0 for _ in range(n)]
          for _ in range(reps)]
    rows, wall, t = [], [0.0] * m, 100.0
    for b in range(reps):
        for r in order[b]:
            REP = rng.gauss(0, p["rep_sd"])
            span = 0.0
            for i in range(per):
                a, bb = map_pair(n, r, i)
                e = noise(rng, p) + HB[b][a] + HB[b][bb]
                bw = p["rate"] * fac[(a, bb)] * math.exp(-(BLOCK[b] + REP + e))
                hop = size / bw
                hops = max(4, int(round(p["sample_time"] / hop)))
                sec = hops * hop
                rows.append((r, b, i, "%d,%d,%d,%d,stream,%d,%d,%d,%d,%d,%d,%d,%s,%s,%.17g,%.17g,%.17g,%.6f,%.6f\n" % (
                    r, r, n, per, size, hops, b, b, i, a, bb, hosts[a], hosts[bb], t, t + sec, sec, hop * 1e6,
                    bw / 1e6)))
                span = max(span, sec)
            t += span * 1.05 + 1e-3
            wall[r] += span * 1.1
    rows.sort(key=lambda x: x[:3])
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "samples.csv"), "w") as f:
        f.write("# swstress 0.1.0, run %s, started %s, MB/s = 10^6 bytes/s\n" % (name, started))
        f.write("cell,level,nodes,pairs,pattern,size_bytes,hops,rep,block,pair,rank_a,rank_b,host_a,host_b,"
                "t_start_s,t_end_s,seconds,latency_us,bandwidth_MBps\n")
        f.writelines(x[3] for x in rows)
    cells = [{"cell": r, "level": r, "nodes": n, "pairs": per, "pattern": "stream", "size_bytes": size,
              "hops": 0, "hops_auto": True, "timed": True, "reps": reps, "stop": "fixed", "wall_s": wall[r],
              "timed_s": wall[r] / 1.1} for r in range(m)]
    groups = [{"name": gnames[g], "ranks": [i for i in range(n) if group[i] == g]} for g in range(ng)]
    run = {"schema_version": 3, "tool_version": "0.1.0", "name": name, "started": started,
           "command_line": "tests/claims/sim.py (simulated map)", "mpi_version": "simulated", "wtick": 1e-9,
           "round_trip_s": 2e-6,
           "sample_floor": {"messages": 4, "windows": 4, "ticks": 100, "round_trips": 5, "seconds": 1e-5},
           "wtime_global": False, "yield": False, "duration_s": t - 100.0, "complete": True, "failure": "",
           "config": cfg, "design": "blocks", "block_order": order,
           "ranks": [{"rank": i, "host": hosts[i]} for i in range(n)],
           "pairs": [list(map_pair(n, 0, i)) for i in range(per)], "victim_pairs": [], "victim_samples": [],
           "levels": [{"pairs": per, "nodes": n, "round": r} for r in range(m)],
           "map": {"method": "circle", "pass": m, "per_round": per, "rounds": list(range(m)),
                   "concurrency": per, "steps_per_round": 1, "cover": 1.0, "groups": groups},
           "cells": cells, "cpu": [], "probes": [], "baseline_again": []}
    with open(os.path.join(d, "run.json"), "w") as f:
        json.dump(run, f, indent=1)
    return d


def truth_drop(p, pattern, size, level):
    """The planted bandwidth drop of LEVEL against level 0, in %."""
    nl = len(str(p["levels"]).split(","))

    def g(li):
        return (1 + p["load"] * li / max(1, nl - 1)) * slow_factor(p["slow"], pattern, size, li)
    return 100.0 * (1.0 - g(0) / g(level))


if __name__ == "__main__":
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    if sys.argv[1] == "--map":
        print(write_map(sys.argv[2], sys.argv[3], params_from(sys.argv[4:], MAP_DEFAULTS)))
    else:
        print(write_run(sys.argv[1], sys.argv[2], params_from(sys.argv[3:])))
