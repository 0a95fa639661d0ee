#!/usr/bin/env python
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_isis_pnc_levels.py
#
#   sender subnet -- r1 ------- r2 ------- r3
#   10.1.0.0/24      L1 only    L1/L2      L2 only (other area)
#                    (proxy)    propagates cnpproxyd
#
# r1 flags its loopback and the sender subnet with P.  r2 propagates
# level-1 routes into level 2 and level-2 routes into level 1 (RFC 5302).
# Checks that r3 sees r1's prefixes in r2's LSP with P kept and R set, the
# proxy carried as Source Router ID, installs them with r1 as the proxy
# and that cnpproxyd on r3 maps senders to r1; that r3's prefixes reach
# r1 with the up/down bit and never return to level 2; that r2's LSPs
# settle (no propagation loop); and that switching propagation off
# withdraws the prefixes from level 2.

import functools
import os
import sys
import time

import pytest

CWD = os.path.dirname(os.path.realpath(__file__))
sys.path.append(os.path.join(CWD, "../"))

# pylint: disable=C0413
from lib import topotest
from lib.topogen import get_topogen
from pnc_topo import gear, isis_route_pnc, json_dicts, reach_entries, start_routers

pytestmark = [pytest.mark.isisd, pytest.mark.cnpproxyd]

P, N, R = 0x01, 0x20, 0x40

# prefix -> (flags octet r3 must see in r2's level-2 LSP, Source Router ID key, value)
PROPAGATED_UP = {
    "10.1.0.0/24": (R | P, "ipv4SourceRouterId", "10.255.0.1"),
    "2001:db8:1::/64": (R | P, "ipv6SourceRouterId", "2001:db8:ff::1"),
    "10.255.0.1/32": (R | N | P, None, None),
    "2001:db8:ff::1/128": (R | N | P, None, None),
}
# prefix -> (proxy, proxyHost) r3 installs
PROXIED = {
    "10.1.0.0/24": ("10.255.0.1", False),
    "2001:db8:1::/64": ("2001:db8:ff::1", False),
    "10.255.0.1/32": ("10.255.0.1", True),
    "2001:db8:ff::1/128": ("2001:db8:ff::1", True),
}


def setup_module(mod):
    start_routers(mod, {"s1": ("r1", "r2"), "s2": ("r2", "r3"), "s3": ("r1",)}, CWD)


def teardown_module(_mod):
    get_topogen().stop_topology()


def lsp_entry_list(router, lsp_id):
    """(prefix, entry) for the reachability entries of one LSP, both levels."""
    db = router.vtysh_cmd("show isis database detail {} json".format(lsp_id), isjson=True)
    return list(reach_entries(db))


def lsp_entries(router, lsp_id):
    """prefix -> entry, for the reachability entries of one LSP."""
    return dict(lsp_entry_list(router, lsp_id))


def flags_octet(entry):
    raw = entry.get("subtlvs", {}).get("prefixAttrFlags", {}).get("raw", "")
    return int(raw.split()[0], 16) if raw else None


def check_propagated_up():
    entries = lsp_entries(gear("r3"), "r2.00-00")
    for prefix, (octet, srid_key, srid) in PROPAGATED_UP.items():
        entry = entries.get(prefix)
        if entry is None:
            return "{} missing from r2's level-2 LSP".format(prefix)
        if flags_octet(entry) != octet:
            return "{}: flags {} want {:02x}".format(prefix, flags_octet(entry), octet)
        if entry.get("down"):
            return "{}: down bit set going up".format(prefix)
        if srid_key and entry.get("subtlvs", {}).get(srid_key) != srid:
            return "{}: Source Router ID {}".format(prefix, entry.get("subtlvs"))
    return None


def test_level1_prefixes_reach_level2_with_p_and_r():
    "r3 sees r1's prefixes in r2's LSP: P kept, R set, proxy as Source Router ID."
    _, result = topotest.run_and_expect(check_propagated_up, None, count=90, wait=1)
    assert result is None, result
    # Seed 002 5.1: P crosses the level boundary with no PNC knob on r2.
    assert "proxy-node-capability" not in gear("r2").vtysh_cmd("show running-config")

    # r2 advertises the r1-r2 link subnet itself: it is not added again
    link = [e for p, e in lsp_entry_list(gear("r3"), "r2.00-00") if p == "10.0.12.0/24"]
    assert len(link) == 1 and flags_octet(link[0]) is None, link


