#!/bin/sh
# run_tests.sh - shell tests of the health check outputs, with the real
# consumers where they are installed:
#   - judge exit codes and status lines on synthetic fixtures (driver.c:
#     the judge and history commands without MPI or main.c), and on
#     build/swstress when it has the judge command;
#   - the Prometheus textfile through `promtool check metrics` (Debian
#     package prometheus);
#   - the same file served by a real prometheus-node-exporter, textfile
#     collector only, on 127.0.0.1 (loopback only), scraped with curl,
#     before and after an atomic replacement;
#   - plot/trend.gp rendering the CSV of `history --format csv` (gnuplot).
# A missing tool skips its tests with a line saying which package to
# install. Last line: "health: N passed, N failed, N skipped" (tests/lib.sh).
#
#   sh tests/health/run_tests.sh      (from the repository, after make)

set -u
cd "$(dirname "$0")/../.." || exit 1
. tests/lib.sh
t_begin health
t_tmpdir health
tmp=$T_TMP
nepid=""
t_cleanup() {
	if [ -n "$nepid" ]; then
		kill "$nepid" 2>/dev/null
		wait "$nepid" 2>/dev/null
	fi
}

LIBS="-linih -ljansson -lsqlite3 -lgsl -lgslcblas -lm"
if [ ! -f build/libswstress.a ] || [ ! -f build/libswstress-cli.a ]; then
	make -s build/libswstress.a build/libswstress-cli.a >/dev/null ||
		t_bail "make build/libswstress.a build/libswstress-cli.a"
fi
# shellcheck disable=SC2086
if ! ${CC:-cc} -O1 -g -std=c11 -D_GNU_SOURCE -Wall -Wextra -Iinclude -Itests/unit \
	-o "$tmp/driver" tests/health/driver.c build/libswstress-cli.a build/libswstress.a $LIBS; then
	t_bail "build tests/health/driver.c"
fi
D="$tmp/driver"
if ! "$D" fixtures "$tmp/fx"; then
	t_bail "make fixtures"
fi
fx="$tmp/fx"

# promlint NAME FILE: `promtool check metrics` accepts FILE without a remark
# (SKIP without promtool).
promlint() {
	if ! command -v promtool >/dev/null 2>&1; then
		skip "$1" "promtool not installed (Debian package prometheus)"
		return
	fi
	lint=$(promtool check metrics <"$2" 2>&1)
	code=$?
	if [ "$code" -eq 0 ] && [ -z "$lint" ]; then ok "$1"; else fail "$1 (exit $code): $lint"; fi
}

# is_png FILE: FILE starts with the PNG signature.
is_png() { [ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = '211PNG' ]; }

# expect_judge NAME EXIT PREFIX ARGS...: exit code and status line prefix.
expect_judge() {
	name=$1 want=$2 prefix=$3
	shift 3
	out=$("$@" 2>"$tmp/stderr")
	code=$?
	first=$(printf '%s\n' "$out" | head -n 1)
	case "$first" in
	"$prefix"*)
		if [ "$code" -eq "$want" ]; then ok "$name: exit $code"; else fail "$name: exit $code, want $want: $first"; fi
		;;
	*) fail "$name: status line '$first' does not start with '$prefix' (exit $code)" ;;
	esac
}

# --- judge exit codes -------------------------------------------------------
expect_judge "judge identical" 0 "SWSTRESS OK - 8 cells within thresholds" \
	"$D" judge "$fx/ok" --baseline "$fx/base" --no-history
expect_judge "judge 30% drop" 2 "SWSTRESS CRITICAL - 8 nodes 64KiB stream: bandwidth drop +" \
	"$D" judge "$fx/drop30" --baseline "$fx/base" --no-history
expect_judge "judge other sizes" 3 "SWSTRESS UNKNOWN - 8 cells not compared (2 nodes 1MiB pingpong: size 1MiB not in baseline" \
	"$D" judge "$fx/mismatch" --baseline "$fx/base" --no-history
expect_judge "judge missing baseline" 3 "SWSTRESS UNKNOWN - baseline unusable: $fx/nothing: No such file or directory" \
	"$D" judge "$fx/ok" --baseline "$fx/nothing" --no-history
expect_judge "judge without arguments" 3 "SWSTRESS UNKNOWN - bad arguments: judge needs an argument (usage: swstress judge RESULT" \
	"$D" judge
