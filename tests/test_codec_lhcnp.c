// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the sender-native formats beyond the standard CNP:
 * Long-haul CNP in its ICMPv6 and RoCEv2 forms (cnpproxyd/codec/lhcnp.c,
 * doc/wire-formats.md 7.2, 7.3) and SCONE rate advice
 * (cnpproxyd/codec/ratead.c, 7.4): octet layout, both checksums of the
 * ICMPv6 form (ICMPv6 and RFC 4884), round trips, what a receiver that
 * ignores the E bit sees, every rejection.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "codec/lhcnp.h"
#include "codec/ratead.h"
#include "codec_test_util.h"
#include "lhcnp_sample.h"

static const uint8_t src6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 0x01 };
static const uint8_t dst6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 1, [15] = 0x02 };

/* The Internet checksum over a buffer, computed independently of the codec. */
static uint16_t sum16(const uint8_t *p, size_t len, uint32_t sum)
{
	for (size_t i = 0; i < len; i += 2)
		sum += (uint32_t)(p[i] << 8 | (i + 1 < len ? p[i + 1] : 0));
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)sum;
}

static void test_levels(void **state)
{
	(void)state;
	for (uint8_t cl = 0; cl <= 7; cl++)
		assert_int_equal(pnc_lh_level_to_cl(pnc_lh_level_from_cl(cl)), cl);
	/* Seed 002's lowest congestion is still congestion: level 1, not 0. */
	assert_int_equal(pnc_lh_level_from_cl(0), 1);
	assert_int_equal(pnc_lh_level_from_cl(4), 146);
	assert_int_equal(pnc_lh_level_from_cl(7), 255);
	assert_int_equal(pnc_lh_level_from_cl(9), 255);
	assert_int_equal(pnc_lh_level_to_cl(0), 0);
	assert_int_equal(pnc_lh_level_to_cl(1), 0);
	assert_int_equal(pnc_lh_level_to_cl(2), 1);
	assert_int_equal(pnc_lh_level_to_cl(180), 5);
	assert_int_equal(pnc_lh_level_to_cl(255), 7);
	assert_string_equal(pnc_lh_action_name(PNC_LH_PAUSE), "pause");
	assert_string_equal(pnc_lh_action_name(PNC_LH_RESUME), "resume");
}

/* Metric Type 1 in decimal kilobytes: seed 000 section 7's 130 MB is 130000. */
static void test_queue_kb(void **state)
{
	(void)state;
	assert_int_equal(pnc_lh_queue_kb(130000000ull), 130000);
	assert_int_equal(pnc_lh_queue_kb(30000000ull), 30000);
	assert_int_equal(pnc_lh_queue_kb(999), 0);
	assert_int_equal(pnc_lh_queue_kb(1000), 1);
	assert_int_equal(pnc_lh_queue_kb(0xffffffull * 1000u), 0xffffff);
	assert_int_equal(pnc_lh_queue_kb(UINT64_MAX), 0xffffff);
}

static void test_block_layout(void **state)
{
	static const uint8_t want[12] = { 218, 0x80, 0, 50, 0, 0, 0x12, 0xab, 1, 0, 0x01, 0xf4 };
	struct pnc_lh_cnp m, back;
	uint8_t buf[128];
	size_t len;

	(void)state;
	lhcnp_sample(&m, false);
	assert_int_equal(pnc_lh_body_encode(&m, buf, sizeof(buf), &len), PNC_OK);
	assert_int_equal(len, 12);
	assert_memory_equal(buf, want, 12);
	assert_int_equal(pnc_lh_body_decode(buf, len, PNC_LH_EXT_CLASS_NUM, &back), PNC_OK);
	assert_memory_equal(&back.block, &m.block, sizeof(m.block));
	assert_false(back.ext.present);

	/* Each action in bits 7-6; the reserved six bits are ignored on receipt. */
	for (uint8_t a = 0; a < 4; a++) {
		m.block.action = a;
		m.block.parameter = a == PNC_LH_PAUSE ? 2000 : 10;
		assert_int_equal(pnc_lh_body_encode(&m, buf, sizeof(buf), &len), PNC_OK);
		assert_int_equal(buf[1], a << 6);
		buf[1] |= 0x15;
		assert_int_equal(pnc_lh_body_decode(buf, len, PNC_LH_EXT_CLASS_NUM, &back), PNC_OK);
		assert_int_equal(back.block.action, a);
	}
}

