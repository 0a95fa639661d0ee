// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd border filtering: the notification and flow-label ports are
 * dropped on the ingress of the interfaces where the domain ends
 * ("border-interface"), whatever role runs here (seed 002's security
 * rule: outsiders must not reach a proxy or a congestion point).
 */
#ifndef _CNPPROXY_BORDER_BORDER_H
#define _CNPPROXY_BORDER_BORDER_H

/* Follow the configuration (interfaces, ports). */
struct pnc_config;
extern void cnpproxy_border_apply(const struct pnc_config *cfg);
/* Why the filter does not hold on every configured interface, or NULL. */
extern const char *cnpproxy_border_not_operational(void);
/* Configured interfaces, and those the filter runs on. */
extern void cnpproxy_border_count(unsigned int *configured, unsigned int *attached);
extern void cnpproxy_border_counters_clear(void);
extern void cnpproxy_border_init(void);
extern void cnpproxy_border_fini(void);

/* Its interface at position i, for the operational state; false past the end. */
struct cnpproxy_attach_if;
extern bool cnpproxy_border_attachment(unsigned int i, struct cnpproxy_attach_if *out);

#endif /* _CNPPROXY_BORDER_BORDER_H */
