// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the RoCEv2 codec (cnpproxyd/codec/roce.c): BTH fields
 * and bit positions, the standard CNP of doc/wire-formats.md section 2
 * octet by octet, RC data and ACK round trips, the generic parser's
 * view, and one rejection per error reason.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "codec/ipudp.h"
#include "codec/roce.h"
#include "codec_test_util.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void v4addr(uint8_t *a, uint8_t x, uint8_t y, uint8_t z, uint8_t w)
{
	memset(a, 0, 16);
	a[0] = x;
	a[1] = y;
	a[2] = z;
	a[3] = w;
}

static void v6addr(uint8_t *a, uint8_t last)
{
	static const uint8_t pfx[4] = { 0x20, 0x01, 0x0d, 0xb8 };

	memset(a, 0, 16);
	memcpy(a, pfx, 4);
	a[15] = last;
}

/* The IP/UDP fields of the 3.3 test vectors. */
static void vector_ip(struct pnc_ip_udp *ip, uint8_t version)
{
	pnc_ip_udp_init(ip, version);
	ip->tos = 0xc0;
	if (version == 4) {
		v4addr(ip->src, 192, 0, 2, 1);
		v4addr(ip->dst, 192, 0, 2, 2);
	} else {
		v6addr(ip->src, 1);
		v6addr(ip->dst, 2);
	}
}

static void assert_ip_equal(const struct pnc_ip_udp *a, const struct pnc_ip_udp *b)
{
	size_t alen = a->version == 4 ? 4 : 16;

	assert_int_equal(a->version, b->version);
	assert_memory_equal(a->src, b->src, alen);
	assert_memory_equal(a->dst, b->dst, alen);
	assert_int_equal(a->tos, b->tos);
	assert_int_equal(a->ttl, b->ttl);
	assert_int_equal(a->sport, b->sport);
	assert_int_equal(a->dport, b->dport);
	assert_int_equal(a->udp_csum, b->udp_csum);
	if (a->version == 4) {
		assert_int_equal(a->ip_id, b->ip_id);
		assert_int_equal(a->df, b->df);
	} else {
		assert_int_equal(a->flow_label, b->flow_label);
	}
}

static void assert_bth_equal(const struct pnc_bth *a, const struct pnc_bth *b)
{
	assert_int_equal(a->opcode, b->opcode);
	assert_int_equal(a->se, b->se);
	assert_int_equal(a->mig, b->mig);
	assert_int_equal(a->pad, b->pad);
	assert_int_equal(a->tver, b->tver);
	assert_int_equal(a->pkey, b->pkey);
	assert_int_equal(a->fecn, b->fecn);
	assert_int_equal(a->becn, b->becn);
	assert_int_equal(a->resv6, b->resv6);
	assert_int_equal(a->dest_qp, b->dest_qp);
	assert_int_equal(a->ack_req, b->ack_req);
	assert_int_equal(a->resv7, b->resv7);
	assert_int_equal(a->psn, b->psn);
}

/* ---- BTH ------------------------------------------------------------------ */

struct bth_case {
	const char *name;
	struct pnc_bth bth;
	const char *wire;
};

static const struct bth_case bth_cases[] = {
	{ "zero", { 0 }, "00 00 0000 00 000000 00 000000" },
	{ "opcode", { .opcode = 0xa5 }, "a5 00 0000 00 000000 00 000000" },
	{ "se", { .se = true }, "00 80 0000 00 000000 00 000000" },
	{ "mig", { .mig = true }, "00 40 0000 00 000000 00 000000" },
	{ "pad", { .pad = 3 }, "00 30 0000 00 000000 00 000000" },
	{ "pad-1", { .pad = 1 }, "00 10 0000 00 000000 00 000000" },
	{ "pkey", { .pkey = 0x8001 }, "00 00 8001 00 000000 00 000000" },
	{ "fecn", { .fecn = true }, "00 00 0000 80 000000 00 000000" },
	{ "becn", { .becn = true }, "00 00 0000 40 000000 00 000000" },
	{ "resv6", { .resv6 = 0x21 }, "00 00 0000 21 000000 00 000000" },
	{ "dest-qp", { .dest_qp = 0xabcdef }, "00 00 0000 00 abcdef 00 000000" },
	{ "ack-req", { .ack_req = true }, "00 00 0000 00 000000 80 000000" },
	{ "resv7", { .resv7 = 0x41 }, "00 00 0000 00 000000 41 000000" },
	{ "psn", { .psn = 0xfedcba }, "00 00 0000 00 000000 00 fedcba" },
	{ "cnp-2.1",
	  { .opcode = 0x81, .pkey = 0xffff, .becn = true, .dest_qp = 0xd2 },
	  "81 00 ffff 40 0000d2 00 000000" },
	{ "all-ones",
	  { .opcode = 0xff,
	    .se = true,
	    .mig = true,
	    .pad = 3,
	    .pkey = 0xffff,
	    .fecn = true,
	    .becn = true,
	    .resv6 = 0x3f,
	    .dest_qp = 0xffffff,
	    .ack_req = true,
	    .resv7 = 0x7f,
	    .psn = 0xffffff },
	  "ff f0 ffff ff ffffff ff ffffff" },
};

static void test_bth_round_trip(void **state)
{
	uint8_t buf[PNC_BTH_LEN], want[PNC_BTH_LEN];
	struct pnc_bth out;
	size_t i, n;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bth_cases); i++) {
		const struct bth_case *c = &bth_cases[i];

		print_message("  %s\n", c->name);
		assert_int_equal(hex2bin(c->wire, want, sizeof(want)), PNC_BTH_LEN);
		assert_int_equal(pnc_bth_encode(&c->bth, buf, sizeof(buf), &n), PNC_OK);
		assert_int_equal(n, PNC_BTH_LEN);
		assert_memory_equal(buf, want, PNC_BTH_LEN);
		memset(&out, 0x5a, sizeof(out));
		assert_int_equal(pnc_bth_decode(buf, sizeof(buf), &out), PNC_OK);
		assert_bth_equal(&out, &c->bth);
	}
}

