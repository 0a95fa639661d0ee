// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd congestion point: ECN marking and sampling, tc (clsact)
 * egress on the watched interfaces.
 *
 * User space watches the egress queue and writes, per interface, the
 * probabilities with which an ECN-capable packet leaves as CE or as
 * ECT(1) (struct pnc_mark_state); this program only applies them, so
 * the policy (seed 003's T1/T2, plain K_min) stays in one place.  CE is
 * drawn first and wins.  Not-ECT packets are never marked (RFC 3168)
 * and CE is never taken back.  Only the outermost IP header is
 * touched: in a tunnel, the decapsulating node decides what to copy
 * inward (RFC 6040; seed 003 keeps ECT(1) out of the inner header).
 *
 * When the state asks for it, ECN-capable RoCEv2 packets are sampled
 * to user space through a ring buffer, at most one per flow and
 * sample_interval_ns: the notification needs the flow's identity, and
 * one sample per flow and interval is all it can use.
 *
 * A state past its valid_until_ns counts as none (cp/mark_abi.h): the
 * fail-safe for a daemon that hangs or is killed while marking.  A flow is
 * (outer source, outer flow label) for RoCEv2 in an IPv6 tunnel (seed
 * 001: the ingress PE put a per-flow label there and is the outer
 * source; IPv4 or IPv6 directly inside the outer header, or VXLAN over
 * it), else (source, destination, BTH DestQP).
 *
 * It never drops, and never ends classification either: every path
 * returns TC_ACT_UNSPEC ("no verdict"), so that the filters after ours
 * on the same clsact egress (the flow-label encapsulation of an ingress
 * PE, say) still run; when none is left, the packet goes on to the root
 * qdisc exactly as with TC_ACT_OK.
 *
 * Headers are read with bpf_skb_load_bytes(), so that packets whose
 * headers are not all in the linear part are still handled.
 */
#include "vmlinux.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "bpfutil/parse.bpf.h"
#include "mark_abi.h"

/* bpf_skb_store_bytes(): keep a CHECKSUM_COMPLETE skb->csum right. */
#define STORE_RECOMPUTE 1

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, PNC_MARK_IFS_MAX);
	__type(key, __u32); /* ifindex */
	__type(value, struct pnc_mark_state);
} states SEC(".maps");

PNC_BPF_EVENTS(events, PNC_MARK_RINGBUF_SIZE);

PNC_BPF_COUNTERS(counters, PNC_MARK_C_MAX);

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, PNC_MARK_IFS_MAX);
	__type(key, __u32); /* ifindex */
	__type(value, struct pnc_mark_if_counters);
} if_counters SEC(".maps");

/* id: the outer flow label when tunnelled, else the BTH DestQP. */
struct flow_key {
	__u8 src[16];
	__u8 dst[16]; /* zero when tunnelled */
	__u32 id;
	__u32 tunnelled;
};

/* Per flow: its last sample, and its octets since (seed 000 5.5 ranks flows by them). */
struct flow_state {
	__u64 last_ns;
	__u64 bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, PNC_MARK_FLOWS_MAX);
	__type(key, struct flow_key);
	__type(value, struct flow_state);
} flows SEC(".maps");

/* What the program learns of a packet.  Offsets from the frame start. */
struct pkt {
	__u32 l3_off; /* outer IP header */
	__u32 end;    /* end of the outer IP packet (the frame may be padded) */
	__u32 ip_len; /* outer IP length field */
	__u32 l4_off; /* header after the outer IP header (and its options) */
	__u8 ip_version;
	__u8 nexthdr; /* protocol / next header of the outer header */
	__u8 ecn;     /* as it arrived */
	__u8 flags;   /* PNC_MARK_F_* */
	__u8 hdr0[2]; /* first two octets of the outer header, ECN inside */
	__u8 src[16];
	__u8 dst[16];
	__u32 flow_label;
	__u32 inner_off; /* inner IP header when tunnelled */
	__u32 udp_off;	 /* UDP header of the RoCEv2 packet */
	__u32 dest_qp;
};

enum parse_rv {
	PARSE_OK,    /* what was asked for is there */
	PARSE_OTHER, /* not IP, not RoCEv2, not something we handle */
	PARSE_ERR,   /* cut short or malformed */
};

static __always_inline void count(__u32 idx)
{
	pnc_bpf_count(&counters, idx);
}

