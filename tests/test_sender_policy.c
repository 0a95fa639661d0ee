// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the proxy's sender formats and level policy
 * (cnpproxyd/cnpproxy_sender.c): longest-prefix choice of the format,
 * and what every Congestion Level becomes in every format, defaults and
 * configured values.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "codec/lhcnp.h"
#include "cnpproxy_sender.h"

static void sender(struct cnp_sender *s, uint8_t family, const char *bytes, uint8_t plen,
		   enum cnp_sender_format fmt)
{
	memset(s, 0, sizeof(*s));
	s->family = family;
	memcpy(s->prefix, bytes, family == 4 ? 4 : 16);
	s->plen = plen;
	s->format = fmt;
}

static void test_format_of(void **state)
{
	struct cnp_sender s[4];
	static const uint8_t a1[4] = { 10, 1, 2, 3 }, a2[4] = { 10, 1, 3, 3 },
			     a3[4] = { 10, 2, 0, 1 }, a4[4] = { 10, 1, 2, 130 };
	uint8_t v6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 1 };

	(void)state;
	sender(&s[0], 4, "\x0a\x01\x00\x00", 16, CNP_FMT_RATE_ADVICE);
	sender(&s[1], 4, "\x0a\x01\x02\x00", 24, CNP_FMT_LONG_HAUL_ROCEV2);
	sender(&s[2], 6, "\x20\x01\x0d\xb8\x00\x01\0\0\0\0\0\0\0\0\0\0", 48,
	       CNP_FMT_LONG_HAUL_ICMPV6);
	sender(&s[3], 4, "\x0a\x01\x02\x80", 25, CNP_FMT_ROCEV2_CNP);
	assert_int_equal(cnp_sender_format_of(s, 4, 4, a1), CNP_FMT_LONG_HAUL_ROCEV2);
	assert_int_equal(cnp_sender_format_of(s, 4, 4, a2), CNP_FMT_RATE_ADVICE);
	assert_int_equal(cnp_sender_format_of(s, 4, 4, a3), CNP_FMT_ROCEV2_CNP);
	/* The /25 is more specific than the /24 (bit-level match). */
	assert_int_equal(cnp_sender_format_of(s, 4, 4, a4), CNP_FMT_ROCEV2_CNP);
	assert_int_equal(cnp_sender_format_of(s, 4, 6, v6), CNP_FMT_LONG_HAUL_ICMPV6);
	v6[5] = 2;
	assert_int_equal(cnp_sender_format_of(s, 4, 6, v6), CNP_FMT_ROCEV2_CNP);
	/* An IPv4 address never matches an IPv6 prefix of the same octets. */
	assert_int_equal(cnp_sender_format_of(s, 3, 6, (const uint8_t *)"\x0a\x01\x02\x03"),
			 CNP_FMT_ROCEV2_CNP);
	assert_int_equal(cnp_sender_format_of(s, 0, 4, a1), CNP_FMT_ROCEV2_CNP);
	/* A /0 holds everything of its family. */
	sender(&s[0], 4, "\0\0\0\0", 0, CNP_FMT_RATE_ADVICE);
	assert_int_equal(cnp_sender_format_of(s, 1, 4, a3), CNP_FMT_RATE_ADVICE);
}

static void test_cnp_levels(void **state)
{
	struct cnp_level_policy p;
	struct cnp_reaction r;

	(void)state;
	cnp_level_policy_init(&p);
	/* Defaults: every level gets a CNP each interval (the behaviour before levels). */
	for (uint8_t cl = 0; cl <= 7; cl++) {
		cnp_reaction_for(&p, CNP_FMT_ROCEV2_CNP, cl, &r);
		assert_true(r.send);
		assert_int_equal(r.interval_factor, 1);
		assert_int_equal(r.severe, cl >= 4);
	}
	/* Light paced to one per 4 intervals, severe unchanged. */
	p.light_cnp_pacing = 4;
	cnp_reaction_for(&p, CNP_FMT_ROCEV2_CNP, 3, &r);
	assert_true(r.send);
	assert_int_equal(r.interval_factor, 4);
	cnp_reaction_for(&p, CNP_FMT_ROCEV2_CNP, 4, &r);
	assert_int_equal(r.interval_factor, 1);
	/* Light: none. */
	p.light_cnp_pacing = 0;
	cnp_reaction_for(&p, CNP_FMT_ROCEV2_CNP, 0, &r);
	assert_false(r.send);
	/* The threshold moves. */
	p.severe_level = 2;
	cnp_reaction_for(&p, CNP_FMT_ROCEV2_CNP, 2, &r);
	assert_true(r.send && r.severe);
	cnp_reaction_for(&p, CNP_FMT_ROCEV2_CNP, 9, &r); /* clamped to 7 */
	assert_true(r.send && r.severe);
}

