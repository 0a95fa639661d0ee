// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * XDP-native translator: a stage of the proxy's XDP program, after the
 * guard, on the filter interfaces, when `proxy fast-path xdp` is set.
 *
 * A notification the guard let through is turned, in place, into the
 * standard CNP its flow's sender understands, and sent from the driver:
 * the flow comes from the map the daemon publishes from its flow table
 * (senders configured for another format are not in it), the route and
 * MAC addresses from the kernel's FIB, the interface from the transmit
 * map of interfaces that can take XDP frames.  The level policy, the
 * global limit and the per-QP minimum interval are enforced here, and
 * counted as the socket path counts them.
 *
 * The socket path stays the reference.  Whatever this stage is not sure
 * it would translate the same way goes on to it untouched (XDP_PASS):
 * the flow-label port, a datagram the kernel would not deliver to the
 * socket as it is (xlate_outer(): the kernel, or cnpproxy_proxy_frame() for
 * AF_XDP, drops and counts what is malformed), an MPLS start, an
 * invoking packet complete in the notification (the socket path
 * verifies its ICRC), anything a check below refuses (the socket path
 * counts the reason), a flow not in the map, no CNP source address, no
 * route or neighbour, an interface that cannot transmit XDP frames.
 *
 * The CNP is the codec's (codec/roce.c pnc_cnp_encode) octet for octet:
 * IP with DF and TTL 64, UDP checksum 0, BTH with BECN, 16 reserved
 * octets and the ICRC, which is computed here with the codec's table.
 */
#ifndef _CNPPROXY_PROXY_XDP_XLATE_BPF_H
#define _CNPPROXY_PROXY_XDP_XLATE_BPF_H

#include "xlate_abi.h"

/* The CNP after the UDP header, and the CNPs without their ICRC. */
#define XLATE_CNP_BODY (PNC_BTH_LEN + PNC_CNP_RSVD_LEN + PNC_ICRC_LEN)
#define XLATE_CNP_V4   (PNC_CNP_LEN4 - PNC_ICRC_LEN)
#define XLATE_CNP_MAX  (PNC_CNP_LEN6 - PNC_ICRC_LEN)
_Static_assert(XLATE_CNP_MAX == 4 * PNC_XLATE_CNP_WORDS &&
		       XLATE_CNP_V4 == 4 * PNC_XLATE_CNP_V4_WORDS,
	       "the ICRC takes the CNP four octets at a time");
#define XLATE_AF_INET	    2
#define XLATE_AF_INET6	    10
#define XLATE_NS_PER_S	    1000000000ULL

/* Writable at run time through the skeleton's .bss mapping. */
struct pnc_xlate_cfg pnc_xlate_cfg;
/* IPv4 identification of the CNPs sent here (never 0). */
__u32 pnc_xlate_ip_id;

/*
 * Filled by the loader before the program is loaded, all from the
 * codec, so that this stage cannot disagree with it: the CRC-32 tables
 * for four octets at a time (slicing by 4: [0] is the octet table, [k]
 * an octet followed by k zero octets), the register after the eight
 * octets of ones standing for the LRH, the bits of a CNP's octets the
 * ICRC leaves out (version 4, then 6; four octets a word, the first
 * in the low bits), and the length of the headers after the BTH per
 * opcode (-1 unknown).
 */
const volatile __u32 pnc_xlate_crc[PNC_XLATE_CRC_SLICES][256];
const volatile __u32 pnc_xlate_icrc_seed;
const volatile __u32 pnc_xlate_icrc_mask[2][PNC_XLATE_CNP_WORDS];
const volatile __s8 pnc_xlate_ext_len[256];

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, PNC_XLATE_FLOWS_MAX);
	__type(key, struct pnc_xlate_key);
	__type(value, struct pnc_xlate_flow);
} xlate_flows SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, PNC_XLATE_QPS_MAX);
	__type(key, struct pnc_xlate_qp);
	__type(value, __u64); /* ktime of the last CNP */
} xlate_qps SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pnc_xlate_global);
} xlate_global SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP_HASH);
	__uint(max_entries, PNC_XLATE_TX_MAX);
	__type(key, __u32);
	__type(value, struct bpf_devmap_val);
} xlate_tx SEC(".maps");

/*
 * Where the CNP is built: off the stack, which the guard's and the
 * learner's frames share with this subprogram within 512 octets.
 */
