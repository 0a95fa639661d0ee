// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the seed 001 tc programs, cnpproxyd/tunnel/tunnel.bpf.c
 * (pnc_tunnel_enc, the ingress PE's encapsulation; pnc_tunnel_dec, the egress PE's
 * decapsulation), compiled for user space through tests/fuzz/bpf_shim/
 * and run packet by packet on skbs built from the input.
 *
 * Input: a configuration of CFG_LEN octets, then packet records.
 * Multi-octet numbers are little-endian; past the end everything is 0.
 *   0  flags: 0x01 the outer source is set (octets 2-17), 0x02 non-RoCE
 *      packets get label 0, 0x04 a GSO packet's segments fit the MTU
 *   1  hop limit (0: the default)
 *   2  outer source (16)
 *   18 u32 seed of what bpf_get_prandom_u32() returns: RND_N values,
 *      drawn in turn from the first at every program run
 *   22 labels already taken: those of the first n % 8 draws
 *   23 u16 MTU - 68 (n % 9000)
 *   25 u32 flow hash (bpf_get_hash_recalc())
 * Packet record: REC_LEN octets, then the frame (from the Ethernet header).
 *   0  0x01 run pnc_tunnel_dec instead of pnc_tunnel_enc; 0x02 the frame's
 *      destination prefix (length: octet 1) becomes a tunnel to octets
 *      4-19; 0x04 a GSO packet; 0x08 an encapsulated packet goes through
 *      pnc_tunnel_dec too, its outer destination a SID; 0x10 the frame's IPv6
 *      destination becomes a SID; 0x20 with 0x02, the tunnel is VXLAN
 *      (VNI VXLAN_VNI, router MAC VXLAN_MAC)
 *   1  tunnel prefix length, n % (address bits + 1)
 *   2  u16 octets in the linear part (0: all)
 *   4  tunnel destination (16)
 *   20 u16 clock advance in us
 *   22 u16 frame length
 *
 * Properties, for every packet:
 *  - the verdict and every counter are those of a plain-C model of
 *    tunnel.h: which packets are tunnelled (longest tunnel prefix), the
 *    outer source, the MTU, an inner length over the outer payload
 *    length's 65535, RoCEv2 flows and their labels (drawn at random,
 *    drawn again for a label in use, 0 when four draws fail; no draw
 *    for a known flow or another packet), the hashed or zero label of
 *    other packets, RFC 6040 with
 *    ECT(1) kept outside on decapsulation; so each packet lands in
 *    exactly one of the counters tunnel.h lists;
 *  - an encapsulated packet is the original behind a well-formed outer
 *    IPv6 header: version 6, the inner traffic class, the flow's label,
 *    payload length the inner IP length, next header 4 or 41, the hop
 *    limit, source and tunnel destination configured, EtherType IPv6,
 *    the inner packet octet for octet; through a VXLAN tunnel, next
 *    header UDP, then UDP to 4789 from a port the label gives, checksum
 *    0, the VXLAN header with the VNI, an Ethernet header from the
 *    packet's source MAC to the router MAC, the inner packet;
 *  - the flow and label maps agree with each other and the model
 *    (label, P_Key, source port, first/last time, packets, octets);
 *  - decapsulation (pnc_tunnel_dec) of an encapsulated packet gives the
 *    original frame back; of any packet, the inner packet with only
 *    its ECN bits changed (IPv4: the checksum sums as before);
 *  - the shim's own checks (no access past the linear part or the
 *    packet, no packet pointer used after the helper that moved it).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/roce.h"
#include "fuzz_check.h"
#include "harness.h"
#include "shim.h"

#include "tunnel/tunnel.bpf.c"
#include "program_end.h"

