# SPDX-License-Identifier: GPL-2.0-or-later
"""What the BPF tests share: commands in the namespaces they create, the
sender - router - receiver chain two of them build, raw sends, pnc-pkt
and the checks before a test runs."""

import json
import os
import subprocess

# The chain's addresses: sender, router's two sides, receiver.
V4 = {"snd": "192.0.2.1", "rcv": "198.51.100.2"}
V6 = {"snd": "2001:db8:1::1", "rcv": "2001:db8:2::2"}


def sh(*args):
    subprocess.run(args, check=True)


def nsx(ns, *args):
    return ["ip", "netns", "exec", ns] + list(args)


def chain(ns_s, ns_p, ns_r):
    """sender s0 --- p0 router p1 --- r0 receiver, the router forwarding."""
    for ns in (ns_s, ns_p, ns_r):
        sh("ip", "netns", "add", ns)
        sh("ip", "-n", ns, "link", "set", "lo", "up")
    # Created inside the namespaces: nothing appears in the caller's.
    sh("ip", "-n", ns_p, "link", "add", "p0", "type", "veth", "peer", "name", "s0",
       "netns", ns_s)
    sh("ip", "-n", ns_p, "link", "add", "p1", "type", "veth", "peer", "name", "r0",
       "netns", ns_r)
    for ns, dev, v4, v6 in ((ns_s, "s0", "192.0.2.1/24", "2001:db8:1::1/64"),
                            (ns_p, "p0", "192.0.2.254/24", "2001:db8:1::fe/64"),
                            (ns_p, "p1", "198.51.100.254/24", "2001:db8:2::fe/64"),
                            (ns_r, "r0", "198.51.100.2/24", "2001:db8:2::2/64")):
        sh("ip", "-n", ns, "addr", "add", v4, "dev", dev)
        sh("ip", "-n", ns, "addr", "add", v6, "dev", dev, "nodad")
        sh("ip", "-n", ns, "link", "set", dev, "up")
    for ns, gw4, gw6 in ((ns_s, "192.0.2.254", "2001:db8:1::fe"),
                         (ns_r, "198.51.100.254", "2001:db8:2::fe")):
        sh("ip", "-n", ns, "route", "add", "default", "via", gw4)
        sh("ip", "-n", ns, "-6", "route", "add", "default", "via", gw6)
    sh(*nsx(ns_p, "sysctl", "-q", "-w", "net.ipv4.ip_forward=1"))
    sh(*nsx(ns_p, "sysctl", "-q", "-w", "net.ipv6.conf.all.forwarding=1"))


def remove(*namespaces):
    for ns in namespaces:
        subprocess.run(["ip", "netns", "del", ns], stderr=subprocess.DEVNULL)


def ifindex(ns, dev):
    out = subprocess.run(["ip", "-n", ns, "-j", "link", "show", dev], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    return json.loads(out)[0]["ifindex"]


# IP packets (hex) sent as they are, through raw sockets.
SEND_RAW = """
import socket, sys
for h in sys.argv[1:]:
    pkt = bytes.fromhex(h)
    if pkt[0] >> 4 == 4:
        s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
        s.sendto(pkt, (socket.inet_ntoa(pkt[16:20]), 0))
    else:
        s = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_RAW)
        s.sendto(pkt, (socket.inet_ntop(socket.AF_INET6, pkt[24:40]), 0))
"""


def send_raw(ns, *pkts):
    """Send IP packets (bytes or hex) from ns."""
    sh(*nsx(ns, "/usr/bin/python3", "-c", SEND_RAW,
            *[p if isinstance(p, str) else p.hex() for p in pkts]))


def pnc_pkt_build(pkt, *args):
    """A packet pnc-pkt builds, as hex."""
    return subprocess.run([pkt, "build"] + list(args), stdout=subprocess.PIPE, text=True,
                          check=True).stdout.strip()


def events(lines, name, **match):
    """The JSON events of that name whose fields match."""
    return [e for e in lines if e["event"] == name and
            all(e.get(k) == v for k, v in match.items())]


def cannot_run(*tools):
    """The exit status for a test that cannot run (1: not built, 77: not root), or None."""
    for tool in tools:
        if not os.access(tool, os.X_OK):
            print("not built: " + tool)
            return 1
    if os.geteuid() != 0:
        print("SKIP: needs root")
        return 77
    return None
