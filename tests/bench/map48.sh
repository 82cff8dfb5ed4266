#!/bin/sh
# map48: the fabric map at 48 emulated hosts (`make bench`, root only;
# prints "skip - WHY" otherwise): 1 128 pairs in 47 rounds of 24 pairs.
#   sh tests/bench/map48.sh   (from the repository root; HOSTS=N for fewer hosts)
# Two leaves of HOSTS/2 hosts, 10 Mbit/s ports, a 100 Mbit/s trunk (as
# fabric48.sh), `swstress map`: stream 64 KiB, 1-s timed samples, 2 blocks.
# Checked (PASS/FAIL lines, exit 1 on a FAIL): every pair of the hosts once
# in each block; printed: the wall time (start-up to the end) and the
# sweep's, and the map's statistics (build/mapblame: groups, the boundary
# and its capacity). Holds /run/lock/swstress-fabric.lock around the
# fabric's up..down. Figures in tests/bench/RESULTS.md.
set -u
F=tests/fabric
FAB="sh $F/fabric.sh"
SW=${SW:-$PWD/build/swstress}
OUT=${OUT:-$PWD/build/bench/map48}
export FABRIC_QUIET=1
[ "$(id -u)" = 0 ] || { echo "skip - map48: not root (network namespaces need root)"; exit 0; }
why=$(timeout 30 $FAB check 2>&1) || { echo "skip - map48: $why"; exit 0; }
make -s build/mapblame || exit 1
rm -rf "$OUT" && mkdir -p "$OUT" || exit 1
exec 9>/run/lock/swstress-fabric.lock && flock -w 1500 9 || { echo "map48: the fabric lock stayed held for 1500 s" >&2; exit 1; }
trap 'timeout 120 $FAB down >/dev/null 2>&1' EXIT INT TERM
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
N=${HOSTS:-48}
timeout 300 $FAB up twoleaf "$N" --port-rate 10mbit --trunk-rate 100mbit || { echo "map48: up failed" >&2; exit 1; }
t0=$(date +%s)
timeout -k 5 1800 sh $F/mpirun.sh --timeout 1780 "$SW" map --no-plot --no-history label=map48 output="$OUT" \
	patterns=stream sizes=64KiB sample_time=1s repetitions=2 warmup=1 timeout=120s allow_shared_node=no \
	</dev/null >"$OUT/out" 2>"$OUT/err"
rc=$?
wall=$(($(date +%s) - t0))
res=$(ls -td "$OUT"/map48-*/ 2>/dev/null | head -1)
[ "$rc" = 0 ] && [ -n "$res" ] || { echo "FAIL  the map of $N hosts ran (exit $rc)"; tail -5 "$OUT/err" >&2; exit 1; }
python3 - "${res%/}" "$N" "$wall" <<'PY' || rc=1
import csv, json, sys
d, n, wall = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
run = json.load(open(d + "/run.json"))
rows = [r for r in csv.DictReader(l for l in open(d + "/samples.csv") if not l.startswith("#"))]
seen = {}
for r in rows:
    k = (r["block"], min(r["host_a"], r["host_b"]), max(r["host_a"], r["host_b"]))
    seen[k] = seen.get(k, 0) + 1
rounds, pairs = run["map"]["pass"], n * (n - 1) // 2
print("map of %d hosts: %d rounds of %d pairs, %d pairs; wall %d s (start-up to the end), sweep %.0f s, "
      "%.2f s a round" % (n, rounds, n // 2, pairs, wall, run["duration_s"], run["duration_s"] / (rounds * 3)))
ok = len(seen) == 2 * pairs and set(seen.values()) == {1}
print("%s  every pair once in each of the 2 blocks (%d pair-blocks)" % ("PASS" if ok else "FAIL", len(seen)))
sys.exit(0 if ok else 1)
PY
build/mapblame "${res%/}" | grep -v '^host .*flagged=0$' | tee "$OUT/blame"
exit $rc
