#!/bin/sh
# Input drills: paths and results files are data, never code (issue #11).
#   sh tests/drills/input.sh [NAME...]        (from the repository root; ~30 s)
# Each drill states the exact exit status and message it expects. Prints one
# line per check and "input: N passed, N failed, N skipped" (tests/lib.sh).
. "$(dirname "$0")/common.sh"
FIXTURE=$PWD/tests/data/fixture-run
export SWSTRESS_PLOT_DIR=${SWSTRESS_PLOT_DIR:-$PWD/plot}

# expect NAME STATUS MESSAGE CMD...: CMD exits with STATUS and its stderr
# (or, for judge and check, its status line on stdout) holds MESSAGE (a
# fixed string).
expect() {
	name=$1 want=$2 msg=$3
	shift 3
	"$@" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	if [ "$rc" = "$want" ] && cat "$TMP/err" "$TMP/out" | grep -qF -- "$msg"; then
		ok "$name: exit $rc, '$(cat "$TMP/err" "$TMP/out" | grep -F -m1 -- "$msg" | cut -c1-200)'"
	else fail "$name: exit $rc (want $want and '$msg')" "$TMP/err"; fi
}

# small_run NAME: a 2-rank run's folder at $TMP/runs/NAME (made once).
small_run() {
	[ -d "$TMP/runs/$1" ] || {
		timeout 60 $MPIEXEC -n 2 "$SW" run -c /dev/null allow_shared_node=yes timeout=20 pairs=1 sizes=8 \
			patterns=pingpong hops=20 repetitions=3 output="$TMP/runs" label="$1" --no-plot > /dev/null 2> "$TMP/small_run.err" || cat "$TMP/small_run.err" >&2
		mv "$TMP"/runs/"$1"-* "$TMP/runs/$1"
	}
	echo "$TMP/runs/$1"
}

have_gnuplot() { command -v gnuplot > /dev/null || { skip "$1" "gnuplot not installed"; return 1; }; }

# A results folder named like a gnuplot pipe, given to plot and compare
# as a relative path: no command runs, the charts are drawn. (The commands
# would create pwned* in $TMP, the working directory.)
drill_plot_injection() {
	have_gnuplot "plot/compare with a folder named '<touch ...'" || return
	name="<touch pwned;echo "
	B=$(small_run B)   # plot checks summary.csv against run.json and samples.csv: a real run
	cp -r "$B" "$TMP/$name"
	(cd "$TMP" && "$SW" plot "$name") > "$TMP/out" 2> "$TMP/err"
	rc=$?
	if [ "$rc" = 0 ] && [ ! -e "$TMP/pwned" ] && ls "$TMP/$name"/falloff-*.png > /dev/null 2>&1; then
		ok "plot on a folder named '<touch X;echo ': exit 0, charts drawn, no command run"
	else fail "plot on '<touch ...': exit $rc, pwned=$([ -e "$TMP/pwned" ] && echo yes || echo no)" "$TMP/err"; fi
	rm -rf "$TMP/$name" && cp -r "$B" "$TMP/$name"
	(cd "$TMP" && "$SW" compare "$name" runs/B --output "|touch pwned2;cat>/dev/null;echo ") \
		> "$TMP/out" 2> "$TMP/err"
	rc=$?
	if [ "$rc" = 0 ] && [ ! -e "$TMP/pwned" ] && [ ! -e "$TMP/pwned2" ] &&
		ls "$TMP/|touch pwned2;cat>/dev/null;echo "/compare-*.png > /dev/null 2>&1; then
		ok "compare '<touch ...' B --output '|touch ...': exit 0, charts drawn, no command run"
	else fail "compare with pipe names: exit $rc, pwned=$([ -e "$TMP/pwned" ] || [ -e "$TMP/pwned2" ] && echo yes || echo no)" "$TMP/err"; fi
}

