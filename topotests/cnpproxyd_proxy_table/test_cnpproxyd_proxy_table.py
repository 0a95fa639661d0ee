#!/usr/bin/env python
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_cnpproxyd_proxy_table.py
#
# One router running zebra, sharpd and cnpproxyd.  sharpd installs routes
# with the ZAPI Proxy Node Capability (PNC) field, standing in for a routing
# protocol.  Checks that zebra keeps and shows PNC (show ip[v6] route, text
# and json), that a change of PNC alone reaches zebra and cnpproxyd, that
# cnpproxyd's proxy table follows redistribution (add, change, PNC removed,
# route removed) for IPv4 and IPv6, that zebra sends cnpproxyd only the
# routes that carry PNC, and that static entries work as the
# lower-priority fallback and bad ones are refused.

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
from pnc_topo import start_routers, vtysh_rc

pytestmark = [pytest.mark.sharpd, pytest.mark.cnpproxyd]


def setup_module(mod):
    start_routers(mod, {"s1": ("r1",)}, CWD, extra_daemons={"r1": ["sharpd"]})


def teardown_module(_mod):
    get_topogen().stop_topology()


def r1():
    """r1, after checking that none of its daemons has died."""
    router = get_topogen().gears["r1"]
    assert router.check_router_running() == "", "a daemon died on r1"
    return router


def expect_json(router, cmd, expected, exact=False):
    test_func = functools.partial(topotest.router_json_cmp, router, cmd, expected, exact)
    _, result = topotest.run_and_expect(test_func, None, count=30, wait=0.5)
    assert result is None, "{}: {}".format(cmd, result)


def lookup(router, addr):
    return router.vtysh_cmd("show cnpproxy lookup {} json".format(addr), isjson=True)


def expect_lookup(router, addr, expected):
    def check():
        got = lookup(router, addr)
        return {k: got.get(k) for k in expected}

    _, result = topotest.run_and_expect(check, expected, count=30, wait=0.5)
    assert result == expected, "lookup {}: {}".format(addr, lookup(router, addr))


def test_ipv4_pnc_in_rib_and_proxy_table():
    "PNC from a protocol is kept and shown by zebra and learned by cnpproxyd."
    r = r1()
    r.vtysh_cmd("sharp install routes 10.100.0.0 nexthop 10.0.12.2 4 pnc 10.255.0.9")
    pnc = {"proxy": "10.255.0.9", "origin": "sharp", "proxyHost": False}
    for i in range(4):
        prefix = "10.100.0.{}/32".format(i)
        expect_json(r, "show ip route {} json".format(prefix),
                    {prefix: [{"protocol": "sharp", "selected": True, "pnc": pnc}]})
    out = r.vtysh_cmd("show ip route 10.100.0.1/32")
    assert "Proxy node (PNC): 10.255.0.9, signalled by sharp" in out, out

    proxies = {
        "10.100.0.{}/32".format(i): [
            {"proxy": "10.255.0.9", "source": "learned", "origin": "sharp"}
        ]
        for i in range(4)
    }
    expect_json(r, "show cnpproxy proxies json", {"proxies": proxies}, exact=False)
    expect_lookup(r, "10.100.0.3", {"found": True, "proxy": "10.255.0.9",
                                    "prefix": "10.100.0.3/32", "source": "learned"})
    expect_lookup(r, "10.100.0.4", {"found": False})


def test_ipv6_pnc_in_rib_and_proxy_table():
    "The same for IPv6, with a proxy host prefix."
    r = r1()
    # The kernel refuses routes via the link until DAD has finished.
    expect_json(r, "show ipv6 route 2001:db8:12::/64 json",
                {"2001:db8:12::/64": [{"protocol": "connected", "selected": True}]})
    r.vtysh_cmd(
        "sharp install routes 2001:db8:100:: nexthop 2001:db8:12::2 2 pnc 2001:db8:ff::9 proxy-host"
    )
    prefix = "2001:db8:100::1/128"
    expect_json(r, "show ipv6 route {} json".format(prefix),
                {prefix: [{"protocol": "sharp", "selected": True,
                           "pnc": {"proxy": "2001:db8:ff::9", "proxyHost": True}}]})
    expect_lookup(r, "2001:db8:100::1", {"found": True, "proxy": "2001:db8:ff::9",
                                         "prefix": prefix, "proxyHost": True})
    # an IPv4 table entry never answers for an IPv6 sender, and vice versa
    expect_lookup(r, "2001:db8:100::2", {"found": False})


def test_pnc_change_alone_reaches_zebra_and_client():
    "Re-announcing the same routes with another proxy updates RIB and table."
    r = r1()
    r.vtysh_cmd("sharp install routes 10.100.0.0 nexthop 10.0.12.2 4 pnc 10.255.0.10")
    expect_json(r, "show ip route 10.100.0.2/32 json",
                {"10.100.0.2/32": [{"pnc": {"proxy": "10.255.0.10"}}]})
    expect_lookup(r, "10.100.0.2", {"found": True, "proxy": "10.255.0.10"})


