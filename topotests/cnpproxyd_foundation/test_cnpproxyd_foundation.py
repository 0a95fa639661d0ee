#!/usr/bin/env python
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_cnpproxyd_foundation.py
#
# Two routers running zebra, mgmtd, isisd and cnpproxyd from the pnc build:
#
#   r1 (lo 10.0.255.1) ---- s1 ---- r2 (lo 10.0.255.2)
#
# Checks that the IS-IS adjacency comes up, that cnpproxyd is an integrated
# FRR daemon (its "router cnpproxy" block is taken by vtysh, shown in
# show running-config and in show cnpproxy status json, refused with a
# message when invalid, kept across write memory and a daemon restart),
# that its status reports the live zebra session, and what an operator
# meets at the CLI: "no" forms with and without their value, show
# debugging cnpproxy, JSON output without lost keys.

import functools
import json
import os
import re
import sys

import pytest

CWD = os.path.dirname(os.path.realpath(__file__))
sys.path.append(os.path.join(CWD, "../"))

# pylint: disable=C0413
from lib import topotest
from lib.topogen import get_topogen
from pnc_topo import run_rc, start_routers, vtysh_rc

pytestmark = [pytest.mark.isisd, pytest.mark.cnpproxyd]


def setup_module(mod):
    start_routers(mod, {"s1": ("r1", "r2")}, CWD)


def teardown_module(_mod):
    get_topogen().stop_topology()


def status(router):
    # cnpproxyd alone: a vtysh that talks to a dead zebra too spoils the JSON
    return router.vtysh_cmd("show cnpproxy status json", isjson=True, daemon="cnpproxyd")


def cnpproxy_block(router):
    """The 'router cnpproxy' block of show running-config, or None."""
    running = router.vtysh_cmd("show running-config")
    m = re.search(r"^router cnpproxy\n(.*?)^exit$", running, re.M | re.S)
    return m.group(1) if m else None


def assert_routers_healthy():
    """Fail, rather than skip, when a daemon has died: a crash is a bug."""
    for name, router in get_topogen().routers().items():
        assert router.check_router_running() == "", "a daemon died on " + name


def test_isis_adjacency_and_routes():
    "IS-IS comes up between the two routers built from the pnc tree."
    assert_routers_healthy()
    tgen = get_topogen()
    for local, remote in (("r1", "2"), ("r2", "1")):
        router = tgen.gears[local]
        for cmd, prefix in (
            ("show ip route json", "10.0.255.{}/32".format(remote)),
            ("show ipv6 route json", "2001:db8:ff::{}/128".format(remote)),
        ):
            expected = {prefix: [{"protocol": "isis", "selected": True}]}
            test_func = functools.partial(
                topotest.router_json_cmp, router, cmd, expected
            )
            _, result = topotest.run_and_expect(test_func, None, count=60, wait=1)
            assert result is None, "{}: no IS-IS route to {}".format(local, prefix)
        _, out = vtysh_rc(router, "show isis neighbor")
        assert re.search(r"r{}\s+\S+\s+\d+\s+Up".format(remote), out), out


def test_running_config_from_file():
    "The router cnpproxy block of frr.conf reaches cnpproxyd through vtysh."
    assert_routers_healthy()
    tgen = get_topogen()
    assert cnpproxy_block(tgen.gears["r1"]) == " proxy\n"
    assert cnpproxy_block(tgen.gears["r2"]) == ""


