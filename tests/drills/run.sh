#!/bin/sh
# Fault drills: what an operator sees when things go wrong mid-run.
#   sh tests/drills/run.sh [NAME...]        (from the repository root; ~1-2 min)
# Prints one line per check and "drills: N passed, N failed, N skipped"
# (tests/lib.sh).
# Drills that need root (tmpfs mounts) are skipped otherwise. Every drill
# requires the exact exit status and message (a crash is a failure).
. "$(dirname "$0")/common.sh"

# run_sw NP ARGS...: swstress run on NP ranks, small tiny-sweep defaults.
sw_args() { echo "-c /dev/null allow_shared_node=yes timeout=20 --no-plot"; }

# consistent DIR: run.json and samples.csv agree (every sample's cell was
# recorded in run.json with that many reps), no temporary file is left,
# and report reads the folder.
consistent() {
	python3 - "$1" <<'PY' || return 1
import csv, json, os, sys
d = sys.argv[1]
left = [f for f in os.listdir(d) if f.endswith(".tmp")]
assert not left, "temporary files left: %s" % left
run = json.load(open(os.path.join(d, "run.json")))
rows = list(csv.DictReader(l for l in open(os.path.join(d, "samples.csv")) if not l.startswith("#")))
per = {}
for r in rows:
    per[int(r["cell"])] = per.get(int(r["cell"]), 0) + 1
for c in run["cells"]:
    want = c["reps"] * c["pairs"]
    got = per.get(c["cell"], 0)
    assert got == want, "cell %d: run.json says %d samples, samples.csv has %d" % (c["cell"], want, got)
print("consistent: %d samples, %d cells with samples" % (len(rows), len(per)))
PY
	"$SW" report "$1" > "$TMP/report.out" 2>&1
}

# A rank that stops answering: the watchdog ends the run, names it, and
# keeps the completed level.
drill_stalled_rank() {
	t0=$(now)
	SWSTRESS_FAULT_STALL=3:1 timeout 60 $MPIEXEC -n 4 "$SW" run $(sw_args) pairs=1,2 sizes=8 patterns=pingpong \
		hops=100 repetitions=3 timeout=3 output="$TMP/stall" label=stall > /dev/null 2> "$TMP/err"
	rc=$?
	took=$(elapsed "$t0")
	dir=$(ls -d "$TMP"/stall/stall-* 2>/dev/null | head -n 1)
	if [ "$rc" = 1 ] && grep -q "watchdog: .*rank 2 waited for rank 3" "$TMP/err" && [ -n "$dir" ] &&
		consistent "$dir" >> "$TMP/err" 2>&1 && grep -q "INCOMPLETE" "$TMP/report.out"; then
		ok "stalled rank 3: watchdog ends the run in ${took}s (timeout 3 s), exit 1, names rank 3; level 0 on disk, report reads it"
	else fail "stalled rank: rc=$rc took=${took}s" "$TMP/err"; fi
}

# pid_of_rank R: the pid of MPI rank R of the running swstress (PMI_RANK).
pid_of_rank() {
	for p in $(pgrep -f "$SW (run|check)" 2>/dev/null); do
		if tr '\0' '\n' < "/proc/$p/environ" 2>/dev/null | grep -qx "PMI_RANK=$1"; then
			case "$(cat /proc/$p/comm 2>/dev/null)" in swstress) echo "$p"; return;; esac
		fi
	done
}

