#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""roce-emu between two network namespaces joined by a veth pair.

Checks, for IPv4 with CM and IPv6 without: the connection comes up with
the right QPNs, every packet arrives in PSN order and is acknowledged as
requested, the rate holds; and with CE-marked data the responder's CNPs
are accepted (ICRC, DestQP) and cut the requester's rate, while CNPs crafted with pnc-pkt for another QP
or with a bad ICRC are refused.  Then the sender-facing messages beyond
the CNP, built here from the wire formats (doc/wire-formats.md 7.2-7.4),
not with pnc-pkt, and sent only between the test's own namespaces: a
Long-haul CNP of the RoCEv2 form (Pause, Rate Reduce, Resume, the
recovery timer), of the ICMPv6 form, SCONE rate advice, the E-bit packet
taken for a plain CNP without --long-haul, and a Long-haul CNP from an
unknown source ignored.  Last, a fixed transfer (--bytes): it completes,
reports its completion time and ends the run early, and one too large for
--duration reports none.  The test
creates and removes its own namespaces; it needs root.
"""

import json
import os
import select
import socket
import struct
import subprocess
import sys
import time
import zlib

BUILD = os.environ.get("PNC_BUILDDIR", "build")
EMU = os.path.join(BUILD, "tools/roce-emu/roce-emu")
PKT = os.path.join(BUILD, "tools/pnc-pkt/pnc-pkt")
NS = ("pncemu{}a".format(os.getpid()), "pncemu{}b".format(os.getpid()))


def sh(*args):
    subprocess.run(args, check=True)


def setup():
    for ns in NS:
        sh("ip", "netns", "add", ns)
    sh("ip", "link", "add", "pncemu0", "netns", NS[0], "type", "veth",
       "peer", "name", "pncemu1", "netns", NS[1])
    for ns, dev, v4, v6 in ((NS[0], "pncemu0", "192.0.2.1/24", "2001:db8::1/64"),
                            (NS[1], "pncemu1", "192.0.2.2/24", "2001:db8::2/64")):
        sh("ip", "-n", ns, "addr", "add", v4, "dev", dev)
        sh("ip", "-n", ns, "addr", "add", v6, "dev", dev, "nodad")
        sh("ip", "-n", ns, "link", "set", dev, "up")
        sh("ip", "-n", ns, "link", "set", "lo", "up")


def teardown():
    for ns in NS:
        subprocess.run(["ip", "netns", "del", ns], stderr=subprocess.DEVNULL)


def run_pair(local, remote, req_args, resp_args, duration=1.5):
    resp = subprocess.Popen(["ip", "netns", "exec", NS[1], EMU, "responder", "--local", remote,
                             "--duration", str(duration + 1.0)] + resp_args,
                            stdout=subprocess.PIPE, text=True)
    time.sleep(0.3)
    req = subprocess.run(["ip", "netns", "exec", NS[0], EMU, "requester", "--local", local,
                          "--remote", remote, "--duration", str(duration)] + req_args,
                         stdout=subprocess.PIPE, text=True, timeout=30, check=True)
    out, _ = resp.communicate(timeout=30)
    assert resp.returncode == 0, resp.returncode
    return ([json.loads(line) for line in req.stdout.splitlines()],
            [json.loads(line) for line in out.splitlines()])


def event(lines, name):
    return [e for e in lines if e["event"] == name]


def check_clean_stream(local, remote, req_args, resp_args, cm):
    req, resp = run_pair(local, remote, ["--rate", "40"] + req_args, resp_args)
    conn = event(req, "connected")[0]
    assert conn["cm"] is cm and conn["local_qpn"] == 0x11 and conn["remote_qpn"] == 0x22, conn
    if cm:
        assert event(resp, "connected")[0]["remote_qpn"] == 0x11
    rq, rs = event(req, "summary")[0], event(resp, "summary")[0]
    assert rq["tx_pkts"] > 1000, rq
    assert rs["rx_pkts"] == rq["tx_pkts"] and rs["psn_gaps"] == 0, (rq, rs)
    # an ACK request every 8 packets, all answered
    assert rs["acks_sent"] == rq["tx_pkts"] // 8 and rq["acks"] == rs["acks_sent"], (rq, rs)
    assert 30 < rq["tx_mbps"] < 45, rq
    assert rq["cnps"] == 0 and rs["ce_pkts"] == 0, (rq, rs)
    # without --bytes: no transfer, no completion
    assert rq["transfer_bytes"] == 0 and rq["completion_ms"] is None, rq
    assert not event(req, "complete")


def check_cnp_reaction(local, remote, extra):
    req, resp = run_pair(local, remote,
                         ["--rate", "40", "--ecn", "3", "--recovery-us", "0"] + extra,
                         ["--cnp-on-ce", "--cnp-interval-us", "100000"] + extra)
    rq, rs = event(req, "summary")[0], event(resp, "summary")[0]
    cnps = event(req, "cnp")
    assert rs["cnps_sent"] >= 5 and rq["cnps"] == rs["cnps_sent"], (rq, rs)
    assert rq["cnps_invalid"] == 0, rq
    # each CNP cuts: 40 -> 20 -> 10 ... down to the 1 Mb/s floor
    assert cnps[0]["rate_mbps"] == 20.0 and cnps[1]["rate_mbps"] == 10.0, cnps[:2]
    assert rq["rate_mbps"] < 5 and rq["tx_mbps"] < 20, rq


SEND_RAW = """
import socket, sys
pkt = bytes.fromhex(sys.argv[1])
s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
s.sendto(pkt, (socket.inet_ntoa(pkt[16:20]), 0))
"""


def inject_cnp(fields):
    """Send a CNP built by pnc-pkt from the responder's namespace."""
    hexpkt = subprocess.run([PKT, "build", "cnp", "src=192.0.2.2", "dst=192.0.2.1", "id=7"]
                            + fields, stdout=subprocess.PIPE, text=True, check=True).stdout
    sh("ip", "netns", "exec", NS[1], "/usr/bin/python3", "-c", SEND_RAW, hexpkt.strip())