/* Reads only inside the IP packet, never Ethernet padding. */
static __always_inline int load(struct __sk_buff *skb, const struct pkt *p, __u32 off, void *to,
				__u32 len)
{
	if (off + len > p->end)
		return -1;
	return bpf_skb_load_bytes(skb, off, to, len);
}

/* Either fixed IP header, read into the stack. */
union ip_hdr {
	struct pnc_ip4 v4;
	struct pnc_ip6 v6;
};

/* The outer IP header: IPv6 if v6, else IPv4. */
static __always_inline enum parse_rv parse_ip(struct __sk_buff *skb, struct pkt *p, bool v6)
{
	__u32 fixed = v6 ? sizeof(struct pnc_ip6) : sizeof(struct pnc_ip4);
	struct pnc_bpf_ip ip;
	union ip_hdr h;

	if (bpf_skb_load_bytes(skb, p->l3_off, &h, fixed))
		return PARSE_ERR;
	if (v6)
		pnc_bpf_ip6(&h.v6, &ip);
	else
		pnc_bpf_ip4(&h.v4, &ip);
	p->ip_len = ip.len;
	/* A GSO packet beyond 64 KiB (BIG TCP) has no length of its own. */
	if (ip.len == (v6 ? PNC_IPV6_HLEN : 0) && skb->gso_segs > 1)
		p->ip_len = skb->len - p->l3_off;
	if (!ip.version_ok || ip.hlen < fixed || p->ip_len < ip.hlen ||
	    p->l3_off + p->ip_len > skb->len)
		return PARSE_ERR;
	p->ip_version = ip.family;
	p->end = p->l3_off + p->ip_len;
	p->l4_off = p->l3_off + ip.hlen;
	/* Later fragments have no UDP header: mark them, look no further. */
	p->nexthdr = (ip.frag & PNC_BPF_FRAG_LATER) ? 0 : ip.proto;
	p->ecn = ip.tclass & 3;
	/* Both headers' first two octets: where ECN is rewritten. */
	__builtin_memcpy(p->hdr0, &h, sizeof(p->hdr0));
	p->flow_label = ip.flow_label;
	if (v6) {
		__builtin_memcpy(p->src, ip.src, 16);
		__builtin_memcpy(p->dst, ip.dst, 16);
	} else {
		__builtin_memcpy(p->src, ip.src, 4);
		__builtin_memcpy(p->dst, ip.dst, 4);
	}
	return PARSE_OK;
}

/* Ethernet, one optional 802.1Q/802.1ad tag, then the outer IP header. */
static __always_inline enum parse_rv parse_l3(struct __sk_buff *skb, struct pkt *p)
{
	__be16 proto;

	if (bpf_skb_load_bytes(skb, PNC_ETH_HLEN - 2, &proto, sizeof(proto)))
		return PARSE_OTHER;
	p->l3_off = PNC_ETH_HLEN;
	if (pnc_bpf_vlan(proto)) {
		if (bpf_skb_load_bytes(skb, PNC_ETH_HLEN + 2, &proto, sizeof(proto)))
			return PARSE_ERR;
		p->l3_off += PNC_VLAN_HLEN;
	}
	if (proto == bpf_htons(PNC_ETH_P_IP))
		return parse_ip(skb, p, false);
	if (proto == bpf_htons(PNC_ETH_P_IPV6))
		return parse_ip(skb, p, true);
	return PARSE_OTHER;
}

/*
 * Rewrite the outer ECN.  IPv4: the header checksum follows, which
 * leaves the header's ones' complement sum, and so a CHECKSUM_COMPLETE
 * skb->csum, unchanged.  IPv6: no header checksum, and neither UDP's
 * pseudo-header nor the RoCEv2 ICRC covers the traffic class.
 */
static __always_inline int set_ecn(struct __sk_buff *skb, const struct pkt *p, __u8 ecn)
{
	__u8 byte, shift = p->ip_version == 4 ? 0 : 4;
	__be16 from, to;

	byte = (p->hdr0[1] & ~(3 << shift)) | ecn << shift;
	if (p->ip_version == 6)
		return bpf_skb_store_bytes(skb, p->l3_off + 1, &byte, 1, STORE_RECOMPUTE);

	__builtin_memcpy(&from, p->hdr0, 2);
	to = from;
	((__u8 *)&to)[1] = byte;
	if (bpf_skb_store_bytes(skb, p->l3_off + 1, &byte, 1, 0))
		return -1;
	if (bpf_l3_csum_replace(skb, p->l3_off + 10, from, to, sizeof(to))) {
		/* Never leave a header behind whose checksum is wrong. */
		bpf_skb_store_bytes(skb, p->l3_off + 1, &p->hdr0[1], 1, 0);
		return -1;
	}
	return 0;
}

