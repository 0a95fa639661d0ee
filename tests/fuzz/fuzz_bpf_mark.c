// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the congestion point's tc program,
 * cnpproxyd/cp/mark.bpf.c, compiled for user space through
 * tests/fuzz/bpf_shim/ and run packet by packet on an skb built from
 * the input.
 *
 * Input: a configuration of CFG_LEN octets, then packet records.
 * Multi-octet numbers are little-endian; past the end everything is 0.
 *   0  flags: 0x01 a marking state on ifindex 1, 0x02 on ifindex 2,
 *      0x04 per-interface counters on ifindex 1, 0x08 on ifindex 2,
 *      0x10 the state asks for samples
 *   1  u32 ect1_prob, 5 u32 ce_prob (above PNC_MARK_PROB_ONE: one, as the
 *      loader clamps them)
 *   9  u16 sample interval in us
 *   11 u16 state lifetime in ms (valid_until_ns)
 * Packet record: REC_LEN octets, then the frame (from the Ethernet header).
 *   0  bits 0-1 egress ifindex - 1; 0x04 a GSO packet (gso_segs 2);
 *      0x08 the clock advances in ms, not us
 *   1  u16 clock advance in us (or ms)
 *   3  u32, 7 u32: what bpf_get_prandom_u32() returns, in turn
 *   11 ring buffer room: 0 unlimited, else n * 8 octets
 *   12 u16 frame length
 *
 * Properties, for every packet:
 *  - TC_ACT_UNSPEC, always;
 *  - the verdict on the codepoint and every counter, the program's and
 *    the interface's, are those of a plain-C model of mark.h: state
 *    and its lifetime, the outer header's ECN field, CE drawn first and
 *    winning, ECT(1) only from ECT(0), CE never taken back, Not-ECT
 *    never marked, RoCEv2 found plain or in an IPv6 tunnel (with a
 *    Routing Header, or VXLAN), one sample per flow and interval; so each packet
 *    lands in exactly one of the counters mark.h lists;
 *  - the packet leaves changed only in its outer ECN bits and, for
 *    IPv4, in a header checksum that sums as before (valid stays valid);
 *  - a sample holds the packet as it leaves, from its outer IP header;
 *    its fields are the model's, and cnpproxyd's sample parser
 *    (pnc_cp_sample_parse() on the codec) finds in it the flow it names;
 *  - a RoCEv2 packet the codec parses is one the program sees;
 *  - the shim's own checks (no access past the packet, no ring buffer
 *    record left reserved).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cp/sample.h"
#include "codec/roce.h"
#include "fuzz_check.h"
#include "harness.h"
#include "shim.h"

#include "cp/mark.bpf.c"
#include "program_end.h"

#define CFG_LEN	       13
#define REC_LEN	       14
#define FRAMES_MAX     64
#define FRAME_MAX      4096
#define IFS	       4
#define CLOCK_START_NS (1000 * 1000000000ULL)

enum cfg_flag {
	F_STATE1 = 0x01,
	F_STATE2 = 0x02,
	F_IC1 = 0x04,
	F_IC2 = 0x08,
	F_SAMPLE = 0x10,
};

struct m_flow {
	uint8_t src[16], dst[16]; /* key: as mark.bpf.c's flow, see mark_flow() */
	uint32_t id, tunnelled;
	uint64_t last;
	uint64_t bytes; /* since the last sample */
};

static struct {
	uint8_t flags;
	struct pnc_mark_state st;
	uint64_t now;
	struct pnc_mark_if_counters ic[IFS + 1];
	struct h_tab flows;
} m;

/* What the model expects of one packet. */
struct expect {
	uint64_t count[PNC_MARK_C_MAX];
	struct pnc_mark_if_counters ic; /* the interface's counters, added */
	size_t draws;
	/* the outer header */
	size_t l3;
	uint8_t version, ecn_in, ecn_out;
	uint32_t ip_len;
	/* a sample, if any */
	bool rec;
	struct pnc_mark_sample ev; /* up to data */
};

/* ---- the model -------------------------------------------------------------------- */

struct m_pkt {
	size_t l3, end, l4;
	uint32_t ip_len;
	uint8_t version, nexthdr, ecn, flags;
	uint8_t src[16], dst[16];
	uint32_t flow_label;
	size_t inner, udp;
	uint32_t dest_qp;
};

enum { M_OK, M_OTHER, M_ERR };

