// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the proxy's XDP program, cnpproxyd/proxy/xdp/learn.bpf.c
 * with its stages guard.bpf.h, xlate.bpf.h and xsk.bpf.h, compiled for
 * user space through tests/fuzz/bpf_shim/ and run frame by frame
 * through pnc_learn, pnc_guard or pnc_guard_learn.
 *
 * Input: a configuration of CFG_LEN octets, then frame records.
 * Multi-octet numbers are little-endian; past the end everything is 0.
 *   0  flags: 0x01 guard on, 0x02 translator on, 0x04 IPv4 CNP source
 *      set, 0x08 IPv6 source set, 0x10 AF_XDP sockets on ifindex 1,
 *      0x20 the transmit map holds the FIB's interface
 *   1  learner intervals: low nibble sample_ns, high nibble plain_ns
 *      (0: every packet, 1: never, n: n * 100 us)
 *   2  u16 guard rate - 1 (per source and second); 4 guard burst - 1
 *   5  DSCP of the CNPs; 6..13 level factors of CL 0-7
 *   14 u16 minimum interval - 1 (us); 16 u16 global rate - 1; 18 global burst - 1
 *   19 FIB answer (n % 9, 0 success); 20 its interface 1 + n % 4; 21 smac; 27 dmac
 *   33 AF_XDP slot base (n % 16 * 64); 34 queues (n % 65); 35 queues 0-7 with a socket
 *   36 u32 IPv4 ID counter; 40 IPv4 CNP source; 44 IPv6 CNP source
 * Frame record: REC_LEN octets, then the frame.
 *   0  bits 0-1 entry point (0 pnc_learn, 1 pnc_guard, else pnc_guard_learn);
 *      0x04 the frame's destination becomes a local address; 0x08 its
 *      source an accept entry (prefix length: octet 1), 0x10 a denying
 *      one; 0x20 its notification's flow is published (octets 6-12);
 *      0x40 the FIB finds no route for this frame; 0x80 the clock
 *      advances in ms, not us
 *   1  accept prefix length, n % (address bits + 1)
 *   2  u16 clock advance in us (or ms)
 *   4  ingress ifindex 1 + (n & 3), receive queue n >> 2
 *   5  ring buffer room: 0 unlimited, else n * 8 octets
 *   6  flow published: sender QPN (3), P_Key (2), UDP source port (2)
 *   13 u16 frame length
 *
 * Properties, for every frame:
 *  - the verdict and every counter are those of a plain-C model of what
 *    learn.h, guard.h and xlate.h document: the learner's parse and
 *    per-flow sampling with AckReq echoes, the accept table's longest
 *    match, the IPv6 header chains past eight headers dropped, the
 *    per-source and global token buckets, the per-QP minimum interval,
 *    AF_XDP steering; so each frame lands in exactly one of the counters
 *    learn.h lists;
 *  - whatever the model says, a notification to a local address from a
 *    source the accept table refuses is dropped, behind an IPv6 header
 *    chain of any length;
 *  - the learner returns XDP_PASS and never changes the frame; nothing
 *    but a translated notification changes it;
 *  - a CM record holds the frame's IP packet, and the CM codec decodes
 *    it exactly as it decodes the frame; a RoCE sample's fields are
 *    those pnc_roce_parse() and the AETH decoder read from the frame;
 *    a RoCE packet the codec parses is one the learner sees;
 *  - the translator decides exactly the notifications the codec
 *    accepts with an incomplete invoking packet, in a datagram the
 *    kernel would deliver to the socket (cnpproxy_proxy_frame()'s checks
 *    of an AF_XDP frame, which it must pass), asks the FIB for the
 *    route to the codec's sender, and a CNP it sends is octet for octet
 *    the daemon's (pnc_cnp_encode() with the daemon's fields, behind
 *    the FIB's MAC addresses), by XDP_TX or a redirect to the FIB's
 *    interface;
 *  - the shim's own checks: no read outside the frame or a map value,
 *    no ring buffer record left reserved, no helper under a spin lock.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/cm.h"
#include "codec/icrc.h"
#include "codec/ipudp.h"
#include "codec/notif.h"
#include "codec/roce.h"
#include "fuzz_check.h"
#include "harness.h"
#include "shim.h"

#include "proxy/xdp/learn.bpf.c"
#include "program_end.h"

#define CFG_LEN	       60
#define REC_LEN	       15
#define FRAMES_MAX     64
#define CLOCK_START_NS (1000 * 1000000000ULL)
#define NS_PER_S       1000000000ULL
#define MICRO	       1000000ULL

enum cfg_flag {
	F_GUARD = 0x01,
	F_XLATE = 0x02,
	F_SRC4 = 0x04,
	F_SRC6 = 0x08,
	F_XSK = 0x10,
	F_TX = 0x20,
};

enum rec_op {
	OP_ENTRY = 0x03,
	OP_LOCAL = 0x04,
	OP_ACCEPT = 0x08,
	OP_DENY = 0x10,
	OP_FLOW = 0x20,
	OP_NO_ROUTE = 0x40,
	OP_MS = 0x80,
};

enum entry { E_LEARN, E_GUARD, E_GUARD_LEARN };

struct cfg {
	uint8_t flags;
	long fib_ret;
	uint32_t fib_ifindex;
	uint8_t smac[6], dmac[6];
	uint32_t xsk_base, xsk_queues;
	uint8_t xsk_sockets;
};

/* ---- the models' state --------------------------------------------------- */

struct m_addr {
	uint8_t version;
	uint8_t addr[16];
};

struct m_accept {
	uint8_t version, plen; /* key */
	uint8_t addr[16];      /* key: only plen bits count */
	uint8_t permit;
};

struct m_bucket {
	struct m_addr src; /* key */
	uint8_t pad[7];
	uint64_t last, micro;
};

struct m_samp {
	uint8_t src[16], dst[16]; /* key: src, dst, dest_qp, kind */
	uint32_t qp, kind;
	uint64_t last;
};

struct m_pend {
	uint8_t src[16], dst[16]; /* key: src, dst, psn */
	uint32_t psn;
	uint32_t qp;
};

struct m_pub {
	struct pnc_xlate_key key;
	struct pnc_xlate_flow flow;
};

struct m_qp {
	struct pnc_xlate_qp key;
	uint64_t last;
};

static struct {
	struct cfg cfg;
	uint64_t now;
	struct h_tab local, accept, buckets, samp, pend, pub, qps;
	uint64_t g_last, g_micro; /* the global bucket */
	uint32_t ip_id;
} m;

/* What the model expects of one run. */
struct expect {
	enum entry entry;
	int rv;
	uint64_t count[PNC_LEARN_C_MAX];
	bool learned; /* the learning stage ran */
	int rec;      /* 0 or the record type */
	struct pnc_learn_roce_ev roce;
	size_t cm_l3, cm_cap;
	uint32_t cm_pkt_len;
	uint8_t ip_version;
	bool fib;
	struct bpf_fib_lookup fib_req;
	void *redirect_map;
	uint64_t redirect_key;
	uint8_t out[14 + PNC_CNP_LEN6]; /* the translated frame */
	size_t out_len;
};

