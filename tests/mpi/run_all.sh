#!/bin/sh
# MPI tests: real mpiexec on this machine, 2 to 8 ranks, tiny sweeps.
# Run from the repository root after build/swstress is built:
#   sh tests/mpi/run_all.sh [NAME...]      (names: the test_* functions)
# Prints one line per test and a final "mpi: N passed, N failed, N skipped"
# (tests/lib.sh).
set -u
. "$(dirname "$0")/../lib.sh"
t_begin mpi
T_LOG_LINES=20

SW=${SW:-$PWD/build/swstress}
MPIEXEC=${MPIEXEC:-mpiexec}
t_tmpdir mpi
TMP=$T_TMP
# Root may run MPICH's hydra as usual; keep UCX off any network device.
export UCX_TLS=${UCX_TLS:-self,sm,tcp}

# conf NAME KEY=VALUE... : write a config file under $TMP.
conf() {
	name=$1; shift
	{
		echo "# test config"
		# Defaults for the keys the test does not set itself (a key twice is an error).
		for kv in "allow_shared_node = yes" "output = $TMP/results" "label = $name" "timeout = 20"; do
			key=${kv%% =*}
			given=no
			for a in "$@"; do [ "${a%% =*}" = "$key" ] && given=yes; done
			[ $given = yes ] || echo "$kv"
		done
		for kv in "$@"; do echo "$kv"; done
	} > "$TMP/$name.conf"
	echo "$TMP/$name.conf"
}

# The one results folder of a label.
folder() { ls -d "$TMP/results/$1"-* 2>/dev/null | head -n 1; }

# count_rows CSV: data rows (not the comment, not the header).
count_rows() { grep -v '^#' "$1" | tail -n +2 | wc -l; }

# expect_rows LABEL: samples.csv rows = sum over levels of
# (cells per level) x repetitions x pairs, computed from run.json.
check_folder() {
	dir=$1
	for f in run.json samples.csv summary.csv pairs.csv fits.csv report.txt; do
		[ -s "$dir/$f" ] || { echo "missing $dir/$f"; return 1; }
	done
	python3 - "$dir" <<'EOF'
import json, sys, csv
d = sys.argv[1]
run = json.load(open(d + "/run.json"))
assert run["schema_version"] == 4 and run["complete"] is True, "incomplete run"
rows = [r for r in csv.DictReader(l for l in open(d + "/samples.csv") if not l.startswith("#"))]
cfg = run["config"]
reps = int(cfg["repetitions"].split("..")[0])
expected = 0
for c in run["cells"]:
    assert c["reps"] == reps, c
    expected += c["reps"] * c["pairs"]
assert len(rows) == expected, (len(rows), expected)
npat = len(cfg["patterns"].split(","))
nsz = len(cfg["sizes"].split(","))
nh = 1 if cfg["hops"] == "auto" else len(cfg["hops"].split(","))
assert len(run["cells"]) == len(run["levels"]) * npat * nsz * nh, "cells != levels x patterns x sizes x hops"
for r in rows:   # a missing sample (no time window) has its reason and no value
    assert r.get("missing") in ("late", "short", "fast") and r["seconds"] == "" if r.get("missing") else \
        float(r["seconds"]) > 0 and float(r["latency_us"]) > 0 and float(r["t_end_s"]) >= float(r["t_start_s"])
summary = [r for r in csv.DictReader(l for l in open(d + "/summary.csv") if not l.startswith("#"))]
assert len(summary) == len(run["cells"]), "one summary row per cell"
assert len(run["ranks"]) >= 2 and all(r["host"] for r in run["ranks"])
print("rows", len(rows))
EOF
}

test_two_ranks_complete() {
	c=$(conf two "pairs = 1" "sizes = 8, 1KiB" "patterns = pingpong, stream, bidir" "hops = 20, 40" "repetitions = 3")
	if timeout 60 $MPIEXEC -n 2 "$SW" run -c "$c" > "$TMP/out" 2> "$TMP/err" && check_folder "$(folder two)" >> "$TMP/err" 2>&1; then
		ok "2 ranks: results folder complete, samples.csv = cells x reps x pairs"
	else fail "2 ranks: results folder complete" "$TMP/err"; fi
}

test_four_ranks_matches_config() {
	c=$(conf four "pairs = 1, 2" "sizes = 8, 4KiB" "patterns = pingpong, bidir" "hops = 10" "repetitions = 4" "window = 8" "distinct_buffers = yes")
	if timeout 60 $MPIEXEC -n 4 "$SW" run -c "$c" > "$TMP/out" 2> "$TMP/err" && check_folder "$(folder four)" >> "$TMP/err" 2>&1 &&
		python3 - "$(folder four)" >> "$TMP/err" 2>&1 <<'EOF'
import json, sys
run = json.load(open(sys.argv[1] + "/run.json"))
c = run["config"]
assert c["window"] == "8" and c["repetitions"] == "4" and c["distinct_buffers"] == "yes", c
assert [l["pairs"] for l in run["levels"]] == [1, 2]
assert run["pairs"][:2] == [[0, 1], [2, 3]]
assert {x["pattern"] for x in run["cells"]} == {"pingpong", "bidir"}
assert {x["size_bytes"] for x in run["cells"]} == {8, 4096}
assert run["mpi_version"].startswith("MPICH"), run["mpi_version"]
assert run["wtick"] > 0
assert len(run["cpu"]) == 2 * 4, "cpu per rank per level"
EOF
	then ok "4 ranks: run.json matches the config"
	else fail "4 ranks: run.json matches the config" "$TMP/err"; fi
}