/* Ethernet, one VLAN tag, the outer IP header with its length checks. */
static int m_l3(const uint8_t *f, size_t n, bool gso, struct m_pkt *p)
{
	uint16_t type;
	size_t l3 = 14;

	memset(p, 0, sizeof(*p));
	if (n < 14)
		return M_OTHER;
	type = h_be16(f + 12);
	if (type == 0x8100 || type == 0x88a8) {
		if (n < 18)
			return M_ERR;
		type = h_be16(f + 16);
		l3 = 18;
	}
	p->l3 = l3;
	if (type == 0x0800) {
		size_t ihl;

		if (n < l3 + 20)
			return M_ERR;
		ihl = (f[l3] & 0x0fu) * 4;
		p->ip_len = h_be16(f + l3 + 2);
		/* BIG TCP: a GSO packet past 64 KiB has no length of its own. */
		if (!p->ip_len && gso)
			p->ip_len = (uint32_t)(n - l3);
		if (f[l3] >> 4 != 4 || ihl < 20 || p->ip_len < ihl || l3 + p->ip_len > n)
			return M_ERR;
		p->version = 4;
		p->l4 = l3 + ihl;
		p->nexthdr = (h_be16(f + l3 + 6) & 0x1fff) ? 0 : f[l3 + 9];
		p->ecn = f[l3 + 1] & 3;
		memcpy(p->src, f + l3 + 12, 4);
		memcpy(p->dst, f + l3 + 16, 4);
	} else if (type == 0x86dd) {
		if (n < l3 + 40)
			return M_ERR;
		p->ip_len = 40u + h_be16(f + l3 + 4);
		if (!h_be16(f + l3 + 4) && gso)
			p->ip_len = (uint32_t)(n - l3);
		if (f[l3] >> 4 != 6 || l3 + p->ip_len > n)
			return M_ERR;
		p->version = 6;
		p->l4 = l3 + 40;
		p->nexthdr = f[l3 + 6];
		p->ecn = (f[l3 + 1] >> 4) & 3;
		p->flow_label = h_be32(f + l3) & 0xfffff;
		memcpy(p->src, f + l3 + 8, 16);
		memcpy(p->dst, f + l3 + 24, 16);
	} else {
		return M_OTHER;
	}
	p->end = l3 + p->ip_len;
	return M_OK;
}

/* UDP to 4791 with a whole BTH at off, inside the IP packet. */
static int m_roce_at(const uint8_t *f, struct m_pkt *p, size_t off)
{
	if (off + 4 > p->end)
		return M_ERR;
	if (h_be16(f + off + 2) != PNC_ROCE_UDP_PORT)
		return M_OTHER;
	if (off + 8 + PNC_BTH_LEN > p->end)
		return M_ERR;
	p->udp = off;
	p->dest_qp = h_be24(f + off + 8 + 5);
	return M_OK;
}

static int m_inner(const uint8_t *f, struct m_pkt *p, size_t off, uint8_t nh);

/*
 * Plain RoCEv2, or in an outer IPv6 header (one Routing Header allowed),
 * or in VXLAN (UDP 4789) over IPv6.
 */
static int m_l4(const uint8_t *f, struct m_pkt *p)
{
	size_t off = p->l4;
	uint8_t nh = p->nexthdr;
	uint16_t type;

	if (nh == IPPROTO_UDP && p->version == 6) {
		if (off + 4 > p->end)
			return M_ERR;
		if (h_be16(f + off + 2) == PNC_MARK_VXLAN_PORT) {
			if (off + 16 + 14 > p->end)
				return M_ERR;
			type = h_be16(f + off + 16 + 12);
			if (!(f[off + 8] & 0x08) || (type != 0x0800 && type != 0x86dd))
				return M_OTHER;
			p->flags |= PNC_MARK_F_TUNNELLED | PNC_MARK_F_VXLAN;
			return m_inner(f, p, off + PNC_MARK_VXLAN_HLEN, type == 0x0800 ? 4 : 41);
		}
	}
	if (nh == IPPROTO_UDP)
		return m_roce_at(f, p, off);
	if (p->version != 6)
		return M_OTHER;
	if (nh == 43) {
		if (off + 2 > p->end)
			return M_ERR;
		nh = f[off];
		off += (f[off + 1] + 1u) * 8;
		p->flags |= PNC_MARK_F_ROUTING;
	}
	if (nh != 4 && nh != 41)
		return M_OTHER;
	p->flags |= PNC_MARK_F_TUNNELLED;
	return m_inner(f, p, off, nh);
}