/* ---- the frame as the models read it ------------------------------------ */

/* Where the IP header starts, past one VLAN tag; false if cut short. */
static bool m_link(const uint8_t *f, size_t n, size_t *l3, uint16_t *type)
{
	size_t off = 0;

	if (n < 14)
		return false;
	*type = h_be16(f + 12);
	*l3 = 14;
	if (*type == 0x8100 || *type == 0x88a8) {
		if (n < 18)
			return false;
		*type = h_be16(f + 16);
		*l3 = 18;
	}
	/* The codec's view of the link layer is the same. */
	FUZZ_CHECK(pnc_eth_l3(f, n, &off) == *type && off == *l3);
	return true;
}

/* The addresses of the IP header, as a key; false if it is cut short. */
static bool m_addrs(const uint8_t *f, size_t n, size_t l3, uint16_t type, struct m_addr *src,
		    struct m_addr *dst)
{
	memset(src, 0, sizeof(*src));
	memset(dst, 0, sizeof(*dst));
	if (type == 0x0800 && n >= l3 + 20) {
		src->version = dst->version = 4;
		memcpy(src->addr, f + l3 + 12, 4);
		memcpy(dst->addr, f + l3 + 16, 4);
		return true;
	}
	if (type == 0x86dd && n >= l3 + 40) {
		src->version = dst->version = 6;
		memcpy(src->addr, f + l3 + 8, 16);
		memcpy(dst->addr, f + l3 + 24, 16);
		return true;
	}
	return false;
}

/*
 * A UDP or ICMP header the guard considers (guard.bpf.h): IPv4, or IPv6
 * past extensions.
 */
struct m_udp {
	size_t udp;
	uint8_t l4; /* 17, or 1 / 58: ICMP */
	bool whole;
	bool deep; /* none found: an IPv6 header chain longer than the walk */
	struct m_addr src, dst;
};

static bool m_ext(uint8_t nh)
{
	return nh == 0 || nh == 43 || nh == 60 || nh == 44;
}

static bool m_udp_of(const uint8_t *f, size_t n, size_t l3, uint16_t type, struct m_udp *u)
{
	size_t off, hdr;
	uint8_t nh;

	u->deep = false;
	if (!m_addrs(f, n, l3, type, &u->src, &u->dst))
		return false;
	u->whole = true;
	if (type == 0x0800) {
		uint16_t frag = h_be16(f + l3 + 6);

		if ((f[l3 + 9] != IPPROTO_UDP && f[l3 + 9] != 1) || (frag & 0x1fff) ||
		    (f[l3] & 0x0f) < 5)
			return false;
		u->whole = !(frag & 0x2000);
		u->l4 = f[l3 + 9];
		u->udp = l3 + (f[l3] & 0x0fu) * 4;
		return n >= u->udp + 8;
	}
	nh = f[l3 + 6];
	off = l3 + 40;
	/* Hop-by-hop, routing, destination options, fragment: eight at most. */
	for (int i = 0; i < 8 && nh != IPPROTO_UDP && nh != 58; i++) {
		hdr = off;
		if (!m_ext(nh))
			return false;
		if (n < hdr + 8)
			return false;
		if (nh == 44) {
			/* Only the first fragment has the UDP header. */
			if (h_be16(f + hdr + 2) & 0xfff8)
				return false;
			u->whole = false;
			off += 8;
		} else {
			off += (f[hdr + 1] + 1u) * 8;
		}
		/* Reaching past 4 KiB counts as a chain too long to walk. */
		if (off > 4096) {
			u->deep = true;
			return false;
		}
		nh = f[hdr];
	}
	if (nh != IPPROTO_UDP && nh != 58) {
		u->deep = m_ext(nh);
		return false;
	}
	u->l4 = nh;
	u->udp = off;
	return n >= u->udp + 8;
}

/* ---- the learner (learn.h) --------------------------------------------------- */

enum { M_OTHER, M_ERR, M_ROCE };

struct m_roce {
	uint8_t version;
	size_t udp, bth;
	uint32_t ip_len;
	struct m_addr src, dst;
	uint8_t tos;
	uint32_t flow_label;
};

/* IP/UDP to 4791 with a complete BTH, IPv4 options allowed, no IPv6 extensions. */
static int m_roce_of(const uint8_t *f, size_t n, size_t l3, uint16_t type, struct m_roce *r)
{
	memset(r, 0, sizeof(*r));
	if (type == 0x0800) {
		if (n < l3 + 20)
			return M_ERR;
		if (f[l3 + 9] != IPPROTO_UDP || (h_be16(f + l3 + 6) & 0x3fff))
			return M_OTHER;
		if ((f[l3] & 0x0f) < 5)
			return M_ERR;
		r->version = 4;
		r->udp = l3 + (f[l3] & 0x0fu) * 4;
		r->ip_len = h_be16(f + l3 + 2);
		r->tos = f[l3 + 1];
	} else if (type == 0x86dd) {
		if (n < l3 + 40)
			return M_ERR;
		if (f[l3 + 6] != IPPROTO_UDP)
			return M_OTHER;
		r->version = 6;
		r->udp = l3 + 40;
		r->ip_len = 40 + h_be16(f + l3 + 4);
		r->tos = (uint8_t)(h_be32(f + l3) >> 20);
		r->flow_label = h_be32(f + l3) & 0xfffff;
	} else {
		return M_OTHER;
	}
	m_addrs(f, n, l3, type, &r->src, &r->dst);
	if (n < r->udp + 8)
		return M_ERR;
	if (h_be16(f + r->udp + 2) != PNC_ROCE_UDP_PORT)
		return M_OTHER;
	r->bth = r->udp + 8;
	return n < r->bth + PNC_BTH_LEN ? M_ERR : M_ROCE;
}

/* Octets a ring buffer record of size takes. */
static size_t rb_need(size_t size)
{
	return (size + 8 + 7) & ~(size_t)7;
}

