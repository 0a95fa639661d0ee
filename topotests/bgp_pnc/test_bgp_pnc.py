#!/usr/bin/env python
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_bgp_pnc.py
#
#   eBGP:  senders -- r1 ------- r2 ------- r3
#          10.1.0/24  AS 65001   AS 65002   AS 65003 (congested, cnpproxyd)
#          (proxy)
#
#   iBGP:  senders -- r4 ------- r5 ------- r6
#          10.4.0/24  (proxy)    (RR)       (client, cnpproxyd)   AS 65010
#
#   unnumbered, link-local next hops:  senders -- r7 ------- r8 (cnpproxyd)
#                                      2001:db8:7::/64 (proxy)
#
# r1 and r4 are proxies ('bgp proxy-node-capability'): the routes they
# advertise with themselves as next hop carry the PNC characteristic in the
# NHC attribute.  Checks, per draft-ietf-idr-nhc: PNC reaches r3 while r2
# keeps the next hop (IPv4; IPv6 with global + link-local next hops), and
# the NHC header always names the next hop sent (no receiver disregards
# it); r2 changing the next hop drops PNC (and rebuilds BGPID) unless r2
# is itself a proxy; r5 reflecting with the next hop unchanged passes it,
# with next-hop-self it drops it.  The RIB on r3/r6 carries the proxy (the
# BGP next hop, not the IGP one) and cnpproxyd maps senders to it;
# withdrawing the route or the knob clears both.  A route-map selects the
# proxied routes; the characteristic code is configurable; bad commands are
# refused and change nothing.

import functools
import ipaddress
import os
import struct
import sys

import pytest

CWD = os.path.dirname(os.path.realpath(__file__))
sys.path.append(os.path.join(CWD, "../"))

# pylint: disable=C0413
from lib import topotest
from lib.topogen import get_topogen
from pnc_topo import gear, route_pnc, run_rc, start_routers, vtysh_rc
from pnc_topo import proxy_lookup as lookup

pytestmark = [pytest.mark.bgpd, pytest.mark.cnpproxyd]


def setup_module(mod):
    topodef = {
        "s1": ("r1", "r2"),
        "s2": ("r2", "r3"),
        "s3": ("r1",),
        "s4": ("r4", "r5"),
        "s5": ("r5", "r6"),
        "s6": ("r4",),
        "s7": ("r7", "r8"),
        "s8": ("r7",),
    }
    start_routers(mod, topodef, CWD)


def teardown_module(_mod):
    get_topogen().stop_topology()


def afi_of(prefix):
    return "ipv6" if ":" in prefix else "ipv4"


def bgp_path(router, prefix):
    """PNC-related keys of the best BGP path to prefix ({} if none)."""
    out = router.vtysh_cmd(
        "show bgp {} unicast {} json".format(afi_of(prefix), prefix), isjson=True)
    for path in out.get("paths", []):
        if path.get("bestpath", {}).get("overall"):
            return {k: path.get(k) for k in ("pnc", "proxy", "bgpId")}
    return {}


def rib_pnc(router, prefix):
    """The PNC field of the selected BGP route in zebra."""
    return route_pnc(router, prefix, "bgp")



def expect(func, want, what, count=60):
    _, got = topotest.run_and_expect(func, want, count=count, wait=1)
    assert got == want, "{}: {}".format(what, got)


def config(router, *lines):
    rc, out = vtysh_rc(router, "configure terminal", *lines)
    assert rc == 0, out


def nhc_counters(router):
    """Per neighbor (malformed, next hop mismatch) NHC counters."""
    out = router.vtysh_cmd("show bgp neighbors json", isjson=True)
    return {n: (v.get("nhcMalformed"), v.get("nhcNextHopMismatch")) for n, v in out.items()}


# prefix -> proxy that r3 learns while r2 keeps the next hop
R3_PROXIED = {"10.1.0.0/24": "10.0.12.1", "2001:db8:1::/64": "2001:db8:12::1"}


