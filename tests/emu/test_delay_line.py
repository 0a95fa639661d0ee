#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""pnc-delay-line between three network namespaces: a -- line -- b.

a and b are hosts on one subnet; the line's namespace has a veth towards
each and no addresses (IPv6 off there, so that every frame it counts is
a's or b's).  Checks: with 20 ms one way the ping RTT is in [40, 60) ms;
IPv6 neighbour discovery works through it; a burst of 500 UDP datagrams
(checksum left to offload) arrives complete and in order; a 20 MB TCP
transfer (GSO super-frames) arrives intact; a VLAN tag survives; the
counters add up; an oversized frame is counted as EMSGSIZE; a short
queue limit tail-drops; the idle line sleeps; with the line stopped
nothing gets through.  The test creates and removes its own namespaces;
it needs root.
"""

import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

BUILD = os.environ.get("PNC_BUILDDIR", "build")
LINE = os.path.join(BUILD, "tools/delay-line/pnc-delay-line")
PID = os.getpid()
NS_A, NS_L, NS_B = ("pncdl{}{}".format(PID, x) for x in "alb")
A4, B4 = "203.0.113.1", "203.0.113.2"
A6, B6 = "2001:db8:d1::1", "2001:db8:d1::2"
DIRS = ("a_to_b", "b_to_a")

UDP_RECV = """
import json, socket, struct, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
s.bind(("0.0.0.0", 5555))
s.settimeout(float(sys.argv[1]))
print("ready", flush=True)
seqs = []
try:
    while len(seqs) < 500:
        seqs.append(struct.unpack("!I", s.recv(2048)[:4])[0])
except socket.timeout:
    pass
print(json.dumps(seqs))
"""

UDP_BURST = """
import socket, struct, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 << 20)
for i in range(500):
    s.sendto(struct.pack("!I", i) + b"d" * 200, (sys.argv[1], 5555))
"""

TCP_RECV = """
import hashlib, socket
s = socket.socket()
s.bind(("0.0.0.0", 5556))
s.listen(1)
print("ready", flush=True)
c, _ = s.accept()
h, n = hashlib.sha256(), 0
while True:
    d = c.recv(1 << 16)
    if not d:
        break
    h.update(d)
    n += len(d)
print(n, h.hexdigest())
"""

TCP_SEND = """
import socket, sys
data = bytes(range(256)) * 4096 * 20
socket.create_connection((sys.argv[1], 5556)).sendall(data)
"""

# A tagged frame sent raw from a; b's side reads the tag from the
# metadata its kernel moved it into (PACKET_AUXDATA).
VLAN_SEND = """
import socket, sys
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((sys.argv[1], 0))
s.send(b"\\xff" * 6 + b"\\x02\\0\\0\\0\\0\\x01" + b"\\x81\\x00\\x00\\x64" + b"\\x88\\xb5"
       + b"PNCVLAN" + bytes(40))
"""

VLAN_RECV = """
import socket, struct, sys
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
s.bind((sys.argv[1], 0))
s.setsockopt(263, 8, 1)  # SOL_PACKET, PACKET_AUXDATA
s.settimeout(3)
print("ready", flush=True)
while True:
    d, anc, _, _ = s.recvmsg(4096, 256)
    if b"PNCVLAN" in d:
        break
