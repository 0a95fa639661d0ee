# SPDX-License-Identifier: GPL-2.0-or-later
"""Oracle: pnc-pkt decode of pnc-pkt build output, for every kind.

* Each kind is built with every field it has set to a non-default value;
  `pnc-pkt decode` (hex, raw and pcap input, LINKTYPE_RAW, Ethernet and
  802.1Q) must report exactly those values and icrc_ok.
* The defaults reproduce the ICRC test vectors of doc/wire-formats.md 3.3.
* Corrupted or invalid packets (flipped ICRC octet, truncation, bad IP
  or UDP checksum, TVer, MAD class, Q_Key, syndrome, notification
  version, FCN label 0, ...) give the codec's reason string and exit 1.
* The Long-haul CNP (both forms) and the rate advice: every field set,
  decoded back (with the decode options for non-default code points),
  and their rejections (ICMPv6 and extension checksums, parameter,
  extension version, rate advice version, QP and length).
"""
import json
import os
import struct
import tempfile

from pnc_oracle import build_hex, check, finish, run, run_full, run_json

IP4 = ["src=10.1.2.3", "dst=10.9.8.7", "tos=0x6b", "ttl=17", "id=0xbeef", "df=0",
       "sport=0xd00d", "udp-csum=auto"]
IP4_WANT = {"ip.version": 4, "ip.src": "10.1.2.3", "ip.dst": "10.9.8.7", "ip.tos": 0x6B,
            "ip.dscp": 0x6B >> 2, "ip.ecn": 3, "ip.ttl": 17, "ip.id": 0xBEEF, "ip.df": False,
            "udp.sport": 0xD00D}
IP6 = ["src=2001:db8:a::1", "dst=2001:db8:b::2", "dscp=46", "ecn=ect1", "hlim=3",
       "fl=0xabcde", "sport=0xfeed"]
IP6_WANT = {"ip.version": 6, "ip.src": "2001:db8:a::1", "ip.dst": "2001:db8:b::2",
            "ip.tos": 46 << 2 | 1, "ip.ttl": 3, "ip.flow_label": 0xABCDE, "udp.sport": 0xFEED}
# Two patterns, so that each flag differs from its neighbours in one of them.
BTH = ["pkey=0x7fff", "resv6=0x15", "dqpn=0xabcdef", "resv7=0x2a", "psn=0x123456"]
BTH_WANT = {"bth.pkey": 0x7FFF, "bth.resv6": 0x15, "bth.dqpn": 0xABCDEF, "bth.resv7": 0x2A,
            "bth.psn": 0x123456, "icrc_ok": True}
FLAGS = {4: {"se": 1, "m": 0, "fecn": 1, "becn": 0, "ackreq": 0},
         6: {"se": 0, "m": 1, "fecn": 0, "becn": 1, "ackreq": 1}}