def test_pnc_crosses_a_transit_keeping_the_next_hop():
    "r3 learns r1's routes with PNC and r1 as proxy, in BGP, zebra and cnpproxyd."
    r2, r3 = gear("r2"), gear("r3")
    for prefix, proxy in R3_PROXIED.items():
        for router in (r2, r3):
            want = {"pnc": True, "proxy": proxy, "bgpId": "10.255.0.1"}
            expect(functools.partial(bgp_path, router, prefix), want,
                   "{} {}".format(router.name, prefix))
            # The proxy is the BGP next hop, not the IGP one (10.0.23.2 on r3).
            want = {"proxy": proxy, "origin": "bgp", "proxyHost": False}
            expect(functools.partial(rib_pnc, router, prefix), want,
                   "{} RIB {}".format(router.name, prefix))
    expect(functools.partial(lookup, r3, "10.1.0.77"),
           {"found": True, "proxy": "10.0.12.1", "origin": "bgp"}, "r3 lookup")
    expect(functools.partial(lookup, r3, "2001:db8:1::77"),
           {"found": True, "proxy": "2001:db8:12::1", "origin": "bgp"}, "r3 lookup v6")
    out = r3.vtysh_cmd("show bgp ipv4 unicast 10.1.0.0/24")
    assert "Proxy Node Capability, proxy 10.0.12.1" in out, out
    # Every NHC header named the next hop it was sent with (IPv6: global and
    # link-local, 32 octets, from r1 to r2).
    for router in (r2, r3):
        for neighbor, counters in nhc_counters(router).items():
            assert counters == (0, 0), (router.name, neighbor, counters)


def test_transit_changing_the_next_hop_drops_pnc():
    "Without attribute-unchanged, r2 is the next hop: PNC goes, BGPID is r2's."
    r2, r3 = gear("r2"), gear("r3")
    config(r2, "router bgp 65002", "address-family ipv4 unicast",
           "no neighbor 10.0.23.3 attribute-unchanged next-hop")
    expect(functools.partial(bgp_path, r3, "10.1.0.0/24"),
           {"pnc": None, "proxy": None, "bgpId": "10.255.0.2"}, "r3 after next hop change")
    expect(functools.partial(rib_pnc, r3, "10.1.0.0/24"), "none", "r3 RIB")
    expect(functools.partial(lookup, r3, "10.1.0.77"),
           {"found": False, "proxy": None, "origin": None}, "r3 lookup")
    # IPv6 still keeps the next hop, and PNC.
    assert bgp_path(r3, "2001:db8:1::/64")["pnc"] is True


def test_transit_that_is_a_proxy_adds_its_own_pnc():
    "r2 configured as a proxy attaches PNC naming itself when it changes the next hop."
    r2, r3 = gear("r2"), gear("r3")
    config(r2, "router bgp 65002", "address-family ipv4 unicast", "bgp proxy-node-capability")
    expect(functools.partial(bgp_path, r3, "10.1.0.0/24"),
           {"pnc": True, "proxy": "10.0.23.2", "bgpId": "10.255.0.2"}, "r3 with r2 proxy")
    expect(functools.partial(lookup, r3, "10.1.0.77"),
           {"found": True, "proxy": "10.0.23.2", "origin": "bgp"}, "r3 lookup")
    config(r2, "router bgp 65002", "address-family ipv4 unicast", "no bgp proxy-node-capability",
           "neighbor 10.0.23.3 attribute-unchanged next-hop")
    expect(functools.partial(bgp_path, r3, "10.1.0.0/24"),
           {"pnc": True, "proxy": "10.0.12.1", "bgpId": "10.255.0.1"}, "r3 restored")


def test_route_map_selects_the_proxied_routes():
    "With a route-map, only the routes it permits carry PNC; an undefined one selects none."
    r1, r2 = gear("r1"), gear("r2")
    assert bgp_path(r2, "10.1.99.0/24")["pnc"] is True
    config(r1, "router bgp 65001", "address-family ipv4 unicast",
           "bgp proxy-node-capability route-map PROXIED")
    expect(functools.partial(bgp_path, r2, "10.1.99.0/24"),
           {"pnc": None, "proxy": None, "bgpId": "10.255.0.1"}, "r2 10.1.99.0/24")
    assert bgp_path(r2, "10.1.0.0/24")["pnc"] is True
    # Editing the route-map takes effect without touching the knob.
    config(r1, "ip prefix-list SENDERS seq 10 permit 10.1.99.0/24")
    expect(lambda: bgp_path(r2, "10.1.99.0/24")["pnc"], True, "r2 after prefix-list edit")
    config(r1, "no ip prefix-list SENDERS seq 10 permit 10.1.99.0/24")
    config(r1, "router bgp 65001", "address-family ipv4 unicast",
           "bgp proxy-node-capability route-map UNDEFINED")
    expect(lambda: bgp_path(r2, "10.1.0.0/24")["pnc"], None, "undefined route-map")
    config(r1, "router bgp 65001", "address-family ipv4 unicast", "bgp proxy-node-capability")
    expect(lambda: bgp_path(r2, "10.1.99.0/24")["pnc"], True, "r2 restored")


