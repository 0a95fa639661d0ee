#!/usr/bin/env python
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Benchmark (make bench, not make check): how long 10 000 prefixes take to
# reach the third router of an IS-IS chain, with the Proxy Node
# Capability on and off.
#
#   r1 (sharpd: 10 000 routes, redistribute sharp) --- r2 --- r3 (cnpproxyd)
#
# With PNC on, r1 selects every redistributed prefix with its prefix-list,
# so each Extended IP Reachability entry carries the PNC sub-TLV.  One
# round: r1 starts redistributing; the clock stops when r3's zebra holds
# all the prefixes as IS-IS routes and, with PNC on, when cnpproxyd on r3
# has learned a proxy for each of them.  Rounds alternate off and on; the
# medians and all samples are printed and written to
# $PNC_BENCH_OUT_DIR/bench-isis-pnc-convergence.json if set.  Only
# correctness is asserted: every prefix arrives, with PNC exactly when it
# is on.

import os
import sys

import pytest

CWD = os.path.dirname(os.path.realpath(__file__))
sys.path.append(os.path.join(CWD, "../"))

# pylint: disable=C0413
from lib.topogen import get_topogen
from pnc_bench import install_sharp_routes, redistribution_round, rib_routes, run_rounds, wait
import pnc_bench

pytestmark = [pytest.mark.isisd, pytest.mark.cnpproxyd]

# the chain of routers, set up and torn down for the module
setup_module = pnc_bench.setup_module
teardown_module = pnc_bench.teardown_module

# r3's IS-IS routes without r1's redistributed ones: loopbacks of r1 and
# r2, the r1-r2 link
INTERNAL_ROUTES = 3


def redistributed_in_rib(router):
    return max(rib_routes(router, "isis") - INTERNAL_ROUTES, 0)


def one_round(tgen, pnc):
    r3 = tgen.gears["r3"]
    return redistribution_round(tgen, pnc, "router isis core",
                                "redistribute ipv4 sharp level-2",
                                lambda: redistributed_in_rib(r3))

def test_ten_thousand_prefixes_with_and_without_pnc():
    "Time for the prefixes to reach r3 (RIB, and cnpproxyd with PNC), PNC off and on."
    tgen = get_topogen()
    r3 = tgen.gears["r3"]
    wait("r3's internal routes", lambda: rib_routes(r3, "isis") >= INTERNAL_ROUTES, True)
    install_sharp_routes(tgen.gears["r1"], 180)
    run_rounds("isis_pnc_convergence", lambda pnc: one_round(tgen, pnc))


if __name__ == "__main__":
    sys.exit(pytest.main(["-s"] + sys.argv[1:]))
