# trend.gp - one cell (pattern, message size, loaded nodes) over the nightly
# runs: per-hop latency (top) and per-pair bandwidth (bottom) against the
# time of each run, median with its CI as error bars, the baseline's median
# CI as a shaded band (from each run's check), and every run's verdict for
# that cell as the marker colour: green OK, orange WARNING, vermillion
# CRITICAL, grey UNKNOWN, open black for a plain run that was not judged.
#
# Reads  in = the CSV of `swstress history --format csv` (a "# swstress"
#        comment line, then a header). Columns, one row per run and cell:
#          started        ISO 8601 UTC start of the run
#          epoch_s        the same in Unix seconds (the x axis)
#          run, label     run folder name and label
#          pattern, size_bytes, nodes, pairs, hops, n   the cell, samples
#          lat_median_us, lat_lo_us, lat_hi_us          per-hop latency, CI
#          bw_median_MBps, bw_lo_MBps, bw_hi_MBps       per-pair bandwidth
#                                                       (MB/s = 10^6 bytes/s)
#          base_lat_median_us, base_lat_lo_us, base_lat_hi_us
#          base_bw_median_MBps, base_bw_lo_MBps, base_bw_hi_MBps
#                         the baseline's cell in the run's latest check
#                         (NaN when the run was not judged)
#          change_pct     change of the judged metric against the baseline
#          cell_status    the cell's verdict: 0 OK, 1 WARNING, 2 CRITICAL,
#                         3 UNKNOWN, -1 not judged
#          status, verdict  the whole check's Nagios code and name ("run"
#                         when not judged)
#          sigma, ewma, ewma_limit, drift   against a baseline set: the
#                         change in night-to-night SDs, the drift control
#                         chart's EWMA and its limit (same unit), drift 1
#                         when the chart raised WARNING (NaN / -1 otherwise)
# With a baseline set, a third panel draws the drift chart: the EWMA, its
# control limit (dashed), and a ring on every night where it raised
# WARNING; the same nights are ringed in the two panels above.
# Takes  in, out (required); pattern, size (bytes), nodes: the cell (all
#        three, or none for the first cell in the file); label (title),
#        term, width, height (optional, see common.gp). Writes out only
#        when there is a chart to draw (exit status 1 and no file when the
#        cell has no rows, 2 for bad variables).
# By hand:
#   swstress history --format csv > history.csv
#   gnuplot -e "in='history.csv'; out='trend.png'" plot/trend.gp
#   gnuplot -e "in='history.csv'; out='trend.png'; pattern='stream'; size=65536; nodes=16" plot/trend.gp

if (!exists("width")) { width = 1200 }
if (!exists("height")) { height = 820 }
_given = exists("pattern") + exists("size") + exists("nodes")
# common.gp reads nodes as a word list: hand it the one level as text.
if (exists("nodes")) { cell_nodes = nodes + 0; nodes = sprintf('%d', cell_nodes) }
# No file until there is a chart: common.gp opens /dev/null, out comes last.
if (exists("out")) { _out = out; out = '/dev/null' }
_dir = ''
do for [_i = strlen(ARG0):1:-1] { if (_dir eq '' && ARG0[_i:_i] eq '/') { _dir = ARG0[1:_i] } }
load _dir.'common.gp'
if (_given != 0 && _given != 3) {
	print "trend.gp: set all of pattern='stream'; size=65536; nodes=16, or none (the first cell)"; exit status 2
}
if (_given == 0) {   # the first cell in the file
	_first = 1
	stats in using (_first ? (pattern = strcol('pattern'), size = column('size_bytes'), \
		cell_nodes = column('nodes'), _first = 0) : 0) nooutput
	if (_first) { print sprintf("trend.gp: no rows in %s", in); exit status 1 }
}
cell_size = size + 0

# The cell's rows: t lat lo hi bw lo hi blat_lo blat_hi bbw_lo bbw_hi
# status(+10 when the drift chart raised WARNING) ewma limit (gnuplot's
# table takes 14 columns at most)
# t is written as an integer: the table's default %g would round it to 10^4 s.
rows = 0
t_min = 1e300; t_max = -1e300
lat_min = 1e300; lat_max = -1e300; bw_min = 1e300; bw_max = -1e300
charted = 0
seen_chart(e) = (charted = charted + (e == e ? 1 : 0), 1)
seen(t, l1, l2, l3, b1, b2, b3) = (rows = rows + 1, t_min = mn(t_min, t), t_max = mx(t_max, t), \
	lat_min = mn(mn(mn(lat_min, l1), l2), l3), lat_max = mx(mx(mx(lat_max, l1), l2), l3), \
	bw_min = mn(mn(mn(bw_min, b1), b2), b3), bw_max = mx(mx(mx(bw_max, b1), b2), b3), 1)