def locpref(router, prefix):
    out = router.vtysh_cmd("show bgp ipv4 unicast {} json".format(prefix), isjson=True)
    return [p.get("locPrf") for p in out.get("paths", []) if p.get("bestpath")]


def test_route_map_match_and_set_pnc():
    "set pnc none out at r1 wins over the knob; set pnc in at r2 names the next hop; match pnc."
    r1, r2, r3 = gear("r1"), gear("r2"), gear("r3")
    config(r1, "route-map TO-R2 permit 10", "match ip address prefix-list SENDERS",
           "set pnc none", "exit", "route-map TO-R2 permit 20", "exit",
           "router bgp 65001", "address-family ipv4 unicast",
           "neighbor 10.0.12.2 route-map TO-R2 out")
    expect(lambda: bgp_path(r2, "10.1.0.0/24")["pnc"], None, "r2 after set pnc none")
    assert bgp_path(r2, "10.1.99.0/24")["pnc"] is True

    config(r2, "ip prefix-list ONE seq 5 permit 10.1.0.0/24",
           "route-map FROM-R1 permit 10", "match ip address prefix-list ONE", "set pnc", "exit",
           "route-map FROM-R1 permit 20", "match pnc", "set local-preference 200", "exit",
           "route-map FROM-R1 permit 30", "exit",
           "router bgp 65002", "address-family ipv4 unicast",
           "neighbor 10.0.12.1 route-map FROM-R1 in")
    expect(functools.partial(bgp_path, r2, "10.1.0.0/24"),
           {"pnc": True, "proxy": "10.0.12.1", "bgpId": "10.255.0.1"}, "r2 after set pnc")
    expect(functools.partial(rib_pnc, r2, "10.1.0.0/24"),
           {"proxy": "10.0.12.1", "origin": "bgp", "proxyHost": False}, "r2 RIB, set pnc")
    expect(functools.partial(locpref, r2, "10.1.99.0/24"), [200], "match pnc")
    assert locpref(r2, "10.1.0.0/24") != [200]
    # r2 keeps the next hop towards r3: the NHC it built passes, and is valid there.
    expect(functools.partial(lookup, r3, "10.1.0.77"),
           {"found": True, "proxy": "10.0.12.1", "origin": "bgp"}, "r3 lookup, set pnc at r2")
    conf = r2.vtysh_cmd("show running-config")
    assert " match pnc\n" in conf and " set pnc\n" in conf, conf
    assert " set pnc none\n" in r1.vtysh_cmd("show running-config")

    config(r2, "router bgp 65002", "address-family ipv4 unicast",
           "no neighbor 10.0.12.1 route-map FROM-R1 in")
    config(r1, "router bgp 65001", "address-family ipv4 unicast",
           "no neighbor 10.0.12.2 route-map TO-R2 out")
    expect(lambda: locpref(r2, "10.1.99.0/24") != [200], True, "r2 restored")
    expect(lambda: bgp_path(r3, "10.1.0.0/24")["pnc"], True, "r3 restored")


