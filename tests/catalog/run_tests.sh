#!/bin/sh
# The switch catalog (make catalog-test): swstress publish into SQLite and
# into a real PostgreSQL server that this script starts (initdb into a
# temporary folder, pg_ctl on a Unix socket only, stopped at the end), and
# swstress site loaded page by page in headless Chromium
# (tests/catalog/check_site.py). Runs with a known truth come from
# tests/catalog/make_runs.py: switch Acme does not degrade, Bolt loses 30%.
#
# Debian packages (postgresql, chromium, python3-websocket, python3-pil)
# are installed when running as root; otherwise the parts that need them
# print "SKIP - what: why" and are counted as skipped. Prints
# "catalog: N passed, N failed, N skipped" (tests/lib.sh); exit 1 on a failure.
cd "$(dirname "$0")/../.." || exit 2
. tests/lib.sh
t_begin catalog
ROOT=$PWD
SW=$ROOT/build/swstress
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
t_tmpdir catalog
T=$T_TMP
chmod 755 "$T"
PGBIN= PGUP=

t_cleanup() {
	if [ -n "$PGUP" ]; then as_pg "$PGBIN/pg_ctl" -D "$T/pg/data" -m fast -w stop > /dev/null 2>&1; fi
}

# Install missing Debian packages when root. 0 when all are there.
need() {
	missing=
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2> /dev/null | grep -q "ok installed" || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	[ "$(id -u)" = 0 ] || return 1
	echo "catalog tests: installing$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	# shellcheck disable=SC2086
	apt-get -o DPkg::Lock::Timeout=1200 install -y -q --no-install-recommends $missing > "$T/apt.log" 2>&1 ||
		{ apt-get -o DPkg::Lock::Timeout=1200 update -q > /dev/null 2>&1 &&
		  apt-get -o DPkg::Lock::Timeout=1200 install -y -q --no-install-recommends $missing > "$T/apt.log" 2>&1; }
}

# --- runs with a known truth, and broken ones ---
R=$T/runs
mk() { "$PY" tests/catalog/make_runs.py "$R" "$@" > /dev/null || t_bail "make_runs.py $*"; }
mk acme-20261130-090000 Acme "Fabric 9000" 0 3
mk acme-20261201-100000 Acme "Fabric 9000" 0 1
mk bolt-20261201-110000 'Bolt <Networks>' 'X&Y "32" <script>alert(1)</script>' 30 2
mk boom-20261201-120000 Boom B1 10 4
for i in 1 2 3 4 5 6 7 8; do mk conc-20261202-00000$i Conc C 5 $((10 + i)); done
mk late-20261201-130000 Late L1 0 5
mk nomodel-20261201-130000 Nomodel "" 0 5
mk bad-20261201-130000 Bad B 0 5
TIMED=1 mk tick-20261201-140000 Tick T1 10 6   # timed stream cells (hops auto)
SHARED=1 mk one-20261201-150000 One O1 0 7     # every rank on one host
mkdir -p "$R/other" && cp -r "$R/bolt-20261201-110000" "$R/other/"
"$PY" - "$R" << 'EOF'
import json, sys
r = sys.argv[1]
j = json.load(open(r + "/late-20261201-130000/run.json"))
j["complete"], j["failure"] = False, "watchdog: pair 2 stalled"
json.dump(j, open(r + "/late-20261201-130000/run.json", "w"))
with open(r + "/bad-20261201-130000/samples.csv", "a") as f:
    f.write("0,0,2,1,pingpong,8,1000,0,0,0,1,node01,node02,x,y,z,1,1\n")
j = json.load(open(r + "/other/bolt-20261201-110000/run.json"))          # same name, another run
j["command_line"] += " --label other"
json.dump(j, open(r + "/other/bolt-20261201-110000/run.json", "w"))
EOF
# issue #30: a map run of the emulated 4 x 4 tree (tests/fabric/map.sh
# case b: swsN05's port slowed, the leaves given by [topology]) as the
# run wrote it; a copy with a cut links.csv, one with a changed hosts.csv,
# and one whose slow host has a hostile name (markup; run.json refuses a
# bidi control, so U+202E is planted in the store below), its map files
# written again by report (groups then inferred).
MAPRUN=slowhost-20261202-164036 MAP=$R/map/slowhost-20261202-164036
mkdir -p "$R/map" "$R/cut" "$R/chg" && cp -r "tests/data/maps/$MAPRUN" "$R/map/" &&
	cp -r "$MAP" "$R/cut/" && cp -r "$MAP" "$R/chg/" || t_bail "map fixture"
head -60 "$MAP/links.csv" > "$R/cut/$MAPRUN/links.csv"
sed -i 's/^\(swsN05,.*\),1$/\1,0/' "$R/chg/$MAPRUN/hosts.csv"
EVIL='sw<script>alert(5)</script>N05'
mkdir -p "$R/evil-20261202-164036" &&
	sed -e "s|$MAPRUN|evil-20261202-164036|g" -e "s|swsN05|$EVIL|g" "$MAP/run.json" > "$R/evil-20261202-164036/run.json" &&
	sed -e "s|$MAPRUN|evil-20261202-164036|g" -e "s|swsN05|$EVIL|g" "$MAP/samples.csv" > "$R/evil-20261202-164036/samples.csv" &&
	"$SW" report "$R/evil-20261202-164036" > /dev/null || t_bail "the hostile map run"
# A map run of two sizes (tests/catalog/make_map2.py): the slow-uplink
# map of the same tree as its stream 16 KiB, the slow-host map as its
# 64 KiB, every size's map files written by report; and a copy whose
# 64 KiB links.csv is cut.
MIXRUN=mixed-20261203-120000 MIX=$R/map2/mixed-20261203-120000
"$PY" tests/catalog/make_map2.py "tests/data/maps/$MAPRUN" tests/data/maps/slowuplink-20261203-103006 "$R/map2" \
	$MIXRUN > /dev/null && "$SW" report "$MIX" > /dev/null && mkdir -p "$R/cut2" && cp -r "$MIX" "$R/cut2/" &&
	head -60 "$MIX/links-stream-65536.csv" > "$R/cut2/$MIXRUN/links-stream-65536.csv" || t_bail "the map of two sizes"
