#!/usr/bin/env python3
"""Write a map run of two sizes, for the catalog tests, from two map runs
of the emulated 4 x 4 tree that tests/data keeps (tests/fabric/map.sh):
    python3 tests/catalog/make_map2.py SLOWHOST SLOWUPLINK OUT_DIR NAME
Both runs mapped the same 16 hosts (swsN00..swsN15) with stream 64 KiB in
the same 15 rounds and the same block order (seed 1), so their cells can
be one run's: at each round, the slow-uplink run's cell becomes the run's
stream 16 KiB cell (each sample's size a quarter, its message count four
times: the same bytes in the same seconds, so the same MB/s) and the
slow-host run's cell its stream 64 KiB cell, as measured. The known truth:
at 16 KiB leafC's uplink is named and no host; at 64 KiB swsN05 alone.
Writes OUT_DIR/NAME/{run.json,samples.csv} with the [topology] groups
kept (map.groups); `swstress report` then writes every size's map files.
"""
import copy, json, os, sys

host_dir, up_dir, out, name = sys.argv[1:5]
host = json.load(open(os.path.join(host_dir, "run.json")))
up = json.load(open(os.path.join(up_dir, "run.json")))
assert [r["host"] for r in host["ranks"]] == [r["host"] for r in up["ranks"]], "not the same hosts"
assert host["block_order"] == up["block_order"] and host["pairs"] == up["pairs"], "not the same design"
assert host["config"]["sizes"] == up["config"]["sizes"] == "64KiB", "not single-size 64 KiB maps"
SMALL, K = 16384, 4          # 64 KiB / 4
run = copy.deepcopy(host)
run["name"] = name
run["config"]["sizes"] = "16KiB, 64KiB"
run["config"]["label"] = name.rsplit("-", 2)[0]
run["command_line"] = run["command_line"].replace("sizes=65536", "sizes=16384,65536")
run["map"]["groups"] = up["map"]["groups"]
nl = len(host["levels"])
cells = []
for lv in range(nl):
    small = copy.deepcopy(up["cells"][lv])
    small.pop("summary", None)   # recomputed from the samples
    small.update({"cell": 2 * lv, "size_bytes": SMALL})
    big = copy.deepcopy(host["cells"][lv])
    big["cell"] = 2 * lv + 1
    cells += [small, big]
run["cells"] = cells
for key in ("outliers",):
    for o in run.get(key, []):
        o["cell"] = 2 * o["cell"] + 1
run["drift"] = {"drifted": False, "alpha": host["drift"]["alpha"], "cells": []}
d = os.path.join(out, name)
os.makedirs(d, exist_ok=True)


def rows(path):
    with open(path) as f:
        lines = f.read().splitlines()
    return [l for l in lines if l.startswith("#")], lines[[i for i, l in enumerate(lines) if not l.startswith("#")][0]], \
        [l.split(",") for l in lines if l and not l.startswith("#")][1:]


_, head, hrows = rows(os.path.join(host_dir, "samples.csv"))
_, uhead, urows = rows(os.path.join(up_dir, "samples.csv"))
assert head == uhead
col = {c: i for i, c in enumerate(head.split(","))}
by_cell = {}
for r in urows:
    r[col["cell"]] = str(2 * int(r[col["cell"]]))
    r[col["size_bytes"]] = str(SMALL)
    r[col["hops"]] = str(K * int(r[col["hops"]]))
    if r[col["latency_us"]]:   # empty in a missing sample
        r[col["latency_us"]] = "%.6f" % (float(r[col["latency_us"]]) / K)
    by_cell.setdefault(int(r[col["cell"]]), []).append(r)
for r in hrows:
    r[col["cell"]] = str(2 * int(r[col["cell"]]) + 1)
    by_cell.setdefault(int(r[col["cell"]]), []).append(r)
with open(os.path.join(d, "samples.csv"), "w") as f:
    f.write("# swstress %s, run %s, started %s, MB/s = 10^6 bytes/s\n" % (run["tool_version"], name, run["started"]))
    f.write(head + "\n")
    for c in sorted(by_cell):
        for r in by_cell[c]:
            f.write(",".join(r) + "\n")
json.dump(run, open(os.path.join(d, "run.json"), "w"), indent=1)
print(d)
