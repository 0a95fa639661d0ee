// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pnc-bench-tables: what the proxy table and the flow table cost, in
 * one process (make bench runs it; tests/bench/tables).
 *
 *   pnc-bench-tables [RUNS]
 *
 * Proxy table: lookups a second on one core, through the compiled table
 * (rib/lpm_dir.c) and through the sorted table it is built from
 * (pnc_pt_lookup), at 1 k and 1 M IPv4 prefixes (lengths as in a routing
 * table: mostly /24, some shorter, some longer) and IPv6 prefixes (/48s
 * mostly, under 16 /32s); the build time and the memory of each.  The
 * addresses looked up are inside random prefixes of the table, read
 * from an array larger than the caches, so the figure includes the
 * memory latency a busy router sees.  CPU time is the thread's own
 * (CLOCK_THREAD_CPUTIME_ID), not sampled.
 *
 * Flow table: the memory of a table of 1 M flows, filled, and the cost
 * of a lookup in it.
 *
 * Each figure is measured RUNS times (default 3); the JSON on stdout
 * gives min, median and max.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "proxy/flows.h"
#include "rib/lpm.h"
#include "rib/lpm_dir.h"

#define MAX_RUNS     15
#define ADDRS	     (1u << 22) /* 4 Mi addresses: 64 MiB, past the caches */
#define DIR_LOOKUPS  (1u << 25)
#define SORT_LOOKUPS (1u << 20)
#define FLOWS	     1000000u

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
/* Where the results of the timed loops go, so that they are not optimised away. */
static volatile uintptr_t sink_out;

