// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The proxy table compiled into a multibit trie (DIR-24-8 kind).
 */
#include <stdbool.h>
#include <string.h>

#include "cnpproxy_alloc.h"
#include "rib/lpm_dir.h"

/*
 * A slot: 0 no entry; with DIR_GROUP set, the index of the next table;
 * otherwise the index of the entry plus one.
 */
#define DIR_GROUP  0x80000000u
#define DIR_SLOTS  256
#define DIR_NARROW 16
#define DIR_WIDE   24

typedef uint32_t dir_group[DIR_SLOTS];

struct dir_family {
	uint8_t first_bits;
	uint8_t addr_bytes;
	uint32_t *first;
	dir_group *groups;
	size_t ngroups, galloc;
	size_t prefixes;
	unsigned int depth;
};

struct pt_dir {
	uint64_t generation;
	struct dir_family fam[2]; /* IPv4, IPv6 */
	struct pnc_pt_entry *entries;
	size_t count;
	size_t refused; /* while building: the size the limit refused */
};

static const struct dir_family *family_of(const struct pt_dir *d, uint8_t family)
{
	return family == PNC_PT_AF_INET	   ? &d->fam[0]
	       : family == PNC_PT_AF_INET6 ? &d->fam[1]
					   : NULL;
}

static size_t first_bytes(const struct dir_family *f)
{
	return f->first ? ((size_t)1 << f->first_bits) * sizeof(uint32_t) : 0;
}

static size_t dir_bytes(const struct pt_dir *d, size_t extra_groups)
{
	size_t n = sizeof(*d) + d->count * sizeof(*d->entries);

	for (int i = 0; i < 2; i++)
		n += first_bytes(&d->fam[i]) + d->fam[i].galloc * sizeof(dir_group);
	return n + extra_groups * sizeof(dir_group);
}

static uint32_t first_index(const uint8_t *bytes, unsigned int bits)
{
	uint32_t i = (uint32_t)bytes[0] << 8 | bytes[1];

	return bits == DIR_WIDE ? i << 8 | bytes[2] : i;
}

/* A new table below a slot, every slot of it inheriting the slot's value. */
static bool group_new(struct pt_dir *d, struct dir_family *f, uint32_t fill, size_t max_bytes,
		      uint32_t *index)
{
	if (f->ngroups >= DIR_GROUP - 1)
		return false;
	if (f->ngroups == f->galloc) {
		size_t want = f->galloc ? f->galloc * 2 : 64;
		dir_group *g;

		/* Grow less than twofold rather than past the limit. */
		while (want > f->galloc + 1 && dir_bytes(d, want - f->galloc) > max_bytes)
			want = f->galloc + (want - f->galloc) / 2;
		if (dir_bytes(d, want - f->galloc) > max_bytes) {
			d->refused = dir_bytes(d, want - f->galloc);
			return false;
		}
		g = pnc_realloc(PNC_POOL_LPM, f->groups, want * sizeof(*g));
		if (!g)
			return false;
		f->groups = g;
		f->galloc = want;
	}
	for (int i = 0; i < DIR_SLOTS; i++)
		f->groups[f->ngroups][i] = fill;
	*index = (uint32_t)f->ngroups++;
	return true;
}

/* Every slot below a table slot takes value (see insert()). */
static void fill_below(struct dir_family *f, uint32_t *slot, uint32_t value)
{
	if (!(*slot & DIR_GROUP)) {
		*slot = value;
		return;
	}
	for (int i = 0; i < DIR_SLOTS; i++)
		fill_below(f, &f->groups[*slot & ~DIR_GROUP][i], value);
}

/*
 * Put one prefix in.  Prefixes come shortest first, so a longer prefix
 * put in later overwrites the slots it covers, and a table below a slot
 * starts as a copy of that slot.
 */
