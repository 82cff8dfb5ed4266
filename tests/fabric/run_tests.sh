#!/bin/sh
# run_tests.sh - fabric tests (make test, from the repo root: sh tests/fabric/run_tests.sh).
#
# Needs root and network namespaces; otherwise prints "fabric tests skipped: WHY"
# and exits 0. Builds emulated fabrics (tests/fabric/fabric.sh), checks the
# harness with its own MPI probe, then (when build/swstress has `run`) swstress.
# Ends with "N passed, N failed"; exit 1 on any failure. About 1 minute.
# Rates in these checks are low (20 Mbit/s ports) so that a busy 2-core machine
# still meets them; the tbf burst (64 KB) lets 1-s rates exceed the limit by ~0.5 Mbit/s.
set -u
cd "$(dirname "$0")/../.." || exit 1
F=tests/fabric
FAB="sh $F/fabric.sh"
export FABRIC_QUIET=1
TMP=$(mktemp -d /tmp/swsfabric.XXXXXX) || exit 1
pass=0 fail=0

skip() { echo "fabric tests skipped: $*"; rm -rf "$TMP"; exit 0; }
ok() { pass=$((pass + 1)); echo "PASS  $1"; }
bad() { fail=$((fail + 1)); echo "FAIL  $1${2:+ ($2)}"; }
# check NAME COMMAND...: pass when COMMAND succeeds
check() { n=$1; shift; if "$@"; then ok "$n"; else bad "$n"; fi; }
# in_range VALUE LO HI (decimals allowed)
in_range() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v != "" && v + 0 >= lo && v + 0 <= hi) }'; }
cleanup() { timeout 60 $FAB down >/dev/null 2>&1; rm -rf "$TMP"; }
trap 'cleanup; exit 130' INT TERM HUP

# ---------------------------------------------------------------- can we?
[ "$(id -u)" = 0 ] || skip "not root (network namespaces need root)"
command -v ip >/dev/null 2>&1 || skip "ip (iproute2) not installed"
why=$(timeout 30 $FAB check 2>&1) || skip "$why"
command -v mpiexec >/dev/null 2>&1 || skip "mpiexec not found"
timeout 300 sh $F/build.sh >"$TMP/build.log" 2>&1 || { cat "$TMP/build.log"; skip "cannot build tests/fabric helpers (see above)"; }
PROBE=build/fabric/mpi_probe
# One fabric session at a time on this machine (a concurrent `make test` or
# `make run` would tear our fabric down): an advisory lock, held until exit.
exec 9>/run/lock/swstress-fabric.lock && flock -w 300 9 ||
	{ echo "FAIL  another fabric session held /run/lock/swstress-fabric.lock for 300 s"; echo "0 passed, 1 failed"; rm -rf "$TMP"; exit 1; }

counter() { cat "/sys/class/net/$1/statistics/$2" 2>/dev/null || echo 0; }
sum_counters() { # STAT IF...
	st=$1; shift; t=0
	for i in "$@"; do t=$((t + $(counter "$i" "$st"))); done
	echo $t
}
leftovers() {
	{
		ip netns list 2>/dev/null | awk '{print $1}' | grep '^swsN'
		ip -o link show | awk -F': ' '{print $2}' | sed 's/@.*//' | grep -E '^(swp[0-9]+|swm[0-9]+|swt[AB]|swbr[ABM])$'
		grep 'swstress-fabric' /etc/hosts
		[ -e /run/swstress-fabric ] && echo /run/swstress-fabric
	} 2>/dev/null | tr '\n' ' '
}
# probe NAME TIMEOUT ARGS...: run the MPI probe through the fabric; output in $TMP/NAME.out
probe() {
	n=$1 t=$2; shift 2
	timeout -k 5 $((t + 10)) sh $F/mpirun.sh --timeout "$t" $PROBE "$@" >"$TMP/$n.out" 2>"$TMP/$n.err"
}
# field FILE LINE-PREFIX KEY [MATCH]: value of KEY= on the first line starting with PREFIX (and containing MATCH)
field() { grep "^$2 .*${4:-}" "$1" | head -1 | sed -n "s/.* $3=\([^ ]*\).*/\1/p"; }

# ---------------------------------------------------------------- harness
echo "== fabric harness"
timeout 60 $FAB down >/dev/null 2>&1
check "down on a clean machine succeeds" test -z "$(leftovers)"