def check_invalid_cnps():
    "Only a CNP with a valid ICRC for the requester's QP cuts the rate."
    resp = subprocess.Popen(["ip", "netns", "exec", NS[1], EMU, "responder", "--local",
                             "192.0.2.2", "--duration", "3"], stdout=subprocess.PIPE, text=True)
    time.sleep(0.3)
    req = subprocess.Popen(["ip", "netns", "exec", NS[0], EMU, "requester", "--local",
                            "192.0.2.1", "--remote", "192.0.2.2", "--rate", "20",
                            "--recovery-us", "0", "--duration", "2"],
                           stdout=subprocess.PIPE, text=True)
    time.sleep(0.8)
    inject_cnp(["dqpn=0x99"])
    inject_cnp(["dqpn=0x11", "icrc=0xdeadbeef"])
    inject_cnp(["dqpn=0x11"])
    out, _ = req.communicate(timeout=30)
    resp.communicate(timeout=30)
    lines = [json.loads(line) for line in out.splitlines()]
    reasons = sorted(e["reason"] for e in event(lines, "cnp-invalid"))
    assert reasons == ["icrc-mismatch", "wrong-dest-qp"], reasons
    rq = event(lines, "summary")[0]
    assert rq["cnps"] == 1 and rq["cnps_invalid"] == 2 and rq["rate_mbps"] == 10.0, rq


# --- Long-haul CNP and rate advice, built from the wire formats -------------

LH_NOTIFY, LH_PAUSE, LH_RATE_REDUCE, LH_RESUME = range(4)


def icrc(pkt):
    """RoCEv2 ICRC of pkt (IP header first, no ICRC yet): CRC-32 over 8
    all-ones octets and the headers with their variant fields set to ones."""
    m = bytearray(pkt)
    if m[0] >> 4 == 4:
        hlen = 20
        m[1] = 0xFF
        m[8] = 0xFF
        m[10:12] = b"\xff\xff"
    else:
        hlen = 40
        m[0] |= 0x0F
        m[1:4] = b"\xff\xff\xff"
        m[7] = 0xFF
    m[hlen + 6:hlen + 8] = b"\xff\xff"
    m[hlen + 12] = 0xFF
    return struct.pack("<I", zlib.crc32(b"\xff" * 8 + bytes(m)) & 0xFFFFFFFF)


