#!/usr/bin/env python
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_ospf6_pnc.py: OSPFv3 Proxy Node Capability with RFC 8362 E-LSAs
# in sparse mode, IPv6 only.
#
#   senders ---- r1 ------ r2 ------ r3 ------ r4 ------ r5
#   2001:db8:1::/64 proxy  ABR       backbone  ABR       congested router
#                   ASBR   1 / 0     no PNC    0 / 2     (cnpproxyd), and a
#                   area 1           knob                proxy ASBR itself
#
# Area 1 is an NSSA.  r1 flags its loopback /128 and the sender subnet
# with P in an E-Intra-Area-Prefix-LSA, and its redistributed
# 2001:db8:7::/64 in an E-NSSA-LSA.  r2 and r4, ABRs with no PNC
# configuration, keep P as seed 002 5.3 requires:
# E-Inter-Area-Prefix-LSAs into areas 0 and 2 naming r1 (RFC 9084 prefix
# source sub-TLVs), and r2 translates the NSSA route into an
# E-AS-External-LSA that keeps P and names r1.  r3 has no
# PNC configuration and floods the E-LSAs unchanged.  r5 redistributes
# 2001:db8:5::/64 with P.  "no proxy-node-capability propagate" (a
# deviation) strips P at an ABR.

import os
import re
import sys

import pytest

CWD = os.path.dirname(os.path.realpath(__file__))
sys.path.append(os.path.join(CWD, "../"))

# pylint: disable=C0413
from lib.topogen import get_topogen
from pnc_topo import (capture, deny_then_permit, expect, gear, route_pnc, run_rc, start_routers,
                      vtysh_rc)
from pnc_topo import proxy_lookup as lookup

pytestmark = [pytest.mark.ospf6d, pytest.mark.cnpproxyd]

TOPOLOGY = {
    "s1": ("r1", "r2"),
    "s2": ("r2", "r3"),
    "s3": ("r3", "r4"),
    "s4": ("r4", "r5"),
    "s5": ("r1",),
}

R1 = "2001:db8:ff::1"
R5 = "2001:db8:ff::5"
P_BIT2 = "0x20000000"


def setup_module(mod):
    start_routers(mod, TOPOLOGY, CWD)


def teardown_module(_mod):
    get_topogen().stop_topology()


def elsa_tlvs(router):
    """(LS type, area or "AS", advertising router, prefix) -> TLV dict, for
    every prefix TLV of the E-LSAs in router's LSDB."""
    out = router.vtysh_cmd("show ipv6 ospf6 database detail json", isjson=True)
    found = {}

    def collect(lsas, scope):
        for lsa in lsas or []:
            # a MaxAge LSA is being flushed: it says nothing any more
            if not lsa.get("type", "").startswith("E-") or lsa.get("age", 0) >= 3600:
                continue
            for tlv in lsa.get("tlvs", []):
                if "prefix" in tlv:
                    found[(lsa["type"], scope, lsa["advertisingRouter"], tlv["prefix"])] = tlv

    for area in out.get("areaScopedLinkStateDb", []):
        collect(area.get("lsa"), area.get("areaId"))
    for scope in out.get("asScopedLinkStateDb", []):
        collect(scope.get("lsa"), "AS")
    return found


def flagged(tlvs):
    return {k: t for k, t in tlvs.items()
            if t.get("prefixExtendedFlags", {}).get("pnc")}


