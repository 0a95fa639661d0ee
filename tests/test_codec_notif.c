// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the congested node -> proxy messages
 * (cnpproxyd/codec/notif.c): the seed 002 notification in the v1 layout
 * of doc/wire-formats.md 6.2 (IPv4 and IPv6 round trips, octet layout,
 * truncation of the invoking packet, every rejection, finding the BTH
 * in the invoking packet), its ICMP / ICMPv6 form of 6.5 and the seed 001
 * flow-label FCN of 6.3.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "codec/notif.h"
#include "codec_test_util.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static uint8_t invoking[2000];

static void init_invoking(void)
{
	size_t i;

	for (i = 0; i < sizeof(invoking); i++)
		invoking[i] = (uint8_t)(i * 31 + 7);
}

struct rt_case {
	const char *name;
	uint8_t af;
	uint8_t carrier;
	uint8_t cl;
	uint8_t start;
	size_t inv_len;	 /* given to the encoder */
	size_t kept_len; /* expected in the message */
};

static const struct rt_case rt_cases[] = {
	{ "v4-no-invoking", 4, 4, 0, 0, 0, 0 },
	{ "v4-cl7-small", 4, 4, 7, 0, 64, 64 },
	{ "v4-exact-fit", 4, 4, 3, 1, 548 - 16, 548 - 16 },
	{ "v4-cut-576", 4, 4, 5, 0, 2000, 548 - 16 },
	{ "v4-over-v6-carrier", 4, 6, 1, 2, 2000, 1232 - 16 },
	{ "v6-no-invoking", 6, 6, 2, 0, 0, 0 },
	{ "v6-small", 6, 6, 4, 1, 1, 1 },
	{ "v6-cut-1280", 6, 6, 6, 0, 2000, 1232 - 40 },
	{ "v6-over-v4-carrier", 6, 4, 0, 0, 2000, 548 - 40 },
	{ "v6-exact-fit", 6, 6, 7, 2, 1232 - 40, 1232 - 40 },
};

static void fill_notif(const struct rt_case *c, struct pnc_notif *n)
{
	size_t i;

	memset(n, 0, sizeof(*n));
	n->af = c->af;
	n->carrier_af = c->carrier;
	n->protocol = 17;
	n->cl = c->cl;
	n->start = c->start;
	n->sport = 0xc123;
	n->dport = 4791;
	for (i = 0; i < (c->af == 4 ? 4u : 16u); i++) {
		n->src[i] = (uint8_t)(0x10 + i);
		n->dst[i] = (uint8_t)(0xa0 + i);
	}
	n->invoking = c->inv_len ? invoking : NULL;
	n->invoking_len = c->inv_len;
}

static void test_round_trip(void **state)
{
	uint8_t buf[1500];
	size_t i, n, hlen, alen;

	(void)state;
	init_invoking();
	for (i = 0; i < ARRAY_SIZE(rt_cases); i++) {
		const struct rt_case *c = &rt_cases[i];
		struct pnc_notif in, out;

		print_message("  %s\n", c->name);
		fill_notif(c, &in);
		assert_int_equal(pnc_notif_encode(&in, buf, sizeof(buf), &n), PNC_OK);
		hlen = c->af == 4 ? 16 : 40;
		alen = c->af == 4 ? 4 : 16;
		assert_int_equal(n, hlen + c->kept_len);
		assert_true(n <= (c->carrier == 4 ? 576u - 28 : 1280u - 48));

		/* 6.2 octet by octet */
		assert_int_equal(buf[0], 0x10 | c->af);
		assert_int_equal(buf[1], 17);
		assert_int_equal(buf[2], c->cl << 5 | (c->kept_len ? 0x10 : 0));
		assert_int_equal(buf[3], c->start);
		assert_int_equal(buf[4] << 8 | buf[5], 0xc123);
		assert_int_equal(buf[6] << 8 | buf[7], 4791);
		assert_memory_equal(buf + 8, in.src, alen);
		assert_memory_equal(buf + 8 + alen, in.dst, alen);
		assert_memory_equal(buf + hlen, invoking, c->kept_len);

		memset(&out, 0x5a, sizeof(out));
		assert_int_equal(pnc_notif_decode(buf, n, &out), PNC_OK);
		assert_int_equal(out.af, c->af);
		assert_int_equal(out.protocol, 17);
		assert_int_equal(out.cl, c->cl);
		assert_int_equal(out.start, c->start);
		assert_int_equal(out.sport, 0xc123);
		assert_int_equal(out.dport, 4791);
		assert_memory_equal(out.src, in.src, alen);
		assert_memory_equal(out.dst, in.dst, alen);
		assert_int_equal(out.invoking_len, c->kept_len);
		assert_int_equal(out.carrier_af, 0);
		if (c->kept_len)
			assert_ptr_equal(out.invoking, buf + hlen);
		else
			assert_null(out.invoking);
	}
}

