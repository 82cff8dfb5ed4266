# compare.gp - several runs (switch A, B, ...) of the same sweep on the same
# axes, for one pattern: the overlay versions of falloff.gp and drop.gp.
# Every run keeps one colour in every chart (Okabe-Ito, in run order);
# message sizes are told apart by marker shape and dash. Points of the runs
# are nudged sideways a little so that their error bars do not hide each
# other.
#
#   kind = 'falloff'  left: per-hop latency (median, CI) against loaded ports;
#                     right: aggregate bandwidth (median, CI)
#   kind = 'drop'     degradation from each run's own baseline level (%, CI):
#                     latency inflation (metric 'lat') or bandwidth drop
#                     ('bw'); filled markers are significant changes, open
#                     ones are not; the dashed line is min_effect
#
# Reads  in1..inN = each run's summary.csv, columns: level, nodes, pattern,
#        size_bytes, hops, lat_median_us, lat_lo_us, lat_hi_us,
#        agg_median_MBps, agg_lo_MBps, agg_hi_MBps, lat_infl_pct,
#        lat_infl_lo, lat_infl_hi, lat_infl_sig, bw_drop_pct, bw_drop_lo,
#        bw_drop_hi, bw_drop_sig (NaN CI fields: no error bar).
# Takes  nruns, in1..inN, run1..runN (legend labels), kind, pattern, sizes,
#        nodes, metric ('lat' or 'bw': what the pattern is judged by, as
#        compare passes it) (required); min_effect, label (the title's second
#        line), date, hops, conf, term, width, height (optional, see
#        common.gp).
# By hand:
#   gnuplot -e "nruns=2; in1='results/A/summary.csv'; run1='switch-A'; \
#     in2='results/B/summary.csv'; run2='switch-B'; kind='drop'; \
#     pattern='stream'; metric='bw'; sizes='8 65536'; nodes='2 4 8'; out='drop.png'" plot/compare.gp

if (!exists("kind")) { kind = 'falloff' }
if (!exists("width")) { width = (kind eq 'drop' ? 1100 : 1500) }
if (!exists("height")) { height = (kind eq 'drop' ? 720 : 700) }
if (!exists("nruns") || !exists("sizes") || !exists("nodes") || !exists("pattern")) {
	print "compare.gp: set nruns, in1.., run1.., pattern, sizes and nodes"; exit status 2
}
_dir = ''
do for [_i = strlen(ARG0):1:-1] { if (_dir eq '' && ARG0[_i:_i] eq '/') { _dir = ARG0[1:_i] } }
load _dir.'common.gp'
if (!exists("metric")) { print "compare.gp: set metric='lat' or 'bw'"; exit status 2 }
if (!exists("min_effect")) { min_effect = 2 }
min_effect = min_effect + 0.0

run_in(r) = value(sprintf('in%d', r))
run_name(r) = exists(sprintf('run%d', r)) ? value(sprintf('run%d', r)) : sprintf('run %d', r)
c_pct = (metric eq 'lat' ? 'lat_infl_pct' : 'bw_drop_pct')
c_lo = (metric eq 'lat' ? 'lat_infl_lo' : 'bw_drop_lo')
c_hi = (metric eq 'lat' ? 'lat_infl_hi' : 'bw_drop_hi')
c_sig = (metric eq 'lat' ? 'lat_infl_sig' : 'bw_drop_sig')
what = (metric eq 'lat' ? 'latency inflation' : 'bandwidth drop')
# The baseline level's own change is NaN: draw it as 0.
pct(_) = bad(strcol(c_pct)) ? (column('level') == 0 ? 0 : NaN) : column(c_pct)

# One table per run and size: nodes lat lo hi agg lo hi pct lo hi sig.
lat_min = 1e300; lat_max = -1e300; bw_min = 1e300; bw_max = -1e300; y_min = 0; y_max = min_effect
seen(l, b, p, plo, phi) = (lat_min = mn(lat_min, l), lat_max = mx(lat_max, l), bw_min = mn(bw_min, b), \
	bw_max = mx(bw_max, b), y_min = mn(mn(mn(y_min, p), plo), phi), y_max = mx(mx(mx(y_max, p), plo), phi), 1)
do for [r = 1:nruns] {
	do for [i = 1:nsizes] {
		eval sprintf('set table $T%d_%d', r, i)
		plot run_in(r) using 'nodes':'lat_median_us':(num('lat_lo_us', column('lat_median_us'))):\
			(num('lat_hi_us', column('lat_median_us'))):(num('agg_median_MBps', NaN)):\
			(num('agg_lo_MBps', num('agg_median_MBps', NaN))):(num('agg_hi_MBps', num('agg_median_MBps', NaN))):\
			(pct(0)):(num(c_lo, pct(0))):(num(c_hi, pct(0))):(num(c_sig, 0)) \
			with table if (strcol('pattern') eq pattern && column('size_bytes') == size_i(i) && hop_match(0) && \
				seen(num('lat_median_us', NaN), num('agg_median_MBps', NaN), pct(0), num(c_lo, NaN), num(c_hi, NaN)))
		unset table
	}
}
set datafile separator whitespace
set datafile nocolumnheaders
T(r, i) = sprintf('$T%d_%d', r, i)
if (lat_max < lat_min) { lat_min = 1; lat_max = 10 }
if (bw_max < bw_min) { bw_min = 1; bw_max = 10 }
# Sideways nudge of run r, so the runs' error bars stand apart.
nudge(r) = (r - (nruns + 1) / 2.0) * nodes_pad * 0.3
rcol(r) = scol(r)

