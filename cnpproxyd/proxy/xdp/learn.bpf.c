// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The proxy's XDP program: flow learning on the learn interfaces, and
 * the notification guard (guard.bpf.h) on the filter interfaces.  Each
 * combination of the two is its own entry point, so that an interface
 * pays only for the stages it runs.
 *
 * Flow learning.
 * Watches RoCEv2 (UDP 4791) and tells user space, through a ring buffer:
 *  - every CM MAD (UD SEND Only to QP1), copied from the IP header so
 *    that the CM codec can decode it (REQ/REP pairing, doc/wire-formats.md 4.3);
 *  - samples of RC data and ACK/NAK packets for PSN correlation when the
 *    QPs were exchanged out of band (doc/wire-formats.md 4.4).
 *
 * Learning never changes or drops anything; only the guard drops.
 *
 * Sampling.  The pairing needs ACK PSNs that fall in a window of data
 * PSNs of the opposite direction.  A responder acknowledges the PSN of
 * a request that had AckReq set (coalescing the ones before), so the
 * data worth reporting are those with AckReq, and all ACK/NAKs.  Both
 * are limited per (src, dst, dest_qp, kind) to one per cfg.sample_ns, so
 * a fast flow gives a steady trickle instead of one event per packet.
 * Data without AckReq is reported once per cfg.plain_ns (default 100 ms)
 * only, enough to see that a flow exists when its requester rarely asks
 * for ACKs.  NAKs have their own limiter so that ACKs never hide them.
 *
 * Independent limiters would rarely pick an ACK for the very request
 * that was sampled.  So each sampled AckReq request is remembered by
 * (src, dst, PSN), and the ACK that comes back with that PSN is sampled
 * whatever its limiter says, marked as an echo with the request's
 * DestQP: a direct qA <-> qB candidate for the pairing.
 */
#include "vmlinux.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "bpfutil/parse.bpf.h"
#include "learn_abi.h"

char LICENSE[] SEC("license") = "GPL";

/* Writable at run time through the skeleton's .data mapping. */
struct pnc_learn_cfg pnc_cfg = {
	.sample_ns = PNC_LEARN_SAMPLE_NS_DEFAULT,
	.plain_ns = PNC_LEARN_PLAIN_NS_DEFAULT,
};

PNC_BPF_EVENTS(events, PNC_LEARN_RINGBUF_SIZE);

PNC_BPF_COUNTERS(counters, PNC_LEARN_C_MAX);

struct flow_key {
	__u8 src[16];
	__u8 dst[16];
	__u32 dest_qp;
	__u32 kind;
};

/* Time of the last sample per flow and kind. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, PNC_LEARN_FLOWS_MAX);
	__type(key, struct flow_key);
	__type(value, __u64);
} flows SEC(".maps");

/* A sampled AckReq request, in its direction (src = requester). */
struct pending_key {
	__u8 src[16];
	__u8 dst[16];
	__u32 psn;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, PNC_LEARN_PENDING_MAX);
	__type(key, struct pending_key);
	__type(value, __u32); /* the request's DestQP */
} pending SEC(".maps");

/* Where the headers of a RoCEv2 packet are. */
struct roce_pkt {
	__u32 l3_off; /* IP header, from the start of the frame */
	__u32 ip_len; /* IP length field: octets from the IP header */
	__u8 ip_version;
	__u8 tos;
	__u32 flow_label;
	__u8 *src; /* in the packet; 4 or 16 octets */
	__u8 *dst;
	__u16 sport;
	__u8 *bth; /* PNC_BTH_LEN octets are in the packet */
};

enum parse_rv {
	PARSE_ROCE,  /* struct roce_pkt filled */
	PARSE_OTHER, /* not RoCEv2, or not something we handle */
	PARSE_ERR,   /* truncated */
};

static __always_inline void count(__u32 idx)
{
	pnc_bpf_count(&counters, idx);
}

/*
 * The frame's bounds, for the notification stages.  Loaded in assembly:
 * clang would merge these loads with those of the learning stage into
 * one of a variable offset, which the verifier refuses.  The outputs are
 * early-clobbered: the first load must not overwrite ctx before the second.
 */
