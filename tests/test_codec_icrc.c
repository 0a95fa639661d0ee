// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for CRC-32 and the RoCEv2 ICRC (cnpproxyd/codec/icrc.c):
 * the test vectors of doc/wire-formats.md 3.3 for IPv4 and IPv6, the masked
 * fields of 3.1 (changing them keeps the ICRC, flipping any other bit
 * breaks it), and the rejected inputs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "codec/icrc.h"
#include "codec_test_util.h"

/* doc/wire-formats.md 3.3, IPv4: from the IP header, without the ICRC. */
static const char *const vec4_hex = "45c0003c000040004011b5edc0000201c0000202"
				    "c00012b700280000"
				    "8100ffff4000012300000000"
				    "00000000000000000000000000000000";
static const uint8_t vec4_icrc[4] = { 0x70, 0x19, 0x9d, 0x9a };

/* IPv6: 2001:db8::1 -> 2001:db8::2, TC 0xC0, FL 0, hop limit 64. */
static const char *const vec6_hex = "6c000000 0028 11 40"
				    "20010db8000000000000000000000001"
				    "20010db8000000000000000000000002"
				    "c00012b700280000"
				    "8100ffff4000012300000000"
				    "00000000000000000000000000000000";
static const uint8_t vec6_icrc[4] = { 0x92, 0x8f, 0xe0, 0x39 };

/* Loads a vector plus room for the ICRC; returns the full length. */
static size_t load(const char *hex, uint8_t *pkt)
{
	size_t n = hex2bin(hex, pkt, 128);

	memset(pkt + n, 0, 4);
	return n + 4;
}

/* Bitwise CRC-32, the reference for the table-driven one. */
static uint32_t crc32_bitwise(const uint8_t *p, size_t len)
{
	uint32_t c = 0xffffffff;
	int k;

	while (len--) {
		c ^= *p++;
		for (k = 0; k < 8; k++)
			c = (c >> 1) ^ (c & 1 ? 0xedb88320 : 0);
	}
	return ~c;
}

static void test_crc32_known(void **state)
{
	static const uint8_t ones[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

	(void)state;
	assert_int_equal(pnc_crc32(0, (const uint8_t *)"123456789", 9), 0xcbf43926);
	assert_int_equal(pnc_crc32(0, NULL, 0), 0);
	assert_int_equal(pnc_crc32(0, (const uint8_t *)"a", 1), 0xe8b7be43);
	/* 3.1: after the 8 x 0xFF prefix the register holds 0xDEBB20E3 */
	assert_int_equal(~pnc_crc32(0, ones, 8), 0xdebb20e3);
}

static void test_crc32_table_and_chaining(void **state)
{
	uint8_t buf[1000];
	size_t i, cut;

	(void)state;
	srand(7);
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)rand();
	for (i = 0; i <= sizeof(buf); i += 37)
		assert_int_equal(pnc_crc32(0, buf, i), crc32_bitwise(buf, i));
	for (cut = 0; cut <= 300; cut += 13)
		assert_int_equal(pnc_crc32(pnc_crc32(0, buf, cut), buf + cut, 300 - cut),
				 crc32_bitwise(buf, 300));
}

struct vector {
	const char *name;
	const char *hex;
	const uint8_t *wire;
	uint32_t value;
	size_t len; /* with the ICRC */
};

static const struct vector vectors[] = {
	{ "ipv4", vec4_hex, vec4_icrc, 0x9a9d1970, 60 },
	{ "ipv6", vec6_hex, vec6_icrc, 0x39e08f92, 80 },
};

static void test_vectors(void **state)
{
	uint8_t pkt[140];
	uint32_t icrc;
	size_t i, len;

	(void)state;
	for (i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
		const struct vector *v = &vectors[i];

		len = load(v->hex, pkt);
		assert_int_equal(len, v->len);
		assert_int_equal(pnc_icrc_compute(pkt, len - 4, &icrc), PNC_OK);
		assert_int_equal(icrc, v->value);
		assert_int_equal(pnc_icrc_verify(pkt, len), PNC_E_ICRC);
		assert_int_equal(pnc_icrc_write(pkt, len), PNC_OK);
		assert_memory_equal(pkt + len - 4, v->wire, 4);
		assert_int_equal(pnc_icrc_verify(pkt, len), PNC_OK);
	}
}

/* The octets and bits 3.1 masks, per IP version (offsets from IP). */
static uint8_t masked_bits(int version, size_t off)
{
	if (version == 4) {
		switch (off) {
		case 1:	 /* TOS */
		case 8:	 /* TTL */
		case 10: /* IP checksum */
		case 11:
		case 26: /* UDP checksum */
		case 27:
		case 32: /* BTH octet 4 */
			return 0xff;
		}
		return 0;
	}
	switch (off) {
	case 0:
		return 0x0f; /* traffic class, high nibble */
	case 1:
	case 2:
	case 3:	 /* traffic class and flow label */
	case 7:	 /* hop limit */
	case 46: /* UDP checksum */
	case 47:
	case 52: /* BTH octet 4 */
		return 0xff;
	}
	return 0;
}

