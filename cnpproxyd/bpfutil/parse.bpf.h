// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What cnpproxyd's BPF programs share when they read a frame: the wire
 * constants, from the codecs (codec/consts.h), and the steps every
 * parser takes (VLAN tags, the IP headers' fixed parts, the BTH's
 * fields, the IPv6 extension-header walk, 24-bit fields, per-CPU
 * counters).  Include after vmlinux.h and libbpf's bpf_helpers.h.
 *
 * The steps work on values already read, so that a tc program reading
 * with bpf_skb_load_bytes() and an XDP program reading the frame
 * directly use the same ones; the bounds checks stay in the programs,
 * where the verifier sees them.  The IPv6 extension-header walk copies
 * instead, the same way for both.
 */
#ifndef _CNPPROXY_BPFUTIL_PARSE_BPF_H
#define _CNPPROXY_BPFUTIL_PARSE_BPF_H

#include "codec/consts.h"

/* tc verdicts: macros of linux/pkt_cls.h, so not in vmlinux.h. */
#ifndef TC_ACT_UNSPEC
#define TC_ACT_UNSPEC (-1)
#define TC_ACT_OK     0
#define TC_ACT_SHOT   2
#endif

/*
 * IPv6 extension headers a walk steps over, at most: the kernel has no
 * such limit, so a longer chain is reported, never trusted.
 */
#define PNC_BPF_IPV6_EXT_MAX 8

/* Not in every kernel's BTF, so not taken from vmlinux.h. */
struct pnc_vlan_hdr {
	__be16 tci;
	__be16 proto;
};

/* The IP headers' fixed parts as bytes: the same in every kernel, no bitfields. */
struct pnc_ip4 {
	__u8 ver_ihl;
	__u8 tos;
	__be16 tot_len;
	__be16 id;
	__be16 frag_off;
	__u8 ttl;
	__u8 protocol;
	__be16 check;
	__u8 saddr[4];
	__u8 daddr[4];
};

struct pnc_ip6 {
	__u8 vtc_flow[4]; /* version 4, traffic class 8, flow label 20 */
	__be16 payload_len;
	__u8 nexthdr;
	__u8 hop_limit;
	__u8 saddr[16];
	__u8 daddr[16];
};

/* pnc_bpf_ip.frag: IPv4 fragmentation. */
#define PNC_BPF_FRAG_MORE  0x1 /* not the last fragment */
#define PNC_BPF_FRAG_LATER 0x2 /* not the first: no transport header */

/*
 * What the programs use of an IP header's fixed part.  Nothing here is
 * checked: each program decides what it refuses, and in which order.
 */
struct pnc_bpf_ip {
	__u8 family;	       /* 4 or 6: which header was read */
	bool version_ok;       /* the version field says so too */
	__u8 tclass;	       /* IPv4 TOS, IPv6 traffic class: ECN in the low 2 bits */
	__u8 proto;	       /* IPv4 protocol, IPv6 next header */
	__u8 frag;	       /* PNC_BPF_FRAG_*; 0 for IPv6 */
	__u32 hlen;	       /* IPv4 IHL in octets (under 20: malformed); IPv6 40 */
	__u32 len;	       /* total length: IPv6 40 + payload length */
	__u32 flow_label;      /* 0 for IPv4 */
	const __u8 *src, *dst; /* in the header read: 4 or 16 octets */
};

/*
 * Read the fixed header h: in the frame, behind the program's bounds
 * check (which the verifier must see there), or a copy.
 */
static __always_inline void pnc_bpf_ip4(const struct pnc_ip4 *h, struct pnc_bpf_ip *ip)
{
	__u16 frag = bpf_ntohs(h->frag_off);

	ip->family = 4;
	ip->version_ok = h->ver_ihl >> 4 == 4;
	ip->tclass = h->tos;
	ip->proto = h->protocol;
	ip->frag = ((frag & PNC_IP_MF) ? PNC_BPF_FRAG_MORE : 0) |
		   ((frag & PNC_IP_OFFSET) ? PNC_BPF_FRAG_LATER : 0);
	ip->hlen = (h->ver_ihl & 0x0f) * 4;
	ip->len = bpf_ntohs(h->tot_len);
	ip->flow_label = 0;
	ip->src = h->saddr;
	ip->dst = h->daddr;
}