# kill -9 one rank while level 1 runs: the run ends within seconds with
# mpiexec's exit 9 and "Killed (signal 9)" (the rank's signal);
# level 0 stays on disk in the .partial folder, readable.
drill_killed_rank() {
	out="$TMP/kill"
	timeout 120 $MPIEXEC -n 4 "$SW" run $(sw_args) pairs=1,2 sizes=8,1KiB patterns=pingpong,stream \
		hops=auto sample_time=10ms repetitions=40 output="$out" label=kill > "$TMP/out" 2> "$TMP/err" &
	job=$!
	# wait for the first flush (level 0 done), at most 60 s
	i=0
	while [ $i -lt 600 ] && ! ls "$out"/kill-*.partial/run.json > /dev/null 2>&1; do sleep 0.1; i=$((i + 1)); done
	victim=$(pid_of_rank 3)
	if [ -z "$victim" ]; then
		wait $job
		fail "killed rank: rank 3 not found running (run ended before level 1?)" "$TMP/err"; return
	fi
	t0=$(now)
	kill -9 "$victim"
	wait $job
	rc=$?
	took=$(elapsed "$t0")
	dir=$(ls -d "$out"/kill-*.partial 2>/dev/null | head -n 1)
	# mpiexec (hydra) reports the killed rank and exits with its signal
	if [ "$rc" = 9 ] && grep -qF "Killed (signal 9)" "$TMP/out" && awk "BEGIN {exit !($took <= 10)}" &&
		[ -n "$dir" ] && consistent "$dir" >> "$TMP/err" 2>&1 &&
		python3 -c "import json,sys; r=json.load(open(sys.argv[1])); assert r['complete'] is False" "$dir/run.json"; then
		ok "rank 3 killed (-9) in level 1: run ends in ${took}s with exit $rc; $(basename "$dir") holds level 0, consistent, report reads it"
	else cat "$TMP/out" >> "$TMP/err"; fail "killed rank: rc=$rc (want 9 and mpiexec's 'Killed (signal 9)') took=${took}s dir=${dir:-none}" "$TMP/err"; fi
	grep -q "INCOMPLETE" "$TMP/report.out" && ok "report on the killed run says it is incomplete" ||
		fail "report on the killed run does not say INCOMPLETE" "$TMP/report.out"
}

# Output folder not writable: refused before any measurement (exit 2).
drill_output_not_writable() {
	if [ "$(id -u)" = 0 ]; then
		# root ignores permissions: a read-only file system
		mkdir -p "$TMP/ro" && mount -t tmpfs -o ro,size=64k tmpfs "$TMP/ro" || { skip "read-only output" "mount failed"; return; }
		MOUNTS="$MOUNTS $TMP/ro"
	else
		mkdir -p "$TMP/ro" && chmod 555 "$TMP/ro"
	fi
	t0=$(now)
	timeout 60 $MPIEXEC -n 2 "$SW" run $(sw_args) pairs=1 sizes=8 patterns=pingpong hops=1000000 \
		repetitions=50 output="$TMP/ro" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	took=$(elapsed "$t0")
	# hops=1000000 x 50 would take many seconds: a quick exit means nothing ran
	if [ "$rc" = 2 ] && grep -q "output '$TMP/ro'" "$TMP/err" && ! grep -q "cells\|writing" "$TMP/err" &&
		[ ! -s "$TMP/out" ] && awk "BEGIN {exit !($took < 10)}"; then
		ok "read-only output: refused before measuring in ${took}s, exit 2: $(head -n 1 "$TMP/err")"
	else fail "read-only output: rc=$rc took=${took}s" "$TMP/err"; fi
}

# An output path so long that the results folder name does not fit
# (SW_PATH_MAX): refused before measuring, not found out at the end.
drill_output_path_too_long() {
	long="$TMP/$(printf 'a%.0s' $(seq 200))/$(printf 'b%.0s' $(seq 200))/$(printf 'c%.0s' $(seq 60))"
	label=$(printf 'L%.0s' $(seq 60))
	t0=$(now)
	timeout 60 $MPIEXEC -n 2 "$SW" run $(sw_args) pairs=1 sizes=8 patterns=pingpong hops=100000 \
		repetitions=20 output="$long" label="$label" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	took=$(elapsed "$t0")
	# refused as a folder path too long, or (since the 198-character limit
	# on a command-line word) as a word too long
	if [ "$rc" = 2 ] && grep -q -e "output '.*': path too long for the results folder" \
		-e "command line: 'output=\.\.\.' is longer than 198 characters" "$TMP/err" &&
		! grep -q "writing" "$TMP/err"; then
		ok "output path too long for the folder name: refused before measuring (exit 2, ${took}s)"
	else fail "output path too long (${#long} + label ${#label} chars): exit $rc after measuring (${took}s); $(tail -n 1 "$TMP/err" | rev | cut -c1-80 | rev)"; fi
	rm -rf "$TMP/aaaa"*
}