def test_pnc_removed():
    "Routes re-announced without PNC drop out of the proxy table."
    r = r1()
    r.vtysh_cmd("sharp install routes 10.100.0.0 nexthop 10.0.12.2 4")
    expect_lookup(r, "10.100.0.2", {"found": False})
    route = r.vtysh_cmd("show ip route 10.100.0.2/32 json", isjson=True)
    assert route["10.100.0.2/32"][0]["protocol"] == "sharp"
    assert "pnc" not in route["10.100.0.2/32"][0]


def test_only_pnc_routes_reach_cnpproxyd():
    "zebra redistributes to cnpproxyd only the routes that carry PNC."
    r = r1()
    clients = r.vtysh_cmd("show zebra client json", isjson=True)
    assert [c["redistributePncOnly"] for c in clients["cnpproxy"]] == [True], clients
    assert [c["redistributePncOnly"] for c in clients["sharp"]] == [False], clients
    assert "only routes with a Proxy Node Capability" in r.vtysh_cmd("show zebra client")

    # Routes that lost PNC above came as deletes, never as routes without it.
    before = r.vtysh_cmd("show cnpproxy proxies json", isjson=True)
    assert before["routesWithoutPnc"] == 0, before

    # A table of routes without PNC, next to one with it: only that one
    # reaches cnpproxyd.
    r.vtysh_cmd("sharp install routes 10.120.0.0 nexthop 10.0.12.2 500")
    expect_json(r, "show ip route 10.120.1.243/32 json",
                {"10.120.1.243/32": [{"protocol": "sharp", "selected": True}]})
    r.vtysh_cmd("sharp install routes 10.130.0.0 nexthop 10.0.12.2 1 pnc 10.255.0.9")
    expect_lookup(r, "10.130.0.0", {"found": True, "proxy": "10.255.0.9"})
    after = r.vtysh_cmd("show cnpproxy proxies json", isjson=True)
    assert after["routesWithoutPnc"] == 0, after
    assert after["learnedChanges"] == before["learnedChanges"] + 1, (before, after)
    assert "10.120.0.1/32" not in after["proxies"], after
    r.vtysh_cmd("sharp remove routes 10.130.0.0 1")
    expect_lookup(r, "10.130.0.0", {"found": False})


def compiled(router):
    return router.vtysh_cmd("show cnpproxy proxies json", isjson=True)["lookup"]


def test_compiled_lookup_follows_the_table():
    """The data path's lookup is compiled again after every change of the
    proxy table: its prefixes, tables and generation follow the table, and
    its answers are the table's."""
    r = r1()
    before = r.vtysh_cmd("show cnpproxy proxies json", isjson=True)
    assert before["lookup"]["state"] == "compiled", before["lookup"]
    v4 = before["lookup"]["ipv4"]["prefixes"]

    # 3000 host routes: under one /16 first table slot each /24 needs a
    # table of its own, and a /32 is read in 3 steps (16 + 8 + 8).
    r.vtysh_cmd("sharp install routes 10.140.0.0 nexthop 10.0.12.2 3000 pnc 10.255.0.5")
    expect_json(r, "show cnpproxy proxies json",
                {"lookup": {"state": "compiled", "ipv4": {"prefixes": v4 + 3000,
                                                          "firstTableBits": 16,
                                                          "maxReads": 3}}})
    after = compiled(r)
    assert after["generation"] > before["lookup"]["generation"], (before, after)
    assert after["ipv4"]["tables"] >= before["lookup"]["ipv4"]["tables"] + 12, after
    assert after["bytes"] > before["lookup"]["bytes"] + 12 * 1024, after
    assert after["memoryLimit"] == 512 << 20 and after["refusedBytes"] == 0, after
    # The first, the last, and one past the last of the routes.
    expect_lookup(r, "10.140.0.0", {"found": True, "proxy": "10.255.0.5",
                                    "prefix": "10.140.0.0/32"})
    expect_lookup(r, "10.140.11.183", {"found": True, "proxy": "10.255.0.5"})
    expect_lookup(r, "10.140.11.184", {"found": False})
    text = r.vtysh_cmd("show cnpproxy proxies")
    assert "Lookup: compiled, generation {},".format(after["generation"]) in text, text
    assert "IPv4: {} prefixes, first table 16 bits".format(v4 + 3000) in text, text

    r.vtysh_cmd("sharp remove routes 10.140.0.0 3000")
    expect_json(r, "show cnpproxy proxies json",
                {"lookup": {"state": "compiled", "ipv4": {"prefixes": v4}}})
    expect_lookup(r, "10.140.0.0", {"found": False})


def oper_table(router, key=""):
    "The proxy table of the YANG state (entries at a key: with key)."
    out = router.vtysh_cmd("show yang operational-data "
                           "/frr-cnpproxyd:cnpproxyd/state/proxy-table{} cnpproxyd".format(key))
    return json.loads(out).get("frr-cnpproxyd:cnpproxyd", {}).get("state", {}).get(
        "proxy-table", [])