static void m_learn(const uint8_t *f, size_t n, size_t l3, uint16_t type, uint32_t ifindex,
		    size_t room, struct expect *e)
{
	const struct pnc_learn_cfg *lc = &pnc_cfg;
	struct pnc_learn_roce_ev *ev = &e->roce;
	struct m_samp skey = {}, *s;
	struct m_pend pkey = {}, *p;
	const uint8_t *bth;
	struct m_roce r;
	uint64_t interval;
	uint32_t kind;
	size_t alen;
	bool echo = false;
	int rv;

	e->rv = XDP_PASS;
	e->learned = true;
	rv = m_roce_of(f, n, l3, type, &r);
	if (rv == M_ERR)
		e->count[PNC_LEARN_C_PARSE_ERR]++;
	if (rv != M_ROCE)
		return;
	e->count[PNC_LEARN_C_ROCE]++;
	e->ip_version = r.version;
	bth = f + r.bth;

	if (bth[0] == PNC_OP_UD_SEND_ONLY && h_be24(bth + 5) == PNC_GSI_QP) {
		/* The IP packet, cut to the frame and to the record. */
		size_t cap = r.ip_len;

		if (cap > n - l3)
			cap = n - l3;
		if (cap > PNC_LEARN_CM_MAX)
			cap = PNC_LEARN_CM_MAX;
		if (!cap)
			e->count[PNC_LEARN_C_PARSE_ERR]++;
		else if (rb_need(sizeof(struct pnc_learn_cm_ev)) > room)
			e->count[PNC_LEARN_C_RB_FULL]++;
		else {
			e->count[PNC_LEARN_C_CM]++;
			e->rec = PNC_LEARN_EV_CM;
			e->cm_l3 = l3;
			e->cm_cap = cap;
			e->cm_pkt_len = r.ip_len;
		}
		return;
	}

	memset(ev, 0, sizeof(*ev));
	if (bth[0] <= PNC_OP_RC_WRITE_ONLY_IMM) {
		kind = (bth[8] & 0x80) ? PNC_LEARN_K_DATA_ACKREQ : PNC_LEARN_K_DATA_PLAIN;
	} else if (bth[0] == PNC_OP_RC_ACK) {
		if (n < r.bth + PNC_BTH_LEN + PNC_AETH_LEN) {
			e->count[PNC_LEARN_C_PARSE_ERR]++;
			return;
		}
		ev->syndrome = bth[PNC_BTH_LEN];
		ev->msn = h_be24(bth + PNC_BTH_LEN + 1);
		kind = ev->syndrome >> 5 == PNC_AETH_ACK ? PNC_LEARN_K_ACK : PNC_LEARN_K_NAK;
	} else {
		e->count[PNC_LEARN_C_IGNORED]++;
		return;
	}
	interval = kind == PNC_LEARN_K_DATA_PLAIN ? lc->plain_ns : lc->sample_ns;
	if (interval == PNC_LEARN_NEVER) {
		e->count[PNC_LEARN_C_IGNORED]++;
		return;
	}

	alen = r.version == 4 ? 4 : 16;
	memcpy(skey.src, r.src.addr, alen);
	memcpy(skey.dst, r.dst.addr, alen);
	skey.qp = h_be24(bth + 5);
	skey.kind = kind;
	if (kind == PNC_LEARN_K_ACK) {
		/* The request this ACK answers went the other way. */
		memcpy(pkey.src, skey.dst, 16);
		memcpy(pkey.dst, skey.src, 16);
		pkey.psn = h_be24(bth + 9);
		p = h_tab_find(&m.pend, &pkey);
		if (p) {
			echo = true;
			ev->echo = 1;
			ev->echo_qp = p->qp;
		}
	}
	s = h_tab_find(&m.samp, &skey);
	if (interval && !echo && s && m.now - s->last < interval) {
		e->count[kind == PNC_LEARN_K_DATA_PLAIN ? PNC_LEARN_C_IGNORED
							: PNC_LEARN_C_RATE_LIMITED]++;
		return;
	}
	if (rb_need(sizeof(*ev)) > room) {
		e->count[PNC_LEARN_C_RB_FULL]++;
		return;
	}

	e->count[PNC_LEARN_C_SAMPLES]++;
	e->rec = PNC_LEARN_EV_ROCE;
	ev->hdr.type = PNC_LEARN_EV_ROCE;
	ev->hdr.ip_version = r.version;
	ev->hdr.ifindex = ifindex;
	ev->hdr.ts_ns = m.now;
	memcpy(ev->src, skey.src, 16);
	memcpy(ev->dst, skey.dst, 16);
	ev->sport = h_be16(f + r.udp);
	ev->opcode = bth[0];
	ev->kind = (uint8_t)kind;
	ev->tos = r.tos;
	ev->ack_req = bth[8] >> 7;
	ev->pkey = h_be16(bth + 2);
	ev->flow_label = r.flow_label;
	ev->dest_qp = skey.qp;
	ev->psn = h_be24(bth + 9);

	if (interval)
		((struct m_samp *)h_tab_put(&m.samp, &skey))->last = m.now;
	if (echo) {
		h_tab_del(&m.pend, &pkey);
	} else if (kind == PNC_LEARN_K_DATA_ACKREQ) {
		memset(&pkey, 0, sizeof(pkey));
		memcpy(pkey.src, skey.src, 16);
		memcpy(pkey.dst, skey.dst, 16);
		pkey.psn = ev->psn;
		((struct m_pend *)h_tab_put(&m.pend, &pkey))->qp = skey.qp;
	}
}

/* ---- the guard (guard.h) ---------------------------------------------------------- */

enum { G_NOT_MINE, G_PASS, G_DROP };

/* The accept entry of the longest prefix covering a; NULL if none. */
static const struct m_accept *m_accept_of(const struct m_addr *a)
{
	const struct m_accept *best = NULL;

	for (size_t i = 0; i < m.accept.n; i++) {
		const struct m_accept *x = (const void *)m.accept.rows[i];
		unsigned int whole = x->plen / 8, bits = x->plen % 8;

		if (x->version != a->version || memcmp(x->addr, a->addr, whole))
			continue;
		if (bits && ((x->addr[whole] ^ a->addr[whole]) >> (8 - bits)))
			continue;
		if (!best || x->plen > best->plen)
			best = x;
	}
	return best;
}

/* A token from the source's bucket: rate per second, burst, new sources full. */
static bool m_take(const struct m_addr *src)
{
	const struct pnc_guard_cfg *gc = &pnc_guard_cfg;
	struct m_bucket key = { .src = *src }, *b = h_tab_find(&m.buckets, &key);
	uint64_t cap = gc->burst * MICRO, elapsed;

	if (!b) {
		b = h_tab_put(&m.buckets, &key);
		b->last = m.now;
		b->micro = cap - MICRO;
		return true;
	}
	elapsed = m.now > b->last ? m.now - b->last : 0;
	if (elapsed > NS_PER_S)
		elapsed = NS_PER_S;
	b->micro += elapsed * gc->rate / 1000;
	if (b->micro > cap)
		b->micro = cap;
	b->last = m.now;
	if (b->micro < MICRO)
		return false;
	b->micro -= MICRO;
	return true;
}

static int m_guard(const uint8_t *f, size_t n, size_t l3, uint16_t type, struct m_udp *u,
		   uint16_t *port, struct expect *e)
{
	const struct m_accept *a;

	if (!pnc_guard_cfg.rate)
		return G_NOT_MINE;
	if (!m_udp_of(f, n, l3, type, u)) {
		/* It cannot be shown not to be a notification. */
		if (u->deep && h_tab_find(&m.local, &u->dst)) {
			e->count[PNC_LEARN_C_GUARD_HDR_CHAIN]++;
			return G_DROP;
		}
		return G_NOT_MINE;
	}
	if (u->l4 == IPPROTO_UDP) {
		*port = h_be16(f + u->udp + 2);
		if (*port != pnc_guard_cfg.notification_port &&
		    *port != pnc_guard_cfg.flow_label_port)
			return G_NOT_MINE;
	} else {
		/* The ICMP form; port 0 for the stages after the guard. */
		uint8_t type = u->l4 == 1 ? pnc_guard_cfg.icmp_type : pnc_guard_cfg.icmp6_type;

		*port = 0;
		if (!type || f[u->udp] != type)
			return G_NOT_MINE;
	}
	if (!h_tab_find(&m.local, &u->dst))
		return G_NOT_MINE;
	a = m_accept_of(&u->src);
	if (!a || a->permit != PNC_GUARD_PERMIT) {
		e->count[PNC_LEARN_C_GUARD_DENIED]++;
		return G_DROP;
	}
	if (!m_take(&u->src)) {
		e->count[PNC_LEARN_C_GUARD_RATE_LIMITED]++;
		return G_DROP;
	}
	e->count[PNC_LEARN_C_GUARD_PASSED]++;
	return G_PASS;
}

