#!/bin/sh
# exitstatus.sh - can cron, Nagios and Slurm trust the exit status? (make bench)
# On the emulated fabric (8 hosts, UCX over TCP: where MPICH 4.0.2 can hang in
# MPI_Finalize), RUNS runs of build/swstress through Hydra, with the finalize
# workaround that swstress loads by itself (no LD_PRELOAD given), cycling
# through cases with a known status:
#   run OK (0), run with a rank stalled (1), run with a bad key (2),
#   check against its baseline with thresholds no noise reaches (0; a
#   suspect port, which the statistics may still raise, makes it 2),
#   check with a rank stalled (2 CRITICAL), check with a missing baseline (3).
# A check's exit status is right when it is the code of the verdict line it
# printed and that verdict is the expected one (any judged verdict for the
# healthy check). Prints each run's status and time, then "N of RUNS right"
# per case and in all. Root only (the fabric); holds the fabric lock from up
# to down.
#   sh tests/bench/exitstatus.sh [RUNS]      (default 50)
set -u
cd "$(dirname "$0")/../.." || exit 1
runs=${1:-50}
F=tests/fabric
[ "$(id -u)" = 0 ] || { echo "SKIP: exitstatus: needs root (the emulated fabric)"; exit 0; }
exec 9>/run/lock/swstress-fabric.lock
flock -w 1500 9 || { echo "exitstatus: the fabric lock stayed busy"; exit 1; }
T=$(mktemp -d /tmp/swexit.XXXXXX) || exit 1
trap 'sh $F/fabric.sh down >/dev/null 2>&1; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM
FABRIC_QUIET=1 sh $F/fabric.sh up single 8 || exit 1
q="pairs=1,max sizes=8 patterns=pingpong repetitions=3 sample_time=10ms timeout=3s output=$T/res --no-plot"
mp() { timeout -k 5 120 sh $F/mpirun.sh --timeout 100 --own-preload build/swstress "$@" </dev/null >"$T/out" 2>"$T/err"; }
mp run $q --label=base || { echo "exitstatus: baseline run failed: $(tail -n 3 "$T/err")"; exit 1; }
build/swstress baseline set nightly "$T"/res/base-* >/dev/null 2>&1 || { echo "exitstatus: baseline set failed"; exit 1; }
lenient="warn_drop=99.9 crit_drop=100 warn_inflation=99999 crit_inflation=100000"
cases="run-ok:0 run-stall:1 run-badkey:2 check-ok:0 check-stall:2 check-nobaseline:3"
ncases=$(echo $cases | wc -w)
right=0
i=0
while [ $i -lt "$runs" ]; do
	c=$(echo $cases | cut -d' ' -f$((i % ncases + 1)))
	name=${c%:*} want=${c#*:}
	t0=$(date +%s)
	case $name in
	run-ok) mp run $q ;;
	run-stall) SWSTRESS_FAULT_STALL=5:1 mp run $q ;;
	run-badkey) mp run $q nosuchkey=1 ;;
	check-ok) mp check $q --baseline nightly $lenient ;;
	check-stall) SWSTRESS_FAULT_STALL=5:1 mp check $q --baseline nightly ;;
	check-nobaseline) mp check $q --baseline no-such-set ;;
	esac
	rc=$?
	t=$(($(date +%s) - t0))
	i=$((i + 1))
	case $(grep -m 1 -o '^SWSTRESS [A-Z]*' "$T/out") in
	"SWSTRESS OK") verdict=0 ;; "SWSTRESS WARNING") verdict=1 ;; "SWSTRESS CRITICAL") verdict=2 ;;
	"SWSTRESS UNKNOWN") verdict=3 ;; *) verdict=none ;;
	esac
	# the healthy check: any judged verdict, as long as the status is its code
	[ "$name" = check-ok ] && [ "$verdict" != none ] && [ "$verdict" != 3 ] && want=$verdict
	case $name in check-*) [ "$verdict" = "$want" ] || want="$want (verdict $verdict)" ;; esac
	if [ "$rc" = "$want" ]; then
		right=$((right + 1)); echo "$i $name: exit $rc (want $want) ok, $t s"
		eval "ok_$(echo $name | tr - _)=\$((\${ok_$(echo $name | tr - _):-0} + 1))"
	else
		echo "$i $name: exit $rc (want $want) WRONG, $t s: $(head -n 1 "$T/out") $(tail -n 2 "$T/err" | tr '\n' ' ')"
	fi
	eval "n_$(echo $name | tr - _)=\$((\${n_$(echo $name | tr - _):-0} + 1))"
done
for c in $cases; do
	v=$(echo "${c%:*}" | tr - _)
	eval "echo \"${c%:*} (exit ${c#*:}): \${ok_$v:-0} of \${n_$v:-0} right\""
done
echo "exitstatus: $right of $runs right"
[ "$right" = "$runs" ]
