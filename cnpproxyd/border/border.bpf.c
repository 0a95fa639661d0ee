// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Border filter, tc ingress and egress of the interfaces where the
 * domain ends (seed 002 8): drops UDP datagrams to the notification and
 * flow-label ports, and ICMP / ICMPv6 messages of the notification's ICMP
 * form, arriving whoever they are for (this router, or one inside) and
 * leaving whoever sent them (this router's congestion point, or one
 * inside), and counts them per interface and direction.  Everything
 * else gets no verdict (TC_ACT_UNSPEC), so the programs and filters
 * after this one still run.
 *
 * IPv4: a fragment other than the first carries no UDP or ICMP header
 * and passes; the first, which does, is dropped, so the datagram is never
 * reassembled.  IPv6: up to eight extension headers (hop-by-hop,
 * routing, fragment, destination options) are walked, more than a chain
 * in RFC 8200's order holds, as far as the first 4 KiB (the walk of
 * bpfutil/parse.bpf.h, the guard's too).  A longer chain may hide a
 * notification, and the sources beyond the border are the ones that can
 * be spoofed: it is dropped too, counted apart (header_chain): a drop by configured
 * policy, as RFC 7045 allows.  AH and ESP are not looked into (what they
 * carry is delivered only from a peer that holds the key), nor tunnels
 * that end beyond the border.
 */
#include "vmlinux.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "border_abi.h"
#include "bpfutil/parse.bpf.h"

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

/* l4_offset(): an IPv6 header chain longer than the walk. */
#define L4_DEEP 1

/*
 * Offset of the UDP or ICMP header (*nh says which), 0 when there is
 * none to read, or L4_DEEP.
 */
static __always_inline __u32 l4_offset(struct __sk_buff *skb, __u8 *l4)
{
	__u16 proto = bpf_ntohs(skb->protocol);
	struct pnc_bpf_ip ip;
	__u32 flags = 0, off;
	union {
		struct pnc_ip4 v4;
		struct pnc_ip6 v6;
	} h;

	if (proto == PNC_ETH_P_IP) {
		if (bpf_skb_load_bytes(skb, PNC_ETH_HLEN, &h.v4, sizeof(h.v4)))
			return 0;
		pnc_bpf_ip4(&h.v4, &ip);
	} else if (proto == PNC_ETH_P_IPV6) {
		if (bpf_skb_load_bytes(skb, PNC_ETH_HLEN, &h.v6, sizeof(h.v6)))
			return 0;
		pnc_bpf_ip6(&h.v6, &ip);
	} else {
		return 0;
	}
	off = pnc_bpf_notif_l4_off(skb, false, PNC_ETH_HLEN, &ip, l4, &flags);
	return (flags & PNC_BPF_WALK_DEEP) ? L4_DEEP : off;
}

/* A notification's ICMP form: the configured type of the family (0: none). */
static __always_inline bool icmp_notification(struct __sk_buff *skb, __u32 off, __u8 l4,
					      const struct pnc_border_config *cfg)
{
	__u8 type, want = l4 == PNC_IPPROTO_ICMP ? cfg->icmp_type : cfg->icmp6_type;

	if (!want || bpf_skb_load_bytes(skb, off, &type, sizeof(type)))
		return false;
	return type == want;
}

static __always_inline int border(struct __sk_buff *skb, bool out)
{
	struct pnc_border_if_counters *ic;
	struct pnc_border_config *cfg;
	__u32 key = 0, ifindex, off;
	__u8 l4 = 0;
	__be16 dport;
	__u16 port = 0;

	cfg = bpf_map_lookup_elem(&border_config, &key);
	if (!cfg)
		return TC_ACT_UNSPEC;
	off = l4_offset(skb, &l4);
	if (!off)
		return TC_ACT_UNSPEC;
	if (off != L4_DEEP && l4 != PNC_IPPROTO_UDP) {
		if (!icmp_notification(skb, off, l4, cfg))
			return TC_ACT_UNSPEC;
		port = cfg->notification_port; /* counted as a notification */
	} else if (off != L4_DEEP) {
		if (bpf_skb_load_bytes(skb, off + 2, &dport, sizeof(dport)))
			return TC_ACT_UNSPEC;
		port = bpf_ntohs(dport);
		if (port != cfg->notification_port && port != cfg->flow_label_port)
			return TC_ACT_UNSPEC;
	}
	ifindex = skb->ifindex;
	ic = bpf_map_lookup_elem(&if_counters, &ifindex);
	if (ic) {
		if (off == L4_DEEP)
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