struct xlate_scratch {
	__u8 b[XLATE_CNP_MAX];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xlate_scratch);
} xlate_scratch SEC(".maps");

/* What the invoking packet says, copied out before the frame is rewritten. */
struct xlate_inv {
	struct pnc_xlate_key key;
	__u8 cl;
};

static __always_inline __u16 xlate_be16(const __u8 *p)
{
	return (__u16)p[0] << 8 | p[1];
}

/* The ones'-complement sum of a 20-octet IPv4 header, folded to 16 bits. */
static __always_inline __u16 xlate_ipv4_sum(const __u8 *ip)
{
	__u32 sum = 0;

	for (int i = 0; i < PNC_IPV4_HLEN; i += 2)
		sum += xlate_be16(ip + i);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return sum;
}

/*
 * Whether the kernel would deliver the UDP datagram at ip to a socket as
 * it is, by the checks AF_XDP receive makes (pnc_ipudp_parse()): IPv4
 * without options, its header checksum right, not a fragment; IPv6 with
 * UDP right after the fixed header (options and extension headers are
 * the kernel's to judge); the UDP length that of the IP payload, inside
 * the frame; a checksum in an IPv6 UDP datagram (RFC 8200).  Not the UDP
 * checksum itself: in a frame from a veth or an offloading sender it is
 * not final yet (see cnpproxy_proxy_frame()).
 */
static __always_inline bool xlate_outer(const __u8 *ip, void *data_end, __u32 frame_left,
					__u16 proto)
{
	__u32 hlen, ip_len;
	const __u8 *udp;

	if (proto == bpf_htons(PNC_ETH_P_IP)) {
		if ((void *)(ip + PNC_IPV4_HLEN + PNC_UDP_HLEN) > data_end)
			return false;
		if (ip[0] != 0x45 || (xlate_be16(ip + 6) & 0x3fff) || xlate_ipv4_sum(ip) != 0xffff)
			return false;
		hlen = PNC_IPV4_HLEN;
		ip_len = xlate_be16(ip + 2);
	} else {
		if ((void *)(ip + PNC_IPV6_HLEN + PNC_UDP_HLEN) > data_end)
			return false;
		if (ip[0] >> 4 != 6 || ip[6] != IPPROTO_UDP)
			return false;
		hlen = PNC_IPV6_HLEN;
		ip_len = PNC_IPV6_HLEN + xlate_be16(ip + 4);
	}
	udp = ip + hlen;
	/* Octets past the IP length are link padding, which the kernel trims. */
	if (ip_len > frame_left || ip_len < hlen + PNC_UDP_HLEN)
		return false;
	if (xlate_be16(udp + 4) != ip_len - hlen)
		return false;
	return hlen == PNC_IPV4_HLEN || xlate_be16(udp + 6);
}

/*
 * The invoking packet's IP, UDP and BTH, checked as the codec checks a
 * truncated one (pnc_roce_parse): false when the socket path should
 * judge it.
 */
static __always_inline bool xlate_invoking(const __u8 *ip, void *data_end, __u32 avail,
					   struct xlate_inv *inv)
{
	__u32 hlen, pkt_len, udp_len, body;
	const __u8 *udp, *bth;
	__s32 ext;
	__u8 op;