def roce(src, dst, opcode, b4, dest_qp, body):
    """IP | UDP 4791 | BTH | body | ICRC; b4 is the BTH's BECN/E octet."""
    bth = struct.pack("!BBHB3sI", opcode, 0, 0xFFFF, b4, dest_qp.to_bytes(3, "big"), 0)
    udp_len = 8 + len(bth) + len(body) + 4
    udp = struct.pack("!HHHH", 0xC0AA, 4791, udp_len, 0)
    if ":" in src:
        ip = struct.pack("!IHBB16s16s", 6 << 28, udp_len, 17, 64,
                         socket.inet_pton(socket.AF_INET6, src),
                         socket.inet_pton(socket.AF_INET6, dst))
    else:
        ip = bytearray(struct.pack("!BBHHHBBH4s4s", 0x45, 48 << 2, 20 + udp_len, 0x77, 0,
                                   64, 17, 0, socket.inet_aton(src), socket.inet_aton(dst)))
        csum = sum(struct.unpack("!10H", ip))
        csum = (csum & 0xFFFF) + (csum >> 16)
        ip[10:12] = struct.pack("!H", ~((csum & 0xFFFF) + (csum >> 16)) & 0xFFFF)
        ip = bytes(ip)
    pkt = ip + udp + bth + body
    return pkt + icrc(pkt)


def lh_block(action, parameter, src_qp=0x11, level=200):
    """The 12-octet Long-haul block: metric type 1 (queue, KB), 500 KB."""
    return struct.pack("!BBHIB3s", level, action << 6, parameter, src_qp, 1,
                       (500).to_bytes(3, "big"))


def lh_roce(action, parameter, src="192.0.2.2", dst="192.0.2.1", dest_qp=0x11, src_qp=None):
    """RoCEv2 form: a CNP (BECN) with the E bit, the block, four zero octets."""
    block = lh_block(action, parameter, src_qp=dest_qp if src_qp is None else src_qp)
    return roce(src, dst, 0x81, 0x40 | 0x20, dest_qp, block + bytes(4))


def rate_advice(mbps, src="192.0.2.2", dst="192.0.2.1", qp=0x11, opcode=0xC0):
    """Rate | Version 1 | Destination QP ID | Source QP ID."""
    return roce(src, dst, opcode, 0, qp, struct.pack("!IIII", mbps, 1, qp, 0x22))


SEND_ANY = """
import socket, sys
for arg in sys.argv[1:]:
    kind, hexpkt = arg.split(":")
    pkt = bytes.fromhex(hexpkt)
    if kind == "ip4":
        s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
        s.sendto(pkt, (socket.inet_ntoa(pkt[16:20]), 0))
    elif kind == "ip6":
        s = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_RAW)
        s.sendto(pkt, (socket.inet_ntop(socket.AF_INET6, pkt[24:40]), 0))
    else:  # icmp6 to 2001:db8::1: the kernel adds the checksum
        s = socket.socket(socket.AF_INET6, socket.SOCK_RAW, socket.IPPROTO_ICMPV6)
        s.sendto(pkt, ("2001:db8::1", 0))
    s.close()
"""


def inject(*pkts):
    """Send (kind, bytes) packets from the responder's namespace, once each."""
    args = ["%s:%s" % (kind, pkt.hex()) for kind, pkt in pkts]
    subprocess.run(["ip", "netns", "exec", NS[1], "/usr/bin/python3", "-c", SEND_ANY] + args,
                   check=True, timeout=10)


def run_injected(local, remote, req_args, schedule, duration=2.0):
    """Requester and responder without CM; schedule: (seconds after the
    requester starts, [(kind, packet), ...]).  Returns the requester's lines."""
    resp = subprocess.Popen(["ip", "netns", "exec", NS[1], EMU, "responder", "--local", remote,
                             "--no-cm", "--peer-qpn", "0x11", "--duration",
                             str(duration + 1.0)], stdout=subprocess.PIPE, text=True)
    time.sleep(0.3)
    req = subprocess.Popen(["ip", "netns", "exec", NS[0], EMU, "requester", "--local", local,
                            "--remote", remote, "--no-cm", "--peer-qpn", "0x22", "--rate", "40",
                            "--duration", str(duration)] + req_args,
                           stdout=subprocess.PIPE, text=True)
    start = time.monotonic()
    try:
        for at, pkts in schedule:
            time.sleep(max(0.0, start + at - time.monotonic()))
            inject(*pkts)
        out, _ = req.communicate(timeout=30)
    finally:
        if req.poll() is None:
            req.kill()
        resp.communicate(timeout=30)
    assert req.returncode == 0, req.returncode
    return [json.loads(line) for line in out.splitlines()]