static void test_encode_errors(void **state)
{
	struct pnc_notif n;
	uint8_t buf[1500];
	size_t len = 77;

	(void)state;
	init_invoking();
	fill_notif(&rt_cases[1], &n);
	assert_int_equal(pnc_notif_encode(&n, buf, 16 + 63, &len), PNC_E_BUF_TOO_SMALL);
	assert_int_equal(len, 77);
	assert_int_equal(pnc_notif_encode(&n, buf, 16 + 64, &len), PNC_OK);
	n.af = 5;
	assert_int_equal(pnc_notif_encode(&n, buf, sizeof(buf), NULL), PNC_E_INVALID_ARG);
	fill_notif(&rt_cases[1], &n);
	n.cl = 8;
	assert_int_equal(pnc_notif_encode(&n, buf, sizeof(buf), NULL), PNC_E_INVALID_ARG);
	fill_notif(&rt_cases[1], &n);
	n.start = 3;
	assert_int_equal(pnc_notif_encode(&n, buf, sizeof(buf), NULL), PNC_E_INVALID_ARG);
	fill_notif(&rt_cases[1], &n);
	n.carrier_af = 0;
	assert_int_equal(pnc_notif_encode(&n, buf, sizeof(buf), NULL), PNC_E_INVALID_ARG);
	fill_notif(&rt_cases[1], &n);
	n.invoking = NULL;
	assert_int_equal(pnc_notif_encode(&n, buf, sizeof(buf), NULL), PNC_E_INVALID_ARG);
}

struct reject {
	const char *name;
	const char *hex;
	size_t extra; /* zero octets appended */
	int expect;
};

#define V4_PLAIN "14 11 a0 00 c000 12b7 c0000201 c0000202"
#define V4_INV	 "14 11 b0 00 c000 12b7 c0000201 c0000202"
#define V6_PLAIN                                                                                  \
	"16 11 e0 01 c000 12b7 20010db8000000000000000000000001 20010db8000000000000000000000002"

static const struct reject rejects[] = {
	{ "empty", "", 0, PNC_E_NOTIF_TRUNCATED },
	{ "version-0", "04 11 a0 00", 12, PNC_E_NOTIF_VERSION },
	{ "version-2", "24 11 a0 00", 12, PNC_E_NOTIF_VERSION },
	{ "af-0", "10 11 a0 00", 12, PNC_E_NOTIF_AF },
	{ "af-5", "15 11 a0 00", 12, PNC_E_NOTIF_AF },
	{ "v4-short", "14 11 a0 00 c000 12b7 c0000201 c00002", 0, PNC_E_NOTIF_TRUNCATED },
	{ "v6-short", "16 11 a0 00 c000 12b7 20010db8000000000000000000000001", 15,
	  PNC_E_NOTIF_TRUNCATED },
	{ "v6-header-as-v4", "16 11 a0 00 c000 12b7 c0000201 c0000202", 0, PNC_E_NOTIF_TRUNCATED },
	{ "start-3", "14 11 a0 03 c000 12b7 c0000201 c0000202", 0, PNC_E_NOTIF_START },
	{ "start-ff", "14 11 b0 ff c000 12b7 c0000201 c0000202", 8, PNC_E_NOTIF_START },
	{ "invoking-missing", V4_INV, 0, PNC_E_NOTIF_INVOKING_MISSING },
	{ "trailing", V4_PLAIN, 1, PNC_E_NOTIF_TRAILING },
	{ "v6-trailing", V6_PLAIN, 4, PNC_E_NOTIF_TRAILING },
	{ "too-long", V4_INV, 1232 - 16 + 1, PNC_E_NOTIF_TOO_LONG },
};