#define CFG_LEN	       29
#define RND_N	       8
#define REC_LEN	       24
#define FRAMES_MAX     64
#define FRAME_MAX      9200
#define CLOCK_START_NS (1000 * 1000000000ULL)
#define OUTER	       PNC_TUNNEL_OUTER_LEN
#define OUTER_MAX      PNC_TUNNEL_VXLAN_LEN
#define VXLAN_VNI      0x0a0b0c
#define VXLAN_MAC      "\x02\x00\x5e\x00\x53\x01"
#define SKB_GROW_MAX   16064 /* the shim's bpf_skb_adjust_room() limit */

enum cfg_flag {
	F_SRC = 0x01,
	F_OTHER_ZERO = 0x02,
	F_GSO_FITS = 0x04,
	F_SHAPE = 0x08, /* every RoCE flow is shaped (seed 003 local shaping) */
};

/* The tc class the harness steers shaped flows to. */
#define SHAPE_CLASSID 0x504e0001u

enum rec_op {
	OP_DECAP = 0x01,
	OP_TUNNEL = 0x02,
	OP_GSO = 0x04,
	OP_ROUNDTRIP = 0x08,
	OP_SID = 0x10,
	OP_VXLAN = 0x20,
};

struct m_tunnel {
	uint8_t family, plen; /* key: family, length, the prefix's bits */
	uint8_t addr[16];
	uint8_t dst[16];
	bool vxlan;
};

struct m_flow {
	struct pnc_tunnel_flow_key key;
	struct pnc_tunnel_flow_val val;
};

struct m_label {
	uint32_t label;
	uint8_t pad[4];
	struct pnc_tunnel_flow_key key;
};

static struct {
	uint8_t flags;
	uint64_t now;
	uint32_t rnd[RND_N]; /* what bpf_get_prandom_u32() returns, in turn */
	struct h_tab tunnels, flows, labels, sids;
} m;

struct expect {
	int rv;
	uint64_t count[PNC_TUNNEL_C_MAX];
	uint8_t out[FRAME_MAX + OUTER_MAX];
	size_t out_len;
	bool changed;			 /* out holds the packet expected */
	size_t ecn_at;			 /* decapsulation: the inner ECN octet, or 0 */
	uint8_t ecn_mask, ecn_bits;	 /* ... its ECN bits as expected */
	size_t csum_at;			 /* ... an IPv4 checksum that may change, or 0 */
	struct pnc_tunnel_flow_key flow; /* encapsulation of a RoCE flow */
	bool roce;
	uint8_t outer_dst[16];
	bool vxlan;	/* encapsulated in VXLAN */
	uint32_t draws; /* bpf_get_prandom_u32() calls */
};

/* ---- the model -------------------------------------------------------------------------- */

/* The tunnel of the longest prefix covering addr. */
static const struct m_tunnel *m_tunnel_of(uint8_t family, const uint8_t *addr)
{
	const struct m_tunnel *best = NULL;

	for (size_t i = 0; i < m.tunnels.n; i++) {
		const struct m_tunnel *t = (const void *)m.tunnels.rows[i];
		unsigned int whole = t->plen / 8, bits = t->plen % 8;

		if (t->family != family || memcmp(t->addr, addr, whole))
			continue;
		if (bits && ((t->addr[whole] ^ addr[whole]) >> (8 - bits)))
			continue;
		if (!best || t->plen > best->plen)
			best = t;
	}
	return best;
}

/* The label the program's n-th draw of a run gives (tunnel.h). */
static uint32_t m_label_draw(uint32_t n)
{
	return m.rnd[n % RND_N] % PNC_TUNNEL_LABEL_ALLOC_MAX + 1;
}

