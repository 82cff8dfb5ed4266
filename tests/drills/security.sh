#!/bin/sh
# Security drills (issue #32): files and names from results folders,
# stores and the catalog are data. Every drill plants what an attacker or
# a careless user would (links, FIFOs, devices, hard links, names with
# newlines, escape sequences, markup, bidi controls, bad UTF-8) and states
# what must happen: a one-line error naming the file or field, or a
# correct result, and nothing read, written or printed that should not be.
#   sh tests/drills/security.sh [NAME...]   (repository root; no MPI; ~20 s)
#   SW=/path/to/swstress sh tests/drills/security.sh   (another binary)
# Synthetic runs come from tests/catalog/make_runs.py.
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
t_begin security
SW=${SW:-$PWD/build/swstress}
T=$(mktemp -d /tmp/swstress-security.XXXXXX) || exit 2
trap 'rm -rf "$T"' EXIT
trap 'exit 2' INT TERM
export SWSTRESS_PLOT_DIR=${SWSTRESS_PLOT_DIR:-$PWD/plot}
ESC=$(printf '\033')

# run NAME [VENDOR MODEL]: a fresh copy of a synthetic complete run at $T/NAME
# (NAME like LABEL-YYYYmmdd-HHMMSS).
# Made once (make_runs.py takes seconds), then copied under its new name.
run() {
	[ -d "$T/tpl/tpl-20261201-000000" ] ||
		python3 tests/catalog/make_runs.py "$T/tpl" tpl-20261201-000000 Acme "Fabric 9000" 0 1 > /dev/null ||
		{ echo "make_runs.py failed" >&2; exit 2; }
	rm -rf "${T:?}/$1"
	cp -r "$T/tpl/tpl-20261201-000000" "$T/$1"
	edit_json "$T/$1/run.json" "r['name'] = '$1'; r['config']['label'] = '${1%%-*}'"
	sed -i "1s/tpl-20261201-000000/$1/" "$T/$1/samples.csv"
	echo "$T/$1"
}

# edit_json FILE PYTHON: run PYTHON on the run.json r (json loaded), then save it.
edit_json() {
	python3 - "$1" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
exec(sys.argv[2])
json.dump(r, open(sys.argv[1], "w"))
PY
}

# slow_pair0 DIR: pair 0 (node01-node02) 50% slower at the loaded levels,
# so that its hosts are suspect ports.
slow_pair0() {
	python3 - "$1/samples.csv" <<'PY'
import csv, sys
p = sys.argv[1]
lines = open(p).read().splitlines(True)
rows = list(csv.reader(l for l in lines if not l.startswith("#")))
ix = {k: i for i, k in enumerate(rows[0])}
out = open(p, "w")
out.writelines(l for l in lines if l.startswith("#"))
w = csv.writer(out, lineterminator="\n")
w.writerow(rows[0])
for r in rows[1:]:
    if r[ix["pair"]] == "0" and r[ix["level"]] != "0" and r[ix["seconds"]]:   # not a missing sample
        s = float(r[ix["seconds"]]) * 1.5
        r[ix["seconds"]], r[ix["t_end_s"]] = repr(s), repr(float(r[ix["t_start_s"]]) + s)
        r[ix["latency_us"]] = repr(float(r[ix["latency_us"]]) * 1.5)
        r[ix["bandwidth_MBps"]] = repr(float(r[ix["bandwidth_MBps"]]) / 1.5)
    w.writerow(r)
PY
}

# expect NAME STATUS MESSAGE CMD...: CMD exits with STATUS and its stderr
# or stdout holds MESSAGE (a fixed string); the output is kept in
# $T/out and $T/err for further checks.
expect() {
	e_name=$1 e_want=$2 e_msg=$3
	shift 3
	"$@" > "$T/out" 2> "$T/err"
	e_rc=$?
	if [ "$e_rc" = "$e_want" ] && cat "$T/err" "$T/out" | grep -qF -- "$e_msg"; then
		ok "$e_name: exit $e_rc, '$(cat "$T/err" "$T/out" | grep -F -m1 -- "$e_msg" | cut -c1-160)'"
	else
		fail "$e_name: exit $e_rc (want $e_want and '$e_msg')" "$T/err"
	fi
}

