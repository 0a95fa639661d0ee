// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The token bucket behind cnpproxyd's notification rate limits.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cnpproxy_ratelimit.h"

static unsigned int taken(struct pnc_bucket *b, uint64_t from_us, uint64_t to_us, uint64_t step)
{
	unsigned int n = 0;

	for (uint64_t t = from_us; t < to_us; t += step)
		n += pnc_bucket_take(b, t);
	return n;
}

static void test_burst_then_rate(void **state)
{
	struct pnc_bucket b;

	(void)state;
	pnc_bucket_init(&b, 1000, 10, 0);
	/* A full bucket gives the burst at once, then nothing. */
	assert_int_equal(taken(&b, 0, 1, 1) + taken(&b, 0, 1, 1), 2);
	for (int i = 0; i < 8; i++)
		assert_true(pnc_bucket_take(&b, 0));
	assert_false(pnc_bucket_take(&b, 0));
	/* 1000/s: one more token per millisecond. */
	assert_false(pnc_bucket_take(&b, 999));
	assert_true(pnc_bucket_take(&b, 1000));
	assert_false(pnc_bucket_take(&b, 1000));
}

static void test_long_run_rate(void **state)
{
	struct pnc_bucket b;

	(void)state;
	pnc_bucket_init(&b, 500, 1, 0);
	/*
	 * Asked every 100 us during [0, 10 s): the initial token, then one
	 * every 2 ms; the 5000th refill would come at 10 s exactly.
	 */
	assert_int_equal(taken(&b, 0, 10000000, 100), 5000);
}

static void test_idle_does_not_overfill(void **state)
{
	struct pnc_bucket b;

	(void)state;
	pnc_bucket_init(&b, 1000000, 5, 0);
	assert_int_equal(taken(&b, 3600000000ull, 3600000001ull, 1), 1);
	for (int i = 0; i < 4; i++)
		assert_true(pnc_bucket_take(&b, 3600000000ull));
	assert_false(pnc_bucket_take(&b, 3600000000ull));
}

static void test_time_going_back_is_ignored(void **state)
{
	struct pnc_bucket b;

	(void)state;
	pnc_bucket_init(&b, 10, 1, 5000000);
	assert_true(pnc_bucket_take(&b, 5000000));
	assert_false(pnc_bucket_take(&b, 4000000));
	assert_true(pnc_bucket_take(&b, 5100000));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_burst_then_rate),
		cmocka_unit_test(test_long_run_rate),
		cmocka_unit_test(test_idle_does_not_overfill),
		cmocka_unit_test(test_time_going_back_is_ignored),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