/* The label of a RoCE flow: its own, a new one, or 0 when four are taken. */
static uint32_t m_roce_label(const struct pnc_tunnel_flow_key *key, uint16_t pkey, uint16_t sport,
			     uint32_t ip_len, struct expect *e)
{
	struct m_flow *f = h_tab_find(&m.flows, key);
	struct m_label *l;
	uint32_t label = 0;

	if (f) {
		f->val.last_ns = m.now;
		f->val.pkts++;
		f->val.bytes += ip_len;
		return f->val.label;
	}
	for (uint32_t i = 0; i < 4 && !label; i++) {
		uint32_t cand = m_label_draw(i);

		e->draws++;
		if (!h_tab_find(&m.labels, &cand))
			label = cand;
	}
	if (!label) {
		e->count[PNC_TUNNEL_C_ALLOC_FAILED]++;
		return 0;
	}
	l = h_tab_put(&m.labels, &label);
	l->key = *key;
	f = h_tab_put(&m.flows, key);
	f->val.label = label;
	f->val.pkey = pkey;
	f->val.sport = sport;
	f->val.first_ns = f->val.last_ns = m.now;
	f->val.pkts = 1;
	f->val.bytes = ip_len;
	e->count[PNC_TUNNEL_C_LABELS_ALLOCATED]++;
	return label;
}

/* The encapsulation program; lin: the linear part once pulled. */
static void m_encap(const uint8_t *f, size_t n, size_t lin, uint16_t proto, bool gso,
		    struct expect *e)
{
	struct pnc_tunnel_flow_key key = {};
	const struct m_tunnel *t;
	uint8_t version, tclass, nh, hop, *o;
	size_t l4 = 0, alen, room;
	uint16_t pkey = 0, sport = 0;
	uint32_t ip_len, label;
	bool l4_ok = true;

	e->count[PNC_TUNNEL_C_PKTS]++;
	e->rv = TC_ACT_OK;
	if (proto == 0x0800) {
		if (lin < 14 + 20 || f[14] >> 4 != 4 || (f[14] & 0x0f) < 5) {
			e->count[PNC_TUNNEL_C_PARSE_ERR]++;
			return;
		}
		version = 4;
		tclass = f[15];
		ip_len = h_be16(f + 16);
		nh = f[14 + 9];
		l4 = 14 + (f[14] & 0x0fu) * 4;
		l4_ok = !(h_be16(f + 14 + 6) & 0x3fff);
		memcpy(key.src, f + 14 + 12, 4);
		memcpy(key.dst, f + 14 + 16, 4);
	} else if (proto == 0x86dd) {
		if (lin < 14 + 40 || f[14] >> 4 != 6) {
			e->count[PNC_TUNNEL_C_PARSE_ERR]++;
			return;
		}
		version = 6;
		tclass = (uint8_t)(h_be16(f + 14) >> 4);
		ip_len = 40u + h_be16(f + 14 + 4);
		nh = f[14 + 6];
		l4 = 14 + 40;
		memcpy(key.src, f + 14 + 8, 16);
		memcpy(key.dst, f + 14 + 24, 16);
	} else {
		e->count[PNC_TUNNEL_C_PASSED]++;
		return;
	}
	t = m_tunnel_of(version, key.dst);
	if (!t) {
		e->count[PNC_TUNNEL_C_PASSED]++;
		return;
	}
	e->rv = TC_ACT_SHOT;
	if (!(m.flags & F_SRC)) {
		e->count[PNC_TUNNEL_C_NO_SOURCE]++;
		return;
	}
	/* An outer payload length holds the inner packet's (and VXLAN's) up to 65535. */
	room = t->vxlan ? OUTER_MAX : OUTER;
	if ((n + room > shim_env.mtu + 14u && !(gso && (m.flags & F_GSO_FITS))) ||
	    ip_len + room - OUTER > 0xffff) {
		e->count[PNC_TUNNEL_C_TOO_BIG]++;
		return;
	}

