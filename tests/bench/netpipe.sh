#!/bin/sh
# swstress against NetPIPE (NPmpich2), two ranks, same mpiexec and binding,
# like for like: pingpong vs NetPIPE's default ping-pong, stream vs
# `NPmpich2 -s`, bidir vs `NPmpich2 -2 -a`. One size per run; the tools
# alternate size by size (A B, then B A next repetition), so that each
# swstress run has the NetPIPE run of the same size next to it in time (this
# host changes speed every few seconds: tests/bench/RESULTS.md §12); the
# table compares the medians over repetitions and the paired ratios.
#   sh tests/bench/netpipe.sh [REPS]        (from the repository root)
# Env: SW (binary, default build/swstress), OUT (folder, default
# build/bench/netpipe), MODES (default "pingpong stream bidir"), SIZES
# (bytes, default 1 B..4 MiB), SAMPLE_TIME (swstress, default 20ms), SW_REPS
# (swstress samples per run, default 3: NetPIPE's trials), SW_ARGS (more
# key=value for swstress, e.g. "timed=no blocking_waits=yes", NetPIPE's own
# way of waiting), BIND (default "-bind-to core").
set -u
REPS=${1:-3}
SW=${SW:-$PWD/build/swstress}
OUT=${OUT:-$PWD/build/bench/netpipe}
MODES=${MODES:-pingpong stream bidir}
SAMPLE_TIME=${SAMPLE_TIME:-20ms}
SW_REPS=${SW_REPS:-3}   # samples per swstress run: NetPIPE keeps the best of 3 trials
SW_ARGS=${SW_ARGS:-}
BIND=${BIND:--bind-to core}
MPIEXEC=${MPIEXEC:-mpiexec}
export UCX_TLS=${UCX_TLS:-self,sm,tcp}
SIZES=${SIZES:-1 4 8 16 64 256 1024 4096 16384 65536 262144 1048576 4194304}

command -v NPmpich2 > /dev/null || { echo "netpipe: NPmpich2 missing (apt-get install netpipe-mpich2)" >&2; exit 1; }
rm -rf "$OUT" && mkdir -p "$OUT"
echo "load before: $(cat /proc/loadavg)" > "$OUT/load.txt"
echo "swstress: $SW $SW_ARGS" >> "$OUT/load.txt"

# -a (preposted receives) for -2: without it both ranks block in MPI_Send
# past the eager limit (NetPIPE -2 deadlocks at 12 KiB here).
np_flag() { case $1 in pingpong) echo "";; stream) echo "-s";; bidir) echo "-2 -a";; esac; }

run_np() {   # MODE:SIZE REP
	m=${1%:*} s=${1#*:}
	# shellcheck disable=SC2046
	timeout 600 $MPIEXEC $BIND -n 2 NPmpich2 $(np_flag "$m") -p 0 -l "$s" -u "$s" \
		-o "$OUT/np-$m-$2-$s.out" > "$OUT/np-$m-$2-$s.log" 2>&1 || echo "netpipe: NPmpich2 $1 failed" >&2
}

run_sw() {   # MODE:SIZE REP
	m=${1%:*} s=${1#*:}
	timeout 600 $MPIEXEC $BIND -n 2 "$SW" run -c /dev/null allow_shared_node=yes pairs=1 \
		patterns="$m" sizes="$s" hops=auto sample_time="$SAMPLE_TIME" repetitions=$SW_REPS warmup=1 \
		window=64 $SW_ARGS output="$OUT/sw-$m-$2-$s" label=bench --no-plot --no-history > /dev/null \
		2> "$OUT/sw-$m-$2-$s.log" || echo "netpipe: swstress $1 failed" >&2
}

items=""
for m in $MODES; do
	for s in $SIZES; do items="$items $m:$s"; done
done
. "$(dirname "$0")/alternate.sh"
alternate netpipe "$REPS" "$items" run_np run_sw
echo "load after: $(cat /proc/loadavg)" >> "$OUT/load.txt"
python3 "$(dirname "$0")/netpipe_table.py" "$OUT" | tee "$OUT/table.md"