static void test_extension(void **state)
{
	struct pnc_lh_cnp m, back;
	uint8_t buf[256], *ext;
	size_t len;

	(void)state;
	lhcnp_sample(&m, true);
	assert_int_equal(pnc_lh_body_encode(&m, buf, sizeof(buf), &len), PNC_OK);
	/* header 4, timestamp 4+8, device ID 4+8 (6 padded), path ID 4+4 (3 padded) */
	assert_int_equal(len, 12 + 4 + 12 + 12 + 8);
	ext = buf + 12;
	assert_int_equal(ext[0], 0x20); /* version 2 */
	assert_int_equal(ext[1], 0);
	/* RFC 4884: the one's complement sum over the extension is all ones. */
	assert_int_equal(sum16(ext, len - 12, 0), 0xffff);
	/* Objects: unpadded Length, Class-Num, C-Type; zero padding. */
	assert_int_equal(ext[4] << 8 | ext[5], 12);
	assert_int_equal(ext[6], PNC_LH_EXT_CLASS_NUM);
	assert_int_equal(ext[7], 1);
	assert_int_equal(ext[16] << 8 | ext[17], 10);
	assert_int_equal(ext[19], 2);
	assert_memory_equal(ext + 20, "p1.dc2\0\0", 8);
	assert_int_equal(ext[28] << 8 | ext[29], 7);
	assert_int_equal(ext[31], 3);
	assert_memory_equal(ext + 32, "\xaa\xbb\xcc\0", 4);

	assert_int_equal(pnc_lh_body_decode(buf, len, PNC_LH_EXT_CLASS_NUM, &back), PNC_OK);
	assert_true(back.ext.present);
	assert_true(back.ext.checksum);
	assert_true(back.ext.has_timestamp);
	assert_true(back.ext.timestamp == m.ext.timestamp);
	assert_string_equal(back.ext.device_id, "p1.dc2");
	assert_int_equal(back.ext.path_id_len, 3);
	assert_memory_equal(back.ext.path_id, m.ext.path_id, 3);
	assert_int_equal(back.ext.unknown, 0);

	/* Another Class-Num: objects skipped and counted, not refused. */
	assert_int_equal(pnc_lh_body_decode(buf, len, 0xf8, &back), PNC_OK);
	assert_int_equal(back.ext.unknown, 3);
	assert_false(back.ext.has_timestamp);

	/* A padded Length (RFC 4884 practice) reads the same. */
	ext[17] = 12;
	ext[2] = ext[3] = 0; /* no checksum */
	assert_int_equal(pnc_lh_body_decode(buf, len, PNC_LH_EXT_CLASS_NUM, &back), PNC_OK);
	assert_string_equal(back.ext.device_id, "p1.dc2");
	assert_false(back.ext.checksum);

	/* Without checksum the field is 0. */
	m.ext.checksum = false;
	assert_int_equal(pnc_lh_body_encode(&m, buf, sizeof(buf), &len), PNC_OK);
	assert_int_equal(ext[2] << 8 | ext[3], 0);
}

