// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Congestion point: parsing sampled packets (plain and tunnelled), the
 * seed 002 notification built from them, and the per-flow interval.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "codec/notif.h"
#include "codec/roce.h"
#include "cp/gate.h"
#include "cp/sample.h"

static const uint8_t S4[4] = { 192, 0, 2, 1 }, R4[4] = { 198, 51, 100, 2 };
static const uint8_t S6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 1, [15] = 1 };
static const uint8_t R6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 2, [15] = 2 };
static const uint8_t PE1[16] = { 0xfc, 0, [14] = 0x10, [15] = 1 };

/* An RDMA WRITE Middle of 1024 octets to QP 0x22, from its IP header. */
static size_t write_pkt(uint8_t version, uint8_t *buf, size_t buflen)
{
	static uint8_t payload[1024];
	struct pnc_rc_data d = {};
	size_t len = 0;

	pnc_ip_udp_init(&d.ip, version);
	memcpy(d.ip.src, version == 4 ? S4 : S6, version == 4 ? 4 : 16);
	memcpy(d.ip.dst, version == 4 ? R4 : R6, version == 4 ? 4 : 16);
	d.ip.tos = 26 << 2 | 2;
	d.ip.sport = 0xc123;
	d.bth.opcode = PNC_OP_RC_WRITE_MIDDLE;
	d.bth.pkey = 0xffff;
	d.bth.dest_qp = 0x22;
	d.bth.psn = 0x1234;
	d.payload = payload;
	d.payload_len = sizeof(payload);
	assert_int_equal(pnc_rc_data_encode(&d, buf, buflen, &len), PNC_OK);
	return len;
}

/* The same packet behind an outer IPv6 header (4-in-6, flow label fl). */
static size_t tunnelled_pkt(uint32_t fl, uint8_t *buf, size_t buflen)
{
	size_t len = write_pkt(4, buf + 40, buflen - 40);

	memset(buf, 0, 40);
	buf[0] = 0x60 | 0x2 >> 2; /* version 6, traffic class ECT(0) */
	buf[1] = (uint8_t)(0x2 << 4 | (fl >> 16 & 0x0f));
	buf[2] = (uint8_t)(fl >> 8);
	buf[3] = (uint8_t)fl;
	buf[4] = (uint8_t)(len >> 8);
	buf[5] = (uint8_t)len;
	buf[6] = 4; /* IPv4 */
	buf[7] = 63;
	memcpy(buf + 8, PE1, 16);
	memcpy(buf + 24, R6, 16);
	return len + 40;
}

static void test_plain_samples(void **state)
{
	uint8_t pkt[1200];
	struct pnc_cp_sample_view v;
	size_t len;

	(void)state;
	len = write_pkt(4, pkt, sizeof(pkt));
	/* A sample holds the first 256 octets only. */
	assert_int_equal(pnc_cp_sample_parse(pkt, 256, 0, &v), PNC_OK);
	assert_false(v.tunnelled);
	assert_int_equal(v.outer_version, 4);
	assert_memory_equal(v.outer_src, S4, 4);
	assert_int_equal(v.roce.bth.dest_qp, 0x22);
	assert_int_equal(v.roce.ip.sport, 0xc123);
	assert_true(v.roce.truncated);
	assert_ptr_equal(v.ip, pkt);
	assert_int_equal(v.ip_len, 256);
	/* A whole packet plus Ethernet padding: the padding is not kept. */
	assert_int_equal(pnc_cp_sample_parse(pkt, len + 6, 0, &v), PNC_OK);
	assert_int_equal(v.ip_len, len);

	len = write_pkt(6, pkt, sizeof(pkt));
	assert_int_equal(pnc_cp_sample_parse(pkt, 300, 0, &v), PNC_OK);
	assert_int_equal(v.outer_version, 6);
	assert_memory_equal(v.outer_src, S6, 16);
	assert_memory_equal(v.roce.ip.dst, R6, 16);
	assert_int_equal(v.flow_label, 0);
}

static void test_tunnelled_sample(void **state)
{
	uint8_t pkt[1300];
	struct pnc_cp_sample_view v;

	(void)state;
	tunnelled_pkt(0x12345, pkt, sizeof(pkt));
	assert_int_equal(pnc_cp_sample_parse(pkt, 256, 40, &v), PNC_OK);
	assert_true(v.tunnelled);
	assert_int_equal(v.flow_label, 0x12345);
	assert_memory_equal(v.outer_src, PE1, 16);
	/* The five-tuple is the customer's, below the tunnel. */
	assert_int_equal(v.roce.ip.version, 4);
	assert_memory_equal(v.roce.ip.src, S4, 4);
	assert_int_equal(v.roce.bth.dest_qp, 0x22);
	assert_ptr_equal(v.ip, pkt + 40);
	assert_int_equal(v.ip_len, 216);
}