	if ((void *)(ip + PNC_IPV4_HLEN + PNC_UDP_HLEN + PNC_BTH_LEN) > data_end)
		return false;
	if (ip[0] >> 4 == 4) {
		if ((ip[0] & 0x0f) != 5 || ip[9] != IPPROTO_UDP)
			return false;
		if (xlate_be16(ip + 6) & 0x3fff) /* MF or an offset */
			return false;
		if (xlate_ipv4_sum(ip) != 0xffff)
			return false;
		hlen = PNC_IPV4_HLEN;
		pkt_len = xlate_be16(ip + 2);
		inv->key.version = 4;
		__builtin_memcpy(inv->key.sender, ip + 12, 4);
		__builtin_memcpy(inv->key.receiver, ip + 16, 4);
	} else if (ip[0] >> 4 == 6) {
		if ((void *)(ip + PNC_IPV6_HLEN + PNC_UDP_HLEN + PNC_BTH_LEN) > data_end)
			return false;
		if (ip[6] != IPPROTO_UDP)
			return false;
		hlen = PNC_IPV6_HLEN;
		pkt_len = PNC_IPV6_HLEN + xlate_be16(ip + 4);
		inv->key.version = 6;
		__builtin_memcpy(inv->key.sender, ip + 8, 16);
		__builtin_memcpy(inv->key.receiver, ip + 24, 16);
	} else {
		return false;
	}
	/* Complete: the socket path checks its UDP checksum and ICRC. */
	if (avail >= pkt_len || avail < hlen + PNC_UDP_HLEN + PNC_BTH_LEN)
		return false;
	udp = ip + hlen;
	udp_len = xlate_be16(udp + 4);
	if (udp_len != pkt_len - hlen || xlate_be16(udp + 2) != PNC_ROCE_UDP_PORT)
		return false;
	if (udp_len < PNC_UDP_HLEN + PNC_BTH_LEN + 4)
		return false;
	bth = udp + PNC_UDP_HLEN;
	if (bth[PNC_BTH_OFF_FLAGS] & PNC_BTH_TVER_MASK)
		return false;
	op = bth[PNC_BTH_OFF_OPCODE];
	ext = pnc_xlate_ext_len[op];
	if (op == PNC_OP_CNP && (bth[PNC_BTH_OFF_FB] & PNC_BTH_RESV6_EBIT))
		ext = PNC_LH_ROCE_EXT_LEN;
	body = udp_len - PNC_UDP_HLEN - PNC_BTH_LEN - 4;
	if (body < (ext > 0 ? (__u32)ext : 0) + ((bth[PNC_BTH_OFF_FLAGS] >> PNC_BTH_PAD_SHIFT) & 3))
		return false;
	if (ext >= 0 && (body & 3))
		return false;
	inv->key.receiver_qpn = pnc_bpf_bth_dest_qp(bth);
	return true;
}

/* The notification (doc/wire-formats.md 6.2) at n: its level and flow. */
static __always_inline bool xlate_notification(const __u8 *n, void *data_end, __u32 len,
					       struct xlate_inv *inv)
{
	__u32 hlen;

	if ((void *)(n + PNC_IPV6_HLEN) > data_end || len < 4 || len > PNC_NOTIF_MAX_LEN6)
		return false;
	if (n[0] >> 4 != PNC_NOTIF_VERSION)
		return false;
	if ((n[0] & 0x0f) == 4)
		hlen = 16;
	else if ((n[0] & 0x0f) == 6)
		hlen = 40;
	else
		return false;
	if (!(n[2] & PNC_NOTIF_F_INVOKING) || len <= hlen || n[3] >= PNC_NOTIF_START_MPLS)
		return false;
	inv->cl = n[2] >> 5;
	return xlate_invoking(n + hlen, data_end, len - hlen, inv);
}

/* A token from the global bucket; false when it is empty. */
static __always_inline bool xlate_global_take(void)
{
	__u64 now = bpf_ktime_get_ns(), cap = pnc_xlate_cfg.global_burst * 1000000ULL, elapsed;
	struct pnc_xlate_global *g;
	__u32 zero = 0;
	bool ok;

	g = bpf_map_lookup_elem(&xlate_global, &zero);
	if (!g)
		return false;
	bpf_spin_lock(&g->lock);
	elapsed = now > g->last_ns ? now - g->last_ns : 0;
	if (elapsed > XLATE_NS_PER_S)
		elapsed = XLATE_NS_PER_S;
	/* last_ns 0: the bucket was (re)set by the loader and starts full. */
	g->micro = g->last_ns ? g->micro + elapsed * pnc_xlate_cfg.global_rate / 1000 : cap;
	if (g->micro > cap)
		g->micro = cap;
	g->last_ns = now;
	ok = g->micro >= 1000000ULL;
	if (ok)
		g->micro -= 1000000ULL;
	bpf_spin_unlock(&g->lock);
	return ok;
}

/*
 * The sender QP's minimum interval, times factor: true when a CNP may
 * go now, and then it is recorded.  Compare-and-swap, so that two CPUs
 * never both send within one interval.
 */
