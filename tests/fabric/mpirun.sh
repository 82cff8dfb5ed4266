#!/bin/sh
# mpirun.sh - run an MPI program with one rank on each host of the fabric.
#
#   tests/fabric/mpirun.sh [--timeout SECONDS] [--no-preload|--own-preload] [--np N|-n N] [--ppn K] PROGRAM [ARGS...]
#
# The one place that knows how to launch through the fabric. It runs:
#
#   mpiexec -hosts swsN00,...  -launcher ssh -launcher-exec tests/fabric/launcher.sh \
#           -iface swbrM -n N -ppn K \
#           -genv UCX_TLS tcp,self -genv UCX_NET_DEVICES swd0 \
#           -genv LD_PRELOAD build/fabric/finalize_preload.so  PROGRAM ARGS...
#
#   -iface swbrM      Hydra's proxies (inside the namespaces) connect back to
#                     mpiexec at the root namespace's management address.
#   UCX_TLS=tcp,self  no shared memory, no other transports
#   UCX_NET_DEVICES   MPI data only on the host's data port swd0 (through the
#                     switch bridges and their tbf), never on management swm0
#   LD_PRELOAD        the MPICH 4.0.2 / UCX TCP finalize-hang workaround
#                     (--no-preload: none, and SWSTRESS_PRELOAD=0 for swstress;
#                     --own-preload: none given, swstress loads its own)
#
# K ranks on each host (--ppn, default 1: swstress's ranks_per_node), N
# (default) K on every host of the fabric.
#
# Everything is under `timeout` (default 600 s); on timeout or failure the
# ranks left in the fabric's namespaces are killed. Exit status: the program's,
# 124 on timeout.
set -u
DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$DIR/../.." && pwd)
tmo=600 preload=yes np="" ppn=1
while [ $# -gt 0 ]; do
	case $1 in
	--timeout) tmo=$2; shift 2 ;;
	--no-preload) preload=no; shift ;;
	--own-preload) preload=own; shift ;;
	--np | -n) np=$2; shift 2 ;;   # -n as mpiexec's, for scripts that take MPIEXEC
	--ppn) ppn=$2; shift 2 ;;
	--) shift; break ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || { sed -n '4p' "$0" | sed 's/^# //' >&2; exit 2; }
hosts=$(sh "$DIR/fabric.sh" hosts) || exit 1
[ -n "$np" ] || np=$(($(echo "$hosts" | tr ',' '\n' | wc -l) * ppn))
set -- -hosts "$hosts" -launcher ssh -launcher-exec "$DIR/launcher.sh" -iface swbrM \
	-n "$np" -ppn "$ppn" -genv UCX_TLS tcp,self -genv UCX_NET_DEVICES swd0 \
	-genv UCX_WARN_UNUSED_ENV_VARS n "$@"
if [ $preload = yes ]; then
	sh "$DIR/build.sh" || { echo "mpirun.sh: cannot build finalize_preload.so" >&2; exit 1; }
	set -- -genv LD_PRELOAD "$ROOT/build/fabric/finalize_preload.so" "$@"
elif [ $preload = no ]; then   # nor the one swstress loads by itself
	set -- -genv SWSTRESS_PRELOAD 0 "$@"
fi
[ -n "${FABRIC_VERBOSE:-}" ] && echo "+ ${MPIEXEC:-mpiexec} $*" >&2
timeout -k 10 "$tmo" "${MPIEXEC:-mpiexec}" "$@"
rc=$?
if [ $rc -ne 0 ]; then
	# Leftover ranks or proxies in the fabric's namespaces are ours: stop them.
	for ns in $(echo "$hosts" | tr ',' ' '); do
		pids=$(timeout 10 ip netns pids "$ns" 2>/dev/null)
		[ -n "$pids" ] && kill -9 $pids 2>/dev/null
	done
	[ $rc -eq 124 ] || [ $rc -eq 137 ] && echo "mpirun.sh: timed out after ${tmo}s" >&2
fi
exit $rc
