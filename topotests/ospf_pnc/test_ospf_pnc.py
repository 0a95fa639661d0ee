#!/usr/bin/env python
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_ospf_pnc.py
#
#   senders -- r1 ------ r2 ------ r3 ------ r4 ------ r5
#   10.1.0/24  proxy     ABR       backbone  ABR       congested router
#              ASBR      1 / 0     no PNC    0 / 2     (cnpproxyd), and a
#              area 1 (NSSA)        knob                proxy ASBR itself
#
# r1 flags its loopback and the sender subnet with P (Extended Prefix
# LSAs, route type 1) and redistributes 10.7.0.0/24 into the NSSA with P
# (route type 7).  r2 and r4, ABRs with no PNC configuration, keep P as
# seed 002 5.2 requires: inter-area LSAs (route type 3) into areas 0 and 2
# naming r1 as the proxy, and r2 translates the NSSA route into an
# AS-external one keeping P (route type 5).  r3 has opaque LSAs but no PNC
# configuration and floods everything unchanged.  r5 redistributes
# 10.5.0.0/24 with P in an AS-scope LSA.  "no proxy-node-capability
# propagate" (a deviation) strips P at an ABR.

import functools
import json
import os
import sys

import pytest

CWD = os.path.dirname(os.path.realpath(__file__))
sys.path.append(os.path.join(CWD, "../"))

# pylint: disable=C0413
from lib import topotest
from lib.topogen import get_topogen
from pnc_topo import (capture, deny_then_permit, expect, gear, route_pnc, run_rc, start_routers,
                      vtysh_rc)
from pnc_topo import proxy_lookup as lookup

pytestmark = [pytest.mark.ospfd, pytest.mark.cnpproxyd]

P_BIT2 = 0x20000000

TOPOLOGY = {
    "s1": ("r1", "r2"),
    "s2": ("r2", "r3"),
    "s3": ("r3", "r4"),
    "s4": ("r4", "r5"),
    "s5": ("r1",),
}


def setup_module(mod):
    start_routers(mod, TOPOLOGY, CWD)


def teardown_module(_mod):
    get_topogen().stop_topology()


def ext_prefix_lsas(router, scope="opaque-area"):
    """Every Extended Prefix TLV in router's LSDB of the given scope, as
    (area or None, advertising router, LSA ID, TLV dict)."""
    out = router.vtysh_cmd("show ip ospf database {} json".format(scope), isjson=True)
    found = []

    def walk(node, area):
        if isinstance(node, dict):
            pref = node.get("extendedPrefix")
            if isinstance(pref, dict) and "address" in pref:
                found.append((area, node.get("advertisingRouter"), node.get("linkStateId"), pref))
            for key, value in node.items():
                walk(value, key if key.count(".") == 3 and area is None else area)
        elif isinstance(node, list):
            for value in node:
                walk(value, area)

    walk(out, None)
    return found


def ospf_route_pnc(router, prefix):
    return route_pnc(router, prefix, "ospf")



# (area, advertising router, prefix) -> (route type, TLV flags, source address)
# the Extended Prefix LSAs with P each area must hold
AREA_LSAS = {
    "0.0.0.1": {
        ("10.0.0.1", "10.255.0.1/32"): (1, "0x40", None),
        ("10.0.0.1", "10.1.0.0/24"): (1, "0x0", None),
        ("10.0.0.1", "10.7.0.0/24"): (7, "0x0", "10.255.0.1"),
        ("10.255.0.2", "10.255.0.5/32"): (3, "0x40", "10.255.0.5"),
    },
    "0.0.0.0": {
        ("10.255.0.2", "10.255.0.1/32"): (3, "0x40", "10.255.0.1"),
        ("10.255.0.2", "10.1.0.0/24"): (3, "0x0", "10.255.0.1"),
        ("10.255.0.4", "10.255.0.5/32"): (3, "0x40", "10.255.0.5"),
    },
    "0.0.0.2": {
        ("10.255.0.4", "10.255.0.1/32"): (3, "0x40", "10.255.0.1"),
        ("10.255.0.4", "10.1.0.0/24"): (3, "0x0", "10.255.0.1"),
        ("10.255.0.5", "10.255.0.5/32"): (1, "0x40", None),
    },
}
# a router of each area, to read its LSDB
AREA_READER = {"0.0.0.1": "r1", "0.0.0.0": "r3", "0.0.0.2": "r5"}
# AS-scope: (advertising router, prefix) -> (route type, source address)
AS_LSAS = {
    ("10.255.0.2", "10.7.0.0/24"): (5, "10.255.0.1"),
    ("10.255.0.5", "10.5.0.0/24"): (5, "10.255.0.5"),
}
# router -> prefix -> (proxy, proxyHost) zebra must hold
PROXIED = {
    "r3": {
        "10.1.0.0/24": ("10.255.0.1", False),
        "10.255.0.1/32": ("10.255.0.1", True),
        "10.7.0.0/24": ("10.255.0.1", False),
        "10.5.0.0/24": ("10.255.0.5", False),
        "10.255.0.5/32": ("10.255.0.5", True),
    },
    "r5": {
        "10.1.0.0/24": ("10.255.0.1", False),
        "10.255.0.1/32": ("10.255.0.1", True),
        "10.7.0.0/24": ("10.255.0.1", False),
    },
    "r1": {
        "10.255.0.5/32": ("10.255.0.5", True),
    },
}