	key.ip_version = version;
	/* A RoCEv2 data flow: UDP to 4791, whole BTH in the linear part, not QP1. */
	if (nh == IPPROTO_UDP && l4_ok && l4 <= 14 + 60 + 8 + PNC_BTH_LEN &&
	    lin >= l4 + 8 + PNC_BTH_LEN && h_be16(f + l4 + 2) == PNC_ROCE_UDP_PORT &&
	    h_be24(f + l4 + 8 + 5) != 1) {
		key.dest_qp = h_be24(f + l4 + 8 + 5);
		pkey = h_be16(f + l4 + 8 + 2);
		sport = h_be16(f + l4);
		e->roce = true;
		e->flow = key;
		label = m_roce_label(&key, pkey, sport, ip_len, e);
	} else if (m.flags & F_OTHER_ZERO) {
		label = 0;
	} else {
		label = PNC_TUNNEL_LABEL_HASH_BIT |
			(shim_env.hash & (PNC_TUNNEL_LABEL_HASH_BIT - 1));
	}
	if (n + room > SKB_GROW_MAX && !gso) {
		e->count[PNC_TUNNEL_C_ENCAP_ERR]++;
		return;
	}
	e->rv = TC_ACT_OK;
	e->count[e->roce ? PNC_TUNNEL_C_ENCAP_ROCE : PNC_TUNNEL_C_ENCAP_OTHER]++;

	/* Ethernet (IPv6), the outer header, the packet. */
	hop = pnc_cfg.hop_limit ? pnc_cfg.hop_limit : PNC_TUNNEL_HOP_LIMIT;
	alen = 16;
	o = e->out;
	memcpy(o, f, 12);
	o[12] = 0x86;
	o[13] = 0xdd;
	o += 14;
	o[0] = (uint8_t)(0x60 | tclass >> 4);
	o[1] = (uint8_t)(tclass << 4 | (label >> 16 & 0x0f));
	o[2] = (uint8_t)(label >> 8);
	o[3] = (uint8_t)label;
	o[4] = (uint8_t)((ip_len + room - OUTER) >> 8);
	o[5] = (uint8_t)(ip_len + room - OUTER);
	o[6] = t->vxlan ? PNC_IPPROTO_UDP : version == 4 ? PNC_IPPROTO_IPIP : PNC_IPPROTO_IPV6;
	o[7] = hop;
	memcpy(o + 8, pnc_cfg.src, alen);
	memcpy(o + 24, t->dst, alen);
	if (t->vxlan) {
		uint8_t *u = o + OUTER;

		memset(u, 0, OUTER_MAX - OUTER);
		u[0] = (uint8_t)(0xc0 | (label >> 8 & 0x3f));
		u[1] = (uint8_t)label;
		u[2] = PNC_TUNNEL_VXLAN_PORT >> 8;
		u[3] = PNC_TUNNEL_VXLAN_PORT & 0xff;
		u[4] = (uint8_t)((ip_len + 30) >> 8);
		u[5] = (uint8_t)(ip_len + 30);
		u[8] = 0x08;
		u[12] = VXLAN_VNI >> 16;
		u[13] = VXLAN_VNI >> 8 & 0xff;
		u[14] = VXLAN_VNI & 0xff;
		memcpy(u + 16, VXLAN_MAC, 6);
		memcpy(u + 22, f + 6, 6);
		u[28] = version == 4 ? 0x08 : 0x86;
		u[29] = version == 4 ? 0x00 : 0xdd;
	}
	memcpy(o + room, f + 14, n - 14);
	e->out_len = n + room;
	e->changed = true;
	memcpy(e->outer_dst, t->dst, 16);
	e->vxlan = t->vxlan;
}

