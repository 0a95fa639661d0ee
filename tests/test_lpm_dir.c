// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the compiled proxy table (cnpproxyd/rib/lpm_dir.c):
 * every lookup must give the entry pnc_pt_lookup() gives on the table it was
 * built from, with narrow and wide first tables, both families, learned
 * and static entries of one prefix; and the memory limit must refuse
 * without leaving anything behind.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rib/lpm.h"
#include "rib/lpm_dir.h"

static struct pnc_pt_addr addr_of(uint8_t family, const uint8_t *bytes)
{
	struct pnc_pt_addr a = { .family = family };

	memcpy(a.bytes, bytes, pnc_pt_addr_len(family));
	return a;
}

static void add(struct pnc_pt_table *pt, uint8_t family, const uint8_t *bytes, uint8_t len,
		enum pnc_pt_source source, uint8_t proxy_tag)
{
	struct pnc_pt_entry e = { .source = source, .origin = 7 };
	struct pnc_pt_addr a = addr_of(family, bytes);

	assert_true(pnc_pt_prefix_make(&e.prefix, &a, len));
	e.proxy.family = PNC_PT_AF_INET;
	e.proxy.bytes[0] = 192;
	e.proxy.bytes[3] = proxy_tag;
	e.flags = (uint8_t)(len ^ proxy_tag);
	assert_true(pnc_pt_set(pt, &e) >= 0);
}

/* The two lookups agree, entry for entry (the same prefix and proxy). */
static void expect_same(const struct pnc_pt_table *pt, const struct pt_dir *d,
			const struct pnc_pt_addr *a)
{
	const struct pnc_pt_entry *want = pnc_pt_lookup(pt, a);
	const struct pnc_pt_entry *got = pnc_pt_dir_lookup(d, a);

	if (!want) {
		assert_null(got);
		return;
	}
	assert_non_null(got);
	assert_int_equal(got->prefix.len, want->prefix.len);
	assert_memory_equal(got->prefix.addr.bytes, want->prefix.addr.bytes, 16);
	assert_int_equal(got->source, want->source);
	assert_memory_equal(got->proxy.bytes, want->proxy.bytes, 16);
	assert_int_equal(got->flags, want->flags);
}

/* Addresses near what the table holds, where an error would show. */
static void probe_around(const struct pnc_pt_table *pt, const struct pt_dir *d)
{
	for (size_t i = 0; i < pt->count; i++) {
		const struct pnc_pt_prefix *p = &pt->entries[i].prefix;
		size_t alen = pnc_pt_addr_len(p->addr.family);
		struct pnc_pt_addr a = p->addr, last = p->addr, past;

		/* The first and last address of the prefix, and the next. */
		for (unsigned int bit = p->len; bit < alen * 8; bit++)
			last.bytes[bit / 8] |= (uint8_t)(0x80 >> (bit % 8));
		past = last;
		for (int k = (int)alen - 1; k >= 0 && ++past.bytes[k] == 0; k--)
			;
		expect_same(pt, d, &a);
		expect_same(pt, d, &last);
		expect_same(pt, d, &past);
	}
}

static void random_bytes(uint8_t *b, size_t n, unsigned int clustered)
{
	/* Mostly from a few values, so that prefixes nest and collide. */
	static const uint8_t pool[] = { 0, 10, 0x20, 0x7f, 0x80, 0xfe, 0xff };

	for (size_t i = 0; i < n; i++)
		b[i] = clustered && rand() % 4 ? pool[rand() % sizeof(pool)] : (uint8_t)rand();
}

#define N_RANDOM 20003 /* not a multiple of PNC_PT_DIR_BULK */

