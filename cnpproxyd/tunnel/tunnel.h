// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd proxy role: the ingress PE's flow-label tunnel (seed 001).
 */
#ifndef _CNPPROXY_TUNNEL_TUNNEL_H
#define _CNPPROXY_TUNNEL_TUNNEL_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/json.h"

#include "tunnel/tunnel_tc.h"

struct vty;

/* Follow the proxy's flow-label-tunnel configuration. */
struct pnc_config;
extern void cnpproxy_tunnel_apply(const struct pnc_config *cfg);
extern void cnpproxy_tunnel_init(void);
extern void cnpproxy_tunnel_fini(void);
/* The flow a label was allocated to; false if none. */
extern bool cnpproxy_tunnel_resolve(uint32_t label, struct pnc_tunnel_flow *out);
/* NULL when running, else why not. */
extern const char *cnpproxy_tunnel_not_operational(void);
/* show cnpproxy flow-labels: the label table and the program's counters. */
extern void cnpproxy_tunnel_show(struct vty *vty, json_object *json);
/* clear cnpproxy counters: the program's counters. */
extern void cnpproxy_tunnel_counters_clear(void);

/* Its interface (position 0), for the operational state; false if none. */
struct cnpproxy_attach_if;
extern bool cnpproxy_tunnel_attachment(unsigned int i, struct cnpproxy_attach_if *out);

#endif /* _CNPPROXY_TUNNEL_TUNNEL_H */