static void test_bth_errors(void **state)
{
	static const struct pnc_bth bad[] = {
		{ .pad = 4 },	   { .tver = 16 },	    { .resv6 = 0x40 },
		{ .resv7 = 0x80 }, { .dest_qp = 1u << 24 }, { .psn = 1u << 24 },
	};
	struct pnc_bth ok = { .tver = 1 }, out;
	uint8_t buf[PNC_BTH_LEN];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		assert_int_equal(pnc_bth_encode(&bad[i], buf, sizeof(buf), NULL),
				 PNC_E_INVALID_ARG);
	assert_int_equal(pnc_bth_encode(&ok, buf, sizeof(buf) - 1, NULL), PNC_E_BUF_TOO_SMALL);
	/* TVer may be encoded (to craft test packets) but is refused on decode */
	assert_int_equal(pnc_bth_encode(&ok, buf, sizeof(buf), NULL), PNC_OK);
	assert_int_equal(pnc_bth_decode(buf, sizeof(buf), &out), PNC_E_BTH_TVER);
	assert_int_equal(pnc_bth_decode(buf, sizeof(buf) - 1, &out), PNC_E_BTH_TRUNCATED);
}

static void test_ext_headers(void **state)
{
	struct pnc_reth reth = { 0x0102030405060708ull, 0x11223344, 0xa0b0c0d0 }, reth2;
	struct pnc_aeth aeth = { 0x61, 0x123456 }, aeth2;
	struct pnc_deth deth = { 0x80010000, 0x000001 }, deth2;
	struct pnc_deth bad_deth = { 0, 1u << 24 };
	struct pnc_aeth bad_aeth = { 0, 1u << 24 };
	uint8_t buf[16], want[16];
	size_t n;

	(void)state;
	assert_int_equal(pnc_reth_encode(&reth, buf, sizeof(buf), &n), PNC_OK);
	assert_int_equal(n, 16);
	hex2bin("0102030405060708 11223344 a0b0c0d0", want, sizeof(want));
	assert_memory_equal(buf, want, 16);
	assert_int_equal(pnc_reth_decode(buf, 16, &reth2), PNC_OK);
	assert_true(reth2.va == reth.va && reth2.rkey == reth.rkey &&
		    reth2.dma_len == reth.dma_len);
	assert_int_equal(pnc_reth_decode(buf, 15, &reth2), PNC_E_EXT_TRUNCATED);
	assert_int_equal(pnc_reth_encode(&reth, buf, 15, NULL), PNC_E_BUF_TOO_SMALL);

	assert_int_equal(pnc_aeth_encode(&aeth, buf, sizeof(buf), &n), PNC_OK);
	assert_int_equal(n, 4);
	hex2bin("61 123456", want, sizeof(want));
	assert_memory_equal(buf, want, 4);
	assert_int_equal(pnc_aeth_decode(buf, 4, &aeth2), PNC_OK);
	assert_int_equal(aeth2.syndrome, 0x61);
	assert_int_equal(aeth2.msn, 0x123456);
	assert_int_equal(pnc_aeth_decode(buf, 3, &aeth2), PNC_E_EXT_TRUNCATED);
	assert_int_equal(pnc_aeth_encode(&bad_aeth, buf, 4, NULL), PNC_E_INVALID_ARG);
	assert_int_equal(pnc_aeth_encode(&aeth, buf, 3, NULL), PNC_E_BUF_TOO_SMALL);

	assert_int_equal(pnc_deth_encode(&deth, buf, sizeof(buf), &n), PNC_OK);
	assert_int_equal(n, 8);
	hex2bin("80010000 00 000001", want, sizeof(want));
	assert_memory_equal(buf, want, 8);
	assert_int_equal(pnc_deth_decode(buf, 8, &deth2), PNC_OK);
	assert_int_equal(deth2.qkey, 0x80010000);
	assert_int_equal(deth2.src_qp, 1);
	assert_int_equal(pnc_deth_decode(buf, 7, &deth2), PNC_E_EXT_TRUNCATED);
	assert_int_equal(pnc_deth_encode(&bad_deth, buf, 8, NULL), PNC_E_INVALID_ARG);
	assert_int_equal(pnc_deth_encode(&deth, buf, 7, NULL), PNC_E_BUF_TOO_SMALL);
}

static void test_aeth_syndromes(void **state)
{
	static const struct {
		uint8_t syndrome;
		int expect;
	} cases[] = {
		{ 0x00, PNC_OK }, /* ACK, 0 credits */
		{ 0x1f, PNC_OK }, /* ACK, invalid credit count */
		{ 0x20, PNC_OK }, /* RNR NAK */
		{ 0x3f, PNC_OK },
		{ 0x60, PNC_OK },	       /* NAK PSN sequence error */
		{ 0x64, PNC_OK },	       /* NAK invalid RD request */
		{ 0x65, PNC_E_AETH_SYNDROME }, /* NAK code 5: reserved */
		{ 0x40, PNC_E_AETH_SYNDROME }, /* type 010: reserved */
		{ 0x80, PNC_E_AETH_SYNDROME }, /* type 1xx: reserved */
		{ 0xe0, PNC_E_AETH_SYNDROME },
	};
	struct pnc_aeth a;
	uint8_t buf[4] = { 0 };
	size_t i;

	(void)state;
	assert_int_equal(pnc_aeth_syndrome(PNC_AETH_NAK, PNC_NAK_REMOTE_ACCESS), 0x62);
	assert_int_equal(pnc_aeth_syndrome(PNC_AETH_RNR_NAK, 0x1f), 0x3f);
	assert_int_equal(pnc_aeth_syndrome(PNC_AETH_ACK, 0x1f), 0x1f);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		buf[0] = cases[i].syndrome;
		assert_int_equal(pnc_aeth_decode(buf, 4, &a), cases[i].expect);
	}
}

