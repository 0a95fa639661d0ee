// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pnc-reflect's XDP programs: the in-kernel references of the fast-path
 * benchmark and its sink.  They look at untagged IPv4 UDP to one port
 * only; everything else passes.
 *
 *   reflect_tx    turns the datagram in place into a CNP-shaped frame
 *                 back to its source (the QPN copied from the datagram)
 *                 and sends it with XDP_TX: the least the kernel can do
 *                 per notification.  No lookups and no ICRC (zero).
 *   reflect_xsk   hands the datagram to the AF_XDP socket of its queue.
 *   reflect_sink  counts and drops (or passes, reflect_sink_pass) what
 *                 comes back, so that measuring costs next to nothing.
 *   reflect_pass  XDP_PASS: the baseline of an attached program.
 */
#include "vmlinux.h"

#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "reflect.h"

#define ETH_P_IP 0x0800

char LICENSE[] SEC("license") = "GPL";

const volatile __u16 reflect_port = REFLECT_ROCE_PORT;
const volatile __u32 reflect_qpn_off;
const volatile bool reflect_sink_pass;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, REFLECT_C_MAX);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, __u32);
} xsks SEC(".maps");

static __always_inline void count(__u32 c)
{
	__u64 *v = bpf_map_lookup_elem(&counters, &c);

	if (v)
		(*v)++;
}

/* The UDP header of an IPv4 datagram to reflect_port, or NULL. */
static __always_inline struct udphdr *udp_to_port(void *data, void *data_end)
{
	struct ethhdr *eth = data;
	struct iphdr *ip = (void *)(eth + 1);
	struct udphdr *udp = (void *)(ip + 1);

	if ((void *)(udp + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP) || ip->ihl != 5 ||
	    ip->protocol != IPPROTO_UDP || udp->dest != bpf_htons(reflect_port))
		return NULL;
	count(REFLECT_C_MATCHED);
	return udp;
}

SEC("xdp")
int reflect_tx(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	struct udphdr *udp = udp_to_port(data, data_end);
	__u8 qpn[3], *q;

	if (!udp)
		return XDP_PASS;
	q = (__u8 *)(udp + 1) + (reflect_qpn_off & (REFLECT_QPN_MAX - 1));
	if ((void *)(q + 3) > data_end) {
		count(REFLECT_C_SHORT);
		return XDP_DROP;
	}
	__builtin_memcpy(qpn, q, 3);
	if (bpf_xdp_adjust_tail(ctx, REFLECT_FRAME_LEN - (int)(data_end - data)))
		return XDP_DROP;
	data = (void *)(long)ctx->data;
	data_end = (void *)(long)ctx->data_end;
	if (data + REFLECT_FRAME_LEN > data_end)
		return XDP_DROP;
	reflect_rewrite(data, qpn);
	count(REFLECT_C_DONE);
	return XDP_TX;
}

SEC("xdp")
int reflect_xsk(struct xdp_md *ctx)
{
	if (!udp_to_port((void *)(long)ctx->data, (void *)(long)ctx->data_end))
		return XDP_PASS;
	count(REFLECT_C_DONE);
	return bpf_redirect_map(&xsks, ctx->rx_queue_index, XDP_PASS);
}

SEC("xdp")
int reflect_sink(struct xdp_md *ctx)
{
	if (!udp_to_port((void *)(long)ctx->data, (void *)(long)ctx->data_end))
		return XDP_PASS;
	count(REFLECT_C_DONE);
	return reflect_sink_pass ? XDP_PASS : XDP_DROP;
}

SEC("xdp")
int reflect_pass(struct xdp_md *ctx)
{
	return XDP_PASS;
}