/* The inner IPv4 (nh 4) or IPv6 (41) header of a tunnel at off. */
static int m_inner(const uint8_t *f, struct m_pkt *p, size_t off, uint8_t nh)
{
	p->inner = off;
	if (nh == 4) {
		size_t ihl;

		if (off + 20 > p->end)
			return M_ERR;
		ihl = (f[off] & 0x0fu) * 4;
		if (f[off] >> 4 != 4 || ihl < 20)
			return M_ERR;
		if (f[off + 9] != IPPROTO_UDP || (h_be16(f + off + 6) & 0x1fff))
			return M_OTHER;
		return m_roce_at(f, p, off + ihl);
	}
	if (off + 40 > p->end)
		return M_ERR;
	if (f[off] >> 4 != 6)
		return M_ERR;
	if (f[off + 6] != IPPROTO_UDP)
		return M_OTHER;
	p->flags |= PNC_MARK_F_INNER_V6;
	return m_roce_at(f, p, off + 40);
}

/* A draw of probability prob in 1/65536, from the input's numbers. */
static bool m_drawn(uint32_t prob, const uint32_t *rnd, struct expect *e)
{
	if (!prob)
		return false;
	if (prob >= PNC_MARK_PROB_ONE)
		return true;
	return (rnd[e->draws++ % 2] & 0xffff) < prob;
}

static void m_sample(const struct m_pkt *p, uint8_t ecn_out, uint32_t ifindex, size_t room,
		     struct expect *e)
{
	struct m_flow key = {}, *fl;
	uint64_t interval = m.st.sample_interval_ns;
	struct pnc_mark_sample *ev = &e->ev;

	/* The flow: (outer source, outer label) in a tunnel, else (src, dst, DestQP). */
	memcpy(key.src, p->src, 16);
	if (p->flags & PNC_MARK_F_TUNNELLED) {
		key.id = p->flow_label;
		key.tunnelled = 1;
	} else {
		memcpy(key.dst, p->dst, 16);
		key.id = p->dest_qp;
	}
	fl = h_tab_find(&m.flows, &key);
	if (interval && fl && m.now - fl->last < interval) {
		fl->bytes += p->ip_len;
		e->count[PNC_MARK_C_SAMPLE_SUPPRESSED]++;
		return;
	}
	if (((sizeof(*ev) + 8 + 7) & ~(size_t)7) > room) {
		e->count[PNC_MARK_C_RINGBUF_FULL]++;
		return;
	}
	e->count[PNC_MARK_C_SAMPLED]++;
	e->ic.sampled++;
	e->rec = true;
	memset(ev, 0, offsetof(struct pnc_mark_sample, data));
	if (interval && fl) {
		uint64_t b = fl->bytes + p->ip_len;

		ev->flow_bytes = b > UINT32_MAX ? UINT32_MAX : (uint32_t)b;
	}
	if (interval) {
		struct m_flow *row = h_tab_put(&m.flows, &key);

		row->last = m.now;
		row->bytes = 0;
	}
	ev->hdr.type = PNC_MARK_EV_SAMPLE;
	ev->hdr.ip_version = p->version;
	ev->hdr.flags = p->flags;
	ev->hdr.ifindex = ifindex;
	ev->hdr.ts_ns = m.now;
	memcpy(ev->src, p->src, 16);
	memcpy(ev->dst, p->dst, 16);
	ev->flow_label = p->flow_label;
	ev->ecn_in = p->ecn;
	ev->ecn_out = ecn_out;
	if (p->flags & PNC_MARK_F_TUNNELLED)
		ev->inner_off = (uint16_t)(p->inner - p->l3);
	ev->l4_off = (uint16_t)(p->udp - p->l3);
	ev->cap_len = (uint16_t)(p->ip_len < PNC_MARK_DATA_MAX ? p->ip_len : PNC_MARK_DATA_MAX);
	ev->pkt_len = p->ip_len;
	ev->dest_qp = p->dest_qp;
}

