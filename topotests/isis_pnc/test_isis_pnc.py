#!/usr/bin/env python
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_isis_pnc.py
#
#   sender subnet -- r1 ---- r2 ---- r3 ---- r4      (IS-IS level 2)
#   10.1.0.0/24     (proxy)
#
# r1 advertises the Proxy Node Capability: P (bit 7) in the RFC 7794
# Prefix Attribute Flags sub-TLV of its loopback host prefixes (with N) and
# of the sender subnet selected by a prefix-list (or a route-map).  Checks what the other
# routers decode (show isis database detail, text and json), that tshark's
# IS-IS dissector reads the same flag octet on the wire, that other
# prefixes carry no sub-TLV, that the other routers install the flagged
# prefixes with r1 as their proxy (PNC field in zebra's RIB) and that
# cnpproxyd on r3 and r4 maps sender addresses to r1, and that removing
# the configuration clears all of it.  Level propagation: isis_pnc_levels.

import functools
import os
import re
import sys

import pytest

CWD = os.path.dirname(os.path.realpath(__file__))
sys.path.append(os.path.join(CWD, "../"))

# pylint: disable=C0413
from lib import topotest
from lib.topogen import get_topogen
from pnc_topo import (capture, gear, isis_route_pnc, reach_entries, start_routers, vtysh_rc,
                      wait_for)

pytestmark = [pytest.mark.isisd, pytest.mark.cnpproxyd]

# prefix -> expected octet 0 of the Prefix Attribute Flags from r1
FLAGGED = {
    "10.255.0.1/32": 0x21,  # N + P: loopback host prefix, the proxy
    "2001:db8:ff::1/128": 0x21,
    "10.1.0.0/24": 0x01,  # P: sender subnet from the prefix-list
    "2001:db8:1::/64": 0x01,
}
NOT_FLAGGED = ["10.0.12.0/24", "2001:db8:12::/64", "10.255.0.2/32"]

# prefix -> (proxy, proxyHost) that r1's flags make every other router install
PROXIED = {
    "10.255.0.1/32": ("10.255.0.1", True),
    "2001:db8:ff::1/128": ("2001:db8:ff::1", True),
    "10.1.0.0/24": ("10.255.0.1", False),
    "2001:db8:1::/64": ("2001:db8:ff::1", False),
}
# sender address -> (proxy, matching prefix)
SENDERS = {
    "10.1.0.77": ("10.255.0.1", "10.1.0.0/24"),
    "2001:db8:1::77": ("2001:db8:ff::1", "2001:db8:1::/64"),
}


def setup_module(mod):
    topodef = {
        "s1": ("r1", "r2"),
        "s2": ("r2", "r3"),
        "s3": ("r3", "r4"),
        "s4": ("r1",),
    }
    start_routers(mod, topodef, CWD)


def teardown_module(_mod):
    get_topogen().stop_topology()


def attr_flags(router):
    """prefix -> list of prefixAttrFlags dicts (None if absent), all LSPs."""
    db = router.vtysh_cmd("show isis database detail json", isjson=True)
    seen = {}
    for prefix, entry in reach_entries(db):
        seen.setdefault(prefix, []).append(entry.get("subtlvs", {}).get("prefixAttrFlags"))
    return seen


def expected_json(octet):
    return {
        "x": bool(octet & 0x80),
        "r": bool(octet & 0x40),
        "n": bool(octet & 0x20),
        "e": bool(octet & 0x10),
        "a": bool(octet & 0x08),
        # P (bit 7 here) is an unassigned bit to the decoder: listed by number
        "otherBits": [7] if octet & 0x01 else [],
        "length": 1,
        "raw": "{:02x}".format(octet),
    }


def check_flags(router):
    seen = attr_flags(router)
    for prefix, octet in FLAGGED.items():
        if expected_json(octet) not in seen.get(prefix, []):
            return "{}: {} has {}".format(router.name, prefix, seen.get(prefix))
    for prefix in NOT_FLAGGED:
        if any(seen.get(prefix, [None])):
            return "{}: {} unexpectedly flagged".format(router.name, prefix)
    return None


def test_p_flag_seen_by_all_routers():
    "Every router decodes P (and N on the host prefixes) from r1's LSP."
    for name in ("r2", "r3", "r4"):
        router = gear(name)
        _, result = topotest.run_and_expect(lambda: check_flags(router), None,
                                            count=60, wait=1)
        assert result is None, result