def ext_prefix_tlvs(router, scope="opaque-area"):
    """(area or None, advertising router, LSA ID, TLV) for every Extended
    Prefix TLV in a router's LSDB, from 'show ip ospf database SCOPE json'."""
    out = router.vtysh_cmd("show ip ospf database {} json".format(scope), isjson=True)
    found = []
    if scope == "opaque-area":
        groups = out.get("areaLocalOpaqueLsa", {}).get("areas", {}).items()
    else:
        groups = [(None, out.get("asExternalOpaqueLsa", out.get("asOpaqueLsa", [])))]
    for area, lsas in groups:
        if isinstance(lsas, dict):
            lsas = list(lsas.values())
        for lsa in lsas:
            tlv = lsa.get("opaqueValues", {}).get("extendedPrefix")
            if tlv and lsa.get("lsaAge", 0) < 3600:
                found.append((area, lsa.get("advertisingRouter"), lsa.get("linkStateId"), tlv))
    return found


def flagged(tlvs):
    """(area, advertising router, prefix) -> TLV, for the TLVs with P."""
    return {(area, adv, "{}/{}".format(t["address"], t["prefixLength"])): t
            for area, adv, _, t in tlvs
            if t.get("prefixExtendedFlags", {}).get("pnc")}


def check_area_lsas(area):
    tlvs = flagged(ext_prefix_tlvs(gear(AREA_READER[area])))
    want = AREA_LSAS[area]
    got = {(adv, p): t for (a, adv, p), t in tlvs.items() if a == area}
    if set(got) != set(want):
        return "area {}: P-flagged {} want {}".format(area, sorted(got), sorted(want))
    for key, (rtype, flags, source) in want.items():
        t = got[key]
        if (t["routeType"], t["flags"], t.get("sourceRouterAddress")) != (rtype, flags, source):
            return "area {} {}: {}".format(area, key, t)
        if t["prefixExtendedFlags"] != {"length": 4, "flags": "0x20000000",
                                        "lengthValid": True, "pnc": True}:
            return "area {} {}: {}".format(area, key, t["prefixExtendedFlags"])
    return None


def test_every_area_holds_the_p_flag():
    "Area 1 has r1's own LSAs (types 1, 7), areas 0 and 2 the ABRs' (type 3) naming r1."
    for area in AREA_LSAS:
        expect(None, check_area_lsas, area, count=60)


def check_as_lsas():
    got = {(adv, p): t for (_, adv, p), t in
           flagged(ext_prefix_tlvs(gear("r3"), "opaque-as")).items()}
    if set(got) != set(AS_LSAS):
        return "AS scope: {} want {}".format(sorted(got), sorted(AS_LSAS))
    for key, (rtype, source) in AS_LSAS.items():
        if (got[key]["routeType"], got[key].get("sourceRouterAddress")) != (rtype, source):
            return "{}: {}".format(key, got[key])
    return None


def test_externals_keep_p_in_as_scope():
    "r2 translates r1's NSSA route keeping P; r5's redistributed static route has P."
    expect(None, check_as_lsas, count=60)


def check_rib(name):
    router = gear(name)
    for prefix, (proxy, host) in PROXIED[name].items():
        got = route_pnc(router, prefix, "ospf")
        want = {"proxy": proxy, "origin": "ospf", "proxyHost": host}
        if got != want:
            return "{} {}: {}".format(name, prefix, got)
    return None


