// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * roce-emu's DCQCN-like rate reaction.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_cnp_halves),
		cmocka_unit_test(test_cuts_floor_at_min),
		cmocka_unit_test(test_recovery_per_full_period),
		cmocka_unit_test(test_tick_before_cut_is_harmless),
		cmocka_unit_test(test_alpha_drives_cut_depth),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
