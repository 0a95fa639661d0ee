#!/usr/bin/env python
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Benchmark (make bench, not make check): the proxy's data path against
# reference reflectors that do no work, side by side in one run.
#
#   gen (pnc-flood, pnc-reflect sink) ===bgen--bdut=== pe1 (cnpproxyd, pnc-reflect)
#
# A veth pair made here joins the two namespaces directly (no bridge).
# gen sends notifications about FLOWS flows in turn; each path answers
# every one with a CNP-shaped frame to gen, where an XDP program counts
# and drops it (or passes it, to time it in user space).
#
# Paths:  base      no reply: the notification dropped by XDP on bdut
#         sendto    pnc-reflect, recvfrom + sendto
#         mmsg      pnc-reflect, recvmmsg + sendmmsg
#         xsk       pnc-reflect, AF_XDP copy mode
#         xdp       pnc-reflect, built in XDP and sent with XDP_TX
#         cnpproxyd-socket, cnpproxyd-xdp, cnpproxyd-af-xdp
#                   `proxy fast-path socket|xdp|af-xdp` (af-xdp's busy
#                   latency with `proxy fast-path busy-poll`)
#
# Per path and run:
#  - cost: RATE notifications a second for COST_S; the CPU time of the
#    whole machine, minus the base path's, per notification.  Idle time
#    comes from the kernel's NO_HZ idle accounting (/proc/stat), which
#    is measured, not sampled by the tick, and the generator paces one
#    datagram at a time, so nothing aliases with the tick;
#  - max: as fast as pnc-flood sends for MAX_S: replies a second at gen;
#  - latency: LAT_PPS for LAT_S, each reply timed against its
#    notification (kernel receive timestamps) in interrupt mode, and for
#    the user-space references in busy mode (--busy, spinning);
#  - latency at half load: the same at half the path's max (in busy mode
#    where it has one: the references' --busy, cnpproxyd-af-xdp's
#    busy-poll), the load the targets name;
#  - loss: replies missing in the cost run.
# Also: the XDP program's stages, each timed by BPF_PROG_TEST_RUN on a
# frame that leaves the program right after it (see xdp_stages());
# the XDP learner's cost per forwarded RoCEv2 packet over an XDP
# program that only passes (gen sends data to an address pe1 routes back
# to gen), and the generator's own ceiling (base path, unpaced).
#
# min/median/max over RUNS runs are printed and written to
# $PNC_BENCH_OUT_DIR/bench-fast-path.json.  Only correctness is asserted
# (every path answered); the targets are read from the report.

import json
import os
import signal
import socket
import statistics
import struct
import subprocess
import sys
import time

import pytest

CWD = os.path.dirname(os.path.realpath(__file__))
sys.path.append(os.path.join(CWD, "../"))

# pylint: disable=C0413
from lib import topotest
from lib.topogen import get_topogen
from pnc_topo import built, gear, set_gro, start_routers, vtysh_rc

pytestmark = [pytest.mark.cnpproxyd]

PNC_PKT = built("tools/pnc-pkt/pnc-pkt")
PNC_FLOOD = built("tools/flood/pnc-flood")
PNC_REFLECT = built("tools/reflect/pnc-reflect")
RUNS = int(os.environ.get("PNC_BENCH_ROUNDS", "3"))
RATE = int(os.environ.get("PNC_BENCH_RATE", "100000"))
# Where cnpproxyd's AF_XDP path spends its time: perf's samples (cpu-clock)
# of the daemon during one more paced run, kernel included.
PROFILE = os.environ.get("PNC_BENCH_PROFILE") == "1"
BURST = 32
COST_S = 3
MAX_S = 2
LAT_PPS = 10000
LAT_S = 2
FLOWS = 256
SENDER_QP, RECEIVER_QP = 0x100, 0x800
NOTIF_PORT, REF_PORT, ROCE_PORT = 61791, 61800, 4791
GEN, DUT, RECEIVER, FORWARDED = "10.77.0.1", "10.77.0.2", "10.78.0.1", "10.79.0.1"

