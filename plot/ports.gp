# ports.gp - heat map of every pair against the other pairs of its level,
# for one pattern (after mpiGraph). Rows are pairs, labelled with both
# hosts. Two forms: the overview (no size given) has one column per message
# size, at one level (the highest unless at_nodes is given): every port of
# the sweep in one chart; with size given, one column per load level for
# that size (the per-size map, drawn on request). The colour is the
# pair's median over the level's median: bandwidth (bw_rel) for bandwidth
# patterns, latency (lat_rel) for pingpong, drawn so that worse than typical
# is always vermillion and better is blue. A bad port shows as a vermillion
# row. Pairs the slow-pair test flagged (one-sided z over the other pairs,
# Bonferroni at 1%, and at least suspect_min_effect slower) are outlined in
# black; hatched cells
# are pairs not loaded at that level.
#
# Reads  in = pairs.csv, columns: nodes, pattern, size_bytes, hops, pair,
#        host_a, host_b, lat_rel, bw_rel, flagged (NaN ratios: cell left
#        hatched).
# Takes  in, out, pattern, metric ('lat' or 'bw', as plot passes it from
#        what the pattern is) (required); size (bytes: the per-size map),
#        at_nodes (the overview's level, default the highest), label, date,
#        sizes, nodes, hops, term, width, height (optional, see common.gp).
# By hand:
#   gnuplot -e "in='results/X/pairs.csv'; out='ports.png'; pattern='stream'; metric='bw'" plot/ports.gp
#   gnuplot -e "in='results/X/pairs.csv'; out='ports-64KiB.png'; pattern='stream'; metric='bw'; size=65536" plot/ports.gp

if (!exists("width")) { width = 1100 }
if (!exists("height")) { height = 600 }
_dir = ''
do for [_i = strlen(ARG0):1:-1] { if (_dir eq '' && ARG0[_i:_i] eq '/') { _dir = ARG0[1:_i] } }
load _dir.'common.gp'
if (!exists("pattern")) { print "ports.gp: set pattern='stream'"; exit status 2 }
if (!exists("metric")) { print "ports.gp: set metric='lat' or 'bw'"; exit status 2 }
overview = !exists("size")
if (overview) { size = 0 } else { size = size + 0 }
if (!exists("at_nodes")) { at_nodes = nodes_hi }
at_nodes = at_nodes + 0
ncols = (overview ? nsizes : nlevels)
c_rel = (metric eq 'lat' ? 'lat_rel' : 'bw_rel')

# Pair names and how many rows.
array PL[1024]
npairs = 0
maxlen = 10
pair_add(p, a, b) = (p >= 0 && p < 1024) ? (PL[p + 1] = sprintf('%s – %s  (%d)', a, b, p), npairs = mx(npairs, p + 1), \
	maxlen = mx(maxlen, strlen(PL[p + 1])), 0) : 0
mine(_) = strcol('pattern') eq pattern && hop_match(0) && \
	(overview ? column('nodes') == at_nodes : column('size_bytes') == size)
xcol(_) = overview ? widx(sizes, column('size_bytes')) : widx(nodes, column('nodes'))
stats in using (mine(0) ? pair_add(int(column('pair')), strcol('host_a'), strcol('host_b')) : 0) nooutput
if (npairs == 0) { npairs = 1; PL[1] = '(no pairs)' }

# Cells: column index, pair, ratio, flagged.
set table $C
plot in using (xcol(0)):'pair':(num(c_rel, NaN)):(num('flagged', 0)) with table if (mine(0))
unset table
set datafile separator whitespace
set datafile nocolumnheaders

set title run_title('Per-pair '.(metric eq 'lat' ? 'latency' : 'bandwidth').' against the level median'.\
	(overview ? ', every message size at '.fmt_level(at_nodes) : ''), \
	pattern.(overview ? '' : '  ·  '.fmt_size(size))) font ',15'
set xrange [0.5 : ncols + 0.5]
set yrange [npairs - 0.5 : -0.5]
set xtics () scale 0
set ytics () scale 0
if (overview) {
	do for [i = 1:nsizes] { set xtics add (fmt_size(size_i(i)) i) }
	set xlabel 'message size'
} else {
	do for [i = 1:nlevels] { set xtics add (sprintf('%d', node_i(i)) i) }
	set xlabel 'loaded ports (nodes)'
}
do for [p = 1:npairs] { set ytics add (PL[p] p - 1) }
set ylabel 'pair (hosts)'
unset grid
set border 0
set colorbox vertical user origin screen 0.8, graph 0 size character 1.8, graph 1
set cbrange [0.5 : 1.5]
set cbtics ('≤ 0.5' 0.5, '0.75' 0.75, '1 (median)' 1, '1.25' 1.25, '≥ 1.5' 1.5) scale 0
if (metric eq 'lat') {
	set cblabel 'pair latency ÷ level median   (above 1 = slower)'
	set palette defined (0.5 '#0072B2', 0.75 '#8FC0E0', 1 '#F5F5F5', 1.25 '#EDA77E', 1.5 '#D55E00')
} else {
	set cblabel 'pair bandwidth ÷ level median   (below 1 = slower)'
	set palette defined (0.5 '#D55E00', 0.75 '#EDA77E', 1 '#F5F5F5', 1.25 '#8FC0E0', 1.5 '#0072B2')
}
set rmargin at screen 0.77
set bmargin 7
set style fill solid 1.0
# Room for the longest pair name (strlen counts the dash as 3 bytes) and
# the axis label: about 8 pixels a character at this font.
set lmargin at screen mn(0.4, (80.0 + 8 * maxlen) / width)

# Value text in each cell while cells are big enough to hold it.
cell_w = width * 0.6 / ncols
cell_h = height * 0.7 / npairs
show_values = (cell_w >= 44 && cell_h >= 16)
dark(v) = (v < 0.7 || v > 1.3)
vfmt(v) = sprintf('%.2f', v)

set object 1 rectangle from graph 0, 0 to graph 1, 1 behind fillcolor rgb '#BDBDBD' fillstyle pattern 4 noborder
set key outside below center horizontal samplen 2 reverse Left width 2
plot $C using 1:2:(0.5):(0.5):3 with boxxyerror fillstyle solid 1.0 border rgb '#FFFFFF' lw 1.5 fillcolor palette notitle, \
	$C using 1:2:($4 > 0 ? 0.44 : NaN):(0.44) with boxxyerror fillstyle empty lc rgb '#000000' lw 3 notitle, \
	$C using 1:2:(show_values && $3 == $3 && !dark($3) ? vfmt($3) : '') with labels font ',10' tc rgb '#202020' notitle, \
	$C using 1:2:(show_values && $3 == $3 && dark($3) ? vfmt($3) : '') with labels font ',10' tc rgb '#FFFFFF' notitle, \
	NaN with boxes fillstyle empty lc rgb '#000000' lw 3 title 'flagged slow pair (one-sided z, Bonferroni 1%)', \
	NaN with boxes fillstyle pattern 4 lc rgb '#BDBDBD' title (overview ? 'no data' : 'pair not loaded at this level')
