# fabric.gp - the fabric map as a heat map (after mpiGraph): every link's
# median, hosts on both axes ordered by group, a perceptual colour scale
# (viridis: dark = slow, for bandwidth and latency alike) with its legend
# in the metric's unit. Group boundaries are white lines; a link flagged
# alone is ringed in vermillion; a flagged host has a vermillion triangle
# on both axes (its row and column of slow links are its, not theirs). Host names label the axes up to 64 hosts; beyond, group
# names at the middle of each group.
#
# Reads  in = fabric.csv (x, y, value, mark: every cell of the grid) and
#        hosts = hosts.csv (host, group, order, group_start, flagged).
# Takes  in, hosts, out (required); metric ('bw' or 'lat', default 'bw'),
#        label, date, term, width, height, scale (see common.gp).
# By hand:
#   gnuplot -e "in='results/X/fabric.csv'; hosts='results/X/hosts.csv'; out='fabric.png'" plot/fabric.gp

if (!exists("width")) { width = 900 }
if (!exists("height")) { height = 820 }
if (!exists("metric")) { metric = 'bw' }
if (!exists("hosts")) { print "fabric.gp: set hosts='DIR/hosts.csv'"; exit status 2 }
sizes = '0'; nodes = '0'   # common.gp reads neither from the map's files
_dir = ''
do for [_i = strlen(ARG0):1:-1] { if (_dir eq '' && ARG0[_i:_i] eq '/') { _dir = ARG0[1:_i] } }
load _dir.'common.gp'

stats hosts using 'order' nooutput
n = int(STATS_records)
unit = (metric eq 'lat' ? 'us' : 'MB/s')

# viridis (van der Walt and Smith, matplotlib): dark is slow
if (metric eq 'lat') {
	set palette defined (0 '#fde725', 0.125 '#addc30', 0.25 '#5ec962', 0.375 '#28ae80', 0.5 '#21918c', \
		0.625 '#2c728e', 0.75 '#3b528b', 0.875 '#472d7b', 1 '#440154')
} else {
	set palette defined (0 '#440154', 0.125 '#472d7b', 0.25 '#3b528b', 0.375 '#2c728e', 0.5 '#21918c', \
		0.625 '#28ae80', 0.75 '#5ec962', 0.875 '#addc30', 1 '#fde725')
}
set style fill solid 1.0 noborder
set lmargin at screen 0.10
set rmargin at screen 0.80
set colorbox vertical user origin screen 0.83, graph 0 size screen 0.025, graph 1
set cblabel (metric eq 'lat' ? 'latency (us)' : 'bandwidth (MB/s = 10^6 bytes/s)') offset 1, 0
set size ratio -1
set xrange [-0.5 - n * 0.03 : n - 0.5]
set yrange [n - 0.5 : -0.5 - n * 0.03]
set grid noxtics noytics
set border 0
set tics scale 0
set title run_title(sprintf('Fabric map: %d hosts, every link', n), 'median over blocks, '.unit) font ',12'
if (n <= 64) {
	set xtics rotate by 90 right font ',8' offset 0, 0
	set ytics font ',8'
} else {
	unset xtics
	unset ytics
}
unset key
far = -1e9   # a point off the chart: sets a tic, draws nothing
mark_x(k) = (column('mark') == k ? column('x') : NaN)
start(c) = (column('group_start') > 0 ? column(c) - 0.5 : NaN)
edge = -0.5 - n * 0.015

# host names as tics only where they fit
TICS = (n <= 64 ? "hosts using 'order':(far):xtic(1) with dots, hosts using (far):'order':ytic(1) with dots," : "")
plot in using 'x':'y':(num('value', NaN)) with image, @TICS \
	hosts using (start('order')):(-0.5):(0):(n) with vectors nohead lc rgb '#ffffff' lw 1.5, \
	hosts using (-0.5):(start('order')):(n):(0) with vectors nohead lc rgb '#ffffff' lw 1.5, \
	hosts using (start('order') + 0.5):(-0.5 - n * 0.03):(strcol('group')) with labels left offset 0, 0.7 \
		font ',9' tc rgb '#303030', \
	hosts using (column('flagged') > 0 ? column('order') : NaN):(edge) with points pt 11 ps 1.2 lc rgb '#D55E00', \
	hosts using (edge):(column('flagged') > 0 ? column('order') : NaN) with points pt 9 ps 1.2 lc rgb '#D55E00', \
	in using (mark_x(2)):'y' with points pt 6 ps (n <= 64 ? 1.1 : 0.5) lw 2 lc rgb '#D55E00'