def test_aggregate_carries_pnc_only_if_every_contributor_does():
    "An aggregate of r1 carries PNC only while r1 proxies every contributing route."
    r1, r2 = gear("r1"), gear("r2")
    config(r1, "ip prefix-list SENDERS seq 20 permit 10.1.0.0/16",
           "router bgp 65001", "address-family ipv4 unicast", "aggregate-address 10.1.0.0/16")
    expect(lambda: bgp_path(r2, "10.1.0.0/16").get("pnc"), True, "aggregate, knob on all")
    # The route-map selects the aggregate and 10.1.0.0/24, not 10.1.99.0/24.
    config(r1, "router bgp 65001", "address-family ipv4 unicast",
           "bgp proxy-node-capability route-map PROXIED")
    expect(functools.partial(bgp_path, r2, "10.1.0.0/16"),
           {"pnc": None, "proxy": None, "bgpId": None}, "aggregate, one contributor not proxied")
    assert bgp_path(r2, "10.1.0.0/24")["pnc"] is True
    config(r1, "router bgp 65001", "address-family ipv4 unicast", "bgp proxy-node-capability",
           "no aggregate-address 10.1.0.0/16", "exit", "exit",
           "no ip prefix-list SENDERS seq 20 permit 10.1.0.0/16")
    expect(lambda: bgp_path(r2, "10.1.0.0/16"), {}, "aggregate withdrawn")


def test_refused_commands_change_nothing():
    "Bad commands are refused with a message and leave the configuration as it was."
    r1 = gear("r1")
    before = r1.vtysh_cmd("show running-config bgpd")
    for cmd in ("bgp nexthop-characteristics pnc-code 3",
                "no bgp nexthop-characteristics pnc-code 5",
                "address-family ipv4 unicast\nno bgp proxy-node-capability route-map OTHER"):
        rc, out = vtysh_rc(r1, "configure terminal", "router bgp 65001", *cmd.split("\n"))
        assert rc != 0, (cmd, out)
        assert "%" in out, (cmd, out)
    assert r1.vtysh_cmd("show running-config bgpd") == before
    assert "  bgp proxy-node-capability\n" in before
    assert "pnc-code" not in before


def test_characteristic_code_is_configurable():
    "A proxy sending another code is not understood as PNC until the receiver agrees."
    r1, r2 = gear("r1"), gear("r2")
    config(r1, "router bgp 65001", "bgp nexthop-characteristics pnc-code 65282")
    assert "bgp nexthop-characteristics pnc-code 65282" in r1.vtysh_cmd(
        "show running-config bgpd")
    expect(lambda: bgp_path(r2, "10.1.0.0/24")["pnc"], None, "r2 with another code")
    expect(functools.partial(rib_pnc, r2, "10.1.0.0/24"), "none", "r2 RIB, another code")
    config(r2, "router bgp 65002", "bgp nexthop-characteristics pnc-code 65282")
    expect(lambda: bgp_path(r2, "10.1.0.0/24")["pnc"], True, "r2 agreeing")
    expect(functools.partial(rib_pnc, r2, "10.1.0.0/24"),
           {"proxy": "10.0.12.1", "origin": "bgp", "proxyHost": False}, "r2 RIB agreeing")
    config(r1, "router bgp 65001", "no bgp nexthop-characteristics pnc-code")
    config(r2, "router bgp 65002", "no bgp nexthop-characteristics pnc-code 65282")
    expect(lambda: bgp_path(gear("r3"), "10.1.0.0/24")["pnc"], True, "restored")


def test_withdrawing_the_route_or_the_knob_clears_the_proxy():
    "No route, or no proxy knob on r1: r3's RIB and cnpproxyd forget the proxy."
    r1, r3 = gear("r1"), gear("r3")
    config(r1, "router bgp 65001", "address-family ipv4 unicast", "no network 10.1.0.0/24")
    expect(functools.partial(lookup, r3, "10.1.0.77"),
           {"found": False, "proxy": None, "origin": None}, "after withdraw")
    config(r1, "router bgp 65001", "address-family ipv4 unicast", "network 10.1.0.0/24")
    expect(functools.partial(lookup, r3, "10.1.0.77"),
           {"found": True, "proxy": "10.0.12.1", "origin": "bgp"}, "after re-add")

    config(r1, "router bgp 65001", "address-family ipv6 unicast", "no bgp proxy-node-capability")
    expect(functools.partial(rib_pnc, r3, "2001:db8:1::/64"), "none", "r3 RIB v6 without knob")
    expect(functools.partial(lookup, r3, "2001:db8:1::77"),
           {"found": False, "proxy": None, "origin": None}, "lookup v6 without knob")
    # The route stays, with the rest of its NHC.
    assert bgp_path(r3, "2001:db8:1::/64") == {"pnc": None, "proxy": None,
                                                "bgpId": "10.255.0.1"}
    config(r1, "router bgp 65001", "address-family ipv6 unicast", "bgp proxy-node-capability")
    expect(functools.partial(lookup, r3, "2001:db8:1::77"),
           {"found": True, "proxy": "2001:db8:12::1", "origin": "bgp"}, "lookup v6 restored")


