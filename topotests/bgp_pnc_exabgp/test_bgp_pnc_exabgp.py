#!/usr/bin/env python
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_bgp_pnc_exabgp.py
#
#   peer1 (ExaBGP) ---------- s1 ---------- r1 (FRR) ---- s2: 10.20.0.0/24
#   AS 65001, 10.0.1.101       10.0.1.0/24   AS 65002, 10.0.1.1
#                                            lo 10.255.0.2/32
#
# The Proxy Node Capability (PNC) in BGP: a characteristic (code 0xFF01,
# length 0) of the Next Hop Dependent Characteristics attribute (NHC,
# attribute 39, draft-ietf-idr-nhc), exchanged with a third-party speaker.
# ExaBGP sends attribute 39 as raw octets (a "generic" attribute of its
# static routes) and decodes nothing of it: what it receives from r1 it logs
# as hex, through an API process (peer1/pnc-receive.py), and this test
# parses those octets itself.
#
# peer1 -> r1 (r1: neighbor ... send-nexthop-characteristics):
#   10.10.1.0/24  NHC next hop = the route's next hop, PNC characteristic:
#                 the BGP path is a PNC path with peer1 as its proxy, and
#                 zebra installs the route with that PNC.
#   10.10.2.0/24  NHC next hop 10.9.9.9 (not the route's), PNC: the NHC is
#                 ignored (no PNC), counted as nhcNextHopMismatch.
#   10.10.3.0/24  malformed NHC (shorter than its fixed part) and
#   10.10.4.0/24  malformed NHC (a characteristic overruns the attribute),
#   10.10.5.0/24  a well-formed NHC with the Optional bit clear (a flags
#                 conflict, RFC 7606 3(c)):
#                 attribute discarded (RFC 7606), routes kept, session kept,
#                 counted as nhcMalformed.
# r1 -> peer1:
#   10.255.0.2/32 ("network") carries r1's NHC with the BGPID characteristic;
#   with "bgp proxy-node-capability" (address-family ipv4 unicast) the routes
#   r1 advertises with itself as next hop (10.255.0.2/32, 10.20.0.0/24) carry
#   the PNC characteristic, NHC next hop = r1's address on the link, and
#   removing the command sends them again without it.

import ipaddress
import json
import os
import re
import struct
import sys

import pytest

CWD = os.path.dirname(os.path.realpath(__file__))
sys.path.append(os.path.join(CWD, "../"))

# pylint: disable=C0413
from lib import topotest
from lib.topogen import Topogen, get_topogen
from pnc_topo import gear, vtysh_rc

pytestmark = [pytest.mark.bgpd]

PEER = "10.0.1.101"  # peer1, ExaBGP
R1_LINK = "10.0.1.1"  # r1 on s1
R1_ID = "10.255.0.2"
PNC_PREFIX = "10.10.1.0/24"
MISMATCH_PREFIX = "10.10.2.0/24"
MALFORMED_PREFIXES = ["10.10.3.0/24", "10.10.4.0/24", "10.10.5.0/24"]
FROM_PEER = [PNC_PREFIX, MISMATCH_PREFIX] + MALFORMED_PREFIXES
LOOPBACK = "10.255.0.2/32"  # r1: "network"
STUB = "10.20.0.0/24"  # r1: "redistribute connected"

NHC_PNC = 0xFF01
NHC_BGPID = 3
# ExaBGP's JSON names an attribute it does not know "attribute-0x<code>-0x<flags>"
NHC_KEY = re.compile(r"^attribute-0x27-0x[0-9a-f]{2}$", re.I)

PNC_ON = ("configure terminal", "router bgp 65002", "address-family ipv4 unicast",
          "bgp proxy-node-capability")
PNC_OFF = PNC_ON[:-1] + ("no bgp proxy-node-capability",)


def build_topo(tgen):
    r1 = tgen.add_router("r1")
    peer1 = tgen.add_exabgp_peer("peer1", ip=PEER + "/24", defaultRoute="via " + R1_LINK)
    s1 = tgen.add_switch("s1")
    s1.add_link(r1)
    s1.add_link(peer1)
    tgen.add_switch("s2").add_link(r1)


