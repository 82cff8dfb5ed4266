#!/bin/sh
# Why bidir of 8-16 B on shared memory is no fixed target: the FIFO phase.
# UCX's shared-memory transport (sysv or posix) hands each message of up to
# a FIFO element to the receiver's FIFO of 64 elements, and the receiver
# gives elements back 32 at a time; a window of 64 messages fits the free
# elements only when it starts where a 32 begins. So a loop's rate at small
# messages depends on how many messages went through the FIFO before it,
# mod 32: its phase. The preload fifo_shift.so swaps FIFO_SHIFT one-byte
# messages between ranks 0 and 1 right after MPI_Init, and nothing else;
# here osu_bibw and swstress's timed bidir (the default flow) run with
# FIFO_SHIFT = each of SHIFTS, alternating as in osu.sh (load affects them
# alike). The table: each one's median M messages/s a way at each shift,
# and over the shifts its lowest, median and highest as a ratio to
# osu_bibw at shift 0 (what osu_bibw prints when run as it is).
#
#   make bench OSU=/path/to/osu-micro-benchmarks-7.4    (part "phase")
#   OSU=... sh tests/bench/phase.sh [REPS]               (from the repository root)
#
# Env: REPS (3), SIZES ("8 16"), SHIFTS (0 2 .. 30), SW (build/swstress),
# OUT (build/bench/phase), SAMPLE_TIME (20ms), NICE, BIND, MPIEXEC as osu.sh.
set -u
REPS=${1:-${REPS:-3}}
OSU=${OSU:-}
SW=${SW:-$PWD/build/swstress}
OUT=${OUT:-$PWD/build/bench/phase}
SIZES=${SIZES:-8 16}
SHIFTS=${SHIFTS:-0 2 4 6 8 10 12 14 16 18 20 22 24 26 28 30}
SAMPLE_TIME=${SAMPLE_TIME:-20ms}
BIND=${BIND:--bind-to core}
MPIEXEC=${MPIEXEC:-mpiexec}
if [ -z "${NICE+x}" ]; then NICE=""; [ "$(id -u)" = 0 ] && NICE="nice -n -5"; fi
export UCX_TLS=${UCX_TLS:-self,sm,tcp}
OSU_BUILD=$PWD/build/bench/osu-build
PROGS="osu_bibw"
B=$(dirname "$0")
. "$B/osu_build.sh"
[ -x "$SW" ] || { echo "phase: $SW missing (make all)" >&2; exit 1; }
mkdir -p build/bench
SHIM=$PWD/build/bench/fifo_shift.so
${MPICC:-mpicc} -shared -fPIC -O2 -o "$SHIM" "$B/fifo_shift.c" || { echo "phase: cannot build $SHIM" >&2; exit 1; }
rm -rf "$OUT" && mkdir -p "$OUT"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'), reps $REPS, launch: $NICE $MPIEXEC $BIND, UCX_TLS=$UCX_TLS, load $(cut -d' ' -f1-3 /proc/loadavg)" > "$OUT/info.txt"

run_osu() {   # SIZE:SHIFT REP
	s=${1%:*} k=${1#*:}
	# shellcheck disable=SC2086
	FIFO_SHIFT=$k LD_PRELOAD=$SHIM timeout 300 $NICE $MPIEXEC $BIND -n 2 "$(osu_bin osu_bibw)" -m "$s:$s" \
		> "$OUT/osu-$s-$k-$2.txt" 2>&1 || echo "phase: osu_bibw $1 (rep $2) failed" >&2
}

run_sw() {    # SIZE:SHIFT REP
	s=${1%:*} k=${1#*:}
	# shellcheck disable=SC2086
	FIFO_SHIFT=$k LD_PRELOAD=$SHIM timeout 300 $NICE $MPIEXEC $BIND -n 2 "$SW" run -c /dev/null \
		allow_shared_node=yes sizes="$s" hops=auto sample_time="$SAMPLE_TIME" repetitions=10 warmup=2 \
		window=64 pairs=1 patterns=bidir output="$OUT/sw-$s-$k-$2" label=phase --no-plot --no-history \
		> /dev/null 2> "$OUT/sw-$s-$k-$2.log" || echo "phase: swstress $1 (rep $2) failed" >&2
}

items=""
for s in $SIZES; do for k in $SHIFTS; do items="$items $s:$k"; done; done
. "$B/alternate.sh"
alternate phase "$REPS" "$items" run_osu run_sw
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/info.txt"
python3 "$B/phase_table.py" "$OUT" | tee "$OUT/table.md"