CASES = [
    ("cnp", [], {"kind": "cnp", "bth.opcode": 0x81, "reserved": "00" * 16}),
    ("rc-write", ["first", "va=0x1122334455667788", "rkey=0xcafef00d", "dma-len=4096",
                  "payload=0102030405"],
     {"kind": "rc-write", "variant": "first", "bth.opcode": 0x06, "bth.pad": 3,
      "reth.va": 0x1122334455667788, "reth.rkey": 0xCAFEF00D, "reth.dma_len": 4096,
      "payload": "0102030405", "payload_len": 5}),
    ("rc-write", ["middle", "len=7"], {"variant": "middle", "bth.opcode": 0x07,
                                        "payload": "00010203040506", "bth.pad": 1}),
    ("rc-write", ["last", "imm=0x01020304", "len=0"],
     {"variant": "last", "bth.opcode": 0x09, "imm": 0x01020304, "payload_len": 0}),
    ("rc-write", ["only", "imm=9", "len=1000"],
     {"variant": "only", "bth.opcode": 0x0B, "imm": 9, "reth.dma_len": 1000,
      "payload_len": 1000}),
    ("rc-send", ["first", "payload=aa", "len=3"],
     {"kind": "rc-send", "variant": "first", "bth.opcode": 0x00, "payload": "aaaaaa"}),
    ("rc-send", ["only", "imm=0xffffffff"], {"bth.opcode": 0x05, "imm": 0xFFFFFFFF}),
    ("rc-send", ["last"], {"bth.opcode": 0x02, "payload_len": 64}),
    ("ack", ["nak=remote-access", "msn=0xfedcba"],
     {"kind": "ack", "bth.opcode": 0x11, "aeth.syndrome": 0x62, "aeth.type": "nak",
      "aeth.value": 2, "aeth.msn": 0xFEDCBA}),
    ("ack", ["credits=5"], {"aeth.syndrome": 5, "aeth.type": "ack"}),
    ("ack", ["rnr-timer=12"], {"aeth.syndrome": 0x2C, "aeth.type": "rnr-nak"}),
    ("cm-req", ["local-comm-id=0x01020304", "service-id=0x106abcd", "local-ca-guid=0x77",
                "local-qkey=0x1234", "local-qpn=0xa0b0c0", "responder-resources=3",
                "local-eecn=0x111", "initiator-depth=4", "remote-eecn=0x222",
                "remote-cm-resp-timeout=9", "transport-type=1", "e2e-flow-ctrl=1",
                "starting-psn=0xc0ffee", "local-cm-resp-timeout=11", "retry-count=5",
                "partition-key=0x8002", "path-mtu=3", "rdc-exists=1", "rnr-retry-count=6",
                "max-cm-retries=10", "srq=1", "ext-transport-type=2",
                "primary-local-lid=0x10", "primary-remote-lid=0x20",
                "primary-remote-gid=2001:db8::99", "primary-flow-label=0x54321",
                "primary-packet-rate=33", "primary-traffic-class=0x60",
                "primary-hop-limit=9", "primary-sl=7", "primary-subnet-local=1",
                "primary-local-ack-timeout=30", "private-data=c0ffee", "tid=0x1234567890",
                "attr-mod=0x55", "qkey=0x80010000", "src-qp=1"],
     {"kind": "cm-req", "bth.opcode": 0x64, "bth.dqpn": 1, "deth.qkey": 0x80010000,
      "mad.attr_id": 0x10, "mad.tid": 0x1234567890, "mad.attr_mod": 0x55,
      "cm.local_comm_id": 0x01020304, "cm.service_id": 0x106ABCD, "cm.local_ca_guid": 0x77,
      "cm.local_qkey": 0x1234, "cm.local_qpn": 0xA0B0C0, "cm.responder_resources": 3,
      "cm.local_eecn": 0x111, "cm.initiator_depth": 4, "cm.remote_eecn": 0x222,
      "cm.remote_cm_resp_timeout": 9, "cm.transport_type": 1, "cm.e2e_flow_ctrl": True,
      "cm.starting_psn": 0xC0FFEE, "cm.local_cm_resp_timeout": 11, "cm.retry_count": 5,
      "cm.partition_key": 0x8002, "cm.path_mtu": 3, "cm.rdc_exists": True,
      "cm.rnr_retry_count": 6, "cm.max_cm_retries": 10, "cm.srq": True,
      "cm.ext_transport_type": 2, "cm.primary_local_lid": 0x10,
      "cm.primary_remote_lid": 0x20, "cm.primary_remote_gid": "2001:db8::99",
      "cm.primary_flow_label": 0x54321, "cm.primary_packet_rate": 33,
      "cm.primary_traffic_class": 0x60, "cm.primary_hop_limit": 9, "cm.primary_sl": 7,
      "cm.primary_subnet_local": True, "cm.primary_local_ack_timeout": 30,
      "cm.private_data": "c0ffee" + "00" * 89}),
    ("cm-rep", ["local-comm-id=0xa1", "remote-comm-id=0x01020304", "local-qkey=0x99",
                "local-qpn=0x0d0e0f", "local-eecn=0x5", "starting-psn=0xbadcaf",
                "vendor-id=0x123456", "responder-resources=1", "initiator-depth=2",
                "target-ack-delay=31", "failover-accepted=2", "e2e-flow-ctrl=1",
                "rnr-retry-count=3", "srq=1", "local-ca-guid=0xfeedfacecafebeef"],
     {"kind": "cm-rep", "mad.attr_id": 0x13, "cm.local_comm_id": 0xA1,
      "cm.remote_comm_id": 0x01020304, "cm.local_qkey": 0x99, "cm.local_qpn": 0x0D0E0F,
      "cm.local_eecn": 5, "cm.starting_psn": 0xBADCAF, "cm.vendor_id": 0x123456,
      "cm.responder_resources": 1, "cm.initiator_depth": 2, "cm.target_ack_delay": 31,
      "cm.failover_accepted": 2, "cm.e2e_flow_ctrl": True, "cm.rnr_retry_count": 3,
      "cm.srq": True, "cm.local_ca_guid": 0xFEEDFACECAFEBEEF}),
    ("cm-rtu", ["local-comm-id=7", "remote-comm-id=8"],
     {"kind": "cm-rtu", "mad.attr_id": 0x14, "cm.local_comm_id": 7, "cm.remote_comm_id": 8}),
    ("cm-rej", ["local-comm-id=9", "remote-comm-id=10", "msg-rejected=1",
                "reject-info-len=4", "reason=8", "ari=01020304"],
     {"kind": "cm-rej", "mad.attr_id": 0x12, "cm.local_comm_id": 9,
      "cm.remote_comm_id": 10, "cm.msg_rejected": 1, "cm.reject_info_len": 4,
      "cm.reason": 8, "cm.ari": "01020304" + "00" * 68}),
    ("cm-dreq", ["local-comm-id=11", "remote-comm-id=12", "remote-qpn=0x445566"],
     {"kind": "cm-dreq", "mad.attr_id": 0x15, "cm.local_comm_id": 11,
      "cm.remote_comm_id": 12, "cm.remote_qpn": 0x445566}),
    ("notif", ["cl=6", "start=outer", "flow-src=2001:db8:1::5", "flow-dst=2001:db8:2::6",
               "flow-sport=1234", "flow-dport=4791", "protocol=17", "dport=61791"],
     {"kind": "notif", "udp.dport": 61791, "notif.version": 1, "notif.af": 6,
      "notif.cl": 6, "notif.start": 1, "notif.flow_src": "2001:db8:1::5",
      "notif.flow_dst": "2001:db8:2::6", "notif.flow_sport": 1234,
      "notif.flow_dport": 4791, "notif.protocol": 17, "notif.invoking_present": False}),
    ("notif", ["cl=7", "invoking=rc-write", "inv.src=172.16.0.1", "inv.dst=172.16.0.2",
               "inv.dqpn=0x4242", "inv.psn=77", "inv.sport=50000"],
     {"notif.cl": 7, "notif.af": 4, "notif.flow_src": "172.16.0.1",
      "notif.flow_dst": "172.16.0.2", "notif.flow_sport": 50000, "notif.flow_dport": 4791,
      "notif.invoking_present": True, "notif.invoking_len": 124,
      "notif.invoking_roce.bth.dqpn": 0x4242, "notif.invoking_roce.bth.psn": 77,
      "notif.invoking_roce.ip.src": "172.16.0.1", "notif.invoking_roce.truncated": False}),
    ("notif", ["start=mpls", "invoking=0003e1ff" + "45"],
     {"notif.start": 2, "notif.invoking": "0003e1ff45", "notif.invoking_error":
      "ip-truncated"}),
    ("fcn", ["label=0xfedcb", "cl=2"],
     {"kind": "fcn", "udp.dport": 61792, "udp.len": 12, "fcn.label": 0xFEDCB, "fcn.cl": 2}),
]


