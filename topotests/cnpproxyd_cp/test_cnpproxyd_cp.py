#!/usr/bin/env python
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_cnpproxyd_cp.py
#
#   sender ---- pe1 ---------- p ====TBF==== pe2 ---- receiver
#   roce-emu    cnpproxyd      cnpproxyd             roce-emu
#   requester   (proxy)        (congestion point)    responder
#
# IS-IS between pe1, p and pe2; pe1 advertises the sender subnet and its
# loopback with the PNC flag, so p's cnpproxyd learns pe1 as the proxy
# of the sender from zebra's RIB.  A TBF at p's egress towards pe2 is the
# bottleneck.  Checks: the queue monitor reads the TBF and computes the
# thresholds as configured (static, BDP-adaptive from the qdisc rate,
# K_base floor); traffic above the TBF rate makes p mark ECN as the policy
# says (CE above K_min seen by the receiver; ECT(1) in two-threshold
# mode) and send five-tuple notifications to pe1 (decoded from a capture
# with pnc-pkt), pe1 sends CNPs, the sender's rate drops; IPv4 and IPv6;
# withdrawing PNC on pe1 stops the notifications to it and counts
# noProxy, or sends them to the configured fallback.  Fail-safe: with p's
# cnpproxyd stopped (SIGSTOP) or killed (SIGKILL) in the middle of
# marking, the receiver sees no CE mark once the marking state's lifetime
# is over (stopped) or at once (killed: the tcx link goes with the
# process); SIGCONT resumes marking, a restart marks again.  Direct to
# the source: with its own proxy role, p sends Long-haul CNPs (queue
# depth as metric, or hidden) and Resume to the sender itself, and a CNP
# to a sender whose proxy it is, without any datagram to pe1.
# Collaborative suppression: pe2 becomes a second congestion point (a
# TBF towards the receiver); it defers to p's action, and escalates when
# its queue grows all the same.

import json
import os
import sys

import pytest

CWD = os.path.dirname(os.path.realpath(__file__))
sys.path.append(os.path.join(CWD, "../"))

# pylint: disable=C0413
from lib import topotest
from lib.topogen import get_topogen
from pnc_topo import (built, emu_summary, gear, route_via, run_rc, start_chain, start_tcpdump,
                      vtysh_rc, wait_done, wait_for, wait_responder)

pytestmark = [pytest.mark.isisd, pytest.mark.cnpproxyd]

PNC_PKT = built("tools/pnc-pkt/pnc-pkt")
ROCE_EMU = built("tools/roce-emu/roce-emu")
TBF_RATE = 20000000
TUNNEL_SID = "2001:db8:ee::3"
# pe2's VXLAN tunnel endpoint (in the SIDs' /64, which pe1 and p route to pe2).
VXLAN_VTEP = "2001:db8:ee::44"
VXLAN_MAC = "02:00:5e:00:53:44"
VXLAN_VNI = 4242


def setup_module(mod):
    # The bottleneck, before cnpproxyd attaches next to it.
    tgen = start_chain(mod, TBF_RATE)
    for rname, router in tgen.routers().items():
        router.load_frr_config(os.path.join(CWD, "{}/frr.conf".format(rname)))
    tgen.start_router()
    # pe2 ends the flow-label tunnel (TUNNEL_SID) with cnpproxyd's
    # tunnel-egress: it works on kernels without SRv6 or ip6_tunnel.
    _, te = topotest.run_and_expect(
        lambda: tgen.gears["pe2"].vtysh_cmd("show cnpproxy tunnel-egress json",
                                            isjson=True).get("interfaces"),
        {"pe2-eth0": "decapsulating"}, count=60, wait=0.5)
    assert te == {"pe2-eth0": "decapsulating"}, te


def kernel_has_srv6(router):
    "Whether router's kernel has SRv6 routes (CONFIG_IPV6_SEG6_LWTUNNEL)."
    rc, _ = run_rc(router, "ip -6 route add 2001:db8:ee::ff/128 encap seg6 mode encap "
                           "segs 2001:db8:ee::fe dev lo && ip -6 route del 2001:db8:ee::ff/128")
    return rc == 0


def teardown_module(_mod):
    get_topogen().stop_topology()


def congestion():
    return gear("p").vtysh_cmd("show cnpproxy congestion json", isjson=True)


def p_eth1():
    return congestion()["interfaces"]["p-eth1"]


def p_config(*lines):
    rc, out = vtysh_rc(gear("p"), "configure terminal", "router cnpproxy", *lines)
    assert rc == 0, out


def logfile(name):
    return os.path.join(get_topogen().logdir, name)


def run_pair(tag, sender, receiver, rate=60, duration=5, extra_req=(), extra_resp=()):
    """roce-emu responder on receiver, requester on sender, to completion."""
    resp = gear("receiver").popen([ROCE_EMU, "responder", "--local", receiver,
                                   "--duration", str(duration + 2), "--log",
                                   logfile(tag + "-resp.json")] + list(extra_resp))
    wait_responder(gear("receiver"), receiver)
    req = gear("sender").popen([ROCE_EMU, "requester", "--local", sender, "--remote", receiver,
                                "--rate", str(rate), "--recovery-us", "0", "--duration",
                                str(duration), "--log", logfile(tag + "-req.json")]
                               + list(extra_req))
    return req, resp


def summary(tag, side):
    return emu_summary(logfile("{}-{}.json".format(tag, side)))


def udp_datagram(pcap, layer="IP"):
    """IP header and UDP payload of the first packet of a capture."""
    from scapy.all import UDP, rdpcap  # pylint: disable=C0415

    pkt = rdpcap(pcap)[0]
    return pkt[layer], bytes(pkt[UDP].payload)


def expect(check, want, count=40, wait=0.5):
    _, got = topotest.run_and_expect(check, want, count=count, wait=wait)
    assert got == want, got


def test_proxy_learned_through_isis():
    "p finds pe1 as the proxy of the sender through IS-IS PNC."
    p = gear("p")

    def lookup(addr):
        out = p.vtysh_cmd("show cnpproxy lookup {} json".format(addr), isjson=True)
        return out.get("proxy")

    expect(lambda: lookup("10.0.1.1"), "10.255.0.1", count=60)
    expect(lambda: lookup("2001:db8:1::1"), "2001:db8:ff::1", count=60)
    # pe1's loopback is proxied by itself (a P-flagged host prefix)
    expect(lambda: lookup("10.255.0.1"), "10.255.0.1")


def test_queue_monitor_and_static_thresholds():
    "The role runs, reads the TBF, and shows the static thresholds."
    expect(lambda: congestion()["operational"], True)
    expect(lambda: p_eth1()["operational"], True)
    st = p_eth1()
    assert st["queue"]["kind"] == "tbf", st
    assert st["queue"]["rateBps"] == TBF_RATE, st
    assert st["state"] == "idle", st
    thr = st["thresholds"]
    assert (thr["mode"], thr["kMin"], thr["kMax"], thr["rttUs"]) == ("static", 15000, 40000,
                                                                     2000), thr
    assert st["marking"]["mode"] == "ce", st
    assert st["counters"]["polls"] > 0 and st["counters"]["pollErrors"] == 0, st
    status = gear("p").vtysh_cmd("show cnpproxy status json", isjson=True)
    assert status["roles"]["congestionPoint"]["operational"] is True, status


def test_bdp_adaptive_thresholds():
    "K_max = max(K_base, alpha * R * RTT / 8) with R from the TBF."
    p_config("congestion-point interface p-eth1 thresholds bdp-adaptive k-base 10000")
    # 20 Mb/s * 2 ms / 8 = 5000 octets: K_base wins
    expect(lambda: p_eth1()["thresholds"]["kMax"], 10000)
    thr = p_eth1()["thresholds"]
    assert thr["bdp"] == 5000 and thr["kBaseApplied"] is True, thr
    assert thr["rateSource"] == "qdisc" and thr["rateBps"] == TBF_RATE, thr
    assert thr["kMin"] == 5000, thr
    p_config("congestion-point interface p-eth1 thresholds bdp-adaptive alpha 10 "
             "k-min-percent 30")
    expect(lambda: p_eth1()["thresholds"]["kMax"], 50000)
    thr = p_eth1()["thresholds"]
    assert thr["kMin"] == 15000 and thr["kBaseApplied"] is False, thr
    assert thr["alpha"] == 10.0, thr
    run = gear("p").vtysh_cmd("show running-config")
    assert ("congestion-point interface p-eth1 thresholds bdp-adaptive alpha 10.0 "
            "k-min-percent 30") in run, run
    # K_min must stay below K_max
    rc, out = vtysh_rc(gear("p"), "configure terminal", "router cnpproxy",
                       "congestion-point interface p-eth1 thresholds static k-max 100 k-min 200")
    assert rc != 0 and "k-min must be below k-max" in out, out
    p_config("congestion-point interface p-eth1 thresholds static k-max 40000 k-min 15000")
    expect(lambda: p_eth1()["thresholds"]["mode"], "static")


