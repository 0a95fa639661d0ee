// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Proxy table: longest-prefix match from sender address to proxy.
 */
#include <stdlib.h>
#include <string.h>

#include "cnpproxy_alloc.h"
#include "rib/lpm.h"

void pnc_pt_init(struct pnc_pt_table *pt)
{
	memset(pt, 0, sizeof(*pt));
}

void pnc_pt_fini(struct pnc_pt_table *pt)
{
	pnc_free(PNC_POOL_LPM, pt->entries);
	pnc_pt_init(pt);
}

size_t pnc_pt_addr_len(uint8_t family)
{
	switch (family) {
	case PNC_PT_AF_INET:
		return 4;
	case PNC_PT_AF_INET6:
		return 16;
	}
	return 0;
}

static unsigned int max_len(uint8_t family)
{
	return pnc_pt_addr_len(family) * 8;
}

bool pnc_pt_prefix_make(struct pnc_pt_prefix *p, const struct pnc_pt_addr *a, uint8_t len)
{
	size_t alen = pnc_pt_addr_len(a->family);
	size_t i;

	if (!alen || len > alen * 8)
		return false;

	memset(p, 0, sizeof(*p));
	p->addr.family = a->family;
	p->len = len;
	for (i = 0; i < alen; i++) {
		unsigned int bits = len > i * 8 ? len - i * 8 : 0;

		if (bits >= 8)
			p->addr.bytes[i] = a->bytes[i];
		else if (bits)
			p->addr.bytes[i] = a->bytes[i] & (uint8_t)(0xff << (8 - bits));
	}
	return true;
}

/* Sort order: family, length, address, source. */
static int key_cmp(const struct pnc_pt_prefix *p, enum pnc_pt_source src,
		   const struct pnc_pt_entry *e)
{
	int c;

	if (p->addr.family != e->prefix.addr.family)
		return p->addr.family < e->prefix.addr.family ? -1 : 1;
	if (p->len != e->prefix.len)
		return p->len < e->prefix.len ? -1 : 1;
	c = memcmp(p->addr.bytes, e->prefix.addr.bytes, pnc_pt_addr_len(p->addr.family));
	if (c)
		return c;
	if (src != e->source)
		return src < e->source ? -1 : 1;
	return 0;
}

/* Index of the first entry not below the key; *found if it equals it. */
static size_t lower_bound(const struct pnc_pt_table *pt, const struct pnc_pt_prefix *p,
			  enum pnc_pt_source src, bool *found)
{
	size_t lo = 0, hi = pt->count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (key_cmp(p, src, &pt->entries[mid]) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = lo < pt->count && key_cmp(p, src, &pt->entries[lo]) == 0;
	return lo;
}

static uint64_t *lens_of(struct pnc_pt_table *pt, uint8_t family)
{
	return family == PNC_PT_AF_INET ? pt->lens4 : pt->lens6;
}

static bool lens_test(const uint64_t *lens, unsigned int len)
{
	return lens[len / 64] & (1ULL << (len % 64));
}

static void lens_mark(struct pnc_pt_table *pt, const struct pnc_pt_prefix *p, bool present)
{
	uint64_t *lens = lens_of(pt, p->addr.family);
	uint64_t bit = 1ULL << (p->len % 64);

	if (present)
		lens[p->len / 64] |= bit;
	else
		lens[p->len / 64] &= ~bit;
}

/* Recompute the bit of one prefix length after an insertion or removal. */
static void lens_update(struct pnc_pt_table *pt, uint8_t family, uint8_t len)
{
	struct pnc_pt_prefix first = { .addr = { .family = family }, .len = len };
	bool found;
	size_t i = lower_bound(pt, &first, PNC_PT_SOURCE_LEARNED, &found);

	lens_mark(pt, &first,
		  i < pt->count && pt->entries[i].prefix.addr.family == family &&
			  pt->entries[i].prefix.len == len);
}

/* Index of the entry for (prefix, source), with host bits ignored. */
static bool find(const struct pnc_pt_table *pt, const struct pnc_pt_prefix *p,
		 enum pnc_pt_source source, size_t *idx)
{
	struct pnc_pt_prefix key;
	bool found;