CONC="$R/conc-20261202-000001 $R/conc-20261202-000002 $R/conc-20261202-000003 $R/conc-20261202-000004
$R/conc-20261202-000005 $R/conc-20261202-000006 $R/conc-20261202-000007 $R/conc-20261202-000008"

# count STORE SQL: one number from the store (sqlite3 or psql)
count() {
	case $1 in
	postgresql://*) psql_q "$2" ;;
	*) "$PY" -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])' "$1" "$2" ;;
	esac
}

# refused WHAT STORE RESULT TEXT: publish fails with exit 1 and TEXT in its message
refused() {
	"$SW" publish "$3" --store "$2" > "$T/out" 2> "$T/err"
	rc=$?
	if [ $rc = 1 ] && grep -q "refused: .*$4" "$T/err"; then ok "$1"; else fail "$1 (exit $rc: $(cat "$T/err"))"; fi
}

# The tests every store must pass: STORE NAME TRIGGER_SQL
store_tests() {
	S=$1 N=$2
	"$SW" publish "$R/acme-20261130-090000" "$R/acme-20261201-100000" "$R/bolt-20261201-110000" \
		--store "$S" > "$T/out" 2> "$T/err"
	check "$N: publish 3 runs (exit 0)" [ $? = 0 ]
	check "$N: 3 runs, 36 cells, 6 files stored" \
		[ "$(count "$S" "SELECT count(*) FROM runs")/$(count "$S" "SELECT count(*) FROM cells")/$(count "$S" "SELECT count(*) FROM run_files")" = 3/36/6 ]
	check "$N: schema versions 1 and 2 recorded" [ "$(count "$S" "SELECT count(*) FROM schema_migrations WHERE version IN (1, 2)")" = 2 ]
	"$SW" publish "$R/bolt-20261201-110000" --store "$S" > "$T/out" 2> "$T/err"
	check "$N: the same run again: exit 0, 'already in the store', stored once" \
		[ $? = 0 -a "$(grep -c 'already in the store' "$T/out")" = 1 -a "$(count "$S" "SELECT count(*) FROM runs")" = 3 ]
	refused "$N: a different run under a stored name is refused" "$S" "$R/other/bolt-20261201-110000" "a different run named 'bolt-20261201-110000'"
	refused "$N: an incomplete run is refused with its failure" "$S" "$R/late-20261201-130000" "did not finish (watchdog: pair 2 stalled)"
	refused "$N: a run without a switch model is refused" "$S" "$R/nomodel-20261201-130000" "no switch model"
	refused "$N: a corrupt samples.csv is refused, naming file and line" "$S" "$R/bad-20261201-130000" "samples.csv:"
	refused "$N: a missing folder is refused" "$S" "$R/none" "No such file"
	check "$N: nothing of the refused runs is stored" [ "$(count "$S" "SELECT count(*) FROM runs")" = 3 ]
	# Nothing half-written: a failure in the middle of the transaction
	# (a trigger on the 6th cell) leaves no trace of the run.
	$3
	"$SW" publish "$R/boom-20261201-120000" --store "$S" > "$T/out" 2> "$T/err"
	rc=$?
	grep -q "injected failure" "$T/err"
	check "$N: a store failure mid-publish exits 1 with the store's message" [ $rc = 1 -a $? = 0 ]
	check "$N: ... and leaves no row of that run (runs, run_files, cells)" [ "$(count "$S" "SELECT count(*) FROM runs WHERE name = 'boom-20261201-120000'")$(count "$S" "SELECT count(*) FROM run_files WHERE run = 'boom-20261201-120000'")$(count "$S" "SELECT count(*) FROM cells WHERE run = 'boom-20261201-120000'")" = 000 ]
	# Four publishers at once, the same 8 runs each, in different orders.
	# shellcheck disable=SC2086
	for p in 1 2 3 4; do
		set -- $CONC
		case $p in 2) set -- $(printf '%s\n' "$@" | sort -r) ;; 3) set -- $(printf '%s\n' "$@" | sort -t- -k3) ;; esac
		"$SW" publish "$@" --store "$S" > "$T/pub$p.out" 2> "$T/pub$p.err" &
	done
	wait
	check "$N: 4 concurrent publishers all succeed" [ -z "$(grep -L '0 refused or failed' "$T"/pub?.err)" ]
	check "$N: ... each of the 8 runs published exactly once, 24 times found already there" \
		[ "$(cat "$T"/pub?.out | grep -c ': published')/$(cat "$T"/pub?.out | grep -c 'already in the store')" = 8/24 ]
	check "$N: ... 8 runs with all 96 cells and 16 files in the store" \
		[ "$(count "$S" "SELECT count(*) FROM runs WHERE name LIKE 'conc-%'")/$(count "$S" "SELECT count(*) FROM cells WHERE run LIKE 'conc-%'")/$(count "$S" "SELECT count(*) FROM run_files WHERE run LIKE 'conc-%'")" = 8/96/16 ]
	"$SW" publish "$R/tick-20261201-140000" --store "$S" > "$T/out" 2> "$T/err"
	check "$N: a run with timed cells (exit 0, stored with hops 0)" \
		[ $? = 0 -a "$(count "$S" "SELECT count(*) FROM cells WHERE run = 'tick-20261201-140000' AND hops = 0")" = 6 ]
	# issue #27: ranks on one host measured the host, not a switch
	refused "$N: a run whose ranks shared a host is refused" "$S" "$R/one-20261201-150000" \
		"ranks 0 and 1 shared a host (allow_shared_node = yes): the run measured the host, not a switch"
	"$SW" publish "$R/one-20261201-150000" --shared-node --store "$S" > "$T/out" 2> "$T/err"
	check "$N: ... published with --shared-node, stored as shared" \
		[ $? = 0 -a "$(count "$S" "SELECT shared_node FROM runs WHERE name = 'one-20261201-150000'")" = 1 ]
	"$SW" publish "$R/nomodel-20261201-130000" model="M 1" firmware=1.2.3 --store "$S" > "$T/out" 2> "$T/err"
	check "$N: a run without a model published with model=: stored, what was supplied recorded" \
		[ $? = 0 -a "$(count "$S" "SELECT model || '/' || firmware || '/' || supplied || '/' || shared_node FROM runs WHERE name = 'nomodel-20261201-130000'")" = "M 1/1.2.3/model/0" ]
	# issue #30: the map run
	refused "$N: a map run with a cut links.csv is refused, naming file and line" "$S" "$R/cut/$MAPRUN" \
		"cut/$MAPRUN/links.csv:61: the file ends here, but run.json gives more rows"
	refused "$N: a map run with a changed hosts.csv (swsN05 not flagged) is refused, naming the line" "$S" \
		"$R/chg/$MAPRUN" "chg/$MAPRUN/hosts.csv:8: not what run.json gives"
	check "$N: ... nothing of them stored" [ "$(count "$S" "SELECT count(*) FROM maps")$(count "$S" "SELECT count(*) FROM runs WHERE name = '$MAPRUN'")" = 00 ]
	"$SW" publish "$MAP" "$R/evil-20261202-164036" --store "$S" > "$T/out" 2> "$T/err"
	check "$N: two map runs published (exit 0)" [ $? = 0 ]
	check "$N: ... 16 hosts, 120 links, 10 uplinks and boundaries and 1 claim of the tree stored" \
		[ "$(count "$S" "SELECT count(*) FROM map_hosts WHERE run = '$MAPRUN'")/$(count "$S" "SELECT count(*) FROM map_links WHERE run = '$MAPRUN'")/$(count "$S" "SELECT count(*) FROM map_groups WHERE run = '$MAPRUN'")/$(count "$S" "SELECT count(*) FROM map_claims WHERE run = '$MAPRUN'")" = 16/120/10/1 ]
	check "$N: ... the known truth: swsN05 alone flagged, its claim a host claim, the 4 leaves as given" \
		[ "$(count "$S" "SELECT count(*) FROM map_hosts WHERE flagged = 1 AND run = '$MAPRUN'")/$(count "$S" "SELECT host FROM map_hosts WHERE flagged = 1 AND run = '$MAPRUN'")/$(count "$S" "SELECT kind || ' ' || element FROM map_claims WHERE run = '$MAPRUN'")/$(count "$S" "SELECT count(DISTINCT group_name) FROM map_hosts WHERE run = '$MAPRUN' AND group_name LIKE 'leaf_'")" = "1/swsN05/host host swsN05/4" ]
	check "$N: ... the hostile host name stored as it is, flagged" \
		[ "$(count "$S" "SELECT host FROM map_hosts WHERE flagged = 1 AND run = 'evil-20261202-164036'")" = "$EVIL" ]
	# the map of two sizes: every size checked, stored and true to its own fault
	refused "$N: a map of two sizes whose 64 KiB links.csv is cut is refused, naming that file and line" "$S" \
		"$R/cut2/$MIXRUN" "cut2/$MIXRUN/links-stream-65536.csv:61: the file ends here"
	"$SW" publish "$MIX" --store "$S" > "$T/out" 2> "$T/err"
	check "$N: a map run of two sizes published (exit 0)" [ $? = 0 ]
	mq() { count "$S" "SELECT $1 FROM $2 WHERE run = '$MIXRUN' AND pattern = 'stream' AND size_bytes = $3"; }
	check "$N: ... both sizes stored: 16 hosts, 120 links, 10 uplinks and boundaries each; their 6 map files" \
		[ "$(count "$S" "SELECT count(*) FROM maps WHERE run = '$MIXRUN'")/$(mq 'count(*)' map_hosts 16384)/$(mq 'count(*)' map_links 16384)/$(mq 'count(*)' map_groups 16384)/$(mq 'count(*)' map_hosts 65536)/$(mq 'count(*)' map_links 65536)/$(mq 'count(*)' map_groups 65536)/$(count "$S" "SELECT count(*) FROM run_files WHERE run = '$MIXRUN' AND file LIKE '%.csv' AND file <> 'samples.csv'")" = 2/16/120/10/16/120/10/6 ]
	check "$N: ... each size its own truth: 16 KiB leafC's uplink, no host; 64 KiB swsN05 alone" \
		[ "$(mq "kind || ' ' || element" map_claims 16384)/$(mq 'sum(flagged)' map_hosts 16384)/$(mq "kind || ' ' || element" map_claims 65536)/$(mq 'sum(flagged)' map_hosts 65536)/$(mq 'min(host)' map_hosts "65536 AND flagged = 1")" = "uplink uplink of leafC/0/host host swsN05/1/swsN05" ]
	"$SW" publish "$R/acme-20261201-100000" model=X --store "$S" > "$T/out" 2> "$T/err"
	rc=$?
	grep -q "refused: .*the run's \[switch\] model is 'Fabric 9000', not 'X': model= only fills in" "$T/err"
	check "$N: model= on a run that has another model: refused (exit 1), the run's model named" [ $rc = 1 -a $? = 0 ]
	"$SW" publish "$R/acme-20261201-100000" sizes=8 --store "$S" > "$T/out" 2> "$T/err"
	check "$N: publish with a key other than vendor=, model=, firmware=: usage, exit 2" [ $? = 2 ]
}