static void m_packet(const uint8_t *f, size_t n, uint32_t ifindex, bool gso, const uint32_t *rnd,
		     size_t room, struct expect *e)
{
	bool state = (ifindex == 1 && (m.flags & F_STATE1)) ||
		     (ifindex == 2 && (m.flags & F_STATE2));
	struct m_pkt p;
	int rv;

	e->count[PNC_MARK_C_SEEN]++;
	if (!state) {
		e->count[PNC_MARK_C_NO_STATE]++;
		return;
	}
	if (m.now > m.st.valid_until_ns) {
		e->count[PNC_MARK_C_STALE]++;
		return;
	}
	rv = m_l3(f, n, gso, &p);
	if (rv != M_OK) {
		e->count[rv == M_ERR ? PNC_MARK_C_PARSE_ERROR : PNC_MARK_C_NOT_IP]++;
		return;
	}
	e->l3 = p.l3;
	e->version = p.version;
	e->ip_len = p.ip_len;
	e->ecn_in = e->ecn_out = p.ecn;
	if (p.ecn == PNC_ECN_NOT_ECT) {
		e->count[PNC_MARK_C_NOT_ECT]++;
		return;
	}
	e->count[PNC_MARK_C_ECN_CAPABLE]++;
	e->ic.ecn_capable++;
	/* CE first, and never taken back; ECT(1) only from ECT(0). */
	if (p.ecn != PNC_ECN_CE) {
		if (m_drawn(m.st.ce_prob, rnd, e)) {
			e->ecn_out = PNC_ECN_CE;
			e->count[PNC_MARK_C_MARKED_CE]++;
			e->ic.marked_ce++;
		} else if (p.ecn == PNC_ECN_ECT0 && m_drawn(m.st.ect1_prob, rnd, e)) {
			e->ecn_out = PNC_ECN_ECT1;
			e->count[PNC_MARK_C_MARKED_ECT1]++;
			e->ic.marked_ect1++;
		}
	}
	rv = m_l4(f, &p);
	if (rv != M_OK) {
		if (rv == M_ERR)
			e->count[PNC_MARK_C_TRUNCATED]++;
		return;
	}
	e->count[PNC_MARK_C_ROCE]++;
	if (p.flags & PNC_MARK_F_TUNNELLED)
		e->count[PNC_MARK_C_TUNNELLED]++;
	e->ic.roce++;
	if (m.st.sample)
		m_sample(&p, e->ecn_out, ifindex, room, e);
}

/* ---- checks --------------------------------------------------------------------------- */

static void counters_now(uint64_t *c)
{
	for (__u32 i = 0; i < PNC_MARK_C_MAX; i++)
		c[i] = *(uint64_t *)shim_map_lookup(&counters, &i);
}

/* mark.h: each packet in exactly one of the listed counters. */
static void check_partition(const uint64_t *d)
{
	FUZZ_CHECK(d[PNC_MARK_C_SEEN] == 1);
	FUZZ_CHECK(d[PNC_MARK_C_NO_STATE] + d[PNC_MARK_C_STALE] + d[PNC_MARK_C_NOT_IP] +
			   d[PNC_MARK_C_PARSE_ERROR] + d[PNC_MARK_C_NOT_ECT] +
			   d[PNC_MARK_C_ECN_CAPABLE] ==
		   1);
	FUZZ_CHECK(d[PNC_MARK_C_MARKED_CE] + d[PNC_MARK_C_MARKED_ECT1] + d[PNC_MARK_C_MARK_ERROR] <=
		   d[PNC_MARK_C_ECN_CAPABLE]);
	FUZZ_CHECK(d[PNC_MARK_C_ROCE] + d[PNC_MARK_C_TRUNCATED] <= d[PNC_MARK_C_ECN_CAPABLE]);
	FUZZ_CHECK(d[PNC_MARK_C_TUNNELLED] <= d[PNC_MARK_C_ROCE]);
	FUZZ_CHECK(d[PNC_MARK_C_SAMPLED] + d[PNC_MARK_C_SAMPLE_SUPPRESSED] +
			   d[PNC_MARK_C_RINGBUF_FULL] + d[PNC_MARK_C_SAMPLE_ERROR] <=
		   d[PNC_MARK_C_ROCE]);
}

