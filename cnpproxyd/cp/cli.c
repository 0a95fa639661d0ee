// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd configuration commands of the congestion point role
 * ("congestion-point ..." in the router cnpproxy node).
 */
#include <zebra.h>

#include "lib/command.h"
#include "lib/northbound_cli.h"
#include "lib/vty.h"

#include "cnpproxyd.h"
#include "cnpproxy_nb.h"

#include "cnpproxyd/cp/cli_clippy.c"

#define CP_STR "Congestion point role\n"
#define CP_IF_STR                                                                                 \
	CP_STR "Watch an egress interface's queue\n"                                              \
	       "Interface name\n"
#define CP_IF_XPATH "./congestion-point/interface[name='%s']"

static bool cp_enabled(struct vty *vty)
{
	return cnpproxy_cli_needs(vty, "./congestion-point", "the congestion point role",
				  "congestion-point");
}

/*
 * "[no] congestion-point LEAF VALUE": setting it needs the role, removing
 * it does not (no_op: NB_OP_MODIFY back to the default, or NB_OP_DESTROY).
 */
static int cp_leaf(struct vty *vty, bool no, const char *leaf, const char *value,
		   enum nb_operation no_op)
{
	char xpath[XPATH_MAXLEN];

	if (!no && !cp_enabled(vty))
		return CMD_WARNING_CONFIG_FAILED;
	snprintf(xpath, sizeof(xpath), "./congestion-point/%s", leaf);
	return cnpproxy_cli_leaf(vty, no, xpath, value, no_op);
}

/*
 * A boolean leaf of the role's container: "no" sets it false, and does
 * nothing (not even create the role) when the role is not configured.
 */
static int cp_flag(struct vty *vty, const char *leaf, bool no)
{
	if (no && !cnpproxy_cli_candidate(vty, "./congestion-point"))
		return CMD_SUCCESS;
	return cp_leaf(vty, false, leaf, no ? "false" : "true", NB_OP_MODIFY);
}

static void enqueue_if_leaf(struct vty *vty, const char *ifname, const char *leaf,
			    enum nb_operation op, const char *value)
{
	char xpath[XPATH_MAXLEN];

	snprintf(xpath, sizeof(xpath), CP_IF_XPATH "/%s", ifname, leaf);
	nb_cli_enqueue_change(vty, xpath, op, value);
}

/*
 * XPath: /frr-cnpproxyd:cnpproxyd/cnpproxy/congestion-point/source-ipv4|6
 */
DEFPY_YANG(cnpproxy_cp_source, cnpproxy_cp_source_cmd,
	   "[no] congestion-point source-address ![<A.B.C.D$v4|X:X::X:X$v6>]",
	   NO_STR
	   CP_STR
	   "IP source address of the notifications\n"
	   "IPv4 address (notifications over IPv4)\n"
	   "IPv6 address (notifications over IPv6)\n")
{
	if (!no && !cp_enabled(vty))
		return CMD_WARNING_CONFIG_FAILED;
	return cnpproxy_cli_source(vty, no, "congestion-point", v4_str, v6_str);
}

/*
 * XPath: /frr-cnpproxyd:cnpproxyd/cnpproxy/congestion-point/fallback-proxy
 */
DEFPY_YANG(cnpproxy_cp_fallback, cnpproxy_cp_fallback_cmd,
	   "[no] congestion-point fallback-proxy ![<A.B.C.D|X:X::X:X>$addr]",
	   NO_STR
	   CP_STR
	   "Where notifications go for senders without a known proxy\n"
	   "IPv4 address of the proxy\n"
	   "IPv6 address of the proxy\n")
{
	return cp_leaf(vty, no, "fallback-proxy", addr_str, NB_OP_DESTROY);
}

/*
 * XPath: /frr-cnpproxyd:cnpproxyd/cnpproxy/congestion-point/tunnel-heads-prefix-list
 */
