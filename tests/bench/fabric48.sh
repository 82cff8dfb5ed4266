#!/bin/sh
# fabric48: the top of the range on the emulated fabric, through a whole
# sweep, and the 48-rank start-up/efficiency figure with one rank per
# emulated host (`make bench`, root only; prints "skip - WHY" otherwise).
#   sh tests/bench/fabric48.sh   (from the repository root; HOSTS=N for fewer hosts)
# Two leaves of HOSTS/2 hosts (default 48), 10 Mbit/s ports (low, so that 2
# cores keep up), a 100 Mbit/s trunk, pairing = halves (every pair crosses
# the trunk), stream 64 KiB, timed 2-s samples, 5 repetitions, pairs
# 1..HOSTS/2. The known answer, checked (PASS/FAIL lines, exit 1 on a FAIL):
# one rank on each host; every pair at port speed (1.196 MB/s of TCP payload,
# within 10%) up to 10 pairs (the knee: 10 ports fill the trunk); beyond 10,
# the trunk's 11.96 MB/s shared (aggregate within 5%) and a significant drop;
# overlap >= 0.97 at every level. Then tests/bench/efficiency.sh through the
# same fabric (configs/quick.conf, HOSTS ranks, one per host).
# Before fabric.sh made room in the machine's neighbour table, 40 and 48 hosts
# failed in MPI_Init ("Destination is unreachable"; see tests/fabric/fabric.sh).
# Figures in tests/bench/RESULTS.md. Holds /run/lock/swstress-fabric.lock
# around the fabric's up..down.
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
N=${HOSTS:-48}
K=$((N / 2))
LEVELS=$(for k in 1 2 4 8 10 12 16 20 24; do [ $k -lt $K ] && printf '%s,' $k; done)$K
timeout 300 $FAB up twoleaf "$N" --port-rate 10mbit --trunk-rate 100mbit || { echo "fabric48: up failed" >&2; exit 1; }
echo "fabric up: $(($(date +%s) - t0)) s"
t0=$(date +%s)
timeout -k 5 1200 sh $F/mpirun.sh --timeout 1180 "$SW" run -c configs/demo.conf --no-plot --no-history label=fabric48 \
	output="$OUT" pairs="$LEVELS" patterns=stream sizes=64KiB pairing=halves \
	sample_time=2s repetitions=5 warmup=1 timeout=120s allow_shared_node=no \
	</dev/null >"$OUT/out" 2>"$OUT/err"
rc=$?
echo "sweep of $N hosts, pairs $LEVELS: exit $rc, $(($(date +%s) - t0)) s wall (start-up, 6 rounds of 2 s a level, finalize)"
res=$(ls -td "$OUT"/fabric48-*/ 2>/dev/null | head -1)
[ "$rc" = 0 ] && [ -n "$res" ] || { tail -5 "$OUT/err" >&2; exit 1; }
python3 $F/swres.py "${res%/}" >"$OUT/facts"
python3 - "${res%/}" "$OUT/facts" "$N" <<'PY' || rc=1
import json, sys
run = json.load(open(sys.argv[1] + "/run.json"))
n = int(sys.argv[3])
PORT, TRUNK, KNEE = 1.196, 11.96, 10       # MB/s of TCP payload at 10 and 100 Mbit/s
fails = 0
def check(ok, what):
    global fails
    fails += not ok
    print("%s  %s" % ("PASS" if ok else "FAIL", what))
hosts = [r["host"] for r in run["ranks"]]
print("ranks %d, yield %s; duration %.0f s" % (len(hosts), run["yield"], run["duration_s"]))
cpu = {}
for c in run["cpu"]:
    cpu[c["level"]] = cpu.get(c["level"], 0) + c["user_s"] + c["sys_s"]
print("pairs  pair MB/s  aggregate MB/s  drop %  sig  overlap  CPU s (all ranks)")
cells = []
for l in open(sys.argv[2]):
    if not l.startswith("cell="):
        continue
    f = dict(kv.split("=", 1) for kv in l.split())
    lv = [c["level"] for c in run["cells"] if str(c["cell"]) == f["cell"]][0]
    cells.append(f)
    print("%5s  %9.3f  %14.3f  %6s  %3s  %7.4f  %5.1f" % (f["pairs"], float(f["bw"]), float(f["agg"]),
          f["drop"] if f["drop"] != "NaN" else "-", f["sig"], float(f["overlap"]), cpu.get(lv, 0)))
check(len(hosts) == n and len(set(hosts)) == n, "%d ranks, one on each host" % n)
for f in cells:
    k, bw, agg = int(f["pairs"]), float(f["bw"]), float(f["agg"])
    check(float(f["overlap"]) >= 0.97, "%d pairs: overlap %s >= 0.97" % (k, f["overlap"]))
    if k <= KNEE:
        check(abs(bw / PORT - 1) <= 0.10, "%d pairs: %.3f MB/s a pair, port speed %.3f within 10%%" % (k, bw, PORT))
    else:
        check(abs(agg / TRUNK - 1) <= 0.05, "%d pairs: aggregate %.3f MB/s, trunk %.2f within 5%%" % (k, agg, TRUNK))
        check(f["sig"] == "1", "%d pairs: drop %s%% significant" % (k, f["drop"]))
sys.exit(1 if fails else 0)
PY
# Start-up and sweep efficiency with one rank per emulated host (issue 14's
# 48-rank figure): the same script as on shared memory, launched through the
# fabric (mpirun.sh reads MPIEXEC too: there, the real mpiexec).
MPIEXEC="env MPIEXEC=${MPIEXEC:-mpiexec} sh $PWD/$F/mpirun.sh --timeout 1180" OUT="$OUT/efficiency" \
	sh tests/bench/efficiency.sh "$N" || rc=1
exit $rc
