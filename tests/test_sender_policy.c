// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the proxy's sender formats and level policy
 * (cnpproxyd/proxy/sender.c): longest-prefix choice of the format,
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
#include "proxy/sender.h"

static void sender(struct pnc_sender *s, uint8_t family, const char *bytes, uint8_t plen,
		   enum pnc_sender_format fmt)
{
	memset(s, 0, sizeof(*s));
	s->family = family;
	memcpy(s->prefix, bytes, family == 4 ? 4 : 16);
	s->plen = plen;
	s->format = fmt;
}

static void test_format_of(void **state)
{
	struct pnc_sender s[4];
	static const uint8_t a1[4] = { 10, 1, 2, 3 }, a2[4] = { 10, 1, 3, 3 },
			     a3[4] = { 10, 2, 0, 1 }, a4[4] = { 10, 1, 2, 130 };
	uint8_t v6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 1 };

	(void)state;
	sender(&s[0], 4, "\x0a\x01\x00\x00", 16, PNC_FMT_RATE_ADVICE);
	sender(&s[1], 4, "\x0a\x01\x02\x00", 24, PNC_FMT_LONG_HAUL_ROCEV2);
	sender(&s[2], 6, "\x20\x01\x0d\xb8\x00\x01\0\0\0\0\0\0\0\0\0\0", 48,
	       PNC_FMT_LONG_HAUL_ICMPV6);
	sender(&s[3], 4, "\x0a\x01\x02\x80", 25, PNC_FMT_ROCEV2_CNP);
	assert_int_equal(pnc_sender_format_of(s, 4, 4, a1), PNC_FMT_LONG_HAUL_ROCEV2);
	assert_int_equal(pnc_sender_format_of(s, 4, 4, a2), PNC_FMT_RATE_ADVICE);
	assert_int_equal(pnc_sender_format_of(s, 4, 4, a3), PNC_FMT_ROCEV2_CNP);
	/* The /25 is more specific than the /24 (bit-level match). */
	assert_int_equal(pnc_sender_format_of(s, 4, 4, a4), PNC_FMT_ROCEV2_CNP);
	assert_int_equal(pnc_sender_format_of(s, 4, 6, v6), PNC_FMT_LONG_HAUL_ICMPV6);
	v6[5] = 2;
	assert_int_equal(pnc_sender_format_of(s, 4, 6, v6), PNC_FMT_ROCEV2_CNP);
	/* An IPv4 address never matches an IPv6 prefix of the same octets. */
	assert_int_equal(pnc_sender_format_of(s, 3, 6, (const uint8_t *)"\x0a\x01\x02\x03"),
			 PNC_FMT_ROCEV2_CNP);
	assert_int_equal(pnc_sender_format_of(s, 0, 4, a1), PNC_FMT_ROCEV2_CNP);
	/* A /0 holds everything of its family. */
	sender(&s[0], 4, "\0\0\0\0", 0, PNC_FMT_RATE_ADVICE);
	assert_int_equal(pnc_sender_format_of(s, 1, 4, a3), PNC_FMT_RATE_ADVICE);
}