check "up single 4" timeout 60 $FAB up single 4 --port-rate 20mbit
out=$(FABRIC_QUIET= timeout 60 $FAB up single 4 --port-rate 20mbit 2>&1; echo "rc=$?")
case $out in *"already up"*rc=0) ok "up again is a no-op" ;; *) bad "up again is a no-op" "$out" ;; esac
check "hosts lists 4 hosts" test "$($FAB hosts)" = "swsN00,swsN01,swsN02,swsN03"
check "4 namespaces" test "$(ip netns list | awk '{print $1}' | grep -c '^swsN[0-9]')" = 4
check "host names resolve (/etc/hosts)" test "$(getent hosts swsN02 | awk '{print $1}')" = 10.77.0.3
check "tbf on the switch side of a port" sh -c "tc qdisc show dev swp01 | grep -q 'tbf.*rate 20Mbit'"
check "tbf on the host side of a port" sh -c "ip netns exec swsN01 tc qdisc show dev swd0 | grep -q 'tbf.*rate 20Mbit'"
check "launcher runs in the host, with its host name" \
	test "$(timeout 20 sh $F/launcher.sh -x swsN01 "sh -c 'hostname; ip -o -4 addr show swd0'" 2>&1 | tr '\n' ' ' | awk '{print $1, $5}')" = "swsN01 10.77.0.2/24"
check "launcher refuses an unknown host" sh -c "! timeout 20 sh $F/launcher.sh -x notahost true 2>/dev/null"

# ---------------------------------------------------------------- MPI through single
echo "== MPI probe, single switch, 4 hosts, 20 Mbit/s ports"
P="swp00 swp01 swp02 swp03" M="swm00 swm01 swm02 swm03"
rx0=$(counter swp00 rx_bytes) tx2=$(counter swp02 tx_bytes) m0=$(sum_counters rx_bytes $M)
if probe single 60 -p halves -l 1,2 -t 1; then ok "probe runs and finalizes (single)"; else bad "probe runs and finalizes (single)" "rc=$?, see $TMP/single.err"; fi
rx0=$(($(counter swp00 rx_bytes) - rx0)) tx2=$(($(counter swp02 tx_bytes) - tx2)) m0=$(($(sum_counters rx_bytes $M) - m0))
o=$TMP/single.out
check "each rank on its own host" test "$(grep '^host ' "$o" | sed 's/.*hostname=\([^ ]*\) processor=\([^ ]*\).*/\1=\2/' | sort -u | tr '\n' ' ')" = \
	"swsN00=swsN00 swsN01=swsN01 swsN02=swsN02 swsN03=swsN03 "
check "MPI_COMM_TYPE_SHARED sees one rank per host" test "$(grep -c '^host .* shared=1$' "$o")" = 4
b1=$(field "$o" pair bytes "level=1 pair=0")
b2=$(field "$o" pair bytes "level=2 pair=0")
sent=$(awk -v a="${b1:-0}" -v b="${b2:-0}" 'BEGIN { printf "%.0f", a + b }')
check "bytes cross the veth links (swp00 rx $rx0, swp02 tx $tx2 >= $sent sent)" \
	sh -c "[ $sent -gt 500000 ] && [ $rx0 -ge $sent ] && [ $tx2 -ge $sent ]"
check "no MPI data on the management links ($m0 bytes)" test "$m0" -lt $((sent / 20 + 1))
for lv in "level=1 pair=0" "level=2 pair=0" "level=2 pair=1"; do
	v=$(field "$o" pair mbit "$lv")
	check "single $lv at the port rate: $v Mbit/s (17..20.5)" in_range "$v" 17 20.5
done

# A slow port (fault rate): the known answer for "which port is bad".
timeout 30 $FAB fault swsN01 rate 5mbit >/dev/null 2>&1
probe fault 60 -p halves -l 2 -t 1
o=$TMP/fault.out
v0=$(field "$o" pair mbit "level=2 pair=0") v1=$(field "$o" pair mbit "level=2 pair=1")
n="fault rate 5mbit on swsN01 slows its pair only: $v1 (4..5.8) vs $v0 (17..20.5) Mbit/s"
if in_range "$v1" 4 5.8 && in_range "$v0" 17 20.5; then ok "$n"; else bad "$n"; fi
check "fault clear restores the port" sh -c "timeout 30 $FAB fault swsN01 clear >/dev/null 2>&1 && tc qdisc show dev swp01 | grep -q 'rate 20Mbit'"
if ip netns exec swsN00 tc qdisc add dev lo root netem delay 1ms 2>/dev/null; then
	ip netns exec swsN00 tc qdisc del dev lo root 2>/dev/null
	check "fault delay puts netem on the port" sh -c "timeout 30 $FAB fault swsN02 delay 5ms >/dev/null 2>&1 && tc qdisc show dev swp02 | grep -q netem"
	timeout 30 $FAB fault swsN02 clear >/dev/null 2>&1