static void test_ext_len(void **state)
{
	static const struct {
		uint8_t opcode;
		int len;
	} cases[] = {
		{ PNC_OP_RC_SEND_FIRST, 0 },
		{ PNC_OP_RC_SEND_ONLY_IMM, 4 },
		{ PNC_OP_RC_WRITE_FIRST, 16 },
		{ PNC_OP_RC_WRITE_MIDDLE, 0 },
		{ PNC_OP_RC_WRITE_LAST, 0 },
		{ PNC_OP_RC_WRITE_ONLY, 16 },
		{ PNC_OP_RC_WRITE_ONLY_IMM, 20 },
		{ PNC_OP_RC_READ_REQ, 16 },
		{ PNC_OP_RC_READ_RESP_FIRST, 4 },
		{ PNC_OP_RC_READ_RESP_MIDDLE, 0 },
		{ PNC_OP_RC_ACK, 4 },
		{ PNC_OP_RC_ATOMIC_ACK, 12 },
		{ PNC_OP_RC_CMP_SWAP, 28 },
		{ 0x15, -1 },
		{ 0x20, 0 },
		{ 0x2a, 16 },
		{ 0x2c, -1 },
		{ PNC_OP_UD_SEND_ONLY, 8 },
		{ PNC_OP_UD_SEND_ONLY_IMM, 12 },
		{ 0x66, -1 },
		{ PNC_OP_CNP, 16 },
		{ 0x80, -1 },
		{ 0x40, -1 },
		{ 0xc0, -1 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		assert_int_equal(pnc_bth_ext_len(cases[i].opcode), cases[i].len);
}

/* ---- CNP -------------------------------------------------------------------- */

static size_t build_vector_cnp(uint8_t version, uint8_t *buf)
{
	struct pnc_cnp c = { .pkey = 0xffff, .dest_qp = 0x123 };
	size_t n = 0;

	vector_ip(&c.ip, version);
	assert_int_equal(pnc_cnp_encode(&c, buf, 128, &n), PNC_OK);
	return n;
}

/* 2.2 and 3.3: the whole packet, octet for octet. */
static void test_cnp_vectors(void **state)
{
	uint8_t buf[128], want[128];
	size_t n, wn;

	(void)state;
	n = build_vector_cnp(4, buf);
	wn = hex2bin("45c0003c000040004011b5edc0000201c0000202"
		     "c00012b700280000"
		     "8100ffff4000012300000000"
		     "00000000000000000000000000000000"
		     "70199d9a",
		     want, sizeof(want));
	assert_int_equal(n, PNC_CNP_LEN4);
	assert_int_equal(n, wn);
	assert_memory_equal(buf, want, n);

	n = build_vector_cnp(6, buf);
	wn = hex2bin("6c000000 0028 11 40"
		     "20010db8000000000000000000000001"
		     "20010db8000000000000000000000002"
		     "c00012b700280000"
		     "8100ffff4000012300000000"
		     "00000000000000000000000000000000"
		     "928fe039",
		     want, sizeof(want));
	assert_int_equal(n, PNC_CNP_LEN6);
	assert_int_equal(n, wn);
	assert_memory_equal(buf, want, n);
}

struct cnp_case {
	const char *name;
	uint8_t version;
	uint8_t tos;
	uint8_t ttl;
	uint16_t ip_id;
	bool df;
	uint32_t flow_label;
	uint16_t sport;
	uint16_t dport;
	bool udp_csum;
	uint16_t pkey;
	uint32_t dest_qp;
};

static const struct cnp_case cnp_cases[] = {
	{ "v4-default", 4, 0, 64, 0, true, 0, 0xc000, 4791, false, 0xffff, 0x123 },
	{ "v4-dscp48", 4, 48 << 2, 255, 0x1234, false, 0, 0xffff, 4791, false, 0x7fff, 1 },
	{ "v4-ect1-csum", 4, 0x01, 1, 0xffff, true, 0, 0xc123, 4791, true, 0x8001, 0xffffff },
	{ "v4-ce-csum", 4, 0xc3, 2, 7, false, 0, 0xd00d, 4791, true, 0, 0 },
	{ "v6-default", 6, 0, 64, 0, false, 0, 0xc000, 4791, false, 0xffff, 0x123 },
	{ "v6-fl-tc", 6, 48 << 2 | 2, 9, 0, false, 0xabcde, 0xfeed, 4791, false, 0xffff, 0x42 },
	{ "v6-csum", 6, 0xff, 255, 0, false, 0xfffff, 0xc001, 4791, true, 0x1234, 0x654321 },
};

static void fill_cnp(const struct cnp_case *c, struct pnc_cnp *cnp)
{
	memset(cnp, 0, sizeof(*cnp));
	vector_ip(&cnp->ip, c->version);
	cnp->ip.tos = c->tos;
	cnp->ip.ttl = c->ttl;
	cnp->ip.ip_id = c->ip_id;
	cnp->ip.df = c->df;
	cnp->ip.flow_label = c->flow_label;
	cnp->ip.sport = c->sport;
	cnp->ip.dport = c->dport;
	cnp->ip.udp_csum = c->udp_csum;
	cnp->pkey = c->pkey;
	cnp->dest_qp = c->dest_qp;
}

/* Every settable field lands where 2.2 says, and decodes back. */
static void test_cnp_fields(void **state)
{
	uint8_t buf[128];
	size_t i, n, h;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cnp_cases); i++) {
		const struct cnp_case *c = &cnp_cases[i];
		struct pnc_cnp cnp, out;
		uint8_t *u, *b;

		print_message("  %s\n", c->name);
		fill_cnp(c, &cnp);
		assert_int_equal(pnc_cnp_encode(&cnp, buf, sizeof(buf), &n), PNC_OK);
		h = c->version == 4 ? 20 : 40;
		assert_int_equal(n, h + 40);
		if (c->version == 4) {
			assert_int_equal(buf[0], 0x45);
			assert_int_equal(buf[1], c->tos);
			assert_int_equal(buf[2] << 8 | buf[3], 60);
			assert_int_equal(buf[4] << 8 | buf[5], c->ip_id);
			assert_int_equal(buf[6], c->df ? 0x40 : 0);
			assert_int_equal(buf[7], 0);
			assert_int_equal(buf[8], c->ttl);
			assert_int_equal(buf[9], 17);
		} else {
			uint32_t w = (uint32_t)buf[0] << 24 | buf[1] << 16 | buf[2] << 8 | buf[3];

			assert_int_equal(w >> 28, 6);
			assert_int_equal((w >> 20) & 0xff, c->tos);
			assert_int_equal(w & 0xfffff, c->flow_label);
			assert_int_equal(buf[4] << 8 | buf[5], 40);
			assert_int_equal(buf[6], 17);
			assert_int_equal(buf[7], c->ttl);
		}
		u = buf + h;
		assert_int_equal(u[0] << 8 | u[1], c->sport);
		assert_int_equal(u[2] << 8 | u[3], c->dport);
		assert_int_equal(u[4] << 8 | u[5], 40);
		if (!c->udp_csum)
			assert_int_equal(u[6] << 8 | u[7], 0);
		else
			assert_int_not_equal(u[6] << 8 | u[7], 0);
		b = u + 8;
		assert_int_equal(b[0], 0x81);
		assert_int_equal(b[1], 0);
		assert_int_equal(b[2] << 8 | b[3], c->pkey);
		assert_int_equal(b[4], 0x40);
		assert_int_equal(b[5] << 16 | b[6] << 8 | b[7], c->dest_qp);
		assert_int_equal(b[8] | b[9] | b[10] | b[11], 0);
		for (size_t k = 12; k < 28; k++)
			assert_int_equal(b[k], 0);
		assert_int_equal(pnc_icrc_verify(buf, n), PNC_OK);

		assert_int_equal(pnc_cnp_decode(buf, n, &out), PNC_OK);
		assert_ip_equal(&out.ip, &cnp.ip);
		assert_int_equal(out.pkey, c->pkey);
		assert_int_equal(out.dest_qp, c->dest_qp);
	}
}