def wait_paths():
    """Wait until the sender's and the receiver's subnets, both families,
    are routed through p (in the kernel) at pe1, p and pe2: the
    proxy lookups above need only pe1's LSP at p."""
    for router, prefix, ifname in (("pe1", "10.0.2.0/24", "pe1-eth1"),
                                   ("p", "10.0.2.0/24", "p-eth1"),
                                   ("p", "10.0.1.0/24", "p-eth0"),
                                   ("pe2", "10.0.1.0/24", "pe2-eth0"),
                                   ("pe1", "2001:db8:2::/64", "pe1-eth1"),
                                   ("p", "2001:db8:2::/64", "p-eth1"),
                                   ("p", "2001:db8:1::/64", "p-eth0"),
                                   ("pe2", "2001:db8:1::/64", "pe2-eth0")):
        wait_for(lambda r=router, pf=prefix, i=ifname: route_via(gear(r), pf, i), 60,
                 "{}'s IS-IS route to {} via {} installed".format(router, prefix, ifname))


def test_congestion_notifies_proxy_ipv4():
    "Congestion at p: CE marks, notification to pe1, CNPs, the sender slows."
    p, pe1 = gear("p"), gear("pe1")
    wait_paths()
    p.vtysh_cmd("clear cnpproxy counters")
    pe1.vtysh_cmd("clear cnpproxy counters")
    pcap = logfile("notif-ipv4.pcap")
    cap = start_tcpdump(pe1, "pe1-eth1", "udp dst port 61791", pcap=pcap, count=1)
    req, resp = run_pair("cp4", "10.0.1.1", "10.0.2.1")
    wait_done(req, resp)
    cap.wait(timeout=10)

    c = p_eth1()["counters"]
    assert c["onsets"] >= 1 and c["congested"] >= 1, c
    assert c["notificationsSent"] >= 1 and c["noProxy"] == 0, c
    assert c["sendErrors"] == 0 and c["samplesMalformed"] == 0, c
    assert p_eth1()["peakBacklogBytes"] > 40000, p_eth1()
    got = pe1.vtysh_cmd("show cnpproxy counters json", isjson=True)
    assert got["received"] >= 1 and got["cnpSent"] >= 1, got

    rq, rs = summary("cp4", "req"), summary("cp4", "resp")
    assert rq["cnps"] >= 1 and rq["cnps_invalid"] == 0, rq
    assert rq["rate_mbps"] < 60, rq
    # marking "ce": the receiver saw CE-marked packets
    assert rs["ce_pkts"] > 0, rs

    # The sending veth leaves the UDP checksum to offload, so the capture
    # holds a partial one: scapy takes the datagram apart, pnc-pkt decodes
    # the message.
    ip, payload = udp_datagram(pcap)
    assert (ip.src, ip.dst) == ("10.255.0.2", "10.255.0.1"), ip.summary()
    rc, out = run_rc(pe1, "echo {} | {} decode --input hex --as notif -".format(
        payload.hex(), PNC_PKT))
    assert rc == 0, out
    n = json.loads(out.strip().splitlines()[0])["notif"]
    assert (n["af"], n["protocol"], n["flow_src"], n["flow_dst"], n["flow_dport"]) == (
        4, 17, "10.0.1.1", "10.0.2.1", 4791), n
    assert 4 <= n["cl"] <= 7 and n["start_name"] == "inner", n
    assert n["invoking_roce"]["bth"]["dqpn"] == 0x22, n
    # As much of the 1068-octet packet as a 576-octet IPv4 datagram holds:
    # 576 - 20 (IP) - 8 (UDP) - 16 (header of an IPv4 five-tuple).
    assert n["invoking_len"] == 532 and len(payload) == 548, n


def test_source_address_configured_before_it_exists():
    "A notification source that p gets only later: counted send errors, then notifications."
    p, pe1 = gear("p"), gear("pe1")
    p_config("congestion-point source-address 10.255.0.22")
    try:
        p.vtysh_cmd("clear cnpproxy counters")
        req, resp = run_pair("cpsrc1", "10.0.1.1", "10.0.2.1", duration=2)
        wait_done(req, resp)
        c = p_eth1()["counters"]
        assert c["congested"] >= 1 and c["notificationsSent"] == 0 and c["sendErrors"] >= 1, c
        # the address arrives (as a loopback address configured after cnpproxyd started)
        p.cmd_raises("ip addr add 10.255.0.22/32 dev lo")
        p.vtysh_cmd("clear cnpproxy counters")
        pe1.vtysh_cmd("clear cnpproxy counters")
        req, resp = run_pair("cpsrc2", "10.0.1.1", "10.0.2.1")
        wait_done(req, resp)
        c = p_eth1()["counters"]
        assert c["notificationsSent"] >= 1 and c["sendErrors"] == 0, c
        got = pe1.vtysh_cmd("show cnpproxy counters json", isjson=True)
        assert got["received"] >= 1 and got["cnpSent"] >= 1, got
    finally:
        p.cmd("ip addr del 10.255.0.22/32 dev lo")
        p_config("congestion-point source-address 10.255.0.2")


def test_clear_counters_zeroes_the_egress_program():
    "clear cnpproxy counters zeroes the egress program's counters too."
    p = gear("p")
    prog = congestion()["program"]
    assert prog["seen"] > 0 and prog["marked_ce"] > 0 and prog["sampled"] > 0, prog
    p.vtysh_cmd("clear cnpproxy counters")
    prog = congestion()["program"]
    # No RoCEv2 traffic runs now: nothing is marked or sampled again.
    assert prog["marked_ce"] == 0 and prog["sampled"] == 0 and prog["roce"] == 0, prog
    assert p_eth1()["counters"]["notificationsSent"] == 0, p_eth1()


def oper_state(router):
    out = router.vtysh_cmd(
        "show yang operational-data /frr-cnpproxyd:cnpproxyd/state cnpproxyd")
    return json.loads(out)["frr-cnpproxyd:cnpproxyd"]["state"]


def test_show_memory_lists_the_pools():
    "The queue monitor, the egress program's loader and the proxy table are in MTYPEs."
    mem = gear("p").vtysh_cmd("show memory cnpproxyd json", isjson=True)
    # daemon -> memory group -> types
    types = {t["name"]: t for t in mem["cnpproxyd"]["cnpproxyd"]}
    for name in ("cnpproxyd queue monitor", "cnpproxyd BPF loaders", "cnpproxyd proxy table"):
        assert types.get(name, {}).get("currentAllocations", 0) > 0, (name, types.get(name))


def test_operational_state_in_yang():
    "The YANG operational state gives the same counters as the show commands."
    p, pe1 = gear("p"), gear("pe1")
    state = oper_state(p)["congestion-interface"]
    assert [i["name"] for i in state] == ["p-eth1"], state
    show = p_eth1()
    assert (state[0]["k-min"], state[0]["k-max"]) == ("15000", "40000"), state
    for key in ("notificationsSent", "onsets", "noProxy"):
        kebab = "".join("-" + ch.lower() if ch.isupper() else ch for ch in key)
        assert int(state[0][kebab]) == show["counters"][key], (state, show)
    proxy = oper_state(pe1)["proxy"]
    counters = pe1.vtysh_cmd("show cnpproxy counters json", isjson=True)
    assert int(proxy["cnp-sent"]) == counters["cnpSent"] >= 1, (proxy, counters)
    assert int(proxy["received"]) == counters["received"], (proxy, counters)
    assert int(proxy["flows"]) >= 1, proxy
    # The proxy table: pe1 for the senders, learned through IS-IS.
    table = {e["prefix"]: e for e in oper_state(p)["proxy-table"]}
    assert table["10.0.1.0/24"] == {"prefix": "10.0.1.0/24", "proxy": "10.255.0.1",
                                    "source": "learned", "protocol": "isis"}, table
    assert table["2001:db8:1::/64"]["proxy"] == "2001:db8:ff::1", table
    # Attachments: pe2's tunnel egress runs on pe2-eth0; a border filter
    # on an interface that does not exist says why it does not run.
    att = oper_state(gear("pe2"))["attachment"]
    assert len(att) == 1 and att[0]["program"] == "tunnel-egress", att
    assert (att[0]["interface"], att[0]["attached"]) == ("pe2-eth0", True), att
    assert int(att[0]["ifindex"]) > 0 and "reason" not in att[0], att
    rc, out = vtysh_rc(gear("pe2"), "configure terminal", "router cnpproxy",
                       "border-interface nosuch0")
    assert rc == 0, out
    att = {(a["program"], a["interface"]): a for a in oper_state(gear("pe2"))["attachment"]}
    assert att[("border-filter", "nosuch0")]["attached"] is False, att
    assert att[("border-filter", "nosuch0")]["reason"] == "no such interface", att
    rc, out = vtysh_rc(gear("pe2"), "configure terminal", "router cnpproxy",
                       "no border-interface nosuch0")
    assert rc == 0, out
    assert len(oper_state(gear("pe2"))["attachment"]) == 1
    # pe1's XDP program learns on both of its interfaces.
    att = {(a["program"], a["interface"]): a for a in oper_state(pe1)["attachment"]}
    for ifname in ("pe1-eth0", "pe1-eth1"):
        assert att[("xdp", ifname)]["attached"] is True, att
    # p's marking program runs where its queue is watched.
    att = {(a["program"], a["interface"]): a for a in oper_state(p)["attachment"]}
    assert att[("congestion-point", "p-eth1")]["attached"] is True, att