static uint64_t rng(void)
{
	/* xorshift64*: reproducible from one run to the next. */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void print_stat(const char *name, double *v, int n, const char *sep)
{
	qsort(v, n, sizeof(*v), dcmp);
	printf("\"%s\": {\"min\": %.6g, \"median\": %.6g, \"max\": %.6g}%s", name, v[0], v[n / 2],
	       v[n - 1], sep);
}

static uint8_t v4_len(void)
{
	unsigned int r = rng() % 100;

	if (r < 10)
		return 8 + rng() % 16; /* /8 .. /23 */
	if (r < 90)
		return 24;
	return 25 + rng() % 8; /* /25 .. /32 */
}

static uint8_t v6_len(void)
{
	unsigned int r = rng() % 100;

	if (r < 10)
		return 32 + rng() % 16;
	if (r < 90)
		return 48;
	return 49 + rng() % 16;
}

static int entry_cmp(const void *a, const void *b)
{
	const struct pnc_pt_entry *x = a, *y = b;

	if (x->prefix.len != y->prefix.len)
		return x->prefix.len < y->prefix.len ? -1 : 1;
	return memcmp(x->prefix.addr.bytes, y->prefix.addr.bytes, 16);
}

/* n random prefixes of the family, put in in the table's order (cheap). */
static void fill_table(struct pnc_pt_table *pt, uint8_t family, size_t n)
{
	struct pnc_pt_entry *e = calloc(n, sizeof(*e));

	for (size_t i = 0; i < n; i++) {
		struct pnc_pt_addr a = { .family = family };
		uint64_t r = rng(), s = rng();

		if (family == PNC_PT_AF_INET) {
			memcpy(a.bytes, &r, 4);
			pnc_pt_prefix_make(&e[i].prefix, &a, v4_len());
		} else {
			a.bytes[0] = 0x20;
			a.bytes[1] = 0x01;
			a.bytes[2] = 0x0d;
			a.bytes[3] = 0xb0 + (r & 15);
			memcpy(a.bytes + 4, &s, 8);
			pnc_pt_prefix_make(&e[i].prefix, &a, v6_len());
		}
		e[i].source = PNC_PT_SOURCE_LEARNED;
		e[i].proxy.family = PNC_PT_AF_INET;
		memcpy(e[i].proxy.bytes, &s, 4);
	}
	qsort(e, n, sizeof(*e), entry_cmp);
	for (size_t i = 0; i < n; i++)
		pnc_pt_set(pt, &e[i]);
	free(e);
}

/* Addresses inside random prefixes of the table. */
static struct pnc_pt_addr *make_addrs(const struct pnc_pt_table *pt)
{
	struct pnc_pt_addr *a = malloc(ADDRS * sizeof(*a));

	for (size_t i = 0; i < ADDRS; i++) {
		const struct pnc_pt_prefix *p = &pt->entries[rng() % pt->count].prefix;
		size_t alen = pnc_pt_addr_len(p->addr.family);
		uint64_t r[2] = { rng(), rng() };
		const uint8_t *host = (const uint8_t *)r;

		a[i] = p->addr;
		for (unsigned int bit = p->len; bit < alen * 8; bit++)
			if (host[bit / 8 % 16] & (0x80 >> (bit % 8)))
				a[i].bytes[bit / 8] |= (uint8_t)(0x80 >> (bit % 8));
	}
	return a;
}

static void bench_lpm(const char *name, uint8_t family, size_t n, int runs, const char *sep)
{
	double dir_rate[MAX_RUNS], bulk_rate[MAX_RUNS], sort_rate[MAX_RUNS], build_ms[MAX_RUNS];
	struct pnc_pt_table pt;
	struct pnc_pt_dir_info info;
	struct pnc_pt_addr *addrs;
	struct pt_dir *d = NULL;
	uintptr_t sink = 0;
	double t;

	pnc_pt_init(&pt);
	fill_table(&pt, family, n);
	addrs = make_addrs(&pt);
	for (int r = 0; r < runs; r++) {
		pnc_pt_dir_free(d);
		t = cpu_now();
		d = pnc_pt_dir_build(&pt, SIZE_MAX, NULL);
		build_ms[r] = (cpu_now() - t) * 1e3;

		t = cpu_now();
		for (size_t i = 0; i < DIR_LOOKUPS; i++)
			sink += (uintptr_t)pnc_pt_dir_lookup(d, &addrs[i & (ADDRS - 1)]);
		dir_rate[r] = DIR_LOOKUPS / (cpu_now() - t);

		t = cpu_now();
		for (size_t i = 0; i < DIR_LOOKUPS; i += PNC_PT_DIR_BULK) {
			const struct pnc_pt_entry *out[PNC_PT_DIR_BULK];

			pnc_pt_dir_lookup_bulk(d, &addrs[i & (ADDRS - 1)], PNC_PT_DIR_BULK, out);
			for (int k = 0; k < PNC_PT_DIR_BULK; k++)
				sink += (uintptr_t)out[k];
		}
		bulk_rate[r] = DIR_LOOKUPS / (cpu_now() - t);

		t = cpu_now();
		for (size_t i = 0; i < SORT_LOOKUPS; i++)
			sink += (uintptr_t)pnc_pt_lookup(&pt, &addrs[i & (ADDRS - 1)]);
		sort_rate[r] = SORT_LOOKUPS / (cpu_now() - t);
	}
	/* The two must agree (the unit tests check it at length). */
	for (size_t i = 0; i < 1000; i++) {
		const struct pnc_pt_entry *x = pnc_pt_dir_lookup(d, &addrs[i]),
					  *y = pnc_pt_lookup(&pt, &addrs[i]);

		if (!x || !y || x->prefix.len != y->prefix.len)
			abort();
	}
	sink_out = sink;
	pnc_pt_dir_info(d, &info);
	printf("\"%s\": {\"prefixes\": %zu, \"bytes\": %zu, \"tables\": %zu, "
	       "\"firstTableBits\": %u, \"maxReads\": %u, ",
	       name, pt.count, info.bytes,
	       (family == PNC_PT_AF_INET ? info.v4.groups : info.v6.groups) + 1,
	       family == PNC_PT_AF_INET ? info.v4.first_bits : info.v6.first_bits,
	       family == PNC_PT_AF_INET ? info.v4.depth : info.v6.depth);
	print_stat("compiledLookupsPerS", dir_rate, runs, ", ");
	print_stat("compiledBulkLookupsPerS", bulk_rate, runs, ", ");
	print_stat("sortedLookupsPerS", sort_rate, runs, ", ");
	print_stat("buildMs", build_ms, runs, "");
	printf("}%s\n", sep);
	pnc_pt_dir_free(d);
	free(addrs);
	pnc_pt_fini(&pt);
}

static void bench_flows(int runs)
{
	double fill_ns[MAX_RUNS], lookup_ns[MAX_RUNS];
	struct pnc_flow_table *t = NULL;
	size_t bytes = 0, count = 0;
	uintptr_t sink = 0;

	for (int r = 0; r < runs; r++) {
		double c;

		pnc_flow_table_free(t);
		t = pnc_flow_table_new(FLOWS, 0);
		rng_state = 12345;
		c = cpu_now();
		for (uint32_t i = 0; i < FLOWS; i++) {
			struct pnc_flow_saved s = { 0 };

			s.f.ip_version = 4;
			memcpy(s.f.sender, &i, 4);
			s.f.receiver[0] = 10;
			s.f.sender_qpn = i & 0xffffff;
			s.f.receiver_qpn = (i * 7) & 0xffffff;
			s.f.source = PNC_FLOW_PSN;
			pnc_flow_table_restore(t, &s, 1);
		}
		fill_ns[r] = (cpu_now() - c) * 1e9 / FLOWS;
		c = cpu_now();
		for (uint32_t k = 0; k < FLOWS; k++) {
			uint32_t i = (uint32_t)(rng() % FLOWS);
			uint8_t snd[16] = { 0 }, rcv[16] = { 10 };

			memcpy(snd, &i, 4);
			sink += (uintptr_t)pnc_flow_lookup(t, 4, snd, rcv, (i * 7) & 0xffffff, 2);
		}
		lookup_ns[r] = (cpu_now() - c) * 1e9 / FLOWS;
		bytes = pnc_flow_table_bytes(t);
		count = pnc_flow_table_count(t);
	}
	sink_out = sink;
	printf("\"flows1M\": {\"flows\": %zu, \"capacity\": %u, \"bytes\": %zu, "
	       "\"bytesPerFlow\": %.1f, ",
	       count, FLOWS, bytes, (double)bytes / FLOWS);
	print_stat("fillNsPerFlow", fill_ns, runs, ", ");
	print_stat("lookupNs", lookup_ns, runs, "");
	printf("}\n");
	pnc_flow_table_free(t);
}

int main(int argc, char **argv)
{
	int runs = argc > 1 ? atoi(argv[1]) : 3;

	if (runs < 1 || runs > MAX_RUNS) {
		fprintf(stderr, "usage: %s [RUNS 1..%d]\n", argv[0], MAX_RUNS);
		return 2;
	}
	printf("{\"runs\": %d,\n", runs);
	bench_lpm("ipv4_1k", PNC_PT_AF_INET, 1000, runs, ",");
	bench_lpm("ipv4_1M", PNC_PT_AF_INET, 1000000, runs, ",");
	bench_lpm("ipv6_1k", PNC_PT_AF_INET6, 1000, runs, ",");
	bench_lpm("ipv6_1M", PNC_PT_AF_INET6, 1000000, runs, ",");
	bench_flows(runs);
	printf("}\n");
	return 0;
}
