# SPDX-License-Identifier: GPL-2.0-or-later
"""Oracle: the byte examples of doc/wire-formats.md are what the code emits.

Every example in the document is an HTML comment naming how the bytes
are made, right before a fenced ```hex block:

    <!-- example: pnc-pkt build cnp dqpn=0x1234 -->
    ```hex
    45 c0 00 3c ...
    ```

Kinds of examples:

* `pnc-pkt build ...`: the command is run (with `--out hex`) and its
  output must equal the block, octet for octet (whitespace does not
  matter).  The block is then fed to `pnc-pkt decode` (with `--as notif`
  or `--as fcn` for a bare UDP payload), which must accept it; every
  RoCEv2 packet's ICRC is also recomputed here, independently of the
  codec, with zlib.
* `icrc-input pnc-pkt build ...`: the block is the ICRC's input for that
  packet (8 octets of 0xFF, then the packet with the variant fields set
  to all-ones, without the ICRC); it is recomputed here and its CRC-32
  must be the packet's ICRC, least significant octet first.
* `isis ...`: an IS-IS reachability TLV with RFC 7794 sub-TLVs, encoded
  by the small independent encoder below, then decoded back.
* `zapi-pnc ...`: the PNC block of a ZAPI route message.

The test fails if the document has no example, if an example kind the
document must cover is missing, or if a section that a source comment
cites (`wire-formats.md 6.2`, `wire-formats 4.4`, ...) has no heading.
It also checks that changing any single octet of an example would be
caught, and the "as much as fits" size rule of the seed 002 message.

Runs under automake's test driver (exit status) and under pytest.
"""
import ipaddress
import os
import re
import shlex
import subprocess
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
DOC = os.path.join(TOP, "doc", "wire-formats.md")

EXAMPLE_RE = re.compile(r"<!--\s*example:\s*(.*?)\s*-->[ \t]*\n```hex[ \t]*\n(.*?)^```",
                        re.S | re.M)
ROCE_PORT = 4791

# Kinds of packet the document must show at least once.
REQUIRED = {"cnp", "rc-write", "ack", "cm-req", "cm-rep", "cm-rtu", "cm-rej", "cm-dreq",
            "notif", "fcn", "icrc-input", "isis", "zapi-pnc"}


def pnc_pkt():
    path = os.environ.get("PNC_PKT")
    if not path:
        path = os.path.join(TOP, "build", "tools", "pnc-pkt", "pnc-pkt")
    assert os.access(path, os.X_OK), "pnc-pkt not found or not executable: %s" % path
    return path