def test_learned_flows_in_yang():
    "The YANG state lists the flows show cnpproxy flows lists, and finds one by its keys."
    pe1 = gear("pe1")

    def both():
        flows = oper_state(pe1).get("flow", [])
        shown = pe1.vtysh_cmd("show cnpproxy flows json", isjson=True)["flows"]
        return (sorted((f["sender"], f["receiver"], int(f["receiver-qpn"]), int(f["sender-qpn"]),
                        f["learned-by"]) for f in flows),
                sorted((f["sender"], f["receiver"], f["receiverQp"], f["senderQp"], f["learnedBy"])
                       for f in shown))

    def agree():
        yang, show = both()
        return yang == show and len(yang) >= 1

    # The two reads agree once no flow is learned or aged between them.
    ok, _ = topotest.run_and_expect(agree, True, count=20, wait=0.5)
    assert ok, both()
    snd, rcv, qpn = both()[0][0][:3]
    out = pe1.vtysh_cmd("show yang operational-data /frr-cnpproxyd:cnpproxyd/state/"
                        "flow[sender='{}'][receiver='{}'][receiver-qpn='{}'] cnpproxyd"
                        .format(snd, rcv, qpn))
    flows = json.loads(out)["frr-cnpproxyd:cnpproxyd"]["state"]["flow"]
    assert len(flows) == 1 and int(flows[0]["receiver-qpn"]) == qpn, flows


def test_congestion_notifies_proxy_ipv6():
    "The same over IPv6, with QPs set up without CM."
    p, pe1 = gear("p"), gear("pe1")
    p.vtysh_cmd("clear cnpproxy counters")
    pe1.vtysh_cmd("clear cnpproxy counters")
    req, resp = run_pair("cp6", "2001:db8:1::1", "2001:db8:2::1",
                         extra_req=["--no-cm", "--peer-qpn", "0x22"],
                         extra_resp=["--no-cm", "--peer-qpn", "0x11"])
    wait_done(req, resp)
    c = p_eth1()["counters"]
    assert c["notificationsSent"] >= 1 and c["noProxy"] == 0, c
    got = pe1.vtysh_cmd("show cnpproxy counters json", isjson=True)
    assert got["cnpSent"] >= 1, got
    rq = summary("cp6", "req")
    assert rq["cnps"] >= 1 and rq["rate_mbps"] < 60, rq


def big_and_small(tag, duration):
    """A flow that fills p's queue (its 25 Mb/s floor keeps the 20 Mb/s
    bottleneck congested) beside one of 1 Mb/s, to completion; p's counters."""
    big = run_pair(tag + "-big", "10.0.1.1", "10.0.2.1", rate=60, duration=duration,
                   extra_req=["--min-rate", "25"])
    small = run_pair(tag + "-small", "2001:db8:1::1", "2001:db8:2::1", rate=1,
                     duration=duration, extra_req=["--no-cm", "--peer-qpn", "0x22"],
                     extra_resp=["--no-cm", "--peer-qpn", "0x11"])
    wait_done(*big)
    wait_done(*small)
    return p_eth1()["counters"]


def test_small_flow_not_notified():
    """Seed 000 5.5: of two flows in p's queue, the one that fills it is
    notified, the one that barely uses it is not (notify min-share, 50 %
    of the largest flow's octets by default)."""
    p = gear("p")
    p.vtysh_cmd("clear cnpproxy counters")
    c = big_and_small("share", 4)
    assert c["suppressedSmallFlow"] >= 1 and c["notificationsSent"] >= 1, c
    assert summary("share-big", "req")["cnps"] >= 1
    # (The small sender's CNPs are no measure: its receiver sends some
    # for the CE marks.)

    # min-share 0: every flow in the queue, as before.
    p_config("congestion-point interface p-eth1 notify min-share 0")
    assert "notify min-share 0" in p.vtysh_cmd("show running-config cnpproxyd")
    p.vtysh_cmd("clear cnpproxy counters")
    c = big_and_small("share0", 3)
    assert c["suppressedSmallFlow"] == 0 and c["notificationsSent"] >= 1, c
    p_config("no congestion-point interface p-eth1 notify min-share")
    assert "min-share" not in p.vtysh_cmd("show running-config cnpproxyd")


def test_two_threshold_marking():
    "Seed 003 mode: ECT(1) between T1 and T2 reaches the receiver."
    p_config("congestion-point interface p-eth1 marking two-threshold")
    receiver = gear("receiver")
    pcap = logfile("ect1.pcap")
    # ECN field = 01 (ECT(1)) in the IPv4 TOS octet
    cap = start_tcpdump(receiver, "receiver-eth0", "udp dst port 4791 and (ip[1] & 3) = 1",
                        pcap=pcap, count=3)
    before = congestion()["program"]["marked_ect1"]
    req, resp = run_pair("ect1", "10.0.1.1", "10.0.2.1", rate=30, duration=4,
                         extra_req=["--min-rate", "25"])
    wait_done(req, resp)
    cap.wait(timeout=10)
    assert congestion()["program"]["marked_ect1"] > before, congestion()["program"]
    rc, out = run_rc(receiver, "{} decode --input pcap {}".format(PNC_PKT, pcap))
    assert rc == 0, out
    pkts = [json.loads(line) for line in out.strip().splitlines()]
    assert len(pkts) == 3 and all(p["ip"]["ecn"] == 1 for p in pkts), pkts
    p_config("congestion-point interface p-eth1 marking ce")


def test_no_proxy_then_fallback():
    "Without PNC on pe1 nothing goes to pe1 (noProxy), unless a fallback is set."
    p, pe1 = gear("p"), gear("pe1")
    rc, out = vtysh_rc(pe1, "configure terminal", "router isis core",
                       "no proxy-node-capability")
    assert rc == 0, out

    def lookup():
        return p.vtysh_cmd("show cnpproxy lookup 10.0.1.1 json", isjson=True)["found"]

    expect(lookup, False, count=60)
    p.vtysh_cmd("clear cnpproxy counters")
    pe1.vtysh_cmd("clear cnpproxy counters")
    req, resp = run_pair("noproxy", "10.0.1.1", "10.0.2.1", duration=3)
    wait_done(req, resp)
    c = p_eth1()["counters"]
    assert c["noProxy"] >= 1 and c["notificationsSent"] == 0, c
    assert pe1.vtysh_cmd("show cnpproxy counters json", isjson=True)["received"] == 0

    p_config("congestion-point fallback-proxy 10.255.0.1")
    p.vtysh_cmd("clear cnpproxy counters")
    req, resp = run_pair("fallback", "10.0.1.1", "10.0.2.1", duration=3)
    wait_done(req, resp)
    c = p_eth1()["counters"]
    assert c["fallbackSent"] >= 1 and c["fallbackSent"] == c["notificationsSent"], c
    assert pe1.vtysh_cmd("show cnpproxy counters json", isjson=True)["received"] >= 1
    p_config("no congestion-point fallback-proxy")

    rc, out = vtysh_rc(pe1, "configure terminal", "router isis core",
                       "proxy-node-capability prefix-list SENDERS")
    assert rc == 0, out
    expect(lookup, True, count=60)


SRV6_SID6 = "2001:db8:ee::6"


def test_notification_names_the_flow_inside_an_srv6_tunnel():
    """Seed 002 4: p congested in the middle of a tunnel names the flow
    below the encapsulation.  pe1 tunnels the IPv6 receiver's traffic with
    the kernel's SRv6 encapsulation (outer IPv6 with the inner traffic
    class, an SRH, the inner packet) to an End.DX6 SID of pe2; its outer
    source, pe1's link address, is no tunnel head, so p sends the inner
    flow's proxy a notification naming the inner five-tuple, and pe1
    slows the sender."""
    p, pe1, pe2 = gear("p"), gear("pe1"), gear("pe2")
    if not kernel_has_srv6(pe1):
        pytest.skip("the kernel has no SRv6 encapsulation (CONFIG_IPV6_SEG6_LWTUNNEL)")
    pe2.cmd_raises("ip -6 route add {}/128 encap seg6local action End.DX6 nh6 2001:db8:2::1 "
                   "dev pe2-eth1".format(SRV6_SID6))
    pe1.cmd_raises("ip -6 route add 2001:db8:2::1/128 encap seg6 mode encap segs {} "
                   "dev pe1-eth1".format(SRV6_SID6))
    try:
        p.vtysh_cmd("clear cnpproxy counters")
        pe1.vtysh_cmd("clear cnpproxy counters")
        pcap = logfile("notif-srv6.pcap")
        cap = start_tcpdump(pe1, "pe1-eth1", "udp dst port 61791", pcap=pcap, count=1)
        req, resp = run_pair("srv6", "2001:db8:1::1", "2001:db8:2::1", duration=3,
                             extra_req=["--no-cm", "--peer-qpn", "0x22"],
                             extra_resp=["--no-cm", "--peer-qpn", "0x11"])
        wait_done(req, resp)
        cap.wait(timeout=10)
    finally:
        pe1.cmd("ip -6 route del 2001:db8:2::1/128")
        pe2.cmd("ip -6 route del {}/128".format(SRV6_SID6))
    c = p_eth1()["counters"]
    assert c["notificationsSent"] >= 1 and c["flowLabelSent"] == 0, c
    assert c["samplesMalformed"] == 0, c
    got = pe1.vtysh_cmd("show cnpproxy counters json", isjson=True)
    assert got["received"] >= 1 and got["cnpSent"] >= 1, got
    assert summary("srv6", "req")["cnps"] >= 1
    _, payload = udp_datagram(pcap, layer="IPv6")
    rc, out = run_rc(pe1, "echo {} | {} decode --input hex --as notif -".format(
        payload.hex(), PNC_PKT))
    assert rc == 0, out
    n = json.loads(out.strip().splitlines()[0])["notif"]
    assert (n["af"], n["flow_src"], n["flow_dst"], n["flow_dport"], n["start_name"]) == (
        6, "2001:db8:1::1", "2001:db8:2::1", 4791, "inner"), n
    assert n["invoking_roce"]["bth"]["dqpn"] == 0x22, n


