#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The congestion point's tc egress program (cnpproxyd/cp/mark.bpf.c) end to end.

Three namespaces the test creates and removes (root needed):

    sender  s0 --- p0  router  p1 --- r0  receiver
    192.0.2.1    .254     198.51.100.254  198.51.100.2
    2001:db8:1::1  ::fe   2001:db8:2::fe  2001:db8:2::2

pnc-tc-mark runs on the router's receiver-facing egress p1.  The sender
sends crafted packets through raw sockets (RoCEv2 ones from pnc-pkt,
tunnels and the rest built here); the receiver captures them with an
AF_PACKET socket.  Checked, from what arrives: no state or a zero state
changes nothing; CE marking of ECT(0)/ECT(1) with valid IPv4 checksums
(options too), Not-ECT and CE untouched, only the outer header of a
tunnel; ECT(0) to ECT(1); CE winning over ECT(1); a 50 % ECT(1)
probability; IPv4 and IPv6.  From the samples: plain IPv4/IPv6 RoCEv2
with their addresses and DestQP, IPv4-in-IPv6 and IPv6-in-IPv6 after an
SRH with the tunnelled flag, outer source, flow label and inner header
offset; the data equal to the packet that arrived; one sample per flow
and interval; no samples of non-RoCE or Not-ECT packets.  Counters add
up, and the interface's own counters match the program's.  Detach
removes our tcx link (or, on kernels without tcx, our filter and the
clsact qdisc only if it created it), next to a TBF root qdisc and next
to someone else's filter, which runs after ours on every packet (the
program gives no verdict).  Fail-safe: after SIGKILL nothing is marked;
a stopped (hung) marker stops marking when its state's lifetime ends.
The clsact filter of kernels without tcx, forced with --tc-filter: it
marks; left by a killed marker it stops marking when its state expires,
and the next marker takes its place; a clsact it made stays while
another filter uses it; someone else's filter at our priority is never
touched.
"""

import json
import os
import signal
import socket
import struct
import subprocess
import sys
import time

from netns import V4, V6, chain, cannot_run, ifindex, nsx, pnc_pkt_build, remove, sh

BUILD = os.environ.get("PNC_BUILDDIR", "build")
MARK = os.path.join(BUILD, "tools/tc-mark/pnc-tc-mark")
PKT = os.path.join(BUILD, "tools/pnc-pkt/pnc-pkt")
TAG = "pnctm{}".format(os.getpid())
NS_S, NS_P, NS_R = TAG + "s", TAG + "p", TAG + "r"

NOT_ECT, ECT1, ECT0, CE = 0, 1, 2, 3
ONE = 65536
COUNTERS = ("seen", "no_state", "not_ip", "parse_error", "not_ect", "ecn_capable",
            "marked_ect1", "marked_ce", "mark_error", "roce", "tunnelled", "truncated",
            "sampled", "sample_suppressed", "ringbuf_full", "sample_error", "stale")
OUR_HANDLE = "0x706e63"
END_MARK = b"pnc-tc-mark test: end"


def setup():
    chain(NS_S, NS_P, NS_R)
    # Neighbours resolved before anything is counted (until DAD of the
    # link-local addresses is over, IPv6 does not answer).
    for dst in (V4["rcv"], V6["rcv"]):
        subprocess.run(nsx(NS_S, "ping", "-q", "-c", "1", "-i", "0.2", "-w", "10", dst),
                       check=True, stdout=subprocess.DEVNULL)


def teardown():
    remove(NS_S, NS_P, NS_R)


def qdisc_kinds(dev="p1"):
    out = subprocess.run(["tc", "-n", NS_P, "-j", "qdisc", "show", "dev", dev], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    return [q["kind"] for q in json.loads(out)]


def links_of(prog_id):
    """tcx links (anywhere) that run program prog_id: every pnc-tc-mark loads
    its own, so other tests running at the same time do not count."""
    out = subprocess.run(["bpftool", "-j", "link", "show"], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    return [ln for ln in json.loads(out or "[]") if ln.get("prog_id") == prog_id]


def egress_filters(dev="p1"):
    out = subprocess.run(["tc", "-n", NS_P, "filter", "show", "dev", dev, "egress"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    return out


# --- packets ----------------------------------------------------------------

def build(*args):
    return bytes.fromhex(pnc_pkt_build(PKT, *args))


def roce4(ecn, dqpn, src=V4["snd"], dst=V4["rcv"], psn=1):
    return build("rc-write", "only", "src=" + src, "dst=" + dst, "ecn=%d" % ecn,
                 "dqpn=%#x" % dqpn, "psn=%d" % psn, "payload-len=32")


def roce6(ecn, dqpn, src=V6["snd"], dst=V6["rcv"], fl=0):
    return build("rc-write", "only", "src=" + src, "dst=" + dst, "ecn=%d" % ecn,
                 "dqpn=%#x" % dqpn, "flow-label=%#x" % fl, "payload-len=32")


def ip4(proto, payload, ecn, opts=b"", frag_off=0, src=V4["snd"], dst=V4["rcv"]):
    "The kernel fills the checksum (and an IP ID of 0)."
    ihl = 5 + len(opts) // 4
    return struct.pack("!BBHHHBBH4s4s", 0x40 | ihl, ecn, ihl * 4 + len(payload), 0, frag_off,
                       64, proto, 0, socket.inet_aton(src), socket.inet_aton(dst)) + \
        opts + payload


def ip6(nh, payload, ecn, fl=0, src=V6["snd"], dst=V6["rcv"]):
    first = 6 << 28 | ecn << 20 | fl
    return struct.pack("!IHBB16s16s", first, len(payload), nh, 64,
                       socket.inet_pton(socket.AF_INET6, src),
                       socket.inet_pton(socket.AF_INET6, dst)) + payload


def udp(dport, payload, sport=0xc000):
    return struct.pack("!HHHH", sport, dport, 8 + len(payload), 0) + payload


def udp4(ecn, dport=None):
    "Not RoCEv2; the port tells the codepoints apart once ECN is masked."
    return ip4(17, udp(dport or 5000 + ecn, b"not roce" * 4), ecn)


def udp6(ecn, dport=None):
    return ip6(17, udp(dport or 5000 + ecn, b"not roce" * 4), ecn)


def with_options(pkt):
    "IPv4 with 4 octets of options (NOP NOP NOP EOL)."
    ihl = 6
    hdr = bytearray(pkt[:20])
    hdr[0] = 0x40 | ihl
    hdr[2:4] = struct.pack("!H", len(pkt) + 4)
    return bytes(hdr) + b"\x01\x01\x01\x00" + pkt[20:]


def srh(nh, segments):
    "IPv6 Segment Routing Header (RFC 8754), segments left 0."
    body = b"".join(socket.inet_pton(socket.AF_INET6, s) for s in segments)
    return struct.pack("!BBBBBBH", nh, len(body) // 8, 4, 0, len(segments) - 1, 0, 0) + body


def tunnel4(ecn, fl, inner):
    "IPv4 in IPv6 (next header 4)."
    return ip6(4, inner, ecn, fl=fl)


def tunnel6_srh(ecn, fl, inner):
    "IPv6 in IPv6 (41) after an SRH (43)."
    return ip6(43, srh(41, [V6["rcv"]]) + inner, ecn, fl=fl)


def ecn_of(ip):
    return ip[1] & 3 if ip[0] >> 4 == 4 else (ip[1] >> 4) & 3


def normalized(ip):
    "What the router and the kernel may change: TTL/hop limit, IPv4 ID and checksum, ECN."
    b = bytearray(ip)
    if b[0] >> 4 == 4:
        b[1] &= ~3 & 0xff
        b[4:6] = b"\0\0"
        b[8] = 0
        b[10:12] = b"\0\0"
    else:
        b[1] &= ~0x30 & 0xff
        b[7] = 0
    return bytes(b)


def ip4_csum_ok(ip):
    hdr = ip[:(ip[0] & 0x0f) * 4]
    s = sum(struct.unpack("!%dH" % (len(hdr) // 2), hdr))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return s == 0xffff


# --- sending and capturing --------------------------------------------------

SENDER = """
import json, socket, sys, time
s4 = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
s6 = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_RAW)
for item in json.load(sys.stdin):
    if "sleep" in item:
        time.sleep(item["sleep"])
        continue
    pkt = bytes.fromhex(item["hex"])
    for i in range(item["n"]):
        if pkt[0] >> 4 == 4:
            s4.sendto(pkt, (socket.inet_ntoa(pkt[16:20]), 0))
        else:
            s6.sendto(pkt, (socket.inet_ntop(socket.AF_INET6, pkt[24:40]), 0))
        if i % 50 == 49:
            time.sleep(0.002)   # never outrun the veth backlog