/* An IPv4 header checksum that sums to 0xFFFF, checked independently. */
static void test_cnp_ipv4_checksum(void **state)
{
	uint8_t buf[128];
	uint32_t sum = 0;
	size_t i, n;
	struct pnc_cnp cnp;

	(void)state;
	fill_cnp(&cnp_cases[2], &cnp);
	assert_int_equal(pnc_cnp_encode(&cnp, buf, sizeof(buf), &n), PNC_OK);
	for (i = 0; i < 20; i += 2)
		sum += (uint32_t)(buf[i] << 8 | buf[i + 1]);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	assert_int_equal(sum, 0xffff);
}

/*
 * A UDP checksum that computes to 0 goes out as 0xFFFF (0 would mean
 * "no checksum").  Search payloads until one hits that case.
 */
static void test_udp_csum_zero(void **state)
{
	struct pnc_rc_data in = { 0 }, out;
	uint8_t payload[4], buf[128];
	uint32_t i;
	size_t n;
	bool found = false;

	(void)state;
	vector_ip(&in.ip, 4);
	in.ip.udp_csum = true;
	in.bth.opcode = PNC_OP_RC_SEND_ONLY;
	in.payload = payload;
	in.payload_len = sizeof(payload);
	for (i = 0; i < (1u << 20) && !found; i++) {
		uint16_t csum;

		payload[0] = (uint8_t)(i >> 24);
		payload[1] = (uint8_t)(i >> 16);
		payload[2] = (uint8_t)(i >> 8);
		payload[3] = (uint8_t)i;
		assert_int_equal(pnc_rc_data_encode(&in, buf, sizeof(buf), &n), PNC_OK);
		csum = (uint16_t)(buf[26] << 8 | buf[27]);
		assert_int_not_equal(csum, 0);
		if (csum == 0xffff) {
			found = true;
			assert_int_equal(pnc_rc_data_decode(buf, n, &out), PNC_OK);
			assert_true(out.ip.udp_csum);
		}
	}
	assert_true(found);
}

static void test_cnp_encode_errors(void **state)
{
	struct pnc_cnp cnp;
	uint8_t buf[128];
	size_t n = 1234;

	(void)state;
	fill_cnp(&cnp_cases[0], &cnp);
	assert_int_equal(pnc_cnp_encode(&cnp, buf, PNC_CNP_LEN4 - 1, &n), PNC_E_BUF_TOO_SMALL);
	assert_int_equal(n, 1234);
	cnp.ip.version = 5;
	assert_int_equal(pnc_cnp_encode(&cnp, buf, sizeof(buf), &n), PNC_E_INVALID_ARG);
	fill_cnp(&cnp_cases[0], &cnp);
	cnp.dest_qp = 1u << 24;
	assert_int_equal(pnc_cnp_encode(&cnp, buf, sizeof(buf), &n), PNC_E_INVALID_ARG);
	fill_cnp(&cnp_cases[4], &cnp);
	cnp.ip.flow_label = 1u << 20;
	assert_int_equal(pnc_cnp_encode(&cnp, buf, sizeof(buf), &n), PNC_E_INVALID_ARG);
	fill_cnp(&cnp_cases[4], &cnp);
	assert_int_equal(pnc_cnp_encode(&cnp, buf, PNC_CNP_LEN6 - 1, &n), PNC_E_BUF_TOO_SMALL);
}

/* ---- RC data and ACK ---------------------------------------------------------- */

