#!/bin/sh
# fabric.sh - an emulated switch fabric with a known answer, for swstress.
#
# Linux network namespaces are the hosts, veth pairs the cables, Linux bridges
# the switches, tbf the port speeds.
#
#   fabric.sh up TOPOLOGY N [--port-rate 100mbit] [--trunk-rate 200mbit]
#   fabric.sh down
#   fabric.sh fault HOST delay|loss|rate|clear [VALUE]
#   fabric.sh fault trunk rate|clear [VALUE]   (twoleaf: both ends of the trunk)
#   fabric.sh fault uplinkX rate|clear [VALUE] (tree: leaf X's uplink, X = A..D)
#   fabric.sh wander SEED [HOST:PCT]   every port's rate wanders (below)
#   fabric.sh wander stop
#   fabric.sh status
#   fabric.sh hosts            host names, comma-separated
#   fabric.sh data-ifs         root-side data port names (swpNN, swtA, swtB)
#   fabric.sh check            can this machine build a fabric? ("ok" or why not)
#
# Topologies
#   single    every host on bridge swbrA (a non-blocking switch)
#   twoleaf   hosts 0..N/2-1 on leaf swbrA, the rest on leaf swbrB; the leaves
#             are joined by one veth trunk swtA<->swtB
#   tree      4 leaves swbrA..swbrD of N/4 hosts each (host i on leaf i / (N/4)),
#             each joined to the spine bridge swbrS by an uplink veth swuX (on
#             the leaf) <-> swvX (on the spine) at --trunk-rate
#
# Host i (0-based) is network namespace swsNii. Inside it:
#   swd0  data port, 10.77.0.(i+1)/24, cable to swpii on its leaf bridge
#   swm0  management port, 10.77.1.(i+1)/24, cable to swmii on bridge swbrM
# The root namespace has 10.77.1.254/24 on swbrM (management only: Hydra's
# proxy connections to mpiexec, so use `mpiexec -iface swbrM`). The root
# namespace has no address on the data network, and nothing is routed out.
# Rates: tbf (burst 64 KB) on both ends of every data cable and of the trunk.
# wander: a background loop re-shapes every host port, both ends, every 1-2 s
# (seeded) to one common rate that wanders at random about 80% of --port-rate
# (sd 10%, within 55% to 100%; wander_rates): the fabric's speed changes over
# time, alike for every port, so pairs that share no link stay equal. HOST:PCT
# keeps that host's port at PCT% of the common rate (one port really slower).
# `wander stop` (port rates restored) and `down` stop it.
# The management cables are not shaped and carry no MPI data when UCX is told
# UCX_NET_DEVICES=swd0 (see launcher.sh / mpirun.sh).
#
# The kernel's neighbour (ARP) table is one for the whole machine: every
# namespace's entries count against net.ipv4.neigh.default.gc_thresh3 (1024
# by default). When it is full the kernel drops the packets that need a new
# entry ("neighbour table overflow"): TCP connections time out or fail with
# "No route to host". N hosts that all talk to each other need N*(N-1) data
# entries and 2N management ones, more than 1024 from 32 hosts on (48 hosts:
# MPI_Init failed). `up` raises gc_thresh2 and gc_thresh3 by N*(N+1) on top
# of what they were, `down` puts the old values back.
#
# Host names resolve through /etc/hosts lines marked "# swstress-fabric".
# Everything created is named sws*/swb*/swp*/swm*/swt*; `down` removes exactly
# that (and the marked /etc/hosts lines) and nothing else.
set -u

PFX_NS=swsN
DATA_NET=10.77.0
MGMT_NET=10.77.1
MGMT_ROOT=$MGMT_NET.254
MARK="# swstress-fabric"
STATE_DIR=/run/swstress-fabric
STATE=$STATE_DIR/state
NEIGH=/proc/sys/net/ipv4/neigh/default
BURST=64kb
QLAT=50ms
T="timeout 20"

die() { echo "fabric: $*" >&2; exit 1; }
log() { [ -n "${FABRIC_QUIET:-}" ] || echo "fabric: $*" >&2; }

need_root() {
	[ "$(id -u)" = 0 ] || die "must run as root"
	command -v ip >/dev/null 2>&1 || die "ip (iproute2) not found"
	command -v tc >/dev/null 2>&1 || die "tc (iproute2) not found"
}

host_name() { printf '%s%02d' "$PFX_NS" "$1"; }