test_eight_ranks_auto_hops() {
	c=$(conf eight "pairs = 1, 2, 4" "sizes = 8, 64KiB" "patterns = pingpong, stream" "hops = auto" "sample_time = 4ms" "repetitions = 3")
	if timeout 120 $MPIEXEC -n 8 "$SW" run -c "$c" > "$TMP/out" 2> "$TMP/err" && check_folder "$(folder eight)" >> "$TMP/err" 2>&1 &&
		python3 - "$(folder eight)" >> "$TMP/err" 2>&1 <<'EOF'
import csv, json, sys
run = json.load(open(sys.argv[1] + "/run.json"))
hops = {}
for c in run["cells"]:
    assert c["hops_auto"]
    # stream is time-bounded (timed = auto): no fixed count, each sample its own
    assert c["timed"] == (c["pattern"] == "stream"), c
    if c["timed"]:
        assert c["hops"] == 0
        continue
    assert c["hops"] >= 1
    if c["pattern"] == "pingpong":
        assert c["hops"] % 2 == 0, "pingpong hops even"
    # the same hops at every level for a pattern and size
    assert hops.setdefault((c["pattern"], c["size_bytes"]), c["hops"]) == c["hops"]
rows = csv.DictReader(l for l in open(sys.argv[1] + "/samples.csv") if not l.startswith("#"))
timed = [r for r in rows if r["pattern"] == "stream" and not r.get("missing")]
assert timed and all(int(r["hops"]) >= 1 for r in timed)
# a timed sample's window ends at the last message that arrived by the
# deadline (it may start late on this busy machine, never end much later)
secs = sorted(float(r["seconds"]) for r in timed)
assert 0 < secs[0] and secs[len(secs) // 2] <= 1.2 * 0.004, secs
EOF
	then ok "8 ranks: hops=auto resolved once per pattern and size, stream timed to 4 ms windows, complete"
	else fail "8 ranks: hops=auto" "$TMP/err"; fi
	grep -q "^stream 64KiB" "$TMP/out" && grep -q "baseline" "$TMP/out" && ok "8 ranks: table on stdout" || fail "8 ranks: table on stdout" "$TMP/out"
}

test_bad_config_exits_2_promptly() {
	c=$(conf bad "pairs = 1" "msgsz = 8")
	start=$(date +%s)
	timeout 30 $MPIEXEC -n 4 "$SW" run -c "$c" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	took=$(( $(date +%s) - start ))
	n=$(grep -c "swstress: .*bad.conf:7: unknown key 'msgsz'" "$TMP/err")
	if [ "$rc" = 2 ] && [ "$took" -le 10 ] && [ "$n" = 1 ]; then
		ok "bad config under mpiexec -n 4: exit 2 in ${took}s, one message"
	else fail "bad config: rc=$rc took=${took}s messages=$n" "$TMP/err"; fi
	c=$(conf big "nodes = 8")
	timeout 30 $MPIEXEC -n 4 "$SW" run -c "$c" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	if [ "$rc" = 2 ] && grep -q "big.conf:6: level of 8 nodes but only 4 ranks" "$TMP/err"; then
		ok "level larger than the ranks: exit 2 naming file:line"
	else fail "level larger than the ranks: rc=$rc" "$TMP/err"; fi
	timeout 30 $MPIEXEC -n 2 "$SW" run -c "$TMP/nonexistent.conf" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	[ "$rc" = 2 ] && grep -q "nonexistent.conf" "$TMP/err" && ok "missing config file: exit 2" || fail "missing config file: rc=$rc" "$TMP/err"
}

test_shared_node_refused() {
	c=$(conf shared "pairs = 1" "allow_shared_node = no")
	timeout 30 $MPIEXEC -n 2 "$SW" run -c "$c" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	if [ "$rc" = 2 ] && grep -q "ranks 0 and 1 share host" "$TMP/err" && [ -z "$(folder shared)" ]; then
		ok "ranks sharing a host are refused without allow_shared_node"
	else fail "shared node: rc=$rc" "$TMP/err"; fi
}

test_output_not_writable() {
	c=$(conf nowrite "pairs = 1" "output = /proc/swstress-no")
	timeout 30 $MPIEXEC -n 2 "$SW" run -c "$c" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	[ "$rc" = 2 ] && grep -q "output '/proc/swstress-no'" "$TMP/err" && ! grep -q "cells" "$TMP/out" &&
		ok "unwritable output refused before measuring (exit 2)" || fail "unwritable output: rc=$rc" "$TMP/err"
}

# stalled_folder DIR WHO: a run the watchdog ended in level 1 of pairs =
# 1, 2 (3 repetitions): incomplete, its failure names WHO, cell 0 done and
# cell 1 failed, the 3 samples of level 0 on disk.
stalled_folder() {
	[ -n "$1" ] && python3 - "$1" "$2" <<'EOF'
import json, sys, csv
d, who = sys.argv[1], sys.argv[2]
run = json.load(open(d + "/run.json"))
assert run["complete"] is False and who in run["failure"], run["failure"]
assert run["cells"][0]["stop"] == "fixed" and run["cells"][1]["stop"] == "failed"
rows = [r for r in csv.DictReader(l for l in open(d + "/samples.csv") if not l.startswith("#"))]
assert len(rows) == 3 and all(r["level"] == "0" for r in rows), len(rows)
EOF
}

test_stalled_rank_watchdog() {
	c=$(conf stall "pairs = 1, 2" "sizes = 8" "patterns = pingpong" "hops = 100" "repetitions = 3" "timeout = 3" "design = sequential")
	start=$(date +%s)
	SWSTRESS_FAULT_STALL=3:1 timeout 60 $MPIEXEC -n 4 "$SW" run -c "$c" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	took=$(( $(date +%s) - start ))
	dir=$(folder stall)
	# the pair first (a status line cut short keeps it), the waits, and
	# what they mean: the rank waited on is slow, no deadlock (issue 27)
	if [ "$rc" = 1 ] && [ "$took" -le 15 ] && grep -q "watchdog: .*rank 2 waited for rank 3" "$TMP/err" &&
		grep -q "watchdog: pair 1 (ranks 2-3, hosts [^)]*) did not finish a round of cell 1" "$TMP/err" &&
		grep -q "rank 3 (host [^)]*) is slow or stuck, not deadlocked: rank 2 was waiting on it" "$TMP/err" &&
		stalled_folder "$dir" "rank 3" >> "$TMP/err" 2>&1
	then ok "stalled rank: watchdog ends the run in ${took}s (timeout 3 s), names pair 1 and slow rank 3, level 0 on disk"
	else fail "stalled rank: rc=$rc took=${took}s" "$TMP/err"; fi
	if [ -n "$dir" ] && "$SW" report "$dir" > "$TMP/rep" 2>&1 && grep -q "INCOMPLETE: watchdog" "$TMP/rep"; then
		ok "report reads the incomplete folder"
	else fail "report reads the incomplete folder" "$TMP/rep"; fi
}

# stall_in_sample NAME RANK BLOCKING WANT WHO WHAT [LINE...]: 4 ranks,
# pairs = 1, 2, timeout 3 s, untimed pingpong of 100 hops (or the config
# LINEs given); rank RANK stops at its first message of level 1, inside a
# sample (SWSTRESS_FAULT_STALL=RANK:1:sample). Passes when the run ends
# within 15 s with exit 1, stderr matches WANT and the folder's failure
# names WHO (stalled_folder).
stall_in_sample() {
	si_n=$1 si_r=$2 si_b=$3 si_want=$4 si_who=$5 si_what=$6
	shift 6
	[ $# -gt 0 ] || set -- "patterns = pingpong" "hops = 100"
	c=$(conf "$si_n" "pairs = 1, 2" "sizes = 8" "repetitions = 3" "timeout = 3" "blocking_waits = $si_b" \
		"design = sequential" "$@")
	set -- "$si_n" "$si_r" "$si_b" "$si_want" "$si_who" "$si_what"
	start=$(date +%s)
	SWSTRESS_FAULT_STALL=$2:1:sample timeout 60 $MPIEXEC -n 4 "$SW" run -c "$c" --no-plot > "$TMP/out" 2> "$TMP/err"
	rc=$?
	took=$(( $(date +%s) - start ))
	if [ "$rc" = 1 ] && [ "$took" -le 15 ] && grep -q "$4" "$TMP/err" &&
		stalled_folder "$(folder "$1")" "$5" >> "$TMP/err" 2>&1
	then ok "$6 in ${took}s (timeout 3 s), exit 1"
	else fail "$6: rc=$rc took=${took}s" "$TMP/err"; fi
}

# A stall inside a sample: the polling waits time out there too.
test_stall_in_sample() {
	stall_in_sample stallin 3 no "watchdog: .*rank 2 waited for rank 3" "rank 3" \
		"stall inside a sample: the polling watchdog ends the run, names rank 3"
}

# blocking_waits = yes: MPI's blocking calls cannot time out; the guard
# thread ends the run. Rank 0 blocked on its stalled partner: its guard
# names the partner and writes what it has. Another pair stalled: rank 0
# (polling for that pair's sample) names the pair.
test_blocking_waits_stall() {
	stall_in_sample blockstall1 1 yes "watchdog: .*rank 0 waited for rank 1 (host [^)]*) in a blocking wait" \
		"rank 1" "blocking_waits, rank 0's partner stalls in a sample: the guard ends the run, names rank 1"
	stall_in_sample blockstall3 3 yes "watchdog: .*pair 1 (ranks 2-3" "ranks 2-3" \
		"blocking_waits, rank 3 stalls in a sample: rank 0 ends the run, names pair 2-3"
	# the default timed bidir of ranks that do not yield waits in MPI_Waitall
	# (bidir_halves_blocking), under the same guard
	stall_in_sample bidirstall1 1 no "watchdog: .*rank 0 waited for rank 1 (host [^)]*) in a blocking wait" \
		"rank 1" "timed bidir (yield = no), rank 0's partner stalls in a sample: the guard ends the run, names rank 1" \
		"patterns = bidir" "sample_time = 300ms" "yield = no"
	stall_in_sample bidirstall3 3 no "watchdog: .*pair 1 (ranks 2-3" "ranks 2-3" \
		"timed bidir (yield = no), rank 3 stalls in a sample: rank 0 ends the run, names pair 2-3" \
		"patterns = bidir" "sample_time = 300ms" "yield = no"
}

# blocking_waits = yes measures: every cell completes with its samples, and
# with rank 1 sleeping 1 ms before each message it sends
# (SWSTRESS_FAULT_DELAY), a pingpong hop takes >= 0.5 ms (the known truth).
test_blocking_waits() {
	c=$(conf block "pairs = 1" "sizes = 8, 64KiB" "patterns = pingpong, stream, bidir" "hops = 40" \
		"repetitions = 3" "blocking_waits = yes")
	c2=$(conf blockdelay "pairs = 1" "sizes = 8" "patterns = pingpong" "hops = 40" "repetitions = 3" \
		"blocking_waits = yes")
	if timeout 60 $MPIEXEC -n 2 "$SW" run -c "$c" --no-plot > "$TMP/out" 2> "$TMP/err" &&
		check_folder "$(folder block)" >> "$TMP/err" 2>&1 &&
		SWSTRESS_FAULT_DELAY=1:1000 timeout 60 $MPIEXEC -n 2 "$SW" run -c "$c2" --no-plot >> "$TMP/out" 2>> "$TMP/err" &&
		python3 - "$(folder block)" "$(folder blockdelay)" >> "$TMP/err" 2>&1 <<'EOF'
import csv, json, sys
for d in sys.argv[1:]:
    assert json.load(open(d + "/run.json"))["config"]["blocking_waits"] == "yes"
rows = [r for r in csv.DictReader(l for l in open(sys.argv[2] + "/samples.csv") if not l.startswith("#"))]
lat = sorted(float(r["latency_us"]) for r in rows if not r.get("missing"))
assert len(rows) == 3 and len(lat) >= 2 and 500 <= lat[len(lat) // 2] <= 5000, lat
EOF
	then ok "blocking_waits: pingpong, stream and bidir complete; a 1 ms delay per round trip reads >= 500 us a hop"
	else fail "blocking_waits measures" "$TMP/err"; fi
}

test_classic_format() {
	c=$(conf classic "pairs = 1" "sizes = 1000" "patterns = pingpong" "hops = 100" "repetitions = 3")
	if timeout 60 $MPIEXEC -n 2 "$SW" run -c "$c" --format classic > "$TMP/out" 2> "$TMP/err" &&
		grep -Eq "^pingpong +size= +1000, +100 hops, +2 nodes in +[0-9.]+ sec \( *[0-9.]+ us/hop\) +[0-9]+ KB/sec$" "$TMP/out"; then
		ok "--format classic prints the mailing-list lines"
	else fail "--format classic" "$TMP/out"; fi
}

test_report_reanalysis() {
	dir=$(folder two)
	[ -n "$dir" ] || { fail "report: needs the two-rank run"; return; }
	# (the report wraps its prose at 80 columns: read it as one line)
	if "$SW" report "$dir" confidence=0.99 > "$TMP/rep" 2>&1 && tr -s '\n ' '  ' < "$TMP/rep" > "$TMP/rep1" &&
		grep -q "over its pairs (their CIs[^)]*: report --verbose); .*\[99% CI\]" "$TMP/rep1" &&
		grep -q " method: .*99% Bonett-Price CIs" "$TMP/rep1" &&
		"$SW" report "$dir" confidence=0.99 --verbose 2>&1 | grep -q "99% CI from its Bonett-Price"; then
		ok "report recomputes with confidence=0.99"
	else fail "report confidence=0.99" "$TMP/rep"; fi
	cp -r "$dir" "$TMP/trunc"
	head -c 300 "$dir/samples.csv" > "$TMP/trunc/samples.csv"
	"$SW" report "$TMP/trunc" > "$TMP/rep" 2>&1
	rc=$?
	[ "$rc" = 1 ] && grep -q "trunc/samples.csv:[0-9]*:" "$TMP/rep" && ok "report on a truncated samples.csv names the file and line" ||
		fail "report truncated: rc=$rc" "$TMP/rep"
}

# Distinct host names on one machine: each rank in its own UTS namespace
# (root only). The slowed rank's host must be named as a suspect port.
# uts_hosts WHAT: true when root with unshare, which the next tests need;
# else SKIP WHAT.
uts_hosts() {
	[ "$(id -u)" = 0 ] && command -v unshare > /dev/null && return 0
	skip "$1" "needs root and unshare"
	return 1
}

# eight_hosts ARGS...: mpiexec's arguments (for eval) for 8 ranks, rank i
# on host node0i in its own UTS namespace, each running swstress ARGS.
eight_hosts() {
	args=""
	for i in 0 1 2 3 4 5 6 7; do
		[ -n "$args" ] && args="$args :"
		args="$args -n 1 unshare --uts sh -c 'hostname node0$i; exec \"\$0\" \"\$@\"' $SW $*"
	done
	echo "$args"
}

test_slow_rank_is_suspect() {
	uts_hosts "slow rank suspect port" || return
	c=$(conf slow "pairs = 4" "sizes = 8" "patterns = pingpong" "hops = 20" "repetitions = 8")
	args=$(eight_hosts run -c "$c")
	# Pairs are fixed (0-1 2-3 4-5 6-7), so node05's partner node04 is
	# flagged with it; no other host may be.
	if eval "SWSTRESS_FAULT_DELAY=5:10000 timeout 120 $MPIEXEC $args" > "$TMP/out" 2> "$TMP/err" &&
		grep -q "suspect port: node05" "$TMP/out" && ! grep "suspect port" "$TMP/out" | grep -qv "node0[45]"; then
		ok "a slowed rank's host is named as a suspect port, and no host outside its pair"
	else fail "slow rank suspect port" "$TMP/out"; cat "$TMP/err" | tail -5; fi
}

# The bad port alone (isolate = yes): node05 and its partner node04 are each
# re-paired with 3 healthy hosts; node05 is slow with all of them and is the
# one suspect, node04 is healthy with all of them and cleared.
test_isolate_names_the_slow_host_alone() {
	uts_hosts "isolation" || return
	c=$(conf isolate "pairs = 4" "sizes = 8" "patterns = pingpong" "hops = 20" "repetitions = 8" "isolate = yes")
	args=$(eight_hosts run -c "$c" --no-plot)
	if eval "SWSTRESS_FAULT_DELAY=5:10000 timeout 120 $MPIEXEC $args" > "$TMP/out" 2> "$TMP/err" &&
		[ "$(grep '^suspect port' "$TMP/out" | cut -d' ' -f3)" = node05 ] &&
		grep -q "^  slow: host node05: slow with 3 different partners (" "$TMP/out" &&
		grep -q "^  cleared: host node04: healthy with 3 others (" "$TMP/out" &&
		python3 - "$(folder isolate)" >> "$TMP/err" 2>&1 <<'EOF'
import json, sys
run = json.load(open(sys.argv[1] + "/run.json"))
assert [s["host"] for s in run["suspects"]] == ["node05"], run["suspects"]
v = {x["host"]: x["verdict"] for x in run["isolation"]}
assert v == {"node05": "slow", "node04": "cleared"}, v
# 3 partners each and a control pair, a warm-up and 3 recorded rounds each
assert len(run["probes"]) == 7 * 3, len(run["probes"])
assert all(p["rank_a"] not in (4, 5) for p in run["probes"])
EOF
	then ok "isolate: only the slowed host is named; its partner is cleared with evidence"
	else fail "isolate: slowed host alone" "$TMP/out"; tail -5 "$TMP/err"; fi
}

# check: a healthy baseline, then a check against it; a stalled rank ends
# the check CRITICAL within its deadline; a second check meanwhile exits
# UNKNOWN at once.
test_check() {
	c=$(conf hbase "pairs = 1, 2" "sizes = 8" "patterns = stream" "hops = 50" "repetitions = 5")
	timeout 60 $MPIEXEC -n 4 "$SW" run -c "$c" --no-plot > /dev/null 2> "$TMP/err"
	base=$(folder hbase)
	[ -n "$base" ] || { fail "check: baseline run" "$TMP/err"; return; }
	timeout 60 $MPIEXEC -n 4 "$SW" check -c "$c" label=hcheck --baseline "$base" --prom "$TMP/sw.prom" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	if [ "$rc" -le 2 ] && grep -Eq "^SWSTRESS (OK|WARNING|CRITICAL) - .*\|" "$TMP/out" && grep -q "^swstress_check_status $rc$" "$TMP/sw.prom"; then
		ok "check: Nagios status line with perfdata, exit $rc, Prometheus file agrees"
	else fail "check: rc=$rc" "$TMP/out"; fi
	# a baseline set name that does not exist: UNKNOWN before any sweep
	start=$(date +%s)
	timeout 60 $MPIEXEC -n 4 "$SW" check -c "$c" label=hnoset --baseline nosuchset > "$TMP/out" 2> "$TMP/err"
	rc=$?
	if [ "$rc" = 3 ] && grep -q "^SWSTRESS UNKNOWN - baseline unusable: 'nosuchset' is neither a results folder nor a baseline set" "$TMP/out" &&
		[ -z "$(folder hnoset)" ]; then
		ok "check: an unknown baseline set is UNKNOWN before the sweep (no results folder)"
	else fail "check --baseline nosuchset: rc=$rc" "$TMP/out"; fi
	c2=$(conf hstall "pairs = 1, 2" "sizes = 8" "patterns = stream" "hops = 50" "repetitions = 5" "timeout = 60" "deadline = 4")
	start=$(date +%s)
	SWSTRESS_FAULT_STALL=3:1 timeout 60 $MPIEXEC -n 4 "$SW" check -c "$c2" --baseline "$base" > "$TMP/out" 2> "$TMP/err" &
	pid=$!
	sleep 1.5
	timeout 20 $MPIEXEC -n 4 "$SW" check -c "$c2" --baseline "$base" > "$TMP/out2" 2> "$TMP/err2"
	rc2=$?
	wait $pid
	rc=$?
	took=$(( $(date +%s) - start ))
	if [ "$rc" = 2 ] && [ "$took" -le 15 ] && grep -q "^SWSTRESS CRITICAL" "$TMP/out" && grep -q "deadline" "$TMP/err" &&
		! pgrep -f "swstress check -c $c2" > /dev/null; then
		ok "check: a stalled rank ends the check CRITICAL in ${took}s (deadline 4 s), every rank gone"
	else fail "check deadline: rc=$rc took=${took}s" "$TMP/out"; cat "$TMP/err" | tail -3; fi
	if [ "$rc2" = 3 ] && grep -q "^SWSTRESS UNKNOWN - previous check still running (pid [0-9]*)" "$TMP/out2"; then
		ok "check: a second check while one runs exits UNKNOWN at once"
	else fail "check lock: rc=$rc2" "$TMP/out2"; fi
}

# The watchdog is per round: a healthy cell that runs longer than timeout
# (adaptive repetitions up to its budget) is not mistaken for a stuck one.
test_long_cell_is_not_stuck() {
	c=$(conf long "pairs = 1" "sizes = 8" "patterns = pingpong" "hops = 100" "repetitions = 5..1000000" \
		"ci_target = 0.00001" "cell_budget = 4s" "timeout = 2s")
	timeout 60 $MPIEXEC -n 2 "$SW" run -c "$c" --no-plot > "$TMP/out" 2> "$TMP/err"
	rc=$?
	dir=$(folder long)
	if [ "$rc" = 0 ] && [ -n "$dir" ] && grep -q '"stop": "budget"' "$dir/run.json"; then
		ok "a 4 s cell with timeout 2 s completes (stopped by its budget, not the watchdog)"
	else fail "long cell: rc=$rc" "$TMP/err"; fi
}

# The sample floor and drift control (issue 12). hops = auto, untimed
# stream of 16 B with window 64 (the issue's case resolved to 2 hops on a
# busy host) never resolves below 4 windows, even for 1 us samples, which
# without the floor resolve to 1 hop;
# a fixed 2-hop stream is below the floor: marked short in the report,
# below_floor in summary.csv and run.json, never significant. drift_check
# = yes measures the baseline level again after the last level.
test_floor_and_drift() {
	c=$(conf floor "pairs = 1, 2" "sizes = 16" "patterns = stream" "hops = auto" "timed = no" \
		"sample_time = 1us" "window = 64" "repetitions = 5" "drift_check = yes" "design = sequential")
	if timeout 90 $MPIEXEC -n 4 "$SW" run -c "$c" --no-plot > "$TMP/out" 2> "$TMP/err" &&
		grep -q "^drift control: the baseline level (1 pair) measured again" "$TMP/out" &&
		grep -Eq "^(no significant drift|DRIFT: )" "$TMP/out" &&
		python3 - "$(folder floor)" >> "$TMP/err" 2>&1 <<'EOF2'
import json, sys
run = json.load(open(sys.argv[1] + "/run.json"))
assert run["round_trip_s"] > 0 and run["sample_floor"]["windows"] == 4, run.get("round_trip_s")
for c in run["cells"]:
    assert c["hops"] >= 4 * 64, ("hops = auto resolved below the floor", c["hops"])
again = run["baseline_again"]
assert len(again) == 5 and all(a["cell"] == 0 and a["pair"] == 0 for a in again), again
d = run["drift"]
assert len(d["cells"]) == 1 and d["cells"][0]["metric"] == "bandwidth_drop" and d["alpha"] == 0.05, d
assert isinstance(d["drifted"], bool)
EOF2
	then ok "hops = auto (untimed stream, 1 us) resolves at or above 4 windows; drift control re-measures the baseline level"
	else fail "floor: hops = auto and drift control" "$TMP/err"; cat "$TMP/out" | tail -5; fi
	c=$(conf short "pairs = 1, 2" "sizes = 16" "patterns = stream" "hops = 2" "window = 64" "repetitions = 5" "design = sequential")
	if timeout 60 $MPIEXEC -n 4 "$SW" run -c "$c" --no-plot > "$TMP/out" 2> "$TMP/err" &&
		grep -Eq "^ +4 +2 .*\] short( cpu)?$" "$TMP/out" &&
		grep -q "^warning: samples below the floor" "$TMP/out" &&
		python3 - "$(folder short)" >> "$TMP/err" 2>&1 <<'EOF2'
import csv, json, sys
run = json.load(open(sys.argv[1] + "/run.json"))
assert all(c["summary"]["below_floor"] and c["summary"]["short_samples"] == 5 * c["pairs"] for c in run["cells"])
assert run["cells"][1]["summary"]["bandwidth_drop"]["significant"] is False
assert run["baseline_again"] == [] and run["drift"]["cells"] == [], "2 levels: no drift control by default"
rows = list(csv.DictReader(l for l in open(sys.argv[1] + "/summary.csv") if not l.startswith("#")))
assert [r["below_floor"] for r in rows] == ["1", "1"] and rows[1]["bw_drop_sig"] == "0", rows
EOF2
	then ok "a 2-hop stream (window 64) is below the floor: marked short, never significant"
	else fail "floor: 2-hop stream marked" "$TMP/out"; tail -5 "$TMP/err"; fi
}

# Rank 0 stalls: the others must not wait for it forever.
test_rank0_stalled() {
	c=$(conf stall0 "pairs = 1, 2" "sizes = 8" "patterns = pingpong" "hops = 100" "repetitions = 3" "timeout = 3" "design = sequential")
	start=$(date +%s)
	SWSTRESS_FAULT_STALL=0:1 timeout 60 $MPIEXEC -n 4 "$SW" run -c "$c" --no-plot > "$TMP/out" 2> "$TMP/err"
	rc=$?
	took=$(( $(date +%s) - start ))
	if [ "$rc" != 0 ] && [ "$rc" != 124 ] && [ "$took" -le 25 ] && grep -q "no word from rank 0" "$TMP/err"; then
		ok "rank 0 stalled: the other ranks end the job in ${took}s (exit $rc)"
	else fail "rank 0 stalled: rc=$rc took=${took}s" "$TMP/err"; fi
}

# Victims (victims = 1): pair 0-1 runs timed pingpong beside the aggressor
# pair 2-3 (stream) and alone, every repetition. Rank 1 sleeps 2 ms before
# each message it sends, so every round trip takes >= 2 ms: the victims'
# one-way latency median is >= 1 ms, loaded and alone (the known truth the
# histogram must find), p50 <= p99;
# one loaded, one alone and one CPU control sample per repetition (the
# ranks share a kernel: cpu_control = auto runs it); report reads them back.
test_victims_beside_aggressors() {
	c=$(conf victims "pairs = 1" "victims = 1" "patterns = stream" "sizes = 64KiB" "sample_time = 200ms" \
		"repetitions = 5")
	if SWSTRESS_FAULT_DELAY=1:2000 timeout 60 $MPIEXEC -n 4 "$SW" run -c "$c" --no-plot > "$TMP/out" 2> "$TMP/err" &&
		grep -q "^victims (pairs 0-1, pingpong 8B)" "$TMP/out" &&
		"$SW" report "$(folder victims)" 2>> "$TMP/err" | grep -q "^    2     1  [0-9.]* / [0-9.]*  *[-+][0-9.]*% " &&
		python3 - "$(folder victims)" >> "$TMP/err" 2>&1 <<'EOF'
import csv, json, sys
d = sys.argv[1]
run = json.load(open(d + "/run.json"))
assert run["victim_pairs"] == [[0, 1]] and run["pairs"] == [[2, 3]], (run["victim_pairs"], run["pairs"])
vs = run["victim_samples"]
# loaded, alone and (cpu_control = auto: the 4 ranks share one kernel's
# cores) the CPU control round, once each per repetition
rounds = sorted((v["rep"], v["alone"], v.get("cpu", False)) for v in vs)
assert rounds == sorted((r, a, c) for r in range(5) for a, c in ((False, False), (True, False), (False, True))), rounds
for v in vs:
    # every round trip >= rank 1's 2 ms sleep: one-way >= 1 ms (histogram bins: 0.25%)
    assert v["hops"] >= 2 and v["seconds"] / v["hops"] >= 1.0e-3, v
    assert 0.995e-3 <= v["p50_s"] <= v["p99_s"], v
s = run["cells"][0]["summary"]["victims"]
assert s["loaded_reps"] == 5 and s["alone_reps"] == 5 and s["cpu_control_reps"] == 5, s
for part in ("cpu_inflation", "network_inflation"):
    assert s[part] is not None and s[part]["pct"] == s[part]["pct"], (part, s)
li = s["latency_inflation"]
assert abs(li["pct"] - (li["level_median"] / li["baseline_median"] - 1) * 100) < 1e-6, li
row = [r for r in csv.DictReader(l for l in open(d + "/summary.csv") if not l.startswith("#"))][0]
assert abs(float(row["victim_infl_pct"]) - li["pct"]) < 0.01 * abs(li["pct"]) + 0.01, (row["victim_infl_pct"], li)
EOF
	then ok "victims: pingpong beside the aggressors and alone, p50 >= the injected 1 ms, read back by report"
	else fail "victims beside aggressors" "$TMP/err"; tail -5 "$TMP/out"; fi
}

# Incast on 4 ranks: 1 and 2 senders (ranks 0, 2) into rank 1, timed;
# every sample row a sender with the receiver, nodes = senders + 1; a hop
# list with incast is refused before MPI starts work.
test_incast_four_ranks() {
	c=$(conf incast "pairs = 1, 2" "sizes = 64KiB" "patterns = incast" "sample_time = 30ms" "repetitions = 3")
	if timeout 120 $MPIEXEC -n 4 "$SW" run -c "$c" --no-plot > "$TMP/out" 2> "$TMP/err" &&
		check_folder "$(folder incast)" >> "$TMP/err" 2>&1 &&
		python3 - "$(folder incast)" >> "$TMP/err" 2>&1 <<'EOF'
import csv, json, sys
d = sys.argv[1]
run = json.load(open(d + "/run.json"))
for c in run["cells"]:
    assert c["pattern"] == "incast" and c["timed"] and c["hops"] == 0, c
    assert c["receiver"] == 1 and c["nodes"] == c["pairs"] + 1, c
rows = list(csv.DictReader(l for l in open(d + "/samples.csv") if not l.startswith("#")))
for r in rows:
    assert r["rank_b"] == "1" and int(r["rank_a"]) == 2 * int(r["pair"]), r
    assert int(r["nodes"]) == int(r["pairs"]) + 1 and int(r["hops"]) >= 1, r
secs = sorted(float(r["seconds"]) for r in rows if not r.get("missing"))
assert secs[len(secs) // 2] <= 1.2 * 0.030, secs
s = list(csv.DictReader(l for l in open(d + "/summary.csv") if not l.startswith("#")))
assert s[0]["receiver_drop_pct"] == "NaN" and s[1]["receiver_drop_pct"] != "NaN", s
EOF
	then ok "incast, 4 ranks: senders 0 and 2 into rank 1, timed samples, receiver drop in summary.csv"
	else fail "incast, 4 ranks" "$TMP/err"; fi
	grep -q "^incast 64KiB, timed: every sender 30 ms to one deadline, all to rank 1" "$TMP/out" &&
		grep -q "receiver drop" "$TMP/out" && ok "incast: report table" || fail "incast: report table" "$TMP/out"
	c=$(conf incast_hops "pairs = 1" "patterns = incast" "hops = 100")
	timeout 60 $MPIEXEC -n 2 "$SW" run -c "$c" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	if [ $rc = 2 ] && grep -q "incast_hops.conf:[0-9]*: incast is time-bounded: it needs hops = auto" "$TMP/err"; then
		ok "incast with a hop list: exit 2 naming the line"
	else fail "incast with a hop list: rc=$rc" "$TMP/err"; fi
}

# A slow pair in a level of 2 pairs: the run warns while it runs that it
# overran its estimate, and the report names the pair with its ratio and
# says that the slow-pair test needs 3 or more pairs (issue 27).
test_slow_pair_of_two() {
	# 500 hops of 3 ms at rank 3: ~1.5 s a sample at 2 pairs, against an
	# estimate of a few seconds (start-up included) that cannot know it
	c=$(conf slowtwo "pairs = 1, 2" "sizes = 8, 64, 512" "patterns = pingpong" "hops = 500" "repetitions = 3")
	SWSTRESS_FAULT_DELAY=3:3000 timeout 120 $MPIEXEC -n 4 "$SW" run -c "$c" --no-plot > "$TMP/out" 2> "$TMP/err"
	rc=$?
	if [ "$rc" = 0 ] && grep -q "swstress: warning: .* so far, more than 2x the estimate of about .*: a slow pair or port" "$TMP/err"
	then ok "slow pair of two: the overrun of the estimate warned while it ran"
	else fail "slow pair of two: no overrun warning (rc=$rc)" "$TMP/err"; fi
	# (the report wraps its prose at 80 columns: read it as one line)
	tr -s '\n ' '  ' < "$TMP/out" > "$TMP/out1"
	if grep -q "note: at 4 nodes pair 1 (ranks 2-3, [^)]*) is [0-9.]*x slower than the fastest pair" "$TMP/out1" &&
		grep -q "slow-pair test needs 3 or more" "$TMP/out1"
	then ok "slow pair of two: named with its ratio; the slow-pair test needs 3 or more pairs"
	else fail "slow pair of two: not named" "$TMP/out"; fi
}

# Time between levels (issue #26): every rank's speed wanders slowly
# (SWSTRESS_FAULT_WANDER: a sleep before every message from 50 ms rising
# towards 100 ms over the sweep), so two levels that differ only in when
# they ran are truly equal, up to a few % of CPU sharing on the 2 pairs
# against 1. Sequential runs level 0, then level 1, and must read the
# wander as a significant inflation; blocks measures both in every block
# and must not (CI within +-10%, against sequential's +20% or more), and
# its drift check must see the wander. "Not significant" on a null fails
# by chance at the test's level, so blocks runs at 99% confidence: at 95%
# the suite failed once on CI ([-2.9%, +6.7%], p 0.41, against the +-5%
# this test asked before).
test_wander_between_levels() {
	for d in sequential blocks; do
		k=""; [ "$d" = blocks ] && k="confidence = 0.99"
		c=$(conf "wander$d" "pairs = 1, 2" "sizes = 8" "patterns = pingpong" "hops = 4" "repetitions = 10" \
			"design = $d" "allow_shared_kernel = yes" ${k:+"$k"})
		SWSTRESS_FAULT_WANDER=100000:40 timeout 90 $MPIEXEC -n 4 "$SW" run -c "$c" --no-plot \
			> "$TMP/out-$d" 2> "$TMP/err" || { fail "wander: $d run" "$TMP/err"; return; }
	done
	if python3 - "$(folder wandersequential)" "$(folder wanderblocks)" > "$TMP/err" 2>&1 <<'EOF'
import csv, json, sys
seq, blk = (json.load(open(d + "/run.json")) for d in sys.argv[1:])
s = seq["cells"][1]["summary"]["latency_inflation"]
b = blk["cells"][1]["summary"]["latency_inflation"]
print("sequential", s, "\nblocks", b, "\ndrift", blk["drift"])
assert seq["design"] == "sequential" and seq["block_order"] == []
assert blk["design"] == "blocks" and len(blk["block_order"]) == 10
assert s["significant"] and s["lo"] > 5, "sequential should read the wander as load"
assert not b["significant"] and -10 < b["lo"] <= b["pct"] <= b["hi"] < 10, "blocks: the wander should cancel"
assert blk["drift"]["drifted"] and blk["drift"]["cells"][0]["pct"] > 10, "the trend over blocks"
rows = list(csv.DictReader(l for l in open(sys.argv[2] + "/samples.csv") if not l.startswith("#")))
assert all(r["block"] == r["rep"] for r in rows), "each sample's block is its repetition"
EOF
	then ok "a wandering speed: sequential calls equal levels different, blocks does not and sees the drift"
	else fail "wander between levels" "$TMP/err"; fi
}

# known_rate NAME PATTERN SIZE WINDOW MAX WHAT: a 1-s timed flow with rank 0
# sleeping 100 ms before each batch it sends reads at most MAX messages/s in
# every sample, a median of at least 40, over a window that ends at the
# deadline (median 0.9-1.02 s): the messages in flight at the deadline are
# counted in part.
known_rate() {
	kr_n=$1 kr_p=$2 kr_s=$3 kr_w=$4 kr_max=$5 kr_what=$6
	shift 6
	c=$(conf "$kr_n" "pairs = 1" "sizes = $kr_s" "patterns = $kr_p" "sample_time = 1s" "window = $kr_w" \
		"repetitions = 3" "$@")
	set -- "$kr_n" "$kr_p" "$kr_s" "$kr_w" "$kr_max" "$kr_what"
	if SWSTRESS_FAULT_DELAY=0:100000 timeout 60 $MPIEXEC -n 2 "$SW" run -c "$c" --no-plot > "$TMP/out" 2> "$TMP/err" &&
		check_folder "$(folder "$1")" >> "$TMP/err" 2>&1 &&
		python3 - "$(folder "$1")" "$5" >> "$TMP/err" 2>&1 <<'EOF'
import csv, statistics, sys
rows = [r for r in csv.DictReader(l for l in open(sys.argv[1] + "/samples.csv") if not l.startswith("#"))]
rate = [int(r["hops"]) / float(r["seconds"]) for r in rows if not r.get("missing")]
secs = [float(r["seconds"]) for r in rows if not r.get("missing")]
assert len(rows) == 3 and max(rate) <= float(sys.argv[2]) and statistics.median(rate) >= 40, rate
assert 0.9 <= statistics.median(secs) <= 1.02, secs
EOF
	then ok "$6, over a window that ends at the deadline"
	else fail "known-rate timed $2 $3 B" "$TMP/err"; fi
}

# Timed streams (issue 31), at most 80 messages a second reach rank 1 (less
# by the sleep's overshoot and, on a busy machine, each side's wait for a
# core): at most 80.8 with 1% for the clock. 1 KiB goes the ring flow (the
# sender sleeps once a round of its ring of window sends, window 8); 8 B a
# half window at a time (a sleep before each half of 8, window 16).
test_known_rate_flow() {
	known_rate rate stream 1KiB 8 80.8 "a timed stream (ring) of known rate (8 messages per 100 ms) reads it"
	known_rate rate8 stream 8 16 80.8 "a timed stream (halves) of known rate (8 messages per 100 ms) reads it"
}

# Timed bidir, a half window at a time, polled (yield = yes) and in
# blocking waits (yield = no, 8 B and 1 KiB): rank 0 sleeps before each half of 8
# messages, so it sends at most 80 a second; rank 1 sends a half only once
# rank 0's half before last has come, at most 2 halves (16 messages) more
# in the 1-s window: the mean of the two ways is at most 88 a second (88.9).
test_known_rate_bidir() {
	known_rate ratebi bidir 8 16 88.9 "a timed bidir (polled halves) of known rate (rank 0: 8 messages per 100 ms) reads at most 88 a second" \
		"yield = yes"
	known_rate ratebib bidir 8 16 88.9 "a timed bidir (blocking halves) of known rate (rank 0: 8 messages per 100 ms) reads at most 88 a second" \
		"yield = no"
	known_rate ratebik bidir 1KiB 16 88.9 "a timed bidir of 1 KiB (blocking halves) of known rate reads at most 88 a second" \
		"yield = no"
}

# The estimate a newcomer reads (issue #27): plan's time for configs/quick.conf
# on 4 ranks of this machine (plan --cores: the ranks share its cores, as the
# run finds out itself), start-up, calibration and charts included, against
# the wall time of that run (mpiexec start to exit): within 0.5x to 2x.
test_estimate_within_2x() {
	cores=$(nproc)
	est=$("$SW" plan -c configs/quick.conf -n 4 --cores "$cores" 2>&1 | sed -n 's/^estimated time: \([0-9.]*\) s.*/\1/p')
	[ -n "$est" ] || { fail "estimate: plan printed no estimated time"; return; }
	t0=$(date +%s.%N)
	timeout 300 $MPIEXEC -n 4 "$SW" run -c configs/quick.conf "output=$TMP/results" label=estimate \
		> "$TMP/out" 2> "$TMP/err" || { fail "estimate: the quick.conf run failed" "$TMP/err"; return; }
	wall=$(echo "$(date +%s.%N) $t0" | awk '{printf "%.1f", $1 - $2}')
	said=$(sed -n 's/.* cells, about \([0-9]*\) s;.*/\1/p' "$TMP/err")
	[ "$said" = "$est" ] || fail "estimate: the run said about '$said' s, plan --cores $cores $est s" "$TMP/err"
	ratio=$(echo "$wall $est" | awk '{printf "%.2f", $1 / $2}')
	if echo "$ratio" | awk '{exit !($1 >= 0.5 && $1 <= 2)}'; then
		ok "estimate: quick.conf on 4 ranks, $cores cores took $wall s against plan's $est s ($ratio x, within 0.5-2x)"
	else fail "estimate: quick.conf on 4 ranks, $cores cores took $wall s against plan's $est s ($ratio x, not within 0.5-2x; load: $(cut -d' ' -f1-3 /proc/loadavg))"; fi
}

# ranks_per_node = 2 on 4 ranks: nodes {0,1} and {2,3}, one pair of nodes
# (named 0-2) whose sample is its 2 rank pairs' messages together: exactly
# 2 x hops of an untimed stream; a timed one all to one deadline. The pair
# of nodes on one host is refused without allow_shared_node, naming ranks
# of the two nodes, not of one.
test_ranks_per_node() {
	c=$(conf rpn "pairs = 1" "sizes = 8, 64KiB" "patterns = stream, bidir" "ranks_per_node = 2" "repetitions = 3")
	if timeout 60 $MPIEXEC -n 4 "$SW" run -c "$c" hops=1000 timed=no > "$TMP/out" 2> "$TMP/err" &&
		check_folder "$(folder rpn)" >> "$TMP/err" 2>&1 &&
		python3 - "$(folder rpn)" >> "$TMP/err" 2>&1 <<'EOF2'
import csv, json, sys
run = json.load(open(sys.argv[1] + "/run.json"))
assert run["pairs"] == [[0, 2]], run["pairs"]
assert [l["pairs"] for l in run["levels"]] == [1]
rows = list(csv.DictReader(l for l in open(sys.argv[1] + "/samples.csv") if not l.startswith("#")))
assert rows and all(r["hops"] == "2000" for r in rows), {r["hops"] for r in rows}
assert all((r["rank_a"], r["rank_b"]) == ("0", "2") for r in rows)
EOF2
	then ok "ranks_per_node = 2: one pair of nodes 0-2, its sample the messages of both rank pairs (2 x hops)"
	else fail "ranks_per_node = 2, untimed" "$TMP/err"; fi
	c=$(conf rpnt "pairs = 1" "sizes = 8" "patterns = stream" "ranks_per_node = 2" "repetitions = 3" "sample_time = 20ms")
	if timeout 60 $MPIEXEC -n 4 "$SW" run -c "$c" > "$TMP/out" 2> "$TMP/err" &&
		check_folder "$(folder rpnt)" >> "$TMP/err" 2>&1; then
		ok "ranks_per_node = 2, timed: complete"
	else fail "ranks_per_node = 2, timed" "$TMP/err"; fi
	c=$(conf rpns "pairs = 1" "patterns = stream" "ranks_per_node = 2" "allow_shared_node = no")
	timeout 30 $MPIEXEC -n 4 "$SW" run -c "$c" > "$TMP/out" 2> "$TMP/err"
	rc=$?
	if [ "$rc" = 2 ] && grep -q "ranks 0 and 2 share host .*place ranks_per_node ranks per node (mpiexec -ppn 2)" \
		"$TMP/err" && [ -z "$(folder rpns)" ]; then
		ok "ranks_per_node = 2: two nodes on one host refused, naming ranks 0 and 2"
	else fail "ranks_per_node = 2 on one host: rc=$rc" "$TMP/err"; fi
}

# The fabric map (schedule = map): 7 ranks (odd: one idle each round), all
# rounds at once, and 6 ranks 2 pairs a step. Every unordered pair of ranks
# once in each block and cell, no rank twice in a step, the step's size,
# its overlap recorded (summary.csv; how well the pairs of a step met
# their one deadline is the fabric's to check: 5-ms windows on 2 loaded
# cores do not), the map in run.json, and the folder loads back (report).
test_map_every_pair_once() {
	for m in "7 all" "6 2"; do
		set -- $m
		c=$(conf "map$1" "patterns = stream, pingpong" "sizes = 1KiB" "sample_time = 5ms" "repetitions = 2" \
			"map_concurrency = $2" "allow_shared_kernel = yes")
		timeout 120 $MPIEXEC -n "$1" "$SW" map -c "$c" --no-plot --no-history > "$TMP/out" 2> "$TMP/err" ||
			{ fail "map of $1 ranks ran" "$TMP/err"; return; }
		"$SW" report "$(folder "map$1")" > "$TMP/report" 2>> "$TMP/err" || { fail "map of $1 ranks: report loads it" "$TMP/err"; return; }
		python3 - "$(folder "map$1")" "$1" "$2" > "$TMP/err" 2>&1 <<'EOF' || { fail "map of $1 ranks, $2 pairs a step" "$TMP/err"; return; }
import csv, itertools, json, sys
d, n, k = sys.argv[1], int(sys.argv[2]), sys.argv[3]
run = json.load(open(d + "/run.json"))
m = run["map"]
assert m["pass"] == (n if n % 2 else n - 1) and m["rounds"] == list(range(m["pass"])), m
k = n // 2 if k == "all" else int(k)
assert m["concurrency"] == k and len(run["levels"]) == m["pass"] * -(-(n // 2) // k), (m, len(run["levels"]))
rows = [r for r in csv.DictReader(l for l in open(d + "/samples.csv") if not l.startswith("#"))]
want = {frozenset(p) for p in itertools.combinations(range(n), 2)}
for b in ("0", "1"):
    for pat in ("stream", "pingpong"):
        got = [frozenset((int(r["rank_a"]), int(r["rank_b"]))) for r in rows if r["block"] == b and r["pattern"] == pat]
        assert len(got) == len(want) and set(got) == want, (b, pat, len(got))
steps = {}
for r in rows:
    steps.setdefault((r["cell"], r["block"]), []).append(r)
for s in steps.values():
    ranks = [int(r["rank_a"]) for r in s] + [int(r["rank_b"]) for r in s]
    assert len(ranks) == len(set(ranks)) and len(s) <= k, s
    lv = run["levels"][int(s[0]["level"])]
    assert all(int(r["rank_a"]) < int(r["rank_b"]) for r in s) and lv["pairs"] == len(s), (lv, len(s))
ov = [float(r["overlap"]) for r in csv.DictReader(l for l in open(d + "/summary.csv") if not l.startswith("#"))]
assert len(ov) == len(run["cells"]) and all(0 <= x <= 1 for x in ov), ov
EOF
	done
	ok "the map: every pair once a block at 7 ranks (a bye) and 6 ranks in steps of 2, overlap recorded, report loads it"
}

# check on a tiny map (4 ranks): a map baseline, then check against it:
# the Nagios line names map elements and the Prometheus file has a gauge
# per host; a sweep baseline is refused with one UNKNOWN line.
test_check_map() {
	c=$(conf mbase "schedule = map" "patterns = stream" "sizes = 16KiB" "sample_time = 5ms" "repetitions = 5" \
		"allow_shared_kernel = yes")
	timeout 120 $MPIEXEC -n 4 "$SW" map -c "$c" --no-plot --no-history > /dev/null 2> "$TMP/err"
	base=$(folder mbase)
	[ -n "$base" ] || { fail "check on a map: the baseline map" "$TMP/err"; return; }
	timeout 120 $MPIEXEC -n 4 "$SW" check -c "$c" label=mcheck --baseline "$base" --no-history --prom "$TMP/map.prom" \
		> "$TMP/out" 2> "$TMP/err"
	rc=$?
	if [ "$rc" -le 2 ] && grep -Eq "^SWSTRESS (OK|WARNING|CRITICAL) - .*(element|map claim).*\|" "$TMP/out" &&
		grep -q "^swstress_check_status $rc$" "$TMP/map.prom" &&
		[ "$(grep -c '^swstress_cell_status{.*element="host",host=' "$TMP/map.prom")" = 4 ]; then
		ok "check on a map: Nagios line over the map's elements, exit $rc, a Prometheus gauge per host"
	else fail "check on a map: rc=$rc" "$TMP/out"; fi
	sweep=$(folder hbase)
	[ -n "$sweep" ] || { skip "check on a map against a sweep" "no sweep baseline (test_check did not run)"; return; }
	timeout 120 $MPIEXEC -n 4 "$SW" check -c "$c" label=mmixed --baseline "$sweep" --no-history > "$TMP/out" 2> "$TMP/err"
	rc=$?
	if [ "$rc" = 3 ] && [ "$(wc -l < "$TMP/out")" = 1 ] && grep -q "is a fabric map and baseline .* a sweep" "$TMP/out"; then
		ok "check on a map against a sweep baseline: one UNKNOWN line, exit 3"
	else fail "check on a map against a sweep: rc=$rc" "$TMP/out"; fi
}

tests="${*:-test_two_ranks_complete test_four_ranks_matches_config test_eight_ranks_auto_hops
test_bad_config_exits_2_promptly test_shared_node_refused test_output_not_writable
test_stalled_rank_watchdog test_classic_format test_report_reanalysis test_slow_rank_is_suspect
test_isolate_names_the_slow_host_alone test_check test_long_cell_is_not_stuck test_floor_and_drift
test_rank0_stalled test_victims_beside_aggressors test_incast_four_ranks test_stall_in_sample
test_blocking_waits test_blocking_waits_stall test_slow_pair_of_two test_wander_between_levels
test_known_rate_flow test_known_rate_bidir test_ranks_per_node
test_map_every_pair_once test_check_map test_estimate_within_2x}"
for t in $tests; do $t; done
t_end
