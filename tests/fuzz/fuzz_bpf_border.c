// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the border filter, cnpproxyd/border/border.bpf.c,
 * compiled for user space through tests/fuzz/bpf_shim/ and run packet by
 * packet on skbs built from the input.
 *
 * Input: a configuration of CFG_LEN octets, then packet records.
 * Multi-octet numbers are little-endian; past the end everything is 0.
 *   0  u16 notification port, 2 u16 flow-label port (both 0: the defaults)
 *   4  flags: 0x01 per-interface counters on ifindex 1, 0x02 on ifindex 2;
 *      0x04 the notification's ICMP form is filtered too: ICMP type 253
 *      and ICMPv6 type 201, or with 0x08 as well 254 and 200 (without
 *      0x04 the types are 0, none)
 * Packet record: REC_LEN octets, then the frame (from the Ethernet header).
 *   0  bits 0-1 ifindex - 1; 0x04 skb->protocol is not the frame's
 *      EtherType but the other IP version's; 0x08 the packet leaves
 *      (pnc_border_out) instead of arriving (pnc_border)
 *   1  u16 octets in the linear part (0: all)
 *   3  u16 frame length
 *
 * Properties, for every packet:
 *  - the verdict is that of a plain-C model of border.bpf.c's comment:
 *    UDP to either port, and ICMP (IPv4) or ICMPv6 of the configured
 *    type, dropped (TC_ACT_SHOT), IPv4 unless a later fragment, IPv6
 *    past up to eight extension headers (a fragment header only on the
 *    first fragment), and an IPv6 packet whose chain goes on past eight
 *    or past the first 4 KiB;
 *    everything else TC_ACT_UNSPEC;
 *  - a UDP datagram the codec parses (pnc_ipudp_parse(), as cnpproxyd
 *    reads a notification) to one of the ports is dropped, and so is
 *    one behind an IPv6 header chain of any length;
 *  - the interface's counters count each drop under its port (an ICMP
 *    one as a notification), or header_chain, of the way it went; both
 *    ways decide alike;
 *  - the packet is never changed; the shim's own checks.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/ipudp.h"
#include "codec/notif.h"
#include "fuzz_check.h"
#include "harness.h"
#include "shim.h"

#include "border/border.bpf.c"
#include "program_end.h"

#define CFG_LEN	   5
#define REC_LEN	   5
#define FRAMES_MAX 64
#define FRAME_MAX  9200

static struct {
	struct pnc_border_config cfg;
	uint8_t flags;
	struct pnc_border_if_counters ic[3];
} m;

/* The model's answer for a header chain longer than the filter walks. */
#define M_DEEP SIZE_MAX

static bool m_ext(uint8_t nh)
{
	return nh == 0 || nh == 43 || nh == 60 || nh == 44;
}

/*
 * The UDP or ICMP header's offset as border.bpf.c's comment describes
 * it (*l4: which); 0 for none, or M_DEEP.
 */
static size_t m_l4(const uint8_t *f, size_t n, uint16_t proto, uint8_t *l4)
{
	size_t off = 14;
	uint8_t nh;

	if (proto == 0x0800) {
		if (n < off + 20 || (f[off + 9] != IPPROTO_UDP && f[off + 9] != 1) ||
		    (h_be16(f + off + 6) & 0x1fff) || (f[off] & 0x0f) < 5)
			return 0;
		*l4 = f[off + 9];
		return off + (f[off] & 0x0fu) * 4;
	}
	if (proto != 0x86dd || n < off + 40)
		return 0;
	nh = f[off + 6];
	off += 40;
	for (int i = 0; i < 8 && nh != IPPROTO_UDP && nh != 58; i++) {
		size_t hdr = off;

		if (!m_ext(nh))
			return 0;
		/* Every extension header is 8 octets at least. */
		if (n < hdr + 8)
			return 0;
		if (nh == 44) {
			/* Only the first fragment has the UDP header. */
			if (h_be16(f + hdr + 2) & 0xfff8)
				return 0;
			off += 8;
		} else {
			off += (f[hdr + 1] + 1u) * 8;
		}
		/* Reaching past 4 KiB counts as a chain too long to walk. */
		if (off > 4096)
			return M_DEEP;
		nh = f[hdr];
	}
	if (nh == IPPROTO_UDP || nh == 58) {
		*l4 = nh;
		return off;
	}
	return m_ext(nh) ? M_DEEP : 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	SHIM_MAP(border_config);
	SHIM_MAP(if_counters);
	return 0;
}

