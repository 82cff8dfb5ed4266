# size.gp - latency and bandwidth against message size (log-log, NetPIPE
# style) for one pattern, one curve per load level, with the Hockney fit
# T(m) = alpha + m / beta drawn dashed over the sizes it was fitted on.
#
# Each level has its own colour (a ramp from blue, unloaded, to vermillion,
# most loaded) and marker.
#
# Reads  in = summary.csv, columns: nodes, pattern, size_bytes, hops,
#        lat_median_us, lat_lo_us, lat_hi_us, bw_median_MBps, bw_lo_MBps,
#        bw_hi_MBps (NaN CI fields: drawn without an error bar);
#        fits = fits.csv (optional), columns: nodes, pattern, size_lo,
#        size_hi, alpha_us, beta_MBps, n_half_bytes.
# Takes  in, out, pattern (required); fits, nfits (rows in fits.csv; 0 skips
#        it), label, date, sizes, nodes, hops, conf, table, term, width, height
#        (optional, see common.gp).
# By hand:
#   gnuplot -e "in='results/X/summary.csv'; fits='results/X/fits.csv'; out='size.png'; pattern='pingpong'" plot/size.gp

if (!exists("width")) { width = 1500 }
if (!exists("height")) { height = 680 }
_dir = ''
do for [_i = strlen(ARG0):1:-1] { if (_dir eq '' && ARG0[_i:_i] eq '/') { _dir = ARG0[1:_i] } }
load _dir.'common.gp'
if (!exists("pattern")) { print "size.gp: set pattern='stream'"; exit status 2 }
if (!exists("fits")) { fits = '' }
if (!exists("nfits")) { nfits = (fits eq '' ? 0 : 1) }

# One table per level: size lat lo hi bw lo hi.
lat_min = 1e300; lat_max = -1e300; bw_min = 1e300; bw_max = -1e300
seen(l, b) = (lat_min = mn(lat_min, l), lat_max = mx(lat_max, l), bw_min = mn(bw_min, b), bw_max = mx(bw_max, b), 1)
do for [i = 1:nlevels] {
	eval sprintf('set table $L%d', i)
	plot in using 'size_bytes':'lat_median_us':(num('lat_lo_us', column('lat_median_us'))):(num('lat_hi_us', column('lat_median_us'))):\
		'bw_median_MBps':(num('bw_lo_MBps', column('bw_median_MBps'))):(num('bw_hi_MBps', column('bw_median_MBps'))) \
		with table if (strcol('pattern') eq pattern && column('nodes') == node_i(i) && hop_match(0) && \
			seen(num('lat_median_us', NaN), num('bw_median_MBps', NaN)))
	unset table
}

# Hockney fits of this pattern into arrays.
nf = 0
array FN[512]; array FLO[512]; array FHI[512]; array FA[512]; array FB[512]
fit_add(n, lo, hi, a, b) = (nf < 512 && a == a && b == b && b > 0) ? \
	(nf = nf + 1, FN[nf] = n, FLO[nf] = lo, FHI[nf] = hi, FA[nf] = a, FB[nf] = b, 0) : 0
if (nfits > 0) {
	stats fits using (strcol('pattern') eq pattern ? fit_add(column('nodes'), column('size_lo'), column('size_hi'), \
		num('alpha_us', NaN), num('beta_MBps', NaN)) : 0) nooutput
}
set datafile separator whitespace
set datafile nocolumnheaders
L(i) = sprintf('$L%d', i)
if (lat_max < lat_min) { lat_min = 1; lat_max = 10 }
if (bw_max < bw_min) { bw_min = 1; bw_max = 10 }
fit_col(j) = lfrac_nodes(FN[j])
hockney_lat(j, m) = FA[j] + m / FB[j]
hockney_bw(j, m) = m / hockney_lat(j, m)

