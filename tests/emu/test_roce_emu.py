#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""roce-emu between two network namespaces joined by a veth pair.

Checks, for IPv4 with CM and IPv6 without: the connection comes up with
the right QPNs, every packet arrives in PSN order and is acknowledged as
requested, the rate holds; and with CE-marked data the responder's CNPs
are accepted (ICRC, DestQP) and cut the requester's rate, while CNPs crafted with pnc-pkt for another QP
or with a bad ICRC are refused.  The test
creates and removes its own namespaces; it needs root.
"""

import json
import os
import subprocess
import sys
import time

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
    finally:
        teardown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
