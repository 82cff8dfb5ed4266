#!/bin/sh
# Adaptive repetitions against a fixed count tuned to the same precision.
#   sh tests/bench/adaptive.sh              (from the repository root)
# 1. repetitions = MIN..MAX with ci_target = 0.02: samples the rule takes.
# 2. repetitions = FIXED (large) once; offline, for every cell, the first n
#    at which the median CI of the first n samples is within +-2% (the same
#    rule, stats_median_ci_ranks in Python). A fixed count that reaches
#    +-2% in every cell must be the largest such n (or MAX where none).
set -u
SW=${SW:-$PWD/build/swstress}
OUT=${OUT:-$PWD/build/bench/adaptive}
MPIEXEC=${MPIEXEC:-mpiexec}
BIND=${BIND:--bind-to core}
MIN=${MIN:-5}
MAX=${MAX:-100}
export UCX_TLS=${UCX_TLS:-self,sm,tcp}
rm -rf "$OUT" && mkdir -p "$OUT"
common="-c /dev/null allow_shared_node=yes pairs=1 patterns=pingpong,stream sizes=8,1KiB,64KiB,1MiB hops=auto
 sample_time=5ms warmup=1 cell_budget=60s --no-plot"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
timeout 900 $MPIEXEC $BIND -n 2 "$SW" run $common repetitions=$MIN..$MAX ci_target=0.02 output="$OUT/adaptive" > /dev/null 2> "$OUT/adaptive.err" || exit 1
timeout 900 $MPIEXEC $BIND -n 2 "$SW" run $common repetitions=$MAX output="$OUT/fixed" > /dev/null 2> "$OUT/fixed.err" || exit 1
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$(ls -d "$OUT"/adaptive/*-* | head -n1)" "$(ls -d "$OUT"/fixed/*-* | head -n1)" "$MIN" "$MAX" <<'PY'
import csv, json, math, sys
ad, fx, MIN, MAX = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
def ci_ranks(n, conf=0.95):
    # largest j with P(j <= B < n+1-j) >= conf, B ~ Bin(n, 1/2); ranks 1-based
    pmf = [math.comb(n, i) / 2.0 ** n for i in range(n + 1)]
    best = None
    for j in range(1, n // 2 + 1):
        k = n + 1 - j
        if sum(pmf[j:k]) >= conf:
            best = (j, k)
    return best
def rel_half(x):
    r = ci_ranks(len(x))
    if not r:
        return float("inf")
    s = sorted(x)
    med = (s[(len(s) - 1) // 2] + s[len(s) // 2]) / 2
    return (s[r[1] - 1] - s[r[0] - 1]) / 2 / med
def load(d):
    run = json.load(open(d + "/run.json"))
    rows = list(csv.DictReader(l for l in open(d + "/samples.csv") if not l.startswith("#")))
    return run, rows
arun, _ = load(ad)
frun, frows = load(fx)
print("| cell | hops | adaptive reps (stop) | first n within 2% (fixed run) |")
print("|---|---:|---:|---:|")
need = []
for c in frun["cells"]:
    lat = [float(r["latency_us"]) for r in frows if int(r["cell"]) == c["cell"]]
    n_ok = next((n for n in range(MIN, len(lat) + 1) if rel_half(lat[:n]) <= 0.02), None)
    need.append(n_ok)
    a = arun["cells"][c["cell"]]
    print("| %s %dB | %d | %d (%s) | %s |" % (c["pattern"], c["size_bytes"], a["hops"], a["reps"], a["stop"],
          n_ok if n_ok else ">%d" % MAX))
ncell = len(frun["cells"])
ad_samples = sum(c["reps"] for c in arun["cells"])
ad_hops = sum(c["reps"] * c["hops"] for c in arun["cells"])
ad_ok = sum(1 for c in arun["cells"] if c["stop"] == "converged")
fixed_n = max(n if n else MAX for n in need)
fx_ok = sum(1 for n in need if n)
fx_hops = sum(fixed_n * c["hops"] for c in frun["cells"])
print()
print("adaptive %d..%d: %d samples, %.3g hops, %d/%d cells converged, %.1f s of samples" % (
    MIN, MAX, ad_samples, ad_hops, ad_ok, ncell, sum(c["timed_s"] for c in arun["cells"])))
print("fixed count reaching +-2%% in every cell that can: %d per cell -> %d samples, %.3g hops (%d/%d cells reach it within %d)" % (
    fixed_n, fixed_n * ncell, fx_hops, fx_ok, ncell, MAX))
print("adaptive uses %.0f%% of the fixed count's samples" % (100.0 * ad_samples / (fixed_n * ncell)))
PY
