#!/bin/sh
# swstress against the OSU micro-benchmarks, side by side, like for like:
#   osu_latency  vs pingpong, 2 ranks          (µs, one way)
#   osu_bw       vs stream, 2 ranks, window 64 (MB/s)
#   osu_bibw     vs bidir, 2 ranks, window 64  (MB/s, both directions)
#   osu_mbw_mr   vs stream aggregate, 8 ranks, 4 pairs i <-> i+4 (pairing = halves)
#   osu_mbw_mr   (test mbw_mr2) vs stream with ranks_per_node = 2, 4 ranks:
#                one pair of nodes {0,1}-{2,3}, its 2 rank pairs 0-2 and 1-3
#                as osu_mbw_mr's 2 pairs (MB/s; at one size the message
#                rate's ratio is the same)
# Both tools run under the same mpiexec, binding and niceness, one size per
# run, and alternate size by size (OSU first in odd repetitions, swstress
# first in even ones): this host switches between speeds every few seconds
# (tests/bench/RESULTS.md §12), so each swstress run is paired with the OSU
# run of the same size just before or after it. The table has medians over
# repetitions, the best repetition of each, the ratios, and the median of the
# paired ratios.
#
#   make bench OSU=/path/to/osu-micro-benchmarks-7.4
#   OSU=... sh tests/bench/osu.sh [REPS]          (from the repository root)
#
# OSU is a source tree (built here with mpicc when it holds no binaries,
# printing 4 decimals instead of its 2) or a build or install tree. Nothing
# is ever downloaded.
# Env: REPS (5), SW (build/swstress), OUT (build/bench/osu), TESTS
# ("latency bw bibw mbw_mr mbw_mr2"), SAMPLE_TIME (20ms), SW_ARGS (more key=value
# for swstress, e.g. distinct_buffers=yes), SIZES (bytes, 1 B..4 MiB),
# MBW_SIZES (osu_mbw_mr's: 8 ranks on 2 cores make its full range take many minutes),
# NICE ("nice -n -5" as root), BIND ("-bind-to core"), OSU_ARGS (more
# options for OSU, e.g. "-i 2000": at small sizes its default 100 windows
# last about 3 ms, short enough to fall between this host's slow
# stretches, so its runs scatter far more than swstress's 20 ms samples).
set -u
REPS=${1:-${REPS:-5}}
OSU=${OSU:-}
SW=${SW:-$PWD/build/swstress}
OUT=${OUT:-$PWD/build/bench/osu}
TESTS=${TESTS:-latency bw bibw mbw_mr mbw_mr2}
SAMPLE_TIME=${SAMPLE_TIME:-20ms}
SW_ARGS=${SW_ARGS:-}
OSU_ARGS=${OSU_ARGS:-}
MBW_SIZES=${MBW_SIZES:-8 65536 1048576 4194304}
BIND=${BIND:--bind-to core}
MPIEXEC=${MPIEXEC:-mpiexec}
if [ -z "${NICE+x}" ]; then NICE=""; [ "$(id -u)" = 0 ] && NICE="nice -n -5"; fi
export UCX_TLS=${UCX_TLS:-self,sm,tcp}
SIZES=${SIZES:-1 4 8 16 64 256 1024 4096 16384 65536 262144 1048576 4194304}
OSU_BUILD=$PWD/build/bench/osu-build
PROGS="osu_latency osu_bw osu_bibw osu_mbw_mr"

. "$(dirname "$0")/osu_build.sh"
[ -x "$SW" ] || { echo "osu: $SW missing (make all)" >&2; exit 1; }

rm -rf "$OUT" && mkdir -p "$OUT"
{
	echo "osu: $(dirname "$(osu_bin osu_bw)")"
	echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'), reps $REPS, swstress $SW $SW_ARGS, sample_time $SAMPLE_TIME, OSU options: ${OSU_ARGS:-none}"
	echo "launch: $NICE $MPIEXEC $BIND, UCX_TLS=$UCX_TLS, $(nproc) cores"
	echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$OUT/info.txt"

# runlog TOOL ITEM REP CMD...: run, recording the load average around it.
runlog() {
	tool=$1 t=$2 rep=$3; shift 3
	l0=$(cut -d' ' -f1 /proc/loadavg)
	timeout 900 $NICE "$@" || echo "osu: $tool $t (rep $rep) failed" >&2
	echo "$rep $t $tool $l0 $(cut -d' ' -f1 /proc/loadavg)" >> "$OUT/load.txt"
}

run_osu() {   # TEST:SIZE REP
	t=${1%:*} s=${1#*:} np=2
	[ "$t" = mbw_mr ] && np=8
	[ "$t" = mbw_mr2 ] && np=4
	# shellcheck disable=SC2086
	runlog osu "$1" "$2" $MPIEXEC $BIND -n $np "$(osu_bin "osu_${t%2}")" -m "$s:$s" $OSU_ARGS > "$OUT/osu-$t-$2-$s.txt" 2>&1
}

run_sw() {    # TEST:SIZE REP
	t=${1%:*} s=${1#*:} np=2
	case $t in
	latency) args="pairs=1 patterns=pingpong";;
	bw) args="pairs=1 patterns=stream";;
	bibw) args="pairs=1 patterns=bidir";;
	mbw_mr) np=8 args="pairs=4 pairing=halves patterns=stream";;
	mbw_mr2) np=4 args="pairs=1 ranks_per_node=2 patterns=stream";;
	esac
	# shellcheck disable=SC2086
	runlog swstress "$1" "$2" $MPIEXEC $BIND -n $np "$SW" run -c /dev/null allow_shared_node=yes sizes="$s" \
		hops=auto sample_time="$SAMPLE_TIME" repetitions=10 warmup=2 window=64 $args $SW_ARGS \
		output="$OUT/sw-$t-$2-$s" label=osu --no-plot --no-history > /dev/null 2> "$OUT/sw-$t-$2-$s.log"
}

items=""
for t in $TESTS; do
	sizes=$SIZES
	case $t in mbw_mr*) sizes=$MBW_SIZES;; esac
	for s in $sizes; do items="$items $t:$s"; done
done
. "$(dirname "$0")/alternate.sh"
alternate osu "$REPS" "$items" run_osu run_sw
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/info.txt"
python3 "$(dirname "$0")/osu_table.py" "$OUT" | tee "$OUT/table.md"