static __always_inline bool xlate_interval_ok(const struct xlate_inv *inv, __u32 sender_qpn,
					      __u8 factor)
{
	struct pnc_xlate_qp key = {};
	__u64 now = bpf_ktime_get_ns(), *last, seen;

	key.version = inv->key.version;
	key.sender_qpn = sender_qpn;
	__builtin_memcpy(key.sender, inv->key.sender, 16);
	last = bpf_map_lookup_elem(&xlate_qps, &key);
	if (!last) {
		bpf_map_update_elem(&xlate_qps, &key, &now, BPF_NOEXIST);
		return true;
	}
	seen = *last;
	if (now - seen < pnc_xlate_cfg.min_interval_ns * factor)
		return false;
	return __sync_val_compare_and_swap(last, seen, now) == seen;
}

/* The CNP from its IP header up to the ICRC, as pnc_cnp_encode() writes it. */
static __always_inline __u32 xlate_build(__u8 *b, const struct xlate_inv *inv,
					 const struct pnc_xlate_flow *f, __u16 ip_id)
{
	__u16 sport = f->udp_sport ? f->udp_sport : PNC_UDP_SPORT_DEFAULT;
	__u32 hlen, n;
	__u8 *u;

	if (inv->key.version == 4) {
		hlen = PNC_IPV4_HLEN;
		b[0] = 0x45;
		b[1] = pnc_xlate_cfg.tos;
		b[2] = 0;
		b[3] = PNC_IPV4_HLEN + PNC_UDP_HLEN + XLATE_CNP_BODY;
		b[4] = ip_id >> 8;
		b[5] = ip_id;
		b[6] = 0x40; /* DF */
		b[7] = 0;
		b[8] = PNC_IP_TTL;
		b[9] = IPPROTO_UDP;
		b[10] = b[11] = 0;
		__builtin_memcpy(b + 12, pnc_xlate_cfg.src4, 4);
		__builtin_memcpy(b + 16, inv->key.sender, 4);
	} else {
		hlen = PNC_IPV6_HLEN;
		b[0] = 0x60 | pnc_xlate_cfg.tos >> 4;
		b[1] = pnc_xlate_cfg.tos << 4; /* flow label 0 */
		b[2] = b[3] = 0;
		b[4] = 0;
		b[5] = PNC_UDP_HLEN + XLATE_CNP_BODY;
		b[6] = IPPROTO_UDP;
		b[7] = PNC_IP_TTL;
		__builtin_memcpy(b + 8, pnc_xlate_cfg.src6, 16);
		__builtin_memcpy(b + 24, inv->key.sender, 16);
	}
	u = b + hlen;
	u[0] = sport >> 8;
	u[1] = sport;
	u[2] = PNC_ROCE_UDP_PORT >> 8;
	u[3] = PNC_ROCE_UDP_PORT & 0xff;
	u[4] = 0;
	u[5] = PNC_UDP_HLEN + XLATE_CNP_BODY;
	u[6] = u[7] = 0;
	u += PNC_UDP_HLEN;
	u[0] = PNC_OP_CNP;
	u[1] = 0;
	u[2] = f->pkey >> 8;
	u[3] = f->pkey;
	u[4] = 0x40; /* BECN */
	u[5] = f->sender_qpn >> 16;
	u[6] = f->sender_qpn >> 8;
	u[7] = f->sender_qpn;
	__builtin_memset(u + 8, 0, 4 + 16); /* AckReq, PSN 0; reserved */
	n = hlen + PNC_UDP_HLEN + PNC_BTH_LEN + PNC_CNP_RSVD_LEN;
	return n;
}

/*
 * The words are loaded as the host orders them: the slicing and the
 * masks take the first octet in the low bits.
 */
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the translator's ICRC assumes a little-endian BPF target"
#endif

/* Four octets (first in the low bits) into the CRC-32 register. */
static __always_inline __u32 xlate_crc_word(__u32 reg, __u32 w)
{
	reg ^= w;
	return pnc_xlate_crc[3][reg & 0xff] ^ pnc_xlate_crc[2][(reg >> 8) & 0xff] ^
	       pnc_xlate_crc[1][(reg >> 16) & 0xff] ^ pnc_xlate_crc[0][reg >> 24];
}

/*
 * ICRC of the CNP at b (XLATE_CNP_V4 or XLATE_CNP_MAX octets), the
 * variant fields set to ones as the codec does: a word at a time, the
 * masked bits ORed in.
 */
