#!/bin/sh
# map.sh - the fabric map's known answers on the emulated fabric (make
# fabric-test, from the repo root: sh tests/fabric/map.sh). Root only; SKIP
# with the reason otherwise. Ends with "map: N passed, N failed, N skipped".
#
# `swstress map` (every pair of the 16 hosts once a block: 15 rounds of 8
# pairs at once, stream 64 KiB, 1-s timed samples, 4 blocks; the trunk's
# capacity with 8 KiB messages and 2-s samples, so that a pair's count at
# the deadline is fine-grained and the tbf burst a small share) through
#   tree 16: 4 leaves x 4 hosts under one spine, 20 Mbit/s ports, 80 Mbit/s
#     uplinks (non-blocking: a leaf's 4 ports fill its uplink), the leaves
#     given as the groups:
#     (a) healthy: no claim;
#     (b) swsN05's port at 5 Mbit/s: that host named, alone;
#     (c) leaf C's uplink at 10 Mbit/s: that uplink named, no host;
#   twoleaf 16: two bridges of 8 hosts joined by a 20 Mbit/s trunk that is
#     not declared (the groups inferred):
#     (d) the two inferred groups are the two bridges' hosts, and the
#         trunk's capacity, the most its crossing pairs carried in a round,
#         is within 5% of 20 Mbit/s of TCP payload (2.392 MB/s; 1.196 MB/s
#         a 10 Mbit/s port, tests/bench/fabric48.sh).
# The statistics are read through build/mapblame (one fact a line). Ports
# are shaped low so that the network, not the 2 cores, limits 16 ranks.
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

# map NAME [KEY=VALUE...]: the map through the fabric into $TMP/NAME; RES its
# folder ("" when it failed), its wall time printed.
map() {
	n=$1; shift
	t0=$(date +%s)
	timeout -k 5 900 sh $F/mpirun.sh --timeout 880 build/swstress map ${CONF:-} --no-plot --no-history label="$n" \
		output="$TMP/$n" patterns=stream sizes="$SIZE" sample_time="$SAMPLE" repetitions=4 warmup=1 \
		timeout=60s allow_shared_node=no "$@" </dev/null >"$TMP/$n.out" 2>"$TMP/$n.err"
	rc=$?
	RES=$(ls -d "$TMP/$n/$n"-*/ 2>/dev/null | head -1)
	echo "# $n: exit $rc, $(($(date +%s) - t0)) s wall"
	if [ $rc != 0 ] || [ -z "$RES" ]; then
		fail "$n: the map ran (exit $rc)" "$TMP/$n.err"
		RES=""
		return 1
	fi
	ok "$n: the map ran, 120 pairs in each of 4 blocks"
	python3 - "$RES" <<'PY' || fail "$n: samples.csv holds every pair of the 16 hosts once a block"
import csv, sys
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1] + "/samples.csv") if not l.startswith("#"))]
seen = {}
for r in rows:
    k = (r["block"], min(r["host_a"], r["host_b"]), max(r["host_a"], r["host_b"]))
    seen[k] = seen.get(k, 0) + 1
hosts = {r["host_a"] for r in rows} | {r["host_b"] for r in rows}
sys.exit(not (len(hosts) == 16 and len(seen) == 4 * 120 and set(seen.values()) == {1}))
PY
	build/mapblame "${RES%/}" stream "$SIZE" ${GROUPS:-} >"$TMP/$n.blame" 2>"$TMP/$n.blame.err" ||
		fail "$n: mapblame read the folder" "$TMP/$n.blame.err"
	sed 's/^/#   /' "$TMP/$n.blame" | grep -v '^#   host .*flagged=0$'
}
claims() { grep -c '^claim' "$TMP/$1.blame"; }
# flagged FILE: the run folder's flagged hosts (hosts.csv) or uplinks
# (groups.csv), as the run wrote them with the config's [topology]
flagged() {
	case $1 in
	hosts) grep -v '^#' "$RES/hosts.csv" | awk -F, 'NR > 1 && $13 == 1 { printf "%s ", $1 }' ;;
	uplinks) grep -v '^#' "$RES/groups.csv" | awk -F, 'NR > 1 && $1 == "uplink" && $12 == 1 { printf "%s ", $2 }' ;;
	esac
}
FABRICS=${*:-tree trunk}
SIZE=65536 SAMPLE=1s

