# SPDX-License-Identifier: GPL-2.0-or-later
"""Helpers shared by pnc's topotests."""

import base64
import functools
import ipaddress
import json
import os
import select
import shlex
import struct
import subprocess
import time

from lib import topotest

# The build directory: its tools (pnc-pkt, roce-emu, ...) are what the
# tests drive.  run-topotests.sh says where it is.
BUILD = os.environ.get("PNC_BUILDDIR",
                       os.path.join(os.path.dirname(os.path.realpath(__file__)), "../build"))


def built(path):
    """A file of the build directory, e.g. built("tools/pnc-pkt/pnc-pkt")."""
    return os.path.join(BUILD, path)


def start_chain(mod, tbf_rate):
    """Start sender - pe1 - p - pe2 - receiver with p's link to pe2 a TBF
    bottleneck of tbf_rate bit/s; the routers not yet configured."""
    from lib.topogen import Topogen

    topodef = {
        "s1": ("sender", "pe1"),
        "s2": ("pe1", "p"),
        "s3": ("p", "pe2"),
        "s4": ("pe2", "receiver"),
    }
    tgen = Topogen(topodef, mod.__name__)
    tgen.start_topology()
    tgen.gears["p"].cmd_raises(
        "tc qdisc add dev p-eth1 root tbf rate {} burst 16kb limit 400kb".format(tbf_rate))
    return tgen


def run_rc(router, command):
    """Run a shell command on a router; return (exit code, stdout+stderr)."""
    out = router.cmd("{} 2>&1; echo rc=$?".format(command))
    body, _, rc = out.rpartition("rc=")
    return int(rc.strip()), body


def vtysh_rc(router, *commands):
    """Run vtysh commands; unlike vtysh_cmd(), keep errors and the exit code."""
    return run_rc(router, "vtysh " + " ".join("-c " + shlex.quote(c) for c in commands))


def wait_done(*procs, timeout=30):
    """Wait for processes a router's popen() started; each must exit 0."""
    for proc in procs:
        proc.wait(timeout=timeout)
        assert proc.returncode == 0, proc.returncode


def json_lines(path):
    """The objects of a JSON-lines file (roce-emu's --log)."""
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def emu_summary(path):
    """The summary roce-emu writes last into its --log file."""
    return [e for e in json_lines(path) if e["event"] == "summary"][0]


