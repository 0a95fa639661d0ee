// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Seed 001 ingress-PE data path (doc/wire-formats.md 6.3): per-flow Flow
 * Label IPv6 encapsulation, tc (clsact, direct action).
 *
 * pnc_tunnel_enc, egress of the PE's core-facing interface.  IPv4 and IPv6
 * packets whose destination matches the tunnelled-prefix trie get an
 * outer IPv6 header: source = this PE (where a congested WAN node sends
 * its FCN), destination = the egress PE's SID, traffic class copied
 * from the inner header (so the ECN field too), hop limit 64.  A VXLAN
 * tunnel puts UDP (to 4789, checksum 0 as RFC 6935 allows tunnels), the
 * VXLAN header and an Ethernet header to the egress PE's router MAC
 * between the two, so that the egress PE's own VXLAN device ends it.
 * The Flow
 * Label identifies the flow: a RoCEv2 flow, keyed by (src, dst, BTH
 * DestQP), gets a random label allocated here (seed 001: random and
 * locally unique) and remembered in two maps,
 * flow -> label and label -> flow, which user space ages and reads to
 * resolve FCNs.  Everything else gets a hashed label from the other
 * half of the label space (see tunnel.h), or 0 if so configured.
 *
 * pnc_tunnel_dec, ingress of the egress PE's core-facing interface: removes
 * the outer header of packets to one of its SIDs, copying CE inward as
 * RFC 6040 normal mode does (but not ECT(1), seed 003).  The kernel's
 * seg6local End.DX4/End.DX6 also decapsulate without an SRH, but leave
 * CE behind with the outer header.
 *
 * Both expect untagged Ethernet frames (attach to the VLAN device) and
 * an outer header without extension headers.
 */
#include "vmlinux.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "bpfutil/parse.bpf.h"
#include "tunnel_abi.h"

/* Enough for Ethernet, IPv4 with options or IPv6, UDP and the BTH. */
#define PULL_LEN    (PNC_ETH_HLEN + 60 + PNC_UDP_HLEN + PNC_BTH_LEN)
#define ALLOC_TRIES 4

char LICENSE[] SEC("license") = "GPL";

/* Writable at run time through the skeleton's .data mapping. */
struct pnc_tunnel_cfg pnc_cfg = {
	.hop_limit = PNC_TUNNEL_HOP_LIMIT,
	.other_label = PNC_TUNNEL_OTHER_HASH,
};

PNC_BPF_COUNTERS(counters, PNC_TUNNEL_C_MAX);

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(max_entries, PNC_TUNNEL_TUNNELS_MAX);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct pnc_tunnel_lpm_key);
	__type(value, struct pnc_tunnel_tunnel);
} tunnels SEC(".maps");

/* Not LRU: a label stays reserved until user space ages its flow. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, PNC_TUNNEL_FLOWS_MAX);
	__type(key, struct pnc_tunnel_flow_key);
	__type(value, struct pnc_tunnel_flow_val);
} flows SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, PNC_TUNNEL_FLOWS_MAX);
	__type(key, __u32);
	__type(value, struct pnc_tunnel_flow_key);
} labels SEC(".maps");

/*
 * Flows the ingress PE slows itself (seed 003 3.2.2.1): the tc class
 * id of their shaper, which the root qdisc (ours, HTB) picks up from
 * skb->priority.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, PNC_TUNNEL_SHAPED_MAX);
	__type(key, struct pnc_tunnel_flow_key);
	__type(value, __u32);
} shaped SEC(".maps");

/* Outer destinations the decapsulation program accepts. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, PNC_TUNNEL_SIDS_MAX);
	__type(key, __u8[16]);
	__type(value, __u8);
} sids SEC(".maps");

/* The outer header as written: no bitfields to get wrong. */
struct outer6 {
	__be32 vtcfl; /* version 4 bits, traffic class 8, flow label 20 */
	__be16 payload_len;
	__u8 nexthdr;
	__u8 hop_limit;
	__u8 src[16];
	__u8 dst[16];
};

