// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Border filter, tc ingress and egress of the interfaces where the
 * domain ends (seed 002 8): drops UDP datagrams to the notification and
 * flow-label ports, arriving whoever they are for (this router, or one
 * inside) and leaving whoever sent them (this router's congestion point,
 * or one inside), and counts them per interface and direction.  Everything else gets no verdict (TC_ACT_UNSPEC), so the
 * programs and filters after this one still run.
 *
 * IPv4: a fragment other than the first carries no UDP header and
 * passes; the first, which does, is dropped, so the datagram is never
 * reassembled.  IPv6: up to eight extension headers (hop-by-hop,
 * routing, fragment, destination options) are walked, more than a chain
 * in RFC 8200's order holds.  A longer chain may hide a notification,
 * and the sources beyond the border are the ones that can be spoofed:
 * it is dropped too, counted apart (header_chain): a drop by configured
 * policy, as RFC 7045 allows.  AH and ESP are not looked into (what they
 * carry is delivered only from a peer that holds the key), nor tunnels
 * that end beyond the border.
 */
#include "vmlinux.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "border.h"

#define TC_ACT_UNSPEC (-1)
#define TC_ACT_SHOT   2

#define ETH_HLEN     14
#define ETH_P_IP     0x0800
#define ETH_P_IPV6   0x86dd
#define IP_OFFSET    0x1fff
#define NH_HOP	     0
#define NH_UDP	     17
#define NH_ROUTING   43
#define NH_FRAGMENT  44
#define NH_DSTOPTS   60
#define IPV6_EXT_MAX 8

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pnc_border_config);
} border_config SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, PNC_BORDER_IFS_MAX);
	__type(key, __u32);
	__type(value, struct pnc_border_if_counters);
} if_counters SEC(".maps");

/* udp_offset(): an IPv6 header chain longer than the walk. */
#define UDP_DEEP 1

static __always_inline bool ipv6_ext(__u8 nh)
{
	return nh == NH_HOP || nh == NH_ROUTING || nh == NH_DSTOPTS || nh == NH_FRAGMENT;
}

/* Offset of the UDP header, 0 when there is none to read, or UDP_DEEP. */
static __always_inline __u32 udp_offset(struct __sk_buff *skb)
{
	__u16 proto = bpf_ntohs(skb->protocol);
	__u32 off = ETH_HLEN;

	if (proto == ETH_P_IP) {
		struct iphdr h;

		if (bpf_skb_load_bytes(skb, off, &h, sizeof(h)))
			return 0;
		if (h.protocol != NH_UDP || (bpf_ntohs(h.frag_off) & IP_OFFSET) || h.ihl < 5)
			return 0;
		return off + h.ihl * 4;
	}
	if (proto == ETH_P_IPV6) {
		struct ipv6hdr h;
		__u8 nh;

		if (bpf_skb_load_bytes(skb, off, &h, sizeof(h)))
			return 0;
		nh = h.nexthdr;
		off += sizeof(h);
		for (int i = 0; i < IPV6_EXT_MAX; i++) {
			__u8 ext[2];

			if (nh == NH_UDP)
				return off;
			if (!ipv6_ext(nh))
				return 0;
			if (bpf_skb_load_bytes(skb, off, ext, sizeof(ext)))
				return 0;
			if (nh == NH_FRAGMENT) {
				__be16 frag;

				/* Only the first fragment has the UDP header. */
				if (bpf_skb_load_bytes(skb, off + 2, &frag, sizeof(frag)) ||
				    (bpf_ntohs(frag) & 0xfff8))
					return 0;
				off += 8;
			} else {
				off += (ext[1] + 1) * 8;
			}
			nh = ext[0];
		}
		if (nh == NH_UDP)
			return off;
		return ipv6_ext(nh) ? UDP_DEEP : 0;
	}
	return 0;
}

static __always_inline int border(struct __sk_buff *skb, bool out)
{
	struct pnc_border_if_counters *ic;
	struct pnc_border_config *cfg;
	__u32 key = 0, ifindex, off;
	__be16 dport;
	__u16 port = 0;

	cfg = bpf_map_lookup_elem(&border_config, &key);
	if (!cfg)
		return TC_ACT_UNSPEC;
	off = udp_offset(skb);
	if (off != UDP_DEEP) {
		if (!off || bpf_skb_load_bytes(skb, off + 2, &dport, sizeof(dport)))
			return TC_ACT_UNSPEC;
		port = bpf_ntohs(dport);
		if (port != cfg->notification_port && port != cfg->flow_label_port)
			return TC_ACT_UNSPEC;
	}
	ifindex = skb->ifindex;
	ic = bpf_map_lookup_elem(&if_counters, &ifindex);
	if (ic) {
		if (off == UDP_DEEP)
			out ? ic->header_chain_out++ : ic->header_chain++;
		else if (port == cfg->notification_port)
			out ? ic->notifications_out++ : ic->notifications++;
		else
			out ? ic->flow_label_out++ : ic->flow_label++;
	}
	return TC_ACT_SHOT;
}

SEC("tc")
int pnc_border(struct __sk_buff *skb)
{
	return border(skb, false);
}

/* At egress skb->ifindex is the interface the packet leaves by. */
SEC("tc")
int pnc_border_out(struct __sk_buff *skb)
{
	return border(skb, true);
}