/* ---- the translator (xlate.h) -------------------------------------------------------- */

/*
 * A datagram the kernel delivers to a UDP socket as it is, by the checks
 * cnpproxy_proxy_frame() makes on an AF_XDP frame: pnc_ipudp_parse() (IPv4
 * header checksum, no options or fragment, IPv6 without extension
 * headers, lengths), the IP version the EtherType's, and RFC 8200's
 * refusal of an IPv6 UDP datagram without checksum.
 */
static bool m_deliverable(const uint8_t *f, size_t n, size_t l3, uint16_t type,
			  struct pnc_udp_view *d)
{
	if (pnc_ipudp_parse(f + l3, n - l3, PNC_IPUDP_F_NO_CSUM, d))
		return false;
	if (d->ip.version != (type == 0x0800 ? 4 : type == 0x86dd ? 6 : 0))
		return false;
	return d->ip.version == 4 || d->udp_csum;
}

/* The notification the codec reads in the frame, if it is one to translate. */
static bool m_notification(const uint8_t *f, size_t n, size_t l3, uint16_t type,
			   struct pnc_notif *no, struct pnc_roce_view *v)
{
	struct pnc_udp_view d;
	size_t ip_off;

	if (!m_deliverable(f, n, l3, type, &d))
		return false;
	if (pnc_notif_decode(d.payload, d.payload_len, no) || !no->invoking_len ||
	    no->start == PNC_NOTIF_START_MPLS)
		return false;
	/* A complete invoking packet goes to the socket path, which checks its ICRC. */
	return !pnc_notif_invoking_roce(no, &ip_off, v) && v->truncated;
}

static struct m_pub *m_pub_of(const struct pnc_xlate_key *key)
{
	return h_tab_find(&m.pub, key);
}

/* The key of the flow a codec view names. */
static void m_key_of(const struct pnc_roce_view *v, struct pnc_xlate_key *key)
{
	memset(key, 0, sizeof(*key));
	key->version = v->ip.version;
	key->receiver_qpn = v->bth.dest_qp;
	memcpy(key->sender, v->ip.src, v->ip.version == 4 ? 4 : 16);
	memcpy(key->receiver, v->ip.dst, v->ip.version == 4 ? 4 : 16);
}

static bool m_global_take(void)
{
	const struct pnc_xlate_cfg *xc = &pnc_xlate_cfg;
	uint64_t cap = xc->global_burst * MICRO, elapsed;

	elapsed = m.now > m.g_last ? m.now - m.g_last : 0;
	if (elapsed > NS_PER_S)
		elapsed = NS_PER_S;
	/* The loader's reset leaves last 0: the bucket starts full. */
	m.g_micro = m.g_last ? m.g_micro + elapsed * xc->global_rate / 1000 : cap;
	if (m.g_micro > cap)
		m.g_micro = cap;
	m.g_last = m.now;
	if (m.g_micro < MICRO)
		return false;
	m.g_micro -= MICRO;
	return true;
}

static bool m_interval_ok(const struct pnc_xlate_key *key, uint32_t sender_qpn, uint8_t factor)
{
	struct m_qp k = {}, *q;

	k.key.version = key->version;
	k.key.sender_qpn = sender_qpn;
	memcpy(k.key.sender, key->sender, 16);
	q = h_tab_find(&m.qps, &k);
	if (q && m.now - q->last < pnc_xlate_cfg.min_interval_ns * factor)
		return false;
	q = h_tab_put(&m.qps, &k);
	q->last = m.now;
	return true;
}

/* The CNP the daemon sends for a flow (proxy/proxy.c sender_ip()), in its frame. */
static void m_cnp_frame(const struct pnc_xlate_key *key, const struct pnc_xlate_flow *fl,
			uint16_t ip_id, struct expect *e)
{
	const struct pnc_xlate_cfg *xc = &pnc_xlate_cfg;
	struct pnc_cnp cnp;
	size_t len;

	memset(&cnp, 0, sizeof(cnp));
	pnc_ip_udp_init(&cnp.ip, key->version);
	memcpy(cnp.ip.src, key->version == 4 ? xc->src4 : xc->src6, key->version == 4 ? 4 : 16);
	memcpy(cnp.ip.dst, key->sender, 16);
	cnp.ip.tos = xc->tos;
	cnp.ip.ip_id = ip_id;
	cnp.ip.sport = fl->udp_sport ? fl->udp_sport : 0xc000;
	cnp.pkey = fl->pkey;
	cnp.dest_qp = fl->sender_qpn;
	pnc_eth_write(e->out, m.cfg.dmac, m.cfg.smac, key->version);
	FUZZ_CHECK(pnc_cnp_encode(&cnp, e->out + PNC_ETH_HLEN, sizeof(e->out) - PNC_ETH_HLEN,
				  &len) == PNC_OK);
	e->out_len = PNC_ETH_HLEN + len;
}

/* The FIB request for the route to the sender, from the CNP's source. */
static void m_fib_request(const struct pnc_xlate_key *key, uint32_t ifindex, struct expect *e)
{
	struct bpf_fib_lookup *q = &e->fib_req;

	e->fib = true;
	memset(q, 0, sizeof(*q));
	q->family = key->version == 4 ? 2 : 10;
	q->l4_protocol = IPPROTO_UDP;
	q->dport = bpf_htons(PNC_ROCE_UDP_PORT);
	q->tot_len = key->version == 4 ? PNC_CNP_LEN4 : PNC_CNP_LEN6;
	q->ifindex = ifindex;
	if (key->version == 4) {
		memcpy(&q->ipv4_src, pnc_xlate_cfg.src4, 4);
		memcpy(&q->ipv4_dst, key->sender, 4);
	} else {
		memcpy(q->ipv6_src, pnc_xlate_cfg.src6, 16);
		memcpy(q->ipv6_dst, key->sender, 16);
	}
}

