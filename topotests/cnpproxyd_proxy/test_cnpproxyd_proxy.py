#!/usr/bin/env python
# SPDX-License-Identifier: GPL-2.0-or-later
#
# test_cnpproxyd_proxy.py
#
#   sender ---- pe1 ---------- p ---------- receiver
#   roce-emu    cnpproxyd      congestion   roce-emu
#   requester   (proxy role)   point        responder
#
# roce-emu runs an RC connection from sender to receiver, with CM over
# IPv4 and without CM over IPv6; pe1's XDP program learns the queue
# pairs.  p sends congestion notifications built with pnc-pkt to pe1.
# Checks that the sender receives CNPs for the right QP with a valid
# ICRC (roce-emu validates them; pnc-pkt decodes a capture), from pe1's
# configured address with DSCP 48, at most one per minimum interval, and
# cuts its rate; the proxy role's configuration (refusals included);
# that notifications from untrusted sources, malformed ones,
# rate-limited ones and ones for unknown flows give no CNP and the
# right counter; and that cnpproxyd stays up.

import ipaddress
import json
import os
import signal
import struct
import subprocess
import sys
import time
import zlib

import pytest

CWD = os.path.dirname(os.path.realpath(__file__))
sys.path.append(os.path.join(CWD, "../"))

# pylint: disable=C0413
from lib import topotest
from lib.topogen import get_topogen
from pnc_topo import (built, flood_result, freeze_thread, gear, pcap_packets, run_rc,
                      saved_flows, set_gro, start_flood, start_routers, start_tcpdump,
                      udp_recv_queue, vtysh_rc, wait_for, wait_responder)

pytestmark = [pytest.mark.cnpproxyd]

PNC_PKT = built("tools/pnc-pkt/pnc-pkt")
ROCE_EMU = built("tools/roce-emu/roce-emu")
NOTIF_PORT = 61791
FCN_PORT = 61792


def setup_module(mod):
    topodef = {
        "s1": ("sender", "pe1"),
        "s2": ("pe1", "p"),
        "s3": ("p", "receiver"),
    }
    start_routers(mod, topodef, CWD)


def teardown_module(_mod):
    get_topogen().stop_topology()


def counters():
    return gear("pe1").vtysh_cmd("show cnpproxy counters json", isjson=True)


def pkt(*args):
    """pnc-pkt build ... -> hex string."""
    rc, out = run_rc(gear("pe1"), " ".join([PNC_PKT, "build"] + list(args)))
    assert rc == 0, out
    return out.strip()


def notification(cl=5, sender="10.0.1.1", receiver="10.0.23.3", rqpn="0x22"):
    """UDP payload of a seed 002 notification about sender -> receiver."""
    return pkt("notif", "cl={}".format(cl), "invoking=rc-write", "inv.src=" + sender,
               "inv.dst=" + receiver, "inv.dqpn=" + rqpn, "bare=1")


SEND = ("import socket,sys; "
        "fam = socket.AF_INET6 if ':' in sys.argv[1] else socket.AF_INET; "
        "s = socket.socket(fam, socket.SOCK_DGRAM); "
        "src = sys.argv[4] if len(sys.argv) > 4 else None; "
        "src and s.bind((src, 0)); "
        "[s.sendto(bytes.fromhex(sys.argv[3]), (sys.argv[1], int(sys.argv[2]))) "
        "for _ in range(int(sys.argv[5]) if len(sys.argv) > 5 else 1)]")


def send_from(router, dst, port, payload_hex, count=1, src=""):
    rc, out = run_rc(gear(router), "/usr/bin/python3 -c \"{}\" {} {} {} '{}' {}".format(
        SEND, dst, port, payload_hex, src, count))
    assert rc == 0, out


def expect_counters(want, count=20):
    def check():
        got = counters()
        return {k: got.get(k) for k in want}

    _, got = topotest.run_and_expect(check, want, count=count, wait=0.5)
    assert got == want, "counters: {}".format(counters())


def test_proxy_role_operational():
    "The configured proxy role runs: ports bound, raw sockets open."
    status = gear("pe1").vtysh_cmd("show cnpproxy status json", isjson=True)
    proxy = status["roles"]["proxy"]
    assert proxy["enabled"] and proxy["operational"], status
    assert "reason" not in proxy, status
    assert proxy["settings"] == {
        "sourceIpv4": "10.0.1.254", "sourceIpv6": "2001:db8:1::fe",
        "acceptPrefixList": "CPS", "cnpMinIntervalUs": 50, "cnpDscp": 48,
        "rateLimitPerSource": 10000, "rateLimitGlobal": 100000,
        "learnInterfaces": ["pe1-eth0", "pe1-eth1"], "filterInterfaces": [],
        "fastPath": "socket", "flowTableSize": 65536}, proxy


def test_config_refusals():
    "Impossible formats, out-of-range code points and settings without the role are refused."
    pe1 = gear("pe1")
    before = pe1.vtysh_cmd("show running-config")
    for cmd, why in (
            ("proxy sender 10.0.1.0/24 format long-haul-icmpv6", "needs an IPv6 sender prefix"),
            ("proxy sender 10.0.1.0/24 format long-haul-cnp", "Unknown command"),
            ("proxy sender 10.0.1.0/24 format rocev2-cnp cnp-sized",
             "applies to format long-haul-rocev2 only"),
            ("proxy long-haul icmpv6-type 100", "range"),
            ("proxy long-haul severe-reduce 0", "range"),
            ("proxy long-haul severe-reduce-step 101", "range"),
            ("proxy long-haul resume-share 101", "range"),
            ("proxy rate-advice opcode 29", "range"),
            ("proxy severe-level 0", "range"),
            ("proxy severe-level 8", "range"),
            # IANA's types, and the Long-haul CNP's: not the notification's ICMP form
            ("notification-icmp-type 8", "Unknown command"),
            ("notification-icmpv6-type 135", "Unknown command"),
            ("notification-icmpv6-type 200", "is the Long-haul CNP's ICMPv6 type")):
        rc, out = vtysh_rc(pe1, "configure terminal", "router cnpproxy", cmd)
        assert rc != 0 and why in out, (cmd, out)
    # Nothing of the refused commands was applied.
    assert pe1.vtysh_cmd("show running-config") == before
    rc, out = vtysh_rc(pe1, "configure terminal", "router cnpproxy",
                       "proxy sender 10.0.1.0/24 format rocev2-cnp")
    assert rc == 0, out
    run = pe1.vtysh_cmd("show running-config")
    assert "proxy sender 10.0.1.0/24 format rocev2-cnp" in run, run
    assert "long-haul" not in run and "severe-level" not in run, run
    # "no" without the value restores the default; a wrong value changes nothing.
    rc, out = vtysh_rc(pe1, "configure terminal", "router cnpproxy",
                       "proxy long-haul pause-time 300", "proxy severe-level 6")
    assert rc == 0, out
    run = pe1.vtysh_cmd("show running-config")
    assert " proxy severe-level 6\n" in run and " proxy long-haul pause-time 300\n" in run, run
    rc, out = vtysh_rc(pe1, "configure terminal", "router cnpproxy",
                       "no proxy long-haul pause-time 200")
    assert rc != 0 and "configured value is 300" in out, out
    rc, out = vtysh_rc(pe1, "configure terminal", "router cnpproxy",
                       "no proxy long-haul pause-time", "no proxy severe-level",
                       "no proxy sender 10.0.1.0/24")
    assert rc == 0, out
    assert pe1.vtysh_cmd("show running-config") == before

    # the congestion-point role has none of these settings
    rc, out = vtysh_rc(gear("p"), "configure terminal", "router cnpproxy",
                       "proxy source-address 10.0.12.2")
    assert rc != 0 and "Enable the proxy role first" in out, out


def test_untrusted_source_dropped():
    "A notification from a source outside the accept-list gives nothing."
    pe1 = gear("pe1")
    pe1.vtysh_cmd("clear cnpproxy counters")
    # the sender's side is not a congestion point
    send_from("sender", "10.0.1.254", NOTIF_PORT, notification())
    expect_counters({"received": 1, "droppedSourceDenied": 1, "cnpSent": 0})
    # debug cnpproxy proxy (in frr.conf) says why
    log = os.path.join(get_topogen().logdir, "pe1", "cnpproxyd.log")
    rc, out = run_rc(pe1, "grep -c 'from 10.0.1.1 refused by prefix-list CPS' " + log)
    assert rc == 0 and int(out) >= 1, out


def test_malformed_dropped_with_reason():
    "Malformed notifications are counted by reason."
    pe1 = gear("pe1")
    pe1.vtysh_cmd("clear cnpproxy counters")
    good = notification()
    send_from("p", "10.0.12.1", NOTIF_PORT, "21" + good[2:])  # version 2
    send_from("p", "10.0.12.1", NOTIF_PORT, good[:20])  # truncated header
    send_from("p", "10.0.12.1", FCN_PORT, "00000000")  # flow label 0
    expect_counters({"received": 2, "receivedFlowLabel": 1, "droppedMalformed": 3})
    reasons = counters()["malformedByReason"]
    assert reasons == {"notif-bad-version": 1, "notif-truncated": 1, "fcn-zero-label": 1}, \
        reasons


def test_unknown_flow_and_fcn_unresolved():
    "Valid notifications without a learned flow are counted, not answered."
    pe1 = gear("pe1")
    pe1.vtysh_cmd("clear cnpproxy counters")
    send_from("p", "10.0.12.1", NOTIF_PORT, notification(rqpn="0x777"))
    # From p's address on the link, which the accept list permits: while
    # DAD has not finished the kernel would pick another one.
    _, tentative = topotest.run_and_expect(
        lambda: gear("p").cmd("ip -6 addr show tentative").strip(), "", count=20, wait=0.5)
    assert tentative == "", tentative
    send_from("p", "2001:db8:12::1", NOTIF_PORT,
              notification(sender="2001:db8:1::1", receiver="2001:db8:23::3"),
              src="2001:db8:12::2")
    send_from("p", "10.0.12.1", FCN_PORT, pkt("fcn", "bare=1"))
    expect_counters({"received": 2, "droppedUnknownFlow": 2, "receivedFlowLabel": 1,
                     "droppedFlowLabelUnresolved": 1, "cnpSent": 0})


def icmp_notification(v6=False, csum=None):
    """ICMP (or ICMPv6) message of a notification in its ICMP form (6.5)
    about a flow pe1 has not learned."""
    args = ["notif", "icmp=1", "bare=1", "cl=5", "invoking=rc-write", "inv.dqpn=0x777"]
    if v6:
        args += ["-6", "inv.src=2001:db8:1::1", "inv.dst=2001:db8:23::3"]
    else:
        args += ["inv.src=10.0.1.1", "inv.dst=10.0.23.3"]
    if csum is not None:
        args.append("icmp-csum={}".format(csum))
    return pkt(*args)


# A raw socket: the kernel adds the IP header (and an ICMPv6 checksum).
SEND_ICMP = ("import socket,sys; v6 = ':' in sys.argv[1]; "
             "s = socket.socket(socket.AF_INET6 if v6 else socket.AF_INET, socket.SOCK_RAW, "
             "socket.IPPROTO_ICMPV6 if v6 else socket.IPPROTO_ICMP); "
             "[s.sendto(bytes.fromhex(sys.argv[2]), (sys.argv[1], 0)) "
             "for _ in range(int(sys.argv[3]))]")


def send_icmp(router, dst, msg_hex, count=1):
    rc, out = run_rc(gear(router), "/usr/bin/python3 -c \"{}\" {} {} {}".format(
        SEND_ICMP, dst, msg_hex, count))
    assert rc == 0, out


def proxy_operational():
    role = gear("pe1").vtysh_cmd("show cnpproxy status json", isjson=True)["roles"]["proxy"]
    return role["operational"]


def test_icmp_form_accepted():
    """Seed 002 4: a notification may be an ICMP message.  pe1 takes ICMP
    type 253 and ICMPv6 type 201 through the same checks as UDP (accept
    list, decoding, flow lookup), counts them in receivedIcmp, leaves other
    ICMP alone, refuses a bad checksum by name and follows another
    configured type."""
    pe1 = gear("pe1")
    pe1.vtysh_cmd("clear cnpproxy counters")
    send_icmp("p", "10.0.12.1", icmp_notification())
    send_icmp("p", "2001:db8:12::1", icmp_notification(v6=True))
    send_icmp("sender", "10.0.1.254", icmp_notification())
    rc, out = run_rc(gear("p"), "ping -c 2 -i 0.2 -W 2 10.0.12.1")
    assert rc == 0, out
    expect_counters({"received": 3, "receivedIcmp": 3, "droppedUnknownFlow": 2,
                     "droppedSourceDenied": 1, "droppedMalformed": 0})

    pe1.vtysh_cmd("clear cnpproxy counters")
    send_icmp("p", "10.0.12.1", icmp_notification(csum="0x1234"))
    expect_counters({"received": 1, "receivedIcmp": 1, "droppedMalformed": 1})
    assert counters()["malformedByReason"] == {"notif-icmp-bad-checksum": 1}, counters()

    # Another type: the socket filters follow; 253 is no notification any more.
    proxy_cfg("notification-icmp-type 254")
    wait_for(proxy_operational, 10, "pe1's sockets for ICMP type 254 open")
    status = pe1.vtysh_cmd("show cnpproxy status json", isjson=True)
    assert status["ports"]["notificationIcmpType"] == 254, status["ports"]
    assert " notification-icmp-type 254\n" in pe1.vtysh_cmd("show running-config cnpproxyd")
    pe1.vtysh_cmd("clear cnpproxy counters")
    send_icmp("p", "10.0.12.1", icmp_notification())
    send_icmp("p", "10.0.12.1", pkt("notif", "icmp=1", "bare=1", "icmp-type=254",
                                    "invoking=rc-write", "inv.dqpn=0x777"))
    expect_counters({"received": 1, "receivedIcmp": 1, "droppedUnknownFlow": 1})
    proxy_cfg("no notification-icmp-type")
    wait_for(proxy_operational, 10, "pe1's sockets for ICMP type 253 open")
    assert "notification-icmp-type" not in pe1.vtysh_cmd("show running-config cnpproxyd")