else
	out=$(timeout 30 $FAB fault swsN02 loss 1% 2>&1; echo "rc=$?")
	case $out in *netem*rc=1) ok "fault loss says clearly that this kernel has no netem" ;; *) bad "fault loss without netem" "$out" ;; esac
fi

# ---------------------------------------------------------------- MPI through twoleaf
echo "== MPI probe, two leaves, 4 hosts, 20 Mbit/s ports, 10 Mbit/s trunk"
check "up twoleaf 4 (replaces single)" timeout 60 $FAB up twoleaf 4 --port-rate 20mbit --trunk-rate 10mbit
check "leaves: swsN00,01 on swbrA, swsN02,03 on swbrB" sh -c \
	"ip -o link show swp01 | grep -q 'master swbrA' && ip -o link show swp02 | grep -q 'master swbrB'"
ta=$(counter swtA tx_bytes)
probe twoleaf 60 -p halves -l 1,2 -t 1 || bad "probe runs and finalizes (twoleaf)" "rc=$?, see $TMP/twoleaf.err"
ta=$(($(counter swtA tx_bytes) - ta))
o=$TMP/twoleaf.out
v1=$(field "$o" level aggregate_mbit "level=1 ")
v2=$(field "$o" level aggregate_mbit "level=2 ")
check "trunk limits one pair: $v1 Mbit/s (8.5..11)" in_range "$v1" 8.5 11
check "trunk limits two pairs: $v2 Mbit/s aggregate (8.5..11)" in_range "$v2" 8.5 11
sent=$(awk -v a="$(field "$o" pair bytes "level=1 pair=0")" 'BEGIN { printf "%.0f", a + 0 }')
check "pair traffic crosses the trunk (swtA tx $ta >= $sent)" sh -c "[ $sent -gt 500000 ] && [ $ta -ge $sent ]"

# ---------------------------------------------------------------- teardown
echo "== teardown"
check "down" timeout 60 $FAB down
l=$(leftovers)
check "nothing left after down: no namespace, link, /etc/hosts line${l:+ (left: $l)}" test -z "$l"
check "down again succeeds" timeout 60 $FAB down
timeout -s INT 0.5 $FAB up single 8 >/dev/null 2>&1
sleep 0.5
l=$(leftovers)
check "interrupted up leaves nothing${l:+ (left: $l)}" test -z "$l"
timeout 60 $FAB down >/dev/null 2>&1

# ---------------------------------------------------------------- swstress
# ===== swstress checks (LEAD: fill in) ==========================================
# Runs when build/swstress exists and has the `run` command. Launch it only
# through tests/fabric/mpirun.sh (the one place with the mpiexec line).
if [ -x build/swstress ] && build/swstress --help 2>&1 | grep -q '^ *run '; then
	echo "== swstress through the fabric"
	if timeout 60 $FAB up twoleaf 8 --port-rate 100mbit --trunk-rate 200mbit; then
		# TODO(lead): a short config; check the degradation at 4 pairs (trunk-bound:
		# ~50% bandwidth drop), hosts in run.json, a fault-rate outlier named, ...
		cfg=configs/quick.conf
		if [ -r "$cfg" ]; then
			timeout -k 5 200 sh $F/mpirun.sh --timeout 180 build/swstress run -c "$cfg" \
				pairing=halves allow_shared_node=no label=fabrictest >"$TMP/sw.out" 2>"$TMP/sw.err"
			rc=$?
			if [ $rc = 0 ]; then ok "swstress run through twoleaf 8"; else bad "swstress run through twoleaf 8" "rc=$rc; $(tail -3 "$TMP/sw.err" | tr '\n' ' ')"; fi
			# The test's results folders are not kept.
			rm -rf results/fabrictest-*
		else
			echo "(no $cfg: swstress run check not done)"
		fi
	else
		bad "up twoleaf 8 for swstress"
	fi
	timeout 60 $FAB down >/dev/null 2>&1
else
	echo "(build/swstress with 'run' not available: swstress checks not done)"
fi
# ===== end of swstress checks ====================================================

cleanup
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
