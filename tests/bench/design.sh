#!/bin/sh
# The wall-time cost of the block design (issue #26): the same config run
# as design = sequential and design = blocks, alternately (the order
# swapped every pair, so a slow phase of the shared machine falls on both),
# RUNS pairs (default 5); each run's duration_s from run.json, and the
# median ratio blocks / sequential. Budget: within 5%.
#   sh tests/bench/design.sh [RUNS]
set -u
SW=${SW:-$PWD/build/swstress}
MPIEXEC=${MPIEXEC:-mpiexec}
runs=${1:-5}
out=build/bench/design
rm -rf "$out" && mkdir -p "$out"
keys="pairs=1,2 patterns=pingpong,stream sizes=8,64KiB hops=auto sample_time=20ms repetitions=5
allow_shared_node=yes allow_shared_kernel=yes output=$out"
one() {   # one DESIGN I
	flock /run/lock/swstress-heavy.lock $MPIEXEC -n 4 "$SW" run $keys design=$1 label=$1-$2 --no-plot \
		> /dev/null 2> "$out/err-$1-$2" || { echo "design: $1 run $2 failed" >&2; cat "$out/err-$1-$2" >&2; exit 1; }
}
for i in $(seq 1 "$runs"); do
	if [ $((i % 2)) = 1 ]; then one sequential "$i"; one blocks "$i"; else one blocks "$i"; one sequential "$i"; fi
done
python3 - "$out" <<'PY'
import glob, json, statistics, sys
d = {}
for f in glob.glob(sys.argv[1] + "/*-*/run.json"):
    j = json.load(open(f))
    d.setdefault(j["design"], {})[j["config"]["label"].split("-")[1]] = j["duration_s"]
seq, blk = d["sequential"], d["blocks"]
ratios = sorted(blk[i] / seq[i] for i in seq if i in blk)
print("design: wall time of the sweep, s (4 ranks, 2 levels, pingpong and stream, 8 B and 64 KiB, hops = auto, "
      "sample_time 20 ms, 5 repetitions)")
print("  sequential: median %.3f s (%s)" % (statistics.median(seq.values()), ", ".join("%.3f" % v for v in sorted(seq.values()))))
print("  blocks:     median %.3f s (%s)" % (statistics.median(blk.values()), ", ".join("%.3f" % v for v in sorted(blk.values()))))
print("  blocks / sequential, per pair of runs: median %.3f (%s)" % (statistics.median(ratios), ", ".join("%.3f" % r for r in ratios)))
PY