/* The translator's verdict; XDP_PASS goes on to AF_XDP steering. */
static int m_xlate(const uint8_t *f, size_t n, size_t l3, uint16_t type, uint16_t port,
		   uint32_t ifindex, bool no_route, struct expect *e)
{
	const struct pnc_xlate_cfg *xc = &pnc_xlate_cfg;
	struct pnc_xlate_key key;
	struct pnc_roce_view v;
	struct pnc_notif no;
	struct m_pub *p;
	uint16_t ip_id;
	uint8_t factor;

	if (!xc->enabled || port != pnc_guard_cfg.notification_port)
		return XDP_PASS;
	if (!m_notification(f, n, l3, type, &no, &v)) {
		e->count[PNC_LEARN_C_XLATE_PASS_OTHER]++;
		return XDP_PASS;
	}
	m_key_of(&v, &key);
	p = m_pub_of(&key);
	if (!p) {
		e->count[PNC_LEARN_C_XLATE_PASS_FLOW]++;
		return XDP_PASS;
	}
	factor = xc->factor[no.cl];
	if (!factor) {
		e->count[PNC_LEARN_C_XLATE_RX]++;
		e->count[PNC_LEARN_C_XLATE_LIGHT]++;
		return XDP_DROP;
	}
	if (!(key.version == 4 ? xc->src4_set : xc->src6_set)) {
		e->count[PNC_LEARN_C_XLATE_PASS_OTHER]++;
		return XDP_PASS;
	}
	m_fib_request(&key, ifindex, e);
	if (no_route || m.cfg.fib_ret != BPF_FIB_LKUP_RET_SUCCESS || !(m.cfg.flags & F_TX)) {
		e->count[PNC_LEARN_C_XLATE_PASS_ROUTE]++;
		return XDP_PASS;
	}
	e->count[PNC_LEARN_C_XLATE_RX]++;
	if (!m_global_take()) {
		e->count[PNC_LEARN_C_XLATE_RL_GLOBAL]++;
		return XDP_DROP;
	}
	if (!m_interval_ok(&key, p->flow.sender_qpn, factor)) {
		e->count[PNC_LEARN_C_XLATE_MIN_INTERVAL]++;
		return XDP_DROP;
	}
	e->count[PNC_LEARN_C_XLATE_SENT]++;
	/* Never 0, as the daemon's. */
	ip_id = (uint16_t)++m.ip_id;
	if (!ip_id)
		ip_id = (uint16_t)++m.ip_id;
	m_cnp_frame(&key, &p->flow, ip_id, e);
	if (m.cfg.fib_ifindex == ifindex)
		return XDP_TX;
	e->redirect_map = &xlate_tx;
	e->redirect_key = m.cfg.fib_ifindex;
	return XDP_REDIRECT;
}

/* ---- AF_XDP steering (xsk.h) ----------------------------------------------------------- */

static int m_xsk(size_t n, size_t l3, uint16_t type, const struct m_udp *u, uint32_t ifindex,
		 uint32_t queue, struct expect *e)
{
	if (!(m.cfg.flags & F_XSK) || ifindex != 1)
		return XDP_PASS;
	/* Only what cnpproxyd's frame parser takes, in a socket buffer. */
	if (!u->whole || u->udp != l3 + (type == 0x0800 ? 20 : 40) || queue >= m.cfg.xsk_queues ||
	    queue >= PNC_XSK_QUEUES_MAX || n > PNC_XSK_FRAME_MAX) {
		e->count[PNC_LEARN_C_XSK_PASSED]++;
		return XDP_PASS;
	}
	if (queue >= 8 || !(m.cfg.xsk_sockets & (1u << queue))) {
		e->count[PNC_LEARN_C_XSK_PASSED]++;
		return XDP_PASS;
	}
	e->count[PNC_LEARN_C_XSK_STEERED]++;
	e->redirect_map = &xsk_sockets;
	e->redirect_key = m.cfg.xsk_base + queue;
	return XDP_REDIRECT;
}

/* The whole program, entry point by entry point (learn.bpf.c's comments). */
static void m_frame(const uint8_t *f, size_t n, enum entry entry, uint32_t ifindex, uint32_t queue,
		    size_t room, bool no_route, struct expect *e)
{
	struct m_udp u;
	uint16_t type, port = 0;
	size_t l3;
	int g, rv;

	e->count[PNC_LEARN_C_PKTS]++;
	if (!m_link(f, n, &l3, &type)) {
		if (entry != E_GUARD)
			e->count[PNC_LEARN_C_PARSE_ERR]++;
		e->rv = XDP_PASS;
		return;
	}
	if (entry == E_LEARN) {
		m_learn(f, n, l3, type, ifindex, room, e);
		return;
	}
	g = m_guard(f, n, l3, type, &u, &port, e);
	if (g == G_DROP) {
		e->rv = XDP_DROP;
		return;
	}
	if (g == G_NOT_MINE) {
		if (entry == E_GUARD_LEARN)
			m_learn(f, n, l3, type, ifindex, room, e);
		else
			e->rv = XDP_PASS;
		return;
	}
	/* The ICMP form goes to the raw sockets. */
	if (!port) {
		e->rv = XDP_PASS;
		return;
	}
	rv = m_xlate(f, n, l3, type, port, ifindex, no_route, e);
	e->rv = rv == XDP_PASS ? m_xsk(n, l3, type, &u, ifindex, queue, e) : rv;
}

/* ---- configuration ------------------------------------------------------------------ */

/* The translator's read-only tables, filled as the loader fills them (proxy/xdp/learn_xdp.c). */
static void xlate_tables(void)
{
	/* ICRC-masked octets of a CNP (doc/wire-formats.md 3.1): IPv4, then IPv6. */
	static const uint8_t masked4[] = { 1, 8, 10, 11, 20 + 6, 20 + 7, 28 + 4 };
	static const uint8_t masked6[] = { 1, 2, 3, 7, 40 + 6, 40 + 7, 48 + 4 };
	static uint32_t crc[PNC_XLATE_CRC_SLICES][256], mask[2][PNC_XLATE_CNP_WORDS];
	static int8_t ext[256];
	uint8_t buf[PNC_XLATE_CRC_SLICES] = {}, ones[8];
	uint32_t seed;

	/* Slice k: the register after an octet and k zeros, from 0. */
	for (unsigned int k = 0; k < PNC_XLATE_CRC_SLICES; k++)
		for (unsigned int i = 0; i < 256; i++) {
			buf[0] = (uint8_t)i;
			crc[k][i] = ~pnc_crc32(0xffffffff, buf, k + 1);
		}
	memset(ones, 0xff, sizeof(ones));
	seed = ~pnc_crc32(0, ones, sizeof(ones));
	for (size_t i = 0; i < sizeof(masked4); i++)
		mask[0][masked4[i] / 4] |= 0xffu << 8 * (masked4[i] % 4);
	for (size_t i = 0; i < sizeof(masked6); i++)
		mask[1][masked6[i] / 4] |= 0xffu << 8 * (masked6[i] % 4);
	mask[1][0] |= 0x0f; /* the traffic class's high nibble, in octet 0 */
	for (unsigned int i = 0; i < 256; i++)
		ext[i] = (int8_t)pnc_bth_ext_len((uint8_t)i);
	shim_rodata_write(pnc_xlate_crc, crc, sizeof(crc));
	shim_rodata_write(&pnc_xlate_icrc_seed, &seed, sizeof(seed));
	shim_rodata_write(pnc_xlate_icrc_mask, mask, sizeof(mask));
	shim_rodata_write(pnc_xlate_ext_len, ext, sizeof(ext));
}

