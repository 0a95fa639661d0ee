#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""pnc-reflect and pnc-flood's replies between two network namespaces:
gen -- dut, one veth pair.

Each reflector (sendto, mmsg, AF_XDP, XDP) answers every one of 500
paced datagrams, each about a flow of its own, and pnc-flood matches
every reply to its datagram by the QPN the reflector copied (a wrong
offset or a wrong copy leaves replies unmatched); the sink on gen counts
them too, and the reflector's own count agrees.  The sink in drop mode
on dut answers nothing and counts everything.  Every XDP program is gone
when its process has stopped, also when it was killed with SIGKILL.  Bad
arguments are refused with exit status 2.
The test creates and removes its own namespaces; it needs root.
"""

import json
import os
import signal
import subprocess
import sys
import time

BUILD = os.environ.get("PNC_BUILDDIR", "build")
REFLECT = os.path.join(BUILD, "tools/reflect/pnc-reflect")
FLOOD = os.path.join(BUILD, "tools/flood/pnc-flood")
PID = os.getpid()
NS_G, NS_D = ("pncrf{}{}".format(PID, x) for x in "gd")
G4, D4 = "203.0.113.1", "203.0.113.2"
# A flow per datagram: a reply however late still finds its datagram.
PORT, QPN_OFF, QPN_BASE, FLOWS, COUNT = 61800, 4, 0x100, 500, 500
PAYLOAD = "00" * 64


def sh(*args):
    subprocess.run(args, check=True)


def ns(name, *args, **kw):
    return subprocess.run(["ip", "netns", "exec", name] + list(args), **kw)


def setup():
    for n in (NS_G, NS_D):
        sh("ip", "netns", "add", n)
    sh("ip", "link", "add", "gen0", "netns", NS_G, "type", "veth", "peer", "name", "dut0",
       "netns", NS_D)
    for n, dev, addr in ((NS_G, "gen0", G4), (NS_D, "dut0", D4)):
        sh("ip", "-n", n, "addr", "add", addr + "/24", "dev", dev)
        sh("ip", "-n", n, "link", "set", dev, "up")
        sh("ip", "-n", n, "link", "set", "lo", "up")
    ns(NS_G, "ping", "-c", "1", "-W", "2", D4, check=True, stdout=subprocess.DEVNULL)


def teardown():
    for n in (NS_G, NS_D):
        subprocess.run(["ip", "netns", "del", n], stderr=subprocess.DEVNULL)


def start(name, *args):
    p = subprocess.Popen(["ip", "netns", "exec", name, REFLECT] + [str(a) for a in args],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.5)
    assert p.poll() is None, p.communicate()
    return p


def stop(p):
    p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=10)
    assert p.returncode == 0, err
    return json.loads(out)


def flood(*opts):
    out = ns(NS_G, FLOOD, "--dst", D4, "--port", str(PORT), "--payload", PAYLOAD,
             *[str(o) for o in opts], capture_output=True, text=True, timeout=60)
    return out.returncode, out.stdout, out.stderr


def has_xdp(name, dev):
    out = ns(name, "ip", "-j", "-d", "link", "show", dev, capture_output=True, text=True)
    return bool(json.loads(out.stdout)[0].get("xdp"))


def check_reflector(mode):
    sink = start(NS_G, "sink", "--pass", "--dev", "gen0")
    ref = start(NS_D, mode, "--dev", "dut0", "--port", PORT, "--qpn-off", QPN_OFF)
    rc, out, err = flood("--count", COUNT, "--rate", 5000, "--vary-qpn",
                         "{}:{}:{}".format(QPN_OFF, QPN_BASE, FLOWS), "--replies", QPN_BASE)
    assert rc == 0, err
    r = json.loads(out)
    refl, sunk = stop(ref), stop(sink)
    assert r["sent"] == COUNT and r["replies"] == COUNT, (mode, r)
    lat = r["latency_us"]
    assert 0 < lat["p50"] <= lat["p90"] <= lat["p99"] <= lat["max"], (mode, lat)
    assert refl["packets"] == COUNT, (mode, refl)
    if mode in ("xsk", "xdp"):
        assert refl["matched"] == COUNT, (mode, refl)
    assert sunk["packets"] == COUNT, (mode, sunk)
    assert not has_xdp(NS_D, "dut0") and not has_xdp(NS_G, "gen0"), mode
    print("ok {}: {}".format(mode, r))


def check_sink_drops():
    sink = start(NS_D, "sink", "--dev", "dut0", "--port", PORT)
    rc, out, err = flood("--count", COUNT, "--rate", 10000)
    assert rc == 0, err
    got = stop(sink)
    assert json.loads(out)["sent"] == COUNT and got["packets"] == COUNT, (out, got)
    assert got["matched"] == COUNT, got
    print("ok sink drops: {}".format(got))


def check_killed_leaves_nothing():
    "A reflector killed with SIGKILL leaves no XDP program on the interface."
    for mode in ("xdp", "xsk", "sink"):
        p = start(NS_D, mode, "--dev", "dut0", "--port", PORT)
        assert has_xdp(NS_D, "dut0"), mode
        p.kill()
        p.communicate(timeout=10)
        deadline = time.monotonic() + 5
        while has_xdp(NS_D, "dut0") and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not has_xdp(NS_D, "dut0"), mode
    print("ok killed reflectors leave nothing attached")


def check_refusals():
    for args in (["bogus", "--dev", "dut0"], ["xdp"], ["xdp", "--dev", "nosuchdev0"],
                 ["xdp", "--dev", "dut0", "--port", "0"],
                 ["xdp", "--dev", "dut0", "--qpn-off", "5000"], ["sink", "--dev", "dut0", "x"]):
        p = ns(NS_D, REFLECT, *args, capture_output=True, text=True)
        assert p.returncode == 2 and "usage" in p.stderr, (args, p)
    for opts in (["--count", 1, "--replies", 0],  # replies need flows and a rate
                 ["--count", 1, "--rate", 10, "--replies", 0],
                 ["--count", 1, "--vary-qpn", "64:0:1"],  # past the payload
                 ["--count", 1, "--vary-qpn", "4:0:0"],
                 ["--count", 1, "--rate", 10, "--burst", 0]):
        rc, _, err = flood(*opts)
        assert rc == 2 and "usage" in err, (opts, rc, err)
    print("ok refusals")


def main():
    teardown()
    setup()
    try:
        for mode in ("sendto", "mmsg", "xsk", "xdp"):
            check_reflector(mode)
        check_sink_drops()
        check_killed_leaves_nothing()
        check_refusals()
    finally:
        teardown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
