// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for cnpproxyd/codec/lhcnp.c and ratead.c: the input as
 * a Long-haul CNP (ICMPv6 packet, bare ICMPv6 message, RoCEv2 form) and
 * as a SCONE rate advice.  Properties: errors are named reasons; what
 * decodes re-encodes, and decoding that again gives the same fields.
 *
 * Fields are compared one by one: the decoders copy structs by
 * assignment, which need not copy padding, so memcmp() would compare
 * garbage.
 */
#include <stddef.h>
#include <stdint.h>

#include "codec/lhcnp.h"
#include "codec/ratead.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t out[PNC_LH_ROCE_MAX_LEN + PNC_LH_ICMP6_MAX_LEN];

static void same_ip(const struct pnc_ip_udp *a, const struct pnc_ip_udp *b)
{
	FUZZ_CHECK(a->version == b->version);
	FUZZ_CHECK(memcmp(a->src, b->src, 16) == 0 && memcmp(a->dst, b->dst, 16) == 0);
	FUZZ_CHECK(a->tos == b->tos && a->ttl == b->ttl && a->flow_label == b->flow_label);
	FUZZ_CHECK(a->sport == b->sport && a->dport == b->dport);
	if (a->version == 4)
		FUZZ_CHECK(a->ip_id == b->ip_id && a->df == b->df);
}

/*
 * The extension checksum is 0 when the folded sum is (RFC 1071 0xffff),
 * and 0 reads as "no checksum": that one case loses the flag.
 */
static bool csum_lost(const struct pnc_lh_ext *a, const struct pnc_lh_ext *b,
		      const uint8_t *ext_hdr)
{
	return a->checksum && !b->checksum && ext_hdr[2] == 0 && ext_hdr[3] == 0;
}

static void same_msg(const struct pnc_lh_cnp *a, const struct pnc_lh_cnp *b, const uint8_t *ext_hdr)
{
	const struct pnc_lh_ext *x = &a->ext, *y = &b->ext;

	FUZZ_CHECK(a->block.level == b->block.level && a->block.action == b->block.action);
	FUZZ_CHECK(a->block.parameter == b->block.parameter);
	FUZZ_CHECK(a->block.src_qp == b->block.src_qp);
	FUZZ_CHECK(a->block.metric_type == b->block.metric_type);
	FUZZ_CHECK(a->block.metric == b->block.metric);
	FUZZ_CHECK(x->present == y->present);
	if (!x->present)
		return;
	FUZZ_CHECK(x->checksum == y->checksum || csum_lost(x, y, ext_hdr));
	FUZZ_CHECK(x->class_num == y->class_num);
	FUZZ_CHECK(x->has_timestamp == y->has_timestamp);
	if (x->has_timestamp)
		FUZZ_CHECK(x->timestamp == y->timestamp);
	FUZZ_CHECK(strcmp(x->device_id, y->device_id) == 0);
	FUZZ_CHECK(x->path_id_len == y->path_id_len);
	FUZZ_CHECK(memcmp(x->path_id, y->path_id, x->path_id_len) == 0);
	/* objects of other classes are not written again */
	FUZZ_CHECK(y->unknown == 0);
}

static void fuzz_icmp6(const uint8_t *data, size_t size)
{
	struct pnc_lh_icmp6 a, b;
	size_t n;
	int ret;

	ret = pnc_lh_icmp6_decode(data, size, PNC_LH_ICMP6_TYPE, PNC_LH_EXT_CLASS_NUM, &a);
	check_reason(ret);
	if (ret)
		return;
	FUZZ_CHECK(pnc_lh_icmp6_encode(&a, out, sizeof(out), &n) == PNC_OK);
	FUZZ_CHECK(n <= PNC_LH_ICMP6_MAX_LEN);
	FUZZ_CHECK(pnc_lh_icmp6_decode(out, n, PNC_LH_ICMP6_TYPE, PNC_LH_EXT_CLASS_NUM, &b) ==
		   PNC_OK);
	FUZZ_CHECK(memcmp(a.src, b.src, 16) == 0 && memcmp(a.dst, b.dst, 16) == 0);
	FUZZ_CHECK(a.tclass == b.tclass && a.hop_limit == b.hop_limit);
	FUZZ_CHECK(a.flow_label == b.flow_label && a.type == b.type && a.code == b.code);
	same_msg(&a.msg, &b.msg, out + PNC_IPV6_HLEN + PNC_LH_ICMP6_HLEN + PNC_LH_BLOCK_LEN);
}

