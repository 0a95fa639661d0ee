# SPDX-License-Identifier: GPL-2.0-or-later
"""Oracle: scapy against pnc-pkt for random RoCEv2 packets.

For 200 random IPv4 CNPs, 200 random RC WRITEs and 100 random RC SENDs
built by `pnc-pkt build KIND --random SEED --count N`:
  * scapy parses the packet (IP / UDP / BTH) and its fields equal the
    ones pnc-pkt reports (`--out json`, same seed);
  * scapy recomputes the ICRC (icrc deleted) and gets the same octets;
  * scapy rebuilds the whole packet from those fields alone (IP, UDP
    with checksum 0, BTH, CNP padding or RETH/ImmDt/payload/pad) and
    gets exactly the octets of pnc-pkt.
scapy computes the ICRC for IPv4 only; for 100 random IPv6 CNPs the ICRC
is recomputed here from doc/wire-formats.md 3.1 with zlib.crc32.
"""
import struct
import sys
import zlib

from pnc_oracle import check, die, finish, run_json, build_hex

try:
    from scapy.all import IP, UDP, Raw, raw
    from scapy.contrib.roce import BTH, CNPPadding
except ImportError as e:
    die("scapy is missing (apt-get install python3-scapy): %s" % e)

SEED = 20260611
RETH_OPS = (0x06, 0x0A, 0x0B)
IMM_OPS = (0x03, 0x05, 0x09, 0x0B)


def same_packets(kind, count, seed, extra=()):
    args = [kind, "--random", str(seed), "--count", str(count)] + list(extra)
    hexes = build_hex(args)
    views = run_json(["build"] + args + ["--out", "json"])
    check(len(hexes) == count and len(views) == count,
          "%s: %d hex / %d json packets, expected %d" % (kind, len(hexes), len(views), count))
    for h, v in zip(hexes, views):
        check(v.get("hex") == h, "%s: json and hex output differ for the same seed" % kind)
    return list(zip(hexes, views))


def check_fields(tag, p, v):
    ip, udp, bth = v["ip"], v["udp"], v["bth"]
    b = p[BTH]
    pairs = [
        ("ip.src", p[IP].src, ip["src"]), ("ip.dst", p[IP].dst, ip["dst"]),
        ("ip.tos", p[IP].tos, ip["tos"]), ("ip.ttl", p[IP].ttl, ip["ttl"]),
        ("ip.id", p[IP].id, ip["id"]), ("ip.df", bool(p[IP].flags.DF), ip["df"]),
        ("ip.len", p[IP].len, v["len"]), ("ip.chksum", p[IP].chksum, ip["checksum"]),
        ("udp.sport", p[UDP].sport, udp["sport"]), ("udp.dport", p[UDP].dport, 4791),
        ("udp.len", p[UDP].len, udp["len"]), ("udp.chksum", p[UDP].chksum, 0),
        ("bth.opcode", b.opcode, bth["opcode"]), ("bth.se", bool(b.solicited), bth["se"]),
        ("bth.m", bool(b.migreq), bth["m"]), ("bth.pad", b.padcount, bth["pad"]),
        ("bth.tver", b.version, bth["tver"]), ("bth.pkey", b.pkey, bth["pkey"]),
        ("bth.fecn", bool(b.fecn), bth["fecn"]), ("bth.becn", bool(b.becn), bth["becn"]),
        ("bth.resv6", b.resv6, bth["resv6"]), ("bth.dqpn", b.dqpn, bth["dqpn"]),
        ("bth.ackreq", bool(b.ackreq), bth["ackreq"]), ("bth.resv7", b.resv7, bth["resv7"]),
        ("bth.psn", b.psn, bth["psn"]),
    ]
    for name, got, want in pairs:
        check(got == want, "%s: %s: scapy %r, pnc-pkt %r" % (tag, name, got, want))


