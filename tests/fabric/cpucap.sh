#!/bin/sh
# cpucap.sh DIR PAIRS PROGRAM [ARGS...] - run PROGRAM, an MPI rank, with the
# CPU of its rank pair: rank N (PMI_RANK, set by mpiexec) of pair P, the Nth
# of the comma-separated PAIRS, joins the CPU cgroup DIR/pP (whose quota the
# caller set) and runs on core P (modulo the cores). DIR is a cgroup (v1 cpu)
# hierarchy mounted outside /sys, which `ip netns exec` hides. ppn.sh gives
# each rank pair the same known CPU this way.
set -u
[ $# -ge 3 ] || { echo "usage: cpucap.sh DIR PAIRS PROGRAM [ARGS...]" >&2; exit 2; }
[ -n "${PMI_RANK:-}" ] || { echo "cpucap.sh: PMI_RANK not set (run it under mpiexec)" >&2; exit 2; }
p=$(echo "$2" | cut -d, -f$((PMI_RANK + 1)))
[ -n "$p" ] || { echo "cpucap.sh: no pair for rank $PMI_RANK in '$2'" >&2; exit 2; }
echo $$ >"$1/p$p/cgroup.procs" || { echo "cpucap.sh: cannot join the cgroup $1/p$p" >&2; exit 1; }
shift 2
exec taskset -c $((p % $(nproc --all))) "$@"