# E-LSAs with P each router's LSDB must hold:
# (type, scope, advertising router, prefix) -> source address (None: absent)
WANT_LSAS = {
    "r1": {
        ("E-Intra-Prefix", "0.0.0.1", "10.0.0.1", R1 + "/128"): None,
        ("E-Intra-Prefix", "0.0.0.1", "10.0.0.1", "2001:db8:1::/64"): R1,
        ("E-Inter-Prefix", "0.0.0.1", "10.255.0.2", R5 + "/128"): R5,
        ("E-NSSA", "0.0.0.1", "10.0.0.1", "2001:db8:7::/64"): R1,
    },
    "r3": {
        ("E-Inter-Prefix", "0.0.0.0", "10.255.0.2", R1 + "/128"): R1,
        ("E-Inter-Prefix", "0.0.0.0", "10.255.0.2", "2001:db8:1::/64"): R1,
        ("E-Inter-Prefix", "0.0.0.0", "10.255.0.4", R5 + "/128"): R5,
        ("E-AS-External", "AS", "10.255.0.2", "2001:db8:7::/64"): R1,
        ("E-AS-External", "AS", "10.255.0.5", "2001:db8:5::/64"): R5,
    },
    "r5": {
        ("E-Inter-Prefix", "0.0.0.2", "10.255.0.4", R1 + "/128"): R1,
        ("E-Inter-Prefix", "0.0.0.2", "10.255.0.4", "2001:db8:1::/64"): R1,
        ("E-Intra-Prefix", "0.0.0.2", "10.255.0.5", R5 + "/128"): None,
        ("E-AS-External", "AS", "10.255.0.2", "2001:db8:7::/64"): R1,
        ("E-AS-External", "AS", "10.255.0.5", "2001:db8:5::/64"): R5,
    },
}

# router -> prefix -> zebra's PNC field
PROXIED = {
    "r3": {
        "2001:db8:1::/64": {"proxy": R1, "origin": "ospf6"},
        R1 + "/128": {"proxy": R1, "origin": "ospf6", "proxyHost": True},
        "2001:db8:7::/64": {"proxy": R1, "origin": "ospf6"},
        "2001:db8:5::/64": {"proxy": R5, "origin": "ospf6"},
    },
    "r5": {
        "2001:db8:1::/64": {"proxy": R1, "origin": "ospf6"},
        R1 + "/128": {"proxy": R1, "origin": "ospf6", "proxyHost": True},
        "2001:db8:7::/64": {"proxy": R1, "origin": "ospf6"},
    },
}


def check_lsas(name):
    got = flagged(elsa_tlvs(gear(name)))
    want = WANT_LSAS[name]
    if set(got) != set(want):
        return "{}: P-flagged {} want {}".format(name, sorted(got), sorted(want))
    for key, source in want.items():
        tlv = got[key]
        if tlv.get("sourceRouterAddress") != source:
            return "{} {}: {}".format(name, key, tlv)
        if tlv["prefixExtendedFlags"]["flags"] != P_BIT2:
            return "{} {}: {}".format(name, key, tlv)
    return None


def test_every_area_holds_the_p_flag():
    "r1's own E-LSAs in area 1 and AS scope, the ABRs' E-Inter-Area-Prefix-LSAs in areas 0 and 2."
    for name in WANT_LSAS:
        expect(None, check_lsas, name, count=60)


def check_rib(name):
    router = gear(name)
    for prefix, want in PROXIED[name].items():
        got = route_pnc(router, prefix, "ospf6")
        want = dict(want)
        want.setdefault("proxyHost", False)
        if got != want:
            return "{} {}: {} want {}".format(name, prefix, got, want)
    return None


def test_routes_carry_the_proxy():
    "zebra holds the routes with r1 (not an ABR) as proxy; unflagged routes have none."
    for name in PROXIED:
        expect(None, check_rib, name, count=60)
    for prefix in ("2001:db8:ff::3/128", "2001:db8:23::/64", "2001:db8:ff::2/128"):
        assert route_pnc(gear("r5"), prefix, "ospf6") == "none", prefix


def test_show_commands():
    "Route detail, the database decode and the PNC summary name the proxy and the sub-TLVs."
    r5 = gear("r5")
    out = r5.vtysh_cmd("show ipv6 ospf6 route 2001:db8:1::/64 match detail")
    assert "Proxy node (PNC): {}, router 10.0.0.1".format(R1) in out, out
    out = r5.vtysh_cmd("show ipv6 ospf6 database adv-router * 10.255.0.4 detail")
    assert re.search(r"Inter-Area-Prefix TLV: 2001:db8:1::/64 Metric: \d+", out), out
    assert "Prefix Extended Flags: 0x20000000 (P: proxy node)" in out, out
    assert "Prefix Source Router ID: 10.0.0.1" in out, out
    assert "Prefix Source Router Address: {}".format(R1) in out, out
    out = gear("r1").vtysh_cmd("show ipv6 ospf6 proxy-node-capability json", isjson=True)
    assert out["proxy"] is True and out["prefixList"] == "SENDERS", out
    assert {(a["type"], a["scope"]) for a in out["advertised"]} == {
        ("E-Intra-Prefix", "area 0.0.0.1"), ("E-NSSA", "area 0.0.0.1")}, out
    assert out["lsasMalformed"] == 0 and out["lsasIgnoredFlagsLength"] == 0, out