# Text of the fit at the baseline (smallest) level.
fmt_bw(b) = b >= 1000 ? sprintf('%.3g GB/s', b / 1000) : sprintf('%.3g MB/s', b)
fmt_bytes(b) = b >= 1e6 ? sprintf('%.3g MB', b / 1e6) : b >= 1e3 ? sprintf('%.3g kB', b / 1e3) : sprintf('%.0f B', b)
fit_text = ''
do for [j = 1:nf] {
	if (FN[j] == node_i(1)) {
		fit_text = fit_text.sprintf("%sHockney fit, %s, %s–%s:\nα = %.3g µs, β = %s, n½ = %s", \
			fit_text eq '' ? '' : "\n", fmt_level(FN[j]), fmt_size(FLO[j]), fmt_size(FHI[j]), FA[j], fmt_bw(FB[j]), fmt_bytes(FA[j] * FB[j]))
	}
}

# Up to 6 levels get a legend entry each; more are told by a colour bar.
level_key = (nlevels <= 6)
level_title(i) = level_key ? fmt_level(node_i(i)) : ''
bottom = (level_key ? 112.0 + 20 * mn(3, ceil((nlevels + 1) / 4.0)) : 150.0) / height
set multiplot layout 1, 2 title run_title('Latency and bandwidth against message size', pattern) font ',15' \
	margins 0.07, 0.98, bottom, 0.83 spacing 0.08, 0
set logscale x 2
set xrange [size_i(1) / 1.6 : size_i(nsizes) * 1.6]
set xtics ()
step = (nsizes <= 8 ? 1 : ceil(nsizes / 8.0))
do for [i = 1:nsizes:step] { set xtics add (fmt_size(size_i(i)) size_i(i)) }
set xlabel 'message size'
set key outside below center horizontal maxrows 6 samplen 3 spacing 1.1 reverse Left width 2
set format y '%g'
set logscale y 10
set style fill solid 1.0

set title sprintf('per-hop latency: median, %s%% CI', conf) font ',12'
set ylabel 'per-hop latency (µs)'
eval 'set yrange '.logrange(lat_min, lat_max)
_lo = lat_min; _hi = lat_max; @LOGTICS_Y
if (!level_key) {
	set cbrange [0:1]
	set cbtics () scale 0.5
	do for [i = 1:nlevels:ceil(nlevels / 8.0)] { set cbtics add (sprintf('%d', node_i(i)) lfrac(i)) }
	set cblabel 'loaded ports (nodes)'
	set colorbox horizontal user origin screen 0.55, screen 0.085 size screen 0.35, screen 0.022
}
# gnuplot evaluates the styles of an empty 'for' once: give j a harmless value.
j = 1
if (nf == 0) { FN[1] = node_i(1); FLO[1] = 1; FHI[1] = 1; FA[1] = 1; FB[1] = 1 }
plot for [j = 1:nf] [x = FLO[j]:FHI[j]] hockney_lat(j, x) with lines lc rgb lrgb(fit_col(j)) lw 1.3 dt 2 notitle, \
	for [i = 1:nlevels] L(i) using 1:2:3:4 with yerrorlines lc rgb lrgb(lfrac(i)) pt spt(i) ps 1.0 lw 2 title level_title(i), \
	NaN with lines lc rgb '#303030' lw 1.3 dt 2 title (nf > 0 ? 'Hockney fit α + m/β' : '')

set title sprintf('per-pair bandwidth: median, %s%% CI (MB/s = 10⁶ bytes/s)', conf) font ',12'
set ylabel 'bandwidth (MB/s)'
eval 'set yrange '.logrange(bw_min, bw_max)
set ytics autofreq
_lo = bw_min; _hi = bw_max; @LOGTICS_Y
unset colorbox
if (fit_text ne '') { set label 1 fit_text at graph 0.98, graph 0.1 right front font ',10' tc rgb '#303030' }
plot for [j = 1:nf] [x = FLO[j]:FHI[j]] hockney_bw(j, x) with lines lc rgb lrgb(fit_col(j)) lw 1.3 dt 2 notitle, \
	for [i = 1:nlevels] L(i) using 1:5:6:7 with yerrorlines lc rgb lrgb(lfrac(i)) pt spt(i) ps 1.0 lw 2 notitle
unset label 1
unset multiplot
if (table ne '') {
	set print table
	do for [i = 1:nlevels] { print series_line('latency', fmt_level(node_i(i)), lrgb(lfrac(i)), spt(i)) }
	do for [i = 1:nlevels] { print series_line('bandwidth', fmt_level(node_i(i)), lrgb(lfrac(i)), spt(i)) }
	unset print
}
