#!/bin/sh
# wander.sh - known answers when the fabric's speed wanders (make fabric-test; root).
#
# A single switch of 6 hosts, 40 Mbit/s ports (few bytes: the 6 ranks'
# TCP work on 2 shared cores must not become a load effect), pairing halves (0-3, 1-4,
# 2-5): the pairs share no link, so the truth is no drop at any level. Every
# port's rate wanders over time (fabric.sh wander: one seeded random rate
# about 80% of the port rate, sd 10%, re-shaped every 1-2 s), so a run's
# levels and runs are measured at different speeds. Must hold:
#   run wA (block design): the wander shows in the samples (spread >= 1.1),
#     and no level's drop is significant and every drop's CI covers 0;
#   run wB, the same fabric later: `compare wA wB` claims no difference;
#   run wS, swsN00's port at half the common rate: `compare wA wS` finds it
#     (stream at 2 nodes significantly worse, >= 30%).
# About 60-90 s. T_KEEP=1 keeps the outputs.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
. tests/fabric/lib.sh
t_begin fabric-wander
F=tests/fabric
FAB="sh $F/fabric.sh"
export FABRIC_QUIET=1
fabric_begin fabric-wander
tl=$(date +%s)
SWCFG=$TMP/w.conf
cat >"$SWCFG" <<-'EOC'
[sweep]
sizes = 64KiB
patterns = stream
hops = auto
window = 64
pairing = halves
pairs = 1,2,3
repetitions = 6
warmup = 1
sample_time = 300ms
timeout = 60s
allow_shared_node = no
yield = auto
[stats]
# 4 drop CIs must cover 0 and 2 comparisons stay quiet: at 95% one suite in
# 5 would miss by chance alone, at 99% one in 25
confidence = 0.99
EOC
mkdir -p "$TMP/res"
cf() { grep "^cell=.* pairs=$2 " "$TMP/$1.facts" | head -1 | sed -n "s/.* $3=\([^ ]*\).*/\1/p"; }
# cmp NAME A B: compare two runs; facts of compare.json in $TMP/NAME.cmp:
#   "stream 2 PCT SIG" per cell, and "any SIG" (1 when any cell or degradation is significant)
cmp() {
	build/swstress compare "$2" "$3" --no-plot --output "$TMP/$1" >"$TMP/$1.out" 2>"$TMP/$1.err"
	python3 - "$TMP/$1/compare.json" >"$TMP/$1.cmp" 2>>"$TMP/$1.err" <<-'EOP'
	import json, sys
	j = json.load(open(sys.argv[1]))
	any_sig = 0
	# each switch (its runs pooled) against the reference's, % worse
	for c in j["cells"]:
	    v = c["switches"][1]["vs_reference"]
	    any_sig |= bool(v["significant"])
	    print(c["pattern"], c["nodes"], "%.1f" % v["pct"], int(bool(v["significant"])))
	for s in j["summary"]:
	    any_sig |= bool(s["switches"][1].get("degradation_vs_reference", {}).get("significant"))
	print("any", int(any_sig))
	EOP
}

if timeout 60 $FAB up single 6 --port-rate 40mbit; then
	check "wander starts (seed 1)" timeout 30 $FAB wander 1
	i=0 r=40Mbit
	while [ $i -lt 20 ] && [ "$r" = 40Mbit ]; do   # a busy machine's first step may take a while
		sleep 0.5; i=$((i + 1))
		r=$(tc qdisc show dev swp03 | sed -n 's/.* rate \([^ ]*\) .*/\1/p')
	done
	check "wander re-shapes the ports (swp03 at $r, not 40Mbit)" sh -c "[ -n '$r' ] && [ '$r' != 40Mbit ]"
	for n in wA wB; do
		t0=$(date +%s)
		sw $n 90 --
		echo "  $n took $(($(date +%s) - t0)) s (load average $(cut -d' ' -f1 /proc/loadavg))"
		check "swstress $n: runs, complete results (rc=$rc)" sh -c "[ $rc = 0 ] && grep -q '^complete=1' '$TMP/$n.facts'"
		eval "res_$n=\$res"
	done
	s=$(cf wA 1 spread)
	check "wA: the wander shows in the samples: p90/p10 of the bandwidths $s (>= 1.1)" in_range "$s" 1.1 100
	check "wA: block design (run.json design)" grep -q '"design": *"blocks"' "$res_wA/run.json"
	for n in wA wB; do
		for k in 2 3; do
			d=$(cf $n $k drop) lo=$(cf $n $k drop_lo) hi=$(cf $n $k drop_hi) g=$(cf $n $k sig)
			check "$n $k pairs (no shared link): drop $d% [$lo, $hi] sig=$g: not significant, CI covers 0" \
				sh -c "[ '$g' = 0 ] && awk -v l='$lo' -v h='$hi' 'BEGIN { exit !(l != \"\" && l + 0 <= 0 && h + 0 >= 0) }'"
		done
	done
	cmp same "$res_wA" "$res_wB"
	check "compare wA wB (the same fabric, later): no difference claimed ($(tr '\n' ' ' <"$TMP/same.cmp"))" \
		grep -qx 'any 0' "$TMP/same.cmp"
	check "wander restarts with swsN00 at 50% (seed 3)" timeout 30 $FAB wander 3 swsN00:50
	t0=$(date +%s)
	sw wS 90 --
	echo "  wS took $(($(date +%s) - t0)) s"
	check "swstress wS: runs, complete results (rc=$rc)" sh -c "[ $rc = 0 ] && grep -q '^complete=1' '$TMP/wS.facts'"
	cmp slow "$res_wA" "$res"
	l=$(grep '^stream 2 ' "$TMP/slow.cmp")
	check "compare wA wS (swsN00 at half rate): stream at 2 nodes found worse: $l (significant, >= 30%)" \
		sh -c "echo '$l' | awk '{ exit !(\$3 >= 30 && \$4 == 1) }'"
	check "wander stop restores the ports" sh -c "timeout 30 $FAB wander stop && [ ! -e /run/swstress-fabric/wander.pid ] &&
		tc qdisc show dev swp00 | grep -q 'rate 40Mbit'"
	timeout 30 $FAB wander 4
	wpid=$(cat /run/swstress-fabric/wander.pid 2>/dev/null)
else
	fail "up single 6"
fi
timeout 60 $FAB down >/dev/null 2>&1
echo "  the checks took $(($(date +%s) - tl)) s after the fabric lock"
check "down ends a running wander loop (pid ${wpid:-?}, no namespace)" \
	sh -c "[ -n '${wpid:-}' ] && ! ps -o stat= -p '${wpid:-}' | grep -qv '^Z' && ! ip netns list | grep -q '^swsN'"
t_end