def setup_module(mod):
    tgen = Topogen(build_topo, mod.__name__)
    tgen.start_topology()
    for rname, router in tgen.routers().items():
        router.load_frr_config(os.path.join(CWD, "{}/frr.conf".format(rname)))
    tgen.start_router()
    tgen.gears["peer1"].start(os.path.join(CWD, "peer1"), os.path.join(CWD, "exabgp.env"))


def teardown_module(_mod):
    get_topogen().stop_topology()


# --- r1's view ---------------------------------------------------------------


def neighbor(router):
    out = router.vtysh_cmd("show bgp neighbors {} json".format(PEER), isjson=True)
    return out.get(PEER, {})


def peer_path(router, prefix):
    """The path to prefix learnt from peer1 (None if there is none)."""
    out = router.vtysh_cmd("show bgp ipv4 unicast {} json".format(prefix), isjson=True)
    for path in out.get("paths", []):
        if path.get("peer", {}).get("peerId") == PEER:
            return path
    return None


def zebra_bgp_route(router, prefix):
    """zebra's selected BGP route to prefix (None if there is none)."""
    out = router.vtysh_cmd("show ip route {} json".format(prefix), isjson=True)
    for entry in out.get(prefix, []):
        if entry.get("protocol") == "bgp" and entry.get("selected"):
            return entry
    return None


def exabgp_log_tail():
    path = os.path.join(get_topogen().gears["peer1"].gearlogdir, "exabgp.log")
    try:
        with open(path, encoding="utf-8", errors="replace") as log:
            return "".join(log.readlines()[-30:])
    except OSError as err:
        return str(err)


def wait_for(check, count=60, wait=0.5):
    """Poll check() until it returns None; assert on its last message."""
    _, result = topotest.run_and_expect(check, None, count=count, wait=wait)
    assert result is None, result


# --- what ExaBGP received ---------------------------------------------------


def received_lines():
    path = os.path.join(get_topogen().gears["peer1"].gearlogdir, "received.json")
    try:
        with open(path, encoding="utf-8") as log:
            return log.read().splitlines()
    except FileNotFoundError:
        return []


def decode_nhc(value):
    """ExaBGP's hex of attribute 39 -> dict: afi, safi, nexthop, tlvs, error."""
    data = bytes.fromhex(value[2:] if value.lower().startswith("0x") else value)
    if len(data) < 4:
        return {"error": "{} octets".format(len(data)), "raw": value}
    afi, safi, nh_len = struct.unpack("!HBB", data[:4])
    nhc = {"afi": afi, "safi": safi, "nexthop": None, "tlvs": [], "error": None,
           "raw": value}
    if len(data) < 4 + nh_len or nh_len not in (4, 16):
        nhc["error"] = "next hop length {} in {} octets".format(nh_len, len(data))
        return nhc
    nhc["nexthop"] = str(ipaddress.ip_address(data[4:4 + nh_len]))
    offset = 4 + nh_len
    while offset + 4 <= len(data):
        code, length = struct.unpack("!HH", data[offset:offset + 4])
        if offset + 4 + length > len(data):
            nhc["error"] = "characteristic {:#x} overruns the attribute".format(code)
            return nhc
        nhc["tlvs"].append((code, length, data[offset + 4:offset + 4 + length].hex()))
        offset += 4 + length
    if offset != len(data):
        nhc["error"] = "{} trailing octet(s)".format(len(data) - offset)
    return nhc


def received_routes(start=0):
    """prefix -> (next hop, decoded NHC or None) of the last IPv4 unicast
    announcement of each prefix that ExaBGP logged from line start on, or
    None if it was last withdrawn."""
    routes = {}
    for line in received_lines()[start:]:
        try:
            msg = json.loads(line)
        except ValueError:
            continue  # not a message ("done", a partial line)
        if msg.get("type") != "update":
            continue
        update = msg.get("neighbor", {}).get("message", {}).get("update", {})
        nhc = None
        for key, value in update.get("attribute", {}).items():
            if NHC_KEY.match(key):
                nhc = decode_nhc(value)
        for nlri in update.get("withdraw", {}).get("ipv4 unicast", []):
            routes[nlri["nlri"]] = None
        for nexthop, nlris in update.get("announce", {}).get("ipv4 unicast", {}).items():
            for nlri in nlris:
                routes[nlri["nlri"]] = (nexthop, nhc)
    return routes


