# common.gp - what every swstress chart shares: terminal, fonts, the colour
# palette, size formatting, and reading the result CSV files. Loaded by
# falloff.gp, size.gp, ports.gp and drop.gp from their own folder; it draws
# nothing itself.
#
# Variables it reads (all optional but out):
#   out     output file (PNG or SVG)
#   term    'png' (pngcairo, default) or 'svg'
#   width, height   pixels (defaults per chart)
#   scale   PNG only: draw the same chart smaller or larger, fonts, lines
#           and markers too (default 1; the README's examples use 0.6)
#   label, date     run label and start time, for titles ("switch-A",
#                   "2026-03-14 09:30 UTC"); default: none
#   sizes   every message size of the run in bytes, ascending, space
#           separated ("8 1024 65536"); a size keeps the same colour in
#           every chart. Default: the sizes found in `in`, in file order.
#   nodes   every level of the run as nodes, ascending ("2 4 8"). Default:
#           the values found in `in`.
#   hops    only rows with this hop count (0 or unset: every row)
#   conf    confidence level in percent, for legends (default 95)
#   min_overlap, min_sample_us, timed_sample_us   when a cell is not to be
#           trusted (map.gp hatches it, drop.gp rings it): its pairs
#           overlapped less than min_overlap (default 0.9, the report's
#           threshold) or its samples were shorter than min_sample_us
#           (default 1000: 1 ms, where a 1 us timer tick or a 10 us start
#           skew is 1 %): hops x per-hop latency, or timed_sample_us for a
#           time-bounded cell (hops 0; default unknown: not marked)
#   table   a text file that receives what the chart drew: every series
#           as "series PANEL|NAME|#RRGGBB|MARKER" (marker: gnuplot point
#           type, 0 for a line without markers), and chart-specific lines
#           (map.gp: every cell; drop.gp: the y range and clipped points).
#           For tests, and for copying numbers into a report. Default: none.
#
# Palette: message sizes are told apart by the Okabe-Ito colours (safe for
# colour-blind readers; yellow left out, it vanishes on white) together with
# a marker shape, both cycling, so 20 sizes stay distinct. Load levels use a
# ramp from Okabe-Ito blue (unloaded) to vermillion (most loaded); "worse
# than typical" is vermillion in the heat map too.

if (!exists("out")) { print "swstress plot: set out='FILE.png'"; exit status 2 }
if (!exists("term")) { term = 'png' }
if (!exists("width")) { width = 1200 }
if (!exists("height")) { height = 700 }
if (!exists("label")) { label = '' }
if (!exists("date")) { date = '' }
if (!exists("hops")) { hops = 0 }
if (!exists("conf")) { conf = '95' }
if (!exists("scale")) { scale = 1 }
if (!exists("table")) { table = '' }
if (!exists("min_overlap")) { min_overlap = 0.9 }
if (!exists("min_sample_us")) { min_sample_us = 1000 }
if (!exists("timed_sample_us")) { timed_sample_us = NaN }

set encoding utf8
if (term eq 'svg') {
	set terminal svg size width, height dynamic noenhanced font 'DejaVu Sans,13' background '#ffffff'
} else {
	set terminal pngcairo size width * scale, height * scale noenhanced font 'DejaVu Sans,11' background '#ffffff' \
		linewidth 1.2 * scale fontscale scale pointscale scale
}
set output out

set datafile separator ','
set datafile columnheaders
set border 3 lc rgb '#404040'
set tics nomirror out scale 0.6 textcolor rgb '#303030'
set grid lc rgb '#e4e4e4' lw 1 dt 1
set key noautotitle
unset colorbox
set errorbars small
set style fill transparent solid 0.15 noborder

# --- data helpers ---------------------------------------------------------
# A missing number is written NaN; gnuplot would drop the whole point, so
# fields that may be missing (CIs) are read with num(), which substitutes a
# fallback. Read the text, not the number: gnuplot poisons any expression that
# touches a NaN field.
bad(s) = (s eq 'NaN' || s eq 'nan' || s eq '-nan' || s eq '' || s eq 'inf' || s eq '-inf')
num(c, d) = bad(strcol(c)) ? d : column(c)
hop_match(_) = (hops + 0 == 0) || (column('hops') == hops + 0)
# min and max that ignore a NaN second argument
mn(a, b) = (b == b && b < a) ? b : a
mx(a, b) = (b == b && b > a) ? b : a
# The row's sample length (us) and whether not to trust it (see above).
sample_us(_) = column('hops') > 0 ? column('hops') * num('lat_median_us', NaN) : timed_sample_us
distrust(_) = (num('overlap', 1) < min_overlap || sample_us(0) < min_sample_us) ? 1 : 0
addw(l, s) = (strstrt(' '.l.' ', ' '.s.' ') == 0 ? (l eq '' ? s : l.' '.s) : l)
widx(l, v) = sum [j=1:words(l)] ((word(l, j) + 0) == v ? j : 0)