def get(obj, path):
    for part in path.split("."):
        if not isinstance(obj, dict) or part not in obj:
            return "<missing>"
        obj = obj[part]
    return obj


def expect(tag, view, want):
    for path, value in want.items():
        got = get(view, path)
        check(got == value, "%s: %s = %r, requested %r" % (tag, path, got, value))


def write_pcap(path, linktype, frames):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, linktype))
        for fr in frames:
            f.write(struct.pack("<IIII", 0, 0, len(fr), len(fr)) + fr)


def test_fields(tmp):
    for kind, args, want in CASES:
        roce = kind not in ("notif", "fcn")
        for ipargs, ipwant in ((IP4, IP4_WANT), (IP6, IP6_WANT)):
            flags = FLAGS[ipwant["ip.version"]]
            bth = BTH + ["%s=%d" % kv for kv in flags.items()]
            bth_want = dict(BTH_WANT)
            bth_want.update({"bth." + k: bool(v) for k, v in flags.items()})
            if kind.startswith("cm-"):  # always to QP1
                bth.remove("dqpn=0xabcdef")
                bth_want["bth.dqpn"] = 1
            full = [kind] + ipargs + (bth if roce else []) + args
            tag = "%s IPv%s %s" % (kind, ipwant["ip.version"], " ".join(args)[:60])
            w = dict(ipwant)
            if roce:
                w.update(bth_want)
            w.update(want)
            hexes = build_hex(full)
            check(len(hexes) == 1, "%s: %d packets" % (tag, len(hexes)))
            # hex on stdin
            views = run_json(["decode"], ("\n".join(hexes) + "\n").encode())
            check(len(views) == 1, "%s: %d decoded" % (tag, len(views)))
            expect(tag, views[0], w)
            check(views[0].get("len") == len(bytes.fromhex(hexes[0])), "%s: len" % tag)
            # build --out json is the same view
            bj = run_json(["build"] + full + ["--out", "json"])
            check(bj and {k: v for k, v in bj[0].items() if k != "hex"} == views[0],
                  "%s: build --out json differs from decode" % tag)
            # raw file, pcap (raw and Ethernet) in and out of pnc-pkt, text format
            raw = run(["build"] + full + ["--out", "raw"])
            check(raw.hex() == hexes[0], "%s: --out raw differs from hex" % tag)
            rawf = os.path.join(tmp, "p.bin")
            with open(rawf, "wb") as f:
                f.write(raw)
            expect(tag + " (raw)", run_json(["decode", "--input", "raw", rawf])[0], w)
            for eth in ([], ["--eth"]):
                pc = os.path.join(tmp, "p.pcap")
                run(["build"] + full + eth + ["--out", "pcap", pc])
                v = run_json(["decode", pc])
                check(len(v) == 1, "%s %s: pcap %d packets" % (tag, eth, len(v)))
                expect(tag + " (pcap%s)" % eth, v[0] if v else {}, w)
            txt = run(["decode", "--format", "text"], raw).decode()
            check(("kind: " + get(views[0], "kind")) in txt, "%s: text output" % tag)


