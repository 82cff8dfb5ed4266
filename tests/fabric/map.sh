#!/bin/sh
# map.sh - the fabric map's known answers on the emulated fabric (make
# fabric-test, from the repo root: sh tests/fabric/map.sh). Root only; SKIP
# with the reason otherwise. Ends with "map: N passed, N failed, N skipped".
#
# `swstress map` (every pair of the hosts once a block: N-1 rounds of N/2
# pairs at once, stream 8 KiB, time-bounded samples, 3 blocks, no warm-up:
# a block's shift cancels in the statistics) through
#   tree 16: 4 leaves x 4 hosts under one spine, 20 Mbit/s ports, 80 Mbit/s
#     uplinks (non-blocking: a leaf's 4 ports fill its uplink), the leaves
#     given as the groups, 0.5-s samples:
#     (a) healthy: no claim;
#     (b, c) in one run of 11 of the 15 rounds (a host tested with 11
#         partners; its effect's t on the 3 blocks, Holm over 16 hosts), the
#         faults on different elements: swsN05's port
#         (leaf B) at 2 Mbit/s and leaf C's uplink at 20 Mbit/s (its
#         crossing pairs get 5 to 10 Mbit/s, more than swsN05's port, so
#         swsN05 is slower than its leaf mates with every partner):
#         (b) swsN05 named, the only host; (c) the uplink of leafC named,
#         the only uplink, and no host of leaf C;
#   twoleaf 8: two bridges of 4 hosts joined by a 20 Mbit/s trunk that is
#     not declared (the groups inferred), 1.5-s samples (the tbf burst a small
#     share; every round with crossing pairs has 2 or 4 of them, so the
#     trunk binds in each):
#     (d) the two inferred groups are the two bridges' hosts, and the
#         trunk's capacity, what its crossing pairs carried in the rounds
#         with the most of them,
#         is within 5% of 20 Mbit/s of TCP payload (2.392 MB/s; 1.196 MB/s
#         a 10 Mbit/s port, tests/bench/fabric48.sh);
#   (e) the tree of (b, c) unloaded (map_concurrency = 1, 2 blocks of
#     0.3 s): swsN05 claimed alone, and report --unloaded calls it a fault
#     and leaf C's uplink congestion. (It replaced an unloaded twoleaf map,
#     whose trunk came out as congestion, to keep the suite's time.)
# 8-KiB messages keep a slow pair's count at the deadline fine-grained
# (a 2 Mbit/s port moves 15 of them in 0.5 s). The statistics are read
# through build/mapblame (one fact a line). The healthy maps' wall times
# check plan's estimate (0.5-2x). Ports are shaped low so that
# the network, not the 2 cores, limits 16 ranks. About 4 minutes (the
# rounds with a slowed element take longer to end).
# T_KEEP=1 keeps the results folders. Arguments: the fabrics to run (tree,
# trunk; default both).
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
t_begin map
F=tests/fabric
FAB="sh $F/fabric.sh"
export FABRIC_QUIET=1
[ "$(id -u)" = 0 ] || t_skip_all map "not root (network namespaces need root)"
why=$(timeout 30 $FAB check 2>&1) || t_skip_all map "$why"
command -v mpiexec >/dev/null 2>&1 || t_skip_all map "mpiexec not found"
[ -x build/mapblame ] && [ -x build/swstress ] || t_skip_all map "build/swstress or build/mapblame not built (make all build/mapblame)"
t_tmpdir map
TMP=$T_TMP
exec 9>/run/lock/swstress-fabric.lock && flock -w 1500 9 ||
	t_bail "another fabric session held /run/lock/swstress-fabric.lock for 1500 s"
t_cleanup() { timeout 60 $FAB down >/dev/null 2>&1; }