def p_border():
    return gear("p").vtysh_cmd("show cnpproxy border json", isjson=True)["interfaces"]["p-eth0"]


def test_border_stops_notifications_leaving():
    """Seed 002 8: with p-eth0 (towards pe1) a border interface, p's own
    notifications to pe1 never leave: counted leaving, pe1 receives none."""
    p, pe1 = gear("p"), gear("pe1")
    p_config("border-interface p-eth0")
    expect(lambda: p_border()["state"], "filtering")
    p.vtysh_cmd("clear cnpproxy counters")
    pe1.vtysh_cmd("clear cnpproxy counters")
    req, resp = run_pair("border-out", "10.0.1.1", "10.0.2.1", duration=3)
    wait_done(req, resp)
    c, b = p_eth1()["counters"], p_border()
    assert c["notificationsSent"] >= 1, c
    assert b["droppedNotificationsOut"] == c["notificationsSent"], (b, c)
    assert b["droppedNotifications"] == 0 and b["droppedFlowLabelOut"] == 0, b
    assert pe1.vtysh_cmd("show cnpproxy counters json", isjson=True)["received"] == 0
    assert summary("border-out", "req")["cnps"] == 0
    p_config("no border-interface p-eth0")
    assert "border-interface" not in p.vtysh_cmd("show running-config cnpproxyd")


def test_notification_in_icmp_form():
    """Seed 002 4: with notification-form icmp, p notifies pe1 with ICMP
    type 253 (IPv4) and ICMPv6 type 201 messages carrying the same
    message as the UDP form; pe1 takes them, the sender gets CNPs and
    slows; the border filter drops them leaving as it drops UDP ones."""
    p, pe1 = gear("p"), gear("pe1")
    p_config("congestion-point notification-form icmp")
    try:
        assert " congestion-point notification-form icmp\n" in p.vtysh_cmd(
            "show running-config cnpproxyd")
        assert congestion()["notificationForm"] == "icmp"
        p.vtysh_cmd("clear cnpproxy counters")
        pe1.vtysh_cmd("clear cnpproxy counters")
        pcap = logfile("notif-icmp.pcap")
        cap = start_tcpdump(pe1, "pe1-eth1", "icmp[0] == 253", pcap=pcap, count=1)
        req, resp = run_pair("icmp4", "10.0.1.1", "10.0.2.1", duration=3)
        wait_done(req, resp)
        cap.wait(timeout=10)
        c = p_eth1()["counters"]
        assert c["notificationsSent"] >= 1 and c["sendErrors"] == 0, c
        got = pe1.vtysh_cmd("show cnpproxy counters json", isjson=True)
        assert got["receivedIcmp"] == got["received"] >= 1 and got["cnpSent"] >= 1, got
        rq = summary("icmp4", "req")
        assert rq["cnps"] >= 1 and rq["cnps_invalid"] == 0, rq
        # The message on the wire, decoded by pnc-pkt (checksums verified).
        rc, out = run_rc(pe1, "{} decode --input pcap {}".format(PNC_PKT, pcap))
        assert rc == 0, out
        m = json.loads(out.strip().splitlines()[0])
        assert (m["kind"], m["form"], m["icmp"]["type"], m["icmp"]["code"]) == (
            "notif", "icmp", 253, 0), m
        assert (m["ip"]["src"], m["ip"]["dst"]) == ("10.255.0.2", "10.255.0.1"), m
        n = m["notif"]
        assert (n["flow_src"], n["flow_dst"], n["invoking_roce"]["bth"]["dqpn"]) == (
            "10.0.1.1", "10.0.2.1", 0x22), n
        # As the UDP form: 576 - 20 (IP) - 8 (ICMP header) - 16.
        assert n["invoking_len"] == 532 and m["len"] == 576, m

        pe1.vtysh_cmd("clear cnpproxy counters")
        req, resp = run_pair("icmp6", "2001:db8:1::1", "2001:db8:2::1", duration=3,
                             extra_req=["--no-cm", "--peer-qpn", "0x22"],
                             extra_resp=["--no-cm", "--peer-qpn", "0x11"])
        wait_done(req, resp)
        got = pe1.vtysh_cmd("show cnpproxy counters json", isjson=True)
        assert got["receivedIcmp"] == got["received"] >= 1 and got["cnpSent"] >= 1, got

        p_config("border-interface p-eth0")
        expect(lambda: p_border()["state"], "filtering")
        p.vtysh_cmd("clear cnpproxy counters")
        pe1.vtysh_cmd("clear cnpproxy counters")
        req, resp = run_pair("icmp-border", "10.0.1.1", "10.0.2.1", duration=3)
        wait_done(req, resp)
        c, b = p_eth1()["counters"], p_border()
        assert c["notificationsSent"] >= 1, c
        assert b["droppedNotificationsOut"] == c["notificationsSent"], (b, c)
        assert pe1.vtysh_cmd("show cnpproxy counters json", isjson=True)["received"] == 0
    finally:
        p.vtysh_cmd("configure terminal\nrouter cnpproxy\nno border-interface p-eth0\n"
                    "no congestion-point notification-form\n")
    assert "notification-form" not in p.vtysh_cmd("show running-config cnpproxyd")
    assert congestion()["notificationForm"] == "udp"


def encap_filters(router):
    """The encapsulation filters on pe1-eth1's egress, one line each."""
    out = router.cmd("tc filter show dev pe1-eth1 egress")
    return [line for line in out.splitlines() if "pnc_tunnel_enc" in line]