def test_status_json():
    "show cnpproxy status json reports version, zebra session and roles."
    assert_routers_healthy()
    tgen = get_topogen()
    r1 = status(tgen.gears["r1"])
    assert r1["version"]
    assert r1["frrVersion"] == "10.7.1"
    assert r1["zebra"]["session"] == "up"
    assert r1["configured"] is True
    # Without accept-from the proxy role accepts nothing, so it is not
    # operational and says why; its settings are the defaults.
    proxy = r1["roles"]["proxy"]
    assert proxy["enabled"] and not proxy["operational"], proxy
    assert "every notification is dropped" in proxy["reason"], proxy
    assert proxy["settings"] == {
        "cnpMinIntervalUs": 50, "cnpDscp": 48, "rateLimitPerSource": 10000,
        "rateLimitGlobal": 100000, "learnInterfaces": [], "filterInterfaces": [],
        "fastPath": "socket", "flowTableSize": 65536}, proxy
    assert r1["roles"]["congestionPoint"] == {"enabled": False, "operational": False}
    assert r1["ports"] == {"notification": 61791, "flowLabel": 61792,
                          "notificationIcmpType": 253, "notificationIcmpv6Type": 201}

    r2 = status(tgen.gears["r2"])
    assert r2["configured"] is True
    assert r2["roles"]["proxy"]["enabled"] is False


# The ports and ICMP types once notification-port is 61000.
PORTS_61000 = {"notification": 61000, "flowLabel": 61792, "notificationIcmpType": 253,
               "notificationIcmpv6Type": 201}


def test_config_through_vtysh():
    "Configuration entered in vtysh shows in running-config and in status."
    assert_routers_healthy()
    r2 = get_topogen().gears["r2"]
    rc, out = vtysh_rc(
        r2,
        "configure terminal",
        "router cnpproxy",
        "congestion-point",
        "notification-port 61000",
    )
    assert rc == 0, out
    assert cnpproxy_block(r2) == " congestion-point\n notification-port 61000\n"
    st = status(r2)
    assert st["roles"]["congestionPoint"]["enabled"] is True
    assert st["roles"]["proxy"]["enabled"] is False
    assert st["ports"] == PORTS_61000


@pytest.mark.parametrize(
    "command,message",
    [
        ("flow-label-port 61000", "must differ (both 61000)"),
        ("notification-port 4791", "RoCEv2 data port"),
        ("flow-label-port 4791", "RoCEv2 data port"),
        ("notification-port 0", "% "),
        ("notification-port 70000", "% "),
        ("proxy now", "% "),
        ("notification-icmp-type 8", "% "),
        ("notification-icmpv6-type 200", "the Long-haul CNP's ICMPv6 type"),
    ],
)
def test_bad_config_refused(command, message):
    "Invalid configuration is refused with a message and changes nothing."
    assert_routers_healthy()
    r2 = get_topogen().gears["r2"]
    before = cnpproxy_block(r2)
    rc, out = vtysh_rc(r2, "configure terminal", "router cnpproxy", command)
    assert message in out, out
    assert rc != 0, "vtysh accepted '{}': {}".format(command, out)
    assert cnpproxy_block(r2) == before
    assert status(r2)["ports"] == PORTS_61000


def test_long_prefix_list_name_refused():
    "accept-from names a prefix-list of at most 63 characters; a longer one is refused whole."
    assert_routers_healthy()
    r1 = get_topogen().gears["r1"]
    before = cnpproxy_block(r1)
    rc, out = vtysh_rc(r1, "configure terminal", "router cnpproxy",
                       "proxy accept-from prefix-list " + "P" * 64)
    assert rc != 0 and "at most 63 characters" in out, out
    assert cnpproxy_block(r1) == before
    rc, out = vtysh_rc(r1, "configure terminal", "router cnpproxy",
                       "proxy accept-from prefix-list " + "P" * 63)
    assert rc == 0, out
    assert "proxy accept-from prefix-list " + "P" * 63 + "\n" in cnpproxy_block(r1)
    rc, out = vtysh_rc(r1, "configure terminal", "router cnpproxy", "no proxy accept-from")
    assert rc == 0, out
    assert cnpproxy_block(r1) == before


