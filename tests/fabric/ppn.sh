#!/bin/sh
# ppn.sh - known answers for ranks_per_node = K on the emulated fabric
# (root; make fabric-test). Issue #31 item 4.
#
# Two hosts on one switch, 100 Mbit/s ports, one pair of nodes, stream at
# 8 B and 64 KiB, with K = 1 (2 ranks) and K = 2 (4 ranks: rank pairs 0-2
# and 1-3, the node pair's value their sum). On a real cluster each rank has
# a core of its own and K ranks a node have K cores; here every host shares
# the machine's 2 cores with the other users of the machine. So the suite
# gives each rank pair a known CPU of its own: its two ranks run in one
# cgroup with a CFS quota of PPN_QUOTA% of a core (default 25), pinned to
# core P (pair P; tests/fabric/cpucap.sh), with yield = yes (a waiting rank
# sleeps instead of spending its quota polling). The truth:
#   - 64 KiB: the port limits (a pair fills it down to 10% of a core,
#     measured 2026-12-03): the node pair's bandwidth with K = 2 is the one with
#     K = 1 (within 5%: 11.58-12.02 MB/s measured), both at the port's
#     10.5-12.57 MB/s;
#   - 8 B: the CPU limits (through the same emulated port, uncapped, a pair
#     moved 64-82 thousand messages/s at 20 Mbit/s and at 1 Gbit/s alike;
#     capped at 25% about 28 thousand): K = 2 has twice the CPU, so the
#     node pair's message rate is twice K = 1's (asserted 1.5-3x, the
#     sums over three alternations: measured 1.9-2.1x; a double count of
#     the rank pairs would read 4x; K = 1 against K = 1 read 1.0-1.3x);
#   - the control: K = 2 with both rank pairs in one pair's cgroup and core
#     (the CPU of K = 1), alternated with the two: with the same rank pairs,
#     twice the CPU moves more (K = 2 on two CPUs / on one: measured
#     1.6-2.0x, asserted >= 1.3x): the gain is the CPU. Against K = 1 the
#     control read 0.83-1.15x on an idle machine but 1.61x under a load of
#     3 (CI, 2026-12-03: K = 1 fell to 0.022 million messages/s from 0.038
#     idle, the control held 0.036), since a lone pair's waits then go
#     unused; so that ratio is printed, not asserted.
# PPN_K=1 runs the "K = 2" runs with K = 1 (PPN_CONTROL_K, default PPN_K,
# the control's K): the rate check and the control's must then fail (ratios
# about 1; RESULTS.md §19). PPN_QUOTA sets the quota (10 at least: CFS takes
# 1 ms of a 10-ms period at least). The cgroup v1 cpu controller is tried
# first, then v2's (PPN_CGROUP=v2: only v2). The v2 branch has not run on
# a machine with v2's cpu controller (ours bind it to v1, and it cannot be
# released there): whatever of it fails to make the groups, or a quota
# that does not throttle a busy loop, SKIPs the suite with the reason.
# About 55 s.
# T_KEEP=1 keeps the outputs.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
. tests/fabric/lib.sh
t_begin fabric-ppn
F=tests/fabric
FAB="sh $F/fabric.sh"
export FABRIC_QUIET=1
K=${PPN_K:-2}
QUOTA=${PPN_QUOTA:-25}
PERIOD=10000   # µs: 100 periods a second, 30 in a 300-ms sample
command -v taskset >/dev/null 2>&1 || t_skip_all fabric-ppn "taskset (util-linux) not found"
fabric_begin fabric-ppn
tl=$(date +%s)

# cg_make DIR: mount a CPU cgroup hierarchy at DIR (v1 cpu, else v2) and make
# the groups p0 and p1 under $CG with QUOTA% of a core each.
CG=""
cg_make() {
	mkdir -p "$1" || return 1
	if [ "${PPN_CGROUP:-}" != v2 ] && mount -t cgroup -o cpu swstress-ppn "$1" 2>/dev/null; then
		CG=$1/swstress-ppn.$$
		mkdir "$CG" || return 1
		for p in 0 1; do
			mkdir "$CG/p$p" && echo $PERIOD >"$CG/p$p/cpu.cfs_period_us" &&
				echo $((PERIOD * QUOTA / 100)) >"$CG/p$p/cpu.cfs_quota_us" || return 1
		done
	elif mount -t cgroup2 swstress-ppn "$1" 2>/dev/null; then
		if ! grep -qw cpu "$1/cgroup.subtree_control"; then
			echo +cpu >"$1/cgroup.subtree_control" 2>/dev/null || return 1
			CG_ROOT_CPU=$1   # enabled here: disabled again by cg_drop
		fi
		CG=$1/swstress-ppn.$$
		mkdir "$CG" && echo +cpu >"$CG/cgroup.subtree_control" || return 1
		for p in 0 1; do
			mkdir "$CG/p$p" && echo "$((PERIOD * QUOTA / 100)) $PERIOD" >"$CG/p$p/cpu.max" || return 1
		done
	else
		return 1
	fi
}
CG_ROOT_CPU=""
cg_drop() {
	if [ -n "$CG" ]; then
		for p in 0 1; do [ -d "$CG/p$p" ] && rmdir "$CG/p$p" 2>/dev/null; done
		rmdir "$CG" 2>/dev/null
	fi
	[ -n "$CG_ROOT_CPU" ] && echo -cpu >"$CG_ROOT_CPU/cgroup.subtree_control" 2>/dev/null
	mountpoint -q "$TMP/cg" && umount "$TMP/cg"
	CG="" CG_ROOT_CPU=""
}
t_cleanup() { cg_drop; timeout 60 $FAB down >/dev/null 2>&1; }
throttled() { sed -n 's/^nr_throttled //p' "$CG/p$1/cpu.stat"; }

