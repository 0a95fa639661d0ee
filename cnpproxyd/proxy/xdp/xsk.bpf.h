// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * AF_XDP steering: a stage of the proxy's XDP program (learn.bpf.c) on
 * the filter interfaces, after the guard and the translator
 * (`proxy fast-path af-xdp`).  A notification the guard let through,
 * and the translator did not answer, is redirected into the socket
 * cnpproxyd bound to the frame's receive queue.  Without a socket there
 * (none yet, a queue above PNC_XSK_QUEUES_MAX) it passes on to the
 * kernel and the daemon's UDP sockets: nothing is lost while sockets
 * come and go.
 *
 * Only what the user-space frame parser takes is steered: a whole
 * datagram (not a fragment, the kernel reassembles those), IPv4
 * without options, IPv6 with UDP right after the fixed header, in a
 * frame that fits the socket's buffer.
 */
#ifndef _CNPPROXY_PROXY_XDP_XSK_BPF_H
#define _CNPPROXY_PROXY_XDP_XSK_BPF_H

#include "xsk_abi.h"

struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, PNC_XSK_SLOTS);
	__type(key, __u32);
	__type(value, __u32);
} xsk_sockets SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, PNC_XSK_IFS_MAX);
	__type(key, __u32);
	__type(value, struct pnc_xsk_if);
} xsk_ifs SEC(".maps");

/* XDP_PASS unless the frame went to a socket. */
static __always_inline int xsk_steer(struct xdp_md *ctx, __u32 l3_off, __u16 proto,
				     const struct guard_hit *hit)
{
	__u32 ifindex = ctx->ingress_ifindex, queue = ctx->rx_queue_index;
	struct pnc_xsk_if *xi;
	__u32 plain;
	int rv;

	xi = bpf_map_lookup_elem(&xsk_ifs, &ifindex);
	if (!xi)
		return XDP_PASS;
	plain = l3_off + (proto == bpf_htons(PNC_ETH_P_IP) ? PNC_IPV4_HLEN : PNC_IPV6_HLEN);
	/* A frame the socket's buffer cannot hold would be dropped there. */
	if (!hit->whole || hit->udp_off != plain || queue >= xi->queues ||
	    queue >= PNC_XSK_QUEUES_MAX || ctx->data_end - ctx->data > PNC_XSK_FRAME_MAX) {
		count(PNC_LEARN_C_XSK_PASSED);
		return XDP_PASS;
	}
	rv = bpf_redirect_map(&xsk_sockets, xi->base + queue, XDP_PASS);
	count(rv == XDP_REDIRECT ? PNC_LEARN_C_XSK_STEERED : PNC_LEARN_C_XSK_PASSED);
	return rv;
}

#endif /* _CNPPROXY_PROXY_XDP_XSK_BPF_H */
