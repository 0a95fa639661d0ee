// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd proxy role: the tables of the XDP notification guard (the
 * accept list as a longest-match table, this router's addresses, the
 * per-source limit), kept in step with the configuration, the
 * prefix-lists and zebra's interface addresses.
 */
#ifndef _CNPPROXY_PROXY_XDP_GUARD_H
#define _CNPPROXY_PROXY_XDP_GUARD_H

struct pnc_learn_xdp;
struct vty;
struct json_object;

extern void cnpproxy_guard_fini(void);
/* Something the tables come from changed: rebuild them soon, once. */
extern void cnpproxy_guard_sync(void);
/* Rebuild them now, into a program just loaded. */
struct pnc_config;
extern void cnpproxy_guard_sync_now(struct pnc_learn_xdp *lx, const struct pnc_config *cfg);
/* Why the guard does not guard although asked to; NULL: it does. */
extern const char *cnpproxy_guard_not_operational(void);
extern void cnpproxy_guard_show(struct vty *vty, struct json_object *json);

#endif /* _CNPPROXY_PROXY_XDP_GUARD_H */