DEFPY_YANG(cnpproxy_cp_tunnel_heads, cnpproxy_cp_tunnel_heads_cmd,
	   "[no] congestion-point tunnel-heads ![prefix-list WORD$name]",
	   NO_STR
	   CP_STR
	   "Tunnel heads that get flow-label notifications without PNC\n"
	   "Those a prefix-list permits (outer IPv6 source)\n"
	   "Prefix-list name\n")
{
	return cp_leaf(vty, no, "tunnel-heads-prefix-list", name, NB_OP_DESTROY);
}

/*
 * XPath: /frr-cnpproxyd:cnpproxyd/cnpproxy/congestion-point/direct-to-source-prefix-list
 */
DEFPY_YANG(cnpproxy_cp_direct, cnpproxy_cp_direct_cmd,
	   "[no] congestion-point direct-to-source ![prefix-list WORD$name]",
	   NO_STR
	   CP_STR
	   "Send to senders directly, as their proxy (this router's proxy role)\n"
	   "Those a prefix-list permits (the sender's address)\n"
	   "Prefix-list name\n")
{
	return cp_leaf(vty, no, "direct-to-source-prefix-list", name, NB_OP_DESTROY);
}

/*
 * XPath: /frr-cnpproxyd:cnpproxyd/cnpproxy/congestion-point/hide-queue-state
 */
DEFPY_YANG(cnpproxy_cp_hide_queue, cnpproxy_cp_hide_queue_cmd,
	   "[no] congestion-point hide-queue-state",
	   NO_STR CP_STR
	   "Long-haul CNPs sent from here carry no queue depth\n")
{
	return cp_flag(vty, "hide-queue-state", no);
}

/*
 * XPath: /frr-cnpproxyd:cnpproxyd/cnpproxy/congestion-point/fcn-copy-flow-label
 */
DEFPY_YANG(cnpproxy_cp_fcn_copy, cnpproxy_cp_fcn_copy_cmd,
	   "[no] congestion-point fcn-copy-flow-label",
	   NO_STR CP_STR
	   "Flow-label FCNs carry the label in their own IPv6 header too\n")
{
	return cp_flag(vty, "fcn-copy-flow-label", no);
}

/*
 * XPath: /frr-cnpproxyd:cnpproxyd/cnpproxy/congestion-point/notification-form
 */
DEFPY_YANG(cnpproxy_cp_form, cnpproxy_cp_form_cmd,
	   "[no] congestion-point notification-form ![<udp|icmp>$form]",
	   NO_STR
	   CP_STR
	   "How five-tuple notifications are sent to proxies\n"
	   "UDP datagrams to notification-port\n"
	   "ICMP or ICMPv6 messages of notification-icmp-type / notification-icmpv6-type\n")
{
	return cp_leaf(vty, no, "notification-form", form, NB_OP_DESTROY);
}

void cli_show_cnpproxy_cp_setting(struct vty *vty, const struct lyd_node *dnode, bool show_defaults)
{
	const char *name = dnode->schema->name, *value = yang_dnode_get_string(dnode, NULL);

	if (!strcmp(name, "fallback-proxy"))
		vty_out(vty, " congestion-point fallback-proxy %s\n", value);
	else if (!strcmp(name, "tunnel-heads-prefix-list"))
		vty_out(vty, " congestion-point tunnel-heads prefix-list %s\n", value);
	else if (!strcmp(name, "direct-to-source-prefix-list"))
		vty_out(vty, " congestion-point direct-to-source prefix-list %s\n", value);
	else if (!strcmp(name, "hide-queue-state")) {
		if (yang_dnode_get_bool(dnode, NULL))
			vty_out(vty, " congestion-point hide-queue-state\n");
	} else if (!strcmp(name, "notification-form")) {
		vty_out(vty, " congestion-point notification-form %s\n", value);
	} else if (!strcmp(name, "fcn-copy-flow-label")) {
		if (yang_dnode_get_bool(dnode, NULL))
			vty_out(vty, " congestion-point fcn-copy-flow-label\n");
	} else
		vty_out(vty, " congestion-point source-address %s\n", value);
}

/*
 * XPath: /frr-cnpproxyd:cnpproxyd/cnpproxy/congestion-point/interface
 */