/* The decapsulation program: RFC 6040 normal mode, only CE copied inward. */
static void m_decap(const uint8_t *f, size_t n, size_t lin, uint16_t proto, struct expect *e)
{
	uint8_t otc, itc, version, nh;
	size_t in = 14 + OUTER;

	e->count[PNC_TUNNEL_C_DECAP_PKTS]++;
	e->rv = TC_ACT_OK;
	if (proto != 0x86dd) {
		e->count[PNC_TUNNEL_C_DECAP_PASSED]++;
		return;
	}
	e->rv = TC_ACT_SHOT;
	if (lin < in) {
		e->count[PNC_TUNNEL_C_DECAP_ERR]++;
		return;
	}
	nh = f[14 + 6];
	if (!h_tab_find(&m.sids, f + 14 + 24) ||
	    (nh != PNC_IPPROTO_IPIP && nh != PNC_IPPROTO_IPV6)) {
		e->rv = TC_ACT_OK;
		e->count[PNC_TUNNEL_C_DECAP_PASSED]++;
		return;
	}
	if (lin < in + 2 || f[in] >> 4 != (nh == PNC_IPPROTO_IPIP ? 4 : 6)) {
		e->count[PNC_TUNNEL_C_DECAP_ERR]++;
		return;
	}
	version = f[in] >> 4;
	otc = (uint8_t)(h_be16(f + 14) >> 4);
	itc = version == 4 ? f[in + 1] : (uint8_t)(h_be16(f + in) >> 4);
	if ((otc & 3) == 3 && (itc & 3) == 0) {
		e->count[PNC_TUNNEL_C_DECAP_DROP]++;
		return;
	}
	memcpy(e->out, f, 12);
	e->out[12] = version == 4 ? 0x08 : 0x86;
	e->out[13] = version == 4 ? 0x00 : 0xdd;
	memcpy(e->out + 14, f + in, n - in);
	if ((otc & 3) == 3 && (itc & 3) != 3) {
		/* IPv4 needs its checksum, which must be in the packet. */
		if (version == 4 && n < in + 12) {
			e->count[PNC_TUNNEL_C_DECAP_ERR]++;
			return;
		}
		e->count[PNC_TUNNEL_C_DECAP_CE]++;
		e->ecn_at = 15;
		e->ecn_mask = version == 4 ? 0x03 : 0x30;
		e->ecn_bits = e->ecn_mask;
		e->csum_at = version == 4 ? 14 + 10 : 0;
	}
	/* The kernel keeps at least the new outer header. */
	if (n - in < (version == 4 ? 20u : 40u)) {
		e->count[PNC_TUNNEL_C_DECAP_ERR]++;
		e->ecn_at = e->csum_at = 0;
		return;
	}
	e->rv = TC_ACT_OK;
	e->count[PNC_TUNNEL_C_DECAP]++;
	e->out_len = n - OUTER;
	e->changed = true;
}

/* ---- checks ---------------------------------------------------------------------------- */

static void counters_now(uint64_t *c)
{
	for (__u32 i = 0; i < PNC_TUNNEL_C_MAX; i++)
		c[i] = *(uint64_t *)shim_map_lookup(&counters, &i);
}

/* tunnel.h: each packet in exactly one of the listed counters. */
static void check_partition(const uint64_t *d)
{
	FUZZ_CHECK(d[PNC_TUNNEL_C_PKTS] + d[PNC_TUNNEL_C_DECAP_PKTS] == 1);
	FUZZ_CHECK(d[PNC_TUNNEL_C_PASSED] + d[PNC_TUNNEL_C_ENCAP_ROCE] +
			   d[PNC_TUNNEL_C_ENCAP_OTHER] + d[PNC_TUNNEL_C_TOO_BIG] +
			   d[PNC_TUNNEL_C_PARSE_ERR] + d[PNC_TUNNEL_C_NO_SOURCE] +
			   d[PNC_TUNNEL_C_ENCAP_ERR] ==
		   d[PNC_TUNNEL_C_PKTS]);
	FUZZ_CHECK(d[PNC_TUNNEL_C_DECAP_PASSED] + d[PNC_TUNNEL_C_DECAP] +
			   d[PNC_TUNNEL_C_DECAP_DROP] + d[PNC_TUNNEL_C_DECAP_ERR] ==
		   d[PNC_TUNNEL_C_DECAP_PKTS]);
}