# run with output='<touch X;echo ': the charts drawn after the run must
# not run it (the run used to exit 0 having run the command).
drill_run_output_injection() {
	have_gnuplot "run output='<touch ...'" || return
	(cd "$TMP" && timeout 60 $MPIEXEC -n 2 "$SW" run -c /dev/null allow_shared_node=yes timeout=20 pairs=1 \
		sizes=8 patterns=pingpong hops=20 repetitions=3 "output=<touch pwned3;echo " label=inj) \
		> "$TMP/out" 2> "$TMP/err"
	rc=$?
	if [ "$rc" = 0 ] && [ ! -e "$TMP/pwned3" ] && ls "$TMP/<touch pwned3;echo"/inj-*/falloff-*.png > /dev/null 2>&1; then
		ok "run output='<touch X;echo ': exit 0, charts drawn, no command run"
	else fail "run output='<touch ...': exit $rc, pwned=$([ -e "$TMP/pwned3" ] && echo yes || echo no)" "$TMP/err"; fi
}

# Chart names come from summary.csv: a pattern that is a path is refused,
# nothing is written outside the folder; 2000 sizes do not start 2000
# gnuplot runs.
drill_chart_names() {
	have_gnuplot "chart names from summary.csv" || return
	mkdir -p "$TMP/a/b/c"
	cp -r "$FIXTURE" "$TMP/a/b/c/r"
	sed -i '3s/,pingpong,/,..\/..\/..\/..\/NAME,/' "$TMP/a/b/c/r/summary.csv"
	expect "summary.csv pattern '../../../../NAME'" 1 \
		"summary.csv:3: pattern: unknown pattern '../../../../NAME'" "$SW" plot "$TMP/a/b/c/r"
	n=$(find "$TMP" -name '*NAME*' | wc -l)
	[ "$n" = 0 ] && ok "no chart written outside the results folder" || fail "$n files named *NAME* written"
	cp -r "$FIXTURE" "$TMP/many"
	python3 - "$TMP/many/summary.csv" <<'PY'
import sys
p = sys.argv[1]
lines = open(p).read().splitlines(True)
head = [l for l in lines if l.startswith("#")] + [l for l in lines if not l.startswith("#")][:1]
row = [l for l in lines if not l.startswith("#")][1].split(",")
hdr = head[-1].strip().split(",")
out = open(p, "w")
out.writelines(head)
for s in range(1, 2001):
    row[hdr.index("size_bytes")] = str(s)
    out.write(",".join(row))
PY
	expect "summary.csv with 2000 sizes, run.json's cells kept" 1 \
		"summary.csv:3: not run.json's next cell with results" timeout 20 "$SW" plot "$TMP/many"
	# a run.json too old to list its cells takes any rows: the size cap holds
	python3 -c 'import json,sys; p=sys.argv[1]; j=json.load(open(p)); j.pop("cells",None); json.dump(j,open(p,"w"))' \
		"$TMP/many/run.json"
	expect "summary.csv with 2000 sizes, run.json without cells" 1 \
		"summary.csv:67: size_bytes: more than 64 sizes" timeout 20 "$SW" plot "$TMP/many"
}

# Labels and output folders are checked with the config.
drill_label_output() {
	expect "label=.." 2 "command line: label: '..' may not start with '.'" "$SW" plan -c /dev/null -n 4 label=..
	expect "label=-x" 2 "command line: label: '-x' may not start with '-'" "$SW" plan -c /dev/null -n 4 label=-x
	expect "output with a newline" 2 "command line: output: path holds a control character" \
		"$SW" plan -c /dev/null -n 4 "output=a
b"
	expect "run output=/etc/passwd" 2 "output '/etc/passwd': not a directory" \
		timeout 60 $MPIEXEC -n 2 "$SW" run -c /dev/null allow_shared_node=yes pairs=1 sizes=8 \
		patterns=pingpong hops=20 repetitions=3 output=/etc/passwd
}

