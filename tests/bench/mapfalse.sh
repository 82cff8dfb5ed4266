#!/bin/sh
# mapfalse: the fabric map's false flags on the emulated fabric (`make
# bench` runs 5; root only, prints "skip - WHY" otherwise):
#   sh tests/bench/mapfalse.sh [N]   (from the repository root; default 20;
#   SEED0=S seeds the maps S+1 .. S+N, for a set independent of an earlier)
# N short healthy maps on one fabric: two leaves of 4 hosts, 20 Mbit/s
# ports, an 80 Mbit/s trunk (non-blocking: the 4 ports of a leaf fill it),
# `swstress map` of stream 8 KiB, 0.5-s samples, 3 blocks, no warm-up (as
# tests/fabric/map.sh's tree), each analysed twice by build/mapblame: the
# leaves given as the groups, and the groups inferred. A map "flags" when
# it makes any claim (a host, a boundary, a link). Prints each map's claims
# and wall time, then "given: x of N maps flagged", the same inferred, and
# the exact one-sided 95% upper bound on the rate of maps that flag
# (Clopper-Pearson; 0 of N: 1 - 0.05^(1/N)). Exit 1 when a map failed to
# run, not on a flag (the count is the result). Holds
# /run/lock/swstress-fabric.lock around the fabric's up..down. Figures in
# tests/bench/RESULTS.md.
set -u
F=tests/fabric
FAB="sh $F/fabric.sh"
SW=${SW:-$PWD/build/swstress}
OUT=${OUT:-$PWD/build/bench/mapfalse}
N=${1:-20}
export FABRIC_QUIET=1
case $N in '' | *[!0-9]* | 0) echo "mapfalse: N must be a count of maps (1 or more), not '$N'" >&2; exit 2 ;; esac
[ "$(id -u)" = 0 ] || { echo "skip - mapfalse: not root (network namespaces need root)"; exit 0; }
why=$(timeout 30 $FAB check 2>&1) || { echo "skip - mapfalse: $why"; exit 0; }
make -s build/mapblame || exit 1
rm -rf "$OUT" && mkdir -p "$OUT" || exit 1
exec 9>/run/lock/swstress-fabric.lock && flock -w 1500 9 || { echo "mapfalse: the fabric lock stayed held for 1500 s" >&2; exit 1; }
trap 'timeout 120 $FAB down >/dev/null 2>&1' EXIT INT TERM
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
timeout 120 $FAB up twoleaf 8 --port-rate 20mbit --trunk-rate 80mbit || { echo "mapfalse: up failed" >&2; exit 1; }
printf 'leafA swsN00 swsN01 swsN02 swsN03\nleafB swsN04 swsN05 swsN06 swsN07\n' >"$OUT/leaves"
printf '[topology]\nleafA = swsN[00-03]\nleafB = swsN[04-07]\n' >"$OUT/leaves.conf"
rc=0 given=0 inferred=0 done=0 i=1
while [ "$i" -le "$N" ]; do
	t0=$(date +%s)
	timeout -k 5 300 sh $F/mpirun.sh --timeout 280 "$SW" map "$OUT/leaves.conf" --no-plot --no-history \
		label="healthy$i" output="$OUT/$i" patterns=stream sizes=8KiB sample_time=0.5s repetitions=3 \
		warmup=0 seed="$((i + ${SEED0:-0}))" timeout=60s allow_shared_node=no </dev/null >"$OUT/$i.out" 2>"$OUT/$i.err"
	r=$?
	res=$(ls -d "$OUT/$i"/healthy"$i"-*/ 2>/dev/null | head -1)
	if [ "$r" != 0 ] || [ -z "$res" ] ||
		! build/mapblame "${res%/}" stream 8192 "$OUT/leaves" >"$OUT/$i.given" 2>&1 ||
		! build/mapblame "${res%/}" stream 8192 >"$OUT/$i.inferred" 2>&1; then
		echo "FAIL  map $i ran and was analysed (exit $r)"; tail -3 "$OUT/$i.err" >&2
		rc=1
	else
		cg=$(grep -c '^claim' "$OUT/$i.given") ci=$(grep -c '^claim' "$OUT/$i.inferred")
		[ "$cg" -gt 0 ] && given=$((given + 1))
		[ "$ci" -gt 0 ] && inferred=$((inferred + 1))
		done=$((done + 1))
		echo "map $i: $(($(date +%s) - t0)) s wall; claims: $cg given, $ci inferred ($(grep -c '^group ' "$OUT/$i.inferred") groups inferred)"
		grep -h '^claim' "$OUT/$i.given" "$OUT/$i.inferred" | cut -c1-160
	fi
	i=$((i + 1))
done
python3 - "$given" "$inferred" "$done" <<'PY'
import math, sys
given, inferred, n = (int(a) for a in sys.argv[1:])

def upper(x, n, a=0.05):
    """Exact one-sided (1 - a) upper bound on p from x of n (Clopper-Pearson)."""
    if x >= n:
        return 1.0
    cdf = lambda p: sum(math.comb(n, k) * p**k * (1 - p)**(n - k) for k in range(x + 1))
    lo, hi = x / n, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if cdf(mid) > a else (lo, mid)
    return hi

for name, x in (("given", given), ("inferred", inferred)):
    print("%s: %d of %d maps flagged (%.1f%%), one-sided 95%% upper bound %.1f%%"
          % (name, x, n, 100.0 * x / n if n else 0, 100.0 * upper(x, n) if n else 100))
PY
exit $rc