def test_rate_limit_per_source():
    "Above the per-source rate, notifications are dropped and counted."
    pe1 = gear("pe1")
    pe1.vtysh_cmd("configure terminal\nrouter cnpproxy\nproxy rate-limit per-source 5\n")
    pe1.vtysh_cmd("clear cnpproxy counters")
    send_from("p", "10.0.12.1", NOTIF_PORT, notification(rqpn="0x777"), count=50)
    expect_counters({"received": 50})
    got = counters()
    # a bucket of 5, refilled at 5/s while 50 arrive within well under a second
    assert 5 <= got["droppedUnknownFlow"] <= 10, got
    assert got["droppedRateLimitSource"] == 50 - got["droppedUnknownFlow"], got
    pe1.vtysh_cmd("configure terminal\nrouter cnpproxy\nno proxy rate-limit per-source 5\n")


def test_socket_overflow_counted():
    """A burst the daemon cannot read in time (stopped here): whatever the
    kernel drops for want of receive buffer is counted, so that every
    notification sent is either received or counted as dropped."""
    pe1 = gear("pe1")
    sent = 20000
    payload = notification(rqpn="0x778")
    rc, out = run_rc(pe1, "cat /var/run/frr/cnpproxyd.pid")
    assert rc == 0, out
    pid = int(out)
    pe1.vtysh_cmd("clear cnpproxy counters")
    # Nothing may ask pe1's daemons anything while it is stopped: from here.
    os.kill(pid, signal.SIGSTOP)
    try:
        send_from("p", "10.0.12.1", NOTIF_PORT, payload, count=sent)
    finally:
        os.kill(pid, signal.SIGCONT)
    # A datagram reports the drops before it: one more after the burst,
    # once the daemon has read what the buffer held (so it finds room).
    wait_for(lambda: udp_recv_queue(pe1, NOTIF_PORT) == 0, 20,
             "pe1's notification sockets drained after the burst")
    send_from("p", "10.0.12.1", NOTIF_PORT, payload)

    def accounted():
        got = counters()
        return got["received"] + got["droppedSocketOverflow"]

    _, total = topotest.run_and_expect(accounted, sent + 1, count=20, wait=0.5)
    got = counters()
    assert total == sent + 1, got
    # The 4 MiB buffer holds thousands of these, not all 20000.
    assert got["droppedSocketOverflow"] > 0 and got["received"] > 1000, got
    state = json.loads(pe1.vtysh_cmd(
        "show yang operational-data /frr-cnpproxyd:cnpproxyd/state cnpproxyd"))
    proxy = state["frr-cnpproxyd:cnpproxyd"]["state"]["proxy"]
    assert int(proxy["dropped-socket-overflow"]) == got["droppedSocketOverflow"], proxy


def flood(router, dst, payload_hex, *opts):
    """pnc-flood from router to the notification port, started."""
    return start_flood(gear(router), "--dst", dst, "--port", str(NOTIF_PORT), "--payload",
                       payload_hex, *opts)


def filter_status():
    return gear("pe1").vtysh_cmd("show cnpproxy status json", isjson=True)["filter"]


def set_filter(on):
    no = "" if on else "no "
    proxy_cfg(no + "proxy filter-interface pe1-eth0", no + "proxy filter-interface pe1-eth1")
    if on:
        _, got = topotest.run_and_expect(lambda: filter_status()["active"], True, count=20,
                                         wait=0.5)
        assert got, filter_status()


def stages():
    return counters()["learning"]["interfaceStages"]


def test_filter_interface_stages():
    """filter-interface adds the guard to the XDP program of an interface
    that learns, and takes it away again; learning goes on throughout."""
    assert stages() == {"pe1-eth0": "learn", "pe1-eth1": "learn"}, stages()
    set_filter(True)
    assert stages() == {"pe1-eth0": "learn, filter", "pe1-eth1": "learn, filter"}, stages()
    st = filter_status()
    # CPS has one entry per family; pe1's addresses, link-local and loopback ones included.
    assert st["acceptEntries"] == 2 and st["localAddresses"] >= 4, st
    assert st["ratePerSource"] == 10000, st
    running = gear("pe1").vtysh_cmd("show running-config cnpproxyd")
    assert " proxy filter-interface pe1-eth0\n" in running, running
    set_filter(False)
    assert stages() == {"pe1-eth0": "learn", "pe1-eth1": "learn"}, stages()
    assert not filter_status()["active"]


def test_untrusted_flood_dropped_at_driver():
    """An untrusted source floods pe1 as fast as it can for 5 s while a
    trusted congestion point sends 1000 notifications a second: the
    flood is dropped at the driver and not one trusted notification is
    lost; user space never sees the flood."""
    pe1 = gear("pe1")
    set_filter(True)
    try:
        pe1.vtysh_cmd("clear cnpproxy counters")
        # unknown flow: each reaches the end of the pipeline, counted there
        payload = notification(rqpn="0x779")
        untrusted = flood("sender", "10.0.1.254", payload, "--seconds", "5",
                          "--count", "5000000")
        trusted = flood("p", "10.0.12.1", payload, "--rate", "1000", "--count", "4000")
        bad, good = flood_result(untrusted), flood_result(trusted)
        assert good["sent"] == 4000, good
        expect_counters({"received": 4000, "droppedUnknownFlow": 4000,
                         "droppedSocketOverflow": 0, "droppedSourceDenied": 0})
        got = counters()
        # Every flood datagram that reached pe1 was dropped by XDP (veth
        # may drop some on the way when pe1's CPU is busy).
        denied = got["droppedAtDriverSourceDenied"]
        print("untrusted flood: {}, trusted: {}, dropped at the driver: {}".format(
            bad, good, denied))
        assert bad["sent"] > 100000 and 0.5 * bad["sent"] <= denied <= bad["sent"], (bad, got)
        state = json.loads(pe1.vtysh_cmd(
            "show yang operational-data /frr-cnpproxyd:cnpproxyd/state cnpproxyd"))
        proxy = state["frr-cnpproxyd:cnpproxyd"]["state"]["proxy"]
        assert int(proxy["dropped-at-driver-source-denied"]) >= denied, proxy
    finally:
        set_filter(False)


def test_filter_follows_prefix_list_and_rate():
    """The guard refuses what user space would: a deny entry added to the
    accept list in front of the permit, then a per-source rate of 5."""
    pe1 = gear("pe1")
    payload = notification(rqpn="0x779")
    set_filter(True)
    try:
        pe1.vtysh_cmd("configure terminal\nip prefix-list CPS seq 1 deny 10.0.12.2/32\n")
        _, n = topotest.run_and_expect(lambda: filter_status()["acceptEntries"], 3, count=20,
                                       wait=0.5)
        assert n == 3, filter_status()
        pe1.vtysh_cmd("clear cnpproxy counters")
        send_from("p", "10.0.12.1", NOTIF_PORT, payload, count=20)
        expect_counters({"droppedAtDriverSourceDenied": 20, "received": 0})
        pe1.vtysh_cmd("configure terminal\nno ip prefix-list CPS seq 1 deny 10.0.12.2/32\n")
        _, n = topotest.run_and_expect(lambda: filter_status()["acceptEntries"], 2, count=20,
                                       wait=0.5)
        assert n == 2, filter_status()

        # Behind more IPv6 extension headers than the guard walks a
        # notification could hide: dropped, whatever the source.
        pe1.vtysh_cmd("clear cnpproxy counters")
        send_chain("p", "2001:db8:12::1", NOTIF_PORT, payload, 9)
        expect_counters({"droppedAtDriverHeaderChain": 1, "received": 0})
        assert counters()["learning"]["xdp"]["guard_header_chain"] == 1

        pe1.vtysh_cmd("configure terminal\nrouter cnpproxy\nproxy rate-limit per-source 5\n")
        pe1.vtysh_cmd("clear cnpproxy counters")
        sent = flood_result(flood("p", "10.0.12.1", payload, "--count", "20000"))["sent"]
        assert sent == 20000
        _, got = topotest.run_and_expect(
            lambda: counters()["droppedAtDriverRateLimitSource"] + counters()["received"],
            sent, count=20, wait=0.5)
        got = counters()
        # a bucket of 5 refilled at 5/s: a handful reach user space
        assert 5 <= got["received"] <= 15, got
        assert got["droppedAtDriverRateLimitSource"] == sent - got["received"], got
        assert got["droppedSourceDenied"] == 0 and got["droppedSocketOverflow"] == 0, got
    finally:
        pe1.vtysh_cmd("configure terminal\nrouter cnpproxy\nno proxy rate-limit per-source 5\n")
        set_filter(False)


def test_filter_guards_the_icmp_form():
    """The guard treats the ICMP form as the UDP one: from a source the
    accept list denies, dropped at the driver; from a permitted one, on to
    pe1's raw sockets (the translator and AF_XDP read UDP only)."""
    pe1 = gear("pe1")
    set_filter(True)
    try:
        pe1.vtysh_cmd("configure terminal\nip prefix-list CPS seq 1 deny 10.0.12.2/32\n")
        _, n = topotest.run_and_expect(lambda: filter_status()["acceptEntries"], 3, count=20,
                                       wait=0.5)
        assert n == 3, filter_status()
        pe1.vtysh_cmd("clear cnpproxy counters")
        send_icmp("p", "10.0.12.1", icmp_notification(), count=5)
        expect_counters({"droppedAtDriverSourceDenied": 5, "received": 0})
        pe1.vtysh_cmd("configure terminal\nno ip prefix-list CPS seq 1 deny 10.0.12.2/32\n")
        _, n = topotest.run_and_expect(lambda: filter_status()["acceptEntries"], 2, count=20,
                                       wait=0.5)
        assert n == 2, filter_status()
        pe1.vtysh_cmd("clear cnpproxy counters")
        send_icmp("p", "10.0.12.1", icmp_notification())
        send_icmp("p", "2001:db8:12::1", icmp_notification(v6=True))
        expect_counters({"received": 2, "receivedIcmp": 2, "droppedUnknownFlow": 2,
                         "droppedAtDriverSourceDenied": 0})
    finally:
        pe1.vtysh_cmd("configure terminal\nno ip prefix-list CPS seq 1 deny 10.0.12.2/32\n")
        set_filter(False)