# Read the state file into variables TOPO, N, PORT_RATE, TRUNK_RATE.
load_state() {
	[ -r "$STATE" ] || return 1
	# shellcheck disable=SC1090
	. "$STATE"
	[ -n "${N:-}" ]
}

hosts_list() {
	load_state || die "no fabric is up"
	i=0; out=""
	while [ "$i" -lt "$N" ]; do
		h=$(host_name "$i")
		out="${out:+$out,}$h"; i=$((i + 1))
	done
	echo "$out"
}

data_ifs() {
	load_state || die "no fabric is up"
	i=0; out=""
	while [ "$i" -lt "$N" ]; do
		out="$out $(printf 'swp%02d' "$i")"; i=$((i + 1))
	done
	[ "$TOPO" = twoleaf ] && out="$out swtA swtB"
	[ "$TOPO" = tree ] && out="$out swuA swuB swuC swuD"
	echo $out
}

# ---------------------------------------------------------------- neighbour table
# neigh_room N: room in the machine's neighbour table for N hosts' entries
# (see the top); the old limits are kept in $STATE_DIR/neigh for neigh_restore.
neigh_room() {
	[ -w $NEIGH/gc_thresh3 ] || return 0
	mkdir -p "$STATE_DIR" || return 1
	g2=$(cat $NEIGH/gc_thresh2) && g3=$(cat $NEIGH/gc_thresh3) || return 1   # (dash's read stops after a byte of /proc/sys)
	printf 'GC2=%s\nGC3=%s\n' "$g2" "$g3" >"$STATE_DIR/neigh" || return 1
	echo $((g2 + $1 * ($1 + 1))) >$NEIGH/gc_thresh2 && echo $((g3 + $1 * ($1 + 1))) >$NEIGH/gc_thresh3
}

neigh_restore() {
	[ -r "$STATE_DIR/neigh" ] || return 0
	GC2=$(sed -n 's/^GC2=//p' "$STATE_DIR/neigh") GC3=$(sed -n 's/^GC3=//p' "$STATE_DIR/neigh")
	[ -n "$GC2" ] && echo "$GC2" >$NEIGH/gc_thresh2
	[ -n "$GC3" ] && echo "$GC3" >$NEIGH/gc_thresh3
	return 0
}

# ---------------------------------------------------------------- down
# Remove everything with our names; works without a state file, so it also
# cleans up after a crash. Never fails.
do_down() {
	wander_stop
	for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^$PFX_NS[0-9][0-9]*\$"); do
		# Kill leftover processes in the namespace (they are ours: ranks, proxies).
		pids=$($T ip netns pids "$ns" 2>/dev/null)
		[ -n "$pids" ] && kill -9 $pids 2>/dev/null
		$T ip netns del "$ns" 2>/dev/null
	done
	for l in $(ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | sed 's/@.*//' |
		grep -E '^(swp[0-9]+|swm[0-9]+|swtA|swtB|swu[A-D]|swv[A-D]|swbr[A-DSM])$'); do
		$T ip link del "$l" 2>/dev/null
	done
	if grep -q "$MARK" /etc/hosts 2>/dev/null; then
		# Rewrite in place (keeps inode: /etc/hosts may be a bind mount).
		tmp=$(mktemp) && grep -v "$MARK" /etc/hosts >"$tmp" && cat "$tmp" >/etc/hosts
		rm -f "$tmp"
	fi
	neigh_restore
	rm -rf "$STATE_DIR"
	return 0
}

# ---------------------------------------------------------------- wander
WANDER=$STATE_DIR/wander.pid

wander_stop() {
	[ -r "$WANDER" ] || return 0
	kill "$(cat "$WANDER")" 2>/dev/null
	rm -f "$WANDER"
	sleep 0.2   # a step under way ends its tc calls
}

# wander_rates SEED: "SECONDS FACTOR" lines, the seeded walk (1000 steps):
# on the log scale an AR(1) about 80% (sd 10%, correlation 0.3 from one
# step to the next), kept within 55% to 100%
wander_rates() {
	awk -v seed="$1" 'BEGIN {
		srand(seed); mu = log(0.8); x = mu
		for (i = 0; i < 1000; i++) {
			u = rand(); v = rand(); if (u < 1e-12) u = 1e-12
			x = mu + 0.3 * (x - mu) + 0.1 * sqrt(1 - 0.09) * sqrt(-2 * log(u)) * cos(6.283185307 * v)
			if (x > 0) x = 0
			if (x < log(0.55)) x = log(0.55)
			printf "%.2f %.4f\n", 1 + rand(), exp(x)
		}
	}'
}

