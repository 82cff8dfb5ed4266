# falloff.gp - how latency and bandwidth fall off as more switch ports are
# loaded, for one pattern. Left: per-hop latency (median and CI) against
# loaded ports, one curve per message size. Right: per-pair and aggregate
# bandwidth (median and CI) against loaded ports, with the ideal aggregate
# (the unloaded per-pair median times the pairs); the shaded gap between
# ideal and aggregate is what the switch lost.
#
# With more than 4 message sizes the curves would crowd one pair of axes:
# then every size gets its own panel (small multiples), sharing the x axis
# and the colours (aggregate blue, per pair vermillion, ideal grey; for
# a latency pattern, the latency), each y axis over its own size's values (4 B and
# 4 MiB differ by 10^5; bandwidth on a log axis, where the aggregate of 24
# pairs and one pair's share both read), and only the pattern's own
# metric: bandwidth, or latency for a latency pattern.
#
# Reads  in = summary.csv, columns: nodes, pattern, size_bytes, hops,
#        lat_median_us, lat_lo_us, lat_hi_us, bw_median_MBps, bw_lo_MBps,
#        bw_hi_MBps, agg_median_MBps, agg_lo_MBps, agg_hi_MBps, ideal_agg_MBps
#        (NaN CI fields: the point is drawn without an error bar).
# Takes  in, out, pattern, metric ('lat' or 'bw', as plot passes it from
#        what the pattern is: the small multiples draw that one) (required);
#        label, date, sizes, nodes, hops, conf,
#        table, term, width, height (optional, see common.gp).
# By hand:
#   gnuplot -e "in='results/X/summary.csv'; out='falloff.png'; pattern='stream'; metric='bw'" plot/falloff.gp

if (!exists("width")) { width = 1500 }
if (!exists("height")) { height = 680 }
_dir = ''
do for [_i = strlen(ARG0):1:-1] { if (_dir eq '' && ARG0[_i:_i] eq '/') { _dir = ARG0[1:_i] } }
load _dir.'common.gp'
if (!exists("pattern")) { print "falloff.gp: set pattern='stream'"; exit status 2 }
if (!exists("metric")) { print "falloff.gp: set metric='lat' or 'bw'"; exit status 2 }

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