static __always_inline int drawn(__u32 prob)
{
	return prob && (prob >= PNC_MARK_PROB_ONE || (bpf_get_prandom_u32() & 0xffff) < prob);
}

/* The codepoint the packet leaves with; written if it changed. */
static __always_inline __u8 mark(struct __sk_buff *skb, const struct pkt *p,
				 const struct pnc_mark_state *st)
{
	__u8 ecn = p->ecn;
	__u32 idx;

	if (ecn == PNC_ECN_CE)
		return ecn;
	if (drawn(st->ce_prob)) {
		ecn = PNC_ECN_CE;
		idx = PNC_MARK_C_MARKED_CE;
	} else if (ecn == PNC_ECN_ECT0 && drawn(st->ect1_prob)) {
		ecn = PNC_ECN_ECT1;
		idx = PNC_MARK_C_MARKED_ECT1;
	} else {
		return ecn;
	}
	if (set_ecn(skb, p, ecn)) {
		count(PNC_MARK_C_MARK_ERROR);
		return p->ecn;
	}
	count(idx);
	return ecn;
}

/* UDP to 4791 followed by a complete BTH; fills udp_off and dest_qp. */
static __always_inline enum parse_rv parse_roce(struct __sk_buff *skb, struct pkt *p, __u32 off)
{
	__u8 bth[PNC_BTH_LEN];
	__be16 dport;

	if (load(skb, p, off + 2, &dport, sizeof(dport)))
		return PARSE_ERR;
	if (dport != bpf_htons(PNC_ROCE_UDP_PORT))
		return PARSE_OTHER;
	if (load(skb, p, off + 8, bth, sizeof(bth)))
		return PARSE_ERR;
	p->udp_off = off;
	p->dest_qp = pnc_bpf_bth_dest_qp(bth);
	return PARSE_OK;
}

/* The inner headers of an IPv6 tunnel: RoCEv2 uses no IPv6 extensions. */
static __always_inline enum parse_rv parse_inner(struct __sk_buff *skb, struct pkt *p, bool v6)
{
	__u32 fixed = v6 ? sizeof(struct pnc_ip6) : sizeof(struct pnc_ip4);
	struct pnc_bpf_ip ip;
	union ip_hdr h;

	if (load(skb, p, p->inner_off, &h, fixed))
		return PARSE_ERR;
	if (v6)
		pnc_bpf_ip6(&h.v6, &ip);
	else
		pnc_bpf_ip4(&h.v4, &ip);
	if (!ip.version_ok || ip.hlen < fixed)
		return PARSE_ERR;
	if (ip.proto != PNC_IPPROTO_UDP || (ip.frag & PNC_BPF_FRAG_LATER))
		return PARSE_OTHER;
	if (v6)
		p->flags |= PNC_MARK_F_INNER_V6;
	return parse_roce(skb, p, p->inner_off + ip.hlen);
}

/* Outer IPv6, optionally one Routing Header, then IPv4 or IPv6. */
static __always_inline enum parse_rv parse_tunnel(struct __sk_buff *skb, struct pkt *p)
{
	__u32 off = p->l4_off;
	__u8 nh = p->nexthdr;

	if (nh == PNC_IPPROTO_ROUTING) {
		__u8 rh[2]; /* next header, length in 8 octets after the first 8 */

		if (load(skb, p, off, rh, sizeof(rh)))
			return PARSE_ERR;
		nh = rh[0];
		off += (rh[1] + 1) * 8;
		p->flags |= PNC_MARK_F_ROUTING;
	}
	if (nh != PNC_IPPROTO_IPIP && nh != PNC_IPPROTO_IPV6)
		return PARSE_OTHER;
	p->flags |= PNC_MARK_F_TUNNELLED;
	p->inner_off = off;
	return parse_inner(skb, p, nh != PNC_IPPROTO_IPIP);
}