/* What a raw ICMPv6 socket hands over: the message alone. */
static void fuzz_icmp6_msg(const uint8_t *data, size_t size)
{
	struct pnc_lh_icmp6 a, b;
	size_t n;
	int ret;

	memset(&a, 0, sizeof(a));
	ret = pnc_lh_icmp6_msg_decode(data, size, PNC_LH_ICMP6_TYPE, PNC_LH_EXT_CLASS_NUM, &a);
	check_reason(ret);
	if (ret)
		return;
	FUZZ_CHECK(pnc_lh_icmp6_encode(&a, out, sizeof(out), &n) == PNC_OK);
	memset(&b, 0, sizeof(b));
	FUZZ_CHECK(pnc_lh_icmp6_msg_decode(out + PNC_IPV6_HLEN, n - PNC_IPV6_HLEN,
					   PNC_LH_ICMP6_TYPE, PNC_LH_EXT_CLASS_NUM, &b) == PNC_OK);
	FUZZ_CHECK(a.type == b.type && a.code == b.code);
	same_msg(&a.msg, &b.msg, out + PNC_IPV6_HLEN + PNC_LH_ICMP6_HLEN + PNC_LH_BLOCK_LEN);
}

static void fuzz_roce(const uint8_t *data, size_t size)
{
	struct pnc_lh_roce a, b;
	size_t n;
	int ret;

	ret = pnc_lh_roce_decode(data, size, PNC_LH_EXT_CLASS_NUM, &a);
	check_reason(ret);
	if (ret)
		return;
	FUZZ_CHECK(pnc_lh_roce_encode(&a, out, sizeof(out), &n) == PNC_OK);
	FUZZ_CHECK(n <= PNC_LH_ROCE_MAX_LEN);
	FUZZ_CHECK(pnc_lh_roce_decode(out, n, PNC_LH_EXT_CLASS_NUM, &b) == PNC_OK);
	same_ip(&a.ip, &b.ip);
	FUZZ_CHECK(a.pkey == b.pkey && a.dest_qp == b.dest_qp);
	same_msg(&a.msg, &b.msg,
		 out + (a.ip.version == 4 ? PNC_IPV4_HLEN : PNC_IPV6_HLEN) + PNC_UDP_HLEN +
			 PNC_BTH_LEN + PNC_LH_BLOCK_LEN);
}

static void fuzz_rate_advice(const uint8_t *data, size_t size)
{
	struct pnc_rate_advice a, b;
	size_t n;
	int ret;

	ret = pnc_rate_advice_decode(data, size, PNC_RA_OPCODE, &a);
	check_reason(ret);
	if (ret)
		return;
	FUZZ_CHECK(pnc_rate_advice_encode(&a, out, sizeof(out), &n) == PNC_OK);
	FUZZ_CHECK(pnc_rate_advice_decode(out, n, PNC_RA_OPCODE, &b) == PNC_OK);
	same_ip(&a.ip, &b.ip);
	FUZZ_CHECK(a.opcode == b.opcode && a.pkey == b.pkey && a.dest_qp == b.dest_qp);
	FUZZ_CHECK(a.rate_mbps == b.rate_mbps && a.version == b.version);
	FUZZ_CHECK(a.peer_qp == b.peer_qp);
	/* the size of a CNP */
	FUZZ_CHECK(n == (a.ip.version == 4 ? PNC_CNP_LEN4 : PNC_CNP_LEN6));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_icmp6(data, size);
	fuzz_icmp6_msg(data, size);
	fuzz_roce(data, size);
	fuzz_rate_advice(data, size);
	return 0;
}