do_wander() {
	[ $# -ge 1 ] || usage
	load_state || die "no fabric is up"
	wander_stop
	[ "$1" = stop ] && { restore_ports; log "wander stopped"; return 0; }
	case $1 in '' | *[!0-9]*) die "wander: SEED must be a number, not '$1'" ;; esac
	slow="" pct=100
	if [ $# -ge 2 ]; then
		slow=${2%%:*} pct=${2#*:}
		case $pct in '' | *[!0-9]*) die "wander: HOST:PCT wanted, not '$2'" ;; esac
	fi
	kbit=$(echo "$PORT_RATE" | awk '{ v = $0 + 0; u = tolower($0); sub(/^[0-9.]+/, "", u)
		print (u == "gbit" ? v * 1e6 : u == "mbit" ? v * 1e3 : u == "kbit" ? v : -1) }')
	[ "${kbit%.*}" -gt 0 ] 2>/dev/null || die "wander: cannot read the port rate '$PORT_RATE'"
	wander_rates "$1" 2>/dev/null </dev/null | while read -r secs f; do
		[ -r "$STATE" ] || exit 0
		i=0
		while [ "$i" -lt "$N" ]; do
			h=$(host_name "$i") p=$(printf 'swp%02d' "$i") q=100
			[ "$h" = "$slow" ] && q=$pct
			r=$(awk -v k="$kbit" -v f="$f" -v q="$q" 'BEGIN { printf "%dkbit", k * f * q / 100 }')
			shape "$h" swd0 "$r"; shape "" "$p" "$r"
			i=$((i + 1))
		done
		sleep "$secs"
	done >/dev/null 2>&1 9>&- &
	echo $! >"$WANDER"
	log "wander: seed $1${slow:+, $slow at $pct%}"
}

restore_ports() {
	i=0
	while [ "$i" -lt "$N" ]; do
		shape "$(host_name "$i")" swd0 "$PORT_RATE"; shape "" "$(printf 'swp%02d' "$i")" "$PORT_RATE"
		i=$((i + 1))
	done
}

leftovers() {
	{
		ip netns list 2>/dev/null | awk '{print $1}' | grep "^$PFX_NS[0-9]"
		ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | sed 's/@.*//' |
			grep -E '^(swp[0-9]+|swm[0-9]+|swtA|swtB|swu[A-D]|swv[A-D]|swbr[A-DSM])$'
		grep "$MARK" /etc/hosts 2>/dev/null
	} | tr '\n' ' '
}

# ---------------------------------------------------------------- up
shape() { # NS|"" DEV RATE  (tbf on egress of DEV)
	if [ -n "$1" ]; then
		$T ip netns exec "$1" tc qdisc replace dev "$2" root tbf rate "$3" burst $BURST latency $QLAT
	else
		$T tc qdisc replace dev "$2" root tbf rate "$3" burst $BURST latency $QLAT
	fi
}

build() {
	topo=$1 n=$2 prate=$3 trate=$4
	neigh_room "$n" || return 1
	$T ip link add swbrA type bridge || return 1
	$T ip link add swbrM type bridge || return 1
	if [ "$topo" = twoleaf ]; then
		$T ip link add swbrB type bridge || return 1
	fi
	if [ "$topo" = tree ]; then
		for br in swbrB swbrC swbrD swbrS; do
			$T ip link add $br type bridge || return 1
		done
	fi
	for br in swbrA swbrB swbrC swbrD swbrS swbrM; do
		ip link show "$br" >/dev/null 2>&1 || continue
		# No IPv6 on the bridges (no router solicitations, DAD chatter).
		[ -w /proc/sys/net/ipv6/conf/$br/disable_ipv6 ] && echo 1 >/proc/sys/net/ipv6/conf/$br/disable_ipv6
		$T ip link set "$br" type bridge stp_state 0 forward_delay 0 || return 1
		$T ip link set "$br" up || return 1
	done
	$T ip addr add $MGMT_ROOT/24 dev swbrM || return 1

	half=$((n / 2))
	i=0
	while [ "$i" -lt "$n" ]; do
		h=$(host_name "$i"); p=$(printf 'swp%02d' "$i"); m=$(printf 'swm%02d' "$i")
		leaf=swbrA
		[ "$topo" = twoleaf ] && [ "$i" -ge "$half" ] && leaf=swbrB
		[ "$topo" = tree ] && leaf=swbr$(echo ABCD | cut -c$((i / (n / 4) + 1)))
		$T ip netns add "$h" || return 1
		$T ip netns exec "$h" sh -c 'echo 1 >/proc/sys/net/ipv6/conf/all/disable_ipv6; echo 1 >/proc/sys/net/ipv6/conf/default/disable_ipv6' 2>/dev/null
		$T ip link add "$p" type veth peer name swd0 netns "$h" || return 1
		$T ip link add "$m" type veth peer name swm0 netns "$h" || return 1
		for d in "$p" "$m"; do
			[ -w /proc/sys/net/ipv6/conf/$d/disable_ipv6 ] && echo 1 >/proc/sys/net/ipv6/conf/$d/disable_ipv6
		done
		$T ip link set "$p" master "$leaf" up || return 1
		$T ip link set "$m" master swbrM up || return 1
		$T ip -n "$h" link set lo up || return 1
		$T ip -n "$h" addr add "$DATA_NET.$((i + 1))/24" dev swd0 || return 1
		$T ip -n "$h" addr add "$MGMT_NET.$((i + 1))/24" dev swm0 || return 1
		$T ip -n "$h" link set swd0 up || return 1
		$T ip -n "$h" link set swm0 up || return 1
		shape "$h" swd0 "$prate" || return 1   # host -> switch
		shape "" "$p" "$prate" || return 1     # switch -> host
		i=$((i + 1))
	done
	if [ "$topo" = twoleaf ]; then
		$T ip link add swtA type veth peer name swtB || return 1
		for d in swtA swtB; do
			[ -w /proc/sys/net/ipv6/conf/$d/disable_ipv6 ] && echo 1 >/proc/sys/net/ipv6/conf/$d/disable_ipv6
		done
		$T ip link set swtA master swbrA up || return 1
		$T ip link set swtB master swbrB up || return 1
		shape "" swtA "$trate" || return 1     # A -> B
		shape "" swtB "$trate" || return 1     # B -> A
	fi
	if [ "$topo" = tree ]; then
		for x in A B C D; do
			$T ip link add swu$x type veth peer name swv$x || return 1
			for d in swu$x swv$x; do
				[ -w /proc/sys/net/ipv6/conf/$d/disable_ipv6 ] && echo 1 >/proc/sys/net/ipv6/conf/$d/disable_ipv6
			done
			$T ip link set swu$x master swbr$x up || return 1
			$T ip link set swv$x master swbrS up || return 1
			shape "" swu$x "$trate" || return 1   # leaf -> spine
			shape "" swv$x "$trate" || return 1   # spine -> leaf
		done
	fi
	# /etc/hosts: host names -> data addresses (marked lines).
	[ -s /etc/hosts ] && [ "$(tail -c1 /etc/hosts | od -An -c | tr -d ' ')" != '\n' ] && echo >>/etc/hosts
	i=0
	while [ "$i" -lt "$n" ]; do
		printf '%s.%d\t%s\t%s\n' "$DATA_NET" $((i + 1)) "$(host_name "$i")" "$MARK" >>/etc/hosts || return 1
		i=$((i + 1))
	done
	mkdir -p "$STATE_DIR" || return 1
	printf 'TOPO=%s\nN=%s\nPORT_RATE=%s\nTRUNK_RATE=%s\n' "$topo" "$n" "$prate" "$trate" >"$STATE.tmp" &&
		mv "$STATE.tmp" "$STATE"
}

# Is the fabric described by the state file complete?
complete() {
	load_state || return 1
	[ "$TOPO" = "$1" ] && [ "$N" = "$2" ] && [ "$PORT_RATE" = "$3" ] && [ "$TRUNK_RATE" = "$4" ] || return 1
	i=0
	while [ "$i" -lt "$N" ]; do
		ip netns exec "$(host_name "$i")" true 2>/dev/null || return 1
		i=$((i + 1))
	done
	ip link show swbrM >/dev/null 2>&1
}

do_up() {
	[ $# -ge 2 ] || usage
	topo=$1 n=$2; shift 2
	prate=100mbit trate=200mbit
	while [ $# -gt 0 ]; do
		case $1 in
		--port-rate) [ $# -ge 2 ] || usage; prate=$2; shift 2 ;;
		--port-rate=*) prate=${1#*=}; shift ;;
		--trunk-rate) [ $# -ge 2 ] || usage; trate=$2; shift 2 ;;
		--trunk-rate=*) trate=${1#*=}; shift ;;
		*) usage ;;
		esac
	done
	case $topo in single | twoleaf | tree) ;; *) die "unknown topology '$topo' (single, twoleaf, tree)" ;; esac
	case $n in '' | *[!0-9]*) die "N must be a number" ;; esac
	[ "$n" -ge 2 ] && [ "$n" -le 64 ] || die "N must be 2..64"
	[ "$topo" = twoleaf ] && [ $((n % 2)) -ne 0 ] && die "twoleaf needs an even N"
	[ "$topo" = tree ] && [ $((n % 4)) -ne 0 ] && die "tree needs N a multiple of 4"
	if complete "$topo" "$n" "$prate" "$trate"; then
		log "already up: $topo, $n hosts"
		return 0
	fi
	# Refuse to shadow an address range someone else uses.
	if ip -o addr show 2>/dev/null | grep -v -E ' (swbrM|swbr[A-DS]) ' | grep -q -E "inet ($DATA_NET|$MGMT_NET)\."; then
		die "10.77.0.0/24 or 10.77.1.0/24 is already in use on this machine"
	fi
	do_down
	trap 'do_down; exit 130' INT TERM HUP
	if ! build "$topo" "$n" "$prate" "$trate"; then
		do_down
		die "building the fabric failed; cleaned up"
	fi
	trap - INT TERM HUP
	log "up: $topo, $n hosts ($(hosts_list)), ports $prate, trunk $([ "$topo" != single ] && echo "$trate" || echo none)"
}