case " $FABRICS " in *" tree "*)
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
	fi
	timeout 30 $FAB fault swsN05 rate 5mbit
	if map slowhost; then
		check_eq "(b) swsN05 at 5 Mbit/s: one claim" "$(claims slowhost)" 1
		check "(b) the claim names host swsN05" grep -q '^claim host host swsN05 ' "$TMP/slowhost.blame"
		check_eq "(b) no other host flagged" "$(grep '^host ' "$TMP/slowhost.blame" | grep 'flagged=1' | cut -d' ' -f2 | tr '\n' ' ')" "swsN05 "
		check_eq "(b) the run's hosts.csv flags swsN05 alone" "$(flagged hosts)" "swsN05 "
		check_eq "(b) its links.csv blames swsN05's 15 links on its port" \
			"$(grep -c ',host:swsN05$' "$RES/links.csv")" 15
	fi
	timeout 30 $FAB fault swsN05 clear
	timeout 30 $FAB fault uplinkC rate 10mbit
	if map slowuplink; then
		check "(c) leaf C's uplink at 10 Mbit/s: the uplink of leafC named" grep -q '^claim uplink uplink of leafC ' "$TMP/slowuplink.blame"
		check_eq "(c) no host named" "$(grep -c '^claim host' "$TMP/slowuplink.blame")" 0
		check_eq "(c) no host flagged" "$(grep '^host ' "$TMP/slowuplink.blame" | grep -c 'flagged=1')" 0
		check_eq "(c) the run's groups.csv flags the uplink of leafC alone" "$(flagged uplinks)" "leafC "
		check_eq "(c) its hosts.csv flags no host" "$(flagged hosts)" ""
	fi
	GROUPS= CONF=
fi
timeout 60 $FAB down >/dev/null 2>&1
esac

case " $FABRICS " in *" trunk "*)
SIZE=8192 SAMPLE=2s
echo "== twoleaf 16: two bridges of 8 hosts, 20 Mbit/s ports, a 20 Mbit/s trunk not declared"
if ! timeout 120 $FAB up twoleaf 16 --port-rate 20mbit --trunk-rate 20mbit; then
	fail "up twoleaf 16"
elif map trunk; then
	ok "up twoleaf 16"
	groups=$(grep '^group ' "$TMP/trunk.blame" | cut -d' ' -f3 | sort | tr '\n' ' ')
	check_eq "(d) the inferred groups are the two bridges" "$groups" \
		"swsN00,swsN01,swsN02,swsN03,swsN04,swsN05,swsN06,swsN07 swsN08,swsN09,swsN10,swsN11,swsN12,swsN13,swsN14,swsN15 "
	check "(d) groups inferred, not given" grep -q '^links 120 inferred=1$' "$TMP/trunk.blame"
	cap=$(sed -n 's/^boundary .* capacity_MBps=\([^ ]*\) .*/\1/p' "$TMP/trunk.blame" | head -1)
	if awk -v c="$cap" 'BEGIN { exit !(c != "" && c / 2.392 >= 0.95 && c / 2.392 <= 1.05) }'; then
		ok "(d) trunk capacity $cap MB/s within 5% of 2.392 MB/s"
	else
		fail "(d) trunk capacity '$cap' MB/s within 5% of 2.392 MB/s"
	fi
	check "(d) the boundary flagged" grep -q '^boundary .* flagged=1 ' "$TMP/trunk.blame"
fi
esac
t_end
