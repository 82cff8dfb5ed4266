#!/bin/sh
# Every benchmark (`make bench`; never part of `make test`). Results go to
# build/bench/; the figures quoted in tests/bench/RESULTS.md come from here.
#   sh tests/bench/run_all.sh [netpipe|osu|phase|deadline|timer|waits|efficiency|adaptive|scale|fabric48|map48|mapfalse|victims|exitstatus|profile|design|claims ...]
# osu and phase need OSU=path of the OSU micro-benchmarks (tests/bench/osu.sh says how to get them).
# The machine is shared: each part prints the load average it ran under.
set -u
B=$(dirname "$0")
mkdir -p build/bench
parts=${*:-timer waits netpipe osu phase deadline efficiency adaptive scale fabric48 map48 mapfalse victims exitstatus profile design claims}
rc=0
for p in $parts; do
	echo "== $p ($(date -u +%H:%M:%S), load $(cut -d' ' -f1-3 /proc/loadavg))"
	case $p in
	timer)
		${MPICC:-mpicc} -O2 -o build/bench/timer "$B/timer.c" && ${MPIEXEC:-mpiexec} -n 1 build/bench/timer || rc=1;;
	waits)   # how a rank waits for a window (the choice in engine_wait.c's eng_wait_reqs)
		${MPICC:-mpicc} -O2 -o build/bench/waits "$B/waits.c" || { rc=1; continue; }
		for s in 8 1024 65536; do
			UCX_TLS=${UCX_TLS:-self,sm,tcp} ${MPIEXEC:-mpiexec} -bind-to core -n 2 build/bench/waits $s $((s > 4096 ? 300 : 3000)) || rc=1
		done
		for s in 1 8 64 1024; do   # and for a ping-pong (pingpong's eng_wait_reqs of 1 or 2 requests)
			UCX_TLS=${UCX_TLS:-self,sm,tcp} ${MPIEXEC:-mpiexec} -bind-to core -n 2 build/bench/waits ping $s || rc=1
		done;;
	netpipe)   # like for like: NetPIPE waits in blocking calls and counts no deadline
		SW_ARGS="timed=no blocking_waits=yes" sh "$B/netpipe.sh" "${REPS:-3}" || rc=1;;
	osu)   # like for like (OSU's loops: hop counts, blocking waits), then swstress's defaults
		SW_ARGS="timed=no blocking_waits=yes" TESTS="latency bw bibw" OUT=build/bench/osu-like \
			sh "$B/osu.sh" "${OSU_REPS:-5}" || rc=1
		TESTS="bw bibw mbw_mr" OUT=build/bench/osu-default sh "$B/osu.sh" "${OSU_REPS:-5}" || rc=1;;
	phase) sh "$B/phase.sh" "${PHASE_REPS:-3}" || rc=1;;   # bidir 8-16 B against the shared-memory FIFO's phase
	deadline) sh "$B/deadline.sh" "${DEADLINE_ROUNDS:-9}" || rc=1;;   # the default timed flow against its untimed loops
	efficiency) sh "$B/efficiency.sh" || rc=1;;
	adaptive) sh "$B/adaptive.sh" || rc=1;;
	scale) sh "$B/scale.sh" || rc=1;;
	calibration) make -s build/calibrate && ./build/calibrate 2000 | tee build/bench/calibration.txt || rc=1;;
	fabric48) sh "$B/fabric48.sh" || rc=1;;
	map48) sh "$B/map48.sh" || rc=1;;   # the fabric map of 48 emulated hosts (root)
	mapfalse) sh "$B/mapfalse.sh" "${MAPFALSE_RUNS:-5}" || rc=1;;   # healthy maps' false flags (root)
	victims) sh tests/fabric/victims.sh "${VICTIM_RUNS:-5}" || rc=1;;   # the CPU control, 5 runs (root)
	exitstatus) sh "$B/exitstatus.sh" "${EXIT_RUNS:-50}" || rc=1;;
	profile) sh "$B/profile.sh" || rc=1;;
	design) sh "$B/design.sh" "${DESIGN_RUNS:-5}" || rc=1;;   # the wall-time cost of blocks
	claims)   # every claim a user reads, end to end (tests/claims): the full datasets and the table
		CLAIMS_FULL=1 sh tests/claims/run_tests.sh > build/bench/claims.txt 2>&1 || rc=1; cat build/bench/claims.txt;;
	*) echo "bench: unknown part '$p'" >&2; rc=2;;
	esac
done
exit $rc