INJECT = ("import socket,sys; "
          "s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW); s.bind((sys.argv[2], 0)); "
          "src = bytes.fromhex(open('/sys/class/net/' + sys.argv[2] + '/address')"
          ".read().strip().replace(':', '')); "
          "dst = bytes.fromhex(sys.argv[3].replace(':', '')); "
          "[s.send(dst + src + bytes.fromhex('0800') + bytes.fromhex(l.strip())) "
          "for l in open(sys.argv[1]) if l.strip()]")


def setup_module(mod):
    start_routers(mod, {"s1": ("gen", "pe1")}, CWD)
    gen, pe1 = gear("gen"), gear("pe1")
    gen.cmd_raises("ip link add bgen type veth peer name bdut")
    gen.cmd_raises("ip link set bdut netns {}".format(pe1.net.pid))
    gen.cmd_raises("ip addr add {}/24 dev bgen && ip link set bgen up".format(GEN))
    pe1.cmd_raises("ip addr add {}/24 dev bdut && ip link set bdut up".format(DUT))
    # Forwarded RoCEv2 (the learner's cost) goes back to gen.
    gen.cmd_raises("ip route add {}/32 via {}".format(FORWARDED, DUT))
    pe1.cmd_raises("ip route add {}/32 via {}".format(FORWARDED, GEN))
    pe1.cmd_raises("sysctl -qw net.ipv4.conf.all.send_redirects=0 "
                   "net.ipv4.conf.bdut.send_redirects=0 net.ipv4.ip_forward=1")
    # bdut may send XDP frames to bgen whatever program bgen runs.
    set_gro(gen, True, "bgen")
    gen.cmd_raises("ping -c 1 -W 2 {}".format(DUT))
    pe1.cmd_raises("ping -c 1 -W 2 {}".format(GEN))


def teardown_module(_mod):
    get_topogen().stop_topology()


# ---- packets ---------------------------------------------------------------

def build(*args):
    return subprocess.check_output([PNC_PKT, "build"] + [str(a) for a in args],
                                   text=True).split()


def notification(rqpn):
    "A congestion point's notification: the invoking RC WRITE cut to 64 octets."
    inv = build("rc-write", "src=" + GEN, "dst=" + RECEIVER, "dqpn={:#x}".format(rqpn))[0]
    return build("notif", "cl=5", "invoking=" + inv[:128], "bare=1")[0]


def qpn_offset():
    "Where the invoking packet's destination QP lies in the notification."
    a, b = bytes.fromhex(notification(0x123456)), bytes.fromhex(notification(0x654321))
    diff = [i for i in range(len(a)) if a[i] != b[i]]
    assert len(diff) == 3 and diff[2] == diff[0] + 2, diff
    return diff[0]


def roce_data():
    "UDP payload of an RC WRITE from gen to FORWARDED."
    ip = build("rc-write", "src=" + GEN, "dst=" + FORWARDED, "dqpn=0x900")[0]
    return ip[2 * 28:]


# ---- measuring -------------------------------------------------------------

def idle_s():
    "Idle time of all CPUs so far (idle + iowait), in seconds."
    with open("/proc/stat") as f:
        fields = f.readline().split()[1:]
    return (int(fields[3]) + int(fields[4])) / os.sysconf("SC_CLK_TCK")


def xdp_prog(router, ifname):
    "The id of the XDP program on a router's interface, or None."
    out = gear(router).cmd("ip -j -d link show {}".format(ifname))
    return ((json.loads(out)[0].get("xdp") or {}).get("prog") or {}).get("id")


def prog_run(prog):
    """(ns, runs) the program has spent so far, with kernel.bpf_stats_enabled:
    the kernel times each run, so this is measured, not sampled."""
    if prog is None:
        return None
    out = json.loads(subprocess.check_output(["bpftool", "-j", "prog", "show", "id",
                                              str(prog)], text=True))
    return out.get("run_time_ns", 0), out.get("run_cnt", 0)


def prog_ns(before, after):
    if before is None or after is None or after[1] == before[1]:
        return None
    return (after[0] - before[0]) / (after[1] - before[1])