/* The packet as the model expects it; after decapsulation, ECN and checksum aside. */
static void check_output(const uint8_t *f, size_t n, const uint8_t *out, size_t olen,
			 const struct expect *e)
{
	size_t len = e->changed ? e->out_len : n;
	const uint8_t *want = e->changed ? e->out : f;

	/* A dropped packet is nobody's: decapsulation may have set CE first. */
	if (e->rv == TC_ACT_SHOT)
		return;
	FUZZ_CHECK(olen == len);
	for (size_t i = 0; i < len; i++) {
		if (e->csum_at && (i == e->csum_at || i == e->csum_at + 1))
			continue;
		if (e->ecn_at && i == e->ecn_at) {
			FUZZ_CHECK(out[i] == ((want[i] & ~e->ecn_mask) | e->ecn_bits));
			continue;
		}
		FUZZ_CHECK(out[i] == want[i]);
	}
	if (e->csum_at) {
		size_t ihl = (want[14] & 0x0fu) * 4;
		uint16_t a, b;

		/*
		 * The header sums as before: valid stays valid.  An IHL below
		 * 5 leaves the checksum outside the header, not the update.
		 */
		if (ihl < 20)
			ihl = 20;
		if (14 + ihl > len)
			return;
		a = h_sum16(want + 14, ihl);
		b = h_sum16(out + 14, ihl);
		FUZZ_CHECK(a % 0xffff == b % 0xffff);
	}
}

/* The flow and label maps against each other and the model. */
static void check_flow(const struct expect *e)
{
	const struct m_flow *mf = h_tab_find(&m.flows, &e->flow);
	struct pnc_tunnel_flow_val *v;
	struct pnc_tunnel_flow_key *k;

	FUZZ_CHECK(shim_map_count(&flows) == m.flows.n);
	FUZZ_CHECK(shim_map_count(&labels) == m.labels.n);
	v = shim_map_lookup(&flows, &e->flow);
	FUZZ_CHECK(!v == !mf);
	if (!v)
		return;
	FUZZ_CHECK(!memcmp(v, &mf->val, sizeof(*v)));
	k = shim_map_lookup(&labels, &v->label);
	FUZZ_CHECK(k && !memcmp(k, &e->flow, sizeof(*k)));
}

/* ---- the input ----------------------------------------------------------------------------- */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	SHIM_MAP(counters);
	SHIM_MAP(tunnels);
	SHIM_MAP(flows);
	SHIM_MAP(labels);
	SHIM_MAP(sids);
	SHIM_MAP(shaped);
	return 0;
}

static void configure(struct h_in *in)
{
	struct pnc_tunnel_flow_key taken = { .dest_qp = 0xffffff, .ip_version = 4 };
	struct pnc_tunnel_cfg c = {};
	uint32_t seed;
	uint8_t ntaken;
	uint16_t mtu;

	m.flags = h_u8(in);
	c.hop_limit = h_u8(in);
	h_bytes(in, c.src, 16);
	if (!(m.flags & F_SRC))
		memset(c.src, 0, 16);
	/* An all-zero source counts as none, whatever the flag says. */
	if (!memcmp(c.src, (uint8_t[16]){}, 16))
		m.flags &= (uint8_t)~F_SRC;
	c.other_label = (m.flags & F_OTHER_ZERO) ? PNC_TUNNEL_OTHER_ZERO : PNC_TUNNEL_OTHER_HASH;
	pnc_cfg = c;
	seed = h_u32(in);
	/* Distinct draws mostly; a seed of 0 makes them collide, also fine. */
	for (uint32_t i = 0; i < RND_N; i++)
		m.rnd[i] = seed * (2 * i + 1) + i * 0x9e3779b9u;
	shim_env.random = m.rnd;
	shim_env.n_random = RND_N;
	ntaken = h_u8(in) % 8;
	mtu = h_u16(in);
	shim_env.mtu = 68u + mtu % 9000u;
	shim_env.gso_fits = !!(m.flags & F_GSO_FITS);
	shim_env.hash = h_u32(in);
	/* Labels in use where the draws fall: allocation draws again. */
	for (uint32_t i = 0; i < ntaken; i++) {
		uint32_t l = m_label_draw(i);
		struct m_label *row;

		FUZZ_CHECK(!shim_map_update(&labels, &l, &taken, BPF_ANY));
		row = h_tab_put(&m.labels, &l);
		row->key = taken;
	}
}

