#!/bin/sh
# tests/golden/run_tests.sh - the text outputs of report, compare and judge
# over fixed run folders (tests/data) against the golden files beside this
# script, so that any change of an output shows as a diff. After a change
# made on purpose, regenerate them and commit the diff with the change:
#   GOLDEN_UPDATE=1 sh tests/golden/run_tests.sh
. tests/lib.sh
t_begin golden
BIN=${BIN:-$PWD/build/swstress}
G=$PWD/tests/golden
D=$PWD/tests/data
[ -x "$BIN" ] || t_bail "no $BIN (make build/swstress)"
t_tmpdir golden
cp -r "$D/runs/"* "$D/maps/"* "$T_TMP"/
cd "$T_TMP" || t_bail "cd $T_TMP"
A=swA-20261202-074946 A2=swA2-20261202-074950 B=swB-20261202-074959
N1=night-20261202-075004 N2=night-20261202-075012
Q=quick-20261203-112849
MA=mapA-20261202-182844 MA2=mapA2-20261202-182846 MB=mapB-20261202-182847 MB2=mapB2-20261202-182849
# the emulated tree of 4 leaves x 4 hosts (tests/fabric, leaves given),
# stream 64 KiB, 4 blocks: healthy, swsN05's port at 5 Mbit/s, leaf C's
# uplink at 20 Mbit/s
MH=healthy-20261203-102832 MS=slowhost-20261202-164036 MU=slowuplink-20261203-103006

# name, then the command's words: stdout and the exit status, the
# temporary folder written as TMP
golden() {
	name=$1; shift
	"$BIN" "$@" > "$name.out" 2> "$name.err"
	echo "exit $?" >> "$name.out"
	sed -i "s|$T_TMP|TMP|g" "$name.out"
	if [ "${GOLDEN_UPDATE:-}" = 1 ]; then
		cp "$name.out" "$G/$name.out"
		ok "$name: golden file written"
	elif [ ! -f "$G/$name.out" ]; then
		fail "$name: no golden file $G/$name.out (GOLDEN_UPDATE=1 writes it)"
	elif diff -u "$G/$name.out" "$name.out" > "$name.diff"; then
		ok "$name: as the golden file"
	else
		fail "$name: differs from the golden file (GOLDEN_UPDATE=1 after a change on purpose)" "$name.diff"
	fi
}

golden report-swA report $A
golden report-swB report $B
golden report-night report $N1
golden report-verbose report $A --verbose
golden report-classic report $A --format classic
# make run's first run: 4 ranks on 2 cores, its changes marked cpu
golden report-quick report $Q
# The reports a person reads fit an 80-column terminal (issue #27: the
# quick run's "+282.5% [+222.9, +353.1] * cpu" rows made 81); --verbose
# and classic are wide on purpose.
wide=$(awk 'length($0) > 80 { print FILENAME ":" FNR ": " length($0) " columns" }' \
	report-swA.out report-swB.out report-night.out report-quick.out)
check_eq "reports within 80 columns" "$wide" ""
golden compare compare $A $A2 $B --output cmp --no-plot
if [ "${GOLDEN_UPDATE:-}" = 1 ]; then
	cp cmp/compare.md "$G/compare.md"
elif diff -u "$G/compare.md" cmp/compare.md > compare-md.diff; then
	ok "compare.md: as the golden file"
else
	fail "compare.md: differs from the golden file" compare-md.diff
fi

golden judge-text judge $N2 --baseline $N1 --no-history

# two switches' maps (6 hosts, 5 blocks): one run a side, then two
golden compare-maps compare $MA $MB --output cmpmap --no-plot
golden compare-maps2 compare $MA $MA2 $MB $MB2 --output cmpmap2 --no-plot
for f in compare.md compare.json; do
	if [ "${GOLDEN_UPDATE:-}" = 1 ]; then
		cp "cmpmap/$f" "$G/maps-$f"
	elif diff -u "$G/maps-$f" "cmpmap/$f" > "maps-$f.diff"; then
		ok "maps $f: as the golden file"
	else
		fail "maps $f: differs from the golden file" "maps-$f.diff"
	fi
done
# the difference heat map: its grid (6 x 6 hosts, the header) and the PNG,
# embedded in compare.md
g=cmpplot/compare-fabric-stream-16384-B
if ! command -v gnuplot > /dev/null; then
	skip "maps' difference heat map" "no gnuplot"
elif "$BIN" compare $MA $MB --output cmpplot > /dev/null 2> cmpplot.err && [ -s $g.png ] &&
	[ "$(wc -l < $g.csv)" = 37 ] && grep -q "compare-fabric-stream-16384-B.png" cmpplot/compare.md; then
	ok "maps: the difference heat map drawn from a 6 x 6 grid, in compare.md"
else
	fail "maps: the difference heat map" cmpplot.err