static struct pnc_learn_cfg learn_defaults;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	SHIM_RINGBUF(events);
	SHIM_MAP(counters);
	SHIM_MAP(flows);
	SHIM_MAP(pending);
	SHIM_MAP(guard_accept);
	SHIM_MAP(guard_local);
	SHIM_MAP(guard_buckets);
	SHIM_MAP(xlate_flows);
	SHIM_MAP(xlate_qps);
	SHIM_MAP(xlate_global);
	SHIM_MAP(xlate_tx);
	SHIM_MAP(xlate_scratch);
	SHIM_MAP(xsk_sockets);
	SHIM_MAP(xsk_ifs);
	xlate_tables();
	learn_defaults = pnc_cfg;
	return 0;
}

static uint64_t interval_of(uint8_t sel)
{
	return sel == 0 ? 0 : sel == 1 ? PNC_LEARN_NEVER : sel * 100000ULL;
}

/* The configuration: the program's globals and maps as the loader sets them. */
static void configure(struct h_in *in)
{
	struct cfg *c = &m.cfg;
	struct pnc_guard_cfg gc = {};
	struct pnc_xlate_cfg xc = {};
	struct pnc_xsk_if xi;
	uint8_t iv, gburst, dscp, glburst, fib, fibif, xbase, xq;
	uint16_t grate, mint, glrate;
	uint32_t ipid;

	memset(c, 0, sizeof(*c));
	c->flags = h_u8(in);
	iv = h_u8(in);
	grate = h_u16(in);
	gburst = h_u8(in);
	dscp = h_u8(in);
	h_bytes(in, xc.factor, sizeof(xc.factor));
	mint = h_u16(in);
	glrate = h_u16(in);
	glburst = h_u8(in);
	fib = h_u8(in);
	fibif = h_u8(in);
	h_bytes(in, c->smac, 6);
	h_bytes(in, c->dmac, 6);
	xbase = h_u8(in);
	xq = h_u8(in);
	c->xsk_sockets = h_u8(in);
	ipid = h_u32(in);
	h_bytes(in, xc.src4, 4);
	h_bytes(in, xc.src6, 16);

	pnc_cfg = learn_defaults;
	pnc_cfg.sample_ns = interval_of(iv & 0x0f);
	pnc_cfg.plain_ns = interval_of(iv >> 4);

	gc.notification_port = PNC_NOTIF_UDP_PORT;
	gc.flow_label_port = PNC_FCN_UDP_PORT;
	gc.icmp_type = PNC_NOTIF_ICMP_TYPE;
	gc.icmp6_type = PNC_NOTIF_ICMP6_TYPE;
	gc.rate = (c->flags & F_GUARD) ? 1u + grate : 0;
	gc.burst = 1u + gburst; /* the loader never sets 0 */
	pnc_guard_cfg = gc;

	xc.enabled = !!(c->flags & F_XLATE);
	xc.tos = (uint8_t)((dscp & 0x3f) << 2);
	xc.src4_set = !!(c->flags & F_SRC4);
	xc.src6_set = !!(c->flags & F_SRC6);
	xc.min_interval_ns = (1u + mint) * 1000ULL;
	xc.global_rate = 1u + glrate;
	xc.global_burst = 1u + glburst;
	pnc_xlate_cfg = xc;
	pnc_xlate_ip_id = ipid;
	m.ip_id = ipid;

	c->fib_ret = fib % 9;
	c->fib_ifindex = 1u + fibif % 4;
	memcpy(shim_env.fib_smac, c->smac, 6);
	memcpy(shim_env.fib_dmac, c->dmac, 6);
	shim_env.fib_ifindex = c->fib_ifindex;
	if (c->flags & F_TX) {
		struct bpf_devmap_val dv = { .ifindex = c->fib_ifindex };

		FUZZ_CHECK(!shim_map_update(&xlate_tx, &c->fib_ifindex, &dv, BPF_ANY));
	}
	c->xsk_base = (xbase % 16u) * PNC_XSK_QUEUES_MAX;
	c->xsk_queues = xq % (PNC_XSK_QUEUES_MAX + 1u);
	if (c->flags & F_XSK) {
		__u32 ifindex = 1;

		xi.base = c->xsk_base;
		xi.queues = c->xsk_queues;
		FUZZ_CHECK(!shim_map_update(&xsk_ifs, &ifindex, &xi, BPF_ANY));
		for (__u32 q = 0; q < 8; q++) {
			__u32 slot = c->xsk_base + q, fd = 100 + q;

			if (c->xsk_sockets & (1u << q))
				FUZZ_CHECK(!shim_map_update(&xsk_sockets, &slot, &fd, BPF_ANY));
		}
	}
}

/* The flow a notification in the frame names, if the codec reads one. */
static bool notif_flow(const uint8_t *f, size_t n, size_t l3, uint16_t type,
		       struct pnc_xlate_key *key)
{
	struct pnc_roce_view v;
	struct pnc_notif no;
	struct m_udp u;
	size_t ulen, ip_off;

	if (!m_udp_of(f, n, l3, type, &u) || u.l4 != IPPROTO_UDP)
		return false;
	ulen = h_be16(f + u.udp + 4);
	if (ulen < 8 || u.udp + ulen > n || pnc_notif_decode(f + u.udp + 8, ulen - 8, &no) ||
	    pnc_notif_invoking_roce(&no, &ip_off, &v))
		return false;
	m_key_of(&v, key);
	return true;
}

/* The tables a record asks for, from its frame: in the maps and in the model. */
static void frame_tables(uint8_t op, uint8_t plen, const uint8_t *fl, const uint8_t *f, size_t n)
{
	struct m_addr src, dst;
	uint16_t type;
	size_t l3;

	if (!m_link(f, n, &l3, &type) || !m_addrs(f, n, l3, type, &src, &dst))
		return;
	if (op & OP_LOCAL) {
		struct pnc_guard_addr ga = { .version = dst.version };
		__u8 one = 1;

		memcpy(ga.addr, dst.addr, 16);
		FUZZ_CHECK(!shim_map_update(&guard_local, &ga, &one, BPF_ANY));
		h_tab_put(&m.local, &dst);
	}
	if (op & OP_ACCEPT) {
		unsigned int bits = src.version == 4 ? 32 : 128;
		struct pnc_guard_prefix gp = { .version = src.version };
		struct m_accept a = { .version = src.version }, *row;
		__u8 permit = (op & OP_DENY) ? PNC_GUARD_DENY : PNC_GUARD_PERMIT;

		/* The trie ignores the bits past the prefix: so does the key here. */
		a.plen = (uint8_t)(plen % (bits + 1));
		memcpy(gp.addr, src.addr, 16);
		gp.prefixlen = 8 + a.plen;
		for (unsigned int b = 0; b < a.plen; b++)
			a.addr[b / 8] |= src.addr[b / 8] & (0x80 >> b % 8);
		FUZZ_CHECK(!shim_map_update(&guard_accept, &gp, &permit, BPF_ANY));
		row = h_tab_put(&m.accept, &a);
		row->permit = permit;
	}
	if (op & OP_FLOW) {
		struct pnc_xlate_key key;
		struct pnc_xlate_flow flow = {
			.sender_qpn = h_be24(fl),
			.pkey = h_be16(fl + 3),
			.udp_sport = h_be16(fl + 5),
		};
		struct m_pub *row;

		if (notif_flow(f, n, l3, type, &key)) {
			FUZZ_CHECK(!shim_map_update(&xlate_flows, &key, &flow, BPF_ANY));
			row = h_tab_put(&m.pub, &key);
			row->flow = flow;
		}
	}
}