# Temporary files are fresh names made with O_EXCL: symlinks planted at
# every name the old scheme (.NAME.PID.tmp) could use, for the next 300
# pids, redirect nothing; a link at the destination is replaced, its
# target untouched; a plot.log planted as a link is refused.
drill_temp_links() {
	B=$(small_run B)
	mkdir -p "$TMP/prom"
	echo precious > "$TMP/victim"
	# one process plants them all, so that the pids stay free for judge
	python3 -c 'import os, sys
last = int(open("/proc/sys/kernel/ns_last_pid").read())
for p in range(last + 1, last + 301):
    os.symlink(sys.argv[1], "%s/.sw.prom.%d.tmp" % (sys.argv[2], p))
os.symlink(sys.argv[1], sys.argv[2] + "/sw.prom")' "$TMP/victim" "$TMP/prom"
	"$SW" judge "$B" --baseline "$B" --prom "$TMP/prom/sw.prom" --no-history > "$TMP/out" 2> "$TMP/err"
	rc=$?
	if [ "$rc" = 0 ] && [ "$(cat "$TMP/victim")" = precious ] && [ ! -L "$TMP/prom/sw.prom" ] &&
		grep -q '^swstress_check_status' "$TMP/prom/sw.prom" && [ -z "$(find "$TMP/prom" -name '*.tmp' -type f)" ]; then
		ok "judge --prom with links planted at 300 predictable temp names and at the file: exit 0, link replaced, target untouched"
	else fail "judge --prom with planted links: exit $rc, victim now '$(head -c 40 "$TMP/victim")'" "$TMP/err"; fi
	have_gnuplot "plot.log planted as a link" || return
	cp -r "$B" "$TMP/linked"
	ln -s "$TMP/victim" "$TMP/linked/plot.log"
	expect "plot with plot.log a symlink" 1 "plot.log: cannot write: Too many levels of symbolic links" \
		"$SW" plot "$TMP/linked"
	[ "$(cat "$TMP/victim")" = precious ] && ok "the link's target is untouched" || fail "plot wrote through plot.log"
}

# Results files are checked field by field; devices and huge values are
# refused at once (these used to hang, run away, or answer silently wrong).
drill_results_values() {
	B=$(small_run B)
	cp -r "$B" "$TMP/inf"
	# the seconds column by its header's name (columns come and go)
	awk -F, -v OFS=, '!/^#/ && !col { for (i = 1; i <= NF; i++) if ($i == "seconds") col = i; print; next }
		!/^#/ && !done { $col = "inf"; done = 1 } { print }' "$B/samples.csv" > "$TMP/inf/samples.csv"
	expect "samples.csv seconds = inf: report" 1 "samples.csv:3: seconds: 'inf' must be finite, from 1 ns to 1e6 s" \
		"$SW" report "$TMP/inf"
	expect "samples.csv seconds = inf: compare" 1 "samples.csv:3: seconds: 'inf' must be finite" \
		"$SW" compare "$TMP/inf" "$B" --output "$TMP/cmp"
	expect "samples.csv seconds = inf: judge" 3 "samples.csv:3: seconds: 'inf' must be finite" \
		"$SW" judge "$TMP/inf" --baseline "$B" --no-history
	cp -r "$B" "$TMP/hops"
	python3 - "$TMP/hops/run.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["cells"][0]["hops"] = -1
json.dump(r, open(sys.argv[1], "w"))
PY
	expect "run.json hops = -1: report" 1 "run.json: cells[0].hops: -1 is outside 1.." "$SW" report "$TMP/hops"
	cp -r "$FIXTURE" "$TMP/zero"
	ln -sf /dev/zero "$TMP/zero/summary.csv"
	expect "summary.csv a link to /dev/zero: plot" 1 "summary.csv: cannot read: not a regular file" \
		timeout 10 "$SW" plot "$TMP/zero"
	cp -r "$FIXTURE" "$TMP/neg"
	sed -i '3s/^\([^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,\)[^,]*/\1-5/' "$TMP/neg/summary.csv"
	expect "summary.csv lat_median_us = -5: plot" 1 "summary.csv:3: lat_median_us: '-5' is not a finite, non-negative number" \
		"$SW" plot "$TMP/neg"
	expect "plan -n 99999999999" 2 "option --ranks: '99999999999' is not a rank count from 2 to 65536" \
		timeout 10 "$SW" plan -c /dev/null -n 99999999999
	expect "plan -n 4294967298 (wrapped to 2 before)" 2 "option --ranks: '4294967298' is not a rank count" \
		timeout 10 "$SW" plan -c /dev/null -n 4294967298
}