fi
# the emulated tree's maps side by side: every boundary and uplink of
# both, the slow uplink's marked SLOW
golden compare-maps-tree compare $MH $MU --output cmptree --no-plot
# compare's text fits an 80-column terminal for any number of runs (issue
# #27: a column per run made the 3-run tables 162 columns and more, the
# verdicts and the method one line each); no line of it is a picture
# (compare --verbose and compare.md are wide on purpose)
wide=$(awk 'length($0) > 80 { print FILENAME ":" FNR ": " length($0) " columns" }' \
	compare.out compare-maps.out compare-maps2.out compare-maps-tree.out)
check_eq "compare within 80 columns" "$wide" ""
# judge of a map against a baseline map: every element, text and JSON;
# a map against a sweep baseline: one UNKNOWN line naming both, exit 3
golden judge-map judge $MB --baseline $MA --no-history
golden judge-map-json judge $MB --baseline $MA --no-history --json
golden judge-map-sweep judge $MA --baseline $A --no-history
# known answers on the emulated tree: the slow host named, CRITICAL by
# its claim (4 blocks: no CI against one baseline map), no other host;
# the slow uplink named, no host; the healthy map against the slow one OK
golden judge-map-slowhost judge $MS --baseline $MH --no-history
golden judge-map-slowuplink judge $MU --baseline $MH --no-history
golden judge-map-healthy judge $MH --baseline $MU --no-history
# the loaded map beside an "unloaded" one (report --unloaded): the slow
# uplink's map against the slow host's, so that each path is taken: the
# uplink claimed on the loaded map alone is congestion, the host claimed
# on the other alone a fault of the unloaded map; a sweep is refused
golden report-map-contrast report $MU --unloaded $MS
if grep -q '^congestion: uplink of leafC' report-map-contrast.out &&
	grep -q '^fault (unloaded map): host swsN05' report-map-contrast.out; then
	ok "report --unloaded: the uplink congestion, the host a fault of the unloaded map"
else
	fail "report --unloaded: claims not told" report-map-contrast.out
fi
golden report-map-contrast-sweep report $MU --unloaded $A
# another map's hosts: refused before the report prints, naming both
if ! "$BIN" report $MU --unloaded $MA > other.out 2> other.err && [ ! -s other.out ] &&
	grep -q "^swstress: --unloaded: $MA has 6 ranks, $MU 16: not a map of the same hosts$" other.err; then
	ok "report --unloaded with another map's hosts: one line naming both, nothing printed"
else
	fail "report --unloaded with another map's hosts" other.err
fi
"$BIN" judge $MU --baseline $MH --no-history --prom map.prom > /dev/null 2> map-prom.err
if [ "${GOLDEN_UPDATE:-}" = 1 ]; then
	cp map.prom "$G/judge-map.prom"
elif diff -u "$G/judge-map.prom" map.prom > map-prom.diff; then
	ok "judge-map.prom: as the golden file (per-host and per-group gauges)"
else
	fail "judge-map.prom: differs from the golden file" map-prom.diff
fi
if head -1 judge-map-slowhost.out | grep -q "^SWSTRESS CRITICAL - host swsN05 (stream 64KiB): bandwidth drop" &&
	[ "$(grep -c '^map claim' judge-map-slowhost.out)" = 1 ] &&
	head -1 judge-map-slowuplink.out | grep -q "^SWSTRESS CRITICAL - uplink of leafC (stream 64KiB): bandwidth drop" &&
	[ "$(grep -c '^map claim' judge-map-slowuplink.out)" = 1 ] && head -1 judge-map-healthy.out | grep -q "^SWSTRESS OK"; then
	ok "judge on the emulated tree: the slow host and the slow uplink named alone, CRITICAL; healthy OK"
else
	fail "judge on the emulated tree" judge-map-slowhost.out
fi
if [ "$(grep -c . judge-map-sweep.out)" = 2 ] && grep -q "^exit 3" judge-map-sweep.out &&
	grep -q "$MA is a fabric map and baseline $A a sweep" judge-map-sweep.out; then
	ok "judge: a map against a sweep baseline is one UNKNOWN line naming both, exit 3"
else
	fail "judge: a map against a sweep baseline" judge-map-sweep.out
fi
"$BIN" judge $A --baseline $MA --no-history > sweep-map.out 2>&1
rc=$?
if [ $rc = 3 ] && [ "$(wc -l < sweep-map.out)" = 1 ] && grep -q "$A is a sweep and baseline $MA a fabric map" sweep-map.out; then
	ok "judge: a sweep against a map baseline is one UNKNOWN line naming both, exit 3"
else
	fail "judge: a sweep against a map baseline: exit $rc" sweep-map.out
fi
# a map against a sweep: one error line naming both folders, exit 1
"$BIN" compare $MA $A --output mixed > mixed.out 2> mixed.err
rc=$?
if [ $rc = 1 ] && [ "$(wc -l < mixed.err)" = 1 ] && grep -q "$MA is a fabric map.*$A a sweep" mixed.err &&
	[ ! -e mixed ]; then
	ok "a map against a sweep: one error naming both, exit 1, nothing written"
else
	fail "a map against a sweep: exit $rc" mixed.err
fi
t_end