/* A tunnel to the frame's destination prefix, and SIDs. */
static void frame_tables(uint8_t op, uint8_t plen, const uint8_t *dst, const uint8_t *f, size_t n)
{
	uint16_t proto = n >= 14 ? h_be16(f + 12) : 0;
	__u8 one = 1;

	if ((op & OP_TUNNEL) && ((proto == 0x0800 && n >= 34) || (proto == 0x86dd && n >= 54))) {
		struct pnc_tunnel_lpm_key key = {};
		struct pnc_tunnel_tunnel val = {};
		struct m_tunnel t = {}, *row;
		unsigned int bits = proto == 0x0800 ? 32 : 128;
		const uint8_t *a = f + (proto == 0x0800 ? 14 + 16 : 14 + 24);

		t.family = proto == 0x0800 ? 4 : 6;
		t.plen = (uint8_t)(plen % (bits + 1));
		for (unsigned int b = 0; b < t.plen; b++)
			t.addr[b / 8] |= a[b / 8] & (0x80 >> b % 8);
		key.prefixlen = PNC_TUNNEL_PREFIX_BITS(t.plen);
		key.family = t.family;
		memcpy(key.addr, a, bits / 8);
		memcpy(val.dst, dst, 16);
		if (op & OP_VXLAN) {
			val.vni = VXLAN_VNI;
			memcpy(val.router_mac, VXLAN_MAC, 6);
		}
		FUZZ_CHECK(!shim_map_update(&tunnels, &key, &val, BPF_ANY));
		row = h_tab_put(&m.tunnels, &t);
		memcpy(row->dst, dst, 16);
		row->vxlan = op & OP_VXLAN;
	}
	if ((op & OP_SID) && proto == 0x86dd && n >= 54) {
		FUZZ_CHECK(!shim_map_update(&sids, f + 14 + 24, &one, BPF_ANY));
		h_tab_put(&m.sids, f + 14 + 24);
	}
}

/* PNC_FUZZ_TRACE=1: what each packet did, to see what a seed reaches. */
static void trace(bool decap, size_t n, int rv, const struct expect *e)
{
	fprintf(stderr, "%s, %zu octets: verdict %d, counters", decap ? "decap" : "encap", n, rv);
	for (int i = 0; i < PNC_TUNNEL_C_MAX; i++)
		if (e->count[i])
			fprintf(stderr, " %d", i);
	fprintf(stderr, "\n");
}

