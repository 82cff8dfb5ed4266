#!/usr/bin/env python3
"""swres.py RESULT_DIR - facts from a swstress results folder, for the fabric tests.

Reads run.json, summary.csv and samples.csv with the standard library only
(independently of swstress's own C code) and prints one fact per line,
KEY=VALUE, where the shell tests pick them up:

  complete=1  yield=1  ranks=8  hosts=swsN00,...   (host of each rank, in rank order)
  suspects=swsN01,swsN05                            (run.json suspects, sorted)
  isolation=swsN01:cleared,swsN05:slow              (run.json isolation verdicts, sorted)
  outlier_hosts=...                                 (hosts of flagged pairs)
  bytes=N                                           (payload of all timed samples)
  pairs=K bw=MB/s drop=% drop_lo=% drop_hi=% sig=0|1 agg=MB/s ideal=MB/s overlap=...
          span_agg=MB/s spread=... rate=Mmsg/s
                                                    (one line per cell, in cell order;
                                                     span_agg = bytes of a repetition / its
                                                     wall span, median over repetitions;
                                                     spread = the 90th over the 10th percentile
                                                     of the cell's sample bandwidths;
                                                     rate = a pair's median message rate;
                                                     incast: rx_drop=% rx_sig=0|1, the receiver
                                                     drop, and pairs = senders)
  pair cell=C pair=P hosts=A,B bw=MB/s flagged=0|1  (pairs.csv, one line per pair per cell)
  victims cell=C pairs=K p50=us alone=us infl=% lo=% hi=% sig=0|1 p99=us p99_alone=us p99_infl=% p99_sig=0|1
          net=% net_lo=% net_hi=% net_sig=0|1 cpu=% cpu_sig=0|1 net_ratio=%
                                                    (summary.csv victim_ columns, runs with victims;
                                                     net and cpu: run.json's split by the CPU
                                                     control round, NaN without one; net_ratio:
                                                     the network part recomputed here from
                                                     victim_samples: loaded against the control
                                                     round of the same repetition (the victims'
                                                     median p50), the geometric mean)
"""
import csv, json, math, os, statistics, sys


def rows(path):
    with open(path, newline="") as f:
        lines = [l for l in f if not l.startswith("#")]
    return list(csv.DictReader(lines))


def num(x):
    return "NaN" if x is None else "%.4g" % x


def network_ratio(j, cell):
    """(loaded / CPU control) - 1 in %, within each repetition: the geometric
    mean over the repetitions that have both rounds of the ratio of the
    victims' median p50 in each; None without control rounds."""
    per = {}
    for v in j.get("victim_samples", []):
        if v["cell"] != cell or v.get("alone") or v.get("p50_s") is None:
            continue
        per.setdefault(v["rep"], ([], []))[1 if v.get("cpu") else 0].append(v["p50_s"])
    logs = [math.log(statistics.median(l) / statistics.median(c)) for l, c in per.values() if l and c]
    if not logs:
        return None
    return 100.0 * (math.exp(statistics.mean(logs)) - 1)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: swres.py RESULT_DIR")
    d = sys.argv[1]
    j = json.load(open(os.path.join(d, "run.json")))
    print("complete=%d" % (1 if j.get("complete") else 0))
    print("yield=%d" % (1 if j.get("yield") else 0))
    ranks = sorted(j.get("ranks", []), key=lambda r: r["rank"])
    print("ranks=%d" % len(ranks))
    print("hosts=%s" % ",".join(r["host"] for r in ranks))
    print("suspects=%s" % ",".join(sorted(s["host"] for s in j.get("suspects", []))))
    print("isolation=%s" % ",".join(sorted("%s:%s" % (x["host"], x["verdict"]) for x in j.get("isolation", []))))
    oh = set()
    for o in j.get("outliers", []):
        oh.update((o["host_a"], o["host_b"]))
    print("outlier_hosts=%s" % ",".join(sorted(oh)))
    # missing samples (no time window) carry no value: left out, as swstress does
    samples = [s for s in rows(os.path.join(d, "samples.csv")) if not s.get("missing")]
    print("bytes=%d" % sum(int(s["size_bytes"]) * int(s["hops"]) for s in samples))
    reps = {}
    for s in samples:
        r = reps.setdefault((s["cell"], s["rep"]), [0, float("inf"), float("-inf")])
        r[0] += int(s["size_bytes"]) * int(s["hops"])
        r[1] = min(r[1], float(s["t_start_s"]))
        r[2] = max(r[2], float(s["t_end_s"]))
    for c in rows(os.path.join(d, "summary.csv")):
        spans = [b / (e - s) / 1e6 for (cell, _), (b, s, e) in reps.items() if cell == c["cell"] and e > s]
        bws = sorted(float(s["bandwidth_MBps"]) for s in samples if s["cell"] == c["cell"])
        q = statistics.quantiles(bws, n=10) if len(bws) > 1 else [float("nan")] * 9
        print("cell=%s pairs=%s pattern=%s size=%s hops=%s bw=%s drop=%s drop_lo=%s drop_hi=%s sig=%s agg=%s ideal=%s"
              " overlap=%s span_agg=%.3f spread=%.3f rx_drop=%s rx_sig=%s rate=%s"
              % (c["cell"], c["pairs"], c["pattern"], c["size_bytes"], c["hops"], c["bw_median_MBps"],
                 c["bw_drop_pct"], c["bw_drop_lo"], c["bw_drop_hi"], c["bw_drop_sig"], c["agg_median_MBps"], c["ideal_agg_MBps"],
                 c["overlap"], statistics.median(spans) if spans else float("nan"), q[8] / q[0] if q[0] > 0 else float("nan"),
                 c.get("receiver_drop_pct", "NaN"), c.get("receiver_drop_sig", "0"), c.get("rate_median_Mmsgps", "NaN")))
    for c in rows(os.path.join(d, "summary.csv")):
        if int(j["config"].get("victims", "0")) > 0:
            v = j["cells"][int(c["cell"])].get("summary", {}).get("victims", {})
            net, cpu = v.get("network_inflation") or {}, v.get("cpu_inflation") or {}
            print("victims cell=%s pairs=%s p50=%s alone=%s infl=%s lo=%s hi=%s sig=%s p99=%s p99_alone=%s p99_infl=%s p99_sig=%s"
                  " net=%s net_lo=%s net_hi=%s net_sig=%d cpu=%s cpu_sig=%d net_ratio=%s"
                  % (c["cell"], c["pairs"], c["victim_p50_us"], c["victim_alone_p50_us"], c["victim_infl_pct"],
                     c["victim_infl_lo"], c["victim_infl_hi"], c["victim_infl_sig"], c["victim_p99_us"],
                     c["victim_alone_p99_us"], c["victim_p99_infl_pct"], c["victim_p99_infl_sig"],
                     num(net.get("pct")), num(net.get("lo")), num(net.get("hi")), 1 if net.get("significant") else 0,
                     num(cpu.get("pct")), 1 if cpu.get("significant") else 0,
                     num(network_ratio(j, int(c["cell"])))))
    for p in rows(os.path.join(d, "pairs.csv")):
        print("pair cell=%s pair=%s hosts=%s,%s bw=%s flagged=%s"
              % (p["cell"], p["pair"], p["host_a"], p["host_b"], p["bw_median_MBps"], p["flagged"]))


if __name__ == "__main__":
    main()
