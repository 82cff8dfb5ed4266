# common.sh - what every drill script starts with (sourced by run.sh and
# input.sh, run from the repository root): the binary, a private temporary
# folder removed on exit (with any tmpfs a drill mounted: MOUNTS), the
# pass/fail/skip counters and run_drills.
set -u
SW=${SW:-$PWD/build/swstress}
MPIEXEC=${MPIEXEC:-mpiexec}
TMP=$(mktemp -d "/tmp/swstress-$(basename "$0" .sh).XXXXXX")
MOUNTS=""
cleanup() {
	for m in $MOUNTS; do umount "$m" 2>/dev/null; done
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM
export UCX_TLS=${UCX_TLS:-self,sm,tcp}
PASS=0
FAIL=0
SKIP=0

ok() { PASS=$((PASS + 1)); echo "ok   - $1"; }
fail() { FAIL=$((FAIL + 1)); echo "FAIL - $1"; [ -n "${2:-}" ] && [ -f "$2" ] && sed 's/^/       /' "$2" | tail -n 15; }
skip() { SKIP=$((SKIP + 1)); echo "skip - $1"; }
now() { date +%s.%N; }
elapsed() { echo "$(now) $1" | awk '{printf "%.1f", $1 - $2}'; }

# run_drills TITLE "DEFAULT DRILLS" [DRILL...]: the drills named, else the
# defaults; then "TITLE: N passed, N failed, N skipped (T s)"; false when
# one failed.
run_drills() {
	title=$1 defaults=$2
	shift 2
	t_all=$(now)
	for d in ${*:-$defaults}; do $d; done
	echo "$title: $PASS passed, $FAIL failed, $SKIP skipped ($(elapsed "$t_all") s)"
	[ "$FAIL" = 0 ]
}
