# drop.gp - degradation against the baseline (least loaded) level, in
# percent, as more switch ports are loaded, for one pattern: bandwidth drop
# (stream, bidir, ...) or latency inflation (pingpong), positive = worse,
# with the confidence band. Up to 4 message sizes share one pair of axes
# (one colour and marker each); with more, every size gets its own panel
# (small multiples) on the same axes. Filled markers are significant changes
# (p < alpha and beyond min_effect), open ones are not; the dashed line is
# min_effect. A grey ring marks a cell whose pairs did not overlap in time
# (overlap < min_overlap) or whose samples were too short (see common.gp).
#
# Robust axis: the y range covers the changes and their CIs, except that
# a size whose change is far beyond the others' (more than 4 x their upper
# quartile, e.g. one noisy size at -200 % among changes of a few %) does
# not stretch it, nor does a CI more than 1.5 x as wide as the changes: a
# point beyond the axis is drawn on the edge as a triangle with its value
# printed ("clipped"), a band is cut at the edge.
#
# Reads  in = summary.csv, columns: nodes, pattern, size_bytes, hops,
#        overlap, lat_median_us, and bw_drop_pct, bw_drop_lo, bw_drop_hi,
#        bw_drop_sig (metric 'bw') or lat_infl_pct, lat_infl_lo,
#        lat_infl_hi, lat_infl_sig (metric 'lat'), or receiver_drop_pct,
#        receiver_drop_lo, receiver_drop_hi, receiver_drop_sig (metric 'rx':
#        incast, the aggregate at the receiver). The baseline level's own
#        change is NaN and drawn as 0; a NaN CI is drawn without a band.
# Takes  in, out, pattern, metric ('lat', 'bw' or 'rx', as plot passes it
#        from what the pattern is) (required); min_effect (percent, default 2),
#        min_overlap, min_sample_us, timed_sample_us (see common.gp),
#        label, date, sizes,
#        nodes, hops, conf, term, width, height (optional, see common.gp).
# By hand:
#   gnuplot -e "in='results/X/summary.csv'; out='drop.png'; pattern='stream'; metric='bw'; min_effect=2" plot/drop.gp

_dir = ''
do for [_i = strlen(ARG0):1:-1] { if (_dir eq '' && ARG0[_i:_i] eq '/') { _dir = ARG0[1:_i] } }
if (!exists("width")) { width = 1100 }
if (!exists("height")) { height = 720 }
load _dir.'common.gp'
if (!exists("pattern")) { print "drop.gp: set pattern='stream'"; exit status 2 }
if (!exists("metric")) { print "drop.gp: set metric='lat', 'bw' or 'rx'"; exit status 2 }
if (!exists("min_effect")) { min_effect = 2 }
min_effect = min_effect + 0.0

c_pct = (metric eq 'lat' ? 'lat_infl_pct' : metric eq 'rx' ? 'receiver_drop_pct' : 'bw_drop_pct')
c_lo = (metric eq 'lat' ? 'lat_infl_lo' : metric eq 'rx' ? 'receiver_drop_lo' : 'bw_drop_lo')
c_hi = (metric eq 'lat' ? 'lat_infl_hi' : metric eq 'rx' ? 'receiver_drop_hi' : 'bw_drop_hi')
c_sig = (metric eq 'lat' ? 'lat_infl_sig' : metric eq 'rx' ? 'receiver_drop_sig' : 'bw_drop_sig')
what = (metric eq 'lat' ? 'latency inflation' : metric eq 'rx' ? 'receiver drop' : 'bandwidth drop')

# One table per size: nodes, change, lo, hi, significant, suspect cell.
# The baseline level's change is NaN: draw it as 0. PHI/PLO keep each
# size's most positive and most negative change, EHI/ELO the same with the
# CIs, for the robust range.
pct(_) = bad(strcol(c_pct)) ? (column('nodes') == nodes_lo ? 0 : NaN) : column(c_pct)
array PHI[nsizes]
array PLO[nsizes]
array EHI[nsizes]
array ELO[nsizes]
seen(v, a, b) = (PHI[i] = mx(PHI[i], v), PLO[i] = mn(PLO[i], v), \
	EHI[i] = mx(mx(mx(EHI[i], v), a), b), ELO[i] = mn(mn(mn(ELO[i], v), a), b), 1)
do for [i = 1:nsizes] {
	PHI[i] = 0; PLO[i] = 0; EHI[i] = 0; ELO[i] = 0
	eval sprintf('set table $D%d', i)
	plot in using 'nodes':(pct(0)):(num(c_lo, pct(0))):(num(c_hi, pct(0))):(num(c_sig, 0)):(distrust(0)) \
		with table if (strcol('pattern') eq pattern && column('size_bytes') == size_i(i) && hop_match(0) && \
			seen(pct(0), num(c_lo, NaN), num(c_hi, NaN)))
	unset table
}
set datafile separator whitespace
set datafile nocolumnheaders
D(i) = sprintf('$D%d', i)