def test_cnpproxyd_names_the_proxy():
    "cnpproxyd on r5 maps senders behind r1 to r1, across two ABRs."
    for addr in ("2001:db8:1::9", "2001:db8:7::9"):
        expect({"found": True, "proxy": R1, "origin": "ospf6"}, lookup, gear("r5"), addr,
               count=30)


def lsa_versions(router, adv):
    "(type, scope, LS ID) -> (sequence number, checksum) of adv's E-LSAs."
    out = router.vtysh_cmd("show ipv6 ospf6 database adv-router * {} detail json".format(adv),
                           isjson=True)
    found = {}
    for scope in out.get("areaScopedLinkStateDb", []) + out.get("asScopedLinkStateDb", []):
        for lsa in scope.get("lsa", []):
            if lsa["type"].startswith("E-") and lsa.get("age", 0) < 3600:
                found[(lsa["type"], scope.get("areaId", "AS"), lsa["linkStateId"])] = (
                    lsa["lsSequenceNumber"], lsa["checksum"])
    return found


def test_router_without_pnc_floods_unchanged():
    "r3 has no PNC configuration: r4 holds r2's and r1's E-LSAs exactly as r2 does."
    for adv in ("10.255.0.2", "10.0.0.1"):
        def same():
            mine, theirs = lsa_versions(gear("r2"), adv), lsa_versions(gear("r4"), adv)
            if adv == "10.255.0.2":
                return {k: v for k, v in mine.items() if k[1] != "0.0.0.1"} == theirs
            return {k: v for k, v in mine.items() if k[1] == "AS"} == theirs
        expect(True, same, count=30)
    assert lsa_versions(gear("r4"), "10.255.0.2"), "no E-LSA of r2 reached r4"
    out = gear("r3").vtysh_cmd("show ipv6 ospf6 proxy-node-capability json", isjson=True)
    assert out["proxy"] is False and out["advertised"] == [], out
    assert out["lsasHeld"] > 0, out


# tshark -T fields prints a boolean field (ospf.v3.lsa.u) as 1 or 0 in 4.0
# (Debian 12) and as True or False from 4.2 on (Debian 13's 4.4); the E-LSA
# header fields read here have the same names and print alike otherwise.
TSHARK_BOOLEANS = {"1": 1, "0": 0, "True": 1, "False": 0}


def tshark_bool(text):
    """A boolean field as tshark -T fields prints it, as 1 or 0."""
    assert text in TSHARK_BOOLEANS, "not a tshark boolean: {!r}".format(text)
    return TSHARK_BOOLEANS[text]


def test_tshark_decodes_the_elsa_headers():
    "tshark's OSPF dissector reads the E-LSA headers: LS type, length, checksum."
    r4 = gear("r4")
    toggle = "configure terminal\nipv6 prefix-list SENDERS seq 5 {} 2001:db8:1::/64\n"

    pcap = capture(r4, "r4-eth1", "ip6 proto 89", 12,
                   lambda: deny_then_permit(gear("r1"), toggle))
    # tshark 4.0 knows the E-LSA header fields, not their TLVs (4.4 knows a few
    # TLV fields, read by no test); an LSU's several LSAs come comma-separated
    out = r4.cmd("tshark -r {} -Y 'ospf.v3.lsa == 0xa023' -T fields -E aggregator=, "
                 "-e ospf.v3.lsa -e ospf.v3.lsa.u -e ospf.v3.lsa.s12 -e ospf.v3.lsa.fc "
                 "-e ospf.advrouter -e ospf.lsa.length 2>/dev/null".format(pcap))
    rows = [line.split("\t") for line in out.splitlines() if line.strip()]
    assert rows, "no E-Inter-Area-Prefix-LSA captured: " + out
    seen = set()
    for row in rows:
        for lstype, u, scope, fc, adv, length in zip(*(col.split(",") for col in row)):
            if lstype == "0xa023":
                seen.add((tshark_bool(u), int(scope, 0), int(fc, 0), adv))
                assert int(length) >= 20 + 12, row
    assert (1, 1, 0x23, "10.255.0.4") in seen, seen  # U bit, area scope
    # scapy's Fletcher checksum over the captured E-LSAs (tshark does not check it)
    assert elsa_checksums(pcap, 0xa023) and all(elsa_checksums(pcap, 0xa023)), pcap


