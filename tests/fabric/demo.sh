#!/bin/sh
# demo.sh CONFIG NP - the `make run` demo.
#
# As root with iproute2 and network namespaces: builds an emulated 8-host
# two-leaf fabric (100 Mbit/s ports, one 200 Mbit/s trunk, so 4 pairs across
# the trunk are oversubscribed 2:1), runs swstress through it with one rank per
# host, pairing=halves (every pair crosses the trunk), tears the fabric down
# and says where the results are. Otherwise runs NP ranks on this machine over
# shared memory (allow_shared_node=yes) and says why.
#
# Environment:
#   DEMO_TIMEOUT   seconds before the run is stopped (default 1800)
#   DEMO_CMD       replaces the swstress command (the demo's own tests run
#                  tests/fabric's MPI probe with it)
set -u
[ $# -eq 2 ] || { echo "usage: demo.sh CONFIG NP" >&2; exit 2; }
CONFIG=$1 NP=$2
cd "$(dirname "$0")/../.." || exit 1
F=tests/fabric
HOSTS=8 PORT_RATE=100mbit TRUNK_RATE=200mbit
TMO=${DEMO_TIMEOUT:-1800}

# ---- the command: the one place that says what the demo runs ----------------
# $1 = fabric | shm. The fabric run adds the keys that say "one rank per host,
# pairs across the trunk".
demo_cmd() {
	if [ -n "${DEMO_CMD:-}" ]; then
		echo "$DEMO_CMD"
	elif [ "$1" = fabric ]; then
		echo "build/swstress run -c $CONFIG pairing=halves allow_shared_node=no"
	else
		# Every rank on this one host: allowed for the demo (it measures the
		# MPI library and memory, not a switch; the config says no for the fabric).
		echo "build/swstress run -c $CONFIG allow_shared_node=yes"
	fi
}
# -----------------------------------------------------------------------------

newest_result() { ls -td results/*/ 2>/dev/null | head -1; }
say_results() {
	r=$(newest_result)
	if [ -n "$r" ] && [ "$r" != "$1" ]; then
		echo "demo: results are in ${r%/}/"
	else
		echo "demo: no new results folder under results/"
	fi
}

run_shm() {
	echo "demo: running on this machine over shared memory ($1): $NP ranks" >&2
	before=$(newest_result)
	cmd=$(demo_cmd shm)
	echo "+ ${MPIEXEC:-mpiexec} -n $NP $cmd" >&2
	timeout -k 10 "$TMO" ${MPIEXEC:-mpiexec} -n "$NP" $cmd
	rc=$?
	[ $rc = 124 ] && echo "demo: stopped after ${TMO}s" >&2
	say_results "$before"
	exit $rc
}

# ---- can we build a fabric? ----
if [ "$(id -u)" != 0 ]; then
	run_shm "the emulated fabric needs root"
fi
why=$(timeout 30 sh $F/fabric.sh check 2>&1) || run_shm "no emulated fabric: $why"
if ! timeout 300 sh $F/build.sh >/dev/null 2>&1; then
	run_shm "no emulated fabric: cannot build tests/fabric/finalize_preload.so"
fi

# ---- fabric run ----
# One fabric session at a time (the tests use the same names): advisory lock.
exec 9>/run/lock/swstress-fabric.lock && flock -w 600 9 ||
	run_shm "another fabric session (make test?) holds /run/lock/swstress-fabric.lock"
trap 'sh $F/fabric.sh down >/dev/null 2>&1; exit 130' INT TERM HUP
echo "demo: emulated fabric: $HOSTS hosts on two leaf switches, $PORT_RATE ports, one $TRUNK_RATE trunk" >&2
[ "$NP" = "$HOSTS" ] || echo "demo: (NP=$NP is for the shared-memory run; the fabric has $HOSTS hosts, one rank each)" >&2
if ! timeout 120 sh $F/fabric.sh up twoleaf $HOSTS --port-rate $PORT_RATE --trunk-rate $TRUNK_RATE; then
	sh $F/fabric.sh down >/dev/null 2>&1
	run_shm "building the emulated fabric failed"
fi
before=$(newest_result)
cmd=$(demo_cmd fabric)
echo "+ sh $F/mpirun.sh $cmd   (mpiexec -hosts $(sh $F/fabric.sh hosts) -launcher ssh -launcher-exec $F/launcher.sh -iface swbrM ...)" >&2
FABRIC_VERBOSE=1 sh $F/mpirun.sh --timeout "$TMO" $cmd
rc=$?
echo "demo: fabric counters after the run:" >&2
sh $F/fabric.sh status | grep -E '^(swsN|trunk)' >&2
timeout 120 sh $F/fabric.sh down
trap - INT TERM HUP
[ $rc = 124 ] && echo "demo: stopped after ${TMO}s" >&2
say_results "$before"
exit $rc