static __always_inline void pnc_bpf_ip6(const struct pnc_ip6 *h, struct pnc_bpf_ip *ip)
{
	ip->family = 6;
	ip->version_ok = h->vtc_flow[0] >> 4 == 6;
	ip->tclass = (h->vtc_flow[0] & 0x0f) << 4 | h->vtc_flow[1] >> 4;
	ip->proto = h->nexthdr;
	ip->frag = 0;
	ip->hlen = PNC_IPV6_HLEN;
	ip->len = PNC_IPV6_HLEN + bpf_ntohs(h->payload_len);
	ip->flow_label = (__u32)(h->vtc_flow[1] & 0x0f) << 16 | (__u32)h->vtc_flow[2] << 8 |
			 h->vtc_flow[3];
	ip->src = h->saddr;
	ip->dst = h->daddr;
}

/* An 802.1Q or 802.1ad tag follows (proto in network order). */
static __always_inline bool pnc_bpf_vlan(__be16 proto)
{
	return proto == bpf_htons(PNC_ETH_P_8021Q) || proto == bpf_htons(PNC_ETH_P_8021AD);
}

/* A 24-bit big-endian field: a QPN, a PSN. */
static __always_inline __u32 pnc_bpf_get24(const __u8 *p)
{
	return (__u32)p[0] << 16 | (__u32)p[1] << 8 | p[2];
}

/* A BTH's fields (bth holds PNC_BTH_LEN octets; offsets from the codecs). */
static __always_inline __u16 pnc_bpf_bth_pkey(const __u8 *bth)
{
	return (__u16)bth[PNC_BTH_OFF_PKEY] << 8 | bth[PNC_BTH_OFF_PKEY + 1];
}

static __always_inline __u32 pnc_bpf_bth_dest_qp(const __u8 *bth)
{
	return pnc_bpf_get24(bth + PNC_BTH_OFF_DEST_QP);
}

static __always_inline __u32 pnc_bpf_bth_psn(const __u8 *bth)
{
	return pnc_bpf_get24(bth + PNC_BTH_OFF_PSN);
}

static __always_inline bool pnc_bpf_bth_ack_req(const __u8 *bth)
{
	return bth[PNC_BTH_OFF_ACK] & PNC_BTH_ACKREQ;
}

/*
 * The two maps every loader reads alike: n per-CPU __u64 counters
 * (bpfutil/percpu.h) and a ring buffer of records (bpfutil/events.h).
 */
#define PNC_BPF_COUNTERS(name, n)                                                                 \
	struct {                                                                                  \
		__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);                                          \
		__uint(max_entries, n);                                                           \
		__type(key, __u32);                                                               \
		__type(value, __u64);                                                             \
	} name SEC(".maps")

#define PNC_BPF_EVENTS(name, size)                                                                \
	struct {                                                                                  \
		__uint(type, BPF_MAP_TYPE_RINGBUF);                                               \
		__uint(max_entries, size);                                                        \
	} name SEC(".maps")

/* One more event in a per-CPU array of __u64 counters. */
static __always_inline void pnc_bpf_count(void *counters, __u32 idx)
{
	__u64 *v = bpf_map_lookup_elem(counters, &idx);

	if (v)
		*v += 1;
}

/* An IPv6 extension header the walks step over. */
static __always_inline bool pnc_bpf_ipv6_ext(__u8 nh)
{
	return nh == PNC_IPPROTO_HOPOPTS || nh == PNC_IPPROTO_ROUTING ||
	       nh == PNC_IPPROTO_DSTOPTS || nh == PNC_IPPROTO_FRAGMENT;
}

/*
 * Length of the extension header nh whose octets 1 to 3 are given: 0 for
 * a later fragment, whose transport header is in the first one.
 */
static __always_inline __u32 pnc_bpf_ipv6_ext_len(__u8 nh, __u8 hdr_len, __u16 frag_host)
{
	if (nh == PNC_IPPROTO_FRAGMENT)
		return (frag_host & PNC_IP6_FRAG_OFFSET) ? 0 : 8;
	return ((__u32)hdr_len + 1) * 8;
}