def check_received(start, expectations):
    """None once the last announcements since line start match: prefix ->
    function(next hop, nhc) returning an error message or None."""
    routes = received_routes(start)
    for prefix, expect in expectations.items():
        route = routes.get(prefix)
        if route is None:
            return "peer1 has no announcement of {} since line {}: {}".format(
                prefix, start, routes)
        error = expect(*route)
        if error:
            return "peer1, {}: {}".format(prefix, error)
    return None


def has_tlv(nhc, code, length=None, value=None):
    return any(c == code and length in (None, l) and value in (None, v)
               for c, l, v in nhc["tlvs"])


def r1_nhc(nexthop, nhc, pnc, bgpid):
    """Error message unless r1's announcement is as expected: next hop r1,
    NHC for IPv4 unicast with next hop r1, PNC (length 0) iff pnc, BGPID
    (r1's router ID) if bgpid."""
    if nexthop != R1_LINK:
        return "next hop {}".format(nexthop)
    if nhc is None:
        return "no NHC" if pnc or bgpid else None
    if nhc["error"] or (nhc["afi"], nhc["safi"], nhc["nexthop"]) != (1, 1, R1_LINK):
        return "NHC {}".format(nhc)
    pncs = [(length, value) for code, length, value in nhc["tlvs"] if code == NHC_PNC]
    if pncs != ([(0, "")] if pnc else []):
        return "PNC characteristic{} expected: {}".format("" if pnc else " not", nhc)
    if bgpid and not has_tlv(nhc, NHC_BGPID, 4, ipaddress.ip_address(R1_ID).packed.hex()):
        return "no BGPID {}: {}".format(R1_ID, nhc)
    return None


# --- tests ---------------------------------------------------------------------


def test_session_and_routes():
    "The session comes up and r1 installs all of peer1's routes, whatever their NHC."
    r1 = gear("r1")

    def check():
        state = neighbor(r1).get("bgpState")
        if state != "Established":
            return "session {}; exabgp.log:\n{}".format(state, exabgp_log_tail())
        for prefix in FROM_PEER:
            path = peer_path(r1, prefix)
            if not path or not path.get("valid"):
                return "r1: no valid path to {} from peer1: {}".format(prefix, path)
            if not zebra_bgp_route(r1, prefix):
                return "r1: zebra has no BGP route to {}".format(prefix)
        return None

    wait_for(check)


def test_well_formed_nhc_kept():
    "r1 keeps the well-formed NHC of 10.10.1.0/24 (shown as Characteristics)."
    out = gear("r1").vtysh_cmd("show bgp ipv4 unicast {}".format(PNC_PREFIX))
    assert "Characteristics:" in out, out


def test_pnc_from_peer():
    "10.10.1.0/24 (NHC next hop = next hop, PNC) is a PNC path, proxy peer1, also in zebra."
    r1 = gear("r1")

    def check():
        path = peer_path(r1, PNC_PREFIX)
        if not path or path.get("pnc") is not True or path.get("proxy") != PEER:
            return "r1: path to {}: {}".format(PNC_PREFIX, path)
        route = zebra_bgp_route(r1, PNC_PREFIX)
        pnc = (route or {}).get("pnc", {})
        if pnc.get("proxy") != PEER or pnc.get("origin") != "bgp":
            return "r1: zebra's route to {}: {}".format(PNC_PREFIX, route)
        return None

    wait_for(check, count=30)


def test_nhc_next_hop_mismatch():
    "10.10.2.0/24 (NHC next hop 10.9.9.9): NHC ignored, no PNC, nhcNextHopMismatch counted."
    r1 = gear("r1")
    path = peer_path(r1, MISMATCH_PREFIX)
    assert path and path.get("valid"), path
    assert "pnc" not in path and "proxy" not in path, path
    route = zebra_bgp_route(r1, MISMATCH_PREFIX)
    assert route and "pnc" not in route, route
    nbr = neighbor(r1)
    assert nbr.get("nhcNextHopMismatch", 0) >= 1, {
        k: v for k, v in nbr.items() if k.startswith("nhc")}