/* ---- checks ------------------------------------------------------------------------------ */

static void counters_now(uint64_t *c)
{
	for (__u32 i = 0; i < PNC_LEARN_C_MAX; i++)
		c[i] = *(uint64_t *)shim_map_lookup(&counters, &i);
}

/* learn.h: each frame in exactly one of the listed counters. */
static void check_partition(const uint64_t *d)
{
	uint64_t out = d[PNC_LEARN_C_CM] + d[PNC_LEARN_C_SAMPLES] + d[PNC_LEARN_C_RATE_LIMITED] +
		       d[PNC_LEARN_C_RB_FULL] + d[PNC_LEARN_C_IGNORED];
	uint64_t decided = d[PNC_LEARN_C_XLATE_SENT] + d[PNC_LEARN_C_XLATE_LIGHT] +
			   d[PNC_LEARN_C_XLATE_RL_GLOBAL] + d[PNC_LEARN_C_XLATE_MIN_INTERVAL] +
			   d[PNC_LEARN_C_XLATE_TX_ERROR];
	uint64_t passed = d[PNC_LEARN_C_XLATE_PASS_FLOW] + d[PNC_LEARN_C_XLATE_PASS_ROUTE] +
			  d[PNC_LEARN_C_XLATE_PASS_OTHER];

	FUZZ_CHECK(d[PNC_LEARN_C_PKTS] == 1);
	if (d[PNC_LEARN_C_ROCE])
		FUZZ_CHECK(d[PNC_LEARN_C_ROCE] == 1 && out + d[PNC_LEARN_C_PARSE_ERR] == 1);
	else
		FUZZ_CHECK(out == 0 && d[PNC_LEARN_C_PARSE_ERR] <= 1);
	FUZZ_CHECK(d[PNC_LEARN_C_GUARD_PASSED] + d[PNC_LEARN_C_GUARD_DENIED] +
			   d[PNC_LEARN_C_GUARD_RATE_LIMITED] + d[PNC_LEARN_C_GUARD_HDR_CHAIN] <=
		   1);
	FUZZ_CHECK(d[PNC_LEARN_C_XLATE_RX] == decided && decided + passed <= 1);
	FUZZ_CHECK(d[PNC_LEARN_C_XSK_STEERED] + d[PNC_LEARN_C_XSK_PASSED] <= 1);
}

/* The CM record: the IP packet, which the CM codec reads as it reads the frame. */
static void check_cm(const uint8_t *f, size_t n, const struct expect *e, uint32_t ifindex,
		     const struct pnc_learn_cm_ev *ev, size_t len)
{
	struct pnc_cm_packet a, b;
	size_t whole = e->cm_pkt_len < n - e->cm_l3 ? e->cm_pkt_len : n - e->cm_l3;
	int ra, rb;

	FUZZ_CHECK(len == sizeof(*ev));
	FUZZ_CHECK(ev->hdr.type == PNC_LEARN_EV_CM && ev->hdr.ip_version == e->ip_version &&
		   !ev->hdr.rsvd && ev->hdr.ifindex == ifindex && ev->hdr.ts_ns == m.now);
	FUZZ_CHECK(ev->pkt_len == e->cm_pkt_len && ev->cap_len == e->cm_cap);
	FUZZ_CHECK(!memcmp(ev->data, f + e->cm_l3, e->cm_cap));
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	/* The stack drops an IP version the EtherType does not announce. */
	if (f[e->cm_l3] >> 4 != e->ip_version)
		return;
	ra = pnc_cm_packet_decode(ev->data, ev->cap_len, &a);
	rb = pnc_cm_packet_decode(f + e->cm_l3, n - e->cm_l3, &b);
	/*
	 * Cut by the record (no CM packet is that long), or a length shorter
	 * than the header, which the codec reads past in the frame only.
	 */
	if (e->cm_cap < whole || e->cm_pkt_len < PNC_IPV4_HLEN) {
		FUZZ_CHECK(ra && rb);
		return;
	}
	FUZZ_CHECK(ra == rb);
	FUZZ_CHECK(ra || !memcmp(&a, &b, sizeof(a)));
}

/* A RoCE sample: what the model read, and what the codec reads where it parses. */
static void check_roce(const uint8_t *f, size_t n, const struct expect *e,
		       const struct pnc_learn_roce_ev *ev, size_t len)
{
	struct pnc_roce_view v;
	struct pnc_aeth aeth;
	uint16_t type;
	size_t l3;

	FUZZ_CHECK(len == sizeof(*ev));
	FUZZ_CHECK(!memcmp(ev, &e->roce, sizeof(*ev)));
	FUZZ_CHECK(m_link(f, n, &l3, &type));
	if (pnc_roce_parse(f + l3, n - l3, PNC_ROCE_F_TRUNCATED | PNC_ROCE_F_NO_ICRC, &v) ||
	    v.ip.version != ev->hdr.ip_version)
		return;
	FUZZ_CHECK(!memcmp(ev->src, v.ip.src, 16) && !memcmp(ev->dst, v.ip.dst, 16));
	FUZZ_CHECK(ev->tos == v.ip.tos && ev->flow_label == v.ip.flow_label &&
		   ev->sport == v.ip.sport);
	FUZZ_CHECK(ev->opcode == v.bth.opcode && ev->pkey == v.bth.pkey &&
		   ev->dest_qp == v.bth.dest_qp && ev->psn == v.bth.psn &&
		   ev->ack_req == v.bth.ack_req);
	if (ev->opcode == PNC_OP_RC_ACK &&
	    !pnc_aeth_decode(f + l3 + v.ext_off, n - l3 - v.ext_off, &aeth))
		FUZZ_CHECK(ev->syndrome == aeth.syndrome && ev->msn == aeth.msn);
}

/* A RoCE packet the codec parses is one the learner sees, at the same place. */
static void check_codec_sees(const uint8_t *f, size_t n, const struct expect *e)
{
	struct pnc_roce_view v;
	struct m_roce r;
	uint16_t type;
	size_t l3;

	if (!m_link(f, n, &l3, &type) || (type != 0x0800 && type != 0x86dd))
		return;
	if (pnc_roce_parse(f + l3, n - l3, PNC_ROCE_F_TRUNCATED | PNC_ROCE_F_NO_ICRC, &v) ||
	    v.ip.version != (type == 0x0800 ? 4 : 6))
		return;
	FUZZ_CHECK(m_roce_of(f, n, l3, type, &r) == M_ROCE && r.bth == l3 + v.bth_off);
	/* The model's counters are the program's (check_run). */
	FUZZ_CHECK(!e->learned || e->count[PNC_LEARN_C_ROCE] == 1);
}

/*
 * Independent of the models: a notification to this router from a source
 * the accept table refuses never gets past the guard, whatever IPv6 header
 * chain it hides behind; the translator answers only a datagram the
 * kernel would deliver to the socket.
 */
