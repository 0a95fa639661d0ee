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
# of the sender subnet selected by a prefix-list.  Checks what the other
# routers decode (show isis database detail, text and json), that tshark's
# IS-IS dissector reads the same flag octet on the wire, that other
# prefixes carry no sub-TLV, and that removing the configuration clears it.
#
# Not covered yet: the proxy derived from P in zebra's RIB (PNC field)
# and cnpproxyd's lookup through IS-IS, level propagation.

import os
import re
import sys
import time

import pytest

CWD = os.path.dirname(os.path.realpath(__file__))
sys.path.append(os.path.join(CWD, "../"))

# pylint: disable=C0413
from lib import topotest
from lib.topogen import Topogen, get_topogen

pytestmark = [pytest.mark.isisd]

# prefix -> expected octet 0 of the Prefix Attribute Flags from r1
FLAGGED = {
    "10.255.0.1/32": 0x21,  # N + P: loopback host prefix, the proxy
    "2001:db8:ff::1/128": 0x21,
    "10.1.0.0/24": 0x01,  # P: sender subnet from the prefix-list
    "2001:db8:1::/64": 0x01,
}
NOT_FLAGGED = ["10.0.12.0/24", "2001:db8:12::/64", "10.255.0.2/32"]


def setup_module(mod):
    topodef = {
        "s1": ("r1", "r2"),
        "s2": ("r2", "r3"),
        "s3": ("r3", "r4"),
        "s4": ("r1",),
    }
    tgen = Topogen(topodef, mod.__name__)
    tgen.start_topology()
    for rname, router in tgen.routers().items():
        router.load_frr_config(os.path.join(CWD, "{}/frr.conf".format(rname)))
    tgen.start_router()


def teardown_module(_mod):
    get_topogen().stop_topology()


def gear(name):
    router = get_topogen().gears[name]
    assert router.check_router_running() == "", "a daemon died on " + name
    return router


def reach_entries(node, in_ipv6=False):
    """Every IP/IPv6 reachability entry in 'show isis database detail json'.

    TLV 135 entries carry their prefix as "ipReach"; TLV 236 entries are
    the elements of an "ipv6Reach" list and carry it as "prefix".
    """
    if isinstance(node, dict):
        prefix = node.get("ipReach") if not in_ipv6 else node.get("prefix")
        if isinstance(prefix, str):
            yield prefix, node
        for key, value in node.items():
            yield from reach_entries(value, key == "ipv6Reach")
    elif isinstance(node, list):
        for value in node:
            yield from reach_entries(value, in_ipv6)


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
        "p": bool(octet & 0x01),
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
    "show isis database detail names every known flag."
    out = gear("r4").vtysh_cmd("show isis database detail r1.00-00")
    assert re.search(
        r"IP Reachability: 10\.255\.0\.1/32.*?\n\s+Subtlvs:\n\s+"
        r"Prefix Attribute Flags: X:0 R:0 N:1 E:0 A:0 P:1\n",
        out, re.S), out


def test_tshark_decodes_the_flag_octet():
    "tshark's IS-IS dissector reads the same flag octets from the wire."
    r2 = gear("r2")
    pcap = "/tmp/isis_pnc_r2.pcap"
    r2.cmd("rm -f " + pcap)
    cap = r2.popen(["tshark", "-q", "-i", "r2-eth0", "-a", "duration:15", "-w", pcap,
                    "-f", "isis"])
    time.sleep(3)
    # A new LSP from r1: flip an unrelated setting and back.
    gear("r1").vtysh_cmd("configure terminal\nrouter isis core\nset-overload-bit\n")
    time.sleep(2)
    gear("r1").vtysh_cmd("configure terminal\nrouter isis core\nno set-overload-bit\n")
    cap.wait(timeout=30)
    out = r2.cmd(
        "tshark -r {} -Y 'isis.lsp.lsp_id == 0000.0000.0001.00-00' -T fields "
        "-e isis.lsp.prefix_attribute.flags".format(pcap))
    values = [v for line in out.split() for v in line.split(",") if v]
    assert values, "no LSP of r1 with Prefix Attribute Flags captured: " + out
    last_lsp = out.strip().splitlines()[-1].split(",")
    # 2 x N+P (IPv4 and IPv6 loopback), 2 x P (sender subnets)
    assert sorted(int(v, 16) for v in last_lsp) == [0x01, 0x01, 0x21, 0x21], out


def test_removing_config_clears_p():
    "no proxy-node-capability: the sub-TLV is gone everywhere."
    gear("r1").vtysh_cmd("configure terminal\nrouter isis core\nno proxy-node-capability\n")

    def cleared():
        seen = attr_flags(gear("r4"))
        return [p for p in FLAGGED if any(seen.get(p, [None]))]

    _, result = topotest.run_and_expect(cleared, [], count=60, wait=1)
    assert result == [], result


if __name__ == "__main__":
    args = ["-s"] + sys.argv[1:]
    sys.exit(pytest.main(args))
