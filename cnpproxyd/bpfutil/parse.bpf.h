// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What cnpproxyd's BPF programs share when they read a frame: the wire
 * constants, from the codecs (codec/consts.h), and the small steps every
 * parser takes (VLAN tags, the IPv6 extension-header walk, 24-bit
 * fields, per-CPU counters).  Include after vmlinux.h and libbpf's
 * bpf_helpers.h.
 *
 * The steps work on values already read, so that a tc program reading
 * with bpf_skb_load_bytes() and an XDP program reading the frame
 * directly use the same ones; the bounds checks stay in the programs,
 * where the verifier sees them.
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

/* A congestion notification's transport: UDP, or the family's ICMP. */
static __always_inline bool pnc_bpf_notif_l4(__u8 nh, bool v6)
{
	return nh == PNC_IPPROTO_UDP || nh == (v6 ? PNC_IPPROTO_ICMPV6 : PNC_IPPROTO_ICMP);
}

#endif /* _CNPPROXY_BPFUTIL_PARSE_BPF_H */
