// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * roce-emu's DCQCN-like rate reaction, its Long-haul CNP actions (seed
 * 000), SCONE rate advice (seed 004) and the known-source check.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "codec/lhcnp.h"
#include "emu_rate.h"

static const struct emu_rate_cfg cfg = {
	.line_mbps = 100,
	.min_mbps = 2,
	.g = 1.0 / 16,
	.ai_mbps = 5,
	.recovery_us = 1000,
};

static void test_first_cnp_halves(void **state)
{
	struct emu_rate r;

	(void)state;
	emu_rate_init(&r, &cfg, 0);
	emu_rate_on_cnp(&r, &cfg, 10);
	/* alpha starts at 1 and stays 1: the rate halves. */
	assert_float_equal(r.alpha, 1.0, 1e-12);
	assert_float_equal(r.mbps, 50.0, 1e-9);
	assert_int_equal(r.cuts, 1);
}

static void test_cuts_floor_at_min(void **state)
{
	struct emu_rate r;

	(void)state;
	emu_rate_init(&r, &cfg, 0);
	for (int i = 0; i < 20; i++)
		emu_rate_on_cnp(&r, &cfg, (uint64_t)i);
	assert_float_equal(r.mbps, cfg.min_mbps, 1e-9);
}

static void test_recovery_per_full_period(void **state)
{
	struct emu_rate r;

	(void)state;
	emu_rate_init(&r, &cfg, 0);
	emu_rate_on_cnp(&r, &cfg, 0); /* 50 */
	emu_rate_tick(&r, &cfg, 999);
	assert_float_equal(r.mbps, 50.0, 1e-9);
	emu_rate_tick(&r, &cfg, 3500); /* three full periods */
	assert_float_equal(r.mbps, 65.0, 1e-9);
	assert_float_equal(r.alpha, (15.0 / 16) * (15.0 / 16) * (15.0 / 16), 1e-12);
	emu_rate_tick(&r, &cfg, 100000);
	assert_float_equal(r.mbps, cfg.line_mbps, 1e-9);
}

static void test_tick_before_cut_is_harmless(void **state)
{
	struct emu_rate r;

	(void)state;
	emu_rate_init(&r, &cfg, 0);
	emu_rate_on_cnp(&r, &cfg, 5000);
	/* A timestamp taken before the cut must neither loop nor recover. */
	emu_rate_tick(&r, &cfg, 4000);
	assert_float_equal(r.mbps, 50.0, 1e-9);
}

static void test_alpha_drives_cut_depth(void **state)
{
	struct emu_rate r;

	(void)state;
	emu_rate_init(&r, &cfg, 0);
	emu_rate_tick(&r, &cfg, 16000); /* alpha decays for 16 periods */
	double alpha = r.alpha, before = r.mbps;

	emu_rate_on_cnp(&r, &cfg, 16000);
	alpha = (1 - cfg.g) * alpha + cfg.g;
	assert_float_equal(r.mbps, before * (1 - alpha / 2), 1e-9);
	assert_true(r.mbps > 50.0);
}

/* The same reaction with a 10 ms Long-haul recovery timer. */
static const struct emu_rate_cfg lhcfg = {
	.line_mbps = 100,
	.min_mbps = 2,
	.g = 1.0 / 16,
	.ai_mbps = 5,
	.recovery_us = 1000,
	.lh_recovery_us = 10000,
};

static void lh_setup(struct emu_rate *r, struct emu_lh *lh)
{
	emu_rate_init(r, &lhcfg, 0);
	emu_lh_init(lh);
}