def test_flow_label_tunnel():
    "Tunnelled flows: p sends flow-label FCNs to pe1, which resolves them to CNPs."
    p, pe1 = gear("p"), gear("pe1")
    rc, out = vtysh_rc(pe1, "configure terminal", "router cnpproxy",
                       "proxy flow-label-tunnel interface pe1-eth1 source 2001:db8:ff::1",
                       "proxy flow-label-tunnel prefix 10.0.2.0/24 endpoint " + TUNNEL_SID)
    assert rc == 0, out

    def labels():
        return pe1.vtysh_cmd("show cnpproxy flow-labels json", isjson=True)

    expect(lambda: labels()["operational"], True)
    # Seed 001's option: the FCN's own IPv6 header carries the label too.
    assert congestion()["fcnCopyFlowLabel"] is False
    p_config("congestion-point fcn-copy-flow-label")
    assert congestion()["fcnCopyFlowLabel"] is True
    p.vtysh_cmd("clear cnpproxy counters")
    pe1.vtysh_cmd("clear cnpproxy counters")
    pcap = logfile("fcn.pcap")
    cap = start_tcpdump(pe1, "pe1-eth1", "ip6 and udp dst port 61792", pcap=pcap, count=1)
    req, resp = run_pair("fl4", "10.0.1.1", "10.0.2.1")
    wait_done(req, resp)
    cap.wait(timeout=10)

    flows = [f for f in labels()["flows"] if f["receiverQp"] == 0x22]
    assert len(flows) == 1, labels()
    flow = flows[0]
    assert (flow["sender"], flow["receiver"]) == ("10.0.1.1", "10.0.2.1"), flow
    assert 0 < flow["label"] < 0x100000 and labels()["encap_roce"] > 0, labels()

    c = p_eth1()["counters"]
    assert c["flowLabelSent"] >= 1 and c["notificationsSent"] == 0, c
    got = pe1.vtysh_cmd("show cnpproxy counters json", isjson=True)
    assert got["receivedFlowLabel"] >= 1 and got["cnpSent"] >= 1, got
    assert got["droppedFlowLabelUnresolved"] == 0 and got["droppedUnknownFlow"] == 0, got
    rq = summary("fl4", "req")
    assert rq["cnps"] >= 1 and rq["cnps_invalid"] == 0 and rq["rate_mbps"] < 60, rq

    ip, payload = udp_datagram(pcap, layer="IPv6")
    assert (ip.src, ip.dst) == ("2001:db8:ff::2", "2001:db8:ff::1"), ip.summary()
    rc, out = run_rc(pe1, "echo {} | {} decode --input hex --as fcn -".format(
        payload.hex(), PNC_PKT))
    assert rc == 0, out
    fcn = json.loads(out.strip().splitlines()[0])
    assert fcn["fcn"]["label"] == flow["label"] and 1 <= fcn["fcn"]["cl"] <= 7, fcn
    assert ip.fl == flow["label"], ip.fl
    p_config("no congestion-point fcn-copy-flow-label")
    assert "fcn-copy-flow-label" not in p.vtysh_cmd("show running-config cnpproxyd")

    # The label is kept when the tunnel is rebuilt for a new prefix ...
    def flow_labels():
        return sorted((f["sender"], f["receiver"], f["receiverQp"], f["label"])
                      for f in labels()["flows"])

    before = flow_labels()
    rc, out = vtysh_rc(pe1, "configure terminal", "router cnpproxy",
                       "proxy flow-label-tunnel prefix 10.0.9.0/24 endpoint " + TUNNEL_SID)
    assert rc == 0, out
    expect(lambda: labels()["labelStateFile"]["restored"], len(before))
    assert flow_labels() == before and labels()["operational"], labels()

    # ... and when cnpproxyd is stopped and started again, with the
    # configuration saved so that it comes back.
    rc, out = vtysh_rc(pe1, "write memory")
    assert rc == 0, out
    rc, out = run_rc(pe1, "(pid=$(cat /var/run/frr/cnpproxyd.pid); kill $pid; "
                          "for i in $(seq 50); do kill -0 $pid 2>/dev/null || exit 0; "
                          "sleep 0.1; done; exit 1)")
    assert rc == 0, out
    assert encap_filters(pe1) == []
    pe1.startDaemons(["cnpproxyd"])
    rc, out = run_rc(pe1, "vtysh -b -d cnpproxyd")
    assert rc == 0, out
    expect(lambda: labels()["operational"], True)
    assert flow_labels() == before, (flow_labels(), before)
    kept = labels()["labelStateFile"]
    assert kept["restored"] == len(before) and "restoreError" not in kept, kept

    # Killed, it leaves its filter encapsulating: the next daemon takes
    # that filter's place, with the labels on file.
    rc, out = run_rc(pe1, "kill -9 $(cat /var/run/frr/cnpproxyd.pid)")
    assert rc == 0, out
    assert len(encap_filters(pe1)) == 1
    pe1.startDaemons(["cnpproxyd"])
    rc, out = run_rc(pe1, "vtysh -b -d cnpproxyd")
    assert rc == 0, out
    expect(lambda: labels()["operational"], True)
    assert len(encap_filters(pe1)) == 1, encap_filters(pe1)
    assert flow_labels() == before, (flow_labels(), before)

    rc, out = vtysh_rc(pe1, "configure terminal", "router cnpproxy",
                       "no proxy flow-label-tunnel")
    assert rc == 0, out
    expect(lambda: labels()["operational"], False)
    assert encap_filters(pe1) == []
    # Unconfigured, the tunnel forgets its labels, on file too.
    rc, out = run_rc(pe1, "test ! -e /var/run/frr/cnpproxyd-flow-labels.state")
    assert rc == 0, out


def test_flow_label_tunnel_vxlan():
    """Seed 001 names VXLAN among the WAN tunnels: pe1 carries the flow in
    VXLAN over IPv6 with the flow's label in the outer header, pe2's own
    VXLAN device ends the tunnel; p finds the RoCEv2 flow behind the VXLAN
    header and notifies pe1 by label, pe1 resolves it to a CNP."""
    from scapy.all import IP, IPv6, UDP, raw, rdpcap  # pylint: disable=C0415
    from scapy.layers.vxlan import VXLAN  # pylint: disable=C0415

    p, pe1, pe2 = gear("p"), gear("pe1"), gear("pe2")
    pe2.cmd_raises("ip -6 addr add {}/128 dev lo".format(VXLAN_VTEP))
    # The tunnel puts no UDP checksum (RFC 6935): the device must take that.
    pe2.cmd_raises("ip link add vx0 type vxlan id {} local {} dstport 4789 udp6zerocsumrx "
                   "nolearning".format(VXLAN_VNI, VXLAN_VTEP))
    pe2.cmd_raises("ip link set vx0 address {} up".format(VXLAN_MAC))
    pe2.cmd_raises("sysctl -qw net.ipv4.conf.vx0.rp_filter=0 net.ipv4.conf.all.rp_filter=0")
    tunnel = "proxy flow-label-tunnel prefix 10.0.2.0/24 endpoint {} vxlan vni {} " \
             "router-mac {}".format(VXLAN_VTEP, VXLAN_VNI, VXLAN_MAC)

    def labels():
        return pe1.vtysh_cmd("show cnpproxy flow-labels json", isjson=True)

    try:
        for bad, why in (("vxlan vni 0", "% "), ("vxlan vni 4242 router-mac 01:00:5e:00:00:01",
                                                 "a unicast MAC address is needed")):
            rc, out = vtysh_rc(pe1, "configure terminal", "router cnpproxy",
                               "proxy flow-label-tunnel interface pe1-eth1 source 2001:db8:ff::1",
                               "proxy flow-label-tunnel prefix 10.0.2.0/24 endpoint {} {}".format(
                                   VXLAN_VTEP, bad))
            assert rc != 0 and why in out, (bad, out)
        rc, out = vtysh_rc(pe1, "configure terminal", "router cnpproxy",
                           "proxy flow-label-tunnel interface pe1-eth1 source 2001:db8:ff::1",
                           tunnel)
        assert rc == 0, out
        assert " {}\n".format(tunnel) in pe1.vtysh_cmd("show running-config cnpproxyd")
        expect(lambda: labels()["operational"], True)
        p.vtysh_cmd("clear cnpproxy counters")
        pe1.vtysh_cmd("clear cnpproxy counters")
        pcap = logfile("vxlan.pcap")
        cap = start_tcpdump(p, "p-eth1", "ip6 and udp dst port 4789", pcap=pcap, count=20)
        req, resp = run_pair("vx4", "10.0.1.1", "10.0.2.1")
        wait_done(req, resp)
        cap.wait(timeout=10)

        flows = [f for f in labels()["flows"] if f["receiverQp"] == 0x22]
        assert len(flows) == 1 and labels()["encap_roce"] > 0, labels()
        label = flows[0]["label"]
        rq, rs = summary("vx4", "req"), summary("vx4", "resp")
        # Through pe2's VXLAN device to the receiver, CE copied in there.
        assert rs["rx_pkts"] > 0 and rs["ce_pkts"] > 0, rs
        c = p_eth1()["counters"]
        assert c["flowLabelSent"] >= 1 and c["notificationsSent"] == 0, c
        got = pe1.vtysh_cmd("show cnpproxy counters json", isjson=True)
        assert got["receivedFlowLabel"] >= 1 and got["cnpSent"] >= 1, got
        assert got["droppedFlowLabelUnresolved"] == 0, got
        assert rq["cnps"] >= 1 and rq["cnps_invalid"] == 0 and rq["rate_mbps"] < 60, rq

        # What p forwarded, as scapy's VXLAN layer reads it: a packet to
        # QP 0x22 (CM, to QP1, has a hashed label, not the flow's).
        pkt = [q for q in rdpcap(pcap)
               if q.haslayer(VXLAN) and raw(q[VXLAN].payload[UDP].payload)[5:8] == b"\0\0\x22"][0]
        outer, vx = pkt[IPv6], pkt[VXLAN]
        assert (outer.src, outer.dst, outer.fl) == ("2001:db8:ff::1", VXLAN_VTEP, label), \
            outer.summary()
        assert pkt[UDP].dport == 4789 and pkt[UDP].chksum == 0 and vx.vni == VXLAN_VNI, \
            pkt.show(dump=True)
        inner = vx.payload
        assert inner.dst == VXLAN_MAC and inner[IP].src == "10.0.1.1", inner.summary()
    finally:
        pe1.vtysh_cmd("configure terminal\nrouter cnpproxy\nno proxy flow-label-tunnel\n")
        pe2.cmd("ip link del vx0; ip -6 addr del {}/128 dev lo".format(VXLAN_VTEP))
    expect(lambda: labels()["operational"], False)


def fcn_from_p(label, cl):
    """A flow-label FCN from p's tunnel-side address to pe1's tunnel source."""
    rc, out = run_rc(gear("p"), "{} build fcn label={} cl={} bare=1".format(PNC_PKT, label, cl))
    assert rc == 0, out
    send = ("import socket, sys; s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM); "
            "s.bind(('2001:db8:ff::2', 0)); "
            "s.sendto(bytes.fromhex(sys.argv[1]), ('2001:db8:ff::1', 61792))")
    rc, out = run_rc(gear("p"), "/usr/bin/python3 -c \"{}\" {}".format(send, out.strip()))
    assert rc == 0, out


def shaper_classes(router):
    """Our HTB classes on pe1-eth1, minor -> "rate" as tc prints it."""
    out = router.cmd("tc class show dev pe1-eth1")
    return {line.split()[2].split(":")[1]: line.split("rate ")[1].split()[0]
            for line in out.splitlines() if line.startswith("class htb 504e:")}


