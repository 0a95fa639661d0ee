// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd proxy role: the proxy's XDP program and queue-pair learning.
 * The program of proxy/xdp/learn.bpf.c samples RoCEv2 traffic on the learn
 * interfaces (its events feed the flow table) and guards the filter
 * interfaces.
 */
#ifndef _CNPPROXY_PROXY_XDP_LEARN_H
#define _CNPPROXY_PROXY_XDP_LEARN_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/types.h>

#include "proxy/xdp/learn_abi.h"

struct vty;
struct json_object;
struct pnc_flow_table;
struct pnc_learn_xdp;
struct pnc_learn_counters;

/*
 * Follow the configuration: load, attach, detach, unload.  flows: where
 * learned pairs go, the proxy role's table (NULL when it has none).
 */
struct pnc_config;
extern void cnpproxy_learn_apply(const struct pnc_config *cfg, struct pnc_flow_table *flows);
extern void cnpproxy_learn_init(void);
/* A configured learning interface that does not learn, and why; NULL: all do. */
extern const char *cnpproxy_learn_not_operational(void);
extern void cnpproxy_learn_fini(void);
/* Counters of learning, for show cnpproxy counters. */
extern void cnpproxy_learn_show(struct vty *vty, struct json_object *json);
extern void cnpproxy_learn_counters_clear(void);

/* The program's counters since the last clear, across reloads. */
extern void cnpproxy_learn_xdp_counters(struct pnc_learn_counters *out);

/* Its interface at position i, for the operational state; false past the end. */
struct cnpproxy_attach_if;
extern bool cnpproxy_learn_attachment(unsigned int i, struct cnpproxy_attach_if *out);

#endif /* _CNPPROXY_PROXY_XDP_LEARN_H */