static void test_rc_data_round_trip(void **state)
{
	static const size_t lens[] = { 0, 1, 2, 3, 4, 5, 255, 1024 };
	uint8_t payload[1024], buf[1200];
	unsigned int op, v, li;

	(void)state;
	for (li = 0; li < sizeof(payload); li++)
		payload[li] = (uint8_t)(li * 7 + 3);
	for (v = 0; v < 2; v++) {
		for (op = PNC_OP_RC_SEND_FIRST; op <= PNC_OP_RC_WRITE_ONLY_IMM; op++) {
			for (li = 0; li < ARRAY_SIZE(lens); li++) {
				struct pnc_rc_data in = { 0 }, out;
				size_t n, ext, pad, h = v ? 40 : 20;

				vector_ip(&in.ip, v ? 6 : 4);
				in.ip.udp_csum = li & 1;
				in.bth.opcode = (uint8_t)op;
				in.bth.pkey = 0xffff;
				in.bth.dest_qp = 0x10203 + op;
				in.bth.psn = 0xfffff0 + li;
				in.bth.ack_req = li == 3;
				in.bth.se = op == PNC_OP_RC_SEND_ONLY;
				in.reth.va = 0x7f0000001000ull + op;
				in.reth.rkey = 0xabcd0000 | op;
				in.reth.dma_len = (uint32_t)lens[li];
				in.imm = 0xdead0000 | op;
				in.payload = payload;
				in.payload_len = lens[li];

				assert_int_equal(pnc_rc_data_encode(&in, buf, sizeof(buf), &n),
						 PNC_OK);
				ext = (size_t)pnc_bth_ext_len((uint8_t)op);
				pad = (4 - (lens[li] & 3)) & 3;
				assert_int_equal(n, h + 8 + 12 + ext + lens[li] + pad + 4);
				/* the pad count sits in BTH octet 1, bits 5-4 */
				assert_int_equal((buf[h + 8 + 1] >> 4) & 3, pad);
				if (pnc_rc_has_reth((uint8_t)op))
					assert_int_equal(buf[h + 8 + 12 + 15], lens[li] & 0xff);
				assert_memory_equal(buf + h + 8 + 12 + ext, payload, lens[li]);

				memset(&out, 0, sizeof(out));
				assert_int_equal(pnc_rc_data_decode(buf, n, &out), PNC_OK);
				assert_ip_equal(&out.ip, &in.ip);
				in.bth.pad = (uint8_t)pad;
				assert_bth_equal(&out.bth, &in.bth);
				if (pnc_rc_has_reth((uint8_t)op)) {
					assert_true(out.reth.va == in.reth.va);
					assert_int_equal(out.reth.rkey, in.reth.rkey);
					assert_int_equal(out.reth.dma_len, in.reth.dma_len);
				}
				if (pnc_rc_has_imm((uint8_t)op))
					assert_int_equal(out.imm, in.imm);
				assert_int_equal(out.payload_len, lens[li]);
				assert_ptr_equal(out.payload, buf + h + 8 + 12 + ext);
			}
		}
	}
}

static void test_rc_data_errors(void **state)
{
	struct pnc_rc_data in = { 0 };
	uint8_t buf[200];

	(void)state;
	vector_ip(&in.ip, 4);
	in.bth.opcode = PNC_OP_RC_ACK;
	assert_int_equal(pnc_rc_data_encode(&in, buf, sizeof(buf), NULL), PNC_E_INVALID_ARG);
	in.bth.opcode = PNC_OP_RC_SEND_ONLY;
	in.payload_len = 4;
	assert_int_equal(pnc_rc_data_encode(&in, buf, sizeof(buf), NULL), PNC_E_INVALID_ARG);
	in.payload = buf + 100;
	assert_int_equal(pnc_rc_data_encode(&in, buf, 20 + 8 + 12 + 4 + 3, NULL),
			 PNC_E_BUF_TOO_SMALL);
}

static void test_rc_ack_round_trip(void **state)
{
	static const uint8_t syndromes[] = { 0x00, 0x1f, 0x3f, 0x60, 0x61, 0x62, 0x63, 0x64 };
	uint8_t buf[128];
	size_t i, n;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(syndromes); i++) {
		struct pnc_rc_ack in = { 0 }, out;

		vector_ip(&in.ip, i & 1 ? 6 : 4);
		in.bth.opcode = PNC_OP_RC_ACK;
		in.bth.pkey = 0xffff;
		in.bth.dest_qp = 0xabc + i;
		in.bth.psn = 0x800000 + i;
		in.aeth.syndrome = syndromes[i];
		in.aeth.msn = 0x123456 + i;
		assert_int_equal(pnc_rc_ack_encode(&in, buf, sizeof(buf), &n), PNC_OK);
		assert_int_equal(n, (i & 1 ? 40 : 20) + 8 + 12 + 4 + 4);
		assert_int_equal(pnc_rc_ack_decode(buf, n, &out), PNC_OK);
		assert_ip_equal(&out.ip, &in.ip);
		assert_bth_equal(&out.bth, &in.bth);
		assert_int_equal(out.aeth.syndrome, syndromes[i]);
		assert_int_equal(out.aeth.msn, 0x123456 + i);
	}
}

/* ---- generic parser --------------------------------------------------------- */

static size_t build_write_first(uint8_t version, uint8_t *buf, size_t payload_len)
{
	static uint8_t payload[64];
	struct pnc_rc_data in = { 0 };
	size_t n = 0;

	vector_ip(&in.ip, version);
	in.bth.opcode = PNC_OP_RC_WRITE_FIRST;
	in.bth.pkey = 0xffff;
	in.bth.dest_qp = 0x4242;
	in.bth.psn = 77;
	in.reth.va = 0x1000;
	in.reth.rkey = 5;
	in.reth.dma_len = 4096;
	in.payload = payload;
	in.payload_len = payload_len;
	assert_int_equal(pnc_rc_data_encode(&in, buf, 256, &n), PNC_OK);
	return n;
}

static void test_parse_view(void **state)
{
	struct pnc_roce_view v;
	uint8_t buf[256];
	size_t n, h;
	uint8_t version;

	(void)state;
	for (version = 4; version <= 6; version += 2) {
		h = version == 4 ? 20 : 40;
		n = build_vector_cnp(version, buf);
		assert_int_equal(pnc_roce_parse(buf, n, 0, &v), PNC_OK);
		assert_int_equal(v.ip.version, version);
		assert_int_equal(v.ip_hlen, h);
		assert_int_equal(v.pkt_len, n);
		assert_int_equal(v.udp_off, h);
		assert_int_equal(v.bth_off, h + 8);
		assert_int_equal(v.ext_off, h + 20);
		assert_int_equal(v.ext_len, 16);
		assert_int_equal(v.payload_off, h + 36);
		assert_int_equal(v.payload_len, 0);
		assert_int_equal(v.icrc_off, h + 36);
		assert_int_equal(v.icrc, version == 4 ? 0x9a9d1970 : 0x39e08f92);
		assert_false(v.truncated);
		assert_int_equal(v.bth.dest_qp, 0x123);

		/* Ethernet padding after the IP length is ignored */
		memset(buf + n, 0xee, 10);
		assert_int_equal(pnc_roce_parse(buf, n + 10, 0, &v), PNC_OK);
		assert_int_equal(v.pkt_len, n);

		n = build_write_first(version, buf, 13);
		assert_int_equal(pnc_roce_parse(buf, n, 0, &v), PNC_OK);
		assert_int_equal(v.ext_len, 16);
		assert_int_equal(v.payload_off, h + 36);
		assert_int_equal(v.payload_len, 13);
		assert_int_equal(v.bth.pad, 3);
		assert_int_equal(v.icrc_off, h + 36 + 16);

		/* cut after the BTH: only with PNC_ROCE_F_TRUNCATED */
		assert_int_equal(pnc_roce_parse(buf, h + 24, 0, &v), PNC_E_IP_TRUNCATED);
		assert_int_equal(pnc_roce_parse(buf, h + 24, PNC_ROCE_F_TRUNCATED, &v), PNC_OK);
		assert_true(v.truncated);
		assert_int_equal(v.bth.dest_qp, 0x4242);
		assert_int_equal(v.bth.psn, 77);
		assert_int_equal(v.payload_len, 13);
		assert_int_equal(v.pkt_len, n);
		assert_int_equal(pnc_roce_parse(buf, h + 19, PNC_ROCE_F_TRUNCATED, &v),
				 PNC_E_BTH_TRUNCATED);
		assert_int_equal(pnc_roce_parse(buf, h + 7, PNC_ROCE_F_TRUNCATED, &v),
				 PNC_E_UDP_TRUNCATED);

		/* NO_ICRC: a broken ICRC passes */
		buf[n - 1] ^= 1;
		assert_int_equal(pnc_roce_parse(buf, n, 0, &v), PNC_E_ICRC);
		assert_int_equal(pnc_roce_parse(buf, n, PNC_ROCE_F_NO_ICRC, &v), PNC_OK);
	}
}