/*
 * VXLAN over IPv6 (RFC 7348, seed 001): UDP at off to 4789, the VXLAN
 * header with its VNI flag, an untagged inner Ethernet frame.
 */
static __always_inline enum parse_rv parse_vxlan(struct __sk_buff *skb, struct pkt *p, __u32 off)
{
	__u8 flags;
	__be16 type;

	if (load(skb, p, off + 8, &flags, sizeof(flags)) ||
	    load(skb, p, off + 16 + 12, &type, sizeof(type)))
		return PARSE_ERR;
	if (!(flags & 0x08) ||
	    (type != bpf_htons(PNC_ETH_P_IP) && type != bpf_htons(PNC_ETH_P_IPV6)))
		return PARSE_OTHER;
	p->flags |= PNC_MARK_F_TUNNELLED | PNC_MARK_F_VXLAN;
	p->inner_off = off + PNC_MARK_VXLAN_HLEN;
	return parse_inner(skb, p, type != bpf_htons(PNC_ETH_P_IP));
}

static __always_inline enum parse_rv parse_udp(struct __sk_buff *skb, struct pkt *p)
{
	__be16 dport;

	if (p->ip_version == 6) {
		if (load(skb, p, p->l4_off + 2, &dport, sizeof(dport)))
			return PARSE_ERR;
		if (dport == bpf_htons(PNC_MARK_VXLAN_PORT))
			return parse_vxlan(skb, p, p->l4_off);
	}
	return parse_roce(skb, p, p->l4_off);
}

static __always_inline enum parse_rv parse_l4(struct __sk_buff *skb, struct pkt *p)
{
	if (p->nexthdr == PNC_IPPROTO_UDP)
		return parse_udp(skb, p);
	if (p->ip_version == 6)
		return parse_tunnel(skb, p);
	return PARSE_OTHER;
}

static __always_inline void flow_key(struct flow_key *key, const struct pkt *p)
{
	__builtin_memset(key, 0, sizeof(*key));
	if (p->flags & PNC_MARK_F_TUNNELLED) {
		key->id = p->flow_label;
		key->tunnelled = 1;
	} else {
		__builtin_memcpy(key->dst, p->dst, sizeof(key->dst));
		key->id = p->dest_qp;
	}
	__builtin_memcpy(key->src, p->src, sizeof(key->src));
}


static __always_inline void fill(struct pnc_mark_sample *ev, struct __sk_buff *skb,
				 const struct pkt *p, __u8 ecn_out, __u64 now)
{
	/* The copy itself is written next, up to cap_len; nothing reads beyond. */
	__builtin_memset(ev, 0, __builtin_offsetof(struct pnc_mark_sample, data));
	ev->hdr.type = PNC_MARK_EV_SAMPLE;
	ev->hdr.ip_version = p->ip_version;
	ev->hdr.flags = p->flags;
	ev->hdr.ifindex = skb->ifindex;
	ev->hdr.ts_ns = now;
	__builtin_memcpy(ev->src, p->src, sizeof(ev->src));
	__builtin_memcpy(ev->dst, p->dst, sizeof(ev->dst));
	ev->flow_label = p->flow_label;
	ev->ecn_in = p->ecn;
	ev->ecn_out = ecn_out;
	if (p->flags & PNC_MARK_F_TUNNELLED)
		ev->inner_off = p->inner_off - p->l3_off;
	ev->l4_off = p->udp_off - p->l3_off;
	ev->pkt_len = p->ip_len;
	ev->dest_qp = p->dest_qp;
}

