# map.gp - the degradation map of one pattern: message sizes (rows) against
# load levels (columns), each cell coloured by how much worse the cell is
# than the same size at the baseline (least loaded) level, with the value
# printed in it. Bandwidth drop for bandwidth patterns, latency inflation
# for pingpong; positive = worse in both.
#
# The colour scale is fixed (the same in every run, so two maps can be laid
# side by side): diverging from Okabe-Ito blue (better) through near-white
# (no change) to vermillion (worse), readable with every common colour
# vision deficiency; symmetric-logarithmic so that 2-10 % changes are
# visible and 100 % is not yet saturated; beyond +-100 % the colour stops
# changing (the printed value does not).
# Significant changes (p < alpha and beyond min_effect, the *_sig column)
# are outlined in black with the value in bold. Cells whose pairs did not
# overlap or whose samples were too short (distrust() in common.gp) are
# hatched: their number is shown but should not be trusted.
#
# Reads  in = summary.csv, columns: nodes, pattern, size_bytes, hops,
#        overlap, lat_median_us, and lat_infl_pct, lat_infl_sig (metric
#        'lat') or bw_drop_pct, bw_drop_sig (metric 'bw').
# Takes  in, out, pattern, metric ('lat' or 'bw', as plot passes it from
#        what the pattern is) (required); min_effect (percent, default 2),
#        min_overlap, min_sample_us, timed_sample_us, table (here: the
#        plot area in pixels and every cell drawn), label, date, sizes,
#        nodes, hops, term, width, height (optional, see common.gp).
# By hand:
#   gnuplot -e "in='results/X/summary.csv'; out='map.png'; pattern='stream'; metric='bw'" plot/map.gp

if (!exists("width")) { width = 1100 }
if (!exists("height")) { height = 820 }
_dir = ''
do for [_i = strlen(ARG0):1:-1] { if (_dir eq '' && ARG0[_i:_i] eq '/') { _dir = ARG0[1:_i] } }
load _dir.'common.gp'
if (!exists("pattern")) { print "map.gp: set pattern='stream'"; exit status 2 }
if (!exists("metric")) { print "map.gp: set metric='lat' or 'bw'"; exit status 2 }
if (!exists("min_effect")) { min_effect = 2 }

c_pct = (metric eq 'lat' ? 'lat_infl_pct' : 'bw_drop_pct')
c_sig = (metric eq 'lat' ? 'lat_infl_sig' : 'bw_drop_sig')
what = (metric eq 'lat' ? 'latency inflation' : 'bandwidth drop')
worse = (metric eq 'lat' ? 'slower' : 'less bandwidth')

# Colour position of a change: symmetric log, +-1 at +-100 %.
CMAX = 100.0
cpos(v) = (v == v) ? (v >= 0 ? 1 : -1) * mn(1, log10(1 + abs(v) / 2) / log10(1 + CMAX / 2)) : NaN
# Cells: column, row, change (0 when missing), significant, hatched, nodes,
# size, sample (us), overlap, 1 if the change is there (NaN fields would
# make gnuplot skip the row).
set table $M
plot in using (widx(nodes, column('nodes'))):(widx(sizes, column('size_bytes'))):(num(c_pct, 0)):\
	(num(c_sig, 0)):(distrust(0)):(strcol('nodes')):(strcol('size_bytes')):(sample_us(0)):(num('overlap', 1)):(bad(strcol(c_pct)) ? 0 : 1) \
	with table if (strcol('pattern') eq pattern && hop_match(0))
unset table
set datafile separator whitespace
set datafile nocolumnheaders

set title run_title(sprintf('Degradation map: %s (%%) against %s, positive = %s', what, fmt_level(nodes_lo), worse), \
	pattern) font ',15'
set xrange [0.5 : nlevels + 0.5]
set yrange [nsizes + 0.5 : 0.5]
set xtics () scale 0 font ',11'
set ytics () scale 0 font ',11'
do for [i = 1:nlevels] { set xtics add (sprintf("%d\n%d pair%s", node_i(i), node_i(i) / 2, node_i(i) == 2 ? '' : 's') i) }
do for [i = 1:nsizes] { set ytics add (fmt_size(size_i(i)) i) }
set xlabel 'loaded ports (nodes)' offset 0, -0.5
set ylabel 'message size'
unset grid
set border 0

