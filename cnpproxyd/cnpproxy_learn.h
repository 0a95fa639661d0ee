// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd proxy role: queue-pair learning.  The XDP program of
 * bpf/learn.bpf.c samples RoCEv2 traffic on the configured interfaces;
 * its events feed the flow table.
 */
#ifndef _CNPPROXY_LEARN_H
#define _CNPPROXY_LEARN_H

#include <stdbool.h>
#include <stdint.h>

struct vty;
struct json_object;
struct pnc_flow_table;

/*
 * Follow the configuration: load, attach, detach, unload.  flows: where
 * learned pairs go, the proxy role's table (NULL when it has none).
 */
extern void cnpproxy_learn_apply(struct pnc_flow_table *flows);
extern void cnpproxy_learn_init(void);
/* A configured learning interface that does not learn, and why; NULL: all do. */
extern const char *cnpproxy_learn_not_operational(void);
extern void cnpproxy_learn_fini(void);
/* Counters of learning, for show cnpproxy counters. */
extern void cnpproxy_learn_show(struct vty *vty, struct json_object *json);
extern void cnpproxy_learn_counters_clear(void);

#endif /* _CNPPROXY_LEARN_H */