"""

CAPTURE = """
import json, select, socket, sys, time
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
s.setsockopt(socket.SOL_SOCKET, 33, 32 << 20)   # SO_RCVBUFFORCE: 1000 frames and more
s.bind(("r0", 0))
print("ready", flush=True)
frames, deadline = [], time.time() + float(sys.argv[2])
while time.time() < deadline:
    if not select.select([s], [], [], 0.2)[0]:
        continue
    data, addr = s.recvfrom(65535)
    if addr[2] == socket.PACKET_OUTGOING:
        continue
    if bytes.fromhex(sys.argv[1]) in data:
        break
    frames.append(data.hex())
json.dump(frames, sys.stdout)
"""


def ip_of_frame(frame):
    "The IP packet of an Ethernet frame (one 802.1Q tag allowed), or None."
    off, ethertype = 14, struct.unpack("!H", frame[12:14])[0]
    if ethertype == 0x8100:
        off, ethertype = 18, struct.unpack("!H", frame[16:18])[0]
    if ethertype == 0x0800:
        return frame[off:off + struct.unpack("!H", frame[off + 2:off + 4])[0]]
    if ethertype == 0x86dd:
        return frame[off:off + 40 + struct.unpack("!H", frame[off + 4:off + 6])[0]]
    return None


def send_and_capture(items):
    """items: (packet, count) or ("sleep", s).  The IP packets that arrived, in order."""
    cap = subprocess.Popen(nsx(NS_R, "/usr/bin/python3", "-c", CAPTURE, END_MARK.hex(), "20"),
                           stdout=subprocess.PIPE, text=True)
    assert cap.stdout.readline().strip() == "ready"
    todo = [{"sleep": n} if p == "sleep" else {"hex": p.hex(), "n": n} for p, n in items]
    # the end mark after a pause: whatever went before has arrived
    todo += [{"sleep": 0.2}, {"hex": udp4(NOT_ECT, 9).replace(b"not roce" * 4, END_MARK).hex(),
                              "n": 1}]
    try:
        subprocess.run(nsx(NS_S, "/usr/bin/python3", "-c", SENDER), input=json.dumps(todo),
                       text=True, check=True, timeout=60)
        out, _ = cap.communicate(timeout=30)
    finally:
        if cap.poll() is None:
            cap.kill()
            cap.wait()
    assert cap.returncode == 0, cap.returncode
    ips = [ip_of_frame(bytes.fromhex(f)) for f in json.loads(out)]
    return [ip for ip in ips if ip is not None]


def arrivals(sent, ips):
    "For each packet sent, the ECN codepoints of its copies that arrived."
    got = {normalized(p): [] for p, _ in sent if p != "sleep"}
    for ip in ips:
        key = normalized(ip)
        if key in got:
            got[key].append(ecn_of(ip))
    return got


class Marker:
    """pnc-tc-mark on the router's p1, stopped with SIGINT."""

    def __init__(self, args):
        self.proc = subprocess.Popen(nsx(NS_P, MARK, "--dev", "p1", "--duration", "0") +
                                     list(args), stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        assert line, "pnc-tc-mark exited before attaching"
        ev = json.loads(line)
        assert ev["event"] == "attached" and ev["ifname"] == "p1", ev
        self.mode = ev["mode"]
        self.prog_id = ev["prog_id"]
        assert self.prog_id > 0, ev
        assert self.attached(), (self.mode, egress_filters())

    def attached(self):
        if self.mode == "tcx":
            # a link, and no tc filter of ours
            return len(links_of(self.prog_id)) == 1 and OUR_HANDLE not in egress_filters()
        assert self.mode == "tc-filter", self.mode
        return OUR_HANDLE in egress_filters()

    def stop(self):
        self.proc.send_signal(signal.SIGINT)
        out, _ = self.proc.communicate(timeout=30)
        assert self.proc.returncode == 0, self.proc.returncode
        lines = [json.loads(line) for line in out.splitlines()]
        assert OUR_HANDLE not in egress_filters(), "our filter left behind"
        assert not links_of(self.prog_id), "our link left behind"
        counters = [e for e in lines if e["event"] == "counters"]
        assert len(counters) == 1 and lines[-1] is counters[0], lines[-3:]
        c = counters[0]
        # the interface's own counters: all of it went out of p1
        ic, = [e for e in lines if e["event"] == "if_counters"]
        assert ic["ifindex"] == ifindex(NS_P, "p1"), ic
        if c["no_state"]:
            assert c["ecn_capable"] == ic["ecn_capable"] == 0, ic
        for k in ("ecn_capable", "marked_ect1", "marked_ce", "roce", "sampled"):
            assert ic[k] == c[k], (k, ic, c)
        return [e for e in lines if e["event"] == "sample"], c


def run_marker(args, items):
    m = Marker(args)
    try:
        ips = send_and_capture(items)
    finally:
        samples, c = m.stop()
    check_counters(c, samples)
    return arrivals(items, ips), ips, samples, c


def check_counters(c, samples):
    assert set(COUNTERS) <= set(c), c
    assert c["seen"] == c["no_state"] + c["stale"] + c["not_ip"] + c["parse_error"] + \
        c["not_ect"] + c["ecn_capable"], c
    assert c["marked_ce"] + c["marked_ect1"] <= c["ecn_capable"], c
    assert c["tunnelled"] <= c["roce"], c
    assert c["sampled"] == len(samples), (c, len(samples))
    assert c["mark_error"] == c["parse_error"] == c["ringbuf_full"] == c["sample_error"] == \
        c["bad_records"] == 0, c


def expect(got, sent, want):
    "want(packet) -> the ECN every copy of it must arrive with."
    for p, n in sent:
        if p == "sleep":
            continue
        ecns = got[normalized(p)]
        assert len(ecns) == n, (p.hex()[:40], len(ecns), n)
        assert all(e == want(p) for e in ecns), (p.hex()[:40], ecns, want(p))


# --- cases ------------------------------------------------------------------

def mix():
    "Every codepoint, IPv4 and IPv6, RoCEv2 and not, a tunnel."
    pkts = []
    for ecn in (NOT_ECT, ECT1, ECT0, CE):
        pkts += [roce4(ecn, 0x100 + ecn), roce6(ecn, 0x200 + ecn, fl=0x100 + ecn),
                 udp4(ecn), udp6(ecn), tunnel4(ecn, 0x300 + ecn, roce4(ECT0, 0x77, "10.0.0.1",
                                                                        "10.0.0.2"))]
    pkts.append(with_options(roce4(ECT0, 0x123)))
    return [(p, 2) for p in pkts]


def n_sent(sent, cond=lambda p: True):
    return sum(n for p, n in sent if p != "sleep" and cond(p))


def is_roce(p):
    "RoCEv2 as the program sees it: UDP 4791 (plain or in the IPv6 tunnels built here)."
    if p[0] >> 4 == 4:
        ihl = (p[0] & 0x0f) * 4
        return p[9] == 17 and struct.unpack("!H", p[ihl + 2:ihl + 4])[0] == 4791
    return p[6] == 4 or p[6] == 43 or struct.unpack("!H", p[42:44])[0] == 4791


def run_no_state():
    sent = mix()
    got, _, samples, c = run_marker(["--no-state", "--sample"], sent)
    expect(got, sent, ecn_of)
    assert c["no_state"] == c["seen"] >= n_sent(sent) and c["ecn_capable"] == 0, c
    assert not samples


def run_zero_state():
    sent = mix()
    got, _, samples, c = run_marker([], sent)
    expect(got, sent, ecn_of)
    assert c["no_state"] == 0 and c["marked_ce"] == c["marked_ect1"] == 0, c
    assert c["ecn_capable"] == n_sent(sent, ecn_of), c
    assert c["roce"] == n_sent(sent, lambda p: ecn_of(p) and is_roce(p)), c
    assert not samples


def run_ce(tbf):
    sent = mix()
    got, ips, _, c = run_marker(["--ce-prob", str(ONE)], sent)
    expect(got, sent, lambda p: ecn_of(p) and CE)
    assert c["marked_ce"] == n_sent(sent, lambda p: ecn_of(p) in (ECT0, ECT1)), c
    assert c["marked_ect1"] == 0, c
    ours = [ip for ip in ips if normalized(ip) in got]
    assert all(ip4_csum_ok(ip) for ip in ours if ip[0] >> 4 == 4), "bad IPv4 checksum"
    # only the outer header: the inner IPv4 header keeps ECT(0) and its checksum
    inner = [ip[40:] for ip in ours if ip[0] >> 4 == 6 and ip[6] == 4]
    assert len(inner) == 8 and all(ecn_of(i) == ECT0 and ip4_csum_ok(i) for i in inner), inner
    if tbf:
        assert qdisc_kinds()[0] == "tbf", qdisc_kinds()


def run_ect1():
    sent = mix()
    got, _, _, c = run_marker(["--ect1-prob", str(ONE)], sent)
    expect(got, sent, lambda p: ECT1 if ecn_of(p) == ECT0 else ecn_of(p))
    assert c["marked_ect1"] == n_sent(sent, lambda p: ecn_of(p) == ECT0), c
    assert c["marked_ce"] == 0, c


def run_ce_wins():
    sent = mix()
    got, _, _, c = run_marker(["--ect1-prob", str(ONE), "--ce-prob", str(ONE)], sent)
    expect(got, sent, lambda p: ecn_of(p) and CE)
    assert c["marked_ect1"] == 0, c


def run_half():
    sent = [(udp4(ECT0), 1000), (udp6(ECT0), 200), (udp4(ECT1), 100)]
    got, _, _, c = run_marker(["--ect1-prob", str(ONE // 2)], sent)
    v4, v6, ect1 = (got[normalized(p)] for p, _ in sent)
    assert len(v4) == 1000 and len(v6) == 200 and ect1 == [ECT1] * 100, \
        (len(v4), len(v6), ect1[:3])
    n4, n6 = v4.count(ECT1), v6.count(ECT1)
    assert set(v4) <= {ECT0, ECT1} and set(v6) <= {ECT0, ECT1}
    assert 300 <= n4 <= 700 and 40 <= n6 <= 160, (n4, n6)
    assert c["marked_ect1"] == n4 + n6, (c, n4, n6)
    return n4


def find(samples, **match):
    return [s for s in samples if all(s.get(k) == v for k, v in match.items())]


def check_sample(s, arrived, p1):
    "Fields common to every sample; the data is the packet that arrived."
    ip = arrived[0]
    assert s["ifindex"] == p1 and s["ip_version"] == ip[0] >> 4, s
    assert s["ecn_out"] == ecn_of(ip) == CE and s["ecn_in"] in (ECT0, ECT1), s
    assert s["pkt_len"] == len(ip) and s["cap_len"] == min(len(ip), 256), s
    assert s["data"] == ip[:s["cap_len"]].hex(), (s["data"][:80], ip.hex()[:80])


def run_samples(tbf):
    """Plain IPv4/IPv6 RoCEv2, tunnels, suppression within the interval."""
    p1 = ifindex(NS_P, "p1")
    t4 = tunnel4(ECT0, 0x12345, roce4(ECT1, 0x777, "10.0.0.1", "10.0.0.2"))
    t4b = tunnel4(ECT0, 0x12345, roce4(ECT1, 0x778, "10.0.0.1", "10.0.0.2"))  # same flow
    t6 = tunnel6_srh(ECT1, 0x54321, roce6(ECT0, 0x888, "fd00::1", "fd00::2"))
    a, b, o = roce4(ECT0, 0x123), roce4(ECT1, 0x124), with_options(roce4(ECT0, 0x125))
    v6 = roce6(ECT1, 0x456, fl=0xabcde)
    stub = ip4(17, udp(4791, bytes(6)), ECT0)                  # BTH cut short
    frag = ip4(17, bytes(64), ECT0, frag_off=100)              # a later fragment
    quiet = [roce4(NOT_ECT, 0x126), udp4(ECT0), udp6(ECT1),
             tunnel4(NOT_ECT, 0x11111, roce4(ECT0, 0x779, "10.0.0.1", "10.0.0.2"))]
    sent = [(a, 2), (b, 1), (o, 1), (v6, 2), (t4, 2), (t4b, 1), (t6, 1), (stub, 1),
            (frag, 1)] + [(q, 2) for q in quiet]
    got, ips, samples, c = run_marker(["--ce-prob", str(ONE), "--sample",
                                       "--sample-interval-us", "10000000"], sent)
    expect(got, sent, lambda p: ecn_of(p) and CE)
    byk = {}
    for ip in ips:
        byk.setdefault(normalized(ip), []).append(ip)

    assert len(samples) == 6, [(s["src"], s["dest_qp"], s["flow_label"]) for s in samples]
    for pkt, qp in ((a, 0x123), (b, 0x124), (o, 0x125)):
        s, = find(samples, dest_qp=qp)
        check_sample(s, byk[normalized(pkt)], p1)
        assert (s["src"], s["dst"], s["tunnelled"], s["inner_off"], s["flow_label"]) == \
            (V4["snd"], V4["rcv"], False, 0, 0), s
        assert s["l4_off"] == (24 if qp == 0x125 else 20), s
    s, = find(samples, dest_qp=0x456)
    check_sample(s, byk[normalized(v6)], p1)
    assert (s["src"], s["dst"], s["flow_label"], s["tunnelled"], s["l4_off"]) == \
        (V6["snd"], V6["rcv"], 0xabcde, False, 40), s
    s, = find(samples, flow_label=0x12345)
    check_sample(s, byk[normalized(t4)], p1)
    assert (s["src"], s["tunnelled"], s["routing_header"], s["inner_version"], s["dest_qp"],
            s["inner_off"], s["l4_off"]) == (V6["snd"], True, False, 4, 0x777, 40, 60), s
    inner = bytes.fromhex(s["data"])[s["inner_off"]:]
    assert inner[0] == 0x45 and inner[16:20] == socket.inet_aton("10.0.0.2"), inner.hex()
    s, = find(samples, flow_label=0x54321)
    check_sample(s, byk[normalized(t6)], p1)
    assert (s["src"], s["tunnelled"], s["routing_header"], s["inner_version"], s["dest_qp"],
            s["inner_off"], s["l4_off"]) == (V6["snd"], True, True, 6, 0x888, 64, 104), s
    assert bytes.fromhex(s["data"])[64] >> 4 == 6

    assert c["roce"] == 2 + 1 + 1 + 2 + 2 + 1 + 1, c      # ECN-capable RoCEv2 only
    assert c["tunnelled"] == 4 and c["truncated"] == 1, c
    assert c["sample_suppressed"] == 1 + 1 + 1 + 1, c     # a, v6, t4, t4b
    assert c["sampled"] + c["sample_suppressed"] == c["roce"], c
    assert c["marked_ce"] == c["ecn_capable"] == n_sent(sent, ecn_of), c
    if tbf:
        assert qdisc_kinds()[0] == "tbf", qdisc_kinds()


def run_interval():
    "200 ms per flow: a second packet at once is suppressed, one 0.5 s later is not."
    a = roce4(ECT0, 0x321)
    sent = [(a, 2), ("sleep", 0.5), (a, 1)]
    _, _, samples, c = run_marker(["--sample", "--sample-interval-us", "200000"], sent)
    assert len(samples) == 2 and c["sample_suppressed"] == 1, (samples, c)
    assert all(s["dest_qp"] == 0x321 and s["ecn_in"] == s["ecn_out"] == ECT0 for s in samples)
    assert samples[1]["ts_ns"] - samples[0]["ts_ns"] >= 400_000_000, samples
    # interval 0: every packet
    _, _, samples, c = run_marker(["--sample", "--sample-interval-us", "0"], [(a, 5)])
    assert len(samples) == 5 and c["sample_suppressed"] == 0, c


def mirred_packets():
    out = subprocess.run(["tc", "-n", NS_P, "-s", "-j", "filter", "show", "dev", "p1", "egress"],
                         check=True, stdout=subprocess.PIPE, text=True).stdout
    return sum(a["stats"]["packets"] for f in json.loads(out) if f.get("kind") == "u32"
               for a in f.get("options", {}).get("actions", []) if a.get("kind") == "mirred")


def run_foreign_clsact():
    """A clsact with someone else's filter after ours: it still sees every
    packet (we give no verdict), and it and the clsact stay when we go."""
    sh("ip", "-n", NS_P, "link", "add", "m0", "type", "veth", "peer", "name", "m1")
    sh("ip", "-n", NS_P, "link", "set", "m0", "up")
    sh("ip", "-n", NS_P, "link", "set", "m1", "up")
    sh("tc", "-n", NS_P, "qdisc", "add", "dev", "p1", "clsact")
    sh("tc", "-n", NS_P, "filter", "add", "dev", "p1", "egress", "pref", "65000", "protocol",
       "all", "u32", "match", "u32", "0", "0", "action", "mirred", "egress", "mirror", "dev",
       "m0")
    sent = [(roce4(ECT0, 0x42), 3), (udp6(ECT1), 3)]
    before = mirred_packets()
    got, _, _, c = run_marker(["--ce-prob", str(ONE)], sent)
    expect(got, sent, lambda p: CE)
    assert mirred_packets() - before >= n_sent(sent), (before, mirred_packets())
    assert "clsact" in qdisc_kinds(), qdisc_kinds()
    assert "u32" in egress_filters(), egress_filters()
    sh("tc", "-n", NS_P, "qdisc", "del", "dev", "p1", "clsact")
    sh("ip", "-n", NS_P, "link", "del", "m0")


def killed_while_marking(args, sent):
    """A marker marking everything, SIGKILLed: from its state's lifetime on
    at the latest, packets leave as they came.  The killed Marker."""
    m = Marker(list(args) + ["--ce-prob", str(ONE), "--lifetime-ms", "300"])
    try:
        got = arrivals(sent, send_and_capture(sent))
        expect(got, sent, lambda p: CE)
    finally:
        m.proc.kill()
        m.proc.wait()
    time.sleep(0.5)
    got = arrivals(sent, send_and_capture(sent))
    expect(got, sent, ecn_of)
    return m


def run_killed():
    """SIGKILL while marking everything: from the state's lifetime on at
    the latest (at once with tcx), packets leave as they came."""
    m = killed_while_marking([], [(roce4(ECT0, 0x51), 3), (udp6(ECT1), 3)])
    if m.mode == "tcx":
        assert not links_of(m.prog_id), "a killed process left its link"
    else:
        sh("tc", "-n", NS_P, "qdisc", "del", "dev", "p1", "clsact")
    return m.mode


def our_filters():
    return [ln for ln in egress_filters().splitlines() if OUR_HANDLE in ln]


def run_filter_path():
    """The older kernels' path: a clsact filter, taken over from a killed
    marker, and someone else's filter at our place left alone."""
    sent = [(roce4(ECT0, 0x53), 3), (udp6(ECT1), 3)]
    # Its filter stops marking when its state expires, and stays.
    m = killed_while_marking(["--tc-filter"], sent)
    assert m.mode == "tc-filter", m.mode
    assert len(our_filters()) == 1, egress_filters()

    # The next marker takes its place: one filter of ours, running the new program.
    m2 = Marker(["--tc-filter", "--ce-prob", str(ONE)])
    filters = our_filters()
    assert len(filters) == 1 and " id {} ".format(m2.prog_id) in filters[0] + " ", filters
    got = arrivals(sent, send_and_capture(sent))
    expect(got, sent, lambda p: CE)
    m2.stop()
    # The clsact is the killed marker's: nobody's now, so we take it away.
    sh("tc", "-n", NS_P, "qdisc", "del", "dev", "p1", "clsact")

    # A clsact the marker made, used meanwhile by someone else's filter (the
    # tunnel's, say): it stays when the marker goes.
    m3 = Marker(["--tc-filter"])
    sh("tc", "-n", NS_P, "filter", "add", "dev", "p1", "egress", "pref", "65000", "protocol",
       "all", "u32", "match", "u32", "0", "0", "flowid", "1:1")
    m3.stop()
    assert "clsact" in qdisc_kinds() and "u32" in egress_filters(), egress_filters()
    sh("tc", "-n", NS_P, "qdisc", "del", "dev", "p1", "clsact")

    # Someone else's filter at our priority: attaching fails, theirs stays.
    sh("tc", "-n", NS_P, "qdisc", "add", "dev", "p1", "clsact")
    sh("tc", "-n", NS_P, "filter", "add", "dev", "p1", "egress", "pref", "28771", "protocol",
       "all", "u32", "match", "u32", "0", "0", "flowid", "1:1")
    r = subprocess.run(nsx(NS_P, MARK, "--dev", "p1", "--tc-filter", "--duration", "1"),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=30)
    assert r.returncode == 1 and "attaching to p1" in r.stderr, (r.returncode, r.stderr)
    assert "u32" in egress_filters() and not our_filters(), egress_filters()
    sh("tc", "-n", NS_P, "qdisc", "del", "dev", "p1", "clsact")


def run_hung():
    """A process that stops refreshing (SIGSTOP) stops marking once the
    state's lifetime is over, and marks again once it refreshes."""
    sent = [(roce4(ECT0, 0x52), 3), (udp4(ECT0), 3)]
    m = Marker(["--ce-prob", str(ONE), "--lifetime-ms", "300"])
    try:
        m.proc.send_signal(signal.SIGSTOP)
        time.sleep(0.5)
        got = arrivals(sent, send_and_capture(sent))
        expect(got, sent, ecn_of)
        m.proc.send_signal(signal.SIGCONT)
        time.sleep(0.3)
        got = arrivals(sent, send_and_capture(sent))
        expect(got, sent, lambda p: CE)
    finally:
        m.proc.send_signal(signal.SIGCONT)
        _, c = m.stop()
    check_counters(c, [])
    assert c["stale"] >= n_sent(sent), c
    assert c["marked_ce"] == n_sent(sent), c


def main():
    rc = cannot_run(MARK, PKT)
    if rc is not None:
        return rc
    teardown()
    start = time.time()
    try:
        setup()
        run_no_state()
        print("ok: no state: nothing changed, nothing sampled")
        run_zero_state()
        print("ok: zero state: nothing changed, ECN-capable and RoCEv2 packets counted")
        run_ce(tbf=False)
        print("ok: CE: ECT(0)/ECT(1) arrive CE, Not-ECT and inner headers untouched, "
              "IPv4 checksums valid")
        run_ect1()
        print("ok: ECT(1): ECT(0) arrives ECT(1)")
        run_ce_wins()
        print("ok: CE wins over ECT(1)")
        n = run_half()
        print("ok: ECT(1) at 50 %%: %d of 1000 IPv4 packets" % n)
        run_samples(tbf=False)
        print("ok: samples: IPv4, IPv4 options, IPv6, IPv4-in-IPv6, SRH + IPv6-in-IPv6, "
              "one per flow")
        sh("tc", "-n", NS_P, "qdisc", "add", "dev", "p1", "root", "tbf", "rate", "1gbit",
           "burst", "256kb", "latency", "100ms")
        run_ce(tbf=True)
        run_samples(tbf=True)
        assert qdisc_kinds() == ["tbf"], qdisc_kinds()
        sh("tc", "-n", NS_P, "qdisc", "del", "dev", "p1", "root")
        print("ok: next to a TBF root qdisc, which stays")
        run_interval()
        print("ok: per-flow interval: suppressed within, sampled after; 0 samples all")
        run_foreign_clsact()
        print("ok: an existing clsact and its filter stay; that filter, after ours, "
              "still sees every packet")
        mode = run_killed()
        print("ok: SIGKILL while marking: nothing marked afterwards (%s)" % mode)
        run_hung()
        print("ok: a hung marker stops marking when its state expires, and resumes")
        run_filter_path()
        print("ok: clsact filter (kernels without tcx): marks; a killed marker's filter "
              "stops marking and is taken over; someone else's filter stays")
    finally:
        teardown()
    print("done in %.1f s" % (time.time() - start))
    return 0


if __name__ == "__main__":
    sys.exit(main())