static void test_body_rejects(void **state)
{
	struct pnc_lh_cnp m, back;
	uint8_t buf[256], bad[256];
	size_t len;

	(void)state;
	lhcnp_sample(&m, true);
	assert_int_equal(pnc_lh_body_encode(&m, buf, sizeof(buf), &len), PNC_OK);

	assert_int_equal(pnc_lh_body_decode(buf, 11, 0xf7, &back), PNC_E_LH_TRUNCATED);
	assert_int_equal(pnc_lh_body_decode(buf, 14, 0xf7, &back), PNC_E_LH_TRUNCATED);
	memcpy(bad, buf, len);
	bad[3] = 101; /* Rate Reduce above 100 % */
	assert_int_equal(pnc_lh_body_decode(bad, len, 0xf7, &back), PNC_E_LH_PARAMETER);
	memcpy(bad, buf, len);
	bad[12] = 0x10; /* version 1 */
	assert_int_equal(pnc_lh_body_decode(bad, len, 0xf7, &back), PNC_E_LH_EXT_VERSION);
	memcpy(bad, buf, len);
	bad[len - 1] ^= 0x01;
	assert_int_equal(pnc_lh_body_decode(bad, len, 0xf7, &back), PNC_E_LH_EXT_CHECKSUM);
	memcpy(bad, buf, len);
	bad[14] = bad[15] = 0;
	bad[17] = 3; /* object shorter than its header */
	assert_int_equal(pnc_lh_body_decode(bad, len, 0xf7, &back), PNC_E_LH_EXT_OBJECT);
	bad[17] = 200; /* beyond the message */
	assert_int_equal(pnc_lh_body_decode(bad, len, 0xf7, &back), PNC_E_LH_EXT_OBJECT);
	bad[17] = 8; /* a timestamp of 4 octets */
	assert_int_equal(pnc_lh_body_decode(bad, len, 0xf7, &back), PNC_E_LH_EXT_OBJECT);
	/* Three octets where an object header must be (no checksum to fail first). */
	bad[17] = 12;
	assert_int_equal(pnc_lh_body_decode(bad, 12 + 4 + 12 + 3, 0xf7, &back),
			 PNC_E_LH_EXT_OBJECT);

	/* Encoder ranges. */
	m.block.metric = 0x1000000;
	assert_int_equal(pnc_lh_body_encode(&m, buf, sizeof(buf), &len), PNC_E_INVALID_ARG);
	lhcnp_sample(&m, true);
	m.block.action = PNC_LH_RESUME;
	m.block.parameter = 101;
	assert_int_equal(pnc_lh_body_encode(&m, buf, sizeof(buf), &len), PNC_E_INVALID_ARG);
	m.block.action = PNC_LH_PAUSE;
	m.block.parameter = 65535; /* microseconds: any value */
	assert_int_equal(pnc_lh_body_encode(&m, buf, sizeof(buf), &len), PNC_OK);
	m.ext.path_id_len = PNC_LH_PATH_ID_MAX + 1;
	assert_int_equal(pnc_lh_body_encode(&m, buf, sizeof(buf), &len), PNC_E_INVALID_ARG);
	m.ext.path_id_len = 0;
	assert_int_equal(pnc_lh_body_encode(&m, buf, 20, &len), PNC_E_BUF_TOO_SMALL);
}

static void icmp6_sample(struct pnc_lh_icmp6 *p, bool ext)
{
	memset(p, 0, sizeof(*p));
	memcpy(p->src, src6, 16);
	memcpy(p->dst, dst6, 16);
	p->tclass = 0x30 << 2;
	p->hop_limit = 64;
	p->flow_label = 0x12345;
	p->type = PNC_LH_ICMP6_TYPE;
	lhcnp_sample(&p->msg, ext);
}