/* A vendor opcode is parsed, with no extension headers assumed. */
static void test_parse_unknown_opcode(void **state)
{
	struct pnc_ip_udp ip;
	struct pnc_bth bth = { .opcode = 0xc0, .pkey = 0xffff, .dest_qp = 9 };
	uint8_t body[6] = { 1, 2, 3, 4, 5, 6 }, buf[128];
	struct pnc_roce_view v;
	size_t n;

	(void)state;
	vector_ip(&ip, 4);
	assert_int_equal(pnc_roce_encode(&ip, &bth, body, sizeof(body), buf, sizeof(buf), &n),
			 PNC_OK);
	assert_int_equal(pnc_roce_parse(buf, n, 0, &v), PNC_OK);
	assert_int_equal(v.ext_len, -1);
	assert_int_equal(v.payload_off, v.ext_off);
	assert_int_equal(v.payload_len, 6);
	assert_int_equal(v.bth.pad, 2);
}

/* ---- one rejection per reason ---------------------------------------------- */

enum base { CNP4, CNP6, ACK4, CNP4_BODY20, ACK4_BAD_SYN, WRITE4 };
enum decoder { D_PARSE, D_CNP, D_RC_DATA, D_ACK };

#define MAX_EDITS 4
#define REFIX	  0x01 /* repair IPv4 checksum and ICRC after the edits */
#define LENGTHS	  0x02 /* set IP/UDP lengths to the new length first */

struct edit {
	size_t off;
	uint8_t val;
};

struct reject {
	const char *name;
	enum base base;
	enum decoder dec;
	size_t n_edits;
	struct edit edits[MAX_EDITS];
	int len_delta; /* change of the packet length */
	unsigned int fix;
	int expect;
};


/* IPv4 CNP offsets: IP 0, UDP 20, BTH 28, reserved 40, ICRC 56. */
static const struct reject rejects[] = {
	{ "ip-truncated-hdr", CNP4, D_PARSE, 0, { { 0, 0 } }, -41, 0, PNC_E_IP_TRUNCATED },
	{ "ip-truncated-len", CNP4, D_PARSE, 0, { { 0, 0 } }, -1, 0, PNC_E_IP_TRUNCATED },
	{ "ip6-truncated", CNP6, D_PARSE, 0, { { 0, 0 } }, -1, 0, PNC_E_IP_TRUNCATED },
	{ "ip-version", CNP4, D_PARSE, 1, { { 0, 0x55 } }, 0, 0, PNC_E_IP_VERSION },
	{ "ip-ihl", CNP4, D_PARSE, 1, { { 0, 0x44 } }, 0, REFIX, PNC_E_IP_HDR_LEN },
	{ "ip-options", CNP4, D_PARSE, 1, { { 0, 0x46 } }, 0, 0, PNC_E_IP_OPTIONS },
	{ "ip-checksum", CNP4, D_PARSE, 1, { { 8, 63 } }, 0, 0, PNC_E_IP_CHECKSUM },
	{ "ip-total-len", CNP4, D_PARSE, 2, { { 2, 0 }, { 3, 19 } }, 0, REFIX, PNC_E_IP_TOTAL_LEN },
	{ "ip-mf", CNP4, D_PARSE, 1, { { 6, 0x20 } }, 0, REFIX, PNC_E_IP_FRAGMENT },
	{ "ip-frag-off", CNP4, D_PARSE, 1, { { 7, 0x01 } }, 0, REFIX, PNC_E_IP_FRAGMENT },
	{ "ip-tcp", CNP4, D_PARSE, 1, { { 9, 6 } }, 0, REFIX, PNC_E_IP_NOT_UDP },
	{ "ip6-ext-hdr", CNP6, D_PARSE, 1, { { 6, 0 } }, 0, 0, PNC_E_IP_NOT_UDP },
	{ "udp-truncated", CNP4, D_PARSE, 2, { { 2, 0 }, { 3, 24 } }, 0, REFIX, PNC_E_UDP_TRUNCATED },
	{ "udp-len", CNP4, D_PARSE, 1, { { 25, 41 } }, 0, 0, PNC_E_UDP_LEN },
	{ "udp6-len", CNP6, D_PARSE, 1, { { 45, 39 } }, 0, 0, PNC_E_UDP_LEN },
	{ "udp-checksum", CNP4, D_PARSE, 2, { { 26, 0x12 }, { 27, 0x34 } }, 0, 0, PNC_E_UDP_CHECKSUM },
	{ "udp-port", CNP4, D_PARSE, 1, { { 23, 0xb6 } }, 0, REFIX, PNC_E_UDP_PORT },
	{ "bth-truncated", CNP4, D_PARSE, 0, { { 0, 0 } }, -24, LENGTHS | REFIX, PNC_E_BTH_TRUNCATED },
	{ "bth-tver", CNP4, D_PARSE, 1, { { 29, 0x01 } }, 0, REFIX, PNC_E_BTH_TVER },
	{ "icrc-truncated", CNP4, D_PARSE, 0, { { 0, 0 } }, -18, LENGTHS | REFIX, PNC_E_ICRC_TRUNCATED },
	{ "ext-truncated", CNP4, D_PARSE, 0, { { 0, 0 } }, -4, LENGTHS | REFIX, PNC_E_EXT_TRUNCATED },
	{ "bth-pad-exceeds", CNP4, D_PARSE, 1, { { 29, 0x10 } }, 0, REFIX, PNC_E_BTH_PAD },
	{ "bth-pad-misaligned", CNP4, D_PARSE, 0, { { 0, 0 } }, +1, LENGTHS | REFIX, PNC_E_BTH_PAD },
	{ "icrc", CNP4, D_PARSE, 1, { { 45, 0x01 } }, 0, 0, PNC_E_ICRC },
	{ "icrc6", CNP6, D_PARSE, 1, { { 79, 0x00 } }, 0, 0, PNC_E_ICRC },
	{ "cnp-opcode", ACK4, D_CNP, 0, { { 0, 0 } }, 0, 0, PNC_E_BTH_OPCODE },
	{ "cnp-payload", CNP4_BODY20, D_CNP, 0, { { 0, 0 } }, 0, 0, PNC_E_UNEXPECTED_PAYLOAD },
	{ "cnp-pad", CNP4_BODY20, D_CNP, 1, { { 29, 0x30 } }, 0, REFIX, PNC_E_BTH_PAD },
	{ "ack-opcode", CNP4, D_ACK, 0, { { 0, 0 } }, 0, 0, PNC_E_BTH_OPCODE },
	{ "ack-syndrome", ACK4_BAD_SYN, D_ACK, 0, { { 0, 0 } }, 0, 0, PNC_E_AETH_SYNDROME },
	{ "ack-payload", ACK4, D_ACK, 0, { { 0, 0 } }, +4, LENGTHS | REFIX, PNC_E_UNEXPECTED_PAYLOAD },
	{ "ack-ext-truncated", ACK4, D_ACK, 0, { { 0, 0 } }, -4, LENGTHS | REFIX, PNC_E_EXT_TRUNCATED },
	{ "data-opcode", CNP4, D_RC_DATA, 0, { { 0, 0 } }, 0, 0, PNC_E_BTH_OPCODE },
	{ "data-reth-truncated",
	  WRITE4,
	  D_RC_DATA,
	  0,
	  { { 0, 0 } },
	  -8,
	  LENGTHS | REFIX,
	  PNC_E_EXT_TRUNCATED },
};