static void run_random(uint8_t family, size_t n_entries, unsigned int seed)
{
	static struct pnc_pt_addr addrs[N_RANDOM];
	static const struct pnc_pt_entry *bulk[N_RANDOM];
	size_t alen = pnc_pt_addr_len(family);
	struct pnc_pt_table pt;
	struct pnc_pt_dir_info info;
	struct pt_dir *d;
	uint8_t b[16];

	srand(seed);
	pnc_pt_init(&pt);
	for (size_t i = 0; i < n_entries; i++) {
		random_bytes(b, alen, i % 2);
		add(&pt, family, b, (uint8_t)(rand() % (alen * 8 + 1)),
		    rand() % 3 ? PNC_PT_SOURCE_LEARNED : PNC_PT_SOURCE_STATIC, (uint8_t)rand());
	}
	/* Some prefixes held by both sources: learned must win. */
	for (size_t i = 0; i < pt.count; i += 7) {
		struct pnc_pt_entry e = pt.entries[i];

		e.source = e.source == PNC_PT_SOURCE_LEARNED ? PNC_PT_SOURCE_STATIC
							     : PNC_PT_SOURCE_LEARNED;
		e.proxy.bytes[3] ^= 0x55;
		assert_true(pnc_pt_set(&pt, &e) >= 0);
	}
	d = pnc_pt_dir_build(&pt, SIZE_MAX, NULL);
	assert_non_null(d);
	pnc_pt_dir_info(d, &info);
	assert_true(info.generation == pt.generation);
	if (family == PNC_PT_AF_INET)
		assert_int_equal(info.v4.first_bits,
				 info.v4.prefixes > PNC_PT_DIR_WIDE_MIN ? 24 : 16);
	else
		assert_int_equal(info.v4.first_bits, 0);

	probe_around(&pt, d);
	for (int i = 0; i < N_RANDOM; i++) {
		random_bytes(addrs[i].bytes, alen, i % 2);
		/* Now and then another family, or none, among them. */
		addrs[i].family = i % 97 == 0	? PNC_PT_AF_INET + PNC_PT_AF_INET6 - family
				  : i % 89 == 0 ? 5
						: family;
		expect_same(&pt, d, &addrs[i]);
	}
	/* In batches, and a last one shorter than PNC_PT_DIR_BULK. */
	pnc_pt_dir_lookup_bulk(d, addrs, N_RANDOM, bulk);
	for (int i = 0; i < N_RANDOM; i++)
		assert_ptr_equal(bulk[i], pnc_pt_dir_lookup(d, &addrs[i]));
	pnc_pt_dir_free(d);
	pnc_pt_fini(&pt);
}

static void test_random_narrow(void **state)
{
	(void)state;
	for (unsigned int seed = 1; seed <= 20; seed++) {
		run_random(PNC_PT_AF_INET, 300, seed);
		run_random(PNC_PT_AF_INET6, 300, seed);
	}
}

/* More prefixes than PNC_PT_DIR_WIDE_MIN: the 24-bit first table. */
static void test_random_wide(void **state)
{
	(void)state;
	run_random(PNC_PT_AF_INET, PNC_PT_DIR_WIDE_MIN * 2, 100);
	run_random(PNC_PT_AF_INET6, PNC_PT_DIR_WIDE_MIN * 2, 101);
}

static void test_edges(void **state)
{
	static const uint8_t zero[16],
		ones[16] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
			     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	struct pnc_pt_table pt;
	struct pnc_pt_dir_info info;
	struct pt_dir *d;
	struct pnc_pt_addr a, other = { .family = 5 };

	(void)state;
	pnc_pt_init(&pt);

	/* Empty: nothing found, a few hundred octets held. */
	d = pnc_pt_dir_build(&pt, SIZE_MAX, NULL);
	assert_non_null(d);
	a = addr_of(PNC_PT_AF_INET, ones);
	assert_null(pnc_pt_dir_lookup(d, &a));
	pnc_pt_dir_info(d, &info);
	assert_true(info.bytes < 1024);
	pnc_pt_dir_free(d);

	/* Default routes and host routes of both families. */
	add(&pt, PNC_PT_AF_INET, zero, 0, PNC_PT_SOURCE_STATIC, 1);
	add(&pt, PNC_PT_AF_INET, ones, 32, PNC_PT_SOURCE_LEARNED, 2);
	add(&pt, PNC_PT_AF_INET6, zero, 0, PNC_PT_SOURCE_STATIC, 3);
	add(&pt, PNC_PT_AF_INET6, ones, 128, PNC_PT_SOURCE_LEARNED, 4);
	add(&pt, PNC_PT_AF_INET6, ones, 127, PNC_PT_SOURCE_STATIC, 5);
	d = pnc_pt_dir_build(&pt, SIZE_MAX, NULL);
	assert_non_null(d);
	probe_around(&pt, d);
	a = addr_of(PNC_PT_AF_INET, ones);
	assert_int_equal(pnc_pt_dir_lookup(d, &a)->proxy.bytes[3], 2);
	a.bytes[3] = 0xfe;
	assert_int_equal(pnc_pt_dir_lookup(d, &a)->proxy.bytes[3], 1);
	a = addr_of(PNC_PT_AF_INET6, ones);
	a.bytes[15] = 0xfe;
	assert_int_equal(pnc_pt_dir_lookup(d, &a)->proxy.bytes[3], 5);
	assert_null(pnc_pt_dir_lookup(d, &other));
	pnc_pt_dir_info(d, &info);
	assert_int_equal(info.v4.depth, 3);  /* 16 + 8 + 8 */
	assert_int_equal(info.v6.depth, 15); /* 16 + 14 x 8 */
	assert_int_equal(info.v6.prefixes, 3);
	pnc_pt_dir_free(d);
	pnc_pt_fini(&pt);
}