static __always_inline void stage_frame(struct xdp_md *ctx, void **start, void **end)
{
	void *data, *data_end;

	asm volatile("%0 = *(u32 *)(%2 + 0)\n\t"
		     "%1 = *(u32 *)(%2 + 4)"
		     : "=&r"(data), "=&r"(data_end)
		     : "r"(ctx));
	*start = data;
	*end = data_end;
}

#include "guard.bpf.h"
#include "xlate.bpf.h"
#include "xsk.bpf.h"

/* Where the network header starts, past one VLAN tag; false if cut short. */
static __always_inline bool link_layer(struct xdp_md *ctx, __u32 *off, __u16 *proto)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;

	if ((void *)(eth + 1) > data_end)
		return false;
	*proto = eth->h_proto;
	*off = sizeof(*eth);
	if (pnc_bpf_vlan(*proto)) {
		struct pnc_vlan_hdr *vh = data + *off;

		if ((void *)(vh + 1) > data_end)
			return false;
		*proto = vh->proto;
		*off += sizeof(*vh);
	}
	return true;
}

static __always_inline enum parse_rv parse(struct xdp_md *ctx, __u32 off, __u16 proto,
					   struct roce_pkt *p)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct pnc_bpf_ip ip;
	struct udphdr *udp;

	p->l3_off = off;

	if (proto == bpf_htons(PNC_ETH_P_IP)) {
		struct pnc_ip4 *h = data + off;

		if ((void *)(h + 1) > data_end)
			return PARSE_ERR;
		pnc_bpf_ip4(h, &ip);
		/* Fragments: the first lacks the end, the others the UDP header. */
		if (ip.proto != PNC_IPPROTO_UDP || ip.frag)
			return PARSE_OTHER;
		if (ip.hlen < sizeof(*h))
			return PARSE_ERR;
		udp = (void *)h + ip.hlen;
	} else if (proto == bpf_htons(PNC_ETH_P_IPV6)) {
		struct pnc_ip6 *h = data + off;

		if ((void *)(h + 1) > data_end)
			return PARSE_ERR;
		pnc_bpf_ip6(h, &ip);
		/* Extension headers are not followed: RoCEv2 does not use them. */
		if (ip.proto != PNC_IPPROTO_UDP)
			return PARSE_OTHER;
		udp = (void *)(h + 1);
	} else {
		return PARSE_OTHER;
	}
	p->ip_version = ip.family;
	p->ip_len = ip.len;
	p->tos = ip.tclass;
	p->flow_label = ip.flow_label;
	p->src = (__u8 *)ip.src;
	p->dst = (__u8 *)ip.dst;

	if ((void *)(udp + 1) > data_end)
		return PARSE_ERR;
	if (udp->dest != bpf_htons(PNC_ROCE_UDP_PORT))
		return PARSE_OTHER;
	p->sport = bpf_ntohs(udp->source);
	p->bth = (__u8 *)(udp + 1);
	if ((void *)(p->bth + PNC_BTH_LEN) > data_end)
		return PARSE_ERR;
	return PARSE_ROCE;
}

static __always_inline void ev_hdr(struct pnc_learn_ev_hdr *h, __u8 type, const struct roce_pkt *p,
				   struct xdp_md *ctx)
{
	h->type = type;
	h->ip_version = p->ip_version;
	h->rsvd = 0;
	h->ifindex = ctx->ingress_ifindex;
	h->ts_ns = bpf_ktime_get_ns();
}

/* The whole CM packet: user space runs the CM codec on it. */
static __always_inline void emit_cm(struct xdp_md *ctx, const struct roce_pkt *p)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct pnc_learn_cm_ev *ev;
	/* 64 bits: checks on a 32-bit copy would not bound the register passed on. */
	__u64 len = p->ip_len;
	__u64 avail;

	avail = (__u64)(data_end - data) - p->l3_off;
	if (len > avail)
		len = avail;
	if (len > PNC_LEARN_CM_MAX)
		len = PNC_LEARN_CM_MAX;
	/* Keep clang from merging this check into the minimums above. */
	barrier_var(len);
	if (len < 1 || len > PNC_LEARN_CM_MAX) {
		count(PNC_LEARN_C_PARSE_ERR);
		return;
	}

	ev = bpf_ringbuf_reserve(&events, sizeof(*ev), 0);
	if (!ev) {
		count(PNC_LEARN_C_RB_FULL);
		return;
	}
	ev_hdr(&ev->hdr, PNC_LEARN_EV_CM, p, ctx);
	ev->pkt_len = p->ip_len;
	ev->cap_len = len;
	if (bpf_xdp_load_bytes(ctx, p->l3_off, ev->data, len)) {
		bpf_ringbuf_discard(ev, 0);
		count(PNC_LEARN_C_PARSE_ERR);
		return;
	}
	bpf_ringbuf_submit(ev, 0);
	count(PNC_LEARN_C_CM);
}