# Full disk under the results writer: a small tmpfs as output.
# At the first flush: a clear error, nothing presented as complete (no
# run.json, no temporary file, the folder keeps .partial). At a later
# flush, for a range of tmpfs sizes (so that each file in turn is the one
# that fails): the folder must stay consistent, run.json describing exactly
# what samples.csv holds.
drill_disk_full() {
	if [ "$(id -u)" != 0 ]; then skip "disk full" "needs root to mount a tmpfs"; return; fi
	args="pairs=1,2 sizes=8,1KiB,4KiB,16KiB patterns=pingpong,stream,bidir hops=20 repetitions=30"
	# reference run: how big the folder is at the end
	timeout 60 $MPIEXEC -n 4 "$SW" run $(sw_args) $args output="$TMP/ref" label=full > /dev/null 2>&1
	ref=$(ls -d "$TMP"/ref/full-* | head -n 1)
	total=$(du -sb --apparent-size "$ref" | cut -f1)
	base=$(( (total + 4095) / 4096 * 4096 ))
	bad=""
	n=0
	for size in 8192 $((base + 4096)) $((base + 8192)) $((base + 12288)) $((base + 16384)) $((base + 20480)) \
		$((base + 24576)) $((base + 28672)) $((base + 32768)); do
		mnt="$TMP/full-$size"
		mkdir -p "$mnt" && mount -t tmpfs -o size=$size tmpfs "$mnt" || { skip "disk full" "mount failed"; return; }
		MOUNTS="$MOUNTS $mnt"
		timeout 60 $MPIEXEC -n 4 "$SW" run $(sw_args) $args output="$mnt" label=full > "$TMP/out" 2> "$TMP/err"
		rc=$?
		dir=$(ls -d "$mnt"/full-* 2>/dev/null | head -n 1)
		tmps=$(find "$mnt" -name '*.tmp' | wc -l)
		msg=$(grep -m1 "No space left" "$TMP/err")
		failed=$(echo "$msg" | sed -n 's|.*/\([a-z.]*\): write failed.*|\1|p')
		if [ "$size" = 8192 ]; then
			if [ "$rc" = 1 ] && [ -n "$msg" ] && [ "$tmps" = 0 ] && [ -n "$dir" ] &&
				[ ! -e "$dir/run.json" ] && case "$dir" in *.partial) true;; *) false;; esac; then
				ok "disk full at the first flush (tmpfs 8 KiB): exit $rc, '$msg'; no run.json, no temp files, folder still .partial"
			else fail "disk full at the first flush: rc=$rc tmps=$tmps dir=${dir:-none} files=$(ls "$dir" 2>/dev/null | tr '\n' ' ')" "$TMP/err"; fi
			continue
		fi
		n=$((n + 1))
		if [ "$rc" = 0 ]; then continue; fi    # it fitted
		if [ "$rc" != 1 ]; then
			bad="$bad $((size / 1024))KiB(exit $rc, want 1)"
		elif [ -z "$msg" ] || [ "$tmps" != 0 ] || [ ! -e "$dir/run.json" ] || ! consistent "$dir" > "$TMP/cons" 2>&1; then
			bad="$bad $((size / 1024))KiB(${failed:-?} failed: $(tail -n 1 "$TMP/cons" | sed 's/.*AssertionError: //'))"
		fi
		umount "$mnt" 2>/dev/null
	done
	if [ -z "$bad" ]; then
		ok "disk full at later flushes ($n tmpfs sizes from $((base / 1024 + 4)) KiB, full run $total B): exit 1 each time, folder consistent"
	else fail "disk full at a later flush leaves run.json and samples.csv disagreeing at:$bad"; fi
}