/* Only the outer ECN bits change, and an IPv4 header sums as before. */
static void check_output(const uint8_t *f, size_t n, const uint8_t *out, size_t olen,
			 const struct expect *e)
{
	size_t csum = e->version == 4 ? e->l3 + 10 : SIZE_MAX, ihl;
	uint8_t want, mask;

	FUZZ_CHECK(olen == n);
	for (size_t i = 0; i < n; i++) {
		if (i == csum || i == csum + 1)
			continue;
		if (e->version && i == e->l3 + 1) {
			/* IPv4: TOS bits 0-1; IPv6: traffic class bits 0-1, octet 1 bits 4-5. */
			mask = e->version == 4 ? 0x03 : 0x30;
			want = (uint8_t)((f[i] & ~mask) |
					 (e->ecn_out << (e->version == 4 ? 0 : 4)));
			FUZZ_CHECK(out[i] == want);
			continue;
		}
		FUZZ_CHECK(out[i] == f[i]);
	}
	if (e->version != 4)
		return;
	ihl = (f[e->l3] & 0x0fu) * 4;
	if (e->ecn_out == e->ecn_in) {
		FUZZ_CHECK(!memcmp(out + csum, f + csum, 2));
		return;
	}
	/* The ones' complement sum: the same (0 and 0xffff are one number). */
	{
		uint16_t a = h_sum16(f + e->l3, ihl), b = h_sum16(out + e->l3, ihl);

		FUZZ_CHECK(a == b || (a % 0xffff) == (b % 0xffff));
	}
}

/* The sample: the model's fields, the packet as it left, and the flow cnpproxyd reads in it. */
static void check_sample(const uint8_t *out, const struct expect *e, const void *rec, size_t len)
{
	const struct pnc_mark_sample *ev = rec;
	struct pnc_cp_sample_view v;
	size_t alen;

	FUZZ_CHECK(len == sizeof(*ev));
	FUZZ_CHECK(!memcmp(ev, &e->ev, offsetof(struct pnc_mark_sample, data)));
	FUZZ_CHECK(!memcmp(ev->data, out + e->l3, ev->cap_len));
	if (pnc_cp_sample_parse(ev->data, ev->cap_len, ev->inner_off, &v))
		return;
	alen = v.roce.ip.version == 4 ? 4 : 16;
	FUZZ_CHECK(v.tunnelled == !!(ev->hdr.flags & PNC_MARK_F_TUNNELLED));
	FUZZ_CHECK(v.outer_version == ev->hdr.ip_version);
	FUZZ_CHECK(!memcmp(v.outer_src, ev->src, ev->hdr.ip_version == 4 ? 4 : 16));
	FUZZ_CHECK(v.flow_label == ev->flow_label);
	FUZZ_CHECK((size_t)(v.ip - ev->data) + v.roce.udp_off == ev->l4_off);
	FUZZ_CHECK(v.roce.bth.dest_qp == ev->dest_qp);
	if (!v.tunnelled)
		FUZZ_CHECK(!memcmp(v.roce.ip.src, ev->src, alen) &&
			   !memcmp(v.roce.ip.dst, ev->dst, alen));
	else
		FUZZ_CHECK(v.roce.ip.version == ((ev->hdr.flags & PNC_MARK_F_INNER_V6) ? 6 : 4));
}

/* A plain RoCEv2 packet the codec parses is one the program sees. */
static void check_codec_sees(const uint8_t *f, size_t n, const struct expect *e)
{
	struct pnc_roce_view v;

	if (!e->count[PNC_MARK_C_ECN_CAPABLE] || e->l3 >= n)
		return;
	if (pnc_roce_parse(f + e->l3, e->ip_len, PNC_ROCE_F_TRUNCATED | PNC_ROCE_F_NO_ICRC, &v) ||
	    v.ip.version != e->version)
		return;
	FUZZ_CHECK(e->count[PNC_MARK_C_ROCE] == 1);
}

/* ---- the input ------------------------------------------------------------------------- */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	SHIM_MAP(states);
	SHIM_RINGBUF(events);
	SHIM_MAP(counters);
	SHIM_MAP(if_counters);
	SHIM_MAP(flows);
	return 0;
}

static uint32_t prob_of(uint32_t v)
{
	return v > PNC_MARK_PROB_ONE ? PNC_MARK_PROB_ONE : v;
}

static void configure(struct h_in *in)
{
	struct pnc_mark_state *st = &m.st;
	struct pnc_mark_if_counters zero = {};

	m.flags = h_u8(in);
	st->ect1_prob = prob_of(h_u32(in));
	st->ce_prob = prob_of(h_u32(in));
	st->sample = !!(m.flags & F_SAMPLE);
	st->sample_interval_ns = h_u16(in) * 1000ULL;
	st->valid_until_ns = CLOCK_START_NS + h_u16(in) * 1000000ULL;
	for (__u32 ifindex = 1; ifindex <= 2; ifindex++) {
		if (m.flags & (ifindex == 1 ? F_STATE1 : F_STATE2))
			FUZZ_CHECK(!shim_map_update(&states, &ifindex, st, BPF_ANY));
		if (m.flags & (ifindex == 1 ? F_IC1 : F_IC2))
			FUZZ_CHECK(!shim_map_update(&if_counters, &ifindex, &zero, BPF_ANY));
	}
}