def test_seventeenth_congestion_point_interface_refused():
    """The congestion point watches at most 16 interfaces: a 17th is
    refused at commit (YANG max-elements) instead of being configured
    and never watched."""
    assert_routers_healthy()
    r2 = get_topogen().gears["r2"]
    before = cnpproxy_block(r2)
    names = ["cpx{}".format(i) for i in range(17)]
    rc, out = vtysh_rc(r2, "configure terminal", "router cnpproxy",
                       *("congestion-point interface " + n for n in names[:16]))
    assert rc == 0, out
    block = cnpproxy_block(r2)
    assert all(" congestion-point interface {}\n".format(n) in block for n in names[:16]), block
    rc, out = vtysh_rc(r2, "configure terminal", "router cnpproxy",
                       "congestion-point interface " + names[16])
    assert rc != 0 and "interface" in out, out
    assert cnpproxy_block(r2) == block
    rc, out = vtysh_rc(r2, "configure terminal", "router cnpproxy",
                       *("no congestion-point interface " + n for n in names[:16]))
    assert rc == 0, out
    assert cnpproxy_block(r2) == before


def test_interface_names_are_interface_refs():
    """Interfaces are frr-interface references: one that does not exist
    yet may be named, and a name over the kernel's 15 characters is
    refused with a message, changing nothing."""
    assert_routers_healthy()
    r2 = get_topogen().gears["r2"]
    before = cnpproxy_block(r2)
    rc, out = vtysh_rc(r2, "configure terminal", "router cnpproxy", "border-interface " + "b" * 16)
    assert rc != 0 and "at most 15 characters" in out, out
    assert cnpproxy_block(r2) == before
    rc, out = vtysh_rc(r2, "configure terminal", "router cnpproxy", "border-interface " + "b" * 15)
    assert rc == 0, out
    assert " border-interface {}\n".format("b" * 15) in cnpproxy_block(r2)
    rc, out = vtysh_rc(r2, "configure terminal", "router cnpproxy",
                       "no border-interface " + "b" * 15)
    assert rc == 0, out
    assert cnpproxy_block(r2) == before
    # A name goes between quotes in the xpath: one with a quote is refused.
    for cmd in ("border-interface a'b", "congestion-point interface a'b",
                "congestion-point interface a'b rtt 5", "proxy learn-interface a'b",
                "tunnel-egress interface a'b"):
        rc, out = vtysh_rc(r2, "configure terminal", "router cnpproxy", cmd)
        assert rc != 0 and "quote" in out, (cmd, out)
        assert cnpproxy_block(r2) == before, cmd


def test_no_tunnel_prefix_names_its_vxlan():
    """'no proxy flow-label-tunnel prefix ... vxlan ...' removes the entry
    only when the VXLAN typed is the configured one."""
    assert_routers_healthy()
    r1 = get_topogen().gears["r1"]
    before = cnpproxy_block(r1)
    entry = "proxy flow-label-tunnel prefix 10.77.0.0/16 endpoint 2001:db8:77::2"
    rc, out = cnpproxy_cfg(r1, "proxy flow-label-tunnel interface r1-eth0 source 2001:db8:77::1",
                           entry + " vxlan vni 5 router-mac 02:00:00:00:00:01")
    assert rc == 0, out
    configured = cnpproxy_block(r1)
    rc, out = cnpproxy_cfg(r1, "no " + entry + " vxlan vni 6 router-mac 02:00:00:00:00:01")
    assert rc != 0 and "The configured value is" in out, out
    assert cnpproxy_block(r1) == configured
    rc, out = cnpproxy_cfg(r1, "no " + entry + " vxlan vni 5 router-mac 02:00:00:00:00:01")
    assert rc == 0, out
    assert "10.77.0.0/16" not in cnpproxy_block(r1)
    rc, out = cnpproxy_cfg(r1, "no proxy flow-label-tunnel")
    assert rc == 0, out
    assert cnpproxy_block(r1) == before