# A check or a run whose results folder is on a full disk (a tmpfs of
# 8 KiB: the first flush fails). check prints one status line, UNKNOWN
# naming the full disk, and exits 3, alone and under guard (whose reason
# is then the check's, not "a rank died"); the history row, in a database
# on a healthy disk, says why the run stopped; when the database is on the
# full disk too, the lost row is said on stderr and in the status line.
drill_check_disk_full() {
	if [ "$(id -u)" != 0 ]; then skip "check on a full disk" "needs root to mount a tmpfs"; return; fi
	fargs="pairs=1 sizes=8 patterns=pingpong hops=20 repetitions=3"
	timeout 60 $MPIEXEC -n 2 "$SW" run $(sw_args) $fargs output="$TMP/fbase" label=fb > /dev/null 2>&1
	base=$(ls -d "$TMP"/fbase/fb-* 2>/dev/null | head -n 1)
	[ -n "$base" ] || { fail "check on a full disk: no baseline run"; return; }
	for how in check guard lost run; do
		mnt="$TMP/cfull-$how"
		mkdir -p "$mnt" && mount -t tmpfs -o size=8192 tmpfs "$mnt" || { skip "check on a full disk" "mount failed"; return; }
		MOUNTS="$MOUNTS $mnt"
		hist="--history $TMP/cfull-$how.sqlite"
		cmd="check"
		case $how in lost) hist="";; run) cmd="run";; esac
		set -- $MPIEXEC -n 2 "$SW" $cmd $(sw_args) $fargs output="$mnt" label=cf $hist
		[ $cmd = check ] && set -- "$@" --baseline "$base"
		[ $how = guard ] && set -- "$SW" guard --time-limit 60 -- "$@"
		timeout 120 "$@" > "$TMP/out" 2> "$TMP/err"
		rc=$?
		line=$(head -n 1 "$TMP/out")
		lines=$(grep -c '^SWSTRESS ' "$TMP/out")
		name_=$(basename "$(ls -d "$mnt"/cf-* 2>/dev/null | head -n 1)" .partial)
		row=$(history_row "$TMP/cfull-$how.sqlite" "$name_" 2>> "$TMP/err")
		case $how in
		check|guard)
			if [ "$rc" = 3 ] && [ "$lines" = 1 ] && [ "$(wc -l < "$TMP/out")" = 1 ] &&
				echo "$line" | grep -q '^SWSTRESS UNKNOWN - results not written: .*No space left on device' &&
				case "$row" in "0|results not written: "*"No space left on device|3|UNKNOWN") true;; *) false;; esac; then
				ok "$how on a full disk: exit 3, one line '$(echo "$line" | cut -c1-110)...'; history row: UNKNOWN, why"
			else cat "$TMP/out" >> "$TMP/err"; fail "$how on a full disk: rc=$rc (want 3), $lines status lines, history row '$row'" "$TMP/err"; fi;;
		lost)
			if [ "$rc" = 3 ] && [ "$lines" = 1 ] && echo "$line" | grep -q 'No space left on device.*; its history row is lost too$' &&
				grep -q "^swstress: history: .*: this run's row is lost$" "$TMP/err"; then
				ok "check on a full disk that holds its history too: exit 3, the lost row said on stderr and in the status line"
			else cat "$TMP/out" >> "$TMP/err"; fail "check, history on the full disk: rc=$rc, line '$line'" "$TMP/err"; fi;;
		run)
			case "$row" in
			"0|results not written: "*"No space left on device")
				[ "$rc" = 1 ] && ok "run on a full disk: exit 1; its history row on a healthy disk says why it stopped" ||
					fail "run on a full disk: rc=$rc (want 1)" "$TMP/err";;
			*) fail "run on a full disk: history row '$row' (want complete 0 and the write failure)" "$TMP/err";;
			esac;;
		esac
		umount "$mnt" 2>/dev/null
	done
}

