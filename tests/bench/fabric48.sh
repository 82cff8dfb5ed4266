#!/bin/sh
# fabric48: the top of the range on the emulated fabric, through a whole
# sweep (`make bench`, root only; prints "skip - WHY" otherwise).
#   HOSTS=48 sh tests/bench/fabric48.sh  (from the repository root)
# HOSTS defaults to 32: on this machine (MPICH 4.0.2, UCX over TCP) 40 and 48
# ranks on the fabric fail in MPI_Init ("initial_address_exchange ...
# Destination is unreachable"), with mpi_probe too, so it is not swstress's;
# 32 start. Two leaves of HOSTS/2 hosts, 10 Mbit/s ports (low, so that 2
# cores keep up), a 100 Mbit/s trunk, pairing = halves (every pair crosses
# the trunk), stream 64 KiB, timed 2-s samples, pairs 1..HOSTS/2. The known answer:
# every pair at port speed (1.19 MB/s of TCP payload) up to 10 pairs (the
# knee: 10 ports fill the trunk), then the trunk's 11.96 MB/s shared; the
# pairs overlap in time at every level. Figures in tests/bench/RESULTS.md.
# Holds /run/lock/swstress-fabric.lock around the fabric's up..down.
set -u
F=tests/fabric
FAB="sh $F/fabric.sh"
SW=${SW:-$PWD/build/swstress}
OUT=${OUT:-$PWD/build/bench/fabric48}
export FABRIC_QUIET=1
[ "$(id -u)" = 0 ] || { echo "skip - fabric48: not root (network namespaces need root)"; exit 0; }
why=$(timeout 30 $FAB check 2>&1) || { echo "skip - fabric48: $why"; exit 0; }
rm -rf "$OUT" && mkdir -p "$OUT" || exit 1
exec 9>/run/lock/swstress-fabric.lock && flock -w 1500 9 || { echo "fabric48: the fabric lock stayed held for 1500 s" >&2; exit 1; }
trap 'timeout 120 $FAB down >/dev/null 2>&1' EXIT INT TERM
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
t0=$(date +%s)
N=${HOSTS:-32}
K=$((N / 2))
LEVELS=$(for k in 1 2 4 8 10 12 16 20 24; do [ $k -lt $K ] && printf '%s,' $k; done)$K
timeout 300 $FAB up twoleaf "$N" --port-rate 10mbit --trunk-rate 100mbit || { echo "fabric48: up failed" >&2; exit 1; }
echo "fabric up: $(($(date +%s) - t0)) s"
t0=$(date +%s)
timeout -k 5 900 sh $F/mpirun.sh --timeout 880 "$SW" run -c configs/demo.conf --no-plot label=fabric48 \
	output="$OUT" pairs="$LEVELS" patterns=stream sizes=64KiB pairing=halves \
	sample_time=2s repetitions=3 warmup=1 timeout=120s allow_shared_node=no \
	</dev/null >"$OUT/out" 2>"$OUT/err"
rc=$?
echo "sweep of $N hosts, pairs $LEVELS: exit $rc, $(($(date +%s) - t0)) s wall (start-up, 4 rounds of 2 s a level, finalize)"
res=$(ls -td "$OUT"/fabric48-*/ 2>/dev/null | head -1)
[ "$rc" = 0 ] && [ -n "$res" ] || { tail -5 "$OUT/err" >&2; exit 1; }
python3 $F/swres.py "${res%/}" >"$OUT/facts"
python3 - "${res%/}" "$OUT/facts" <<'PY'
import json, sys
run = json.load(open(sys.argv[1] + "/run.json"))
print("ranks %d, one per host: %s; yield %s; duration %.0f s" % (
    len(run["ranks"]), len({r["host"] for r in run["ranks"]}) == len(run["ranks"]), run["yield"], run["duration_s"]))
cpu = {}
for c in run["cpu"]:
    cpu[c["level"]] = cpu.get(c["level"], 0) + c["user_s"] + c["sys_s"]
print("pairs  pair MB/s  aggregate MB/s  drop %  sig  overlap  CPU s (all ranks)")
for l in open(sys.argv[2]):
    if not l.startswith("cell="):
        continue
    f = dict(kv.split("=", 1) for kv in l.split())
    lv = [c["level"] for c in run["cells"] if str(c["cell"]) == f["cell"]][0]
    print("%5s  %9.3f  %14.3f  %6s  %3s  %7.4f  %5.1f" % (f["pairs"], float(f["bw"]), float(f["agg"]),
          f["drop"] if f["drop"] != "NaN" else "-", f["sig"], float(f["overlap"]), cpu.get(lv, 0)))
PY
