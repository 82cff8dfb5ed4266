#!/bin/sh
# victims.sh [RUNS] - the victims' CPU control, repeated (make bench; root).
#
# On the two-leaf fabric (8 hosts as network namespaces of one kernel, trunk
# slowed to 20 Mbit/s), RUNS times (default 5): a victim pair across the
# trunk that 2 streaming aggressors oversubscribe (vcross), and a victim on
# its own leaf beside the same aggressors (vlocal). Prints each run's CPU
# part and network part (run.json, the CPU control round) and counts the
# runs in which they separate: the trunk victim's network part significant,
# the own-leaf victim's not significantly positive. Exit 1 unless all runs
# separate.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
t_begin fabric-victims
F=tests/fabric
FAB="sh $F/fabric.sh"
export FABRIC_QUIET=1
RUNS=${1:-5}
[ "$(id -u)" = 0 ] || t_skip_all fabric-victims "not root (network namespaces need root)"
why=$(timeout 30 $FAB check 2>&1) || t_skip_all fabric-victims "$why"
[ -x build/swstress ] || t_skip_all fabric-victims "build/swstress not built"
t_tmpdir fabric-victims
TMP=$T_TMP
timeout 300 sh $F/build.sh >"$TMP/build.log" 2>&1 || t_skip_all fabric-victims "cannot build tests/fabric helpers"
exec 9>/run/lock/swstress-fabric.lock && flock -w 1500 9 || t_bail "the fabric lock was held for 1500 s"
t_cleanup() { timeout 60 $FAB down >/dev/null 2>&1; }
cat >"$TMP/v.conf" <<-'EOC'
[sweep]
sizes = 64KiB
patterns = stream
window = 64
pairing = halves
repetitions = 9
warmup = 1
timeout = 60s
victims = 1
sample_time = 300ms
[stats]
min_effect = 5
EOC
timeout 60 $FAB up twoleaf 8 --port-rate 100mbit --trunk-rate 200mbit || t_bail "up twoleaf 8"
timeout 30 $FAB fault trunk rate 20mbit >/dev/null 2>&1
# split NAME PAIRS KEY: a fact of the victims line (swres.py)
split() { grep "^victims cell=.* pairs=$2 " "$TMP/$1.facts" | head -1 | sed -n "s/.* $3=\([^ ]*\).*/\1/p"; }
in_range() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v != "" && v + 0 >= lo && v + 0 <= hi) }'; }
good=0
for i in $(seq "$RUNS"); do
	for v in "vcross pairs=1,2" "vlocal pairs=2 pairing=shift:3"; do
		n=${v%% *}
		rm -rf "$TMP/res"
		# shellcheck disable=SC2086 # the keys are words
		timeout -k 5 150 sh $F/mpirun.sh --timeout 140 build/swstress run -c "$TMP/v.conf" --no-plot \
			label="$n" output="$TMP/res" ${v#* } </dev/null >"$TMP/$n.out" 2>"$TMP/$n.err"
		python3 $F/swres.py "$(ls -d "$TMP"/res/"$n"-*)" >"$TMP/$n.facts" 2>/dev/null || : >"$TMP/$n.facts"
		echo "  run $i $n: inflation $(split $n 2 infl)% sig=$(split $n 2 sig); CPU part $(split $n 2 cpu)%" \
			"sig=$(split $n 2 cpu_sig); network part $(split $n 2 net)% [$(split $n 2 net_lo), $(split $n 2 net_hi)]" \
			"sig=$(split $n 2 net_sig)"
	done
	# inflation is positive: a significant negative network part (the
	# control round slower than the loaded one) is no network inflation
	if [ "$(split vcross 2 net_sig)" = 1 ] && in_range "$(split vcross 2 net)" 0 1e12 &&
		{ [ "$(split vlocal 2 net_sig)" = 0 ] || in_range "$(split vlocal 2 net)" -1e12 0; }; then
		good=$((good + 1))
	fi
done
check_eq "the CPU control separates the trunk victim (network part significant) from the own-leaf victim (not) in $good of $RUNS runs" "$good" "$RUNS"
t_end