# ---------------------------------------------------------------- SQLite
LITE=$T/catalog.sqlite
sql() { "$PY" -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()' "$@"; }
sqlite_boom() {
	sql "$LITE" "CREATE TRIGGER boom BEFORE INSERT ON cells WHEN NEW.run = 'boom-20261201-120000' AND NEW.cell = 5 BEGIN SELECT RAISE(ABORT, 'injected failure'); END"
}
store_tests "$LITE" sqlite sqlite_boom
"$SW" site "$T/none.sqlite" "$T/site0" > /dev/null 2> "$T/err"
check "site: a missing SQLite store exits 1 and is not created" [ $? = 1 -a ! -e "$T/none.sqlite" ]
cp "$LITE" "$T/new.sqlite" && sql "$T/new.sqlite" "INSERT INTO schema_migrations VALUES (99, 'later')"
"$SW" publish "$R/acme-20261201-100000" --store "$T/new.sqlite" > /dev/null 2> "$T/err"
rc=$?
grep -q "schema version 99 is newer" "$T/err"
check "a store of a newer schema is refused" [ $rc = 1 -a $? = 0 ]
"$SW" publish > /dev/null 2>&1
check "publish without a result: usage, exit 2" [ $? = 2 ]
"$SW" site "$LITE" > /dev/null 2>&1
check "site without OUTDIR: usage, exit 2" [ $? = 2 ]
"$SW" site "$LITE" "$T/site" > /dev/null 2> "$T/err"
check "site from SQLite (exit 0)" [ $? = 0 ]
check "site: every text from the store is escaped (no <script> from a model name)" \
	sh -c '! grep -rq --include="*.html" "<script>alert" "$1" && grep -q "&lt;script&gt;alert(1)&lt;/script&gt;" "$1/index.html"' _ "$T/site"
# Format directives, markup, quotes and newlines in a switch's names are
# text: shown literally (escaped for HTML, a line break as \x0A), never
# read as a printf format (%s, %n), markup or a line of their own. The
# newlines are planted in the store (publish refuses control characters).
mk fmt-20261201-150000 'V %s%n' 'M %s %n %x %% <script>alert("q")</script> '"'a'" 0 7
FMT=$T/fmt.sqlite
"$SW" publish "$R/fmt-20261201-150000" --store "$FMT" > /dev/null 2> "$T/err" &&
	sql "$FMT" "UPDATE runs SET model = model || char(10) || 'SWSTRESS OK %s', firmware = '1.%n' || char(13) || char(10) || '<b>2</b>'" &&
	"$SW" site "$FMT" "$T/fmt-site" > /dev/null 2>> "$T/err"
check "site: a switch named with %s, %n, <script>, quotes and newlines (exit 0)" [ $? = 0 ]
"$PY" - "$T/fmt-site" << 'EOF' > "$T/fmt" 2>&1
import glob, sys
want_vendor = 'V %s%n'
want_model = 'M %s %n %x %% &lt;script&gt;alert(&quot;q&quot;)&lt;/script&gt; &#39;a&#39;\\x0ASWSTRESS OK %s'
want_fw = '1.%n\\x0D\\x0A&lt;b&gt;2&lt;/b&gt;'
index = open(sys.argv[1] + "/index.html").read()
(page,) = glob.glob(sys.argv[1] + "/switch/*.html")
sw = open(page).read()
assert "<h1>%s %s</h1>" % (want_vendor, want_model) in sw, "h1"
assert '<td class="wrap">%s</td>' % want_model in sw, "model row"
assert '<td class="wrap">%s</td>' % want_fw in sw, "firmware row"
assert ">%s %s</a>" % (want_vendor, want_model) in index, "index row"
for text in (index, sw):
    assert "<script>alert" not in text and "<b>2</b>" not in text, "raw markup"
    assert "\nSWSTRESS OK" not in text and "\r" not in text, "a raw line break from the store"
print("shown literally in index.html and %s" % page.rsplit("/", 1)[1])
EOF
rc=$?
check "site: ... every name shown literally, escaped, no format read ($(tail -1 "$T/fmt"))" [ $rc = 0 ]
cp "$LITE" "$T/evil.sqlite" && for c in "map_hosts SET host" "map_links SET host_a" "map_links SET host_b" "map_claims SET evidence"; do
	sql "$T/evil.sqlite" "UPDATE $c = replace(${c##* }, 'N05', char(8238) || 'N05') WHERE run = 'evil-20261202-164036'" || break
done && "$SW" site "$T/evil.sqlite" "$T/evil-site" > /dev/null 2> "$T/err"
check "site: a store with U+202E planted in the hostile host's name (exit 0)" [ $? = 0 ]
"$PY" - "$T/site" "$T/evil-site" << 'EOF' > "$T/map" 2>&1
import glob, re, sys
site, planted = sys.argv[1], sys.argv[2]
tree = open(site + "/maps/slowhost-20261202-164036.html", encoding="utf-8").read()
# the claim, as the report words it, and the slow host marked in the table and on the heat map
assert re.search(r'<li data-claim="host"><strong>SLOW</strong>: host swsN05: 0\.2\d*x \[[^]]*\] its group(&#39;|&#x27;|\')s typical host with its 15 partners', tree), "claim"
assert '<tr data-host="swsN05" data-set="stream/65536"><td class="wrap">swsN05</td>' in tree and '<td class="sig">SLOW</td>' in tree, "table"
assert tree.count('class="sig">SLOW') == 1, "one flagged host"
assert 'font-weight="bold">swsN05 \u25b6</text>' in tree, "heat map label"
assert "1 flagged host outlined in red" in tree, "heat map description"
sw = open(site + "/switch/swstress-emulated-tree-4x4.html", encoding="utf-8").read()
assert '<a href="../maps/slowhost-20261202-164036.html">' in sw, "switch page lists the map"
# the index's row of the map's switch: its "-" says why (a map has no
# full load) and links the map, in both columns; no other row says so
index = open(site + "/index.html", encoding="utf-8").read()
row = re.search(r'<tr><th scope="row"><a href="switch/swstress-emulated-tree-4x4\.html">.*?</tr>', index).group(0)
why = re.findall(r'<td class="num" title="a fabric map measures every pair of hosts, not load levels: it has no '
                 r'full load; its answer is on its page">-<br><small><a href="maps/((?:slowhost|evil)-20261202-164036)'
                 r'\.html">fabric map</a>: no load levels</small></td>', row)
assert len(why) == 2 and why[0] == why[1], "the map row's drop and inflation: " + row
assert index.count(">fabric map</a>: no load levels<") == 2, "other rows said to be maps"
for d, shown in ((site, "sw&lt;script&gt;alert(5)&lt;/script&gt;N05"),
                 (planted, "sw&lt;script&gt;alert(5)&lt;/script&gt;\\u{202E}N05")):
    bad = open(d + "/maps/evil-20261202-164036.html", encoding="utf-8").read()
    assert ('<tr data-host="%s" data-set="stream/65536"><td class="wrap">%s</td>' % (shown, shown)) in bad, "table: " + d
    assert "<strong>SLOW</strong>: host " + shown + ": 0.2" in bad, "claim: " + d
    assert bad.count('<td class="sig">SLOW</td>') == 1, "flagged: " + d
for page in glob.glob(site + "/**/*.html", recursive=True) + glob.glob(planted + "/**/*.html", recursive=True):
    text = open(page, encoding="utf-8").read()
    assert "<script" not in text and "\u202e" not in text, page
print("claim, flagged host and the hostile name as expected")
EOF
check "site: map pages: the tree's claim and swsN05 marked, the index's map row says why its drop is '-'; a hostile host name escaped everywhere ($(tail -1 "$T/map"))" [ $? = 0 ]
"$PY" - "$T/site" << 'EOF' > "$T/map2" 2>&1
import re, sys
page = open(sys.argv[1] + "/maps/mixed-20261203-120000.html", encoding="utf-8").read()
small, big = page.index('<section class="map-set" id="stream-16384">'), page.index('<section class="map-set" id="stream-65536">')
assert small < big, "16 KiB first, as the run measured"
assert '<li><a href="#stream-16384">stream, 16 KiB</a>: 1 claim, 0 flagged hosts</li>' in page, "contents"
assert '<li><a href="#stream-65536">stream, 64 KiB</a>: 1 claim, 1 flagged host</li>' in page, "contents"
a, b = page[small:big], page[big:]
hosts = a.split("<caption>The slowest hosts")[1].split("</table>")[0]
assert '<li data-claim="uplink"><strong>SLOW</strong>: uplink of leafC:' in a and 'class="sig">SLOW' not in hosts, "16 KiB"
assert '<li data-claim="host"><strong>SLOW</strong>: host swsN05:' in b and 'data-claim="uplink"' not in b, "64 KiB"
assert a.count("<svg") == b.count("<svg") == 1, "a heat map each"
assert 'id="heat-t-stream-16384"' in a and 'id="heat-t-stream-65536"' in b, "heat map titles"
assert a.count('data-set="stream/16384"') == 10 and b.count('data-set="stream/65536"') == 10, "a host table each"
sw = open(sys.argv[1] + "/switch/swstress-emulated-tree-4x4.html", encoding="utf-8").read()
assert "Fabric map of this run (16 hosts, 2 patterns and sizes, 2 claims)" in sw, "switch page"
print("2 sections, each its claim, heat map and tables")
EOF
check "site: the map of two sizes: a section each, its own claim, heat map and tables ($(tail -1 "$T/map2"))" [ $? = 0 ] ||
	cat "$T/map2"
# A store of schema 5 (tests/catalog/schema6to5.sql: the map tables as they
# were, the first pattern and size of each map) opens and is migrated: the
# maps under their first pattern and size, the single-size map's page as
# the schema 6 store's, the map of two sizes shown with its first.
v5_check() {   # NAME STORE SITE
	"$SW" site "$2" "$3" > /dev/null 2> "$T/err"
	check "$1: a store of schema 5 with two map runs: site opens and migrates it (exit 0)" [ $? = 0 ] || cat "$T/err"
	check "$1: ... schema 6 recorded, each map once under its first size, its hosts, links and claims" \
		[ "$(count "$2" "SELECT max(version) FROM schema_migrations")/$(count "$2" "SELECT min(size_bytes) || ',' || max(size_bytes) || ',' || count(*) FROM maps WHERE run IN ('$MAPRUN', '$MIXRUN')")/$(count "$2" "SELECT count(*) FROM map_hosts WHERE run = '$MIXRUN' AND size_bytes = 16384")/$(count "$2" "SELECT count(*) FROM map_links WHERE run = '$MAPRUN' AND size_bytes = 65536 AND pattern = 'stream'")/$(count "$2" "SELECT kind FROM map_claims WHERE run = '$MIXRUN'")" = "6/16384,65536,2/16/120/uplink" ]
	check "$1: ... the single-size map's page equals the schema 6 store's" \
		sh -c 'grep -v "<footer>" "$1" > "$3.a"; grep -v "<footer>" "$2" > "$3.b"; cmp -s "$3.a" "$3.b"' _ \
		"$T/site/maps/$MAPRUN.html" "$3/maps/$MAPRUN.html" "$T/v5cmp"
	check "$1: ... the map of two sizes shown with its first (one heat map, leafC's uplink)" \
		sh -c '[ "$(grep -c "<svg" "$1")" = 1 ] && grep -q "uplink of leafC" "$1" && ! grep -q "stream-65536" "$1"' _ \
		"$3/maps/$MIXRUN.html"
}
cp "$LITE" "$T/v5.sqlite" &&
	"$PY" -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(open(sys.argv[2]).read()); c.commit()' \
	"$T/v5.sqlite" tests/catalog/schema6to5.sql || t_bail "schema 5 store"
check "sqlite: a store taken back to schema 5 (version 5, no map file of a second size)" \
	[ "$(count "$T/v5.sqlite" "SELECT max(version) FROM schema_migrations")/$(count "$T/v5.sqlite" "SELECT count(*) FROM run_files WHERE file LIKE '%-stream-%'")" = 5/0 ]
v5_check sqlite "$T/v5.sqlite" "$T/v5-site"
check "site: the run files are downloadable as published" cmp -s "$R/bolt-20261201-110000/samples.csv" "$T/site/runs/bolt-20261201-110000/samples.csv"
check "site: a comparison page for Acme and Bolt at 8 nodes" [ -f "$T/site/compare/acme-fabric-9000--bolt-networks-x-y-32-script-alert-1-script-n8.html" ]
"$PY" - "$T/site" << 'EOF' > "$T/marks" 2>&1
import re, sys
index = open(sys.argv[1] + "/index.html").read()
rows = dict(re.findall(r'<tr><th scope="row"><a href="switch/([^"]+)\.html">(.*?)</tr>', index))
mark = '<small class="shared">Shared host: measured the host, not a switch</small>'
assert [s for s in rows if mark in rows[s]] == ["one-o1"], [s for s in rows if mark in rows[s]]
one = open(sys.argv[1] + "/switch/one-o1.html").read()
assert ('<p class="shared">Shared host: the ranks of this run shared a machine, so it measured the host, '
        'not a switch.</p>') in one, "no mark on the switch page"
assert "Given at publish time" not in one, "a supplied row on a run that supplied nothing"
nomodel = open(sys.argv[1] + "/switch/nomodel-m-1.html").read()
assert '<th scope="row">Given at publish time</th><td class="wrap">model</td>' in nomodel, "no supplied row"
EOF
check "site: the shared-host run marked (index and its page, no other), the model given at publish time said" \
	[ $? = 0 ] || cat "$T/marks"
# The known truth: Bolt loses 30% at 8 nodes, Acme nothing; the
# comparison says Bolt is worse, significantly.
"$PY" - "$LITE" "$T/site" << 'EOF' > "$T/truth" 2>&1
import glob, re, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
def drop(run):
    return db.execute("SELECT bw_drop_pct, bw_drop_lo, bw_drop_hi, bw_drop_sig FROM cells WHERE run = ? AND pattern = 'stream' AND nodes = 8 AND size_bytes = 65536", (run,)).fetchone()
b, a = drop("bolt-20261201-110000"), drop("acme-20261201-100000")
assert b[1] <= 30 <= b[2] and b[3] == 1, b
assert a[1] <= 0 <= a[2] and a[3] == 0, a
page = open(glob.glob(sys.argv[2] + "/compare/acme-*--bolt-*.html")[0]).read()
row = re.search(r"<tr data-a=\"[^\"]+\" data-b=\"[^\"]+\"><td>stream</td><td class=\"num\">64KiB</td><td class=\"num opt\">1000</td><td class=\"num\">8</td>(.*?)</tr>", page).group(1)
worse = float(re.search(r"([+-][0-9.]+)% worse \[", row).group(1))
assert 27 < worse < 33 and 'class="sig">yes' in row, row   # %worse of bandwidth: (A - B) / A, truth 30%
print("drop bolt %.1f [%.1f, %.1f], acme %.1f [%.1f, %.1f], bolt worse by %.1f%%" % (b[0], b[1], b[2], a[0], a[1], a[2], worse))
EOF
check "known truth: Bolt's drop CI holds 30%, Acme's holds 0, the comparison finds Bolt worse ($(tail -1 "$T/truth"))" [ $? = 0 ]
# Every published run a side, as compare takes them: with 2 runs of Acme
# and 2 of Bolt (a second run of Bolt's, another label) the page names all
# four, the unit is the run, and Bolt's 30% is still found.
mk bolt2-20261201-120500 'Bolt <Networks>' 'X&Y "32" <script>alert(1)</script>' 30 9
"$SW" publish "$R/acme-20261130-090000" "$R/acme-20261201-100000" "$R/bolt-20261201-110000" \
	"$R/bolt2-20261201-120500" --store "$T/rep.sqlite" > /dev/null 2> "$T/err" &&
	"$SW" site "$T/rep.sqlite" "$T/rep-site" > /dev/null 2>> "$T/err"
check "site: 2 runs of Acme and 2 of Bolt published, site written (exit 0)" [ $? = 0 ] || cat "$T/err"
"$PY" - "$T/rep-site" << 'EOF' > "$T/rep" 2>&1
import glob, re, sys
page = open(glob.glob(sys.argv[1] + "/compare/acme-*--bolt-*.html")[0]).read()
sides = re.findall(r"<li>([AB]): <a [^>]*>[^<]*</a>, (\d+) runs? \(of the switch's (\d+) published\):(.*?)</li>", page)
assert [(s, n, m) for s, n, m, _ in sides] == [("A", "2", "2"), ("B", "2", "2")], sides
names = [re.findall(r">([a-z0-9]+-[0-9-]+)</a>", runs) for _, _, _, runs in sides]
assert names == [["acme-20261201-100000", "acme-20261130-090000"], ["bolt2-20261201-120500", "bolt-20261201-110000"]], names
assert "(2 runs each, runs as the unit)" in page, "no runs-as-the-unit verdict"
# one row per switch, its runs pooled (never a run against a run)
rows = re.findall(r'<tr><td>stream</td><td class="num">64KiB</td><td class="num opt">8</td><th scope="row">([AB] \(\d runs\))</th>', page)
assert rows == ["A (2 runs)", "B (2 runs)"], rows
row = re.search(r"<tr data-a=\"[^\"]+\" data-b=\"[^\"]+\"><td>stream</td><td class=\"num\">64KiB</td><td class=\"num opt\">1000</td><td class=\"num\">8</td>(.*?)</tr>", page).group(1)
worse = float(re.search(r"([+-][0-9.]+)% worse \[", row).group(1))
assert 27 < worse < 33 and 'class="sig">yes' in row, row
print("2 runs a side named, runs as the unit, Bolt worse by %.1f%%" % worse)
EOF
check "site: the comparison uses every published run a side, as compare does ($(tail -1 "$T/rep"))" [ $? = 0 ] || cat "$T/rep"

# Memory errors and leaks in publish and site (valgrind is in PACKAGES).
vg() { valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite "$@"; }
if command -v valgrind > /dev/null; then
	vg "$SW" publish "$R/acme-20261201-100000" "$R/bolt-20261201-110000" "$R/late-20261201-130000" "$MAP" \
		"$R/cut/$MAPRUN" "$MIX" "$R/cut2/$MIXRUN" --store "$T/vg.sqlite" > /dev/null 2> "$T/vg.err"
	rc=$?
	check "valgrind: publish (4 stored with two map runs, one of two sizes; 3 refused: exit 1) is clean" [ $rc = 1 -a "$(grep -c '^==' "$T/vg.err")" = 0 ]
	vg "$SW" site "$T/vg.sqlite" "$T/vg-site" > /dev/null 2> "$T/vg.err"
	check "valgrind: site is clean" [ $? = 0 ]
else
	skip "valgrind: publish and site" "valgrind not installed"
fi

# ---------------------------------------------------------------- PostgreSQL
if need postgresql; then
	PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2> /dev/null | sort -V | tail -1)
