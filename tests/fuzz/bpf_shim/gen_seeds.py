#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""
Seeds of the BPF fuzz targets (tests/fuzz/fuzz_bpf_*.c): frames built by
pnc-pkt (doc/pnc-pkt.md) behind each target's configuration, in the
input layouts the targets document at their top.

    gen_seeds.py PNC_PKT CORPUS_DIR

writes CORPUS_DIR/bpf_learn/, bpf_mark/, bpf_tunnel/ and bpf_border/.
"""
import os
import struct
import subprocess
import sys

PNC_PKT = None


def frames(*args):
    """The frames pnc-pkt builds, Ethernet header included."""
    out = subprocess.run([PNC_PKT, "build", *args, "--eth", "--out", "hex"],
                         check=True, capture_output=True, text=True).stdout
    return [bytes.fromhex(line) for line in out.split()]


def frame(*args):
    return frames(*args)[0]


def vlan(f, tci=100, tpid=0x8100):
    return f[:12] + struct.pack(">HH", tpid, tci) + f[12:]


def write(corpus, target, name, data):
    d = os.path.join(corpus, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


# ---- bpf_learn ---------------------------------------------------------------

def learn_cfg(flags=0, intervals=0, rate=10, burst=4, dscp=48, factors=(1,) * 8,
              min_us=50, grate=1000, gburst=16, fib=0, fib_if=2,
              smac=b"\x02\0\0\0\0\x0a", dmac=b"\x02\0\0\0\0\x0b",
              xsk_base=0, xsk_queues=4, xsk_sockets=0x0f, ip_id=0,
              src4=bytes([192, 0, 2, 9]), src6=bytes.fromhex("20010db8" + "00" * 11 + "09")):
    c = struct.pack("<BBHBB", flags, intervals, rate - 1, burst - 1, dscp)
    c += bytes(factors)
    c += struct.pack("<HHBBB", min_us - 1, grate - 1, gburst - 1, fib, fib_if - 1)
    c += smac + dmac
    c += struct.pack("<BBBI", xsk_base, xsk_queues, xsk_sockets, ip_id)
    c += src4 + src6
    assert len(c) == 60
    return c


def learn_rec(f, op=0, plen=32, adv_us=10, ifindex=1, queue=0, room=0,
              sender_qpn=0x11, pkey=0xffff, sport=0):
    r = struct.pack("<BBHBB", op, plen, adv_us, (ifindex - 1) | queue << 2, room)
    r += struct.pack(">I", sender_qpn)[1:] + struct.pack(">HH", pkey, sport)
    return r + struct.pack("<H", len(f)) + f


LEARN, GUARD, GUARD_LEARN = 0, 1, 2
LOCAL, ACCEPT, DENY, FLOW, NO_ROUTE, MS = 0x04, 0x08, 0x10, 0x20, 0x40, 0x80
F_GUARD, F_XLATE, F_SRC4, F_SRC6, F_XSK, F_TX = 1, 2, 4, 8, 16, 32


def ipv4_csum(f, l3=14):
    """f with the IPv4 header checksum at l3 made right."""
    f = bytearray(f)
    hlen = (f[l3] & 0x0f) * 4
    f[l3 + 10:l3 + 12] = b"\0\0"
    s = sum(struct.unpack(">%dH" % (hlen // 2), bytes(f[l3:l3 + hlen])))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    f[l3 + 10:l3 + 12] = struct.pack(">H", ~s & 0xffff)
    return bytes(f)


def not_delivered(n4, n6):
    """Notifications whose IP or UDP header the kernel refuses or judges."""
    bad = bytearray(n4)
    bad[24] ^= 0x01  # the IPv4 header checksum
    udp_long, udp_short = bytearray(n4), bytearray(n4)
    udp_long[38:40] = struct.pack(">H", struct.unpack(">H", n4[38:40])[0] + 1)
    udp_short[38:40] = struct.pack(">H", struct.unpack(">H", n4[38:40])[0] - 4)
    ip_long = bytearray(n4)
    ip_long[16:18] = struct.pack(">H", struct.unpack(">H", n4[16:18])[0] + 2)
    opts = bytearray(n4[:14] + bytes([0x46]) + n4[15:34] + bytes([1, 1, 1, 0]) + n4[34:])
    opts[16:18] = struct.pack(">H", len(opts) - 14)
    zero6 = bytearray(n6)
    zero6[60:62] = b"\0\0"  # UDP over IPv6 without checksum
    return [bytes(bad), ipv4_csum(udp_long), ipv4_csum(udp_short), ipv4_csum(ip_long),
            ipv4_csum(opts), bytes(zero6), ip6_ext(n6, (0, 8))]


def learn_seeds(corpus):
    t = "bpf_learn"
    v6 = ["src=2001:db8::1", "dst=2001:db8::2"]
    v6r = ["src=2001:db8::2", "dst=2001:db8::1"]
    # CM REQ/REP, both families and a VLAN tag.
    for name, extra in (("cm4", []), ("cm6", v6)):
        req = frame("cm-req", *extra)
        rep = frame("cm-rep", *(v6r if extra else ["src=192.0.2.2", "dst=192.0.2.1"]))
        write(corpus, t, name, learn_cfg() + learn_rec(req) + learn_rec(rep, adv_us=100)
              + learn_rec(vlan(req), room=10) + learn_rec(vlan(rep, tpid=0x88a8)))
    # RC data with AckReq, its ACK (an echo), a NAK, data without AckReq.
    for name, fwd, rev in (("rc4", [], ["src=192.0.2.2", "dst=192.0.2.1"]), ("rc6", v6, v6r)):
        data = frame("rc-write", "only", "psn=0x100", "dqpn=0x22", *fwd)
        plain = frame("rc-write", "middle", "psn=0x101", "ackreq=0", "dqpn=0x22", *fwd)
        ack = frame("ack", "psn=0x100", "dqpn=0x11", "msn=7", *rev)
        nak = frame("ack", "syndrome=nak", "nak=psn-seq", "psn=0x100", "dqpn=0x11", *rev)
        cnp = frame("cnp", *rev)
        body = (learn_rec(data) + learn_rec(plain) + learn_rec(ack, adv_us=5)
                + learn_rec(nak, adv_us=5) + learn_rec(data, adv_us=100)
                + learn_rec(data, adv_us=2000, room=4) + learn_rec(cnp)
                + learn_rec(vlan(ack), op=GUARD_LEARN) + learn_rec(data[:50]))
        write(corpus, t, name, learn_cfg(intervals=0x55) + body)
        write(corpus, t, name + "_every", learn_cfg(intervals=0x00) + body)
    # Notifications: guard, translator (redirect and XDP_TX), AF_XDP.
    inv4 = ["invoking=rc-write", "inv.payload-len=1024", "inv.src=198.51.100.1",
            "inv.dst=198.51.100.2"]
    inv6 = ["invoking=rc-write", "inv.payload-len=2000", "inv.src=2001:db8:1::1",
            "inv.dst=2001:db8:1::2"]
    n4 = frame("notif", *inv4, "cl=5")
    n6 = frame("notif", *v6, *inv6, "cl=2")
    n46 = frame("notif", *v6, *inv4[:1], "inv.payload-len=2000", *inv4[2:], "cl=7")
    whole = frame("notif", "invoking=rc-write", "inv.payload-len=16")
    fcn = frame("fcn", *v6)
    take = LOCAL | ACCEPT | FLOW
    on = F_GUARD | F_XLATE | F_SRC4 | F_SRC6 | F_TX
    for name, n, fib_if in (("notif4", n4, 2), ("notif6", n6, 1), ("notif46", n46, 3)):
        write(corpus, t, name, learn_cfg(flags=on, fib_if=fib_if)
              + learn_rec(n, op=GUARD_LEARN | take, sender_qpn=0x11)
              + learn_rec(n, op=GUARD_LEARN, adv_us=10)
              + learn_rec(n, op=GUARD, adv_us=60000)
              + learn_rec(vlan(n), op=GUARD, adv_us=60000)
              + learn_rec(n, op=GUARD | NO_ROUTE, adv_us=60000)
              + learn_rec(whole, op=GUARD_LEARN | take)
              + learn_rec(n, op=LEARN))
    write(corpus, t, "notif_light", learn_cfg(flags=on, factors=(0,) * 8)
          + learn_rec(n4, op=GUARD | take) + learn_rec(n4, op=GUARD))
    write(corpus, t, "notif_denied", learn_cfg(flags=on)
          + learn_rec(n4, op=GUARD | LOCAL | ACCEPT | DENY, plen=24)
          + learn_rec(n4, op=GUARD | ACCEPT, plen=16)
          + learn_rec(n4, op=GUARD | ACCEPT, plen=30))
    write(corpus, t, "notif_rate", learn_cfg(flags=on, rate=1, burst=2, grate=1, gburst=1)
          + b"".join(learn_rec(n4, op=GUARD | take, adv_us=100) for _ in range(4))
          + learn_rec(n4, op=GUARD | MS, adv_us=1500) + learn_rec(n4, op=GUARD | MS, adv_us=900))
    # A Long-haul CNP (E bit) as invoking packet, cut after its block.
    lh = frame("long-haul-rocev2", "src=198.51.100.1", "dst=198.51.100.2")[14:]
    nlh = frame("notif", "invoking=" + lh[:60].hex(), "cl=4")
    write(corpus, t, "notif_lh", learn_cfg(flags=on) + learn_rec(nlh, op=GUARD | take)
          + learn_rec(frame("notif", "invoking=" + lh[:44].hex()), op=GUARD | take))
    # The guard walks eight IPv6 extension headers; a longer chain to this
    # router may hide a notification and is dropped (guard.bpf.h).
    ext4 = ip6_ext(n6, (0, 8), (60, 8), (43, 24), (44, 8))
    ext5 = ip6_ext(n6, (0, 8), (60, 8), (43, 24), (60, 8), (60, 8))
    ext8 = ip6_ext(n6, (0, 8), (60, 8), (43, 24), (44, 8), *[(60, 8)] * 4)
    ext9 = ip6_ext(n6, (0, 8), *[(60, 8)] * 8)
    far9 = ip6_ext(frame("notif", "src=2001:db8::1", "dst=2001:db8::3", *inv6), (0, 8),
                   *[(60, 8)] * 8)
    write(corpus, t, "notif_ext", learn_cfg(flags=on)
          + learn_rec(n6, op=GUARD | LOCAL | ACCEPT | DENY, plen=0)
          + learn_rec(ext4, op=GUARD) + learn_rec(ext5, op=GUARD_LEARN)
          + learn_rec(ext8, op=GUARD) + learn_rec(ext9, op=GUARD_LEARN)
          + learn_rec(far9, op=GUARD_LEARN) + learn_rec(ext4, op=GUARD | ACCEPT, plen=128)
          + learn_rec(ext9, op=GUARD))
    # Two long extension headers: a chain past 4 KiB is dropped as a long one.
    far = ip6_ext(n6, (60, 2048), (60, 2048))
    write(corpus, t, "notif_far", learn_cfg(flags=on) + learn_rec(far[:2200], op=GUARD | take))
    # What the kernel would not deliver to the socket as it is, the
    # translator leaves to it (xlate.bpf.h); link padding it translates.
    write(corpus, t, "notif_kernel", learn_cfg(flags=on)
          + learn_rec(n4, op=GUARD | take) + learn_rec(n6, op=GUARD | take)
          + b"".join(learn_rec(f, op=GUARD, adv_us=60000) for f in not_delivered(n4, n6))
          + learn_rec(n4 + bytes(6), op=GUARD, adv_us=60000))
    # The notification's ICMP form: guarded like UDP, then to the stack.
    i4 = frame("notif", "icmp=1", *inv4, "cl=5")
    i6 = frame("notif", "icmp=1", *v6, *inv6, "cl=2")
    other = bytearray(i4)
    other[34] = 8  # an echo request: not a notification
    write(corpus, t, "notif_icmp", learn_cfg(flags=on)
          + learn_rec(i4, op=GUARD | take) + learn_rec(i6, op=GUARD_LEARN | take)
          + learn_rec(i4, op=GUARD | LOCAL | ACCEPT | DENY, plen=24)
          + learn_rec(bytes(other), op=GUARD) + learn_rec(ip6_ext(i6, (0, 8)), op=GUARD)
          + learn_rec(ip6_ext(i6, (0, 8), *[(60, 8)] * 8), op=GUARD)
          + learn_rec(i4[:40], op=GUARD))
    write(corpus, t, "xsk", learn_cfg(flags=F_GUARD | F_XSK, xsk_queues=8, xsk_sockets=0x05)
          + learn_rec(n4, op=GUARD | LOCAL | ACCEPT, plen=0)
          + learn_rec(n4, op=GUARD, queue=1) + learn_rec(n4, op=GUARD, queue=2)
          + learn_rec(fcn, op=GUARD_LEARN | LOCAL | ACCEPT, plen=64)
          + learn_rec(vlan(n6), op=GUARD | LOCAL | ACCEPT, queue=2))


# ---- bpf_mark ----------------------------------------------------------------

ONE = 65536


def mark_cfg(flags=0x1f, ect1=0, ce=0, interval_us=0, life_ms=1000):
    return struct.pack("<BIIHH", flags, ect1, ce, interval_us, life_ms)


def mark_rec(f, ifindex=1, gso=False, adv_us=10, r1=0, r2=0, room=0):
    op = (ifindex - 1) | (4 if gso else 0)
    return struct.pack("<BHIIBH", op, adv_us, r1, r2, room, len(f)) + f


ETH = bytes.fromhex("020000000002020000000001")


def ip6_tunnel(inner_ip, nh, tclass=0x02, label=0x12345, srh=False):
    """inner_ip in an outer IPv6 header (a one-segment SRH before it)."""
    src = bytes.fromhex("20010db8ffff" + "00" * 9 + "01")
    dst = bytes.fromhex("20010db8eeee" + "00" * 9 + "02")
    payload, first = inner_ip, nh
    if srh:
        payload = bytes([nh, 2, 4, 0]) + bytes(4) + dst + inner_ip
        first = 43
    hdr = struct.pack(">IHBB", 6 << 28 | tclass << 20 | label, len(payload), first, 64)
    return ETH + b"\x86\xdd" + hdr + src + dst + payload


def vxlan_tunnel(inner_ip, version, vni=0x0a0b0c, flags=0x08, label=0x2468a):
    """inner_ip in an Ethernet frame in VXLAN (UDP 4789) over IPv6."""
    eth = bytes.fromhex("02005e005301" "020000000001") + (b"\x08\x00" if version == 4
                                                          else b"\x86\xdd")
    vx = bytes([flags, 0, 0, 0]) + struct.pack(">I", vni << 8)
    udp = struct.pack(">HHHH", 0xc123, 4789, 8 + len(vx) + len(eth) + len(inner_ip), 0)
    return ip6_tunnel(udp + vx + eth + inner_ip, 17, label=label)


def mark_seeds(corpus):
    t = "bpf_mark"
    v6 = ["src=2001:db8::1", "dst=2001:db8::2"]
    ect0 = frame("rc-write", "only", "ecn=2")
    ect1 = frame("rc-write", "only", "ecn=1")
    ce = frame("rc-write", "only", "ecn=3")
    notect = frame("rc-write", "only", "ecn=0")
    ect0_6 = frame("rc-write", "only", "ecn=2", *v6)
    ack6 = frame("ack", "ecn=1", *v6)
    inner4 = frame("rc-write", "only", "ecn=2", "payload-len=256")[14:]
    inner6 = frame("rc-write", "only", "ecn=2", "payload-len=256", *v6)[14:]
    tun = [ip6_tunnel(inner4, 4), ip6_tunnel(inner6, 41, label=0x54321),
           ip6_tunnel(inner4, 4, srh=True), ip6_tunnel(inner6, 41, tclass=0x03)]
    other = frame("notif", "invoking=rc-write", "inv.payload-len=1024", "ecn=2")
    plain = (mark_rec(ect0) + mark_rec(ect1) + mark_rec(ce) + mark_rec(notect)
             + mark_rec(ect0_6) + mark_rec(ack6) + mark_rec(vlan(ect0))
             + mark_rec(other) + mark_rec(ect0[:40]) + mark_rec(ect0, ifindex=3))
    write(corpus, t, "always_ce", mark_cfg(ce=ONE) + plain)
    write(corpus, t, "always_ect1", mark_cfg(ect1=ONE) + plain)
    write(corpus, t, "drawn", mark_cfg(ect1=0x8000, ce=0x4000, interval_us=50)
          + mark_rec(ect0, r1=0x3fff) + mark_rec(ect0, r1=0x4000, r2=0x7fff)
          + mark_rec(ect0, r1=0xffff, r2=0xffff) + mark_rec(ect1, r1=0x1000)
          + mark_rec(ect0_6, r1=0xc000, r2=0x0001, room=100))
    write(corpus, t, "tunnel", mark_cfg(ce=0x8000, interval_us=100)
          + b"".join(mark_rec(f, r1=i * 0x5000) for i, f in enumerate(tun))
          + b"".join(mark_rec(f, adv_us=50) for f in tun)
          + mark_rec(vlan(tun[2]), adv_us=200) + mark_rec(tun[1][:80]))
    # VXLAN over IPv6 (seed 001): the inner flow, named by the outer label.
    vx = [vxlan_tunnel(inner4, 4), vxlan_tunnel(inner6, 6, label=0x13579),
          vxlan_tunnel(inner4, 4, flags=0), vxlan_tunnel(inner4, 6)]
    write(corpus, t, "vxlan", mark_cfg(ce=0x8000, interval_us=100)
          + b"".join(mark_rec(f, r1=i * 0x5000) for i, f in enumerate(vx))
          + mark_rec(vx[0], adv_us=200) + mark_rec(vx[0][:90]) + mark_rec(vx[1][:70]))
    bad6 = bytearray(ip6_tunnel(inner6, 41))
    bad6[54] = 0x40
    write(corpus, t, "inner_version", mark_cfg(ce=ONE) + mark_rec(bytes(bad6)))
    write(corpus, t, "stale", mark_cfg(flags=0x15, ce=ONE, life_ms=1)
          + mark_rec(ect0, ifindex=2) + mark_rec(ect0) + mark_rec(ect0, adv_us=60000))
    big = frame("rc-write", "only", "ecn=2", "payload-len=3000")
    gso = bytearray(ect0_6)
    gso[18:20] = b"\0\0"
    write(corpus, t, "big", mark_cfg(ce=ONE, flags=0x1d) + mark_rec(big)
          + mark_rec(bytes(gso), gso=True) + mark_rec(bytes(gso)))


# ---- bpf_tunnel ---------------------------------------------------------------

PE = bytes.fromhex("20010db8aaaa" + "00" * 9 + "01")
EGRESS = bytes.fromhex("20010db8bbbb" + "00" * 9 + "02")


def tunnel_cfg(flags=0x01, hop=0, src=PE, seed=0, taken=0, mtu=1500, hashv=0x1234567):
    return struct.pack("<BB", flags, hop) + src + struct.pack("<IBHI", seed, taken, mtu - 68,
                                                              hashv)


def tunnel_rec(f, op=0, plen=24, lin=0, dst=EGRESS, adv_us=10):
    return struct.pack("<BBH", op, plen, lin) + dst + struct.pack("<HH", adv_us, len(f)) + f


DECAP, TUNNEL, GSO, ROUNDTRIP, SID, VXLAN = 1, 2, 4, 8, 16, 32


def tunnel_seeds(corpus):
    t = "bpf_tunnel"
    v6 = ["src=2001:db8::1", "dst=2001:db8::2"]
    data = frame("rc-write", "only", "ecn=2")
    data6 = frame("rc-write", "only", "ecn=1", *v6)
    ack = frame("ack", "src=192.0.2.2", "dst=192.0.2.1")
    req = frame("cm-req")
    other = frame("notif", "invoking=rc-write", "inv.payload-len=64")
    frag = bytearray(data)
    frag[20] |= 0x20
    big = frame("rc-write", "only", "payload-len=1500")
    rt = TUNNEL | ROUNDTRIP
    write(corpus, t, "encap", tunnel_cfg()
          + tunnel_rec(data, op=rt) + tunnel_rec(data, op=ROUNDTRIP, lin=20)
          + tunnel_rec(ack, op=rt, plen=32) + tunnel_rec(req, op=ROUNDTRIP)
          + tunnel_rec(other, op=ROUNDTRIP) + tunnel_rec(bytes(frag), op=ROUNDTRIP)
          + tunnel_rec(data6, op=rt, plen=64) + tunnel_rec(data6, op=ROUNDTRIP, lin=60)
          + tunnel_rec(big, op=ROUNDTRIP) + tunnel_rec(big, op=ROUNDTRIP | GSO)
          + tunnel_rec(vlan(data), op=ROUNDTRIP) + tunnel_rec(data[:30], op=ROUNDTRIP))
    write(corpus, t, "zero_other", tunnel_cfg(flags=0x07, hop=9, mtu=1280)
          + tunnel_rec(other, op=rt, plen=0) + tunnel_rec(big, op=rt | GSO)
          + tunnel_rec(data, op=rt, plen=0))
    write(corpus, t, "no_source", tunnel_cfg(flags=0) + tunnel_rec(data, op=rt))
    write(corpus, t, "taken", tunnel_cfg(seed=0x7fffe, taken=3)
          + tunnel_rec(data, op=rt) + tunnel_rec(data6, op=rt, plen=128)
          + tunnel_rec(ack, op=rt))
    write(corpus, t, "full", tunnel_cfg(seed=77, taken=5) + tunnel_rec(data, op=rt))
    # VXLAN over IPv6: 70 octets in front, the MTU counted with them.
    write(corpus, t, "vxlan", tunnel_cfg()
          + tunnel_rec(data, op=rt | VXLAN) + tunnel_rec(data, op=ROUNDTRIP)
          + tunnel_rec(data6, op=rt | VXLAN, plen=64) + tunnel_rec(other, op=ROUNDTRIP)
          + tunnel_rec(ack, op=rt | VXLAN, plen=32) + tunnel_rec(big, op=ROUNDTRIP)
          + tunnel_rec(big, op=ROUNDTRIP | GSO) + tunnel_rec(data, op=rt, plen=16))
    write(corpus, t, "vxlan_mtu", tunnel_cfg(mtu=1170)
          + tunnel_rec(frame("rc-write", "only", "payload-len=1060"), op=rt | VXLAN, plen=0)
          + tunnel_rec(frame("rc-write", "only", "payload-len=1060"), op=rt, plen=0))
    # The egress PE: CE copied in (IPv4 with its checksum, IPv6), dropped
    # over Not-ECT, ECT(1) left outside; not for us; truncated.
    inner4 = frame("rc-write", "only", "ecn=2")[14:]
    inner6 = frame("rc-write", "only", "ecn=2", *v6)[14:]
    notect = frame("rc-write", "only", "ecn=0")[14:]
    ce4 = ip6_tunnel(inner4, 4, tclass=0x03)
    ce6 = ip6_tunnel(inner6, 41, tclass=0x03)
    write(corpus, t, "decap", tunnel_cfg()
          + tunnel_rec(ce4, op=DECAP | SID) + tunnel_rec(ce6, op=DECAP)
          + tunnel_rec(ip6_tunnel(notect, 4, tclass=0x03), op=DECAP)
          + tunnel_rec(ip6_tunnel(inner4, 4, tclass=0x01), op=DECAP)
          + tunnel_rec(ip6_tunnel(inner4, 4, srh=True), op=DECAP)
          + tunnel_rec(ip6_tunnel(inner6, 4), op=DECAP)
          + tunnel_rec(ce4[:60], op=DECAP) + tunnel_rec(ce4, op=DECAP, lin=40)
          + tunnel_rec(ce4[:50], op=DECAP) + tunnel_rec(ce4[:55], op=DECAP)
          + tunnel_rec(ce4[:64], op=DECAP) + tunnel_rec(ip6_tunnel(inner4, 41), op=DECAP)
          + tunnel_rec(data, op=DECAP))


# ---- bpf_border --------------------------------------------------------------

def border_rec(f, ifindex=1, swap=False, lin=0, out=False):
    op = (ifindex - 1) | (4 if swap else 0) | (8 if out else 0)
    return struct.pack("<BHH", op, lin, len(f)) + f


def ip6_ext(f, *exts):
    """An IPv6 frame with extension headers (next header, octets) before its payload."""
    hdr, payload = f[14:54], f[54:]
    nh = hdr[6]
    chain = b""
    for kind, size in reversed(exts):
        body = bytes([nh, size // 8 - 1]) + bytes(size - 2)
        if kind == 44:
            body = bytes([nh, 0, 0, 0]) + bytes(4)
        chain = body + chain
        nh = kind
    hdr = hdr[:4] + struct.pack(">HB", len(chain) + len(payload), nh) + hdr[7:]
    return f[:14] + hdr + chain + payload


def border_seeds(corpus):
    t = "bpf_border"
    v6 = ["src=2001:db8::1", "dst=2001:db8::2"]
    n4 = frame("notif", "invoking=rc-write")
    n6 = frame("notif", *v6, "invoking=rc-write")
    fcn = frame("fcn", *v6)
    data = frame("rc-write", "only")
    frag = bytearray(n4)
    frag[20] = 0x01
    exts = ip6_ext(n6, (0, 8), (60, 16), (44, 8))
    four = ip6_ext(n6, (0, 8), (60, 8), (43, 24), (60, 8))
    five = ip6_ext(n6, (0, 8), (60, 8), (43, 24), (60, 8), (60, 8))
    # Eight extension headers are walked; a longer chain is dropped
    # whatever it holds (border.bpf.c).
    eight = ip6_ext(n6, (0, 8), (60, 8), (43, 24), (44, 8), *[(60, 8)] * 4)
    data6 = frame("rc-write", "only", *v6)
    chain = ((0, 8), *[(60, 8)] * 8)
    cfg = struct.pack("<HHB", 0, 0, 0x03)
    write(corpus, t, "ports", cfg + border_rec(n4) + border_rec(n6, ifindex=2)
          + border_rec(fcn) + border_rec(data) + border_rec(bytes(frag))
          + border_rec(exts) + border_rec(four) + border_rec(five) + border_rec(eight)
          + border_rec(ip6_ext(n6, *chain)) + border_rec(ip6_ext(data6, *chain), ifindex=2)
          + border_rec(ip6_ext(data6, *chain[:8])) + border_rec(vlan(n4))
          + border_rec(n4, swap=True) + border_rec(n4[:40], ifindex=3) + border_rec(n6, lin=20))
    write(corpus, t, "other_ports", struct.pack("<HHB", 4791, 0, 0x01) + border_rec(data)
          + border_rec(n4) + border_rec(exts))
    # The notification's ICMP form: its types dropped both ways (flags 0x04),
    # other ICMP and other types not; 0x08 configures other types.
    i4 = frame("notif", "icmp=1", "invoking=rc-write")
    i6 = frame("notif", "icmp=1", *v6, "invoking=rc-write")
    echo = bytearray(i4)
    echo[34] = 8
    ifrag = bytearray(i4)
    ifrag[20] = 0x01
    icmp = (border_rec(i4) + border_rec(i6, ifindex=2) + border_rec(i4, out=True)
            + border_rec(i6, out=True) + border_rec(bytes(echo)) + border_rec(bytes(ifrag))
            + border_rec(ip6_ext(i6, (0, 8), (44, 8))) + border_rec(i4[:34]))
    write(corpus, t, "icmp", struct.pack("<HHB", 0, 0, 0x07) + icmp)
    write(corpus, t, "icmp_other_types", struct.pack("<HHB", 0, 0, 0x0f) + icmp)
    write(corpus, t, "icmp_none", struct.pack("<HHB", 0, 0, 0x03) + icmp)
    # Leaving by the border (seed 002 8), on both interfaces, beside arrivals.
    write(corpus, t, "leaving", cfg + border_rec(n4, out=True) + border_rec(n6, 2, out=True)
          + border_rec(fcn, out=True) + border_rec(data, out=True) + border_rec(n4)
          + border_rec(ip6_ext(n6, *chain), 2, out=True) + border_rec(exts, out=True))


def main():
    global PNC_PKT
    PNC_PKT, corpus = sys.argv[1], sys.argv[2]
    learn_seeds(corpus)
    mark_seeds(corpus)
    tunnel_seeds(corpus)
    border_seeds(corpus)


if __name__ == "__main__":
    main()