def test_level2_router_installs_the_proxy():
    "r3 installs the propagated prefixes with r1 (not r2) as their proxy."
    r3 = gear("r3")
    for prefix, (proxy, host) in PROXIED.items():
        want = {"proxy": proxy, "origin": "isis", "proxyHost": host}
        test_func = functools.partial(isis_route_pnc, r3, prefix)
        _, got = topotest.run_and_expect(test_func, want, count=60, wait=1)
        assert got == want, "{}: {}".format(prefix, got)
    # the link subnet is propagated without P: a route, but no proxy
    assert isis_route_pnc(r3, "10.0.12.0/24") == "none"


def test_cnpproxyd_lookup_across_levels():
    "cnpproxyd on r3 maps a sender behind r1 to r1."
    r3 = gear("r3")
    for addr, proxy in (("10.1.0.9", "10.255.0.1"), ("2001:db8:1::9", "2001:db8:ff::1")):
        def check(addr=addr):
            got = r3.vtysh_cmd("show cnpproxy lookup {} json".format(addr), isjson=True)
            return {"found": got.get("found"), "proxy": got.get("proxy")}

        want = {"found": True, "proxy": proxy}
        _, got = topotest.run_and_expect(check, want, count=30, wait=1)
        assert got == want, "{}: {}".format(addr, got)


def test_level2_prefixes_go_down_and_never_back_up():
    "r3's loopback reaches r1 with the up/down bit; r2 does not send it back up."
    def check_down():
        entry = lsp_entries(gear("r1"), "r2.00-00").get("10.255.0.3/32")
        if entry is None:
            return "10.255.0.3/32 missing from r2's level-1 LSP"
        if not entry.get("down") or not (flags_octet(entry) or 0) & R:
            return "10.255.0.3/32: {}".format(entry)
        return None

    _, result = topotest.run_and_expect(check_down, None, count=60, wait=1)
    assert result is None, result
    assert isis_route_pnc(gear("r1"), "10.255.0.3/32") == "none"

    level2 = lsp_entries(gear("r3"), "r2.00-00")
    assert "10.255.0.3/32" not in level2, "propagated back into level 2"


def lsp_seqnos(router):
    """(LSP ID, sequence number) of every LSP, both levels, in database order."""
    out = router.vtysh_cmd("show isis database json", isjson=True)
    return [(node["lsp"].get("id"), node["seqNumber"]) for node in json_dicts(out)
            if isinstance(node.get("lsp"), dict) and "seqNumber" in node]


def test_propagation_settles():
    """With propagation both ways, r2 stops regenerating its LSPs: within a
    minute its sequence numbers stay the same for 8 s (a regeneration the
    previous test's change still had pending may come first; a loop
    between the levels would never stop)."""
    r2 = gear("r2")
    history = []

    def settled():
        before = lsp_seqnos(r2)
        assert before, "no LSPs in r2's database json"
        quiet_until = time.monotonic() + 8
        after = before
        # a change ends the window at once; none for 8 s is what is tested
        while after == before and time.monotonic() < quiet_until:
            time.sleep(0.5)  # not a wait: the poll of the quiet window under test
            after = lsp_seqnos(r2)
        history.append((before, after))
        return before == after

    _, result = topotest.run_and_expect(settled, True, count=7, wait=0)
    assert result is True, "LSPs still changing: {}".format(history)


def test_switching_propagation_off_withdraws():
    "no propagate-prefixes level-1-to-level-2: r3 loses r1's prefixes."
    gear("r2").vtysh_cmd(
        "configure terminal\nrouter isis core\nno propagate-prefixes level-1-to-level-2\n")
    r3 = gear("r3")

    def gone():
        entries = lsp_entries(r3, "r2.00-00")
        return [p for p in PROPAGATED_UP if p in entries]

    _, result = topotest.run_and_expect(gone, [], count=60, wait=1)
    assert result == [], result
    assert isis_route_pnc(r3, "10.1.0.0/24") == "no isis route"
    got = r3.vtysh_cmd("show cnpproxy lookup 10.1.0.9 json", isjson=True)
    assert got.get("found") is False, got

    out = gear("r2").vtysh_cmd("show running-config")
    assert "propagate-prefixes level-2-to-level-1" in out, out
    assert "propagate-prefixes level-1-to-level-2" not in out, out


if __name__ == "__main__":
    args = ["-s"] + sys.argv[1:]
    sys.exit(pytest.main(args))