def flood(port, payload, *opts, dst=DUT):
    proc = gear("gen").popen([PNC_FLOOD, "--dst", dst, "--port", str(port), "--payload",
                              payload] + [str(o) for o in opts],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    return json.loads(out)


def start(router, *args):
    return gear(router).popen([PNC_REFLECT] + [str(a) for a in args], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)


def stop(proc):
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    return json.loads(out)


class Path:
    """A way of answering notifications: a pnc-reflect mode on pe1 or
    cnpproxyd, configured."""

    def __init__(self, name, mode=None, cnpproxyd=None, port=None):
        self.name, self.mode = name, mode
        self.port = port or (NOTIF_PORT if cnpproxyd else REF_PORT)
        # Replies carry the sender's QP (cnpproxyd) or the one notified.
        self.reply_base = SENDER_QP if cnpproxyd else RECEIVER_QP
        self.proc = None

    def up(self, busy=False):
        if self.mode:
            self.proc = start("pe1", self.mode, "--dev", "bdut", "--port", self.port,
                              "--qpn-off", OFFSET, *(["--busy"] if busy else []))
            time.sleep(0.5)

    def down(self):
        if self.proc:
            stop(self.proc)
            self.proc = None


def cost_run(path, *flood_args, dst=DUT):
    """Paced, through path: CPU time, replies, and the time in bdut's XDP
    program; flood_args are pnc-flood's payload and options."""
    sink = start("gen", "sink", "--dev", "bgen")
    path.up()
    prog = xdp_prog("pe1", "bdut")
    t0, i0, p0 = time.monotonic(), idle_s(), prog_run(prog)
    sent = flood(path.port, *flood_args, "--rate", RATE, "--burst", BURST, "--seconds", COST_S,
                 dst=dst)
    time.sleep(0.3)  # the last replies
    busy = (time.monotonic() - t0) * os.cpu_count() - (idle_s() - i0)
    ns = prog_ns(p0, prog_run(prog))
    path.down()
    return {"sent": sent["sent"], "busy_s": busy, "replies": stop(sink)["packets"],
            "prog_ns": ns}


def max_run(path):
    sink = start("gen", "sink", "--dev", "bgen")
    path.up()
    sent = flood(path.port, PAYLOAD, "--seconds", MAX_S, "--count", 100000000, *VARY)
    time.sleep(0.3)
    path.down()
    got = stop(sink)["packets"]
    return {"generator_pps": sent["pps"], "replies_pps": got / sent["seconds"],
            "max_loss_percent": 100.0 * (sent["sent"] - got) / max(sent["sent"], 1)}


def latency_run(path, busy, pps=LAT_PPS):
    sink = start("gen", "sink", "--dev", "bgen", "--pass")
    path.up(busy)
    out = flood(path.port, PAYLOAD, "--rate", pps, "--seconds", LAT_S, *VARY,
                "--replies", path.reply_base)
    path.down()
    stop(sink)
    return out["latency_us"], out["replies"] / max(out["sent"], 1)


def profile_run(path):
    """perf record of cnpproxyd through a paced run: the functions with
    at least 1 % of its samples, busiest first, as (percent, symbol)."""
    out = os.path.join(get_topogen().logdir, "perf-{}.data".format(path.name))
    pid = subprocess.check_output(["pgrep", "-x", "cnpproxyd"], text=True).split()[0]
    sink = start("gen", "sink", "--dev", "bgen")
    path.up()
    perf = subprocess.Popen(["perf", "record", "-q", "-e", "cpu-clock", "-F", "4999", "-p", pid,
                             "-o", out, "--", "sleep", str(COST_S)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    flood(path.port, PAYLOAD, *VARY, "--rate", RATE, "--burst", BURST, "--seconds", COST_S)
    perf.wait(timeout=60)
    path.down()
    stop(sink)
    report = subprocess.check_output(["perf", "report", "-i", out, "--stdio", "--no-children",
                                      "--sort", "sym", "--percent-limit", "1"], text=True,
                                     stderr=subprocess.DEVNULL)
    top = []
    for line in report.splitlines():
        fields = line.split()
        if len(fields) >= 3 and fields[0].endswith("%") and not line.startswith("#"):
            top.append((float(fields[0][:-1]), " ".join(fields[2:])))
    print("bench fast_path {} profile: {}".format(path.name, json.dumps(top)))
    return top


def half_load(replies_pps):
    "Half a path's saturating rate, in thousands, never under LAT_PPS."
    return max(LAT_PPS, int(replies_pps / 2 / 1000) * 1000)


def stats(values):
    values = [v for v in values if v is not None]
    if not values:
        return None
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


# ---- cnpproxyd -------------------------------------------------------------

def proxy_cfg(*lines):
    rc, out = vtysh_rc(gear("pe1"), "configure terminal", "router cnpproxy", *lines)
    assert rc == 0, out


def flow_count():
    return len(gear("pe1").vtysh_cmd("show cnpproxy flows json", isjson=True)["flows"])


def learn_flows():
    """FLOWS CM REQ/REP pairs seen by the learner on bdut: sender gen, QPs
    SENDER_QP + i and RECEIVER_QP + i."""
    gen, pe1 = gear("gen"), gear("pe1")
    n = "{}".format(FLOWS)
    reqs = build("cm-req", "src=" + GEN, "dst=" + RECEIVER,
                 "local-qpn={:#x}".format(SENDER_QP), "local-comm-id=0x1000", "--count", n,
                 "--vary", "local-qpn={:#x}:1".format(SENDER_QP),
                 "--vary", "local-comm-id=0x1000:1")
    reps = build("cm-rep", "src=" + RECEIVER, "dst=" + GEN,
                 "local-qpn={:#x}".format(RECEIVER_QP), "local-comm-id=0x5000",
                 "remote-comm-id=0x1000", "--count", n,
                 "--vary", "local-qpn={:#x}:1".format(RECEIVER_QP),
                 "--vary", "local-comm-id=0x5000:1", "--vary", "remote-comm-id=0x1000:1")
    frames = os.path.join(get_topogen().logdir, "cm-frames.hex")
    with open(frames, "w") as f:
        for req, rep in zip(reqs, reps):
            f.write(req + "\n" + rep + "\n")
    mac = pe1.cmd("cat /sys/class/net/bdut/address").strip()
    for _ in range(3):
        gen.cmd_raises("/usr/bin/python3 -c \"{}\" {} bgen {}".format(INJECT, frames, mac))
        # Each connection gives a flow either way.
        _, got = topotest.run_and_expect(flow_count, 2 * FLOWS, count=10, wait=0.5)
        if got == 2 * FLOWS:
            return
    raise AssertionError("{} of {} flows learned".format(flow_count(), 2 * FLOWS))


def fast_path_active():
    return gear("pe1").vtysh_cmd("show cnpproxy status json", isjson=True)["fastPath"]["active"]


def af_xdp_active():
    fp = gear("pe1").vtysh_cmd("show cnpproxy status json", isjson=True)["fastPath"]
    return fp.get("afXdp", {}).get("active")


def wait_active(check):
    _, active = topotest.run_and_expect(check, True, count=20, wait=0.5)
    assert active, gear("pe1").vtysh_cmd("show cnpproxy status json")


def cnpproxyd_counters():
    return gear("pe1").vtysh_cmd("show cnpproxy counters json", isjson=True)


# ---- the XDP program's stages ----------------------------------------------

STAGE_RUNS = 200000
XDP_DROP, XDP_PASS = 1, 2
DENIED = "10.99.0.1"


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!{}H".format(len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def udp_frame(src, dst, dport, payload):
    "Ethernet (gen to pe1's bdut) + IPv4 + UDP, checksums right."
    ip_src, ip_dst = socket.inet_aton(src), socket.inet_aton(dst)
    udp = struct.pack("!HHHH", 49152, dport, 8 + len(payload), 0) + payload
    pseudo = ip_src + ip_dst + struct.pack("!BBH", 0, 17, len(udp))
    udp = udp[:6] + struct.pack("!H", csum(pseudo + udp) or 0xffff) + udp[8:]
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 1, 0x4000, 64, 17, 0, ip_src,
                     ip_dst)
    ip = ip[:10] + struct.pack("!H", csum(ip)) + ip[12:]
    mac = [bytes.fromhex(gear(r).cmd("cat /sys/class/net/{}/address".format(d)).strip()
                         .replace(":", "")) for r, d in (("pe1", "bdut"), ("gen", "bgen"))]
    return mac[0] + mac[1] + b"\x08\x00" + ip + udp


def prog_test_run(prog, frame, name):
    """The program run STAGE_RUNS times on frame as if received on bdut
    (BPF_PROG_TEST_RUN, in pe1's namespace): (ns per run, verdict)."""
    logdir = get_topogen().logdir
    data, ctx = (os.path.join(logdir, "stage-{}.{}".format(name, k)) for k in ("frame", "ctx"))
    with open(data, "wb") as f:
        f.write(frame)
    ifindex = int(gear("pe1").cmd("cat /sys/class/net/bdut/ifindex"))
    with open(ctx, "wb") as f:
        # struct xdp_md: data, data_end, data_meta, ingress_ifindex, rx_queue_index, egress
        f.write(struct.pack("=6I", 0, len(frame), 0, ifindex, 0, 0))
    out = gear("pe1").cmd_raises("bpftool -j prog run id {} data_in {} ctx_in {} repeat {}".format(
        prog, data, ctx, STAGE_RUNS))
    got = json.loads(out)
    return got["duration"], got["retval"]


def xdp_counters():
    return cnpproxyd_counters()["learning"]["xdp"]


def xdp_stages():
    """cnpproxyd's XDP program (guard, translator and learner on bdut),
    run by the kernel on frames that each leave it at a known stage; the
    program's own counters prove which.  The translation itself (build,
    ICRC, rewrite, redirect) modifies the frame, so repeated runs of one
    frame cannot time it: it is the paced run's program time less the
    suppressed stage's."""
    prog = xdp_prog("pe1", "bdut")
    note = bytes.fromhex(notification(RECEIVER_QP))
    cases = [
        # name, frame, verdict, counter that counts every run
        ("not-a-notification", udp_frame(GEN, DUT, 9, bytes(64)), XDP_PASS, None),
        ("source-denied", udp_frame(DENIED, DUT, NOTIF_PORT, note), XDP_DROP, "guard_denied"),
        ("flow-unknown", udp_frame(GEN, DUT, NOTIF_PORT,
                                   bytes.fromhex(notification(RECEIVER_QP + FLOWS + 1))),
         XDP_PASS, "xlate_passed_no_flow"),
        ("suppressed", udp_frame(GEN, DUT, NOTIF_PORT, note), XDP_DROP, "xlate_min_interval"),
        ("roce-write", udp_frame(GEN, FORWARDED, ROCE_PORT, bytes.fromhex(ROCE_DATA)), XDP_PASS,
         "roce"),
    ]
    # The flow's QP has had a CNP within the interval: every run is suppressed.
    proxy_cfg("proxy cnp min-interval 10000000")
    try:
        prog_test_run(prog, cases[3][1], "prime")
        ns = {}
        for name, frame, verdict, counter in cases:
            before = xdp_counters()
            ns[name], got = prog_test_run(prog, frame, name)
            after = xdp_counters()
            assert got == verdict, (name, got, verdict)
            if counter:
                assert after[counter] - before[counter] == STAGE_RUNS, (name, counter, before,
                                                                        after)
    finally:
        proxy_cfg("proxy cnp min-interval 1")
    print("bench fast_path xdp stages: {}".format(json.dumps(ns)))
    return ns


# ---- the run ---------------------------------------------------------------

REFERENCES = [Path("sendto", "sendto"), Path("mmsg", "mmsg"), Path("xsk", "xsk"),
              Path("xdp", "xdp")]
BASE = Path("base", "sink")
CNP_SOCKET = Path("cnpproxyd-socket", cnpproxyd="socket")
CNP_XDP = Path("cnpproxyd-xdp", cnpproxyd="xdp")
CNP_AF_XDP = Path("cnpproxyd-af-xdp", cnpproxyd="af-xdp")
# Forwarding RoCEv2 data: dropped on arrival, an XDP_PASS program, the learner.
FORWARD = [Path("forward-base", "sink", port=ROCE_PORT),
           Path("forward-pass", "pass", port=ROCE_PORT)]
FORWARD_LEARN = Path("forward-learn", cnpproxyd="learn", port=ROCE_PORT)
BUSY_MODES = ("sendto", "mmsg", "xsk")
OFFSET = PAYLOAD = VARY = ROCE_DATA = None


def measure(path, samples):
    s = samples.setdefault(path.name, [])
    one = cost_run(path, PAYLOAD, *VARY)
    one.update(max_run(path))
    if path is not BASE:
        one["latency_us"], one["latency_replied"] = latency_run(path, False)
        if path.name in BUSY_MODES:
            one["latency_busy_us"], _ = latency_run(path, True)
        one["half_pps"] = half_load(one["replies_pps"])
        # cnpproxyd's busy-poll is configuration: run_all times it.
        if path is not CNP_AF_XDP:
            one["latency_half_us"], one["latency_half_replied"] = latency_run(
                path, path.name in BUSY_MODES, one["half_pps"])
    print("bench fast_path {}: {}".format(path.name, json.dumps(one)))
    s.append(one)


def forward_run(path, samples):
    """Cost of forwarding gen's RoCEv2 data back to gen through pe1, with
    path's program on bdut."""
    one = cost_run(path, ROCE_DATA, dst=FORWARDED)
    print("bench fast_path {}: {}".format(path.name, json.dumps(one)))
    samples.setdefault(path.name, []).append(one)


def per_packet_us(sample, base):
    "CPU time per reply beyond the base path's for as many notifications."
    return 1e6 * (sample["busy_s"] - base["busy_s"] * sample["sent"] / base["sent"]) / \
        max(sample["replies"], 1)


def run_all(samples, counters, pe1):
    "RUNS rounds of every path."
    for _ in range(RUNS):
        measure(BASE, samples)
        for path in REFERENCES:
            measure(path, samples)
        for path in FORWARD:
            forward_run(path, samples)

        # cnpproxyd: flows learned from CM on bdut, then each fast path.
        proxy_cfg("proxy learn-interface bdut")
        learn_flows()
        forward_run(FORWARD_LEARN, samples)
        pe1.vtysh_cmd("clear cnpproxy counters")
        measure(CNP_SOCKET, samples)
        counters["cnpproxyd-socket"] = cnpproxyd_counters()
        proxy_cfg("proxy filter-interface bdut", "proxy fast-path xdp")
        wait_active(fast_path_active)
        pe1.vtysh_cmd("clear cnpproxy counters")
        measure(CNP_XDP, samples)
        counters["cnpproxyd-xdp"] = cnpproxyd_counters()
        samples.setdefault("xdp-stages", []).append(xdp_stages())
        proxy_cfg("proxy fast-path af-xdp")
        wait_active(af_xdp_active)
        pe1.vtysh_cmd("clear cnpproxy counters")
        measure(CNP_AF_XDP, samples)
        counters["cnpproxyd-af-xdp"] = cnpproxyd_counters()
        if PROFILE:
            samples.setdefault("af-xdp-profile", []).append(profile_run(CNP_AF_XDP))
        proxy_cfg("proxy fast-path busy-poll")
        wait_active(af_xdp_active)
        last = samples[CNP_AF_XDP.name][-1]
        last["latency_busy_us"], _ = latency_run(CNP_AF_XDP, False)
        last["latency_half_us"], last["latency_half_replied"] = latency_run(
            CNP_AF_XDP, False, last["half_pps"])
        print("bench fast_path {} busy-poll: {}".format(
            CNP_AF_XDP.name, json.dumps({k: last[k] for k in ("latency_busy_us",
                                                              "latency_half_us")})))
        proxy_cfg("no proxy fast-path busy-poll", "no proxy fast-path af-xdp",
                  "no proxy filter-interface bdut", "no proxy learn-interface bdut")


def test_fast_path():
    global OFFSET, PAYLOAD, VARY, ROCE_DATA
    OFFSET = qpn_offset()
    ROCE_DATA = roce_data()
    PAYLOAD = notification(RECEIVER_QP)
    VARY = ["--vary-qpn", "{}:{}:{}".format(OFFSET, RECEIVER_QP, FLOWS)]
    samples, counters = {}, {}
    pe1 = gear("pe1")
    stats_were = subprocess.check_output(["sysctl", "-n", "kernel.bpf_stats_enabled"],
                                         text=True).strip()
    subprocess.check_call(["sysctl", "-qw", "kernel.bpf_stats_enabled=1"])
    try:
        run_all(samples, counters, pe1)
    finally:
        subprocess.check_call(["sysctl", "-qw", "kernel.bpf_stats_enabled=" + stats_were])

    report = summarize(samples)
    report["counters"] = counters
    print("\nbench fast_path: {}".format(json.dumps(report, indent=1)))
    if os.environ.get("PNC_BENCH_OUT_DIR"):
        with open(os.path.join(os.environ["PNC_BENCH_OUT_DIR"], "bench-fast-path.json"),
                  "w") as out:
            json.dump(report, out, indent=1)
    # Every path answered what it was sent, paced.
    for name in [p.name for p in REFERENCES] + [CNP_SOCKET.name, CNP_XDP.name,
                                                CNP_AF_XDP.name]:
        assert all(s["replies"] > 0.9 * s["sent"] for s in samples[name]), (name,
                                                                          samples[name])


def summarize(samples):
    base = samples["base"]
    report = {"runs": RUNS, "rate_pps": RATE, "latency_pps": LAT_PPS, "flows": FLOWS,
              "cpus": os.cpu_count(), "samples": samples, "paths": {}}
    report["generator_max_pps"] = stats([s["generator_pps"] for s in base])
    for name, runs in samples.items():
        if name in ("base", "xdp-stages", "af-xdp-profile") or name.startswith("forward"):
            continue
        p = {
            "us_per_packet": stats([per_packet_us(s, b) for s, b in zip(runs, base)]),
            "loss_percent": stats([100.0 * (s["sent"] - s["replies"]) / s["sent"]
                                   for s in runs]),
            "max_pps": stats([s["replies_pps"] for s in runs]),
            "xdp_prog_ns": stats([s["prog_ns"] for s in runs]),
        }
        if "half_pps" in runs[0]:
            p["half_pps"] = stats([s["half_pps"] for s in runs])
            p["latency_half_replied"] = stats([s.get("latency_half_replied") for s in runs])
        for key in ("latency_us", "latency_busy_us", "latency_half_us"):
            if key in runs[0]:
                p[key] = {q: stats([s[key][q] for s in runs]) for q in ("p50", "p90", "p99",
                                                                       "max")}
        report["paths"][name] = p
    # The learner's cost: what its program takes beyond one that only
    # passes (both timed by the kernel), over what forwarding a packet
    # costs the machine with the passing one.
    fb, fpass, flearn = samples["forward-base"], samples["forward-pass"], \
        samples["forward-learn"]
    report["learner"] = {
        "forward_us_per_packet": stats([per_packet_us(s, b) for s, b in zip(fpass, fb)]),
        "pass_prog_ns": stats([s["prog_ns"] for s in fpass]),
        "learn_prog_ns": stats([s["prog_ns"] for s in flearn]),
        "overhead_percent": stats([
            0.1 * (l["prog_ns"] - p["prog_ns"]) / per_packet_us(p, b)
            for l, p, b in zip(flearn, fpass, fb)
            if l["prog_ns"] is not None and p["prog_ns"] is not None]),
    }
    report["xdp_stages"] = stage_costs(samples)
    return report


def stage_costs(samples):
    """ns per frame in each stage of cnpproxyd's XDP program, from the
    early-exit runs; the translation from the paced run's program time."""
    runs = samples.get("xdp-stages", [])
    xdp = samples.get(CNP_XDP.name, [])
    if not runs:
        return {}
    sent = [s["prog_ns"] for s in xdp]
    stages = {
        "entry_and_parse": [r["not-a-notification"] for r in runs],
        "guard_source_denied": [r["source-denied"] for r in runs],
        "guard_parse_flow_miss": [r["flow-unknown"] for r in runs],
        "flow_route_buckets_interval": [r["suppressed"] - r["flow-unknown"] for r in runs],
        "build_icrc_rewrite_redirect": [p - r["suppressed"] for r, p in zip(runs, sent)
                                        if p is not None],
        "learner_roce_write": [r["roce-write"] - r["not-a-notification"] for r in runs],
    }
    out = {k: stats(v) for k, v in stages.items()}
    out["runs"] = runs
    out["translated_prog_ns"] = stats(sent)
    return out


if __name__ == "__main__":
    sys.exit(pytest.main(["-s"] + sys.argv[1:]))