static void test_cnp_levels(void **state)
{
	struct pnc_level_policy p;
	struct pnc_reaction r;

	(void)state;
	pnc_level_policy_init(&p);
	/*
	 * Defaults: severe levels get a CNP each interval; light ones none,
	 * in any format (seed 003 3.2.2.1: the end host stays unaware).
	 */
	for (uint8_t cl = 0; cl <= 7; cl++) {
		for (int fmt = 0; fmt < PNC_FMT_MAX; fmt++) {
			pnc_reaction_for(&p, fmt, cl, &r);
			assert_int_equal(r.send, cl >= 4);
			assert_int_equal(r.severe, cl >= 4);
		}
		pnc_reaction_for(&p, PNC_FMT_ROCEV2_CNP, cl, &r);
		if (r.send)
			assert_int_equal(r.interval_factor, 1);
	}
	/* Light to the sender too (a deviation): one CNP each interval. */
	p.light_to_sender = true;
	for (uint8_t cl = 0; cl <= 7; cl++) {
		pnc_reaction_for(&p, PNC_FMT_ROCEV2_CNP, cl, &r);
		assert_true(r.send);
		assert_int_equal(r.interval_factor, 1);
	}
	/* Light paced to one per 4 intervals, severe unchanged. */
	p.light_cnp_pacing = 4;
	pnc_reaction_for(&p, PNC_FMT_ROCEV2_CNP, 3, &r);
	assert_true(r.send);
	assert_int_equal(r.interval_factor, 4);
	pnc_reaction_for(&p, PNC_FMT_ROCEV2_CNP, 4, &r);
	assert_int_equal(r.interval_factor, 1);
	/* Light: none. */
	p.light_cnp_pacing = 0;
	pnc_reaction_for(&p, PNC_FMT_ROCEV2_CNP, 0, &r);
	assert_false(r.send);
	/* The threshold moves. */
	p.severe_level = 2;
	pnc_reaction_for(&p, PNC_FMT_ROCEV2_CNP, 2, &r);
	assert_true(r.send && r.severe);
	pnc_reaction_for(&p, PNC_FMT_ROCEV2_CNP, 9, &r); /* clamped to 7 */
	assert_true(r.send && r.severe);
}

static void test_long_haul_levels(void **state)
{
	struct pnc_level_policy p;
	struct pnc_reaction r;

	(void)state;
	pnc_level_policy_init(&p);
	p.light_to_sender = true;
	pnc_reaction_for(&p, PNC_FMT_LONG_HAUL_ROCEV2, 1, &r);
	assert_true(r.send);
	assert_int_equal(r.lh_action, PNC_LH_NOTIFY);
	assert_int_equal(r.lh_parameter, 0);
	assert_int_equal(r.lh_level, 37);
	/* Seed 002's CL 0 is congestion, the lowest: never seed 000's level 0. */
	pnc_reaction_for(&p, PNC_FMT_LONG_HAUL_ROCEV2, 0, &r);
	assert_int_equal(r.lh_action, PNC_LH_NOTIFY);
	assert_int_equal(r.lh_level, 1);
	pnc_reaction_for(&p, PNC_FMT_LONG_HAUL_ICMPV6, 5, &r);
	assert_int_equal(r.lh_action, PNC_LH_RATE_REDUCE);
	assert_int_equal(r.lh_parameter, 40);
	assert_int_equal(r.lh_level, 182);
	/* Level 7 without a pause time reduces, harder than the others. */
	pnc_reaction_for(&p, PNC_FMT_LONG_HAUL_ICMPV6, 7, &r);
	assert_int_equal(r.lh_action, PNC_LH_RATE_REDUCE);
	assert_int_equal(r.lh_parameter, 60);
	assert_int_equal(r.lh_level, 255);
	p.lh_pause_us = 500;
	pnc_reaction_for(&p, PNC_FMT_LONG_HAUL_ICMPV6, 7, &r);
	assert_int_equal(r.lh_action, PNC_LH_PAUSE);
	assert_int_equal(r.lh_parameter, 500);
	pnc_reaction_for(&p, PNC_FMT_LONG_HAUL_ICMPV6, 6, &r);
	assert_int_equal(r.lh_action, PNC_LH_RATE_REDUCE);
	p.lh_light_action = PNC_LH_LIGHT_RATE_REDUCE;
	p.lh_light_reduce = 10;
	pnc_reaction_for(&p, PNC_FMT_LONG_HAUL_ROCEV2, 3, &r);
	assert_int_equal(r.lh_action, PNC_LH_RATE_REDUCE);
	assert_int_equal(r.lh_parameter, 10);
	/* Light pacing is for standard CNPs only. */
	p.light_cnp_pacing = 0;
	pnc_reaction_for(&p, PNC_FMT_LONG_HAUL_ROCEV2, 0, &r);
	assert_true(r.send);
	assert_int_equal(r.interval_factor, 1);
}