/* One sample: the fields above and the packet from its outer IP header. */
static __always_inline int sample(struct __sk_buff *skb, const struct pkt *p, __u8 ecn_out,
				  __u64 interval)
{
	struct pnc_mark_sample *ev;
	struct flow_state *fs = NULL, fresh = {};
	struct flow_key key;
	/* 64 bits: checks on a 32-bit copy would not bound the register passed on. */
	__u64 len = p->ip_len;
	__u64 now = bpf_ktime_get_ns();

	if (len > PNC_MARK_DATA_MAX)
		len = PNC_MARK_DATA_MAX;
	/* Keep clang from merging this check into the minimum above. */
	barrier_var(len);
	if (len < 1 || len > PNC_MARK_DATA_MAX) {
		count(PNC_MARK_C_SAMPLE_ERROR);
		return 0;
	}
	flow_key(&key, p);
	/* At most one sample per interval and flow; unlocked: a rare extra one is harmless. */
	if (interval)
		fs = bpf_map_lookup_elem(&flows, &key);
	if (fs && now - fs->last_ns < interval) {
		__sync_fetch_and_add(&fs->bytes, p->ip_len);
		count(PNC_MARK_C_SAMPLE_SUPPRESSED);
		return 0;
	}

	ev = bpf_ringbuf_reserve(&events, sizeof(*ev), 0);
	if (!ev) {
		/* The limiter is not advanced, so the next packet tries again. */
		count(PNC_MARK_C_RINGBUF_FULL);
		return 0;
	}
	fill(ev, skb, p, ecn_out, now);
	ev->cap_len = len;
	if (fs) {
		__u64 b = fs->bytes + p->ip_len;

		ev->flow_bytes = b > 0xffffffffULL ? 0xffffffffU : (__u32)b;
	}
	if (bpf_skb_load_bytes(skb, p->l3_off, ev->data, len)) {
		bpf_ringbuf_discard(ev, 0);
		count(PNC_MARK_C_SAMPLE_ERROR);
		return 0;
	}
	bpf_ringbuf_submit(ev, 0);
	count(PNC_MARK_C_SAMPLED);
	if (interval) {
		fresh.last_ns = now;
		bpf_map_update_elem(&flows, &key, &fresh, BPF_ANY);
	}
	return 1;
}

/* RoCEv2 accounting and sampling of an ECN-capable packet. */
static __always_inline void roce(struct __sk_buff *skb, struct pkt *p, __u8 ecn_out,
				 const struct pnc_mark_state *st, struct pnc_mark_if_counters *ic)
{
	switch (parse_l4(skb, p)) {
	case PARSE_OK:
		break;
	case PARSE_ERR:
		count(PNC_MARK_C_TRUNCATED);
		return;
	case PARSE_OTHER:
		return;
	}
	count(PNC_MARK_C_ROCE);
	if (p->flags & PNC_MARK_F_TUNNELLED)
		count(PNC_MARK_C_TUNNELLED);
	if (ic)
		ic->roce++;
	if (st->sample && sample(skb, p, ecn_out, st->sample_interval_ns) && ic)
		ic->sampled++;
}

/* This CPU's share of the interface's counters (no atomics needed). */
static __always_inline void count_if(struct pnc_mark_if_counters *ic, __u8 ecn_in, __u8 ecn_out)
{
	if (!ic)
		return;
	ic->ecn_capable++;
	if (ecn_out == ecn_in)
		return;
	if (ecn_out == PNC_ECN_CE)
		ic->marked_ce++;
	else
		ic->marked_ect1++;
}

SEC("tc")
int pnc_mark(struct __sk_buff *skb)
{
	const struct pnc_mark_state *st;
	struct pnc_mark_if_counters *ic;
	struct pkt p = {};
	__u32 ifindex = skb->ifindex;
	__u8 ecn_out;

	count(PNC_MARK_C_SEEN);
	st = bpf_map_lookup_elem(&states, &ifindex);
	if (!st) {
		count(PNC_MARK_C_NO_STATE);
		return TC_ACT_UNSPEC;
	}
	if (bpf_ktime_get_ns() > st->valid_until_ns) {
		count(PNC_MARK_C_STALE);
		return TC_ACT_UNSPEC;
	}
	switch (parse_l3(skb, &p)) {
	case PARSE_OK:
		break;
	case PARSE_ERR:
		count(PNC_MARK_C_PARSE_ERROR);
		return TC_ACT_UNSPEC;
	case PARSE_OTHER:
		count(PNC_MARK_C_NOT_IP);
		return TC_ACT_UNSPEC;
	}
	if (p.ecn == PNC_ECN_NOT_ECT) {
		count(PNC_MARK_C_NOT_ECT);
		return TC_ACT_UNSPEC;
	}
	count(PNC_MARK_C_ECN_CAPABLE);
	ecn_out = mark(skb, &p, st);
	ic = bpf_map_lookup_elem(&if_counters, &ifindex);
	count_if(ic, p.ecn, ecn_out);
	roce(skb, &p, ecn_out, st, ic);
	return TC_ACT_UNSPEC;
}
