// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd tunnel egress: the egress PE's end of the flow-label tunnel
 * ("tunnel-egress"), decapsulating with seed 003's modified pipe: an
 * outer CE is copied inward (RFC 6040), an outer ECT(1) pre-congestion
 * mark is not.
 */
#ifndef _CNPPROXY_TUNNEL_EGRESS_H
#define _CNPPROXY_TUNNEL_EGRESS_H

struct pnc_config;
extern void cnpproxy_egress_apply(const struct pnc_config *cfg);
/* Why tunnel-egress does not decapsulate on every interface, or NULL. */
extern const char *cnpproxy_egress_not_operational(void);
/* Configured interfaces, and those it decapsulates on. */
extern void cnpproxy_egress_count(unsigned int *configured, unsigned int *attached);
extern void cnpproxy_egress_counters_clear(void);
extern void cnpproxy_egress_init(void);
extern void cnpproxy_egress_fini(void);

/* Its interface at position i, for the operational state; false past the end. */
struct cnpproxy_attach_if;
extern bool cnpproxy_egress_attachment(unsigned int i, struct cnpproxy_attach_if *out);

#endif /* _CNPPROXY_TUNNEL_EGRESS_H */