/* The inner packet, as far as the encapsulation needs it. */
struct inner_pkt {
	__u8 version;
	__u8 tclass;  /* IPv4 TOS / IPv6 traffic class */
	__u32 ip_len; /* from the IP header on, as the header says */
	__u32 l4_off; /* transport header, from the start of the frame */
	bool l4_ok;   /* not a fragment, transport header follows */
	__u8 proto;
	struct pnc_tunnel_lpm_key dst_key;
	struct pnc_tunnel_flow_key flow;
};

static __always_inline void count(__u32 idx)
{
	pnc_bpf_count(&counters, idx);
}

/*
 * Direct access needs the headers in the linear part.  The barrier
 * keeps clang from computing &skb->data once for this and the parsers:
 * the verifier refuses loads through a ctx pointer plus an offset.
 */
static __always_inline void pull_headers(struct __sk_buff *skb)
{
	__u32 have = skb->data_end - skb->data;

	if (have < PULL_LEN && skb->len > have)
		bpf_skb_pull_data(skb, skb->len < PULL_LEN ? skb->len : PULL_LEN);
	barrier_var(skb);
}

/* The inner IP header: IPv6 if v6, else IPv4.  -1 if malformed. */
static __always_inline int parse_ip(struct __sk_buff *skb, struct inner_pkt *p, bool v6)
{
	void *data = (void *)(long)skb->data;
	void *data_end = (void *)(long)skb->data_end;
	struct pnc_bpf_ip ip;

	if (v6) {
		struct pnc_ip6 *h = data + PNC_ETH_HLEN;

		if ((void *)(h + 1) > data_end)
			return -1;
		pnc_bpf_ip6(h, &ip);
	} else {
		struct pnc_ip4 *h = data + PNC_ETH_HLEN;

		if ((void *)(h + 1) > data_end)
			return -1;
		pnc_bpf_ip4(h, &ip);
	}
	if (!ip.version_ok || ip.hlen < (v6 ? sizeof(struct pnc_ip6) : sizeof(struct pnc_ip4)))
		return -1;
	p->version = ip.family;
	p->tclass = ip.tclass;
	p->ip_len = ip.len;
	/* IPv6 extension headers are not followed: RoCEv2 does not use them. */
	p->proto = ip.proto;
	p->l4_off = PNC_ETH_HLEN + ip.hlen;
	/* Only the first fragment has the transport header. */
	p->l4_ok = !ip.frag;
	p->dst_key.family = ip.family;
	if (v6) {
		p->dst_key.prefixlen = PNC_TUNNEL_PREFIX_BITS(128);
		__builtin_memcpy(p->dst_key.addr, ip.dst, 16);
		__builtin_memcpy(p->flow.src, ip.src, 16);
		__builtin_memcpy(p->flow.dst, ip.dst, 16);
	} else {
		p->dst_key.prefixlen = PNC_TUNNEL_PREFIX_BITS(32);
		__builtin_memcpy(p->dst_key.addr, ip.dst, 4);
		__builtin_memcpy(p->flow.src, ip.src, 4);
		__builtin_memcpy(p->flow.dst, ip.dst, 4);
	}
	return 0;
}

/*
 * The BTH of a RoCEv2 data flow (not a CM MAD to QP1), or NULL.  Sets
 * the flow's DestQP; *pkey and *sport for a new flow.
 */
static __always_inline __u8 *roce_bth(struct __sk_buff *skb, struct inner_pkt *p, __u16 *pkey,
				      __u16 *sport)
{
	void *data = (void *)(long)skb->data;
	void *data_end = (void *)(long)skb->data_end;
	struct udphdr *udp;
	__u8 *bth;
	__u32 off = p->l4_off;

	if (p->proto != IPPROTO_UDP || !p->l4_ok || off > PULL_LEN)
		return NULL;
	udp = data + off;
	if ((void *)(udp + 1) > data_end || udp->dest != bpf_htons(PNC_ROCE_UDP_PORT))
		return NULL;
	bth = (__u8 *)(udp + 1);
	if ((void *)(bth + PNC_BTH_LEN) > data_end)
		return NULL;
	p->flow.dest_qp = pnc_bpf_bth_dest_qp(bth);
	if (p->flow.dest_qp == PNC_GSI_QP)
		return NULL;
	*pkey = pnc_bpf_bth_pkey(bth);
	*sport = bpf_ntohs(udp->source);
	return bth;
}

