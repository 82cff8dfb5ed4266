# victims.gp - victims and aggressors (victims.h): how much slower the
# victims' pingpong is beside the aggressors than alone, in percent
# (latency inflation, positive = slower), against the loaded aggressor
# ports, for one aggressor pattern: the median (circles, solid line) and
# the p99 (squares, dashed line) of the victims' one-way latency, each with
# its CI as error bars; filled markers are significant changes (p < alpha
# and beyond min_effect), open ones are not; the dotted line is min_effect.
# One colour per aggressor message size.
#
# Reads  in = summary.csv, columns: nodes, pattern, size_bytes,
#        victim_infl_pct, victim_infl_lo, victim_infl_hi, victim_infl_sig,
#        victim_p99_infl_pct, victim_p99_infl_lo, victim_p99_infl_hi,
#        victim_p99_infl_sig (NaN where a change could not be computed: not
#        drawn; a NaN CI: no error bar).
# Takes  in, out, pattern (required); min_effect (percent, default 2),
#        label, date, sizes, nodes, conf, term, width, height (optional,
#        see common.gp).
# By hand:
#   gnuplot -e "in='results/X/summary.csv'; out='victims.png'; pattern='stream'" plot/victims.gp

_dir = ''
do for [_i = strlen(ARG0):1:-1] { if (_dir eq '' && ARG0[_i:_i] eq '/') { _dir = ARG0[1:_i] } }
if (!exists("width")) { width = 1100 }
if (!exists("height")) { height = 720 }
load _dir.'common.gp'
if (!exists("pattern")) { print "victims.gp: set pattern='stream'"; exit status 2 }
if (!exists("min_effect")) { min_effect = 2 }
min_effect = min_effect + 0.0

sel(i) = (strcol('pattern') eq pattern && column('size_bytes') == size_i(i))
# value of column c in a selected row, else NaN; its CI end, or the value
v(i, c) = sel(i) ? num(c, NaN) : NaN
e(i, c, d) = sel(i) ? num(c, num(d, NaN)) : NaN
pt_sig(c, filled) = num(c, 0) > 0 ? filled : filled - 1

set title run_title("Victims' latency beside the aggressors against alone (inflation, positive = slower)", pattern) font ',15'
set xlabel 'loaded aggressor ports (nodes; the victims come on top)'
set ylabel sprintf("victims' one-way latency inflation (%%), %s%% CI", conf)
eval xaxis_nodes
set xtics () font ',10'
if (nlevels <= 16) { do for [k = 1:nlevels] { set xtics add (sprintf('%d', node_i(k)) node_i(k)) } } else { set xtics autofreq }
set xzeroaxis lt 1 lc rgb '#909090' lw 1
set bmargin 8
set key outside below center horizontal maxrows 3 samplen 3 spacing 1.1 reverse Left width 2

plot min_effect with lines lc rgb '#303030' lw 1.2 dt 3 notitle, \
	for [i = 1:nsizes] in using 'nodes':(v(i, 'victim_infl_pct')) with lines lc rgb scol(i) lw 2 notitle, \
	for [i = 1:nsizes] in using 'nodes':(v(i, 'victim_infl_pct')):(e(i, 'victim_infl_lo', 'victim_infl_pct')):\
		(e(i, 'victim_infl_hi', 'victim_infl_pct')) with yerrorbars lc rgb scol(i) pt 7 ps 0 notitle, \
	for [i = 1:nsizes] in using 'nodes':(v(i, 'victim_infl_pct')):(pt_sig('victim_infl_sig', 7)) \
		with points lc rgb scol(i) pt variable ps 1.5 lw 1.5 notitle, \
	for [i = 1:nsizes] in using 'nodes':(v(i, 'victim_p99_infl_pct')) with lines lc rgb scol(i) lw 2 dt 2 notitle, \
	for [i = 1:nsizes] in using 'nodes':(v(i, 'victim_p99_infl_pct')):(e(i, 'victim_p99_infl_lo', 'victim_p99_infl_pct')):\
		(e(i, 'victim_p99_infl_hi', 'victim_p99_infl_pct')) with yerrorbars lc rgb scol(i) pt 5 ps 0 notitle, \
	for [i = 1:nsizes] in using 'nodes':(v(i, 'victim_p99_infl_pct')):(pt_sig('victim_p99_infl_sig', 5)) \
		with points lc rgb scol(i) pt variable ps 1.5 lw 1.5 notitle, \
	for [i = 1:nsizes] NaN with lines lc rgb scol(i) lw 2 title 'aggressors '.fmt_size(size_i(i)), \
	NaN with linespoints lc rgb '#303030' pt 7 lw 2 title 'median', \
	NaN with linespoints lc rgb '#303030' pt 5 lw 2 dt 2 title 'p99', \
	NaN with points lc rgb '#303030' pt 6 ps 1.5 title 'open: not significant', \
	NaN with lines lc rgb '#303030' lw 1.2 dt 3 title sprintf('min_effect %g %%', min_effect)

if (table ne '') {
	set print table
	do for [i = 1:nsizes] {
		print series_line('all', 'median '.fmt_size(size_i(i)), scol(i), 7)
		print series_line('all', 'p99 '.fmt_size(size_i(i)), scol(i), 5)
	}
	unset print
}