static void test_icmp6(void **state)
{
	struct pnc_lh_icmp6 p, back;
	uint8_t pkt[PNC_LH_ICMP6_MAX_LEN], bad[PNC_LH_ICMP6_MAX_LEN];
	uint32_t pseudo = 0;
	size_t len;

	(void)state;
	for (int ext = 0; ext < 2; ext++) {
		icmp6_sample(&p, ext);
		assert_int_equal(pnc_lh_icmp6_encode(&p, pkt, sizeof(pkt), &len), PNC_OK);
		assert_int_equal(len, ext ? 40 + 4 + 48 : 40 + 16);
		assert_int_equal(pkt[0], 0x6c);
		assert_int_equal(pkt[6], 58);
		assert_int_equal(pkt[4] << 8 | pkt[5], len - 40);
		assert_int_equal(pkt[40], 200);
		assert_int_equal(pkt[41], 0);
		/* ICMPv6 checksum: pseudo-header + message sums to all ones. */
		pseudo = sum16(pkt + 8, 32, 0);
		pseudo += (uint32_t)(len - 40) + 58;
		assert_int_equal(sum16(pkt + 40, len - 40, pseudo), 0xffff);

		assert_int_equal(pnc_lh_icmp6_decode(pkt, len, 200, 0xf7, &back), PNC_OK);
		assert_memory_equal(back.src, src6, 16);
		assert_memory_equal(back.dst, dst6, 16);
		assert_int_equal(back.flow_label, 0x12345);
		assert_int_equal(back.tclass, 0xc0);
		assert_memory_equal(&back.msg.block, &p.msg.block, sizeof(p.msg.block));
		assert_int_equal(back.msg.ext.present, ext);
		/* What a raw ICMPv6 socket hands over. */
		assert_int_equal(pnc_lh_icmp6_msg_decode(pkt + 40, len - 40, 200, 0xf7, &back),
				 PNC_OK);
		assert_int_equal(back.msg.block.src_qp, 0x12ab);
	}

	/* Rejections. */
	assert_int_equal(pnc_lh_icmp6_decode(pkt, len, 201, 0xf7, &back), PNC_E_LH_NOT_LONG_HAUL);
	memcpy(bad, pkt, len);
	bad[50] ^= 0x40;
	assert_int_equal(pnc_lh_icmp6_decode(bad, len, 200, 0xf7, &back), PNC_E_LH_CHECKSUM);
	memcpy(bad, pkt, len);
	bad[6] = 17;
	assert_int_equal(pnc_lh_icmp6_decode(bad, len, 200, 0xf7, &back), PNC_E_LH_NOT_LONG_HAUL);
	assert_int_equal(pnc_lh_icmp6_decode(pkt, len - 1, 200, 0xf7, &back), PNC_E_IP_TRUNCATED);
	assert_int_equal(pnc_lh_icmp6_decode(pkt, 39, 200, 0xf7, &back), PNC_E_IP_TRUNCATED);
	memcpy(bad, pkt, len);
	bad[0] = 0x45;
	assert_int_equal(pnc_lh_icmp6_decode(bad, len, 200, 0xf7, &back), PNC_E_IP_VERSION);
	icmp6_sample(&p, false);
	p.type = 1; /* error message range */
	assert_int_equal(pnc_lh_icmp6_encode(&p, pkt, sizeof(pkt), &len), PNC_E_INVALID_ARG);
}

static void roce_sample(struct pnc_lh_roce *r, bool ext)
{
	memset(r, 0, sizeof(*r));
	pnc_ip_udp_init(&r->ip, 4);
	r->ip.src[0] = 192, r->ip.src[1] = 0, r->ip.src[2] = 2, r->ip.src[3] = 1;
	r->ip.dst[0] = 198, r->ip.dst[1] = 51, r->ip.dst[2] = 100, r->ip.dst[3] = 7;
	r->pkey = 0xffff;
	r->dest_qp = 0x0012ab;
	lhcnp_sample(&r->msg, ext);
}

