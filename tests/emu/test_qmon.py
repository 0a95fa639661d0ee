#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""pnc-qmon on a shaped veth between two network namespaces.

A UDP flood far above a 10 Mbit/s TBF, then HTB, root qdisc: the tool
must report the kind and the configured rate, a backlog that builds up
while flooding and drains to ~0 afterwards, drops once the queue limit is
hit, and a dequeue rate near the shaping rate.  With HTB the backlog seen
on the root qdisc proves that HTB's root accounts its leaves' backlog
(so cnpproxyd need not sum the leaves).  Also: only the classes right
under the HTB root make its rate, and a noqueue interface reads as such.
The test creates and removes its own namespaces; it needs root.
"""

import json
import os
import subprocess
import sys
import time

BUILD = os.environ.get("PNC_BUILDDIR", "build")
QMON = os.path.join(BUILD, "tools/qmon/pnc-qmon")
NS = ("pncqm{}a".format(os.getpid()), "pncqm{}b".format(os.getpid()))
DEV, PEER = "pncqm0", "pncqm1"
DST = "198.51.100.2"
RATE = 10000000

# Non-blocking, with a send buffer far above the qdisc limit, so that the
# socket never throttles the flood before the qdisc drops.
FLOOD = """
import socket, sys, time
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, 32, 16 << 20)  # SO_SNDBUFFORCE
s.setblocking(False)
buf, end = b"q" * 1200, time.monotonic() + float(sys.argv[2])
while time.monotonic() < end:
    try:
        s.sendto(buf, (sys.argv[1], 9))
    except OSError:
        time.sleep(0.0005)