static void test_sample_rejections(void **state)
{
	uint8_t pkt[1300] = {};
	struct pnc_cp_sample_view v;
	size_t len;

	(void)state;
	assert_int_equal(pnc_cp_sample_parse(pkt, 0, 0, &v), PNC_E_IP_TRUNCATED);
	tunnelled_pkt(0x12345, pkt, sizeof(pkt));
	/* Inner offset inside the outer header, or past the sample. */
	assert_int_equal(pnc_cp_sample_parse(pkt, 256, 20, &v), PNC_E_INVALID_ARG);
	assert_int_equal(pnc_cp_sample_parse(pkt, 256, 256, &v), PNC_E_INVALID_ARG);
	/* Tunnelled samples need an outer IPv6 header. */
	len = write_pkt(4, pkt, sizeof(pkt));
	assert_int_equal(pnc_cp_sample_parse(pkt, len, 20, &v), PNC_E_INVALID_ARG);
	/* Cut inside the BTH. */
	assert_int_equal(pnc_cp_sample_parse(pkt, 20 + 8 + 6, 0, &v), PNC_E_BTH_TRUNCATED);
	/* Not UDP. */
	pkt[9] = 6;
	assert_true(pnc_cp_sample_parse(pkt, len, 0, &v) < 0);
	pkt[0] = 0x55;
	assert_int_equal(pnc_cp_sample_parse(pkt, len, 0, &v), PNC_E_IP_VERSION);
}

static void test_notification(void **state)
{
	static const struct pnc_notif_icmp over4 = { .version = 4 }, over6 = { .version = 6 };
	static const struct pnc_notif_icmp icmp4 = { .version = 4, .type = PNC_NOTIF_ICMP_TYPE };
	static const struct pnc_notif_icmp icmp6 = { .version = 6, .type = PNC_NOTIF_ICMP6_TYPE };
	uint8_t pkt[1300], msg[1400];
	struct pnc_cp_sample_view v;
	struct pnc_notif n;
	struct pnc_roce_view inv;
	size_t len, ip_off;

	(void)state;
	tunnelled_pkt(0x777, pkt, sizeof(pkt));
	assert_int_equal(pnc_cp_sample_parse(pkt, 256, 40, &v), PNC_OK);
	assert_int_equal(pnc_cp_notification_build(&v, 6, &over6, msg, sizeof(msg), &len), PNC_OK);
	assert_int_equal(len, PNC_NOTIF_HLEN4 + 216);
	assert_int_equal(pnc_notif_decode(msg, len, &n), PNC_OK);
	assert_int_equal(n.af, 4);
	assert_int_equal(n.protocol, 17);
	assert_int_equal(n.cl, 6);
	assert_int_equal(n.start, PNC_NOTIF_START_INNER_IP);
	assert_int_equal(n.sport, 0xc123);
	assert_int_equal(n.dport, 4791);
	assert_memory_equal(n.src, S4, 4);
	assert_memory_equal(n.dst, R4, 4);
	/* The proxy finds the BTH in the invoking packet. */
	assert_int_equal(pnc_notif_invoking_roce(&n, &ip_off, &inv), PNC_OK);
	assert_int_equal(inv.bth.dest_qp, 0x22);
	assert_int_equal(inv.bth.psn, 0x1234);

	/* A whole IPv6 packet fits an IPv6 carrier, and is cut for IPv4. */
	len = write_pkt(6, pkt, sizeof(pkt));
	assert_int_equal(pnc_cp_sample_parse(pkt, len, 0, &v), PNC_OK);
	assert_int_equal(pnc_cp_notification_build(&v, 2, &over6, msg, sizeof(msg), &ip_off),
			 PNC_OK);
	assert_int_equal(ip_off, PNC_NOTIF_HLEN6 + len);
	assert_int_equal(pnc_cp_notification_build(&v, 2, &over4, msg, sizeof(msg), &len), PNC_OK);
	assert_int_equal(len, PNC_NOTIF_MAX_LEN4);
	assert_int_equal(pnc_notif_decode(msg, len, &n), PNC_OK);
	assert_int_equal(n.af, 6);
	assert_int_equal(n.cl, 2);
	assert_int_equal(n.invoking_len, PNC_NOTIF_MAX_LEN4 - PNC_NOTIF_HLEN6);
	assert_int_equal(pnc_cp_notification_build(&v, 8, &over4, msg, sizeof(msg), &len),
			 PNC_E_INVALID_ARG);
	assert_int_equal(pnc_cp_notification_build(&v, 2, &over4, msg, 100, &len),
			 PNC_E_BUF_TOO_SMALL);

	/* The ICMP form: the same message behind the ICMP header (6.5). */
	assert_int_equal(pnc_cp_notification_build(&v, 2, &icmp4, msg, sizeof(msg), &len), PNC_OK);
	assert_int_equal(len, PNC_NOTIF_ICMP_HLEN + PNC_NOTIF_MAX_LEN4);
	assert_int_equal(msg[0], PNC_NOTIF_ICMP_TYPE);
	assert_int_equal(pnc_notif_icmp_decode(&icmp4, msg, len, &n), PNC_OK);
	assert_int_equal(n.af, 6);
	assert_int_equal(n.cl, 2);
	assert_int_equal(n.invoking_len, PNC_NOTIF_MAX_LEN4 - PNC_NOTIF_HLEN6);
	assert_int_equal(pnc_cp_notification_build(&v, 3, &icmp6, msg, sizeof(msg), &len), PNC_OK);
	assert_int_equal(msg[0], PNC_NOTIF_ICMP6_TYPE);
	assert_int_equal(pnc_notif_icmp_decode(&icmp6, msg, len, &n), PNC_OK);
	assert_int_equal(n.cl, 3);
}