/* Over the limit: refused, with the size it would have needed. */
static void test_memory_limit(void **state)
{
	struct pnc_pt_table pt;
	struct pnc_pt_dir_info info;
	struct pt_dir *d;
	size_t needed = 0;
	uint8_t b[16] = { 0x20, 0x01 };

	(void)state;
	pnc_pt_init(&pt);
	/* 200 scattered /128s: a chain of 14 tables each. */
	for (int i = 0; i < 200; i++) {
		b[2] = (uint8_t)i;
		b[15] = (uint8_t)i;
		add(&pt, PNC_PT_AF_INET6, b, 128, PNC_PT_SOURCE_LEARNED, 1);
	}
	d = pnc_pt_dir_build(&pt, SIZE_MAX, NULL);
	assert_non_null(d);
	pnc_pt_dir_info(d, &info);
	assert_int_equal(info.v6.groups, 1 + 200 * 13);
	pnc_pt_dir_free(d);

	d = pnc_pt_dir_build(&pt, info.bytes / 2, &needed);
	assert_null(d);
	assert_true(needed > info.bytes / 2);
	/* The first table alone over the limit. */
	d = pnc_pt_dir_build(&pt, 1000, &needed);
	assert_null(d);
	assert_true(needed > 1000);
	/* Exactly enough. */
	d = pnc_pt_dir_build(&pt, info.bytes, &needed);
	assert_non_null(d);
	pnc_pt_dir_free(d);
	pnc_pt_fini(&pt);
}

/* Every change of the source table moves its generation. */
static void test_generation(void **state)
{
	struct pnc_pt_table pt;
	uint8_t b[4] = { 10 };
	struct pnc_pt_prefix p;
	struct pnc_pt_addr a = addr_of(PNC_PT_AF_INET, b);
	uint64_t g;

	(void)state;
	pnc_pt_init(&pt);
	g = pt.generation;
	add(&pt, PNC_PT_AF_INET, b, 8, PNC_PT_SOURCE_LEARNED, 1);
	assert_true(pt.generation != g);
	g = pt.generation;
	add(&pt, PNC_PT_AF_INET, b, 8, PNC_PT_SOURCE_LEARNED, 1); /* identical */
	assert_true(pt.generation == g);
	add(&pt, PNC_PT_AF_INET, b, 8, PNC_PT_SOURCE_LEARNED, 2); /* changed */
	assert_true(pt.generation != g);
	g = pt.generation;
	assert_true(pnc_pt_prefix_make(&p, &a, 8));
	assert_true(pnc_pt_unset(&pt, &p, PNC_PT_SOURCE_LEARNED));
	assert_true(pt.generation != g);
	g = pt.generation;
	assert_int_equal(pnc_pt_flush(&pt, PNC_PT_SOURCE_STATIC), 0);
	assert_true(pt.generation == g);
	pnc_pt_fini(&pt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edges),	    cmocka_unit_test(test_random_narrow),
		cmocka_unit_test(test_random_wide), cmocka_unit_test(test_memory_limit),
		cmocka_unit_test(test_generation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