def test_route_reflector_passes_pnc_with_the_next_hop_unchanged():
    "r5 reflects r4's route unchanged: r6 learns r4 as proxy; next-hop-self drops it."
    r5, r6 = gear("r5"), gear("r6")
    expect(functools.partial(bgp_path, r6, "10.4.0.0/24"),
           {"pnc": True, "proxy": "10.0.45.4", "bgpId": "10.255.0.4"}, "r6 via RR")
    expect(functools.partial(lookup, r6, "10.4.0.77"),
           {"found": True, "proxy": "10.0.45.4", "origin": "bgp"}, "r6 lookup")
    config(r5, "router bgp 65010", "address-family ipv4 unicast",
           "neighbor 10.0.56.6 next-hop-self force")
    expect(functools.partial(bgp_path, r6, "10.4.0.0/24"),
           {"pnc": None, "proxy": None, "bgpId": "10.255.0.5"}, "r6 with next-hop-self")
    expect(functools.partial(lookup, r6, "10.4.0.77"),
           {"found": False, "proxy": None, "origin": None}, "r6 lookup, next-hop-self")
    config(r5, "router bgp 65010", "address-family ipv4 unicast",
           "no neighbor 10.0.56.6 next-hop-self force")
    expect(functools.partial(lookup, r6, "10.4.0.77"),
           {"found": True, "proxy": "10.0.45.4", "origin": "bgp"}, "r6 lookup restored")


def mrt_nhc(data, want_prefix):
    """Attribute 39's value for want_prefix (a.b.c.d/n) in an MRT
    TABLE_DUMP_V2 RIB_IPV4_UNICAST dump (RFC 6396), or None."""
    offset = 0
    while offset + 12 <= len(data):
        mtype, subtype, length = struct.unpack("!HHI", data[offset + 4:offset + 12])
        body = data[offset + 12:offset + 12 + length]
        offset += 12 + length
        if (mtype, subtype) != (13, 2):  # TABLE_DUMP_V2, RIB_IPV4_UNICAST
            continue
        plen = body[4]
        nbytes = (plen + 7) // 8
        addr = bytes(body[5:5 + nbytes]) + bytes(4 - nbytes)
        if "{}/{}".format(ipaddress.ip_address(addr), plen) != want_prefix:
            continue
        pos = 5 + nbytes + 2  # entry count
        attr_len = struct.unpack("!H", body[pos + 6:pos + 8])[0]
        attrs, apos = body[pos + 8:pos + 8 + attr_len], 0
        while apos < len(attrs):
            flags, code = attrs[apos], attrs[apos + 1]
            if flags & 0x10:
                alen, hdr = struct.unpack("!H", attrs[apos + 2:apos + 4])[0], 4
            else:
                alen, hdr = attrs[apos + 2], 3
            if code == 39:
                return bytes(attrs[apos + hdr:apos + hdr + alen])
            apos += hdr + alen
    return None


def test_mrt_dump_keeps_the_nhc():
    "An MRT RIB dump of r3 records the NHC as received: r1's next hop, BGPID, PNC."
    r3 = gear("r3")
    # r3's log directory, the module's own: not a name in the shared /tmp
    path = os.path.join(r3.logdir, r3.name, "rib.mrt")
    r3.cmd("rm -f " + path)
    config(r3, "dump bgp routes-mrt " + path)
    _, size = topotest.run_and_expect(
        lambda: int(r3.cmd("stat -c %s {} 2>/dev/null || echo 0".format(path)).strip() or 0) > 0,
        True, count=30, wait=1)
    config(r3, "no dump bgp routes-mrt")
    assert size, "no MRT dump written"
    data = bytes.fromhex(r3.cmd("od -An -v -tx1 {} | tr -d ' \\n'".format(path)).strip())
    nhc = mrt_nhc(data, "10.1.0.0/24")
    # IPv4 unicast, next hop 10.0.12.1, BGPID 10.255.0.1, PNC
    assert nhc == bytes.fromhex("00010104" "0a000c01" "00030004" "0aff0001" "ff010000"), nhc