def stats_between(lines, first, last):
    """stats lines logged after line index first and before index last."""
    return [e for e in lines[first + 1:last] if e["event"] == "stats"]


def check_lh_roce_actions():
    """RoCEv2 form: Pause stops sending, Rate Reduce cuts, Resume restores; a
    block whose Source QP is not the BTH's DestQP is ignored (seed 000 5.6)."""
    lines = run_injected("192.0.2.1", "192.0.2.2",
                         ["--long-haul", "--lh-known", "192.0.2.2",
                          "--lh-recovery-us", "10000000"],
                         [(0.5, [("ip4", lh_roce(LH_NOTIFY, 0)),
                                 ("ip4", lh_roce(LH_RATE_REDUCE, 90, src_qp=0x12))]),
                          (0.6, [("ip4", lh_roce(LH_PAUSE, 60000))]),
                          (1.0, [("ip4", lh_roce(LH_RATE_REDUCE, 50))]),
                          (1.5, [("ip4", lh_roce(LH_RESUME, 0))])], duration=2.0)
    idx = [i for i, e in enumerate(lines) if e["event"] == "lh"]
    acts = [(lines[i]["action"], lines[i]["rate_mbps"]) for i in idx]
    assert acts == [("notify", 40.0), ("pause", 40.0), ("rate-reduce", 20.0),
                    ("resume", 40.0)], acts
    assert all(lines[i]["form"] == "roce" and lines[i]["src"] == "192.0.2.2" for i in idx)
    # Pause: 60 ms in 10 ms intervals, rate and bytes sent 0 for most of them
    paused = [e for e in stats_between(lines, idx[1], idx[2]) if e["paused"]]
    assert 4 <= len(paused) <= 7, paused
    assert all(e["rate_mbps"] == 0 for e in paused), paused
    assert sum(1 for e in paused if e["tx_mbps"] == 0) >= 4, paused
    # Rate Reduce 50 %: 40 -> 20, held (recovery timer 10 s) until Resume
    cut = stats_between(lines, idx[2], idx[3])
    assert len(cut) > 30 and all(e["rate_mbps"] == 20.0 for e in cut), cut
    tx = sorted(e["tx_mbps"] for e in cut)[len(cut) // 2]
    assert 15 < tx < 25, tx
    # Resume 0 %: all of it back
    after = stats_between(lines, idx[3], len(lines))
    assert after and all(e["rate_mbps"] == 40.0 for e in after), after
    rq = event(lines, "summary")[0]
    assert (rq["lh_roce"], rq["lh_notify"], rq["lh_pause"], rq["lh_rate_reduce"],
            rq["lh_resume"], rq["ignored"]) == (5, 1, 1, 1, 1, 1), rq
    ign = event(lines, "lh-ignored")
    assert [(e["reason"], e["qp"]) for e in ign] == [("qp-mismatch", 0x11)], ign
    assert rq["cnps"] == 0 and rq["malformed"] == 0 and rq["unknown_src"] == 0, rq


def check_lh_recovery_timer():
    """Without news for --lh-recovery-us the normal recovery takes over."""
    lines = run_injected("192.0.2.1", "192.0.2.2",
                         ["--long-haul", "--lh-known", "192.0.2.0/24",
                          "--lh-recovery-us", "300000"],
                         [(0.5, [("ip4", lh_roce(LH_RATE_REDUCE, 50))])], duration=1.5)
    i = [i for i, e in enumerate(lines) if e["event"] == "lh"][0]
    held = [e for e in stats_between(lines, i, len(lines)) if e["lh_active"]]
    # 300 ms held at 20 Mb/s (about 30 intervals), then back at 40
    assert 25 <= len(held) <= 32 and all(e["rate_mbps"] == 20.0 for e in held), held
    rq = event(lines, "summary")[0]
    assert rq["rate_mbps"] == 40.0 and not rq["lh_active"], rq


def check_lh_icmp6():
    """ICMPv6 form: the block's Source QP names the QP; another QP's is ignored."""
    lines = run_injected("2001:db8::1", "2001:db8::2",
                         ["--long-haul", "--lh-known", "2001:db8::/64",
                          "--lh-recovery-us", "10000000"],
                         [(0.5, [("icmp6", bytes([200, 0, 0, 0]) +
                                  lh_block(LH_RATE_REDUCE, 25, src_qp=0x99))]),
                          (0.7, [("icmp6", bytes([200, 0, 0, 0]) +
                                  lh_block(LH_RATE_REDUCE, 25))])], duration=1.2)
    ign = event(lines, "lh-ignored")
    assert [(e["form"], e["reason"], e["qp"]) for e in ign] == [("icmp6", "wrong-qp", 0x99)], ign
    lh = event(lines, "lh")
    assert [(e["form"], e["action"], e["rate_mbps"]) for e in lh] == \
        [("icmp6", "rate-reduce", 30.0)], lh
    assert lh[0]["src"] == "2001:db8::2", lh
    rq = event(lines, "summary")[0]
    assert rq["lh_icmp6"] == 2 and rq["ignored"] == 1 and rq["rate_mbps"] == 30.0, rq


def check_rate_advice():
    """SCONE rate advice sets the rate; an advice of 0 Mb/s (which would stop
    a seed 004 sender) is counted and not acted on."""
    lines = run_injected("192.0.2.1", "192.0.2.2", ["--rate-advice"],
                         [(0.5, [("ip4", rate_advice(10))]),
                          (1.0, [("ip4", rate_advice(0))])], duration=1.5)
    adv = event(lines, "rate-advice")
    assert [(e["advised_mbps"], e["rate_mbps"]) for e in adv] == [(10, 10.0)], adv
    assert len(event(lines, "advice-zero")) == 1, lines
    idx = [i for i, e in enumerate(lines) if e["event"] == "rate-advice"]
    during = stats_between(lines, idx[0], len(lines))
    assert len(during) > 30 and all(e["rate_mbps"] == 10.0 for e in during), during
    tx = sorted(e["tx_mbps"] for e in during)[len(during) // 2]
    assert 5 < tx < 15, tx
    rq = event(lines, "summary")[0]
    # the advice of 10 Mb/s stays in force
    assert rq["rate_mbps"] == 10.0 and rq["rate_advices"] == 2, rq
    assert rq["advice_zero"] == 1 and rq["unknown"] == 0, rq


def check_legacy_and_unknown():
    """Without --long-haul the E-bit packet is a CNP; without --rate-advice
    the advice is an unknown packet."""
    lines = run_injected("192.0.2.1", "192.0.2.2", ["--recovery-us", "0"],
                         [(0.5, [("ip4", lh_roce(LH_RATE_REDUCE, 10))]),
                          (0.7, [("ip4", rate_advice(5))])], duration=1.2)
    cnps = event(lines, "cnp")
    # a standard CNP's cut (the first halves), not the block's 10 %
    assert [e["rate_mbps"] for e in cnps] == [20.0], cnps
    assert not event(lines, "lh") and not event(lines, "rate-advice")
    rq = event(lines, "summary")[0]
    assert rq["cnps"] == 1 and rq["cnps_invalid"] == 0 and rq["lh_roce"] == 0, rq
    assert rq["unknown"] == 1 and rq["rate_mbps"] == 20.0, rq


def check_lh_unknown_source():
    """A Long-haul CNP from a source not in --lh-known is counted, not obeyed."""
    lines = run_injected("192.0.2.1", "192.0.2.2",
                         ["--long-haul", "--lh-known", "192.0.2.2"],
                         [(0.5, [("ip4", lh_roce(LH_RATE_REDUCE, 50, src="192.0.2.3"))]),
                          (0.6, [("ip4", lh_roce(LH_PAUSE, 50000, src="192.0.2.3"))])],
                         duration=1.0)
    ign = event(lines, "lh-ignored")
    assert [(e["reason"], e["src"]) for e in ign] == [("unknown-source", "192.0.2.3")] * 2, ign
    assert not event(lines, "lh")
    assert not [e for e in event(lines, "stats") if e["paused"] or e["rate_mbps"] != 40.0]
    rq = event(lines, "summary")[0]
    assert rq["unknown_src"] == 2 and rq["lh_roce"] == 2 and rq["cnps"] == 0, rq
    assert rq["lh_rate_reduce"] == 0 and rq["lh_pause"] == 0 and rq["rate_mbps"] == 40.0, rq


def run_transfer(req_args):
    """A requester with CM and req_args against a responder that is stopped
    once the requester is done.  Returns both ends' lines and the
    requester's wall time in seconds."""
    resp = subprocess.Popen(["ip", "netns", "exec", NS[1], EMU, "responder", "--local",
                             "192.0.2.2", "--log-ms", "100", "--duration", "20"],
                            stdout=subprocess.PIPE, text=True)
    try:
        # its first stats line comes once its sockets are open
        ready, _, _ = select.select([resp.stdout], [], [], 10)
        assert ready, "responder did not start"
        first = resp.stdout.readline()
        began = time.monotonic()
        req = subprocess.run(["ip", "netns", "exec", NS[0], EMU, "requester", "--local",
                              "192.0.2.1", "--remote", "192.0.2.2"] + req_args,
                             stdout=subprocess.PIPE, text=True, timeout=30, check=True)
        wall = time.monotonic() - began
        resp.terminate()
        out, _ = resp.communicate(timeout=30)
    finally:
        if resp.poll() is None:
            resp.kill()
            resp.communicate()
    assert resp.returncode == 0, resp.returncode
    return ([json.loads(line) for line in req.stdout.splitlines()],
            [json.loads(line) for line in (first + out).splitlines()], wall)


def check_fixed_transfer():
    """--bytes: 200 kB at 50 Mb/s, 196 packets (the last one short), about
    34 ms of sending; the run ends then, not at --duration."""
    req, resp, wall = run_transfer(["--bytes", "200000", "--rate", "50", "--duration", "10"])
    done = event(req, "complete")
    assert len(done) == 1, done
    done = done[0]
    assert done["bytes"] == 200000 and done["tx_pkts"] == 196, done
    assert 20 < done["completion_ms"] < 5000, done
    rq, rs = event(req, "summary")[0], event(resp, "summary")[0]
    assert rq["transfer_bytes"] == 200000 and rq["tx_pkts"] == 196, rq
    assert rq["completion_ms"] == done["completion_ms"], (rq, done)
    assert rs["rx_pkts"] == 196 and rs["psn_gaps"] == 0 and rq["acks"] == 196 // 8, (rq, rs)
    # well before --duration: the summary follows the first stats line closely
    assert rq["time"] - event(req, "stats")[0]["time"] < 5, rq
    assert wall < 8, wall
    # too much for --duration: cut there, no completion
    req, resp, wall = run_transfer(["--bytes", "100000000", "--rate", "50",
                                    "--duration", "0.5"])
    rq = event(req, "summary")[0]
    assert not event(req, "complete"), req
    assert rq["transfer_bytes"] == 100000000 and rq["completion_ms"] is None, rq
    assert 1000 < rq["tx_pkts"] < 100000000 // 1024, rq


def main():
    for tool in (EMU, PKT):
        if not os.access(tool, os.X_OK):
            print("not built: " + tool)
            return 1
    teardown()
    setup()
    try:
        time.sleep(0.5)
        check_clean_stream("192.0.2.1", "192.0.2.2", [], [], cm=True)
        print("ok: IPv4, CM, clean stream")
        check_clean_stream("2001:db8::1", "2001:db8::2", ["--no-cm", "--peer-qpn", "0x22"],
                           ["--no-cm", "--peer-qpn", "0x11"], cm=False)
        print("ok: IPv6, no CM, clean stream")
        check_cnp_reaction("192.0.2.1", "192.0.2.2", [])
        print("ok: IPv4, CE -> CNP -> rate cut")
        check_cnp_reaction("2001:db8::1", "2001:db8::2", [])
        print("ok: IPv6, CE -> CNP -> rate cut")
        check_invalid_cnps()
        print("ok: CNPs for another QP or with a bad ICRC are refused")
        check_lh_roce_actions()
        print("ok: Long-haul CNP, RoCEv2 form: Pause, Rate Reduce, Resume")
        check_lh_recovery_timer()
        print("ok: Long-haul recovery timer hands back to normal recovery")
        check_lh_icmp6()
        print("ok: Long-haul CNP, ICMPv6 form: Rate Reduce for the named QP")
        check_rate_advice()
        print("ok: SCONE rate advice sets the rate, an advice of 0 is counted, not obeyed")
        check_legacy_and_unknown()
        print("ok: without --long-haul the E-bit packet is a CNP; advice unknown")
        check_lh_unknown_source()
        print("ok: Long-haul CNPs from an unknown source are ignored")
        check_fixed_transfer()
        print("ok: --bytes completes, reports its completion time and ends early")
    finally:
        teardown()
    return 0


def test_roce_emu():
    """The same checks when collected by pytest."""
    assert main() == 0


if __name__ == "__main__":
    sys.exit(main())