# The fixed scale: ticks at +-2, 5, 10, 20, 50, 100 %.
set cbrange [-1 : 1]
set cbtics () scale 0 font ',10'
do for [t in '-100 -50 -20 -10 -5 -2 0 2 5 10 20 50 100'] {
	_t = t + 0
	set cbtics add ((abs(_t) == CMAX ? (_t > 0 ? '≥ +' : '≤ −').sprintf('%d', CMAX) : _t == 0 ? '0' : sprintf('%+d', _t)) cpos(_t))
}
set cblabel sprintf('%s (%%)   blue: better · vermillion: worse', what)
eval PALETTE_DIVERGING
set colorbox vertical user origin screen 0.86, graph 0 size character 1.8, graph 1
set lmargin at screen 0.11
set rmargin at screen 0.80
set tmargin at screen 0.86
set bmargin at screen 0.19

# Text in a cell: the value, 'baseline', or 'n/a'. has(c) is column 10.
txt(c, v, h) = h > 0 ? sprintf('%+.1f', v) : (node_i(int(c)) == nodes_lo ? 'baseline' : 'n/a')
dark(v, h) = (h > 0 && abs(cpos(v)) > 0.8)
colour(v, h) = h > 0 ? cpos(v) : NaN
ink(v, h) = dark(v, h) ? 0xFFFFFF : 0x1A1A1A
sample_txt(us) = us >= 1000 ? sprintf('%.3g ms', us / 1000) : sprintf('%.3g µs', us)

# Layers: the colour, grey where there is no change, the hatching with a
# patch of the cell's colour left clear for the text, the outline, the text.
set key at screen 0.5, screen 0.025 center bottom horizontal maxrows 2 samplen 2 spacing 1.2 width 3 font ',10'
set style fill solid 1.0
plot $M using 1:2:(0.5):(0.5):(colour($3, $10)) with boxxyerror fillstyle solid 1.0 border rgb '#FFFFFF' lw 2 fillcolor palette notitle, \
	$M using 1:2:($10 > 0 ? NaN : 0.48):(0.48) with boxxyerror fillstyle solid 1.0 noborder fc rgb '#E4E4E4' notitle, \
	$M using 1:2:($5 > 0 ? 0.48 : NaN):(0.48) with boxxyerror fillstyle pattern 4 noborder lc rgb '#505050' notitle, \
	$M using 1:2:($5 > 0 && $10 > 0 ? 0.3 : NaN):(0.2):(colour($3, $10)) with boxxyerror fillstyle solid 1.0 noborder fillcolor palette notitle, \
	$M using 1:2:($5 > 0 && $10 == 0 ? 0.3 : NaN):(0.2) with boxxyerror fillstyle solid 1.0 noborder fc rgb '#E4E4E4' notitle, \
	$M using 1:2:($4 > 0 && $10 > 0 ? 0.43 : NaN):(0.42) with boxxyerror fillstyle empty lc rgb '#000000' lw 2.5 notitle, \
	$M using 1:2:($4 > 0 && $10 > 0 ? '' : txt($1, $3, $10)):(ink($3, $10)) with labels font ',11' tc rgb variable notitle, \
	$M using 1:2:($4 > 0 && $10 > 0 ? txt($1, $3, $10) : ''):(ink($3, $10)) with labels font 'DejaVu Sans:Bold,11' tc rgb variable notitle, \
	NaN with boxes fillstyle empty lc rgb '#000000' lw 2.5 title sprintf('outlined, bold: significant (p < alpha and beyond min_effect %g %%)', min_effect), \
	NaN with boxes fillstyle pattern 4 lc rgb '#505050' title sprintf('hatched: pairs overlapped < %g %% of the time, or samples < %s (do not trust)', \
		min_overlap * 100, sample_txt(min_sample_us))

# What was drawn, for tests and for copying into a report.
if (table ne '') {
	set print table
	print sprintf('# plot area in pixels (left right top bottom): %g %g %g %g', GPVAL_TERM_XMIN, GPVAL_TERM_XMAX, \
		height * scale - GPVAL_TERM_YMAX, height * scale - GPVAL_TERM_YMIN)
	print sprintf('# columns %d rows %d', nlevels, nsizes)
	print 'column row nodes size_bytes text colour significant hatched'
	do for [r = 1:|$M|] {
		_l = $M[r]
		if (words(_l) >= 10) {
			_v = word(_l, 3) + 0; _h = word(_l, 10) + 0
			print sprintf('%s %s %s %s %s %s %s %s', word(_l, 1), word(_l, 2), word(_l, 6), word(_l, 7), \
				txt(word(_l, 1) + 0, _v, _h), _h > 0 ? sprintf('%.4f', cpos(_v)) : 'none', word(_l, 4), word(_l, 5))
		}
	}
	unset print
}