/* RC data with or without AckReq, ACK or NAK: one per interval and flow. */
static __always_inline void sample(struct xdp_md *ctx, const struct roce_pkt *p)
{
	void *data_end = (void *)(long)ctx->data_end;
	const __u8 *bth = p->bth;
	struct pnc_learn_roce_ev *ev;
	struct pending_key pkey = {};
	struct flow_key key = {};
	__u8 op = bth[PNC_BTH_OFF_OPCODE], syndrome = 0, echo = 0;
	__u64 interval, now, *last;
	__u32 msn = 0, kind, echo_qp = 0, *qp;

	if (op <= PNC_OP_RC_WRITE_ONLY_IMM) { /* RC SEND or RDMA WRITE */
		kind = pnc_bpf_bth_ack_req(bth) ? PNC_LEARN_K_DATA_ACKREQ : PNC_LEARN_K_DATA_PLAIN;
	} else if (op == PNC_OP_RC_ACK) {
		const __u8 *aeth = bth + PNC_BTH_LEN;

		if ((void *)(aeth + PNC_AETH_LEN) > data_end) {
			count(PNC_LEARN_C_PARSE_ERR);
			return;
		}
		syndrome = aeth[0];
		msn = pnc_bpf_get24(aeth + 1);
		kind = (syndrome >> 5) == PNC_AETH_TYPE_ACK ? PNC_LEARN_K_ACK : PNC_LEARN_K_NAK;
	} else {
		count(PNC_LEARN_C_IGNORED);
		return;
	}

	interval = kind == PNC_LEARN_K_DATA_PLAIN ? pnc_cfg.plain_ns : pnc_cfg.sample_ns;
	if (interval == PNC_LEARN_NEVER) {
		count(PNC_LEARN_C_IGNORED);
		return;
	}

	if (p->ip_version == 4) {
		__builtin_memcpy(key.src, p->src, 4);
		__builtin_memcpy(key.dst, p->dst, 4);
	} else {
		__builtin_memcpy(key.src, p->src, 16);
		__builtin_memcpy(key.dst, p->dst, 16);
	}
	key.dest_qp = pnc_bpf_bth_dest_qp(bth);
	key.kind = kind;
	pkey.psn = pnc_bpf_bth_psn(bth);

	if (kind == PNC_LEARN_K_ACK) {
		/* The request went the other way: swap the addresses. */
		__builtin_memcpy(pkey.src, key.dst, sizeof(pkey.src));
		__builtin_memcpy(pkey.dst, key.src, sizeof(pkey.dst));
		qp = bpf_map_lookup_elem(&pending, &pkey);
		if (qp) {
			echo = 1;
			echo_qp = *qp;
		}
	}

	now = bpf_ktime_get_ns();
	if (interval && !echo) {
		/* Unlocked read-then-write: a rare extra sample is harmless. */
		last = bpf_map_lookup_elem(&flows, &key);
		if (last && now - *last < interval) {
			count(kind == PNC_LEARN_K_DATA_PLAIN ? PNC_LEARN_C_IGNORED
							     : PNC_LEARN_C_RATE_LIMITED);
			return;
		}
	}

	ev = bpf_ringbuf_reserve(&events, sizeof(*ev), 0);
	if (!ev) {
		/* The limiter is not advanced, so the next packet tries again. */
		count(PNC_LEARN_C_RB_FULL);
		return;
	}
	__builtin_memset(ev, 0, sizeof(*ev));
	ev_hdr(&ev->hdr, PNC_LEARN_EV_ROCE, p, ctx);
	__builtin_memcpy(ev->src, key.src, sizeof(ev->src));
	__builtin_memcpy(ev->dst, key.dst, sizeof(ev->dst));
	ev->sport = p->sport;
	ev->opcode = op;
	ev->kind = kind;
	ev->tos = p->tos;
	ev->ack_req = pnc_bpf_bth_ack_req(bth);
	ev->pkey = pnc_bpf_bth_pkey(bth);
	ev->flow_label = p->flow_label;
	ev->dest_qp = key.dest_qp;
	ev->psn = pkey.psn;
	ev->syndrome = syndrome;
	ev->msn = msn;
	ev->echo = echo;
	ev->echo_qp = echo_qp;
	bpf_ringbuf_submit(ev, 0);
	count(PNC_LEARN_C_SAMPLES);

	if (interval)
		bpf_map_update_elem(&flows, &key, &now, BPF_ANY);
	if (echo) {
		bpf_map_delete_elem(&pending, &pkey);
	} else if (kind == PNC_LEARN_K_DATA_ACKREQ) {
		__builtin_memcpy(pkey.src, key.src, sizeof(pkey.src));
		__builtin_memcpy(pkey.dst, key.dst, sizeof(pkey.dst));
		bpf_map_update_elem(&pending, &pkey, &key.dest_qp, BPF_ANY);
	}
}