eval xaxis_nodes
if (nlevels <= 16) { set xtics () ; do for [i = 1:nlevels] { set xtics add (sprintf('%d', node_i(i)) node_i(i)) } }
set xlabel 'loaded ports (nodes)'
rows = mn(5, ceil((nruns + nsizes + 2) / 4.0))

if (kind eq 'drop') {
	set title run_title('Degradation under load, switches compared: '.what, pattern) font ',15'
	set ylabel sprintf('%s (%%), against each run''s least loaded level', what)
	pad = (y_max - y_min) * 0.08
	set yrange [y_min - pad : y_max + pad]
	set format y '%g'
	set xzeroaxis lt 1 lc rgb '#909090' lw 1
	set bmargin 6 + 1.3 * rows
	set key outside below center horizontal maxrows 5 samplen 3 spacing 1.1 reverse Left width 2
	set label 1 sprintf('min_effect %g %%', min_effect) at graph 0.99, first min_effect right offset 0, 0.7 \
		font ',10' tc rgb '#303030' front
	plot min_effect with lines lc rgb '#303030' lw 1.3 dt 2 notitle, \
		for [r = 1:nruns] for [i = 1:nsizes] T(r, i) using ($1 + nudge(r)):8:9:10 with yerrorbars \
			lc rgb rcol(r) lw 1.3 pt 0 notitle, \
		for [r = 1:nruns] for [i = 1:nsizes] T(r, i) using ($1 + nudge(r)):8 with lines lc rgb rcol(r) lw 2 dt i notitle, \
		for [r = 1:nruns] for [i = 1:nsizes] T(r, i) using ($1 + nudge(r)):8:($11 > 0 ? spt(i) : spt_open(i)) \
			with points lc rgb rcol(r) pt variable ps 1.3 lw 1.5 notitle, \
		for [r = 1:nruns] NaN with lines lc rgb rcol(r) lw 3 title run_name(r), \
		for [i = 1:nsizes] NaN with linespoints lc rgb '#303030' pt spt(i) dt i lw 1.5 title fmt_size(size_i(i)), \
		NaN with points lc rgb '#303030' pt 7 ps 1.3 title 'significant', \
		NaN with points lc rgb '#303030' pt 6 ps 1.3 title 'not significant', \
		NaN with lines lc rgb '#303030' lw 1.3 dt 2 title 'threshold (min_effect)'
} else {
	bottom = (112.0 + 20 * mx(2, mn(4, rows))) / height
	set multiplot layout 1, 2 title run_title('Fall-off as more switch ports are loaded, switches compared', pattern) \
		font ',15' margins 0.07, 0.98, bottom, 0.83 spacing 0.08, 0
	set key outside below center horizontal maxrows 4 samplen 3 spacing 1.1 reverse Left width 2

	set title sprintf('per-hop latency: median, %s%% CI', conf) font ',12'
	set ylabel 'per-hop latency (µs)'
	set format y '%g'
	if (lat_max / lat_min > 20) { set logscale y 10; eval 'set yrange '.logrange(lat_min, lat_max) } else { unset logscale y; set yrange [*:*] }
	plot for [r = 1:nruns] for [i = 1:nsizes] T(r, i) using ($1 + nudge(r)):2:3:4 with yerrorbars \
			lc rgb rcol(r) pt spt(i) ps 1.1 lw 1.3 notitle, \
		for [r = 1:nruns] for [i = 1:nsizes] T(r, i) using ($1 + nudge(r)):2 with lines lc rgb rcol(r) lw 2 dt i notitle, \
		for [r = 1:nruns] NaN with lines lc rgb rcol(r) lw 3 title run_name(r)

	set title sprintf('aggregate bandwidth: median, %s%% CI (MB/s = 10⁶ bytes/s)', conf) font ',12'
	set ylabel 'aggregate bandwidth (MB/s)'
	if (bw_max / bw_min > 20) { set logscale y 10; eval 'set yrange '.logrange(bw_min, bw_max) } else { unset logscale y; set yrange [*:*] }
	plot for [r = 1:nruns] for [i = 1:nsizes] T(r, i) using ($1 + nudge(r)):5:6:7 with yerrorbars \
			lc rgb rcol(r) pt spt(i) ps 1.1 lw 1.3 notitle, \
		for [r = 1:nruns] for [i = 1:nsizes] T(r, i) using ($1 + nudge(r)):5 with lines lc rgb rcol(r) lw 2 dt i notitle, \
		for [i = 1:nsizes] NaN with linespoints lc rgb '#303030' pt spt(i) dt i lw 1.5 title fmt_size(size_i(i))
	unset multiplot
}