def icrc_recomputed(tag, data):
    p = IP(data)
    if not check(BTH in p, "%s: scapy finds no BTH" % tag):
        return None
    q = p.copy()
    q[BTH].icrc = None
    again = raw(q)
    check(again[-4:] == data[-4:], "%s: ICRC scapy %s, pnc-pkt %s" %
          (tag, again[-4:].hex(), data[-4:].hex()))
    check(again == data, "%s: scapy re-serialisation differs" % tag)
    return p


def scapy_rebuild(v):
    ip, udp, bth = v["ip"], v["udp"], v["bth"]
    op = bth["opcode"]
    if op == 0x81:
        body = raw(CNPPadding())
    else:
        body = b""
        if op in RETH_OPS:
            r = v["reth"]
            body += struct.pack(">QII", r["va"], r["rkey"], r["dma_len"])
        if op in IMM_OPS:
            body += struct.pack(">I", v["imm"])
        body += bytes.fromhex(v["payload"])
    pad = (4 - len(body) % 4) % 4
    body += b"\0" * pad
    pkt = (IP(src=ip["src"], dst=ip["dst"], tos=ip["tos"], ttl=ip["ttl"], id=ip["id"],
              flags="DF" if ip["df"] else 0) /
           UDP(sport=udp["sport"], dport=4791, chksum=0) /
           BTH(opcode=op, solicited=int(bth["se"]), migreq=int(bth["m"]), padcount=pad,
               version=0, pkey=bth["pkey"], fecn=int(bth["fecn"]), becn=int(bth["becn"]),
               resv6=bth["resv6"], dqpn=bth["dqpn"], ackreq=int(bth["ackreq"]),
               resv7=bth["resv7"], psn=bth["psn"]) /
           Raw(body))
    return raw(pkt)


def test_kind(kind, count, seed):
    ops = set()
    for i, (h, v) in enumerate(same_packets(kind, count, seed)):
        tag = "%s #%d" % (kind, i)
        data = bytes.fromhex(h)
        check(v.get("icrc_ok") is True, "%s: pnc-pkt says icrc_ok false" % tag)
        p = icrc_recomputed(tag, data)
        if p is None:
            continue
        check_fields(tag, p, v)
        rebuilt = scapy_rebuild(v)
        check(rebuilt == data, "%s: scapy rebuild differs:\n  scapy   %s\n  pnc-pkt %s" %
              (tag, rebuilt.hex(), h))
        ops.add(v["bth"]["opcode"])
    return ops


def icrc_v6_reference(data):
    """doc/wire-formats.md 3.1 for IPv6, written independently of the codec."""
    m = bytearray(b"\xff" * 8 + data[:-4])
    m[8] = (m[8] & 0xF0) | 0x0F          # traffic class and flow label
    m[9:12] = b"\xff\xff\xff"
    m[8 + 7] = 0xFF                      # hop limit
    m[8 + 40 + 6:8 + 40 + 8] = b"\xff\xff"  # UDP checksum
    m[8 + 48 + 4] = 0xFF                 # FECN, BECN, Resv6
    return struct.pack("<I", zlib.crc32(bytes(m)) & 0xFFFFFFFF)


def main():
    ops = test_kind("cnp", 200, SEED)
    check(ops == {0x81}, "cnp: opcodes %s" % ops)
    ops = test_kind("rc-write", 200, SEED + 1)
    check(ops >= {0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B},
          "rc-write: random packets did not cover every opcode: %s" % sorted(ops))
    ops = test_kind("rc-send", 100, SEED + 2)
    check(ops >= {0x00, 0x01, 0x02, 0x03, 0x04, 0x05},
          "rc-send: random packets did not cover every opcode: %s" % sorted(ops))

    for i, (h, v) in enumerate(same_packets("cnp", 100, SEED + 3, ["-6"])):
        data = bytes.fromhex(h)
        check(v["ip"]["version"] == 6, "cnp -6 #%d: not IPv6" % i)
        check(icrc_v6_reference(data) == data[-4:],
              "cnp -6 #%d: ICRC reference %s, pnc-pkt %s" %
              (i, icrc_v6_reference(data).hex(), data[-4:].hex()))
    finish("test_scapy_roce")


if __name__ == "__main__":
    main()