	if (!pnc_pt_prefix_make(&key, &p->addr, p->len))
		return false;
	*idx = lower_bound(pt, &key, source, &found);
	return found;
}

static bool entry_same(const struct pnc_pt_entry *a, const struct pnc_pt_entry *b)
{
	return a->proxy.family == b->proxy.family &&
	       !memcmp(a->proxy.bytes, b->proxy.bytes, pnc_pt_addr_len(a->proxy.family)) &&
	       a->origin == b->origin && a->flags == b->flags;
}

int pnc_pt_set(struct pnc_pt_table *pt, const struct pnc_pt_entry *e)
{
	struct pnc_pt_entry n = *e;
	bool found;
	size_t i;

	if (!pnc_pt_prefix_make(&n.prefix, &e->prefix.addr, e->prefix.len) ||
	    !pnc_pt_addr_len(e->proxy.family) ||
	    (e->source != PNC_PT_SOURCE_LEARNED && e->source != PNC_PT_SOURCE_STATIC))
		return -1;

	i = lower_bound(pt, &n.prefix, n.source, &found);
	if (found) {
		if (entry_same(&pt->entries[i], &n))
			return 0;
		pt->entries[i] = n;
		pt->generation++;
		return 2;
	}

	if (pt->count == pt->alloc) {
		size_t alloc = pt->alloc ? pt->alloc * 2 : 16;
		struct pnc_pt_entry *m = pnc_realloc(PNC_POOL_LPM, pt->entries, alloc * sizeof(*m));

		if (!m)
			return -1;
		pt->entries = m;
		pt->alloc = alloc;
	}
	memmove(&pt->entries[i + 1], &pt->entries[i], (pt->count - i) * sizeof(*pt->entries));
	pt->entries[i] = n;
	pt->count++;
	pt->generation++;
	lens_mark(pt, &n.prefix, true);
	return 1;
}

bool pnc_pt_unset(struct pnc_pt_table *pt, const struct pnc_pt_prefix *p, enum pnc_pt_source source)
{
	size_t i;

	if (!find(pt, p, source, &i))
		return false;
	memmove(&pt->entries[i], &pt->entries[i + 1], (pt->count - i - 1) * sizeof(*pt->entries));
	pt->count--;
	pt->generation++;
	lens_update(pt, p->addr.family, p->len);
	return true;
}

const struct pnc_pt_entry *pnc_pt_get(const struct pnc_pt_table *pt, const struct pnc_pt_prefix *p,
				      enum pnc_pt_source source)
{
	size_t i;

	return find(pt, p, source, &i) ? &pt->entries[i] : NULL;
}

size_t pnc_pt_rank(const struct pnc_pt_table *pt, const struct pnc_pt_prefix *p)
{
	struct pnc_pt_prefix key;
	bool found;

	if (!pnc_pt_prefix_make(&key, &p->addr, p->len))
		return pt->count;
	/* Learned sorts first: the first entry of the prefix. */
	return lower_bound(pt, &key, PNC_PT_SOURCE_LEARNED, &found);
}

const struct pnc_pt_entry *pnc_pt_lookup(const struct pnc_pt_table *pt, const struct pnc_pt_addr *a)
{
	const uint64_t *lens;
	int len;

	if (!pnc_pt_addr_len(a->family))
		return NULL;
	lens = a->family == PNC_PT_AF_INET ? pt->lens4 : pt->lens6;

	for (len = (int)max_len(a->family); len >= 0; len--) {
		struct pnc_pt_prefix key;
		bool found;
		size_t i;

		if (!lens_test(lens, (unsigned int)len))
			continue;
		pnc_pt_prefix_make(&key, a, (uint8_t)len);
		/* Learned sorts before static, so the first match wins. */
		i = lower_bound(pt, &key, PNC_PT_SOURCE_LEARNED, &found);
		if (i < pt->count && key_cmp(&key, pt->entries[i].source, &pt->entries[i]) == 0)
			return &pt->entries[i];
	}
	return NULL;
}

size_t pnc_pt_flush(struct pnc_pt_table *pt, enum pnc_pt_source source)
{
	size_t r = 0, w = 0;

	for (r = 0; r < pt->count; r++)
		if (pt->entries[r].source != source)
			pt->entries[w++] = pt->entries[r];
	r = pt->count - w;
	pt->count = w;
	if (r)
		pt->generation++;
	memset(pt->lens4, 0, sizeof(pt->lens4));
	memset(pt->lens6, 0, sizeof(pt->lens6));
	for (w = 0; w < pt->count; w++)
		lens_mark(pt, &pt->entries[w].prefix, true);
	return r;
}