# map NAME: the map through the fabric into $TMP/NAME, all rounds or ROUNDS
# of them (map_rounds); RES its folder ("" when it failed), WALL its wall
# time (start-up to the end) and EST plan's estimate of it, both printed.
map() {
	n=$1
	nr=${ROUNDS:-$((NH - 1))}
	keys="patterns=stream sizes=$SIZE sample_time=$SAMPLE repetitions=$BLOCKS warmup=0 map_rounds=${ROUNDS:-all} ${EXTRA:-}"
	t0=$(date +%s)
	timeout -k 5 900 sh $F/mpirun.sh --timeout 880 build/swstress map ${CONF:-} --no-plot --no-history label="$n" \
		output="$TMP/$n" $keys timeout=60s allow_shared_node=no </dev/null >"$TMP/$n.out" 2>"$TMP/$n.err"
	rc=$?
	WALL=$(($(date +%s) - t0))
	EST=$(build/swstress plan ${CONF:-} -n "$NH" schedule=map $keys 2>&1 | sed -n 's/^estimated time: \([0-9.]*\) s.*/\1/p')
	RES=$(ls -d "$TMP/$n/$n"-*/ 2>/dev/null | head -1)
	echo "# $n: exit $rc, $WALL s wall, plan estimates ${EST:-?} s"
	if [ $rc != 0 ] || [ -z "$RES" ]; then
		fail "$n: the map ran (exit $rc)" "$TMP/$n.err"
		RES=""
		return 1
	fi
	ok "$n: the map ran, $((nr * NH / 2)) pairs in each of $BLOCKS blocks"
	python3 - "$RES" "$NH" "$BLOCKS" "$nr" <<'PY' || fail "$n: samples.csv holds the same $((nr * NH / 2)) pairs of the $NH hosts once a block"
import csv, sys
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1] + "/samples.csv") if not l.startswith("#"))]
nh, nb, nr = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
seen = {}
for r in rows:
    k = (r["block"], min(r["host_a"], r["host_b"]), max(r["host_a"], r["host_b"]))
    seen[k] = seen.get(k, 0) + 1
hosts = {r["host_a"] for r in rows} | {r["host_b"] for r in rows}
pairs = {k[1:] for k in seen}
sys.exit(not (len(hosts) == nh and len(pairs) == nr * nh // 2 and len(seen) == nb * len(pairs) and
              set(seen.values()) == {1}))
PY
	build/mapblame "${RES%/}" stream "$SIZE" ${GROUPS:-} >"$TMP/$n.blame" 2>"$TMP/$n.blame.err" ||
		fail "$n: mapblame read the folder" "$TMP/$n.blame.err"
	sed 's/^/#   /' "$TMP/$n.blame" | grep -v '^#   host .*flagged=0$'
}
claims() { grep -c '^claim' "$TMP/$1.blame"; }
# estimate NAME: plan's estimate of a healthy map within 0.5-2x of its wall
# time (a slowed element's rounds take longer to end: no estimate there)
estimate() {
	if awk -v w="$WALL" -v e="$EST" 'BEGIN { exit !(e > 0 && w / e >= 0.5 && w / e <= 2) }'; then
		ok "$1: plan's estimate ${EST} s within 0.5-2x of the wall time $WALL s"
	else
		fail "$1: plan's estimate '${EST}' s within 0.5-2x of the wall time $WALL s"
	fi
}
# flagged FILE: the run folder's flagged hosts (hosts.csv) or uplinks
# (groups.csv), as the run wrote them with the config's [topology]
flagged() {
	case $1 in
	hosts) grep -v '^#' "$RES/hosts.csv" | awk -F, 'NR > 1 && $13 == 1 { printf "%s ", $1 }' ;;
	uplinks) grep -v '^#' "$RES/groups.csv" | awk -F, 'NR > 1 && $1 == "uplink" && $12 == 1 { printf "%s ", $2 }' ;;
	esac
}
FABRICS=${*:-tree trunk}
T0=$(date +%s)
SIZE=8192 BLOCKS=3

case " $FABRICS " in *" tree "*)
NH=16 SAMPLE=0.5s
echo "== tree 16: 4 leaves of 4 hosts, 20 Mbit/s ports, 80 Mbit/s uplinks"
if ! timeout 120 $FAB up tree 16 --port-rate 20mbit --trunk-rate 80mbit; then
	fail "up tree 16"