# swstress guard: one Nagios status line and an exit 0-3 that agrees with
# it, whatever happens to the ranks of a check: a rank killed; SIGINT to
# the guard, forwarded to mpiexec (the check's own line says it was
# stopped by the signal, and its history row is written); SIGHUP to the
# guard (passed on as SIGTERM, which Hydra forwards); rank 0 stopped
# (SIGSTOP), which only the other ranks' watchdog or the guard's
# --time-limit can end: UNKNOWN within a bounded time.
drill_guard() {
	gargs="pairs=1,2 sizes=8 patterns=pingpong hops=auto sample_time=10ms"
	timeout 60 $MPIEXEC -n 4 "$SW" run $(sw_args) $gargs repetitions=5 output="$TMP/gbase" label=gb > /dev/null 2>&1
	base=$(ls -d "$TMP"/gbase/gb-* 2>/dev/null | head -n 1)
	[ -n "$base" ] || { fail "guard: no baseline run"; return; }
	for how in kill int hup stop0; do
		out="$TMP/g$how"
		# level 1 long enough (300 repetitions) to be hit while it runs;
		# stop0: a shorter watchdog (10 s: 3 s fired by itself under load), so
		# that the other ranks give up on rank 0 sooner
		wd=20; [ $how = stop0 ] && wd=10
		# The fault must strike while level 1 runs: when the check was over
		# before the drill saw level 0 on disk (hop counts calibrated on a
		# busier machine make samples short), it tested nothing: once more.
		for try in 1 2; do
			rm -rf "$out"
			timeout 120 "$SW" guard --time-limit 60 -- $MPIEXEC -n 4 "$SW" check -c /dev/null allow_shared_node=yes \
				timeout=$wd --no-plot $gargs repetitions=300 --baseline "$base" output="$out" label=g \
				> "$TMP/gout" 2> "$TMP/gerr" &
			job=$!
			i=0
			while [ $i -lt 600 ] && kill -0 $job 2> /dev/null && ! ls "$out"/g-*.partial/run.json > /dev/null 2>&1; do
				sleep 0.1; i=$((i + 1))
			done
			kill -0 $job 2> /dev/null && break
			wait $job
			echo "  (guard, check with $how: the check ended before level 0 was on disk; try $try)"
		done
		victim=""
		case $how in
		kill) victim=$(pid_of_rank 3); [ -n "$victim" ] && kill -9 "$victim";;
		int) kill -INT $job;;
		hup) kill -HUP $job;;
		stop0) victim=$(pid_of_rank 0); [ -n "$victim" ] && kill -STOP "$victim";;
		esac
		t0=$(now)
		wait $job
		rc=$?
		took=$(elapsed "$t0")
		[ $how = stop0 ] && [ -n "$victim" ] && kill -KILL "$victim" 2>/dev/null   # never leave it behind
		lines=$(grep -c '^SWSTRESS ' "$TMP/gout")
		line=$(grep -m1 '^SWSTRESS ' "$TMP/gout")
		case "$line" in
		"SWSTRESS OK "*) want=0;; "SWSTRESS WARNING "*) want=1;; "SWSTRESS CRITICAL "*) want=2;;
		"SWSTRESS UNKNOWN "*) want=3;; *) want=none;; esac
		# what the line must say, and for a signal, the history row
		case $how in
		kill) say="";;
		int) say="run incomplete: stopped by signal 2 (Interrupt)";;
		hup) say="run incomplete: stopped by signal 15 (Terminated)";;
		stop0) say="SWSTRESS UNKNOWN - "; [ "$want" = 3 ] || want=bad;;
		esac
		row=ok
		if [ $how = int ] || [ $how = hup ]; then
			dir=$(ls -d "$out"/g-*.partial 2>/dev/null | head -n 1)
			name_=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['name'])" "$dir/run.json" 2>/dev/null)
			row=$(history_row "$out/history.sqlite" "$name_" 2>> "$TMP/gerr")
			case "$row" in "0|stopped by signal"*"|$rc|"*) row=ok;; esac
		fi
		if [ "$lines" = 1 ] && [ "$rc" = "$want" ] && [ "$rc" != 0 ] && echo "$line" | grep -qF "$say" &&
			[ "$row" = ok ] && { [ $how != stop0 ] || awk "BEGIN {exit !($took <= 70)}"; }; then
			ok "guard, check with $how: one status line in ${took}s, exit $rc agrees: '$(echo "$line" | cut -c1-120)'"
		else cat "$TMP/gout" >> "$TMP/gerr"; fail "guard, check with $how: rc=$rc, $lines status lines (want 1, exit = its status, not OK, saying '$say'), took ${took}s, history row '$row'" "$TMP/gerr"; fi
	done
	# --time-limit on its own: a command that prints nothing, hangs and
	# ignores TERM (KILL 5 s after TERM); one that printed its verdict and
	# then hangs (its status stands)
	t0=$(now)
	timeout 60 "$SW" guard --time-limit 1 -- sh -c 'trap "" TERM; sleep 50' > "$TMP/gout" 2> "$TMP/gerr"
	rc=$?
	took=$(elapsed "$t0")
	want="SWSTRESS UNKNOWN - 'sh' printed no verdict within 1 s (--time-limit): ended it (TERM, then KILL); a rank is stuck or stopped"
	if [ "$rc" = 3 ] && [ "$(cat "$TMP/gout")" = "$want" ] && awk "BEGIN {exit !($took >= 5.9 && $took < 20)}"; then
		ok "guard --time-limit 1, a command that ignores TERM: killed, one UNKNOWN line, exit 3 in ${took}s"
	else cat "$TMP/gout" >> "$TMP/gerr"; fail "guard --time-limit: rc=$rc took=${took}s" "$TMP/gerr"; fi
	timeout 60 "$SW" guard --time-limit 1 -- sh -c 'exec > /dev/null; sleep 50' > "$TMP/gout" 2> "$TMP/gerr"
	rc=$?
	want="SWSTRESS UNKNOWN - 'sh' printed no verdict within 1 s (--time-limit): ended it (TERM, then KILL); a rank is stuck or stopped"
	if [ "$rc" = 3 ] && [ "$(cat "$TMP/gout")" = "$want" ]; then
		ok "guard --time-limit 1, a command that closed its output and hangs: ended, one UNKNOWN line, exit 3"
	else cat "$TMP/gout" >> "$TMP/gerr"; fail "guard --time-limit, output closed: rc=$rc" "$TMP/gerr"; fi
	timeout 60 "$SW" guard --time-limit 1 -- sh -c 'echo "SWSTRESS WARNING - late"; exec sleep 50' > "$TMP/gout" 2> "$TMP/gerr"
	rc=$?
	if [ "$rc" = 1 ] && [ "$(cat "$TMP/gout")" = "SWSTRESS WARNING - late" ] &&
		grep -qxF "swstress: guard: 'sh' had not ended after 1 s (--time-limit): ended it" "$TMP/gerr"; then
		ok "guard --time-limit 1, a command that printed WARNING and hangs: ended, exit 1, its line only"
	else cat "$TMP/gout" >> "$TMP/gerr"; fail "guard --time-limit after a verdict: rc=$rc" "$TMP/gerr"; fi
}