fi
if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/initdb" ]; then
	skip "PostgreSQL tests" "postgresql is not installed (run as root to install it)"
else
	mkdir -p "$T/pg/sock"
	if [ "$(id -u)" = 0 ]; then
		chown -R postgres "$T/pg"
		as_pg() { runuser -u postgres -- "$@"; }
	else
		as_pg() { "$@"; }
	fi
	PGPORT=5433
	if as_pg "$PGBIN/initdb" -D "$T/pg/data" -A trust -U swstress --locale=C -E UTF8 --no-sync > "$T/pg/initdb.log" 2>&1 &&
	   as_pg "$PGBIN/pg_ctl" -D "$T/pg/data" -l "$T/pg/log" -w -t 60 \
		-o "-k $T/pg/sock -c listen_addresses= -p $PGPORT -c fsync=off" start > /dev/null 2>&1; then
		PGUP=1
		psql_q() { "$PGBIN/psql" -X -q -A -t -h "$T/pg/sock" -p $PGPORT -U swstress -d catalog -c "$1"; }
		"$PGBIN/createdb" -h "$T/pg/sock" -p $PGPORT -U swstress catalog
		PG="postgresql:///catalog?host=$T/pg/sock&port=$PGPORT&user=swstress"
		pg_boom() {
			psql_q "CREATE FUNCTION boom() RETURNS trigger AS \$\$ BEGIN IF NEW.run = 'boom-20261201-120000' AND NEW.cell = 5 THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END \$\$ LANGUAGE plpgsql; CREATE TRIGGER boom BEFORE INSERT ON cells FOR EACH ROW EXECUTE FUNCTION boom()" > /dev/null
		}
		# Three first publishers at once on an empty database: one migrates,
		# the others wait for its lock and find the schema there (6 migrations).
		"$PGBIN/createdb" -h "$T/pg/sock" -p $PGPORT -U swstress fresh
		for r in acme-20261130-090000 acme-20261201-100000 bolt-20261201-110000; do
			"$SW" publish "$R/$r" --store "postgresql:///fresh?host=$T/pg/sock&port=$PGPORT&user=swstress" \
				> /dev/null 2> "$T/fresh-$r.err" &
		done
		wait
		check "postgresql: 3 first publishers at once on an empty database all succeed, schema migrated once" \
			[ "$(cat "$T"/fresh-*.err | grep -c ' 1 published')/$("$PGBIN/psql" -X -A -t -h "$T/pg/sock" -p $PGPORT -U swstress -d fresh -c 'SELECT count(*) FROM schema_migrations')" = 3/6 ]
		store_tests "$PG" postgresql pg_boom
		# Round trip: the same runs give the same rows in both stores.
		psql_q "SELECT run, cell, lat_median_us, lat_lo_us, bw_median_MBps, bw_drop_pct, bw_drop_lo, bw_drop_hi, bw_drop_p, lat_infl_p FROM cells WHERE run NOT LIKE 'conc-%' ORDER BY run, cell" > "$T/pg.cells"
		psql_q "SELECT run || '/' || file || '/' || md5(content) FROM run_files ORDER BY run, file" > "$T/pg.files"
		MAPQ="SELECT l.run, l.pattern, l.size_bytes, host_a, host_b, l.median, l.lo, l.hi, l.flagged, h.score, h.lo, h.hi, h.flagged FROM map_links l JOIN map_hosts h ON h.run = l.run AND h.pattern = l.pattern AND h.size_bytes = l.size_bytes AND h.host = l.host_a ORDER BY l.run, l.pattern, l.size_bytes, host_a, host_b"
		psql_q "$MAPQ" > "$T/pg.map"
		MAPQ=$MAPQ "$PY" - "$LITE" "$T/pg.cells" "$T/pg.files" "$T/pg.map" << 'EOF'
