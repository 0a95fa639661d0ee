// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the proxy table (cnpproxyd/rib/lpm.c): edge cases,
 * and longest-prefix match against a brute-force reference on random
 * IPv4 and IPv6 tables.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rib/lpm.h"

static struct pnc_pt_addr v4(uint8_t a, uint8_t b, uint8_t c, uint8_t d)
{
	struct pnc_pt_addr x = { .family = PNC_PT_AF_INET, .bytes = { a, b, c, d } };

	return x;
}

static struct pnc_pt_entry entry(struct pnc_pt_addr pfx, uint8_t len, enum pnc_pt_source src,
				 struct pnc_pt_addr proxy)
{
	struct pnc_pt_entry e = { .source = src, .proxy = proxy, .origin = 15 };

	e.prefix.addr = pfx;
	e.prefix.len = len;
	return e;
}

static void test_prefix_make(void **state)
{
	struct pnc_pt_prefix p;
	struct pnc_pt_addr a = v4(10, 1, 255, 255);
	struct pnc_pt_addr bad = { .family = 5 };

	(void)state;
	assert_true(pnc_pt_prefix_make(&p, &a, 20));
	assert_int_equal(p.addr.bytes[1], 1);
	assert_int_equal(p.addr.bytes[2], 0xf0);
	assert_int_equal(p.addr.bytes[3], 0);
	assert_true(pnc_pt_prefix_make(&p, &a, 0));
	assert_int_equal(p.addr.bytes[0], 0);
	assert_true(pnc_pt_prefix_make(&p, &a, 32));
	assert_false(pnc_pt_prefix_make(&p, &a, 33));
	assert_false(pnc_pt_prefix_make(&p, &bad, 8));
}

static void test_set_unset(void **state)
{
	struct pnc_pt_table pt;
	struct pnc_pt_entry e = entry(v4(10, 1, 2, 3), 24, PNC_PT_SOURCE_LEARNED, v4(192, 0, 2, 1));
	struct pnc_pt_addr q = v4(10, 1, 2, 200);
	const struct pnc_pt_entry *r;

	(void)state;
	pnc_pt_init(&pt);
	assert_int_equal(pnc_pt_set(&pt, &e), 1);
	assert_int_equal(pnc_pt_set(&pt, &e), 0); /* identical: no change */
	e.proxy = v4(192, 0, 2, 2);
	assert_int_equal(pnc_pt_set(&pt, &e), 2); /* proxy changed */
	assert_int_equal(pt.count, 1);

	r = pnc_pt_lookup(&pt, &q);
	assert_non_null(r);
	/* host bits of the stored prefix are cleared */
	assert_int_equal(r->prefix.addr.bytes[3], 0);
	assert_int_equal(r->proxy.bytes[3], 2);

	/* a static entry for the same prefix loses to the learned one */
	e.source = PNC_PT_SOURCE_STATIC;
	e.proxy = v4(198, 51, 100, 1);
	assert_int_equal(pnc_pt_set(&pt, &e), 1);
	assert_int_equal(pnc_pt_lookup(&pt, &q)->source, PNC_PT_SOURCE_LEARNED);
	assert_true(pnc_pt_unset(&pt, &e.prefix, PNC_PT_SOURCE_LEARNED));
	assert_false(pnc_pt_unset(&pt, &e.prefix, PNC_PT_SOURCE_LEARNED));
	assert_int_equal(pnc_pt_lookup(&pt, &q)->source, PNC_PT_SOURCE_STATIC);

	/* invalid input is refused and changes nothing */
	e.prefix.len = 40;
	assert_int_equal(pnc_pt_set(&pt, &e), -1);
	e.prefix.len = 24;
	e.proxy.family = 0;
	assert_int_equal(pnc_pt_set(&pt, &e), -1);
	assert_int_equal(pt.count, 1);

	assert_int_equal(pnc_pt_flush(&pt, PNC_PT_SOURCE_STATIC), 1);
	assert_null(pnc_pt_lookup(&pt, &q));
	pnc_pt_fini(&pt);
}

/* Where a walk in order resumes: the first entry of a prefix, or of the next one. */
static void test_rank(void **state)
{
	struct pnc_pt_table pt;
	struct pnc_pt_entry a = entry(v4(10, 1, 0, 0), 16, PNC_PT_SOURCE_LEARNED, v4(192, 0, 2, 1));
	struct pnc_pt_entry a_static = entry(v4(10, 1, 0, 0), 16, PNC_PT_SOURCE_STATIC,
					     v4(192, 0, 2, 2));
	struct pnc_pt_entry b = entry(v4(10, 3, 0, 0), 16, PNC_PT_SOURCE_STATIC, v4(192, 0, 2, 3));
	struct pnc_pt_prefix p;
	struct pnc_pt_addr host = v4(10, 1, 7, 7), gap = v4(10, 2, 0, 0);
	size_t i;

	(void)state;
	pnc_pt_init(&pt);
	assert_int_equal(pnc_pt_set(&pt, &b), 1);
	assert_int_equal(pnc_pt_set(&pt, &a_static), 1);
	assert_int_equal(pnc_pt_set(&pt, &a), 1);
	/* Sorted by length, then address: 10.1/16 learned, 10.1/16 static, 10.3/16 */
	i = pnc_pt_rank(&pt, &a.prefix);
	assert_int_equal(i, 0);
	assert_int_equal(pt.entries[i].source, PNC_PT_SOURCE_LEARNED);
	/* host bits typed: the same prefix */
	p.addr = host;
	p.len = 16;
	assert_int_equal(pnc_pt_rank(&pt, &p), 0);
	/* a prefix not in the table: where it would be */
	p.addr = gap;
	assert_int_equal(pnc_pt_rank(&pt, &p), 2);
	assert_int_equal(pnc_pt_rank(&pt, &b.prefix), 2);
	p.len = 17; /* after every /16 */
	assert_int_equal(pnc_pt_rank(&pt, &p), pt.count);
	p.len = 40;
	assert_int_equal(pnc_pt_rank(&pt, &p), pt.count);
	pnc_pt_fini(&pt);
}