# history_row DB NAME: "complete|failure" of run NAME in history database DB
# (and "|status|verdict" of its check when it has one), or nothing.
history_row() {
	python3 - "$1" "$2" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for c, f, s, v in db.execute("SELECT r.complete, r.failure, c.status, c.verdict FROM runs r"
                             " LEFT JOIN checks c ON c.run_id = r.id WHERE r.name = ?", (sys.argv[2],)):
    print("%s|%s" % (c, f) + ("" if s is None else "|%s|%s" % (s, v)))
PY
}

# SIGINT and SIGTERM to mpiexec in level 1 (passed on to the ranks): the
# run stops at once with the levels done written, run.json and the
# history row say "stopped by signal N (NAME)", complete false, no cell
# failed, and the exit status is 128 + N.
drill_signal() {
	for sig in INT TERM; do
		out="$TMP/sig$sig"
		case $sig in INT) num=2 name=Interrupt;; TERM) num=15 name=Terminated;; esac
		want="stopped by signal $num ($name)"
		# --foreground: timeout passes the signal to mpiexec once (a second SIGINT makes Hydra kill the ranks)
		timeout --foreground 120 $MPIEXEC -n 4 "$SW" run $(sw_args) pairs=1,2 sizes=8,1KiB \
			patterns=pingpong,stream hops=auto sample_time=10ms repetitions=60 output="$out" label=sig \
			> "$TMP/out" 2> "$TMP/err" &
		job=$!
		i=0
		while [ $i -lt 600 ] && ! ls "$out"/sig-*.partial/run.json > /dev/null 2>&1; do sleep 0.1; i=$((i + 1)); done
		t0=$(now)
		kill -"$sig" $job
		wait $job
		rc=$?
		took=$(elapsed "$t0")
		dir=$(ls -d "$out"/sig-*.partial 2>/dev/null | head -n 1)
		name_=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['name'])" "$dir/run.json" 2>/dev/null)
		row=$(history_row "$out/history.sqlite" "$name_" 2>> "$TMP/err")
		if [ "$rc" = $((128 + num)) ] && grep -qxF "swstress: $want" "$TMP/err" && [ -n "$dir" ] &&
			python3 - "$dir/run.json" "$want" <<'PY' >> "$TMP/err" 2>&1 &&