def test_write_memory_and_restart():
    "Configuration saved with write memory comes back after a restart."
    assert_routers_healthy()
    r2 = get_topogen().gears["r2"]
    rc, out = vtysh_rc(r2, "write memory")
    assert rc == 0, out
    saved = r2.cmd("cat /etc/frr/frr.conf")
    assert "router cnpproxy" in saved and " congestion-point" in saved, saved

    old_pid = r2.cmd("cat /var/run/frr/cnpproxyd.pid").strip()
    r2.killDaemons(["cnpproxyd"])
    r2.startDaemons(["cnpproxyd"])
    new_pid = r2.cmd("cat /var/run/frr/cnpproxyd.pid").strip()
    assert new_pid and new_pid != old_pid

    # A fresh daemon knows nothing until the saved configuration is booted,
    # as the init scripts do with vtysh -b.
    assert status(r2)["configured"] is False
    rc, out = run_rc(r2, "vtysh -b -d cnpproxyd")
    assert rc == 0, out
    assert cnpproxy_block(r2) == " congestion-point\n notification-port 61000\n"
    st = status(r2)
    assert st["roles"]["congestionPoint"]["enabled"] is True
    assert st["ports"]["notification"] == 61000


def test_zebra_session_follows_zebra():
    "The status shows the zebra session down while zebra is stopped."
    assert_routers_healthy()
    r1 = get_topogen().gears["r1"]
    before = status(r1)["zebra"]
    assert before["session"] == "up"

    r1.killDaemons(["zebra"])
    def test_func():
        return status(r1)["zebra"]["session"]

    _, result = topotest.run_and_expect(test_func, "down", count=20, wait=0.5)
    assert result == "down"
    assert status(r1)["zebra"]["disconnects"] == before["disconnects"] + 1

    r1.startDaemons(["zebra"])
    _, result = topotest.run_and_expect(test_func, "up", count=60, wait=1)
    assert result == "up"
    assert status(r1)["zebra"]["connects"] == before["connects"] + 1


def cnpproxy_cfg(router, *commands):
    return vtysh_rc(router, "configure terminal", "router cnpproxy", *commands)


# (set-up, "no" with a value that is not the configured one, the line the
# set-up adds to the block): the wrong value is refused and changes
# nothing; "no" without the value removes the line.
NO_FORMS = [
    ("proxy rate-limit per-source 500", "no proxy rate-limit per-source 7",
     " proxy rate-limit per-source 500\n", "no proxy rate-limit per-source"),
    ("proxy rate-limit global 2000", "no proxy rate-limit global 2001",
     " proxy rate-limit global 2000\n", "no proxy rate-limit global"),
    ("proxy cnp dscp 10", "no proxy cnp dscp 11", " proxy cnp dscp 10\n",
     "no proxy cnp dscp"),
    ("proxy cnp min-interval 80", "no proxy cnp min-interval 81",
     " proxy cnp min-interval 80\n", "no proxy cnp min-interval"),
    ("proxy source-address 10.0.255.1", "no proxy source-address 10.0.255.9",
     " proxy source-address 10.0.255.1\n", "no proxy source-address"),
    # Compared as addresses, not as strings.
    ("proxy source-address 2001:db8:ff::1", "no proxy source-address 2001:db8:ff::2",
     " proxy source-address 2001:db8:ff::1\n", "no proxy source-address 2001:db8:ff:0::1"),
    ("proxy accept-from prefix-list PROXIES", "no proxy accept-from prefix-list OTHER",
     " proxy accept-from prefix-list PROXIES\n", "no proxy accept-from"),
    ("proxy for 10.9.0.0/16 via 10.0.255.9", "no proxy for 10.9.0.0/16 via 10.0.255.8",
     " proxy for 10.9.0.0/16 via 10.0.255.9\n", "no proxy for 10.9.0.0/16"),
    ("proxy sender 10.8.0.0/16 format rocev2-cnp",
     "no proxy sender 10.8.0.0/16 format long-haul-rocev2",
     " proxy sender 10.8.0.0/16 format rocev2-cnp\n", "no proxy sender 10.8.0.0/16"),
    ("proxy long-haul severe-reduce 45", "no proxy long-haul severe-reduce 31",
     " proxy long-haul severe-reduce 45\n", "no proxy long-haul severe-reduce"),
    ("proxy long-haul severe-reduce-step 0", "no proxy long-haul severe-reduce-step 10",
     " proxy long-haul severe-reduce-step 0\n", "no proxy long-haul severe-reduce-step"),
    ("proxy long-haul resume-share 0", "no proxy long-haul resume-share 50",
     " proxy long-haul resume-share 0\n", "no proxy long-haul resume-share"),
    ("proxy long-haul device-id pe1", "no proxy long-haul device-id pe2",
     " proxy long-haul device-id pe1\n", "no proxy long-haul device-id"),
    ("proxy long-haul light-action rate-reduce", "no proxy long-haul light-action notify",
     " proxy long-haul light-action rate-reduce\n", "no proxy long-haul light-action"),
    ("proxy rate-advice max-rate 400", "no proxy rate-advice max-rate 401",
     " proxy rate-advice max-rate 400\n", "no proxy rate-advice max-rate"),
    ("proxy light-cnp-pacing 0", "no proxy light-cnp-pacing 3",
     " proxy light-cnp-pacing 0\n", "no proxy light-cnp-pacing"),
    ("flow-label-port 61900", "no flow-label-port 61901", " flow-label-port 61900\n",
     "no flow-label-port"),
]