/* pnc_bpf_ipv6_walk()'s findings besides the offset. */
#define PNC_BPF_WALK_FRAG 0x1 /* a first fragment's header was stepped over */
#define PNC_BPF_WALK_DEEP 0x2 /* the chain goes on past the walk */

/*
 * How far into the frame a walk reaches: no sane chain comes near it,
 * and it bounds the offset an XDP program then adds to its frame pointer.
 */
#define PNC_BPF_WALK_REACH 4096

/* Copy len octets at off of a frame, tc's (xdp false) or XDP's.  0 or -errno. */
static __always_inline long pnc_bpf_load(void *ctx, bool xdp, __u32 off, void *to, __u32 len)
{
	return xdp ? bpf_xdp_load_bytes(ctx, off, to, len) : bpf_skb_load_bytes(ctx, off, to, len);
}

/*
 * Step over the IPv6 extension headers from off, where one of type *nh
 * starts: the offset of the first header that is not one (its type in
 * *nh), or 0 when the walk ends without one: a header cut short (each
 * is 8 octets at least), a later fragment, or (PNC_BPF_WALK_DEEP) more
 * than PNC_BPF_IPV6_EXT_MAX of them or past PNC_BPF_WALK_REACH.  The
 * headers are copied rather than reached in place: this is the rare
 * path, and a copy leaves the verifier no offset to bound.
 */
static __always_inline __u32 pnc_bpf_ipv6_walk(void *ctx, bool xdp, __u32 off, __u8 *nh,
					       __u32 *flags)
{
	for (int i = 0; i < PNC_BPF_IPV6_EXT_MAX; i++) {
		__u8 ext[8];
		__u32 len;

		if (!pnc_bpf_ipv6_ext(*nh))
			return off;
		if (pnc_bpf_load(ctx, xdp, off, ext, sizeof(ext)))
			return 0;
		len = pnc_bpf_ipv6_ext_len(*nh, ext[1], (__u16)ext[2] << 8 | ext[3]);
		if (!len)
			return 0;
		if (*nh == PNC_IPPROTO_FRAGMENT)
			*flags |= PNC_BPF_WALK_FRAG;
		off += len;
		if (off > PNC_BPF_WALK_REACH) {
			*flags |= PNC_BPF_WALK_DEEP;
			return 0;
		}
		*nh = ext[0];
	}
	if (!pnc_bpf_ipv6_ext(*nh))
		return off;
	*flags |= PNC_BPF_WALK_DEEP;
	return 0;
}

/* A congestion notification's transport: UDP, or the family's ICMP. */
static __always_inline bool pnc_bpf_notif_l4(__u8 nh, bool v6)
{
	return nh == PNC_IPPROTO_UDP || nh == (v6 ? PNC_IPPROTO_ICMPV6 : PNC_IPPROTO_ICMP);
}

/*
 * Where the UDP or ICMP header of a notification would start in the IP
 * packet at off whose fixed header ip was read (IPv6: past the extension
 * headers), its protocol in *l4; 0 when the packet has none to read, and
 * the walk's PNC_BPF_WALK_* in *flags (DEEP: a chain too long to tell).
 * What the border filter and the guard both ask of a packet.
 */
static __always_inline __u32 pnc_bpf_notif_l4_off(void *ctx, bool xdp, __u32 off,
						  const struct pnc_bpf_ip *ip, __u8 *l4,
						  __u32 *flags)
{
	__u8 nh = ip->proto;

	if (ip->family == 4) {
		if (!pnc_bpf_notif_l4(nh, false) || (ip->frag & PNC_BPF_FRAG_LATER) ||
		    ip->hlen < sizeof(struct pnc_ip4))
			return 0;
		off += ip->hlen;
	} else {
		off = pnc_bpf_ipv6_walk(ctx, xdp, off + ip->hlen, &nh, flags);
		if (!off || !pnc_bpf_notif_l4(nh, true))
			return 0;
	}
	*l4 = nh;
	return off;
}

#endif /* _CNPPROXY_BPFUTIL_PARSE_BPF_H */