"""


def sh(*args):
    subprocess.run(args, check=True)


def tc(*args):
    sh("ip", "netns", "exec", NS[0], "tc", *args)


def setup():
    for ns in NS:
        sh("ip", "netns", "add", ns)
    sh("ip", "link", "add", DEV, "netns", NS[0], "type", "veth", "peer", "name", PEER,
       "netns", NS[1])
    for ns, dev, addr in ((NS[0], DEV, "198.51.100.1/24"), (NS[1], PEER, DST + "/24")):
        sh("ip", "-n", ns, "addr", "add", addr, "dev", dev)
        sh("ip", "-n", ns, "link", "set", dev, "up")


def teardown():
    for ns in NS:
        subprocess.run(["ip", "netns", "del", ns], stderr=subprocess.DEVNULL)


def qmon(ns, dev, *args):
    out = subprocess.run(["ip", "netns", "exec", ns, QMON, "--dev", dev] + list(args),
                         stdout=subprocess.PIPE, text=True, timeout=60)
    return out.returncode, [json.loads(line) for line in out.stdout.splitlines()]


def flood_and_watch(kind):
    """Samples every 100 ms: 0.5 s idle, 1.5 s flood, then the drain."""
    mon = subprocess.Popen(["ip", "netns", "exec", NS[0], QMON, "--dev", DEV,
                            "--interval-ms", "100", "--count", "45"],
                           stdout=subprocess.PIPE, text=True)
    time.sleep(0.5)
    sh("ip", "netns", "exec", NS[0], "/usr/bin/python3", "-c", FLOOD, DST, "1.5")
    out, _ = mon.communicate(timeout=30)
    assert mon.returncode == 0, mon.returncode
    samples = [json.loads(line) for line in out.splitlines()]
    assert len(samples) == 45, len(samples)
    for s in samples:
        assert s["kind"] == kind and s["rate_bps"] == RATE, s
    assert samples[0]["rates"] is None and all(s["rates"] for s in samples[1:])
    return samples


def check_shaped(samples):
    peak = max(s["backlog_bytes"] for s in samples)
    assert peak > 200000, "backlog never built up: {}".format(peak)
    last = samples[-1]
    assert last["backlog_bytes"] < 3000 and last["backlog_pkts"] < 3, last
    assert last["drops"] > samples[0]["drops"], "no drops over the limit"
    assert max(s["rates"]["drop_pps"] for s in samples[1:]) > 0
    # While the queue is standing, the dequeue rate is the shaping rate.
    busy = [cur["rates"] for prev, cur in zip(samples, samples[1:])
            if prev["backlog_bytes"] > 50000 and cur["backlog_bytes"] > 50000]
    assert len(busy) >= 5, len(busy)
    for r in busy:
        assert 0.8 * RATE < r["tx_bps"] < 1.2 * RATE, r
        assert r["qdelay_us"] > 0 and 800 < r["util_permille"] < 1200, r
    assert min(s["rates"]["growth_Bps"] for s in samples[1:]) < 0, "no drain seen"
    assert max(s["rates"]["growth_Bps"] for s in samples[1:]) > 0, "no growth seen"
    return peak


def check_tbf():
    tc("qdisc", "replace", "dev", DEV, "root", "tbf", "rate", "10mbit", "burst", "32kb",
       "limit", "1mb")
    peak = check_shaped(flood_and_watch("tbf"))
    assert peak <= 1024 * 1024 + 1500, peak  # TBF's limit holds the backlog
    tc("qdisc", "del", "dev", DEV, "root")


def check_htb():
    tc("qdisc", "replace", "dev", DEV, "root", "handle", "1:", "htb", "default", "10")
    tc("class", "add", "dev", DEV, "parent", "1:", "classid", "1:10", "htb", "rate", "10mbit")
    # The leaf's (pfifo) backlog is what builds up: seen on the root, so
    # HTB's root qdisc includes it.
    check_shaped(flood_and_watch("htb"))
    tc("qdisc", "del", "dev", DEV, "root")


def check_htb_root_classes():
    tc("qdisc", "replace", "dev", DEV, "root", "handle", "1:", "htb", "default", "20")
    tc("class", "add", "dev", DEV, "parent", "1:", "classid", "1:1", "htb", "rate", "10mbit")
    tc("class", "add", "dev", DEV, "parent", "1:1", "classid", "1:10", "htb", "rate", "4mbit",
       "ceil", "10mbit")
    tc("class", "add", "dev", DEV, "parent", "1:1", "classid", "1:20", "htb", "rate", "6mbit",
       "ceil", "10mbit")
    rc, s = qmon(NS[0], DEV, "--count", "1")
    assert rc == 0 and s[0]["kind"] == "htb" and s[0]["rate_bps"] == RATE, s
    # A second class under the root adds its rate.
    tc("class", "add", "dev", DEV, "parent", "1:", "classid", "1:2", "htb", "rate", "5mbit")
    rc, s = qmon(NS[0], DEV, "--count", "1")
    assert rc == 0 and s[0]["rate_bps"] == RATE + 5000000, s
    tc("qdisc", "del", "dev", DEV, "root")


def check_plain_and_errors():
    rc, s = qmon(NS[1], PEER, "--count", "2", "--interval-ms", "10")
    assert rc == 0 and [x["kind"] for x in s] == ["noqueue"] * 2, s
    assert s[0]["rate_bps"] == 0 and s[1]["rates"]["qdelay_us"] == 0, s
    out = subprocess.run(["ip", "netns", "exec", NS[0], QMON, "--dev", "nonexistent0"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert out.returncode == 1 and out.stdout == "", out


def main():
    if not os.access(QMON, os.X_OK):
        print("not built: " + QMON)
        return 1
    teardown()
    setup()
    try:
        t0 = time.monotonic()
        check_tbf()
        print("ok: tbf: kind, rate, backlog up and drained, drops, dequeue rate")
        check_htb()
        print("ok: htb: kind, root class rate, root backlog includes the leaf's, drops")
        check_htb_root_classes()
        print("ok: htb rate = sum of the classes right under the root")
        check_plain_and_errors()
        print("ok: noqueue interface; unknown interface refused")
        print("done in {:.1f} s".format(time.monotonic() - t0))
    finally:
        teardown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