eval xaxis_nodes
if (nlevels <= 16) { set xtics () ; do for [i = 1:nlevels] { set xtics add (sprintf('%d', node_i(i)) node_i(i)) } }
set xlabel 'loaded ports (nodes)'
# Small multiples; the key takes the slot after the last panel (as plot.c
# sizes the image).
if (nsizes > 4) {
	lat = (metric eq 'lat')
	ncols = (nsizes <= 6 ? 3 : 4)
	nrows = ceil((nsizes + 1) / (ncols + 0.0))
	pw = 0.88 / ncols
	ph = 0.82 / nrows
	set multiplot title run_title('Fall-off as more switch ports are loaded: '.(lat ? 'per-hop latency' : 'bandwidth'), pattern) font ',15'
	set label 10 'loaded ports (nodes)' at screen 0.5, screen 0.025 center font ',11'
	set label 11 (lat ? sprintf('per-hop latency (µs), median and %s%% CI', conf) : \
		sprintf('bandwidth (MB/s = 10⁶ bytes/s), median and %s%% CI', conf)) at screen 0.015, screen 0.5 center rotate by 90 font ',11'
	set xtics font ',10'
	set ytics font ',10'
	set format y '%g'
	set style fill transparent solid 0.18 noborder
	unset xlabel
	do for [i = 1:nsizes] {
		c = (i - 1) % ncols
		r = (i - 1) / ncols
		set lmargin at screen 0.07 + c * pw + (c > 0 ? 0.02 : 0)
		set rmargin at screen 0.07 + (c + 1) * pw - 0.02
		set tmargin at screen 0.88 - r * ph - 0.03
		set bmargin at screen 0.88 - (r + 1) * ph + 0.04
		set title fmt_size(size_i(i)) font ',12' offset 0, -0.8
		if (lat) {
			unset logscale y
			set yrange [0:*]
			set ytics autofreq
		} else {
			unset logscale y
			set yrange [*:*]
			stats F(i) using 6 nooutput
			_lo = STATS_min
			stats F(i) using (mx(mx($10, $11), $7)) nooutput
			_hi = STATS_max
			set logscale y 10
			eval 'set yrange '.logrange(_lo, _hi)
			set ytics autofreq
			@LOGTICS_Y
		}
		if (i == nsizes) {
			set key at screen 0.07 + (nsizes % ncols + 0.05) * pw, screen 0.88 - (nrows - 0.5) * ph \
				left center vertical samplen 3 spacing 1.15 reverse Left font ',10'
		} else {
			unset key
		}
		if (lat) {
			plot F(i) using 1:2:3:4 with yerrorlines lc rgb '#0072B2' pt 7 ps 1.1 lw 2 title 'per-hop latency'
		} else {
			plot F(i) using 1:8:11 with filledcurves below lc rgb '#606060' notitle, \
				F(i) using 1:11 with lines lc rgb '#606060' lw 1.5 dt 3 notitle, \
				F(i) using 1:8:9:10 with yerrorlines lc rgb '#0072B2' pt 7 ps 1.1 lw 2 notitle, \
				F(i) using 1:5:6:7 with yerrorlines lc rgb '#D55E00' pt 4 ps 1.1 lw 1.5 dt 2 notitle, \
				NaN with linespoints lc rgb '#0072B2' pt 7 lw 2 title (i == nsizes ? 'aggregate' : ''), \
				NaN with linespoints lc rgb '#D55E00' pt 4 lw 1.5 dt 2 title (i == nsizes ? 'per pair' : ''), \
				NaN with lines lc rgb '#606060' lw 1.5 dt 3 title (i == nsizes ? 'ideal aggregate (unloaded pair x pairs)' : ''), \
				NaN with filledcurves lc rgb '#606060' title (i == nsizes ? 'shortfall from ideal' : '')
		}
		unset label 10
		unset label 11
	}
	unset multiplot
	if (table ne '') {
		set print table
		do for [i = 1:nsizes] {
			if (lat) {
				print series_line(fmt_size(size_i(i)), 'per-hop latency', '#0072B2', 7)
			} else {
				print series_line(fmt_size(size_i(i)), 'aggregate', '#0072B2', 7)
				print series_line(fmt_size(size_i(i)), 'per pair', '#D55E00', 4)
				print series_line(fmt_size(size_i(i)), 'ideal aggregate', '#606060', 0)
			}
		}
		unset print
	}
	exit
}

bottom = (96.0 + 20 * mx(2, mn(4, ceil(nsizes / 5.0)))) / height
set multiplot layout 1, 2 title run_title('Fall-off as more switch ports are loaded', pattern) font ',15' \
	margins 0.07, 0.98, bottom, 0.83 spacing 0.08, 0
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
plot for [i = 1:nsizes] F(i) using 1:8:11 with filledcurves below lc rgb scol(i) notitle, \
	for [i = 1:nsizes] F(i) using 1:11 with lines lc rgb scol(i) lw 1.2 dt 3 notitle, \
	for [i = 1:nsizes] F(i) using 1:8:9:10 with yerrorlines lc rgb scol(i) pt spt(i) ps 1.1 lw 2 notitle, \
	for [i = 1:nsizes] F(i) using 1:5:6:7 with yerrorlines lc rgb scol(i) pt spt_open(i) ps 1.1 lw 1.5 dt 2 notitle, \
	NaN with linespoints lc rgb '#303030' pt 7 lw 2 title 'aggregate', \
	NaN with linespoints lc rgb '#303030' pt 6 lw 1.5 dt 2 title 'per pair', \
	NaN with lines lc rgb '#303030' lw 1.2 dt 3 title 'ideal aggregate', \
	NaN with filledcurves lc rgb '#303030' title 'shortfall from ideal'
unset multiplot
if (table ne '') {
	set print table
	do for [i = 1:nsizes] {
		print series_line('latency', fmt_size(size_i(i)), scol(i), spt(i))
		print series_line('bandwidth', 'aggregate '.fmt_size(size_i(i)), scol(i), spt(i))
		print series_line('bandwidth', 'per pair '.fmt_size(size_i(i)), scol(i), spt_open(i))
		print series_line('bandwidth', 'ideal aggregate '.fmt_size(size_i(i)), scol(i), 0)
	}
	unset print
}