tci = [struct.unpack("IIIHHHH", a[2][:20])[5] for a in anc if a[:2] == (263, 8)]
print(tci[0] if tci else -1, d[12:14].hex())
"""


def sh(*args, **kw):
    return subprocess.run(args, check=True, **kw)


def ns(name, *args, **kw):
    return subprocess.run(["ip", "netns", "exec", name] + list(args), **kw)


def setup():
    for n in (NS_A, NS_L, NS_B):
        sh("ip", "netns", "add", n)
    sh("ip", "link", "add", "a0", "netns", NS_A, "type", "veth", "peer", "name", "la",
       "netns", NS_L)
    sh("ip", "link", "add", "b0", "netns", NS_B, "type", "veth", "peer", "name", "lb",
       "netns", NS_L)
    for dev in ("la", "lb"):
        sh("ip", "netns", "exec", NS_L, "sysctl", "-qw",
           "net.ipv6.conf.{}.disable_ipv6=1".format(dev))
        sh("ip", "-n", NS_L, "link", "set", dev, "up")
    for n, dev, v4, v6 in ((NS_A, "a0", A4, A6), (NS_B, "b0", B4, B6)):
        sh("ip", "-n", n, "addr", "add", v4 + "/24", "dev", dev)
        sh("ip", "-n", n, "addr", "add", v6 + "/64", "dev", dev, "nodad")
        sh("ip", "-n", n, "link", "set", dev, "up")
        sh("ip", "-n", n, "link", "set", "lo", "up")


def teardown():
    for n in (NS_A, NS_L, NS_B):
        subprocess.run(["ip", "netns", "del", n], stderr=subprocess.DEVNULL)


class Line:
    """pnc-delay-line running in the line's namespace."""

    def __init__(self, delay_ms, *extra):
        self.stats = tempfile.NamedTemporaryFile(prefix="pncdl", suffix=".json", delete=False).name
        self.p = subprocess.Popen(["ip", "netns", "exec", NS_L, LINE, "--a", "la", "--b", "lb",
                                   "--delay-ms", str(delay_ms), "--stats", self.stats]
                                  + list(extra), stdout=subprocess.PIPE, text=True)
        ready = json.loads(self.p.stdout.readline())
        assert ready["event"] == "ready" and ready["delay_us"] == int(delay_ms * 1000), ready

    def cpu_ticks(self):
        with open("/proc/{}/stat".format(self.p.pid)) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime + stime

    def drained(self, timeout=10):
        """Wait until the counters the line writes every second say that
        nothing is queued either way: the last frames are out, not cut off
        by the stop (on a busy machine the stop can follow them closely)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                with open(self.stats) as f:
                    c = json.load(f)
                if all(c[d]["queued"] == 0 for d in DIRS):
                    return
            except (OSError, ValueError, KeyError):
                c = None  # not written yet, or being written
            assert time.monotonic() < deadline, "the line's queues not empty within {} s: {}".format(
                timeout, c)
            time.sleep(0.1)  # the poll's interval, not a wait of its own

    def stop(self):
        self.p.send_signal(signal.SIGTERM)
        out, _ = self.p.communicate(timeout=10)
        assert self.p.returncode == 0, self.p.returncode
        final = json.loads(out.splitlines()[-1])
        with open(self.stats) as f:
            assert json.load(f) == final
        os.unlink(self.stats)
        assert final["event"] == "exit", final
        for d in DIRS:
            c = final[d]
            # every frame read is forwarded, dropped, failed or still queued
            assert c["rx"] == (c["forwarded"] + c["dropped_full"] + c["dropped_oversize"]
                               + c["send_errors"] + c["queued"]), c
            assert c["kernel_drops"] == 0 and c["rx_errors"] == 0, c
        return final

    def kill(self):
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()
        if os.path.exists(self.stats):
            os.unlink(self.stats)


def ping_rtts(name, dst, count, *opts):
    out = ns(name, "ping", "-n", "-c", str(count), "-i", "0.1", "-W", "1", *opts, dst,
             stdout=subprocess.PIPE, text=True)
    return out.returncode, [float(x) for x in re.findall(r"time=([\d.]+) ms", out.stdout)]


def start_reader(name, script, *args):
    p = subprocess.Popen(["ip", "netns", "exec", name, "/usr/bin/python3", "-c", script]
                         + list(args), stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "ready"
    return p


def check_rtt():
    rc, _ = ping_rtts(NS_A, B4, 1)  # ARP, delayed both ways too
    assert rc == 0
    rc, rtts = ping_rtts(NS_A, B4, 10)
    assert rc == 0 and len(rtts) == 10, rtts
    assert all(40.0 <= r < 60.0 for r in rtts), rtts
    return rtts


def check_nd():
    for n, dev in ((NS_A, "a0"), (NS_B, "b0")):
        sh("ip", "-n", n, "-6", "neigh", "flush", "dev", dev)
    rc, rtts = ping_rtts(NS_A, B6, 3)
    assert rc == 0 and len(rtts) == 3, rtts
    assert all(r >= 40.0 for r in rtts), rtts
    mac_b = sh("ip", "-n", NS_B, "-j", "link", "show", "b0", stdout=subprocess.PIPE,
               text=True).stdout
    mac_b = json.loads(mac_b)[0]["address"]
    neigh = sh("ip", "-n", NS_A, "-6", "neigh", "show", B6, "dev", "a0", stdout=subprocess.PIPE,
               text=True).stdout
    assert "lladdr " + mac_b in neigh, neigh


def udp_burst(timeout=2.0):
    rx = start_reader(NS_B, UDP_RECV, str(timeout))
    ns(NS_A, "/usr/bin/python3", "-c", UDP_BURST, B4, check=True)
    out, _ = rx.communicate(timeout=30)
    return json.loads(out)


def check_tcp():
    rx = start_reader(NS_B, TCP_RECV)
    ns(NS_A, "/usr/bin/python3", "-c", TCP_SEND, B4, check=True, timeout=60)
    out, _ = rx.communicate(timeout=60)
    want = hashlib.sha256(bytes(range(256)) * 4096 * 20).hexdigest()
    assert out.split() == [str(20 * 1024 * 1024), want], out


def check_vlan():
    rx = start_reader(NS_B, VLAN_RECV, "b0")
    ns(NS_A, "/usr/bin/python3", "-c", VLAN_SEND, "a0", check=True)
    out, _ = rx.communicate(timeout=10)
    assert out.split()[0] == "100", out


def main():
    if not os.access(LINE, os.X_OK):
        print("not built: " + LINE)
        return 1
    teardown()
    setup()
    line = None
    t0 = time.monotonic()
    try:
        line = Line(20)
        # Sleeps while idle: no CPU to speak of in a second.
        ticks = line.cpu_ticks()
        time.sleep(1.0)
        assert line.cpu_ticks() - ticks <= 2, "busy while idle"
        rtts = check_rtt()
        print("ok: 20 ms one way: RTT {:.1f}..{:.1f} ms".format(min(rtts), max(rtts)))
        check_nd()
        print("ok: IPv6 neighbour discovery through the line")
        seqs = udp_burst()
        assert seqs == list(range(500)), (len(seqs), seqs[:10])
        print("ok: 500 UDP datagrams, complete and in order")
        check_tcp()
        print("ok: 20 MB over TCP intact (GSO, checksum offload)")
        check_vlan()
        print("ok: VLAN tag kept")
        line.drained()
        c = line.stop()
        line = None
        ab, ba = c["a_to_b"], c["b_to_a"]
        assert ab["forwarded"] >= 500 + 11 + 3 and ba["forwarded"] >= 11 + 3, c
        assert ab["max_queue"] >= 250 and ab["dropped_full"] == 0, ab
        assert ab["send_errors"] == 0 and ba["send_errors"] == 0, c
        assert ab["vlan_restored"] == 1 and ba["vlan_restored"] == 0, c
        assert ab["queued"] == 0 and ba["queued"] == 0, c
        print("ok: counters: a_to_b {} forwarded (max queue {}), b_to_a {}".format(
            ab["forwarded"], ab["max_queue"], ba["forwarded"]))

        rc, rtts = ping_rtts(NS_A, B4, 2)
        assert rc != 0 and not rtts, rtts
        print("ok: line stopped, no reachability")

        # Above lb's MTU and not GSO: the send fails and is counted.
        line = Line(5)
        for n, dev in ((NS_A, "a0"), (NS_L, "la")):
            sh("ip", "-n", n, "link", "set", dev, "mtu", "9000")
        rc, _ = ping_rtts(NS_A, B4, 1, "-M", "do", "-s", "4000")
        assert rc != 0
        c = line.stop()
        line = None
        assert c["a_to_b"]["send_emsgsize"] == 1 and c["a_to_b"]["send_errors"] == 1, c
        for n, dev in ((NS_A, "a0"), (NS_L, "la")):
            sh("ip", "-n", n, "link", "set", dev, "mtu", "1500")
        print("ok: oversized frame counted as EMSGSIZE")

        # A queue of 100 frames for 50 ms: the burst's tail is dropped.
        line = Line(50, "--limit", "100")
        seqs = udp_burst(timeout=1.0)
        c = line.stop()
        line = None
        ab = c["a_to_b"]
        # an ARP probe may take one of the 100 places
        assert 90 <= len(seqs) < 500 and seqs == sorted(seqs), seqs
        assert ab["max_queue"] == 100 and ab["dropped_full"] >= 500 - len(seqs), ab
        print("ok: --limit 100: {} of 500 delivered in order, {} tail-dropped".format(
            len(seqs), ab["dropped_full"]))
        print("done in {:.1f} s".format(time.monotonic() - t0))
    finally:
        if line:
            line.kill()
        teardown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
