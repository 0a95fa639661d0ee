#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""pnc closed-loop demo: a congested router's notification reaches the
sender through a proxy next to it, instead of a WAN round trip.

Five network namespaces, all created and removed by this script:

  sender --- pe1 ===== p ==TBF== [delay line] ===== pe2 --- receiver
  roce-emu   proxy     congestion point                     roce-emu
  requester  cnpproxyd cnpproxyd                            responder

pe1, p and pe2 run zebra, mgmtd, staticd and isisd from the pnc build;
pe1 advertises the sender subnet with the IS-IS Proxy Node Capability,
so p's cnpproxyd learns pe1 as the sender's proxy.  With --igp ospf
(--signalling ospf), they run OSPFv2 (ospfd) and pe1 sets P in an
Extended Prefix LSA instead.  With --signalling ospf6 (--igp ospf6)
everything runs over IPv6: the RoCEv2 stream, the notifications and the
CNPs, and the routers run OSPFv3 (ospf6d), pe1 setting P in an RFC 8362
E-Intra-Area-Prefix-LSA.  With --signalling bgp, the three routers
are three sites speaking eBGP instead (bgpd), and pe1 attaches the Proxy
Node Capability characteristic of the NHC attribute to the sender
subnet.  A TBF on p's egress
towards pe2 is the bottleneck; pnc-delay-line between p and pe2 makes the
WAN round trip.  The same RoCEv2 stream, faster than the TBF, runs twice:

  proxy:    p notifies pe1 above K_max, pe1 sends the sender CNPs;
  baseline: pe1's proxy role is off and only the receiver reacts to the
            CE marks p sets above K_min (RNIC-style CNPs, a WAN RTT later).

