#!/usr/bin/env python
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Benchmark (make bench, not make check): how long 10 000 IPv6 prefixes
# take to reach the third router of an OSPFv3 chain, with the Proxy Node
# Capability on and off.
#
#   r1 (sharpd: 10 000 routes, redistribute sharp) --- r2 --- r3 (cnpproxyd)
#
# With PNC on, r1 selects every redistributed prefix with its prefix-list,
# so each AS-External-LSA has an E-AS-External-LSA with P beside it.  One
# round: r1 starts redistributing; the clock stops when r3's zebra holds
# all the prefixes as OSPFv3 routes and, with PNC on, when cnpproxyd on r3
# has learned a proxy for each of them.  Rounds alternate off and on; the
# medians and all samples are printed and written to
# $PNC_BENCH_OUT_DIR/bench-ospf6-pnc-convergence.json if set.  Only
# correctness is asserted: every prefix arrives, with PNC exactly when it
# is on.

import os
import sys
import time

import pytest

CWD = os.path.dirname(os.path.realpath(__file__))
sys.path.append(os.path.join(CWD, "../"))

# pylint: disable=C0413
from pnc_bench import install_sharp_routes, redistribution_round, rib_routes, run_rounds, wait
import pnc_bench
from lib.topogen import get_topogen

pytestmark = [pytest.mark.ospf6d, pytest.mark.cnpproxyd]

# the chain of routers, set up and torn down for the module
setup_module = pnc_bench.setup_module
teardown_module = pnc_bench.teardown_module


def one_round(tgen, pnc, internal):
    r3 = tgen.gears["r3"]
    return redistribution_round(tgen, pnc, "router ospf6", "redistribute sharp",
                                lambda: rib_routes(r3, "ospf6", "ipv6") - internal)

def test_ten_thousand_prefixes_with_and_without_pnc():
    "Time for the prefixes to reach r3 (RIB, and cnpproxyd with PNC), PNC off and on."
    tgen = get_topogen()
    r3 = tgen.gears["r3"]
    # r3's own OSPFv3 routes: r1's and r2's loopbacks and links
    wait("r1's loopback at r3", lambda: "2001:db8:ff::1/128" in r3.vtysh_cmd(
        "show ipv6 route ospf6 json", isjson=True), True)
    time.sleep(2)
    internal = rib_routes(r3, "ospf6", "ipv6")
    install_sharp_routes(tgen.gears["r1"], 180, ipv6=True)
    run_rounds("ospf6_pnc_convergence", lambda pnc: one_round(tgen, pnc, internal))