/* A random label of the RoCE half, 1 .. PNC_TUNNEL_LABEL_ALLOC_MAX. */
static __always_inline __u32 next_label(void)
{
	return bpf_get_prandom_u32() % PNC_TUNNEL_LABEL_ALLOC_MAX + 1;
}

/*
 * Allocate a label for a new flow; 0 if the tables are full.  A label in
 * use is drawn again: the BPF_NOEXIST insert into labels also sorts out
 * two CPUs drawing the same one.
 */
static __always_inline __u32 new_flow(const struct pnc_tunnel_flow_key *key, __u16 pkey,
				      __u16 sport, __u32 ip_len)
{
	struct pnc_tunnel_flow_val val = {};
	struct pnc_tunnel_flow_val *v;
	__u32 label = 0, i;

	for (i = 0; i < ALLOC_TRIES; i++) {
		__u32 l = next_label();

		/* Fails for a label in use: skip it. */
		if (!bpf_map_update_elem(&labels, &l, key, BPF_NOEXIST)) {
			label = l;
			break;
		}
	}
	if (!label)
		return 0;

	val.label = label;
	val.pkey = pkey;
	val.sport = sport;
	val.first_ns = val.last_ns = bpf_ktime_get_ns();
	val.pkts = 1;
	val.bytes = ip_len;
	if (bpf_map_update_elem(&flows, key, &val, BPF_NOEXIST)) {
		/* Another CPU learned the flow first, or the table is full. */
		bpf_map_delete_elem(&labels, &label);
		v = bpf_map_lookup_elem(&flows, key);
		return v ? v->label : 0;
	}
	count(PNC_TUNNEL_C_LABELS_ALLOCATED);
	return label;
}

static __always_inline __u32 flow_label(const struct pnc_tunnel_flow_key *key, __u16 pkey,
					__u16 sport, __u32 ip_len)
{
	struct pnc_tunnel_flow_val *v = bpf_map_lookup_elem(&flows, key);
	__u32 label;

	if (v) {
		v->last_ns = bpf_ktime_get_ns();
		__sync_fetch_and_add(&v->pkts, 1);
		__sync_fetch_and_add(&v->bytes, ip_len);
		return v->label;
	}
	label = new_flow(key, pkey, sport, ip_len);
	if (!label)
		count(PNC_TUNNEL_C_ALLOC_FAILED);
	return label;
}

static __always_inline __u32 other_label(struct __sk_buff *skb)
{
	if (pnc_cfg.other_label == PNC_TUNNEL_OTHER_ZERO)
		return 0;
	return PNC_TUNNEL_LABEL_HASH_BIT |
	       (bpf_get_hash_recalc(skb) & (PNC_TUNNEL_LABEL_HASH_BIT - 1));
}

static __always_inline bool src_configured(void)
{
	__u32 i;

	for (i = 0; i < 16; i++)
		if (pnc_cfg.src[i])
			return true;
	return false;
}

/* What a tunnel adds in front of the inner packet. */
static __always_inline __u32 overhead(const struct pnc_tunnel_tunnel *t)
{
	return t->vni ? PNC_TUNNEL_VXLAN_LEN : PNC_TUNNEL_OUTER_LEN;
}

/*
 * Over the interface MTU once encapsulated (GSO packets are segmented to
 * fit later).  Such packets are dropped: bpf_skb_adjust_room() would
 * refuse them, and the remedy is a route MTU 40 (VXLAN: 70) octets lower
 * for the tunnelled prefixes, which makes the kernel send the ICMP
 * errors.
 */
static __always_inline bool too_big(struct __sk_buff *skb, const struct pnc_tunnel_tunnel *t)
{
	__u32 mtu = 0;

	return bpf_check_mtu(skb, 0, &mtu, (__s32)overhead(t), 0) != BPF_MTU_CHK_RET_SUCCESS;
}