def test_text_output():
    "show isis database detail names every assigned flag and lists P's bit by number."
    out = gear("r4").vtysh_cmd("show isis database detail r1.00-00")
    assert re.search(
        r"IP Reachability: 10\.255\.0\.1/32.*?\n\s+Subtlvs:\n\s+"
        r"Prefix Attribute Flags: X:0 R:0 N:1 E:0 A:0 other-bits:7\n",
        out, re.S), out


def lsp_seqno(router, lsp_id):
    """The sequence number of an LSP in the router's database (0 without it)."""
    seqs = []

    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("lsp"), dict) and node["lsp"].get("id") == lsp_id:
                seq = node.get("seqNumber", 0)
                seqs.append(int(seq, 0) if isinstance(seq, str) else seq)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(router.vtysh_cmd("show isis database json", isjson=True))
    return max(seqs, default=0)


def test_tshark_decodes_the_flag_octet():
    "tshark's IS-IS dissector reads the same flag octets from the wire."
    r2 = gear("r2")

    def new_lsp_from_r1():
        "flip an unrelated setting and back, each flooded to r2 before the next"
        for cmd in ("set-overload-bit", "no set-overload-bit"):
            seq = lsp_seqno(r2, "r1.00-00")
            gear("r1").vtysh_cmd("configure terminal\nrouter isis core\n{}\n".format(cmd))
            wait_for(lambda s=seq: lsp_seqno(r2, "r1.00-00") > s, 10,
                     "r1's LSP after '{}' at r2".format(cmd))

    pcap = capture(r2, "r2-eth0", "isis", 15, new_lsp_from_r1)
    out = r2.cmd(
        "tshark -r {} -Y 'isis.lsp.lsp_id == 0000.0000.0001.00-00' -T fields "
        "-e isis.lsp.prefix_attribute.flags".format(pcap))
    values = [v for line in out.split() for v in line.split(",") if v]
    assert values, "no LSP of r1 with Prefix Attribute Flags captured: " + out
    last_lsp = out.strip().splitlines()[-1].split(",")
    # 2 x N+P (IPv4 and IPv6 loopback), 2 x P (sender subnets)
    assert sorted(int(v, 16) for v in last_lsp) == [0x01, 0x01, 0x21, 0x21], out


def test_pnc_in_rib():
    "The other routers install r1's flagged prefixes with r1 as the proxy."
    for name in ("r2", "r4"):
        router = gear(name)
        for prefix, (proxy, host) in PROXIED.items():
            want = {"proxy": proxy, "origin": "isis", "proxyHost": host}
            test_func = functools.partial(isis_route_pnc, router, prefix)
            _, got = topotest.run_and_expect(test_func, want, count=60, wait=1)
            assert got == want, "{} {}: {}".format(name, prefix, got)
        for prefix in ("10.255.0.3/32", "2001:db8:ff::3/128"):
            assert isis_route_pnc(router, prefix) == "none", (name, prefix)

    out = gear("r4").vtysh_cmd("show ip route 10.1.0.0/24")
    assert "Proxy node (PNC): 10.255.0.1, signalled by isis" in out, out


def lookup(router, addr):
    return router.vtysh_cmd("show cnpproxy lookup {} json".format(addr), isjson=True)


def test_cnpproxyd_maps_senders_to_the_proxy():
    "cnpproxyd on r3 and r4 learns the proxy of the sender subnets via zebra."
    for name in ("r3", "r4"):
        router = gear(name)
        for addr, (proxy, prefix) in SENDERS.items():
            want = {"found": True, "proxy": proxy, "prefix": prefix, "origin": "isis"}

            def check(router=router, addr=addr, want=want):
                got = lookup(router, addr)
                return {k: got.get(k) for k in want}

            _, got = topotest.run_and_expect(check, want, count=60, wait=1)
            assert got == want, "{} lookup {}: {}".format(name, addr, lookup(router, addr))
        # r4's own loopback is not proxied
        assert lookup(router, "10.255.0.4").get("found") is False


def test_prefix_list_edit_updates_the_lsp():
    "Editing the prefix-list that selects P-flagged prefixes changes r1's LSP."
    r1, r4 = gear("r1"), gear("r4")

    def subnet_flagged():
        return any(attr_flags(r4).get("10.1.0.0/24", [None]))

    r1.vtysh_cmd("configure terminal\nno ip prefix-list SENDERS seq 5 permit 10.1.0.0/24\n")
    _, result = topotest.run_and_expect(subnet_flagged, False, count=30, wait=1)
    assert result is False, attr_flags(r4).get("10.1.0.0/24")
    _, result = topotest.run_and_expect(lambda: isis_route_pnc(r4, "10.1.0.0/24"), "none",
                                        count=30, wait=1)
    assert result == "none", result
    r1.vtysh_cmd("configure terminal\nip prefix-list SENDERS seq 5 permit 10.1.0.0/24\n")
    _, result = topotest.run_and_expect(lambda: check_flags(r4), None, count=30, wait=1)
    assert result is None, result


