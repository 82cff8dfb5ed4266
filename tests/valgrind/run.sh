#!/bin/sh
# swstress under valgrind memcheck: a 2-rank run (pingpong, stream, bidir;
# eager and rendezvous sizes; hops=auto calibration; adaptive repetitions),
# then `report` and `plan` (no MPI) on its results. Errors inside MPICH and
# UCX are suppressed (mpich-ucx.supp); any other error, or a definite leak,
# fails. Prints "valgrind: N passed, N failed, N skipped" (tests/lib.sh).
#   sh tests/valgrind/run.sh          (from the repository root; ~1-2 min)
set -u
. "$(dirname "$0")/../lib.sh"
t_begin valgrind
SW=${SW:-$PWD/build/swstress}
MPIEXEC=${MPIEXEC:-mpiexec}
SUPP=$(dirname "$0")/mpich-ucx.supp
t_tmpdir vg
TMP=$T_TMP
export UCX_TLS=${UCX_TLS:-self,sm,tcp}
# swstress would execute itself again with its finalize workaround loaded,
# which valgrind does not follow: keep the process under memcheck.
export SWSTRESS_PRELOAD=0
VG="valgrind --error-exitcode=99 --error-limit=no --num-callers=40 --leak-check=full
 --errors-for-leak-kinds=definite --show-leak-kinds=definite --track-origins=yes -s --suppressions=$SUPP"

# valgrind is in the Makefile's PACKAGES: without it, a failure.
command -v valgrind > /dev/null || t_bail "valgrind: not installed (apt-get install valgrind)"

# vg_fail WHAT LOGS: fail WHAT, then memcheck's reports from the LOGS (a
# pattern): the errors and definite leaks, not the whole logs.
vg_fail() {
	fail "$1"
	for f in $2; do
		grep -v "^==[0-9]*== *$" "$f" | grep -A30 -E "Invalid|uninit|definitely|Syscall|Mismatched|overlap" | head -60
	done
}

# errors LOGS: the sum of "ERROR SUMMARY: N errors" over the logs.
errors() { cat "$@" | sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' | awk '{s += $1} END {print s + 0}'; }

timeout 900 $MPIEXEC -n 2 $VG --log-file="$TMP/run.%p.log" "$SW" run -c /dev/null allow_shared_node=yes \
	pairs=1 patterns=pingpong,stream,bidir sizes=8,64KiB,1MiB hops=auto sample_time=2ms \
	repetitions=3..6 ci_target=0.5 warmup=1 window=8 timeout=120 output="$TMP/out" label=vg \
	--no-plot > "$TMP/stdout" 2> "$TMP/stderr"
rc=$?
n=$(errors "$TMP"/run.*.log)
logs=$(ls "$TMP"/run.*.log 2>/dev/null | wc -l)
if [ "$rc" = 0 ] && [ "$logs" = 2 ] && [ "$n" = 0 ]; then
	ok "2-rank run under memcheck: 0 errors outside MPICH/UCX ($(grep -h "used_suppression" "$TMP"/run.*.log | awk '{print $4}' | sort -u | tr '\n' ' ')suppressed)"
else vg_fail "2-rank run under memcheck: rc=$rc logs=$logs errors=$n" "$TMP/run.*.log"; tail -5 "$TMP/stderr"; fi

dir=$(ls -d "$TMP"/out/vg-* 2>/dev/null | head -n 1)
if [ -n "$dir" ] && $VG --log-file="$TMP/report.log" "$SW" report "$dir" confidence=0.99 > "$TMP/rep" 2>&1 &&
	[ "$(errors "$TMP/report.log")" = 0 ]; then
	ok "report on its results under memcheck: 0 errors, no leaks"
else vg_fail "report under memcheck (exit or errors; its last lines below)" "$TMP/report.log"; tail -3 "$TMP/rep"; fi
if $VG --log-file="$TMP/plan.log" "$SW" plan -c configs/procurement.conf -n 48 > /dev/null 2>&1 &&
	[ "$(errors "$TMP/plan.log")" = 0 ]; then
	ok "plan -n 48 under memcheck: 0 errors, no leaks"
else vg_fail "plan under memcheck" "$TMP/plan.log"; fi
t_end
