# tests/fabric/lib.sh - the helpers of the fabric suites (run_tests.sh,
# victims.sh, wander.sh, ppn.sh), sourced after tests/lib.sh. sw uses $F (tests/fabric), $TMP
# (the suite's folder) and $SWCFG (the sweep's config file).

# fabric_begin NAME: skip suite NAME unless root, the fabric can be made
# ($FAB check), mpiexec and build/swstress are there; then $TMP, the fabric
# helpers built, the fabric lock held and t_cleanup taking the fabric down.
fabric_begin() {
	[ "$(id -u)" = 0 ] || t_skip_all "$1" "not root (network namespaces need root)"
	why=$(timeout 30 $FAB check 2>&1) || t_skip_all "$1" "$why"
	command -v mpiexec >/dev/null 2>&1 || t_skip_all "$1" "mpiexec not found"
	[ -x build/swstress ] || t_skip_all "$1" "build/swstress not built"
	t_tmpdir "$1"
	TMP=$T_TMP
	timeout 300 sh $F/build.sh >"$TMP/build.log" 2>&1 || t_skip_all "$1" "cannot build tests/fabric helpers"
	exec 9>/run/lock/swstress-fabric.lock && flock -w 1500 9 || t_bail "the fabric lock was held for 1500 s"
	t_cleanup() { timeout 60 $FAB down >/dev/null 2>&1; }
}

# in_range VALUE LO HI (decimals allowed)
in_range() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v != "" && v + 0 >= lo && v + 0 <= hi) }'; }

# sw NAME TIMEOUT [mpirun.sh options] [WRAPPER ARGS...] -- KEY=VALUE...: swstress
# through the fabric (each rank as `WRAPPER ARGS... build/swstress run ...` when a
# wrapper program ends the options, as tests/fabric/cpucap.sh in ppn.sh);
# sets $rc, $res (the results folder) and $WALL (its wall time, start-up
# included, in seconds); facts of the run in $TMP/NAME.facts
sw() {
	n=$1 t=$2; shift 2
	mo=""
	while [ $# -gt 0 ] && [ "$1" != -- ]; do mo="$mo $1"; shift; done
	[ $# -gt 0 ] && shift
	sw_t0=$(date +%s)
	# shellcheck disable=SC2086 # the options are words
	timeout -k 5 $((t + 15)) sh $F/mpirun.sh --timeout "$t" $mo build/swstress run -c "$SWCFG" --no-plot \
		label="$n" output="$TMP/res" "$@" </dev/null >"$TMP/$n.out" 2>"$TMP/$n.err"
	rc=$?
	WALL=$(($(date +%s) - sw_t0))
	res=$(ls -td "$TMP/res/$n"-*/ 2>/dev/null | head -1)
	res=${res%/}
	: >"$TMP/$n.facts"
	[ -n "$res" ] && python3 $F/swres.py "$res" >"$TMP/$n.facts" 2>>"$TMP/$n.err"
	return 0
}

# estimate NAME RANKS KEY=VALUE...: plan's estimate for the run just made
# by sw with those keys, on RANKS ranks sharing this machine's cores, within
# 0.5-2x of its wall time $WALL (issue 27: the estimate a user is quoted)
estimate() {
	n=$1 nr=$2; shift 2
	e=$(build/swstress plan -c "$SWCFG" -n "$nr" --cores "$(nproc)" "$@" 2>&1 |
		sed -n 's/^estimated time: \([0-9.]*\) s.*/\1/p')
	check "$n: plan's estimate ${e:-?} s within 0.5-2x of the wall time $WALL s" \
		awk -v w="$WALL" -v e="${e:-0}" 'BEGIN { exit !(e > 0 && w / e >= 0.5 && w / e <= 2) }'
}

# vl NAME PAIRS KEY: a fact of the victims line of NAME's cell with PAIRS pairs (swres.py)
vl() { grep "^victims cell=.* pairs=$2 " "$TMP/$1.facts" | head -1 | sed -n "s/.* $3=\([^ ]*\).*/\1/p"; }
