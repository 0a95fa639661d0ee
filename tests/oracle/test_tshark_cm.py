# SPDX-License-Identifier: GPL-2.0-or-later
"""Oracle: Wireshark's InfiniBand dissector (tshark) against pnc-pkt.

CM REQ and REP packets built by pnc-pkt into pcap files (LINKTYPE_RAW
over IPv4, and Ethernet over IPv6) must decode in tshark as InfiniBand
UD SEND Only to QP1 with the GSI Q_Key, and show the local QPNs, the
communication IDs, the starting PSNs, the P_Key and the service ID that
were requested: fixed values, values varied with --vary, and random ones.
"""
import os
import random
import shutil
import struct
import subprocess
import tempfile

from pnc_oracle import build_hex, check, die, finish, run

TSHARK = shutil.which("tshark") or "/usr/bin/tshark"

COMMON = ["infiniband.bth.opcode", "infiniband.bth.destqp", "infiniband.deth.q_key",
          "infiniband.deth.srcqp", "infiniband.mad.attributeid", "infiniband.bth.p_key"]
REQ = {"local-comm-id": "infiniband.cm.req", "local-qpn": "infiniband.cm.req.localqpn",
       "starting-psn": "infiniband.cm.req.startpsn", "partition-key": "infiniband.cm.req.pkey",
       "service-id": "infiniband.cm.req.serviceid", "local-qkey": "infiniband.cm.req.localqkey"}
REP = {"local-comm-id": "infiniband.cm.rep", "remote-comm-id": "infiniband.cm.rep.remotecommid",
       "local-qpn": "infiniband.cm.rep.localqpn", "starting-psn": "infiniband.cm.rep.startpsn",
       "local-qkey": "infiniband.cm.rep.localqkey"}


def tshark_rows(pcap, fields):
    """frame.protocols and the fields, one row per frame (one tshark run)."""
    if not os.access(TSHARK, os.X_OK):
        die("tshark is missing (apt-get install tshark)")
    cmd = [TSHARK, "-n", "-r", pcap, "-T", "fields", "-E", "separator=|",
           "-E", "occurrence=f", "-e", "frame.protocols"]
    for f in fields:
        cmd += ["-e", f]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        die("tshark failed: %s" % p.stderr.decode(errors="replace"))
    rows = []
    for line in p.stdout.decode().splitlines():
        cols = line.split("|")
        rows.append([cols[0]] + [int(x, 0) if x else None for x in cols[1:]])
    return rows


def check_pcap(tag, pcap, attr, want_rows, names, table, link):
    rows = tshark_rows(pcap, COMMON + [table[n] for n in names])
    check(len(rows) == len(want_rows), "%s: tshark read %d frames, expected %d" %
          (tag, len(rows), len(want_rows)))
    for i, (row, want) in enumerate(zip(rows, want_rows)):
        check(row[0] == link + ":ip" + ("v6" if ":ipv6:" in row[0] else "") +
              ":udp:infiniband", "%s #%d: protocols %s" % (tag, i, row[0]))
        row = row[1:]
        check(row[:6] == [0x64, 1, 0x80010000, 1, attr, want.get("pkey", 0xFFFF)],
              "%s #%d: BTH/DETH/MAD %s" % (tag, i, [hex(x) if x is not None else None
                                                    for x in row[:6]]))
        for n, got in zip(names, row[6:]):
            check(got == want[n], "%s #%d: %s: tshark %s, requested %s" %
                  (tag, i, n, hex(got) if got is not None else None, hex(want[n])))


def write_vlan_pcap(path, packets):
    """Ethernet + 802.1Q (VLAN 100) pcap of IP packets, written here."""
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
        for i, pkt in enumerate(packets):
            et = 0x86DD if pkt[0] >> 4 == 6 else 0x0800
            frame = (b"\x02\x00\x00\x00\x00\x02\x02\x00\x00\x00\x00\x01" +
                     struct.pack(">HHH", 0x8100, 100, et) + pkt)
            f.write(struct.pack("<IIII", 1700000000 + i, 0, len(frame), len(frame)) + frame)


def build(tmp, name, args):
    path = os.path.join(tmp, name)
    run(["build"] + args + ["--out", "pcap", path])
    return path


def main():
    rnd = random.Random(4791)
    with tempfile.TemporaryDirectory() as tmp:
        # fixed values, IPv4, LINKTYPE_RAW
        req = {"local-comm-id": 0xDEADBEEF, "local-qpn": 0x123456, "starting-psn": 0xABCDEF,
               "partition-key": 0x8001, "service-id": 0x0000000001060000 | 7471,
               "local-qkey": 0x11223344}
        pcap = build(tmp, "req.pcap", ["cm-req"] + ["%s=%#x" % kv for kv in req.items()])
        check_pcap("cm-req", pcap, 0x10, [req], list(req), REQ, "raw")

        rep = {"local-comm-id": 0x11112222, "remote-comm-id": 0xDEADBEEF,
               "local-qpn": 0x654321, "starting-psn": 0x13579B, "local-qkey": 0x55667788}
        pcap = build(tmp, "rep.pcap", ["cm-rep"] + ["%s=%#x" % kv for kv in rep.items()])
        check_pcap("cm-rep", pcap, 0x13, [rep], list(rep), REP, "raw")

        # random values, IPv6, pnc-pkt's Ethernet pcap (one file of 20) and
        # the same packets as hex put into an 802.1Q pcap here
        for kind, attr, table in (("cm-req", 0x10, REQ), ("cm-rep", 0x13, REP)):
            wants, pkts = [], []
            for i in range(20):
                w = {"local-comm-id": rnd.getrandbits(32), "local-qpn": rnd.getrandbits(24),
                     "starting-psn": rnd.getrandbits(24), "pkey": rnd.getrandbits(16)}
                if kind == "cm-rep":
                    w["remote-comm-id"] = rnd.getrandbits(32)
                args = [kind, "src=2001:db8:%x::1" % i, "dst=2001:db8::%x" % (i + 2),
                        "pkey=%#x" % w["pkey"]]
                args += ["%s=%#x" % (k, v) for k, v in w.items() if k != "pkey"]
                pkts.append(bytes.fromhex(build_hex(args)[0]))
                wants.append(w)
                if i == 0:
                    one = build(tmp, kind + "-eth.pcap", args + ["--eth"])
            names = [n for n in wants[0] if n != "pkey"]
            check_pcap(kind + " --eth", one, attr, wants[:1], names, table, "eth:ethertype")
            vlan = os.path.join(tmp, kind + "-vlan.pcap")
            write_vlan_pcap(vlan, pkts)
            check_pcap(kind + " random", vlan, attr, wants, names, table,
                       "eth:ethertype:vlan:ethertype")

        # --count/--vary: 16 REQs in one pcap
        pcap = build(tmp, "vary.pcap", ["cm-req", "--count", "16",
                                        "--vary", "local-qpn=0x100:0x10101",
                                        "--vary", "local-comm-id=0x1000:7",
                                        "--vary", "starting-psn=0xfff000:0x111"])
        wants = [{"local-qpn": 0x100 + i * 0x10101, "local-comm-id": 0x1000 + 7 * i,
                  "starting-psn": 0xFFF000 + i * 0x111} for i in range(16)]
        check_pcap("cm-req --vary", pcap, 0x10, wants, list(wants[0]), REQ, "raw")
    finish("test_tshark_cm")


if __name__ == "__main__":
    main()
