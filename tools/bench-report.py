#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""
The report of `make bench`: reads the benchmarks' bench-*.json in DIR
and writes, in the same directory,
  bench.json  all of them, keyed by benchmark, plus the targets checked;
  bench.md    the targets with their measured ratios, the fast path's
              figures per path, the convergence times;
  bench.png   per-packet CPU cost and latency of each fast path.
A benchmark that did not run is reported as missing, not guessed.

usage: bench-report.py DIR
"""

import json
import os
import sys
import time


def load(d):
    "Every benchmark's JSON in d, and when each was written."
    out, when = {}, {}
    for name in sorted(os.listdir(d)):
        if name.startswith("bench-") and name.endswith(".json"):
            key = name[len("bench-"):-len(".json")]
            with open(os.path.join(d, name)) as f:
                out[key] = json.load(f)
            when[key] = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(
                os.path.getmtime(os.path.join(d, name))))
    return out, when


def med(stat):
    return None if stat is None else stat["median"]


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


def target(name, value, limit, unit, better="le", why=""):
    if value is None:
        status = "not measured"
    elif better == "le":
        status = "met" if value <= limit else "not met"
    else:
        status = "met" if value >= limit else "not met"
    return {"target": name, "value": value, "limit": limit, "unit": unit, "status": status,
            "note": why}


def targets(b):
    fp = b.get("fast-path", {})
    paths = fp.get("paths", {})
    cost = {n: med(p.get("us_per_packet")) for n, p in paths.items()}
    prog = {n: med(p.get("xdp_prog_ns")) for n, p in paths.items()}
    af_xdp = paths.get("cnpproxyd-af-xdp", {})
    no_af = None if af_xdp.get("offered", True) else af_xdp.get("reason")
    xdp = paths.get("cnpproxyd-xdp", {})
    xdp_half = xdp.get("latency_half_us", {})
    af_half = af_xdp.get("latency_half_us", {})
    flood = b.get("proxy-flood", {}).get("filter_on", {})
    tables = b.get("tables", {})
    lpm = tables.get("ipv4_1M", {})
    lpm_best = max([med(lpm.get(k)) or 0 for k in ("compiledLookupsPerS",
                                                   "compiledBulkLookupsPerS")]) or None
    flows = tables.get("flows1M", {})
    return [
        target("AF_XDP translation / no-work AF_XDP reflector, per packet",
               ratio(cost.get("cnpproxyd-af-xdp"), cost.get("xsk")), 1.1, "x", why=no_af or ""),
        target("AF_XDP translation / recvmmsg reflector, per packet",
               ratio(cost.get("cnpproxyd-af-xdp"), cost.get("mmsg")), 0.5, "x", why=no_af or ""),
        target("XDP-native translation / XDP build-and-send reference, program time",
               ratio(prog.get("cnpproxyd-xdp"), prog.get("xdp")), 1.2, "x",
               why="per packet as the kernel times the XDP programs"),
        target("XDP-native translation / XDP build-and-send reference, machine CPU",
               ratio(cost.get("cnpproxyd-xdp"), cost.get("xdp")), 1.2, "x"),
        target("cnpproxyd-xdp round trip p99 at half its max ({} pps)".format(
            fmt(med(xdp.get("half_pps")), "{:.0f}")), med(xdp_half.get("p99")), 20, "us",
               why="no busy-poll mode: the XDP path runs in the driver's NAPI"),
        target("cnpproxyd-af-xdp round trip p99, busy-poll, at half its max ({} pps)".format(
            fmt(med(af_xdp.get("half_pps")), "{:.0f}")), med(af_half.get("p99")), 20, "us",
               why=no_af or ""),
        target("trusted 1000/s stream loss under an untrusted flood (filter on)",
               (flood.get("trusted_loss_percent") or {}).get("max"), 0, "%"),
        target("XDP learner cost over XDP_PASS, per forwarded packet",
               med(fp.get("learner", {}).get("overhead_percent")), 10, "%"),
        target("proxy lookup at 1 M IPv4 prefixes, one core",
               None if lpm_best is None else lpm_best / 1e6, 100, "M/s", better="ge",
               why="bound by memory latency: a 212 MiB table misses the cache on each read"),
        target("flow table memory at 1 M flows",
               None if not flows else flows.get("bytes", 0) / 2**20, 512, "MiB"),
    ]


def fmt(v, spec="{:.2f}"):
    return "-" if v is None else spec.format(v)


def markdown(b, when, tgts):
    lines = ["# make bench", "", "Benchmarks: " + ", ".join(
        "{} ({})".format(k, v) for k, v in when.items()) + ".", "", "## Targets", "",
             "| target | measured | limit | status | note |", "|---|---|---|---|---|"]
    for t in tgts:
        lines.append("| {} | {} {} | {} {} | {} | {} |".format(
            t["target"], fmt(t["value"]), t["unit"], t["limit"], t["unit"], t["status"],
            t["note"]))
    fp = b.get("fast-path")
    if fp:
        base = fp["paths"].get("sendto", {}).get("us_per_packet")
        lines += ["", "## Fast paths", "",
                  "{} runs; cost at {} notifications/s; latency at {} notifications/s "
                  "(round trip gen -> pe1 -> gen); generator ceiling {} pps (median).".format(
                      fp["runs"], fp["rate_pps"], fp["latency_pps"],
                      fmt(med(fp.get("generator_max_pps")), "{:.0f}")), "",
                  "| path | us/packet (min/med/max) | x sendto | XDP program ns | max replies/s | "
                  "loss % | p50/p99 us | busy p50/p99 us | half max: pps, p50/p99 us |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for name, p in fp["paths"].items():
            if not p.get("offered", True):
                lines.append("| {} | not offered: {} | | | | | | | |".format(name, p["reason"]))
                continue
            c = p["us_per_packet"]
            lat, busy = p.get("latency_us", {}), p.get("latency_busy_us", {})
            half = p.get("latency_half_us", {})
            lines.append("| {} | {} / {} / {} | {} | {} | {} | {} | {} / {} | {} | {} |".format(
                name, fmt(c["min"]), fmt(c["median"]), fmt(c["max"]),
                fmt(ratio(c["median"], med(base))), fmt(med(p.get("xdp_prog_ns")), "{:.0f}"),
                fmt(med(p.get("max_pps")), "{:.0f}"),
                fmt(med(p.get("loss_percent"))), fmt(med(lat.get("p50")), "{:.1f}"),
                fmt(med(lat.get("p99")), "{:.1f}"),
                "{} / {}".format(fmt(med(busy.get("p50")), "{:.1f}"),
                                 fmt(med(busy.get("p99")), "{:.1f}")) if busy else "-",
                "{}: {} / {}".format(fmt(med(p.get("half_pps")), "{:.0f}"),
                                     fmt(med(half.get("p50")), "{:.1f}"),
                                     fmt(med(half.get("p99")), "{:.1f}")) if half else "-"))
        ln = fp.get("learner", {})
        lines += ["", "XDP learner, per forwarded RoCEv2 packet (medians): forwarding costs {} us "
                  "with a program that passes ({} ns); the learner's program takes {} ns, "
                  "{} % more.".format(fmt(med(ln.get("forward_us_per_packet"))),
                                      fmt(med(ln.get("pass_prog_ns")), "{:.0f}"),
                                      fmt(med(ln.get("learn_prog_ns")), "{:.0f}"),
                                      fmt(med(ln.get("overhead_percent")), "{:.1f}"))]
    st = (fp or {}).get("xdp_stages") or {}
    if st:
        lines += ["", "cnpproxyd's XDP program by stage (ns per frame, medians; "
                  "BPF_PROG_TEST_RUN on frames that leave it after each stage):", "",
                  "| stage | ns |", "|---|---|"]
        for key, label in (
                ("entry_and_parse", "entry, parse of a frame that is not a notification"),
                ("guard_source_denied", "... a notification from a denied source (whole run)"),
                ("guard_parse_flow_miss", "... an accepted one for an unknown flow (whole run)"),
                ("flow_route_buckets_interval", "flow hit, FIB lookup, global bucket, "
                 "minimum interval (suppressed less unknown flow)"),
                ("build_icrc_rewrite_redirect", "CNP build, ICRC, rewrite, redirect "
                 "(paced run's program time less suppressed)"),
                ("learner_roce_write", "learner on an RC WRITE (less the non-notification)")):
            lines.append("| {} | {} |".format(label, fmt(med(st.get(key)), "{:.0f}")))
    conv = [(k, v) for k, v in b.items() if k.endswith("pnc-convergence")]
    if conv:
        lines += ["", "## Convergence of 10 000 prefixes (seconds, medians)", "",
                  "| protocol | RIB, PNC off | RIB, PNC on | cnpproxyd, PNC on |", "|---|---|---|---|"]
        for k, v in conv:
            lines.append("| {} | {} | {} | {} |".format(
                k[:-len("-pnc-convergence")], fmt(v["pnc_off"]["rib_median_s"]),
                fmt(v["pnc_on"]["rib_median_s"]), fmt(v["pnc_on"]["end_median_s"])))
    missing = [n for n in ("fast-path", "proxy-flood", "tables", "isis-pnc-convergence",
                           "ospf-pnc-convergence", "ospf6-pnc-convergence",
                           "bgp-pnc-convergence") if n not in b]
    if missing:
        lines += ["", "Not run: " + ", ".join(missing) + "."]
    return "\n".join(lines) + "\n"


def chart(b, path):
    fp = b.get("fast-path")
    if not fp:
        return False
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [n for n, p in fp["paths"].items() if p.get("offered", True)]
    cost = [fp["paths"][n]["us_per_packet"] for n in names]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.5))
    ax1.bar(names, [c["median"] for c in cost],
            yerr=[[c["median"] - c["min"] for c in cost], [c["max"] - c["median"] for c in cost]],
            capsize=3, color="tab:blue")
    ax1.set_ylabel("CPU us per notification (median, min-max)")
    ax1.set_title("Cost at {} notifications/s".format(fp["rate_pps"]))
    ax1.tick_params(axis="x", rotation=30)
    for key, label, off in (("latency_us", "interrupt", -0.2), ("latency_busy_us", "busy", 0.2)):
        xs, p50, p99 = [], [], []
        for i, n in enumerate(names):
            lat = fp["paths"][n].get(key)
            if lat:
                xs.append(i + off)
                p50.append(lat["p50"]["median"])
                p99.append(lat["p99"]["median"])
        ax2.bar(xs, p99, width=0.38, alpha=0.4, label=label + " p99")
        ax2.bar(xs, p50, width=0.38, label=label + " p50")
    ax2.set_xticks(range(len(names)))
    ax2.set_xticklabels(names, rotation=30)
    ax2.set_yscale("log")
    ax2.set_ylabel("round trip, us")
    ax2.set_title("Latency at {} notifications/s".format(fp["latency_pps"]))
    ax2.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    return True


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    d = sys.argv[1]
    b, when = load(d)
    tgts = targets(b)
    with open(os.path.join(d, "bench.json"), "w") as f:
        json.dump({"targets": tgts, "written": when, "benchmarks": b}, f, indent=1)
    md = markdown(b, when, tgts)
    with open(os.path.join(d, "bench.md"), "w") as f:
        f.write(md)
    drew = chart(b, os.path.join(d, "bench.png"))
    print(md)
    print("bench-report: {}/bench.json, bench.md{}".format(d, ", bench.png" if drew else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
