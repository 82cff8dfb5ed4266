#!/bin/sh
# victims.sh [RUNS] - the victims' CPU control, repeated (make bench; root).
#
# On the two-leaf fabric (8 hosts as network namespaces of one kernel, trunk
# slowed to 20 Mbit/s), RUNS times (default 5): a victim pair across the
# trunk that 2 streaming aggressors oversubscribe (vcross), and a victim on
# its own leaf beside the same aggressors (vlocal). Prints each run's load
# average, CPU part and network part (run.json, the CPU control round) and
# counts the runs in which they separate: the trunk victim's network part
# significant, the own-leaf victim's not significantly positive (at 99%
# confidence: a null tested at 95% fails once in about 20 runs). Exit 1
# unless all runs separate.
set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
. tests/fabric/lib.sh
t_begin fabric-victims
F=tests/fabric
FAB="sh $F/fabric.sh"
export FABRIC_QUIET=1
RUNS=${1:-5}
fabric_begin fabric-victims
SWCFG=$TMP/v.conf
cat >"$SWCFG" <<-'EOC'
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
good=0
for i in $(seq "$RUNS"); do
	echo "  run $i, load: $(uptime | sed 's/.*load average: //')"
	for v in "vcross pairs=1,2" "vlocal pairs=2 pairing=shift:3 confidence=0.99"; do
		n=${v%% *}
		# shellcheck disable=SC2086 # the keys are words
		sw "$n" 140 -- ${v#* }
		echo "  run $i $n: inflation $(vl $n 2 infl)% sig=$(vl $n 2 sig); CPU part $(vl $n 2 cpu)%" \
			"sig=$(vl $n 2 cpu_sig); network part $(vl $n 2 net)% [$(vl $n 2 net_lo), $(vl $n 2 net_hi)]" \
			"sig=$(vl $n 2 net_sig)"
	done
	# inflation is positive: a significant negative network part (the
	# control round slower than the loaded one) is no network inflation
	if [ "$(vl vcross 2 net_sig)" = 1 ] && in_range "$(vl vcross 2 net)" 0 1e12 &&
		{ [ "$(vl vlocal 2 net_sig)" = 0 ] || in_range "$(vl vlocal 2 net)" -1e12 0; }; then
		good=$((good + 1))
	fi
done
check_eq "the CPU control separates the trunk victim (network part significant) from the own-leaf victim (not) in $good of $RUNS runs" "$good" "$RUNS"
t_end