static void test_rejects(void **state)
{
	uint8_t buf[1500];
	struct pnc_notif out;
	size_t i, n;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(rejects); i++) {
		const struct reject *r = &rejects[i];

		print_message("  %s -> %s\n", r->name, pnc_codec_strerror(r->expect));
		memset(buf, 0, sizeof(buf));
		n = hex2bin(r->hex, buf, sizeof(buf)) + r->extra;
		assert_int_equal(pnc_notif_decode(buf, n, &out), r->expect);
	}
}

/* Accepted edge cases: reserved bits ignored, the largest message. */
static void test_accepts(void **state)
{
	uint8_t buf[1500];
	struct pnc_notif out;
	size_t n;

	(void)state;
	memset(buf, 0, sizeof(buf));
	n = hex2bin("14 06 ef 00 0050 1f90 c0000201 c0000202", buf, sizeof(buf));
	assert_int_equal(pnc_notif_decode(buf, n, &out), PNC_OK);
	assert_int_equal(out.cl, 7);
	assert_int_equal(out.protocol, 6);
	assert_int_equal(out.invoking_len, 0);
	n = hex2bin(V4_INV, buf, sizeof(buf));
	assert_int_equal(pnc_notif_decode(buf, 1232, &out), PNC_OK);
	assert_int_equal(out.invoking_len, 1232 - 16);
}

/* ---- finding the BTH in the invoking packet ------------------------------ */

static size_t write_packet(uint8_t *buf)
{
	static const uint8_t payload[1024];
	struct pnc_rc_data d = { 0 };
	size_t n = 0;

	pnc_ip_udp_init(&d.ip, 4);
	d.ip.src[0] = 10;
	d.ip.src[3] = 1;
	d.ip.dst[0] = 10;
	d.ip.dst[3] = 2;
	d.ip.tos = 0x03; /* CE: the packet that met congestion */
	d.bth.opcode = PNC_OP_RC_WRITE_MIDDLE;
	d.bth.pkey = 0xffff;
	d.bth.dest_qp = 0x0000d7;
	d.bth.psn = 0x123456;
	d.payload = payload;
	d.payload_len = sizeof(payload);
	assert_int_equal(pnc_rc_data_encode(&d, buf, 1200, &n), PNC_OK);
	return n;
}