# Config corners: each refused with both lines named, or accepted where a
# path holds '='.
drill_config_corners() {
	printf 'pairs = 1,2\nsizes = 8\nnodes = 4\n' > "$TMP/conflict.conf"
	expect "pairs then nodes in one file" 2 "conflict.conf:3: 'nodes' conflicts with 'pairs' at line 1" \
		"$SW" plan -c "$TMP/conflict.conf" -n 8
	printf 'sizes = 8\nwindow = 4\nsizes = 16\n' > "$TMP/dup.conf"
	expect "a key twice in one file" 2 "dup.conf:3: duplicate key 'sizes' (first set at line 1)" \
		"$SW" plan -c "$TMP/dup.conf" -n 8
	printf 'label = ab\000cd\n' > "$TMP/nul.conf"
	expect "a NUL byte in a config" 2 "nul.conf:1: a NUL byte: not a text file" "$SW" plan -c "$TMP/nul.conf" -n 8
	expect "plan -c /dev/zero" 2 "/dev/zero: more than 1048576 bytes: not a config file" \
		timeout 10 "$SW" plan -c /dev/zero -n 8
	expect "run --label --no-plot" 2 "label: '--no-plot' may not start with '-'" \
		"$SW" run -c /dev/null --label --no-plot
	long=$(printf 'a%.0s' $(seq 200))
	expect "a 206-character key=value on the command line" 2 "is longer than 198 characters (as a config file line)" \
		"$SW" plan -c /dev/null -n 8 "label=$long"
	B=$(small_run B)
	mkdir -p "$TMP/eq/a=b" && cp -r "$B" "$TMP/eq/a=b/r=1"
	(cd "$TMP/eq" && "$SW" report "a=b/r=1" > "$TMP/out" 2> "$TMP/err") && (cd "$TMP/eq/a=b" && "$SW" report "r=1" confidence=0.9 >> "$TMP/out" 2>> "$TMP/err") &&
		(cd "$TMP/eq/a=b" && "$SW" judge "r=1" --baseline "r=1" --no-history > /dev/null 2>> "$TMP/err") &&
		ok "report and judge take paths holding '=' (a=b/r=1, r=1)" || fail "a path holding '='" "$TMP/err"
}

# judge/check: a lost history row or an unwritten --prom file is WARNING
# (it was a warning on stderr only, the verdict OK), said in the one status
# line; a worse verdict stays.
drill_trail_lost() {
	B=$(small_run B)
	mkdir -p "$TMP/hist.sqlite"      # a folder where the database should be
	expect "judge with the history database unwritable" 1 "SWSTRESS WARNING - " \
		"$SW" judge "$B" --baseline "$B" --history "$TMP/hist.sqlite"
	grep -q "^SWSTRESS WARNING - .*; history row lost: " "$TMP/out" && [ "$(grep -c '^SWSTRESS' "$TMP/out")" = 1 ] &&
		ok "one status line, naming the lost history row" || fail "status line: $(head -n 1 "$TMP/out")"
	expect "judge --prom into a missing folder" 1 "; --prom not written: $TMP/none/x.prom: cannot write" \
		"$SW" judge "$B" --baseline "$B" --no-history --prom "$TMP/none/x.prom"
	# a database another process holds locked past the 5 s wait
	"$SW" judge "$B" --baseline "$B" --history "$TMP/locked.sqlite" > /dev/null 2>&1
	python3 -c "import sqlite3, sys, time
c = sqlite3.connect(sys.argv[1], isolation_level=None); c.execute('BEGIN EXCLUSIVE')
open(sys.argv[2], 'w').close(); time.sleep(30)" "$TMP/locked.sqlite" "$TMP/locked.held" &
	holder=$!
	i=0
	while [ $i -lt 100 ] && [ ! -e "$TMP/locked.held" ]; do sleep 0.1; i=$((i + 1)); done
	expect "judge with the history database locked" 1 "; history row lost: $TMP/locked.sqlite: database is locked" \
		"$SW" judge "$B" --baseline "$B" --history "$TMP/locked.sqlite"
	kill $holder 2>/dev/null
	wait $holder 2>/dev/null
}

run_drills input "drill_plot_injection drill_run_output_injection drill_chart_names drill_label_output \
	drill_temp_links drill_results_values drill_config_corners drill_trail_lost" "$@"
