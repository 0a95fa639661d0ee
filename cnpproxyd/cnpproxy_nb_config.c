// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd northbound: configuration callbacks.
 *
 * Validation happens in NB_EV_VALIDATE with the rules of cnpproxy_config.c,
 * so a refused change never reaches the running state and the operator
 * gets the reason.
 */
#include <zebra.h>

#include "lib/log.h"
#include "lib/northbound.h"
#include "lib/yang.h"

#include "cnpproxyd.h"
#include "cnpproxy_cp.h"
#include "cnpproxy_debug.h"
#include "cnpproxy_nb.h"
#include "cnpproxy_proxy.h"
#include "cnpproxy_rib.h"

/* /frr-cnpproxyd:cnpproxyd/cnpproxy */
int cnpproxy_create(struct nb_cb_create_args *args)
{
	if (args->event != NB_EV_APPLY)
		return NB_OK;

	cnp_g.cfg.present = true;
	DEBUGD(&cnp_dbg_nb, "northbound: router cnpproxy created");
	return NB_OK;
}

int cnpproxy_destroy(struct nb_cb_destroy_args *args)
{
	if (args->event != NB_EV_APPLY)
		return NB_OK;

	/* Removing the node removes everything under it. */
	cnp_config_init(&cnp_g.cfg);
	pt_flush(&cnp_proxies, PT_SOURCE_STATIC);
	cnpproxy_pn_apply();
	cnpproxy_cp_apply();
	DEBUGD(&cnp_dbg_nb, "northbound: router cnpproxy removed");
	return NB_OK;
}

static void role_set(enum cnp_role role, bool on)
{
	cnp_g.cfg.role[role] = on;
	DEBUGD(&cnp_dbg_nb, "northbound: role %s %s", cnp_role_name(role),
	       on ? "enabled" : "disabled");
}

/* /frr-cnpproxyd:cnpproxyd/cnpproxy/proxy */
int cnpproxy_proxy_create(struct nb_cb_create_args *args)
{
	if (args->event == NB_EV_APPLY)
		role_set(CNP_ROLE_PROXY, true);
	return NB_OK;
}

int cnpproxy_proxy_destroy(struct nb_cb_destroy_args *args)
{
	if (args->event == NB_EV_APPLY) {
		role_set(CNP_ROLE_PROXY, false);
		cnp_proxy_config_init(&cnp_g.cfg.proxy);
	}
	return NB_OK;
}

/* After any change under router cnpproxy: sockets follow the config. */
void cnpproxy_apply_finish(struct nb_cb_apply_finish_args *args)
{
	cnpproxy_fl_config_load(args->dnode);
	cnpproxy_pn_apply();
	cnpproxy_cp_config_load(args->dnode);
	cnpproxy_cp_apply();
}

/*
 * /frr-cnpproxyd:cnpproxyd/cnpproxy/proxy/<leaf>: every leaf re-reads the
 * proxy container, defaults included, so one callback serves them all.
 */
static int learn_if_add(const struct lyd_node *dnode, void *arg)
{
	struct cnp_proxy_config *pc = arg;

	if (pc->n_learn_if < CNP_LEARN_IF_MAX)
		strlcpy(pc->learn_if[pc->n_learn_if++], yang_dnode_get_string(dnode, NULL),
			CNP_IFNAME_MAX);
	return YANG_ITER_CONTINUE;
}

static void proxy_settings_load(const struct lyd_node *proxy)
{
	struct cnp_proxy_config *pc = &cnp_g.cfg.proxy;
	struct ipaddr a;

	cnp_proxy_config_init(pc);
	if (yang_dnode_exists(proxy, "source-ipv4")) {
		yang_dnode_get_ip(&a, proxy, "source-ipv4");
		memcpy(pc->src4, &a.ipaddr_v4, 4);
		pc->src4_set = true;
	}
	if (yang_dnode_exists(proxy, "source-ipv6")) {
		yang_dnode_get_ip(&a, proxy, "source-ipv6");
		memcpy(pc->src6, &a.ipaddr_v6, 16);
		pc->src6_set = true;
	}
	if (yang_dnode_exists(proxy, "accept-prefix-list"))
		strlcpy(pc->accept_plist, yang_dnode_get_string(proxy, "accept-prefix-list"),
			sizeof(pc->accept_plist));
	pc->cnp_min_interval_us = yang_dnode_get_uint32(proxy, "cnp-min-interval");
	pc->cnp_dscp = yang_dnode_get_uint8(proxy, "cnp-dscp");
	pc->rl_per_source = yang_dnode_get_uint32(proxy, "rate-limit-per-source");
	pc->rl_global = yang_dnode_get_uint32(proxy, "rate-limit-global");
	yang_dnode_iterate(learn_if_add, pc, proxy, "learn-interface");
	DEBUGD(&cnp_dbg_nb, "northbound: proxy settings reloaded");
}