static void test_lh_reduce_then_resume(void **state)
{
	struct emu_rate r;
	struct emu_lh lh;

	(void)state;
	lh_setup(&r, &lh);
	emu_lh_on_action(&lh, &r, &lhcfg, PNC_LH_RATE_REDUCE, 50, 10);
	assert_float_equal(r.mbps, 50.0, 1e-9);
	assert_true(lh.active);
	assert_float_equal(lh.cap_mbps, 100.0, 1e-9);
	emu_lh_on_action(&lh, &r, &lhcfg, PNC_LH_RATE_REDUCE, 20, 20); /* 50 -> 40 */
	assert_float_equal(r.mbps, 40.0, 1e-9);
	assert_float_equal(lh.lost_mbps, 60.0, 1e-9);
	/* Half of what was taken, then all the rest (0 means all). */
	emu_lh_on_action(&lh, &r, &lhcfg, PNC_LH_RESUME, 50, 30);
	assert_float_equal(r.mbps, 70.0, 1e-9);
	assert_true(lh.active);
	emu_lh_on_action(&lh, &r, &lhcfg, PNC_LH_RESUME, 0, 40);
	assert_float_equal(r.mbps, 100.0, 1e-9);
	/* Nothing left to give back: normal recovery is in charge again. */
	assert_false(lh.active);
	/* DCQCN cuts made meanwhile are not Long-haul's to give back. */
	emu_lh_on_action(&lh, &r, &lhcfg, PNC_LH_RATE_REDUCE, 50, 50); /* 100 -> 50 */
	emu_rate_on_cnp(&r, &lhcfg, 60);			       /* 50 -> 25 */
	emu_lh_on_action(&lh, &r, &lhcfg, PNC_LH_RESUME, 0, 70);
	assert_float_equal(r.mbps, 75.0, 1e-9);
}

static void test_lh_resume_cap(void **state)
{
	struct emu_rate r;
	struct emu_lh lh;

	(void)state;
	lh_setup(&r, &lh);
	/* The cap is the rate before the first reduction, not the line rate. */
	emu_rate_on_cnp(&r, &lhcfg, 0); /* 50 */
	emu_lh_on_action(&lh, &r, &lhcfg, PNC_LH_RATE_REDUCE, 50, 10);
	emu_lh_on_action(&lh, &r, &lhcfg, PNC_LH_RATE_REDUCE, 50, 20);
	assert_float_equal(r.mbps, 12.5, 1e-9);
	assert_float_equal(lh.cap_mbps, 50.0, 1e-9);
	/* Raised meanwhile (here by an advice): a Resume adds nothing above the cap. */
	emu_rate_on_advice(&r, &lhcfg, 45, 30);
	assert_float_equal(r.mbps, 45.0, 1e-9);
	emu_rate_on_advice(&r, &lhcfg, 0, 31);
	emu_lh_on_action(&lh, &r, &lhcfg, PNC_LH_RESUME, 0, 40);
	assert_float_equal(r.mbps, 50.0, 1e-9);
	assert_false(lh.active);
	/* And a Resume with no reduction in force changes nothing. */
	emu_lh_on_action(&lh, &r, &lhcfg, PNC_LH_RESUME, 0, 50);
	assert_float_equal(r.mbps, 50.0, 1e-9);
}

static void test_lh_reduce_floor_notify(void **state)
{
	struct emu_rate r;
	struct emu_lh lh;

	(void)state;
	lh_setup(&r, &lh);
	emu_lh_on_action(&lh, &r, &lhcfg, PNC_LH_NOTIFY, 0, 5);
	assert_float_equal(r.mbps, 100.0, 1e-9);
	assert_false(lh.active);
	assert_int_equal(lh.last_us, 5);
	/* 100 % would stop pacing: the floor holds, Pause is for stopping. */
	emu_lh_on_action(&lh, &r, &lhcfg, PNC_LH_RATE_REDUCE, 100, 10);
	assert_float_equal(r.mbps, lhcfg.min_mbps, 1e-9);
	assert_float_equal(lh.lost_mbps, 100.0 - lhcfg.min_mbps, 1e-9);
	emu_lh_on_action(&lh, &r, &lhcfg, PNC_LH_RATE_REDUCE, 0, 20);
	assert_float_equal(r.mbps, lhcfg.min_mbps, 1e-9);
}

static void test_lh_pause(void **state)
{
	struct emu_rate r;
	struct emu_lh lh;

	(void)state;
	lh_setup(&r, &lh);
	assert_false(emu_lh_paused(&lh, 0));
	emu_lh_on_action(&lh, &r, &lhcfg, PNC_LH_PAUSE, 2000, 100);
	assert_true(emu_lh_paused(&lh, 100));
	assert_true(emu_lh_paused(&lh, 2099));
	assert_false(emu_lh_paused(&lh, 2100));
	assert_float_equal(emu_lh_effective_mbps(&lh, &r, 1000), 0.0, 1e-12);
	assert_float_equal(emu_lh_effective_mbps(&lh, &r, 2100), 100.0, 1e-9);
	/* The target rate is untouched; a shorter Pause does not shorten it. */
	assert_float_equal(r.mbps, 100.0, 1e-9);
	emu_lh_on_action(&lh, &r, &lhcfg, PNC_LH_PAUSE, 10, 200);
	assert_true(emu_lh_paused(&lh, 2099));
	emu_lh_on_action(&lh, &r, &lhcfg, PNC_LH_PAUSE, 5000, 1000);
	assert_true(emu_lh_paused(&lh, 5999));
	assert_false(emu_lh_paused(&lh, 6000));
}

