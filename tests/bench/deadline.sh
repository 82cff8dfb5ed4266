#!/bin/sh
# deadline.sh [ROUNDS] - what the common deadline costs (issue 31): the same
# binary's default timed flow against its untimed loops (timed = no, with
# polling waits and with blocking_waits = yes, OSU's loops and waits), 2
# ranks on shared memory, stream and bidir, one size at a time. The variants
# run in turn, the order rotated each round (this host changes speed every
# few seconds: tests/bench/RESULTS.md §12), and each untimed run is paired
# with the timed run of its round. Prints the median MB/s of each and the
# median paired ratio untimed / timed with a distribution-free ~95%
# interval (order statistics): "cost" = 1 - timed / untimed.
#   sh tests/bench/deadline.sh [ROUNDS]      (from the repository root)
# Env: SW (build/swstress), SIZES ("8 64 1024"), PATTERNS ("stream bidir"),
# SAMPLE_TIME (20ms), OUT (build/bench/deadline), NICE ("nice -n -5" as root).
set -u
ROUNDS=${1:-9}
SW=${SW:-$PWD/build/swstress}
SIZES=${SIZES:-8 64 1024}
PATTERNS=${PATTERNS:-stream bidir}
SAMPLE_TIME=${SAMPLE_TIME:-20ms}
OUT=${OUT:-$PWD/build/bench/deadline}
if [ -z "${NICE+x}" ]; then NICE=""; [ "$(id -u)" = 0 ] && NICE="nice -n -5"; fi
export UCX_TLS=${UCX_TLS:-self,sm,tcp}
[ -x "$SW" ] || { echo "deadline: $SW missing (make all)" >&2; exit 1; }
rm -rf "$OUT" && mkdir -p "$OUT"
VARIANTS="timed untimed untimed-blocking"
args() { case $1 in timed) echo "";; untimed) echo "timed=no";; untimed-blocking) echo "timed=no blocking_waits=yes";; esac; }
echo "deadline: $(date -u '+%Y-%m-%d %H:%M UTC'), $ROUNDS rounds, load $(cut -d' ' -f1-3 /proc/loadavg)"
for p in $PATTERNS; do
	for s in $SIZES; do
		i=1
		while [ "$i" -le "$ROUNDS" ]; do
			set -- $VARIANTS
			k=$((i % 3)); while [ "$k" -gt 0 ]; do v=$1; shift; set -- "$@" "$v"; k=$((k - 1)); done
			for v in "$@"; do
				o="$OUT/$p-$s-$v-$i"
				# shellcheck disable=SC2046 # the keys are words
				$NICE mpiexec -bind-to core -n 2 "$SW" run -c /dev/null allow_shared_node=yes sizes="$s" \
					hops=auto sample_time="$SAMPLE_TIME" repetitions=10 warmup=2 window=64 pairs=1 \
					patterns="$p" $(args "$v") output="$o" label=deadline --no-plot --no-history \
					> /dev/null 2> "$o.log" || echo "deadline: $p $s $v (round $i) failed" >&2
			done
			i=$((i + 1))
		done
	done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$OUT" "$ROUNDS" "$PATTERNS" "$SIZES" <<'PY'
import csv, glob, statistics, sys
out, rounds, pats, sizes = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), sys.argv[4].split()
def bw(p, s, v, i):
    f = glob.glob("%s/%s-%s-%s-%d/*/summary.csv" % (out, p, s, v, i))
    if not f:
        return None
    rows = list(csv.DictReader(l for l in open(f[0]) if not l.startswith("#")))
    return float(rows[0]["bw_median_MBps"])
def ci(r):   # ~95% distribution-free interval of the median: order statistics
    r = sorted(r); n = len(r); h = int(0.98 * n ** 0.5 + 0.5)
    return r[max(0, n // 2 - h)], r[min(n - 1, (n - 1) // 2 + h)]
print("| pattern | size | timed MB/s | untimed MB/s | untimed / timed [~95%] | untimed-blocking MB/s | untimed-blocking / timed [~95%] |")
print("|---|---:|---:|---:|---:|---:|---:|")
for p in pats:
    for s in sizes:
        v = {k: [bw(p, s, k, i) for i in range(1, rounds + 1)] for k in ("timed", "untimed", "untimed-blocking")}
        cells = ["%s | %s B" % (p, s), "%.1f" % statistics.median([x for x in v["timed"] if x])]
        for k in ("untimed", "untimed-blocking"):
            r = [u / t for u, t in zip(v[k], v["timed"]) if u and t]
            lo, hi = ci(r) if r else (float("nan"), float("nan"))
            cells += ["%.1f" % statistics.median([x for x in v[k] if x]),
                      "%.2f [%.2f, %.2f]" % (statistics.median(r), lo, hi) if r else "-"]
        print("| " + " | ".join(cells) + " |")
PY
