#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The XDP flow-learning program (cnpproxyd/proxy/xdp/learn.bpf.c) end to end.

Three namespaces the test creates and removes (root needed):

    sender  s0 --- p0  proxy  p1 --- r0  receiver
    192.0.2.1    .254     198.51.100.254  198.51.100.2
    2001:db8:1::1  ::fe   2001:db8:2::fe  2001:db8:2::2

proxy routes between its two veths; pnc-xdp-learn runs there.  XDP only
sees what comes *in*, so the sender-facing p0 shows REQ/RTU and data, and
the receiver-facing p1 the REP and the ACKs; runs that need both directions
attach to both.  roce-emu runs the RoCE connection between sender and
receiver.  Checked: CM REQ/REP decoded with the QPNs roce-emu logs, data
samples to QP 0x22 whose AckReq PSNs the ACK samples to QP 0x11 echo,
counters that add up, the per-flow interval, IPv4 and IPv6, field values
of crafted packets (flow label, P_Key, NAK, truncation, fragments), and
that the traffic is undisturbed.
"""

import json
import os
import signal
import socket
import struct
import subprocess
import sys
import time

from netns import (V4, V6, chain, cannot_run, events, ifindex, nsx, pnc_pkt_build, remove,
                   send_raw)

BUILD = os.environ.get("PNC_BUILDDIR", "build")
EMU = os.path.join(BUILD, "tools/roce-emu/roce-emu")
LEARN = os.path.join(BUILD, "tools/xdp-learn/pnc-xdp-learn")
PKT = os.path.join(BUILD, "tools/pnc-pkt/pnc-pkt")
TAG = "pncxl{}".format(os.getpid())
NS_S, NS_P, NS_R = TAG + "s", TAG + "p", TAG + "r"

EMU_SECONDS = 2.0
COUNTERS = ("pkts", "roce", "cm", "samples", "rate_limited", "rb_full", "ignored",
            "parse_err")


def setup():
    chain(NS_S, NS_P, NS_R)


def teardown():
    remove(NS_S, NS_P, NS_R)


def xdp_attached(ns, dev):
    out = subprocess.run(["ip", "-n", ns, "-d", "-j", "link", "show", dev], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    return "xdp" in json.loads(out)[0]


class Learner:
    """pnc-xdp-learn in the proxy namespace, stopped with SIGINT."""

    def __init__(self, devs, args=()):
        self.devs = devs
        self.proc = subprocess.Popen(nsx(NS_P, LEARN, "--duration", "0") + list(args) +
                                     list(devs), stdout=subprocess.PIPE, text=True)
        self.lines = []
        for _ in devs:
            line = self.proc.stdout.readline()
            assert line, "pnc-xdp-learn exited before attaching"
            ev = json.loads(line)
            assert ev["event"] == "attached" and ev["mode"] == "native", ev
            self.lines.append(ev)

    def stop(self):
        self.proc.send_signal(signal.SIGINT)
        out, _ = self.proc.communicate(timeout=30)
        assert self.proc.returncode == 0, self.proc.returncode
        self.lines += [json.loads(line) for line in out.splitlines()]
        for dev in self.devs:
            assert not xdp_attached(NS_P, dev), dev + ": program left attached"
        return self.lines


def run_emu(addrs, req_args, resp_args):
    resp = subprocess.Popen(nsx(NS_R, EMU, "responder", "--local", addrs["rcv"], "--duration",
                                str(EMU_SECONDS + 1.5), "--log-ms", "1000") + resp_args,
                            stdout=subprocess.PIPE, text=True)
    time.sleep(0.3)
    req = subprocess.run(nsx(NS_S, EMU, "requester", "--local", addrs["snd"], "--remote",
                             addrs["rcv"], "--rate", "20", "--duration", str(EMU_SECONDS),
                             "--log-ms", "1000") + req_args,
                         stdout=subprocess.PIPE, text=True, timeout=30, check=True)
    out, _ = resp.communicate(timeout=30)
    assert resp.returncode == 0, resp.returncode
    return ([json.loads(line) for line in req.stdout.splitlines()],
            [json.loads(line) for line in out.splitlines()])


def check_undisturbed(req, resp):
    rq, rs = events(req, "summary")[0], events(resp, "summary")[0]
    assert rq["tx_pkts"] > 500, rq
    assert rs["rx_pkts"] == rq["tx_pkts"] and rs["psn_gaps"] == 0, (rq, rs)
    # the requester may stop before the last ACK is back
    assert rs["acks_sent"] == rq["tx_pkts"] // 8, (rq, rs)
    assert rs["acks_sent"] - 1 <= rq["acks"] <= rs["acks_sent"], (rq, rs)
    return rq, rs


def check_counters(lines, rq, rs, n_cm, both_ways):
    c = events(lines, "counters")[0]
    cm, samples = events(lines, "cm"), events(lines, "roce")
    assert c["cm"] == len(cm) == n_cm, (c, len(cm))
    assert c["samples"] == len(samples), (c, len(samples))
    assert c["rb_full"] == 0 and c["parse_err"] == 0 and c["bad_records"] == 0, c
    # every RoCE packet in exactly one bucket
    assert c["roce"] == c["cm"] + c["samples"] + c["rate_limited"] + c["ignored"], c
    # and the program saw each one of them once
    seen = rq["tx_pkts"] + (rs["acks_sent"] if both_ways else 0)
    assert c["roce"] == seen + n_cm, (c, seen, n_cm)
    assert c["pkts"] >= c["roce"], c
    return c


def check_samples(lines, addrs, version, p0, p1, every_ackreq):
    """Data to 0x22 on p0, ACKs to 0x11 on p1 echoing data PSNs."""
    rate_limited = events(lines, "counters")[0]["rate_limited"]
    data = [e for e in events(lines, "roce", kind="data-ackreq")]
    plain = events(lines, "roce", kind="data")
    acks = events(lines, "roce", kind="ack")
    assert data and acks, "no samples"
    assert not events(lines, "roce", kind="nak")
    for e in data + plain:
        assert (e["ifindex"], e["ip_version"], e["src"], e["dst"]) == \
            (p0, version, addrs["snd"], addrs["rcv"]), e
        assert e["dest_qp"] == 0x22 and e["opcode"] == 0x0a and e["pkey"] == 0xffff, e
        assert e["sport"] == 0xc000 | 0x11 and e["flow_label"] == 0, e
        assert e["ack_req"] == (1 if e["kind"] == "data-ackreq" else 0), e
    for e in acks:
        assert (e["ifindex"], e["ip_version"], e["src"], e["dst"]) == \
            (p1, version, addrs["rcv"], addrs["snd"]), e
        assert e["dest_qp"] == 0x11 and e["opcode"] == 0x11 and e["syndrome"] >> 5 == 0, e
        assert e["sport"] == 0xc000 | 0x22, e
    psns = [e["psn"] for e in data]
    assert psns == sorted(psns) and len(set(psns)) == len(psns), psns[:20]
    # An ACK for a sampled request is marked as its echo, with its QP:
    # the (0x11, 0x22) pair straight away.
    for e in acks:
        assert ("echo_qp" in e) == (e["psn"] in psns), e
        assert e.get("echo_qp", 0x22) == 0x22, e
    echoed = set(e["psn"] for e in acks if "echo_qp" in e)
    assert set(psns[:-1]) <= echoed, sorted(set(psns[:-1]) - echoed)[:5]
    # Every ACK acknowledges a request with AckReq (one in 8 packets).
    assert all((e["psn"] - psns[0]) % 8 == 0 for e in acks), (psns[0], acks[:3])
    if every_ackreq:
        # Paced at 20 Mb/s an AckReq comes every ~3 ms, beyond the 1 ms
        # interval: each one is sampled, one ACK each, PSN for PSN.  A
        # scheduling stall makes a burst that the limiter may thin out.
        assert len(echoed) >= 0.9 * len(acks), (len(echoed), len(acks))
        if not rate_limited:
            assert sorted(e["psn"] for e in acks) == psns, "ACK PSNs do not echo data PSNs"
            assert all(b - a == 8 for a, b in zip(psns, psns[1:])), psns[:20]
        assert all((e["psn"] - psns[0]) % 8 for e in plain), plain
    return data, plain, acks


def check_cm(lines, addrs, version, p0, p1, req):
    conn = events(req, "connected")[0]
    assert conn["cm"] is True and conn["local_qpn"] == 0x11 and conn["remote_qpn"] == 0x22
    assert not [e for e in events(lines, "cm") if "error" in e], events(lines, "cm")
    reqs, reps, rtus = (events(lines, "cm", attr=a) for a in ("REQ", "REP", "RTU"))
    assert len(reqs) == len(reps) == len(rtus) == 1, events(lines, "cm")
    rq, rp, rt = reqs[0], reps[0], rtus[0]
    assert (rq["ifindex"], rq["ip_version"], rq["src"], rq["dst"]) == \
        (p0, version, addrs["snd"], addrs["rcv"]), rq
    assert rq["pkt_len"] == rq["cap_len"] == (308 if version == 4 else 328), rq
    assert rq["local_qpn"] == 0x11 and rq["starting_psn"] == 0x1000, rq
    assert rq["pkey"] == 0xffff and rq["local_comm_id"] == conn["comm_id"], (rq, conn)
    assert (rp["ifindex"], rp["src"], rp["dst"]) == (p1, addrs["rcv"], addrs["snd"]), rp
    assert rp["local_qpn"] == 0x22 and rp["remote_comm_id"] == rq["local_comm_id"], rp
    assert rt["ifindex"] == p0 and rt["remote_comm_id"] == rp["local_comm_id"], rt


def run_cm(addrs, version):
    p0, p1 = ifindex(NS_P, "p0"), ifindex(NS_P, "p1")
    learner = Learner(["p0", "p1"])
    req, resp = run_emu(addrs, [], [])
    lines = learner.stop()
    rq, rs = check_undisturbed(req, resp)
    check_cm(lines, addrs, version, p0, p1, req)
    data, _, _ = check_samples(lines, addrs, version, p0, p1, every_ackreq=True)
    c = check_counters(lines, rq, rs, n_cm=3, both_ways=True)
    assert len(data) >= 0.9 * (rq["tx_pkts"] // 8) and c["rate_limited"] < 0.1 * len(data), c
    plain = events(lines, "roce", kind="data")
    # data without AckReq: one per 100 ms at most
    assert 0 < len(plain) <= EMU_SECONDS / 0.1 + 2, len(plain)


def run_rate_limited(addrs, version):
    "100 ms interval: a couple of dozen samples out of hundreds of candidates."
    p0, p1 = ifindex(NS_P, "p0"), ifindex(NS_P, "p1")
    learner = Learner(["p0", "p1"], ["--interval-us", "100000"])
    req, resp = run_emu(addrs, ["--no-cm", "--peer-qpn", "0x22"],
                        ["--no-cm", "--peer-qpn", "0x11"])
    lines = learner.stop()
    rq, rs = check_undisturbed(req, resp)
    data, _, acks = check_samples(lines, addrs, version, p0, p1, every_ackreq=False)
    c = check_counters(lines, rq, rs, n_cm=0, both_ways=True)
    bound = EMU_SECONDS / 0.1 + 2
    # echoes of the sampled requests, plus what the ACK limiter lets through
    assert 5 <= len(data) <= bound and len(data) - 1 <= len(acks) <= 2 * bound, \
        (len(data), len(acks))
    assert c["rate_limited"] == rq["tx_pkts"] // 8 + rs["acks_sent"] - len(data) - len(acks), c
    gaps = [b["ts_ns"] - a["ts_ns"] for a, b in zip(data, data[1:])]
    gaps += [b["ts_ns"] - a["ts_ns"] for a, b in zip(acks, acks[1:]) if "echo_qp" not in b]
    assert min(gaps) >= 99_000_000, gaps
    # ACKs still fall in the window of data PSNs seen (doc/wire-formats.md 4.4)
    lo, hi = data[0]["psn"], rq["tx_pkts"] + 0x1000
    assert all(lo - 8 <= e["psn"] < hi for e in acks), (lo, hi, acks[:3])


def run_sender_side_only(addrs, version):
    "Attached to p0 only: the ingress direction, sender to receiver, no ACKs."
    p0 = ifindex(NS_P, "p0")
    learner = Learner(["p0"])
    req, resp = run_emu(addrs, [], [])
    lines = learner.stop()
    rq, rs = check_undisturbed(req, resp)
    cm = events(lines, "cm")
    assert [e["attr"] for e in cm] == ["REQ", "RTU"], cm
    assert cm[0]["local_qpn"] == 0x11, cm[0]
    assert not events(lines, "roce", kind="ack")
    assert all(e["ifindex"] == p0 and e["dest_qp"] == 0x22 for e in events(lines, "roce"))
    check_counters(lines, rq, rs, n_cm=2, both_ways=False)


def build(*args):
    return pnc_pkt_build(PKT, *args)


def ipv4_udp(payload, frag_off=0):
    "IPv4 + UDP to 4791; the kernel fills the IP checksum."
    udp = struct.pack("!HHHH", 0xc000, 4791, 8 + len(payload), 0) + payload
    hdr = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 1, frag_off, 64, 17, 0,
                      socket.inet_aton(V4["snd"]), socket.inet_aton(V4["rcv"]))
    return (hdr + udp).hex()


def run_crafted():
    "Field values, NAKs, truncated BTHs and fragments, with pnc-pkt packets."
    p0 = ifindex(NS_P, "p0")
    learner = Learner(["p0"], ["--interval-us", "0"])
    pkts = [
        build("rc-write", "only", "src=" + V6["snd"], "dst=" + V6["rcv"], "flow-label=0xabcde",
              "dqpn=0x333", "psn=0x123456", "ackreq=1", "pkey=0x8001", "tos=0x68",
              "sport=0xc123"),
        build("ack", "src=" + V4["snd"], "dst=" + V4["rcv"], "syndrome=nak", "nak=0",
              "msn=0x777", "dqpn=0x444", "psn=0x10"),
        ipv4_udp(bytes(6)),                        # BTH cut short
        ipv4_udp(bytes(40), frag_off=0x2000),      # first fragment (MF)
        build("rc-send", "only", "src=" + V4["snd"], "dst=" + V4["rcv"], "opcode=0x0c"),
    ]
    send_raw(NS_S, *pkts)
    time.sleep(0.3)
    lines = learner.stop()
    roce = events(lines, "roce")
    assert len(roce) == 2, roce
    w, n = roce
    assert (w["ip_version"], w["src"], w["dst"], w["ifindex"]) == (6, V6["snd"], V6["rcv"], p0)
    assert (w["flow_label"], w["dest_qp"], w["psn"], w["ack_req"], w["pkey"], w["tos"],
            w["sport"], w["opcode"], w["kind"]) == \
        (0xabcde, 0x333, 0x123456, 1, 0x8001, 0x68, 0xc123, 0x0a, "data-ackreq"), w
    assert (n["kind"], n["opcode"], n["syndrome"], n["msn"], n["dest_qp"], n["psn"]) == \
        ("nak", 0x11, 0x60, 0x777, 0x444, 0x10), n
    c = events(lines, "counters")[0]
    # the READ request (0x0c) is RoCE but not sampled; fragment and stub are not RoCE
    assert (c["roce"], c["samples"], c["ignored"], c["parse_err"]) == (3, 2, 1, 1), c


def main():
    rc = cannot_run(EMU, LEARN, PKT)
    if rc is not None:
        return rc
    teardown()
    setup()
    try:
        time.sleep(0.5)
        run_cm(V4, 4)
        print("ok: IPv4 with CM: REQ/REP/RTU decoded, data and ACK samples, PSNs echo")
        run_cm(V6, 6)
        print("ok: IPv6 with CM: REQ/REP/RTU decoded, data and ACK samples, PSNs echo")
        run_rate_limited(V6, 6)
        print("ok: IPv6 without CM, 100 ms interval bounds the samples")
        run_rate_limited(V4, 4)
        print("ok: IPv4 without CM, 100 ms interval bounds the samples")
        run_sender_side_only(V4, 4)
        print("ok: sender-facing interface only: REQ, RTU and data")
        run_crafted()
        print("ok: crafted packets: flow label, P_Key, NAK, truncated BTH, fragment")
    finally:
        teardown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
