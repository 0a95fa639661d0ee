// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The accept list as the XDP guard's longest-match table
 * (cnpproxyd/proxy/plist_lpm.c): chosen cases, then random lists
 * where the table must judge every address as the list does.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "proxy/plist_lpm.h"

#define MAX_RULES 64

static struct cnpproxy_plist_rule rule4(int64_t seq, bool permit, uint32_t addr, uint8_t plen,
					uint8_t ge, uint8_t le)
{
	struct cnpproxy_plist_rule r = {
		.seq = seq,
		.permit = permit,
		.version = 4,
		.plen = plen,
		.ge = ge,
		.le = le,
	};

	r.addr[0] = addr >> 24;
	r.addr[1] = addr >> 16;
	r.addr[2] = addr >> 8;
	r.addr[3] = addr;
	return r;
}

static bool table_permits(const struct cnpproxy_plist_rule *rules, size_t n, uint32_t host)
{
	struct cnpproxy_lpm_rule t[MAX_RULES];
	uint8_t a[16] = { host >> 24, host >> 16, host >> 8, host };
	size_t nt = cnpproxy_plist_lpm(rules, n, t);

	assert_int_equal(cnpproxy_lpm_permits(t, nt, 4, a), cnpproxy_plist_permits(rules, n, 4, a));
	return cnpproxy_lpm_permits(t, nt, 4, a);
}

#define IP(a, b, c, d) ((uint32_t)(a) << 24 | (b) << 16 | (c) << 8 | (d))

/* seq 5 deny 10.0.1.0/24 le 32, seq 10 permit 10.0.0.0/16 le 32. */
static void test_deny_inside_permit(void **state)
{
	struct cnpproxy_plist_rule r[] = {
		rule4(5, false, IP(10, 0, 1, 0), 24, 0, 32),
		rule4(10, true, IP(10, 0, 0, 0), 16, 0, 32),
	};

	assert_false(table_permits(r, 2, IP(10, 0, 1, 7)));
	assert_true(table_permits(r, 2, IP(10, 0, 2, 7)));
	assert_false(table_permits(r, 2, IP(10, 1, 0, 1))); /* the implicit deny */
}

/* The same entries the other way round: the permit matches first, everywhere. */
static void test_shadowed_entry_left_out(void **state)
{
	struct cnpproxy_plist_rule r[] = {
		rule4(5, true, IP(10, 0, 0, 0), 16, 0, 32),
		rule4(10, false, IP(10, 0, 1, 0), 24, 0, 32),
	};
	struct cnpproxy_lpm_rule t[2];

	assert_int_equal(cnpproxy_plist_lpm(r, 2, t), 1);
	assert_true(table_permits(r, 2, IP(10, 0, 1, 7)));
}

/* Without ge/le a /24 matches only the /24 itself, never a host. */
static void test_exact_prefix_never_decides(void **state)
{
	struct cnpproxy_plist_rule r[] = {
		rule4(5, false, IP(10, 0, 1, 0), 24, 0, 0),
		rule4(10, true, IP(10, 0, 1, 9), 32, 0, 0),
		rule4(15, true, IP(10, 0, 0, 0), 8, 0, 24), /* le below the host length */
	};
	struct cnpproxy_lpm_rule t[3];

	assert_int_equal(cnpproxy_plist_lpm(r, 3, t), 1);
	assert_true(table_permits(r, 3, IP(10, 0, 1, 9)));
	assert_false(table_permits(r, 3, IP(10, 0, 1, 8)));
}

/* `any`: 0.0.0.0/0 le 32; ge 32 alone reaches hosts too. */
static void test_any_and_ge(void **state)
{
	struct cnpproxy_plist_rule r[] = {
		rule4(5, false, IP(192, 0, 2, 0), 24, 32, 0),
		rule4(10, true, 0, 0, 0, 32),
	};

	assert_false(table_permits(r, 2, IP(192, 0, 2, 1)));
	assert_true(table_permits(r, 2, IP(198, 51, 100, 1)));
}

/* IPv6 entries judge IPv6 addresses only. */
static void test_families_apart(void **state)
{
	struct cnpproxy_plist_rule r[2] = {
		{ .seq = 5,
		  .permit = true,
		  .version = 6,
		  .plen = 32,
		  .le = 128,
		  .addr = { 0x20, 0x01, 0x0d, 0xb8 } },
		rule4(10, true, IP(10, 0, 0, 0), 8, 0, 32),
	};
	struct cnpproxy_lpm_rule t[2];
	uint8_t in6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 1 }, out6[16] = { 0x20, 0x01, 0x0d, 0xb9 };
	uint8_t v4[16] = { 0x20, 0x01, 0x0d, 0xb8 };
	size_t n = cnpproxy_plist_lpm(r, 2, t);

	assert_int_equal(n, 2);
	assert_true(cnpproxy_lpm_permits(t, n, 6, in6));
	assert_false(cnpproxy_lpm_permits(t, n, 6, out6));
	assert_false(cnpproxy_lpm_permits(t, n, 4, v4)); /* 32.1.13.184 */
}

/*
 * Random lists over a small space (10.0.0.0/22, lengths 20..32, random
 * ge/le), so that entries overlap in every way: the table and the list
 * agree on every address of the space.
 */
static void test_random_lists_agree(void **state)
{
	struct cnpproxy_plist_rule r[MAX_RULES];
	unsigned int seed = 20261124;

	for (int round = 0; round < 2000; round++) {
		size_t n = 1 + rand_r(&seed) % 24;

		for (size_t i = 0; i < n; i++) {
			uint8_t plen = 20 + rand_r(&seed) % 13;
			uint32_t addr = IP(10, 0, 0, 0) | (rand_r(&seed) & 0x3ff);
			uint8_t ge = 0, le = 0;

			addr &= plen ? ~0u << (32 - plen) : 0;
			switch (rand_r(&seed) % 4) {
			case 1:
				le = plen + rand_r(&seed) % (33 - plen);
				break;
			case 2:
				ge = plen + rand_r(&seed) % (33 - plen);
				break;
			case 3:
				ge = plen + rand_r(&seed) % (33 - plen);
				le = ge + rand_r(&seed) % (33 - ge);
				break;
			}
			r[i] = rule4((int64_t)(i + 1) * 5, rand_r(&seed) % 2, addr, plen, ge, le);
		}
		for (uint32_t host = 0; host < 1024; host++)
			table_permits(r, n, IP(10, 0, 0, 0) | host);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deny_inside_permit),
		cmocka_unit_test(test_shadowed_entry_left_out),
		cmocka_unit_test(test_exact_prefix_never_decides),
		cmocka_unit_test(test_any_and_ge),
		cmocka_unit_test(test_families_apart),
		cmocka_unit_test(test_random_lists_agree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
