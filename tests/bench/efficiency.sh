#!/bin/sh
# Start-up and sweep efficiency: configs/quick.conf on 2, 8 and 48 ranks
# (shared memory; 2 ranks: 1 pair; 8: 1, 2, 4 pairs; 48: 1, 2, 4, 24 pairs).
# For each: the time from mpiexec to the first timed sample, the share of
# the wall time spent inside timed samples, and where the rest goes.
#   sh tests/bench/efficiency.sh [NP ...]   (from the repository root)
# The first sample's start (rank 0's MPI_Wtime, samples.csv) is put on the
# wall clock with build/bench/timer --base, run before and after (the base
# must agree); the same runs give the time of a bare MPI start-up
# (mpiexec, MPI_Init, MPI_Finalize) with as many ranks, for comparison.
# MPIEXEC may be tests/fabric/mpirun.sh (it takes -n): one rank per emulated
# host; fabric48.sh runs it that way for 48 ranks.
set -u
NPS=${*:-2 8 48}
SW=${SW:-$PWD/build/swstress}
OUT=${OUT:-$PWD/build/bench/efficiency}
MPIEXEC=${MPIEXEC:-mpiexec}
export UCX_TLS=${UCX_TLS:-self,sm,tcp}
TIMER=$PWD/build/bench/timer
rm -rf "$OUT" && mkdir -p "$OUT"
[ -x "$TIMER" ] || ${MPICC:-mpicc} -O2 -o "$TIMER" "$(dirname "$0")/timer.c" || exit 1

now() { date +%s.%N; }

# bare NP: time of mpiexec -n NP timer --base (prints "base seconds").
bare() {
	b0=$(now)
	base=$($MPIEXEC -n "$1" "$TIMER" --base | head -n 1)
	echo "$base $(awk -v a="$b0" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')"
}

rc=0
for np in $NPS; do
	case $np in
	2) pairs=1;;
	8) pairs="1, 2, 4";;
	*) pairs="1, 2, 4, $((np / 2))";;
	esac
	o=$OUT/np$np
	mkdir -p "$o"
	before=$(bare "$np")
	load0=$(cut -d' ' -f1-3 /proc/loadavg)
	t0=$(now)
	timeout 1200 $MPIEXEC -n "$np" "$SW" run -c configs/quick.conf pairs="$pairs" output="$o" --no-plot \
		--no-history > "$o/stdout" 2> "$o/stderr" ||
		{ echo "efficiency: $np ranks: run failed" >&2; tail "$o/stderr" >&2; rc=1; continue; }
	t1=$(now)
	load1=$(cut -d' ' -f1-3 /proc/loadavg)
	after=$(bare "$np")
	python3 - "$(ls -d "$o"/quick-* | head -n 1)" "$t0" "$t1" "$load0" "$load1" "$before" "$after" <<'PY'
import csv, json, sys
d, t0, t1, l0, l1 = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4], sys.argv[5]
base0, bare0 = map(float, sys.argv[6].split())
base1, bare1 = map(float, sys.argv[7].split())
r = json.load(open(d + "/run.json"))
wall = t1 - t0
cells = r["cells"]
timed = sum(c["timed_s"] for c in cells)
cellwall = sum(c["wall_s"] for c in cells)
dur = r["duration_s"]
rows = list(csv.DictReader(l for l in open(d + "/samples.csv") if not l.startswith("#")))
first = min(float(x["t_start_s"]) for x in rows)
print("### %d ranks: pairs %s, load %s -> %s\n" % (len(r["ranks"]), r["config"]["pairs"], l0, l1))
if abs(base1 - base0) < 1e-3:
    print("- mpiexec to the first timed sample: **%.2f s** (a bare mpiexec + MPI_Init + MPI_Finalize "
          "with as many ranks: %.2f s and %.2f s before and after)" % (first + base0 - t0, bare0, bare1))
else:
    print("- mpiexec to the first timed sample: not known (MPI_Wtime's base moved: %.6f, %.6f)" % (base0, base1))
print("- timed samples / wall = **%.1f%%**, timed / sweep = %.1f%% (target >= 70%% of the wall)\n" % (
    100 * timed / wall, 100 * timed / dur))
print("| quantity | s | share of wall |")
print("|---|---:|---:|")
for name, v in [("wall (mpiexec start to exit)", wall), ("sweep (duration_s)", dur),
                ("inside cells (sum wall_s)", cellwall), ("timed samples (sum timed_s)", timed)]:
    print("| %s | %.2f | %.1f%% |" % (name, v, 100 * v / wall))
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
print("outside cells: setup+launch+finalize = wall - duration = %.2f s; level ends (CPU gather, "
      "flush) = duration - sum wall_s = %.2f s\n" % (wall - dur, dur - cellwall))
PY
done
exit $rc