static void test_families_do_not_mix(void **state)
{
	struct pnc_pt_table pt;
	struct pnc_pt_addr six = { .family = PNC_PT_AF_INET6 };
	struct pnc_pt_entry e = entry(v4(0, 0, 0, 0), 0, PNC_PT_SOURCE_LEARNED, v4(192, 0, 2, 1));

	(void)state;
	pnc_pt_init(&pt);
	assert_int_equal(pnc_pt_set(&pt, &e), 1); /* IPv4 default route */
	assert_non_null(pnc_pt_lookup(&pt, &e.prefix.addr));
	assert_null(pnc_pt_lookup(&pt, &six));
	pnc_pt_fini(&pt);
}

/* ---- brute force reference ---------------------------------------------- */

static bool covers(const struct pnc_pt_prefix *p, const struct pnc_pt_addr *a)
{
	struct pnc_pt_prefix q;

	if (p->addr.family != a->family)
		return false;
	pnc_pt_prefix_make(&q, a, p->len);
	return !memcmp(q.addr.bytes, p->addr.bytes, 16);
}

static const struct pnc_pt_entry *reference(const struct pnc_pt_entry *set, const bool *live,
					    size_t n, const struct pnc_pt_addr *a)
{
	const struct pnc_pt_entry *best = NULL;

	for (size_t i = 0; i < n; i++) {
		if (!live[i] || !covers(&set[i].prefix, a))
			continue;
		if (!best || set[i].prefix.len > best->prefix.len ||
		    (set[i].prefix.len == best->prefix.len && set[i].source < best->source))
			best = &set[i];
	}
	return best;
}

/* Addresses from a small pool of bit patterns, so prefixes nest often. */
static struct pnc_pt_addr random_addr(uint8_t family)
{
	struct pnc_pt_addr a = { .family = family };
	size_t len = pnc_pt_addr_len(family);
	uint8_t pool[] = { 0x00, 0x0a, 0x80, 0xc0, 0xff, 0x20 };

	for (size_t i = 0; i < len; i++)
		a.bytes[i] = (rand() % 4) ? pool[rand() % sizeof(pool)] : (uint8_t)rand();
	return a;
}

#define N_ENTRIES 400
#define N_OPS	  4000
#define N_QUERIES 200

static void run_random(uint8_t family, unsigned int seed)
{
	static struct pnc_pt_entry set[N_ENTRIES];
	static bool live[N_ENTRIES];
	struct pnc_pt_table pt;
	unsigned int maxlen = pnc_pt_addr_len(family) * 8;

	srand(seed);
	pnc_pt_init(&pt);
	memset(live, 0, sizeof(live));
	for (size_t i = 0; i < N_ENTRIES; i++) {
		bool dup;

		/* keys must be unique, or the reference would be ambiguous */
		do {
			struct pnc_pt_addr a = random_addr(family);
			uint8_t len = (uint8_t)(rand() % (maxlen + 1));

			set[i] = entry(a, len,
				       rand() % 3 ? PNC_PT_SOURCE_LEARNED : PNC_PT_SOURCE_STATIC,
				       v4(192, 0, (uint8_t)(i >> 8), (uint8_t)i));
			pnc_pt_prefix_make(&set[i].prefix, &a, len);
			dup = false;
			for (size_t j = 0; j < i && !dup; j++)
				dup = !memcmp(&set[j].prefix, &set[i].prefix,
					      sizeof(set[i].prefix)) &&
				      set[j].source == set[i].source;
		} while (dup);
	}

	for (int op = 0; op < N_OPS; op++) {
		size_t i = (size_t)rand() % N_ENTRIES;

		if (live[i]) {
			assert_true(pnc_pt_unset(&pt, &set[i].prefix, set[i].source));
			live[i] = false;
		} else if (pnc_pt_set(&pt, &set[i]) == 1) {
			live[i] = true;
		}

		if (op % 20)
			continue;
		for (int q = 0; q < N_QUERIES; q++) {
			struct pnc_pt_addr a = random_addr(family);
			const struct pnc_pt_entry *want = reference(set, live, N_ENTRIES, &a);
			const struct pnc_pt_entry *got = pnc_pt_lookup(&pt, &a);

			if (!want) {
				assert_null(got);
				continue;
			}
			assert_non_null(got);
			assert_int_equal(got->prefix.len, want->prefix.len);
			assert_int_equal(got->source, want->source);
			assert_memory_equal(&got->proxy, &want->proxy, sizeof(got->proxy));
		}
	}
	pnc_pt_fini(&pt);
}

static void test_random_ipv4(void **state)
{
	(void)state;
	for (unsigned int seed = 1; seed <= 3; seed++)
		run_random(PNC_PT_AF_INET, seed);
}

static void test_random_ipv6(void **state)
{
	(void)state;
	for (unsigned int seed = 1; seed <= 3; seed++)
		run_random(PNC_PT_AF_INET6, seed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prefix_make),	    cmocka_unit_test(test_set_unset),
		cmocka_unit_test(test_families_do_not_mix), cmocka_unit_test(test_random_ipv4),
		cmocka_unit_test(test_random_ipv6),	    cmocka_unit_test(test_rank),
	};

	return cmocka_run_group_tests_name("proxy_table", tests, NULL, NULL);
}