static size_t build_base(enum base b, uint8_t *buf)
{
	struct pnc_ip_udp ip;
	size_t n = 0;

	switch (b) {
	case CNP4:
		return build_vector_cnp(4, buf);
	case CNP6:
		return build_vector_cnp(6, buf);
	case WRITE4:
		return build_write_first(4, buf, 0);
	case CNP4_BODY20: {
		static const uint8_t body[20];
		struct pnc_bth bth = { .opcode = PNC_OP_CNP, .pkey = 0xffff, .becn = true };

		vector_ip(&ip, 4);
		assert_int_equal(pnc_roce_encode(&ip, &bth, body, 20, buf, 256, &n), PNC_OK);
		return n;
	}
	case ACK4:
	case ACK4_BAD_SYN: {
		struct pnc_rc_ack a = { 0 };

		vector_ip(&a.ip, 4);
		a.bth.opcode = PNC_OP_RC_ACK;
		a.aeth.syndrome = b == ACK4 ? 0x1f : 0x40;
		assert_int_equal(pnc_rc_ack_encode(&a, buf, 256, &n), PNC_OK);
		return n;
	}
	}
	return 0;
}

static int run_decoder(enum decoder d, const uint8_t *buf, size_t len)
{
	struct pnc_roce_view v;
	struct pnc_cnp cnp;
	struct pnc_rc_data data;
	struct pnc_rc_ack ack;

	switch (d) {
	case D_PARSE:
		return pnc_roce_parse(buf, len, 0, &v);
	case D_CNP:
		return pnc_cnp_decode(buf, len, &cnp);
	case D_RC_DATA:
		return pnc_rc_data_decode(buf, len, &data);
	case D_ACK:
		return pnc_rc_ack_decode(buf, len, &ack);
	}
	return 1;
}

static void test_rejects(void **state)
{
	bool seen[PNC_CODEC_NERR] = { false };
	uint8_t buf[256];
	size_t i, k, n;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rejects); i++) {
		const struct reject *r = &rejects[i];

		print_message("  %s -> %s\n", r->name, pnc_codec_strerror(r->expect));
		memset(buf, 0, sizeof(buf));
		n = build_base(r->base, buf);
		/* the base packet itself is valid for its decoder's family */
		assert_int_equal(pnc_roce_parse(buf, n, 0, &(struct pnc_roce_view){ 0 }), PNC_OK);
		n = (size_t)((long)n + r->len_delta);
		if (r->fix & LENGTHS)
			set_lengths(buf, n);
		for (k = 0; k < r->n_edits; k++)
			buf[r->edits[k].off] = r->edits[k].val;
		if (r->fix & REFIX)
			refix(buf, n);
		assert_int_equal(run_decoder(r->dec, buf, n), r->expect);
		seen[-r->expect] = true;
	}
	/* every reason a RoCE decoder can give has a row above */
	for (k = -PNC_E_IP_TRUNCATED; k <= -PNC_E_ICRC; k++)
		if (!seen[k])
			fail_msg("no reject case for %s", pnc_codec_strerror(-(int)k));
}

static void test_strerror(void **state)
{
	int i, j;

	(void)state;
	assert_string_equal(pnc_codec_strerror(PNC_OK), "ok");
	assert_string_equal(pnc_codec_strerror(1), "unknown");
	assert_string_equal(pnc_codec_strerror(-PNC_CODEC_NERR), "unknown");
	assert_string_equal(pnc_codec_strerror(PNC_E_ICRC), "icrc-mismatch");
	/* all names present, distinct, and usable as counter names */
	for (i = 1; i < PNC_CODEC_NERR; i++) {
		const char *s = pnc_codec_strerror(-i);

		assert_string_not_equal(s, "unknown");
		assert_null(strpbrk(s, " _ABCDEFGHIJKLMNOPQRSTUVWXYZ"));
		for (j = 0; j < i; j++)
			assert_string_not_equal(s, pnc_codec_strerror(-j));
	}
}