static void check_guard_xlate(const uint8_t *f, size_t n, enum entry entry, int rv,
			      const uint64_t *d)
{
	const struct m_accept *a;
	struct pnc_udp_view dv;
	struct m_addr src, dst;
	uint16_t type, port;
	size_t l3, u;

	if (!m_link(f, n, &l3, &type))
		return;
	if (d[PNC_LEARN_C_XLATE_RX])
		FUZZ_CHECK(m_deliverable(f, n, l3, type, &dv));
	if (entry == E_LEARN || !pnc_guard_cfg.rate || type != 0x86dd ||
	    !m_addrs(f, n, l3, type, &src, &dst) || !h_tab_find(&m.local, &dst))
		return;
	u = h_ipv6_udp(f + l3, n - l3);
	if (!u)
		return;
	port = h_be16(f + l3 + u + 2);
	a = m_accept_of(&src);
	if ((port == pnc_guard_cfg.notification_port || port == pnc_guard_cfg.flow_label_port) &&
	    (!a || a->permit != PNC_GUARD_PERMIT))
		FUZZ_CHECK(rv == XDP_DROP);
}

static void check_run(const uint8_t *f, size_t n, uint32_t ifindex, int rv, const struct expect *e,
		      const uint64_t *before, const uint8_t *out, size_t olen)
{
	uint64_t after[PNC_LEARN_C_MAX], d[PNC_LEARN_C_MAX];
	const void *rec;
	size_t rlen;

	counters_now(after);
	for (int i = 0; i < PNC_LEARN_C_MAX; i++) {
		d[i] = after[i] - before[i];
		if (d[i] != e->count[i]) {
			fprintf(stderr, "counter %d: %llu, the model says %llu\n", i,
				(unsigned long long)d[i], (unsigned long long)e->count[i]);
			FUZZ_CHECK(d[i] == e->count[i]);
		}
	}
	check_partition(d);
	check_guard_xlate(f, n, e->entry, rv, d);
	if (rv != e->rv)
		fprintf(stderr, "verdict %d, the model says %d\n", rv, e->rv);
	FUZZ_CHECK(rv == e->rv);

	FUZZ_CHECK(shim_ringbuf_count(&events) == (e->rec ? 1u : 0u));
	if (e->rec) {
		rec = shim_ringbuf_record(&events, 0, &rlen);
		if (e->rec == PNC_LEARN_EV_CM)
			check_cm(f, n, e, ifindex, rec, rlen);
		else
			check_roce(f, n, e, rec, rlen);
	}
	check_codec_sees(f, n, e);

	if (e->out_len)
		FUZZ_CHECK(olen == e->out_len && !memcmp(out, e->out, olen));
	else
		FUZZ_CHECK(olen == n && !memcmp(out, f, n));

	FUZZ_CHECK(shim_trace.fib_calls == (e->fib ? 1u : 0u));
	if (e->fib)
		FUZZ_CHECK(!memcmp(&shim_trace.fib_asked, &e->fib_req, sizeof(e->fib_req)));
	FUZZ_CHECK(shim_trace.redirects == (rv == XDP_REDIRECT ? 1u : 0u));
	if (rv == XDP_REDIRECT)
		FUZZ_CHECK(shim_trace.redirect_map == e->redirect_map &&
			   shim_trace.redirect_key == e->redirect_key);
}

/* ---- the input ------------------------------------------------------------------------ */

static void reset(void)
{
	shim_reset();
	memset(&m, 0, sizeof(m));
	h_tab_init(&m.local, sizeof(struct m_addr), sizeof(struct m_addr));
	h_tab_init(&m.accept, offsetof(struct m_accept, permit), sizeof(struct m_accept));
	h_tab_init(&m.buckets, sizeof(struct m_addr), sizeof(struct m_bucket));
	h_tab_init(&m.samp, offsetof(struct m_samp, last), sizeof(struct m_samp));
	h_tab_init(&m.pend, offsetof(struct m_pend, qp), sizeof(struct m_pend));
	h_tab_init(&m.pub, sizeof(struct pnc_xlate_key), sizeof(struct m_pub));
	h_tab_init(&m.qps, sizeof(struct pnc_xlate_qp), sizeof(struct m_qp));
	m.now = CLOCK_START_NS;
}

/* PNC_FUZZ_TRACE=1: what each frame did, to see what a seed reaches. */
static void trace(int entry, size_t n, int rv, const struct expect *e)
{
	fprintf(stderr, "entry %d, %zu octets: verdict %d, counters", entry, n, rv);
	for (int i = 0; i < PNC_LEARN_C_MAX; i++)
		if (e->count[i])
			fprintf(stderr, " %d", i);
	fprintf(stderr, "%s\n", e->rec ? ", a record" : "");
}

static void one_frame(struct h_in *in)
{
	static int (*const entry[])(struct xdp_md *) = { pnc_learn, pnc_guard, pnc_guard_learn,
							 pnc_guard_learn };
	uint64_t before[PNC_LEARN_C_MAX];
	uint8_t op, plen, where, room, fl[7];
	uint32_t ifindex, queue;
	const uint8_t *f, *out;
	struct xdp_md *ctx;
	struct expect e;
	size_t n, olen;
	uint16_t adv;
	int rv;

	op = h_u8(in);
	plen = h_u8(in);
	adv = h_u16(in);
	where = h_u8(in);
	room = h_u8(in);
	h_bytes(in, fl, sizeof(fl));
	f = h_frame(in, shim_env.xdp_frame_max, &n);
	ifindex = 1 + (where & 3u);
	queue = where >> 2;

	m.now += adv * ((op & OP_MS) ? 1000000ULL : 1000ULL);
	shim_env.now_ns = m.now;
	shim_env.fib_ret = (op & OP_NO_ROUTE) ? BPF_FIB_LKUP_RET_NO_NEIGH : m.cfg.fib_ret;
	shim_ringbuf_space(&events, room ? room * 8u : SIZE_MAX);
	frame_tables(op, plen, fl, f, n);

	memset(&e, 0, sizeof(e));
	e.entry = (enum entry)((op & OP_ENTRY) > E_GUARD_LEARN ? E_GUARD_LEARN : op & OP_ENTRY);
	m_frame(f, n, e.entry, ifindex, queue, room ? room * 8u : SIZE_MAX, op & OP_NO_ROUTE, &e);

	counters_now(before);
	ctx = shim_xdp_frame(f, n, ifindex, queue);
	rv = shim_run_xdp(entry[op & OP_ENTRY], ctx);
	out = shim_xdp_bytes(ctx, &olen);
	if (getenv("PNC_FUZZ_TRACE"))
		trace(op & OP_ENTRY, n, rv, &e);
	check_run(f, n, ifindex, rv, &e, before, out, olen);
	shim_xdp_release(ctx);
	shim_ringbuf_clear(&events);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct h_in in = { data, size };

	reset();
	configure(&in);
	for (int i = 0; i < FRAMES_MAX && in.n; i++)
		one_frame(&in);
	return 0;
}