set table $T
plot in using (sprintf('%.0f', column('epoch_s'))):(num('lat_median_us', NaN)):(num('lat_lo_us', num('lat_median_us', NaN))):\
	(num('lat_hi_us', num('lat_median_us', NaN))):(num('bw_median_MBps', NaN)):\
	(num('bw_lo_MBps', num('bw_median_MBps', NaN))):(num('bw_hi_MBps', num('bw_median_MBps', NaN))):\
	(num('base_lat_lo_us', NaN)):(num('base_lat_hi_us', NaN)):(num('base_bw_lo_MBps', NaN)):\
	(num('base_bw_hi_MBps', NaN)):(column('cell_status') + (num('drift', -1) == 1 ? 10 : 0)):\
	(num('ewma', NaN)):(num('ewma_limit', NaN)) \
	with table if (strcol('pattern') eq pattern && column('size_bytes') == cell_size && \
		column('nodes') == cell_nodes && seen_chart(num('ewma', NaN)) && \
		seen(column('epoch_s'), num('lat_median_us', NaN), num('base_lat_lo_us', NaN), \
		     num('base_lat_hi_us', NaN), num('bw_median_MBps', NaN), num('base_bw_lo_MBps', NaN), \
		     num('base_bw_hi_MBps', NaN)))
unset table
if (rows == 0) {
	print sprintf("trend.gp: no rows for %s %s %d nodes in %s", pattern, fmt_size(cell_size), cell_nodes, in)
	exit status 1
}
set datafile separator whitespace
set datafile nocolumnheaders
set output _out
if (table ne '') { set print table; print sprintf("cell %s %d %d", pattern, cell_size, cell_nodes); print $T; unset print }

# Verdict colours (Okabe-Ito): OK green, WARNING orange, CRITICAL vermillion.
st(s) = (s >= 10 ? s - 10 : s)
drifted(s) = (s >= 10)
status_rgb(s) = (s == 0 ? 0x009E73 : s == 1 ? 0xE69F00 : s == 2 ? 0xD55E00 : s == 3 ? 0x999999 : 0x000000)
judged(s) = (s >= 0)

pad_t = mx(3600, (t_max - t_min) * 0.05)
set xdata time
set timefmt '%s'
set format x "%Y-%m-%d\n%H:%M" timedate
set xrange [t_min - pad_t : t_max + pad_t]
set key outside below center horizontal samplen 2 spacing 1.1

set multiplot layout (charted ? 3 : 2), 1 title run_title(sprintf('Trend: %s, %s, %d nodes', pattern, fmt_size(cell_size), cell_nodes), \
	'nightly runs') font ',15'

set ylabel 'per-hop latency (us)'
pad = mx((lat_max - lat_min) * 0.1, lat_max * 0.02)
set yrange [mx(0, lat_min - pad) : lat_max + pad]
set format y '%g'
unset xlabel
plot $T using 1:8:9 with filledcurves lc rgb '#0072B2' title 'baseline median CI', \
	'' using 1:2 with lines lc rgb '#909090' lw 1 notitle, \
	'' using 1:2:3:4 with yerrorbars lc rgb '#404040' pt 0 notitle, \
	'' using 1:(st($12) >= 0 ? $2 : NaN):(status_rgb(st($12))) with points pt 7 ps 1.4 lc rgb variable notitle, \
	'' using 1:(st($12) < 0 ? $2 : NaN) with points pt 6 ps 1.4 lc rgb '#000000' notitle, \
	NaN with points pt 7 ps 1.4 lc rgb '#009E73' title 'OK', \
	NaN with points pt 7 ps 1.4 lc rgb '#E69F00' title 'WARNING', \
	NaN with points pt 7 ps 1.4 lc rgb '#D55E00' title 'CRITICAL', \
	NaN with points pt 7 ps 1.4 lc rgb '#999999' title 'UNKNOWN', \
	NaN with points pt 6 ps 1.4 lc rgb '#000000' title 'not judged', \
	'' using 1:(drifted($12) ? $2 : NaN) with points pt 6 ps 2.6 lw 2 lc rgb '#CC79A7' title 'drift chart raised WARNING'

set ylabel 'per-pair bandwidth (MB/s = 10^6 B/s)'
pad = mx((bw_max - bw_min) * 0.1, bw_max * 0.02)
set yrange [mx(0, bw_min - pad) : bw_max + pad]
if (!charted) { set xlabel 'run start (UTC)' }
plot $T using 1:10:11 with filledcurves lc rgb '#0072B2' notitle, \
	'' using 1:5 with lines lc rgb '#909090' lw 1 notitle, \
	'' using 1:5:6:7 with yerrorbars lc rgb '#404040' pt 0 notitle, \
	'' using 1:(st($12) >= 0 ? $5 : NaN):(status_rgb(st($12))) with points pt 7 ps 1.4 lc rgb variable notitle, \
	'' using 1:(st($12) < 0 ? $5 : NaN) with points pt 6 ps 1.4 lc rgb '#000000' notitle, \
	'' using 1:(drifted($12) ? $5 : NaN) with points pt 6 ps 2.6 lw 2 lc rgb '#CC79A7' notitle

if (charted) {
	set ylabel 'drift: EWMA (SDs)'
	set xlabel 'run start (UTC)'
	set autoscale y
	plot $T using 1:13 with linespoints pt 7 ps 0.8 lc rgb '#0072B2' title 'EWMA of tonight''s change in SDs', \
		'' using 1:14 with lines dt 2 lw 2 lc rgb '#D55E00' title 'control limit', \
		'' using 1:(drifted($12) ? $13 : NaN) with points pt 6 ps 2.6 lw 2 lc rgb '#CC79A7' notitle
}
unset multiplot