# no_secret STORE: no stored file holds a line of /etc/passwd or /etc/shadow.
no_secret() {
	[ ! -e "$1" ] || ! sqlite3 "$1" "SELECT content FROM run_files" 2> /dev/null | grep -q '^root:'
}

# 1. publish follows no link in a results folder
drill_publish_links() {
	for f in report.txt pairs.csv summary.csv fits.csv; do
		d=$(run link-20261201-100000)
		target=/etc/passwd
		[ "$f" = report.txt ] && target=/etc/shadow
		ln -s "$target" "$d/$f"
		rm -f "$T/pub.sqlite"
		expect "1 publish with $f a link to $target" 1 "$f: cannot read: not a regular file (a symbolic link)" \
			"$SW" publish "$d" --store "$T/pub.sqlite"
		if no_secret "$T/pub.sqlite"; then ok "1 ... $target is not in the store"
		else fail "1 ... $target was published into the store"; fi
	done
}

# 2. names from run.json forge no status line and no terminal escape
drill_forged_names() {
	base=$(run base-20261201-090000)
	d=$(run host-20261201-100000)
	slow_pair0 "$d"
	edit_json "$d/run.json" 'r["ranks"][0]["host"] = "node01\nSWSTRESS OK - forged"'
	expect "2 judge on a host name holding a newline and a status line" 3 "ranks[0].host: holds a control character" \
		"$SW" judge "$d" --baseline "$base" --no-history
	if [ "$(grep -c '^SWSTRESS' "$T/out")" = 1 ] && ! grep -q forged "$T/out"; then
		ok "2 ... one status line, nothing forged"
	else fail "2 ... $(grep -c '^SWSTRESS' "$T/out") status lines: $(grep '^SWSTRESS' "$T/out" | cut -c1-80 | tr '\n' '/')"; fi
	expect "2 report on the same" 1 "ranks[0].host: holds a control character" "$SW" report "$d"
	grep -q '^SWSTRESS\|^suspect port: SWSTRESS\|forged' "$T/out" && fail "2 ... report printed the forged line" ||
		ok "2 ... report printed no forged line"
	d=$(run term-20261201-100000)
	edit_json "$d/run.json" 'r["ranks"][3]["host"] = "node04\033]0;pwned\007\033[2J"'
	expect "2 report on a host name holding escape sequences" 1 "ranks[3].host: holds a control character" "$SW" report "$d"
	d=$(run mpiv-20261201-100000)
	edit_json "$d/run.json" 'r["mpi_version"] = "MPICH \033[2J\033]0;pwned\007 4.0\nsuspect port: node07 (flagged in 9 of 9 cells)"'
	expect "2 report on an mpi_version holding escape sequences" 1 "mpi_version: holds a control character" "$SW" report "$d"
	expect "2 judge on the same" 3 "mpi_version: holds a control character" \
		"$SW" judge "$d" --baseline "$base" --no-history
	grep -q "$ESC" "$T/out" && fail "2 ... judge printed an escape sequence" || ok "2 ... judge printed no escape sequence"
	# what is printed from data is escaped where it is printed, too: the
	# config's free text
	d=$(run cfg-20261201-100000)
	edit_json "$d/run.json" 'r["config"]["notes"] = "a\u202eb"'
	"$SW" report "$d" > "$T/out" 2> "$T/err"
	if ! grep -q "$(printf '\342\200\256')" "$T/out" "$T/err"; then ok "2 report prints no raw U+202E from the config's notes"
	else fail "2 report printed a raw U+202E from the config's notes"; fi
}

# store NAME: a store at $T/NAME.sqlite holding one run with suspect ports
# (node01 and node02), made once and copied.
store() {
	if [ ! -f "$T/suspects.sqlite" ]; then
		d=$(run susp-20261201-100000)
		slow_pair0 "$d"
		"$SW" publish "$d" --store "$T/suspects.sqlite" > /dev/null 2>&1 || { echo "publish failed" >&2; exit 2; }
	fi
	rm -rf "$T/$1.sqlite" "$T/$1-site"
	cp "$T/suspects.sqlite" "$T/$1.sqlite"
	echo "$T/$1.sqlite"
}

