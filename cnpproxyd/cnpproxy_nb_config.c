// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd northbound: configuration.
 *
 * One style for every node.  The per-node callbacks only validate (in
 * NB_EV_VALIDATE, so a refused change never reaches the running state);
 * after each transaction cnpproxy_apply_finish() reads the whole committed
 * "router cnpproxy" tree into cnpproxy_g.cfg and each role follows it.  Leaves
 * that go back to their default read as the YANG default, which is
 * therefore the only place a default is written down.
 */
#include <zebra.h>

#include "lib/log.h"
#include "lib/northbound.h"
#include "lib/yang.h"

#include "cnpproxyd.h"
#include "border/border.h"
#include "tunnel/egress.h"
#include "cp/cp.h"
#include "cnpproxy_debug.h"
#include "cnpproxy_fp.h"
#include "rib/lpm.h"
#include "cnpproxy_nb.h"
#include "proxy/proxy.h"
#include "rib/rib.h"

/*
 * Nodes whose value is only read in cnpproxy_apply_finish(): nothing to
 * check, nothing to do at once.
 */
int cnpproxy_nb_create(struct nb_cb_create_args *args)
{
	return NB_OK;
}

int cnpproxy_nb_modify(struct nb_cb_modify_args *args)
{
	return NB_OK;
}

int cnpproxy_nb_destroy(struct nb_cb_destroy_args *args)
{
	return NB_OK;
}

/* No "router cnpproxy": every role off, the ports the module defaults to. */
void cnpproxy_nb_config_reset(void)
{
	pnc_config_init(&cnpproxy_g.cfg);
	cnpproxy_g.cfg.notification_port = yang_get_default_uint16(CNPPROXY_XPATH
								   "/notification-port");
	cnpproxy_g.cfg.flow_label_port = yang_get_default_uint16(CNPPROXY_XPATH "/flow-label-port");
	cnpproxy_g.cfg.notification_icmp_type = yang_get_default_uint8(CNPPROXY_XPATH
								       "/notification-icmp-type");
	cnpproxy_g.cfg.notification_icmp6_type =
		yang_get_default_uint8(CNPPROXY_XPATH "/notification-icmpv6-type");
}

/* /frr-cnpproxyd:cnpproxyd/cnpproxy */
int cnpproxy_destroy(struct nb_cb_destroy_args *args)
{
	struct pnc_pt_table none;

	if (args->event != NB_EV_APPLY)
		return NB_OK;

	/* apply_finish is not called for the node that goes away. */
	frr_with_mutex (&cnpproxy_fp_mtx) {
		cnpproxy_nb_config_reset();
		cnpproxy_proxy_apply(&cnpproxy_g.cfg);
	}
	pnc_pt_init(&none);
	cnpproxy_rib_static_replace(&none);
	cnpproxy_cp_apply(&cnpproxy_g.cfg);
	cnpproxy_border_apply(&cnpproxy_g.cfg);
	cnpproxy_egress_apply(&cnpproxy_g.cfg);
	DEBUGD(&cnpproxy_dbg_nb, "northbound: router cnpproxy removed");
	return NB_OK;
}

/* An interface leaf-list into a bounded array of names. */
/* A list of interface names in the configuration, its count and size. */
struct if_names {
	char (*names)[PNC_IFNAME_MAX];
	unsigned int *n;
	unsigned int max;
};

#define IF_NAMES(list, count) (&(struct if_names){ (list), &(count), array_size(list) })

static int if_name_add(const struct lyd_node *dnode, void *arg)
{
	struct if_names *l = arg;

	if (*l->n < l->max)
		strlcpy(l->names[(*l->n)++], yang_dnode_get_string(dnode, NULL), PNC_IFNAME_MAX);
	return YANG_ITER_CONTINUE;
}