def test_vectors():
    # doc/wire-formats.md 3.3
    v4 = build_hex(["cnp"])[0]
    check(v4 == "45c0003c000040004011b5edc0000201c0000202c00012b700280000"
          "8100ffff4000012300000000" + "00" * 16 + "70199d9a", "IPv4 CNP vector: " + v4)
    v6 = build_hex(["cnp", "-6"])[0]
    check(v6.startswith("6c000000002811402001") and v6.endswith("928fe039"),
          "IPv6 CNP vector: " + v6)
    # doc/wire-formats.md 6.3 example: FL 0x12345, CL 5 -> 12 34 5A 00
    check(build_hex(["fcn", "bare=1"])[0] == "12345a00", "FCN example")
    notif = build_hex(["notif", "bare=1", "cl=5", "flow-src=192.0.2.10",
                       "flow-dst=192.0.2.20", "flow-sport=0x1234"])[0]
    check(notif == "1411a0001234" + "12b7" + "c000020a" + "c0000214", "notif layout " + notif)
    # hex lines are guessed as such whatever their comments say
    text = "# the CNP of 3.3, and words: every kind, pqrs\n" + v4 + "  # and more\n"
    out = run_json(["decode"], text.encode())
    check([o.get("kind") for o in out] == ["cnp"], "hex with comments: %s" % out)


def flip(h, index):
    b = bytearray(bytes.fromhex(h))
    b[index] ^= 0x01
    return b.hex()


def decode_error(tag, h, reason, extra=()):
    rc, out, err = run_full(["decode"] + list(extra), (h + "\n").encode())
    check(rc == 1, "%s: exit status %d, expected 1" % (tag, rc))
    out = [json.loads(x) for x in out.decode().splitlines()]
    check(out == [{"packet": 1, "error": reason}], "%s: %s, expected %s" % (tag, out, reason))
    check(reason in err.decode(), "%s: reason not on stderr" % tag)