import json, sys
r = json.load(open(sys.argv[1]))
assert r["complete"] is False and r["failure"] == sys.argv[2], (r["complete"], r["failure"])
assert not [c for c in r["cells"] if c["stop"] == "failed"], "a cell marked failed"
PY
			consistent "$dir" >> "$TMP/err" 2>&1 && [ "$row" = "0|$want" ]; then
			ok "SIG$sig to mpiexec in level 1: exit $rc in ${took}s; run.json and history: '$want', complete false"
		else fail "SIG$sig to mpiexec: rc=$rc (want $((128 + num))) took=${took}s dir=${dir:-none} history='$row'" "$TMP/err"; fi
	done
}

# A run stopped by the watchdog still appends its history row (the README:
# every run and check appends one); so does a check stopped by its deadline.
drill_history_row_when_stopped() {
	out="$TMP/wdh"
	SWSTRESS_FAULT_STALL=3:1 timeout 60 $MPIEXEC -n 4 "$SW" run $(sw_args) pairs=1,2 sizes=8 patterns=pingpong \
		hops=100 repetitions=3 timeout=3 output="$out" label=wd > /dev/null 2> "$TMP/err"
	rc=$?
	dir=$(ls -d "$out"/wd-*.partial 2>/dev/null | head -n 1)
	name_=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['name'])" "$dir/run.json" 2>/dev/null)
	row=$(history_row "$out/history.sqlite" "$name_" 2>> "$TMP/err")
	case "$row" in
	"0|watchdog: pair "*" did not finish a round of cell 1 "*) [ "$rc" = 1 ] && ok "watchdog-stopped run (exit 1): its history row says '$(echo "$row" | cut -c1-70)...'" ||
		fail "watchdog-stopped run: rc=$rc (want 1)" "$TMP/err";;
	*) fail "watchdog-stopped run: history row '$row' (want complete 0 and the watchdog's failure)" "$TMP/err";;
	esac
	base=$(ls -d "$TMP"/gbase/gb-* 2>/dev/null | head -n 1)
	if [ -z "$base" ]; then
		timeout 60 $MPIEXEC -n 4 "$SW" run $(sw_args) pairs=1,2 sizes=8 patterns=pingpong hops=100 repetitions=5 \
			output="$TMP/dlbase" label=db > /dev/null 2>&1
		base=$(ls -d "$TMP"/dlbase/db-* 2>/dev/null | head -n 1)
	fi
	out="$TMP/dlh"
	SWSTRESS_FAULT_STALL=3:1 timeout 60 $MPIEXEC -n 4 "$SW" check $(sw_args) pairs=1,2 sizes=8 patterns=pingpong \
		hops=100 repetitions=5 timeout=60 deadline=4 --baseline "$base" output="$out" label=dl > "$TMP/out" 2> "$TMP/err"
	rc=$?
	dir=$(ls -d "$out"/dl-*.partial 2>/dev/null | head -n 1)
	name_=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['name'])" "$dir/run.json" 2>/dev/null)
	row=$(history_row "$out/history.sqlite" "$name_" 2>> "$TMP/err")
	case "$row" in
	"0|deadline: "*"the sweep passed its deadline of 4 s in cell 1 "*"|2|CRITICAL")
		[ "$rc" = 2 ] && grep -q '^SWSTRESS CRITICAL ' "$TMP/out" &&
			ok "deadline-stopped check (exit 2, CRITICAL): its history row and verdict are recorded" ||
			fail "deadline-stopped check: rc=$rc (want 2 and a CRITICAL line)" "$TMP/out";;
	*) cat "$TMP/out" >> "$TMP/err"; fail "deadline-stopped check: history row '$row' (want complete 0, the deadline's failure, CRITICAL)" "$TMP/err";;
	esac
}