static int sender_add(const struct lyd_node *dnode, void *arg)
{
	struct pnc_proxy_config *pc = arg;
	struct pnc_sender *snd;
	struct prefix p;

	if (pc->n_senders >= PNC_SENDER_MAX)
		return YANG_ITER_STOP;
	snd = &pc->senders[pc->n_senders];
	yang_dnode_get_prefix(&p, dnode, "prefix");
	snd->family = p.family == AF_INET ? 4 : 6;
	memcpy(snd->prefix, &p.u.prefix, p.family == AF_INET ? 4 : 16);
	snd->plen = p.prefixlen;
	snd->cnp_sized = yang_dnode_get_bool(dnode, "cnp-sized");
	/* Validated on commit: the name is one of the module's. */
	if (pnc_sender_format_parse(yang_dnode_get_string(dnode, "format"), &snd->format))
		pc->n_senders++;
	return YANG_ITER_CONTINUE;
}

/* The level policy and the formats' code points (doc/cnpproxyd.md). */
static void formats_load(struct pnc_proxy_config *pc, const struct lyd_node *proxy)
{
	struct pnc_level_policy *lp = &pc->level;

	yang_dnode_iterate(sender_add, pc, proxy, "sender");
	lp->severe_level = yang_dnode_get_uint8(proxy, "severe-level");
	lp->light_to_sender = yang_dnode_get_bool(proxy, "light-to-sender");
	lp->light_cnp_pacing = yang_dnode_get_uint8(proxy, "light-cnp-pacing");
	lp->lh_light_action = strcmp(yang_dnode_get_string(proxy, "long-haul/light-action"),
				     "rate-reduce")
				      ? PNC_LH_LIGHT_NOTIFY
				      : PNC_LH_LIGHT_RATE_REDUCE;
	lp->lh_light_reduce = yang_dnode_get_uint8(proxy, "long-haul/light-reduce");
	lp->lh_severe_reduce = yang_dnode_get_uint8(proxy, "long-haul/severe-reduce");
	lp->lh_reduce_step = yang_dnode_get_uint8(proxy, "long-haul/severe-reduce-step");
	lp->lh_resume_share = yang_dnode_get_uint8(proxy, "long-haul/resume-share");
	lp->lh_pause_us = yang_dnode_get_uint16(proxy, "long-haul/pause-time");
	lp->ra_max_rate = yang_dnode_get_uint32(proxy, "rate-advice/max-rate");
	pc->lh_icmp6_type = yang_dnode_get_uint8(proxy, "long-haul/icmpv6-type");
	pc->lh_class_num = yang_dnode_get_uint8(proxy, "long-haul/class-num");
	if (yang_dnode_exists(proxy, "long-haul/device-id"))
		strlcpy(pc->lh_device_id, yang_dnode_get_string(proxy, "long-haul/device-id"),
			sizeof(pc->lh_device_id));
	pc->ra_opcode = yang_dnode_get_uint8(proxy, "rate-advice/opcode");
}

static void proxy_load(struct pnc_proxy_config *pc, const struct lyd_node *proxy)
{
	struct ipaddr a;

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
	pc->resume_after_us = yang_dnode_get_uint32(proxy, "resume-after");
	yang_dnode_iterate(if_name_add, IF_NAMES(pc->learn_if, pc->n_learn_if), proxy,
			   "learn-interface");
	yang_dnode_iterate(if_name_add, IF_NAMES(pc->filter_if, pc->n_filter_if), proxy,
			   "filter-interface");
	pc->fast_path = yang_dnode_get_enum(proxy, "fast-path");
	pc->fast_path_busy_poll = yang_dnode_get_bool(proxy, "fast-path-busy-poll");
	pc->flow_table_size = yang_dnode_get_uint32(proxy, "flow-table-size");
	formats_load(pc, proxy);
}

static int te_sid_add(const struct lyd_node *dnode, void *arg)
{
	struct pnc_config *cfg = arg;
	struct ipaddr a;

	if (cfg->n_egress_sid < PNC_EGRESS_SID_MAX) {
		yang_dnode_get_ip(&a, dnode, NULL);
		memcpy(cfg->egress_sid[cfg->n_egress_sid++], &a.ipaddr_v6, 16);
	}
	return YANG_ITER_CONTINUE;
}

static int static_proxy_add(const struct lyd_node *dnode, void *arg)
{
	struct pnc_pt_table *want = arg;
	struct prefix p;
	struct ipaddr via;

	yang_dnode_get_prefix(&p, dnode, "prefix");
	yang_dnode_get_ip(&via, dnode, "via");
	if (cnpproxy_rib_static_set(want, &p, &via) < 0)
		zlog_warn("could not add static proxy %pFX via %pIA", &p, &via);
	return YANG_ITER_CONTINUE;
}