/* linux/bpf.h's BPF_F_ADJ_ROOM_ENCAP_L2(), which vmlinux.h cannot carry. */
static __always_inline __u64 encap_l2(__u64 len)
{
	return (len & BPF_ADJ_ROOM_ENCAP_L2_MASK) << BPF_ADJ_ROOM_ENCAP_L2_SHIFT;
}

/* UDP, VXLAN and the inner Ethernet header, as written. */
struct vxlan_hdrs {
	__be16 sport;
	__be16 dport;
	__be16 len;
	__be16 csum;
	__u8 flags; /* 0x08: the VNI is valid */
	__u8 rsvd1[3];
	__u8 vni[3];
	__u8 rsvd2;
	__u8 dmac[6];
	__u8 smac[6];
	__be16 proto;
} __attribute__((packed));

_Static_assert(PNC_TUNNEL_OUTER_LEN + sizeof(struct vxlan_hdrs) == PNC_TUNNEL_VXLAN_LEN,
	       "VXLAN encapsulation length");

/*
 * The VXLAN headers after the outer IPv6 header; the inner frame keeps
 * the packet's own source MAC.  0 or < 0.
 */
static __always_inline int push_vxlan(struct __sk_buff *skb, const struct inner_pkt *p,
				      const struct pnc_tunnel_tunnel *t, __u32 label)
{
	struct vxlan_hdrs v = {};

	/* A source port per flow, as RFC 7348 asks: the label is one. */
	v.sport = bpf_htons(0xc000 | (label & 0x3fff));
	v.dport = bpf_htons(PNC_TUNNEL_VXLAN_PORT);
	v.len = bpf_htons((__u16)(sizeof(v) + p->ip_len));
	v.flags = 0x08;
	v.vni[0] = t->vni >> 16;
	v.vni[1] = t->vni >> 8;
	v.vni[2] = t->vni;
	__builtin_memcpy(v.dmac, t->router_mac, sizeof(v.dmac));
	if (bpf_skb_load_bytes(skb, 6, v.smac, sizeof(v.smac)))
		return -1;
	v.proto = bpf_htons(p->version == 4 ? PNC_ETH_P_IP : PNC_ETH_P_IPV6);
	if (bpf_skb_adjust_room(skb, PNC_TUNNEL_VXLAN_LEN, BPF_ADJ_ROOM_MAC,
				BPF_F_ADJ_ROOM_ENCAP_L3_IPV6 | BPF_F_ADJ_ROOM_ENCAP_L4_UDP |
					BPF_F_ADJ_ROOM_ENCAP_L2_ETH | encap_l2(PNC_ETH_HLEN)))
		return -1;
	return bpf_skb_store_bytes(skb, PNC_ETH_HLEN + PNC_TUNNEL_OUTER_LEN, &v, sizeof(v), 0);
}

/* Insert and fill the outer header.  0 or < 0. */
static __always_inline int push_outer(struct __sk_buff *skb, const struct inner_pkt *p,
				      const struct pnc_tunnel_tunnel *t, __u32 label)
{
	__be16 proto = bpf_htons(PNC_ETH_P_IPV6);
	struct outer6 o = {};

	o.vtcfl = bpf_htonl(6U << 28 | (__u32)p->tclass << 20 | (label & PNC_TUNNEL_LABEL_MASK));
	o.payload_len = bpf_htons((__u16)(p->ip_len + overhead(t) - PNC_TUNNEL_OUTER_LEN));
	o.nexthdr = t->vni	      ? PNC_IPPROTO_UDP
		    : p->version == 4 ? PNC_IPPROTO_IPIP
				      : PNC_IPPROTO_IPV6;
	o.hop_limit = pnc_cfg.hop_limit ? pnc_cfg.hop_limit : PNC_TUNNEL_HOP_LIMIT;
	__builtin_memcpy(o.src, pnc_cfg.src, 16);
	__builtin_memcpy(o.dst, t->dst, 16);

	if (t->vni) {
		if (push_vxlan(skb, p, t, label))
			return -1;
	} else if (bpf_skb_adjust_room(skb, sizeof(o), BPF_ADJ_ROOM_MAC,
				       BPF_F_ADJ_ROOM_ENCAP_L3_IPV6)) {
		return -1;
	}
	if (bpf_skb_store_bytes(skb, PNC_ETH_HLEN, &o, sizeof(o), 0))
		return -1;
	return bpf_skb_store_bytes(skb, PNC_ETH_HLEN - 2, &proto, sizeof(proto), 0);
}