def test_light_notification_slows_the_flow_at_the_pe():
    """Seed 003 3.2.2.1: a light FCN slows the tunnelled flow at pe1 (an HTB
    class on the tunnel interface), the sender hears nothing; a severe one
    reaches the sender; the shaper goes after the hold time."""
    pe1 = gear("pe1")
    rc, out = vtysh_rc(pe1, "configure terminal", "router cnpproxy",
                       "proxy flow-label-tunnel local-shaping step 50")
    assert rc != 0 and "Enable the tunnel first" in out, out
    rc, out = vtysh_rc(pe1, "configure terminal", "router cnpproxy",
                       "proxy flow-label-tunnel interface pe1-eth1 source 2001:db8:ff::1",
                       "proxy flow-label-tunnel prefix 10.0.2.0/24 endpoint " + TUNNEL_SID,
                       "proxy flow-label-tunnel local-shaping step 50 floor 2 hold-time 1500000")
    assert rc == 0, out
    assert (" proxy flow-label-tunnel local-shaping step 50 floor 2 hold-time 1500000\n"
            in pe1.vtysh_cmd("show running-config cnpproxyd"))

    def labels():
        return pe1.vtysh_cmd("show cnpproxy flow-labels json", isjson=True)

    def shaping():
        return labels()["localShaping"]

    expect(lambda: labels()["operational"], True)
    assert shaping()["enabled"] and not shaping()["rootQdisc"], shaping()
    pe1.vtysh_cmd("clear cnpproxy counters")
    # 8 Mb/s, under the 20 Mb/s bottleneck: p notifies nothing by itself.
    req, resp = run_pair("shape", "10.0.1.1", "10.0.2.1", rate=8, duration=6)
    try:
        wait_for(lambda: [f for f in labels()["flows"] if f["receiverQp"] == 0x22], 20,
                 "the flow's label")
        label = [f for f in labels()["flows"] if f["receiverQp"] == 0x22][0]["label"]
        # The learned rate needs a few packets over time.
        wait_for(lambda: labels()["encap_roce"] >= 50, 20, "tunnelled packets")

        fcn_from_p(label, 2)
        wait_for(lambda: shaping()["flows"], 20, "the flow shaped")
        (flow,) = shaping()["flows"]
        assert flow["label"] == label and flow["cuts"] == 1, flow
        first = flow["rateBps"]
        assert 2000000 <= first <= 6000000, flow  # half of about 8 Mb/s
        assert shaping()["rootQdisc"] and "1" in shaper_classes(pe1), shaper_classes(pe1)
        wait_for(lambda: labels()["shaped"] > 0, 20, "packets through the shaper")

        # A second light one halves it again, down to the floor at most.
        fcn_from_p(label, 2)
        wait_for(lambda: shaping()["flows"] and shaping()["flows"][0]["cuts"] == 2, 20,
                 "the second cut")
        assert shaping()["flows"][0]["rateBps"] == max(first // 2, 2000000), shaping()
        got = pe1.vtysh_cmd("show cnpproxy counters json", isjson=True)
        assert got["shapedLocally"] == 2 and got["cnpSent"] == 0, got

        # A severe one goes to the sender, as before.
        fcn_from_p(label, 6)
        wait_for(lambda: pe1.vtysh_cmd("show cnpproxy counters json",
                                       isjson=True)["cnpSent"] == 1, 20, "the severe CNP")
    finally:
        wait_done(req, resp)
    rq = summary("shape", "req")
    assert rq["cnps"] == 1, rq
    # No light notification for the hold time: the shaper and our root go.
    wait_for(lambda: not shaping()["flows"], 20, "the shaper released")
    assert shaping()["released"] == 1 and not shaping()["rootQdisc"], shaping()
    assert shaper_classes(pe1) == {} and "htb" not in pe1.cmd("tc qdisc show dev pe1-eth1")

    # A root qdisc of the operator's own is never replaced.
    pe1.cmd_raises("tc qdisc add dev pe1-eth1 root handle 1: htb")
    try:
        req, resp = run_pair("shape-busy", "10.0.1.1", "10.0.2.1", rate=8, duration=3)
        wait_for(lambda: labels()["encap_roce"] >= 50, 20, "tunnelled packets")
        fcn_from_p(label, 2)
        wait_for(lambda: shaping()["qdiscBusy"] == 1, 20, "the busy qdisc counted")
        assert not shaping()["flows"], shaping()
        wait_done(req, resp)
    finally:
        pe1.cmd("tc qdisc del dev pe1-eth1 root")

    # Killed while it shapes, cnpproxyd leaves its classes; the next one
    # removes them before it shapes anything.
    rc, out = vtysh_rc(pe1, "configure terminal", "router cnpproxy",
                       "proxy flow-label-tunnel local-shaping step 50 hold-time 60000000")
    assert rc == 0, out
    req, resp = run_pair("shape-kill", "10.0.1.1", "10.0.2.1", rate=8, duration=3)
    try:
        wait_for(lambda: labels()["encap_roce"] >= 50, 20, "tunnelled packets")
        fcn_from_p(label, 2)
        wait_for(lambda: shaper_classes(pe1), 20, "the shaper's class")
    finally:
        wait_done(req, resp)
    rc, out = vtysh_rc(pe1, "write memory")
    assert rc == 0, out
    rc, out = run_rc(pe1, "kill -9 $(cat /var/run/frr/cnpproxyd.pid)")
    assert rc == 0, out
    assert shaper_classes(pe1), pe1.cmd("tc class show dev pe1-eth1")
    pe1.startDaemons(["cnpproxyd"])
    rc, out = run_rc(pe1, "vtysh -b -d cnpproxyd")
    assert rc == 0, out
    expect(lambda: labels()["operational"], True)
    wait_for(lambda: "htb" not in pe1.cmd("tc qdisc show dev pe1-eth1"), 20,
             "the killed daemon's root qdisc removed")
    assert shaping()["enabled"] and not shaping()["flows"], shaping()

    rc, out = vtysh_rc(pe1, "configure terminal", "router cnpproxy",
                       "no proxy flow-label-tunnel local-shaping", "no proxy flow-label-tunnel")
    assert rc == 0, out
    assert "local-shaping" not in pe1.vtysh_cmd("show running-config cnpproxyd")
    rc, out = vtysh_rc(pe1, "write memory")
    assert rc == 0, out


def test_fcn_to_tunnel_head_without_pnc():
    "A tunnel head without PNC gets flow-label notifications once tunnel-heads names it."
    p, pe1 = gear("p"), gear("pe1")

    def pe1_known_as_proxy():
        out = p.vtysh_cmd("show cnpproxy lookup 2001:db8:ff::1 json", isjson=True)
        return out.get("found", False)

    rc, out = vtysh_rc(pe1, "configure terminal", "router isis core",
                       "no proxy-node-capability prefix-list SENDERS")
    assert rc == 0, out
    expect(pe1_known_as_proxy, False)
    rc, out = vtysh_rc(pe1, "configure terminal", "router cnpproxy",
                       "proxy flow-label-tunnel interface pe1-eth1 source 2001:db8:ff::1",
                       "proxy flow-label-tunnel prefix 10.0.2.0/24 endpoint " + TUNNEL_SID)
    assert rc == 0, out
    expect(lambda: pe1.vtysh_cmd("show cnpproxy flow-labels json",
                                 isjson=True)["operational"], True)
    try:
        # Without tunnel-heads p knows no proxy for the flow: nothing is sent.
        p.vtysh_cmd("clear cnpproxy counters")
        req, resp = run_pair("heads0", "10.0.1.1", "10.0.2.1", duration=3)
        wait_done(req, resp)
        c = p_eth1()["counters"]
        assert c["flowLabelSent"] == 0 and c["noProxy"] >= 1, c

        rc, out = vtysh_rc(p, "configure terminal",
                           "ipv6 prefix-list HEADS seq 5 permit 2001:db8:ff::/64 le 128",
                           "router cnpproxy", "congestion-point tunnel-heads prefix-list HEADS")
        assert rc == 0, out
        assert "congestion-point tunnel-heads prefix-list HEADS" in p.vtysh_cmd(
            "show running-config")
        p.vtysh_cmd("clear cnpproxy counters")
        pe1.vtysh_cmd("clear cnpproxy counters")
        req, resp = run_pair("heads1", "10.0.1.1", "10.0.2.1", duration=3)
        wait_done(req, resp)
        c = p_eth1()["counters"]
        assert c["flowLabelSent"] >= 1 and c["notificationsSent"] == 0, c
        got = pe1.vtysh_cmd("show cnpproxy counters json", isjson=True)
        assert got["receivedFlowLabel"] >= 1 and got["cnpSent"] >= 1, got
        assert summary("heads1", "req")["cnps"] >= 1
    finally:
        vtysh_rc(p, "configure terminal", "router cnpproxy", "no congestion-point tunnel-heads",
                 "exit", "no ipv6 prefix-list HEADS")
        vtysh_rc(pe1, "configure terminal", "router cnpproxy", "no proxy flow-label-tunnel",
                 "exit", "router isis core", "proxy-node-capability prefix-list SENDERS")
    assert "tunnel-heads" not in p.vtysh_cmd("show running-config")
    expect(pe1_known_as_proxy, True)


def mark_links(router, prog_id=None):
    """tcx links that run p's marking program (links are not per namespace,
    so only that program's count)."""
    if prog_id is None:
        prog_id = congestion()["program"]["id"]
    links = json.loads(router.cmd("bpftool -j link show") or "[]")
    return len([ln for ln in links if ln.get("prog_id") == prog_id])


def decode_capture(router, pcap):
    rc, out = run_rc(gear(router), "{} decode --input pcap {}".format(PNC_PKT, pcap))
    assert rc == 0, out
    return [json.loads(line) for line in out.strip().splitlines()]


def direct_run(tag, duration):
    """A Long-haul sender through p; the first message p sent it, decoded."""
    pcap = logfile(tag + ".pcap")
    cap = start_tcpdump(gear("sender"), "sender-eth0", "udp dst port 4791 and src host 10.255.0.2",
                        pcap=pcap, count=1)
    req, resp = run_pair(tag, "10.0.1.1", "10.0.2.1", duration=duration,
                         extra_req=["--long-haul", "--lh-known", "10.255.0.2"])
    wait_done(req, resp)
    cap.wait(timeout=10)
    (pkt,) = decode_capture("sender", pcap)
    return pkt


def test_direct_long_haul_to_source():
    "Seed 000: p sends Long-haul CNPs to the sender itself, and Resume once it drained."
    p, pe1 = gear("p"), gear("pe1")
    p.vtysh_cmd("configure terminal\nip prefix-list DIRECT seq 5 permit 10.0.1.0/24 le 32")
    # "no" without a value, with nothing configured, changes nothing.
    p_config("no congestion-point direct-to-source")
    p_config("proxy", "proxy source-address 10.255.0.2", "proxy learn-interface p-eth0",
             "proxy learn-interface p-eth1",
             "proxy sender 10.0.1.0/24 format long-haul-rocev2")
    d = congestion()["directToSource"]
    assert "prefixList" not in d and d["operational"], d
    p_config("congestion-point direct-to-source prefix-list DIRECT")
    assert congestion()["directToSource"]["prefixList"] == "DIRECT"
    assert "congestion-point direct-to-source prefix-list DIRECT" in p.vtysh_cmd(
        "show running-config cnpproxyd")
    p.vtysh_cmd("clear cnpproxy counters")
    pe1.vtysh_cmd("clear cnpproxy counters")
    pkt = direct_run("direct", 5)

    c = p_eth1()["counters"]
    assert c["directSent"] >= 1 and c["directUnknownFlow"] == 0, c
    # Nothing went to pe1: p was the sender's proxy itself.
    assert c["notificationsSent"] == 0 and c["fallbackSent"] == 0, c
    assert c["resumes"] >= 1 and c["directResumes"] >= 1, c
    got = p.vtysh_cmd("show cnpproxy counters json", isjson=True)
    assert got["receivedLocal"] >= c["directSent"] and got["longHaulRocev2Sent"] >= 2, got
    assert got["cnpSent"] == 0 and got["received"] == 0, got
    assert pe1.vtysh_cmd("show cnpproxy counters json", isjson=True)["received"] == 0

    rq = summary("direct", "req")
    assert rq["lh_roce"] >= 2 and rq["lh_rate_reduce"] >= 1 and rq["lh_resume"] >= 1, rq
    assert rq["unknown_src"] == 0 and rq["cnps"] == 0, rq
    # The first message on the wire: Rate Reduce with the queue's depth,
    # 30 percent at severe-level, 10 more per level above (seed 000 5.7).
    assert pkt["kind"] == "long-haul-rocev2" and pkt["icrc_ok"], pkt
    assert pkt["ip"]["src"] == "10.255.0.2" and pkt["bth"]["dqpn"] == 0x11, pkt
    assert pkt["lh"]["action_name"] == "rate-reduce" and pkt["lh"]["cl"] >= 4, pkt
    cut = pkt["lh"]["parameter"]
    assert cut in (30, 40, 50, 60), pkt
    assert pkt["lh"]["metric_type"] == 1 and pkt["lh"]["metric"] >= 14, pkt
    # The rate trace: the first Rate Reduce cuts the 60 Mb/s by that
    # much; a Resume gives back half of what was cut (seed 000 7).
    with open(logfile("direct-req.json")) as f:
        lh = [json.loads(line) for line in f if '"event":"lh"' in line]
    assert lh[0]["action"] == "rate-reduce" and lh[0]["parameter"] == cut, lh[0]
    assert lh[0]["rate_mbps"] == 60.0 * (100 - cut) / 100, lh[0]
    i = next(k for k, e in enumerate(lh) if e["action"] == "resume")
    assert lh[i]["parameter"] == 50 and lh[i]["rate_mbps"] > lh[i - 1]["rate_mbps"], \
        lh[i - 1:i + 1]

    # Hidden queue state: Metric Type 0, value 0.
    p_config("congestion-point hide-queue-state")
    assert congestion()["directToSource"]["hideQueueState"]
    pkt = direct_run("direct-hidden", 2)
    assert (pkt["lh"]["metric_type"], pkt["lh"]["metric"]) == (0, 0), pkt

    # Rate advice: the flow's share of the queue's drain rate (the TBF's
    # 20 Mb/s, one flow) scaled by the level, (8 - CL) / 8; the whole
    # share (20) each time the queue drained.  Never 0 (seed 004: a rate).
    p_config("no congestion-point hide-queue-state",
             "proxy sender 10.0.1.0/24 format rate-advice")
    p.vtysh_cmd("clear cnpproxy counters")
    req, resp = run_pair("direct-ra", "10.0.1.1", "10.0.2.1", duration=3,
                         extra_req=["--rate-advice"])
    wait_done(req, resp)
    with open(logfile("direct-ra-req.json")) as f:
        advice = [json.loads(line) for line in f if '"rate-advice"' in line]
    advised = [e["advised_mbps"] for e in advice]
    assert advised and set(advised) <= {20, 10, 7, 5, 2} and 20 in advised, advice
    rq = summary("direct-ra", "req")
    assert rq["advice_zero"] == 0 and rq["cnps"] == 0, rq
    c = p_eth1()["counters"]
    assert c["directSent"] >= 1 and c["directResumes"] >= 1, c
    assert p.vtysh_cmd("show cnpproxy counters json", isjson=True)["rateAdviceSent"] >= 2

    # Without the proxy role, the sender's proxy (pe1) is notified again.
    p_config("no proxy")
    d = congestion()["directToSource"]
    assert not d["operational"] and d["reason"] == "the proxy role does not run", d
    p.vtysh_cmd("clear cnpproxy counters")
    req, resp = run_pair("direct-off", "10.0.1.1", "10.0.2.1", duration=2)
    wait_done(req, resp)
    c = p_eth1()["counters"]
    assert c["directSent"] == 0 and c["notificationsSent"] >= 1, c
    p_config("no congestion-point direct-to-source prefix-list DIRECT",
             "no congestion-point hide-queue-state")
    out = p.vtysh_cmd("show running-config cnpproxyd")
    assert "direct-to-source" not in out and "hide-queue-state" not in out, out


def test_own_senders_served_in_process():
    """Seed 001: a congested router that is the sender's proxy sends the CNP itself.

    A static proxy-for entry more specific than pe1's PNC prefix makes p
    the sender's proxy, as a congested ingress PE is for its senders.
    """
    p = gear("p")
    p_config("proxy", "proxy source-address 10.255.0.2", "proxy learn-interface p-eth0",
             "proxy learn-interface p-eth1", "proxy for 10.0.1.1/32 via 10.255.0.2")
    expect(lambda: p.vtysh_cmd("show cnpproxy lookup 10.0.1.1 json", isjson=True).get(
        "proxy"), "10.255.0.2")
    p.vtysh_cmd("clear cnpproxy counters")
    req, resp = run_pair("own", "10.0.1.1", "10.0.2.1", duration=3)
    wait_done(req, resp)
    c = p_eth1()["counters"]
    # No datagram to itself, which its (absent) accept-list would refuse.
    assert c["directSent"] >= 1 and c["notificationsSent"] == 0, c
    got = p.vtysh_cmd("show cnpproxy counters json", isjson=True)
    assert got["cnpSent"] >= 1 and got["received"] == 0, got
    assert got["droppedNoAcceptList"] == 0, got
    rq = summary("own", "req")
    assert rq["cnps"] >= 1 and rq["cnps_invalid"] == 0 and rq["rate_mbps"] < 60, rq
    p_config("no proxy for 10.0.1.1/32 via 10.255.0.2", "no proxy")
    expect(lambda: p.vtysh_cmd("show cnpproxy lookup 10.0.1.1 json", isjson=True).get(
        "proxy"), "10.255.0.1")


def pe2_config(*lines):
    rc, out = vtysh_rc(gear("pe2"), "configure terminal", "router cnpproxy", *lines)
    assert rc == 0, out


def pe2_eth1():
    return gear("pe2").vtysh_cmd("show cnpproxy congestion json",
                                 isjson=True)["interfaces"]["pe2-eth1"]


def collab_run(tag, tbf_rate, extra_req=()):
    """A flow through p (20 Mb/s) and then pe2 (tbf_rate): pe2's state after it."""
    pe2 = gear("pe2")
    pe2.cmd_raises("tc qdisc replace dev pe2-eth1 root tbf rate {} burst 16kb limit 400kb"
                   .format(tbf_rate))
    expect(lambda: pe2_eth1()["operational"], True)
    gear("p").vtysh_cmd("clear cnpproxy counters")
    pe2.vtysh_cmd("clear cnpproxy counters")
    req, resp = run_pair(tag, "10.0.1.1", "10.0.2.1", duration=4, extra_req=extra_req)
    wait_done(req, resp)
    return pe2_eth1()


def test_collaborative_suppression_two_congestion_points():
    """Seed 000: pe2, downstream of p, defers to p's action, then escalates.

    p's TBF (20 Mb/s) fills first and p's notifications slow the sender
    (through pe1); pe2 sees its arrival rate fall within its rtt after its
    own onset, and holds its notifications.  The sender never wins rate
    back, and p's CNPs take it down to roce-emu's floor, 1 Mb/s.  With
    pe2 at 15 Mb/s its queue then drains: it never escalates.  At
    0.5 Mb/s it keeps growing though p acted: pe2 escalates and notifies
    after all.
    """
    gear("pe2").vtysh_cmd("configure terminal\ndebug cnpproxy congestion")
    pe2_config("congestion-point", "congestion-point source-address 10.255.0.3",
               "congestion-point interface pe2-eth1",
               "congestion-point interface pe2-eth1 thresholds static k-max 20000 k-min 6000",
               "congestion-point interface pe2-eth1 poll-interval 2",
               # The observation window: p's loop (notification, pe1's CNP,
               # the sender's cut) must show within it, on a busy machine too.
               "congestion-point interface pe2-eth1 rtt 250000",
               "congestion-point interface pe2-eth1 collaborative-suppression")
    out = gear("pe2").vtysh_cmd("show running-config cnpproxyd")
    assert ("congestion-point interface pe2-eth1 collaborative-suppression fall-percent 10"
            in out), out

    c = collab_run("collab-defer", "15mbit")
    assert p_eth1()["counters"]["notificationsSent"] >= 1
    k = c["counters"]
    assert k["onsets"] >= 1 and k["deferred"] >= 1, k
    assert k["suppressedCollaborative"] >= 1 and k["escalated"] == 0, c
    # Deferring, pe2 left the sender to p: it sent nothing itself.
    assert k["notificationsSent"] == 0, c
    cs = c["collaborativeSuppression"]
    assert cs["fallPercent"] == 10 and cs["onsetArrivalBytesPerSec"] > 0, cs

    c = collab_run("collab-escalate", "500kbit")
    k = c["counters"]
    assert k["deferred"] >= 1 and k["escalated"] >= 1, k
    assert k["notificationsSent"] >= 1, c

    # Off: pe2 notifies from its first congestion on, like p.
    pe2_config("no congestion-point interface pe2-eth1 collaborative-suppression")
    assert "collaborativeSuppression" not in pe2_eth1()
    c = collab_run("collab-off", "500kbit")
    k = c["counters"]
    assert k["notificationsSent"] >= 1 and k["suppressedCollaborative"] == 0, c
    assert k["deferred"] == 0, c
    pe2_config("no congestion-point")
    gear("pe2").cmd_raises("tc qdisc del dev pe2-eth1 root")


def test_removing_interface_detaches():
    "Removing the interface stops monitoring and takes the program off."
    p = gear("p")
    assert p_eth1()["attach"] == "tcx", p_eth1()
    assert mark_links(p) == 1
    p_config("no congestion-point interface p-eth1")
    expect(lambda: list(congestion()["interfaces"]), [])
    assert mark_links(p) == 0
    out = p.cmd("tc filter show dev p-eth1 egress")
    assert "pnc_mark" not in out and "direct-action" not in out, out
    assert "tbf" in p.cmd("tc qdisc show dev p-eth1")
    p_config("congestion-point interface p-eth1",
             "congestion-point interface p-eth1 thresholds static k-max 40000 k-min 15000",
             "congestion-point interface p-eth1 marking ce")
    expect(lambda: p_eth1()["operational"], True)


def cnpproxyd_signal(router, sig):
    rc, out = run_rc(router, "kill -{} $(cat /var/run/frr/cnpproxyd.pid)".format(sig))
    assert rc == 0, out


def marking_then(tag, action):
    """Traffic above the TBF rate; once p marks, action(); the run ends.
    The receiver's CE count of that run."""
    marked = congestion()["program"]["marked_ce"]
    req, resp = run_pair(tag, "10.0.1.1", "10.0.2.1", duration=4)
    wait_for(lambda: congestion()["program"]["marked_ce"] > marked, 10,
             "p marking the {} flow".format(tag))
    action()
    wait_done(req, resp)
    return summary(tag, "resp")["ce_pkts"]


def ce_of_a_run(tag):
    req, resp = run_pair(tag, "10.0.1.1", "10.0.2.1", duration=2)
    wait_done(req, resp)
    return summary(tag, "resp")["ce_pkts"]


def test_stopped_daemon_stops_marking():
    "SIGSTOP while marking: no CE once the state's lifetime is over; SIGCONT marks again."
    p = gear("p")
    expect(lambda: p_eth1()["operational"], True)
    try:
        assert marking_then("stop1", lambda: cnpproxyd_signal(p, "STOP")) > 0
        # 200 ms lifetime (4 polls of 2 ms, at least 200 ms); the first
        # run goes on for seconds after the stop, and TBF's queue is full
        # all along.
        assert ce_of_a_run("stop2") == 0
    finally:
        cnpproxyd_signal(p, "CONT")
    assert ce_of_a_run("stop3") > 0


def test_killed_daemon_stops_marking():
    "SIGKILL while marking: no CE afterwards, nothing attached; a restart marks again."
    p = gear("p")
    prog_id = congestion()["program"]["id"]
    assert mark_links(p, prog_id) == 1
    assert marking_then("kill1", lambda: cnpproxyd_signal(p, "KILL")) > 0
    assert mark_links(p, prog_id) == 0
    assert ce_of_a_run("kill2") == 0
    p.startDaemons(["cnpproxyd"])
    rc, out = run_rc(p, "vtysh -b -d cnpproxyd")
    assert rc == 0, out
    expect(lambda: p_eth1()["operational"], True)
    assert mark_links(p) == 1
    assert ce_of_a_run("kill3") > 0


def test_removed_qdisc_reported():
    "The bottleneck's qdisc removed: not operational, and why; back once it returns."
    p = gear("p")
    expect(lambda: p_eth1()["operational"], True)
    p.cmd_raises("tc qdisc del dev p-eth1 root")
    expect(lambda: p_eth1().get("reason", ""),
           "no queue to watch (qdisc noqueue): add a root qdisc")
    assert not congestion()["interfaces"]["p-eth1"]["operational"]
    p.cmd_raises("tc qdisc add dev p-eth1 root tbf rate {} burst 16kb limit 400kb".format(
        TBF_RATE))
    expect(lambda: p_eth1()["operational"], True)
    assert p_eth1()["queue"]["kind"] == "tbf", p_eth1()


def test_interface_deleted_and_recreated():
    """A congestion-point interface deleted: detached and said so; re-created
    (new ifindex): attached again from zebra's interface event."""
    p = gear("p")

    def cpx0():
        return congestion()["interfaces"].get("cpx0", {})

    def make(peer_up=True):
        p.cmd_raises("ip link add cpx0 type veth peer name cpx1")
        p.cmd_raises("ip link set cpx0 up")
        p.cmd_raises("tc qdisc add dev cpx0 root tbf rate 10mbit burst 16kb limit 100kb")
        if peer_up:
            p.cmd_raises("ip link set cpx1 up")

    links = mark_links(p)
    # Up but without carrier (its veth peer down): not operational.
    make(peer_up=False)
    p_config("congestion-point interface cpx0")
    expect(lambda: cpx0().get("reason"), "interface down")
    assert cpx0().get("operational") is False, cpx0()
    p_config("no congestion-point interface cpx0")
    p.cmd_raises("ip link del cpx0")
    make()
    p_config("congestion-point interface cpx0")
    expect(lambda: cpx0().get("operational"), True)
    first = cpx0()
    assert first["attach"] == "tcx" and mark_links(p) == links + 1, first
    p.cmd_raises("ip link del cpx0")
    expect(lambda: cpx0().get("reason"), "no such interface")
    assert "attach" not in cpx0() and mark_links(p) == links, cpx0()
    make()
    expect(lambda: cpx0().get("operational"), True)
    again = cpx0()
    assert again["attach"] == "tcx" and again["ifindex"] != first["ifindex"], (first, again)
    assert mark_links(p) == links + 1
    p_config("no congestion-point interface cpx0")
    p.cmd_raises("ip link del cpx0")
    assert mark_links(p) == links


def test_cnpproxyd_still_up():
    "Nothing crashed."
    for name in ("pe1", "p", "pe2"):
        gear(name)
