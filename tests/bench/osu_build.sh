# Sourced by osu.sh and phase.sh: finds the OSU micro-benchmarks' PROGS
# under $OSU (a source tree, built here into $OSU_BUILD with mpicc when it
# holds no binaries, printing 4 decimals instead of its 2; or a build or
# install tree), or prints SKIP with how to get them and exits 0. Nothing
# is ever downloaded. Defines osu_bin NAME.
howto() {
	echo "SKIP $(basename "$0" .sh): $1"
	echo "  The OSU micro-benchmarks are not a Debian package and this bench never downloads them."
	echo "  Get the sources of OSU Micro-Benchmarks 7.4 (osu-micro-benchmarks-7.4.tar.gz) from"
	echo "  https://mvapich.cse.ohio-state.edu/benchmarks/ , unpack them, and run:"
	echo "      make bench OSU=/path/to/osu-micro-benchmarks-7.4     (or: OSU=... sh tests/bench/run_all.sh $(basename "$0" .sh))"
	echo "  A tree that already holds $PROGS is used as it is."
	exit 0
}

# osu_bin NAME: the first executable NAME under $OSU or our build of it.
osu_bin() {
	find "$OSU" "$OSU_BUILD" -name "$1" -type f -perm -u+x 2> /dev/null | head -n 1
}

[ -n "$OSU" ] || howto "OSU is not set"
[ -d "$OSU" ] || howto "OSU='$OSU' is not a directory"
missing=""
for p in $PROGS; do
	[ -n "$(osu_bin $p)" ] || missing=$p
done
if [ -n "$missing" ]; then
	if [ -f "$OSU/Makefile" ]; then          # configured in place: build there
		dir=$OSU
	elif [ -x "$OSU/configure" ]; then       # pristine sources: build out of tree
		dir=$OSU_BUILD
		mkdir -p "$dir"
		echo "osu: configuring $OSU with ${MPICC:-mpicc} in $dir" >&2
		(cd "$dir" && "$OSU/configure" CC="${MPICC:-mpicc}" CXX="${MPICXX:-mpicxx}" > configure.log 2>&1) ||
			{ echo "osu: configure failed, see $dir/configure.log" >&2; exit 1; }
	else
		howto "no OSU binaries and no configure script under '$OSU'"
	fi
	# OSU prints 2 decimals: 0.01 us is 5% of a 0.2 us shared-memory
	# latency, the size of the target. Build it to print 4.
	echo "osu: building $PROGS in $dir (FLOAT_PRECISION 4)" >&2
	nice make -C "$dir/c/mpi/pt2pt/standard" $PROGS CPPFLAGS="-UFLOAT_PRECISION -DFLOAT_PRECISION=4" \
		> "$dir/make-swstress-bench.log" 2>&1 ||
		{ echo "osu: build failed, see $dir/make-swstress-bench.log" >&2; exit 1; }
fi
for p in $PROGS; do
	[ -n "$(osu_bin $p)" ] || howto "$p not found under '$OSU'"
done