def test_routes_carry_the_proxy():
    "zebra holds the routes with r1 (not an ABR) as proxy; unflagged routes have none."
    for name in PROXIED:
        expect(None, check_rib, name, count=60)
    for prefix in ("10.255.0.3/32", "10.0.23.0/24", "10.255.0.2/32"):
        assert route_pnc(gear("r5"), prefix, "ospf") == "none", prefix
    out = gear("r5").vtysh_cmd("show ip route 10.1.0.0/24")
    assert "Proxy node (PNC): 10.255.0.1, signalled by ospf" in out, out


def test_show_ip_ospf_route():
    "show ip ospf route [json] shows each route's proxy."
    r5 = gear("r5")
    routes = r5.vtysh_cmd("show ip ospf route json", isjson=True)
    assert routes["10.1.0.0/24"]["pnc"] == {
        "proxy": "10.255.0.1", "proxyHost": False, "sourceRouterId": "10.0.0.1",
        "prefixExtendedFlags": "0x20000000"}, routes["10.1.0.0/24"]
    assert routes["10.7.0.0/24"]["pnc"]["proxy"] == "10.255.0.1", routes["10.7.0.0/24"]
    assert "pnc" not in routes["10.255.0.3/32"], routes["10.255.0.3/32"]
    text = r5.vtysh_cmd("show ip ospf route")
    assert "proxy node (PNC) 10.255.0.1 (its host prefix)" in text, text


def test_lsdb_text_decodes_the_sub_tlvs():
    "show ip ospf database opaque-area names the sub-TLVs and the P bit."
    out = gear("r5").vtysh_cmd("show ip ospf database opaque-area adv-router 10.255.0.4")
    assert "Prefix Extended Flags Sub-TLV: Length 4" in out, out
    assert "Flags: 0x20000000 (P: Proxy Node Capability)" in out, out
    assert "Prefix Source Router Address Sub-TLV: Length 4" in out, out
    assert "Address: 10.255.0.1" in out, out



def test_cnpproxyd_names_the_proxy():
    "cnpproxyd on r5 maps a sender behind r1 to r1, across two ABRs."
    r5 = gear("r5")
    for addr in ("10.1.0.9", "10.7.0.9"):
        want = {"found": True, "proxy": "10.255.0.1", "origin": "ospf"}
        _, got = topotest.run_and_expect(functools.partial(lookup, r5, addr), want,
                                         count=30, wait=1)
        assert got == want, "{}: {}".format(addr, got)


def lsa_versions(router, adv):
    """LSA ID -> (sequence number, checksum) of adv's Extended Prefix LSAs in area 0."""
    out = router.vtysh_cmd("show ip ospf database opaque-area adv-router {} json".format(adv),
                           isjson=True)
    lsas = out.get("areaLocalOpaqueLsa", {}).get("areas", {}).get("0.0.0.0", [])
    return {l["linkStateId"]: (l["lsaSeqNumber"], l["checksum"]) for l in lsas}


def test_router_without_pnc_floods_unchanged():
    "r3 has no PNC configuration: r4 holds r2's LSAs exactly as r2 does."
    def same():
        return lsa_versions(gear("r2"), "10.255.0.2") == lsa_versions(gear("r4"), "10.255.0.2")

    _, result = topotest.run_and_expect(same, True, count=30, wait=1)
    assert result, (lsa_versions(gear("r2"), "10.255.0.2"),
                    lsa_versions(gear("r4"), "10.255.0.2"))
    out = gear("r3").vtysh_cmd("show ip ospf proxy-node-capability json", isjson=True)
    assert out["proxy"] is False and out["propagate"] is True, out
    assert out["lsasOriginated"] == 0 and out["advertised"] == [], out


# The Extended Prefix TLV's route type field: tshark 4.0 (Debian 12) spells it
# "rotuetype", 4.2 and later (Debian 13's 4.4) "routetype".  The TLV's other
# fields and its unknown sub-TLVs read the same in both, in -T json.
EXTPFX_ROUTE_TYPE = ("ospf.tlv.extpfx.rotuetype", "ospf.tlv.extpfx.routetype")