@pytest.mark.parametrize("setup,wrong,line,bare", NO_FORMS)
def test_no_forms(setup, wrong, line, bare):
    "'no X' works without its value; with a wrong value it changes nothing."
    assert_routers_healthy()
    r1 = get_topogen().gears["r1"]
    before = cnpproxy_block(r1)
    rc, out = cnpproxy_cfg(r1, setup)
    assert rc == 0, out
    configured = cnpproxy_block(r1)
    assert line in configured, configured

    rc, out = cnpproxy_cfg(r1, wrong)
    assert rc != 0 and "The configured value is" in out, out
    assert cnpproxy_block(r1) == configured

    rc, out = cnpproxy_cfg(r1, bare)
    assert rc == 0, out
    assert cnpproxy_block(r1) == before


def test_no_forms_create_nothing():
    "'no' of an interface setting never creates the interface or the role."
    assert_routers_healthy()
    tgen = get_topogen()
    r1, r2 = tgen.gears["r1"], tgen.gears["r2"]
    for router in (r1, r2):
        before = cnpproxy_block(router)
        roles = status(router)["roles"]
        for cmd in ("no congestion-point interface nosuch0 rtt 5",
                    "no congestion-point interface nosuch0 rtt",
                    "no congestion-point interface nosuch0 poll-interval",
                    "no congestion-point interface nosuch0 thresholds",
                    "no congestion-point interface nosuch0 marking ce",
                    "no congestion-point interface nosuch0 notify rate-limit",
                    "no congestion-point interface nosuch0 trigger ecn-rate",
                    "no congestion-point fallback-proxy",
                    "no congestion-point interface nosuch0 collaborative-suppression",
                    "no congestion-point direct-to-source",
                    "no congestion-point hide-queue-state",
                    "no proxy flow-label-tunnel"):
            rc, out = cnpproxy_cfg(router, cmd)
            assert rc == 0, (cmd, out)
            assert cnpproxy_block(router) == before, cmd
        assert status(router)["roles"] == roles