# 3. the site runs no markup from the store and reverses no name
drill_site_markup() {
	s=$(store markup)
	sqlite3 "$s" "UPDATE suspects SET flagged = '<script>alert(1)</script>' WHERE host = 'node01';
		UPDATE suspects SET cells = '<img src=x onerror=alert(2)>' WHERE host = 'node02'"
	expect "3 site from a store whose suspects.flagged holds <script>" 1 "suspects.flagged of run 'susp-20261201-100000'" \
		"$SW" site "$s" "$T/markup-site"
	if ! grep -rqs --include='*.html' -e '<script>alert' -e '<img src=x' "$T/markup-site"; then ok "3 ... no page holds the markup"
	else fail "3 ... a page holds the store's markup"; fi
	s=$(store bidi)
	sqlite3 "$s" "UPDATE runs SET model = 'Fabric ' || char(8238) || '0009', notes = 'a' || char(27) || '[2J'"
	expect "3 site from a store whose model holds U+202E" 0 "" "$SW" site "$s" "$T/bidi-site"
	if ! grep -rqs "$(printf '\342\200\256')" "$T/bidi-site" && grep -qF 'Fabric \u{202E}0009' "$T/bidi-site/index.html"; then
		ok "3 ... no raw U+202E on a page, shown as \\u{202E}"
	else fail "3 ... U+202E reached a page raw (or the name is missing)"; fi
	if ! grep -rqs "$ESC" "$T/bidi-site"; then ok "3 ... no raw escape character on a page"
	else fail "3 ... a raw escape character reached a page"; fi
}

# 4. the site writes through no planted link to a folder: it is built in
# a new folder beside OUTDIR and swapped in, so a planted link is removed
# with the old site (never followed); a folder of other things is refused
drill_site_links() {
	s=$(store links)
	mkdir -p "$T/links-site" "$T/elsewhere"
	echo precious > "$T/elsewhere/keep"
	ln -s "$T/elsewhere" "$T/links-site/switch"
	expect "4 site with OUTDIR/switch a link to another folder" 0 "" "$SW" site "$s" "$T/links-site"
	[ -d "$T/links-site/switch" ] && [ ! -L "$T/links-site/switch" ] && [ -f "$T/links-site/index.html" ] &&
		ok "4 ... the link replaced by the site's folder" || fail "4 ... switch/ is not the site's folder"
	mkdir -p "$T/links-site2"
	ln -s "$T/elsewhere" "$T/links-site2/runs"
	expect "4 site with OUTDIR/runs a link to another folder" 0 "" "$SW" site "$s" "$T/links-site2"
	mkdir -p "$T/notsite" && echo mine > "$T/notsite/thesis.tex"
	expect "4 site into a folder of other files" 1 "notsite: holds 'thesis.tex', which a site does not" \
		"$SW" site "$s" "$T/notsite"
	[ "$(cat "$T/notsite/thesis.tex")" = mine ] && [ ! -e "$T/notsite/index.html" ] &&
		ok "4 ... that folder untouched" || fail "4 ... site wrote into a folder of other files"
	[ "$(cat "$T/elsewhere/keep")" = precious ] && ok "4 ... the linked folder's file kept" ||
		fail "4 ... the linked folder's file was removed"
	n=$(find "$T/elsewhere" -type f ! -name keep | wc -l)
	[ "$n" = 0 ] && ok "4 ... nothing written into the other folder" || fail "4 ... $n files written into the other folder"
}

