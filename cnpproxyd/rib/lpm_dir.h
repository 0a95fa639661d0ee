// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The proxy table compiled for the data path: a multibit trie of the
 * DIR-24-8 kind, built from a struct pnc_pt_table and never changed
 * afterwards, so that readers need no lock (the control plane builds a
 * new one and swaps the pointer).
 *
 * Each family has a first table indexed by the top 16 bits of the
 * address (24 bits when the family holds more than PNC_PT_DIR_WIDE_MIN
 * prefixes; IPv4 is then exactly DIR-24-8), then tables of 256 slots,
 * one per further octet, only where a longer prefix needs them.  A slot
 * holds the winning entry directly, so a lookup reads one slot per level
 * it descends and compares nothing: one read for most IPv4 addresses,
 * at most 3 (IPv4) or 15 (IPv6).
 *
 * Pure C with no FRR dependency and no globals.
 */
#ifndef _CNPPROXY_RIB_LPM_DIR_H
#define _CNPPROXY_RIB_LPM_DIR_H

#include <stddef.h>
#include <stdint.h>

#include "rib/lpm.h"

/* Prefixes of one family above which its first table is 24 bits wide. */
#define PNC_PT_DIR_WIDE_MIN 16384

struct pt_dir;

struct pnc_pt_dir_family_info {
	uint8_t first_bits; /* 0 when the family has no entry */
	size_t prefixes;    /* distinct prefixes */
	size_t groups;	    /* 256-slot tables below the first */
	unsigned int depth; /* most tables a lookup reads */
};

struct pnc_pt_dir_info {
	uint64_t generation; /* of the proxy table it was built from */
	size_t bytes;	     /* all the memory it holds */
	struct pnc_pt_dir_family_info v4, v6;
};

/*
 * Compile pt.  NULL when the result would need more than max_bytes (a
 * table of many long, scattered prefixes; *needed then says at least
 * how much), or on allocation failure (*needed 0).
 */
extern struct pt_dir *pnc_pt_dir_build(const struct pnc_pt_table *pt, size_t max_bytes,
				       size_t *needed);
extern void pnc_pt_dir_free(struct pt_dir *d);

/* Longest-prefix match, the same answer as pnc_pt_lookup() on its source. */
extern const struct pnc_pt_entry *pnc_pt_dir_lookup(const struct pt_dir *d,
						    const struct pnc_pt_addr *a);

/*
 * The same for n addresses at once, out[i] for a[i]: faster per address
 * when the table is larger than the caches, as the reads overlap.
 */
#define PNC_PT_DIR_BULK 16
extern void pnc_pt_dir_lookup_bulk(const struct pt_dir *d, const struct pnc_pt_addr *a, size_t n,
				   const struct pnc_pt_entry **out);

/* The generation of the proxy table it was built from. */
extern uint64_t pnc_pt_dir_generation(const struct pt_dir *d);

extern void pnc_pt_dir_info(const struct pt_dir *d, struct pnc_pt_dir_info *info);

#endif /* _CNPPROXY_RIB_LPM_DIR_H */
