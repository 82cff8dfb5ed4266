# drop.gp - degradation against the baseline (least loaded) level, in
# percent, as more switch ports are loaded, for one pattern: bandwidth drop
# (stream, bidir, ...) or latency inflation (pingpong), one curve per
# message size with its confidence band. Filled markers are significant
# changes (p < alpha and beyond min_effect), open ones are not. The dashed
# line is the significance threshold min_effect.
#
# Reads  in = summary.csv, columns: nodes, pattern, size_bytes, hops, and
#        bw_drop_pct, bw_drop_lo, bw_drop_hi, bw_drop_sig (metric 'bw') or
#        lat_infl_pct, lat_infl_lo, lat_infl_hi, lat_infl_sig (metric 'lat').
#        The baseline level's own change is NaN and drawn as 0; a NaN CI
#        is drawn without a band.
# Takes  in, out, pattern (required); metric ('lat' or 'bw'; default 'lat'
#        for pingpong, else 'bw'), min_effect (percent, default 2), label,
#        date, sizes, nodes, hops, conf, term, width, height (optional, see
#        common.gp).
# By hand:
#   gnuplot -e "in='results/X/summary.csv'; out='drop.png'; pattern='stream'; min_effect=2" plot/drop.gp

if (!exists("width")) { width = 1100 }
if (!exists("height")) { height = 720 }
_dir = ''
do for [_i = strlen(ARG0):1:-1] { if (_dir eq '' && ARG0[_i:_i] eq '/') { _dir = ARG0[1:_i] } }
load _dir.'common.gp'
if (!exists("pattern")) { print "drop.gp: set pattern='stream'"; exit status 2 }
if (!exists("metric")) { metric = (pattern eq 'pingpong' ? 'lat' : 'bw') }
if (!exists("min_effect")) { min_effect = 2 }
min_effect = min_effect + 0.0

c_pct = (metric eq 'lat' ? 'lat_infl_pct' : 'bw_drop_pct')
c_lo = (metric eq 'lat' ? 'lat_infl_lo' : 'bw_drop_lo')
c_hi = (metric eq 'lat' ? 'lat_infl_hi' : 'bw_drop_hi')
c_sig = (metric eq 'lat' ? 'lat_infl_sig' : 'bw_drop_sig')
what = (metric eq 'lat' ? 'latency inflation' : 'bandwidth drop')

# The baseline level's change is NaN: draw it as 0.
pct(_) = bad(strcol(c_pct)) ? (column('nodes') == nodes_lo ? 0 : NaN) : column(c_pct)
y_min = 0; y_max = min_effect
seen(a, b, c) = (y_min = mn(mn(mn(y_min, a), b), c), y_max = mx(mx(mx(y_max, a), b), c), 1)
do for [i = 1:nsizes] {
	eval sprintf('set table $D%d', i)
	plot in using 'nodes':(pct(0)):(num(c_lo, pct(0))):(num(c_hi, pct(0))):(num(c_sig, 0)) \
		with table if (strcol('pattern') eq pattern && column('size_bytes') == size_i(i) && hop_match(0) && \
			seen(pct(0), num(c_lo, NaN), num(c_hi, NaN)))
	unset table
}
set datafile separator whitespace
set datafile nocolumnheaders
D(i) = sprintf('$D%d', i)

set style fill transparent solid mx(0.04, mn(0.15, 0.4 / nsizes)) noborder
set title run_title('Degradation under load: '.what, pattern) font ',15'
eval xaxis_nodes
if (nlevels <= 16) { set xtics () ; do for [i = 1:nlevels] { set xtics add (sprintf('%d', node_i(i)) node_i(i)) } }
set xlabel 'loaded ports (nodes)'
set ylabel sprintf('%s (%%), against %s', what, fmt_level(nodes_lo))
pad = (y_max - y_min) * 0.08
set yrange [y_min - pad : y_max + pad]
set format y '%g'
set xzeroaxis lt 1 lc rgb '#909090' lw 1
rows = mn(5, ceil((nsizes + 3) / 4.0))
set bmargin 6 + 1.3 * rows
set key outside below center horizontal maxrows 5 samplen 3 spacing 1.1 reverse Left width 2
set label 1 sprintf('min_effect %g %%', min_effect) at graph 0.99, first min_effect right offset 0, 0.7 \
	font ',10' tc rgb '#303030' front
if (nlevels == 1) {
	set label 2 'one load level only: nothing to compare against' at graph 0.5, graph 0.5 center font ',13' tc rgb '#606060'
}
plot for [i = 1:nsizes] D(i) using 1:3:4 with filledcurves lc rgb scol(i) notitle, \
	min_effect with lines lc rgb '#303030' lw 1.3 dt 2 notitle, \
	for [i = 1:nsizes] D(i) using 1:2 with lines lc rgb scol(i) lw 2 notitle, \
	for [i = 1:nsizes] D(i) using 1:2:($5 > 0 ? spt(i) : spt_open(i)) with points lc rgb scol(i) pt variable ps 1.3 lw 1.5 notitle, \
	for [i = 1:nsizes] NaN with linespoints lc rgb scol(i) pt spt(i) lw 2 title fmt_size(size_i(i)), \
	NaN with filledcurves lc rgb '#303030' title sprintf('%s%% CI', conf), \
	NaN with points lc rgb '#303030' pt 7 ps 1.3 title 'significant', \
	NaN with points lc rgb '#303030' pt 6 ps 1.3 title 'not significant', \
	NaN with lines lc rgb '#303030' lw 1.3 dt 2 title 'threshold (min_effect)'
