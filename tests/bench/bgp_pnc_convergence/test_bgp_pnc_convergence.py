#!/usr/bin/env python
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Benchmark (make bench, not make check): how long 10 000 prefixes take to
# reach the third router of an eBGP chain, with the Proxy Node Capability
# on and off.
#
#   r1 (sharpd: 10 000 routes, redistribute sharp) --- r2 --- r3 (cnpproxyd)
#
# r2 keeps the next hop towards r3 (attribute-unchanged next-hop), so PNC
# reaches r3.  One round: r1 starts redistributing; the clock stops when
# r3's zebra holds all the prefixes as BGP routes and, with PNC on, when
# cnpproxyd on r3 has learned a proxy for each of them.  Rounds alternate
# off and on; the medians and all samples are printed and written to
# $PNC_BENCH_OUT (JSON) if set.  Only correctness is asserted: every
# prefix arrives, with PNC exactly when it is on.

import json
import os
import statistics
import sys
import time

import pytest

CWD = os.path.dirname(os.path.realpath(__file__))
sys.path.append(os.path.join(CWD, "../"))

# pylint: disable=C0413
from lib.topogen import get_topogen
from pnc_topo import start_routers, vtysh_rc

pytestmark = [pytest.mark.bgpd, pytest.mark.cnpproxyd]

PREFIXES = int(os.environ.get("PNC_BENCH_PREFIXES", "10000"))
ROUNDS = int(os.environ.get("PNC_BENCH_ROUNDS", "5"))
TIMEOUT = 120


def setup_module(mod):
    start_routers(mod, {"s1": ("r1", "r2"), "s2": ("r2", "r3"), "s3": ("r1",)}, CWD,
                  extra_daemons={"r1": ["sharpd"]})


def teardown_module(_mod):
    get_topogen().stop_topology()


def config(router, *lines):
    rc, out = vtysh_rc(router, "configure terminal", *lines)
    assert rc == 0, out


def bgp_routes_in_rib(router):
    out = router.vtysh_cmd("show ip route summary json", isjson=True)
    for entry in out.get("routes", []):
        if entry.get("type") == "ebgp":
            return entry.get("fib", 0)
    return 0


def proxies(router):
    out = router.vtysh_cmd("show cnpproxy proxies json", isjson=True)
    return out.get("count", 0)


def wait(what, check, want):
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        if check() == want:
            return time.monotonic()
        time.sleep(0.05)
    raise AssertionError("{}: not {} after {} s".format(what, want, TIMEOUT))


def one_round(tgen, pnc):
    r1, r3 = tgen.gears["r1"], tgen.gears["r3"]
    config(r1, "router bgp 65001", "address-family ipv4 unicast",
           "{}bgp proxy-node-capability".format("" if pnc else "no "))
    t0 = time.monotonic()
    config(r1, "router bgp 65001", "address-family ipv4 unicast", "redistribute sharp")
    t_rib = wait("r3's RIB", lambda: bgp_routes_in_rib(r3), PREFIXES)
    t_end = t_rib
    if pnc:
        t_end = wait("r3's cnpproxyd", lambda: proxies(r3), PREFIXES)
    else:
        assert proxies(r3) == 0
    sample = {"pnc": pnc, "rib_s": t_rib - t0, "end_s": t_end - t0}
    config(r1, "router bgp 65001", "address-family ipv4 unicast", "no redistribute sharp")
    wait("withdrawal", lambda: bgp_routes_in_rib(r3), 0)
    if pnc:
        wait("cnpproxyd emptied", lambda: proxies(r3), 0)
    return sample


def test_ten_thousand_prefixes_with_and_without_pnc():
    "Time for the prefixes to reach r3 (RIB, and cnpproxyd with PNC), PNC off and on."
    tgen = get_topogen()
    r1 = tgen.gears["r1"]
    wait("r2-r3 session", lambda: bool(tgen.gears["r3"].vtysh_cmd(
        "show bgp ipv4 unicast summary json", isjson=True).get("peers", {}).get(
            "10.0.23.2", {}).get("state") == "Established"), True)
    r1.vtysh_cmd("sharp install routes 10.128.0.0 nexthop 10.1.0.2 {}".format(PREFIXES))
    wait("r1's sharp routes", lambda: r1.vtysh_cmd("show ip route summary json", isjson=True)
         .get("routesTotalFib", 0) >= PREFIXES, True)

    samples = []
    for _ in range(ROUNDS):
        for pnc in (False, True):
            samples.append(one_round(tgen, pnc))

    report = {"prefixes": PREFIXES, "rounds": ROUNDS, "samples": samples}
    for pnc in (False, True):
        mine = [s for s in samples if s["pnc"] == pnc]
        report["pnc_on" if pnc else "pnc_off"] = {
            "rib_median_s": statistics.median(s["rib_s"] for s in mine),
            "end_median_s": statistics.median(s["end_s"] for s in mine),
        }
    print("\nbench bgp_pnc_convergence: {}".format(json.dumps(report, indent=1)))
    if os.environ.get("PNC_BENCH_OUT"):
        with open(os.environ["PNC_BENCH_OUT"], "w") as out:
            json.dump(report, out, indent=1)