import hashlib, os, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
lite = db.execute("SELECT run, cell, lat_median_us, lat_lo_us, bw_median_MBps, bw_drop_pct, bw_drop_lo, bw_drop_hi, bw_drop_p, lat_infl_p FROM cells WHERE run NOT LIKE 'conc-%' ORDER BY run, cell").fetchall()
pg = [l.rstrip("\n").split("|") for l in open(sys.argv[2]) if l.strip()]
assert len(pg) == len(lite) == 132, (len(pg), len(lite))   # 6 runs of 12 cells, 2 maps of 15 steps, 1 of 30
for a, b in zip(lite, pg):
    assert a[0] == b[0] and a[1] == int(b[1]), (a, b)
    for x, y in zip(a[2:], b[2:]):
        assert (x is None and y == "") or x == float(y), (a, b)
lite = db.execute(os.environ["MAPQ"]).fetchall()
pg = [l.rstrip("\n").split("|") for l in open(sys.argv[4]) if l.strip()]
assert len(pg) == len(lite) == 480, (len(pg), len(lite))   # 2 maps of 120 links, 1 of 2 x 120
for a, b in zip(lite, pg):
    assert [a[0], a[1], str(a[2]), a[3], a[4]] == b[:5] and all(x == float(y) for x, y in zip(a[5:], b[5:])), (a, b)