def test_filter_leaves_transit_notifications_alone():
    """Notifications through pe1 to another address are not pe1's to judge:
    the guard lets one from an untrusted source pass on to p."""
    set_filter(True)
    try:
        gear("pe1").vtysh_cmd("clear cnpproxy counters")
        listener = gear("p").popen(
            ["/usr/bin/python3", "-c",
             "import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); "
             "s.bind(('10.0.12.2', {})); print('bound', flush=True); s.settimeout(10); "
             "print(len(s.recv(2048)))".format(NOTIF_PORT)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        assert listener.stdout.readline() == "bound\n", listener.communicate(timeout=15)
        send_from("sender", "10.0.12.2", NOTIF_PORT, notification())
        out, err = listener.communicate(timeout=15)
        assert listener.returncode == 0 and int(out) > 0, err
        assert counters()["droppedAtDriverSourceDenied"] == 0
    finally:
        set_filter(False)


def test_no_accept_list_accepts_nothing():
    "Without accept-from, every notification is dropped, and the status says so."
    pe1 = gear("pe1")

    def proxy_role():
        return pe1.vtysh_cmd("show cnpproxy status json", isjson=True)["roles"]["proxy"]

    pe1.vtysh_cmd("configure terminal\nrouter cnpproxy\nno proxy accept-from\n")
    role = proxy_role()
    assert not role["operational"], role
    assert "every notification is dropped" in role["reason"], role
    pe1.vtysh_cmd("clear cnpproxy counters")
    send_from("p", "10.0.12.1", NOTIF_PORT, notification())
    expect_counters({"received": 1, "droppedNoAcceptList": 1})
    # A prefix-list that does not exist: not operational either, until
    # it is created.
    pe1.vtysh_cmd("configure terminal\nrouter cnpproxy\nproxy accept-from prefix-list LATER\n")
    role = proxy_role()
    assert not role["operational"] and "does not exist" in role["reason"], role
    pe1.vtysh_cmd("configure terminal\nip prefix-list LATER seq 5 permit 10.0.0.0/8 le 32\n")
    role = proxy_role()
    assert role["operational"] and "reason" not in role, role
    pe1.vtysh_cmd("configure terminal\nno ip prefix-list LATER\n")
    assert not proxy_role()["operational"]
    pe1.vtysh_cmd("configure terminal\nrouter cnpproxy\nproxy accept-from prefix-list CPS\n")
    role = proxy_role()
    assert role["operational"] and "reason" not in role, role


def logfile(name):
    return os.path.join(get_topogen().logdir, name)


def start_pair(tag, sender, receiver, extra_req=(), extra_resp=(), duration=8):
    """roce-emu responder on receiver, requester on sender; returns them."""
    resp = gear("receiver").popen([ROCE_EMU, "responder", "--local", receiver,
                                   "--duration", str(duration + 2), "--log",
                                   logfile(tag + "-resp.json")] + list(extra_resp))
    wait_responder(gear("receiver"), receiver)
    req = gear("sender").popen([ROCE_EMU, "requester", "--local", sender, "--remote", receiver,
                                "--rate", "20", "--recovery-us", "0", "--duration",
                                str(duration), "--log", logfile(tag + "-req.json")]
                               + list(extra_req))
    return req, resp


def events(tag, side):
    with open(logfile("{}-{}.json".format(tag, side))) as f:
        return [json.loads(line) for line in f if line.strip()]


def flows():
    return gear("pe1").vtysh_cmd("show cnpproxy flows json", isjson=True)["flows"]


def expect_flow(sender, sqp, rqp, how):
    want = {"sender": sender, "senderQp": sqp, "receiverQp": rqp, "learnedBy": how}

    def check():
        for f in flows():
            if f["sender"] == sender and f["receiverQp"] == rqp:
                return {k: f[k] for k in want}
        return None

    _, got = topotest.run_and_expect(check, want, count=30, wait=0.5)
    assert got == want, "flows: {}".format(flows())


def wait_done(proc, timeout=30):
    proc.wait(timeout=timeout)
    assert proc.returncode == 0, proc.returncode


def test_cm_learned_cnp_to_sender_ipv4():
    "CM-learned flow: a burst of notifications gives one CNP within the interval."
    pe1, sender = gear("pe1"), gear("sender")
    pe1.vtysh_cmd("configure terminal\nrouter cnpproxy\nproxy cnp min-interval 2000000\n")
    pcap = logfile("cnp-ipv4.pcap")
    cap = start_tcpdump(sender, "sender-eth0", "udp dst port 4791 and src host 10.0.1.254",
                        pcap=pcap, count=1)
    req, resp = start_pair("cm4", "10.0.1.1", "10.0.23.3")
    expect_flow("10.0.1.1", 0x11, 0x22, "cm")
    pe1.vtysh_cmd("clear cnpproxy counters")
    send_from("p", "10.0.12.1", NOTIF_PORT, notification(), count=10)
    expect_counters({"received": 10, "cnpSent": 1, "suppressedMinInterval": 9})
    wait_done(req)
    wait_done(resp)
    cap.wait(timeout=10)

    rq = [e for e in events("cm4", "req") if e["event"] == "summary"][0]
    cnps = [e for e in events("cm4", "req") if e["event"] == "cnp"]
    assert rq["cnps"] == 1 and rq["cnps_invalid"] == 0, rq
    assert cnps[0]["qpn"] == 0x11 and cnps[0]["rate_mbps"] == 10.0, cnps
    rs = [e for e in events("cm4", "resp") if e["event"] == "summary"][0]
    assert rs["rx_pkts"] == rq["tx_pkts"] and rs["psn_gaps"] == 0, (rq, rs)

    # the CNP on the wire, decoded by pnc-pkt
    rc, out = run_rc(sender, "{} decode --input pcap {}".format(PNC_PKT, pcap))
    assert rc == 0, out
    cnp = json.loads(out.strip().splitlines()[0])
    assert cnp["kind"] == "cnp" and cnp["icrc_ok"], cnp
    assert cnp["ip"]["src"] == "10.0.1.254" and cnp["ip"]["dst"] == "10.0.1.1", cnp
    assert cnp["ip"]["dscp"] == 48 and cnp["ip"]["ecn"] == 0 and cnp["ip"]["ttl"] == 64, cnp
    assert cnp["udp"]["checksum"] == 0 and cnp["udp"]["dport"] == 4791, cnp
    assert cnp["bth"]["dqpn"] == 0x11 and cnp["bth"]["pkey"] == 0xFFFF, cnp
    pe1.vtysh_cmd("configure terminal\nrouter cnpproxy\nno proxy cnp min-interval 2000000\n")
    settings = pe1.vtysh_cmd("show cnpproxy status json", isjson=True)["roles"]["proxy"]
    assert settings["settings"]["cnpMinIntervalUs"] == 50, settings


def wait_cnps_sent(n):
    """Wait until pe1 has sent n CNPs since its counters were cleared."""
    wait_for(lambda: counters()["cnpSent"] >= n, 10, "pe1's CNP number {} sent".format(n))


def test_psn_learned_cnp_to_sender_ipv6():
    "Without CM the flow is learned from ACK PSNs; IPv6 CNPs reach the sender."
    pe1 = gear("pe1")
    req, resp = start_pair("psn6", "2001:db8:1::1", "2001:db8:23::3",
                           extra_req=["--no-cm", "--peer-qpn", "0x22"],
                           extra_resp=["--no-cm", "--peer-qpn", "0x11"])
    expect_flow("2001:db8:1::1", 0x11, 0x22, "psn")
    pe1.vtysh_cmd("clear cnpproxy counters")
    for i in range(3):
        send_from("p", "2001:db8:12::1", NOTIF_PORT,
                  notification(sender="2001:db8:1::1", receiver="2001:db8:23::3"))
        # each its own CNP: the next one only after it left
        wait_cnps_sent(i + 1)
    expect_counters({"received": 3, "cnpSent": 3})
    wait_done(req)
    wait_done(resp)
    rq = [e for e in events("psn6", "req") if e["event"] == "summary"][0]
    assert rq["cnps"] == 3 and rq["cnps_invalid"] == 0, rq
    assert rq["rate_mbps"] == 2.5, rq


def test_clear_counters_zeroes_the_learner():
    "clear cnpproxy counters zeroes the XDP learner's counters too."
    pe1 = gear("pe1")
    learning = counters()["learning"]
    assert learning["xdp"]["roce"] > 0 and learning["roceEvents"] > 0, learning
    pe1.vtysh_cmd("clear cnpproxy counters")
    learning = counters()["learning"]
    # The pairs are done: no RoCEv2 packet passes the learner any more.
    assert learning["xdp"]["roce"] == 0 and learning["xdp"]["cm"] == 0, learning
    assert learning["xdp"]["samples"] == 0 and learning["roceEvents"] == 0, learning
    assert flows(), "clearing counters must not forget flows"


def event_cpu_sections(router):
    """`show event cpu`: the functions each pthread of cnpproxyd has run."""
    out = router.vtysh_cmd("show event cpu", daemon="cnpproxyd")
    sections, current = {}, None
    for line in out.splitlines():
        if line.startswith("Showing statistics for pthread "):
            current = line[len("Showing statistics for pthread "):].strip()
            sections[current] = set()
        elif current and line.strip():
            sections[current].add(line.split()[-1])
    return sections


def test_fast_path_thread_runs_the_pipeline():
    """The notifications are read and answered on the fast-path thread,
    not on the main loop: `show event cpu` says where pn_read ran."""
    pe1 = gear("pe1")
    fast = pe1.vtysh_cmd("show cnpproxy status json", isjson=True)["fastPath"]
    assert fast["thread"] == "cnpproxyd fast path" and fast["threadRunning"] is True, fast
    sections = event_cpu_sections(pe1)
    assert "pn_read" in sections.get("cnpproxyd fast path", ()), sections
    assert all("pn_read" not in fns for name, fns in sections.items()
               if name != "cnpproxyd fast path"), sections
    assert "Fast path thread: cnpproxyd fast path, running" in \
        pe1.vtysh_cmd("show cnpproxy status")


def test_stopped_main_thread_does_not_stop_cnps():
    """With cnpproxyd's main thread stopped (as a long show command or a
    configuration change holds it), notifications still become CNPs on
    the wire, and the counters have them once it runs again."""
    pe1, sender = gear("pe1"), gear("sender")
    pid = int(pe1.cmd("cat /var/run/frr/cnpproxyd.pid").strip())
    payload = notification()
    pe1.vtysh_cmd("clear cnpproxy counters")
    pcap = logfile("cnp-main-stopped.pcap")
    cap = start_tcpdump(sender, "sender-eth0", "udp dst port 4791 and src host 10.0.1.254",
                        pcap=pcap, count=3)
    freeze = freeze_thread(pe1, pid, 60)
    try:
        # Stopped: it answers no show command.
        rc, out = run_rc(pe1, "timeout 2 vtysh -d cnpproxyd -c 'show cnpproxy status'")
        assert rc == 124, (rc, out)
        for i in range(3):
            send_from("p", "10.0.12.1", NOTIF_PORT, payload)
            # the counters are out of reach: its CNP on the sender's wire
            wait_for(lambda n=i + 1: pcap_packets(pcap) >= n, 10,
                     "CNP number {} on the sender's wire".format(i + 1))
        cap.wait(timeout=10)
        # Every CNP left while the main thread was still stopped.
        rc, out = run_rc(pe1, "timeout 2 vtysh -d cnpproxyd -c 'show cnpproxy status'")
        assert rc == 124, (rc, out)
    finally:
        freeze.stdin.close()
        freeze.wait(timeout=10)
    assert cap.returncode == 0, cap.returncode
    cnps = decode_capture("sender", pcap)
    assert len(cnps) == 3 and all(c["kind"] == "cnp" and c["bth"]["dqpn"] == 0x11
                                  for c in cnps), cnps
    expect_counters({"received": 3, "cnpSent": 3})


def proxy_cfg(*lines):
    rc, out = vtysh_rc(gear("pe1"), "configure terminal", "router cnpproxy", *lines)
    assert rc == 0, out


def of_event(tag, side, name):
    return [e for e in events(tag, side) if e["event"] == name]


def decode_capture(router, pcap, *opts):
    rc, out = run_rc(gear(router), "{} decode {} --input pcap {}".format(
        PNC_PKT, " ".join(opts), pcap))
    assert rc == 0, out
    return [json.loads(line) for line in out.strip().splitlines()]


def test_long_haul_rocev2_to_sender():
    "Long-haul RoCEv2 form: severe asks Rate Reduce, level 7 Pause; the sender obeys."
    pe1, sender = gear("pe1"), gear("sender")
    proxy_cfg("proxy sender 10.0.1.0/24 format long-haul-rocev2",
              "proxy long-haul pause-time 30000", "proxy long-haul device-id pe1")
    pcap = logfile("lh-rocev2.pcap")
    cap = start_tcpdump(sender, "sender-eth0", "udp dst port 4791 and src host 10.0.1.254",
                        pcap=pcap, count=2)
    req, resp = start_pair("lh4", "10.0.1.1", "10.0.23.3", duration=4,
                           extra_req=["--long-haul", "--lh-known", "10.0.1.254"])
    expect_flow("10.0.1.1", 0x11, 0x22, "cm")
    pe1.vtysh_cmd("clear cnpproxy counters")
    send_from("p", "10.0.12.1", NOTIF_PORT, notification(cl=5))
    expect_counters({"received": 1, "longHaulRocev2Sent": 1, "cnpSent": 0})
    # the sender has acted on the Rate Reduce before the Pause comes
    wait_for(lambda: of_event("lh4", "req", "lh"), 10, "the sender's Rate Reduce")
    send_from("p", "10.0.12.1", NOTIF_PORT, notification(cl=7))
    expect_counters({"received": 2, "longHaulRocev2Sent": 2, "cnpSent": 0})
    wait_done(req)
    wait_done(resp)
    cap.wait(timeout=10)

    lh = of_event("lh4", "req", "lh")
    assert [(e["form"], e["action"], e["qpn"]) for e in lh] == [
        ("roce", "rate-reduce", 0x11), ("roce", "pause", 0x11)], lh
    # CL 5, one above severe-level: 30 + 10 percent (seed 000 5.7: stricter).
    assert lh[0]["parameter"] == 40 and lh[0]["rate_mbps"] == 12.0, lh
    assert lh[1]["parameter"] == 30000 and lh[1]["level"] == 255, lh
    # The pause shows in the rate trace: a sample at 0 Mb/s.
    assert any(e["paused"] and e["rate_mbps"] == 0 for e in of_event("lh4", "req", "stats")), \
        of_event("lh4", "req", "stats")
    summary = of_event("lh4", "req", "summary")[0]
    assert summary["lh_roce"] == 2 and summary["cnps"] == 0, summary

    # On the wire, decoded by pnc-pkt: E bit, the block, the extension.
    pkts = decode_capture("sender", pcap)
    assert [p["kind"] for p in pkts] == ["long-haul-rocev2"] * 2, pkts
    p = pkts[0]
    assert p["icrc_ok"] and p["bth"]["resv6"] & 0x20 and p["bth"]["dqpn"] == 0x11, p
    assert p["ip"]["src"] == "10.0.1.254" and p["ip"]["dscp"] == 48, p
    assert p["lh"]["action_name"] == "rate-reduce" and p["lh"]["cl"] == 5, p
    assert p["lh"]["src_qp"] == 0x11 and p["lh"]["metric_type"] == 0, p
    assert p["lh"]["ext"] and p["lh"]["ext_checksum"] and p["lh"]["device_id"] == "pe1", p


def test_long_haul_rocev2_legacy_receiver_sees_a_cnp():
    """A sender that does not know the E bit takes the Long-haul CNP for a
    CNP.  roce-emu's legacy reader checks a CNP's length strictly (seed 000
    8 warns of such RNICs): it needs the cnp-sized deviation."""
    pe1, sender = gear("pe1"), gear("sender")
    proxy_cfg("no proxy long-haul device-id",
              "proxy sender 10.0.1.0/24 format long-haul-rocev2 cnp-sized")
    run = pe1.vtysh_cmd("show running-config")
    assert " proxy sender 10.0.1.0/24 format long-haul-rocev2 cnp-sized\n" in run, run
    pcap = logfile("lh-legacy.pcap")
    cap = start_tcpdump(sender, "sender-eth0", "udp dst port 4791 and src host 10.0.1.254",
                        pcap=pcap, count=1)
    req, resp = start_pair("lhlegacy", "10.0.1.1", "10.0.23.3", duration=3)
    expect_flow("10.0.1.1", 0x11, 0x22, "cm")
    pe1.vtysh_cmd("clear cnpproxy counters")
    send_from("p", "10.0.12.1", NOTIF_PORT, notification(cl=5))
    expect_counters({"received": 1, "longHaulRocev2Sent": 1})
    wait_done(req)
    wait_done(resp)
    cap.wait(timeout=10)
    summary = of_event("lhlegacy", "req", "summary")[0]
    assert summary["cnps"] == 1 and summary["cnps_invalid"] == 0, summary
    assert summary["lh_roce"] == 0 and summary["rate_mbps"] == 10.0, summary
    # A CNP's length on the wire: 16 octets after the BTH, the last 4 zero.
    (p,) = decode_capture("sender", pcap)
    assert p["kind"] == "long-haul-rocev2" and p["len"] == 20 + 8 + 12 + 16 + 4, p
    proxy_cfg("no proxy sender 10.0.1.0/24", "no proxy long-haul pause-time")


def test_resume_after_quiet_time():
    """Seed 000 5.5.1 through the proxy: a remote congestion point has no
    Resume message, so with resume-after the proxy resumes a Long-haul
    sender it cut once the notifications stopped for that long."""
    pe1 = gear("pe1")
    proxy_cfg("proxy sender 10.0.1.0/24 format long-haul-rocev2", "proxy resume-after 300000")
    assert " proxy resume-after 300000\n" in pe1.vtysh_cmd("show running-config")
    req, resp = start_pair("resume", "10.0.1.1", "10.0.23.3", duration=4,
                           extra_req=["--long-haul", "--lh-known", "10.0.1.254",
                                      "--lh-recovery-us", "10000000"])
    try:
        expect_flow("10.0.1.1", 0x11, 0x22, "cm")
        pe1.vtysh_cmd("clear cnpproxy counters")
        send_from("p", "10.0.12.1", NOTIF_PORT, notification(cl=4))
        expect_counters({"received": 1, "longHaulRocev2Sent": 2, "resumesSent": 1})
    finally:
        wait_done(req)
        wait_done(resp)
    lh = of_event("resume", "req", "lh")
    assert [(e["action"], e["parameter"]) for e in lh] == [
        ("rate-reduce", 30), ("resume", 50)], lh
    # Half of the cut back: 20 -> 14 -> 17 Mb/s.
    assert (lh[0]["rate_mbps"], lh[1]["rate_mbps"]) == (14.0, 17.0), lh
    proxy_cfg("no proxy sender 10.0.1.0/24", "no proxy resume-after")
    assert "resume-after" not in pe1.vtysh_cmd("show running-config")


def test_long_haul_icmpv6_light_notification():
    "Long-haul ICMPv6 form to an IPv6 sender: a light notification asks a small cut."
    pe1, sender = gear("pe1"), gear("sender")
    proxy_cfg("proxy sender 2001:db8:1::/64 format long-haul-icmpv6", "proxy light-to-sender",
              "proxy long-haul light-action rate-reduce", "proxy long-haul light-reduce 25")
    pcap = logfile("lh-icmpv6.pcap")
    cap = start_tcpdump(sender, "sender-eth0", "icmp6 and ip6[40] == 200", pcap=pcap, count=1)
    req, resp = start_pair("lh6", "2001:db8:1::1", "2001:db8:23::3", duration=3,
                           extra_req=["--no-cm", "--peer-qpn", "0x22", "--long-haul",
                                      "--lh-known", "2001:db8:1::fe"],
                           extra_resp=["--no-cm", "--peer-qpn", "0x11"])
    expect_flow("2001:db8:1::1", 0x11, 0x22, "psn")
    pe1.vtysh_cmd("clear cnpproxy counters")
    send_from("p", "2001:db8:12::1", NOTIF_PORT,
              notification(cl=2, sender="2001:db8:1::1", receiver="2001:db8:23::3"))
    expect_counters({"received": 1, "longHaulIcmpv6Sent": 1, "cnpSent": 0})
    wait_done(req)
    wait_done(resp)
    cap.wait(timeout=10)
    lh = of_event("lh6", "req", "lh")
    assert [(e["form"], e["action"], e["parameter"], e["qpn"]) for e in lh] == [
        ("icmp6", "rate-reduce", 25, 0x11)], lh
    # CL 2 is seed 000's 1 + 2 * 254 / 7.
    assert lh[0]["rate_mbps"] == 15.0 and lh[0]["level"] == 73, lh
    (p,) = decode_capture("sender", pcap)
    assert p["kind"] == "long-haul-icmpv6" and p["icmp6"]["checksum_ok"], p
    assert p["ip"]["src"] == "2001:db8:1::fe" and p["ip"]["dst"] == "2001:db8:1::1", p
    assert p["lh"]["src_qp"] == 0x11 and not p["lh"]["ext"], p
    proxy_cfg("no proxy sender 2001:db8:1::/64", "no proxy long-haul light-action",
              "no proxy long-haul light-reduce", "no proxy light-to-sender")


def test_rate_advice_to_sender():
    "SCONE rate advice: the level sets the advised rate, the sender takes it."
    pe1, sender = gear("pe1"), gear("sender")
    proxy_cfg("proxy sender 10.0.1.0/24 format rate-advice", "proxy rate-advice max-rate 16",
              "proxy rate-advice opcode 201")
    pcap = logfile("rate-advice.pcap")
    cap = start_tcpdump(sender, "sender-eth0", "udp dst port 4791 and src host 10.0.1.254",
                        pcap=pcap, count=1)
    req, resp = start_pair("ra4", "10.0.1.1", "10.0.23.3", duration=3,
                           extra_req=["--rate-advice=201"])
    expect_flow("10.0.1.1", 0x11, 0x22, "cm")
    pe1.vtysh_cmd("clear cnpproxy counters")
    send_from("p", "10.0.12.1", NOTIF_PORT, notification(cl=6))
    expect_counters({"received": 1, "rateAdviceSent": 1, "cnpSent": 0})
    wait_done(req)
    wait_done(resp)
    cap.wait(timeout=10)
    ra = of_event("ra4", "req", "rate-advice")
    # 16 Mb/s * (8 - 6) / 8
    assert [(e["qpn"], e["advised_mbps"], e["rate_mbps"]) for e in ra] == [(0x11, 4, 4.0)], ra
    (p,) = decode_capture("sender", pcap, "--ra-opcode", "201")
    assert p["kind"] == "rate-advice" and p["icrc_ok"] and p["bth"]["opcode"] == 201, p
    proxy_cfg("no proxy sender 10.0.1.0/24", "no proxy rate-advice max-rate",
              "no proxy rate-advice opcode")


def test_light_notifications_follow_the_policy():
    """Light notifications reach no sender by default (seed 003 3.2.2.1);
    with light-to-sender, standard CNP senders get them paced, or none;
    severe ones unchanged."""
    pe1 = gear("pe1")
    pe1.vtysh_cmd("clear cnpproxy counters")
    send_from("p", "10.0.12.1", NOTIF_PORT, notification(cl=3))
    expect_counters({"received": 1, "suppressedLight": 1, "cnpSent": 0})
    proxy_cfg("proxy light-to-sender", "proxy light-cnp-pacing 0")
    assert " proxy light-to-sender\n" in pe1.vtysh_cmd("show running-config")
    pe1.vtysh_cmd("clear cnpproxy counters")
    send_from("p", "10.0.12.1", NOTIF_PORT, notification(cl=3))
    expect_counters({"received": 1, "suppressedLight": 1, "cnpSent": 0})
    send_from("p", "10.0.12.1", NOTIF_PORT, notification(cl=4))
    expect_counters({"received": 2, "suppressedLight": 1, "cnpSent": 1})
    # Light: one per 4 intervals of 0.5 s; 0.6 s after a CNP it is too early.
    proxy_cfg("proxy light-cnp-pacing 4", "proxy cnp min-interval 500000")
    # not a wait: the pacing under test needs one interval (0.5 s) past, not four
    time.sleep(0.6)
    send_from("p", "10.0.12.1", NOTIF_PORT, notification(cl=1))
    expect_counters({"received": 3, "suppressedMinInterval": 1, "cnpSent": 1})
    send_from("p", "10.0.12.1", NOTIF_PORT, notification(cl=6))
    expect_counters({"received": 4, "suppressedMinInterval": 1, "cnpSent": 2})
    proxy_cfg("no proxy light-cnp-pacing", "no proxy cnp min-interval", "no proxy light-to-sender")
    run = pe1.vtysh_cmd("show running-config")
    assert "light-cnp-pacing" not in run and "light-to-sender" not in run, run


def border():
    return gear("pe1").vtysh_cmd("show cnpproxy border json", isjson=True)


def set_switch_gro(switch, on):
    """GRO on (or off) on every switch port the switch's namespace holds:
    pe1-eth0's peer is a port of s1."""
    set_gro(get_topogen().gears[switch], on)


def fast_path():
    return gear("pe1").vtysh_cmd("show cnpproxy status json", isjson=True)["fastPath"]


def cut_notification(sender, receiver, rqpn="0x22", cl=5, keep=64):
    """A notification as a congestion point sends it: the invoking RC
    WRITE cut to its first keep octets."""
    inv = pkt("rc-write", "src=" + sender, "dst=" + receiver, "dqpn=" + rqpn)
    return pkt("notif", "cl={}".format(cl), "invoking=" + inv[:keep * 2], "bare=1")


def burst_to_sender(tag, first, second):
    """With a 2 s minimum interval, ten IPv4 notifications about the
    sender's flow (one CNP), then one IPv6: the counters after each are
    first and second besides those; the capture of the two CNPs at the
    sender is returned."""
    pe1, sender = gear("pe1"), gear("sender")
    proxy_cfg("proxy cnp min-interval 2000000")
    pcap = logfile(tag + ".pcap")
    cap = start_tcpdump(sender, "sender-eth0",
                        "udp dst port 4791 and (src host 10.0.1.254 or src host 2001:db8:1::fe)",
                        pcap=pcap, count=2)
    pe1.vtysh_cmd("clear cnpproxy counters")
    send_from("p", "10.0.12.1", NOTIF_PORT, cut_notification("10.0.1.1", "10.0.23.3"),
              count=10)
    expect_counters(dict({"received": 10, "cnpSent": 1, "suppressedMinInterval": 9}, **first))
    send_from("p", "2001:db8:12::1", NOTIF_PORT,
              cut_notification("2001:db8:1::1", "2001:db8:23::3"))
    expect_counters(dict({"received": 11, "cnpSent": 2}, **second))
    cap.wait(timeout=10)
    return pcap


def test_fast_path_xdp_without_transmit_falls_back():
    """fast-path xdp with no interface that can transmit XDP frames: the
    status says why, and notifications still become CNPs by the socket
    path, counted as passed to it."""
    pe1 = gear("pe1")
    set_filter(True)
    assert fast_path()["mode"] == "socket" and not fast_path()["active"], fast_path()
    proxy_cfg("proxy fast-path xdp")
    fp = fast_path()
    assert fp["mode"] == "xdp" and not fp["active"], fp
    assert fp["reason"] == "fast-path xdp: no interface can transmit XDP frames", fp
    assert fp["transmitInterfaces"] == [] and fp["flowsPublished"] >= 2, fp
    role = pe1.vtysh_cmd("show cnpproxy status json", isjson=True)["roles"]["proxy"]
    assert not role["operational"] and "XDP frames" in role["reason"], role
    pe1.vtysh_cmd("clear cnpproxy counters")
    send_from("p", "10.0.12.1", NOTIF_PORT, cut_notification("10.0.1.1", "10.0.23.3"))
    expect_counters({"received": 1, "cnpSent": 1, "cnpSentAtDriver": 0,
                     "passedToSocketPath": 1})


def test_fast_path_xdp_translates_at_driver():
    """Once the sender's interface takes XDP frames, notifications become
    CNPs in the XDP program: the codec's bytes exactly, the minimum
    interval kept, the same counters; a notification the program does
    not translate (its invoking packet complete, so its ICRC is to be
    checked) still takes the socket path, and one the kernel would not
    deliver to the socket is left to the kernel."""
    pe1 = gear("pe1")
    # Neighbours resolved: a CNP without one would go by the socket path.
    for dst in ("10.0.1.1", "2001:db8:1::1"):
        rc, out = run_rc(pe1, "ping -c 1 -W 2 {}".format(dst))
        assert rc == 0, out
    set_switch_gro("s1", True)
    _, fp = topotest.run_and_expect(lambda: fast_path()["active"], True, count=20, wait=0.5)
    fp = fast_path()
    # The switches may share a namespace: s2's ports, pe1-eth1's peer, too.
    assert fp["active"] and "pe1-eth0" in fp["transmitInterfaces"], fp
    assert "reason" not in fp, fp

    pcap = burst_to_sender("cnp-xdp", {"cnpSentAtDriver": 1, "passedToSocketPath": 0},
                           {"cnpSentAtDriver": 2, "passedToSocketPath": 0})

    # Octet for octet what the codec builds from the same fields.
    cnps = decode_capture("sender", pcap, "--hex")
    assert len(cnps) == 2, cnps
    for cnp, dst, src in ((cnps[0], "10.0.1.1", "10.0.1.254"),
                          (cnps[1], "2001:db8:1::1", "2001:db8:1::fe")):
        assert cnp["kind"] == "cnp" and cnp["icrc_ok"], cnp
        assert cnp["ip"]["src"] == src and cnp["ip"]["dst"] == dst, cnp
        assert cnp["ip"]["dscp"] == 48 and cnp["ip"]["ttl"] == 64, cnp
        assert cnp["bth"]["dqpn"] == 0x11 and cnp["bth"]["pkey"] == 0xFFFF, cnp
        fields = ["src=" + src, "dst=" + dst, "dscp=48", "dqpn=0x11",
                  "sport={}".format(cnp["udp"]["sport"])]
        if cnp["ip"]["version"] == 4:
            fields.append("id={}".format(cnp["ip"]["id"]))
        assert pkt("cnp", *fields) == cnp["hex"], (cnp, fields)
    learning = counters()["learning"]["xdp"]
    assert learning["xlate_cnp_sent"] == 2 and learning["xlate_tx_error"] == 0, learning
    state = json.loads(pe1.vtysh_cmd(
        "show yang operational-data /frr-cnpproxyd:cnpproxyd/state cnpproxyd"))
    proxy = state["frr-cnpproxyd:cnpproxyd"]["state"]["proxy"]
    assert int(proxy["cnp-sent-at-driver"]) == 2 and int(proxy["cnp-sent"]) == 2, proxy
    assert int(proxy["passed-to-socket-path"]) == 0, proxy

    # A sender moved to another format: its flows leave the program's map,
    # and the socket path builds its message.
    proxy_cfg("proxy sender 10.0.1.0/24 format long-haul-rocev2")
    pe1.vtysh_cmd("clear cnpproxy counters")
    send_from("p", "10.0.12.1", NOTIF_PORT, cut_notification("10.0.1.1", "10.0.23.3"))
    expect_counters({"received": 1, "longHaulRocev2Sent": 1, "cnpSentAtDriver": 0,
                     "passedToSocketPath": 1})
    assert counters()["learning"]["xdp"]["xlate_passed_no_flow"] == 1
    proxy_cfg("no proxy sender 10.0.1.0/24")

    # A complete invoking packet: the socket path checks its ICRC first.
    proxy_cfg("no proxy cnp min-interval")
    pe1.vtysh_cmd("clear cnpproxy counters")
    send_from("p", "10.0.12.1", NOTIF_PORT, notification())
    expect_counters({"received": 1, "cnpSent": 1, "cnpSentAtDriver": 0,
                     "passedToSocketPath": 1})
    assert counters()["learning"]["xdp"]["xlate_passed_other"] == 1

    # A UDP length beyond the datagram, IPv6 without checksum: the kernel
    # drops both before the socket, so the program answers neither.
    pe1.vtysh_cmd("clear cnpproxy counters")
    note = cut_notification("10.0.1.1", "10.0.23.3")
    send_udp("p", "10.0.12.1", NOTIF_PORT, note, len=8 + len(note) // 2 + 4)
    send_udp("p", "2001:db8:12::1", NOTIF_PORT,
             cut_notification("2001:db8:1::1", "2001:db8:23::3"), chksum=0)
    expect_counters({"received": 0, "cnpSent": 0, "cnpSentAtDriver": 0,
                     "passedToSocketPath": 2})
    assert counters()["learning"]["xdp"]["xlate_passed_other"] == 2


def test_fast_path_back_to_socket():
    """no fast-path: the program stops translating at once; the sender's
    interface losing XDP transmit takes the fast path out of service."""
    pe1 = gear("pe1")
    proxy_cfg("no proxy fast-path")
    fp = fast_path()
    assert fp == {"mode": "socket", "active": False, "flowsPublished": 0,
                  "transmitInterfaces": [], "thread": "cnpproxyd fast path",
                  "threadRunning": True}, fp
    pe1.vtysh_cmd("clear cnpproxy counters")
    send_from("p", "10.0.12.1", NOTIF_PORT, cut_notification("10.0.1.1", "10.0.23.3"))
    expect_counters({"received": 1, "cnpSent": 1, "cnpSentAtDriver": 0,
                     "passedToSocketPath": 0})
    running = pe1.vtysh_cmd("show running-config cnpproxyd")
    assert "fast-path" not in running, running

    proxy_cfg("proxy fast-path xdp")
    _, got = topotest.run_and_expect(lambda: fast_path()["active"], True, count=20, wait=0.5)
    assert got, fast_path()
    assert " proxy fast-path xdp\n" in pe1.vtysh_cmd("show running-config cnpproxyd")
    set_switch_gro("s1", False)
    _, got = topotest.run_and_expect(lambda: fast_path().get("reason"),
                                     "fast-path xdp: no interface can transmit XDP frames",
                                     count=20, wait=0.5)
    assert not fast_path()["active"], fast_path()
    # A refused value changes nothing.
    rc, out = vtysh_rc(pe1, "configure terminal", "router cnpproxy", "no proxy fast-path socket")
    assert "not socket" in out, out
    assert fast_path()["mode"] == "xdp"
    proxy_cfg("no proxy fast-path xdp")
    assert fast_path()["mode"] == "socket"
    set_filter(False)


def af_xdp():
    return fast_path().get("afXdp", {})


def af_xdp_active(count=20):
    _, got = topotest.run_and_expect(lambda: af_xdp().get("active"), True, count=count,
                                     wait=0.5)
    assert got, fast_path()


def af_xdp_sockets():
    "Interface -> its AF_XDP sockets, from show cnpproxy status."
    return {s["interface"]: s for s in af_xdp().get("sockets", [])}


SCAPY_SEND = ("import sys; from scapy.all import IP, IPv6, UDP, Raw, send; "
              "l3 = IPv6(dst=sys.argv[1]) if ':' in sys.argv[1] else IP(dst=sys.argv[1]); "
              "fields = sys.argv[4].split(',') if len(sys.argv) > 4 else []; "
              "kw = dict((k, int(v)) for k, v in (a.split('=') for a in fields)); "
              "udp = UDP(sport=40000, dport=int(sys.argv[2]), **kw); "
              "send(l3 / udp / Raw(bytes.fromhex(sys.argv[3])), verbose=False)")


def send_udp(router, dst, port, payload_hex, **udp):
    """One datagram with UDP header fields given, as no socket would send it."""
    fields = ",".join("{}={}".format(k, v) for k, v in udp.items())
    rc, out = run_rc(gear(router), "/usr/bin/python3 -c \"{}\" {} {} {} {}".format(
        SCAPY_SEND, dst, port, payload_hex, fields))
    assert rc == 0, out


SCAPY_SEND_CHAIN = ("import sys; from functools import reduce; "
                    "from scapy.all import IPv6, IPv6ExtHdrDestOpt, UDP, Raw, send; "
                    "l3 = reduce(lambda p, _: p / IPv6ExtHdrDestOpt(), "
                    "range(int(sys.argv[4])), IPv6(dst=sys.argv[1])); "
                    "send(l3 / UDP(sport=40000, dport=int(sys.argv[2])) "
                    "/ Raw(bytes.fromhex(sys.argv[3])), verbose=False)")


def send_chain(router, dst, port, payload_hex, headers):
    """One IPv6 UDP datagram behind that many destination options headers."""
    rc, out = run_rc(gear(router), "/usr/bin/python3 -c \"{}\" {} {} {} {}".format(
        SCAPY_SEND_CHAIN, dst, port, payload_hex, headers))
    assert rc == 0, out


def test_fast_path_af_xdp_receives():
    """fast-path af-xdp: the guard steers notifications into AF_XDP
    sockets, one per receive queue of each filter interface; the
    fast-path thread reads them and the CNPs are those of the socket
    path; frames the kernel would have refused (a UDP length beyond the
    datagram, IPv6 without checksum) are counted as malformed with the
    reason."""
    pe1 = gear("pe1")
    set_filter(True)
    proxy_cfg("proxy fast-path af-xdp")
    af_xdp_active()
    fp = fast_path()
    assert fp["mode"] == "af-xdp" and fp["afXdp"]["busyPoll"] is False, fp
    socks = {s["interface"]: s for s in fp["afXdp"]["sockets"]}
    assert set(socks) == {"pe1-eth0", "pe1-eth1"}, fp
    for s in socks.values():
        assert s["queues"] >= 1 and s["mode"] in ("copy", "zero-copy"), fp
        # 2048 buffers to receive per queue, 256 to transmit on queue 0
        assert s["umemBytes"] == (s["queues"] * 2048 + 256) * 2048, fp
    role = pe1.vtysh_cmd("show cnpproxy status json", isjson=True)["roles"]["proxy"]
    assert role["operational"] and "reason" not in role, role
    assert " proxy fast-path af-xdp\n" in pe1.vtysh_cmd("show running-config cnpproxyd")
    text = pe1.vtysh_cmd("show cnpproxy status")
    assert "Fast path: af-xdp, active" in text and "pe1-eth1: " in text, text

    pcap = burst_to_sender("cnp-af-xdp", {"receivedAfXdp": 10, "droppedAfXdpRing": 0},
                           {"receivedAfXdp": 11})
    cnps = decode_capture("sender", pcap)
    assert len(cnps) == 2, cnps
    for cnp, dst in zip(cnps, ("10.0.1.1", "2001:db8:1::1")):
        assert cnp["kind"] == "cnp" and cnp["icrc_ok"], cnp
        assert cnp["ip"]["dst"] == dst and cnp["bth"]["dqpn"] == 0x11, cnp
    xdp = counters()["learning"]["xdp"]
    assert xdp["xsk_steered"] == 11 and xdp["xsk_passed"] == 0, xdp
    # Read on the fast-path thread, as the UDP sockets are.
    sections = event_cpu_sections(pe1)
    assert "xk_read" in sections.get("cnpproxyd fast path", ()), sections
    state = json.loads(pe1.vtysh_cmd(
        "show yang operational-data /frr-cnpproxyd:cnpproxyd/state cnpproxyd"))
    proxy = state["frr-cnpproxyd:cnpproxyd"]["state"]["proxy"]
    assert int(proxy["received-af-xdp"]) == 11, proxy
    assert int(proxy["dropped-af-xdp-ring"]) == 0, proxy

    # What the kernel would have dropped is counted, with the reason: a
    # UDP length beyond the datagram, an IPv6 datagram without checksum.
    proxy_cfg("no proxy cnp min-interval")
    pe1.vtysh_cmd("clear cnpproxy counters")
    note = cut_notification("10.0.1.1", "10.0.23.3")
    send_udp("p", "10.0.12.1", NOTIF_PORT, note, len=8 + len(note) // 2 + 4)
    send_udp("p", "2001:db8:12::1", NOTIF_PORT,
             cut_notification("2001:db8:1::1", "2001:db8:23::3"), chksum=0)
    expect_counters({"received": 2, "receivedAfXdp": 2, "droppedMalformed": 2, "cnpSent": 0})
    assert counters()["malformedByReason"] == {"udp-bad-length": 1, "udp-bad-checksum": 1}, \
        counters()


def test_fast_path_af_xdp_transmits():
    """The CNPs leave as frames on the AF_XDP socket of the interface
    toward the sender (pe1-eth0's queue 0, which receives too), from its
    MAC address to the sender's as pe1's neighbour table has it.  The
    first to a sender takes the raw socket while its next hop is looked
    up; the next ones AF_XDP.  The sender gets the same CNPs either way
    (ICRC valid, its QP)."""
    pe1, sender = gear("pe1"), gear("sender")
    set_filter(True)
    # From scratch: leaving af-xdp forgets the next hops.
    closed = {i: xsk_closed(i) for i in ("pe1-eth0", "pe1-eth1")}
    proxy_cfg("no proxy fast-path", "no proxy fast-path busy-poll", "no proxy cnp min-interval")
    # The thread closes the sockets on its own time: wait for that before
    # af-xdp is back (one request would otherwise cover both commits).
    for ifname, before in closed.items():
        wait_for(lambda i=ifname, b=before: xsk_closed(i) > b, 10,
                 "pe1's AF_XDP sockets of {} closed".format(ifname))
    proxy_cfg("proxy fast-path af-xdp")
    af_xdp_active()
    assert af_xdp()["nextHops"] == 0, af_xdp()
    # The sender in pe1's neighbour table: its next hop is known at once.
    rc, out = run_rc(pe1, "ping -c 1 -W 2 10.0.1.1")
    assert rc == 0, out
    pe1.vtysh_cmd("clear cnpproxy counters")
    pcap = logfile("cnp-af-xdp-tx.pcap")
    cap = start_tcpdump(sender, "sender-eth0", "udp dst port 4791 and src host 10.0.1.254",
                        pcap=pcap, count=4)
    note = cut_notification("10.0.1.1", "10.0.23.3")
    send_from("p", "10.0.12.1", NOTIF_PORT, note)
    expect_counters({"cnpSent": 1})
    _, got = topotest.run_and_expect(lambda: af_xdp().get("nextHops", 0) >= 1, True,
                                     count=20, wait=0.5)
    assert got, af_xdp()
    for i in range(3):
        send_from("p", "10.0.12.1", NOTIF_PORT, note)
        wait_cnps_sent(i + 2)
    expect_counters({"received": 4, "cnpSent": 4, "sentAfXdp": 3, "cnpSendError": 0})
    cap.wait(timeout=10)
    cnps = decode_capture("sender", pcap)
    assert len(cnps) == 4, cnps
    for cnp in cnps:
        assert cnp["kind"] == "cnp" and cnp["icrc_ok"], cnp
        assert cnp["ip"]["dst"] == "10.0.1.1" and cnp["bth"]["dqpn"] == 0x11, cnp
    mac = {"pe1": pe1.cmd_raises("cat /sys/class/net/pe1-eth0/address").strip(),
           "sender": sender.cmd_raises("cat /sys/class/net/sender-eth0/address").strip()}
    assert sender_frames(pcap) == [(mac["pe1"], mac["sender"])] * 4, mac
    state = json.loads(pe1.vtysh_cmd(
        "show yang operational-data /frr-cnpproxyd:cnpproxyd/state cnpproxyd"))
    proxy = state["frr-cnpproxyd:cnpproxyd"]["state"]["proxy"]
    assert int(proxy["sent-af-xdp"]) == 3, proxy


def xsk_closed(ifname):
    """How often pe1's cnpproxyd log says it closed ifname's AF_XDP sockets
    (debug cnpproxy proxy is on)."""
    with open(os.path.join(get_topogen().logdir, "pe1", "cnpproxyd.log")) as log:
        return log.read().count("proxy: AF_XDP sockets of {} closed".format(ifname))


def sender_frames(pcap):
    "(eth.src, eth.dst) of each frame of a capture at the sender, by tshark."
    rc, out = run_rc(gear("sender"), "tshark -r {} -T fields -e eth.src -e eth.dst".format(pcap))
    assert rc == 0, out
    # tshark's warning about root comes along: the lines with fields only
    return [tuple(line.split("\t")) for line in out.splitlines() if "\t" in line]


def test_fast_path_af_xdp_next_hop_refreshed():
    """A cached next hop is used for a second, then looked up again while
    still in use: once the neighbour's MAC address changed in pe1's table,
    the CNPs go to the new one."""
    pe1, sender = gear("pe1"), gear("sender")
    old = sender.cmd_raises("cat /sys/class/net/sender-eth0/address").strip()
    new = "02:00:5e:00:01:01"
    pe1_mac = pe1.cmd_raises("cat /sys/class/net/pe1-eth0/address").strip()
    note = cut_notification("10.0.1.1", "10.0.23.3")
    pcap = logfile("cnp-af-xdp-refresh.pcap")
    sender.cmd_raises("ip link set dev sender-eth0 address " + new)
    try:
        pe1.cmd_raises("ip neigh replace 10.0.1.1 lladdr {} dev pe1-eth0 nud reachable".format(new))
        pe1.vtysh_cmd("clear cnpproxy counters")
        cap = start_tcpdump(sender, "sender-eth0", "udp dst port 4791 and src host 10.0.1.254",
                            pcap=pcap, count=2)
        # The next hop cached by the test before is to be older than a
        # second: the next CNP still takes it and asks for it again.
        time.sleep(1.5)  # not a wait: the cache entry's age is what is tested
        resolved = af_xdp()["nextHopResolutions"]
        send_from("p", "10.0.12.1", NOTIF_PORT, note)
        wait_for(lambda: af_xdp()["nextHopResolutions"] > resolved, 10,
                 "pe1 looking the sender's next hop up again")
        send_from("p", "10.0.12.1", NOTIF_PORT, note)
        expect_counters({"cnpSent": 2, "sentAfXdp": 2, "cnpSendError": 0})
        cap.wait(timeout=10)
        assert sender_frames(pcap)[-1] == (pe1_mac, new), sender_frames(pcap)
    finally:
        sender.cmd_raises("ip link set dev sender-eth0 address " + old)
        pe1.cmd_raises("ip neigh replace 10.0.1.1 lladdr {} dev pe1-eth0 nud reachable".format(old))


def test_fast_path_af_xdp_transmit_link_down():
    """A CNP queued while the interface toward the sender is down stays
    on the socket's ring: status says it waits and why the kernel refused
    (counted), it is kicked again, less and less often, and it leaves when
    the link is back.  One still waiting when its socket closes counts as
    lost."""
    pe1, sender = gear("pe1"), gear("sender")
    note = cut_notification("10.0.1.1", "10.0.23.3")

    def cnp_on_af_xdp():
        "One CNP for the notification; whether it left on the AF_XDP socket."
        pe1.vtysh_cmd("clear cnpproxy counters")
        send_from("p", "10.0.12.1", NOTIF_PORT, note)
        got = wait_for(lambda: counters()["cnpSent"] >= 1 and counters(), 10,
                       "pe1's CNP for the cut notification")
        return got["sentAfXdp"] == 1

    def down_and_queue():
        # A next hop fresh in the cache: the CNP is queued whatever the link.
        rc, out = run_rc(pe1, "ping -c 1 -W 2 10.0.1.1")
        assert rc == 0, out
        # A CNP to a next hop not cached yet takes the raw socket and has it
        # looked up: on a busy machine the lookup may not be back in time.
        wait_for(cnp_on_af_xdp, 30, "a CNP on pe1's AF_XDP socket (the sender's next hop cached)",
                 interval=0.5)
        pe1.vtysh_cmd("clear cnpproxy counters")
        pe1.cmd_raises("ip link set dev pe1-eth0 down")
        send_from("p", "10.0.12.1", NOTIF_PORT, note)
        expect_counters({"cnpSent": 1, "sentAfXdp": 1})
        _, got = topotest.run_and_expect(lambda: af_xdp().get("txWaiting"), 1, count=20,
                                         wait=0.5)
        assert got == 1, af_xdp()

    pcap = logfile("cnp-af-xdp-link-down.pcap")
    cap = None
    try:
        down_and_queue()
        # from here: the CNP that waits for the link (those before are not counted)
        cap = start_tcpdump(sender, "sender-eth0", "udp dst port 4791 and src host 10.0.1.254",
                            pcap=pcap, count=1)
        errors, since = af_xdp()["txKickErrors"], time.monotonic()
        assert errors >= 1, af_xdp()
        assert af_xdp()["txLastKickError"] == "Network is down", af_xdp()
        assert "1 frames waiting for the kernel" in pe1.vtysh_cmd("show cnpproxy status")
        # kicked again while down, backing off: more refusals, not hundreds a second
        time.sleep(2)  # not a wait: the window the refusals are counted in
        later, window = af_xdp()["txKickErrors"], time.monotonic() - since
        # 20 in 2 s, the window as long as it really was on a busy machine
        assert errors < later < errors + 10 * max(window, 2), (window, af_xdp())
    finally:
        pe1.cmd_raises("ip link set dev pe1-eth0 up")
    _, got = topotest.run_and_expect(lambda: af_xdp().get("txWaiting"), 0, count=20, wait=0.5)
    assert got == 0, af_xdp()
    cap.wait(timeout=10)
    cnps = decode_capture("sender", pcap)
    assert len(cnps) == 1 and all(c["kind"] == "cnp" and c["icrc_ok"] for c in cnps), cnps
    assert af_xdp()["txLost"] == 0, af_xdp()

    # Still on the ring when af-xdp is turned off: lost, and said so.
    try:
        down_and_queue()
        proxy_cfg("no proxy fast-path")
        _, got = topotest.run_and_expect(lambda: af_xdp().get("active", False), False,
                                         count=20, wait=0.5)
        assert got is False, fast_path()
    finally:
        pe1.cmd_raises("ip link set dev pe1-eth0 up")
    proxy_cfg("proxy fast-path af-xdp")
    af_xdp_active()
    assert af_xdp()["txLost"] == 1, af_xdp()
    assert af_xdp()["txWaiting"] == 0, af_xdp()


def test_fast_path_af_xdp_busy_poll():
    """busy-poll: the sockets are reopened for busy polling and the
    thread spins on them; CNPs as before; `no` returns to interrupts."""
    pe1 = gear("pe1")
    proxy_cfg("proxy fast-path busy-poll")
    af_xdp_active()
    assert af_xdp()["busyPoll"] is True, fast_path()
    assert " proxy fast-path busy-poll\n" in pe1.vtysh_cmd("show running-config cnpproxyd")
    pe1.vtysh_cmd("clear cnpproxy counters")
    for i in range(3):
        send_from("p", "10.0.12.1", NOTIF_PORT, cut_notification("10.0.1.1", "10.0.23.3"))
        wait_cnps_sent(i + 1)
    expect_counters({"received": 3, "receivedAfXdp": 3, "cnpSent": 3})
    assert "xk_busy" in event_cpu_sections(pe1).get("cnpproxyd fast path", ())
    proxy_cfg("no proxy fast-path busy-poll")
    af_xdp_active()
    assert af_xdp()["busyPoll"] is False, fast_path()
    assert "busy-poll" not in pe1.vtysh_cmd("show running-config cnpproxyd")


def set_p_link_mtu(mtu):
    """The MTU of the pe1-p link: both ends and the switch's ports."""
    gear("p").cmd_raises("ip link set dev p-eth0 mtu {}".format(mtu))
    gear("pe1").cmd_raises("ip link set dev pe1-eth1 mtu {}".format(mtu))
    get_topogen().gears["s2"].cmd_raises(
        "for p in /sys/class/net/*/brport; do d=${p%/brport}; "
        "ip link set dev ${d##*/} mtu " + str(mtu) + " || exit 1; done")


def test_fast_path_af_xdp_steers_what_fits():
    """A notification longer than an AF_XDP buffer holds (1792 octets of
    frame) is not steered, where the socket would drop it: it takes the
    UDP socket.  A malformed datagram to the flow-label port is counted
    there, as the socket path counts it."""
    pe1 = gear("pe1")
    set_filter(True)
    proxy_cfg("proxy fast-path af-xdp", "no proxy cnp min-interval")
    af_xdp_active()
    set_p_link_mtu(2000)
    try:
        pe1.vtysh_cmd("clear cnpproxy counters")
        note = cut_notification("10.0.1.1", "10.0.23.3")
        # 14 + 20 + 8 + payload: one octet over the buffer, then one under.
        for frame in (1793, 1792):
            pad = frame - 14 - 20 - 8 - len(note) // 2
            send_udp("p", "10.0.12.1", NOTIF_PORT, note + "00" * pad)
        expect_counters({"received": 2, "receivedAfXdp": 1, "droppedAfXdpRing": 0})
        xdp = counters()["learning"]["xdp"]
        assert xdp["xsk_steered"] == 1 and xdp["xsk_passed"] == 1, xdp
    finally:
        set_p_link_mtu(1500)

    pe1.vtysh_cmd("clear cnpproxy counters")
    send_udp("p", "2001:db8:12::1", FCN_PORT, "00" * 16, chksum=0)
    expect_counters({"received": 0, "receivedFlowLabel": 1, "receivedAfXdp": 1,
                     "droppedMalformed": 1})
    assert counters()["malformedByReason"] == {"udp-bad-checksum": 1}, counters()


def test_fast_path_af_xdp_queue_faults():
    """What an operator does to an interface under the sockets.  A queue
    another process's AF_XDP socket holds: none on that interface (its
    notifications take the UDP sockets), status names the queue and the
    error, and the sockets are bound once it is free.  The number of
    receive queues changed (ethtool -L): followed.  The interface
    deleted: its sockets go, status says so; re-created: back."""
    pe1 = gear("pe1")

    def make():
        pe1.cmd_raises("ip link add xq0 numtxqueues 4 numrxqueues 4 type veth peer name xq1 "
                       "numtxqueues 4 numrxqueues 4")
        pe1.cmd_raises("ip link set dev xq0 up")
        pe1.cmd_raises("ip link set dev xq1 up")

    def xq0_queues():
        return af_xdp_sockets().get("xq0", {}).get("queues")

    make()
    # Two of four queues: more come later, fewer cannot while sockets
    # are bound to them (the kernel refuses it).
    pe1.cmd_raises("ethtool -L xq1 rx 2 tx 2")
    pe1.cmd_raises("ethtool -L xq0 rx 2 tx 2")
    holder = pe1.popen([built("tools/reflect/pnc-reflect"), "hold", "--dev", "xq0",
                        "--queue", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True)
    try:
        assert holder.stdout.readline() == "bound\n", holder.stderr.read()
        proxy_cfg("proxy filter-interface xq0")
        busy = "fast-path af-xdp: xq0 queue 1: socket bind: Device or resource busy"
        _, got = topotest.run_and_expect(lambda: af_xdp().get("reason"), busy, count=20,
                                         wait=0.5)
        assert got == busy, fast_path()
        socks = af_xdp_sockets()
        assert set(socks) == {"pe1-eth0", "pe1-eth1"}, socks
        role = pe1.vtysh_cmd("show cnpproxy status json", isjson=True)["roles"]["proxy"]
        assert not role["operational"] and role["reason"] == busy, role
        # The other interfaces keep theirs.
        pe1.vtysh_cmd("clear cnpproxy counters")
        send_from("p", "10.0.12.1", NOTIF_PORT, cut_notification("10.0.1.1", "10.0.23.3"))
        expect_counters({"received": 1, "receivedAfXdp": 1, "cnpSent": 1})
    finally:
        holder.terminate()
        holder.communicate(timeout=10)
    # Checked again every 5 s.
    af_xdp_active(count=30)
    assert xq0_queues() == 2, fast_path()

    # Queues added: sockets on them too.
    pe1.cmd_raises("ethtool -L xq0 rx 4 tx 4")
    pe1.cmd_raises("ethtool -L xq1 rx 4 tx 4")
    _, got = topotest.run_and_expect(xq0_queues, 4, count=30, wait=0.5)
    assert got == 4, fast_path()
    assert af_xdp()["active"], fast_path()
    with open(os.path.join(get_topogen().logdir, "pe1", "cnpproxyd.log")) as log:
        assert "xq0 has 4 receive queues now" in log.read()

    pe1.cmd_raises("ip link del xq0")
    _, got = topotest.run_and_expect(lambda: "xq0" in af_xdp_sockets(), False, count=20,
                                     wait=0.5)
    assert not got, fast_path()
    role = pe1.vtysh_cmd("show cnpproxy status json", isjson=True)["roles"]["proxy"]
    assert not role["operational"] and role["reason"] == "filtering on xq0: no such interface", \
        role
    make()
    _, got = topotest.run_and_expect(xq0_queues, 4, count=20, wait=0.5)
    assert got == 4, fast_path()
    af_xdp_active()
    proxy_cfg("no proxy filter-interface xq0")
    _, got = topotest.run_and_expect(lambda: "xq0" in af_xdp_sockets(), False, count=20,
                                     wait=0.5)
    assert not got, fast_path()
    pe1.cmd_raises("ip link del xq0")


def test_fast_path_af_xdp_falls_back():
    """Without a filter interface there is no socket to steer to: status
    says why and the UDP sockets receive; with it back, AF_XDP again;
    `no proxy fast-path` closes the sockets."""
    pe1 = gear("pe1")
    proxy_cfg("no proxy filter-interface pe1-eth0", "no proxy filter-interface pe1-eth1")
    fp = fast_path()
    assert not fp["afXdp"]["active"] and fp["afXdp"]["sockets"] == [], fp
    assert fp["afXdp"]["reason"] == "fast-path af-xdp: no filter-interface to receive on", fp
    role = pe1.vtysh_cmd("show cnpproxy status json", isjson=True)["roles"]["proxy"]
    assert not role["operational"] and "no filter-interface" in role["reason"], role
    pe1.vtysh_cmd("clear cnpproxy counters")
    send_from("p", "10.0.12.1", NOTIF_PORT, cut_notification("10.0.1.1", "10.0.23.3"))
    expect_counters({"received": 1, "receivedAfXdp": 0, "cnpSent": 1})

    set_filter(True)
    af_xdp_active()
    send_from("p", "10.0.12.1", NOTIF_PORT, cut_notification("10.0.1.1", "10.0.23.3"))
    expect_counters({"received": 2, "receivedAfXdp": 1, "cnpSent": 2})

    proxy_cfg("no proxy fast-path af-xdp")
    fp = fast_path()
    assert fp["mode"] == "socket" and "afXdp" not in fp, fp
    send_from("p", "10.0.12.1", NOTIF_PORT, cut_notification("10.0.1.1", "10.0.23.3"))
    expect_counters({"received": 3, "receivedAfXdp": 1, "cnpSent": 3})
    assert counters()["learning"]["xdp"]["xsk_steered"] == 1
    set_filter(False)


def test_border_interface_drops_notifications():
    "On a border interface both notification ports are dropped arriving, counted; nothing else."
    pe1 = gear("pe1")
    proxy_cfg("border-interface pe1-eth0")
    got = border()["interfaces"]["pe1-eth0"]
    assert got["state"] == "filtering" and got["mode"] == "tcx", got
    status = pe1.vtysh_cmd("show cnpproxy status json", isjson=True)
    assert status["border"] == {"interfaces": 1, "filtering": 1}, status
    pe1.vtysh_cmd("clear cnpproxy counters")
    assert border()["interfaces"]["pe1-eth0"]["droppedNotifications"] == 0
    # To pe1 itself, and through pe1 to the receiver: dropped alike.
    send_from("sender", "10.0.1.254", NOTIF_PORT, notification(), count=3)
    send_from("sender", "10.0.23.3", NOTIF_PORT, notification(), count=1)
    send_from("sender", "10.0.1.254", FCN_PORT, pkt("fcn", "bare=1"), count=2)
    _, tentative = topotest.run_and_expect(
        lambda: gear("sender").cmd("ip -6 addr show tentative").strip(), "", count=20, wait=0.5)
    send_from("sender", "2001:db8:1::fe", NOTIF_PORT, notification(), count=1)

    def dropped():
        got = border()["interfaces"]["pe1-eth0"]
        return (got["droppedNotifications"], got["droppedFlowLabel"])

    _, got = topotest.run_and_expect(dropped, (5, 2), count=20, wait=0.5)
    assert got == (5, 2), border()
    # Counted as arriving, not leaving (cnpproxyd_cp tests the way out).
    assert border()["interfaces"]["pe1-eth0"]["droppedNotificationsOut"] == 0, border()
    # A longer IPv6 header chain than the filter walks: dropped, whatever it holds.
    send_chain("sender", "2001:db8:1::fe", 9, "00", 9)
    _, got = topotest.run_and_expect(
        lambda: border()["interfaces"]["pe1-eth0"]["droppedHeaderChain"], 1, count=20, wait=0.5)
    assert got == 1 and dropped() == (5, 2), border()
    assert counters()["received"] == 0 and counters()["receivedFlowLabel"] == 0, counters()
    # Other traffic passes, and notifications from inside still arrive.
    rc, out = run_rc(gear("sender"), "ping -c 1 -W 2 10.0.1.254")
    assert rc == 0, out
    send_from("p", "10.0.12.1", NOTIF_PORT, notification(rqpn="0x777"))
    expect_counters({"received": 1, "droppedUnknownFlow": 1})

    # An interface deleted and re-created: the status says so, then filters again
    # (a veth: this kernel has no dummy interfaces).
    pe1.cmd_raises("ip link add bdr0 type veth peer name bdr1 && ip link set bdr0 up")
    proxy_cfg("border-interface bdr0")
    _, got = topotest.run_and_expect(lambda: border()["interfaces"]["bdr0"]["state"],
                                     "filtering", count=20, wait=0.5)
    assert got == "filtering", border()
    pe1.cmd_raises("ip link del bdr0")
    _, got = topotest.run_and_expect(
        lambda: pe1.vtysh_cmd("show cnpproxy status json", isjson=True)["border"],
        {"interfaces": 2, "filtering": 1, "reason": "border filter on bdr0: no such interface"},
        count=20, wait=0.5)
    assert got["filtering"] == 1 and "no such interface" in got["reason"], got
    pe1.cmd_raises("ip link add bdr0 type veth peer name bdr1 && ip link set bdr0 up")
    _, got = topotest.run_and_expect(lambda: border()["interfaces"]["bdr0"]["state"],
                                     "filtering", count=20, wait=0.5)
    assert got == "filtering", border()

    # "no" of what is not configured is refused; removing the filter lets them in again.
    rc, out = vtysh_rc(pe1, "configure terminal", "router cnpproxy", "no border-interface eth9")
    assert rc != 0 and "not a border interface" in out, out
    proxy_cfg("no border-interface bdr0", "no border-interface pe1-eth0")
    pe1.cmd_raises("ip link del bdr0")
    assert border()["interfaces"] == {}, border()
    assert "border" not in pe1.vtysh_cmd("show cnpproxy status json", isjson=True)
    assert "border-interface" not in pe1.vtysh_cmd("show running-config")
    pe1.vtysh_cmd("clear cnpproxy counters")
    send_from("sender", "10.0.1.254", NOTIF_PORT, notification())
    expect_counters({"received": 1, "droppedSourceDenied": 1})


# An IPv4 datagram of 20 octets of UDP payload, its TOS given: the tunnelled packet.
INNER4 = ("import socket,struct,sys; "
          "tos = int(sys.argv[1]); src = socket.inet_aton('10.0.23.3'); "
          "dst = socket.inet_aton('10.0.1.1'); "
          "udp = struct.pack('!HHHH', 40000, 9999, 28, 0) + bytes(20); "
          "h = struct.pack('!BBHHHBBH4s4s', 0x45, tos, 48, 1, 0x4000, 64, 17, 0, src, dst); "
          "s = sum(struct.unpack('!10H', h)); s = (s & 0xffff) + (s >> 16); "
          "h = h[:10] + struct.pack('!H', ~s & 0xffff) + h[12:]; "
          "o = socket.socket(socket.AF_INET6, socket.SOCK_RAW, 4); "
          "o.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_TCLASS, int(sys.argv[2])); "
          "o.sendto(h + udp, ('2001:db8:ee::1', 0))")


def test_tunnel_egress_modified_pipe():
    "tunnel-egress: outer ECT(1) stays outside, outer CE is copied in, CE onto Not-ECT dropped."
    pe1, p, sender = gear("pe1"), gear("p"), gear("sender")
    p.cmd_raises("ip -6 route replace 2001:db8:ee::/64 via 2001:db8:12::1")
    proxy_cfg("tunnel-egress interface pe1-eth1")
    te = pe1.vtysh_cmd("show cnpproxy tunnel-egress json", isjson=True)
    assert not te["operational"] and "no tunnel-egress sid" in te["reason"], te
    proxy_cfg("tunnel-egress sid 2001:db8:ee::1")
    _, te = topotest.run_and_expect(
        lambda: pe1.vtysh_cmd("show cnpproxy tunnel-egress json", isjson=True)["interfaces"],
        {"pe1-eth1": "decapsulating"}, count=20, wait=0.5)
    assert te == {"pe1-eth1": "decapsulating"}, te
    pe1.vtysh_cmd("clear cnpproxy counters")
    cap = start_tcpdump(sender, "sender-eth0", "udp dst port 9999", count=2, opts=["-v", "-l"],
                        stdout=subprocess.PIPE, universal_newlines=True)

    def handled():
        c = pe1.vtysh_cmd("show cnpproxy tunnel-egress json", isjson=True)["counters"]
        return c["decapsulated"] + c["droppedCeNotEct"]

    # (inner TOS, outer traffic class): ECT(0) under ECT(1), ECT(0) under CE, Not-ECT under CE
    for i, (inner, outer) in enumerate(((2, 1), (2, 3), (0, 3))):
        rc, out = run_rc(p, "/usr/bin/python3 -c \"{}\" {} {}".format(INNER4, inner, outer))
        assert rc == 0, out
        # in order: each decapsulated or dropped before the next
        wait_for(lambda n=i + 1: handled() >= n, 10,
                 "pe1's tunnel egress handling packet {}".format(i + 1))
    out, _ = cap.communicate(timeout=10)
    tos = [line.split("tos ")[1].split(",")[0] for line in out.splitlines() if "tos " in line]
    # The ECT(1) mark was not copied inward (RFC 6040 would make it 0x1); CE was.
    assert tos == ["0x2", "0x3"], out
    c = pe1.vtysh_cmd("show cnpproxy tunnel-egress json", isjson=True)["counters"]
    assert (c["decapsulated"], c["ceCopiedInward"], c["droppedCeNotEct"]) == (2, 1, 1), c
    status = pe1.vtysh_cmd("show cnpproxy status json", isjson=True)
    assert status["tunnelEgress"] == {"interfaces": 1, "decapsulating": 1}, status
    rc, out = vtysh_rc(pe1, "configure terminal", "router cnpproxy",
                       "no tunnel-egress sid 2001:db8:ee::9")
    assert rc != 0 and "not configured" in out, out
    proxy_cfg("no tunnel-egress sid 2001:db8:ee::1", "no tunnel-egress interface pe1-eth1")
    assert "tunnelEgress" not in pe1.vtysh_cmd("show cnpproxy status json", isjson=True)
    assert "tunnel-egress" not in pe1.vtysh_cmd("show running-config")
    p.cmd_raises("ip -6 route del 2001:db8:ee::/64")


def test_flows_survive_sigkill():
    """cnpproxyd SIGKILLed with learned flows: the restarted daemon reads them
    back from its state file, and the first notification gets its CNP
    without any new learning (no RoCEv2 traffic runs now)."""
    pe1 = gear("pe1")

    def flow_keys():
        return sorted((f["sender"], f["senderQp"], f["receiverQp"], f["learnedBy"])
                      for f in flows())

    before = flow_keys()
    assert any(k[3] == "cm" for k in before), before
    # what the restarted daemon is to read back (written every 2 s while the table changes)
    wait_for(lambda: saved_flows(pe1) == sorted(k[:3] for k in before), 10,
             "pe1's flow state file holding {}".format(before))
    rc, out = run_rc(pe1, "kill -9 $(cat /var/run/frr/cnpproxyd.pid)")
    assert rc == 0, out
    pe1.startDaemons(["cnpproxyd"])
    rc, out = run_rc(pe1, "vtysh -b -d cnpproxyd")
    assert rc == 0, out
    _, got = topotest.run_and_expect(flow_keys, before, count=20, wait=0.5)
    assert got == before, (got, before)
    kept = pe1.vtysh_cmd("show cnpproxy counters json", isjson=True)["flowStateFile"]
    assert kept["restored"] == len(before) and "restoreError" not in kept, kept
    send_from("p", "10.0.12.1", NOTIF_PORT, notification())
    expect_counters({"received": 1, "cnpSent": 1})


def test_filter_goes_with_a_killed_daemon():
    """cnpproxyd SIGKILLed while filtering: its XDP links go with it, so
    no program is left judging with tables nobody keeps; the restarted
    daemon attaches what its configuration says."""
    pe1 = gear("pe1")
    set_filter(True)
    rc, out = run_rc(pe1, "kill -9 $(cat /var/run/frr/cnpproxyd.pid)")
    assert rc == 0, out
    _, attached = topotest.run_and_expect(
        lambda: "xdp" in pe1.cmd("ip link show pe1-eth1"), False, count=20, wait=0.5)
    assert not attached, pe1.cmd("ip link show pe1-eth1")
    pe1.startDaemons(["cnpproxyd"])
    rc, out = run_rc(pe1, "vtysh -b -d cnpproxyd")
    assert rc == 0, out
    # frr.conf learns on both interfaces and filters on none
    _, got = topotest.run_and_expect(stages, {"pe1-eth0": "learn", "pe1-eth1": "learn"},
                                     count=20, wait=0.5)
    assert got == {"pe1-eth0": "learn", "pe1-eth1": "learn"}, got
    set_filter(True)
    set_filter(False)


def restart_cnpproxyd(router, before=""):
    """SIGKILL cnpproxyd, run a shell command, start it with its configuration."""
    rc, out = run_rc(router, "kill -9 $(cat /var/run/frr/cnpproxyd.pid)")
    assert rc == 0, out
    if before:
        rc, out = run_rc(router, before)
        assert rc == 0, out
    router.startDaemons(["cnpproxyd"])
    rc, out = run_rc(router, "vtysh -b -d cnpproxyd")
    assert rc == 0, out


def test_old_flow_file_not_read():
    """A flow file older than the flows' idle timeout (left by a role removed
    while the daemon was down, say) is not read; a fresh one is."""
    pe1 = gear("pe1")
    state = "/var/run/frr/cnpproxyd-flows.state"

    def flow_keys():
        return sorted((f["sender"], f["senderQp"], f["receiverQp"]) for f in flows())

    before = flow_keys()
    assert before, "no flows learned before"
    # the file to age holds the flows (written every 2 s while the table changes)
    wait_for(lambda: saved_flows(pe1) == before, 10,
             "pe1's flow state file holding {}".format(before))
    restart_cnpproxyd(pe1, "cp -p {0} {0}.keep && touch -d '-10 minutes' {0}".format(state))

    def file_state():
        return pe1.vtysh_cmd("show cnpproxy counters json", isjson=True)["flowStateFile"]

    _, got = topotest.run_and_expect(lambda: file_state().get("restoreError"),
                                     "older than what it holds can live", count=20, wait=0.5)
    assert got == "older than what it holds can live", file_state()
    assert file_state()["restored"] == 0 and flows() == [], (file_state(), flows())

    # The same flows, written just now, come back.
    restart_cnpproxyd(pe1, "mv {0}.keep {0}".format(state))
    _, got = topotest.run_and_expect(flow_keys, before, count=20, wait=0.5)
    assert got == before, (got, before)
    assert "restoreError" not in file_state(), file_state()


def flow_state_file(flows):
    """A flow state file (proxy/flows_state.h, in state/frame.h's frame) of
    PSN-learned IPv4 flows (sender, receiver, sender QPN, receiver QPN),
    last seen now (a time past the daemon's clock is taken as now)."""
    recs = b""
    for sender, receiver, sqpn, rqpn in flows:
        recs += struct.pack("!BBH16s16sIIHHIIIQQQ", 4, 1, 0xffff,
                            ipaddress.ip_address(sender).packed,
                            ipaddress.ip_address(receiver).packed, sqpn, rqpn, 49152, 0, 0,
                            0, 0, 1 << 62, 1 << 62, 1)
    return struct.pack("!4sHHII", b"PNCF", 1, 0, len(flows), zlib.crc32(recs)) + recs


def test_flow_walk_whole():
    """A flow table of 12500 flows, restored from a state file: the
    operational walk of state/flow gives every one exactly once, the
    daemon stays responsive, and the table learned before comes back.
    (vtysh's walk runs to the end; FRR would yield after 10000 entries
    only under mgmtd, whose backend cnpproxyd is not.)"""
    pe1 = gear("pe1")
    state = "/var/run/frr/cnpproxyd-flows.state"
    n = 12500
    big = [("10.{}.{}.{}".format(100 + i // 65536, i // 256 % 256, i % 256), "10.99.0.1",
            0x1000 + i, 0x200000 + i) for i in range(n)]
    path = os.path.join(get_topogen().logdir, "flows-big.state")
    with open(path, "wb") as f:
        f.write(flow_state_file(big))

    def flow_keys():
        return sorted((f["sender"], f["senderQp"], f["receiverQp"]) for f in flows())

    before = flow_keys()
    wait_for(lambda: saved_flows(pe1) == before, 10,
             "pe1's flow state file holding {}".format(before))
    restart_cnpproxyd(pe1, "cp -p {0} {0}.keep && cp {1} {0}".format(state, path))
    try:
        def restored():
            return pe1.vtysh_cmd("show cnpproxy counters json",
                                 isjson=True)["flowStateFile"].get("restored")

        _, got = topotest.run_and_expect(restored, n, count=40, wait=0.5)
        assert got == n, got
        out = pe1.vtysh_cmd("show yang operational-data "
                            "/frr-cnpproxyd:cnpproxyd/state/flow cnpproxyd")
        walked = json.loads(out)["frr-cnpproxyd:cnpproxyd"]["state"]["flow"]
        keys = [(w["sender"], int(w["receiver-qpn"])) for w in walked]
        assert len(keys) == len(set(keys)) == n, (len(keys), len(set(keys)))
        assert set(keys) == {(s, rqpn) for s, _, _, rqpn in big}
        assert pe1.vtysh_cmd("show cnpproxy status json", isjson=True)["roles"]["proxy"]
    finally:
        # The flows learned before come back for the tests after this one.
        restart_cnpproxyd(pe1, "mv {0}.keep {0}".format(state))
    _, got = topotest.run_and_expect(flow_keys, before, count=20, wait=0.5)
    assert got == before, (got, before)


def test_busy_port_bound_once_freed():
    """A notification port another process holds: not operational, said
    why, and bound without any operator action once the port is free."""
    pe1 = gear("pe1")

    def proxy_role():
        return pe1.vtysh_cmd("show cnpproxy status json", isjson=True)["roles"]["proxy"]

    holder = pe1.popen(["/usr/bin/python3", "-c",
                        "import socket, time\n"
                        "s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
                        "s.bind(('0.0.0.0', 61801))\n"
                        "print('bound', flush=True)\n"
                        # the most it holds the port (killed before): not a wait
                        "time.sleep(60)\n"], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "bound"
        rc, out = vtysh_rc(pe1, "configure terminal", "router cnpproxy",
                           "notification-port 61801")
        assert rc == 0, out
        role = proxy_role()
        assert not role["operational"], role
        assert "cannot bind the notification ports" in role["reason"], role
    finally:
        holder.kill()
        holder.wait()
    _, up = topotest.run_and_expect(lambda: proxy_role()["operational"], True, count=20,
                                    wait=0.5)
    assert up, proxy_role()
    pe1.vtysh_cmd("clear cnpproxy counters")
    send_from("p", "10.0.12.1", 61801, notification())
    expect_counters({"received": 1})
    rc, out = vtysh_rc(pe1, "configure terminal", "router cnpproxy", "no notification-port")
    assert rc == 0, out
    assert proxy_role()["operational"]


@pytest.mark.parametrize("kind,doing", [("learn", "learning"), ("filter", "filtering")])
def test_xdp_interface_deleted_and_recreated(kind, doing):
    """A learning or filter interface deleted: detached and said so;
    re-created: XDP attached again from zebra's interface event, without
    the operator."""
    pe1 = gear("pe1")

    def lrn0():
        out = pe1.vtysh_cmd("show cnpproxy counters json", isjson=True)
        return out["learning"]["interfaces"].get("lrn0")

    def make():
        pe1.cmd_raises("ip link add lrn0 type veth peer name lrn1")
        pe1.cmd_raises("ip link set lrn0 up")
        pe1.cmd_raises("ip link set lrn1 up")

    make()
    rc, out = vtysh_rc(pe1, "configure terminal", "router cnpproxy",
                       "proxy {}-interface lrn0".format(kind))
    assert rc == 0, out
    _, got = topotest.run_and_expect(lrn0, "attached", count=20, wait=0.5)
    assert got == "attached", got
    assert "xdp" in pe1.cmd("ip link show lrn0")
    pe1.cmd_raises("ip link del lrn0")
    _, got = topotest.run_and_expect(lrn0, "no such interface", count=20, wait=0.5)
    assert got == "no such interface", got
    # the role does less than configured, and says so
    role = pe1.vtysh_cmd("show cnpproxy status json", isjson=True)["roles"]["proxy"]
    assert not role["operational"], role
    assert role["reason"] == "{} on lrn0: no such interface".format(doing), role
    make()
    _, got = topotest.run_and_expect(lrn0, "attached", count=20, wait=0.5)
    assert got == "attached", got
    role = pe1.vtysh_cmd("show cnpproxy status json", isjson=True)["roles"]["proxy"]
    assert role["operational"], role
    assert "xdp" in pe1.cmd("ip link show lrn0")
    rc, out = vtysh_rc(pe1, "configure terminal", "router cnpproxy",
                       "no proxy {}-interface lrn0".format(kind))
    assert rc == 0, out
    assert lrn0() is None
    assert "xdp" not in pe1.cmd("ip link show lrn0")
    pe1.cmd_raises("ip link del lrn0")


def memory_types(router):
    "cnpproxyd's MTYPEs from show memory json: name -> counters."
    mem = router.vtysh_cmd("show memory cnpproxyd json", isjson=True)
    # daemon -> memory group -> types
    return {t["name"]: t for t in mem["cnpproxyd"]["cnpproxyd"]}


def flow_table():
    out = gear("pe1").vtysh_cmd("show cnpproxy flows json", isjson=True)
    return out["count"], out["capacity"], out["bytes"], sorted(
        (f["sender"], f["senderQp"], f["receiverQp"]) for f in out["flows"])


def test_flow_table_resized_keeps_flows():
    """proxy flow-table size: a table of the new size, its memory shown,
    the learned flows moved into it; refused values and a mismatched
    `no` change nothing; `no` restores the default."""
    pe1 = gear("pe1")
    count, cap, size, learned = flow_table()
    assert count >= 2 and cap == 65536 and size > 65536 * 64, (count, cap, size)

    proxy_cfg("proxy flow-table size 1024")
    count2, cap2, size2, learned2 = flow_table()
    assert (count2, cap2, learned2) == (count, 1024, learned), flow_table()
    assert 1024 * 64 < size2 < size / 32, (size2, size)
    assert " proxy flow-table size 1024\n" in pe1.vtysh_cmd("show running-config")
    settings = pe1.vtysh_cmd("show cnpproxy status json", isjson=True)["roles"]["proxy"]
    assert settings["settings"]["flowTableSize"] == 1024, settings
    assert "{} of 1024 flows, the table holds {} bytes".format(count, size2) in \
        pe1.vtysh_cmd("show cnpproxy flows")

    for bad in ("proxy flow-table size 1023", "proxy flow-table size 16777217",
                "no proxy flow-table size 2048"):
        rc, out = vtysh_rc(pe1, "configure terminal", "router cnpproxy", bad)
        assert rc != 0, (bad, out)
        assert flow_table()[:2] == (count, 1024), (bad, flow_table())

    # The learner fills the new table: a CNP still reaches the sender.
    pe1.vtysh_cmd("clear cnpproxy counters")
    send_from("p", "10.0.12.1", NOTIF_PORT, cut_notification("10.0.1.1", "10.0.23.3"))
    expect_counters({"received": 1, "cnpSent": 1})

    proxy_cfg("no proxy flow-table size")
    assert flow_table() == (count, 65536, size, learned), flow_table()
    assert "flow-table" not in pe1.vtysh_cmd("show running-config")


def test_show_memory_lists_the_pools():
    "The flow table's pools and the BPF loader's state are accounted in MTYPEs."
    types = memory_types(gear("pe1"))
    for name in ("cnpproxyd flow table pools", "cnpproxyd flow table index",
                 "cnpproxyd BPF loaders"):
        assert types.get(name, {}).get("currentAllocations", 0) > 0, (name, types.get(name))
    # 65536 flows, the QP request and PSN window pools: megabytes, not bytes
    assert types["cnpproxyd flow table pools"]["totalBytes"] > 4 << 20, types


def test_disabling_role_forgets_flows():
    "no proxy: sockets closed, flows forgotten, settings gone with the role."
    pe1 = gear("pe1")
    assert flows(), "no flows learned before"
    pe1.vtysh_cmd("configure terminal\nrouter cnpproxy\nno proxy\n")
    out = pe1.vtysh_cmd("show cnpproxy flows json", isjson=True)
    assert out == {"flows": [], "count": 0, "capacity": 0, "bytes": 0}, out
    status = pe1.vtysh_cmd("show cnpproxy status json", isjson=True)
    assert status["roles"]["proxy"] == {"enabled": False, "operational": False}, status
    assert "proxy source-address" not in pe1.vtysh_cmd("show running-config")
    # forgotten on file too: a restart would not bring them back
    rc, out = run_rc(pe1, "ls /var/run/frr/cnpproxyd-flows.state")
    assert rc != 0, out
    # the pools are given back
    types = memory_types(pe1)
    for name in ("cnpproxyd flow table pools", "cnpproxyd flow table index",
                 "cnpproxyd BPF loaders"):
        assert types[name]["currentAllocations"] == 0, types[name]


def test_cnpproxyd_still_up():
    "After all of it, every daemon on pe1 still runs."
    gear("pe1")


if __name__ == "__main__":
    args = ["-s"] + sys.argv[1:]
    sys.exit(pytest.main(args))