expect_judge "judge --json" 2 '{"status":"CRITICAL"' \
	"$D" judge "$fx/drop30" --baseline "$fx/base" --no-history --json

if [ -x build/swstress ] && build/swstress judge --help >/dev/null 2>&1; then
	expect_judge "build/swstress judge 30% drop" 2 "SWSTRESS CRITICAL - 8 nodes 64KiB stream" \
		build/swstress judge "$fx/drop30" --baseline "$fx/base" --no-history
else
	skip "build/swstress judge 30% drop" "build/swstress has no judge command"
fi

# --- named baseline sets -------------------------------------------------------
# expect_exit NAME EXIT ARGS...: exit code only (stderr kept in $tmp/stderr).
expect_exit() {
	name=$1 want=$2
	shift 2
	"$@" >"$tmp/stdout" 2>"$tmp/stderr"
	code=$?
	if [ "$code" -eq "$want" ]; then ok "$name: exit $code"; else fail "$name: exit $code, want $want: $(cat "$tmp/stderr")"; fi
}
bdb="$tmp/b.sqlite"
expect_exit "baseline set" 0 "$D" baseline set nightly "$fx/base" "$fx/ok" --history "$bdb"
if grep -q "^baseline nightly: 2 runs" "$tmp/stdout" && grep -q "  marked   $fx/ok\$" "$tmp/stdout"; then
	ok "baseline set lists its runs with their folders"
else
	fail "baseline set listing: $(cat "$tmp/stdout")"
fi
expect_judge "judge --baseline NAME (2 runs: spread unknown)" 0 \
	"SWSTRESS OK - 8 cells within thresholds vs baseline nightly" \
	"$D" judge "$fx/ok" --baseline nightly --history "$bdb" --no-history
if grep -q "night-to-night spread unknown (2 baseline runs)" "$tmp/stdout" 2>/dev/null ||
	"$D" judge "$fx/ok" --baseline nightly --history "$bdb" --no-history | head -n 1 |
	grep -q "night-to-night spread unknown (2 baseline runs)"; then
	ok "verdict says the night-to-night spread is unknown"
else
	fail "verdict does not say the night-to-night spread is unknown"
fi
expect_judge "judge --baseline NAME that does not exist" 3 \
	"SWSTRESS UNKNOWN - baseline unusable: 'weekly' is neither a results folder nor a baseline set" \
	"$D" judge "$fx/ok" --baseline weekly --history "$bdb" --no-history
expect_exit "baseline add" 0 "$D" baseline add nightly "$fx/drop30/run.json" --history "$bdb"
grep -q "^baseline nightly: 3 runs$" "$tmp/stdout" && ok "baseline add: 3 runs" || fail "baseline add: $(cat "$tmp/stdout")"
expect_exit "baseline remove RUN" 0 "$D" baseline remove nightly drop30 --history "$bdb"
expect_exit "baseline remove RUN not in set" 1 "$D" baseline remove nightly drop30 --history "$bdb"
expect_exit "baseline bad name" 2 "$D" baseline set '-x' "$fx/base" --history "$bdb"
expect_exit "baseline set of a missing folder" 1 "$D" baseline set nightly "$fx/nothing" --history "$bdb"
expect_exit "baseline list after a refused set" 0 "$D" baseline list nightly --history "$bdb"
grep -q "^baseline nightly: 2 runs" "$tmp/stdout" && ok "a refused set leaves the set as it was" ||
	fail "refused set changed the set: $(cat "$tmp/stdout")"
expect_exit "baseline unknown subcommand" 2 "$D" baseline drop nightly --history "$bdb"
expect_exit "baseline remove whole set" 0 "$D" baseline remove nightly --history "$bdb"
expect_exit "baseline list of a removed set" 1 "$D" baseline list nightly --history "$bdb"