def test_no_form_of_interface_setting():
    "On a configured interface, 'no' restores the default, a wrong value is refused."
    assert_routers_healthy()
    r2 = get_topogen().gears["r2"]
    before = cnpproxy_block(r2)
    ifcmd = "congestion-point interface r2-eth0"
    rc, out = cnpproxy_cfg(r2, ifcmd, ifcmd + " rtt 5000", ifcmd + " marking two-threshold",
                           ifcmd + " collaborative-suppression fall-percent 20",
                           "congestion-point direct-to-source prefix-list SENDERS")
    assert rc == 0, out
    block = cnpproxy_block(r2)
    assert ifcmd + " rtt 5000\n" in block and ifcmd + " marking two-threshold\n" in block, block
    assert ifcmd + " collaborative-suppression fall-percent 20\n" in block, block
    assert " congestion-point direct-to-source prefix-list SENDERS\n" in block, block
    for wrong in ("no " + ifcmd + " rtt 5", "no " + ifcmd + " marking none",
                  "no " + ifcmd + " collaborative-suppression fall-percent 21",
                  "no congestion-point direct-to-source prefix-list OTHER"):
        rc, out = cnpproxy_cfg(r2, wrong)
        assert rc != 0 and "The configured value is" in out, out
        assert cnpproxy_block(r2) == block
    rc, out = cnpproxy_cfg(r2, "no " + ifcmd + " rtt", "no " + ifcmd + " marking",
                           "no " + ifcmd + " collaborative-suppression",
                           "no congestion-point direct-to-source")
    assert rc == 0, out
    assert cnpproxy_block(r2).replace(" " + ifcmd + "\n", "", 1) == before
    # Never congested: times that have not come say so.
    out = r2.vtysh_cmd("show cnpproxy congestion")
    assert "last onset never, last resume never, last notification never" in out, out
    assert "-1 ms" not in out, out
    rc, out = cnpproxy_cfg(r2, "no " + ifcmd)
    assert rc == 0 and cnpproxy_block(r2) == before, out


@pytest.mark.parametrize(
    "router,command,message",
    [
        ("r1", "proxy source-address 224.0.0.5", "CNP source address 224.0.0.5 is not a unicast"),
        ("r1", "proxy source-address 255.255.255.255", "is not a unicast address"),
        ("r1", "proxy source-address 0.0.0.0", "is not a unicast address"),
        ("r1", "proxy source-address ff02::1", "CNP source address ff02::1 is not a unicast"),
        ("r2", "congestion-point source-address ff02::1",
         "notification source address ff02::1 is not a unicast"),
        ("r2", "congestion-point source-address 224.0.0.5", "is not a unicast address"),
        ("r1", "proxy flow-label-tunnel interface r1-eth0 source ::",
         "tunnel address :: is not a unicast"),
        ("r1", "proxy flow-label-tunnel interface r1-eth0 source ff0e::1",
         "is not a unicast address"),
    ],
)
def test_addresses_must_be_unicast(router, command, message):
    "Source and tunnel addresses name one node: others are refused, nothing changes."
    assert_routers_healthy()
    r = get_topogen().gears[router]
    before = r.vtysh_cmd("show running-config")
    rc, out = cnpproxy_cfg(r, command)
    assert rc != 0 and message in out, out
    assert r.vtysh_cmd("show running-config") == before


def test_tunnel_endpoint_must_be_unicast():
    "A flow-label tunnel's endpoint is refused unless unicast."
    assert_routers_healthy()
    r1 = get_topogen().gears["r1"]
    rc, out = cnpproxy_cfg(r1, "proxy flow-label-tunnel interface r1-eth0 source 2001:db8:ff::1")
    assert rc == 0, out
    before = cnpproxy_block(r1)
    rc, out = cnpproxy_cfg(r1, "proxy flow-label-tunnel prefix 10.9.0.0/16 endpoint ff02::2")
    assert rc != 0 and "tunnel address ff02::2 is not a unicast address" in out, out
    assert cnpproxy_block(r1) == before
    rc, out = cnpproxy_cfg(r1, "no proxy flow-label-tunnel")
    assert rc == 0 and "flow-label-tunnel" not in cnpproxy_block(r1), out


