// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Notification guard: a stage of the proxy's XDP program (learn.bpf.c),
 * on the interfaces named by `proxy filter-interface`.
 *
 * A UDP datagram to the notification or flow-label port, or an ICMP /
 * ICMPv6 message of the notification's ICMP form, addressed to this
 * router, is dropped when the accept table does not permit its source,
 * or when its source's token bucket is empty (one bucket for both
 * forms).  What passes in ICMP form goes to the stack's raw sockets: the
 * stages after this one read UDP only.  The user-space
 * checks stay and remain the reference: this stage only makes sure that
 * what they would refuse never fills the socket queue first.  The global
 * limit stays in user space: one bucket shared by every CPU would need
 * a lock per packet.
 *
 * Non-first IPv4 fragments carry no UDP or ICMP header and pass; dropping the
 * first is enough for the datagram never to be reassembled.  IPv6
 * extension headers (hop-by-hop, routing, fragment, destination options)
 * are walked, so that they cannot be used to slip past: eight of them,
 * more than a chain in RFC 8200's order holds.  A packet to this router
 * whose chain goes on further (or past the first 4 KiB) cannot be shown
 * not to be a notification and is dropped, counted apart
 * (PNC_LEARN_C_GUARD_HDR_CHAIN): else a flood could skip the guard that
 * way.  AH and ESP are not looked into: the kernel delivers what they
 * carry only from a peer that holds the key.
 */
#ifndef _CNPPROXY_PROXY_XDP_GUARD_BPF_H
#define _CNPPROXY_PROXY_XDP_GUARD_BPF_H

#include "guard_abi.h"

#define GUARD_NS_PER_S	  1000000000ULL

/* Writable at run time through the skeleton's .data mapping. */
struct pnc_guard_cfg pnc_guard_cfg = {
	.rate = 0,
};

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(max_entries, PNC_GUARD_ACCEPT_MAX);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct pnc_guard_prefix);
	__type(value, __u8);
} guard_accept SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, PNC_GUARD_LOCAL_MAX);
	__type(key, struct pnc_guard_addr);
	__type(value, __u8);
} guard_local SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, PNC_GUARD_SOURCES_MAX);
	__type(key, struct pnc_guard_addr);
	__type(value, struct pnc_guard_bucket);
} guard_buckets SEC(".maps");

enum guard_rv {
	GUARD_NOT_MINE, /* not a notification to this router */
	GUARD_PASS,
	GUARD_DROP,
};

/* Copy an address out of the packet into a key. */
static __always_inline void guard_addr(struct pnc_guard_addr *a, __u8 version, const __u8 *p)
{
	a->version = version;
	if (version == 4)
		__builtin_memcpy(a->addr, p, 4);
	else
		__builtin_memcpy(a->addr, p, 16);
}

/*
 * The UDP or ICMP header (*l4 says which) of an IP datagram that has one
 * in this frame; *whole is false for the first fragment of a fragmented
 * one.  NULL with *deep set: an IPv6 header chain longer than the walk,
 * which may hide one.  *src and *dst are filled in those two cases only.
 */
static __always_inline void *guard_l4(struct xdp_md *ctx, void *data, void *data_end, __u32 off,
				      __u16 proto, struct pnc_guard_addr *src,
				      struct pnc_guard_addr *dst, bool *whole, bool *deep, __u8 *l4)
{
	struct pnc_bpf_ip ip;
	__u32 flags = 0;

	if (proto == bpf_htons(PNC_ETH_P_IP)) {
		struct pnc_ip4 *h = data + off;

		if ((void *)(h + 1) > data_end)
			return NULL;
		pnc_bpf_ip4(h, &ip);
	} else if (proto == bpf_htons(PNC_ETH_P_IPV6)) {
		struct pnc_ip6 *h = data + off;

		if ((void *)(h + 1) > data_end)
			return NULL;
		pnc_bpf_ip6(h, &ip);
	} else {
		return NULL;
	}
	off = pnc_bpf_notif_l4_off(ctx, true, off, &ip, l4, &flags);
	*whole = !(ip.frag & PNC_BPF_FRAG_MORE) && !(flags & PNC_BPF_WALK_FRAG);
	*deep = flags & PNC_BPF_WALK_DEEP;
	/* Other traffic crosses the filter interfaces too: it needs no addresses. */
	if (!off && !*deep)
		return NULL;
	guard_addr(src, ip.family, ip.src);
	guard_addr(dst, ip.family, ip.dst);
	return off ? data + off : NULL;
}