/* After any change under router cnpproxy: read it all, then apply. */
void cnpproxy_apply_finish(struct nb_cb_apply_finish_args *args)
{
	/* Kilobytes: not on the stack.  The main thread alone commits. */
	static struct pnc_config next;
	const struct lyd_node *cnpproxy = args->dnode;
	struct pnc_config *cfg = &next;
	const struct lyd_node *proxy;
	struct pnc_pt_table want;

	/*
	 * Read into a copy without the lock: the fast-path thread, which
	 * reads the proxy role's part, waits only for the copy to be
	 * swapped in.
	 */
	pnc_config_init(cfg);
	cfg->present = true;
	cfg->notification_port = yang_dnode_get_uint16(cnpproxy, "notification-port");
	cfg->flow_label_port = yang_dnode_get_uint16(cnpproxy, "flow-label-port");
	cfg->notification_icmp_type = yang_dnode_get_uint8(cnpproxy, "notification-icmp-type");
	cfg->notification_icmp6_type = yang_dnode_get_uint8(cnpproxy, "notification-icmpv6-type");

	proxy = yang_dnode_get(cnpproxy, "proxy");
	cfg->role[PNC_ROLE_PROXY] = proxy != NULL;
	if (proxy)
		proxy_load(&cfg->proxy, proxy);
	cnpproxy_tunnel_config_load(&cfg->proxy, cnpproxy);
	cfg->role[PNC_ROLE_CONGESTION_POINT] = yang_dnode_exists(cnpproxy, "congestion-point");
	cnpproxy_cp_config_load(&cfg->cp, cnpproxy);
	yang_dnode_iterate(if_name_add, IF_NAMES(cfg->border_if, cfg->n_border_if), cnpproxy,
			   "border-interface");
	yang_dnode_iterate(if_name_add, IF_NAMES(cfg->egress_if, cfg->n_egress_if), cnpproxy,
			   "tunnel-egress/interface");
	yang_dnode_iterate(te_sid_add, cfg, cnpproxy, "tunnel-egress/sid");
	DEBUGD(&cnpproxy_dbg_nb, "northbound: configuration read (proxy %s, congestion point %s)",
	       cfg->role[PNC_ROLE_PROXY] ? "on" : "off",
	       cfg->role[PNC_ROLE_CONGESTION_POINT] ? "on" : "off");

	frr_with_mutex (&cnpproxy_fp_mtx) {
		cnpproxy_g.cfg = next;
		cnpproxy_proxy_apply(&cnpproxy_g.cfg);
	}

	/* The main thread's table: the fast path sees it through the lookup's swap. */
	pnc_pt_init(&want);
	yang_dnode_iterate(static_proxy_add, &want, cnpproxy, "proxy-for");
	cnpproxy_rib_static_replace(&want);
	pnc_pt_fini(&want);

	cnpproxy_cp_apply(&cnpproxy_g.cfg);
	cnpproxy_border_apply(&cnpproxy_g.cfg);
	cnpproxy_egress_apply(&cnpproxy_g.cfg);
}

static int sender_cnp_sized_check(const struct lyd_node *sender, char *errmsg, size_t errmsg_len)
{
	if (yang_dnode_get_bool(sender, "cnp-sized") &&
	    strcmp(yang_dnode_get_string(sender, "format"), "long-haul-rocev2")) {
		snprintf(errmsg, errmsg_len, "cnp-sized applies to format long-haul-rocev2 only");
		return NB_ERR_VALIDATION;
	}
	return NB_OK;
}

/* A format the prefix's senders cannot be sent is refused, never dropped silently. */
int cnpproxy_proxy_sender_format_modify(struct nb_cb_modify_args *args)
{
	enum pnc_sender_format fmt;
	struct prefix p;

	if (args->event != NB_EV_VALIDATE)
		return NB_OK;
	if (!pnc_sender_format_parse(yang_dnode_get_string(args->dnode, NULL), &fmt)) {
		snprintf(args->errmsg, args->errmsg_len, "unknown sender format");
		return NB_ERR_VALIDATION;
	}
	yang_dnode_get_prefix(&p, lyd_parent(args->dnode), "prefix");
	if (!pnc_sender_format_valid(fmt, p.family == AF_INET ? 4 : 6, args->errmsg,
				     args->errmsg_len))
		return NB_ERR_VALIDATION;
	return sender_cnp_sized_check(lyd_parent(args->dnode), args->errmsg, args->errmsg_len);
}