DEFPY_YANG(cnpproxy_cp_if, cnpproxy_cp_if_cmd,
	   "[no] congestion-point interface IFNAME$ifname",
	   NO_STR
	   CP_IF_STR)
{
	char xpath[XPATH_MAXLEN];

	if (!cnpproxy_cli_ifname(vty, ifname))
		return CMD_WARNING_CONFIG_FAILED;
	if (!no && !cp_enabled(vty))
		return CMD_WARNING_CONFIG_FAILED;
	snprintf(xpath, sizeof(xpath), CP_IF_XPATH, ifname);
	nb_cli_enqueue_change(vty, xpath, no ? NB_OP_DESTROY : NB_OP_CREATE, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

/*
 * "[no] congestion-point interface IFNAME LEAF VALUE": setting it needs
 * the role; "no" acts only on an interface that is configured, which it
 * never creates.
 */
static int if_leaf(struct vty *vty, bool no, const char *ifname, const char *leaf,
		   const char *value, enum nb_operation no_op)
{
	char xpath[XPATH_MAXLEN];

	if (!cnpproxy_cli_ifname(vty, ifname))
		return CMD_WARNING_CONFIG_FAILED;
	if (!no && !cp_enabled(vty))
		return CMD_WARNING_CONFIG_FAILED;
	snprintf(xpath, sizeof(xpath), CP_IF_XPATH "/%s", ifname, leaf);
	return cnpproxy_cli_leaf(vty, no, xpath, value, no_op);
}

/* The interface's one-number leaves: keyword, leaf, what "no" does. */
static const struct {
	const char *kw, *leaf;
	enum nb_operation no_op;
} if_values[] = {
	{ "poll-interval", "poll-interval", NB_OP_MODIFY },
	{ "rtt", "rtt", NB_OP_MODIFY },
	{ "ecn-rate", "ecn-rate-threshold", NB_OP_DESTROY },
	{ "growth-rate", "growth-rate-threshold", NB_OP_DESTROY },
	{ "min-interval", "notify-min-interval", NB_OP_DESTROY },
	{ "rate-limit", "notify-rate-limit", NB_OP_MODIFY },
	{ "min-share", "notify-min-share", NB_OP_MODIFY },
};

DEFPY_YANG(cnpproxy_cp_if_value, cnpproxy_cp_if_value_cmd,
	   "[no] congestion-point interface IFNAME$ifname <poll-interval$kw ![(1-10000)$val]|rtt$kw ![(1-10000000)$val]|trigger <ecn-rate$kw ![(1-1000)$val]|growth-rate$kw ![(1-1000000000000)$val]>|notify <min-interval$kw ![(1-10000000)$val]|rate-limit$kw ![(1-1000000)$val]|min-share$kw ![(0-100)$val]>>",
	   NO_STR
	   CP_IF_STR
	   "How often the queue is read\n"
	   "Milliseconds\n"
	   "Estimated round trip (BDP, resume time, notification interval)\n"
	   "Microseconds\n"
	   "Second-level triggers besides K_max\n"
	   "Share of ECN-capable packets marked\n"
	   "Permille\n"
	   "Queue growth rate\n"
	   "Octets per second\n"
	   "Notifications to proxies\n"
	   "Minimum interval per flow\n"
	   "Microseconds\n"
	   "Notifications per second for the interface\n"
	   "Notifications per second\n"
	   "Only flows bringing this share of the largest flow's octets\n"
	   "Percent, 0: every flow\n")
{
	for (size_t i = 0; i < array_size(if_values); i++)
		if (!strcmp(kw, if_values[i].kw))
			return if_leaf(vty, no, ifname, if_values[i].leaf, val_str,
				       if_values[i].no_op);
	return CMD_WARNING_CONFIG_FAILED;
}

/* Threshold leaves back to their defaults, before a new set. */
static void thresholds_reset(struct vty *vty, const char *ifname)
{
	static const char *const with_default[] = { "threshold-mode", "k-base", "alpha",
						    "k-min-percent" };
	static const char *const optional[] = { "k-min", "k-max", "rate" };

	for (size_t i = 0; i < array_size(with_default); i++)
		enqueue_if_leaf(vty, ifname, with_default[i], NB_OP_MODIFY, NULL);
	for (size_t i = 0; i < array_size(optional); i++)
		enqueue_if_leaf(vty, ifname, optional[i], NB_OP_DESTROY, NULL);
}

DEFPY_YANG(cnpproxy_cp_if_static, cnpproxy_cp_if_static_cmd,
	   "congestion-point interface IFNAME$ifname thresholds static k-max (1-1000000000000)$kmax [k-min (1-1000000000000)$kmin]",
	   CP_IF_STR
	   "Queue thresholds K_min / K_max (T1 / T2)\n"
	   "Fixed thresholds\n"
	   "K_max: notify above it\n"
	   "Octets\n"
	   "K_min: mark above it\n"
	   "Octets\n")
{
	if (!cnpproxy_cli_ifname(vty, ifname))
		return CMD_WARNING_CONFIG_FAILED;
	if (!cp_enabled(vty))
		return CMD_WARNING_CONFIG_FAILED;
	thresholds_reset(vty, ifname);
	enqueue_if_leaf(vty, ifname, "threshold-mode", NB_OP_MODIFY, "static");
	enqueue_if_leaf(vty, ifname, "k-max", NB_OP_MODIFY, kmax_str);
	if (kmin_str)
		enqueue_if_leaf(vty, ifname, "k-min", NB_OP_MODIFY, kmin_str);
	return nb_cli_apply_changes(vty, NULL);
}

DEFPY_YANG(cnpproxy_cp_if_bdp, cnpproxy_cp_if_bdp_cmd,
	   "congestion-point interface IFNAME$ifname thresholds bdp-adaptive [{k-base (0-1000000000000)$kbase|alpha WORD$alpha|rate (1-4000000000000)$rate|k-min-percent (1-99)$pct}]",
	   CP_IF_STR
	   "Queue thresholds K_min / K_max (T1 / T2)\n"
	   "K_max = max(k-base, alpha * rate * rtt / 8)\n"
	   "Floor of K_max\n"
	   "Octets\n"
	   "Factor of the bandwidth-delay product\n"
	   "Decimal number, 0.001 to 100\n"
	   "Bottleneck rate\n"
	   "Bits per second\n"
	   "K_min as a share of K_max\n"
	   "Percent\n")
{
	if (!cnpproxy_cli_ifname(vty, ifname))
		return CMD_WARNING_CONFIG_FAILED;
	if (!cp_enabled(vty))
		return CMD_WARNING_CONFIG_FAILED;
	thresholds_reset(vty, ifname);
	if (kbase_str)
		enqueue_if_leaf(vty, ifname, "k-base", NB_OP_MODIFY, kbase_str);
	if (alpha)
		enqueue_if_leaf(vty, ifname, "alpha", NB_OP_MODIFY, alpha);
	if (rate_str)
		enqueue_if_leaf(vty, ifname, "rate", NB_OP_MODIFY, rate_str);
	if (pct_str)
		enqueue_if_leaf(vty, ifname, "k-min-percent", NB_OP_MODIFY, pct_str);
	return nb_cli_apply_changes(vty, NULL);
}

DEFPY_YANG(no_cnpproxy_cp_if_thresholds, no_cnpproxy_cp_if_thresholds_cmd,
	   "no congestion-point interface IFNAME$ifname thresholds",
	   NO_STR
	   CP_IF_STR
	   "Queue thresholds back to BDP-adaptive defaults\n")
{
	/* Never creates the interface (nor, through it, the role). */
	if (!yang_dnode_existsf(vty->candidate_config->dnode,
				"%s/congestion-point/interface[name='%s']", VTY_CURR_XPATH, ifname))
		return CMD_SUCCESS;
	thresholds_reset(vty, ifname);
	return nb_cli_apply_changes(vty, NULL);
}

DEFPY_YANG(cnpproxy_cp_if_marking, cnpproxy_cp_if_marking_cmd,
	   "[no] congestion-point interface IFNAME$ifname marking ![<none|ce|two-threshold>$mark]",
	   NO_STR
	   CP_IF_STR
	   "ECN marking by the egress program\n"
	   "Never change ECN\n"
	   "CE on ECN-capable packets above K_min\n"
	   "ECT(1) rising from K_min to K_max, CE above (two-threshold ECN)\n")
{
	return if_leaf(vty, no, ifname, "marking", mark, NB_OP_MODIFY);
}

DEFPY_YANG(cnpproxy_cp_if_collab, cnpproxy_cp_if_collab_cmd,
	   "[no] congestion-point interface IFNAME$ifname collaborative-suppression [fall-percent ![(1-99)$pct]]",
	   NO_STR
	   CP_IF_STR
	   "Collaborative suppression with congestion points upstream\n"
	   "Arrival-rate fall that shows another node acted\n"
	   "Percent\n")
{
	if (!no && !pct_str)
		pct_str = "10";
	return if_leaf(vty, no, ifname, "collaborative-suppression", pct_str, NB_OP_DESTROY);
}

static bool is_set(const struct lyd_node *dn, const char *leaf)
{
	return yang_dnode_exists(dn, leaf) && !yang_dnode_is_default(dn, leaf);
}

static void show_thresholds(struct vty *vty, const struct lyd_node *dn, const char *pfx)
{
	static const char *const bdp_opts[] = { "k-base", "alpha", "rate", "k-min-percent" };
	bool any = false;

	if (strmatch(yang_dnode_get_string(dn, "threshold-mode"), "static")) {
		vty_out(vty, "%s thresholds static k-max %s", pfx,
			yang_dnode_get_string(dn, "k-max"));
		if (yang_dnode_exists(dn, "k-min"))
			vty_out(vty, " k-min %s", yang_dnode_get_string(dn, "k-min"));
		vty_out(vty, "\n");
		return;
	}
	for (size_t i = 0; i < array_size(bdp_opts); i++) {
		if (!is_set(dn, bdp_opts[i]))
			continue;
		if (!any)
			vty_out(vty, "%s thresholds bdp-adaptive", pfx);
		any = true;
		vty_out(vty, " %s %s", bdp_opts[i], yang_dnode_get_string(dn, "%s", bdp_opts[i]));
	}
	if (any)
		vty_out(vty, "\n");
}

void cli_show_cnpproxy_cp_if(struct vty *vty, const struct lyd_node *dn, bool show_defaults)
{
	static const struct {
		const char *leaf, *cmd;
	} simple[] = {
		{ "poll-interval", "poll-interval" },
		{ "rtt", "rtt" },
		{ "ecn-rate-threshold", "trigger ecn-rate" },
		{ "growth-rate-threshold", "trigger growth-rate" },
		{ "marking", "marking" },
		{ "notify-min-interval", "notify min-interval" },
		{ "notify-rate-limit", "notify rate-limit" },
		{ "notify-min-share", "notify min-share" },
		{ "collaborative-suppression", "collaborative-suppression fall-percent" },
	};
	char pfx[64];

	snprintf(pfx, sizeof(pfx), " congestion-point interface %s",
		 yang_dnode_get_string(dn, "name"));
	vty_out(vty, "%s\n", pfx);
	show_thresholds(vty, dn, pfx);
	for (size_t i = 0; i < array_size(simple); i++)
		if (is_set(dn, simple[i].leaf))
			vty_out(vty, "%s %s %s\n", pfx, simple[i].cmd,
				yang_dnode_get_string(dn, "%s", simple[i].leaf));
}

void cnpproxy_cp_cli_init(void)
{
	install_element(CNPPROXY_NODE, &cnpproxy_cp_source_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_cp_fallback_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_cp_tunnel_heads_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_cp_direct_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_cp_hide_queue_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_cp_fcn_copy_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_cp_form_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_cp_if_collab_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_cp_if_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_cp_if_value_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_cp_if_static_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_cp_if_bdp_cmd);
	install_element(CNPPROXY_NODE, &no_cnpproxy_cp_if_thresholds_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_cp_if_marking_cmd);
}