static __always_inline __u32 xlate_icrc(const __u8 *b, __u8 version)
{
	const int v = version == 4 ? 0 : 1;
	__u32 reg = pnc_xlate_icrc_seed;

#pragma unroll
	for (int i = 0; i < XLATE_CNP_V4 / 4; i++)
		reg = xlate_crc_word(reg, *(const __u32 *)(b + 4 * i) | pnc_xlate_icrc_mask[v][i]);
	if (version == 4)
		return ~reg;
#pragma unroll
	for (int i = XLATE_CNP_V4 / 4; i < XLATE_CNP_MAX / 4; i++)
		reg = xlate_crc_word(reg, *(const __u32 *)(b + 4 * i) | pnc_xlate_icrc_mask[v][i]);
	return ~reg;
}

/* The header checksum field must be zero when this is called. */
static __always_inline void xlate_ipv4_csum(__u8 *b)
{
	__u16 sum = ~xlate_ipv4_sum(b);

	b[10] = sum >> 8;
	b[11] = sum;
}

/* The route to the sender, from the CNP's source address. */
static __always_inline bool xlate_route(struct xdp_md *ctx, const struct xlate_inv *inv,
					struct bpf_fib_lookup *fib)
{
	__builtin_memset(fib, 0, sizeof(*fib));
	fib->ifindex = ctx->ingress_ifindex;
	fib->l4_protocol = IPPROTO_UDP;
	fib->dport = bpf_htons(PNC_ROCE_UDP_PORT);
	if (inv->key.version == 4) {
		fib->family = XLATE_AF_INET;
		fib->tot_len = PNC_IPV4_HLEN + PNC_UDP_HLEN + XLATE_CNP_BODY;
		__builtin_memcpy(&fib->ipv4_src, pnc_xlate_cfg.src4, 4);
		__builtin_memcpy(&fib->ipv4_dst, inv->key.sender, 4);
	} else {
		fib->family = XLATE_AF_INET6;
		fib->tot_len = PNC_IPV6_HLEN + PNC_UDP_HLEN + XLATE_CNP_BODY;
		__builtin_memcpy(fib->ipv6_src, pnc_xlate_cfg.src6, 16);
		__builtin_memcpy(fib->ipv6_dst, inv->key.sender, 16);
	}
	if (bpf_fib_lookup(ctx, fib, sizeof(*fib), 0) != BPF_FIB_LKUP_RET_SUCCESS)
		return false;
	/* Only to an interface that takes XDP frames (the loader checks). */
	return bpf_map_lookup_elem(&xlate_tx, &fib->ifindex) != NULL;
}

/* Received and decided here: one of the socket path's outcomes. */
static __always_inline int xlate_done(__u32 outcome, int action)
{
	count(PNC_LEARN_C_XLATE_RX);
	count(outcome);
	return action;
}

/*
 * A BPF subprogram, not inlined: verified once rather than in each entry
 * point, and its reloads of ctx->data after the frame is resized stay
 * apart from the callers' loads (merged, they would make one context
 * access of a variable offset, which the verifier refuses).
 */
