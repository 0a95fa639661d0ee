// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd proxy role: the XDP-native translator's tables
 * (`proxy fast-path xdp`): the flows, the interfaces a CNP may leave
 * by, and the settings, published to the proxy's XDP program.
 */
#ifndef _CNPPROXY_PROXY_XDP_XLATE_H
#define _CNPPROXY_PROXY_XDP_XLATE_H

struct pnc_learn_xdp;
struct pnc_flow_table;
struct vty;
struct json_object;

/* Publish all of it now (configuration applied, program (re)loaded). */
struct pnc_config;
extern void cnpproxy_xlate_sync_now(struct pnc_learn_xdp *lx, const struct pnc_config *cfg);
/* Flows may have changed: publish soon, once for many calls. */
/* The flow table to translate from (NULL: none), from the program's owner. */
extern void cnpproxy_xlate_flows(struct pnc_flow_table *flows);
extern void cnpproxy_xlate_flows_changed(void);
/* Why the translator asked for does not run, or NULL. */
extern const char *cnpproxy_xlate_not_operational(void);
extern void cnpproxy_xlate_show(struct vty *vty, struct json_object *json);
extern const char *cnpproxy_fast_path_name(enum pnc_fast_path p);
extern void cnpproxy_xlate_init(void);
extern void cnpproxy_xlate_fini(void);

#endif /* _CNPPROXY_PROXY_XDP_XLATE_H */
