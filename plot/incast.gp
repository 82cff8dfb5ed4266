# incast.gp - incast: k senders into one receiver's port, against the
# number of senders, one colour per message size. Filled markers and a
# solid line: the aggregate at the receiver (median and CI); the dashed
# grey line: the baseline level's aggregate (one sender alone fills the
# receiver's port: the ceiling a switch can at best keep); open markers and
# a dashed line: each sender's bandwidth (the median sender), with the fair
# share (the baseline aggregate / senders) dotted. A switch that keeps the
# ceiling draws the aggregate flat and the senders on their fair share; a
# switch whose buffers overflow (incast collapse) draws the aggregate
# falling away from the ceiling. drop.gp with metric 'rx' draws the
# receiver drop with its CI.
#
# Reads  in = summary.csv, columns: pairs (senders), pattern, size_bytes,
#        hops, bw_median_MBps, bw_lo_MBps, bw_hi_MBps, agg_median_MBps,
#        agg_lo_MBps, agg_hi_MBps, ideal_agg_MBps (incast: the baseline
#        level's aggregate), receiver_drop_sig (NaN CI fields: no error bar).
# Takes  in, out, pattern (required); label, date,
#        sizes, hops, conf, table, term, width, height (optional, see
#        common.gp).
# By hand:
#   gnuplot -e "in='results/X/summary.csv'; out='incast.png'; pattern='incast'" plot/incast.gp

if (!exists("width")) { width = 1100 }
if (!exists("height")) { height = 720 }
_dir = ''
do for [_i = strlen(ARG0):1:-1] { if (_dir eq '' && ARG0[_i:_i] eq '/') { _dir = ARG0[1:_i] } }
load _dir.'common.gp'
if (!exists("pattern")) { print "incast.gp: set pattern='incast'"; exit status 2 }

# One table per size: senders, aggregate lo hi, sender lo hi, ceiling, significant drop.
k_min = 1e300; k_max = -1e300; y_max = 0
seen(k, a, b) = (k_min = mn(k_min, k), k_max = mx(k_max, k), y_max = mx(mx(y_max, a), b), 1)
do for [i = 1:nsizes] {
	eval sprintf('set table $I%d', i)
	plot in using 'pairs':'agg_median_MBps':(num('agg_lo_MBps', column('agg_median_MBps'))):\
		(num('agg_hi_MBps', column('agg_median_MBps'))):'bw_median_MBps':\
		(num('bw_lo_MBps', column('bw_median_MBps'))):(num('bw_hi_MBps', column('bw_median_MBps'))):\
		(num('ideal_agg_MBps', NaN)):(num('receiver_drop_sig', 0)) \
		with table if (strcol('pattern') eq pattern && column('size_bytes') == size_i(i) && hop_match(0) && \
			seen(column('pairs'), num('agg_hi_MBps', num('agg_median_MBps', 0)), num('ideal_agg_MBps', 0)))
	unset table
}
set datafile separator whitespace
set datafile nocolumnheaders
I(i) = sprintf('$I%d', i)
if (k_max < k_min) { k_min = 1; k_max = 2 }
if (!(y_max > 0)) { y_max = 1 }

set title run_title('Incast: k senders into one receiver port', pattern) font ',15'
set xlabel 'senders into the one receiver'
set ylabel sprintf('bandwidth (MB/s = 10⁶ bytes/s), median and %s%% CI', conf)
set xrange [k_min - 0.3 : k_max + 0.3]
set xtics 1 font ',10'
set yrange [0 : y_max * 1.12]
set format y '%g'
set bmargin 9
set key outside below center horizontal maxrows 3 samplen 3 spacing 1.1 reverse Left width 2
plot for [i = 1:nsizes] I(i) using 1:8 with lines lc rgb '#909090' lw 1.5 dt 2 notitle, \
	for [i = 1:nsizes] I(i) using 1:($8 / $1) with lines lc rgb scol(i) lw 1 dt 3 notitle, \
	for [i = 1:nsizes] I(i) using 1:2:3:4 with yerrorbars lc rgb scol(i) pt spt(i) ps 1.3 lw 1.5 notitle, \
	for [i = 1:nsizes] I(i) using 1:2 with lines lc rgb scol(i) lw 2 notitle, \
	for [i = 1:nsizes] I(i) using 1:5:6:7 with yerrorbars lc rgb scol(i) pt spt_open(i) ps 1.3 lw 1.2 notitle, \
	for [i = 1:nsizes] I(i) using 1:5 with lines lc rgb scol(i) lw 1.5 dt 2 notitle, \
	for [i = 1:nsizes] I(i) using 1:($9 > 0 ? $2 : NaN) with points lc rgb '#D55E00' pt 6 ps 2.6 lw 1.5 notitle, \
	for [i = 1:nsizes] NaN with linespoints lc rgb scol(i) pt spt(i) lw 2 title fmt_size(size_i(i)).' at the receiver', \
	for [i = 1:nsizes] NaN with linespoints lc rgb scol(i) pt spt_open(i) lw 1.5 dt 2 title fmt_size(size_i(i)).' per sender', \
	NaN with lines lc rgb '#909090' lw 1.5 dt 2 title 'one sender alone (the ceiling)', \
	NaN with lines lc rgb '#303030' lw 1 dt 3 title 'fair share (ceiling / senders)', \
	NaN with points lc rgb '#D55E00' pt 6 ps 2.6 lw 1.5 title 'significant receiver drop'

# What was drawn.
if (table ne '') {
	set print table
	do for [i = 1:nsizes] {
		print series_line('incast', fmt_size(size_i(i)).' at the receiver', scol(i), spt(i))
		print series_line('incast', fmt_size(size_i(i)).' per sender', scol(i), spt_open(i))
	}
	unset print
}