static void test_roce(void **state)
{
	struct pnc_lh_roce r, back;
	struct pnc_roce_view v;
	struct pnc_cnp cnp;
	uint8_t pkt[PNC_LH_ROCE_MAX_LEN];
	size_t len;

	(void)state;
	/*
	 * Without objects, seed 000 6.2.2 to the letter: BTH, the block, the
	 * ICRC; no extension header (6.1.1), so a UDP payload of 28 octets.
	 */
	roce_sample(&r, false);
	assert_int_equal(pnc_lh_roce_encode(&r, pkt, sizeof(pkt), &len), PNC_OK);
	assert_int_equal(len, 20 + 8 + 12 + 12 + 4);
	assert_int_equal(pkt[24] << 8 | pkt[25], 8 + 28); /* UDP length */
	assert_int_equal(pkt[28], PNC_OP_CNP);
	assert_int_equal(pkt[28 + 4], 0x40 | 0x20); /* BECN and E */
	assert_int_equal(pkt[40], 218);
	assert_int_equal(pnc_icrc_verify(pkt, len), PNC_OK);
	assert_int_equal(pnc_lh_roce_decode(pkt, len, 0xf7, &back), PNC_OK);
	assert_int_equal(back.dest_qp, 0x12ab);
	assert_int_equal(back.pkey, 0xffff);
	assert_memory_equal(&back.msg.block, &r.msg.block, sizeof(r.msg.block));
	assert_false(back.msg.ext.present);
	/* A reader expecting a CNP's 16 octets after the BTH refuses it (seed 000 8). */
	assert_int_equal(pnc_cnp_decode(pkt, len, &cnp), PNC_E_EXT_TRUNCATED);

	/* cnp_sized: a CNP's size, the block in its reserved octets. */
	r.cnp_sized = true;
	assert_int_equal(pnc_lh_roce_encode(&r, pkt, sizeof(pkt), &len), PNC_OK);
	assert_int_equal(len, PNC_CNP_LEN4);
	assert_int_equal(pkt[40], 218);
	assert_memory_equal(pkt + 52, "\0\0\0\0", 4);
	assert_int_equal(pnc_icrc_verify(pkt, len), PNC_OK);
	assert_int_equal(pnc_lh_roce_decode(pkt, len, 0xf7, &back), PNC_OK);
	assert_memory_equal(&back.msg.block, &r.msg.block, sizeof(r.msg.block));
	assert_false(back.msg.ext.present);
	/* A receiver that ignores the E bit reads a CNP to the same QP. */
	assert_int_equal(pnc_cnp_decode(pkt, len, &cnp), PNC_OK);
	assert_int_equal(cnp.dest_qp, 0x12ab);
	assert_int_equal(pnc_roce_parse(pkt, len, 0, &v), PNC_OK);
	assert_int_equal(v.ext_len, PNC_LH_ROCE_EXT_LEN);

	/* With extension: the ICRC covers it, the CNP reader still accepts it. */
	roce_sample(&r, true);
	r.ip.version = 6;
	memcpy(r.ip.src, src6, 16);
	memcpy(r.ip.dst, dst6, 16);
	assert_int_equal(pnc_lh_roce_encode(&r, pkt, sizeof(pkt), &len), PNC_OK);
	assert_int_equal(len, 40 + 8 + 12 + 12 + 36 + 4);
	/* cnp_sized changes nothing when there is an extension. */
	r.cnp_sized = true;
	assert_int_equal(pnc_lh_roce_encode(&r, pkt, sizeof(pkt), &len), PNC_OK);
	assert_int_equal(len, 40 + 8 + 12 + 12 + 36 + 4);
	assert_int_equal(pnc_lh_roce_decode(pkt, len, 0xf7, &back), PNC_OK);
	assert_string_equal(back.msg.ext.device_id, "p1.dc2");
	assert_int_equal(pnc_cnp_decode(pkt, len, &cnp), PNC_OK);
	pkt[len - 10] ^= 1; /* inside an object: the ICRC catches it */
	assert_int_equal(pnc_lh_roce_decode(pkt, len, 0xf7, &back), PNC_E_ICRC);
}

/* The literal form is the block built by hand: the encoder's output, octet for octet. */
static void test_roce_seed_form(void **state)
{
	struct pnc_lh_roce r, back;
	uint8_t pkt[PNC_LH_ROCE_MAX_LEN], enc[PNC_LH_ROCE_MAX_LEN], body[12];
	struct pnc_bth bth = {
		.opcode = PNC_OP_CNP,
		.pkey = 0xffff,
		.becn = true,
		.resv6 = PNC_BTH_RESV6_EBIT,
		.dest_qp = 0x12ab,
	};
	size_t len, elen, blen;

	(void)state;
	roce_sample(&r, false);
	assert_int_equal(pnc_lh_body_encode(&r.msg, body, sizeof(body), &blen), PNC_OK);
	assert_int_equal(pnc_roce_encode(&r.ip, &bth, body, blen, pkt, sizeof(pkt), &len), PNC_OK);
	assert_int_equal(len, 20 + 8 + 12 + 12 + 4);
	assert_int_equal(pnc_lh_roce_encode(&r, enc, sizeof(enc), &elen), PNC_OK);
	assert_int_equal(elen, len);
	assert_memory_equal(enc, pkt, len);
	assert_int_equal(pnc_lh_roce_decode(pkt, len, 0xf7, &back), PNC_OK);
	assert_int_equal(back.msg.block.parameter, 50);

	/* Without the E bit the same octets are a short CNP, not Long-haul. */
	bth.resv6 = 0;
	assert_int_equal(pnc_roce_encode(&r.ip, &bth, body, blen, pkt, sizeof(pkt), &len), PNC_OK);
	assert_int_equal(pnc_lh_roce_decode(pkt, len, 0xf7, &back), PNC_E_EXT_TRUNCATED);
	/* A standard CNP is not a Long-haul CNP. */
	{
		struct pnc_cnp c = { .pkey = 0xffff, .dest_qp = 7 };

		pnc_ip_udp_init(&c.ip, 4);
		assert_int_equal(pnc_cnp_encode(&c, pkt, sizeof(pkt), &len), PNC_OK);
		assert_int_equal(pnc_lh_roce_decode(pkt, len, 0xf7, &back), PNC_E_LH_NOT_LONG_HAUL);
	}
}

