#!/bin/sh
# Runs on a busy machine can be read back (issue #39): rounds of several
# 4-rank runs at once on this machine's cores (more ranks than cores, so
# pairs are descheduled past their deadlines). Every run that exits 0 reads
# back through report, compare and publish; every row of its samples.csv is
# a usable window (no count beyond the timer's resolution) or a missing
# sample with its reason and no value; the missing samples are counted.
#   sh tests/drills/busy.sh            (from the repository root; ~1-2 min)
#   BUSY_ROUNDS=8 BUSY_RUNS=4 sh tests/drills/busy.sh      (the issue's drill)
# Prints "busy: N passed, N failed, N skipped" (tests/lib.sh).
. "$(dirname "$0")/common.sh"

# rows_ok DIR: samples.csv's rows against run.json's timer resolution; prints
# "USABLE MISSING REASONS" or the first bad row (exit 1).
rows_ok() {
	python3 - "$1" <<'PY'
import csv, json, os, sys
d = sys.argv[1]
tick = max(json.load(open(os.path.join(d, "run.json"))).get("wtick") or 0, 1e-9)
rows = list(csv.DictReader(l for l in open(os.path.join(d, "samples.csv")) if not l.startswith("#")))
usable, why = 0, {}
for i, r in enumerate(rows):
    m = r.get("missing", "")
    if m:
        assert m in ("late", "short", "fast"), "row %d: missing '%s'" % (i + 2, m)
        assert r["seconds"] == "" and r["bandwidth_MBps"] == "", "row %d: a missing sample with a value" % (i + 2)
        why[m] = why.get(m, 0) + 1
        continue
    s, h = float(r["seconds"]), int(r["hops"])
    assert s > tick, "row %d: %d hops in %g s, not beyond one tick (%g s)" % (i + 2, h, s, tick)
    assert h * 1e-9 <= s * (1 + 1e-9), "row %d: %d hops in %g s" % (i + 2, h, s)
    usable += 1
print(usable, sum(why.values()), ",".join("%s=%d" % kv for kv in sorted(why.items())) or "-")
PY
}

drill_busy_runs() {
	rounds=${BUSY_ROUNDS:-2} runs=${BUSY_RUNS:-4}
	n0=0 nread=0 nbad=0 usable=0 missing=0 reasons="" prev=""
	for round in $(seq 1 "$rounds"); do
		for i in $(seq 1 "$runs"); do
			timeout 300 $MPIEXEC -n 4 "$SW" run -c /dev/null allow_shared_node=yes sample_time=5ms \
				repetitions=5 sizes=8,64KiB pairs=1,2 timeout=60 --no-plot output="$TMP/o$round-$i" \
				label="busy$i" > "$TMP/run$round-$i.out" 2>&1 &
		done
		wait
		for i in $(seq 1 "$runs"); do
			dir=$(ls -d "$TMP/o$round-$i"/busy$i-* 2>/dev/null | grep -v '\.partial$' | head -n 1)
			[ -n "$dir" ] || continue
			n0=$((n0 + 1))
			if ! got=$(rows_ok "$dir" 2> "$TMP/rows.err"); then
				nbad=$((nbad + 1)); echo "$dir: $(tail -n 1 "$TMP/rows.err")" >> "$TMP/bad"; continue
			fi
			set -- $got
			usable=$((usable + $1)) missing=$((missing + $2))
			[ "$3" = - ] || echo "$3" | tr ',' '\n' >> "$TMP/reasons"
			: > "$TMP/cmp"; : > "$TMP/pub"
			if ! "$SW" report "$dir" > "$TMP/rep" 2>&1; then what=report
			elif ! "$SW" compare "${prev:-$dir}" "$dir" --no-plot -o "$TMP/c$round-$i" > "$TMP/cmp" 2>&1; then
				what=compare
			elif ! "$SW" publish "$dir" model=busy --shared-node --store "$TMP/store.sqlite" > "$TMP/pub" 2>&1; then
				what=publish
			else what=""; nread=$((nread + 1)); fi
			if [ -n "$what" ]; then
				nbad=$((nbad + 1))
				echo "$dir: $what: $(cat "$TMP/rep" "$TMP/cmp" "$TMP/pub" | grep -m1 'swstress: ')" >> "$TMP/bad"
			fi
			prev=$dir
		done
	done
	reasons=$(awk -F= '{n[$1] += $2} END {for (k in n) printf "%s%s %d", s, k, n[k]; s = ", "}' "$TMP/reasons" 2>/dev/null)
	if [ "$n0" -gt 0 ] && [ "$nbad" = 0 ] && [ "$nread" = "$n0" ]; then
		ok "$rounds rounds of $runs 4-rank runs at once: $nread of $n0 finished runs read back (report, compare, publish); $usable usable samples, $missing missing (${reasons:-none}), none beyond the timer's resolution"
	else
		fail "busy runs: $nread of $n0 finished runs read back, $nbad refused" "$TMP/bad"
	fi
}

run_drills busy "drill_busy_runs" "$@"