# ---------------------------------------------------------------- fault
has_qdisc() { # kind
	ip netns exec "$1" tc qdisc add dev lo root "$2" >/dev/null 2>&1 || return 1
	ip netns exec "$1" tc qdisc del dev lo root >/dev/null 2>&1
	return 0
}

do_fault() {
	[ $# -ge 2 ] || usage
	host=$1 kind=$2 val=${3:-}
	load_state || die "no fabric is up"
	if [ "$host" = trunk ]; then
		[ "$TOPO" = twoleaf ] || die "no trunk in topology '$TOPO'"
		case $kind in
		clear) val=$TRUNK_RATE ;;
		rate) [ -n "$val" ] || usage ;;
		*) usage ;;
		esac
		shape "" swtA "$val" && shape "" swtB "$val" || die "tc failed"
		log "trunk: rate $val"
		return 0
	fi
	case $host in uplink[A-D])
		[ "$TOPO" = tree ] || die "no uplinks in topology '$TOPO'"
		x=${host#uplink}
		case $kind in
		clear) val=$TRUNK_RATE ;;
		rate) [ -n "$val" ] || usage ;;
		*) usage ;;
		esac
		shape "" swu$x "$val" && shape "" swv$x "$val" || die "tc failed"
		log "uplink of leaf $x: rate $val"
		return 0
	esac
	i=${host#"$PFX_NS"}
	case $i in '' | *[!0-9]*) die "unknown host '$host'" ;; esac
	i=$(echo "$i" | sed 's/^0*//;s/^$/0/')
	[ "$i" -lt "$N" ] || die "unknown host '$host'"
	p=$(printf 'swp%02d' "$i")
	case $kind in
	clear)
		shape "$host" swd0 "$PORT_RATE" && shape "" "$p" "$PORT_RATE" || die "clearing failed"
		log "$host: fault cleared" ;;
	rate)
		# A slow port: tbf at VALUE on both ends of the host's cable.
		[ -n "$val" ] || usage
		shape "$host" swd0 "$val" && shape "" "$p" "$val" || die "tc failed"
		log "$host: port rate $val" ;;
	delay | loss)
		[ -n "$val" ] || usage
		# netem under the port's tbf, on both ends of the host's cable.
		has_qdisc "$host" netem || die "this kernel has no netem (CONFIG_NET_SCH_NETEM); use: fault $host rate VALUE"
		for side in in out; do
			if [ $side = out ]; then dev=swd0 nse="ip netns exec $host"; else dev=$p nse=""; fi
			$T $nse tc qdisc replace dev $dev root handle 1: tbf rate "$PORT_RATE" burst $BURST latency $QLAT || die "tc failed"
			$T $nse tc qdisc replace dev $dev parent 1:1 handle 10: netem "$kind" "$val" || die "tc netem failed"
		done
		log "$host: $kind $val" ;;
	*) usage ;;
	esac
}