static void test_rate_advice(void **state)
{
	struct pnc_rate_advice ra = { .opcode = PNC_RA_OPCODE, .pkey = 0xffff }, back;
	struct pnc_cnp cnp;
	uint8_t pkt[PNC_RA_LEN6];
	size_t len;

	(void)state;
	pnc_ip_udp_init(&ra.ip, 6);
	memcpy(ra.ip.src, src6, 16);
	memcpy(ra.ip.dst, dst6, 16);
	ra.dest_qp = 0x0012ab;
	ra.peer_qp = 0x000c01;
	ra.rate_mbps = 25000;
	assert_int_equal(pnc_rate_advice_encode(&ra, pkt, sizeof(pkt), &len), PNC_OK);
	assert_int_equal(len, PNC_CNP_LEN6); /* the size of a CNP */
	assert_int_equal(pkt[48], 0xc0);
	assert_int_equal(pkt[48 + 4], 0); /* no BECN */
	assert_memory_equal(pkt + 60,
			    "\x00\x00\x61\xa8\x00\x00\x00\x01\x00\x00\x12\xab\x00\x00\x0c\x01", 16);
	assert_int_equal(pnc_rate_advice_decode(pkt, len, 0xc0, &back), PNC_OK);
	assert_int_equal(back.rate_mbps, 25000);
	assert_int_equal(back.version, 1);
	assert_int_equal(back.dest_qp, 0x12ab);
	assert_int_equal(back.peer_qp, 0xc01);
	/* Not a CNP to anyone. */
	assert_int_equal(pnc_cnp_decode(pkt, len, &cnp), PNC_E_BTH_OPCODE);

	/* Rejections. */
	assert_int_equal(pnc_rate_advice_decode(pkt, len, 0xc1, &back), PNC_E_BTH_OPCODE);
	pkt[64 + 3] = 2;
	refix(pkt, len);
	assert_int_equal(pnc_rate_advice_decode(pkt, len, 0xc0, &back), PNC_E_RA_VERSION);
	pkt[64 + 3] = 1;
	pkt[68 + 3] = 0xac;
	refix(pkt, len);
	assert_int_equal(pnc_rate_advice_decode(pkt, len, 0xc0, &back), PNC_E_RA_QP);
	ra.ip.version = 4;
	assert_int_equal(pnc_rate_advice_encode(&ra, pkt, sizeof(pkt), &len), PNC_OK);
	/* 20 octets after the BTH: another message. */
	{
		uint8_t body[20] = { 0 };
		struct pnc_bth bth = { .opcode = 0xc0, .pkey = 0xffff, .dest_qp = 1 };

		assert_int_equal(pnc_roce_encode(&ra.ip, &bth, body, sizeof(body), pkt,
						 sizeof(pkt), &len),
				 PNC_OK);
		assert_int_equal(pnc_rate_advice_decode(pkt, len, 0xc0, &back), PNC_E_RA_LEN);
	}
	ra.dest_qp = 0x1000000;
	assert_int_equal(pnc_rate_advice_encode(&ra, pkt, sizeof(pkt), &len), PNC_E_INVALID_ARG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_levels),	     cmocka_unit_test(test_queue_kb),
		cmocka_unit_test(test_block_layout), cmocka_unit_test(test_extension),
		cmocka_unit_test(test_body_rejects), cmocka_unit_test(test_icmp6),
		cmocka_unit_test(test_roce),	     cmocka_unit_test(test_roce_seed_form),
		cmocka_unit_test(test_rate_advice),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
