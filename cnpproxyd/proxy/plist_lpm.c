// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A prefix-list as a longest-match table.
 */
#include <string.h>

#include "proxy/plist_lpm.h"

static unsigned int host_len(uint8_t version)
{
	return version == 4 ? 32 : 128;
}

/* Whether the first plen bits of a and b are the same. */
static bool same_bits(const uint8_t *a, const uint8_t *b, unsigned int plen)
{
	unsigned int bytes = plen / 8, bits = plen % 8;

	if (memcmp(a, b, bytes))
		return false;
	if (!bits)
		return true;
	return ((a[bytes] ^ b[bytes]) & (uint8_t)(0xff << (8 - bits))) == 0;
}

/*
 * Whether the entry can match a host address (as lib/plist.c decides
 * for a prefix of the host length): without ge/le only a host entry
 * does; with them the host length must be in [ge, le].
 */
static bool decides_hosts(const struct cnpproxy_plist_rule *r)
{
	unsigned int len = host_len(r->version);

	if (!r->ge && !r->le)
		return r->plen == len;
	return (!r->le || len <= r->le) && (!r->ge || len >= r->ge);
}

static bool covers(uint8_t version, const uint8_t *addr, unsigned int plen, uint8_t hver,
		   const uint8_t *haddr, unsigned int hplen)
{
	return version == hver && plen <= hplen && same_bits(addr, haddr, plen);
}

size_t cnpproxy_plist_lpm(const struct cnpproxy_plist_rule *rules, size_t n,
			  struct cnpproxy_lpm_rule *out)
{
	size_t i, j, nout = 0;

	for (i = 0; i < n; i++) {
		const struct cnpproxy_plist_rule *r = &rules[i];
		struct cnpproxy_lpm_rule *o = &out[nout];
		bool shadowed = false;
		unsigned int b;

		if ((r->version != 4 && r->version != 6) || r->plen > host_len(r->version) ||
		    !decides_hosts(r))
			continue;
		/*
		 * Inside an earlier entry: that one matches first, everywhere.
		 * Transitivity makes the entries kept enough to compare with.
		 */
		for (j = 0; j < nout && !shadowed; j++)
			shadowed = covers(out[j].version, out[j].addr, out[j].plen, r->version,
					  r->addr, r->plen);
		if (shadowed)
			continue;
		memset(o, 0, sizeof(*o));
		o->version = r->version;
		o->plen = r->plen;
		o->permit = r->permit;
		for (b = 0; b < r->plen / 8; b++)
			o->addr[b] = r->addr[b];
		if (r->plen % 8)
			o->addr[b] = r->addr[b] & (uint8_t)(0xff << (8 - r->plen % 8));
		nout++;
	}
	return nout;
}

bool cnpproxy_plist_permits(const struct cnpproxy_plist_rule *rules, size_t n, uint8_t version,
			    const uint8_t *addr)
{
	for (size_t i = 0; i < n; i++) {
		const struct cnpproxy_plist_rule *r = &rules[i];

		if (r->version == version && decides_hosts(r) && same_bits(r->addr, addr, r->plen))
			return r->permit;
	}
	return false;
}

bool cnpproxy_lpm_permits(const struct cnpproxy_lpm_rule *t, size_t n, uint8_t version,
			  const uint8_t *addr)
{
	const struct cnpproxy_lpm_rule *best = NULL;

	for (size_t i = 0; i < n; i++)
		if (covers(t[i].version, t[i].addr, t[i].plen, version, addr, host_len(version)) &&
		    (!best || t[i].plen > best->plen))
			best = &t[i];
	return best && best->permit;
}