def run(args, data=None):
    p = subprocess.run([pnc_pkt()] + list(args), input=data, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode(), p.stderr.decode(errors="replace")


def parse_hex(text, where):
    compact = re.sub(r"\s+", "", text)
    assert compact, "%s: empty hex block" % where
    assert re.fullmatch(r"[0-9a-fA-F]+", compact), "%s: not hex: %r" % (where, text[:60])
    assert len(compact) % 2 == 0, "%s: odd number of hex digits" % where
    return bytes.fromhex(compact)


def examples(text=None):
    """[(where, command, octets)] of the document."""
    if text is None:
        with open(DOC, encoding="utf-8") as f:
            text = f.read()
    out = []
    for m in EXAMPLE_RE.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        where = "wire-formats.md:%d" % line
        out.append((where, m.group(1), parse_hex(m.group(2), where)))
    return out


def kind_of(cmd):
    words = shlex.split(cmd)
    if words[0] == "pnc-pkt":
        return words[2]
    return words[0]


# ---- pnc-pkt examples --------------------------------------------------------


def build(cmd, where):
    words = shlex.split(cmd)
    assert words[:2] == ["pnc-pkt", "build"], "%s: only 'pnc-pkt build' is run" % where
    args = words[1:]
    if "--out" not in args:
        args += ["--out", "hex"]
    rc, out, err = run(args)
    assert rc == 0, "%s: %s: exit %d: %s" % (where, cmd, rc, err)
    return bytes.fromhex("".join(out.split())), words


def icrc_input(pkt):
    """ICRC input of a RoCEv2 packet (IP header first), written from the spec."""
    ver = pkt[0] >> 4
    hlen = 20 if ver == 4 else 40
    p = bytearray(pkt[:-4])
    if ver == 4:
        p[1] = 0xFF
        p[8] = 0xFF
        p[10:12] = b"\xff\xff"
    else:
        p[0] |= 0x0F
        p[1:4] = b"\xff\xff\xff"
        p[7] = 0xFF
    p[hlen + 6:hlen + 8] = b"\xff\xff"
    p[hlen + 8 + 4] = 0xFF
    return b"\xff" * 8 + bytes(p)


def is_roce(pkt):
    ver = pkt[0] >> 4
    hlen = 20 if ver == 4 else 40
    return len(pkt) > hlen + 8 and int.from_bytes(pkt[hlen + 2:hlen + 4], "big") == ROCE_PORT


def check_icrc(pkt, where):
    crc = zlib.crc32(icrc_input(pkt)) & 0xFFFFFFFF
    assert pkt[-4:] == crc.to_bytes(4, "little"), \
        "%s: ICRC %s, recomputed %08x" % (where, pkt[-4:].hex(), crc)


def check_pnc_pkt(where, cmd, octets):
    if cmd.startswith("icrc-input "):
        pkt, _ = build(cmd[len("icrc-input "):], where)
        want = icrc_input(pkt)
        assert octets == want, "%s: ICRC input differs from %s" % (where, want.hex())
        crc = zlib.crc32(octets) & 0xFFFFFFFF
        assert pkt[-4:] == crc.to_bytes(4, "little"), "%s: CRC of the input" % where
        return
    got, words = build(cmd, where)
    assert octets == got, "%s: %s\n  doc:  %s\n  tool: %s" % (where, cmd, octets.hex(),
                                                             got.hex())
    dec = ["decode", "--input", "hex"]
    if "bare=1" in words:
        dec += ["--as", words[2]]
    rc, out, err = run(dec, (octets.hex() + "\n").encode())
    assert rc == 0 and '"error"' not in out, \
        "%s: pnc-pkt decode refused the example: %s %s" % (where, out.strip(), err.strip())
    if "bare=1" not in words and is_roce(octets):
        check_icrc(octets, where)


# ---- IS-IS reachability TLVs (RFC 5305, 5308, 5120, 7794) --------------------


def kv(words):
    out = {}
    for w in words:
        k, _, v = w.partition("=")
        out[k] = v
    return out


def isis_encode(a):
    """One reachability entry in its TLV; an independent reading of the RFCs."""
    tlv = int(a["tlv"])
    net = ipaddress.ip_network(a["prefix"], strict=True)
    plen = net.prefixlen
    pfx = net.network_address.packed[:(plen + 7) // 8]
    sub = b""
    if "flags" in a:
        fl = bytes.fromhex(a["flags"])
        sub += bytes([4, len(fl)]) + fl
    if "srid" in a:
        rid = ipaddress.ip_address(a["srid"])
        sub += bytes([11 if rid.version == 4 else 12, len(rid.packed)]) + rid.packed
    metric = int(a.get("metric", "10")).to_bytes(4, "big")
    down = int(a.get("down", "0"))
    if tlv in (135, 235):
        assert net.version == 4
        ctl = (0x80 if down else 0) | (0x40 if sub else 0) | plen
        entry = metric + bytes([ctl]) + pfx
    else:
        assert tlv in (236, 237) and net.version == 6
        ext = int(a.get("external", "0"))
        fb = (0x80 if down else 0) | (0x40 if ext else 0) | (0x20 if sub else 0)
        entry = metric + bytes([fb, plen]) + pfx
    if sub:
        entry += bytes([len(sub)]) + sub
    if tlv in (235, 237):
        entry = int(a.get("mtid", "0")).to_bytes(2, "big") + entry
    return bytes([tlv, len(entry)]) + entry


def isis_decode(b):
    """Inverse of isis_encode for one entry; returns the same dictionary keys."""
    tlv, length = b[0], b[1]
    assert length == len(b) - 2, "TLV length %d, %d octets follow" % (length, len(b) - 2)
    v = b[2:]
    a = {"tlv": str(tlv)}
    if tlv in (235, 237):
        a["mtid"] = str(int.from_bytes(v[:2], "big") & 0x0FFF)
        v = v[2:]
    a["metric"] = str(int.from_bytes(v[:4], "big"))
    if tlv in (135, 235):
        ctl = v[4]
        down, has_sub, plen = ctl >> 7, (ctl >> 6) & 1, ctl & 0x3F
        off, alen, ver = 5, 4, 4
    else:
        fb = v[4]
        down, ext, has_sub = fb >> 7, (fb >> 6) & 1, (fb >> 5) & 1
        plen, off, alen, ver = v[5], 6, 16, 6
        if ext:
            a["external"] = "1"
    if down:
        a["down"] = "1"
    n = (plen + 7) // 8
    addr = v[off:off + n] + bytes(alen - n)
    a["prefix"] = "%s/%d" % (ipaddress.ip_address(addr), plen)
    off += n
    if has_sub:
        sublen = v[off]
        subs = v[off + 1:off + 1 + sublen]
        assert len(subs) == sublen and off + 1 + sublen == len(v), "sub-TLV block length"
        i = 0
        while i < len(subs):
            t, l = subs[i], subs[i + 1]
            val = subs[i + 2:i + 2 + l]
            assert len(val) == l, "sub-TLV %d truncated" % t
            if t == 4:
                a["flags"] = val.hex()
            elif t in (11, 12):
                assert l == (4 if t == 11 else 16), "Source Router ID length"
                a["srid"] = str(ipaddress.ip_address(val))
            i += 2 + l
    else:
        assert off == len(v), "octets after the prefix without S"
    assert ver == ipaddress.ip_network(a["prefix"]).version
    return a


def check_isis(where, cmd, octets):
    a = kv(shlex.split(cmd)[1:])
    want = isis_encode(a)
    assert octets == want, "%s: %s\n  doc:     %s\n  encoder: %s" % (where, cmd, octets.hex(),
                                                                  want.hex())
    back = isis_decode(octets)
    norm = dict(a)
    norm.setdefault("metric", "10")
    norm["prefix"] = str(ipaddress.ip_network(a["prefix"]))
    if "srid" in norm:
        norm["srid"] = str(ipaddress.ip_address(norm["srid"]))
    for k in ("down", "external"):
        if norm.get(k) == "0":
            del norm[k]
    if norm["tlv"] in ("235", "237"):
        norm.setdefault("mtid", "0")
    assert back == norm, "%s: decodes to %s, not %s" % (where, back, norm)


# ---- ZAPI PNC block (lib/zclient.c, zebra-pnc patch 0006) --------------------

ROUTE_TYPES = {"static": 4, "ospf": 7, "ospf6": 8, "isis": 9, "bgp": 10}  # FRR 10.7.1


def zapi_pnc_encode(a):
    flags = int(a.get("flags", "0"), 0)
    origin = ROUTE_TYPES[a["origin"]]
    if "proxy" not in a:
        return bytes([flags, origin, 0])
    ip = ipaddress.ip_address(a["proxy"])
    return bytes([flags, origin, 2 if ip.version == 4 else 10]) + ip.packed


def check_zapi(where, cmd, octets):
    want = zapi_pnc_encode(kv(shlex.split(cmd)[1:]))
    assert octets == want, "%s: %s: doc %s, encoder %s" % (where, cmd, octets.hex(), want.hex())


# ---- the tests ---------------------------------------------------------------


def check_one(where, cmd, octets):
    k = kind_of(cmd)
    if k == "isis":
        check_isis(where, cmd, octets)
    elif k == "zapi-pnc":
        check_zapi(where, cmd, octets)
    elif cmd.startswith("pnc-pkt ") or cmd.startswith("icrc-input "):
        check_pnc_pkt(where, cmd, octets)
    else:
        raise AssertionError("%s: unknown example kind: %s" % (where, cmd))


def test_examples_present():
    ex = examples()
    assert ex, "no example found in %s: the parser or the document is broken" % DOC
    kinds = {kind_of(c) for _, c, _ in ex}
    assert REQUIRED <= kinds, "kinds without an example: %s" % sorted(REQUIRED - kinds)
    # every fenced hex block is an example: none may escape the check
    with open(DOC, encoding="utf-8") as f:
        blocks = len(re.findall(r"^```hex[ \t]*$", f.read(), re.M))
    assert blocks == len(ex), "%d hex blocks but %d examples" % (blocks, len(ex))


def test_examples_match():
    failures = []
    ex = examples()
    for where, cmd, octets in ex:
        try:
            check_one(where, cmd, octets)
        except AssertionError as e:
            failures.append(str(e))
    assert not failures, "\n".join(failures)
    print("%d examples checked" % len(ex))


def test_changed_octet_is_caught():
    """The checks are not vacuous: one changed octet fails every example."""
    for where, cmd, octets in examples():
        for i in sorted({0, len(octets) // 2, len(octets) - 1}):
            bad = bytearray(octets)
            bad[i] ^= 0x01
            try:
                check_one(where, cmd, bytes(bad))
            except AssertionError:
                continue
            raise AssertionError("%s: octet %d changed and still accepted" % (where, i))
    text = "<!-- example: pnc-pkt build cnp -->\n```hex\n00\n```\n"
    assert examples(text), "the example parser finds nothing"


def test_notification_fits():
    """Seed 002: the UDP (or ICMP) packet stays within 576 (IPv4) / 1280 (IPv6) octets."""
    cases = (  # carrier args, invoking args, IP total, invoking octets kept
        ([], ["inv.len=1000"], 576, 576 - 20 - 8 - 16),
        (["-6"], ["inv.src=2001:db8::a", "inv.dst=2001:db8::b", "inv.len=2000"],
         1280, 1280 - 40 - 8 - 40),
        (["-6"], ["inv.len=2000"], 1280, 1280 - 40 - 8 - 16),
        ([], ["inv.src=2001:db8::a", "inv.dst=2001:db8::b", "inv.len=1000"],
         576, 576 - 20 - 8 - 40),
        # The ICMP form (6.5): an 8-octet ICMP header in the UDP header's place.
        (["icmp=1"], ["inv.len=1000"], 576, 576 - 20 - 8 - 16),
        (["-6", "icmp=1"], ["inv.src=2001:db8::a", "inv.dst=2001:db8::b", "inv.len=2000"],
         1280, 1280 - 40 - 8 - 40),
    )
    import json
    for carrier, inv, total, kept in cases:
        rc, out, err = run(["build", "notif", "invoking=rc-write"] + carrier + inv +
                           ["--out", "json"])
        assert rc == 0, err
        v = json.loads(out.splitlines()[0])
        assert v["len"] == total, "%s %s: %d octets" % (carrier, inv, v["len"])
        assert v["notif"]["invoking_len"] == kept, "%s %s: kept %d" % (
            carrier, inv, v["notif"]["invoking_len"])
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    for n in ("532", "1192", "576", "1280"):
        assert n in text, "the document does not state %s" % n


def cited_sections():
    """Section numbers that comments in the sources cite, with where."""
    pat = re.compile(r"wire-formats(?:\.md)?[ ,]+(?:section |sections |§)?(\d+(?:\.\d+)?)")
    out = []
    for sub in ("cnpproxyd", "tools", "tests", "isisd-pnc", "zebra-pnc", "doc"):
        for root, _, files in os.walk(os.path.join(TOP, sub)):
            for name in files:
                if not name.endswith((".c", ".h", ".py", ".patch", ".md", ".am")):
                    continue
                path = os.path.join(root, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    for n, line in enumerate(f, 1):
                        for m in pat.finditer(line):
                            out.append(("%s:%d" % (os.path.relpath(path, TOP), n), m.group(1)))
    return out


def test_cited_sections_exist():
    with open(DOC, encoding="utf-8") as f:
        heads = set(re.findall(r"^#{2,4} (\d+(?:\.\d+)?)\.? ", f.read(), re.M))
    for s in ["%d" % i for i in range(11)] + ["1.1", "1.2", "2.1", "2.2", "3.1", "3.3", "4.1",
                                               "4.2", "4.3", "4.4", "5.1", "6.1", "6.2",
                                               "6.3", "6.4"]:
        assert s in heads, "section %s has no heading" % s
    missing = ["%s cites %s" % (w, s) for w, s in cited_sections() if s not in heads]
    assert not missing, "cited sections without a heading:\n" + "\n".join(missing)


def main():
    failed = 0
    tests = [v for k, v in sorted(globals().items()) if k.startswith("test_") and callable(v)]
    for t in tests:
        try:
            t()
            print("PASS: %s" % t.__name__)
        except AssertionError as e:
            failed += 1
            print("FAIL: %s: %s" % (t.__name__, e))
    print("test_doc_examples: %d of %d tests failed" % (failed, len(tests)) if failed
          else "test_doc_examples: %d tests passed" % len(tests))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