files = ["%s/%s/%s" % (r, f, hashlib.md5(c.encode()).hexdigest()) for r, f, c in db.execute("SELECT run, file, content FROM run_files ORDER BY run, file")]
assert files == [l.strip() for l in open(sys.argv[3]) if l.strip()], "run_files differ"
EOF
		check "postgresql: round trip: cells, files and the maps' links and hosts equal the SQLite store's, number for number" [ $? = 0 ]
		"$SW" site "$PG" "$T/site-pg" > /dev/null 2> "$T/err"
		check "postgresql: site from the shared store (exit 0)" [ $? = 0 ]
		# a copy of the shared store taken back to schema 5, then opened
		"$PGBIN/createdb" -h "$T/pg/sock" -p $PGPORT -U swstress -T catalog v5 &&
			"$PGBIN/psql" -X -q -v ON_ERROR_STOP=1 -h "$T/pg/sock" -p $PGPORT -U swstress -d v5 \
			-f tests/catalog/schema6to5.sql > /dev/null 2> "$T/err"
		check "postgresql: a store taken back to schema 5 (version 5)" \
			[ $? = 0 -a "$("$PGBIN/psql" -X -A -t -h "$T/pg/sock" -p $PGPORT -U swstress -d v5 -c 'SELECT max(version) FROM schema_migrations')" = 5 ] ||
			cat "$T/err"
		psql_q() { "$PGBIN/psql" -X -q -A -t -h "$T/pg/sock" -p $PGPORT -U swstress -d v5 -c "$1"; }
		v5_check postgresql "postgresql:///v5?host=$T/pg/sock&port=$PGPORT&user=swstress" "$T/v5-site-pg"
		psql_q() { "$PGBIN/psql" -X -q -A -t -h "$T/pg/sock" -p $PGPORT -U swstress -d catalog -c "$1"; }
		check "postgresql: its index equals the SQLite store's" sh -c 'grep -v "<footer>" "$1" > "$3.a"; grep -v "<footer>" "$2" > "$3.b"; cmp -s "$3.a" "$3.b"' _ "$T/site/index.html" "$T/site-pg/index.html" "$T/idx"
		"$SW" publish "$R/acme-20261201-100000" --store "postgresql:///nosuchdb?host=$T/pg/sock&port=$PGPORT&user=swstress" > /dev/null 2> "$T/err"
		rc=$?
		grep -q 'database "nosuchdb" does not exist' "$T/err"
		check "postgresql: an unreachable database exits 1 with libpq's reason" [ $rc = 1 -a $? = 0 ]
	else
		fail "postgresql: initdb or pg_ctl start failed: $(tail -3 "$T/pg/initdb.log" "$T/pg/log" 2> /dev/null)"
	fi