int cnpproxy_proxy_setting_modify(struct nb_cb_modify_args *args)
{
	if (args->event == NB_EV_APPLY)
		proxy_settings_load(lyd_parent(args->dnode));
	return NB_OK;
}

/* /frr-cnpproxyd:cnpproxyd/cnpproxy/proxy/source-ipv4|source-ipv6 */
int cnpproxy_proxy_source_modify(struct nb_cb_modify_args *args)
{
	/* The senders answer CNPs' source: it must be this one node. */
	if (args->event == NB_EV_VALIDATE)
		return cnpproxy_unicast_validate(args->dnode, "CNP source address", args->errmsg,
						 args->errmsg_len);
	return cnpproxy_proxy_setting_modify(args);
}

int cnpproxy_proxy_setting_destroy(struct nb_cb_destroy_args *args)
{
	/* The leaf is still in the tree being destroyed: reset it alone. */
	if (args->event == NB_EV_APPLY) {
		const char *name = args->dnode->schema->name;
		struct cnp_proxy_config *pc = &cnp_g.cfg.proxy;

		struct cnp_proxy_config def;

		/* Leaves with a default go back to it. */
		cnp_proxy_config_init(&def);
		if (!strcmp(name, "source-ipv4"))
			pc->src4_set = false;
		else if (!strcmp(name, "source-ipv6"))
			pc->src6_set = false;
		else if (!strcmp(name, "accept-prefix-list"))
			pc->accept_plist[0] = '\0';
		else if (!strcmp(name, "cnp-min-interval"))
			pc->cnp_min_interval_us = def.cnp_min_interval_us;
		else if (!strcmp(name, "cnp-dscp"))
			pc->cnp_dscp = def.cnp_dscp;
		else if (!strcmp(name, "rate-limit-per-source"))
			pc->rl_per_source = def.rl_per_source;
		else if (!strcmp(name, "rate-limit-global"))
			pc->rl_global = def.rl_global;
	}
	return NB_OK;
}

/*
 * /frr-cnpproxyd:cnpproxyd/cnpproxy/proxy/learn-interface: the whole list
 * is re-read from the new configuration after the transaction.
 */
int cnpproxy_proxy_learn_if_create(struct nb_cb_create_args *args)
{
	if (args->event == NB_EV_APPLY)
		proxy_settings_load(lyd_parent(args->dnode));
	return NB_OK;
}

int cnpproxy_proxy_learn_if_destroy(struct nb_cb_destroy_args *args)
{
	struct cnp_proxy_config *pc = &cnp_g.cfg.proxy;
	const char *name;
	unsigned int i;

	if (args->event != NB_EV_APPLY)
		return NB_OK;
	name = yang_dnode_get_string(args->dnode, NULL);
	for (i = 0; i < pc->n_learn_if; i++) {
		if (strcmp(pc->learn_if[i], name))
			continue;
		memmove(pc->learn_if[i], pc->learn_if[i + 1],
			(pc->n_learn_if - i - 1) * sizeof(pc->learn_if[0]));
		pc->n_learn_if--;
		break;
	}
	return NB_OK;
}

/* /frr-cnpproxyd:cnpproxyd/cnpproxy/proxy/sender */
int cnpproxy_proxy_sender_create(struct nb_cb_create_args *args)
{
	return NB_OK;
}

int cnpproxy_proxy_sender_destroy(struct nb_cb_destroy_args *args)
{
	return NB_OK;
}

/* Formats this version cannot send are refused, never dropped silently. */
int cnpproxy_proxy_sender_format_modify(struct nb_cb_modify_args *args)
{
	enum cnp_sender_format fmt;

	if (args->event != NB_EV_VALIDATE)
		return NB_OK;
	if (!cnp_sender_format_parse(yang_dnode_get_string(args->dnode, NULL), &fmt)) {
		snprintf(args->errmsg, args->errmsg_len, "unknown sender format");
		return NB_ERR_VALIDATION;
	}
	if (!cnp_sender_format_supported(fmt, args->errmsg, args->errmsg_len))
		return NB_ERR_VALIDATION;
	return NB_OK;
}

/* /frr-cnpproxyd:cnpproxyd/cnpproxy/congestion-point */
int cnpproxy_congestion_point_create(struct nb_cb_create_args *args)
{
	if (args->event == NB_EV_APPLY)
		role_set(CNP_ROLE_CONGESTION_POINT, true);
	return NB_OK;
}