# 5. no output name that is a link, a device or a FIFO is written through
drill_output_names() {
	base=$(run base-20261201-090000)
	echo precious > "$T/victim"
	if command -v gnuplot > /dev/null; then
		# a real run: plot checks summary.csv against run.json and samples.csv
		rm -rf "$T/hl" && cp -r tests/data/runs/onehost-20261207-202307 "$T/hl"
		ln "$T/victim" "$T/hl/plot.log"
		expect "5 plot with plot.log a hard link to another file" 1 "plot.log: cannot write: the file has other hard links" \
			"$SW" plot "$T/hl"
		[ "$(cat "$T/victim")" = precious ] && ok "5 ... the other file is untouched" || fail "5 ... plot truncated the other file"
		mkdir -p "$T/cmp"
		ln "$T/victim" "$T/cmp/plot.log"
		"$SW" compare "$base" "$(run other-20261201-100000)" --output "$T/cmp" > "$T/out" 2> "$T/err"
		[ "$(cat "$T/victim")" = precious ] && ok "5 compare --output with plot.log a hard link: the other file is untouched" ||
			fail "5 compare --output with plot.log a hard link truncated the other file"
	else
		skip "5 plot.log as a hard link" "gnuplot not installed"
	fi
	mkfifo "$T/collector"
	expect "5 judge --prom onto a FIFO" 1 "collector: cannot write: not a regular file" \
		"$SW" judge "$base" --baseline "$base" --no-history --prom "$T/collector"
	[ -p "$T/collector" ] && ok "5 ... the FIFO is still a FIFO" || fail "5 ... the FIFO was replaced by a file"
	if [ "$(id -u)" = 0 ] && mknod "$T/null" c 1 3 2> /dev/null; then
		expect "5 judge --prom onto a character device" 1 "null: cannot write: not a regular file" \
			"$SW" judge "$base" --baseline "$base" --no-history --prom "$T/null"
		[ -c "$T/null" ] && ok "5 ... the device node is still a device" || fail "5 ... the device node was replaced by a file"
	else
		skip "5 judge --prom onto a character device" "needs root (mknod)"
	fi
	ln "$T/victim" "$T/linked.prom"
	expect "5 judge --prom onto a file with another hard link" 1 "linked.prom: cannot write: the file has other hard links" \
		"$SW" judge "$base" --baseline "$base" --no-history --prom "$T/linked.prom"
}

# 6. no read hangs on a FIFO or eats memory on a device
drill_reads_bounded() {
	mkfifo "$T/fifo.conf"
	expect "6 plan -c a FIFO" 2 "fifo.conf: cannot read: not a regular file" timeout 10 "$SW" plan -c "$T/fifo.conf" -n 4
	rm -rf "$T/fj" && cp -r tests/data/fixture-run "$T/fj"
	rm "$T/fj/run.json" && mkfifo "$T/fj/run.json"
	expect "6 plot with run.json a FIFO" 1 "run.json: cannot read: not a regular file" timeout 10 "$SW" plot "$T/fj"
	d=$(run fifo-20261201-100000)
	mkfifo "$d/pairs.csv"
	expect "6 publish with pairs.csv a FIFO" 1 "pairs.csv: cannot read: not a regular file" \
		timeout 10 "$SW" publish "$d" --store "$T/fifo.sqlite"
	if [ "$(id -u)" = 0 ]; then
		d=$(run zero-20261201-100000)
		mknod "$d/report.txt" c 1 5
		expect "6 publish with report.txt the /dev/zero device" 1 "report.txt: cannot read: not a regular file" \
			sh -c 'ulimit -v 2000000; exec timeout 20 "$@"' _ "$SW" publish "$d" --store "$T/zero.sqlite"
	else
		skip "6 publish with report.txt a /dev/zero node" "needs root (mknod)"
	fi
	d=$(run sparse-20261201-100000)
	truncate -s 2G "$d/fits.csv"
	expect "6 publish with a 2 GB sparse fits.csv" 1 "fits.csv: 2147483648 bytes, more than the" \
		sh -c 'ulimit -v 2000000; exec timeout 20 "$@"' _ "$SW" publish "$d" --store "$T/sparse.sqlite"
	# run.json's cap (results.h: 4 times the biggest honest one, 39 MB) is
	# checked before a byte is read: a 200 MiB file is refused at once
	d=$(run bigjson-20261201-100000)
	truncate -s 200M "$d/run.json"
	expect "6 report with a 200 MiB run.json (over the cap of 160 MiB)" 1 \
		"run.json: 209715200 bytes, more than the 167772160 such a file may have" \
		sh -c 'ulimit -v 2000000; exec timeout 20 "$@"' _ "$SW" report "$d"
}

