// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Proxy table: which proxy node serves a sender address.
 *
 * Entries map a prefix to the address of its proxy, learned from PNC in
 * zebra's RIB or configured statically.  Lookup is longest-prefix match;
 * for the same prefix a learned entry wins over a static one.
 *
 * Pure C with no FRR dependency.  Entries live in one array sorted by
 * (family, prefix length, address, source), so a lookup is one binary
 * search per prefix length in use, longest first.
 */
#ifndef _CNPPROXY_RIB_LPM_H
#define _CNPPROXY_RIB_LPM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pnc_pt_family {
	PNC_PT_AF_INET = 4,
	PNC_PT_AF_INET6 = 6,
};

struct pnc_pt_addr {
	uint8_t family; /* enum pnc_pt_family */
	uint8_t bytes[16];
};

struct pnc_pt_prefix {
	struct pnc_pt_addr addr; /* host bits are always zero */
	uint8_t len;
};

/* Where an entry comes from; lower values take precedence. */
enum pnc_pt_source {
	PNC_PT_SOURCE_LEARNED = 0,
	PNC_PT_SOURCE_STATIC = 1,
};

struct pnc_pt_entry {
	struct pnc_pt_prefix prefix;
	enum pnc_pt_source source;
	struct pnc_pt_addr proxy;
	uint8_t origin; /* routing protocol (ZEBRA_ROUTE_*) for learned */
	uint8_t flags;	/* PNC flags as received */
	int64_t since;	/* caller's timestamp of the last change */
};

struct pnc_pt_table {
	struct pnc_pt_entry *entries;
	size_t count;
	size_t alloc;
	/* bit L set: some entry of that family has prefix length L */
	uint64_t lens4[1];
	uint64_t lens6[3];
	uint64_t generation; /* changes with every change of the entries */
};

extern void pnc_pt_init(struct pnc_pt_table *pt);
extern void pnc_pt_fini(struct pnc_pt_table *pt);

/* Number of bytes of an address of the family, 0 if unknown. */
extern size_t pnc_pt_addr_len(uint8_t family);

/*
 * Make a prefix from an address and length, zeroing host bits.
 * Returns false if the family or the length is invalid.
 */
extern bool pnc_pt_prefix_make(struct pnc_pt_prefix *p, const struct pnc_pt_addr *a, uint8_t len);

/*
 * Add or replace the entry for (prefix, source).  Returns 1 if added,
 * 2 if an existing entry changed, 0 if it was identical (nothing done),
 * -1 on invalid input or allocation failure.
 */
extern int pnc_pt_set(struct pnc_pt_table *pt, const struct pnc_pt_entry *e);

/* Remove the entry for (prefix, source); returns true if it existed. */
extern bool pnc_pt_unset(struct pnc_pt_table *pt, const struct pnc_pt_prefix *p,
			 enum pnc_pt_source source);

/* Exact match on (prefix, source), or NULL. */
extern const struct pnc_pt_entry *
pnc_pt_get(const struct pnc_pt_table *pt, const struct pnc_pt_prefix *p, enum pnc_pt_source source);

/*
 * Position of the first entry of prefix p (whatever its source) or, if
 * it has none, of the first entry after it: where a walk over the table
 * in order resumes.
 */
extern size_t pnc_pt_rank(const struct pnc_pt_table *pt, const struct pnc_pt_prefix *p);

/* Longest-prefix match for an address, or NULL. */
extern const struct pnc_pt_entry *pnc_pt_lookup(const struct pnc_pt_table *pt,
						const struct pnc_pt_addr *a);

/* Remove every entry of a source; returns how many were removed. */
extern size_t pnc_pt_flush(struct pnc_pt_table *pt, enum pnc_pt_source source);

#endif /* _CNPPROXY_RIB_LPM_H */
