# compare-fabric.gp - two switches' fabric maps as one difference heat
# map: every link both maps measured, X's median over A's (the metric's
# ratio, so for latency above 1 is slower), hosts on both axes ordered by
# A's groups. A diverging scale on a log axis centred on 1 (PuOr: orange
# = slower on X, purple = faster, white = alike), from 1/2 to 2 (beyond:
# the end colour); a link not in both maps is grey. A host the comparison
# claims slower or faster has a vermillion triangle on both axes.
#
# Reads  in = compare-fabric-PATTERN-SIZE.csv (x, y, host, group,
#        group_start, value, claim: every cell of the grid).
# Takes  in, out (required); metric ('bw' or 'lat'), run, reference,
#        label, date, term, width, height, scale (see common.gp).

if (!exists("width")) { width = 900 }
if (!exists("height")) { height = 820 }
if (!exists("metric")) { metric = 'bw' }
if (!exists("run")) { run = 'B' }
if (!exists("reference")) { reference = 'A' }
sizes = '0'; nodes = '0'   # common.gp reads neither
_dir = ''
do for [_i = strlen(ARG0):1:-1] { if (_dir eq '' && ARG0[_i:_i] eq '/') { _dir = ARG0[1:_i] } }
load _dir.'common.gp'

stats in using 'x' nooutput
n = int(STATS_max) + 1

# PuOr (ColorBrewer): orange is worse on X for either metric
if (metric eq 'lat') {
	set palette defined (0 '#542788', 0.25 '#998ec3', 0.5 '#f7f7f7', 0.75 '#f1a340', 1 '#b35806')
} else {
	set palette defined (0 '#b35806', 0.25 '#f1a340', 0.5 '#f7f7f7', 0.75 '#998ec3', 1 '#542788')
}
set logscale cb 2
set cbrange [0.5 : 2]
set cbtics ('1/2' 0.5, '0.7' 0.707, '1' 1, '1.4' 1.414, '2' 2)
set style fill solid 1.0 noborder
set object 1 rectangle from graph 0, 0 to graph 1, 1 behind fc rgb '#bdbdbd' fs solid noborder
set lmargin at screen 0.10
set rmargin at screen 0.80
set colorbox vertical user origin screen 0.83, graph 0 size screen 0.025, graph 1
set cblabel sprintf('%s over %s, %s (1 = alike)', run, reference, metric eq 'lat' ? 'latency' : 'bandwidth') offset 1, 0
set size ratio -1
set xrange [-0.5 - n * 0.03 : n - 0.5]
set yrange [n - 0.5 : -0.5 - n * 0.03]
set border 0
set tics scale 0
set title run_title(sprintf('Fabric maps compared: %d hosts, every link both measured', n), \
	sprintf('%s over %s, median over blocks', run, reference)) font ',12'
unset key
clip(v) = v < 0.5 ? 0.5 : v > 2 ? 2 : v
edge = -0.5 - n * 0.015
# the first row of the grid (y = 0) names every host once, in order
start = "(column('group_start') > 0 ? column('x') - 0.5 : NaN)"
if (n <= 64) {
	set xtics rotate by 90 right font ',8'
	set ytics font ',8'
	TICS = "in every ::0::n-1 using 'x':(-1e9):xtic(strcol('host')) with dots, in every ::0::n-1 using (-1e9):'x':ytic(strcol('host')) with dots,"
} else {
	unset xtics
	unset ytics
	TICS = ""
}
plot in using 'x':'y':(bad(strcol('value')) ? NaN : clip(column('value'))) with image, @TICS \
	in every ::0::n-1 using (@start):(-0.5):(0):(n) with vectors nohead lc rgb '#303030' lw 1, \
	in every ::0::n-1 using (-0.5):(@start):(n):(0) with vectors nohead lc rgb '#303030' lw 1, \
	in every ::0::n-1 using (column('x') == 0 || column('group_start') > 0 ? column('x') : NaN):(-0.5 - n * 0.03):(strcol('group')) \
		with labels left offset 0, 0.7 font ',9' tc rgb '#303030', \
	in every ::0::n-1 using (column('claim') != 0 ? column('x') : NaN):(edge) with points pt 11 ps 1.2 lc rgb '#D55E00', \
	in every ::0::n-1 using (edge):(column('claim') != 0 ? column('x') : NaN) with points pt 9 ps 1.2 lc rgb '#D55E00'
