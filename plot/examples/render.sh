#!/bin/sh
# render.sh - redraw the README's example charts (plot/examples/*.png) from
# the procurement-sized test fixture (tests/data/procurement-run: 11 sizes,
# 6 levels; numbers made up, see tests/data/make_procurement_fixture.py), at
# 0.6 of their size. Run from the top folder: sh plot/examples/render.sh
set -e
F=tests/data/procurement-run
O=plot/examples
V="label='switch-A'; date='example'; scale=0.6"
gnuplot -e "in='$F/summary.csv'; out='$O/map-stream.png'; pattern='stream'; $V" plot/map.gp
gnuplot -e "in='$F/summary.csv'; out='$O/drop-stream.png'; pattern='stream'; width=1500; height=980; $V" plot/drop.gp
gnuplot -e "in='$F/summary.csv'; out='$O/falloff-stream.png'; pattern='stream'; width=1500; height=980; $V" plot/falloff.gp
gnuplot -e "in='$F/summary.csv'; fits='$F/fits.csv'; out='$O/size-pingpong.png'; pattern='pingpong'; $V" plot/size.gp
gnuplot -e "in='$F/pairs.csv'; out='$O/ports-stream.png'; pattern='stream'; width=1380; height=1172; $V" plot/ports.gp