def elsa_checksums(pcap, lstype):
    """For every LSA of lstype in the pcap's Link State Updates: whether
    its Fletcher checksum (RFC 5340 A.4.2, as RFC 2328 12.1.7) is right."""
    from scapy.utils import fletcher16_checksum, rdpcap
    from scapy.layers.inet6 import IPv6

    result = []
    for pkt in rdpcap(pcap):
        if IPv6 not in pkt or pkt[IPv6].nh != 89:
            continue
        ospf = bytes(pkt[IPv6].payload)
        if len(ospf) < 20 or ospf[1] != 4:  # Link State Update
            continue
        count = int.from_bytes(ospf[16:20], "big")
        off = 20
        for _ in range(count):
            length = int.from_bytes(ospf[off + 18:off + 20], "big")
            lsa = ospf[off:off + length]
            if int.from_bytes(lsa[2:4], "big") == lstype:
                # over everything but LS age, the checksum included: 0 when right
                result.append(fletcher16_checksum(lsa[2:]) == 0)
            off += length
    return result


def route_table(router):
    """show ipv6 route json without the PNC fields and timers."""
    out = router.vtysh_cmd("show ipv6 route json", isjson=True)
    keep = ("protocol", "selected", "distance", "metric", "installed")
    return {p: [({k: e.get(k) for k in keep},
                 sorted((n.get("ip"), n.get("interfaceName")) for n in e.get("nexthops", [])))
                for e in entries]
            for p, entries in out.items()}


def pnc_knobs(on):
    no = "" if on else "no "
    gear("r1").vtysh_cmd("configure terminal\nrouter ospf6\n{}proxy-node-capability "
                         "prefix-list SENDERS\n".format(no))
    gear("r5").vtysh_cmd("configure terminal\nrouter ospf6\n{}proxy-node-capability "
                         "prefix-list EXTERNAL\n".format(no))
    for name in ("r2", "r4"):
        gear(name).vtysh_cmd("configure terminal\nrouter ospf6\n{}proxy-node-capability "
                             "propagate\n".format(no))


def test_abr_can_be_told_to_strip_p():
    "no proxy-node-capability propagate on r4 (a deviation): area 2 loses P, then gets it back."
    r4, r5 = gear("r4"), gear("r5")
    rc, out = vtysh_rc(r4, "configure terminal", "router ospf6",
                       "no proxy-node-capability propagate")
    assert rc == 0, out
    assert " no proxy-node-capability propagate\n" in r4.vtysh_cmd("show running-config")
    out = r4.vtysh_cmd("show ipv6 ospf6 proxy-node-capability json", isjson=True)
    assert out["propagate"] is False, out

    def stripped():
        return sorted(k for k in flagged(elsa_tlvs(r5)) if k[2] == "10.255.0.4")

    expect([], stripped, count=40)
    expect("none", route_pnc, r5, "2001:db8:1::/64", "ospf6", count=40)
    rc, out = vtysh_rc(r4, "configure terminal", "router ospf6", "proxy-node-capability propagate")
    assert rc == 0, out
    assert "proxy-node-capability" not in r4.vtysh_cmd("show running-config")
    expect(None, check_lsas, "r5", count=60)
    expect(None, check_rib, "r5", count=60)


def no_elsas(name):
    return sorted(elsa_tlvs(gear(name)))