# The robust range, each side (above and below 0) on its own:
# 1. the changes: the sizes' extremes (magnitudes) that lie within 4 x
#    their upper quartile (+ min_effect); a size far beyond, like one noisy
#    size at -200 % among changes of a few %, is clipped, not followed;
# 2. the CIs of what is shown extend that, up to 1.5 x it (+ min_effect):
#    a band wider than that runs off the edge;
# 3. a clipped side keeps at least 2 x min_effect and a quarter of the
#    other side, so the edge where clipped points sit is visible.
set print $E
do for [i = 1:nsizes] { print sprintf('%g %g', PHI[i], -PLO[i]) }
unset print
stats $E using 1 nooutput
hi_q = STATS_up_quartile
stats $E using 2 nooutput
lo_q = STATS_up_quartile
hi_p = 0; lo_p = 0; hi_all = 0; lo_all = 0
do for [i = 1:nsizes] {
	if (PHI[i] <= 4 * hi_q + min_effect) { hi_p = mx(hi_p, PHI[i]) }
	if (-PLO[i] <= 4 * lo_q + min_effect) { lo_p = mx(lo_p, -PLO[i]) }
	hi_all = mx(hi_all, PHI[i]); lo_all = mx(lo_all, -PLO[i])
}
hi_lim = 0; lo_lim = 0
do for [i = 1:nsizes] {
	hi_lim = mx(hi_lim, mn(EHI[i], 1.5 * hi_p + min_effect))
	lo_lim = mx(lo_lim, mn(-ELO[i], 1.5 * lo_p + min_effect))
}
if (hi_all > hi_lim) { hi_lim = mx(hi_lim, mx(2 * min_effect, 0.25 * lo_lim)) }
if (lo_all > lo_lim) { lo_lim = mx(lo_lim, mx(2 * min_effect, 0.25 * hi_lim)) }
y_max = mx(hi_lim, min_effect)
y_min = -lo_lim
pad = (y_max - y_min) * 0.08
y_top = y_max + pad
y_bot = y_min - pad
clipped = (hi_all > hi_lim || lo_all > lo_lim)
clip(v) = v > y_top ? y_top : v < y_bot ? y_bot : v
out_of(v) = (v > y_top || v < y_bot)
clip_pt(v) = v > y_top ? 9 : 11

set xzeroaxis lt 1 lc rgb '#909090' lw 1
set format y '%g'
set yrange [y_bot : y_top]
eval xaxis_nodes
set xtics () font ',10'
if (nlevels <= 16) { do for [k = 1:nlevels] { set xtics add (sprintf('%d', node_i(k)) node_i(k)) } } else { set xtics autofreq }

# Colour and markers: one per size on shared axes; in small multiples the
# panel names the size, so every panel uses the same.
multiples = (nsizes > 4)
pcol(i) = multiples ? '#0072B2' : scol(i)
ppt(i) = multiples ? 7 : spt(i)
ppt_open(i) = ppt(i) - 1

# One size on its axes (pre: 'for [i = 1:nsizes]' or ''): band, line,
# points (filled when significant), clipped points as edge triangles with
# their value, rings on suspect cells. (The labels are empty, not NaN, where
# nothing is clipped: gnuplot 5.4 crashes on a plot of one undefined label.)
series(pre) = pre." D(i) using 1:(clip($3)):(clip($4)) with filledcurves lc rgb pcol(i) notitle, ".\
	pre." D(i) using 1:(clip($2)) with lines lc rgb pcol(i) lw 2 notitle, ".\
	pre." D(i) using 1:($2 == $2 && !out_of($2) ? $2 : NaN):($5 > 0 ? ppt(i) : ppt_open(i)) with points lc rgb pcol(i) pt variable ps 1.3 lw 1.5 notitle, ".\
	pre." D(i) using 1:(out_of($2) ? clip($2) : NaN):(clip_pt($2)) with points lc rgb pcol(i) pt variable ps 1.8 notitle, ".\
	pre." D(i) using 1:(clip($2)):($2 > y_top ? sprintf('%+.0f%%', $2) : '') with labels offset 0, -1.2 font ',9' tc rgb '#303030' notitle, ".\
	pre." D(i) using 1:(clip($2)):($2 < y_bot ? sprintf('%+.0f%%', $2) : '') with labels offset 0, 1.2 font ',9' tc rgb '#303030' notitle, ".\
	pre." D(i) using 1:($6 > 0 && !out_of($2) ? $2 : NaN) with points lc rgb '#707070' pt 6 ps 2.8 lw 1.2 notitle"