/* Padding to a CNP's length concerns the RoCEv2 Long-haul form only. */
int cnpproxy_proxy_sender_cnp_sized_modify(struct nb_cb_modify_args *args)
{
	if (args->event != NB_EV_VALIDATE)
		return NB_OK;
	return sender_cnp_sized_check(lyd_parent(args->dnode), args->errmsg, args->errmsg_len);
}

/* A SID names one decapsulating node: unicast only. */
int cnpproxy_tunnel_egress_sid_create(struct nb_cb_create_args *args)
{
	struct ipaddr a;

	if (args->event != NB_EV_VALIDATE)
		return NB_OK;
	yang_dnode_get_ip(&a, args->dnode, NULL);
	if (IN6_IS_ADDR_UNSPECIFIED(&a.ipaddr_v6) || IN6_IS_ADDR_MULTICAST(&a.ipaddr_v6)) {
		snprintf(args->errmsg, args->errmsg_len,
			 "tunnel-egress sid must be a unicast address");
		return NB_ERR_VALIDATION;
	}
	return NB_OK;
}

/* The senders answer CNPs' source: it must be this one node. */
int cnpproxy_proxy_source_modify(struct nb_cb_modify_args *args)
{
	return cnpproxy_unicast_validate(args, "CNP source address");
}

/* /frr-cnpproxyd:cnpproxyd/cnpproxy/proxy-for/via */
int cnpproxy_proxy_for_via_modify(struct nb_cb_modify_args *args)
{
	return cnpproxy_unicast_validate(args, "proxy address");
}

/* A leaf of the candidate, or its YANG default when it is not there. */
static uint16_t port_or_default(const struct lyd_node *parent, const char *name)
{
	if (yang_dnode_exists(parent, name))
		return yang_dnode_get_uint16(parent, "%s", name);
	return yang_get_default_uint16(CNPPROXY_XPATH "/%s", name);
}

/* As port_or_default(), for a uint8 leaf (path relative to cnpproxy). */
static uint8_t u8_or_default(const struct lyd_node *cnpproxy, const char *name)
{
	if (yang_dnode_exists(cnpproxy, name))
		return yang_dnode_get_uint8(cnpproxy, "%s", name);
	return yang_get_default_uint8(CNPPROXY_XPATH "/%s", name);
}

/*
 * /frr-cnpproxyd:cnpproxyd/cnpproxy/notification-icmpv6-type and
 * proxy/long-haul/icmpv6-type: checked together, whichever changes.
 */
int cnpproxy_icmp6_type_modify(struct nb_cb_modify_args *args)
{
	const struct lyd_node *top = args->dnode;
	uint8_t notif, lh;

	if (args->event != NB_EV_VALIDATE)
		return NB_OK;
	while (top && strcmp(top->schema->name, "cnpproxy"))
		top = lyd_parent(top);
	if (!top)
		return NB_OK;
	notif = u8_or_default(top, "notification-icmpv6-type");
	lh = u8_or_default(top, "proxy/long-haul/icmpv6-type");
	if (!pnc_config_icmp6_types_valid(notif, lh, args->errmsg, args->errmsg_len))
		return NB_ERR_VALIDATION;
	return NB_OK;
}

/*
 * /frr-cnpproxyd:cnpproxyd/cnpproxy/notification-port and flow-label-port:
 * both are checked together against the candidate, whichever changes.
 */
int cnpproxy_port_modify(struct nb_cb_modify_args *args)
{
	const struct lyd_node *parent = lyd_parent(args->dnode);
	uint16_t notif, flow;

	if (args->event != NB_EV_VALIDATE)
		return NB_OK;
	notif = port_or_default(parent, "notification-port");
	flow = port_or_default(parent, "flow-label-port");
	if (!pnc_config_ports_valid(notif, flow, args->errmsg, args->errmsg_len))
		return NB_ERR_VALIDATION;
	return NB_OK;
}