static __noinline int xlate(struct xdp_md *ctx, __u32 udp_off)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	const struct pnc_xlate_flow *fp;
	struct pnc_xlate_flow f;
	struct bpf_fib_lookup fib;
	struct xlate_inv inv = {};
	const __u32 zero = 0;
	__u8 *b;
	__u32 n, icrc, frame;
	__u16 ip_id;
	__u8 *udp, *out;
	__u8 factor;

	/* Bounded for the verifier: the guard finds UDP within 4 KiB or so. */
	udp = data + (udp_off & 0x1fff);
	if ((void *)(udp + PNC_UDP_HLEN) > data_end ||
	    !xlate_notification(udp + PNC_UDP_HLEN, data_end, xlate_be16(udp + 4) - PNC_UDP_HLEN,
				&inv)) {
		count(PNC_LEARN_C_XLATE_PASS_OTHER);
		return XDP_PASS;
	}
	fp = bpf_map_lookup_elem(&xlate_flows, &inv.key);
	if (!fp) {
		count(PNC_LEARN_C_XLATE_PASS_FLOW);
		return XDP_PASS;
	}
	f = *fp;
	factor = pnc_xlate_cfg.factor[inv.cl & (PNC_XLATE_LEVELS - 1)];
	if (!factor)
		return xlate_done(PNC_LEARN_C_XLATE_LIGHT, XDP_DROP);
	if (!(inv.key.version == 4 ? pnc_xlate_cfg.src4_set : pnc_xlate_cfg.src6_set)) {
		count(PNC_LEARN_C_XLATE_PASS_OTHER);
		return XDP_PASS;
	}
	if (!xlate_route(ctx, &inv, &fib)) {
		count(PNC_LEARN_C_XLATE_PASS_ROUTE);
		return XDP_PASS;
	}
	if (!xlate_global_take())
		return xlate_done(PNC_LEARN_C_XLATE_RL_GLOBAL, XDP_DROP);
	if (!xlate_interval_ok(&inv, f.sender_qpn, factor))
		return xlate_done(PNC_LEARN_C_XLATE_MIN_INTERVAL, XDP_DROP);

	b = bpf_map_lookup_elem(&xlate_scratch, &zero);
	if (!b)
		return xlate_done(PNC_LEARN_C_XLATE_TX_ERROR, XDP_DROP);
	ip_id = __sync_fetch_and_add(&pnc_xlate_ip_id, 1) + 1;
	if (!ip_id)
		ip_id = __sync_fetch_and_add(&pnc_xlate_ip_id, 1) + 1;
	n = xlate_build(b, &inv, &f, ip_id);
	icrc = xlate_icrc(b, inv.key.version);
	if (inv.key.version == 4)
		xlate_ipv4_csum(b);

	/* The frame becomes Ethernet + the CNP: always shorter than the notification. */
	frame = sizeof(struct ethhdr) + n + 4;
	if (bpf_xdp_adjust_tail(ctx, (int)frame - (int)(data_end - data)))
		return xlate_done(PNC_LEARN_C_XLATE_TX_ERROR, XDP_DROP);
	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	out = data;
	if ((void *)(out + frame) > data_end || frame > sizeof(struct ethhdr) + XLATE_CNP_MAX + 4)
		return xlate_done(PNC_LEARN_C_XLATE_TX_ERROR, XDP_DROP);
	__builtin_memcpy(out, fib.dmac, 6);
	__builtin_memcpy(out + 6, fib.smac, 6);
	out[12] = inv.key.version == 4 ? 0x08 : 0x86;
	out[13] = inv.key.version == 4 ? 0x00 : 0xdd;
	out += sizeof(struct ethhdr);
	if (inv.key.version == 4) {
		if ((void *)(out + XLATE_CNP_V4 + 4) > data_end)
			return xlate_done(PNC_LEARN_C_XLATE_TX_ERROR, XDP_DROP);
		__builtin_memcpy(out, b, XLATE_CNP_V4);
		out += XLATE_CNP_V4;
	} else {
		if ((void *)(out + XLATE_CNP_MAX + 4) > data_end)
			return xlate_done(PNC_LEARN_C_XLATE_TX_ERROR, XDP_DROP);
		__builtin_memcpy(out, b, XLATE_CNP_MAX);
		out += XLATE_CNP_MAX;
	}
	/* Least significant octet first, like the Ethernet FCS. */
	out[0] = icrc;
	out[1] = icrc >> 8;
	out[2] = icrc >> 16;
	out[3] = icrc >> 24;
	count(PNC_LEARN_C_XLATE_RX);
	count(PNC_LEARN_C_XLATE_SENT);
	if (fib.ifindex == ctx->ingress_ifindex)
		return XDP_TX;
	return bpf_redirect_map(&xlate_tx, fib.ifindex, 0);
}

/*
 * The translator's verdict on a notification the guard let through:
 * XDP_PASS leaves it to the stages after this one.  The outer headers
 * are checked here, where their offset is known, so that xlate() gets
 * one kind of input whatever the link layer and the family.
 */
static __always_inline int xlate_stage(struct xdp_md *ctx, __u32 l3_off, __u16 proto,
				       const struct guard_hit *hit)
{
	void *data, *data_end;

	if (!pnc_xlate_cfg.enabled || hit->port != pnc_guard_cfg.notification_port)
		return XDP_PASS;
	stage_frame(ctx, &data, &data_end);
	if (!xlate_outer(data + l3_off, data_end, (__u32)(data_end - data) - l3_off, proto)) {
		count(PNC_LEARN_C_XLATE_PASS_OTHER);
		return XDP_PASS;
	}
	return xlate(ctx, hit->udp_off);
}

#endif /* _CNPPROXY_PROXY_XDP_XLATE_BPF_H */