/* A UDP datagram in an Ethernet frame, as AF_XDP hands it over. */
static size_t udp_frame(uint8_t *f, size_t size, uint8_t version, bool vlan, size_t *l3)
{
	static const uint8_t payload[] = { 0x20, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06 };
	struct pnc_ip_udp ip = {
		.version = version,
		.ttl = 64,
		.sport = 40000,
		.dport = 61791,
		.udp_csum = true,
	};
	size_t hlen, total, off = vlan ? 18 : 14;

	memset(f, 0, size);
	f[12] = vlan ? 0x81 : (version == 4 ? 0x08 : 0x86);
	f[13] = vlan ? 0x00 : (version == 4 ? 0x00 : 0xdd);
	if (vlan) {
		f[15] = 7;
		f[16] = version == 4 ? 0x08 : 0x86;
		f[17] = version == 4 ? 0x00 : 0xdd;
	}
	memset(ip.src, 0x0a, 4);
	memset(ip.dst, 0x0b, 4);
	if (version == 6) {
		ip.src[0] = ip.dst[0] = 0x20;
		ip.src[15] = 1;
		ip.dst[15] = 2;
	}
	assert_int_equal(pnc_ipudp_write(&ip, sizeof(payload), f + off, size - off, &hlen, &total),
			 PNC_OK);
	memcpy(f + off + hlen, payload, sizeof(payload));
	pnc_ipudp_finish(&ip, f + off, total);
	*l3 = off;
	return off + total;
}

static void test_udp_datagram_parse(void **state)
{
	struct pnc_udp_view v;
	uint8_t f[128];
	size_t l3, len;

	for (uint8_t version = 4; version <= 6; version += 2) {
		for (int vlan = 0; vlan < 2; vlan++) {
			size_t off = 0;

			len = udp_frame(f, sizeof(f), version, vlan, &l3);
			assert_int_equal(pnc_eth_l3(f, len, &off), version == 4 ? 0x0800 : 0x86dd);
			assert_int_equal(off, l3);
			assert_int_equal(pnc_ipudp_parse(f + l3, len - l3, 0, &v), PNC_OK);
			assert_int_equal(v.ip.version, version);
			assert_int_equal(v.ip.sport, 40000);
			assert_int_equal(v.ip.dport, 61791);
			assert_true(v.ip.udp_csum);
			assert_int_equal(v.payload_len, 7);
			assert_int_equal(v.payload[0], 0x20);
			assert_ptr_equal(v.payload, f + l3 + v.ip_hlen + 8);
			/* Link padding after the datagram is not part of it. */
			assert_int_equal(pnc_ipudp_parse(f + l3, len - l3 + 8, 0, &v), PNC_OK);
			assert_int_equal(v.payload_len, 7);
			/* Cut short, or a UDP length the IP header disagrees with. */
			assert_int_equal(pnc_ipudp_parse(f + l3, len - l3 - 1, 0, &v),
					 PNC_E_IP_TRUNCATED);
			f[l3 + v.ip_hlen + 5]++;
			assert_int_equal(pnc_ipudp_parse(f + l3, len - l3, 0, &v), PNC_E_UDP_LEN);
			f[l3 + v.ip_hlen + 5]--;
			/* A checksum left to offload: refused unless told not to check. */
			f[len - 1] ^= 0xff;
			assert_int_equal(pnc_ipudp_parse(f + l3, len - l3, 0, &v),
					 PNC_E_UDP_CHECKSUM);
			assert_int_equal(pnc_ipudp_parse(f + l3, len - l3, PNC_IPUDP_F_NO_CSUM, &v),
					 PNC_OK);
		}
	}
	/* Too short for an Ethernet header, or for its tag. */
	assert_int_equal(pnc_eth_l3(f, 13, &l3), 0);
	len = udp_frame(f, sizeof(f), 4, true, &l3);
	assert_int_equal(pnc_eth_l3(f, 17, &l3), 0);
	(void)state;
}

static void test_eth_write(void **state)
{
	const uint8_t dst[6] = { 2, 0, 0, 0, 0, 0x22 }, src[6] = { 2, 0, 0, 0, 0, 0x11 };
	const uint8_t want4[PNC_ETH_HLEN] = { 2, 0, 0, 0, 0, 0x22, 2, 0, 0, 0, 0, 0x11, 0x08, 0x00 };
	uint8_t f[PNC_ETH_HLEN + 1] = {};
	size_t l3 = 0;

	pnc_eth_write(f, dst, src, 4);
	assert_memory_equal(f, want4, sizeof(want4));
	pnc_eth_write(f, dst, src, 6);
	assert_int_equal(f[12], 0x86);
	assert_int_equal(f[13], 0xdd);
	assert_int_equal(pnc_eth_l3(f, sizeof(f), &l3), 0x86dd);
	assert_int_equal(l3, PNC_ETH_HLEN);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bth_round_trip),
		cmocka_unit_test(test_bth_errors),
		cmocka_unit_test(test_ext_headers),
		cmocka_unit_test(test_aeth_syndromes),
		cmocka_unit_test(test_ext_len),
		cmocka_unit_test(test_cnp_vectors),
		cmocka_unit_test(test_cnp_fields),
		cmocka_unit_test(test_cnp_ipv4_checksum),
		cmocka_unit_test(test_cnp_encode_errors),
		cmocka_unit_test(test_udp_csum_zero),
		cmocka_unit_test(test_rc_data_round_trip),
		cmocka_unit_test(test_rc_data_errors),
		cmocka_unit_test(test_rc_ack_round_trip),
		cmocka_unit_test(test_parse_view),
		cmocka_unit_test(test_parse_unknown_opcode),
		cmocka_unit_test(test_rejects),
		cmocka_unit_test(test_strerror),
		cmocka_unit_test(test_udp_datagram_parse),
		cmocka_unit_test(test_eth_write),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