# 7. what run and plan take is valid UTF-8, so that run.json can be read back
drill_utf8_door() {
	expect "7 plan with a Latin-1 model on the command line" 2 "command line: model: not valid UTF-8" \
		"$SW" plan -c /dev/null -n 4 "model=$(printf 'mod\350le')"
	printf '[switch]\nmodel = mod\350le\n' > "$T/latin1.conf"
	expect "7 plan with a Latin-1 model in a config" 2 "latin1.conf:2: model: not valid UTF-8" \
		"$SW" plan -c "$T/latin1.conf" -n 4
	printf '[switch]\nmodel = Acme \342\200\256X\n' > "$T/bidi.conf"
	expect "7 plan with U+202E in a model" 2 "bidi.conf:2: model: holds a bidi control character" \
		"$SW" plan -c "$T/bidi.conf" -n 4
	expect "7 plan with a Latin-1 output path" 2 "command line: output: path is not valid UTF-8" \
		"$SW" plan -c /dev/null -n 4 "output=$(printf 'r\351sultats')"
}

# 8. a path too long is an error, never its prefix (another run's folder)
drill_long_path() {
	a=$T/long
	while [ ${#a} -lt 460 ]; do a=$a/dddddddddddddddddddd; done
	a=$a/$(printf 'x%.0s' $(seq $((511 - ${#a} - 1))))
	mkdir -p "$(dirname "$a")"
	cp -r "$(run prefix-20261201-100000)" "$a"
	cp -r "$(run inside-20261201-100000)" "$a/r"
	expect "8 report on a ${#a}+2-byte path whose 511-byte prefix is another run" 1 "path is longer than 511 bytes" \
		"$SW" report "$a/r"
	grep -q prefix-20261201 "$T/out" && fail "8 ... report read the other run" || ok "8 ... the other run is not read"
}

# 8. paths near PATH_MAX through every command that takes one: a clean
# error line naming the path (exit 1-3; judge still gives its
# verdict when only --history or --prom is too long), never a crash or a
# sanitizer's report (make test-asan runs this drill on the ASan and UBSan
# build)
drill_long_paths() {
	d=$(run lp-20261201-100000)
	for n in 511 512 4000 4095 5000; do
		p=$T/$(printf 'p%.0s' $(seq $((n - ${#T} - 1))))
		bad=""
		for c in "report $p" "plot $p" "compare $d $p" "compare $p $d" "judge $d --baseline $p --no-history" \
			"judge $p --baseline $d --no-history" "judge $d --baseline $d --history $p" "history --history $p" \
			"publish $p --store $T/lp.sqlite" "publish $d --store $p" "site $p $T/lp-site" "site $T/lp.sqlite $p" \
			"baseline set lp $p --history $T/lp-h.sqlite" "baseline list --history $p" "plan -c $p -n 4" \
			"plan -c /dev/null -n 4 output=$p" "judge $d --baseline $d --no-history --prom $p"; do
			# shellcheck disable=SC2086
			"$SW" $c > "$T/out" 2> "$T/err"
			rc=$?
			if [ "$rc" != 1 ] && [ "$rc" != 2 ] && [ "$rc" != 3 ]; then bad="$bad [${c%% *} exit $rc]"
			elif grep -q 'AddressSanitizer\|runtime error\|LeakSanitizer' "$T/err"; then bad="$bad [${c%% *}: sanitizer]"
			elif ! grep -q "^swstress: " "$T/err" && ! grep -q "^SWSTRESS UNKNOWN - " "$T/out"; then
				bad="$bad [${c%% *}: no error line]"
			fi
		done
		[ -z "$bad" ] && ok "8 a $n-byte path through 17 command lines: exit 1-3 and an error line each, no sanitizer report" ||
			fail "8 a $n-byte path:$bad" "$T/err"
	done
}

# 8. numbers and dates mean what they say
drill_numbers_dates() {
	a=$("$SW" plan -c /dev/null -n 16 pairing=random seed=010 2>&1)
	b=$("$SW" plan -c /dev/null -n 16 pairing=random seed=10 2>&1)
	if [ "$a" = "$b" ]; then ok "8 seed=010 is ten (the plan of seed=10), not octal 8"
	else fail "8 seed=010 is not read as ten"; fi
	expect "8 a sizes range factor that overflows" 2 "range factor in '8..1MiB x99999999999999999999999' is more than" \
		"$SW" plan -c /dev/null -n 4 "sizes=8..1MiB x99999999999999999999999"
	expect "8 pairs= then nodes= on the command line" 2 "command line: 'nodes=4' conflicts with 'pairs=1,2'" \
		"$SW" plan -c /dev/null -n 8 pairs=1,2 nodes=4
	printf 'sizes = 8\n' > "$T/a.conf"
	printf 'sizes = 16\n' > "$T/b.conf"
	expect "8 -c a.conf -c b.conf" 2 "option --config given twice" "$SW" plan -c "$T/a.conf" -c "$T/b.conf" -n 4
	expect "8 history --since 2026-02-30" 2 "option --since: '2026-02-30' is not a time" \
		"$SW" history --since 2026-02-30 --history "$T/none.sqlite"
}

# edit_samples DIR PYTHON: run PYTHON on each data row r (a dict; i its
# index) of DIR/samples.csv, the comment and header lines kept.
edit_samples() {
	python3 - "$1/samples.csv" "$2" <<'PY'
import csv, sys
p = sys.argv[1]
lines = open(p).read().splitlines(True)
rows = list(csv.DictReader(l for l in lines if not l.startswith("#")))
out = open(p, "w")
out.writelines(l for l in lines if l.startswith("#"))
w = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
w.writeheader()
for i, r in enumerate(rows):
    exec(sys.argv[2])
    w.writerow(r)
PY
}

# 8. a run.json and samples.csv that disagree with themselves are refused
drill_consistency() {
	d=$(run short-20261201-110000)
	edit_samples "$d" "r['seconds'] = repr(float(r['seconds']) / 2) if i == 0 else r['seconds']"
	expect "8 report: a sample whose seconds are half its start..end" 1 "samples.csv:3: seconds:" "$SW" report "$d"
	d=$(run long-20261201-110000)
	edit_samples "$d" "r['seconds'] = repr(float(r['seconds']) * 3) if i == 0 else r['seconds']"
	expect "8 judge: a sample whose seconds are longer than its start..end" 3 "samples.csv:3: seconds:" \
		"$SW" judge "$d"
	d=$(run hops-20261201-110000)
	edit_json "$d/run.json" "[c.update(hops=10**11) for c in r['cells']]; r['config']['hops'] = str(10**11)"
	edit_samples "$d" "r['hops'] = str(10**11)"
	expect "8 report: 10^11 hops in a sample of milliseconds" 1 "hops: 100000000000 in" "$SW" report "$d"
	d=$(run failed-20261201-110000)
	edit_json "$d/run.json" "r['failure'] = 'watchdog: rank 3 did not answer'"
	expect "8 publish: complete, with a failure" 1 "complete: true, but failure says" \
		"$SW" publish "$d" --store "$T/consistency.sqlite"
	d=$(run stopped-20261201-110000)
	edit_json "$d/run.json" "r['cells'][-1]['stop'] = 'failed'"
	expect "8 publish: complete, with a cell stopped by a failure" 1 "but cells[" \
		"$SW" publish "$d" --store "$T/consistency.sqlite"
}

# 8. a baseline is whole: one run once in a set, and a run that finished
drill_baseline_whole() {
	a=$(run twin-20261201-120000)
	cp -r "$a" "$T/twin-copy"
	expect "8 baseline set with two folders of one run" 1 "are the same run (twin-20261201-120000)" \
		"$SW" baseline set nightly "$a" "$T/twin-copy" --history "$T/twins.sqlite"
	b=$(run cut-20261201-120000)
	edit_json "$b/run.json" "r['complete'] = False; r['failure'] = 'stopped by signal 15 (Terminated)'"
	expect "8 judge against a baseline that did not finish" 3 "did not finish (stopped by signal 15" \
		"$SW" judge "$(run now-20261201-120000)" --baseline "$b" --no-history
	grep -q "^SWSTRESS UNKNOWN" "$T/out" && ok "8 ... the status line says UNKNOWN" || fail "8 ... no UNKNOWN line" "$T/out"
}

# 8. publish takes a folder as its run.json names it (summary.csv cut or
# changed: tests/unit/test_catalog.c, a run here has none)
drill_publish_whole() {
	d=$(run renamed-20261201-130000)
	mv "$d" "$T/other-20261201-130000"
	expect "8 publish: a run.json whose name differs from its folder" 1 "but run.json says the run is 'renamed-" \
		"$SW" publish "$T/other-20261201-130000" --store "$T/whole.sqlite"
	expect "8 ... and a folder named as its run is published" 0 "1 published" \
		"$SW" publish "$(run whole-20261201-130000)" --store "$T/whole.sqlite"
}

# 8. plot charts no cut summary.csv: its last row gone, a row gone from the
# middle, or cut inside a row; refused naming the file and the line, exit
# 1, no chart and no plot.log written (compare: tests/unit/test_compare.c,
# a run here has no summary.csv)
drill_plot_cut_summary() {
	if ! command -v gnuplot > /dev/null; then skip "8 plot a cut summary.csv" "gnuplot not installed"; return; fi
	src=tests/data/fixture-run
	n=$(wc -l < "$src/summary.csv")
	for how in last middle inside; do
		rm -rf "$T/cut-$how" && cp -r "$src" "$T/cut-$how"
		case $how in
		last) head -n $((n - 1)) "$src/summary.csv" > "$T/cut-$how/summary.csv"
			want="summary.csv:$n: ends here, but run.json has 24 cells with results, not 23";;
		middle) sed '5d' "$src/summary.csv" > "$T/cut-$how/summary.csv"
			want="summary.csv:5: not run.json's next cell with results";;
		inside) head -c 2500 "$src/summary.csv" > "$T/cut-$how/summary.csv"
			want="summary.csv:11: 1 fields, the header has 42";;
		esac
		expect "8 plot with summary.csv cut ($how row)" 1 "$want" "$SW" plot "$T/cut-$how"
		left=$(cd "$T/cut-$how" && ls | grep -v -x -e run.json -e samples.csv -e summary.csv -e pairs.csv -e fits.csv)
		[ -z "$left" ] && ok "8 ... nothing written" || fail "8 ... written: $(echo $left)"
	done
}

# 8. two runs of one name keep both rows of the history, or the second is refused
drill_history_names() {
	a=$(run same-20261201-140000)
	"$SW" judge "$a" --baseline "$a" --history "$T/names.sqlite" > /dev/null 2>&1
	edit_json "$a/run.json" "r['started'] = '2026-12-01T15:00:00Z'"
	expect "8 judge: a second complete run of the same name into one history" 1 \
		"a different run named 'same-20261201-140000' is already recorded" \
		"$SW" judge "$a" --baseline "$a" --history "$T/names.sqlite"
	n=$(sqlite3 "$T/names.sqlite" "SELECT started FROM runs WHERE name = 'same-20261201-140000'" 2>&1)
	[ "$n" = 2026-12-01T00:00:00Z ] && ok "8 ... the first run's row is kept" || fail "8 ... the row holds '$n'"
}

# 9. three switch names whose slugs collide get three pages
drill_site_slugs() {
	rm -f "$T/slugs.sqlite"
	i=1
	for m in "X" "X-3" "x"; do
		d=$(run slug$i-20261201-10000$i)
		edit_json "$d/run.json" "r['config']['model'] = '$m'"
		"$SW" publish "$d" --store "$T/slugs.sqlite" > /dev/null 2>&1 || fail "9 publish model $m"
		i=$((i + 1))
	done
	expect "9 site with Acme X, Acme X-3 and Acme x" 0 "7 pages" "$SW" site "$T/slugs.sqlite" "$T/slugs-site"
	n=$(ls "$T/slugs-site/switch" | wc -l)
	m=$(grep -l "<h1>Acme X</h1>\|<h1>Acme X-3</h1>\|<h1>Acme x</h1>" "$T"/slugs-site/switch/*.html | wc -l)
	[ "$n" = 3 ] && [ "$m" = 3 ] && ok "9 ... three switch pages, one per name" ||
		fail "9 ... $n switch pages, $m with a distinct name"
}

run_all() {
	for d in ${*:-drill_publish_links drill_forged_names drill_site_markup drill_site_links drill_output_names drill_reads_bounded drill_utf8_door drill_long_path drill_long_paths drill_numbers_dates drill_consistency drill_baseline_whole drill_publish_whole drill_plot_cut_summary drill_history_names drill_site_slugs}; do "$d"; done
}
run_all "$@"
t_end