static void test_invoking_roce(void **state)
{
	uint8_t pkt[1300], msg[1500];
	struct pnc_notif n, out;
	struct pnc_roce_view v;
	size_t pkt_len, len, ip_off;

	(void)state;
	pkt_len = write_packet(pkt + 8);
	/* two MPLS labels in front, bottom of stack on the second */
	memcpy(pkt, "\x00\x01\x00\x40\x00\x02\x01\x40", 8);

	memset(&n, 0, sizeof(n));
	n.af = 4;
	n.carrier_af = 4;
	n.protocol = 17;
	n.cl = 6;
	n.sport = 0xc000;
	n.dport = 4791;
	n.invoking = pkt + 8;
	n.invoking_len = pkt_len;
	assert_int_equal(pnc_notif_encode(&n, msg, sizeof(msg), &len), PNC_OK);
	assert_int_equal(len, 548); /* cut to fit 576 octets */
	assert_int_equal(pnc_notif_decode(msg, len, &out), PNC_OK);
	assert_int_equal(pnc_notif_invoking_roce(&out, &ip_off, &v), PNC_OK);
	assert_int_equal(ip_off, 0);
	assert_true(v.truncated);
	assert_int_equal(v.ip.tos, 0x03);
	assert_int_equal(v.bth.dest_qp, 0xd7); /* the key to the sender QP (A15) */
	assert_int_equal(v.bth.psn, 0x123456);

	n.start = PNC_NOTIF_START_MPLS;
	n.invoking = pkt;
	n.invoking_len = 8 + 60;
	assert_int_equal(pnc_notif_encode(&n, msg, sizeof(msg), &len), PNC_OK);
	assert_int_equal(pnc_notif_decode(msg, len, &out), PNC_OK);
	assert_int_equal(pnc_notif_invoking_roce(&out, &ip_off, &v), PNC_OK);
	assert_int_equal(ip_off, 8);
	assert_int_equal(v.bth.dest_qp, 0xd7);

	/* no bottom of stack within the copy */
	pkt[6] = 0x00;
	n.invoking_len = 8;
	assert_int_equal(pnc_notif_encode(&n, msg, sizeof(msg), &len), PNC_OK);
	assert_int_equal(pnc_notif_decode(msg, len, &out), PNC_OK);
	assert_int_equal(pnc_notif_invoking_roce(&out, &ip_off, &v), PNC_E_MPLS_TRUNCATED);
	pkt[6] = 0x01;

	/* cut inside the BTH: the parser says so */
	n.start = PNC_NOTIF_START_INNER_IP;
	n.invoking = pkt + 8;
	n.invoking_len = 20 + 8 + 11;
	assert_int_equal(pnc_notif_encode(&n, msg, sizeof(msg), &len), PNC_OK);
	assert_int_equal(pnc_notif_decode(msg, len, &out), PNC_OK);
	assert_int_equal(pnc_notif_invoking_roce(&out, &ip_off, &v), PNC_E_BTH_TRUNCATED);

	n.invoking_len = 0;
	assert_int_equal(pnc_notif_encode(&n, msg, sizeof(msg), &len), PNC_OK);
	assert_int_equal(pnc_notif_decode(msg, len, &out), PNC_OK);
	assert_int_equal(pnc_notif_invoking_roce(&out, &ip_off, &v), PNC_E_NOTIF_NO_INVOKING);

	/* a start type the decoder would refuse, set by hand */
	out.invoking = pkt;
	out.invoking_len = 40;
	out.start = 9;
	assert_int_equal(pnc_notif_invoking_roce(&out, &ip_off, &v), PNC_E_NOTIF_START);
}

/* ---- seed 001 flow-label FCN -------------------------------------------------- */

struct fcn_case {
	uint32_t fl;
	uint8_t cl;
	const char *wire;
};

static const struct fcn_case fcn_cases[] = {
	{ 0x12345, 5, "12 34 5a 00" }, /* the example of 6.3 */
	{ 0x00001, 0, "00 00 10 00" },
	{ 0xfffff, 7, "ff ff fe 00" },
	{ 0x80000, 1, "80 00 02 00" },
};