fi

# ---------------------------------------------------------------- terminal browser
if need w3m; then
	w3m -dump -cols 200 "$T/site/index.html" > "$T/w3m.txt" 2>&1
	want=$("$PY" -c 'import sqlite3, sys; r = sqlite3.connect(sys.argv[1]).execute("SELECT bw_drop_pct, bw_drop_lo, bw_drop_hi FROM cells WHERE run = ? AND cell = 11", ("bolt-20261201-110000",)).fetchone(); print("%+.1f%% [%+.1f, %+.1f]" % r)' "$LITE")
	check "w3m: the index reads in a terminal browser (switch names, Bolt's drop $want)" \
		sh -c 'grep -F "Bolt <Networks> X&Y \"32\" <script>alert(1)</script>" "$1" | grep -qF "$2"' _ "$T/w3m.txt" "$want"
else
	skip "w3m: the index in a terminal browser" "w3m not installed (run as root to install it)"
fi

# ---------------------------------------------------------------- Chromium
if ! need chromium python3-websocket python3-pil; then
	skip "site in headless Chromium" "chromium, python3-websocket or python3-pil missing (run as root to install)"
elif ! "$PY" -c 'import websocket, PIL' 2> /dev/null; then
	skip "site in headless Chromium" "$PY cannot import websocket and PIL"
else
	# Bolt's loaded changes as if its run had drifted: the marks must show
	sql "$LITE" "UPDATE cells SET drifted = 1 WHERE run = 'bolt-20261201-110000' AND level > 0" &&
		"$SW" site "$LITE" "$T/site" > /dev/null 2> "$T/err" || cat "$T/err"
	"$PY" tests/catalog/check_site.py "$T/site" "$LITE" > "$T/chromium.log" 2>&1
	rc=$?
	grep '^not ok' "$T/chromium.log"
	check "site in headless Chromium: $(grep -c '^ok' "$T/chromium.log") checks; $(tail -1 "$T/chromium.log" | sed 's/^[a-z ]*- //')" [ $rc = 0 ]
fi

t_end