def test_removing_the_knobs_clears_everything_and_routing_is_unchanged():
    "Without PNC the E-LSAs are flushed and PNC leaves zebra; routing is the same with and without."
    with_pnc = {name: route_table(gear(name)) for name in ("r1", "r3", "r5")}
    for name, table in with_pnc.items():
        assert sum(1 for entries in table.values() for attrs, _ in entries
                   if attrs["protocol"] == "ospf6" and attrs["selected"]) >= 8, (name, table)
    pnc_knobs(False)
    for name in ("r1", "r3", "r5"):
        expect([], no_elsas, name, count=40)
    expect("none", route_pnc, gear("r5"), "2001:db8:1::/64", "ospf6", count=30)
    expect({"found": False, "proxy": None, "origin": None}, lookup, gear("r5"),
           "2001:db8:1::9", count=30)
    for name, table in with_pnc.items():
        assert route_table(gear(name)) == table, name
    pnc_knobs(True)
    for name in WANT_LSAS:
        expect(None, check_lsas, name, count=60)
    expect(None, check_rib, "r5", count=60)


def test_refused_configuration():
    "A no-form with the wrong value is refused and changes nothing."
    rc, out = vtysh_rc(gear("r2"), "configure terminal", "router ospf6",
                       "no proxy-node-capability flag-bit 5")
    assert rc != 0 and "The P flag is bit 2, not 5" in out, out
    # The ABR keeps P with nothing configured: its configuration says nothing of PNC.
    running = gear("r2").vtysh_cmd("show running-config")
    assert "proxy-node-capability" not in running, running
    rc, out = vtysh_rc(gear("r1"), "configure terminal", "router ospf6",
                       "proxy-node-capability flag-bit 40")
    assert rc != 0, out
    assert "flag-bit" not in gear("r1").vtysh_cmd("show running-config")


def test_flag_bit_is_configurable():
    "With flag-bit 9 everywhere P travels in bit 9; a mismatch means no PNC."
    routers = ("r1", "r2", "r3", "r4", "r5")
    gear("r5").vtysh_cmd("configure terminal\nrouter ospf6\nproxy-node-capability flag-bit 9\n")
    expect("none", route_pnc, gear("r5"), "2001:db8:1::/64", "ospf6", count=30)
    for name in routers[:-1]:
        gear(name).vtysh_cmd("configure terminal\nrouter ospf6\n"
                             "proxy-node-capability flag-bit 9\n")
    expect({"proxy": R1, "origin": "ospf6", "proxyHost": False}, route_pnc, gear("r5"),
           "2001:db8:1::/64", "ospf6", count=30)
    tlv = [t for k, t in elsa_tlvs(gear("r5")).items() if k[3] == "2001:db8:1::/64"]
    assert tlv and tlv[0]["prefixExtendedFlags"]["flags"] == "0x00400000", tlv
    for name in routers:
        gear(name).vtysh_cmd("configure terminal\nrouter ospf6\n"
                             "no proxy-node-capability flag-bit\n")
    expect(None, check_lsas, "r5", count=30)


def test_proxy_restart_leaves_nothing_stale():
    "kill -9 r1's ospf6d: PNC goes with its routes; restarted, its E-LSAs are re-taken, not doubled."
    r1, r2, r5 = gear("r1"), gear("r2"), gear("r5")
    before = lsa_versions(r2, "10.0.0.1")
    rc, out = run_rc(r1, "kill -9 $(cat /var/run/frr/ospf6d.pid)")
    assert rc == 0, out
    expect({"found": False, "proxy": None, "origin": None}, lookup, r5, "2001:db8:1::9",
           count=40)
    r1.startDaemons(["ospf6d"])
    rc, out = run_rc(r1, "vtysh -b -d ospf6d")
    assert rc == 0, out
    expect(None, check_rib, "r5", count=60)
    expect(sorted(before), lambda: sorted(lsa_versions(r2, "10.0.0.1")), count=60)
    expect(None, check_lsas, "r1", count=30)


if __name__ == "__main__":
    args = ["-s"] + sys.argv[1:]
    sys.exit(pytest.main(args))