static bool insert(struct pt_dir *d, struct dir_family *f, const struct pnc_pt_prefix *p,
		   uint32_t value, size_t max_bytes)
{
	const uint8_t *bytes = p->addr.bytes;
	unsigned int end = f->first_bits, level = 1;
	uint32_t idx = first_index(bytes, f->first_bits);
	int64_t group = -1; /* -1: the first table */

	for (;;) {
		uint32_t *tbl = group < 0 ? f->first : f->groups[group];
		uint32_t next;

		if (level > f->depth)
			f->depth = level;
		if (p->len <= end) {
			uint32_t span = 1u << (end - p->len);

			/* Host bits are zero, so idx is the first slot covered. */
			for (uint32_t i = idx; i < idx + span; i++)
				fill_below(f, &tbl[i], value);
			return true;
		}
		if (!(tbl[idx] & DIR_GROUP)) {
			if (!group_new(d, f, tbl[idx], max_bytes, &next))
				return false;
			/* group_new() may have moved the tables. */
			tbl = group < 0 ? f->first : f->groups[group];
			tbl[idx] = DIR_GROUP | next;
		}
		group = tbl[idx] & ~DIR_GROUP;
		idx = bytes[end / 8];
		end += 8;
		level++;
	}
}

static bool same_prefix(const struct pnc_pt_prefix *a, const struct pnc_pt_prefix *b)
{
	return a->addr.family == b->addr.family && a->len == b->len &&
	       !memcmp(a->addr.bytes, b->addr.bytes, pnc_pt_addr_len(a->addr.family));
}

static bool build_family(struct pt_dir *d, struct dir_family *f, size_t max_bytes)
{
	uint8_t family = f == &d->fam[0] ? PNC_PT_AF_INET : PNC_PT_AF_INET6;

	for (size_t i = 0; i < d->count; i++)
		if (d->entries[i].prefix.addr.family == family)
			f->prefixes++;
	if (!f->prefixes)
		return true;
	f->first_bits = f->prefixes > PNC_PT_DIR_WIDE_MIN ? DIR_WIDE : DIR_NARROW;
	f->addr_bytes = (uint8_t)pnc_pt_addr_len(family);
	if (dir_bytes(d, 0) + ((size_t)1 << f->first_bits) * sizeof(uint32_t) > max_bytes) {
		d->refused = dir_bytes(d, 0) + ((size_t)1 << f->first_bits) * sizeof(uint32_t);
		return false;
	}
	f->first = pnc_calloc(PNC_POOL_LPM, (size_t)1 << f->first_bits, sizeof(uint32_t));
	if (!f->first)
		return false;
	for (size_t i = 0; i < d->count; i++)
		if (d->entries[i].prefix.addr.family == family &&
		    !insert(d, f, &d->entries[i].prefix, (uint32_t)i + 1, max_bytes))
			return false;
	/* Give back what the last doubling did not use. */
	if (f->galloc > f->ngroups && f->ngroups) {
		dir_group *g = pnc_realloc(PNC_POOL_LPM, f->groups, f->ngroups * sizeof(*g));

		if (g) {
			f->groups = g;
			f->galloc = f->ngroups;
		}
	}
	return true;
}

struct pt_dir *pnc_pt_dir_build(const struct pnc_pt_table *pt, size_t max_bytes, size_t *needed)
{
	struct pt_dir *d = pnc_calloc(PNC_POOL_LPM, 1, sizeof(*d));
	size_t i, n;

	if (needed)
		*needed = 0;
	if (!d)
		return NULL;
	d->generation = pt->generation;
	if (pt->count >= DIR_GROUP - 1)
		goto fail;
	/*
	 * The table is sorted by family, length, address, source: keep the
	 * first entry of each prefix (learned beats static), shortest first.
	 */
	for (i = 0; i < pt->count; i++)
		if (!i || !same_prefix(&pt->entries[i].prefix, &pt->entries[i - 1].prefix))
			d->count++;
	d->entries = pnc_calloc(PNC_POOL_LPM, d->count + 1, sizeof(*d->entries));
	if (!d->entries)
		goto fail;
	for (i = 0, n = 0; i < pt->count; i++)
		if (!i || !same_prefix(&pt->entries[i].prefix, &pt->entries[i - 1].prefix))
			d->entries[n++] = pt->entries[i];
	if (!build_family(d, &d->fam[0], max_bytes) || !build_family(d, &d->fam[1], max_bytes))
		goto fail;
	return d;
fail:
	if (needed)
		*needed = d->refused;
	pnc_pt_dir_free(d);
	return NULL;
}