static void test_lh_timer_holds_then_recovers(void **state)
{
	struct emu_rate r;
	struct emu_lh lh;

	(void)state;
	lh_setup(&r, &lh);
	emu_lh_on_action(&lh, &r, &lhcfg, PNC_LH_RATE_REDUCE, 50, 0);
	emu_lh_tick(&lh, &r, &lhcfg, 5000);
	assert_float_equal(r.mbps, 50.0, 1e-9); /* held: no additive increase */
	/* Any message restarts the timer, a Notify too. */
	emu_lh_on_action(&lh, &r, &lhcfg, PNC_LH_NOTIFY, 0, 8000);
	emu_lh_tick(&lh, &r, &lhcfg, 17999);
	assert_float_equal(r.mbps, 50.0, 1e-9);
	assert_true(lh.active);
	emu_lh_tick(&lh, &r, &lhcfg, 18000);
	assert_false(lh.active);
	assert_float_equal(r.mbps, 50.0, 1e-9);
	/* From the expiry on, the normal recovery: three periods. */
	emu_lh_tick(&lh, &r, &lhcfg, 21500);
	assert_float_equal(r.mbps, 65.0, 1e-9);
	emu_lh_tick(&lh, &r, &lhcfg, 200000);
	assert_float_equal(r.mbps, lhcfg.line_mbps, 1e-9);
}

static void test_lh_timer_zero_waits_for_resume(void **state)
{
	struct emu_rate_cfg c = lhcfg;
	struct emu_rate r;
	struct emu_lh lh;

	(void)state;
	c.lh_recovery_us = 0;
	emu_rate_init(&r, &c, 0);
	emu_lh_init(&lh);
	emu_lh_on_action(&lh, &r, &c, PNC_LH_RATE_REDUCE, 50, 0);
	emu_lh_tick(&lh, &r, &c, 10000000);
	assert_float_equal(r.mbps, 50.0, 1e-9);
	emu_lh_on_action(&lh, &r, &c, PNC_LH_RESUME, 0, 10000000);
	assert_float_equal(r.mbps, 100.0, 1e-9);
}

static void test_lh_tick_idle_is_rate_tick(void **state)
{
	struct emu_rate a, b;
	struct emu_lh lh;

	(void)state;
	/* No Long-haul message: exactly the standard reaction. */
	lh_setup(&a, &lh);
	emu_rate_init(&b, &lhcfg, 0);
	emu_rate_on_cnp(&a, &lhcfg, 100);
	emu_rate_on_cnp(&b, &lhcfg, 100);
	emu_lh_tick(&lh, &a, &lhcfg, 4321);
	emu_rate_tick(&b, &lhcfg, 4321);
	assert_memory_equal(&a, &b, sizeof(a));
}

static void test_rate_advice(void **state)
{
	struct emu_rate r;

	(void)state;
	emu_rate_init(&r, &cfg, 0);
	emu_rate_on_advice(&r, &cfg, 30, 0);
	assert_float_equal(r.mbps, 30.0, 1e-9);
	/* Recovery after a cut stops at the advice. */
	emu_rate_on_cnp(&r, &cfg, 0); /* 15 */
	emu_rate_tick(&r, &cfg, 10000);
	assert_float_equal(r.mbps, 30.0, 1e-9);
	/* Never above the line rate. */
	emu_rate_on_advice(&r, &cfg, 500, 10000);
	assert_float_equal(r.mbps, cfg.line_mbps, 1e-9);
	emu_rate_on_advice(&r, &cfg, 20, 10000);
	/* Withdrawn: the rate stays, the normal recovery resumes from it. */
	emu_rate_on_advice(&r, &cfg, 0, 20000);
	assert_float_equal(r.mbps, 20.0, 1e-9);
	assert_float_equal(emu_rate_ceiling(&r, &cfg), cfg.line_mbps, 1e-9);
	emu_rate_tick(&r, &cfg, 22000);
	assert_float_equal(r.mbps, 30.0, 1e-9);
}