/* RFC 1071 over the octets given, plus an optional IPv6 pseudo header. */
static uint16_t ref_csum(const uint8_t *src6, const uint8_t *dst6, const uint8_t *p, size_t len)
{
	uint32_t sum = 0;
	size_t i;

	if (src6) {
		for (i = 0; i < 16; i += 2)
			sum += (uint32_t)(src6[i] << 8 | src6[i + 1]) +
			       (uint32_t)(dst6[i] << 8 | dst6[i + 1]);
		sum += (uint32_t)len + 58;
	}
	for (i = 0; i < len; i += 2)
		sum += (uint32_t)p[i] << 8 | (i + 1 < len ? p[i + 1] : 0);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

/* 6.5: header, then the UDP form's payload unchanged; same size limits. */
static void test_icmp_round_trip(void **state)
{
	static const uint8_t s6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
	static const uint8_t d6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 };
	uint8_t buf[1500], udp[1500];
	size_t i, n, un;

	(void)state;
	init_invoking();
	for (i = 0; i < ARRAY_SIZE(rt_cases); i++) {
		const struct rt_case *c = &rt_cases[i];
		struct pnc_notif_icmp ic = { .version = c->carrier };
		struct pnc_notif in, out;

		print_message("  icmp %s\n", c->name);
		fill_notif(c, &in);
		ic.type = c->carrier == 4 ? PNC_NOTIF_ICMP_TYPE : PNC_NOTIF_ICMP6_TYPE;
		ic.src6 = c->carrier == 6 ? s6 : NULL;
		ic.dst6 = c->carrier == 6 ? d6 : NULL;
		/* The carrier comes from the ICMP version, whatever the caller set. */
		in.carrier_af = c->carrier == 4 ? 6 : 4;
		assert_int_equal(pnc_notif_icmp_encode(&ic, &in, buf, sizeof(buf), &n), PNC_OK);
		in.carrier_af = c->carrier;
		assert_int_equal(pnc_notif_encode(&in, udp, sizeof(udp), &un), PNC_OK);
		assert_int_equal(n, 8 + un);
		assert_int_equal(buf[0], ic.type);
		assert_int_equal(buf[1], 0);
		assert_int_equal(buf[4] | buf[5] | buf[6] | buf[7], 0);
		assert_memory_equal(buf + 8, udp, un);
		assert_int_equal(ref_csum(ic.src6, ic.dst6, buf, n), 0xffff);

		assert_int_equal(pnc_notif_icmp_decode(&ic, buf, n, &out), PNC_OK);
		assert_int_equal(out.cl, c->cl);
		assert_int_equal(out.invoking_len, c->kept_len);
		/* Without addresses: checksum left to the kernel both ways. */
		if (c->carrier == 6) {
			ic.src6 = ic.dst6 = NULL;
			assert_int_equal(pnc_notif_icmp_encode(&ic, &in, buf, sizeof(buf), &n),
					 PNC_OK);
			assert_int_equal(buf[2] | buf[3], 0);
			assert_int_equal(pnc_notif_icmp_decode(&ic, buf, n, &out), PNC_OK);
		}
	}
}

/* A valid ICMPv4 checksum over the first len octets. */
static void icmp4_fix(uint8_t *buf, size_t len)
{
	uint16_t c;

	buf[2] = buf[3] = 0;
	c = (uint16_t)~ref_csum(NULL, NULL, buf, len);
	buf[2] = (uint8_t)(c >> 8);
	buf[3] = (uint8_t)c;
}