cg_make "$TMP/cg" || { cg_drop; t_skip_all fabric-ppn "cannot make CPU cgroups with a quota of $QUOTA% of a core (cgroup v1 cpu or v2; 10% at least)"; }
# the quota holds: a busy loop in p0 for 0.3 s is throttled
n0=$(throttled 0)
sh -c "echo \$\$ >'$CG/p0/cgroup.procs' && exec timeout 0.3 sh -c 'while :; do :; done'"
n1=$(throttled 0)
# (the suite's instrument, not swstress: without it nothing here is known)
[ "$((n1 - n0))" -ge 10 ] ||
	t_skip_all fabric-ppn "the cgroup quota does not hold here ($QUOTA% of a core: a busy loop throttled in $((n1 - n0)) periods of 30, want 10)"
ok "the cgroup quota holds ($QUOTA% of a core: a busy loop in p0 throttled in $((n1 - n0)) periods of 30)"

SWCFG=$TMP/p.conf
cat >"$SWCFG" <<-'EOC'
[sweep]
sizes = 8, 64KiB
patterns = stream
hops = auto
window = 64
pairs = 1
repetitions = 5
warmup = 1
sample_time = 300ms
timeout = 60s
allow_shared_node = no
yield = yes
EOC
mkdir -p "$TMP/res"
cf() { grep "^cell=.* size=$2 " "$TMP/$1.facts" | head -1 | sed -n "s/.* $3=\([^ ]*\).*/\1/p"; }
# run NAME K PAIRS: stream through the fabric with K ranks a host, rank N in
# the cgroup and on the core of the Nth of PAIRS
run() {
	t0=$(date +%s)
	sw "$1" 90 --ppn "$2" sh $F/cpucap.sh "$CG" "$3" -- ranks_per_node="$2"
	echo "  $1 (K = $2, rank pairs' CPU $3) took $(($(date +%s) - t0)) s (load average $(cut -d' ' -f1 /proc/loadavg)):" \
		"8 B $(cf "$1" 8 rate) Mmsg/s, 64 KiB $(cf "$1" 65536 bw) MB/s"
	check "swstress $1: runs, complete results (rc=$rc)" sh -c "[ $rc = 0 ] && grep -q '^complete=1' '$TMP/$1.facts'"
}
c2=0,1,0,1 cc=0,0,0,0
[ "$K" = 1 ] && c2=0,0
CK=${PPN_CONTROL_K:-$K}
[ "$CK" = 1 ] && cc=0,0

if timeout 60 $FAB up single 2 --port-rate 100mbit; then
	# alternate, so that a change of the machine's load hits both
	for a in a b c; do
		run k1$a 1 0,0
		run k2$a "$K" $c2
		run kc$a "$CK" $cc
	done
	check_eq "K = $K: ranks on the hosts in rank order (run.json)" "$(sed -n 's/^hosts=//p' "$TMP/k2a.facts")" \
		"$(if [ "$K" = 2 ]; then echo swsN00,swsN00,swsN01,swsN01; else echo swsN00,swsN01; fi)"
	for n in k1a k1b k1c k2a k2b k2c; do
		b=$(cf $n 65536 bw)
		check "$n 64 KiB: the node pair at the port's rate, $b MB/s (10.5-12.57)" in_range "$b" 10.5 12.57
	done
	# sum SIZE FACT RUN...: the sum of FACT at SIZE over the runs
	sum() {
		z=$1 k=$2 t=0; shift 2
		for n in "$@"; do t=$(awk -v t=$t -v v="$(cf $n $z $k)" 'BEGIN { print t + v }'); done
		echo $t
	}
	ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b }'; }
	r=$(ratio "$(sum 65536 bw k2a k2b k2c)" "$(sum 65536 bw k1a k1b k1c)")
	check "64 KiB: the port limits: bandwidth with K = $K / with K = 1 = $r (0.95-1.05)" in_range "$r" 0.95 1.05
	r1=$(sum 8 rate k1a k1b k1c) r2=$(sum 8 rate k2a k2b k2c) rk=$(sum 8 rate kca kcb kcc)
	r=$(ratio "$r2" "$r1")
	check "8 B: the CPU limits: message rate with K = $K / with K = 1 = $r (twice the CPU: 1.5-3)" in_range "$r" 1.5 3
	r=$(ratio "$r2" "$rk")
	check "8 B, control: K = $K on two rank pairs' CPU / K = $CK on one = $r (twice the CPU: >= 1.3)" in_range "$r" 1.3 1000
	echo "  8 B, control: K = $CK on one rank pair's CPU / K = 1 = $(ratio "$rk" "$r1") (1 when the CPU alone limits a pair)"
else
	fail "up single 2"
fi
cg_drop
timeout 60 $FAB down >/dev/null 2>&1
echo "  the checks took $(($(date +%s) - tl)) s after the fabric lock"
t_end