# A results folder cut by hand: report says what is missing.
drill_truncated_folder() {
	timeout 60 $MPIEXEC -n 2 "$SW" run $(sw_args) pairs=1 sizes=8,1KiB patterns=pingpong,stream hops=20 \
		repetitions=5 output="$TMP/trunc" label=t > /dev/null 2>&1
	src=$(ls -d "$TMP"/trunc/t-* | head -n 1)
	[ -n "$src" ] || { fail "truncated folder: no source run"; return; }
	# samples.csv missing
	cp -r "$src" "$TMP/t1" && rm "$TMP/t1/samples.csv"
	"$SW" report "$TMP/t1" > "$TMP/rep" 2>&1; rc=$?
	[ "$rc" = 1 ] && grep -q "t1/samples.csv: cannot read" "$TMP/rep" && ok "samples.csv removed: report exits 1, '$(head -n1 "$TMP/rep")'" ||
		fail "samples.csv removed: rc=$rc" "$TMP/rep"
	# run.json missing
	cp -r "$src" "$TMP/t2" && rm "$TMP/t2/run.json"
	"$SW" report "$TMP/t2" > "$TMP/rep" 2>&1; rc=$?
	[ "$rc" = 1 ] && grep -q "t2/run.json: cannot read" "$TMP/rep" && ok "run.json removed: report exits 1, '$(head -n1 "$TMP/rep")'" ||
		fail "run.json removed: rc=$rc" "$TMP/rep"
	# run.json cut in the middle
	cp -r "$src" "$TMP/t3" && head -c 700 "$src/run.json" > "$TMP/t3/run.json"
	"$SW" report "$TMP/t3" > "$TMP/rep" 2>&1; rc=$?
	[ "$rc" = 1 ] && grep -q "t3/run.json:[0-9]*: not valid JSON" "$TMP/rep" && ok "run.json cut at 700 bytes: report exits 1, '$(head -n1 "$TMP/rep")'" ||
		fail "run.json cut: rc=$rc" "$TMP/rep"
	# samples.csv cut in the middle of a line
	cp -r "$src" "$TMP/t4" && head -c 1000 "$src/samples.csv" > "$TMP/t4/samples.csv"
	"$SW" report "$TMP/t4" > "$TMP/rep" 2>&1; rc=$?
	[ "$rc" = 1 ] && grep -q "t4/samples.csv:[0-9]*:" "$TMP/rep" && ok "samples.csv cut mid-line: report exits 1, '$(head -n1 "$TMP/rep")'" ||
		fail "samples.csv cut mid-line: rc=$rc" "$TMP/rep"
	# whole lines of samples.csv lost (cut at a line end): the rows are
	# valid, so report must say samples are missing rather than report less
	cp -r "$src" "$TMP/t5" && head -n 12 "$src/samples.csv" > "$TMP/t5/samples.csv"
	"$SW" report "$TMP/t5" > "$TMP/rep" 2>&1; rc=$?
	if [ "$rc" = 1 ] && grep -q "t5/samples.csv: cell [0-9]* has [0-9]* samples, run.json says [0-9]* repetitions" "$TMP/rep"; then
		ok "samples.csv cut at a line end: report exits 1, '$(head -n1 "$TMP/rep")'"
	else fail "samples.csv cut at a line end (10 of 20 samples): rc=$rc (want 1 and 'cell N has N samples')" "$TMP/rep"; fi
}

run_drills drills "drill_stalled_rank drill_killed_rank drill_output_not_writable drill_output_path_too_long \
	drill_disk_full drill_check_disk_full drill_truncated_folder drill_guard drill_signal drill_history_row_when_stopped" "$@"
