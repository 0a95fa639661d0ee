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
# $PNC_BENCH_OUT_DIR/bench-bgp-pnc-convergence.json if set.  Only
# correctness is asserted: every prefix arrives, with PNC exactly when it
# is on.

import os
import sys
import time

import pytest

CWD = os.path.dirname(os.path.realpath(__file__))
sys.path.append(os.path.join(CWD, "../"))

# pylint: disable=C0413
from lib.topogen import get_topogen
from pnc_bench import (PREFIXES, config, install_sharp_routes, proxies, rib_routes, run_rounds,
                       wait)
import pnc_bench

pytestmark = [pytest.mark.bgpd, pytest.mark.cnpproxyd]

# the chain of routers, set up and torn down for the module
setup_module = pnc_bench.setup_module
teardown_module = pnc_bench.teardown_module




def one_round(tgen, pnc):
    r1, r3 = tgen.gears["r1"], tgen.gears["r3"]
    config(r1, "router bgp 65001", "address-family ipv4 unicast",
           "{}bgp proxy-node-capability".format("" if pnc else "no "))
    t0 = time.monotonic()
    config(r1, "router bgp 65001", "address-family ipv4 unicast", "redistribute sharp")
    t_rib = wait("r3's RIB", lambda: rib_routes(r3, "ebgp"), PREFIXES)
    t_end = t_rib
    if pnc:
        t_end = wait("r3's cnpproxyd", lambda: proxies(r3), PREFIXES)
    else:
        assert proxies(r3) == 0
    sample = {"pnc": pnc, "rib_s": t_rib - t0, "end_s": t_end - t0}
    config(r1, "router bgp 65001", "address-family ipv4 unicast", "no redistribute sharp")
    wait("withdrawal", lambda: rib_routes(r3, "ebgp"), 0)
    if pnc:
        wait("cnpproxyd emptied", lambda: proxies(r3), 0)
    return sample


def test_ten_thousand_prefixes_with_and_without_pnc():
    "Time for the prefixes to reach r3 (RIB, and cnpproxyd with PNC), PNC off and on."
    tgen = get_topogen()
    wait("r2-r3 session", lambda: bool(tgen.gears["r3"].vtysh_cmd(
        "show bgp ipv4 unicast summary json", isjson=True).get("peers", {}).get(
            "10.0.23.2", {}).get("state") == "Established"), True)
    install_sharp_routes(tgen.gears["r1"], 180)
    run_rounds("bgp_pnc_convergence", lambda pnc: one_round(tgen, pnc))
