# common.sh - what every drill script starts with (sourced by run.sh and
# input.sh, run from the repository root): tests/lib.sh, the binary, a
# private temporary folder removed on exit (with any tmpfs a drill
# mounted: MOUNTS) and run_drills.
set -u
. "$(dirname "$0")/../lib.sh"
SW=${SW:-$PWD/build/swstress}
MPIEXEC=${MPIEXEC:-mpiexec}
t_tmpdir "$(basename "$0" .sh)"
TMP=$T_TMP
MOUNTS=""
t_cleanup() {
	for m in $MOUNTS; do umount "$m" 2>/dev/null; done
}
export UCX_TLS=${UCX_TLS:-self,sm,tcp}
now() { date +%s.%N; }
elapsed() { echo "$(now) $1" | awk '{printf "%.1f", $1 - $2}'; }

# run_drills TITLE "DEFAULT DRILLS" [DRILL...]: the drills named, else the
# defaults; then the closing line "TITLE: N passed, N failed, N skipped"
# (t_end); false when one failed.
run_drills() {
	t_begin "$1"
	defaults=$2
	shift 2
	for d in ${*:-$defaults}; do $d; done
	t_end
}