def test_route_map_selects_prefixes():
    "A route-map selects the P-flagged prefixes as the prefix-list did, and its edits count."
    r1, r4 = gear("r1"), gear("r4")
    rc, out = vtysh_rc(r1, "configure terminal",
                       "route-map PNC-SENDERS permit 10",
                       "match ip address prefix-list SENDERS",
                       "exit",
                       "route-map PNC-SENDERS permit 20",
                       "match ipv6 address prefix-list SENDERS",
                       "exit",
                       "router isis core",
                       "proxy-node-capability route-map PNC-SENDERS")
    assert rc == 0, out
    running = r1.vtysh_cmd("show running-config")
    assert " proxy-node-capability route-map PNC-SENDERS\n" in running, running
    assert "proxy-node-capability prefix-list" not in running, running
    _, result = topotest.run_and_expect(lambda: check_flags(r4), None, count=30, wait=1)
    assert result is None, result

    def subnet_flagged():
        return any(attr_flags(r4).get("10.1.0.0/24", [None]))

    # A deny entry in front of the permits: the IPv4 subnet loses P, the
    # IPv6 one keeps it.
    rc, out = vtysh_rc(r1, "configure terminal", "route-map PNC-SENDERS deny 5",
                       "match ip address prefix-list SENDERS")
    assert rc == 0, out
    _, result = topotest.run_and_expect(subnet_flagged, False, count=30, wait=1)
    assert result is False, attr_flags(r4).get("10.1.0.0/24")
    assert any(attr_flags(r4).get("2001:db8:1::/64", [None]))
    rc, out = vtysh_rc(r1, "configure terminal", "no route-map PNC-SENDERS deny 5")
    assert rc == 0, out
    _, result = topotest.run_and_expect(lambda: check_flags(r4), None, count=30, wait=1)
    assert result is None, result

    # Back to the prefix-list: the route-map no longer selects anything.
    rc, out = vtysh_rc(r1, "configure terminal", "router isis core",
                       "proxy-node-capability prefix-list SENDERS")
    assert rc == 0, out
    running = r1.vtysh_cmd("show running-config")
    assert " proxy-node-capability prefix-list SENDERS\n" in running, running
    rc, out = vtysh_rc(r1, "configure terminal", "no route-map PNC-SENDERS")
    assert rc == 0, out
    _, result = topotest.run_and_expect(lambda: check_flags(r4), None, count=30, wait=1)
    assert result is None, result


def test_narrow_metrics_refused():
    "PNC needs wide metrics: metric-style narrow is refused while it is on, and nothing changes."
    r1 = gear("r1")
    before = r1.vtysh_cmd("show running-config")
    rc, out = vtysh_rc(r1, "configure terminal", "router isis core", "metric-style narrow")
    assert rc != 0 and "needs wide or transition metrics" in out, out
    assert r1.vtysh_cmd("show running-config") == before
    rc, out = vtysh_rc(r1, "configure terminal", "router isis core", "metric-style transition")
    assert rc == 0, out
    rc, out = vtysh_rc(r1, "configure terminal", "router isis core", "metric-style wide")
    assert rc == 0, out


def test_removing_config_clears_p():
    "no proxy-node-capability: the sub-TLV, the PNC field and the proxies go."
    gear("r1").vtysh_cmd("configure terminal\nrouter isis core\nno proxy-node-capability\n")

    def cleared():
        seen = attr_flags(gear("r4"))
        return [p for p in FLAGGED if any(seen.get(p, [None]))]

    _, result = topotest.run_and_expect(cleared, [], count=60, wait=1)
    assert result == [], result

    r4 = gear("r4")

    def rib_cleared():
        return {p: isis_route_pnc(r4, p) for p in PROXIED if isis_route_pnc(r4, p) != "none"}

    _, result = topotest.run_and_expect(rib_cleared, {}, count=60, wait=1)
    assert result == {}, result

    def lookups_cleared():
        return [a for a in SENDERS if lookup(r4, a).get("found") is not False]

    _, result = topotest.run_and_expect(lookups_cleared, [], count=30, wait=1)
    assert result == [], result


if __name__ == "__main__":
    args = ["-s"] + sys.argv[1:]
    sys.exit(pytest.main(args))