def test_errors():
    for kind in ("cnp", "rc-write", "rc-send", "ack", "cm-req", "cm-rep", "cm-rtu",
                 "cm-rej", "cm-dreq"):
        for v in ([], ["-6"]):
            h = build_hex([kind] + v)[0]
            n = len(h) // 2
            tag = "%s %s" % (kind, v)
            decode_error(tag + " ICRC flipped", flip(h, n - 1), "icrc-mismatch")
            decode_error(tag + " ICRC flipped", flip(h, n - 4), "icrc-mismatch")
            decode_error(tag + " last octet cut", h[:-2], "ip-truncated")
            decode_error(tag + " cut in BTH", h[: 2 * (n // 2)][:2 * (28 if not v else 48) + 6],
                         "ip-truncated")
            # a covered field changed (the IP source): ICRC (v6) or IP checksum (v4)
            decode_error(tag + " source changed", flip(h, 12 if not v else 8),
                         "ip-bad-checksum" if not v else "icrc-mismatch")
            # the ICRC does not cover TTL/TOS/FECN: v6 changes there stay valid
            if v:
                out = run_json(["decode"], (flip(h, 7) + "\n").encode())
                check(out[0].get("icrc_ok") is True, tag + ": hop limit is not covered")
            # --lenient decodes a bad ICRC and says so
            out = run_json(["decode", "--lenient"], (flip(h, n - 1) + "\n").encode())
            check(out and out[0].get("icrc_ok") is False and
                  out[0].get("icrc_expected") == out[0].get("icrc", 0) ^ (1 << 24) and
                  out[0].get("kind") == kind, tag + ": --lenient " + str(out)[:200])
    # PadCnt forced on a valid length: the payload is shorter by that much
    out = run_json(["decode"], (build_hex(["rc-write", "pad=1"])[0] + "\n").encode())
    check(out[0].get("payload_len") == 63 and out[0]["bth"]["pad"] == 1, "pad=1 " + str(out))
    # a mix of valid and invalid packets: exit 1, errors in place
    good, bad = build_hex(["cnp"])[0], flip(build_hex(["ack"])[0], 47)
    out = run_json(["decode"], ("%s\n%s\n%s\n" % (good, bad, good)).encode(), expect_rc=1)
    check([o.get("error") for o in out] == [None, "icrc-mismatch", None], "mixed input")

    cases = [
        (["cnp", "tver=1"], "bth-bad-tver"),
        (["cnp", "udp-csum=0x1234"], "udp-bad-checksum"),
        (["cnp", "ip-csum=0x1234"], "ip-bad-checksum"),
        (["cnp", "pad=2"], "bth-bad-padcnt"),
        (["rc-write", "middle", "len=0", "pad=3"], "bth-bad-padcnt"),
        (["ack", "syndrome=0x40"], "aeth-bad-syndrome"),
        (["ack", "nak=7"], "aeth-bad-syndrome"),
        (["cm-req", "qkey=0x1"], "cm-bad-qkey"),
        (["cm-req", "mgmt-class=4"], "mad-not-cm"),
        (["cm-req", "class-version=1"], "mad-bad-class-version"),
        (["cm-req", "base-version=2"], "mad-bad-base-version"),
        (["cm-rep", "method=0x83"], "mad-bad-method"),
        (["cm-rtu", "attr-id=0x11", "dqpn=1"], None),  # MRA: encoder refuses, below
        (["rc-write", "dport=4792"], "udp-unknown-port"),
    ]
    for args, reason in cases:
        if reason is None:
            run(["build"] + args, expect_rc=2)
            continue
        h = build_hex(args)[0]
        decode_error(" ".join(args), h, reason)

    # bare messages
    decode_error("notif version 2", "24116000c00012b7c6336401c6336402", "notif-bad-version",
                 ["--as", "notif"])
    decode_error("notif af 5", "15116000c00012b7c6336401c6336402", "notif-bad-af",
                 ["--as", "notif"])
    decode_error("notif short", "14116000c00012b7c6336401c63364", "notif-truncated",
                 ["--as", "notif"])
    decode_error("notif flag without invoking", "14117000c00012b7c6336401c6336402",
                 "notif-invoking-missing", ["--as", "notif"])
    decode_error("notif trailing", "14116000c00012b7c6336401c6336402ff", "notif-trailing-data",
                 ["--as", "notif"])
    decode_error("fcn zero label", "00000a00", "fcn-zero-label", ["--as", "fcn"])
    decode_error("fcn long", "12345a0000", "fcn-trailing-data", ["--as", "fcn"])
    decode_error("fcn short", "12345a", "fcn-truncated", ["--as", "fcn"])
    h = build_hex(["notif"])[0]
    decode_error("notif UDP checksum", flip(h, len(h) // 2 - 1), "udp-bad-checksum")
    decode_error("not IP", "00" * 40, "ip-bad-version")
    # usage errors are exit 2, not 1
    run(["build", "cnp", "nosuchfield=1"], expect_rc=2)
    run(["build", "cnp", "dqpn=0x1000000"], expect_rc=2)
    run(["build", "cnp", "msn=1"], expect_rc=2)
    run(["build", "nosuchkind"], expect_rc=2)


def test_vary_and_vlan(tmp):
    out = run_json(["build", "cnp", "--count", "4", "--vary", "dst=10.0.0.254:1",
                    "--vary", "dqpn=0x10:0x10", "--out", "json"])
    check([o["ip"]["dst"] for o in out] == ["10.0.0.254", "10.0.0.255", "10.0.1.0",
                                            "10.0.1.1"], "--vary dst")
    check([o["bth"]["dqpn"] for o in out] == [0x10, 0x20, 0x30, 0x40], "--vary dqpn")
    a = build_hex(["rc-write", "--random", "5", "--count", "3"])
    b = build_hex(["rc-write", "--random", "5", "--count", "3"])
    c = build_hex(["rc-write", "--random", "6", "--count", "3"])
    check(a == b and a != c and len(set(a)) == 3, "--random is deterministic per seed")
    # 802.1Q and QinQ tagged Ethernet pcap, written here
    pkts = [bytes.fromhex(build_hex(["cm-rep", "local-qpn=0x%x" % q])[0]) for q in (5, 6)]
    frames = []
    for tags, p in zip((b"\x81\x00\x00\x64", b"\x88\xa8\x00\x01\x81\x00\x00\x02"), pkts):
        frames.append(b"\x02" * 6 + b"\x04" * 6 + tags + b"\x08\x00" + p + b"\0" * 7)
    pc = os.path.join(tmp, "vlan.pcap")
    write_pcap(pc, 1, frames)
    out = run_json(["decode", "--input", "pcap", pc])
    check([o.get("cm", {}).get("local_qpn") for o in out] == [5, 6], "802.1Q pcap " + str(out))


LH = ["level=201", "action=pause", "parameter=65000", "src-qp=0xfedcba98",
      "metric-type=rtt-us", "metric=0xabcdef"]
LH_WANT = {"lh.level": 201, "lh.cl": 6, "lh.action": 1, "lh.action_name": "pause",
           "lh.parameter": 65000, "lh.src_qp": 0xFEDCBA98, "lh.metric_type": 4,
           "lh.metric_type_name": "rtt-us", "lh.metric": 0xABCDEF, "lh.ext": False}
EXT = ["ext=1", "ext-checksum=0", "class-num=0xf9", "timestamp=0x0123456789abcdef",
       "device-id=sw-7.pod3", "path-id=0102030405"]
EXT_WANT = {"lh.ext": True, "lh.ext_checksum": False, "lh.class_num": 0xF9,
            "lh.timestamp": 0x0123456789ABCDEF, "lh.device_id": "sw-7.pod3",
            "lh.path_id": "0102030405", "lh.unknown_objects": 0}
ROCE_MSG = ["pkey=0x7fff", "dqpn=0xabcdef"]
ROCE_MSG_WANT = {"bth.pkey": 0x7FFF, "bth.dqpn": 0xABCDEF, "icrc_ok": True}

# (kind, arguments, decode options, expected); the IP fields are added below.
MSG_CASES = [
    ("long-haul-icmpv6", ["icmp-type=201", "icmp-code=3"] + LH, ["--lh-icmp-type", "201"],
     dict(LH_WANT, **{"kind": "long-haul-icmpv6", "icmp6.type": 201, "icmp6.code": 3,
                      "icmp6.checksum_ok": True})),
    ("long-haul-icmpv6", LH + EXT, ["--lh-class-num", "0xf9"],
     dict(LH_WANT, **EXT_WANT, **{"icmp6.type": 200, "icmp6.code": 0})),
    ("long-haul-icmpv6", ["cl=5", "action=resume", "parameter=100", "ext=1", "ext-checksum=1"],
     [], {"lh.level": 182, "lh.cl": 5, "lh.action": 3, "lh.action_name": "resume",
          "lh.parameter": 100, "lh.ext": True, "lh.ext_checksum": True, "lh.class_num": 0xF7,
          "lh.unknown_objects": 0, "lh.src_qp": 0x123, "lh.metric_type_name": "none"}),
    ("long-haul-rocev2", ROCE_MSG + LH, [],
     dict(LH_WANT, **ROCE_MSG_WANT, **{"kind": "long-haul-rocev2", "bth.opcode": 0x81,
                                       "bth.becn": True, "bth.resv6": 0x20})),
    ("long-haul-rocev2", ROCE_MSG + LH + EXT, ["--lh-class-num", "249"],
     dict(LH_WANT, **ROCE_MSG_WANT, **EXT_WANT)),
    ("rate-advice", ROCE_MSG + ["opcode=0xfe", "rate=123456", "peer-qp=0x654321"],
     ["--ra-opcode", "0xfe"],
     dict(ROCE_MSG_WANT, **{"kind": "rate-advice", "bth.opcode": 0xFE,
                            "bth.opcode_name": "rate-advice", "bth.becn": False,
                            "rate_advice.rate": 123456, "rate_advice.version": 1,
                            "rate_advice.dest_qp": 0xABCDEF, "rate_advice.peer_qp": 0x654321})),
    ("rate-advice", ["rate=0"], [], {"rate_advice.rate": 0, "bth.opcode": 0xC0,
                                      "rate_advice.dest_qp": 0x123, "rate_advice.peer_qp": 0x22}),
]


def test_msg_fields(tmp):
    for kind, args, opts, want in MSG_CASES:
        ipsets = [(IP6, IP6_WANT)] if kind == "long-haul-icmpv6" else \
            [(IP4, IP4_WANT), (IP6, IP6_WANT)]
        for ipargs, ipwant in ipsets:
            if kind == "long-haul-icmpv6":  # no UDP header
                ipargs = [a for a in ipargs if not a.startswith("sport=")]
                ipwant = {k: v for k, v in ipwant.items() if not k.startswith("udp.")}
            full = [kind] + ipargs + args
            tag = "%s IPv%d %s" % (kind, ipwant["ip.version"], " ".join(args)[:60])
            w = dict(ipwant, **want)
            hexes = build_hex(full)
            check(len(hexes) == 1, "%s: %d packets" % (tag, len(hexes)))
            views = run_json(["decode"] + opts, (hexes[0] + "\n").encode())
            check(len(views) == 1, "%s: %d decoded" % (tag, len(views)))
            expect(tag, views[0] if views else {}, w)
            check(views and views[0].get("len") == len(bytes.fromhex(hexes[0])), "%s: len" % tag)
            bj = run_json(["build"] + full + ["--out", "json"])
            check(bj and views and {k: v for k, v in bj[0].items() if k != "hex"} == views[0],
                  "%s: build --out json differs from decode" % tag)
            raw = run(["build"] + full + ["--out", "raw"])
            check(raw.hex() == hexes[0], "%s: --out raw differs from hex" % tag)
            for eth in ([], ["--eth"]):
                pc = os.path.join(tmp, "m.pcap")
                run(["build"] + full + eth + ["--out", "pcap", pc])
                v = run_json(["decode"] + opts + [pc])
                expect(tag + " (pcap%s)" % eth, v[0] if v else {}, w)
            txt = run(["decode", "--format", "text"] + opts, raw).decode()
            check(("kind: " + str(w.get("kind", kind))) in txt, "%s: text output" % tag)
    # Without the decode option, the other code point is not recognised;
    # 201 is the notification's ICMPv6 type by default (6.5), read as such.
    h = build_hex(["long-haul-icmpv6", "icmp-type=202"])[0]
    decode_error("icmp type 202 by default", h, "lh-not-long-haul")
    h = build_hex(["long-haul-icmpv6", "icmp-type=201"])[0]
    decode_error("icmp type 201 by default", h, "notif-bad-version")
    h = build_hex(["long-haul-rocev2"] + EXT)[0]
    out = run_json(["decode"], (h + "\n").encode())
    check(get(out[0], "lh.unknown_objects") == 3 and get(out[0], "lh.device_id") == "<missing>",
          "class-num 0xf9 read with 0xf7: %s" % out)
    h = build_hex(["rate-advice", "opcode=0xfe"])[0]
    check(run_json(["decode"], (h + "\n").encode())[0]["kind"] == "roce",
          "rate advice of opcode 0xfe without --ra-opcode")
    # A device ID that is not plain ASCII stays valid JSON.
    h = build_hex(["long-haul-icmpv6", "device-id=a\"b\\c\tд"])[0]
    out = run_json(["decode"], (h + "\n").encode())
    check(get(out[0], "lh.device_id") == "a\"b\\c\tд", "device-id escaping: %s" % out)


def set_icmp6_csum(b):
    """Recompute the ICMPv6 checksum after a change (RFC 8200 8.1)."""
    b[42:44] = b"\0\0"
    data = bytes(b[8:40]) + struct.pack(">IxxxB", len(b) - 40, 58) + bytes(b[40:])
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack(">%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    b[42:44] = struct.pack(">H", ~s & 0xFFFF)
    return b.hex()


def test_msg_errors():
    h = build_hex(["long-haul-icmpv6", "ext=1", "device-id=abcd", "action=rate-reduce",
                   "parameter=100"])[0]
    n = len(h) // 2
    decode_error("lh icmpv6 checksum forced",
                 build_hex(["long-haul-icmpv6", "icmp-csum=0x1234"])[0], "lh-bad-checksum")
    decode_error("lh icmpv6 octet flipped", flip(h, n - 1), "lh-bad-checksum")
    decode_error("lh icmpv6 cut", h[:-2], "ip-truncated")
    bad = flip(h, 44)
    out = run_json(["decode", "--lenient"], (bad + "\n").encode())
    check(out and get(out[0], "icmp6.checksum_ok") is False and
          get(out[0], "icmp6.checksum") == int(h[84:88], 16) and
          get(out[0], "icmp6.checksum_expected") ==
          int(set_icmp6_csum(bytearray(bytes.fromhex(bad)))[84:88], 16) and
          get(out[0], "lh.level") == int(h[88:90], 16) ^ 1, "--lenient ICMPv6: %s" % out)
    b = bytearray(bytes.fromhex(h))
    b[47] = 101  # Rate Reduce above 100 %
    decode_error("lh icmpv6 parameter 101", set_icmp6_csum(b), "lh-bad-parameter")
    b = bytearray(bytes.fromhex(h))
    b[56] = 0x10  # extension version 1
    decode_error("lh icmpv6 ext version", set_icmp6_csum(b), "lh-ext-bad-version")
    b = bytearray(bytes.fromhex(h))
    b[n - 1] ^= 0x40  # inside the device ID: the extension checksum catches it
    decode_error("lh icmpv6 ext checksum", set_icmp6_csum(b), "lh-ext-bad-checksum")
    b = bytearray(bytes.fromhex(h))
    b[60:62] = b"\0\x40"  # first object longer than the extension
    b[58:60] = b"\0\0"  # no extension checksum to fail first
    decode_error("lh icmpv6 ext object", set_icmp6_csum(b), "lh-ext-bad-object")
    run(["build", "long-haul-icmpv6", "ip=4"], expect_rc=2)
    run(["build", "long-haul-icmpv6", "sport=1"], expect_rc=2)
    run(["build", "long-haul-icmpv6", "icmp-type=1"], expect_rc=2)
    run(["build", "long-haul-rocev2", "action=rate-reduce", "parameter=101"], expect_rc=2)
    run(["build", "long-haul-rocev2", "se=1"], expect_rc=2)
    run(["build", "long-haul-rocev2", "cl=8"], expect_rc=2)
    run(["build", "long-haul-rocev2", "device-id=" + "x" * 65], expect_rc=2)
    run(["build", "long-haul-rocev2", "path-id=" + "00" * 33], expect_rc=2)
    run(["build", "rate-advice", "peer-qp=0x1000000"], expect_rc=2)

    for v in ([], ["-6"]):
        hl = 20 if not v else 40
        h = build_hex(["long-haul-rocev2", "action=resume", "parameter=7"] + v)[0]
        n = len(h) // 2
        tag = "long-haul-rocev2 %s" % v
        decode_error(tag + " ICRC flipped", flip(h, n - 1), "icrc-mismatch")
        decode_error(tag + " block changed", flip(h, hl + 20 + 3), "icrc-mismatch")
        # structure errors behind a valid ICRC: --lenient hands the codec a fixed copy
        b = bytearray(bytes.fromhex(h))
        b[hl + 20 + 3] = 101
        decode_error(tag + " parameter 101", b.hex(), "lh-bad-parameter", ["--lenient"])
        out = run_json(["decode", "--lenient"], (flip(h, n - 1) + "\n").encode())
        check(out and out[0].get("icrc_ok") is False and out[0].get("kind") == "long-haul-rocev2",
              tag + ": --lenient " + str(out)[:200])
        # Without objects: seed 000 6.2.2's layout, a 28-octet UDP payload
        # (BTH, block, ICRC); cnp-sized=1 pads it to a CNP's 32.
        for extra, payload in (([], 28), (["cnp-sized=1"], 32)):
            b = bytes.fromhex(build_hex(["long-haul-rocev2"] + extra + v)[0])
            udp_len = struct.unpack(">H", b[hl + 4:hl + 6])[0]
            check(udp_len == 8 + payload and len(b) == hl + 8 + payload,
                  "%s %s: UDP length %d, packet %d" % (tag, extra, udp_len, len(b)))
            out = run_json(["decode"], (b.hex() + "\n").encode())
            check(out and out[0].get("kind") == "long-haul-rocev2" and
                  out[0].get("icrc_ok") is True, "%s %s: %s" % (tag, extra, out))
        # The seed's own form built by hand, 12 octets after the BTH.
        seed = build_hex(["rc-write", "opcode=0x81", "resv6=0x20", "becn=1", "ackreq=0",
                          "payload=da80003200000123010001f4", "dqpn=0x123"] + v)[0]
        out = run_json(["decode"], (seed + "\n").encode())
        expect(tag + " seed form", out[0] if out else {},
               {"kind": "long-haul-rocev2", "len": hl + 8 + 12 + 12 + 4, "lh.level": 218,
                "lh.action_name": "rate-reduce", "lh.parameter": 50, "lh.src_qp": 0x123,
                "lh.metric_type": 1, "lh.metric": 500, "lh.ext": False, "icrc_ok": True})
        # Without the E bit the same octets are a short CNP.
        short = build_hex(["rc-write", "opcode=0x81", "becn=1", "payload=" + "00" * 12] + v)[0]
        decode_error(tag + " short CNP", short, "ext-truncated")

        h = build_hex(["rate-advice"] + v)[0]
        tag = "rate-advice %s" % v
        decode_error(tag + " ICRC flipped", flip(h, len(h) // 2 - 2), "icrc-mismatch")
        decode_error(tag + " version 2", build_hex(["rate-advice", "ra-version=2"] + v)[0],
                     "ra-bad-version")
        b = bytearray(bytes.fromhex(h))
        b[hl + 20 + 11] ^= 1  # Destination QP ID differs from the BTH DestQP
        decode_error(tag + " QP mismatch", b.hex(), "ra-qp-mismatch", ["--lenient"])
        decode_error(tag + " 20 octets", build_hex(["rc-write", "opcode=0xc0", "len=20"] + v)[0],
                     "ra-bad-length")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        test_vectors()
        test_fields(tmp)
        test_errors()
        test_vary_and_vlan(tmp)
        test_msg_fields(tmp)
        test_msg_errors()
    finish("test_roundtrip")


if __name__ == "__main__":
    main()