# --- slow drift: a week of nights through judge --------------------------------
# A 2-node check whose port gets 2% slower every night (planted: night i's
# sample time x (1 + 0.02 i), so its 64KiB stream bandwidth drops by
# 1 - 1/(1 + 0.02 i): 9.1% at night 5, 10.7% at night 6; latency +2i%).
# No single night crosses warn_drop (10%) or warn_inflation (20%) before
# night 6; the drift chart must raise WARNING before that, and say so.
wk="$tmp/week"
if "$D" drift "$wk" 2 && "$D" baseline set week "$wk"/base1 "$wk"/base2 "$wk"/base3 "$wk"/base4 "$wk"/base5 \
	>/dev/null 2>&1; then
	first_warn="" states=""
	for i in 1 2 3 4 5 6 7; do
		"$D" judge "$wk/night$i" --baseline week >"$tmp/night$i.out" 2>"$tmp/night$i.err"
		code=$?
		states="$states $i:$code"
		if [ -z "$first_warn" ] && [ "$code" -ne 0 ]; then first_warn=$i; fi
	done
	line=$(head -n 1 "$tmp/night${first_warn:-1}.out")
	# the judge's own numbers on that night: every pct_ perfdata below its warn threshold
	below=$(printf '%s\n' "$line" | tr ' ' '\n' | sed -n "s/^'pct_\([a-z]*\)_[^']*'=\([-0-9.]*\)%;~:\([0-9.]*\);.*/\2 \3/p" |
		awk '{ if ($1 >= $2) bad = 1 } END { print bad ? "no" : "yes" }')
	if [ -n "$first_warn" ] && [ "$first_warn" -lt 6 ] && [ "$first_warn" -ge 2 ]; then
		ok "drift: first WARNING on night $first_warn, before the first night over a threshold (6) (exit codes$states)"
	else
		fail "drift: first WARNING on night ${first_warn:-never}, want 2..5 (exit codes$states)"
	fi
	case "$line" in
	"SWSTRESS WARNING - "*"drifting: EWMA "*) ok "drift: the WARNING comes from the control chart" ;;
	*) fail "drift: status line does not name the drift: $line" ;;
	esac
	if [ "$below" = yes ]; then ok "drift: that night no cell's change reaches its threshold"; else fail "drift: a cell crossed a threshold that night: $line"; fi
	"$D" history --history "$wk/history.sqlite" --format csv >"$tmp/week.csv"
	if awk -F, 'NR == 2 { for (i = 1; i <= NF; i++) col[$i] = i } NR > 2 && $col["run"] == "night'"${first_warn:-0}"'" && $col["pattern"] == "stream" && $col["size_bytes"] == 65536 { print $col["drift"], $col["ewma"], $col["ewma_limit"] }' "$tmp/week.csv" |
		awk '{ if ($1 == 1 && $2 > $3) found = 1 } END { exit !found }'; then
		ok "drift: history csv marks the night with its EWMA over the limit"
	else
		fail "drift: history csv lacks drift, ewma, ewma_limit for night $first_warn"
	fi
	# the night-to-night families in the Prometheus file, linted like the others
	# (judged again: its chart holds nights 1..3 only, not the later ones)
	"$D" judge "$wk/night3" --baseline week --prom "$tmp/week.prom" >/dev/null 2>&1
	if grep -q '^swstress_change_sigma{nodes="2",pattern="stream",size_bytes="65536",metric="bandwidth"} ' "$tmp/week.prom" ||
		grep -q '^swstress_change_sigma{.*pattern="stream".*size_bytes="65536"' "$tmp/week.prom"; then
		if grep -q '^swstress_cell_drift{.*pattern="stream".*size_bytes="65536".*} 1$' "$tmp/week.prom" &&
			grep -q '^swstress_baseline_runs 5$' "$tmp/week.prom"; then
			ok "drift: prom file carries sigma, the drift flag and the baseline runs"
		else
			fail "drift: prom file lacks swstress_cell_drift 1 or swstress_baseline_runs 5"
		fi
	else
		fail "drift: prom file lacks swstress_change_sigma"
	fi
	promlint "drift: promtool check metrics" "$tmp/week.prom"
	if command -v gnuplot >/dev/null 2>&1; then
		if gnuplot -e "in='$tmp/week.csv'; out='$tmp/week.png'; pattern='stream'; size=65536; nodes=2" \
			plot/trend.gp 2>"$tmp/gpw.log" && is_png "$tmp/week.png"; then
			ok "drift: trend.gp renders the chart with its control limit"
		else
			fail "drift: trend.gp: $(cat "$tmp/gpw.log")"
		fi
	else
		skip "drift: trend.gp" "gnuplot not installed (Debian package gnuplot-nox)"
	fi
else
	fail "drift fixtures"
fi