static void test_gate(void **state)
{
	struct pnc_cp_gate_slot slots[4];
	struct pnc_cp_gate g;
	uint32_t a = 1, b = 2;

	(void)state;
	pnc_cp_gate_init(&g, slots, 4);
	assert_true(pnc_cp_gate_pass(&g, &a, sizeof(a), 1000, 500));
	assert_false(pnc_cp_gate_pass(&g, &a, sizeof(a), 1499, 500));
	assert_true(pnc_cp_gate_pass(&g, &a, sizeof(a), 1500, 500));
	/* Another flow is independent. */
	assert_true(pnc_cp_gate_pass(&g, &b, sizeof(b), 1500, 500));
	assert_false(pnc_cp_gate_pass(&g, &b, sizeof(b), 1600, 500));
	/* Interval 0: no limit. */
	assert_true(pnc_cp_gate_pass(&g, &b, sizeof(b), 1600, 0));
	pnc_cp_gate_clear(&g);
	assert_true(pnc_cp_gate_pass(&g, &a, sizeof(a), 1501, 500));

	/* More flows than slots: early, never late. */
	pnc_cp_gate_clear(&g);
	for (uint32_t k = 0; k < 64; k++)
		assert_true(pnc_cp_gate_pass(&g, &k, sizeof(k), 5000, 1000000));
	for (uint32_t k = 0, passed = 0; k < 64; k++) {
		passed += pnc_cp_gate_pass(&g, &k, sizeof(k), 5001, 1000000);
		if (k == 63)
			assert_true(passed >= 60);
	}
}

/*
 * Seed 000 5.5: the flows that fill the queue are notified, the ones that
 * barely use it are not.  Three flows of 800, 600 and 100 kB per window
 * with the default share (50 %): the third is left alone.
 */
static void test_share(void **state)
{
	struct pnc_cp_share s = {};

	(void)state;
	/* First samples: nothing known, every flow selected. */
	assert_true(pnc_cp_share_select(&s, 0, 1000, 10000, 50));
	assert_true(pnc_cp_share_select(&s, 0, 1001, 10000, 50));
	/* A window later, with figures. */
	assert_true(pnc_cp_share_select(&s, 800000, 11000, 10000, 50));
	assert_true(pnc_cp_share_select(&s, 600000, 11100, 10000, 50));
	assert_false(pnc_cp_share_select(&s, 100000, 11200, 10000, 50));
	/* The next window still knows the largest flow of the last one. */
	assert_false(pnc_cp_share_select(&s, 100000, 21500, 10000, 50));
	assert_true(pnc_cp_share_select(&s, 400000, 21600, 10000, 50));
	/* After a quiet window the old maximum is forgotten. */
	assert_true(pnc_cp_share_select(&s, 100000, 45000, 10000, 50));
	/* 0 %: every flow. */
	assert_true(pnc_cp_share_select(&s, 1, 45001, 10000, 0));
	/* The largest figure the program sends, no overflow. */
	assert_true(pnc_cp_share_select(&s, UINT32_MAX, 60000, 10000, 100));
	assert_false(pnc_cp_share_select(&s, UINT32_MAX - 1, 60001, 10000, 100));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_samples),
		cmocka_unit_test(test_tunnelled_sample),
		cmocka_unit_test(test_sample_rejections),
		cmocka_unit_test(test_notification),
		cmocka_unit_test(test_gate),
		cmocka_unit_test(test_share),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