/* Every single-bit flip: masked bits keep the ICRC, all others break it. */
static void test_every_bit(void **state)
{
	uint8_t pkt[140];
	size_t i, off, len;
	int bit;

	(void)state;
	for (i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
		int version = i == 0 ? 4 : 6;

		len = load(vectors[i].hex, pkt);
		pnc_icrc_write(pkt, len);
		for (off = 0; off < len; off++) {
			for (bit = 0; bit < 8; bit++) {
				uint8_t m = (uint8_t)(1 << bit);
				int ret;

				pkt[off] ^= m;
				ret = pnc_icrc_verify(pkt, len);
				pkt[off] ^= m;
				if (masked_bits(version, off) & m)
					assert_int_equal(ret, PNC_OK);
				else
					assert_int_not_equal(ret, PNC_OK);
			}
		}
		assert_int_equal(pnc_icrc_verify(pkt, len), PNC_OK);
	}
}

/* Rewriting every masked field at once, as routers may, keeps the ICRC. */
static void test_router_rewrites(void **state)
{
	uint8_t pkt[140];
	size_t len;

	(void)state;
	len = load(vec4_hex, pkt);
	pnc_icrc_write(pkt, len);
	pkt[1] = 0x03; /* DSCP 0, CE */
	pkt[8] = 1;    /* TTL */
	fix_ipv4_csum(pkt);
	pkt[26] = 0x12; /* UDP checksum */
	pkt[32] = 0xe0; /* FECN, BECN, E-bit */
	assert_int_equal(pnc_icrc_verify(pkt, len), PNC_OK);

	len = load(vec6_hex, pkt);
	pnc_icrc_write(pkt, len);
	pkt[0] = 0x60;
	pkt[1] = 0x3a; /* traffic class 0x03, flow label 0xabcde */
	pkt[2] = 0xbc;
	pkt[3] = 0xde;
	pkt[7] = 3;
	pkt[52] = 0x80;
	assert_int_equal(pnc_icrc_verify(pkt, len), PNC_OK);
}

#define NOEDIT SIZE_MAX
#define FULL   SIZE_MAX

struct reject {
	const char *name;
	const char *hex; /* base vector */
	size_t off;	 /* octet to set, or NOEDIT */
	uint8_t val;
	size_t len; /* length given to compute(), or FULL */
	int expect;
};

static const struct reject rejects[] = {
	{ "empty", vec4_hex, NOEDIT, 0, 0, PNC_E_IP_TRUNCATED },
	{ "ipv4-short", vec4_hex, NOEDIT, 0, 19, PNC_E_IP_TRUNCATED },
	{ "ipv6-short", vec6_hex, NOEDIT, 0, 39, PNC_E_IP_TRUNCATED },
	{ "version-5", vec4_hex, 0, 0x55, FULL, PNC_E_IP_VERSION },
	{ "ihl-4", vec4_hex, 0, 0x44, FULL, PNC_E_IP_HDR_LEN },
	{ "ihl-6", vec4_hex, 0, 0x46, FULL, PNC_E_IP_OPTIONS },
	{ "ipv4-tcp", vec4_hex, 9, 6, FULL, PNC_E_IP_NOT_UDP },
	{ "ipv6-ext-hdr", vec6_hex, 6, 0, FULL, PNC_E_IP_NOT_UDP },
	{ "ipv4-no-bth", vec4_hex, NOEDIT, 0, 39, PNC_E_BTH_TRUNCATED },
	{ "ipv6-no-bth", vec6_hex, NOEDIT, 0, 59, PNC_E_BTH_TRUNCATED },
};

static void test_rejects(void **state)
{
	uint8_t pkt[140];
	uint32_t icrc;
	size_t i, len;

	(void)state;
	for (i = 0; i < sizeof(rejects) / sizeof(rejects[0]); i++) {
		const struct reject *r = &rejects[i];

		len = load(r->hex, pkt) - 4;
		if (r->off != NOEDIT)
			pkt[r->off] = r->val;
		if (r->len != FULL)
			len = r->len;
		print_message("  %s\n", r->name);
		assert_int_equal(pnc_icrc_compute(pkt, len, &icrc), r->expect);
	}
	assert_int_equal(pnc_icrc_verify(pkt, 3), PNC_E_ICRC_TRUNCATED);
	assert_int_equal(pnc_icrc_write(pkt, 3), PNC_E_ICRC_TRUNCATED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc32_known),
		cmocka_unit_test(test_crc32_table_and_chaining),
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_every_bit),
		cmocka_unit_test(test_router_rewrites),
		cmocka_unit_test(test_rejects),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