# --- Prometheus textfile ------------------------------------------------------
mkdir -p "$tmp/textfile"
prom="$tmp/textfile/swstress.prom"
"$D" judge "$fx/drop30" --baseline "$fx/base" --no-history --prom "$prom" >/dev/null
if [ -s "$prom" ] && grep -q '^swstress_check_status 2$' "$prom"; then
	ok "prom file written"
else
	fail "prom file missing or without swstress_check_status 2"
fi
if ls "$tmp/textfile" | grep -q '\.tmp$'; then fail "temporary prom file left behind"; else ok "no temporary file left"; fi

# configs/slurm/swstress.nhc (an NHC check) on that verdict: node07 fails,
# node01 passes, a stale file fails when a maximum age is given
nhc() { HOSTNAME=$1 bash -c '. configs/slurm/swstress.nhc; die() { echo "die $*"; return "$1"; }
	check_swstress_port "$@"' nhc "$prom" ${2:-}; }
n7=$(nhc node07.cluster)
n7rc=$?
n1=$(nhc node01)
n1rc=$?
touch -d '3 days ago' "$prom"
old=$(nhc node01 86400)
if [ "$n7rc" = 1 ] && [ "$n7" = "die 1 swstress: node07 is a suspect port in the last fabric check ($prom)" ] &&
	[ "$n1rc" = 0 ] && [ -z "$n1" ] && echo "$old" | grep -q "^die 1 swstress: verdict .* s old (limit 86400 s)"; then
	ok "swstress.nhc: drains the suspect node07, not node01; a stale verdict fails"
else
	fail "swstress.nhc: node07 '$n7' ($n7rc), node01 '$n1' ($n1rc), stale '$old'"
fi
touch "$prom"

promlint "promtool check metrics" "$prom"

# a fabric map's verdict (the emulated tree's slow uplink against its
# healthy map): per-host and per-group gauges, and the map's claim
m=tests/data/maps
build/swstress judge $m/slowuplink-20261203-103006 --baseline $m/healthy-20261203-102832 --no-history \
	--prom "$tmp/map.prom" > "$tmp/map.out" 2>&1
if [ $? = 2 ] && grep -q '^swstress_cell_status{.*element="uplink",group="leafC"} [0-2]$' "$tmp/map.prom" &&
	[ "$(grep -c '^swstress_change_percent{.*element="host",host="swsN[0-9]*",.*stat="estimate"}' "$tmp/map.prom")" = 16 ] &&
	grep -q '^swstress_map_claim{claim="uplink of leafC"} 2$' "$tmp/map.prom" && grep -q '^swstress_check_status 2$' "$tmp/map.prom"; then
	ok "map verdict: Prometheus gauges per host and per group, the new claim, status 2"
else
	fail "map verdict's Prometheus file" "$tmp/map.prom"
fi
promlint "map verdict: promtool check metrics" "$tmp/map.prom"

# scrape URL FILE: fetch the metrics page into FILE.
scrape() {
	curl -sf --max-time 5 "$1" >"$2"
}

if command -v prometheus-node-exporter >/dev/null 2>&1 && command -v curl >/dev/null 2>&1; then
	started=""
	for try in 1 2 3; do
		port=$((20000 + ($$ * 7 + try * 1013) % 30000))
		prometheus-node-exporter --web.listen-address="127.0.0.1:$port" \
			--collector.disable-defaults --collector.textfile \
			--collector.textfile.directory="$tmp/textfile" >"$tmp/ne.log" 2>&1 &
		nepid=$!
		i=0
		while [ $i -lt 50 ]; do
			if scrape "http://127.0.0.1:$port/metrics" "$tmp/scrape"; then
				started=yes
				break
			fi
			kill -0 "$nepid" 2>/dev/null || break
			sleep 0.2
			i=$((i + 1))
		done
		[ -n "$started" ] && break
		kill "$nepid" 2>/dev/null
		wait "$nepid" 2>/dev/null
		nepid=""
	done
	if [ -z "$started" ]; then
		fail "node exporter did not serve on 127.0.0.1: $(tail -n 3 "$tmp/ne.log")"
	else
		ok "node exporter serving on 127.0.0.1:$port"
		if grep -q '^node_textfile_scrape_error 0$' "$tmp/scrape" &&
			grep -q '^swstress_check_status 2$' "$tmp/scrape" &&
			grep -q '^swstress_suspect_port{host="node07"} 1$' "$tmp/scrape" &&
			grep -q '^swstress_bandwidth_bytes_per_second{nodes="8",pattern="stream",size_bytes="65536",stat="median"} ' "$tmp/scrape"; then
			ok "node exporter scrape: no textfile error, swstress metrics present"
		else
			fail "node exporter scrape lacks swstress metrics: $(grep -E 'swstress_check|textfile_scrape_error' "$tmp/scrape")"
		fi
		# Replace the file (judge renames into place) and scrape again.
		"$D" judge "$fx/ok" --baseline "$fx/base" --no-history --prom "$prom" >/dev/null
		if scrape "http://127.0.0.1:$port/metrics" "$tmp/scrape2" &&
			grep -q '^swstress_check_status 0$' "$tmp/scrape2" &&
			grep -q '^node_textfile_scrape_error 0$' "$tmp/scrape2" &&
			! grep -q 'host="node07"} 1' "$tmp/scrape2"; then
			ok "node exporter scrape after replacement: status 0"
		else
			fail "node exporter scrape after replacement"
		fi
		kill "$nepid" 2>/dev/null
		wait "$nepid" 2>/dev/null
		nepid=""
	fi
else
	skip "node exporter" "prometheus-node-exporter or curl not installed (Debian packages prometheus-node-exporter, curl)"
fi

# --- history and trend.gp -------------------------------------------------------
db="$tmp/h.sqlite"
for r in base ok drop30 mismatch; do
	"$D" judge "$fx/$r" --baseline "$fx/base" --history "$db" >/dev/null
done
"$D" history --history "$db" --format csv >"$tmp/h.csv"
rows=$(grep -c -v '^#' "$tmp/h.csv")
if [ "$rows" -eq 33 ]; then ok "history csv: header and 32 rows"; else fail "history csv has $rows lines, want 33"; fi
# (the verdict's summary goes on its own line under the run's row)
if "$D" history --history "$db" | grep -A1 '^2026-03-04T02:00:00Z  drop30 .* CRITICAL$' | grep -q '^  8 nodes 64KiB stream'; then
	ok "history table lists the critical check"
else
	fail "history table"
fi
if command -v gnuplot >/dev/null 2>&1; then
	if gnuplot -e "in='$tmp/h.csv'; out='$tmp/trend.png'; pattern='stream'; size=65536; nodes=8" \
		plot/trend.gp 2>"$tmp/gp.log" && is_png "$tmp/trend.png"; then
		ok "trend.gp renders a PNG"
	else
		fail "trend.gp: $(cat "$tmp/gp.log")"
	fi
	# configs/README.md's command: the first cell, each run at its exact second
	if (cd "$tmp" && gnuplot -e "in='h.csv'; out='trend1.png'; table='trend1.txt'" "$OLDPWD/plot/trend.gp") 2>"$tmp/gp3.log" &&
		is_png "$tmp/trend1.png"; then
		ok "trend.gp as the README shows it (no cell given: the first one) renders a PNG"
	else
		fail "trend.gp README command: $(cat "$tmp/gp3.log")"
	fi
	want=$(python3 -c '
import csv, sys
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#"))]
f = rows[0]
print(" ".join(r["epoch_s"] for r in rows if (r["pattern"], r["size_bytes"], r["nodes"]) == (f["pattern"], f["size_bytes"], f["nodes"])))
' "$tmp/h.csv")
	got=$(awk 'NF > 3 && $1 ~ /^[0-9]+$/ {printf "%s%s", sep, $1; sep = " "}' "$tmp/trend1.txt" 2>/dev/null)
	if [ -n "$want" ] && [ "$got" = "$want" ]; then ok "trend.gp: every point at its run's epoch second ($got)"; else fail "trend.gp times: got '$got', want '$want'"; fi
	if gnuplot -e "in='$tmp/h.csv'; out='$tmp/none.png'; pattern='bidir'; size=8; nodes=8" \
		plot/trend.gp 2>"$tmp/gp2.log"; then
		fail "trend.gp with no matching rows should fail"
	elif [ -e "$tmp/none.png" ]; then
		fail "trend.gp with no matching rows left $tmp/none.png behind"
	elif grep -q 'no rows for bidir' "$tmp/gp2.log"; then
		ok "trend.gp says when a cell has no rows, and writes no file"
	else
		fail "trend.gp no-rows message: $(cat "$tmp/gp2.log")"
	fi
else
	skip "trend.gp" "gnuplot not installed (Debian package gnuplot-nox)"
fi

t_end