static void one_packet(struct h_in *in)
{
	struct pnc_border_if_counters *ic;
	struct pnc_udp_view v;
	struct __sk_buff *skb;
	const uint8_t *f, *out;
	uint16_t proto, port = 0;
	uint32_t ifindex;
	size_t n, lin, off, olen;
	uint8_t op, l4 = 0, type;
	int rv, want = TC_ACT_UNSPEC;

	op = h_u8(in);
	lin = h_u16(in);
	f = h_frame(in, FRAME_MAX, &n);
	if (!lin || lin > n)
		lin = n;
	ifindex = 1 + (op & 3u);
	proto = n >= 14 ? h_be16(f + 12) : 0;
	if (op & 4)
		proto = proto == 0x0800 ? 0x86dd : 0x0800;

	off = m_l4(f, n, proto, &l4);
	if (off == M_DEEP) {
		want = TC_ACT_SHOT;
	} else if (off && l4 != IPPROTO_UDP) {
		type = l4 == 1 ? m.cfg.icmp_type : m.cfg.icmp6_type;
		if (type && n > off && f[off] == type) {
			want = TC_ACT_SHOT;
			port = m.cfg.notification_port;
		}
	} else if (off && n >= off + 4) {
		port = h_be16(f + off + 2);
		if (port == m.cfg.notification_port || port == m.cfg.flow_label_port)
			want = TC_ACT_SHOT;
	}
	/*
	 * What cnpproxyd reads as a notification never crosses the border (an
	 * IP version other than the EtherType's the stack drops anyway).
	 */
	if (n >= 14 && proto == h_be16(f + 12) && (proto == 0x0800 || proto == 0x86dd) &&
	    !pnc_ipudp_parse(f + 14, n - 14, PNC_IPUDP_F_NO_CSUM, &v) &&
	    v.ip.version == (proto == 0x0800 ? 4 : 6) &&
	    (v.ip.dport == m.cfg.notification_port || v.ip.dport == m.cfg.flow_label_port))
		FUZZ_CHECK(want == TC_ACT_SHOT);
	/* Nor does a datagram to a port behind however many extension headers. */
	if (n >= 14 && proto == 0x86dd) {
		size_t u = h_ipv6_udp(f + 14, n - 14);

		if (u && (h_be16(f + 14 + u + 2) == m.cfg.notification_port ||
			  h_be16(f + 14 + u + 2) == m.cfg.flow_label_port))
			FUZZ_CHECK(want == TC_ACT_SHOT);
	}

	skb = shim_skb_packet(f, n, lin, ifindex, bpf_htons(proto), 1);
	rv = shim_run_skb((op & 8) ? pnc_border_out : pnc_border, skb);
	out = shim_skb_bytes(skb, &olen);
	if (getenv("PNC_FUZZ_TRACE"))
		fprintf(stderr, "%zu octets, protocol %u at %zu (port %u): verdict %d\n", n, l4,
			off, port, rv);
	FUZZ_CHECK(rv == want);
	FUZZ_CHECK(olen == n && !memcmp(out, f, n));
	if (want == TC_ACT_SHOT && ifindex <= 2 && (m.flags & (1u << (ifindex - 1)))) {
		struct pnc_border_if_counters *c = &m.ic[ifindex];
		bool leaving = op & 8;

		if (off == M_DEEP)
			leaving ? c->header_chain_out++ : c->header_chain++;
		else if (port == m.cfg.notification_port)
			leaving ? c->notifications_out++ : c->notifications++;
		else
			leaving ? c->flow_label_out++ : c->flow_label++;
	}
	if (ifindex <= 2) {
		ic = shim_map_lookup(&if_counters, &ifindex);
		FUZZ_CHECK(!ic == !(m.flags & (1u << (ifindex - 1))));
		FUZZ_CHECK(!ic || !memcmp(ic, &m.ic[ifindex], sizeof(*ic)));
	}
	shim_skb_release(skb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct h_in in = { data, size };
	struct pnc_border_if_counters zero = {};
	__u32 key = 0;

	shim_reset();
	memset(&m, 0, sizeof(m));
	m.cfg.notification_port = h_u16(&in);
	m.cfg.flow_label_port = h_u16(&in);
	if (!m.cfg.notification_port && !m.cfg.flow_label_port) {
		m.cfg.notification_port = PNC_NOTIF_UDP_PORT;
		m.cfg.flow_label_port = PNC_FCN_UDP_PORT;
	}
	m.flags = h_u8(&in);
	if (m.flags & 0x04) {
		m.cfg.icmp_type = m.flags & 0x08 ? 254 : PNC_NOTIF_ICMP_TYPE;
		m.cfg.icmp6_type = m.flags & 0x08 ? 200 : PNC_NOTIF_ICMP6_TYPE;
	}
	FUZZ_CHECK(!shim_map_update(&border_config, &key, &m.cfg, BPF_ANY));
	for (__u32 ifindex = 1; ifindex <= 2; ifindex++)
		if (m.flags & (1u << (ifindex - 1)))
			FUZZ_CHECK(!shim_map_update(&if_counters, &ifindex, &zero, BPF_ANY));
	for (int i = 0; i < FRAMES_MAX && in.n; i++)
		one_packet(&in);
	return 0;
}