# ---------------------------------------------------------------- check
# Can this machine build a fabric? Prints the reason and fails when not.
# Tries a namespace, a veth pair, a bridge and tbf, and removes them again.
do_check() {
	[ "$(id -u)" = 0 ] || { echo "not root"; return 1; }
	command -v ip >/dev/null 2>&1 || { echo "ip (iproute2) not installed"; return 1; }
	command -v tc >/dev/null 2>&1 || { echo "tc (iproute2) not installed"; return 1; }
	command -v unshare >/dev/null 2>&1 || { echo "unshare (util-linux) not installed"; return 1; }
	ns=swsNcheck$$
	why=""
	trap 'ip netns del $ns 2>/dev/null; ip link del swpchk 2>/dev/null; ip link del swbrchk 2>/dev/null; exit 130' INT TERM HUP
	if ! $T ip netns add $ns 2>/dev/null; then why="'ip netns' unavailable (no permission or no network namespaces)"
	elif ! $T ip link add swpchk type veth peer name swd0 netns $ns 2>/dev/null; then why="cannot create veth links"
	elif ! $T ip link add swbrchk type bridge 2>/dev/null; then why="cannot create bridges"
	elif ! $T tc qdisc add dev swpchk root tbf rate 100mbit burst $BURST latency $QLAT 2>/dev/null; then why="tc tbf unavailable"
	elif ! $T ip netns exec $ns unshare --uts true 2>/dev/null; then why="unshare --uts fails"
	fi
	$T ip link del swpchk 2>/dev/null; $T ip link del swbrchk 2>/dev/null; $T ip netns del $ns 2>/dev/null
	trap - INT TERM HUP
	[ -z "$why" ] && { echo "ok"; return 0; }
	echo "$why"; return 1
}