def tshark_field(router, names):
    """The one of names that router's tshark knows as a field (tshark -G fields)."""
    out = router.cmd("tshark -G fields 2>/dev/null | cut -f3 | grep -x -F {}".format(
        " ".join("-e " + name for name in names)))
    known = [name for name in names if name in out.split()]
    assert len(known) == 1, (router.cmd("tshark --version 2>/dev/null | head -1").strip(),
                             "knows", known, "of", names)
    return known[0]


def extpfx_tlvs(tshark_json, route_type):
    """The Extended Prefix TLVs, each a dict of its fields, in tshark -T json
    output; route_type: that tshark's name of the route type field."""
    decoded = []

    def walk(node):
        if isinstance(node, dict):
            if route_type in node:
                decoded.append(node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(json.loads(tshark_json or "[]"))
    return decoded


def test_tshark_decodes_the_lsas():
    "tshark's OSPF dissector reads an ABR's Extended Prefix LSA with sub-TLV 11 from the wire."
    r4 = gear("r4")
    toggle = "configure terminal\nip prefix-list SENDERS seq 5 {} 10.1.0.0/24\n"

    pcap = capture(r4, "r4-eth1", "ip proto 89", 12,
                   lambda: deny_then_permit(gear("r1"), toggle))
    route_type = tshark_field(r4, EXTPFX_ROUTE_TYPE)
    out = r4.cmd(
        "tshark -r {} -Y 'ospf.lsa.opaque and {} == 3' -T json "
        "2>/dev/null".format(pcap, route_type))
    decoded = extpfx_tlvs(out, route_type)
    assert decoded, "no inter-area Extended Prefix TLV captured ({} == 3)".format(route_type)
    # tshark 4.0 and 4.4 name the TLV's fields and show sub-TLVs they do not know by type
    want = {
        "ospf.tlv.extpfx.tlv_type": "1",
        route_type: "3",
        "ospf.tlv.extpfx.af": "0",
        "ospf.prefix_length": "24",
        "ospf.v3.address_prefix.ipv4": "10.1.0.0",
    }
    tlv = [d for d in decoded if all(d.get(k) == v for k, v in want.items())]
    assert tlv, decoded
    subtlvs = {k.split(":")[1].split("-")[0].strip(): v["ospf.tlv_value"]
               for k, v in tlv[0].items() if k.startswith("Unknown Sub-TLV:")}
    # P; r1's router ID; r1's P-flagged host address, its proxy address
    assert subtlvs == {"11": "20:00:00:00", "4": "0a:00:00:01", "5": "0a:ff:00:01"}, tlv[0]


def test_removing_a_prefix_withdraws_it():
    "Taking 10.1.0.0/24 out of r1's prefix-list withdraws it everywhere, and back."
    r1, r5 = gear("r1"), gear("r5")
    r1.vtysh_cmd("configure terminal\nip prefix-list SENDERS seq 5 deny 10.1.0.0/24\n")
    expect("none", route_pnc, r5, "10.1.0.0/24", "ospf", count=30)
    assert ("0.0.0.2", "10.255.0.4", "10.1.0.0/24") not in flagged(ext_prefix_tlvs(r5))
    assert lookup(r5, "10.1.0.9")["found"] is False
    r1.vtysh_cmd("configure terminal\nip prefix-list SENDERS seq 5 permit 10.1.0.0/24\n")
    for area in AREA_LSAS:
        expect(None, check_area_lsas, area, count=30)


def test_refused_configuration():
    "The knob refuses to run without opaque LSAs; no-forms need the right value."
    r3 = gear("r3")
    rc, out = vtysh_rc(r3, "configure terminal", "router ospf", "no capability opaque",
                       "proxy-node-capability")
    assert rc != 0 and "configure 'capability opaque' first" in out, out
    rc, out = vtysh_rc(r3, "configure terminal", "router ospf", "capability opaque")
    assert rc == 0, out
    rc, out = vtysh_rc(gear("r1"), "configure terminal", "router ospf", "no capability opaque")
    assert rc != 0 and "remove it first" in out, out
    rc, out = vtysh_rc(gear("r2"), "configure terminal", "router ospf",
                       "no proxy-node-capability flag-bit 5")
    assert rc != 0 and "The P flag is bit 2, not 5" in out, out
    # The ABR keeps P with nothing configured: its configuration says nothing of PNC.
    running = gear("r2").vtysh_cmd("show running-config")
    assert "capability opaque" in running and "proxy-node-capability" not in running, running


def test_flag_bit_is_configurable():
    "With flag-bit 9 on every router, P travels in bit 9; a mismatch means no PNC."
    routers = ("r1", "r2", "r3", "r4", "r5")
    for name in ("r5",):
        gear(name).vtysh_cmd("configure terminal\nrouter ospf\nproxy-node-capability flag-bit 9\n")
    # r5 reads bit 9 now: r1's prefixes (bit 2) carry no PNC for it
    expect("none", route_pnc, gear("r5"), "10.1.0.0/24", "ospf", count=30)
    for name in routes_but(routers, "r5"):
        gear(name).vtysh_cmd("configure terminal\nrouter ospf\nproxy-node-capability flag-bit 9\n")
    want = {"proxy": "10.255.0.1", "origin": "ospf", "proxyHost": False}
    expect(want, route_pnc, gear("r5"), "10.1.0.0/24", "ospf", count=30)
    tlv = [t for (a, adv, p), t in flagged_any(ext_prefix_tlvs(gear("r5"))).items()
           if p == "10.1.0.0/24"]
    assert tlv and tlv[0]["prefixExtendedFlags"]["flags"] == "0x00400000", tlv
    for name in routers:
        gear(name).vtysh_cmd("configure terminal\nrouter ospf\nno proxy-node-capability flag-bit\n")
    expect(None, check_area_lsas, "0.0.0.2", count=30)


def routes_but(routers, name):
    return [r for r in routers if r != name]


def flagged_any(tlvs):
    return {(area, adv, "{}/{}".format(t["address"], t["prefixLength"])): t
            for area, adv, _, t in tlvs if "prefixExtendedFlags" in t}


def test_segment_routing_shares_the_tlv():
    "With SR on r1, its loopback has one TLV carrying the Prefix-SID and P; off again, PNC's own LSA returns."
    r1, r2 = gear("r1"), gear("r2")
    r1.vtysh_cmd("configure terminal\nrouter ospf\nsegment-routing on\n"
                 "segment-routing global-block 16000 23999\n"
                 "segment-routing prefix 10.255.0.1/32 index 1\n")

    def loopback_tlvs():
        return [(lsid, t) for area, adv, lsid, t in ext_prefix_tlvs(r2)
                if area == "0.0.0.1" and adv == "10.0.0.1" and t["address"] == "10.255.0.1"]

    def merged():
        tlvs = loopback_tlvs()
        if len(tlvs) != 1:
            return "TLVs for 10.255.0.1/32: {}".format(tlvs)
        lsid, t = tlvs[0]
        if not t.get("prefixSID", {}).get("index") == 1:
            return "no Prefix-SID: {}".format(t)
        if not t.get("prefixExtendedFlags", {}).get("pnc"):
            return "no P: {}".format(t)
        return None

    expect(None, merged, count=40)
    assert check_rib("r5") is None
    r1.vtysh_cmd("configure terminal\nrouter ospf\nno segment-routing\n")

    def own():
        tlvs = loopback_tlvs()
        if len(tlvs) != 1 or "index" in tlvs[0][1].get("prefixSID", {}):
            return "TLVs for 10.255.0.1/32: {}".format(tlvs)
        return check_area_lsas("0.0.0.1")

    expect(None, own, count=40)


def test_proxy_without_host_prefix_is_its_router_id():
    """Reading R2: with its loopback out of OSPF, r1 has no P-flagged host
    prefix, and the routers name its router ID; the loopback back, its
    address again (reading R1)."""
    r1, r5 = gear("r1"), gear("r5")
    r1.vtysh_cmd("configure terminal\nrouter ospf\nno network 10.255.0.1/32 area 1\n")
    for prefix in ("10.1.0.0/24", "10.7.0.0/24"):
        want = {"proxy": "10.0.0.1", "origin": "ospf", "proxyHost": False}
        _, got = topotest.run_and_expect(functools.partial(route_pnc, r5, prefix, "ospf"),
                                         want, count=40, wait=1)
        assert got == want, "{}: {}".format(prefix, got)
    r1.vtysh_cmd("configure terminal\nrouter ospf\nnetwork 10.255.0.1/32 area 1\n")
    expect(None, check_rib, "r5", count=40)


def test_abr_can_be_told_to_strip_p():
    "no proxy-node-capability propagate on r4 (a deviation): area 2 loses P, then gets it back."
    r4, r5 = gear("r4"), gear("r5")
    rc, out = vtysh_rc(r4, "configure terminal", "router ospf",
                       "no proxy-node-capability propagate")
    assert rc == 0, out
    assert " no proxy-node-capability propagate\n" in r4.vtysh_cmd("show running-config")
    out = r4.vtysh_cmd("show ip ospf proxy-node-capability json", isjson=True)
    assert out["propagate"] is False, out

    def stripped():
        return sorted(k for k in flagged(ext_prefix_tlvs(r5)) if k[1] == "10.255.0.4")

    expect([], stripped, count=40)
    expect("none", route_pnc, r5, "10.1.0.0/24", "ospf", count=40)
    assert lookup(r5, "10.1.0.9")["found"] is False
    rc, out = vtysh_rc(r4, "configure terminal", "router ospf", "proxy-node-capability propagate")
    assert rc == 0, out
    assert "proxy-node-capability" not in r4.vtysh_cmd("show running-config")
    expect(None, check_area_lsas, "0.0.0.2", count=40)
    expect(None, check_rib, "r5", count=40)


def test_removing_the_knob_clears_everything():
    "no proxy-node-capability on r1: every LSA naming r1 goes, routes and lookups lose PNC."
    r1, r5 = gear("r1"), gear("r5")
    r1.vtysh_cmd("configure terminal\nrouter ospf\nno proxy-node-capability\n")

    def gone():
        left = [k for k in flagged(ext_prefix_tlvs(r5)) if k[2] != "10.255.0.5/32"]
        left += [k for k in flagged(ext_prefix_tlvs(gear("r3"), "opaque-as"))
                 if k[2] == "10.7.0.0/24"]
        return left

    expect([], gone, count=40)
    for prefix in ("10.1.0.0/24", "10.255.0.1/32", "10.7.0.0/24"):
        assert route_pnc(r5, prefix, "ospf") == "none", prefix
    assert lookup(r5, "10.1.0.9")["found"] is False
    r1.vtysh_cmd("configure terminal\nrouter ospf\nproxy-node-capability prefix-list SENDERS\n")
    expect(None, check_rib, "r5", count=40)


def test_proxy_restart_leaves_nothing_stale():
    "kill -9 r1's ospfd: PNC goes with its routes; restarted, r1's LSAs are re-taken, not doubled."
    r1, r2, r5 = gear("r1"), gear("r2"), gear("r5")
    before = sorted(k for k in flagged(ext_prefix_tlvs(r2)) if k[1] == "10.0.0.1")
    rc, out = run_rc(r1, "kill -9 $(cat /var/run/frr/ospfd.pid)")
    assert rc == 0, out
    _, got = topotest.run_and_expect(functools.partial(lookup, r5, "10.1.0.9"),
                                     {"found": False, "proxy": None, "origin": None},
                                     count=40, wait=1)
    assert got["found"] is False, got
    r1.startDaemons(["ospfd"])
    rc, out = run_rc(r1, "vtysh -b -d ospfd")
    assert rc == 0, out
    expect(None, check_rib, "r5", count=60)

    def settled():
        tlvs = [(adv, lsid, t["address"]) for area, adv, lsid, t in ext_prefix_tlvs(r2)
                if adv == "10.0.0.1"]
        now = sorted(k for k in flagged(ext_prefix_tlvs(r2)) if k[1] == "10.0.0.1")
        return now == before and len(tlvs) == len(before)

    _, result = topotest.run_and_expect(settled, True, count=60, wait=1)
    assert result, ext_prefix_tlvs(r2)


def test_restarted_routers_learn_the_translated_route():
    """kill -9 ospfd on r3, r4 and r5: restarted with empty LSDBs, they
    learn r2's translated 10.7.0.0/24 in the database exchange with r2,
    the only router that holds it, not at its refresh 30 min later."""
    restarted = [gear(name) for name in ("r3", "r4", "r5")]
    for router in restarted:
        rc, out = run_rc(router, "kill -9 $(cat /var/run/frr/ospfd.pid)")
        assert rc == 0, out
    for router in restarted:
        router.startDaemons(["ospfd"])
        rc, out = run_rc(router, "vtysh -b -d ospfd")
        assert rc == 0, out
    for name in ("r3", "r5"):
        expect(None, check_rib, name, count=60)


if __name__ == "__main__":
    args = ["-s"] + sys.argv[1:]
    sys.exit(pytest.main(args))
