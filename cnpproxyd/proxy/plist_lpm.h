// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A prefix-list, as it judges host addresses, turned into a
 * longest-match table: what the XDP guard can look up.  Pure.
 */
#ifndef _CNPPROXY_PROXY_PLIST_LPM_H
#define _CNPPROXY_PROXY_PLIST_LPM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One prefix-list entry: `seq N permit|deny P/len [ge G] [le L]`. */
struct cnpproxy_plist_rule {
	int64_t seq;
	bool permit;
	uint8_t version; /* 4 or 6 */
	uint8_t addr[16];
	uint8_t plen;
	uint8_t ge, le; /* 0: not given */
};

/* A longest-match entry; a host address that matches none is denied. */
struct cnpproxy_lpm_rule {
	uint8_t version;
	uint8_t addr[16]; /* masked to plen */
	uint8_t plen;
	bool permit;
};

/*
 * The entries of rules[n], in ascending seq order (as a prefix-list
 * keeps them), that can decide for a host address, written to out
 * (room for n).  A prefix-list picks the first entry that matches; the
 * table picks the longest prefix: an entry inside an earlier one can
 * never be picked and is left out, and then the two agree.  Returns the
 * number of entries written.
 */
extern size_t cnpproxy_plist_lpm(const struct cnpproxy_plist_rule *rules, size_t n,
				 struct cnpproxy_lpm_rule *out);

/* The reference: what the prefix-list says of a host address. */
extern bool cnpproxy_plist_permits(const struct cnpproxy_plist_rule *rules, size_t n,
				   uint8_t version, const uint8_t *addr);
/* What the table says of it (a linear longest match). */
extern bool cnpproxy_lpm_permits(const struct cnpproxy_lpm_rule *t, size_t n, uint8_t version,
				 const uint8_t *addr);

#endif /* _CNPPROXY_PROXY_PLIST_LPM_H */