/* Take a token from the source's bucket; a new source starts full. */
static __always_inline bool guard_take(const struct pnc_guard_addr *src)
{
	struct pnc_guard_bucket *b, fresh;
	__u64 now = bpf_ktime_get_ns(), cap = pnc_guard_cfg.burst * 1000000ULL, elapsed;

	b = bpf_map_lookup_elem(&guard_buckets, src);
	if (!b) {
		fresh.last_ns = now;
		fresh.micro = cap - 1000000ULL;
		bpf_map_update_elem(&guard_buckets, src, &fresh, BPF_ANY);
		return true;
	}
	/*
	 * Two CPUs may refill the same bucket at once and let a packet or
	 * two more through: the user-space limiter behind is exact.
	 */
	elapsed = now > b->last_ns ? now - b->last_ns : 0;
	if (elapsed > GUARD_NS_PER_S)
		elapsed = GUARD_NS_PER_S; /* no overflow; a second refills any burst <= rate */
	b->micro += elapsed * pnc_guard_cfg.rate / 1000;
	if (b->micro > cap)
		b->micro = cap;
	b->last_ns = now;
	if (b->micro < 1000000ULL)
		return false;
	b->micro -= 1000000ULL;
	return true;
}

/* Where a notification the guard let through is, for the stages after it. */
struct guard_hit {
	__u32 udp_off;
	__u16 port; /* 0: the notification's ICMP form */
	bool whole; /* not a fragment */
};

static __always_inline enum guard_rv guard(struct xdp_md *ctx, __u32 l3_off, __u16 proto,
					   struct guard_hit *hit)
{
	struct pnc_guard_addr src = {}, dst = {};
	void *data, *data_end;
	struct pnc_guard_prefix key = {};
	struct udphdr *udp;
	bool deep = false;
	__u8 *permit, l4 = 0, type;
	__u16 port = 0;

	if (!pnc_guard_cfg.rate)
		return GUARD_NOT_MINE;
	stage_frame(ctx, &data, &data_end);
	hit->whole = true;
	udp = guard_l4(ctx, data, data_end, l3_off, proto, &src, &dst, &hit->whole, &deep, &l4);
	if (deep && bpf_map_lookup_elem(&guard_local, &dst)) {
		count(PNC_LEARN_C_GUARD_HDR_CHAIN);
		return GUARD_DROP;
	}
	/* UDP and ICMP headers are both 8 octets. */
	if (!udp || (void *)(udp + 1) > data_end)
		return GUARD_NOT_MINE;
	if (l4 == PNC_IPPROTO_UDP) {
		port = bpf_ntohs(udp->dest);
		if (port != pnc_guard_cfg.notification_port &&
		    port != pnc_guard_cfg.flow_label_port)
			return GUARD_NOT_MINE;
	} else {
		type = l4 == PNC_IPPROTO_ICMP ? pnc_guard_cfg.icmp_type : pnc_guard_cfg.icmp6_type;
		if (!type || *(__u8 *)udp != type)
			return GUARD_NOT_MINE;
	}
	/* Notifications through this router to another proxy are not ours. */
	if (!bpf_map_lookup_elem(&guard_local, &dst))
		return GUARD_NOT_MINE;

	key.prefixlen = 8 + (src.version == 4 ? 32 : 128);
	key.version = src.version;
	__builtin_memcpy(key.addr, src.addr, 16);
	permit = bpf_map_lookup_elem(&guard_accept, &key);
	if (!permit || *permit != PNC_GUARD_PERMIT) {
		count(PNC_LEARN_C_GUARD_DENIED);
		return GUARD_DROP;
	}
	if (!guard_take(&src)) {
		count(PNC_LEARN_C_GUARD_RATE_LIMITED);
		return GUARD_DROP;
	}
	count(PNC_LEARN_C_GUARD_PASSED);
	hit->udp_off = (void *)udp - data;
	hit->port = port;
	return GUARD_PASS;
}

#endif /* _CNPPROXY_PROXY_XDP_GUARD_BPF_H */
