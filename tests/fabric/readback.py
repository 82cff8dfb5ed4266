#!/usr/bin/env python3
"""Every finished run folder reads back (issue #39): report, publish (into
a store of its own) and compare (each sweep with the previous one of the
same ranks, each map with the previous map of the same ranks) exit 0, and
no row of samples.csv holds a count over a window of one timer tick or
less (a missing sample carries its reason and no value).
    python3 tests/fabric/readback.py SWSTRESS TMPDIR FOLDER...
Prints "readback: N folders, N missing samples (reasons)" and exits 0, or
one line per failure and exits 1. Standard library only."""
import csv, json, os, subprocess, sys

sw, tmp, dirs = sys.argv[1], sys.argv[2], sys.argv[3:]
bad, missing, prev = [], {}, {}


def run(what, *args):
    p = subprocess.run([sw] + list(args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    if p.returncode != 0:
        lines = [l for l in p.stdout.splitlines() if "swstress:" in l] or p.stdout.splitlines()[-1:]
        bad.append("%s: %s exit %d: %s" % (d, what, p.returncode, lines[0] if lines else ""))


for n, d in enumerate(dirs):
    j = json.load(open(os.path.join(d, "run.json")))
    tick = max(j.get("wtick") or 0, 1e-9)
    for i, r in enumerate(csv.DictReader(l for l in open(os.path.join(d, "samples.csv")) if not l.startswith("#"))):
        m = r.get("missing", "")
        if m:
            missing[m] = missing.get(m, 0) + 1
            if r["seconds"]:
                bad.append("%s: samples.csv:%d: a missing sample with a value" % (d, i + 2))
        elif float(r["seconds"]) <= tick:
            bad.append("%s: samples.csv:%d: %s hops in %s s" % (d, i + 2, r["hops"], r["seconds"]))
    run("report", "report", d)
    run("publish", "publish", d, "model=readback", "--shared-node", "--store", os.path.join(tmp, "readback.sqlite"))
    key = (j.get("config", {}).get("schedule", "levels"), len(j.get("ranks", [])))
    if key in prev:
        run("compare", "compare", prev[key], d, "--no-plot", "-o", os.path.join(tmp, "readback-compare-%d" % n))
    prev[key] = d
for b in bad:
    print(b)
print("readback: %d folders, %d missing samples (%s)" % (len(dirs), sum(missing.values()),
      ", ".join("%s %d" % kv for kv in sorted(missing.items())) or "none"))
sys.exit(1 if bad else 0)