static void check_if_counters(uint32_t ifindex, const struct expect *e)
{
	struct pnc_mark_if_counters *ic = &m.ic[ifindex], *got;

	got = shim_map_lookup(&if_counters, &ifindex);
	if (!got)
		return;
	ic->ecn_capable += e->ic.ecn_capable;
	ic->marked_ect1 += e->ic.marked_ect1;
	ic->marked_ce += e->ic.marked_ce;
	ic->roce += e->ic.roce;
	ic->sampled += e->ic.sampled;
	FUZZ_CHECK(!memcmp(got, ic, sizeof(*ic)));
}

/* PNC_FUZZ_TRACE=1: what each packet did, to see what a seed reaches. */
static void trace(size_t n, const struct expect *e)
{
	fprintf(stderr, "%zu octets: ECN %u -> %u, counters", n, e->ecn_in, e->ecn_out);
	for (int i = 0; i < PNC_MARK_C_MAX; i++)
		if (e->count[i])
			fprintf(stderr, " %d", i);
	fprintf(stderr, "%s\n", e->rec ? ", a sample" : "");
}

static void one_packet(struct h_in *in)
{
	uint64_t before[PNC_MARK_C_MAX], after[PNC_MARK_C_MAX];
	uint32_t rnd[2], ifindex;
	const uint8_t *f, *out;
	struct __sk_buff *skb;
	struct expect e;
	uint8_t op, room;
	size_t n, olen, rlen;
	const void *rec;
	uint16_t adv;
	int rv;

	op = h_u8(in);
	adv = h_u16(in);
	rnd[0] = h_u32(in);
	rnd[1] = h_u32(in);
	room = h_u8(in);
	f = h_frame(in, FRAME_MAX, &n);
	ifindex = 1 + (op & 3u);

	m.now += adv * ((op & 8) ? 1000000ULL : 1000ULL);
	shim_env.now_ns = m.now;
	shim_env.random = rnd;
	shim_env.n_random = 2;
	shim_ringbuf_space(&events, room ? room * 8u : SIZE_MAX);

	memset(&e, 0, sizeof(e));
	m_packet(f, n, ifindex, op & 4, rnd, room ? room * 8u : SIZE_MAX, &e);

	counters_now(before);
	skb = shim_skb_packet(f, n, n, ifindex, n >= 14 ? (uint16_t)(f[13] << 8 | f[12]) : 0,
			      (op & 4) ? 2 : 1);
	rv = shim_run_skb(pnc_mark, skb);
	out = shim_skb_bytes(skb, &olen);

	if (getenv("PNC_FUZZ_TRACE"))
		trace(n, &e);
	FUZZ_CHECK(rv == TC_ACT_UNSPEC);
	counters_now(after);
	for (int i = 0; i < PNC_MARK_C_MAX; i++) {
		if (after[i] - before[i] != e.count[i])
			fprintf(stderr, "counter %d: %llu, the model says %llu\n", i,
				(unsigned long long)(after[i] - before[i]),
				(unsigned long long)e.count[i]);
		FUZZ_CHECK(after[i] - before[i] == e.count[i]);
		after[i] -= before[i];
	}
	check_partition(after);
	FUZZ_CHECK(shim_trace.random_drawn == e.draws);
	check_if_counters(ifindex, &e);
	check_output(f, n, out, olen, &e);
	FUZZ_CHECK(shim_ringbuf_count(&events) == (e.rec ? 1u : 0u));
	if (e.rec) {
		rec = shim_ringbuf_record(&events, 0, &rlen);
		check_sample(out, &e, rec, rlen);
	}
	check_codec_sees(f, n, &e);
	shim_skb_release(skb);
	shim_ringbuf_clear(&events);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct h_in in = { data, size };

	shim_reset();
	memset(&m, 0, sizeof(m));
	h_tab_init(&m.flows, offsetof(struct m_flow, last), sizeof(struct m_flow));
	m.now = CLOCK_START_NS;
	configure(&in);
	for (int i = 0; i < FRAMES_MAX && in.n; i++)
		one_packet(&in);
	return 0;
}