def test_static_fallback_and_priority():
    "A static entry answers where nothing is learned; learned wins."
    r = r1()
    # host bits typed by the operator are cleared in the key
    rc, out = vtysh_rc(r, "configure terminal", "router cnpproxy",
                    "proxy for 10.100.3.4/16 via 192.0.2.7")
    assert rc == 0, out
    running = r.vtysh_cmd("show running-config")
    assert " proxy for 10.100.0.0/16 via 192.0.2.7\n" in running, running
    expect_lookup(r, "10.100.0.1", {"found": True, "source": "static",
                                    "prefix": "10.100.0.0/16", "proxy": "192.0.2.7"})

    r.vtysh_cmd("sharp install routes 10.100.0.0 nexthop 10.0.12.2 4 pnc 10.255.0.9")
    expect_lookup(r, "10.100.0.1", {"found": True, "source": "learned",
                                    "proxy": "10.255.0.9"})

    # One prefix both learned and configured: the YANG state lists it
    # once, as the entry in force, and finds it by its key.
    rc, out = vtysh_rc(r, "configure terminal", "router cnpproxy",
                    "proxy for 10.100.0.1/32 via 192.0.2.8")
    assert rc == 0, out
    table = oper_table(r)
    assert [e["prefix"] for e in table].count("10.100.0.1/32") == 1, table
    one = [e for e in table if e["prefix"] == "10.100.0.1/32"][0]
    assert (one["source"], one["proxy"]) == ("learned", "10.255.0.9"), one
    assert "10.100.0.0/16" in [e["prefix"] for e in table], table
    keyed = oper_table(r, "[prefix='10.100.0.1/32']")
    assert len(keyed) == 1 and keyed[0]["source"] == "learned", keyed
    rc, out = vtysh_rc(r, "configure terminal", "router cnpproxy",
                    "no proxy for 10.100.0.1/32")
    assert rc == 0, out

    # the learned route goes away: the static entry answers again
    r.vtysh_cmd("sharp remove routes 10.100.0.0 4")
    expect_lookup(r, "10.100.0.1", {"found": True, "source": "static"})

    rc, out = vtysh_rc(r, "configure terminal", "router cnpproxy",
                    "no proxy for 10.100.0.0/16")
    assert rc == 0, out
    expect_lookup(r, "10.100.0.1", {"found": False})


@pytest.mark.parametrize(
    "command,message",
    [
        ("proxy for 10.1.0.0/16 via 224.0.0.1", "is not a unicast address"),
        ("proxy for 10.1.0.0/16 via 0.0.0.0", "is not a unicast address"),
        ("proxy for 2001:db8::/32 via ff02::1", "is not a unicast address"),
        ("proxy for 10.1.0.0/16", "% Specify the proxy"),
        ("proxy for 10.1.0.0/40 via 192.0.2.1", "% "),
    ],
)
def test_bad_static_refused(command, message):
    "Bad static entries are refused with a message and change nothing."
    r = r1()
    rc, out = vtysh_rc(r, "configure terminal", "router cnpproxy", command)
    assert message in out, out
    assert rc != 0, out
    assert "proxy for 10.1.0.0" not in r.vtysh_cmd("show running-config")
    expect_lookup(r, "10.1.2.3", {"found": False})


def test_zebra_restart_relearns():
    "zebra restarted alone: cnpproxyd subscribes again and learns the PNC routes."
    r = r1()
    r.killDaemons(["zebra"])

    def session():
        # cnpproxyd alone: a vtysh that talks to a dead zebra too spoils the JSON
        return r.vtysh_cmd("show cnpproxy status json", isjson=True,
                           daemon="cnpproxyd")["zebra"]["session"]

    _, result = topotest.run_and_expect(session, "down", count=20, wait=0.5)
    assert result == "down"
    expect_json(r, "show cnpproxy proxies json", {"count": 0})
    r.startDaemons(["zebra"])
    _, result = topotest.run_and_expect(session, "up", count=60, wait=1)
    assert result == "up"
    # sharpd's routes went with zebra; installed again (once sharpd's own
    # session is back), they reach cnpproxyd.
    expect_json(r, "show ip route 10.0.12.0/24 json",
                {"10.0.12.0/24": [{"protocol": "connected", "selected": True}]})

    def relearned():
        r.vtysh_cmd("sharp install routes 10.110.0.0 nexthop 10.0.12.2 2 pnc 10.255.0.7")
        return lookup(r, "10.110.0.1").get("found")

    _, result = topotest.run_and_expect(relearned, True, count=30, wait=1)
    assert result is True, r.vtysh_cmd("show ip route 10.110.0.1/32")
    expect_lookup(r, "10.110.0.1", {"found": True, "proxy": "10.255.0.7",
                                    "source": "learned", "origin": "sharp"})
    r.vtysh_cmd("sharp remove routes 10.110.0.0 2")
    expect_lookup(r, "10.110.0.1", {"found": False})


if __name__ == "__main__":
    args = ["-s"] + sys.argv[1:]
    sys.exit(pytest.main(args))