if (!exists("sizes") || !exists("nodes")) {
	_s = ''; _n = ''
	stats in using (_s = addw(_s, strcol('size_bytes')), _n = addw(_n, strcol('nodes')), 0) nooutput
	if (!exists("sizes")) { sizes = _s }
	if (!exists("nodes")) { nodes = _n }
}
nsizes = words(sizes)
nlevels = words(nodes)

# x axis over the levels: tics at every level when they fit, padded range.
nodes_lo = (word(nodes, 1) + 0)
nodes_hi = (word(nodes, nlevels) + 0)
nodes_pad = mx(1, (nodes_hi - nodes_lo) * 0.06)
xaxis_nodes = sprintf('set xrange [%g:%g]', nodes_lo - nodes_pad, nodes_hi + nodes_pad)

# --- sizes: colour, marker, name ------------------------------------------
OKABE = '#0072B2 #D55E00 #009E73 #CC79A7 #E69F00 #56B4E9 #000000'
PT_FILLED = '7 5 9 11 13 15'
scol(i) = word(OKABE, (i - 1) % 7 + 1)
spt(i) = word(PT_FILLED, (i - 1) % 6 + 1) + 0
spt_open(i) = spt(i) - 1
size_i(i) = word(sizes, i) + 0
fmt_size(b) = _fmt_size(int(b))
_fmt_size(b) = (b >= 1073741824 && b % 1073741824 == 0) ? sprintf('%d GiB', b / 1073741824) : \
	(b >= 1048576 && b % 1048576 == 0) ? sprintf('%d MiB', b / 1048576) : \
	(b >= 1024 && b % 1024 == 0) ? sprintf('%d KiB', b / 1024) : sprintf('%d B', b)

# --- levels: sequential ramp blue -> purple -> vermillion -----------------
# The same ramp as a palette (colour bars) and as explicit colours
# (lrgb(f), f in 0..1), so that a chart can say which colour it drew.
set palette defined (0 '#0072B2', 0.5 '#CC79A7', 1 '#D55E00')
_mix(a, b, t) = int(a + (b - a) * t + 0.5)
_ramp(c0, c1, t) = _mix(c0 / 65536, c1 / 65536, t) * 65536 + _mix((c0 / 256) % 256, (c1 / 256) % 256, t) * 256 + _mix(c0 % 256, c1 % 256, t)
lrgb(f) = sprintf('#%06X', f < 0.5 ? _ramp(0x0072B2, 0xCC79A7, 2 * f) : _ramp(0xCC79A7, 0xD55E00, 2 * f - 1))
lfrac(i) = (nlevels > 1 ? (node_i(i) - nodes_lo + 0.0) / (nodes_hi - nodes_lo) : 0)
lfrac_nodes(n) = (nlevels > 1 ? (n - nodes_lo + 0.0) / (nodes_hi - nodes_lo) : 0)
node_i(i) = word(nodes, i) + 0
fmt_level(n) = sprintf('%d nodes (%d pair%s)', n, n / 2, n / 2 == 1 ? '' : 's')

# --- diverging scale: blue (better) - near white - vermillion (worse) --------
# Okabe-Ito blue and vermillion with lighter steps between: readable with
# every common colour vision deficiency. Positions are relative to cbrange;
# the high end is worse. Usage: eval PALETTE_DIVERGING
PALETTE_DIVERGING = "set palette defined (0 '#0072B2', 0.25 '#8FC0E0', 0.5 '#F5F5F5', 0.75 '#EDA77E', 1 '#D55E00')"

# A line of the table saying what was drawn.
series_line(panel, name, colour, marker) = sprintf('series %s|%s|%s|%d', panel, name, colour, marker)

# --- titles ---------------------------------------------------------------
# Two lines: what the chart shows, then "switch-A  ·  stream  ·  2026-03-14 09:30 UTC".
run_title(what, detail) = what."\n".(label eq '' ? '' : label.'  ·  ').detail.(date eq '' ? '' : '  ·  '.date)

# Log axis range padded by a factor, for data spanning lo..hi.
logrange(lo, hi) = sprintf('[%g:%g]', lo / 1.5, hi * 1.5)
# Less than two decades on a log y axis: label 2 and 5 times the powers of
# ten too. Usage: _lo = ...; _hi = ...; @LOGTICS_Y
LOGTICS_Y = 'if (_hi / _lo < 100) { do for [_k = floor(log10(_lo / 1.5)):ceil(log10(_hi * 1.5))] { do for [_m in "2 5"] { _v = _m * 10.0**_k; set ytics add (sprintf("%g", _v) _v) } } }'

