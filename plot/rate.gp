# rate.gp - the message rate (10^6 messages/s) of a bandwidth pattern as
# more switch ports are loaded, one colour per message size, on a log axis
# (8 B and 4 MiB differ by 10^5). Filled markers and a solid line: the
# aggregate of the level's pairs (median and CI); open markers and a dashed
# line: one pair's rate; dotted: the ideal aggregate (the unloaded pair's
# rate times the pairs). At small sizes the aggregate falling away from
# the ideal is the switch's small-packet forwarding limit; at one size the
# rate is the bandwidth over the size, so it falls off as the bandwidth.
#
# Reads  in = summary.csv, columns: nodes, pattern, size_bytes, hops,
#        rate_median_Mmsgps, rate_lo_Mmsgps, rate_hi_Mmsgps,
#        agg_rate_median_Mmsgps, agg_rate_lo_Mmsgps, agg_rate_hi_Mmsgps,
#        ideal_agg_MBps (NaN CI fields: no error bar).
# Takes  in, out, pattern (required); label, date, sizes, nodes, hops,
#        conf, table, term, width, height (optional, see common.gp).
# By hand:
#   gnuplot -e "in='results/X/summary.csv'; out='rate.png'; pattern='stream'" plot/rate.gp

if (!exists("width")) { width = 1100 }
if (!exists("height")) { height = 720 }
_dir = ''
do for [_i = strlen(ARG0):1:-1] { if (_dir eq '' && ARG0[_i:_i] eq '/') { _dir = ARG0[1:_i] } }
load _dir.'common.gp'
if (!exists("pattern")) { print "rate.gp: set pattern='stream'"; exit status 2 }

# One table per size: nodes, aggregate lo hi, pair lo hi, ideal aggregate.
y_min = 1e300; y_max = -1e300
seen(a, b, c) = (y_min = mn(mn(y_min, a), b), y_max = mx(mx(y_max, a), c), 1)
do for [i = 1:nsizes] {
	eval sprintf('set table $R%d', i)
	plot in using 'nodes':'agg_rate_median_Mmsgps':(num('agg_rate_lo_Mmsgps', column('agg_rate_median_Mmsgps'))):\
		(num('agg_rate_hi_Mmsgps', column('agg_rate_median_Mmsgps'))):'rate_median_Mmsgps':\
		(num('rate_lo_Mmsgps', column('rate_median_Mmsgps'))):(num('rate_hi_Mmsgps', column('rate_median_Mmsgps'))):\
		(num('ideal_agg_MBps', NaN) / column('size_bytes')) \
		with table if (strcol('pattern') eq pattern && column('size_bytes') == size_i(i) && hop_match(0) && \
			!bad(strcol('agg_rate_median_Mmsgps')) && \
			seen(num('rate_lo_Mmsgps', num('rate_median_Mmsgps', 1e300)), num('agg_rate_median_Mmsgps', 1e300), \
			     num('agg_rate_hi_Mmsgps', num('agg_rate_median_Mmsgps', -1e300))))
	unset table
}
set datafile separator whitespace
set datafile nocolumnheaders
R(i) = sprintf('$R%d', i)
if (y_max < y_min) { y_min = 1; y_max = 10 }

eval xaxis_nodes
if (nlevels <= 16) { set xtics () ; do for [i = 1:nlevels] { set xtics add (sprintf('%d', node_i(i)) node_i(i)) } }
set title run_title('Message rate as more switch ports are loaded', pattern) font ',15'
set xlabel 'loaded ports (nodes)'
set ylabel sprintf('message rate (Mmsg/s = 10⁶ messages/s), median and %s%% CI', conf)
set logscale y 10
eval 'set yrange '.logrange(y_min, y_max)
set format y '%g'
_lo = y_min; _hi = y_max
@LOGTICS_Y
set bmargin 9
set key outside below center horizontal maxrows 3 samplen 3 spacing 1.1 reverse Left width 2
plot for [i = 1:nsizes] R(i) using 1:8 with lines lc rgb scol(i) lw 1.2 dt 3 notitle, \
	for [i = 1:nsizes] R(i) using 1:2:3:4 with yerrorlines lc rgb scol(i) pt spt(i) ps 1.2 lw 2 notitle, \
	for [i = 1:nsizes] R(i) using 1:5:6:7 with yerrorlines lc rgb scol(i) pt spt_open(i) ps 1.2 lw 1.5 dt 2 notitle, \
	for [i = 1:nsizes] NaN with linespoints lc rgb scol(i) pt spt(i) lw 2 title fmt_size(size_i(i)), \
	NaN with linespoints lc rgb '#303030' pt 7 lw 2 title 'aggregate', \
	NaN with linespoints lc rgb '#303030' pt 6 lw 1.5 dt 2 title 'per pair', \
	NaN with lines lc rgb '#303030' lw 1.2 dt 3 title 'ideal aggregate (unloaded pair x pairs)'

# What was drawn.
if (table ne '') {
	set print table
	do for [i = 1:nsizes] {
		print series_line('rate', 'aggregate '.fmt_size(size_i(i)), scol(i), spt(i))
		print series_line('rate', 'per pair '.fmt_size(size_i(i)), scol(i), spt_open(i))
		print series_line('rate', 'ideal aggregate '.fmt_size(size_i(i)), scol(i), 0)
	}
	unset print
}