def test_link_local_next_hop_gives_pnc_without_proxy_address():
    """r7 - r8 unnumbered with the link-local next hop capability: the NHC
    header names r7's link-local address with r7's BGPID, r8 accepts it; the
    route has PNC but no proxy address anyone could reach."""
    r8 = gear("r8")
    prefix = "2001:db8:7::/64"
    expect(lambda: bgp_path(r8, prefix), {"pnc": True, "proxy": None, "bgpId": "10.255.0.7"},
           "r8 path")
    out = r8.vtysh_cmd("show bgp ipv6 unicast {}".format(prefix))
    assert "Proxy Node Capability, no proxy address (link-local next hop)" in out, out
    expect(functools.partial(rib_pnc, r8, prefix),
           {"proxy": "none", "origin": "bgp", "proxyHost": False}, "r8 RIB")
    assert lookup(r8, "2001:db8:7::77")["found"] is False
    expect(lambda: r8.vtysh_cmd("show cnpproxy proxies json", isjson=True)
           .get("pncWithoutProxyAddress", 0) >= 1, True, "counted without address")
    for neighbor, counters in nhc_counters(r8).items():
        assert counters == (0, 0), (neighbor, counters)


def test_bgpd_killed_and_restarted_on_the_congested_router():
    "bgpd SIGKILLed on r3: zebra and cnpproxyd drop its routes at once; restarted, PNC is back."
    r3 = gear("r3")
    rc, out = run_rc(r3, "kill -9 $(cat /var/run/frr/bgpd.pid)")
    assert rc == 0, out
    expect(functools.partial(lookup, r3, "10.1.0.77"),
           {"found": False, "proxy": None, "origin": None}, "r3 lookup, bgpd killed")
    assert rib_pnc(r3, "10.1.0.0/24") == "no bgp route"
    r3.startDaemons(["bgpd"])
    rc, out = run_rc(r3, "vtysh -b -d bgpd")
    assert rc == 0, out
    expect(functools.partial(lookup, r3, "10.1.0.77"),
           {"found": True, "proxy": "10.0.12.1", "origin": "bgp"}, "r3 lookup, bgpd back")
    expect(functools.partial(rib_pnc, r3, "2001:db8:1::/64"),
           {"proxy": "2001:db8:12::1", "origin": "bgp", "proxyHost": False}, "r3 RIB v6")


def test_zebra_restarted_alone_on_the_congested_router():
    """zebra SIGKILLed and restarted alone on r3: cnpproxyd keeps no stale proxy.
    bgpd, as upstream, does not reinstall its routes into a new zebra (FRR
    expects watchfrr to restart it too); restarting bgpd brings PNC back."""
    r3 = get_topogen().gears["r3"]
    rc, out = run_rc(r3, "kill -9 $(cat /var/run/frr/zebra.pid)")
    assert rc == 0, out
    r3.startDaemons(["zebra"])
    # cnpproxyd alone: a vtysh that talks to a dead zebra too spoils the JSON
    expect(lambda: r3.vtysh_cmd("show cnpproxy status json", isjson=True, daemon="cnpproxyd")
           .get("zebra", {}).get("session"), "up", "cnpproxyd back on zebra")
    expect(functools.partial(lookup, r3, "10.1.0.77"),
           {"found": False, "proxy": None, "origin": None}, "r3 lookup after zebra alone")
    rc, out = run_rc(r3, "kill -9 $(cat /var/run/frr/bgpd.pid)")
    assert rc == 0, out
    r3.startDaemons(["bgpd"])
    rc, out = run_rc(r3, "vtysh -b -d bgpd")
    assert rc == 0, out
    expect(functools.partial(rib_pnc, r3, "10.1.0.0/24"),
           {"proxy": "10.0.12.1", "origin": "bgp", "proxyHost": False}, "r3 RIB after bgpd")
    expect(functools.partial(lookup, r3, "10.1.0.77"),
           {"found": True, "proxy": "10.0.12.1", "origin": "bgp"}, "r3 lookup after bgpd")
    assert gear("r3")
