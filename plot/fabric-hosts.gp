# fabric-hosts.gp - the fabric map per host and per group boundary, two
# panels. Top: each host's score (the median of its links over its
# partners, with its CI), hosts ordered by group as on the heat map
# (fabric.gp), flagged hosts in vermillion, the others Okabe-Ito blue.
# Bottom: each group boundary's crossing links against the links within
# its two groups (the ratio with its CI; 1 = no slower), flagged ones in
# vermillion, with the effect floor as a dashed line.
#
# Reads  hosts = hosts.csv (order, group, score, lo, hi, flagged) and
#        groups = groups.csv (kind, group_a, group_b, rel, rel_lo,
#        rel_hi, flagged).
# Takes  hosts, groups, out (required); metric ('bw' or 'lat', default
#        'bw'), floor (the effect floor as a fraction, default 0.10),
#        label, date, term, width, height, scale (see common.gp).
# By hand:
#   gnuplot -e "hosts='results/X/hosts.csv'; groups='results/X/groups.csv'; out='fabric-hosts.png'" plot/fabric-hosts.gp

if (!exists("width")) { width = 1100 }
if (!exists("height")) { height = 760 }
if (!exists("metric")) { metric = 'bw' }
if (!exists("floor")) { floor = 0.10 }
if (!exists("hosts")) { print "fabric-hosts.gp: set hosts='DIR/hosts.csv'"; exit status 2 }
if (!exists("groups")) { print "fabric-hosts.gp: set groups='DIR/groups.csv'"; exit status 2 }
sizes = '0'; nodes = '0'   # common.gp reads neither from the map's files
_dir = ''
do for [_i = strlen(ARG0):1:-1] { if (_dir eq '' && ARG0[_i:_i] eq '/') { _dir = ARG0[1:_i] } }
load _dir.'common.gp'

stats hosts using 'order' nooutput
n = int(STATS_records)
stats hosts using (num('hi', 0)) nooutput
ytop = STATS_max * 1.08
stats groups using (strcol('kind') eq 'boundary' ? 1 : 0) nooutput
# one group: no uplink or boundary row, and stats leaves its results unset
nb = (exists("STATS_sum") ? int(STATS_sum) : 0)
nu = (exists("STATS_records") ? int(STATS_records) : 0) - nb   # the uplink rows come first
unit = (metric eq 'lat' ? 'latency (us)' : 'bandwidth (MB/s = 10^6 bytes/s)')
slow(c) = (column('flagged') > 0 ? column(c) : NaN)
fast(c) = (column('flagged') > 0 ? NaN : column(c))
start(c) = (column('group_start') > 0 ? column(c) - 0.5 : NaN)

set multiplot layout (nb > 0 ? 2 : 1), 1 title run_title(sprintf('Fabric map: %d hosts by group', n), 'medians with 95% CI')
set style fill solid 1.0 noborder
set xrange [-0.5 : n - 0.5]
set ylabel 'score: '.unit
set yrange [0 : ytop]
if (n <= 64) { set xtics rotate by 90 right font ',8' } else { unset xtics }
set key bottom right
far = -1e9
TICS = (n <= 64 ? "hosts using 'order':(far):xtic(1) with dots notitle," : "")
plot @TICS \
	hosts using (start('order')):(0):(0):(ytop) with vectors nohead lc rgb '#b0b0b0' dt 2 notitle, \
	hosts using 'order':(fast('score')):(fast('lo')):(fast('hi')) with yerrorbars pt 7 ps 0.6 lc rgb '#0072B2' \
		title 'host', \
	hosts using 'order':(slow('score')):(slow('lo')):(slow('hi')) with yerrorbars pt 9 ps 1.2 lc rgb '#D55E00' \
		title 'host flagged (slower than its group''s typical host)'

# (a macro inside a { } block is expanded before the block runs)
BTICS = (nb > 0 && nb <= 40 ? "groups using (column(0) - nu):(far):xtic(strcol('group_a').'|'.strcol('group_b')) with dots notitle," : "")
if (nb > 0) {
	unset xtics
	set xrange [-0.5 : nb - 0.5]
	if (metric eq 'lat') { set yrange [0.8 : *] } else { set yrange [0 : 1.2] }
	set ylabel 'crossing / within'
	if (nb <= 40) { set xtics nomirror rotate by 45 right font ',9' }
	isb(_) = (strcol('kind') eq 'boundary')
	bslow(c) = (isb(0) && column('flagged') > 0 ? column(c) : NaN)
	bfast(c) = (isb(0) && column('flagged') == 0 ? column(c) : NaN)
	plot @BTICS \
		groups using (column(0) - nu):(bfast('rel')):(bfast('rel_lo')):(bfast('rel_hi')) \
			with yerrorbars pt 7 ps 0.8 lc rgb '#0072B2' title 'boundary', \
		'' using (column(0) - nu):(bslow('rel')):(bslow('rel_lo')):(bslow('rel_hi')) with yerrorbars pt 9 ps 1.2 \
			lc rgb '#D55E00' title 'boundary flagged (a bottleneck between the groups)', \
		(metric eq 'lat' ? 1 / (1 + floor) : 1 - floor) with lines dt 2 lc rgb '#404040' title 'effect floor', \
		1 with lines lc rgb '#b0b0b0' notitle
}
unset multiplot