def test_command_with_a_bad_value_changes_nothing():
    "One bad value refuses the whole command: no other leaf of it is applied."
    assert_routers_healthy()
    r2 = get_topogen().gears["r2"]
    ifcmd = "congestion-point interface r2-eth0"
    rc, out = cnpproxy_cfg(r2, ifcmd)
    assert rc == 0, out
    block = cnpproxy_block(r2)
    thresholds = r2.vtysh_cmd("show cnpproxy congestion json",
                              isjson=True)["interfaces"]["r2-eth0"]["thresholds"]
    for bad in (ifcmd + " thresholds bdp-adaptive k-base 12345 alpha 0",
                ifcmd + " thresholds bdp-adaptive k-base 12345 alpha many"):
        rc, out = cnpproxy_cfg(r2, bad)
        assert rc != 0, out
        assert cnpproxy_block(r2) == block, bad
        now = r2.vtysh_cmd("show cnpproxy congestion json",
                           isjson=True)["interfaces"]["r2-eth0"]["thresholds"]
        # seed 000 5.3.2: one maximum-sized RoCEv2 frame by default
        assert now["kBase"] == thresholds["kBase"] == 4202, now
    rc, out = cnpproxy_cfg(r2, "no " + ifcmd)
    assert rc == 0, out


def test_show_debugging_cnpproxy():
    "vtysh knows show debugging cnpproxy; it lists what is on."
    assert_routers_healthy()
    r1 = get_topogen().gears["r1"]
    rc, out = vtysh_rc(r1, "debug cnpproxy proxy")
    assert rc == 0, out
    rc, out = vtysh_rc(r1, "show debugging cnpproxy")
    assert rc == 0, out
    assert "cnpproxyd debugging status" in out, out
    assert "cnpproxyd proxy role: notifications and CNPs debugging is on" in out, out
    assert "zebra session events debugging is on" not in out, out
    rc, out = vtysh_rc(r1, "no debug cnpproxy proxy")
    assert rc == 0, out
    rc, out = vtysh_rc(r1, "show debugging cnpproxy")
    assert rc == 0 and "debugging is on" not in out, out
    # vtysh's own show debugging still reaches cnpproxyd
    rc, out = vtysh_rc(r1, "show debugging")
    assert rc == 0 and "cnpproxyd debugging status" in out, out


def no_duplicate_keys(pairs):
    keys = [k for k, _ in pairs]
    dup = {k for k in keys if keys.count(k) > 1}
    assert not dup, "duplicate JSON keys {}".format(sorted(dup))
    return dict(pairs)


def test_json_has_every_count_once():
    "Counters JSON has no key twice; proxies JSON has the text's counts."
    assert_routers_healthy()
    r1 = get_topogen().gears["r1"]
    raw = r1.vtysh_cmd("show cnpproxy counters json")
    counters = json.loads(raw, object_pairs_hook=no_duplicate_keys)
    assert "ignored" in counters["learning"]["xdp"], counters["learning"]

    rc, out = cnpproxy_cfg(r1, "proxy for 10.9.0.0/16 via 10.0.255.9")
    assert rc == 0, out
    proxies = json.loads(r1.vtysh_cmd("show cnpproxy proxies json"),
                         object_pairs_hook=no_duplicate_keys)
    assert proxies["count"] == 1, proxies
    assert proxies["proxies"]["10.9.0.0/16"][0]["proxy"] == "10.0.255.9", proxies
    for key in ("learnedChanges", "learnedRemovals", "pncWithoutProxyAddress"):
        assert key in proxies, proxies
    text = r1.vtysh_cmd("show cnpproxy proxies")
    assert "1 entries (learned from zebra: {} changes, {} removals, {} PNC".format(
        proxies["learnedChanges"], proxies["learnedRemovals"],
        proxies["pncWithoutProxyAddress"]) in text, text
    rc, out = cnpproxy_cfg(r1, "no proxy for 10.9.0.0/16")
    assert rc == 0, out


if __name__ == "__main__":
    args = ["-s"] + sys.argv[1:]
    sys.exit(pytest.main(args))