int cnpproxy_congestion_point_destroy(struct nb_cb_destroy_args *args)
{
	if (args->event == NB_EV_APPLY)
		role_set(CNP_ROLE_CONGESTION_POINT, false);
	return NB_OK;
}

/* /frr-cnpproxyd:cnpproxyd/cnpproxy/proxy-for */
int cnpproxy_proxy_for_create(struct nb_cb_create_args *args)
{
	/* The entry is installed when its mandatory "via" is applied. */
	return NB_OK;
}

int cnpproxy_proxy_for_destroy(struct nb_cb_destroy_args *args)
{
	struct prefix p;

	if (args->event != NB_EV_APPLY)
		return NB_OK;
	yang_dnode_get_prefix(&p, args->dnode, "prefix");
	cnpproxy_proxies_static_unset(&p);
	return NB_OK;
}

/* Not unspecified, multicast or broadcast: a proxy must be one node. */
bool cnpproxy_ipaddr_is_unicast(const struct ipaddr *a)
{
	if (ipaddr_is_zero(a))
		return false;
	if (IS_IPADDR_V4(a))
		return !IN_MULTICAST(ntohl(a->ipaddr_v4.s_addr)) &&
		       a->ipaddr_v4.s_addr != INADDR_BROADCAST;
	return !IN6_IS_ADDR_MULTICAST(&a->ipaddr_v6);
}

int cnpproxy_unicast_validate(const struct lyd_node *dnode, const char *what, char *errmsg,
			      size_t errmsg_len)
{
	struct ipaddr a;

	yang_dnode_get_ip(&a, dnode, NULL);
	if (cnpproxy_ipaddr_is_unicast(&a))
		return NB_OK;
	snprintfrr(errmsg, errmsg_len, "%s %pIA is not a unicast address", what, &a);
	return NB_ERR_VALIDATION;
}

/* /frr-cnpproxyd:cnpproxyd/cnpproxy/proxy-for/via */
int cnpproxy_proxy_for_via_modify(struct nb_cb_modify_args *args)
{
	struct prefix p;
	struct ipaddr via;

	yang_dnode_get_ip(&via, args->dnode, NULL);
	switch (args->event) {
	case NB_EV_VALIDATE:
		/* The proxy must be reachable as a unicast destination. */
		return cnpproxy_unicast_validate(args->dnode, "proxy address", args->errmsg,
						 args->errmsg_len);
	case NB_EV_PREPARE:
	case NB_EV_ABORT:
		break;
	case NB_EV_APPLY:
		yang_dnode_get_prefix(&p, lyd_parent(args->dnode), "prefix");
		if (cnpproxy_proxies_static_set(&p, &via) < 0)
			zlog_warn("could not add static proxy %pFX via %pIA", &p, &via);
		break;
	}
	return NB_OK;
}

/* A leaf of the candidate, or its YANG default when it is not there. */
static uint16_t port_or_default(const struct lyd_node *parent, const char *name)
{
	if (yang_dnode_exists(parent, name))
		return yang_dnode_get_uint16(parent, "%s", name);
	return yang_get_default_uint16(CNPPROXY_XPATH "/%s", name);
}

/*
 * Both ports are checked together against the candidate configuration,
 * whichever of the two is being changed.
 */
static int ports_validate(const struct lyd_node *dnode, char *errmsg, size_t errmsg_len)
{
	const struct lyd_node *parent = lyd_parent(dnode);
	uint16_t notif, flow;

	notif = port_or_default(parent, "notification-port");
	flow = port_or_default(parent, "flow-label-port");
	if (!cnp_config_ports_valid(notif, flow, errmsg, errmsg_len))
		return NB_ERR_VALIDATION;
	return NB_OK;
}

/* Shared by both port leaves; field is where the applied value goes. */
static int port_modify(struct nb_cb_modify_args *args, uint16_t *field)
{
	switch (args->event) {
	case NB_EV_VALIDATE:
		return ports_validate(args->dnode, args->errmsg, args->errmsg_len);
	case NB_EV_PREPARE:
	case NB_EV_ABORT:
		break;
	case NB_EV_APPLY:
		*field = yang_dnode_get_uint16(args->dnode, NULL);
		break;
	}
	return NB_OK;
}

/* /frr-cnpproxyd:cnpproxyd/cnpproxy/notification-port */
int cnpproxy_notification_port_modify(struct nb_cb_modify_args *args)
{
	return port_modify(args, &cnp_g.cfg.notification_port);
}

/* /frr-cnpproxyd:cnpproxyd/cnpproxy/flow-label-port */
int cnpproxy_flow_label_port_modify(struct nb_cb_modify_args *args)
{
	return port_modify(args, &cnp_g.cfg.flow_label_port);
}
