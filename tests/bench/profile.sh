#!/bin/sh
# Where the time goes: perf (Debian's linux-perf; cpu-clock sampling, as a
# VM has no hardware counters) on both ranks of a 2-rank stream, for
# swstress with one receive buffer and with distinct_buffers = yes, and for
# osu_bw when OSU is given (see tests/bench/osu.sh). Prints, per run and
# rank, the share of samples in swstress's own code, in MPICH/UCX, in the
# kernel, and the top symbols.
#   sh tests/bench/profile.sh [SIZE ...]      (default 8 1048576; bytes)
set -u
SIZES=${*:-8 1048576}
SW=${SW:-$PWD/build/swstress}
OUT=${OUT:-$PWD/build/bench/profile}
OSU=${OSU:-}
BIND=${BIND:--bind-to core}
MPIEXEC=${MPIEXEC:-mpiexec}
export UCX_TLS=${UCX_TLS:-self,sm,tcp}
command -v perf > /dev/null || { echo "SKIP profile: perf missing (apt-get install linux-perf)"; exit 0; }
rm -rf "$OUT" && mkdir -p "$OUT"
osu_bw=""
[ -n "$OSU" ] && osu_bw=$(find "$OSU" "$PWD/build/bench/osu-build" -name osu_bw -type f -perm -u+x 2> /dev/null | head -n 1)

# prof NAME CMD...: record both ranks of a 2-rank mpiexec, then summarise.
prof() {
	name=$1; shift
	echo "== $name (load $(cut -d' ' -f1-3 /proc/loadavg))"
	timeout 600 $MPIEXEC $BIND -n 2 sh -c 'exec perf record -q -o "$0.$PMI_RANK.data" "$@"' "$OUT/$name" "$@" \
		> "$OUT/$name.out" 2>&1 || { echo "profile: $name failed" >&2; tail -n 5 "$OUT/$name.out" >&2; return; }
	for r in 0 1; do
		perf report -i "$OUT/$name.$r.data" --no-children --sort dso,sym --percent-limit 0.5 2> /dev/null |
			grep -v '^#' | grep . > "$OUT/$name.$r.txt"
		awk -v r="$r" '{ p = $1 + 0; d = $2
			if (d == "[kernel.kallsyms]") k += p; else if (d ~ /^(swstress|osu_)/) o += p; else m += p }
			END { printf "rank %s: own code %.1f%%, MPI library %.1f%%, kernel %.1f%% (symbols >= 0.5%%)\n", r, o, m, k }' \
			"$OUT/$name.$r.txt"
		head -n 8 "$OUT/$name.$r.txt" | sed 's/^/    /'
	done
}

for s in $SIZES; do
	for b in no yes; do
		prof "stream-$s-distinct_$b" "$SW" run -c /dev/null allow_shared_node=yes pairs=1 patterns=stream \
			sizes="$s" hops=auto sample_time=20ms repetitions=30 warmup=2 distinct_buffers=$b \
			output="$OUT/runs" label=prof --no-plot --no-history
	done
	# about as many windows' worth of time as swstress's 30 samples of 20 ms
	[ -n "$osu_bw" ] && prof "osu_bw-$s" "$osu_bw" -m "$s:$s" -i $((s >= 65536 ? 100 : 20000))
done