/*
 * An advice below --min-rate: the cuts stop at the floor, but do not
 * raise the rate to it above the advice (found by tests/fuzz/fuzz_emu_rx.c,
 * tests/fuzz/regress/emu_rx/advice-below-floor-then-cnp).
 */
static void test_rate_advice_below_floor(void **state)
{
	const struct emu_rate_cfg high = { .line_mbps = 100, .min_mbps = 20, .g = 1.0 / 16 };
	struct emu_rate r;
	struct emu_lh lh;

	(void)state;
	emu_rate_init(&r, &high, 0);
	emu_lh_init(&lh);
	emu_rate_on_advice(&r, &high, 10, 0);
	assert_float_equal(r.mbps, 10.0, 1e-9);
	emu_rate_on_cnp(&r, &high, 10);
	assert_float_equal(r.mbps, 10.0, 1e-9);
	assert_int_equal(r.cuts, 1);
	emu_lh_on_action(&lh, &r, &high, PNC_LH_RATE_REDUCE, 50, 20);
	assert_float_equal(r.mbps, 10.0, 1e-9);
	assert_float_equal(lh.lost_mbps, 0.0, 1e-9);
	/* Above the floor, a cut still stops at it. */
	emu_rate_init(&r, &high, 0);
	emu_rate_on_advice(&r, &high, 30, 0);
	emu_rate_on_cnp(&r, &high, 10);
	assert_float_equal(r.mbps, 20.0, 1e-9);
}

static void test_prefix_match(void **state)
{
	struct emu_prefix list[3] = {
		{ .version = 4, .addr = { 192, 0, 2, 2 }, .plen = 32 },
		{ .version = 4, .addr = { 198, 51, 96, 0 }, .plen = 20 },
		{ .version = 6, .addr = { 0x20, 0x01, 0x0d, 0xb8, [7] = 1 }, .plen = 64 },
	};
	uint8_t a[16] = { 192, 0, 2, 2 };
	uint8_t v6[16] = { 0x20, 0x01, 0x0d, 0xb8, [7] = 1, [15] = 9 };

	(void)state;
	assert_true(emu_prefix_match(list, 3, 4, a));
	a[3] = 3;
	assert_false(emu_prefix_match(list, 3, 4, a));
	/* /20: 198.51.96.0 - 198.51.111.255 */
	memcpy(a, (uint8_t[]){ 198, 51, 111, 255 }, 4);
	assert_true(emu_prefix_match(list, 3, 4, a));
	a[2] = 112;
	assert_false(emu_prefix_match(list, 3, 4, a));
	assert_true(emu_prefix_match(list, 3, 6, v6));
	v6[7] = 2;
	assert_false(emu_prefix_match(list, 3, 6, v6));
	/* Another family never matches; nothing configured matches nothing. */
	assert_false(emu_prefix_match(list, 2, 6, v6));
	assert_false(emu_prefix_match(list, 0, 4, a));
	list[0].plen = 0;
	assert_true(emu_prefix_match(list, 1, 4, a));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_cnp_halves),
		cmocka_unit_test(test_cuts_floor_at_min),
		cmocka_unit_test(test_recovery_per_full_period),
		cmocka_unit_test(test_tick_before_cut_is_harmless),
		cmocka_unit_test(test_alpha_drives_cut_depth),
		cmocka_unit_test(test_lh_reduce_then_resume),
		cmocka_unit_test(test_lh_resume_cap),
		cmocka_unit_test(test_lh_reduce_floor_notify),
		cmocka_unit_test(test_lh_pause),
		cmocka_unit_test(test_lh_timer_holds_then_recovers),
		cmocka_unit_test(test_lh_timer_zero_waits_for_resume),
		cmocka_unit_test(test_lh_tick_idle_is_rate_tick),
		cmocka_unit_test(test_rate_advice),
		cmocka_unit_test(test_rate_advice_below_floor),
		cmocka_unit_test(test_prefix_match),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