SEC("tc")
int pnc_tunnel_enc(struct __sk_buff *skb)
{
	struct pnc_tunnel_tunnel *t;
	struct inner_pkt p = {};
	__u16 pkey = 0, sport = 0;
	__u32 label, done, *classid;
	int rv;

	count(PNC_TUNNEL_C_PKTS);
	pull_headers(skb);
	if (skb->protocol == bpf_htons(PNC_ETH_P_IP))
		rv = parse_ip(skb, &p, false);
	else if (skb->protocol == bpf_htons(PNC_ETH_P_IPV6))
		rv = parse_ip(skb, &p, true);
	else
		rv = 1;
	if (rv) {
		count(rv < 0 ? PNC_TUNNEL_C_PARSE_ERR : PNC_TUNNEL_C_PASSED);
		return TC_ACT_OK;
	}

	t = bpf_map_lookup_elem(&tunnels, &p.dst_key);
	if (!t) {
		count(PNC_TUNNEL_C_PASSED);
		return TC_ACT_OK;
	}
	if (!src_configured()) {
		count(PNC_TUNNEL_C_NO_SOURCE);
		return TC_ACT_SHOT;
	}
	/* The outer payload length is 16 bits: no jumbogram. */
	if (too_big(skb, t) || p.ip_len + overhead(t) - PNC_TUNNEL_OUTER_LEN > 0xffff) {
		count(PNC_TUNNEL_C_TOO_BIG);
		return TC_ACT_SHOT;
	}

	p.flow.ip_version = p.version;
	if (roce_bth(skb, &p, &pkey, &sport)) {
		label = flow_label(&p.flow, pkey, sport, p.ip_len);
		done = PNC_TUNNEL_C_ENCAP_ROCE;
		classid = bpf_map_lookup_elem(&shaped, &p.flow);
		if (classid) {
			skb->priority = *classid;
			count(PNC_TUNNEL_C_SHAPED);
		}
	} else {
		label = other_label(skb);
		done = PNC_TUNNEL_C_ENCAP_OTHER;
	}
	/* No packet pointer is used after this: the headers move. */
	if (push_outer(skb, &p, t, label)) {
		count(PNC_TUNNEL_C_ENCAP_ERR);
		return TC_ACT_SHOT;
	}
	count(done);
	return TC_ACT_OK;
}

/* ---- decapsulation ------------------------------------------------------ */

/*
 * RFC 6040 normal mode, except that ECT(1) stays outside (seed 003,
 * doc/wire-formats.md 6.4): only CE is copied in.  The new inner ECN field,
 * or -1 to drop (outer CE, inner Not-ECT).
 */
static __always_inline int decap_ecn(__u8 outer, __u8 inner)
{
	if ((outer & PNC_ECN_MASK) != PNC_ECN_CE)
		return inner & PNC_ECN_MASK;
	if ((inner & PNC_ECN_MASK) == PNC_ECN_NOT_ECT)
		return -1;
	return PNC_ECN_CE;
}

