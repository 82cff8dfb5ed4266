#!/bin/sh
# The wall-time cost of the block design (issue #26): the same config run
# as design = sequential and design = blocks, alternately (the order
# swapped every pair, so a slow phase of the shared machine falls on both),
# RUNS pairs (default 5); each run's duration_s from run.json, and the
# median ratio blocks / sequential. Budget: within 5%.
#   sh tests/bench/design.sh [RUNS]
# The config is make run's (configs/quick.conf) on 4 ranks, a sweep as
# users run it, with DESIGN_KEYS="key=value ..." on top (default timed=yes:
# every cell time-bounded, so that both designs do the same work; with
# DESIGN_KEYS= hops = auto calibrates a different pingpong hop count every
# run, and that spread, not the design, sets the ratio's); DESIGN_CONF= drops the config for a sweep of
# DESIGN_KEYS alone (RESULTS.md section 14's first toy: DESIGN_CONF=
# DESIGN_KEYS="pairs=1,2 patterns=pingpong,stream sizes=8,64KiB hops=auto
# sample_time=20ms repetitions=5").
set -u
SW=${SW:-$PWD/build/swstress}
MPIEXEC=${MPIEXEC:-mpiexec}
runs=${1:-5}
out=build/bench/design
rm -rf "$out" && mkdir -p "$out"
conf=${DESIGN_CONF-configs/quick.conf} extra=${DESIGN_KEYS-timed=yes}
src=${conf:+-c $conf} what="${conf:-no config}${extra:+ + $extra}"
keys="allow_shared_node=yes allow_shared_kernel=yes output=$out $extra"
one() {   # one DESIGN I
	# shellcheck disable=SC2086 # the keys are words
	flock /run/lock/swstress-heavy.lock $MPIEXEC -n 4 "$SW" run $src $keys design=$1 label=$1-$2 --no-plot \
		> /dev/null 2> "$out/err-$1-$2" || { echo "design: $1 run $2 failed" >&2; cat "$out/err-$1-$2" >&2; exit 1; }
}
for i in $(seq 1 "$runs"); do
	if [ $((i % 2)) = 1 ]; then one sequential "$i"; one blocks "$i"; else one blocks "$i"; one sequential "$i"; fi
done
python3 - "$out" "$what" <<'PY'
import glob, json, statistics, sys
d = {}
for f in glob.glob(sys.argv[1] + "/*-*/run.json"):
    j = json.load(open(f))
    i = j["config"]["label"].split("-")[1]
    d.setdefault(j["design"], {})[i] = j["duration_s"]
seq, blk = d["sequential"], d["blocks"]
ratios = sorted(blk[i] / seq[i] for i in seq if i in blk)
def row(v): return ", ".join("%.3f" % x for x in sorted(v.values()))
print("design: wall time of the sweep, s (4 ranks; %s)" % sys.argv[2])
print("  sequential: median %.3f s (%s)" % (statistics.median(seq.values()), row(seq)))
print("  blocks:     median %.3f s (%s)" % (statistics.median(blk.values()), row(blk)))
print("  blocks / sequential, per pair of runs: median %.3f (%s)" % (statistics.median(ratios), ", ".join("%.3f" % r for r in ratios)))
PY