static void test_long_haul_levels(void **state)
{
	struct cnp_level_policy p;
	struct cnp_reaction r;

	(void)state;
	cnp_level_policy_init(&p);
	cnp_reaction_for(&p, CNP_FMT_LONG_HAUL_ROCEV2, 1, &r);
	assert_true(r.send);
	assert_int_equal(r.lh_action, PNC_LH_NOTIFY);
	assert_int_equal(r.lh_parameter, 0);
	assert_int_equal(r.lh_level, 36);
	cnp_reaction_for(&p, CNP_FMT_LONG_HAUL_ICMPV6, 5, &r);
	assert_int_equal(r.lh_action, PNC_LH_RATE_REDUCE);
	assert_int_equal(r.lh_parameter, 50);
	assert_int_equal(r.lh_level, 182);
	/* Level 7 without a pause time reduces like the other severe levels. */
	cnp_reaction_for(&p, CNP_FMT_LONG_HAUL_ICMPV6, 7, &r);
	assert_int_equal(r.lh_action, PNC_LH_RATE_REDUCE);
	assert_int_equal(r.lh_level, 255);
	p.lh_pause_us = 500;
	cnp_reaction_for(&p, CNP_FMT_LONG_HAUL_ICMPV6, 7, &r);
	assert_int_equal(r.lh_action, PNC_LH_PAUSE);
	assert_int_equal(r.lh_parameter, 500);
	cnp_reaction_for(&p, CNP_FMT_LONG_HAUL_ICMPV6, 6, &r);
	assert_int_equal(r.lh_action, PNC_LH_RATE_REDUCE);
	p.lh_light_action = CNP_LH_LIGHT_RATE_REDUCE;
	p.lh_light_reduce = 10;
	cnp_reaction_for(&p, CNP_FMT_LONG_HAUL_ROCEV2, 3, &r);
	assert_int_equal(r.lh_action, PNC_LH_RATE_REDUCE);
	assert_int_equal(r.lh_parameter, 10);
	/* Light pacing is for standard CNPs only. */
	p.light_cnp_pacing = 0;
	cnp_reaction_for(&p, CNP_FMT_LONG_HAUL_ROCEV2, 0, &r);
	assert_true(r.send);
	assert_int_equal(r.interval_factor, 1);
}

static void test_rate_advice_levels(void **state)
{
	static const uint32_t want[8] = { 100000, 87500, 75000, 62500, 50000, 37500, 25000, 12500 };
	struct cnp_level_policy p;
	struct cnp_reaction r;

	(void)state;
	cnp_level_policy_init(&p);
	for (uint8_t cl = 0; cl <= 7; cl++) {
		cnp_reaction_for(&p, CNP_FMT_RATE_ADVICE, cl, &r);
		assert_true(r.send);
		assert_int_equal(r.ra_rate, want[cl]);
	}
	p.ra_max_rate = 4;
	cnp_reaction_for(&p, CNP_FMT_RATE_ADVICE, 7, &r);
	assert_int_equal(r.ra_rate, 1); /* never 0: that would withdraw the advice */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_of),
		cmocka_unit_test(test_cnp_levels),
		cmocka_unit_test(test_long_haul_levels),
		cmocka_unit_test(test_rate_advice_levels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