For each run the demo records p's queue (pnc-qmon), the sender's rate
(roce-emu's log) and p's state changes and notifications (cnpproxyd's
debug log), prints the timeline and the reaction times side by side,
and writes a plot and the raw series.  Everything is torn down at the
end, also on Ctrl-C, SIGTERM and errors.

Usage: tools/demo.py FRR_ROOT [--short] [--out DIR] [options]
"""

import argparse
import datetime
import ipaddress
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time

import demo_flows

PREFIX = "pncdemo"
ROUTERS = ("pe1", "p", "pe2")
# sender2 exists with --flows only.
NAMESPACES = ("sender", "pe1", "p", "pe2", "receiver", "sender2")
SENDER, RECEIVER = "10.1.0.2", "10.2.0.2"
LOOPBACK = {"pe1": "10.255.0.1", "p": "10.255.0.2", "pe2": "10.255.0.3"}
router_ids = {}  # the routers' IDs (their IPv4 loopbacks), set by use_ipv6()
SYSID = {"pe1": "0001", "p": "0002", "pe2": "0003"}
# Routed links: (namespace, interface, address) at each end.  p's link
# towards pe2 is built separately, around the delay line.
LINKS = (
    (("sender", "eth0", "10.1.0.2/24"), ("pe1", "eth-sender", "10.1.0.1/24")),
    (("pe1", "eth-p", "10.0.1.1/24"), ("p", "eth-pe1", "10.0.1.2/24")),
    (("pe2", "eth-receiver", "10.2.0.1/24"), ("receiver", "eth0", "10.2.0.2/24")),
)
BOTTLENECK = "eth-pe2"  # p's routed interface towards pe2: TBF, congestion point
P_ADDR, PE2_ADDR = "10.0.2.2/24", "10.0.2.3/24"
# IS-IS interfaces of each router: point-to-point core links, passive edges.
ISIS_IFS = {"pe1": (("eth-sender", "passive"), ("eth-p", "point-to-point")),
            "p": (("eth-pe1", "point-to-point"), (BOTTLENECK, "point-to-point")),
            "pe2": (("eth-p", "point-to-point"), ("eth-receiver", "passive"))}
DAEMONS = {"pe1": ("mgmtd", "zebra", "staticd", "{igp}", "cnpproxyd"),
           "p": ("mgmtd", "zebra", "staticd", "{igp}", "cnpproxyd"),
           "pe2": ("mgmtd", "zebra", "staticd", "{igp}")}
# --signalling: the daemon, and how the demo names it
SIGNALLING = {"isis": ("isisd", "IS-IS"), "ospf": ("ospfd", "OSPF"), "ospf6": ("ospf6d", "OSPFv3"),
              "bgp": ("bgpd", "BGP")}
# --signalling ospf6: the same plan in IPv6 (the OSPFv3 router IDs stay
# the IPv4 loopbacks, as numbers)
IPV6_PLAN = {
    "SENDER": "2001:db8:1::2", "RECEIVER": "2001:db8:2::2",
    "LOOPBACK": {"pe1": "2001:db8:ff::1", "p": "2001:db8:ff::2", "pe2": "2001:db8:ff::3"},
    "LINKS": (
        (("sender", "eth0", "2001:db8:1::2/64"), ("pe1", "eth-sender", "2001:db8:1::1/64")),
        (("pe1", "eth-p", "2001:db8:a::1/64"), ("p", "eth-pe1", "2001:db8:a::2/64")),
        (("pe2", "eth-receiver", "2001:db8:2::1/64"), ("receiver", "eth0", "2001:db8:2::2/64")),
    ),
    "P_ADDR": "2001:db8:b::2/64", "PE2_ADDR": "2001:db8:b::3/64",
    "PROXY_ROLE": ("proxy", "proxy source-address 2001:db8:1::1",
                   "proxy accept-from prefix-list ROUTERS", "proxy learn-interface eth-sender",
                   "proxy learn-interface eth-p"),
}
# --flows: a second sender behind pe1, on a subnet of its own
SENDER2_LINK = (("sender2", "eth0", "10.1.1.2/24"), ("pe1", "eth-sender2", "10.1.1.1/24"))
# --flows: flow i goes to receiver address 10.2.0.(2 + i), one responder
# each (a CM request reaches its own), from sender QPN 0x100 + i (a CNP to a
# sender address reaches every requester there: the QPN tells them apart).
FLOW_QPN = 0x100
# --flows: stats every 5 ms per process (8 flows at 1 ms would load the host)
FLOW_LOG_MS = 5
# --signalling bgp: one AS per router, eBGP over the routed links
ASN = {"pe1": 65001, "p": 65002, "pe2": 65003}
BGP_NEIGHBORS = {"pe1": ("10.0.1.2",), "p": ("10.0.1.1", PE2_ADDR.split("/")[0]),
                 "pe2": (P_ADDR.split("/")[0],)}
# pe1's proxy role: CNPs from pe1's address on the sender's subnet, for
# notifications from the routers' loopbacks; queue pairs learnt from both
# directions (XDP sees incoming packets only).
PROXY_ROLE = ("proxy", "proxy source-address 10.1.0.1", "proxy accept-from prefix-list ROUTERS",
              "proxy learn-interface eth-sender", "proxy learn-interface eth-p")
# The sender's reaction (roce-emu's DCQCN-like one): a floor above zero so
# that the rate never stalls, and by default a slow recovery (+5 Mb/s every
# 10 ms, --recovery-us) so that every cut stays visible for tens of
# milliseconds.
REACTION = ("--min-rate", 5, "--ai", 5)
# The bottleneck's queue limit: far above K_max, so that a drop means the
# reaction did not hold the queue.
TBF_LIMIT = "600kb"
# The 1 ms samplers (pnc-qmon, roce-emu's log) missing more than this
# means that the host did not run them: that run's numbers are distorted.
STALL_MS = 5.0
BASELINE = ("baseline", "baseline (receiver CNPs only)")
# --format: what pe1 sends the sender, the run's name and label, and what
# the sender's roce-emu needs to understand it.
FORMATS = {
    "rocev2-cnp": ("proxy", "proxy path (pe1 sends CNPs)", ()),
    "long-haul-rocev2": ("long-haul-rocev2", "proxy path, Long-haul CNP (RoCEv2 form)",
                         ("--long-haul",)),
    "long-haul-icmpv6": ("long-haul-icmpv6", "proxy path, Long-haul CNP (ICMPv6 form)",
                         ("--long-haul",)),
    "rate-advice": ("rate-advice", "proxy path, SCONE rate advice", ("--rate-advice",)),
    "pre-ecn": ("pre-ecn", "seed 003: light congestion shaped at pe1, severe to the sender", ()),
}
# --format pre-ecn (seed 003): the core carries IPv6 as well, pe1 puts the
# stream into a flow-label tunnel that pe2's cnpproxyd ends (tunnel-egress:
# tc decapsulation with seed 003's modified pipe), p marks
# with two thresholds and tells pe1 by flow label; pe1 shapes the flow into
# the tunnel for light notifications and sends the sender a CNP for severe
# ones only.
PRE_ECN = {
    "loopback": {"pe1": "2001:db8:ff::1", "p": "2001:db8:ff::2", "pe2": "2001:db8:ff::3"},
    "core": (("pe1", "eth-p", "2001:db8:a::1/64"), ("p", "eth-pe1", "2001:db8:a::2/64"),
             ("p", "eth-pe2", "2001:db8:b::2/64"), ("pe2", "eth-p", "2001:db8:b::3/64")),
    "sid": "2001:db8:ee::3",
    # towards the SID's /64: pe1 through p, p through pe2
    "sid_via": {"pe1": "2001:db8:a::2", "p": "2001:db8:b::3"},
}
RUN_COLOURS = ("tab:blue", "tab:green", "tab:purple", "tab:orange")


class DemoError(Exception):
    """A step of the demo failed; the message says which."""


class Terminated(Exception):
    """SIGTERM arrived."""


def step(text):
    print("\n\033[1m== {}\033[0m".format(text), flush=True)


def nsname(name):
    return "{}-{}".format(PREFIX, name)


def in_ns(name, *args):
    return ["ip", "netns", "exec", nsname(name)] + [str(a) for a in args]


def run(args, check=True):
    """Run a command, output captured; a failure names the command."""
    res = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, check=False)
    if check and res.returncode:
        raise DemoError("{} failed ({}): {}".format(" ".join(args), res.returncode,
                                                    res.stdout.strip()))
    return res.stdout


def ns_run(name, *args, check=True):
    return run(in_ns(name, *args), check=check)


# ---- options -----------------------------------------------------------------

def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="demo.py", description="pnc closed-loop congestion demo (needs root).")
    ap.add_argument("frr_root", help="installed pnc FRR (build/root); tools in FRR_ROOT/../tools")
    ap.add_argument("--short", action="store_true",
                    help="CI mode: short runs; exit 0 only if the proxy path reacts faster")
    ap.add_argument("--out", default="demo-out", help="directory of the plot and raw series")
    ap.add_argument("--duration", type=float, help="seconds of traffic per run "
                    "(default 8, --short 3)")
    ap.add_argument("--rtt-ms", type=float, default=10.0,
                    help="WAN round trip added between p and pe2 (default 10)")
    ap.add_argument("--tbf-mbit", type=int, default=50, help="bottleneck rate (default 50)")
    ap.add_argument("--rate-mbit", type=int, default=100, help="sender rate (default 100)")
    ap.add_argument("--recovery-us", type=int, default=10000,
                    help="sender's recovery period, +5 Mb/s each (default 10000; "
                    "roce-emu's own default is 1000)")
    ap.add_argument("--notify-min-interval", type=int, metavar="US",
                    help="p's per-flow notification interval (default: the rtt)")
    ap.add_argument("--signalling", "--igp", choices=sorted(SIGNALLING), default="isis",
                    help="how pe1 signals the proxy: IS-IS (default), OSPFv2 or OSPFv3 "
                    "(everything over IPv6) inside one network, or eBGP between three sites")
    ap.add_argument("--format", default="rocev2-cnp", metavar="F[,F...]",
                    help="what pe1 sends the sender, one proxy run each, side by side: "
                    + ", ".join(FORMATS) + " (default rocev2-cnp; long-haul-icmpv6 needs "
                    "--signalling ospf6)")
    ap.add_argument("--flows", type=int, default=1, metavar="N",
                    help="N RoCEv2 flows from two senders (sender, sender2) sharing the "
                    "bottleneck, each a fixed transfer; --rate-mbit is then their sum at "
                    "start (default 1)")
    ap.add_argument("--print-config", metavar="ROUTER", choices=ROUTERS,
                    help="print the router's frr.conf for these options and exit")
    args = ap.parse_args(argv)
    args.formats = args.format.split(",")
    for fmt in args.formats:
        if fmt not in FORMATS:
            ap.error("--format: {} is not one of {}".format(fmt, ", ".join(FORMATS)))
        if fmt == "long-haul-icmpv6" and args.signalling != "ospf6":
            ap.error("--format long-haul-icmpv6 reaches IPv6 senders only: add "
                     "--signalling ospf6")
    if len(set(args.formats)) != len(args.formats):
        ap.error("--format: each format once")
    args.pre_ecn = "pre-ecn" in args.formats
    if args.pre_ecn and args.signalling != "isis":
        ap.error("--format pre-ecn runs over IS-IS (IPv4 and IPv6): leave --signalling out")
    # One proxy run per format, then the baseline.
    args.runs = [(FORMATS[f][0], FORMATS[f][1], f) for f in args.formats]
    args.runs.append(BASELINE + (None,))
    if args.duration is None:
        args.duration = 3.0 if args.short else 8.0
    # Thresholds for the TBF: 1.6 ms and 4 ms of queue at its rate, well
    # under the WAN's bandwidth-delay product.
    bytes_per_ms = args.tbf_mbit * 1000 / 8
    args.k_min = int(1.6 * bytes_per_ms)
    args.k_max = int(4 * bytes_per_ms)
    args.tools = os.path.realpath(os.path.join(args.frr_root, "..", "tools"))
    args.igp_daemon, args.igp_name = SIGNALLING[args.signalling]
    if args.signalling == "ospf6":
        use_ipv6()
    if not 1 <= args.flows <= 16:
        ap.error("--flows: 1 to 16")
    if args.flows > 1:
        if args.signalling == "ospf6" or args.pre_ecn:
            ap.error("--flows runs over IPv4 with the standard formats: leave out "
                     "--signalling ospf6 and --format pre-ecn")
        use_second_sender()
    return args


def use_second_sender():
    """sender2 behind pe1 (--flows): a passive interface, PNC and learning."""
    global PROXY_ROLE  # pylint: disable=global-statement
    ISIS_IFS["pe1"] = ISIS_IFS["pe1"] + (("eth-sender2", "passive"),)
    PROXY_ROLE = PROXY_ROLE + ("proxy learn-interface eth-sender2",)


def use_ipv6():
    """Every address of the demo in IPv6 (--signalling ospf6)."""
    router_ids.update(LOOPBACK)
    globals().update(IPV6_PLAN)


def daemons(router, args):
    names = [d.format(igp=args.igp_daemon) for d in DAEMONS[router]]
    # pre-ecn: pe2 ends the tunnel with cnpproxyd's tunnel egress.
    return names + ["cnpproxyd"] if router == "pe2" and args.pre_ecn else names


def tool_paths(args):
    """The build's tools, checked up front so that a run does not fail half-way."""
    paths = {
        "vtysh": os.path.join(args.frr_root, "bin", "vtysh"),
        "frrdir": os.path.join(args.frr_root, "lib", "frr"),
        "roce-emu": os.path.join(args.tools, "roce-emu", "roce-emu"),
        "qmon": os.path.join(args.tools, "qmon", "pnc-qmon"),
        "delay-line": os.path.join(args.tools, "delay-line", "pnc-delay-line"),
    }
    for daemon in ("zebra", "mgmtd", "staticd", "isisd", "ospfd", "ospf6d", "bgpd", "cnpproxyd"):
        paths[daemon] = os.path.join(paths["frrdir"], daemon)
    missing = [p for k, p in paths.items() if k != "frrdir" and not os.access(p, os.X_OK)]
    if missing:
        raise DemoError("not built: " + ", ".join(missing) + " (run make first)")
    return paths


# ---- clean-up ------------------------------------------------------------------

def etc_dir(router):
    return "/etc/frr/" + nsname(router)


def run_dir(router):
    return "/var/run/frr/" + nsname(router)


def existing_namespaces():
    out = run(["ip", "netns", "list"], check=False)
    names = {line.split()[0] for line in out.splitlines() if line.strip()}
    return [n for n in NAMESPACES if nsname(n) in names]


def demo_pids():
    """Processes in the demo's namespaces, and FRR daemons by pid file."""
    pids = set()
    for name in existing_namespaces():
        out = run(["ip", "netns", "pids", nsname(name)], check=False)
        pids.update(int(p) for p in out.split() if p.isdigit())
    for router in ROUTERS:
        d = run_dir(router)
        for f in os.listdir(d) if os.path.isdir(d) else ():
            if f.endswith(".pid"):
                try:
                    with open(os.path.join(d, f)) as fh:
                        pids.add(int(fh.read().strip()))
                except (OSError, ValueError):
                    pass
    pids.discard(os.getpid())
    return pids


def signal_all(pids, sig):
    for pid in pids:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass


def stop_processes(procs):
    """Stop the tools this run started, then whatever the namespaces hold
    (FRR daemons, tools of an aborted run); returns how many of those."""
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
    for proc in procs:
        try:
            proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    pids = demo_pids()
    count = len(pids)
    signal_all(pids, signal.SIGTERM)
    deadline = time.monotonic() + 3
    while pids and time.monotonic() < deadline:
        time.sleep(0.1)
        pids = {p for p in pids if os.path.exists("/proc/{}".format(p))}
    signal_all(pids, signal.SIGKILL)
    return count


def cleanup(procs=(), parents=()):
    """Remove everything the demo (or an aborted earlier run) created:
    processes, namespaces (their veths with them), FRR directories, and
    the parent directories in parents if they are left empty.  Returns
    how many processes and namespaces there were."""
    nprocs = stop_processes(procs)
    namespaces = existing_namespaces()
    for name in namespaces:
        run(["ip", "netns", "del", nsname(name)], check=False)
    for router in ROUTERS:
        shutil.rmtree(etc_dir(router), ignore_errors=True)
        shutil.rmtree(run_dir(router), ignore_errors=True)
    for d in parents:
        try:
            os.rmdir(d)
        except OSError:
            pass  # not empty: someone else's
    return nprocs, len(namespaces)


# ---- topology ------------------------------------------------------------------

def veth(ns_a, if_a, ns_b, if_b):
    run(["ip", "link", "add", if_a, "netns", nsname(ns_a), "type", "veth",
         "peer", "name", if_b, "netns", nsname(ns_b)])


def if_up(name, ifname, addr=None):
    if addr:
        # No duplicate address detection: the address is usable at once.
        ns_run(name, "ip", "addr", "add", addr, "dev", ifname, *(("nodad",) if ":" in addr else ()))
    else:
        # A bridge port: no IPv6 link-local, so it sends nothing itself.
        ns_run(name, "sysctl", "-qw", "net.ipv6.conf.{}.disable_ipv6=1".format(ifname))
    ns_run(name, "ip", "link", "set", ifname, "up")


def build_topology(args):
    links = LINKS + ((SENDER2_LINK,) if args.flows > 1 else ())
    for name in NAMESPACES:
        if name == "sender2" and args.flows == 1:
            continue
        run(["ip", "netns", "add", nsname(name)])
        ns_run(name, "ip", "link", "set", "lo", "up")
    for (ns_a, if_a, addr_a), (ns_b, if_b, addr_b) in links:
        veth(ns_a, if_a, ns_b, if_b)
        if_up(ns_a, if_a, addr_a)
        if_up(ns_b, if_b, addr_b)
    # p -- pe2 through the delay line: p's routed interface and its peer
    # dl-a stay in p, dl-b (in p) is paired with pe2's interface, and
    # pnc-delay-line bridges dl-a and dl-b.  p's notifications to pe1 do
    # not cross it; data to the receiver and the receiver's CNPs do.
    veth("p", BOTTLENECK, "p", "dl-a")
    veth("p", "dl-b", "pe2", "eth-p")
    if_up("p", BOTTLENECK, P_ADDR)
    if_up("p", "dl-a")
    if_up("p", "dl-b")
    if_up("pe2", "eth-p", PE2_ADDR)
    hosts = (("sender", LINKS[0][1]), ("receiver", LINKS[2][0]))
    for host, (_, _, gateway) in hosts + ((("sender2", SENDER2_LINK[1]),) if args.flows > 1
                                          else ()):
        ns_run(host, "ip", "route", "add", "default", "via", gateway.split("/")[0])
    for router in ROUTERS:
        ns_run(router, "sysctl", "-qw", "net.ipv4.ip_forward=1")
        ns_run(router, "sysctl", "-qw", "net.ipv6.conf.all.forwarding=1")
    for i in range(1, args.flows):
        ns_run("receiver", "ip", "addr", "add", "{}/24".format(flow_receiver(i)), "dev", "eth0")
    if args.pre_ecn:
        for name, ifname, addr in PRE_ECN["core"]:
            ns_run(name, "ip", "addr", "add", addr, "dev", ifname, "nodad")
    # The bottleneck, before cnpproxyd attaches its egress program there.
    ns_run("p", "tc", "qdisc", "add", "dev", BOTTLENECK, "root", "tbf", "rate",
           "{}mbit".format(args.tbf_mbit), "burst", "10kb", "limit", TBF_LIMIT)


def start_delay_line(args, paths, logdir):
    """pnc-delay-line in p; returns once it says it is ready."""
    one_way = args.rtt_ms / 2
    proc = subprocess.Popen(in_ns("p", paths["delay-line"], "--a", "dl-a", "--b", "dl-b",
                                  "--delay-ms", one_way, "--stats",
                                  os.path.join(logdir, "delay-line.json")),
                            stdout=subprocess.PIPE, text=True)
    ready = json.loads(proc.stdout.readline() or "{}")
    if ready.get("event") != "ready":
        raise DemoError("pnc-delay-line did not start: {}".format(ready))
    return proc


# ---- FRR -----------------------------------------------------------------------

def bgp_conf(router):
    """eBGP between the sites: every connected prefix announced; pe1 attaches
    the Proxy Node Capability to the sender subnet."""
    lines = ["interface lo", " ip address {}/32".format(LOOPBACK[router]), "exit"]
    lines += ["router bgp {}".format(ASN[router]), " bgp router-id " + LOOPBACK[router],
              " no bgp ebgp-requires-policy"]
    for neighbor in BGP_NEIGHBORS[router]:
        lines += [" neighbor {} remote-as external".format(neighbor),
                  " neighbor {} timers 3 9".format(neighbor),
                  " neighbor {} send-nexthop-characteristics".format(neighbor)]
    lines += [" address-family ipv4 unicast", "  redistribute connected"]
    if router == "pe1":
        lines.append("  bgp proxy-node-capability route-map PROXIED")
    lines += [" exit-address-family", "exit"]
    return lines


def ospf_conf(router):
    """OSPFv2, one area: pe1 flags the sender subnet with P in an Extended
    Prefix LSA (opaque LSAs are off by default in ospfd)."""
    lines = ["interface lo", " ip address {}/32".format(LOOPBACK[router]), " ip ospf area 0",
             "exit"]
    for ifname, kind in ISIS_IFS[router]:
        lines += ["interface " + ifname, " ip ospf area 0"]
        if kind == "passive":
            lines.append(" ip ospf passive")
        else:
            lines += [" ip ospf network point-to-point", " ip ospf hello-interval 1",
                      " ip ospf dead-interval 4"]
        lines.append("exit")
    lines += ["router ospf", " ospf router-id " + LOOPBACK[router], " capability opaque",
              " timers throttle spf 0 50 500"]
    if router == "pe1":
        lines.append(" proxy-node-capability prefix-list SENDERS")
    lines.append("exit")
    return lines


def ospf6_conf(router):
    """OSPFv3, one area: pe1 flags the sender subnet with P in an RFC 8362
    E-Intra-Area-Prefix-LSA."""
    lines = ["interface lo", " ipv6 address {}/128".format(LOOPBACK[router]),
             " ipv6 ospf6 area 0.0.0.0", "exit"]
    for ifname, kind in ISIS_IFS[router]:
        lines += ["interface " + ifname, " ipv6 ospf6 area 0.0.0.0"]
        if kind == "passive":
            lines.append(" ipv6 ospf6 passive")
        else:
            lines += [" ipv6 ospf6 network point-to-point", " ipv6 ospf6 hello-interval 1",
                      " ipv6 ospf6 dead-interval 4"]
        lines.append("exit")
    lines += ["router ospf6", " ospf6 router-id " + router_ids[router],
              " timers throttle spf 0 50 500"]
    if router == "pe1":
        lines.append(" proxy-node-capability prefix-list SENDERS")
    lines.append("exit")
    return lines


def frr_conf(router, args):
    """frr.conf of a router: IS-IS (or eBGP) everywhere, PNC and cnpproxyd
    where needed."""
    lines = ["hostname " + router, "log timestamp precision 6", "!"]
    if router == "pe1" and args.signalling == "ospf6":
        lines += ["ipv6 prefix-list SENDERS seq 5 permit 2001:db8:1::/64",
                  "ipv6 prefix-list ROUTERS seq 5 permit 2001:db8:ff::/64 le 128", "!"]
    elif router == "pe1":
        lines += ["ip prefix-list SENDERS seq 5 permit 10.1.0.0/24",
                  "ip prefix-list ROUTERS seq 5 permit 10.255.0.0/24 le 32", "!"]
        if args.flows > 1:
            lines[-1:-1] = ["ip prefix-list SENDERS seq 10 permit 10.1.1.0/24"]
        if args.pre_ecn:
            # p's flow-label notifications come from its IPv6 loopback
            lines += ["ipv6 prefix-list ROUTERS seq 5 permit 2001:db8:ff::/64 le 128", "!"]
        if args.signalling == "bgp":
            lines += ["route-map PROXIED permit 10", " match ip address prefix-list SENDERS",
                      "exit", "!"]
    if router == "p":
        lines += ["debug cnpproxy congestion", "!"]
    if args.pre_ecn and router in PRE_ECN["sid_via"]:
        # pe1's local shaping, timed from its log
        lines += ["debug cnpproxy proxy"] if router == "pe1" else []
        lines += ["ipv6 route 2001:db8:ee::/64 " + PRE_ECN["sid_via"][router], "!"]
    if args.signalling == "bgp":
        return "\n".join(lines + bgp_conf(router) + cnpproxy_conf(router, args)) + "\n"
    if args.signalling == "ospf":
        return "\n".join(lines + ospf_conf(router) + cnpproxy_conf(router, args)) + "\n"
    if args.signalling == "ospf6":
        return "\n".join(lines + ospf6_conf(router) + cnpproxy_conf(router, args)) + "\n"
    # With pre-ecn, IPv6 too: the tunnel's outer header, p's notifications.
    v6 = [" ipv6 router isis wan"] if args.pre_ecn else []
    lines += ["interface lo", " ip address {}/32".format(LOOPBACK[router])]
    if args.pre_ecn:
        lines.append(" ipv6 address {}/128".format(PRE_ECN["loopback"][router]))
    lines += [" ip router isis wan"] + v6 + [" isis passive", "exit"]
    for ifname, kind in ISIS_IFS[router]:
        lines += ["interface " + ifname, " ip router isis wan"] + v6 + [
            " isis passive" if kind == "passive" else " isis network point-to-point", "exit"]
    lines += ["router isis wan", " net 49.0001.0000.0000.{}.00".format(SYSID[router]),
              " is-type level-2-only", " lsp-gen-interval 1"]
    if router == "pe1":
        lines.append(" proxy-node-capability prefix-list SENDERS")
    lines.append("exit")
    return "\n".join(lines + cnpproxy_conf(router, args)) + "\n"


def cnpproxy_conf(router, args):
    """pe1's proxy role, p's congestion point, pe2's tunnel egress (pre-ecn)."""
    lines = []
    if router == "pe2" and args.pre_ecn:
        lines += ["router cnpproxy", " tunnel-egress interface eth-p",
                  " tunnel-egress sid " + PRE_ECN["sid"], "exit"]
    if router == "pe1":
        lines += ["router cnpproxy"] + [" " + c for c in PROXY_ROLE] + ["exit"]
    if router == "p":
        cp = " congestion-point interface " + BOTTLENECK
        lines += ["router cnpproxy", " congestion-point",
                  " congestion-point source-address " + LOOPBACK["p"]]
        if args.pre_ecn:
            lines.append(" congestion-point source-address " + PRE_ECN["loopback"]["p"])
        # Seed 003's two thresholds are T1 = K_min and T2 = K_max.
        lines += [cp, cp + " thresholds static k-max {} k-min {}".format(args.k_max, args.k_min),
                  cp + " poll-interval 1", cp + " rtt {}".format(int(args.rtt_ms * 1000)),
                  cp + " marking " + ("two-threshold" if args.pre_ecn else "ce")]
        if args.notify_min_interval:
            lines.append(cp + " notify min-interval {}".format(args.notify_min_interval))
        lines.append("exit")
    return lines


def start_router(router, args, paths):
    """Its directories, frr.conf, the daemons, and the configuration read in."""
    etc, rundir = etc_dir(router), run_dir(router)
    for d in (etc, rundir):
        os.makedirs(d)
        shutil.chown(d, "frr", "frr")
    for fname, text in (("vtysh.conf", "service integrated-vtysh-config\n"),
                        ("frr.conf", frr_conf(router, args))):
        with open(os.path.join(etc, fname), "w") as fh:
            fh.write(text)
        shutil.chown(os.path.join(etc, fname), "frr", "frr")
    for daemon in daemons(router, args):
        # Its own UTS namespace, so IS-IS advertises the router's name.
        # Output to a file, not a pipe: the daemonized child keeps it open.
        start_log = os.path.join(rundir, daemon + ".start")
        # The log file belongs to frr: the daemon reopens it after dropping
        # privileges when the configuration changes log settings.
        log = os.path.join(rundir, daemon + ".log")
        open(log, "w").close()
        shutil.chown(log, "frr", "frr")
        with open(start_log, "w") as fh:
            rc = subprocess.call(in_ns(router, "unshare", "--uts", "sh", "-c",
                                       'hostname "$1"; shift; exec "$@"', "-", router,
                                       paths[daemon], "-N", nsname(router), "-d",
                                       "-A", "127.0.0.1", "--log-level", "debug", "--log",
                                       "file:" + log),
                                 stdout=fh, stderr=subprocess.STDOUT)
        if rc:
            raise DemoError("{} failed to start on {}: {}".format(
                daemon, router, read_from(start_log, 0).strip()))
    vtysh(router, paths, "-b", raw=True)


def vtysh(router, paths, *commands, raw=False, as_json=False):
    """vtysh of a router: -c per command, or raw arguments."""
    args = list(commands) if raw else [a for c in commands for a in ("-c", c)]
    out = ns_run(router, paths["vtysh"], "-N", nsname(router), *args)
    return json.loads(out) if as_json else out


def wait_for(what, check, timeout):
    """Poll check() until it returns a true value; the value, or an error."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    raise DemoError("{}: not after {} s".format(what, timeout))


def proxy_of_sender(paths):
    out = vtysh("p", paths, "show cnpproxy lookup {} json".format(SENDER), as_json=True)
    return out.get("proxy") if out.get("found") else None


def roles_ready(paths, args):
    cp = vtysh("p", paths, "show cnpproxy congestion json", as_json=True)
    ifs = cp.get("interfaces", {}).get(BOTTLENECK, {})
    if args.pre_ecn:
        te = vtysh("pe2", paths, "show cnpproxy tunnel-egress json", as_json=True)
        if te.get("interfaces") != {"eth-p": "decapsulating"}:
            return False
    return ifs.get("operational") and proxy_role_state(paths)["operational"]


def bring_up_control_plane(args, paths):
    """Start FRR on the routers; time convergence and proxy learning."""
    t_start = time.monotonic()
    for router in ROUTERS:
        start_router(router, args, paths)
        print("  {}: {}".format(router, " ".join(daemons(router, args))))
    wait_for("end-to-end reachability", lambda: ns_run(
        "sender", "ping", "-c1", "-W1", RECEIVER, check=False).find(" 0% packet loss") > 0, 60)
    t_reach = time.monotonic() - t_start
    proxy = wait_for("p learning the sender's proxy through " + args.igp_name,
                     lambda: proxy_of_sender(paths), 60)
    t_proxy = time.monotonic() - t_start
    learned_at = time.time()
    wait_for("cnpproxyd roles operational", lambda: roles_ready(paths, args), 30)
    print("  {:6.2f} s  sender {} reaches receiver {} ({} converged)".format(
        t_reach, SENDER, RECEIVER, args.igp_name))
    print("  {:6.2f} s  p: show cnpproxy lookup {} -> proxy {} (learned via {} PNC)".format(
        t_proxy, SENDER, proxy, args.igp_name))
    return {"reachable_s": t_reach, "proxy_learned_s": t_proxy, "proxy": proxy,
            "proxy_learned_at": learned_at}


def proxy_role_state(paths):
    return vtysh("pe1", paths, "show cnpproxy status json", as_json=True)["roles"]["proxy"]


def sender_format_config(fmt, args):
    """pe1's settings for senders of a format other than the standard CNP."""
    if fmt in (None, "rocev2-cnp"):
        return ()
    if fmt == "pre-ecn":
        # Standard CNPs for severe notifications; light ones shaped here, one
        # cut of 20 % each, held for the WAN's round trip.
        tunnel = "proxy flow-label-tunnel "
        return (tunnel + "interface eth-p source " + PRE_ECN["loopback"]["pe1"],
                tunnel + "prefix {} endpoint {}".format(
                    ipaddress.ip_interface(LINKS[2][0][2]).network, PRE_ECN["sid"]),
                tunnel + "local-shaping step 20 floor 1 hold-time {}".format(
                    int(args.rtt_ms * 1000)))
    senders = (LINKS[0][0],) + ((SENDER2_LINK[0],) if args.flows > 1 else ())
    lines = tuple("proxy sender {} format {}".format(
        ipaddress.ip_interface(addr).network, fmt) for _, _, addr in senders)
    if fmt == "rate-advice":
        # Level 4, where p starts notifying, advises the bottleneck's rate.
        lines += ("proxy rate-advice max-rate {}".format(2 * args.tbf_mbit),)
    return lines


# What pe1's proxy role is configured for: frr.conf starts it with CNPs.
pe1_format = ["rocev2-cnp"]


def set_proxy_role(paths, fmt, args):
    """pe1's proxy role on for a format (all its settings: "no proxy" drops them) or off."""
    on = fmt is not None
    if fmt != pe1_format[0]:
        vtysh("pe1", paths, "configure terminal", "router cnpproxy", "no proxy")
        if on:
            vtysh("pe1", paths, "configure terminal", "router cnpproxy",
                  *(PROXY_ROLE + sender_format_config(fmt, args)))
        pe1_format[0] = fmt
    wait_for("pe1's proxy role " + ("on" if on else "off"),
             lambda: proxy_role_state(paths)["operational"] == on, 10)


# ---- one run -------------------------------------------------------------------

def clock_offset():
    """CLOCK_REALTIME - CLOCK_MONOTONIC, from the tightest of a few readings."""
    best = None
    for _ in range(20):
        m1 = time.clock_gettime(time.CLOCK_MONOTONIC)
        r = time.clock_gettime(time.CLOCK_REALTIME)
        m2 = time.clock_gettime(time.CLOCK_MONOTONIC)
        if best is None or m2 - m1 < best[0]:
            best = (m2 - m1, r - (m1 + m2) / 2)
    return best[1]


def pe1_source():
    """The address pe1 sends the sender's messages from."""
    return next(c.split()[-1] for c in PROXY_ROLE if c.startswith("proxy source-address"))


def roce_extras(fmt):
    """roce-emu's options for a run, (requester, responder): what the
    sender understands of pe1's format fmt, or (None: the baseline) the
    receiver's CNPs for CE marks."""
    req_extra = list(FORMATS[fmt][2]) if fmt else []
    if "--long-haul" in req_extra:
        req_extra += ["--lh-known", pe1_source()]
    return req_extra, ["--cnp-on-ce"] if fmt is None else []


def wait_responders(addrs):
    """roce-emu responders in the receiver listening at addrs: their UDP
    port bound (each opens its packet socket before it)."""
    want = {("[{}]:4791" if ":" in a else "{}:4791").format(a) for a in addrs}

    def bound():
        out = ns_run("receiver", "ss", "-Hlun", check=False)
        return want <= {f for line in out.splitlines() for f in line.split()[3:4]}

    wait_for("roce-emu responders listening", bound, 10)


def start_qmon(paths, path, procs):
    """pnc-qmon at p's bottleneck, every 1 ms, into path."""
    with open(path, "w") as qlog:
        qmon = subprocess.Popen(in_ns("p", paths["qmon"], "--dev", BOTTLENECK,
                                      "--interval-ms", 1), stdout=qlog)
    procs.append(qmon)
    return qmon


def stop_qmon(qmon):
    time.sleep(0.1)  # the queue's tail
    qmon.send_signal(signal.SIGINT)
    qmon.wait(timeout=5)


def start_roce_pair(args, paths, files, procs, fmt, duration, log_ms=(1, None)):
    """The receiver's responder, then the sender's requester sending for
    duration s, started and added to procs: (requester, responder).  fmt:
    what pe1 sends the sender (None: the baseline, the receiver's CNPs);
    log_ms: the requester's and the responder's stats intervals (None:
    roce-emu's default)."""
    req_extra, resp_extra = roce_extras(fmt)
    if log_ms[1]:
        resp_extra += ["--log-ms", log_ms[1]]
    resp = subprocess.Popen(in_ns("receiver", paths["roce-emu"], "responder", "--local", RECEIVER,
                                  "--duration", duration + 1.5, "--log",
                                  files["responder"], *resp_extra))
    procs.append(resp)
    wait_responders([RECEIVER])  # before the requester's CM REQ
    req = subprocess.Popen(in_ns("sender", paths["roce-emu"], "requester", "--local", SENDER,
                                 "--remote", RECEIVER, "--rate", args.rate_mbit, *REACTION,
                                 "--recovery-us", args.recovery_us,
                                 "--duration", duration, "--log-ms", log_ms[0],
                                 "--log", files["requester"], *req_extra))
    procs.append(req)
    return req, resp


def wait_roce_pair(req, resp, files, timeout):
    """Both ends finished, each within timeout s, with status 0."""
    for proc, who in ((req, "requester"), (resp, "responder")):
        try:
            rc = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            raise DemoError("roce-emu {} did not finish".format(who)) from exc
        if rc:
            raise DemoError("roce-emu {} failed ({}), see {}".format(who, rc, files[who]))


def traffic(args, paths, logdir, name, procs, fmt):
    """One run: qmon at p, responder, requester to completion."""
    files = {k: os.path.join(logdir, "{}-{}.jsonl".format(name, k))
             for k in ("qmon", "requester", "responder")}
    qmon = start_qmon(paths, files["qmon"], procs)
    req, resp = start_roce_pair(args, paths, files, procs, fmt, args.duration)
    wait_roce_pair(req, resp, files, args.duration + 30)
    stop_qmon(qmon)
    return files


# ---- many flows (--flows) -------------------------------------------------------

def flow_host(i):
    """The namespace and address flow i sends from: sender and sender2 in turn."""
    return ("sender", SENDER) if i % 2 == 0 else ("sender2", SENDER2_LINK[0][2].split("/")[0])


def flow_receiver(i):
    """The receiver address of flow i."""
    return str(ipaddress.ip_address(RECEIVER) + i)


def flow_reaction(args):
    """Each flow's floor and increase, REACTION's divided among the flows:
    together they recover as fast as the single flow does."""
    return [a / args.flows if isinstance(a, int) else a for a in REACTION]


def flow_transfer(args):
    """Octets each flow sends: 60 % of the run at a fair share of the bottleneck."""
    return int(args.tbf_mbit * 1e6 / 8 / args.flows * args.duration * 0.6)


def traffic_flows(args, paths, logdir, name, procs, fmt):
    """One run with args.flows flows: qmon at p, a responder per flow, then
    the requesters, alternately on sender and sender2, to completion."""
    files = {"qmon": os.path.join(logdir, name + "-qmon.jsonl"), "flows": []}
    qmon = start_qmon(paths, files["qmon"], procs)
    req_extra, resp_extra = roce_extras(fmt)
    pairs = []
    for i in range(args.flows):
        f = {k: os.path.join(logdir, "{}-flow{}-{}.jsonl".format(name, i, k))
             for k in ("requester", "responder")}
        files["flows"].append(f)
        pairs.append([f, None, subprocess.Popen(in_ns(
            "receiver", paths["roce-emu"], "responder", "--local", flow_receiver(i),
            "--duration", args.duration + 1.5, "--log-ms", FLOW_LOG_MS, "--log",
            f["responder"], *resp_extra))])
        procs.append(pairs[-1][2])
    wait_responders([flow_receiver(i) for i in range(args.flows)])  # before the CM requests
    for i, pair in enumerate(pairs):
        host, addr = flow_host(i)
        pair[1] = subprocess.Popen(in_ns(
            host, paths["roce-emu"], "requester", "--local", addr, "--remote",
            flow_receiver(i), "--qpn", FLOW_QPN + i, "--rate", args.rate_mbit / args.flows,
            *flow_reaction(args), "--recovery-us",
            args.recovery_us, "--duration", args.duration, "--bytes", flow_transfer(args),
            "--log-ms", FLOW_LOG_MS, "--log", pair[0]["requester"], *req_extra))
        procs.append(pair[1])
    for f, req, resp in pairs:
        wait_roce_pair(req, resp, f, args.duration + 30)
    stop_qmon(qmon)
    return files


CUT_EVENTS = ("cnp", "lh", "rate-advice")
MESSAGE_COUNTERS = ("cnps", "lh_roce", "lh_icmp6", "rate_advices")


def flow_series(name, files, offset):
    """Per flow its series in ms since the first flow's first packet, and
    the queue."""
    reqs = [read_jsonl(f["requester"]) for f in files["flows"]]
    resps = [read_jsonl(f["responder"]) for f in files["flows"]]
    starts = [next((e["time"] for e in req if e["event"] == "stats"), None) for req in reqs]
    if None in starts:
        raise DemoError("{}: a requester logged no traffic".format(name))
    t0 = min(starts)

    def rel(t):
        return round((t - t0) * 1000, 3)

    flows = []
    for req, resp, start in zip(reqs, resps, starts):
        done = next((e for e in req if e["event"] == "complete"), None)
        summary = next((e for e in req if e["event"] == "summary"), {})
        flows.append({
            "rate": [(rel(e["time"]), e["rate_mbps"]) for e in req if e["event"] == "stats"],
            "rx": [(rel(e["time"]), e["rx_mbps"]) for e in resp if e["event"] == "stats"],
            "cuts": [rel(e["time"]) for e in req if e["event"] in CUT_EVENTS],
            "completion": done["completion_ms"] if done else None,
            "done_at": rel(start) + done["completion_ms"] if done else None,
            "messages": sum(summary.get(k, 0) for k in MESSAGE_COUNTERS),
        })
    samples = [s for s in read_jsonl(files["qmon"]) if "backlog_bytes" in s]
    end = max(r[0] for f in flows for r in f["rate"]) + 200
    queue = [(rel(s["ts_us"] / 1e6 + offset), s["backlog_bytes"]) for s in samples]
    return {"name": name, "flows": flows, "queue": [q for q in queue if -100 <= q[0] <= end],
            "queue_drops": samples[-1]["drops"] - samples[0]["drops"] if samples else 0}


def one_flows_run(args, paths, logdir, run, procs, offset):
    """One run of --flows: pe1 configured, the flows, their figures."""
    name, _, fmt = run
    prepare_run(args, paths, fmt)
    res = flow_series(name, traffic_flows(args, paths, logdir, name, procs, fmt), offset)
    res.update(demo_flows.flow_figures(res["flows"], res["queue"], args.tbf_mbit, args.k_min))
    res["format"] = fmt
    res["p_counters"] = vtysh("p", paths, "show cnpproxy congestion json",
                              as_json=True)["interfaces"][BOTTLENECK]["counters"]
    settle(paths)
    return res


def flows_verdict(results, args):
    """(ok, sentences): each proxy run reacted sooner than the baseline,
    without a drop, and kept the bottleneck at least as busy (within 10 %)."""
    base = results["baseline"]
    ok, sentences = True, []
    for name, _, fmt in args.runs:
        res = results[name]
        if not fmt:
            continue
        a, b = res["reaction_ms"], base["reaction_ms"]
        if a is None or b is None or a >= b:
            ok = False
            sentences.append("FAIL: {}: reaction {} against the baseline's {}".format(
                name, demo_flows.fmt_ms(a), demo_flows.fmt_ms(b)))
        elif res["queue_drops"]:
            ok = False
            sentences.append("FAIL: {}: the bottleneck dropped {} packets".format(
                name, res["queue_drops"]))
        elif res["utilisation"] < 0.9 * base["utilisation"]:
            ok = False
            sentences.append("FAIL: {}: utilisation {:.1%}, the baseline's {:.1%}".format(
                name, res["utilisation"], base["utilisation"]))
        else:
            sentences.append(
                "PASS: {}: {} flows cut {:.2f} ms after onset ({:.1f}x sooner than the "
                "baseline), utilisation {:.1%} (baseline {:.1%}), Jain's index {:.3f} "
                "(baseline {:.3f})".format(name, args.flows, a, b / a if a > 0 else float("inf"),
                                           res["utilisation"], base["utilisation"],
                                           res["jain"] or 0, base["jain"] or 0))
    return ok, sentences


def print_flows_comparison(results, args):
    step("Side by side: {} flows from sender and sender2, {} kB each (WAN RTT {} ms, TBF {} "
         "Mb/s, {:g} Mb/s per flow at start)".format(
             args.flows, flow_transfer(args) // 1000, args.rtt_ms, args.tbf_mbit,
             args.rate_mbit / args.flows))
    runs = [results[name] for name, _, _ in args.runs]
    line = "  {:31}" + " {:>16}" * len(runs)
    print(line.format("", *[r["name"] for r in runs]))
    for label, cells in demo_flows.comparison_rows(runs, args.flows):
        print(line.format(label, *cells))
    print(line.format("packets dropped at the TBF",
                      *["{:8d}   ".format(r["queue_drops"]) for r in runs]))


def plot_flows(results, args, path):
    """Per run: p's queue, and each flow's rate at its sender."""
    import matplotlib  # pylint: disable=import-outside-toplevel
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # pylint: disable=import-outside-toplevel

    names = [name for name, _, _ in args.runs]
    fig, axes = plt.subplots(2, len(names), figsize=(7 * len(names), 8), sharex=True,
                             sharey="row", squeeze=False)
    xmax = args.duration * 1000
    for col, name in enumerate(names):
        res, qax, rax = results[name], axes[0][col], axes[1][col]
        qax.plot([t for t, _ in res["queue"]], [b / 1000 for _, b in res["queue"]], lw=0.8)
        for i, flow in enumerate(res["flows"]):
            rax.plot([t for t, _ in flow["rate"]], [r for _, r in flow["rate"]], lw=0.8,
                     label="flow {} ({})".format(i, flow_host(i)[0]))
        rax.axhline(args.tbf_mbit / args.flows, color="grey", ls="-.", lw=0.7)
        rax.annotate("fair share", (xmax, args.tbf_mbit / args.flows), ha="right",
                     va="bottom", fontsize=7, color="grey")
        qax.axhline(args.k_max / 1000, color="grey", ls="-.", lw=0.7)
        qax.set_title("queue at p - {} (utilisation {:.0%}, Jain {:.3f})".format(
            name, res["utilisation"], res["jain"] or 0), fontsize=10)
        rax.set_title("rate of each flow at its sender - " + name, fontsize=10)
        qax.set_ylabel("backlog (kB)")
        rax.set_ylabel("Mb/s")
        rax.set_xlabel("ms since the first packet")
        rax.set_xlim(0, xmax)
        for ax in (qax, rax):
            ax.grid(alpha=0.3)
    axes[1][0].legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def flows_demo(args, paths, procs, setup, out, logdir):
    """--flows: every run, the table, the plot and the verdict."""
    results = {}
    offset = clock_offset()
    for run in args.runs:
        name, label, _ = run
        step("Run {}: {}, {} flows, for at most {:g} s".format(name, label, args.flows,
                                                                args.duration))
        results[name] = one_flows_run(args, paths, logdir, run, procs, offset)
        res = results[name]
        print("  {}/{} transfers done, the last after {}; {} messages at the senders; p {} "
              "notifications".format(res["completed"], args.flows,
                                     demo_flows.fmt_ms(max(res["completion_ms"], default=None)),
                                     res["messages"],
                                     res["p_counters"].get("notificationsSent")))
    print_flows_comparison(results, args)
    png, raw = (os.path.join(out, "pnc-demo-flows" + ext) for ext in (".png", ".json"))
    with open(raw, "w") as fh:
        json.dump({"parameters": {"flows": args.flows, "transfer_bytes": flow_transfer(args),
                                  "rtt_ms": args.rtt_ms, "tbf_mbit": args.tbf_mbit,
                                  "rate_mbit": args.rate_mbit, "duration": args.duration},
                   "setup": setup, "runs": results}, fh)
    plot_flows(results, args, png)
    ok, sentences = flows_verdict(results, args)
    step("Verdict")
    for sentence in sentences:
        print("  " + sentence)
    print("  plot: {}\n  raw series: {}\n  logs: {}".format(png, raw, logdir))
    return 0 if ok or not args.short else 1


def read_jsonl(path):
    with open(path) as fh:
        return [json.loads(line) for line in fh if line.strip().startswith("{")]


# FRR's log file: "2026/01/02 03:04:05.123456 CNPPROXY: [XXXXX-XXXXX] text"
LOG_LINE = re.compile(r"^(\d{4}/\d\d/\d\d \d\d:\d\d:\d\d\.\d+) \S+: (?:\[\S+\] )?(.*)$")


# "congestion: eth-pe2: marking (backlog ...)", "... notification to 10.255.0.1 (...)",
# "... flow-label FCN to 2001:db8:ff::1 (...)"
CP_EVENT = re.compile(r"congestion: " + BOTTLENECK + r": ([\w-]+) (.*)$")


def cp_log_events(text):
    """p's state changes and notifications: (realtime, kind, details)."""
    events = []
    for line in text.splitlines():
        m = LOG_LINE.match(line)
        ev = CP_EVENT.search(m.group(2)) if m else None
        if not ev:
            continue
        # FRR writes local time.
        t = datetime.datetime.strptime(m.group(1), "%Y/%m/%d %H:%M:%S.%f").timestamp()
        events.append((t, ev.group(1), ev.group(2)))
    return events


# pe1: "proxy: local shaping: flow label 0x00001 at 40000000 bit/s"
SHAPED = re.compile(r"proxy: local shaping: flow label \S+ at (\d+) bit/s")


def shaping_events(text):
    """pe1's local shaping of the tunnelled flow: (realtime, Mb/s)."""
    events = []
    for line in text.splitlines():
        m = LOG_LINE.match(line)
        ev = SHAPED.search(m.group(2)) if m else None
        if ev:
            t = datetime.datetime.strptime(m.group(1), "%Y/%m/%d %H:%M:%S.%f").timestamp()
            events.append((t, int(ev.group(1)) / 1e6))
    return events


def first_cp_event(events, kind):
    return next((t for t, k, _ in events if k == kind and t >= 0), None)


def first_episode(queue, onset, k_min):
    """The samples from the onset until the queue is back under K_min."""
    if onset is None:
        return []
    episode = []
    for t, b in queue:
        if t < onset:
            continue
        episode.append((t, b))
        if b <= k_min:
            break
    return episode


def load_series(name, files, cp_events, offset, shaped=()):
    """The run's series in ms since the sender's first packet; shaped:
    pe1's local shaping events (pre-ecn)."""
    req = read_jsonl(files["requester"])
    stats = [e for e in req if e["event"] == "stats"]
    if not stats:
        raise DemoError("{}: the requester logged no traffic".format(name))
    t0 = stats[0]["time"]

    def rel(t):
        return round((t - t0) * 1000, 3)

    # qmon stamps CLOCK_MONOTONIC; offset takes it to CLOCK_REALTIME.
    samples = [s for s in read_jsonl(files["qmon"]) if "backlog_bytes" in s]
    queue = [(rel(s["ts_us"] / 1e6 + offset), s["backlog_bytes"]) for s in samples]
    end = (stats[-1]["time"] - t0) * 1000 + 200  # the queue's tail, not the idle after it
    return {
        "name": name,
        "t0_realtime": t0,
        "queue": [q for q in queue if -100 <= q[0] <= end],
        # Packets the bottleneck dropped during the run: the queue overflowed.
        "queue_drops": samples[-1]["drops"] - samples[0]["drops"] if samples else 0,
        "rate": [(rel(e["time"]), e["rate_mbps"], e["tx_mbps"]) for e in stats],
        # Every message that cut the rate: CNPs, Long-haul CNPs, rate advice.
        "cnps": [(rel(e["time"]), e["rate_mbps"]) for e in req
                 if e["event"] in ("cnp", "lh", "rate-advice")],
        "cp_events": [(rel(t), kind, msg) for t, kind, msg in cp_events],
        # Rate cuts that pe1 made into the tunnel, the sender untold.
        "shaped": [(rel(t), mbps) for t, mbps in shaped],
        "requester": next((e for e in req if e["event"] == "summary"), {}),
        "responder": next((e for e in read_jsonl(files["responder"])
                           if e["event"] == "summary"), {}),
    }


def add_metrics(res, k_min):
    """Onset, first cut, reaction time and queue peaks of a run."""
    during = [q for q in res["queue"] if q[0] >= 0]
    onset = next((t for t, b in during if b > k_min), None)
    first = first_episode(during, onset, k_min)
    # The first cut of the flow: at the sender, or at pe1 into the tunnel.
    cut = min(res["cnps"][:1] + res["shaped"][:1], default=(None, None))
    res.update({
        "onset_ms": onset,
        "first_cut_ms": cut[0],
        "rate_after_cut": cut[1],
        "reaction_ms": round(cut[0] - onset, 3) if None not in (onset, cut[0]) else None,
        "peak_queue": max((b for _, b in during), default=0),
        "episode_peak": max((b for _, b in first), default=0),
        "episode_end_ms": first[-1][0] if first else None,
        "first_notification_ms": min(
            (t for t in (first_cp_event(res["cp_events"], k)
                         for k in ("notification", "flow-label")) if t is not None),
            default=None),
        "cp_marking_ms": first_cp_event(res["cp_events"], "marking"),
        "cp_congested_ms": first_cp_event(res["cp_events"], "congested"),
    })
    res["episode_peak_ms"] = next((t for t, b in first if b == res["episode_peak"]), None)
    # Until the first episode is over, every millisecond counts.
    end = max([t for t in (res["episode_end_ms"], cut[0]) if t is not None], default=1e9)
    res["stall_ms"] = max(largest_gap([t for t, _ in res["queue"]], end),
                          largest_gap([r[0] for r in res["rate"]], end))
    return res


def largest_gap(times, end):
    """The longest time without a sample in [0, end], in ms."""
    inside = [t for t in times if 0 <= t <= end]
    return round(max((b - a for a, b in zip(inside, inside[1:])), default=0.0), 3)


def log_size(path):
    return os.path.getsize(path) if os.path.exists(path) else 0


def read_from(path, offset):
    with open(path, errors="replace") as fh:
        fh.seek(offset)
        return fh.read()


def settle(paths):
    """Until p's queue has drained and its congestion point is idle again,
    so that the next run starts from rest."""
    def idle():
        cp = vtysh("p", paths, "show cnpproxy congestion json", as_json=True)
        point = cp["interfaces"][BOTTLENECK]
        return point["state"] == "idle" and point.get("queue", {}).get("backlogBytes") == 0

    wait_for("p's queue drained and its congestion point idle", idle, 30)


def prepare_run(args, paths, fmt):
    """pe1's proxy role set for the run's format, both routers' counters zeroed."""
    set_proxy_role(paths, fmt, args)
    for router in ("p", "pe1"):
        vtysh(router, paths, "clear cnpproxy counters")


def one_run(args, paths, logdir, run, procs, offset):
    """Configure pe1 for the run, send the traffic, collect what happened."""
    name, _, fmt = run
    prepare_run(args, paths, fmt)
    cp_log = os.path.join(run_dir("p"), "cnpproxyd.log")
    pe1_log = os.path.join(run_dir("pe1"), "cnpproxyd.log")
    log_start, pe1_start = log_size(cp_log), log_size(pe1_log)
    files = traffic(args, paths, logdir, name, procs, fmt)
    shaped = shaping_events(read_from(pe1_log, pe1_start)) if fmt == "pre-ecn" else ()
    res = add_metrics(load_series(name, files, cp_log_events(read_from(cp_log, log_start)),
                                  offset, shaped), args.k_min)
    cp = vtysh("p", paths, "show cnpproxy congestion json", as_json=True)
    res["p_counters"] = cp["interfaces"][BOTTLENECK]["counters"]
    res["p_peak_backlog"] = cp["interfaces"][BOTTLENECK]["peakBacklogBytes"]
    res["format"] = fmt
    res["pe1_counters"] = (vtysh("pe1", paths, "show cnpproxy counters json", as_json=True)
                           if fmt else {})
    # Let the queue drain and p go back to idle before the next run.
    settle(paths)
    return res


# ---- report --------------------------------------------------------------------

def fmt_ms(t):
    return "   --    " if t is None else "{:8.2f} ms".format(t)


def timeline(res, args):
    """(ms, what happened) of a run, those that did happen."""
    cut_from = ("pe1 (proxy), " + res["format"]) if res["format"] else "the receiver"
    ignored = "" if res["format"] else " (ignored: pe1's proxy role is off)"
    rows = [
        (0.0, "sender starts at {} Mb/s (TBF {} Mb/s)".format(args.rate_mbit, args.tbf_mbit)),
        (res["onset_ms"], "congestion onset: p's queue above K_min ({} octets, "
         "pnc-qmon)".format(args.k_min)),
        (res["cp_marking_ms"], "cnpproxyd on p: marking ({} on packets to the receiver)".format(
            "ECT(1), then CE above T2" if args.pre_ecn else "CE")),
        (res["cp_congested_ms"], "cnpproxyd on p: congested (queue above K_max {} "
         "octets)".format(args.k_max)),
        (res["first_notification_ms"], "p: first notification to pe1" + ignored),
        (res["cnps"][0][0] if res["cnps"] else None,
         "sender: first message, from {}, rate cut to {:.1f} Mb/s".format(
             cut_from, res["cnps"][0][1] if res["cnps"] else 0)),
        (res["shaped"][0][0] if res["shaped"] else None,
         "pe1: light notification, the flow shaped into the tunnel at {:.1f} Mb/s (the "
         "sender is told nothing)".format(res["shaped"][0][1] if res["shaped"] else 0)),
        (res["episode_peak_ms"], "queue peaks at p: {} octets".format(res["episode_peak"])),
        (res["episode_end_ms"], "queue back under K_min"),
    ]
    return sorted(r for r in rows if r[0] is not None)


def print_timeline(res, label, args, setup):
    print("\n  {} (times from the first packet of the sender)".format(label))
    print("    {:>11}  p: proxy of {} is {}, learned via {} PNC {:.1f} s before the "
          "traffic".format("before", SENDER, setup["proxy"], args.igp_name,
                           res["t0_realtime"] - setup["proxy_learned_at"]))
    for t, text in timeline(res, args):
        print("    {}  {}".format(fmt_ms(t), text))
    if res["stall_ms"] > STALL_MS:
        print("    warning: no sample for {:.1f} ms during the first episode: the host "
              "stalled, this run's times are distorted".format(res["stall_ms"]))
    rq, rs = res["requester"], res["responder"]
    sent = sum(res["pe1_counters"].get(k, 0) for k in SENT_COUNTERS)
    pe1 = ("pe1 {} notifications received, {} messages sent".format(
        res["pe1_counters"].get("received", 0) + res["pe1_counters"].get("receivedFlowLabel", 0),
        sent)
        if res["pe1_counters"] else "pe1's proxy role off")
    p_sent = sum(res["p_counters"].get(k, 0) for k in ("notificationsSent", "flowLabelSent"))
    if res["pe1_counters"].get("shapedLocally"):
        pe1 += ", {} light ones shaped locally".format(res["pe1_counters"]["shapedLocally"])
    print("    counters: sender {} CNPs, average {:.1f} Mb/s; receiver {} CE packets, {} CNPs "
          "sent; p {} notifications; {}".format(
              rq.get("cnps"), rq.get("tx_mbps", 0), rs.get("ce_pkts"), rs.get("cnps_sent"),
              p_sent, pe1))


SENT_COUNTERS = ("cnpSent", "longHaulIcmpv6Sent", "longHaulRocev2Sent", "rateAdviceSent")


def run_verdict(res, base):
    """(ok, sentence) for one proxy run against the baseline."""
    what = "the proxy path" + ("" if res["format"] == "rocev2-cnp" else
                               " ({})".format(res["format"]))
    a, b = res["reaction_ms"], base["reaction_ms"]
    if a is None or b is None:
        who = [n for n, r in ((res["name"], a), ("baseline", b)) if r is None]
        return False, "FAIL: no rate cut after congestion onset in the {} run".format(
            " and ".join(who))
    if res["queue_drops"]:
        return False, ("FAIL: {} did not hold the queue: the bottleneck dropped "
                       "{} packets".format(what, res["queue_drops"]))
    if res["format"] == "pre-ecn":
        return pre_ecn_verdict(res, a, b)
    if a < b:
        return True, ("PASS: {} reacted {:.2f} ms after congestion onset, "
                      "{:.2f} ms sooner than the baseline ({:.2f} ms, {:.1f}x faster)".format(
                          what, a, b - a, b, b / a if a > 0 else float("inf")))
    return False, ("FAIL: {} ({:.2f} ms) was not faster than the baseline "
                   "({:.2f} ms)".format(what, a, b))


def pre_ecn_verdict(res, a, b):
    """Seed 003: light congestion handled at pe1, the sender told of severe only."""
    shaped = res["pe1_counters"].get("shapedLocally", 0)
    severe = res["pe1_counters"].get("cnpSent", 0)
    heard = res["requester"].get("cnps", 0)
    if not shaped:
        return False, "FAIL: pre-ecn: pe1 shaped nothing for light congestion"
    if heard > severe:
        return False, ("FAIL: pre-ecn: the sender got {} CNPs, pe1 sent {} for severe "
                       "congestion".format(heard, severe))
    if a >= b:
        return False, ("FAIL: pre-ecn: the first cut ({:.2f} ms) was not sooner than the "
                       "baseline's ({:.2f} ms)".format(a, b))
    return True, ("PASS: seed 003: pe1 cut the flow into the tunnel {} times for light "
                  "congestion, the first {:.2f} ms after onset ({:.1f}x sooner than the "
                  "baseline), the sender told nothing of it; {} CNPs for severe "
                  "congestion".format(shaped, a, b / a if a > 0 else float("inf"), heard))


def verdict(results, args):
    """(ok, sentences): did every proxy run react, and faster than the baseline?"""
    verdicts = [run_verdict(results[name], results["baseline"])
                for name, _, fmt in args.runs if fmt]
    return all(ok for ok, _ in verdicts), [text for _, text in verdicts]


def print_comparison(results, args):
    step("Side by side (WAN RTT {} ms, TBF {} Mb/s, sender {} Mb/s, K_min {} / K_max {} "
         "octets)".format(args.rtt_ms, args.tbf_mbit, args.rate_mbit, args.k_min, args.k_max))
    runs = [results[name] for name, _, _ in args.runs]
    octets = "{:8d} B ".format
    rows = (("congestion onset (> K_min)", "onset_ms", fmt_ms),
            ("first notification at p", "first_notification_ms", fmt_ms),
            ("first rate cut of the flow", "first_cut_ms", fmt_ms),
            ("reaction (onset -> cut)", "reaction_ms", fmt_ms),
            ("peak queue, first episode", "episode_peak", octets),
            ("queue back under K_min", "episode_end_ms", fmt_ms),
            ("peak queue, whole run", "peak_queue", octets),
            ("packets dropped at the TBF", "queue_drops", "{:8d}   ".format),
            ("longest gap in the samples", "stall_ms", fmt_ms))
    line = "  {:31}" + " {:>16}" * len(runs)
    print(line.format("", *[r["name"] for r in runs]))
    for label, key, fmt in rows:
        print(line.format(label, *[fmt(r[key]) for r in runs]))
    if args.pre_ecn:
        print(line.format("light: cuts at pe1, sender untold",
                          *["{:8d}   ".format(len(r["shaped"])) for r in runs]))
    print(line.format("throughput at the receiver", *["{:8.1f} Mb/s".format(
        r["responder"].get("rx_mbps", 0)) for r in runs]))
    print(line.format("packets lost on the way", *["{:8d}   ".format(
        r["requester"].get("tx_pkts", 0) - r["responder"].get("rx_pkts", 0)) for r in runs]))
    for label, keys, fmt in (("CNPs at the sender", ("cnps",), "{:8d}   ".format),
                             ("Long-haul / advice at sender",
                              ("lh_roce", "lh_icmp6", "rate_advices"), "{:8d}   ".format),
                             ("average sender rate", ("tx_mbps",), "{:8.1f} Mb/s".format)):
        print(line.format(label, *[fmt(sum(r["requester"].get(k, 0) for k in keys))
                                   for r in runs]))


# ---- outputs -------------------------------------------------------------------

def zoom_window(results):
    """Milliseconds of the first congestion episodes, where the reactions happen."""
    ends = [r["episode_end_ms"] or 0 for r in results.values()]
    cuts = [r["first_cut_ms"] or 0 for r in results.values()]
    return min(200.0, max(40.0, 1.3 * max(ends), 3 * max(cuts)))


def plot_run(qax, rax, res, style, xmax, zoom):
    """One run's queue and rate; in the zoom, its onset and first cut marked."""
    colour, label = style
    queue = [(t, b / 1000) for t, b in res["queue"] if 0 <= t <= xmax]
    rate = [r for r in res["rate"] if r[0] <= xmax]
    qax.plot([t for t, _ in queue], [b for _, b in queue], color=colour, lw=1, label=label)
    rax.plot([r[0] for r in rate], [r[1] for r in rate], color=colour, lw=1.2,
             label=label + ": rate")
    if not zoom:
        return
    rax.plot([r[0] for r in rate], [r[2] for r in rate], color=colour, lw=0.5, alpha=0.35,
             label=label + ": measured (1 ms)")
    if res["onset_ms"] is not None:
        for ax in (qax, rax):
            ax.axvline(res["onset_ms"], color=colour, ls=":", lw=1)
    if res["first_cut_ms"] is not None:
        for ax in (qax, rax):
            ax.axvline(res["first_cut_ms"], color=colour, ls="--", lw=1)
        rax.annotate("first cut\n{:.1f} ms after onset".format(res["reaction_ms"] or 0),
                     (res["first_cut_ms"], res["rate_after_cut"]), color=colour, fontsize=8,
                     textcoords="offset points", xytext=(5, 12 if res["format"] else -30))


def decorate(qax, rax, args, xmax, title):
    """Thresholds, TBF rate, titles and axes of one column."""
    for k, name in ((args.k_min, "K_min"), (args.k_max, "K_max")):
        qax.axhline(k / 1000, color="grey", ls="-.", lw=0.7)
        qax.annotate(name, (xmax, k / 1000), ha="right", va="bottom", fontsize=7, color="grey")
    rax.axhline(args.tbf_mbit, color="grey", ls="-.", lw=0.7)
    rax.annotate("TBF rate", (xmax, args.tbf_mbit), ha="right", va="bottom", fontsize=7,
                 color="grey")
    qax.set_xlim(-0.02 * xmax, xmax)
    qax.set_title("queue at p (pnc-qmon, 1 ms) - " + title, fontsize=10)
    rax.set_title("sender rate (roce-emu) - " + title, fontsize=10)
    qax.set_ylabel("backlog (kB)")
    rax.set_ylabel("Mb/s")
    rax.set_xlabel("ms since the sender's first packet")
    for ax in (qax, rax):
        ax.grid(alpha=0.3)


def plot(results, args, path):
    """Queue and rate of both runs: the first episode zoomed in, and the first second."""
    import matplotlib  # pylint: disable=import-outside-toplevel
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # pylint: disable=import-outside-toplevel

    styles = {name: (RUN_COLOURS[i % len(RUN_COLOURS)], name)
              for i, (name, _, fmt) in enumerate(args.runs) if fmt}
    styles["baseline"] = ("tab:red", "baseline")
    fig, axes = plt.subplots(2, 2, figsize=(14, 8), sharex="col",
                             gridspec_kw={"width_ratios": [1, 1.4]})
    # The whole run is hundreds of identical cycles: its first second shows them.
    overview = min(1000.0, args.duration * 1000)
    columns = ((zoom_window(results), "first episode (dotted: onset, dashed: first cut)"),
               (overview, "first {:g} ms".format(overview)))
    for col, (xmax, title) in enumerate(columns):
        for name, _, _ in args.runs:
            plot_run(axes[0][col], axes[1][col], results[name], styles[name], xmax, col == 0)
        decorate(axes[0][col], axes[1][col], args, xmax, title)
    axes[0][0].legend(fontsize=8, loc="upper right")
    axes[1][0].legend(fontsize=7, loc="upper right")
    fig.suptitle("pnc demo: WAN RTT {:g} ms, TBF {} Mb/s, sender {} Mb/s; reaction to "
                 "congestion: {}".format(
                     args.rtt_ms, args.tbf_mbit, args.rate_mbit,
                     ", ".join("{} {}".format(name, fmt_ms(results[name]["reaction_ms"]).strip())
                               for name, _, _ in args.runs)))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write_outputs(results, args, setup, out):
    """The raw series as JSON and the plot, in out."""
    path_png = os.path.join(out, "pnc-demo.png")
    path_json = os.path.join(out, "pnc-demo.json")
    params = {k: getattr(args, k) for k in ("duration", "rtt_ms", "tbf_mbit", "rate_mbit",
                                            "recovery_us", "notify_min_interval",
                                            "k_min", "k_max", "short", "formats")}
    with open(path_json, "w") as fh:
        json.dump({"parameters": params, "setup": setup, "runs": results,
                   "units": {"time": "ms since the sender's first packet",
                             "queue": "[time, backlog octets]",
                             "rate": "[time, rate Mb/s, measured tx Mb/s]",
                             "cnps": "[time, rate Mb/s after the cut]"}}, fh)
    plot(results, args, path_png)
    return path_png, path_json


# ---- main ----------------------------------------------------------------------

def single_instance():
    """A lock held while the process lives: a second demo would tear this one down."""
    lock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    try:
        lock.bind("\0" + PREFIX + "-lock")  # abstract: nothing left on disk
    except OSError:
        return None
    return lock


def on_sigterm(_signum, _frame):
    raise Terminated()


def both_runs(args, paths, logdir, procs, setup):
    """The proxy run, then the baseline run, with their timelines."""
    results = {}
    offset = clock_offset()
    for run in args.runs:
        name, label, _ = run
        step("Run {}: {} for {:g} s".format(name, label, args.duration))
        results[name] = one_run(args, paths, logdir, run, procs, offset)
        print_timeline(results[name], label, args, setup)
    return results


def set_up(args, paths, procs, logdir):
    """From leftovers of an aborted run to a converged network."""
    step("Cleaning up leftovers of an earlier run")
    nprocs, nns = cleanup()
    print("  {} processes stopped, {} namespaces removed".format(nprocs, nns))
    step("Topology: sender -- pe1 == p ==TBF {} Mb/s==[delay {:g} ms RTT]== pe2 -- receiver "
         "(namespaces {}-*)".format(args.tbf_mbit, args.rtt_ms, PREFIX))
    build_topology(args)
    procs.append(start_delay_line(args, paths, logdir))
    step("Starting FRR (pnc build in {}): {} with PNC, cnpproxyd on pe1 and p".format(
        args.frr_root, args.igp_name))
    return bring_up_control_plane(args, paths)


def out_dirs(args, parents):
    """args.out and its logs/ made: (out, logdir).  FRR's configuration and
    state directories go to parents, to be removed at the end if this run
    makes them."""
    out = os.path.abspath(args.out)
    logdir = os.path.join(out, "logs")
    os.makedirs(logdir, exist_ok=True)
    parents.extend(d for d in ("/etc/frr", "/var/run/frr") if not os.path.isdir(d))
    return out, logdir


def demo(args, paths, procs, parents):
    """The whole demo; returns the exit status."""
    out, logdir = out_dirs(args, parents)
    setup = set_up(args, paths, procs, logdir)
    if args.flows > 1:
        return flows_demo(args, paths, procs, setup, out, logdir)

    # A host stall can spoil a --short verdict; those runs are repeated once.
    attempts = 2 if args.short else 1
    for attempt in range(1, attempts + 1):
        results = both_runs(args, paths, logdir, procs, setup)
        ok, sentences = verdict(results, args)
        stalled = max(r["stall_ms"] for r in results.values()) > STALL_MS
        if ok or not stalled or attempt == attempts:
            break
        step("The host stalled during a run: repeating both runs once")
    for router in ("p", "pe1"):
        shutil.copy(os.path.join(run_dir(router), "cnpproxyd.log"),
                    os.path.join(logdir, "cnpproxyd-{}.log".format(router)))

    print_comparison(results, args)
    png, raw = write_outputs(results, args, setup, out)
    step("Verdict")
    for sentence in sentences:
        print("  " + sentence)
    print("  plot: {}\n  raw series: {}\n  logs: {}".format(png, raw, logdir))
    return 0 if ok or not args.short else 1


def main(argv):
    args = parse_args(argv)
    if args.print_config:
        print(frr_conf(args.print_config, args), end="")
        return 0
    return run_torn_down("demo", args, demo)


def run_torn_down(prog, args, body, paths_of=tool_paths):
    """body(args, paths, procs, parents) as root, alone (single_instance),
    with the tools paths_of(args) finds; everything torn down at the end,
    also on Ctrl-C, SIGTERM and errors.  The exit status."""
    if os.geteuid() != 0:
        print("{0}: needs root (network namespaces): sudo make {0}".format(prog),
              file=sys.stderr)
        return 1
    try:
        paths = paths_of(args)
    except DemoError as exc:
        print("{}: {}".format(prog, exc), file=sys.stderr)
        return 1
    lock = single_instance()  # held until the process exits
    if lock is None:
        print("{}: another pnc demo is running".format(prog), file=sys.stderr)
        return 1
    # Ctrl-C tears down even when started with SIGINT ignored (a
    # non-interactive shell's background job).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, on_sigterm)
    procs, parents = [], []
    status = 1
    started = time.monotonic()
    try:
        status = body(args, paths, procs, parents)
    except KeyboardInterrupt:
        print("\n{}: interrupted".format(prog))
        status = 130
    except Terminated:
        print("\n{}: terminated".format(prog))
        status = 143
    except DemoError as exc:
        print("\n{}: {}".format(prog, exc), file=sys.stderr)
        status = 1
    finally:
        # Nothing may stop the teardown half-way.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        try:
            step("Tearing down")
        except OSError:
            pass  # stdout is gone (a reader that quit): tear down all the same
        cleanup(procs, parents)
        print("  done ({:.0f} s in all)".format(time.monotonic() - started))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