void pnc_pt_dir_free(struct pt_dir *d)
{
	if (!d)
		return;
	for (int i = 0; i < 2; i++) {
		pnc_free(PNC_POOL_LPM, d->fam[i].first);
		pnc_free(PNC_POOL_LPM, d->fam[i].groups);
	}
	pnc_free(PNC_POOL_LPM, d->entries);
	pnc_free(PNC_POOL_LPM, d);
}

/* The family's tables, NULL when it has none (or is unknown). */
static const struct dir_family *lookup_family(const struct pt_dir *d, uint8_t family)
{
	const struct dir_family *f = family_of(d, family);

	return f && f->first ? f : NULL;
}

static const uint32_t *first_slot(const struct dir_family *f, const uint8_t *bytes)
{
	return &f->first[first_index(bytes, f->first_bits)];
}

/* From the first table's slot v down to the entry. */
static const struct pnc_pt_entry *descend(const struct pt_dir *d, const struct dir_family *f,
					  uint32_t v, const uint8_t *bytes)
{
	unsigned int pos = f->first_bits / 8;

	/* The bound never stops a table built by insert(); it is a guard. */
	while ((v & DIR_GROUP) && pos < f->addr_bytes)
		v = f->groups[v & ~DIR_GROUP][bytes[pos++]];
	return v && !(v & DIR_GROUP) ? &d->entries[v - 1] : NULL;
}

const struct pnc_pt_entry *pnc_pt_dir_lookup(const struct pt_dir *d, const struct pnc_pt_addr *a)
{
	const struct dir_family *f = lookup_family(d, a->family);

	return f ? descend(d, f, *first_slot(f, a->bytes), a->bytes) : NULL;
}

void pnc_pt_dir_lookup_bulk(const struct pt_dir *d, const struct pnc_pt_addr *a, size_t n,
			    const struct pnc_pt_entry **out)
{
	const struct dir_family *f[PNC_PT_DIR_BULK];
	uint32_t v[PNC_PT_DIR_BULK];

	while (n) {
		size_t k = n < PNC_PT_DIR_BULK ? n : PNC_PT_DIR_BULK;

		/*
		 * In three passes, so that the memory reads of one address
		 * overlap those of the others instead of waiting on each.
		 */
		for (size_t i = 0; i < k; i++) {
			f[i] = lookup_family(d, a[i].family);
			if (f[i])
				__builtin_prefetch(first_slot(f[i], a[i].bytes));
		}
		for (size_t i = 0; i < k; i++) {
			v[i] = f[i] ? *first_slot(f[i], a[i].bytes) : 0;
			if (v[i] & DIR_GROUP)
				__builtin_prefetch(&f[i]->groups[v[i] & ~DIR_GROUP]
								[a[i].bytes[f[i]->first_bits / 8]]);
		}
		for (size_t i = 0; i < k; i++)
			out[i] = f[i] ? descend(d, f[i], v[i], a[i].bytes) : NULL;
		a += k;
		out += k;
		n -= k;
	}
}

uint64_t pnc_pt_dir_generation(const struct pt_dir *d)
{
	return d->generation;
}

void pnc_pt_dir_info(const struct pt_dir *d, struct pnc_pt_dir_info *info)
{
	struct pnc_pt_dir_family_info *fi[2] = { &info->v4, &info->v6 };

	memset(info, 0, sizeof(*info));
	info->generation = d->generation;
	info->bytes = dir_bytes(d, 0);
	for (int i = 0; i < 2; i++) {
		fi[i]->first_bits = d->fam[i].first ? d->fam[i].first_bits : 0;
		fi[i]->prefixes = d->fam[i].prefixes;
		fi[i]->groups = d->fam[i].ngroups;
		fi[i]->depth = d->fam[i].depth;
	}
}
