// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd's proxy table, seen from FRR: filled from zebra's
 * redistribution (routes carrying PNC) and from static configuration.
 */
#ifndef _CNPPROXY_RIB_RIB_H
#define _CNPPROXY_RIB_RIB_H

#include "lib/ipaddr.h"
#include "lib/prefix.h"

#include "rib/lpm.h"

struct zapi_route;

/* Counters of what zebra told us. */
struct cnpproxy_rib_stats {
	uint64_t learned_add;	/* PNC route added or changed */
	uint64_t learned_del;	/* PNC route withdrawn or lost PNC */
	uint64_t no_proxy_addr; /* PNC without a usable proxy address */
	uint64_t without_pnc;	/* added routes without PNC (zebra filters them) */
	uint64_t decode_errors; /* redistribution messages not decoded */
};

/* The proxy table and what zebra told us, for show and the operational state. */
extern const struct pnc_pt_table *cnpproxy_rib_table(void);
extern const struct cnpproxy_rib_stats *cnpproxy_rib_counters(void);
/* A redistribution message zebra sent that did not decode. */
extern void cnpproxy_rib_decode_error(void);

extern void cnpproxy_rib_init(void);
extern void cnpproxy_rib_fini(void);

/* A route from zebra's redistribution: add = ADD message, else DEL. */
extern void cnpproxy_rib_route(const struct zapi_route *api, bool add);
/* zebra session lost: learned entries are no longer known to be valid. */
extern void cnpproxy_rib_flush_learned(void);

/* Add "proxy for P via VIA" to pt (a table being built); -1 if invalid. */
extern int cnpproxy_rib_static_set(struct pnc_pt_table *pt, const struct prefix *p,
				   const struct ipaddr *via);
/* Make the static entries of the proxy table exactly those of want. */
extern void cnpproxy_rib_static_replace(const struct pnc_pt_table *want);

/* Conversions between FRR and proxy-table types. */
extern bool cnpproxy_rib_prefix(struct pnc_pt_prefix *out, const struct prefix *p);
extern bool cnpproxy_rib_addr(struct pnc_pt_addr *out, const struct ipaddr *a);
extern const char *cnpproxy_rib_addr2str(const struct pnc_pt_addr *a, char *buf, size_t len);
extern const char *cnpproxy_rib_prefix2str(const struct pnc_pt_prefix *p, char *buf, size_t len);

#endif /* _CNPPROXY_RIB_RIB_H */
