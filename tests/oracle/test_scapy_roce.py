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

The formats of doc/wire-formats.md 7, random with --random SEED:
  * long-haul-icmpv6: scapy rebuilds the packet from the IPv6 header
    fields and the ICMPv6 type, code and body (computing the ICMPv6
    checksum itself) and gets the same octets; the block's fields sit
    at their offsets; the RFC 4884 extension is walked here, its
    checksum recomputed with scapy's checksum();
  * long-haul-rocev2: scapy's BTH has opcode 0x81, BECN and the E bit
    (0x20 of resv6), its ICRC (IPv4) or the zlib one (IPv6) is the
    packet's, the block and extension are at their offsets;
  * rate-advice: the same for the BTH and ICRC, and the four words.
The notification's ICMP form (doc/wire-formats.md 6.5), random over IPv4
and IPv6: scapy rebuilds the packet from the IP header fields and the
ICMP / ICMPv6 type, code and body, computing both checksums itself, and
gets the same octets.
"""
import struct
import zlib

from pnc_oracle import check, die, finish, run_json, build_hex

try:
    from scapy.all import ICMP, IP, UDP, Raw, raw
    from scapy.contrib.roce import BTH, CNPPadding
    from scapy.layers.inet6 import IPv6, ICMPv6Unknown
    from scapy.utils import checksum as inet_checksum
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


def ext_objects(tag, ext, x):
    """Walk an RFC 4884 extension (seed 000 objects) and compare with the JSON."""
    check(ext[0] >> 4 == 2, "%s: extension version %d" % (tag, ext[0] >> 4))
    csum = struct.unpack(">H", ext[2:4])[0]
    check(bool(csum) == x["ext_checksum"], "%s: ext checksum %#x, ext_checksum %r" %
          (tag, csum, x["ext_checksum"]))
    if csum:
        zeroed = ext[:2] + b"\0\0" + ext[4:]
        check(inet_checksum(zeroed) == csum, "%s: ext checksum scapy %#x, pnc-pkt %#x" %
              (tag, inet_checksum(zeroed), csum))
    off, seen = 4, {}
    while off + 4 <= len(ext):
        olen, cnum, ctype = struct.unpack(">HBB", ext[off:off + 4])
        check(cnum == x["class_num"], "%s: Class-Num %#x" % (tag, cnum))
        seen[ctype] = ext[off + 4:off + olen]
        off += (olen + 3) & ~3
    check(off == len(ext), "%s: objects end at %d of %d" % (tag, off, len(ext)))
    want = {}
    if "timestamp" in x:
        want[1] = struct.pack(">Q", x["timestamp"])
    if "device_id" in x:
        want[2] = x["device_id"].encode()
    if "path_id" in x:
        want[3] = bytes.fromhex(x["path_id"])
    check(seen == want, "%s: objects %r, pnc-pkt %r" % (tag, seen, want))


def lh_block(tag, body, v):
    """The 12-octet block at its offsets, then the extension or padding."""
    x = v["lh"]
    level, act, param, sqp, mtype = struct.unpack(">BBHIB", body[:9])
    metric = int.from_bytes(body[9:12], "big")
    pairs = [("level", level, x["level"]), ("action", act >> 6, x["action"]),
             ("action reserved bits", act & 0x3F, 0), ("parameter", param, x["parameter"]),
             ("src_qp", sqp, x["src_qp"]), ("metric_type", mtype, x["metric_type"]),
             ("metric", metric, x["metric"]),
             # CL 0-7 went out as 1 + CL * 254 / 7: level 0 and 1 read CL 0.
             ("cl", x["cl"], -(-max(x["level"] - 1, 0) * 7 // 254))]
    for name, got, want in pairs:
        check(got == want, "%s: %s: wire %r, pnc-pkt %r" % (tag, name, got, want))
    if x["ext"]:
        ext_objects(tag, body[12:], x)
    return x["ext"]


def test_lh_icmp6(count, seed):
    exts = set()
    for i, (h, v) in enumerate(same_packets("long-haul-icmpv6", count, seed)):
        tag = "long-haul-icmpv6 #%d" % i
        data = bytes.fromhex(h)
        p = IPv6(data)
        check(p.nh == 58 and p.plen == len(data) - 40, "%s: nh %d plen %d" % (tag, p.nh, p.plen))
        m = ICMPv6Unknown(raw(p.payload))
        ip = v["ip"]
        pairs = [("src", p.src, ip["src"]), ("dst", p.dst, ip["dst"]), ("tc", p.tc, ip["tos"]),
                 ("fl", p.fl, ip["flow_label"]), ("hlim", p.hlim, ip["ttl"]),
                 ("type", m.type, v["icmp6"]["type"]), ("type", m.type, 200),
                 ("code", m.code, v["icmp6"]["code"]), ("cksum", m.cksum, v["icmp6"]["checksum"])]
        for name, got, want in pairs:
            check(got == want, "%s: %s: scapy %r, pnc-pkt %r" % (tag, name, got, want))
        # scapy computes the checksum over its own pseudo-header
        again = raw(IPv6(src=p.src, dst=p.dst, tc=p.tc, fl=p.fl, hlim=p.hlim) /
                    ICMPv6Unknown(type=m.type, code=m.code, msgbody=m.msgbody))
        check(again == data, "%s: scapy rebuild differs (checksum scapy %s, pnc-pkt %s)" %
              (tag, again[42:44].hex(), data[42:44].hex()))
        exts.add(lh_block(tag, data[44:], v))
    check(exts == {False, True}, "long-haul-icmpv6: extension present in %s" % exts)


def test_notif_icmp(count, seed, extra=()):
    """The ICMP form: checksums and layout as scapy computes them."""
    for i, (h, v) in enumerate(same_packets("notif", count, seed, ["icmp=1"] + list(extra))):
        tag = "notif icmp=1 %s #%d" % (" ".join(extra), i)
        data = bytes.fromhex(h)
        check(v.get("form") == "icmp", "%s: pnc-pkt decodes %r" % (tag, v.get("form")))
        if extra:
            p = IPv6(data)
            m = ICMPv6Unknown(raw(p.payload))
            again = raw(IPv6(src=p.src, dst=p.dst, tc=p.tc, fl=p.fl, hlim=p.hlim) /
                        ICMPv6Unknown(type=m.type, code=m.code, msgbody=m.msgbody))
            # ICMPv6Unknown's body starts at the reserved word.
            want_type, body = 201, m.msgbody[4:]
        else:
            p = IP(data)
            m = p[ICMP]
            again = raw(IP(src=p.src, dst=p.dst, tos=p.tos, ttl=p.ttl, id=p.id, flags=p.flags) /
                        ICMP(type=m.type, code=m.code, id=m.id, seq=m.seq) / Raw(raw(m.payload)))
            want_type, body = 253, raw(m.payload)
        check(m.type == want_type and m.code == 0, "%s: type %d code %d" % (tag, m.type, m.code))
        check(again == data, "%s: scapy rebuild differs:\n  scapy   %s\n  pnc-pkt %s" %
              (tag, again.hex(), data.hex()))
        # After the 8-octet header: the UDP form's payload.
        check(body == data[(48 if extra else 28):], "%s: body not where 6.5 puts it" % tag)


def test_roce_msg(kind, count, seed, extra=()):
    """long-haul-rocev2 and rate-advice: BTH and ICRC by scapy or zlib."""
    seen = set()
    for i, (h, v) in enumerate(same_packets(kind, count, seed, list(extra))):
        tag = "%s %s #%d" % (kind, " ".join(extra), i)
        data = bytes.fromhex(h)
        v6 = v["ip"]["version"] == 6
        if v6:
            check(icrc_v6_reference(data) == data[-4:], "%s: ICRC reference %s, pnc-pkt %s" %
                  (tag, icrc_v6_reference(data).hex(), data[-4:].hex()))
            p = IPv6(data)
        else:
            p = icrc_recomputed(tag, data)
            if p is None:
                continue
            check_fields(tag, p, v)
        b = p[BTH]
        body = data[(48 if v6 else 28) + 12:-4]
        check(b.dqpn == v["bth"]["dqpn"] and b.pkey == v["bth"]["pkey"],
              "%s: BTH dqpn/pkey scapy %#x/%#x" % (tag, b.dqpn, b.pkey))
        if kind == "long-haul-rocev2":
            check(b.opcode == 0x81 and b.becn == 1 and b.resv6 == 0x20,
                  "%s: BTH opcode %#x becn %d resv6 %#x" % (tag, b.opcode, b.becn, b.resv6))
            seen.add(lh_block(tag, body, v))
            if not v["lh"]["ext"]:
                # seed 000 6.2.2: the ICRC follows the 12-octet block
                check(len(body) == 12, "%s: %d octets before the ICRC, not 12: %s" %
                      (tag, len(body), body.hex()))
        else:
            ra = v["rate_advice"]
            words = struct.unpack(">IIII", body) if len(body) == 16 else None
            check(words == (ra["rate"], 1, v["bth"]["dqpn"], ra["peer_qp"]),
                  "%s: body %s, pnc-pkt %r" % (tag, body.hex(), ra))
            check(b.opcode == 0xC0 and b.becn == 0 and b.resv6 == 0,
                  "%s: BTH opcode %#x" % (tag, b.opcode))
            seen.add(ra["rate"] > 0)
    return seen


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
    test_lh_icmp6(100, SEED + 4)
    test_notif_icmp(50, SEED + 7)
    test_notif_icmp(50, SEED + 8, ["-6"])
    for extra in ([], ["-6"]):
        check(test_roce_msg("long-haul-rocev2", 100, SEED + 5, extra) == {False, True},
              "long-haul-rocev2 %s: extension not always/never present" % extra)
        check(test_roce_msg("rate-advice", 50, SEED + 6, extra) == {True},
              "rate-advice %s: rates" % extra)
    finish("test_scapy_roce")


if __name__ == "__main__":
    main()
