// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the congestion point's sampled packets
 * (cnpproxyd/cp/sample.c): pnc_cp_sample_parse() on a packet copied
 * from a congested queue, plain or tunnelled, cut short as samples are,
 * and pnc_cp_notification_build() of the notification it becomes.  An input
 * is the offset of the inner IP header (16 bits, big-endian; 0: not
 * tunnelled), the congestion level (its value modulo 9: 8 is refused),
 * the carrier's IP version (even 4, odd 6), then the sample.
 * Properties:
 *  - errors are the codec's named ones;
 *  - a sample parsed has its RoCEv2 headers inside what was captured,
 *    from the inner IP header when tunnelled, the packet no longer than
 *    its IP header says;
 *  - its notification decodes (cnpproxyd/codec/notif.c) to the packet's
 *    five-tuple and the level, carrying as much of the packet as the
 *    carrier allows, from which the codec finds the same BTH.
 * Seeds (corpus/cp_sample/): made by gen_corpus_tools.c (make
 * fuzz-corpus): RC WRITEs and a CNP, IPv4 and IPv6, whole and cut to 64
 * octets, plain and in an outer IPv6 header, both carriers.
 */
#include <stddef.h>
#include <stdint.h>

#include "codec/notif.h"
#include "codec/wire.h"
#include "cp/sample.h"
#include "fuzz_util.h"

#define HDR 4 /* inner offset, level, carrier */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_view(const struct pnc_cp_sample_view *v, const uint8_t *sample, size_t cap_len,
		       size_t inner_off)
{
	FUZZ_CHECK(v->tunnelled == (inner_off != 0));
	FUZZ_CHECK(v->outer_version == 4 || v->outer_version == 6);
	FUZZ_CHECK(v->flow_label <= 0xfffff);
	FUZZ_CHECK(v->ip == sample + inner_off);
	FUZZ_CHECK(v->ip_len <= cap_len - inner_off && v->ip_len <= v->roce.pkt_len);
	/* What the notification and the proxy read: in the sample. */
	FUZZ_CHECK(v->roce.bth_off + PNC_BTH_LEN <= v->ip_len);
	FUZZ_CHECK(v->roce.ip.dport == PNC_ROCE_UDP_PORT);
}

static void check_notification(const struct pnc_cp_sample_view *v, uint8_t level,
			       const struct pnc_notif_icmp *form)
{
	static uint8_t buf[PNC_NOTIF_ICMP_HLEN + PNC_NOTIF_MAX_LEN6];
	uint8_t carrier = form->version;
	const struct pnc_ip_udp *ip = &v->roce.ip;
	size_t len, alen = ip->version == 4 ? 4 : 16, off, max;
	struct pnc_roce_view inv;
	struct pnc_notif n;
	int ret;

	ret = pnc_cp_notification_build(v, level, form, buf, sizeof(buf), &len);
	check_reason(ret);
	FUZZ_CHECK(!ret == (level <= 7));
	if (ret)
		return;
	/* The ICMP form is the UDP payload behind an 8-octet header. */
	if (form->type)
		FUZZ_CHECK(pnc_notif_icmp_decode(form, buf, len, &n) == PNC_OK);
	else
		FUZZ_CHECK(pnc_notif_decode(buf, len, &n) == PNC_OK);
	FUZZ_CHECK(n.af == ip->version && n.cl == level && n.protocol == 17);
	FUZZ_CHECK(n.start == PNC_NOTIF_START_INNER_IP);
	FUZZ_CHECK(n.sport == ip->sport && n.dport == ip->dport);
	FUZZ_CHECK(!memcmp(n.src, ip->src, alen) && !memcmp(n.dst, ip->dst, alen));
	/* As much of the packet as the carrier takes, from its IP header. */
	max = (carrier == 4 ? PNC_NOTIF_MAX_LEN4 : PNC_NOTIF_MAX_LEN6) -
	      (ip->version == 4 ? PNC_NOTIF_HLEN4 : PNC_NOTIF_HLEN6);
	FUZZ_CHECK(n.invoking_len == (v->ip_len < max ? v->ip_len : max));
	FUZZ_CHECK(!memcmp(n.invoking, v->ip, n.invoking_len));
	/* The proxy finds the receiver's QP where the congestion point saw it. */
	FUZZ_CHECK(pnc_notif_invoking_roce(&n, &off, &inv) == PNC_OK && off == 0);
	FUZZ_CHECK(inv.bth.dest_qp == v->roce.bth.dest_qp && inv.bth.psn == v->roce.bth.psn &&
		   inv.bth.opcode == v->roce.bth.opcode);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pnc_notif_icmp form = {};
	struct pnc_cp_sample_view v;
	size_t inner_off;
	uint8_t level;
	int ret;

	if (size < HDR)
		return 0;
	inner_off = get_be16(data);
	level = data[2] % 9;
	form.version = data[3] & 1 ? 6 : 4;
	/* Bit 1: the ICMP form (the ICMPv6 checksum left to the kernel). */
	if (data[3] & 2)
		form.type = form.version == 4 ? PNC_NOTIF_ICMP_TYPE : PNC_NOTIF_ICMP6_TYPE;
	data += HDR;
	size -= HDR;
	ret = pnc_cp_sample_parse(data, size, inner_off, &v);
	check_reason(ret);
	if (ret)
		return 0;
	check_view(&v, data, size, inner_off);
	check_notification(&v, level, &form);
	return 0;
}
