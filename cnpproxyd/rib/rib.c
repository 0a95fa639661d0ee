// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd's proxy table, seen from FRR.
 *
 * zebra redistributes the selected route of every prefix; a route that
 * carries ZAPI_MESSAGE_PNC names the proxy of its prefix.  A route that
 * arrives without PNC, or is withdrawn, takes the learned entry away.
 */
#include <zebra.h>

#include "lib/log.h"
#include "lib/zclient.h"

#include "cnpproxy_debug.h"
#include "rib/lookup.h"
#include "rib/rib.h"

static struct pnc_pt_table proxies;
static struct cnpproxy_rib_stats stats;

const struct pnc_pt_table *cnpproxy_rib_table(void)
{
	return &proxies;
}

const struct cnpproxy_rib_stats *cnpproxy_rib_counters(void)
{
	return &stats;
}

void cnpproxy_rib_decode_error(void)
{
	stats.decode_errors++;
}

void cnpproxy_rib_init(void)
{
	pnc_pt_init(&proxies);
	cnpproxy_lookup_init(&proxies);
}

void cnpproxy_rib_fini(void)
{
	cnpproxy_lookup_fini();
	pnc_pt_fini(&proxies);
}

bool cnpproxy_rib_addr(struct pnc_pt_addr *out, const struct ipaddr *a)
{
	memset(out, 0, sizeof(*out));
	switch (a->ipa_type) {
	case IPADDR_V4:
		out->family = PNC_PT_AF_INET;
		memcpy(out->bytes, &a->ipaddr_v4, IPV4_MAX_BYTELEN);
		return true;
	case IPADDR_V6:
		out->family = PNC_PT_AF_INET6;
		memcpy(out->bytes, &a->ipaddr_v6, IPV6_MAX_BYTELEN);
		return true;
	case IPADDR_NONE:
		break;
	}
	return false;
}

bool cnpproxy_rib_prefix(struct pnc_pt_prefix *out, const struct prefix *p)
{
	struct pnc_pt_addr a = {};

	switch (p->family) {
	case AF_INET:
		a.family = PNC_PT_AF_INET;
		memcpy(a.bytes, &p->u.prefix4, IPV4_MAX_BYTELEN);
		break;
	case AF_INET6:
		a.family = PNC_PT_AF_INET6;
		memcpy(a.bytes, &p->u.prefix6, IPV6_MAX_BYTELEN);
		break;
	default:
		return false;
	}
	return pnc_pt_prefix_make(out, &a, p->prefixlen);
}

const char *cnpproxy_rib_addr2str(const struct pnc_pt_addr *a, char *buf, size_t len)
{
	if (!inet_ntop(a->family == PNC_PT_AF_INET ? AF_INET : AF_INET6, a->bytes, buf, len))
		strlcpy(buf, "?", len);
	return buf;
}

const char *cnpproxy_rib_prefix2str(const struct pnc_pt_prefix *p, char *buf, size_t len)
{
	char addr[INET6_ADDRSTRLEN];

	snprintf(buf, len, "%s/%u", cnpproxy_rib_addr2str(&p->addr, addr, sizeof(addr)), p->len);
	return buf;
}

void cnpproxy_rib_route(const struct zapi_route *api, bool add)
{
	const char *why = "route withdrawn";
	struct pnc_pt_entry e = {};

	if (!cnpproxy_rib_prefix(&e.prefix, &api->prefix))
		return;

	if (add && !CHECK_FLAG(api->message, ZAPI_MESSAGE_PNC)) {
		stats.without_pnc++;
		why = "route without PNC";
	} else if (add && !cnpproxy_rib_addr(&e.proxy, &api->pnc.proxy)) {
		stats.no_proxy_addr++;
		why = "PNC without a proxy address";
		DEBUGD(&cnpproxy_dbg_zebra, "zebra: %pFX has %s", &api->prefix, why);
	} else if (add) {
		e.source = PNC_PT_SOURCE_LEARNED;
		e.origin = api->pnc.origin;
		e.flags = api->pnc.flags;
		e.since = time(NULL);
		if (pnc_pt_set(&proxies, &e) > 0) {
			stats.learned_add++;
			cnpproxy_lookup_changed();
			DEBUGD(&cnpproxy_dbg_zebra, "zebra: %pFX proxied by %pIA (%s)",
			       &api->prefix, &api->pnc.proxy, zebra_route_string(api->pnc.origin));
		}
		return;
	}

	/*
	 * zebra sends the selected route only, so whatever we learned for
	 * the prefix is gone.
	 */
	if (pnc_pt_unset(&proxies, &e.prefix, PNC_PT_SOURCE_LEARNED)) {
		stats.learned_del++;
		cnpproxy_lookup_changed();
		DEBUGD(&cnpproxy_dbg_zebra, "zebra: %pFX no longer proxied (%s)", &api->prefix,
		       why);
	}
}

void cnpproxy_rib_flush_learned(void)
{
	size_t n = pnc_pt_flush(&proxies, PNC_PT_SOURCE_LEARNED);

	if (n) {
		DEBUGD(&cnpproxy_dbg_zebra, "zebra: forgot %zu learned proxies", n);
		cnpproxy_lookup_changed();
	}
}

int cnpproxy_rib_static_set(struct pnc_pt_table *pt, const struct prefix *p,
			    const struct ipaddr *via)
{
	struct pnc_pt_entry e = { .source = PNC_PT_SOURCE_STATIC };

	if (!cnpproxy_rib_prefix(&e.prefix, p) || !cnpproxy_rib_addr(&e.proxy, via))
		return -1;
	e.origin = ZEBRA_ROUTE_CNPPROXY;
	e.since = time(NULL);
	return pnc_pt_set(pt, &e) < 0 ? -1 : 0;
}

void cnpproxy_rib_static_replace(const struct pnc_pt_table *want)
{
	uint64_t generation = proxies.generation;
	struct pnc_pt_prefix p;
	size_t i = proxies.count;

	/* Backwards, as pnc_pt_unset() moves the entries after the one it removes. */
	while (i-- > 0) {
		if (proxies.entries[i].source != PNC_PT_SOURCE_STATIC)
			continue;
		p = proxies.entries[i].prefix;
		if (!pnc_pt_get(want, &p, PNC_PT_SOURCE_STATIC))
			pnc_pt_unset(&proxies, &p, PNC_PT_SOURCE_STATIC);
	}
	/* An unchanged entry is left as it is, its "since" included. */
	for (i = 0; i < want->count; i++)
		if (pnc_pt_set(&proxies, &want->entries[i]) < 0)
			zlog_warn("could not install a static proxy entry");
	if (proxies.generation != generation)
		cnpproxy_lookup_changed();
}
