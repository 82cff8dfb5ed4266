#!/bin/sh
# Sweep efficiency: configs/quick.conf on 8 ranks; the share of the wall
# time spent inside timed samples, and where the rest goes.
#   sh tests/bench/efficiency.sh [NP]       (from the repository root)
set -u
NP=${1:-8}
SW=${SW:-$PWD/build/swstress}
OUT=${OUT:-$PWD/build/bench/efficiency}
MPIEXEC=${MPIEXEC:-mpiexec}
export UCX_TLS=${UCX_TLS:-self,sm,tcp}
rm -rf "$OUT" && mkdir -p "$OUT"
load0=$(cut -d' ' -f1-3 /proc/loadavg)
t0=$(date +%s.%N)
timeout 600 $MPIEXEC -n "$NP" "$SW" run -c configs/quick.conf output="$OUT" --no-plot > "$OUT/stdout" 2> "$OUT/stderr" ||
	{ echo "efficiency: run failed" >&2; tail "$OUT/stderr" >&2; exit 1; }
t1=$(date +%s.%N)
python3 - "$(ls -d "$OUT"/quick-* | head -n 1)" "$t0" "$t1" "$load0" "$(cut -d' ' -f1-3 /proc/loadavg)" <<'PY'
import json, sys
d, t0, t1, l0, l1 = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4], sys.argv[5]
r = json.load(open(d + "/run.json"))
wall = t1 - t0
cells = r["cells"]
timed = sum(c["timed_s"] for c in cells)
cellwall = sum(c["wall_s"] for c in cells)
dur = r["duration_s"]
sample_time = r["config"]["sample_time"]
print("quick.conf, %d ranks, load %s -> %s" % (len(r["ranks"]), l0, l1))
print("| quantity | s | share of wall |")
print("|---|---:|---:|")
for name, v in [("wall (mpiexec start to exit)", wall), ("sweep (duration_s)", dur),
                ("inside cells (sum wall_s)", cellwall), ("timed samples (sum timed_s)", timed)]:
    print("| %s | %.2f | %.1f%% |" % (name, v, 100 * v / wall))
print()
print("timed / duration_s = %.1f%%, timed / wall = %.1f%% (target >= 70%%)" % (100 * timed / dur, 100 * timed / wall))
print()
print("| level | pairs | cells | wall_s | timed_s | timed share | rounds | untimed per round ms |")
print("|---:|---:|---:|---:|---:|---:|---:|---:|")
for lv in sorted({c["level"] for c in cells}):
    cs = [c for c in cells if c["level"] == lv]
    w, t = sum(c["wall_s"] for c in cs), sum(c["timed_s"] for c in cs)
    reps = sum(c["reps"] for c in cs)
    warm = int(r["config"]["warmup"]) * len(cs)
    print("| %d | %d | %d | %.2f | %.2f | %.1f%% | %d+%d | %.2f |" % (lv, cs[0]["pairs"], len(cs), w, t, 100 * t / w,
          reps, warm, 1000 * (w - t) / (reps + warm)))
print()
print("outside cells: setup+launch+finalize = wall - duration = %.2f s; level ends (CPU gather, analysis, "
      "flush) = duration - sum wall_s = %.2f s" % (wall - dur, dur - cellwall))
PY