/* One program over one packet, against the model. */
static void run(const uint8_t *f, size_t n, size_t lin, bool decap, bool gso, struct expect *e,
		uint8_t *out, size_t *olen)
{
	uint64_t before[PNC_TUNNEL_C_MAX], after[PNC_TUNNEL_C_MAX];
	uint16_t proto = n >= 14 ? h_be16(f + 12) : 0;
	size_t pulled = lin, len;
	struct __sk_buff *skb;
	const uint8_t *got;
	int rv;

	/* What pull_headers() leaves in the linear part. */
	if (pulled < 14 + 60 + 8 + PNC_BTH_LEN && n > pulled)
		pulled = n < 14 + 60 + 8 + PNC_BTH_LEN ? n : 14 + 60 + 8 + PNC_BTH_LEN;
	memset(e, 0, sizeof(*e));
	if (decap)
		m_decap(f, n, pulled, proto, e);
	else
		m_encap(f, n, pulled, proto, gso, e);

	/* Shaped: the flow's packets carry its class, one more count. */
	if (!decap && e->roce && (m.flags & F_SHAPE)) {
		__u32 cls = SHAPE_CLASSID;

		FUZZ_CHECK(!shim_map_update(&shaped, &e->flow, &cls, BPF_ANY));
		e->count[PNC_TUNNEL_C_SHAPED]++;
	}
	counters_now(before);
	skb = shim_skb_packet(f, n, lin, 1, bpf_htons(proto), gso ? 2 : 1);
	rv = shim_run_skb(decap ? pnc_tunnel_dec : pnc_tunnel_enc, skb);
	got = shim_skb_bytes(skb, &len);
	counters_now(after);
	if (getenv("PNC_FUZZ_TRACE"))
		trace(decap, n, rv, e);
	for (int i = 0; i < PNC_TUNNEL_C_MAX; i++) {
		if (after[i] - before[i] != e->count[i])
			fprintf(stderr, "counter %d: %llu, the model says %llu\n", i,
				(unsigned long long)(after[i] - before[i]),
				(unsigned long long)e->count[i]);
		FUZZ_CHECK(after[i] - before[i] == e->count[i]);
		after[i] -= before[i];
	}
	check_partition(after);
	FUZZ_CHECK(rv == e->rv);
	FUZZ_CHECK(shim_trace.random_drawn == e->draws);
	check_output(f, n, got, len, e);
	if (!decap && !e->changed)
		FUZZ_CHECK(skb->protocol == bpf_htons(proto));
	FUZZ_CHECK(skb->priority ==
		   (!decap && e->roce && (m.flags & F_SHAPE) ? SHAPE_CLASSID : 0u));
	FUZZ_CHECK(len <= FRAME_MAX + OUTER_MAX);
	memcpy(out, got, len);
	*olen = len;
	shim_skb_release(skb);
}

static void one_packet(struct h_in *in)
{
	static uint8_t out[FRAME_MAX + OUTER_MAX], back[FRAME_MAX + OUTER_MAX];
	struct expect e, d;
	uint8_t op, plen, dst[16];
	const uint8_t *f;
	size_t n, lin, olen, blen;
	uint16_t adv;

	op = h_u8(in);
	plen = h_u8(in);
	lin = h_u16(in);
	h_bytes(in, dst, sizeof(dst));
	adv = h_u16(in);
	f = h_frame(in, FRAME_MAX, &n);
	if (!lin || lin > n)
		lin = n;
	m.now += adv * 1000ULL;
	shim_env.now_ns = m.now;
	frame_tables(op, plen, dst, f, n);

	run(f, n, lin, op & OP_DECAP, op & OP_GSO, &e, out, &olen);
	if (e.roce)
		check_flow(&e);
	/* A VXLAN tunnel is ended by the egress PE's own VXLAN device. */
	if ((op & OP_DECAP) || !(op & OP_ROUNDTRIP) || !e.changed || e.vxlan)
		return;
	/* The egress PE gives the packet back as it was. */
	if (!h_tab_find(&m.sids, e.outer_dst)) {
		__u8 one = 1;

		FUZZ_CHECK(!shim_map_update(&sids, e.outer_dst, &one, BPF_ANY));
		h_tab_put(&m.sids, e.outer_dst);
	}
	run(out, olen, olen, true, false, &d, back, &blen);
	FUZZ_CHECK(d.count[PNC_TUNNEL_C_DECAP] == 1);
	FUZZ_CHECK(blen == n && !memcmp(back, f, n));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct h_in in = { data, size };

	shim_reset();
	memset(&m, 0, sizeof(m));
	h_tab_init(&m.tunnels, offsetof(struct m_tunnel, dst), sizeof(struct m_tunnel));
	h_tab_init(&m.flows, sizeof(struct pnc_tunnel_flow_key), sizeof(struct m_flow));
	h_tab_init(&m.labels, sizeof(uint32_t), sizeof(struct m_label));
	h_tab_init(&m.sids, 16, 16);
	m.now = CLOCK_START_NS;
	configure(&in);
	for (int i = 0; i < FRAMES_MAX && in.n; i++)
		one_packet(&in);
	return 0;
}
