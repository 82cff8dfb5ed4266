#!/bin/sh
# Scale: rank-0 peak memory (max RSS by /usr/bin/time -v) of a
# procurement-like sweep on 8 ranks, and the time of
# `swstress plan -c configs/procurement.conf -n 4096`.
#   sh tests/bench/scale.sh                 (from the repository root)
set -u
SW=${SW:-$PWD/build/swstress}
OUT=${OUT:-$PWD/build/bench/scale}
MPIEXEC=${MPIEXEC:-mpiexec}
export UCX_TLS=${UCX_TLS:-self,sm,tcp}
rm -rf "$OUT" && mkdir -p "$OUT"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in 1 2 3 4 5; do
	/usr/bin/time -f "%e %M" -o "$OUT/plan.$i" "$SW" plan -c configs/procurement.conf -n 4096 > /dev/null
done
cat "$OUT"/plan.* | sort -n | awk '{a[NR] = $1; m = $2} END {printf "plan -n 4096: median %.3f s of %d runs (min %.3f, max %.3f), max RSS %d KB\n", a[int((NR + 1) / 2)], NR, a[1], a[NR], m}'
# The procurement config on 8 ranks: levels 2, 4, 6, 8 nodes, every size and
# pattern; short samples so it ends in about a minute.
timeout 900 $MPIEXEC -n 8 sh -c 'exec /usr/bin/time -v -o "$0/rss.$PMI_RANK" "$@"' "$OUT" "$SW" run \
	-c configs/procurement.conf allow_shared_node=yes nodes=2,4,6,8 sample_time=1ms repetitions=10..100 \
	cell_budget=1s timeout=60s output="$OUT" label=scale --no-plot > /dev/null 2> "$OUT/err" ||
	{ echo "scale: run failed" >&2; tail "$OUT/err" >&2; exit 1; }
d=$(ls -d "$OUT"/scale-* | head -n 1)
for r in 0 1; do echo "rank $r max RSS: $(sed -n 's/.*Maximum resident set size (kbytes): //p' "$OUT/rss.$r") KB"; done
python3 - "$d" <<'PY'
import json, sys
r = json.load(open(sys.argv[1] + "/run.json"))
n = sum(c["reps"] * c["pairs"] for c in r["cells"])
print("8-rank run: %d cells, %d samples (%.1f KB of struct sw_sample), duration %.1f s" % (
    len(r["cells"]), n, n * 40 / 1024, r["duration_s"]))
# 48 ranks, procurement.conf: 6 levels (4..24 pairs), 33 cells a level, at most 100 repetitions
pairs = [4, 8, 12, 16, 20, 24]
mx = 33 * 100 * sum(pairs)
print("48-rank procurement: at most %d samples = %.1f MB of samples (40 B each); the engine's "
      "latency buffer %d doubles" % (mx, mx * 40 / 1e6, 24 * 100))
PY