static void test_rate_advice_levels(void **state)
{
	static const uint32_t want[8] = { 100000, 87500, 75000, 62500, 50000, 37500, 25000, 12500 };
	struct pnc_level_policy p;
	struct pnc_reaction r;

	(void)state;
	pnc_level_policy_init(&p);
	p.light_to_sender = true;
	for (uint8_t cl = 0; cl <= 7; cl++) {
		pnc_reaction_for(&p, PNC_FMT_RATE_ADVICE, cl, &r);
		assert_true(r.send);
		assert_int_equal(r.ra_rate, want[cl]);
	}
	p.ra_max_rate = 4;
	pnc_reaction_for(&p, PNC_FMT_RATE_ADVICE, 7, &r);
	assert_int_equal(r.ra_rate, 1); /* never 0: seed 004 would stop the sender */
}

/*
 * Seed 004: the Rate is a rate in Mb/s, 0 stops the sender.  No
 * reaction the policy can give, for any level, maximum or format,
 * nor the Resume, advises 0.
 */
static void test_rate_advice_never_zero(void **state)
{
	static const uint32_t maxima[] = { 1, 2, 7, 8, 9, 100, 100000, 4000000 };
	struct pnc_level_policy p;
	struct pnc_reaction r;

	(void)state;
	pnc_level_policy_init(&p);
	p.light_to_sender = true;
	for (size_t i = 0; i < sizeof(maxima) / sizeof(maxima[0]); i++) {
		p.ra_max_rate = maxima[i];
		for (uint8_t cl = 0; cl <= 8; cl++) {
			pnc_reaction_for(&p, PNC_FMT_RATE_ADVICE, cl, &r);
			assert_true(r.send);
			assert_true(r.ra_rate >= 1 && r.ra_rate <= maxima[i]);
		}
		pnc_resume_for(&p, PNC_FMT_RATE_ADVICE, &r);
		assert_true(r.send);
		assert_int_equal(r.ra_rate, maxima[i]);
	}
	p.ra_max_rate = 0; /* not configurable (1..4000000), still not 0 */
	pnc_resume_for(&p, PNC_FMT_RATE_ADVICE, &r);
	assert_int_equal(r.ra_rate, 1);
}

/*
 * Seed 000 5.7: a notification escalated to a higher level asks a
 * stricter action.  With the defaults every severe level cuts harder
 * than the one below; the step saturates at 100 percent, and a step of
 * 0 gives every severe level the same cut.
 */
static void test_escalation_is_stricter(void **state)
{
	static const uint16_t want[8] = { 0, 0, 0, 0, 30, 40, 50, 60 };
	struct pnc_level_policy p;
	struct pnc_reaction r;
	uint16_t before = 0;

	(void)state;
	pnc_level_policy_init(&p);
	for (uint8_t cl = p.severe_level; cl <= 7; cl++) {
		pnc_reaction_for(&p, PNC_FMT_LONG_HAUL_ROCEV2, cl, &r);
		assert_int_equal(r.lh_action, PNC_LH_RATE_REDUCE);
		assert_int_equal(r.lh_parameter, want[cl]);
		assert_true(r.lh_parameter > before);
		before = r.lh_parameter;
	}
	p.lh_severe_reduce = 90;
	p.lh_reduce_step = 25;
	pnc_reaction_for(&p, PNC_FMT_LONG_HAUL_ROCEV2, 5, &r);
	assert_int_equal(r.lh_parameter, 100);
	p.severe_level = 1;
	p.lh_severe_reduce = 100;
	p.lh_reduce_step = 100;
	pnc_reaction_for(&p, PNC_FMT_LONG_HAUL_ROCEV2, 7, &r);
	assert_int_equal(r.lh_parameter, 100);
	p.lh_severe_reduce = 30;
	p.lh_reduce_step = 0;
	pnc_reaction_for(&p, PNC_FMT_LONG_HAUL_ROCEV2, 6, &r);
	assert_int_equal(r.lh_parameter, 30);
	/* At the top, with a pause time, the strictest action: Pause. */
	p.lh_pause_us = 800;
	pnc_reaction_for(&p, PNC_FMT_LONG_HAUL_ROCEV2, 7, &r);
	assert_int_equal(r.lh_action, PNC_LH_PAUSE);
}

