# falloff.gp - how latency and bandwidth fall off as more switch ports are
# loaded, for one pattern. Left: per-hop latency (median and CI) against
# loaded ports, one curve per message size. Right: per-pair and aggregate
# bandwidth (median and CI) against loaded ports, with the ideal aggregate
# (the unloaded per-pair median times the pairs); the shaded gap between
# ideal and aggregate is what the switch lost.
#
# Reads  in = summary.csv, columns: nodes, pattern, size_bytes, hops,
#        lat_median_us, lat_lo_us, lat_hi_us, bw_median_MBps, bw_lo_MBps,
#        bw_hi_MBps, agg_median_MBps, agg_lo_MBps, agg_hi_MBps, ideal_agg_MBps
#        (NaN CI fields: the point is drawn without an error bar).
# Takes  in, out, pattern (required); label, date, sizes, nodes, hops, conf,
#        term, width, height (optional, see common.gp).
# By hand:
#   gnuplot -e "in='results/X/summary.csv'; out='falloff.png'; pattern='stream'" plot/falloff.gp

if (!exists("width")) { width = 1500 }
if (!exists("height")) { height = 680 }
_dir = ''
do for [_i = strlen(ARG0):1:-1] { if (_dir eq '' && ARG0[_i:_i] eq '/') { _dir = ARG0[1:_i] } }
load _dir.'common.gp'
if (!exists("pattern")) { print "falloff.gp: set pattern='stream'"; exit status 2 }

# One table per size: nodes lat lo hi bw lo hi agg lo hi ideal.
lat_min = 1e300; lat_max = -1e300; bw_min = 1e300; bw_max = -1e300
seen(l, b1, b2, b3) = (lat_min = mn(lat_min, l), lat_max = mx(lat_max, l), \
	bw_min = mn(mn(bw_min, b1), b2), bw_max = mx(mx(mx(bw_max, b1), b2), b3), 1)
do for [i = 1:nsizes] {
	eval sprintf('set table $F%d', i)
	plot in using 'nodes':'lat_median_us':(num('lat_lo_us', column('lat_median_us'))):(num('lat_hi_us', column('lat_median_us'))):\
		'bw_median_MBps':(num('bw_lo_MBps', column('bw_median_MBps'))):(num('bw_hi_MBps', column('bw_median_MBps'))):\
		'agg_median_MBps':(num('agg_lo_MBps', column('agg_median_MBps'))):(num('agg_hi_MBps', column('agg_median_MBps'))):\
		(num('ideal_agg_MBps', NaN)) \
		with table if (strcol('pattern') eq pattern && column('size_bytes') == size_i(i) && hop_match(0) && \
			seen(num('lat_median_us', NaN), num('bw_median_MBps', NaN), num('agg_median_MBps', NaN), num('ideal_agg_MBps', NaN)))
	unset table
}
set datafile separator whitespace
set datafile nocolumnheaders
F(i) = sprintf('$F%d', i)
if (lat_max < lat_min) { lat_min = 1; lat_max = 10 }
if (bw_max < bw_min) { bw_min = 1; bw_max = 10 }

bottom = (96.0 + 20 * mx(2, mn(4, ceil(nsizes / 5.0)))) / height
set multiplot layout 1, 2 title run_title('Fall-off as more switch ports are loaded', pattern) font ',15' \
	margins 0.07, 0.98, bottom, 0.83 spacing 0.08, 0
eval xaxis_nodes
if (nlevels <= 16) { set xtics () ; do for [i = 1:nlevels] { set xtics add (sprintf('%d', node_i(i)) node_i(i)) } }
set xlabel 'loaded ports (nodes)'
set key outside below center horizontal maxrows 4 samplen 3 spacing 1.1 reverse Left width 2

# --- left: latency --------------------------------------------------------
set title sprintf('per-hop latency: median, %s%% CI', conf) font ',12'
set ylabel 'per-hop latency (µs)'
set format y '%g'
if (lat_max / lat_min > 20) { set logscale y 10; eval 'set yrange '.logrange(lat_min, lat_max); _lo = lat_min; _hi = lat_max; @LOGTICS_Y } else { unset logscale y; set yrange [0:*] }
plot for [i = 1:nsizes] F(i) using 1:2:3:4 with yerrorlines lc rgb scol(i) pt spt(i) ps 1.1 lw 2 title fmt_size(size_i(i))

# --- right: bandwidth -----------------------------------------------------
set key maxrows 2
set title sprintf('bandwidth: median, %s%% CI (MB/s = 10⁶ bytes/s)', conf) font ',12'
set ylabel 'bandwidth (MB/s)'
set ytics autofreq
if (bw_max / bw_min > 20) { set logscale y 10; eval 'set yrange '.logrange(bw_min, bw_max); _lo = bw_min; _hi = bw_max; @LOGTICS_Y } else { unset logscale y; set yrange [0:*] }
plot for [i = 1:nsizes] F(i) using 1:8:11 with filledcurves lc rgb scol(i) notitle, \
	for [i = 1:nsizes] F(i) using 1:11 with lines lc rgb scol(i) lw 1.2 dt 3 notitle, \
	for [i = 1:nsizes] F(i) using 1:8:9:10 with yerrorlines lc rgb scol(i) pt spt(i) ps 1.1 lw 2 notitle, \
	for [i = 1:nsizes] F(i) using 1:5:6:7 with yerrorlines lc rgb scol(i) pt spt_open(i) ps 1.1 lw 1.5 dt 2 notitle, \
	NaN with linespoints lc rgb '#303030' pt 7 lw 2 title 'aggregate', \
	NaN with linespoints lc rgb '#303030' pt 6 lw 1.5 dt 2 title 'per pair', \
	NaN with lines lc rgb '#303030' lw 1.2 dt 3 title 'ideal aggregate', \
	NaN with filledcurves lc rgb '#303030' title 'shortfall from ideal'
unset multiplot