static __always_inline int learn_stage(struct xdp_md *ctx, __u32 off, __u16 proto)
{
	struct roce_pkt p = {};

	switch (parse(ctx, off, proto, &p)) {
	case PARSE_ROCE:
		break;
	case PARSE_ERR:
		count(PNC_LEARN_C_PARSE_ERR);
		return XDP_PASS;
	case PARSE_OTHER:
		return XDP_PASS;
	}

	count(PNC_LEARN_C_ROCE);
	if (p.bth[PNC_BTH_OFF_OPCODE] == PNC_OP_UD_SEND_ONLY &&
	    pnc_bpf_bth_dest_qp(p.bth) == PNC_GSI_QP)
		emit_cm(ctx, &p);
	else
		sample(ctx, &p);
	return XDP_PASS;
}

/*
 * Every program's first step: the packet counted and its link layer
 * walked; false (pass it) when that fails, a parse error where learning.
 */
static __always_inline bool entry(struct xdp_md *ctx, __u32 *off, __u16 *proto, bool learning)
{
	count(PNC_LEARN_C_PKTS);
	if (link_layer(ctx, off, proto))
		return true;
	if (learning)
		count(PNC_LEARN_C_PARSE_ERR);
	return false;
}

SEC("xdp")
int pnc_learn(struct xdp_md *ctx)
{
	__u16 proto;
	__u32 off;

	if (!entry(ctx, &off, &proto, true))
		return XDP_PASS;
	return learn_stage(ctx, off, proto);
}

#define NOT_A_NOTIFICATION (-1)

/*
 * The guard, then the translator for what the guard let through, then
 * AF_XDP steering for what the translator left: the verdict for a
 * notification to this router, else NOT_A_NOTIFICATION.
 */
static __always_inline int notification_stages(struct xdp_md *ctx, __u32 off, __u16 proto)
{
	struct guard_hit hit;
	int rv;

	switch (guard(ctx, off, proto, &hit)) {
	case GUARD_DROP:
		return XDP_DROP;
	case GUARD_PASS:
		/* The ICMP form: for the raw sockets. */
		if (!hit.port)
			return XDP_PASS;
		rv = xlate_stage(ctx, off, proto, &hit);
		return rv == XDP_PASS ? xsk_steer(ctx, off, proto, &hit) : rv;
	case GUARD_NOT_MINE:
		break;
	}
	return NOT_A_NOTIFICATION;
}

SEC("xdp")
int pnc_guard(struct xdp_md *ctx)
{
	__u16 proto;
	__u32 off;
	int rv;

	if (!entry(ctx, &off, &proto, false))
		return XDP_PASS;
	rv = notification_stages(ctx, off, proto);
	return rv == NOT_A_NOTIFICATION ? XDP_PASS : rv;
}

SEC("xdp")
int pnc_guard_learn(struct xdp_md *ctx)
{
	__u16 proto;
	__u32 off;
	int rv;

	if (!entry(ctx, &off, &proto, true))
		return XDP_PASS;
	/* A notification is not RoCE traffic: nothing to learn from it. */
	rv = notification_stages(ctx, off, proto);
	return rv == NOT_A_NOTIFICATION ? learn_stage(ctx, off, proto) : rv;
}