/* This router's own queue: its depth's level where higher, and in a Resume. */
static void test_reaction_at_depth(void **state)
{
	struct pnc_level_policy p;
	struct pnc_reaction r;

	(void)state;
	pnc_level_policy_init(&p);
	pnc_reaction_for(&p, PNC_FMT_LONG_HAUL_ROCEV2, 4, &r);
	pnc_reaction_at_depth(&r, 180);
	assert_int_equal(r.lh_level, 180);
	pnc_reaction_at_depth(&r, 12);
	assert_int_equal(r.lh_level, 180);
	pnc_reaction_for(&p, PNC_FMT_LONG_HAUL_ROCEV2, 6, &r);
	pnc_reaction_at_depth(&r, 180);
	assert_int_equal(r.lh_level, 218);
	pnc_resume_for(&p, PNC_FMT_LONG_HAUL_ROCEV2, &r);
	pnc_reaction_at_depth(&r, 20);
	assert_int_equal(r.lh_level, 20);
}

/*
 * Resume: Long-haul gives back resume_share percent of the cut (50 by
 * default, seed 000 section 7; 0 would be the whole of it); standard
 * CNPs have none.
 */
static void test_resume(void **state)
{
	static const enum pnc_sender_format lh[] = { PNC_FMT_LONG_HAUL_ICMPV6,
						     PNC_FMT_LONG_HAUL_ROCEV2 };
	struct pnc_level_policy p;
	struct pnc_reaction r;

	(void)state;
	pnc_level_policy_init(&p);
	for (size_t i = 0; i < 2; i++) {
		pnc_resume_for(&p, lh[i], &r);
		assert_true(r.send);
		assert_int_equal(r.lh_action, PNC_LH_RESUME);
		assert_int_equal(r.lh_parameter, 50);
		assert_int_equal(r.lh_level, 0);
	}
	p.lh_resume_share = 0;
	pnc_resume_for(&p, PNC_FMT_LONG_HAUL_ROCEV2, &r);
	assert_int_equal(r.lh_parameter, 0);
	pnc_resume_for(&p, PNC_FMT_ROCEV2_CNP, &r);
	assert_false(r.send);
}

/* The sender's entry, options included; a default one when none holds it. */
static void test_sender_of(void **state)
{
	static const uint8_t a1[4] = { 10, 1, 2, 3 }, a2[4] = { 10, 9, 0, 1 };
	const struct pnc_sender *got;
	struct pnc_sender s[1];

	(void)state;
	sender(&s[0], 4, "\x0a\x01\x00\x00", 16, PNC_FMT_LONG_HAUL_ROCEV2);
	s[0].cnp_sized = true;
	got = pnc_sender_of(s, 1, 4, a1);
	assert_ptr_equal(got, &s[0]);
	assert_true(got->cnp_sized);
	got = pnc_sender_of(s, 1, 4, a2);
	assert_non_null(got);
	assert_int_equal(got->format, PNC_FMT_ROCEV2_CNP);
	assert_false(got->cnp_sized);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_of),
		cmocka_unit_test(test_cnp_levels),
		cmocka_unit_test(test_long_haul_levels),
		cmocka_unit_test(test_rate_advice_levels),
		cmocka_unit_test(test_rate_advice_never_zero),
		cmocka_unit_test(test_escalation_is_stricter),
		cmocka_unit_test(test_reaction_at_depth),
		cmocka_unit_test(test_resume),
		cmocka_unit_test(test_sender_of),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
