#!/bin/sh
# build.sh - build the fabric helpers into build/fabric/ (run from anywhere):
#   build/fabric/finalize_preload.so   LD_PRELOAD finalize-hang workaround (src/)
#   build/fabric/mpi_probe             the fabric's own MPI test program
# Rebuilds only what is older than its source. Exit 1 when a build fails.
set -u
DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$DIR/../.." && pwd)
OUT=$ROOT/build/fabric
CC=${CC:-cc}
MPICC=${MPICC:-mpicc}
mkdir -p "$OUT" || exit 1
stale() { [ ! -e "$1" ] || [ "$2" -nt "$1" ]; }
if stale "$OUT/finalize_preload.so" "$ROOT/src/finalize_preload.c"; then
	timeout 120 $CC -shared -fPIC -O2 -Wall -Wextra -o "$OUT/finalize_preload.so" "$ROOT/src/finalize_preload.c" -ldl || exit 1
fi
if stale "$OUT/mpi_probe" "$DIR/mpi_probe.c"; then
	timeout 120 $MPICC -std=c11 -O2 -Wall -Wextra -o "$OUT/mpi_probe" "$DIR/mpi_probe.c" || exit 1
fi