# ---------------------------------------------------------------- status
do_status() {
	if ! load_state; then
		l=$(leftovers)
		if [ -n "$l" ]; then echo "fabric: down, but leftovers: $l"; return 1; fi
		echo "fabric: down"; return 0
	fi
	echo "fabric: up: topology $TOPO, $N hosts, ports $PORT_RATE, trunk $([ "$TOPO" != single ] && echo "$TRUNK_RATE" || echo none)"
	echo "management: mpiexec -iface swbrM ($MGMT_ROOT)"
	i=0
	while [ "$i" -lt "$N" ]; do
		h=$(host_name "$i"); p=$(printf 'swp%02d' "$i")
		leaf=$(ip -o link show "$p" 2>/dev/null | sed -n 's/.* master \([^ ]*\).*/\1/p')
		q=$(ip netns exec "$h" tc qdisc show dev swd0 2>/dev/null | awk '{print $2, $5, $6, $7, $8}' | tr '\n' ';')
		rx=$(cat /sys/class/net/$p/statistics/rx_bytes 2>/dev/null)
		tx=$(cat /sys/class/net/$p/statistics/tx_bytes 2>/dev/null)
		printf '%s  %s.%d  port %s on %s  qdisc %s  port rx %s tx %s bytes\n' "$h" "$DATA_NET" $((i + 1)) "$p" "${leaf:-?}" "$q" "$rx" "$tx"
		i=$((i + 1))
	done
	if [ "$TOPO" = twoleaf ]; then
		printf 'trunk swtA(swbrA)<->swtB(swbrB)  A->B %s bytes  B->A %s bytes\n' \
			"$(cat /sys/class/net/swtA/statistics/tx_bytes)" "$(cat /sys/class/net/swtB/statistics/tx_bytes)"
	fi
	if [ "$TOPO" = tree ]; then
		for x in A B C D; do
			printf 'uplink swu%s(swbr%s)<->swv%s(swbrS)  up %s bytes  down %s bytes\n' $x $x $x \
				"$(cat /sys/class/net/swu$x/statistics/tx_bytes)" "$(cat /sys/class/net/swv$x/statistics/tx_bytes)"
		done
	fi
}

usage() {
	sed -n '7,18p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
up) need_root; do_up "$@" ;;
down) need_root; do_down; l=$(leftovers); [ -z "$l" ] || die "leftovers after down: $l"; log "down" ;;
fault) need_root; do_fault "$@" ;;
wander) need_root; do_wander "$@" ;;
status) do_status ;;
hosts) hosts_list ;;
data-ifs) data_ifs ;;
check) do_check ;;
*) usage ;;
esac
