// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd northbound: the congestion point role's configuration.
 *
 * The role's settings are read as a whole from the committed tree after
 * each transaction (cnpproxy_cp_config_load(), from the apply_finish
 * callback), as every part of the configuration is; an interface's
 * thresholds depend on several leaves at once, and the YANG must
 * statements check those together.
 */
#include <zebra.h>

#include <math.h>

#include "lib/log.h"
#include "lib/northbound.h"
#include "lib/yang.h"

#include "cnpproxyd.h"
#include "cp/cp.h"
#include "cnpproxy_debug.h"
#include "cnpproxy_nb.h"

static void source_load(const struct lyd_node *cp, const char *leaf, bool *set, uint8_t *dst,
			size_t len)
{
	struct ipaddr a;

	*set = yang_dnode_exists(cp, leaf);
	if (!*set)
		return;
	yang_dnode_get_ip(&a, cp, "%s", leaf);
	memcpy(dst, len == 4 ? (void *)&a.ipaddr_v4 : (void *)&a.ipaddr_v6, len);
}

static void if_load(struct pnc_cp_if_config *ic, const struct lyd_node *dn)
{
	struct pnc_cp_policy_config *pc = &ic->policy;
	const char *marking;

	pnc_cp_if_config_init(ic, yang_dnode_get_string(dn, "name"));
	ic->poll_ms = yang_dnode_get_uint16(dn, "poll-interval");
	pc->mode = strmatch(yang_dnode_get_string(dn, "threshold-mode"), "static")
			   ? PNC_CP_THR_STATIC
			   : PNC_CP_THR_BDP;
	if (yang_dnode_exists(dn, "k-min"))
		pc->k_min = yang_dnode_get_uint64(dn, "k-min");
	if (yang_dnode_exists(dn, "k-max"))
		pc->k_max = yang_dnode_get_uint64(dn, "k-max");
	pc->k_base = yang_dnode_get_uint64(dn, "k-base");
	pc->alpha_milli = (uint32_t)llround(yang_dnode_get_dec64(dn, "alpha") * 1000);
	if (yang_dnode_exists(dn, "rate"))
		pc->rate_bps = yang_dnode_get_uint64(dn, "rate");
	pc->rtt_us = yang_dnode_get_uint32(dn, "rtt");
	pc->k_min_percent = yang_dnode_get_uint8(dn, "k-min-percent");
	if (yang_dnode_exists(dn, "ecn-rate-threshold"))
		pc->ecn_permille = yang_dnode_get_uint16(dn, "ecn-rate-threshold");
	if (yang_dnode_exists(dn, "growth-rate-threshold"))
		pc->growth_bps = yang_dnode_get_uint64(dn, "growth-rate-threshold");
	marking = yang_dnode_get_string(dn, "marking");
	if (!pnc_cp_marking_parse(marking, &pc->marking))
		pc->marking = PNC_CP_MARK_CE;
	if (yang_dnode_exists(dn, "notify-min-interval"))
		ic->notify_min_interval_us = yang_dnode_get_uint32(dn, "notify-min-interval");
	ic->notify_rate = yang_dnode_get_uint32(dn, "notify-rate-limit");
	ic->notify_min_share = yang_dnode_get_uint8(dn, "notify-min-share");
	if (yang_dnode_exists(dn, "collaborative-suppression"))
		ic->collab_fall_percent = yang_dnode_get_uint8(dn, "collaborative-suppression");
}

static int if_add(const struct lyd_node *dn, void *arg)
{
	struct pnc_cp_config *cc = arg;

	if (cc->n_if < PNC_CP_IF_MAX)
		if_load(&cc->ifs[cc->n_if++], dn);
	return YANG_ITER_CONTINUE;
}

void cnpproxy_cp_config_load(struct pnc_cp_config *cc, const struct lyd_node *cnpproxy)
{
	const struct lyd_node *cp;
	struct ipaddr a;

	memset(cc, 0, sizeof(*cc));
	cp = cnpproxy ? yang_dnode_get(cnpproxy, "congestion-point") : NULL;
	if (cp) {
		source_load(cp, "source-ipv4", &cc->src4_set, cc->src4, 4);
		source_load(cp, "source-ipv6", &cc->src6_set, cc->src6, 16);
		if (yang_dnode_exists(cp, "fallback-proxy")) {
			yang_dnode_get_ip(&a, cp, "fallback-proxy");
			cc->fallback_family = IS_IPADDR_V4(&a) ? 4 : 6;
			memcpy(cc->fallback,
			       IS_IPADDR_V4(&a) ? (void *)&a.ipaddr_v4 : (void *)&a.ipaddr_v6,
			       IS_IPADDR_V4(&a) ? 4 : 16);
		}
		if (yang_dnode_exists(cp, "tunnel-heads-prefix-list"))
			strlcpy(cc->tunnel_heads_plist,
				yang_dnode_get_string(cp, "tunnel-heads-prefix-list"),
				sizeof(cc->tunnel_heads_plist));
		if (yang_dnode_exists(cp, "direct-to-source-prefix-list"))
			strlcpy(cc->direct_plist,
				yang_dnode_get_string(cp, "direct-to-source-prefix-list"),
				sizeof(cc->direct_plist));
		cc->hide_queue_state = yang_dnode_get_bool(cp, "hide-queue-state");
		cc->fcn_copy_flow_label = yang_dnode_get_bool(cp, "fcn-copy-flow-label");
		cc->notify_icmp = !strcmp(yang_dnode_get_string(cp, "notification-form"), "icmp");
		yang_dnode_iterate(if_add, cc, cp, "interface");
	}
	DEBUGD(&cnpproxy_dbg_nb, "northbound: congestion point settings reloaded (%u interfaces)",
	       cc->n_if);
}

/* /frr-cnpproxyd:cnpproxyd/cnpproxy/congestion-point/fallback-proxy */
int cnpproxy_cp_fallback_modify(struct nb_cb_modify_args *args)
{
	return cnpproxy_unicast_validate(args, "fallback proxy");
}

/* /frr-cnpproxyd:cnpproxyd/cnpproxy/congestion-point/source-ipv4|6 */
int cnpproxy_cp_source_modify(struct nb_cb_modify_args *args)
{
	/* Proxies accept notifications by source: it must be this node. */
	return cnpproxy_unicast_validate(args, "notification source address");
}
