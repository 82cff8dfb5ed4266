# Sourced by the side-by-side benchmarks (netpipe.sh, osu.sh, phase.sh).
# alternate NAME REPS "ITEMS" REF SW: for each repetition and item, run the
# functions REF and SW (called as FN ITEM REP), the reference tool first in
# odd repetitions and swstress first in even ones; progress on stderr.
alternate() {
	name=$1 reps=$2 items=$3 ref=$4 sw=$5
	for rep in $(seq 1 "$reps"); do
		for it in $items; do
			if [ $((rep % 2)) = 1 ]; then $ref "$it" "$rep"; $sw "$it" "$rep"
			else $sw "$it" "$rep"; $ref "$it" "$rep"; fi
			echo "$name: rep $rep $it done (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
		done
	done
}