def test_malformed_nhc():
    "Malformed NHCs: attribute discarded, routes and session kept, nhcMalformed counted."
    r1 = gear("r1")
    for prefix in MALFORMED_PREFIXES:
        path = peer_path(r1, prefix)
        assert path and path.get("valid"), path
        assert "pnc" not in path and "proxy" not in path, path
        out = r1.vtysh_cmd("show bgp ipv4 unicast {}".format(prefix))
        assert "Characteristics:" not in out, out
        route = zebra_bgp_route(r1, prefix)
        assert route and "pnc" not in route, route
    nbr = neighbor(r1)
    assert nbr.get("bgpState") == "Established", nbr.get("bgpState")
    assert (nbr.get("connectionsEstablished"), nbr.get("connectionsDropped")) == (1, 0), \
        "session was reset: {}".format(nbr.get("lastResetDueTo"))
    # one UPDATE each for 10.10.3.0/24, 10.10.4.0/24 and 10.10.5.0/24
    assert nbr.get("nhcMalformed", 0) >= 3, {
        k: v for k, v in nbr.items() if k.startswith("nhc")}


def test_exabgp_receives_r1_nhc():
    """peer1 decodes r1's NHC (BGPID) on 10.255.0.2/32, no PNC anywhere yet, and
    r1 passes on nothing of the malformed NHCs it discarded."""
    expect = {
        LOOPBACK: lambda nh, nhc: r1_nhc(nh, nhc, pnc=False, bgpid=True),
        STUB: lambda nh, nhc: r1_nhc(nh, nhc, pnc=False, bgpid=False),
    }
    for prefix in MALFORMED_PREFIXES:
        expect[prefix] = lambda nh, nhc: r1_nhc(nh, nhc, pnc=False, bgpid=False)
    wait_for(lambda: check_received(0, expect))


def test_r1_advertises_pnc():
    "bgp proxy-node-capability: r1's own routes reach peer1 with PNC; without it, again without."
    r1 = gear("r1")
    start = len(received_lines())
    rc, out = vtysh_rc(r1, *PNC_ON)
    try:
        assert rc == 0 and "%" not in out, "bgp proxy-node-capability: rc={} {}".format(rc, out)
        conf = r1.vtysh_cmd("show running-config")
        assert re.search(r"^\s+bgp proxy-node-capability$", conf, re.M), conf
        wait_for(lambda: check_received(start, {
            LOOPBACK: lambda nh, nhc: r1_nhc(nh, nhc, pnc=True, bgpid=True),
            STUB: lambda nh, nhc: r1_nhc(nh, nhc, pnc=True, bgpid=False),
        }), count=30)
    finally:
        start = len(received_lines())
        rc, out = vtysh_rc(r1, *PNC_OFF)
    assert rc == 0 and "%" not in out, "no bgp proxy-node-capability: rc={} {}".format(rc, out)
    wait_for(lambda: check_received(start, {
        LOOPBACK: lambda nh, nhc: r1_nhc(nh, nhc, pnc=False, bgpid=True),
        STUB: lambda nh, nhc: r1_nhc(nh, nhc, pnc=False, bgpid=False),
    }), count=30)
    assert neighbor(r1).get("connectionsDropped") == 0, "session was reset"


def test_send_nexthop_characteristics_applies_to_the_session():
    "Turning send-nexthop-characteristics off and on re-announces, without a reset."
    r1 = gear("r1")
    knob = ("configure terminal", "router bgp 65002",
            "neighbor {} send-nexthop-characteristics".format(PEER))
    start = len(received_lines())
    rc, out = vtysh_rc(r1, *knob[:-1], "no " + knob[-1])
    assert rc == 0, out
    wait_for(lambda: check_received(start, {
        LOOPBACK: lambda nh, nhc: None if nhc is None else "NHC still sent: {}".format(nhc),
    }), count=30)
    start = len(received_lines())
    rc, out = vtysh_rc(r1, *knob)
    assert rc == 0, out
    wait_for(lambda: check_received(start, {
        LOOPBACK: lambda nh, nhc: r1_nhc(nh, nhc, pnc=False, bgpid=True),
    }), count=30)
    assert neighbor(r1).get("connectionsDropped") == 0, "session was reset"


if __name__ == "__main__":
    sys.exit(pytest.main(["-s"] + sys.argv[1:]))
