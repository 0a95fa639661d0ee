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
# message when invalid, kept across write memory and a daemon restart) and
# that its status reports the live zebra session.

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
from lib.topogen import Topogen, get_topogen
from pnc_topo import run_rc, vtysh_rc

pytestmark = [pytest.mark.isisd, pytest.mark.cnpproxyd]


def setup_module(mod):
    topodef = {"s1": ("r1", "r2")}
    tgen = Topogen(topodef, mod.__name__)
    tgen.start_topology()
    for rname, router in tgen.routers().items():
        router.load_frr_config(os.path.join(CWD, "{}/frr.conf".format(rname)))
    tgen.start_router()


def teardown_module(_mod):
    get_topogen().stop_topology()


def status(router):
    return router.vtysh_cmd("show cnpproxy status json", isjson=True)


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
    # The proxy role runs, but says that without accept-from it accepts
    # nothing; its settings are the defaults.
    proxy = r1["roles"]["proxy"]
    assert proxy["enabled"] and proxy["operational"], proxy
    assert "every notification is dropped" in proxy["note"], proxy
    assert proxy["settings"] == {
        "cnpMinIntervalUs": 50, "cnpDscp": 48, "rateLimitPerSource": 10000,
        "rateLimitGlobal": 100000, "learnInterfaces": []}, proxy
    assert r1["roles"]["congestionPoint"] == {"enabled": False, "operational": False}
    assert r1["ports"] == {"notification": 61791, "flowLabel": 61792}

    r2 = status(tgen.gears["r2"])
    assert r2["configured"] is True
    assert r2["roles"]["proxy"]["enabled"] is False


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
    assert st["ports"] == {"notification": 61000, "flowLabel": 61792}


@pytest.mark.parametrize(
    "command,message",
    [
        ("flow-label-port 61000", "must differ (both 61000)"),
        ("notification-port 4791", "RoCEv2 data port"),
        ("flow-label-port 4791", "RoCEv2 data port"),
        ("notification-port 0", "% "),
        ("notification-port 70000", "% "),
        ("proxy now", "% "),
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
    assert status(r2)["ports"] == {"notification": 61000, "flowLabel": 61792}


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


if __name__ == "__main__":
    args = ["-s"] + sys.argv[1:]
    sys.exit(pytest.main(args))