def start_flood(router, *args):
    """pnc-flood on a router, started; flood_result() reads what it did."""
    return router.popen([built("tools/flood/pnc-flood")] + list(args),
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def flood_result(proc):
    """pnc-flood's JSON line, once it has ended well."""
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    return json.loads(out)


def wait_for(cond, timeout, what, interval=0.2):
    """Poll cond() until it returns something true, for timeout seconds
    at most; fail naming what did not happen, with cond's last answer.
    Returns that true answer."""
    deadline = time.monotonic() + timeout
    while True:
        got = cond()
        if got:
            return got
        assert time.monotonic() < deadline, "{} not within {} s (last: {!r})".format(
            what, timeout, got)
        time.sleep(interval)  # wait_for's poll interval, not a wait of its own


def wait_output(proc, text, timeout, what, stream="stderr"):
    """Read a started process's stderr (or stdout) until a line holds text;
    the process must not end first.  Returns what was read."""
    f = getattr(proc, stream)
    fd = f.fileno()
    seen = b""
    deadline = time.monotonic() + timeout
    while text.encode() not in seen:
        left = deadline - time.monotonic()
        assert left > 0, "{}: no '{}' within {} s: {!r}".format(what, text, timeout, seen)
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            chunk = os.read(fd, 4096)
            assert chunk, "{}: ended (rc {}) before '{}': {!r}".format(
                what, proc.poll(), text, seen)
            seen += chunk
    return seen.decode(errors="replace")


def start_tcpdump(router, iface, capture_filter, pcap=None, count=None, seconds=None,
                  opts=(), **popen):
    """tcpdump on a router's interface, started and attached: it says
    "listening on" once its filter is set and its file open.  pcap: the
    file to write (packet-buffered, so pcap_packets() follows it); count:
    packets before it stops; seconds: how long it runs at most."""
    cmd = ["timeout", str(seconds)] if seconds else []
    cmd += ["tcpdump", "-n", "--immediate-mode", "-i", iface]
    if count:
        cmd += ["-c", str(count)]
    if pcap:
        cmd += ["-U", "-w", pcap]
    cmd += list(opts) + [capture_filter]
    popen.setdefault("stdout", subprocess.DEVNULL)
    proc = router.popen(cmd, stderr=subprocess.PIPE, **popen)
    wait_output(proc, "listening on", 15, "tcpdump on {} {}".format(router.name, iface))
    return proc


def pcap_packets(path):
    """The number of whole packets in a (classic) pcap file being written."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return 0
    if len(data) < 24:
        return 0
    endian = "<" if data[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
    n, off = 0, 24
    while off + 16 <= len(data):
        caplen = struct.unpack(endian + "I", data[off + 8:off + 12])[0]
        if off + 16 + caplen > len(data):
            break
        n, off = n + 1, off + 16 + caplen
    return n


def udp_bound(router, addr, port):
    """Whether a UDP socket in the router's namespace is bound to addr:port."""
    want = ("{}:{}".format(addr, port), "[{}]:{}".format(addr, port))
    out = router.cmd("ss -Hlun 'sport = :{}'".format(port))
    return any(len(f) >= 4 and f[3] in want for f in (line.split() for line in out.splitlines()))


def udp_recv_queue(router, port):
    """Octets waiting in the receive queues of the router's UDP sockets on port."""
    out = router.cmd("ss -Hlun 'sport = :{}'".format(port))
    return sum(int(f[1]) for f in (line.split() for line in out.splitlines()) if len(f) >= 4)


ROCE_PORT = 4791


def wait_responder(router, addr):
    """Wait until a roce-emu responder started on router has its sockets
    open (its UDP port bound at addr: the packet socket is opened first)."""
    wait_for(lambda: udp_bound(router, addr, ROCE_PORT), 10,
             "roce-emu responder on {} bound to {} port {}".format(router.name, addr, ROCE_PORT))


def json_dicts(node):
    """Every object of a JSON document (as json.loads gives it), depth first."""
    if isinstance(node, dict):
        yield node
        children = node.values()
    elif isinstance(node, list):
        children = node
    else:
        return
    for child in children:
        yield from json_dicts(child)


def isis_adjacency_up(router, ifname):
    """Whether the router's IS-IS adjacency over ifname is up."""
    out = router.vtysh_cmd("show isis neighbor json", isjson=True)
    return "Up" in (d["state"] for d in json_dicts(out)
                    if d.get("interface") == ifname and "state" in d)


def isis_lsp(router, lsp_id):
    """(sequence number, IS neighbour IDs) of an LSP in the router's
    database; (0, set()) without it."""
    out = router.vtysh_cmd("show isis database detail {} json".format(lsp_id), isjson=True)
    found = []
    for node in json_dicts(out):
        if isinstance(node.get("lsp"), dict) and node["lsp"].get("id") == lsp_id:
            seq = node.get("seqNumber", 0)
            nbrs = {reach.get("id", "") for d in json_dicts(node)
                    for reach in d.get("extReach", [])}
            found.append((int(seq, 0) if isinstance(seq, str) else seq, nbrs))
    return max(found, key=lambda f: f[0], default=(0, set()))


def route_via(router, prefix, ifname, protocol="isis"):
    """Whether zebra has the protocol's route to prefix selected and in the
    kernel, with an active next hop out of ifname, and the kernel has it
    (zebra's word alone may be from before a link went down)."""
    family = "ipv6" if ":" in prefix else "ip"
    out = router.vtysh_cmd("show {} route {} json".format(family, prefix), isjson=True)
    in_zebra = False
    for entry in out.get(prefix, []):
        if entry.get("protocol") != protocol or not entry.get("selected") or \
                not entry.get("installed"):
            continue
        if any(nh.get("interfaceName") == ifname and nh.get("active") and nh.get("fib")
               for nh in entry.get("nexthops", [])):
            in_zebra = True
    if not in_zebra:
        return False
    kernel = json.loads(router.cmd("ip -{} -j route show {}".format(
        6 if family == "ipv6" else 4, prefix)) or "[]")
    return any(r.get("dev") == ifname or any(n.get("dev") == ifname
                                             for n in r.get("nexthops", []))
               for r in kernel)


def saved_flows(router):
    """(sender, sender QPN, receiver QPN) of every flow in cnpproxyd's flow
    state file on router (proxy/flows_state.h), sorted; None without
    a whole file."""
    out = router.cmd("base64 -w0 /var/run/frr/cnpproxyd-flows.state 2>/dev/null").strip()
    data = base64.b64decode(out) if out else b""
    if len(data) < 16 or data[:4] != b"PNCF":
        return None
    count = struct.unpack("!I", data[8:12])[0]
    if len(data) != 16 + 84 * count:
        return None
    flows = []
    for i in range(count):
        rec = data[16 + 84 * i:16 + 84 * (i + 1)]
        addr = rec[4:8] if rec[0] == 4 else rec[4:20]
        sqpn, rqpn = struct.unpack("!II", rec[36:44])
        flows.append((str(ipaddress.ip_address(addr)), sqpn, rqpn))
    return sorted(flows)


def expect(want, func, *args, count=40):
    """Poll func(*args) once a second until it returns want; fail with
    its last answer."""
    _, got = topotest.run_and_expect(functools.partial(func, *args), want,
                                     count=count, wait=1)
    assert got == want, got


# ethtool's GRO switch (ETHTOOL_SGRO) from Python: a veth takes frames
# redirected to it by XDP only while its peer runs NAPI, which GRO (or an
# XDP program) turns on.  Without names: every bridge port.
SET_GRO = ("import ctypes, fcntl, os, socket, struct, sys; "
           "s = socket.socket(); "
           "ev = ctypes.create_string_buffer(struct.pack('II', 0x2c, int(sys.argv[1]))); "
           "names = sys.argv[2:] or [n for n in os.listdir('/sys/class/net') "
           "if os.path.exists('/sys/class/net/' + n + '/brport')]; "
           "[fcntl.ioctl(s.fileno(), 0x8946, struct.pack('16sP16x', n.encode(), "
           "ctypes.addressof(ev))) for n in names]")


def set_gro(node, on, *ifnames):
    """GRO on (or off) on a node's interfaces ifnames, or on every bridge
    port it holds."""
    rc, out = run_rc(node, "/usr/bin/python3 -c \"{}\" {} {}".format(
        SET_GRO, 1 if on else 0, " ".join(ifnames)))
    assert rc == 0, out


# Stops one thread of a process (its tid) until its standard input closes
# (at most some seconds): PTRACE_INTERRUPT stops only the thread seized,
# unlike SIGSTOP, which stops them all.  Prints "stopped" once it is.
FREEZE_THREAD = """
import ctypes, os, select, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
tid, seconds = int(sys.argv[1]), float(sys.argv[2])
if libc.ptrace(0x4206, tid, None, None):
    sys.exit('PTRACE_SEIZE: ' + os.strerror(ctypes.get_errno()))
libc.ptrace(0x4207, tid, None, None)
os.waitpid(tid, 0x40000000)
print('stopped', flush=True)
select.select([sys.stdin], [], [], seconds)
libc.ptrace(17, tid, None, None)
"""


def freeze_thread(router, tid, seconds):
    """Stop thread tid of a router's process until the returned helper's
    stdin is closed, or for seconds at most; returns once it is stopped."""
    proc = router.popen(["/usr/bin/python3", "-c", FREEZE_THREAD, str(tid), str(seconds)],
                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, universal_newlines=True)
    line = proc.stdout.readline().strip()
    assert line == "stopped", (line, proc.communicate())
    return proc


def deny_then_permit(router, command):
    """Configure command (vtysh lines, "{}" where deny or permit goes) with
    deny, then with permit: what a prefix-list's entry selects is
    withdrawn and advertised again, so the routers re-originate it."""
    router.vtysh_cmd(command.format("deny"))
    time.sleep(3)  # not a wait: the deny is held so that it floods as a change of its own
    router.vtysh_cmd(command.format("permit"))


def capture(router, iface, capture_filter, seconds, provoke):
    """Capture on a router's interface for some seconds while provoke()
    makes the traffic of interest; return the pcap's path."""
    # In the module's log directory: modules running side by side
    # (pytest-xdist) have routers and interfaces of the same names.
    pcap = os.path.join(router.logdir, "capture-{}-{}.pcap".format(router.name, iface))
    router.cmd("rm -f " + pcap)
    cap = start_tcpdump(router, iface, capture_filter, pcap=pcap, seconds=seconds)
    provoke()
    cap.wait(timeout=seconds + 20)
    return pcap


def start_routers(mod, topodef, confdir, extra_daemons=None):
    """Start a test module's topology: every router reads
    confdir/NAME/frr.conf; extra_daemons maps a router to daemons its
    configuration does not name."""
    # Imported here: the topotest library is on the path only inside pytest.
    from lib.topogen import Topogen

    tgen = Topogen(topodef, mod.__name__)
    tgen.start_topology()
    for rname, router in tgen.routers().items():
        router.load_frr_config(os.path.join(confdir, rname, "frr.conf"),
                               extra_daemons=(extra_daemons or {}).get(rname))
    tgen.start_router()
    return tgen


def gear(name):
    """A router of the running topology, after checking that no daemon died."""
    # Imported here: the topotest library is on the path only inside pytest.
    from lib.topogen import get_topogen

    router = get_topogen().gears[name]
    died = router.check_router_running()
    assert died == "", "a daemon died on {}: {}".format(name, died)
    return router


def reach_entries(node, in_ipv6=False):
    """(prefix, entry) for every IP/IPv6 reachability entry of
    'show isis database detail json'.

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


def route_pnc(router, prefix, protocol):
    """The PNC field of the selected route of protocol to prefix in zebra
    ("none" if absent, "no PROTOCOL route" without such a route)."""
    family = "ipv6" if ":" in prefix else "ip"
    out = router.vtysh_cmd("show {} route {} json".format(family, prefix), isjson=True)
    for entry in out.get(prefix, []):
        if entry.get("protocol") == protocol and entry.get("selected"):
            return entry.get("pnc", "none")
    return "no {} route".format(protocol)


def proxy_lookup(router, addr):
    """cnpproxyd's answer for a sender address: found, proxy and origin."""
    out = router.vtysh_cmd("show cnpproxy lookup {} json".format(addr), isjson=True)
    return {k: out.get(k) for k in ("found", "proxy", "origin")}


def isis_route_pnc(router, prefix):
    """The PNC field of the selected IS-IS route to prefix."""
    return route_pnc(router, prefix, "isis")
