#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""pnc soak run: the closed-loop demo's network (tools/demo.py) kept busy
for minutes on end, to find what short tests cannot: memory that grows,
notifications or CNPs lost without a counter, a loop that stops.

The demo's five namespaces and routers with IS-IS signalling, pe1's proxy
role on, p's congestion point on the TBF bottleneck behind the delay line;
then, for --minutes (default 10):

  traffic:  one RoCEv2 stream, sender -> receiver, faster than the TBF: p
            keeps notifying pe1 and pe1 keeps sending the sender CNPs (the
            sender cuts and recovers, so the queue oscillates); beside it
            a steady stream of trusted notifications about an unknown flow
            (pnc-flood, p to pe1), bounded in rate and time;
  churn:    every --churn-interval s, --churn-prefixes static routes on
            pe1, redistributed into IS-IS and flagged with PNC by a
            route-map, are added or removed in turn: staticd, zebra,
            isisd, p's proxy table and its compiled lookup all change,
            while the sender subnet keeps its PNC; after each change p's
            `show cnpproxy proxies` / `lookup` must follow;
  samples:  every --sample-interval s, the RSS of every FRR daemon and
            tool, and the counters of both cnpproxyd.

Then the traffic stops and everything is accounted: the notifications p
sent (and the stream's) against what pe1 received plus every drop it
counted, pe1's CNPs against what the sender received, and each daemon's
RSS after warm-up against the end of the run.  It prints a summary,
writes soak.json, soak.png and the logs into --out, and exits 0 only if
every check holds.  Everything is torn down at the end, also on Ctrl-C,
SIGTERM and errors.

Usage: tools/soak.py FRR_ROOT [--minutes N] [--out DIR] [options]
"""

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import demo  # noqa: E402  pylint: disable=wrong-import-position

# demo.py's options that shape the scenario and mean the same here.
SCENARIO_OPTIONS = ("--rtt-ms", "--tbf-mbit", "--rate-mbit", "--recovery-us",
                    "--notify-min-interval")
# The churning prefixes, 10.77.N.0/24, selected for PNC by a route-map
# (the sender subnet stays selected by the demo's prefix-list SENDERS).
CHURN_CONFIG = ("ip prefix-list CHURN seq 5 permit 10.77.0.0/16 le 32",
                "route-map CHURN permit 10",
                "match ip address prefix-list CHURN", "exit",
                "router isis wan", "redistribute ipv4 static level-2",
                "proxy-node-capability prefix-list SENDERS route-map CHURN", "exit")
# The trusted stream's notifications: from p's loopback, which pe1's accept
# list permits, about a receiver QP nobody uses (pe1 counts them as for an
# unknown flow and sends nothing).
STREAM_QPN = 0x7777
# Memory: a process "grew" when the median of its RSS over the last fifth
# of the run exceeds the median over the second fifth (the first is
# warm-up) by both this many MiB and this share.  Once warm, a daemon's
# RSS moves by at most a few hundred KiB (malloc arenas, pages touched
# late); 2 MiB over the six minutes between the two medians of a 10-minute
# run is 20 MiB an hour, and the share keeps the larger daemons
# (cnpproxyd's preallocated flow table) from failing on noise that grows
# with their size.  The slope in the report shows slower growth.
GROWTH_MIB = 2.0
GROWTH_SHARE = 0.10
# The closed loop stopped: this long without a CNP at the sender.
MAX_CNP_GAP_S = 60.0
# p's proxy table stuck: a route change on pe1 it has not followed after
# this long (the next change waits for it until then; it takes 1-4 s).
FOLLOW_TIMEOUT_S = 30.0
# pe1's counters of notifications that never became "received": dropped
# before or outside the socket.  Everything received ends in one outcome.
PE1_BEFORE_SOCKET = ("droppedSocketOverflow", "droppedAtDriverSourceDenied",
                     "droppedAtDriverRateLimitSource", "droppedAtDriverHeaderChain",
                     "droppedAfXdpRing")
PE1_RECEIVED = ("received", "receivedFlowLabel")
PE1_OUTCOMES = ("droppedNoAcceptList", "droppedSourceDenied", "droppedRateLimitSource",
                "droppedRateLimitGlobal", "droppedMalformed", "droppedNoInvokingPacket",
                "droppedUnknownFlow", "droppedFlowLabelUnresolved", "droppedNoCnpSource",
                "suppressedMinInterval", "suppressedLight", "cnpSendError") + demo.SENT_COUNTERS
# What the sender's roce-emu counts of the messages it gets from pe1.
SENDER_GOT = ("cnps", "cnps_invalid", "lh_roce", "lh_icmp6", "rate_advices", "malformed",
              "unknown")
P_COUNTERS = ("notificationsSent", "sendErrors", "noProxy", "onsets", "congested",
              "suppressedFlowInterval", "suppressedRateLimit")


# ---- options -------------------------------------------------------------------

def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="soak.py", description="pnc soak run: the demo's closed loop under traffic, "
        "notifications and route churn, with memory and loss checks (needs root).",
        epilog="Also the demo's scenario options: " + ", ".join(SCENARIO_OPTIONS) +
        " (tools/demo.py --help).")
    ap.add_argument("frr_root", help="installed pnc FRR (build/root); tools in FRR_ROOT/../tools")
    ap.add_argument("--minutes", type=float, default=10.0,
                    help="traffic and churn this long (default 10)")
    ap.add_argument("--out", default="soak-out", help="directory of the report and logs")
    ap.add_argument("--churn-interval", type=float, default=5.0, metavar="S",
                    help="seconds between route changes on pe1 (default 5)")
    ap.add_argument("--churn-prefixes", type=int, default=16, metavar="N",
                    help="prefixes added and removed at each change (default 16, at most 250)")
    ap.add_argument("--sample-interval", type=float, default=10.0, metavar="S",
                    help="seconds between RSS and counter samples (default 10)")
    ap.add_argument("--stream-rate", type=int, default=100, metavar="PPS",
                    help="trusted notifications a second beside p's (default 100; 0: none)")
    soak, rest = ap.parse_known_args(argv)
    for token in rest:
        if token.startswith("-") and token.split("=")[0] not in SCENARIO_OPTIONS:
            ap.error("unrecognized argument: " + token)
    if soak.minutes <= 0 or soak.churn_interval < 1 or soak.sample_interval < 1:
        ap.error("--minutes must be positive, --churn-interval and --sample-interval 1 s "
                 "or more")
    if not 1 <= soak.churn_prefixes <= 250:
        ap.error("--churn-prefixes: 1 to 250")
    if not 0 <= soak.stream_rate <= 5000:
        ap.error("--stream-rate: 0 to 5000 (pe1's per-source limit is 10000/s)")
    args = demo.parse_args([soak.frr_root] + rest)
    vars(args).update(vars(soak))
    args.duration = soak.minutes * 60
    return args


def tool_paths(args):
    """The demo's tools, and the stream's."""
    paths = demo.tool_paths(args)
    paths["flood"] = os.path.join(args.tools, "flood", "pnc-flood")
    paths["pnc-pkt"] = os.path.join(args.tools, "pnc-pkt", "pnc-pkt")
    missing = [paths[k] for k in ("flood", "pnc-pkt") if not os.access(paths[k], os.X_OK)]
    if missing:
        raise demo.DemoError("not built: " + ", ".join(missing) + " (run make first)")
    return paths


# ---- processes and memory ------------------------------------------------------

def daemon_pids(args):
    """{"router/daemon": pid} of every FRR daemon, from their pid files."""
    pids = {}
    for router in demo.ROUTERS:
        for daemon in demo.daemons(router, args):
            with open(os.path.join(demo.run_dir(router), daemon + ".pid")) as fh:
                pids["{}/{}".format(router, daemon)] = int(fh.read().strip())
    return pids


def rss_kib(pid):
    """(VmRSS, RssAnon) of a process in KiB, or None once it is gone."""
    fields = {}
    try:
        with open("/proc/{}/status".format(pid)) as fh:
            for line in fh:
                key, _, value = line.partition(":")
                if key in ("VmRSS", "RssAnon"):
                    fields[key] = int(value.split()[0])
    except (OSError, ValueError):
        return None
    return (fields["VmRSS"], fields.get("RssAnon")) if "VmRSS" in fields else None


UNITS_KIB = {"bytes": 1 / 1024, "byte": 1 / 1024, "KiB": 1, "MiB": 1024, "GB": 1024 * 1024}


def malloc_kib(paths):
    """{"router/daemon": (heap, in use)} in KiB, from each daemon's malloc
    statistics in `show memory`: the heap (arena and mmapped blocks) and
    what of it is allocated.  RSS that grows while "in use" does not is
    the allocator keeping free memory (fragmentation), not a leak."""
    stats = {}
    for router in demo.ROUTERS:
        daemon, fields = None, {}
        for line in demo.vtysh(router, paths, "show memory").splitlines():
            if line.startswith("Memory statistics for "):
                daemon = "{}/{}".format(router, line.split()[-1].rstrip(":"))
            elif daemon and ":" in line:
                key, _, value = line.strip().partition(":")
                words = value.split()
                if key in ("Total heap allocated", "Holding block headers",
                           "Used ordinary blocks") and len(words) == 2:
                    fields[daemon, key] = float(words[0]) * UNITS_KIB.get(words[1], 0)
        for name in {d for d, _ in fields}:
            mmapped = fields.get((name, "Holding block headers"), 0)
            stats[name] = (round(fields.get((name, "Total heap allocated"), 0) + mmapped),
                           round(fields.get((name, "Used ordinary blocks"), 0) + mmapped))
    return stats


def median_in(series, lo, hi):
    """Median of the values of (t, value) samples with lo <= t <= hi."""
    values = [v for t, v in series if lo <= t <= hi]
    return statistics.median(values) if values else None


def slope_per_hour(series):
    """Least-squares slope of (t s, KiB) samples, in MiB an hour."""
    if len(series) < 2:
        return 0.0
    mt = statistics.fmean(t for t, _ in series)
    mv = statistics.fmean(v for _, v in series)
    den = sum((t - mt) ** 2 for t, _ in series)
    num = sum((t - mt) * (v - mv) for t, v in series)
    return num / den * 3600 / 1024 if den else 0.0


def growth(series, span):
    """RSS after warm-up (second fifth) and late (last fifth), the growth
    and whether it exceeds both limits, and the slope after warm-up."""
    warm = median_in(series, span / 5, 2 * span / 5)
    late = median_in(series, 4 * span / 5, span)
    after = [(t, v) for t, v in series if t >= span / 5]
    row = {"start_kib": series[0][1] if series else None, "warm_kib": warm, "late_kib": late,
           "end_kib": series[-1][1] if series else None,
           "slope_mib_per_h": round(slope_per_hour(after), 2)}
    if warm is None or late is None:
        row.update(growth_kib=None, grew=False)
        return row
    row["growth_kib"] = late - warm
    row["grew"] = (late - warm > GROWTH_MIB * 1024 and late - warm > GROWTH_SHARE * warm)
    return row


# ---- the churn ---------------------------------------------------------------

def churn_prefixes(args):
    return ["10.77.{}.0/24".format(i) for i in range(1, args.churn_prefixes + 1)]


def set_churn(paths, prefixes, up):
    """pe1's churning static routes added (up) or removed, in one vtysh call."""
    demo.vtysh("pe1", paths, "configure terminal",
               *("{}ip route {} blackhole".format("" if up else "no ", p) for p in prefixes))


def p_proxies(paths):
    """p's proxy table in brief: entries, lookup builds."""
    out = demo.vtysh("p", paths, "show cnpproxy proxies json", as_json=True)
    lookup = out.get("lookup", {})
    return {"count": out.get("count"), "builds": lookup.get("builds")}


def p_looks_up(paths, address):
    """The proxy p's `show cnpproxy lookup` names for an address, or None."""
    out = demo.vtysh("p", paths, "show cnpproxy lookup {} json".format(address), as_json=True)
    return out.get("proxy") if out.get("found") else None


class Churn:
    """The route changes on pe1 and their check at p: after each change,
    p's proxy table must hold base (+ N when up) entries and its lookup of
    an address in the first churning prefix must answer (or not) before
    the next change."""

    def __init__(self, args, paths, proxy):
        self.args, self.paths, self.proxy = args, paths, proxy
        self.prefixes = churn_prefixes(args)
        self.probe = self.prefixes[0].replace(".0/24", ".1")
        self.up = False
        self.base = None
        self.changes = []  # {t, up, followed_s, count, builds, vtysh_s}
        self.seen = []  # (t, entries in p's proxy table) at each check
        self.pending = None

    def start(self):
        """The route-map and redistribution on pe1; p's table without the churn."""
        demo.vtysh("pe1", self.paths, "configure terminal", *CHURN_CONFIG)
        self.base = p_proxies(self.paths)["count"]

    def change(self, t):
        """Add or remove the prefixes; a previous change still pending was
        not followed in time."""
        self.give_up()
        self.up = not self.up
        started = time.monotonic()
        set_churn(self.paths, self.prefixes, self.up)
        self.pending = {"t": round(t, 2), "up": self.up, "followed_s": None,
                        "vtysh_s": round(time.monotonic() - started, 2)}
        self.changes.append(self.pending)

    def waited(self, t):
        """Seconds since the pending change."""
        return t - self.pending["t"]

    def expected(self):
        return self.base + (len(self.prefixes) if self.up else 0)

    def check(self, t):
        """One look at p while a change is pending."""
        if not self.pending:
            return
        brief = p_proxies(self.paths)
        self.pending.update(count=brief["count"], builds=brief["builds"])
        self.seen.append((round(t, 2), brief["count"]))
        if brief["count"] != self.expected():
            return
        want = self.proxy if self.up else None
        if p_looks_up(self.paths, self.probe) == want:
            self.pending["followed_s"] = round(t - self.pending["t"], 2)
            self.pending = None

    def give_up(self):
        """A change still pending was not followed in time."""
        if self.pending:
            self.pending["missed"] = True
        self.pending = None

    def wait_followed(self, t0, timeout):
        """Check until the pending change is followed or timeout s passed since it."""
        while self.pending and self.waited(time.monotonic() - t0) < timeout:
            self.check(time.monotonic() - t0)
            time.sleep(0.5)
        self.give_up()

    def finish(self, t0):
        """After the traffic: the last change followed, and the table back
        to what it was without the churn."""
        self.wait_followed(t0, FOLLOW_TIMEOUT_S)
        if self.up:
            self.change(time.monotonic() - t0)
            self.wait_followed(t0, FOLLOW_TIMEOUT_S)

    def summary(self):
        """The churn in numbers: changes, how many p followed and how fast."""
        followed = [c["followed_s"] for c in self.changes if c["followed_s"] is not None]
        builds = [c["builds"] for c in self.changes if c.get("builds") is not None]
        counts = [c["count"] for c in self.changes if c.get("count") is not None]
        return {"changes": len(self.changes), "followed": len(followed),
                "missed": [c["t"] for c in self.changes if c.get("missed")],
                "follow_median_s": round(statistics.median(followed), 2) if followed else None,
                "follow_max_s": max(followed) if followed else None,
                "base_entries": self.base, "prefixes": len(self.prefixes),
                "entries_seen": [min(counts), max(counts)] if counts else None,
                "lookup_builds": (builds[-1] - builds[0]) if len(builds) > 1 else None}


# ---- samples -------------------------------------------------------------------

def counters(paths):
    """pe1's proxy counters and p's congestion point counters."""
    pe1 = demo.vtysh("pe1", paths, "show cnpproxy counters json", as_json=True)
    cp = demo.vtysh("p", paths, "show cnpproxy congestion json", as_json=True)
    pc = cp["interfaces"][demo.BOTTLENECK]["counters"]
    keep = PE1_RECEIVED + PE1_BEFORE_SOCKET + PE1_OUTCOMES
    return ({k: pe1.get(k, 0) for k in keep}, {k: pc.get(k, 0) for k in P_COUNTERS})


class Samples:
    """RSS of the processes and the counters over time."""

    def __init__(self, daemons, tools):
        self.daemons, self.tools = daemons, tools  # {name: pid}
        self.rows = []
        self.died = {}  # name: seconds

    def deaths(self, t):
        """The daemons gone by t (s), added to died; how many there are.
        (A zombie has no VmRSS.)"""
        for name, pid in self.daemons.items():
            if rss_kib(pid) is None:
                self.died.setdefault(name, round(t, 2))
        return len(self.died)

    def take(self, t, paths):
        """One sample: RSS of every process; unless a daemon died, the
        counters and the daemons' malloc statistics."""
        row = {"t": round(t, 2), "rss_kib": {}, "rss_anon_kib": {}}
        for name, pid in list(self.daemons.items()) + list(self.tools.items()):
            got = rss_kib(pid)
            if got is not None:
                row["rss_kib"][name], row["rss_anon_kib"][name] = got
        if not self.deaths(t):
            row["pe1"], row["p"] = counters(paths)
            heap = malloc_kib(paths)
            row["heap_kib"] = {n: h for n, (h, _) in heap.items()}
            row["in_use_kib"] = {n: u for n, (_, u) in heap.items()}
        self.rows.append(row)
        return row

    def series(self, name, what="rss_kib"):
        return [(r["t"], r[what][name]) for r in self.rows if name in r.get(what, {})]


# ---- traffic -------------------------------------------------------------------

def notification_port(paths):
    return demo.vtysh("pe1", paths, "show cnpproxy status json", as_json=True)["ports"][
        "notification"]


def start_stream(paths, port, count, seconds, rate, logdir, procs, name):
    """pnc-flood in p: trusted notifications to pe1, bounded in count and
    time, at rate a second (None: at once)."""
    payload = demo.ns_run("p", paths["pnc-pkt"], "build", "notif", "cl=5",
                          "invoking=rc-write", "inv.src=" + demo.SENDER,
                          "inv.dst=" + demo.RECEIVER, "inv.dqpn={:#x}".format(STREAM_QPN),
                          "bare=1").strip()
    rate = ["--rate", rate] if rate else []
    with open(os.path.join(logdir, name + ".err"), "w") as err:
        proc = subprocess.Popen(demo.in_ns("p", paths["flood"], "--dst", demo.LOOPBACK["pe1"],
                                           "--src", demo.LOOPBACK["p"], "--port", port,
                                           "--payload", payload, "--count", count,
                                           "--seconds", seconds, *rate),
                                stdout=subprocess.PIPE, stderr=err, text=True)
    procs.append(proc)
    return proc


def stream_result(proc, name, logdir):
    out, _ = proc.communicate(timeout=60)
    with open(os.path.join(logdir, name + ".json"), "w") as fh:
        fh.write(out)
    if proc.returncode:
        raise demo.DemoError("pnc-flood ({}) failed ({}), see {}".format(
            name, proc.returncode, logdir))
    return json.loads(out)


def kernel_udp(router):
    """The namespace's UDP counters (/proc/net/snmp)."""
    lines = [line.split() for line in demo.ns_run(router, "cat", "/proc/net/snmp").splitlines()
             if line.startswith("Udp:")]
    return dict(zip(lines[0][1:], (int(v) for v in lines[1][1:])))


def sender_cnp_times(files):
    """Wall-clock times of the sender's CNPs, and its summary."""
    events = demo.read_jsonl(files["requester"])
    times = [e["time"] for e in events if e["event"] in ("cnp", "cnp-invalid")]
    summary = next((e for e in events if e["event"] == "summary"), {})
    stats = [e["time"] for e in events if e["event"] == "stats"]
    return times, summary, (stats[0], stats[-1]) if stats else (None, None)


def longest_gap(times, start, end):
    """Longest time in [start, end] without one of times, in s."""
    marks = [start] + sorted(t for t in times if start <= t <= end) + [end]
    return max(b - a for a, b in zip(marks, marks[1:]))


# ---- the run -------------------------------------------------------------------

def progress(row, churn):
    """A line a minute: the counters, the churn, all RSS together."""
    pe1, p = row.get("pe1", {}), row.get("p", {})
    s = churn.summary()
    print("  {:5.0f} s  p notified {}, pe1 received {}, CNPs {}; churn {}/{} followed; "
          "RSS of all {:.1f} MiB".format(row["t"], p.get("notificationsSent"),
                                         pe1.get("received"),
                                         sum(pe1.get(k, 0) for k in demo.SENT_COUNTERS),
                                         s["followed"], s["changes"],
                                         sum(row["rss_kib"].values()) / 1024), flush=True)


def run_loop(args, paths, churn, samples, live, t0):
    """Traffic runs: churn, check and sample until the end, a tool that
    exits or a daemon that dies.  Returns why it stopped early, or None."""
    end = t0 + args.duration
    next_change, next_sample, next_print = t0 + args.churn_interval, t0, t0 + 60
    while True:
        now = time.monotonic()
        if now >= end:
            return None
        for name, proc in live.items():
            if proc.poll() is not None:
                return "{} exited early ({})".format(name, proc.returncode)
        try:
            if now >= next_sample:
                row = samples.take(now - t0, paths)
                if samples.died:
                    break
                if demo.proxy_of_sender(paths) != churn.proxy:
                    row["sender_proxy_lost"] = True
                next_sample += args.sample_interval
                if now >= next_print:
                    progress(row, churn)
                    next_print += 60
            if churn.pending and churn.waited(now - t0) < FOLLOW_TIMEOUT_S:
                churn.check(now - t0)
            if now >= next_change and (not churn.pending
                                       or churn.waited(now - t0) >= FOLLOW_TIMEOUT_S):
                late = now - next_change > 1
                churn.change(now - t0)
                next_change = (now if late else next_change) + args.churn_interval
        except demo.DemoError:
            # A vtysh that failed: a daemon died, or something else broke.
            if not samples.deaths(time.monotonic() - t0):
                raise
            break
        wake = min(next_change, next_sample, end)
        time.sleep(max(0.1, min(0.5, wake - time.monotonic())))
    return "died: " + ", ".join(sorted(samples.died))


def wait_counted(paths, sent_total, timeout=10):
    """pe1's counters once every notification sent is accounted, or once
    they stop changing (then some are missing)."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        pe1, p = counters(paths)
        total = sum(pe1[k] for k in PE1_RECEIVED + PE1_BEFORE_SOCKET)
        if total >= sent_total(p) or time.monotonic() > deadline or last == total:
            return pe1, p
        last = total
        time.sleep(1.0)


def account(pe1, p, stream, probe, udp0, udp1, sender):
    """The notification and CNP books, each with its difference."""
    sent = {"p notificationsSent": p["notificationsSent"],
            "stream (pnc-flood)": stream.get("sent", 0), "final probe": probe.get("sent", 0)}
    got = {k: pe1[k] for k in PE1_RECEIVED + PE1_BEFORE_SOCKET}
    outcomes = {k: pe1[k] for k in PE1_OUTCOMES if pe1[k]}
    cnps_sent = {k: pe1[k] for k in demo.SENT_COUNTERS}
    cnps_got = {k: sender.get(k, 0) for k in SENDER_GOT}
    kernel = {"pe1 " + k: udp1["pe1"][k] - udp0["pe1"][k]
              for k in ("InDatagrams", "RcvbufErrors", "InErrors", "NoPorts", "InCsumErrors")}
    kernel.update({"p " + k: udp1["p"][k] - udp0["p"][k]
                   for k in ("OutDatagrams", "SndbufErrors")})
    books = {
        "notifications": {"sent": sent, "accounted": got,
                          "unaccounted": sum(sent.values()) - sum(got.values())},
        "pe1 outcomes": {"received": sum(pe1[k] for k in PE1_RECEIVED), "outcomes": outcomes,
                         "unaccounted": sum(pe1[k] for k in PE1_RECEIVED)
                         - sum(outcomes.values())},
        "cnps": {"sent": cnps_sent, "accounted": cnps_got,
                 "unaccounted": sum(cnps_sent.values()) - sum(cnps_got.values())},
        "kernel udp": kernel,
    }
    return books


def memory_table(samples, span):
    """Per process, the RSS growth row; for the daemons, also how their
    malloc heap and what is allocated in it moved over the same fifths."""
    rows = {}
    for name in list(samples.daemons) + list(samples.tools):
        row = growth(samples.series(name), span)
        row["judged"] = name in samples.daemons
        for what in ("heap_kib", "in_use_kib"):
            row[what.replace("_kib", "_growth_kib")] = growth(
                samples.series(name, what), span)["growth_kib"]
        rows[name] = row
    return rows


def verdicts(res):
    """[(ok, sentence)] of every check."""
    out = []
    if res["stopped"]:
        out.append((False, "FAIL: the run stopped early: " + res["stopped"]))
    grew = ["{} ({} MiB; malloc heap {}, in use {})".format(
        n, signed_mib(r["growth_kib"]), signed_mib(r["heap_growth_kib"]),
        signed_mib(r["in_use_growth_kib"]))
        for n, r in res["memory"].items() if r["judged"] and r["grew"]]
    out.append((not grew, "{}: RSS grew after warm-up by more than {:g} MiB and {:g} % in {}"
                .format("FAIL" if grew else "PASS", GROWTH_MIB, GROWTH_SHARE * 100,
                        ", ".join(grew) if grew else "no daemon")))
    for book, what in (("notifications", "notifications p and the stream sent, against what "
                        "pe1 received or counted as dropped"),
                       ("pe1 outcomes", "pe1's received notifications, against their outcomes"),
                       ("cnps", "CNPs pe1 sent, against what the sender received")):
        if not res["books"]:
            out.append((True, "not checked: {} (the run stopped early)".format(what)))
            continue
        diff = res["books"][book]["unaccounted"]
        out.append((diff == 0, "{}: {}: {} unaccounted".format(
            "PASS" if diff == 0 else "FAIL", what, diff)))
    gap = res["cnp_gap_s"]
    ok = gap is not None and gap <= MAX_CNP_GAP_S
    out.append((ok, "{}: the closed loop: longest time without a CNP at the sender {} "
                "(limit {:g} s)".format("PASS" if ok else "FAIL",
                                        "--" if gap is None else "{:.1f} s".format(gap),
                                        MAX_CNP_GAP_S)))
    ch = res["churn"]
    ok = ch["changes"] > 0 and not ch["missed"]
    out.append((ok, "{}: churn: p's lookup followed {} of {} route changes".format(
        "PASS" if ok else "FAIL", ch["followed"], ch["changes"])))
    p_last = res["p_final"] or next((r["p"] for r in reversed(res["samples"]) if "p" in r), {})
    lost = res["sender_proxy_lost"] + p_last.get("noProxy", 0)
    out.append((lost == 0, "{}: the sender's PNC stayed: {} samples without its proxy at p, "
                "{} notifications without a proxy".format(
                    "PASS" if lost == 0 else "FAIL", res["sender_proxy_lost"],
                    p_last.get("noProxy", 0))))
    return out


class Traffic:
    """The RoCEv2 pair and the trusted stream, started for args.duration."""

    def __init__(self, args, paths, procs, logdir, port):
        delay_line = procs[-1]
        self.logdir = logdir
        self.files = {k: os.path.join(logdir, k + ".jsonl") for k in ("requester", "responder")}
        self.req, self.resp = demo.start_roce_pair(args, paths, self.files, procs, "rocev2-cnp",
                                                   args.duration, log_ms=(1000, 1000))
        self.t0, self.t0_wall = time.monotonic(), time.time()
        self.live = {"roce-emu requester": self.req, "roce-emu responder": self.resp,
                     "pnc-delay-line": delay_line}
        self.stream = None
        if args.stream_rate:
            # Bounded by time; the count only in case pnc-flood's clock failed.
            self.stream = start_stream(paths, port, int(args.stream_rate * (args.duration + 5)),
                                       args.duration, args.stream_rate, logdir, procs,
                                       "stream")
            self.live["pnc-flood"] = self.stream

    def finish(self):
        """Both ends and the stream done: what the stream sent."""
        demo.wait_roce_pair(self.req, self.resp, self.files, 60)
        return stream_result(self.stream, "stream", self.logdir) if self.stream else {}

    def interrupt(self):
        """Stopped before its time: ends and stream interrupted (the stream's
        count is then lost with it)."""
        for proc in (self.req, self.resp, self.stream):
            if proc and proc.poll() is None:
                proc.send_signal(signal.SIGINT)
        demo.wait_roce_pair(self.req, self.resp, self.files, 60)
        if self.stream:
            self.stream.communicate(timeout=10)


def settle_and_account(paths, churn, traffic, port, procs, udp0):
    """After the traffic: the churn's last change followed, one probe
    notification, pe1's counters once everything arrived; the books."""
    stream = traffic.finish()
    churn.finish(traffic.t0)
    time.sleep(2)
    # The socket shows its kernel drops with the next datagram it receives.
    probe = stream_result(start_stream(paths, port, 1, 1, None, traffic.logdir, procs, "probe"),
                          "probe", traffic.logdir)
    pe1, p = wait_counted(paths, lambda p: p["notificationsSent"] + stream.get("sent", 0)
                          + probe["sent"])
    udp1 = {r: kernel_udp(r) for r in ("pe1", "p")}
    sender = sender_cnp_times(traffic.files)[1]
    return account(pe1, p, stream, probe, udp0, udp1, sender), p


def soak(args, paths, procs, parents):
    """The whole soak run; returns the exit status."""
    out, logdir = demo.out_dirs(args, parents)
    setup = demo.set_up(args, paths, procs, logdir)  # procs: the delay line
    demo.step("Churn on pe1: {} static routes 10.77.N.0/24 with PNC (route-map CHURN), "
              "every {:g} s".format(args.churn_prefixes, args.churn_interval))
    churn = Churn(args, paths, setup["proxy"])
    churn.start()
    print("  p's proxy table without the churn: {} entries".format(churn.base))
    port = notification_port(paths)
    for router in ("p", "pe1"):
        demo.vtysh(router, paths, "clear cnpproxy counters")
    udp0 = {r: kernel_udp(r) for r in ("pe1", "p")}

    demo.step("Soak: {:g} min of traffic ({} Mb/s into the {} Mb/s TBF), {} trusted "
              "notifications/s, churn, samples every {:g} s".format(
                  args.minutes, args.rate_mbit, args.tbf_mbit, args.stream_rate,
                  args.sample_interval))
    traffic = Traffic(args, paths, procs, logdir, port)
    samples = Samples(daemon_pids(args), {n: p.pid for n, p in traffic.live.items()})
    stopped = run_loop(args, paths, churn, samples, traffic.live, traffic.t0)
    span = time.monotonic() - traffic.t0
    demo.step("Traffic stopped{}: settling and accounting".format(
        "" if stopped is None else " early (" + stopped + ")"))
    books, p_final = None, None
    if stopped:
        traffic.interrupt()
    else:
        books, p_final = settle_and_account(paths, churn, traffic, port, procs, udp0)
    cnp_times, sender, (first, last) = sender_cnp_times(traffic.files)
    res = {
        "parameters": {k: getattr(args, k) for k in (
            "minutes", "churn_interval", "churn_prefixes", "sample_interval", "stream_rate",
            "rtt_ms", "tbf_mbit", "rate_mbit", "recovery_us", "notify_min_interval",
            "k_min", "k_max")},
        "thresholds": {"growth_mib": GROWTH_MIB, "growth_share": GROWTH_SHARE,
                       "max_cnp_gap_s": MAX_CNP_GAP_S, "follow_timeout_s": FOLLOW_TIMEOUT_S},
        "setup": setup, "stopped": stopped, "span_s": round(span, 1),
        "samples": samples.rows, "died": samples.died,
        "memory": memory_table(samples, span),
        "churn": churn.summary(), "churn_changes": churn.changes, "churn_seen": churn.seen,
        "books": books, "p_final": p_final, "sender": sender,
        "cnp_times": [round(t - traffic.t0_wall, 3) for t in cnp_times],
        "cnp_gap_s": round(longest_gap(cnp_times, first, last), 2) if first else None,
        "sender_proxy_lost": sum(1 for r in samples.rows if r.get("sender_proxy_lost")),
    }
    res["verdicts"] = verdicts(res)
    copy_logs(logdir)
    report(res)
    write_outputs(res, out)
    print("  report: {}\n  plot: {}\n  logs: {}".format(
        os.path.join(out, "soak.json"), os.path.join(out, "soak.png"), logdir))
    return 0 if all(ok for ok, _ in res["verdicts"]) else 1


def copy_logs(logdir):
    """Every daemon's log, as router-daemon.log."""
    for router in demo.ROUTERS:
        d = demo.run_dir(router)
        for f in sorted(os.listdir(d)):
            if f.endswith(".log"):
                shutil.copy(os.path.join(d, f), os.path.join(logdir, "{}-{}".format(router, f)))


# ---- report --------------------------------------------------------------------

def mib(kib):
    return "   --  " if kib is None else "{:7.1f}".format(kib / 1024)


def signed_mib(kib):
    return "--" if kib is None else "{:+.2f}".format(kib / 1024)


def terms(counts, always):
    """'a 1 + b 2' of the counts that are not 0 or are named in always."""
    return " + ".join("{} {}".format(k, v) for k, v in counts.items()
                      if v or k in always) or "0"


def report(res):
    demo.step("Memory (VmRSS, MiB; warm: median of the second fifth, late: of the last; "
              "malloc: growth of the heap and of what is allocated in it)")
    print("  {:26} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>13}".format(
        "process", "start", "warm", "late", "end", "growth", "MiB/h", "malloc heap/used"))
    for name, r in res["memory"].items():
        print("  {:26} {} {} {} {} {:>7} {:7.2f} {:>6} /{:>6}{}".format(
            name + ("" if r["judged"] else " (tool)"), mib(r["start_kib"]), mib(r["warm_kib"]),
            mib(r["late_kib"]), mib(r["end_kib"]), signed_mib(r["growth_kib"]),
            r["slope_mib_per_h"], signed_mib(r["heap_growth_kib"]),
            signed_mib(r["in_use_growth_kib"]), "  GREW" if r["grew"] else ""))
    for name, t in res["died"].items():
        print("  {} died {:.0f} s into the run".format(name, t))
    demo.step("Accounting")
    # Every term of the notifications' right side, even at 0: the drops
    # that were looked for.
    for book, label, always in (
            ("notifications", "notifications, sent = accounted at pe1",
             PE1_RECEIVED + PE1_BEFORE_SOCKET),
            ("pe1 outcomes", "pe1, received = outcomes", ()),
            ("cnps", "CNPs, pe1 sent = the sender counted", ("cnps", "cnps_invalid"))):
        if not res["books"]:
            break
        b = res["books"][book]
        left, right = ({"received": b["received"]}, b["outcomes"]) if book == "pe1 outcomes" \
            else (b["sent"], b["accounted"])
        print("  {}:\n    {} = {}\n    {} = {}\n    unaccounted: {}".format(
            label, terms(left, left), sum(left.values()), terms(right, always),
            sum(right.values()), b["unaccounted"]))
    if res["books"]:
        print("  kernel (UDP, for reference): " + ", ".join(
            "{} {}".format(k, v) for k, v in res["books"]["kernel udp"].items()))
    else:
        print("  not done: the run stopped early")
    ch = res["churn"]
    demo.step("Churn")
    print("  {} route changes of {} prefixes on pe1; p's lookup followed {} (median {} s, "
          "max {} s); p's proxy entries between {}; compiled lookup rebuilt {} times".format(
              ch["changes"], ch["prefixes"], ch["followed"], ch["follow_median_s"],
              ch["follow_max_s"], " and ".join(str(c) for c in ch["entries_seen"] or ()),
              ch["lookup_builds"]))
    if ch["missed"]:
        print("  not followed before the next change: at {} s".format(
            ", ".join(str(t) for t in ch["missed"])))
    demo.step("Verdict")
    for _, sentence in res["verdicts"]:
        print("  " + sentence)


# The plot's colour per daemon and line style per router.
DAEMON_COLOURS = {"mgmtd": "tab:blue", "zebra": "tab:orange", "staticd": "tab:green",
                  "isisd": "tab:red", "cnpproxyd": "tab:purple"}
ROUTER_STYLES = {"pe1": "-", "p": "--", "pe2": ":"}


def plot_growth(ax, res):
    """Each process's RSS less its warm-up median, with the limit."""
    span = res["span_s"]
    for name, r in res["memory"].items():
        if r["warm_kib"] is None:
            continue
        router, _, daemon = name.partition("/")
        style = ((DAEMON_COLOURS.get(daemon), ROUTER_STYLES.get(router)) if r["judged"]
                 else ("grey", "-."))
        pts = [(row["t"], (row["rss_kib"][name] - r["warm_kib"]) / 1024)
               for row in res["samples"] if name in row["rss_kib"]]
        ax.plot([t for t, _ in pts], [v for _, v in pts], color=style[0], ls=style[1], lw=1,
                label=name + ("" if r["judged"] else " (tool)"))
    for x in (span / 5, 2 * span / 5, 4 * span / 5):
        ax.axvline(x, color="grey", lw=0.6, ls="--")
    ax.axhline(GROWTH_MIB, color="black", lw=0.8, ls="-.")
    ax.annotate("limit +{:g} MiB (and +{:g} %)".format(GROWTH_MIB, GROWTH_SHARE * 100),
                (span, GROWTH_MIB), ha="right", va="bottom", fontsize=8)
    ax.set_ylim(top=max(ax.get_ylim()[1], 1.4 * GROWTH_MIB))
    ax.set_ylabel("MiB")
    ax.set_title("RSS less its median over the second fifth (grey dashes: the fifths)",
                 fontsize=10)
    ax.legend(fontsize=7, ncol=4, loc="upper left")


def plot_counters(ax, res):
    """Notifications and CNPs per second between samples."""
    counted = [r for r in res["samples"] if "pe1" in r]
    for label, side, key in (("p: notifications sent", "p", "notificationsSent"),
                             ("pe1: notifications received", "pe1", "received"),
                             ("pe1: CNPs sent", "pe1", "cnpSent"),
                             ("pe1: unknown flow (the stream)", "pe1", "droppedUnknownFlow")):
        pts = [(b["t"], (b[side][key] - a[side][key]) / (b["t"] - a["t"]))
               for a, b in zip(counted, counted[1:]) if b["t"] > a["t"]]
        ax.plot([t for t, _ in pts], [v for _, v in pts], lw=1, label=label)
    ax.set_ylabel("per second")
    ax.set_title("counters, per second between samples", fontsize=10)
    ax.legend(fontsize=8)


def plot(res, path):
    """RSS growth per process, counter rates and p's proxy table over time."""
    import matplotlib  # pylint: disable=import-outside-toplevel
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # pylint: disable=import-outside-toplevel

    fig, (rax, cax, pax) = plt.subplots(3, 1, figsize=(12, 12), sharex=True,
                                        gridspec_kw={"height_ratios": [2, 1.2, 0.8]})
    plot_growth(rax, res)
    plot_counters(cax, res)
    seen = res["churn_seen"]
    pax.step([t for t, _ in seen], [c for _, c in seen], where="post", lw=1,
             label="p: show cnpproxy proxies (count)")
    for change in res["churn_changes"]:
        pax.axvline(change["t"], color="grey", lw=0.4)
    pax.set_ylabel("entries")
    pax.set_xlabel("s since the traffic started")
    pax.set_title("p's proxy table, checked after each route change on pe1 (grey)",
                  fontsize=10)
    for ax in (rax, cax, pax):
        ax.grid(alpha=0.3)
    ok = all(ok for ok, _ in res["verdicts"])
    fig.suptitle("pnc soak: {:g} min, {} route changes, {}".format(
        res["parameters"]["minutes"], res["churn"]["changes"], "PASS" if ok else "FAIL"))
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def write_outputs(res, out):
    with open(os.path.join(out, "soak.json"), "w") as fh:
        json.dump(dict(res, units={"t": "s since the traffic started", "rss": "KiB"}), fh)
    plot(res, os.path.join(out, "soak.png"))


def main(argv):
    return demo.run_torn_down("soak", parse_args(argv), soak, paths_of=tool_paths)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