SERIES_ALL = series('for [i = 1:nsizes]')
SERIES_ONE = series('')
KEY_SUSPECT = sprintf('overlap < %g %% or samples < %g ms (do not trust)', min_overlap * 100, min_sample_us / 1000.0)
KEY_COMMON = "NaN with filledcurves lc rgb '#303030' title sprintf('%s%% CI', conf), \
	NaN with points lc rgb '#303030' pt 7 ps 1.3 title 'significant', \
	NaN with points lc rgb '#303030' pt 6 ps 1.3 title 'not significant', \
	NaN with lines lc rgb '#303030' lw 1.3 dt 2 title 'threshold (min_effect)', \
	NaN with points lc rgb '#707070' pt 6 ps 2.8 lw 1.2 title KEY_SUSPECT, \
	NaN with points lc rgb '#303030' pt 9 ps 1.8 title (clipped ? 'beyond the axis (value printed)' : '')"
THRESHOLD = "min_effect with lines lc rgb '#303030' lw 1.3 dt 2 notitle"
ytitle = sprintf('%s (%%), against %s', what, metric eq 'rx' ? \
	sprintf('%d sender%s', nodes_lo - 1, nodes_lo == 2 ? '' : 's') : fmt_level(nodes_lo))
ttl = run_title('Degradation under load: '.what.' (positive = worse)', pattern)
if (nlevels == 1) {
	set label 2 'one load level only: nothing to compare against' at graph 0.5, graph 0.5 center font ',13' tc rgb '#606060'
}

if (nsizes <= 4) {
	set style fill transparent solid 0.15 noborder
	set title ttl font ',15'
	set xlabel 'loaded ports (nodes)'
	set ylabel ytitle
	set bmargin 10
	set key outside below center horizontal maxrows 4 samplen 3 spacing 1.1 reverse Left width 2
	set label 1 sprintf('min_effect %g %%', min_effect) at graph 0.99, first min_effect right offset 0, 0.7 \
		font ',10' tc rgb '#303030' front
	plot @SERIES_ALL, @THRESHOLD, \
		for [i = 1:nsizes] NaN with linespoints lc rgb scol(i) pt spt(i) lw 2 title fmt_size(size_i(i)), \
		@KEY_COMMON
} else {

	# Small multiples: one panel per size, the same axes and colours in each;
	# the key takes the slot after the last panel (as plot.c sizes the image).
	set style fill transparent solid 0.2 noborder
	ncols = (nsizes <= 6 ? 3 : 4)
	nrows = ceil((nsizes + 1) / (ncols + 0.0))
	set multiplot title ttl font ',15'
	pw = 0.88 / ncols
	ph = 0.82 / nrows
	set label 10 'loaded ports (nodes)' at screen 0.5, screen 0.025 center font ',11'
	set label 11 ytitle at screen 0.015, screen 0.5 center rotate by 90 font ',11'
	do for [i = 1:nsizes] {
		c = (i - 1) % ncols
		r = (i - 1) / ncols
		set lmargin at screen 0.07 + c * pw
		set rmargin at screen 0.07 + (c + 1) * pw - 0.025
		set tmargin at screen 0.88 - r * ph - 0.03
		set bmargin at screen 0.88 - (r + 1) * ph + 0.04
		set title fmt_size(size_i(i)) font ',12' offset 0, -0.8
		set format y (c == 0 ? '%g' : '')
		if (i == nsizes) {
			set key at screen 0.07 + (nsizes % ncols + 0.05) * pw, screen 0.88 - (nrows - 0.5) * ph \
				left center vertical samplen 2 spacing 1.15 reverse Left font ',10'
			plot @SERIES_ONE, @THRESHOLD, @KEY_COMMON
		} else {
			unset key
			plot @SERIES_ONE, @THRESHOLD
		}
		unset label 10
		unset label 11
	}
	unset multiplot
}

# What was drawn: the y range, every size, every point beyond the axis.
if (table ne '') {
	set print table
	print sprintf('yrange %g %g', y_bot, y_top)
	do for [i = 1:nsizes] {
		print series_line(multiples ? fmt_size(size_i(i)) : 'all', fmt_size(size_i(i)), pcol(i), ppt(i))
		eval sprintf('_n = |$D%d|', i)
		do for [r = 1:_n] {
			eval sprintf('_l = $D%d[%d]', i, r)
			if (words(_l) >= 6) {
				_v = word(_l, 2) + 0
				if (_v == _v && out_of(_v)) { print sprintf('clipped %s|%s|%s', fmt_size(size_i(i)), word(_l, 1), word(_l, 2)) }
			}
		}
	}
	unset print
}