/* Set the inner ECN field to CE, with the IPv4 checksum.  0 or < 0. */
static __always_inline int set_inner_ce(struct __sk_buff *skb, __u8 version, __u8 tclass)
{
	__u32 off = PNC_ETH_HLEN + PNC_TUNNEL_OUTER_LEN;
	__u8 b[2];

	if (version == 4) {
		/* The checksum covers version/IHL and TOS as one 16-bit word. */
		if (bpf_skb_load_bytes(skb, off, b, 2))
			return -1;
		b[1] = tclass | PNC_ECN_CE;
		if (bpf_l3_csum_replace(skb, off + 10, bpf_htons((__u16)b[0] << 8 | tclass),
					bpf_htons((__u16)b[0] << 8 | b[1]), 2))
			return -1;
		return bpf_skb_store_bytes(skb, off + 1, &b[1], 1, 0);
	}
	/* IPv6: traffic class straddles octets 0 and 1; no checksum. */
	if (bpf_skb_load_bytes(skb, off, b, 2))
		return -1;
	b[1] |= PNC_ECN_CE << 4;
	return bpf_skb_store_bytes(skb, off + 1, &b[1], 1, 0);
}

/*
 * Traffic classes and inner version of a packet for one of our SIDs: 0,
 * 1 if it is not for us (or has an SRH), -1 if it is malformed.
 */
static __always_inline int decap_parse(struct __sk_buff *skb, __u8 *otc, __u8 *version, __u8 *itc)
{
	void *data = (void *)(long)skb->data;
	void *data_end = (void *)(long)skb->data_end;
	struct ipv6hdr *o = data + PNC_ETH_HLEN;
	__u8 *in = (__u8 *)(o + 1);

	if ((void *)(o + 1) > data_end)
		return -1;
	if (!bpf_map_lookup_elem(&sids, &o->daddr))
		return 1;
	if (o->nexthdr != PNC_IPPROTO_IPIP && o->nexthdr != PNC_IPPROTO_IPV6)
		return 1; /* an SRH, say: the kernel's business */
	if ((void *)(in + 2) > data_end)
		return -1;
	*otc = o->priority << 4 | o->flow_lbl[0] >> 4;
	*version = in[0] >> 4;
	if (*version != (o->nexthdr == PNC_IPPROTO_IPIP ? 4 : 6))
		return -1;
	*itc = *version == 4 ? in[1] : (in[0] & 0x0f) << 4 | in[1] >> 4;
	return 0;
}

SEC("tc")
int pnc_tunnel_dec(struct __sk_buff *skb)
{
	__be16 proto;
	__u8 otc = 0, itc = 0, version = 0;
	__u64 flags;
	int rv, ecn;

	count(PNC_TUNNEL_C_DECAP_PKTS);
	if (skb->protocol != bpf_htons(PNC_ETH_P_IPV6)) {
		count(PNC_TUNNEL_C_DECAP_PASSED);
		return TC_ACT_OK;
	}
	pull_headers(skb);
	rv = decap_parse(skb, &otc, &version, &itc);
	if (rv) {
		count(rv < 0 ? PNC_TUNNEL_C_DECAP_ERR : PNC_TUNNEL_C_DECAP_PASSED);
		return rv < 0 ? TC_ACT_SHOT : TC_ACT_OK;
	}

	ecn = decap_ecn(otc, itc);
	if (ecn < 0) {
		count(PNC_TUNNEL_C_DECAP_DROP);
		return TC_ACT_SHOT;
	}
	if (ecn != (itc & PNC_ECN_MASK)) {
		if (set_inner_ce(skb, version, itc)) {
			count(PNC_TUNNEL_C_DECAP_ERR);
			return TC_ACT_SHOT;
		}
		count(PNC_TUNNEL_C_DECAP_CE);
	}

	flags = version == 4 ? BPF_F_ADJ_ROOM_DECAP_L3_IPV4 : BPF_F_ADJ_ROOM_DECAP_L3_IPV6;
	proto = bpf_htons(version == 4 ? PNC_ETH_P_IP : PNC_ETH_P_IPV6);
	if (bpf_skb_adjust_room(skb, -PNC_TUNNEL_OUTER_LEN, BPF_ADJ_ROOM_MAC, flags) ||
	    bpf_skb_store_bytes(skb, PNC_ETH_HLEN - 2, &proto, sizeof(proto), 0)) {
		count(PNC_TUNNEL_C_DECAP_ERR);
		return TC_ACT_SHOT;
	}
	count(PNC_TUNNEL_C_DECAP);
	return TC_ACT_OK;
}