static void test_icmp_rejects(void **state)
{
	struct pnc_notif_icmp ic4 = { .version = 4, .type = PNC_NOTIF_ICMP_TYPE };
	struct pnc_notif_icmp bad = { .version = 5, .type = 1 };
	struct pnc_notif in, out;
	uint8_t buf[600], good[600];
	size_t n;

	(void)state;
	init_invoking();
	fill_notif(&rt_cases[1], &in);
	assert_int_equal(pnc_notif_icmp_encode(&bad, &in, buf, sizeof(buf), &n), PNC_E_INVALID_ARG);
	assert_int_equal(pnc_notif_icmp_encode(&ic4, &in, buf, 7, &n), PNC_E_BUF_TOO_SMALL);
	assert_int_equal(pnc_notif_icmp_encode(&ic4, &in, buf, 8 + 16, &n), PNC_E_BUF_TOO_SMALL);
	assert_int_equal(pnc_notif_icmp_encode(&ic4, &in, good, sizeof(good), &n), PNC_OK);

	assert_int_equal(pnc_notif_icmp_decode(&ic4, good, 7, &out), PNC_E_NOTIF_TRUNCATED);
	memcpy(buf, good, n);
	buf[0] = 254;
	assert_int_equal(pnc_notif_icmp_decode(&ic4, buf, n, &out), PNC_E_NOTIF_ICMP_TYPE);
	memcpy(buf, good, n);
	buf[1] = 1;
	assert_int_equal(pnc_notif_icmp_decode(&ic4, buf, n, &out), PNC_E_NOTIF_ICMP_CODE);
	memcpy(buf, good, n);
	buf[20] ^= 0x40;
	assert_int_equal(pnc_notif_icmp_decode(&ic4, buf, n, &out), PNC_E_NOTIF_ICMP_CHECKSUM);
	/* Reserved octets: ignored (the checksum must still match them). */
	memcpy(buf, good, n);
	buf[4] = 0x12;
	icmp4_fix(buf, n);
	assert_int_equal(pnc_notif_icmp_decode(&ic4, buf, n, &out), PNC_OK);
	/* The body's own checks still apply. */
	memcpy(buf, good, n);
	buf[8] = 0x24;
	icmp4_fix(buf, n);
	assert_int_equal(pnc_notif_icmp_decode(&ic4, buf, n, &out), PNC_E_NOTIF_VERSION);
	icmp4_fix(buf, 8);
	assert_int_equal(pnc_notif_icmp_decode(&ic4, buf, 8, &out), PNC_E_NOTIF_TRUNCATED);
}

static void test_fcn_round_trip(void **state)
{
	uint8_t buf[8], want[4];
	struct pnc_fcn out;
	size_t i, n;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(fcn_cases); i++) {
		struct pnc_fcn in = { fcn_cases[i].fl, fcn_cases[i].cl };

		hex2bin(fcn_cases[i].wire, want, sizeof(want));
		assert_int_equal(pnc_fcn_encode(&in, buf, sizeof(buf), &n), PNC_OK);
		assert_int_equal(n, 4);
		assert_memory_equal(buf, want, 4);
		assert_int_equal(pnc_fcn_decode(buf, 4, &out), PNC_OK);
		assert_int_equal(out.flow_label, in.flow_label);
		assert_int_equal(out.cl, in.cl);
	}
	/* reserved bits: ignored on receipt */
	hex2bin("12 34 5b ff", buf, sizeof(buf));
	assert_int_equal(pnc_fcn_decode(buf, 4, &out), PNC_OK);
	assert_int_equal(out.flow_label, 0x12345);
	assert_int_equal(out.cl, 5);
}

static void test_fcn_errors(void **state)
{
	static const struct pnc_fcn bad[] = { { 0, 1 }, { 0x100000, 1 }, { 1, 8 } };
	uint8_t buf[8] = { 0x12, 0x34, 0x5a, 0x00 };
	struct pnc_fcn out, ok = { 1, 1 };
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		assert_int_equal(pnc_fcn_encode(&bad[i], buf + 4, 4, NULL), PNC_E_INVALID_ARG);
	assert_int_equal(pnc_fcn_encode(&ok, buf + 4, 3, NULL), PNC_E_BUF_TOO_SMALL);
	assert_int_equal(pnc_fcn_decode(buf, 0, &out), PNC_E_FCN_TRUNCATED);
	assert_int_equal(pnc_fcn_decode(buf, 3, &out), PNC_E_FCN_TRUNCATED);
	assert_int_equal(pnc_fcn_decode(buf, 5, &out), PNC_E_FCN_TRAILING);
	memcpy(buf, "\x00\x00\x0a\x00", 4);
	assert_int_equal(pnc_fcn_decode(buf, 4, &out), PNC_E_FCN_ZERO_LABEL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),    cmocka_unit_test(test_encode_errors),
		cmocka_unit_test(test_rejects),	      cmocka_unit_test(test_accepts),
		cmocka_unit_test(test_invoking_roce), cmocka_unit_test(test_fcn_round_trip),
		cmocka_unit_test(test_fcn_errors),    cmocka_unit_test(test_icmp_round_trip),
		cmocka_unit_test(test_icmp_rejects),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
