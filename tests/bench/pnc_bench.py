# SPDX-License-Identifier: GPL-2.0-or-later
#
# What the convergence benchmarks share: their three-router chain (a
# module imports setup_module and teardown_module), an IGP's round,
# configuring a router, waiting for a count with a deadline, counting
# cnpproxyd's proxies and the RIB's routes of one type, and running the
# rounds (PNC off, then on) into a report that is printed and kept as
# JSON in $PNC_BENCH_OUT_DIR.

import json
import os
import statistics
import time

from lib.topogen import get_topogen
from pnc_topo import start_routers, vtysh_rc

PREFIXES = int(os.environ.get("PNC_BENCH_PREFIXES", "10000"))
ROUNDS = int(os.environ.get("PNC_BENCH_ROUNDS", "5"))


def setup_module(mod):
    """A benchmark module's chain: r1 (with sharpd) --- r2 --- r3, r1 with a
    stub network of its own, configured from the module's directory."""
    start_routers(mod, {"s1": ("r1", "r2"), "s2": ("r2", "r3"), "s3": ("r1",)},
                  os.path.dirname(os.path.realpath(mod.__file__)),
                  extra_daemons={"r1": ["sharpd"]})


def teardown_module(_mod):
    get_topogen().stop_topology()


def config(router, *lines):
    rc, out = vtysh_rc(router, "configure terminal", *lines)
    assert rc == 0, out


def wait(what, check, want, timeout=180):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check() == want:
            return time.monotonic()
        time.sleep(0.05)
    raise AssertionError("{}: not {} after {} s".format(what, want, timeout))


def rib_routes(router, route_type, family="ip"):
    "Routes of one type (\"ospf\", \"ebgp\", ...) in the router's FIB."
    out = router.vtysh_cmd("show {} route summary json".format(family), isjson=True)
    for entry in out.get("routes", []):
        if entry.get("type") == route_type:
            return entry.get("fib", 0)
    return 0


def proxies(router):
    out = router.vtysh_cmd("show cnpproxy proxies json", isjson=True)
    return out.get("count", 0)


def install_sharp_routes(router, timeout, ipv6=False):
    "PREFIXES host routes from 10.128.0.0 (2001:db8:8000:: with ipv6) by sharpd."
    start, nexthop = ("2001:db8:8000::", "2001:db8:1::2") if ipv6 else ("10.128.0.0", "10.1.0.2")
    router.vtysh_cmd("sharp install routes {} nexthop {} {}".format(start, nexthop, PREFIXES))
    wait("{}'s sharp routes".format(router.name),
         lambda: rib_routes(router, "sharp", "ipv6" if ipv6 else "ip"), PREFIXES, timeout)


def redistribution_round(tgen, pnc, node, redistribute, externals):
    """One round of an IGP benchmark: r1 turns PNC on or off under node,
    then starts redistributing; the clock stops when externals() (r3's
    routes from r1's redistribution) reaches PREFIXES and, with PNC on,
    when r3's cnpproxyd has a proxy for each of them.  Undone after."""
    r1, r3 = tgen.gears["r1"], tgen.gears["r3"]
    config(r1, node, "{}proxy-node-capability prefix-list BENCH".format("" if pnc else "no "))
    t0 = time.monotonic()
    config(r1, node, redistribute)
    t_rib = wait("r3's RIB", externals, PREFIXES)
    t_end = t_rib
    if pnc:
        # r1's loopback is a proxy host prefix as well
        t_end = wait("r3's cnpproxyd", lambda: proxies(r3), PREFIXES + 1)
    else:
        assert proxies(r3) == 0
    sample = {"pnc": pnc, "rib_s": t_rib - t0, "end_s": t_end - t0}
    config(r1, node, "no " + redistribute)
    wait("withdrawal", externals, 0)
    if pnc:
        config(r1, node, "no proxy-node-capability")
        wait("cnpproxyd emptied", lambda: proxies(r3), 0)
    return sample


def run_rounds(name, one_round):
    """ROUNDS times one_round(False) then one_round(True); each returns a
    sample {"pnc", "rib_s", "end_s"}.  Prints and keeps the report."""
    samples = []
    for _ in range(ROUNDS):
        for pnc in (False, True):
            samples.append(one_round(pnc))

    report = {"prefixes": PREFIXES, "rounds": ROUNDS, "samples": samples}
    for pnc in (False, True):
        mine = [s for s in samples if s["pnc"] == pnc]
        report["pnc_on" if pnc else "pnc_off"] = {
            "rib_median_s": statistics.median(s["rib_s"] for s in mine),
            "end_median_s": statistics.median(s["end_s"] for s in mine),
        }
    print("\nbench {}: {}".format(name, json.dumps(report, indent=1)))
    if os.environ.get("PNC_BENCH_OUT_DIR"):
        path = os.path.join(os.environ["PNC_BENCH_OUT_DIR"],
                            "bench-{}.json".format(name.replace("_", "-")))
        with open(path, "w") as out:
            json.dump(report, out, indent=1)
    return report
