// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd northbound: the proxy's flow-label tunnel (seed 001 ingress
 * PE).  Read as a whole from the committed tree after each transaction,
 * like the congestion point's settings: the program is rebuilt from it.
 */
#include <zebra.h>

#include "lib/log.h"
#include "lib/northbound.h"
#include "lib/prefix.h"
#include "lib/yang.h"

#include "cnpproxyd.h"
#include "cnpproxy_debug.h"
#include "cnpproxy_nb.h"

static int tunnel_add(const struct lyd_node *dn, void *arg)
{
	struct pnc_proxy_config *pc = arg;
	struct pnc_tunnel_prefix *t;
	struct prefix p;
	struct ipaddr a;

	if (pc->n_tunnel_prefixes >= PNC_TUNNEL_PREFIX_MAX)
		return YANG_ITER_STOP;
	t = &pc->tunnel_prefixes[pc->n_tunnel_prefixes++];
	memset(t, 0, sizeof(*t));
	yang_dnode_get_prefix(&p, dn, "prefix");
	apply_mask(&p);
	t->family = p.family == AF_INET ? 4 : 6;
	t->plen = p.prefixlen;
	memcpy(t->prefix, &p.u.prefix, t->family == 4 ? 4 : 16);
	yang_dnode_get_ip(&a, dn, "endpoint");
	memcpy(t->endpoint, &a.ipaddr_v6, 16);
	if (yang_dnode_exists(dn, "vxlan")) {
		struct ethaddr mac = {};

		t->vni = yang_dnode_get_uint32(dn, "vxlan/vni");
		/* YANG checked the syntax. */
		(void)prefix_str2mac(yang_dnode_get_string(dn, "vxlan/router-mac"), &mac);
		memcpy(t->router_mac, mac.octet, sizeof(t->router_mac));
	}
	return YANG_ITER_CONTINUE;
}

void cnpproxy_tunnel_config_load(struct pnc_proxy_config *pc, const struct lyd_node *cnpproxy)
{
	const struct lyd_node *fl, *shaping;
	struct ipaddr a;

	pc->tunnel_enabled = false;
	pc->tunnel_shape = false;
	pc->tunnel_if[0] = '\0';
	pc->n_tunnel_prefixes = 0;
	fl = cnpproxy ? yang_dnode_get(cnpproxy, "proxy/flow-label-tunnel") : NULL;
	if (!fl)
		return;
	pc->tunnel_enabled = true;
	strlcpy(pc->tunnel_if, yang_dnode_get_string(fl, "interface"), sizeof(pc->tunnel_if));
	shaping = yang_dnode_get(fl, "local-shaping");
	pc->tunnel_shape = shaping != NULL;
	if (shaping) {
		pc->tunnel_shape_step = yang_dnode_get_uint8(shaping, "step");
		pc->tunnel_shape_floor_mbps = yang_dnode_get_uint32(shaping, "floor");
		pc->tunnel_shape_hold_us = yang_dnode_get_uint32(shaping, "hold-time");
	}
	yang_dnode_get_ip(&a, fl, "source");
	memcpy(pc->tunnel_src, &a.ipaddr_v6, 16);
	yang_dnode_iterate(tunnel_add, pc, fl, "tunnel");
	DEBUGD(&cnpproxy_dbg_nb, "northbound: flow-label tunnel on %s, %u prefixes", pc->tunnel_if,
	       pc->n_tunnel_prefixes);
}

/*
 * The router MAC of a VXLAN tunnel: a frame to a multicast or the zero
 * address would not be routed on by the egress PE.
 */
int cnpproxy_tunnel_mac_modify(struct nb_cb_modify_args *args)
{
	struct ethaddr mac = {};
	static const uint8_t zero[ETH_ALEN];

	if (args->event != NB_EV_VALIDATE)
		return NB_OK;
	if (!prefix_str2mac(yang_dnode_get_string(args->dnode, NULL), &mac) ||
	    (mac.octet[0] & 0x01) || !memcmp(mac.octet, zero, ETH_ALEN)) {
		snprintf(args->errmsg, args->errmsg_len,
			 "router MAC %s: a unicast MAC address is needed",
			 yang_dnode_get_string(args->dnode, NULL));
		return NB_ERR_VALIDATION;
	}
	return NB_OK;
}

/* The tunnel's outer source and endpoints: each is one node. */
int cnpproxy_tunnel_address_modify(struct nb_cb_modify_args *args)
{
	return cnpproxy_unicast_validate(args, "tunnel address");
}