else
	ok "up tree 16"
	GROUPS=$TMP/leaves
	printf 'leafA swsN00 swsN01 swsN02 swsN03\nleafB swsN04 swsN05 swsN06 swsN07\nleafC swsN08 swsN09 swsN10 swsN11\nleafD swsN12 swsN13 swsN14 swsN15\n' >"$GROUPS"
	CONF=$TMP/tree.conf   # the same leaves, for the run's own files
	printf '[topology]\nleafA = swsN[00-03]\nleafB = swsN[04-07]\nleafC = swsN[08-11]\nleafD = swsN[12-15]\n' >"$CONF"
	if map healthy; then
		check_eq "(a) healthy: no claim" "$(claims healthy)" 0
		estimate healthy
	fi
	timeout 30 $FAB fault swsN05 rate 2mbit
	timeout 30 $FAB fault uplinkC rate 20mbit
	ROUNDS=11
	if map slow; then
		check_eq "(b, c) two claims" "$(claims slow)" 2
		check "(b) swsN05 at 2 Mbit/s: the claim names host swsN05" grep -q '^claim host host swsN05 ' "$TMP/slow.blame"
		check_eq "(b) no other host flagged" "$(grep '^host ' "$TMP/slow.blame" | grep 'flagged=1' | cut -d' ' -f2 | tr '\n' ' ')" "swsN05 "
		check_eq "(b) the run's hosts.csv flags swsN05 alone" "$(flagged hosts)" "swsN05 "
		check_eq "(b) its links.csv blames swsN05's 11 links on its port" \
			"$(grep -c ',host:swsN05$' "$RES/links.csv")" 11
		check "(c) leaf C's uplink at 20 Mbit/s: the uplink of leafC named" grep -q '^claim uplink uplink of leafC ' "$TMP/slow.blame"
		check_eq "(c) the run's groups.csv flags the uplink of leafC alone" "$(flagged uplinks)" "leafC "
		check_eq "(c) no host of leaf C (group 2) flagged" \
			"$(grep '^host ' "$TMP/slow.blame" | grep 'group=2 ' | grep -c 'flagged=1')" 0
		# (e) the same faults unloaded (one pair at a time, 2 blocks of
		# 0.3 s): swsN05's port is slow alone too (a fault), while one
		# pair through leaf C's 20 Mbit/s uplink gets its ports' 20
		# Mbit/s, so the loaded map's uplink claim is congestion
		LOADED=$RES
		if BLOCKS=2 SAMPLE=0.3s EXTRA=map_concurrency=1 map slow1; then
			check_eq "(e) unloaded: one claim, host swsN05" \
				"$(claims slow1) $(grep -c '^claim host host swsN05 ' "$TMP/slow1.blame")" "1 1"
			if build/swstress report "${LOADED%/}" --unloaded "${RES%/}" >"$TMP/contrast1.out" 2>"$TMP/contrast1.err" &&
				grep -q '^fault: host swsN05' "$TMP/contrast1.out" &&
				grep -q '^congestion: uplink of leafC' "$TMP/contrast1.out" &&
				[ "$(grep -c '^fault\|^congestion' "$TMP/contrast1.out")" = 2 ]; then
				ok "(e) report --unloaded: host swsN05 a fault, leaf C's uplink congestion, nothing else"
			else
				fail "(e) report --unloaded: host swsN05 a fault, leaf C's uplink congestion, nothing else" "$TMP/contrast1.out"
			fi
		fi
	fi
	GROUPS= CONF= ROUNDS=
fi
timeout 60 $FAB down >/dev/null 2>&1
esac

case " $FABRICS " in *" trunk "*)
NH=8 SAMPLE=1.5s
echo "== twoleaf 8: two bridges of 4 hosts, 20 Mbit/s ports, a 20 Mbit/s trunk not declared"
if ! timeout 120 $FAB up twoleaf 8 --port-rate 20mbit --trunk-rate 20mbit; then
	fail "up twoleaf 8"
elif map trunk; then
	ok "up twoleaf 8"
	groups=$(grep '^group ' "$TMP/trunk.blame" | cut -d' ' -f3 | sort | tr '\n' ' ')
	check_eq "(d) the inferred groups are the two bridges" "$groups" \
		"swsN00,swsN01,swsN02,swsN03 swsN04,swsN05,swsN06,swsN07 "
	check "(d) groups inferred, not given" grep -q '^links 28 inferred=1$' "$TMP/trunk.blame"
	cap=$(sed -n 's/^boundary .* capacity_MBps=\([^ ]*\) .*/\1/p' "$TMP/trunk.blame" | head -1)
	if awk -v c="$cap" 'BEGIN { exit !(c != "" && c / 2.392 >= 0.95 && c / 2.392 <= 1.05) }'; then
		ok "(d) trunk capacity $cap MB/s within 5% of 2.392 MB/s"
	else
		fail "(d) trunk capacity '$cap' MB/s within 5% of 2.392 MB/s"
	fi
	check "(d) the boundary flagged" grep -q '^boundary .* flagged=1 ' "$TMP/trunk.blame"
	estimate trunk
fi
esac
# every finished map of this suite reads back (issue #39): report, publish,
# compare (maps of the same hosts); no count over one timer tick
set -- $(ls -d "$TMP"/*/*-[0-9]*-[0-9]* 2>/dev/null | grep -v '\.partial$')
if [ $# -gt 0 ]; then
	if python3 tests/fabric/readback.py "$PWD/build/swstress" "$TMP" "$@" >"$TMP/readback.out" 2>&1; then
		ok "$(tail -n 1 "$TMP/readback.out"), every map read back by report, publish and compare"
	else fail "finished maps read back ($# folders)" "$TMP/readback.out"; fi
fi
echo "# map.sh: $(($(date +%s) - T0)) s wall"
t_end
