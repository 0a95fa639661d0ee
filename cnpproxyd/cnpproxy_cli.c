// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd configuration commands ("router cnpproxy" node).
 */
#include <zebra.h>

#include "lib/command.h"
#include "lib/northbound_cli.h"
#include "lib/vty.h"

#include "cnpproxyd.h"
#include "cnpproxy_nb.h"

#include "cnpproxyd/cnpproxy_cli_clippy.c"

#define CNPPROXY_STR "Congestion notification proxy (cnpproxyd)\n"

int cnpproxy_cli_apply(struct vty *vty)
{
	struct nb_config *trial = nb_config_dup(vty->candidate_config);
	char buf[BUFSIZ];
	bool error;

	/* Relative xpaths are relative to the node being edited, if any. */
	nb_candidate_edit_config_changes(trial, vty->cfg_changes, vty->num_cfg_changes,
					 vty->xpath_index ? VTY_CURR_XPATH : NULL, false, buf,
					 sizeof(buf), &error);
	nb_config_free(trial);
	if (error) {
		vty_out(vty, "%s", buf);
		vty->num_cfg_changes = 0;
		return CMD_WARNING_CONFIG_FAILED;
	}
	return nb_cli_apply_changes(vty, NULL);
}

/* A relative xpath ("./...") of the node being edited, made absolute. */
static const struct lyd_node *candidate_node(struct vty *vty, const char *rel)
{
	char xpath[XPATH_MAXLEN];

	snprintf(xpath, sizeof(xpath), "%s%s", VTY_CURR_XPATH, rel + 1);
	return yang_dnode_get(vty->candidate_config->dnode, xpath);
}

/*
 * Whether a value typed after "no ..." is the configured one, compared as
 * YANG values (so "2001:db8::0:1" is "2001:db8::1"); says why not.
 */
static bool typed_matches(struct vty *vty, const struct lyd_node *dn, const char *typed)
{
	if (!typed || !dn ||
	    lyd_value_compare((const struct lyd_node_term *)dn, typed, strlen(typed)) == LY_SUCCESS)
		return true;
	vty_out(vty, "%% The configured value is %s, not %s: nothing changed\n",
		yang_dnode_get_string(dn, NULL), typed);
	return false;
}

int cnpproxy_cli_no(struct vty *vty, const char *check, const char *typed, const char *change,
		    enum nb_operation op)
{
	const struct lyd_node *dn = candidate_node(vty, check);

	/* Nothing configured there: nothing to remove, and nothing to create. */
	if (!dn || !candidate_node(vty, change))
		return CMD_SUCCESS;
	if (!typed_matches(vty, dn, typed))
		return CMD_WARNING_CONFIG_FAILED;
	nb_cli_enqueue_change(vty, change, op, NULL);
	return cnpproxy_cli_apply(vty);
}

DEFPY_YANG_NOSH(router_cnpproxy, router_cnpproxy_cmd,
		"router cnpproxy",
		ROUTER_STR
		CNPPROXY_STR)
{
	int ret;

	nb_cli_enqueue_change(vty, CNPPROXY_XPATH, NB_OP_CREATE, NULL);
	ret = cnpproxy_cli_apply(vty);
	if (ret == CMD_SUCCESS)
		VTY_PUSH_XPATH(CNPPROXY_NODE, CNPPROXY_XPATH);

	return ret;
}

DEFPY_YANG(no_router_cnpproxy, no_router_cnpproxy_cmd,
	   "no router cnpproxy",
	   NO_STR
	   ROUTER_STR
	   CNPPROXY_STR)
{
	nb_cli_enqueue_change(vty, CNPPROXY_XPATH, NB_OP_DESTROY, NULL);
	return cnpproxy_cli_apply(vty);
}

void cli_show_cnpproxy(struct vty *vty, const struct lyd_node *dnode, bool show_defaults)
{
	vty_out(vty, "router cnpproxy\n");
}

void cli_show_cnpproxy_end(struct vty *vty, const struct lyd_node *dnode)
{
	vty_out(vty, "exit\n");
	vty_out(vty, "!\n");
}

DEFPY_YANG(cnpproxy_proxy, cnpproxy_proxy_cmd,
	   "[no] proxy",
	   NO_STR
	   "Proxy role: turn congestion notifications into CNPs to the senders\n")
{
	nb_cli_enqueue_change(vty, "./proxy", no ? NB_OP_DESTROY : NB_OP_CREATE, NULL);
	return cnpproxy_cli_apply(vty);
}

void cli_show_cnpproxy_proxy(struct vty *vty, const struct lyd_node *dnode, bool show_defaults)
{
	vty_out(vty, " proxy\n");
}

DEFPY_YANG(cnpproxy_congestion_point, cnpproxy_congestion_point_cmd,
	   "[no] congestion-point",
	   NO_STR
	   "Congestion point role: mark, and notify the proxies of congesting senders\n")
{
	nb_cli_enqueue_change(vty, "./congestion-point", no ? NB_OP_DESTROY : NB_OP_CREATE, NULL);
	return cnpproxy_cli_apply(vty);
}

void cli_show_cnpproxy_congestion_point(struct vty *vty, const struct lyd_node *dnode,
					bool show_defaults)
{
	vty_out(vty, " congestion-point\n");
}

#define PROXY_FOR_HELP                                                                            \
	"Static proxy: who proxies congestion notifications for a sender prefix\n"                \
	"Sender prefix\n"                                                                         \
	"IPv4 sender prefix\n"                                                                    \
	"IPv6 sender prefix\n"                                                                    \
	"Address of the proxy node\n"                                                             \
	"IPv4 address of the proxy\n"                                                             \
	"IPv6 address of the proxy\n"

/* The canonical prefix is the key, whatever host bits were typed. */
static void prefix_key(const struct prefix *prefix, char *buf, size_t len)
{
	struct prefix p;

	prefix_copy(&p, prefix);
	apply_mask(&p);
	prefix2str(&p, buf, len);
}

/* "LIST PREFIX LEAF VALUE" for a list keyed by a sender prefix. */
static int set_prefix_entry(struct vty *vty, const char *list, const struct prefix *prefix,
			    const char *leaf, const char *value)
{
	char entry[XPATH_MAXLEN], child[XPATH_MAXLEN], pbuf[PREFIX_STRLEN];

	prefix_key(prefix, pbuf, sizeof(pbuf));
	snprintf(entry, sizeof(entry), "%s[prefix='%s']", list, pbuf);
	snprintf(child, sizeof(child), "%s[prefix='%s']/%s", list, pbuf, leaf);
	nb_cli_enqueue_change(vty, entry, NB_OP_CREATE, NULL);
	nb_cli_enqueue_change(vty, child, NB_OP_MODIFY, value);
	return cnpproxy_cli_apply(vty);
}

/* "no LIST PREFIX [LEAF VALUE]" for a list keyed by a sender prefix. */
static int no_prefix_entry(struct vty *vty, const char *list, const struct prefix *prefix,
			   const char *leaf, const char *typed)
{
	char entry[XPATH_MAXLEN], child[XPATH_MAXLEN], pbuf[PREFIX_STRLEN];

	prefix_key(prefix, pbuf, sizeof(pbuf));
	snprintf(entry, sizeof(entry), "%s[prefix='%s']", list, pbuf);
	snprintf(child, sizeof(child), "%s[prefix='%s']/%s", list, pbuf, leaf);
	return cnpproxy_cli_no(vty, child, typed, entry, NB_OP_DESTROY);
}

DEFPY_YANG(cnpproxy_proxy_for, cnpproxy_proxy_for_cmd,
	   "proxy for <A.B.C.D/M|X:X::X:X/M>$prefix [via <A.B.C.D|X:X::X:X>$via]",
	   PROXY_FOR_HELP)
{
	char pbuf[PREFIX_STRLEN];

	/* Optional in the syntax only, for a message better than "incomplete". */
	if (!via_str) {
		prefix_key(prefix, pbuf, sizeof(pbuf));
		vty_out(vty, "%% Specify the proxy: proxy for %s via ADDRESS\n", pbuf);
		return CMD_WARNING_CONFIG_FAILED;
	}
	return set_prefix_entry(vty, "./proxy-for", prefix, "via", via_str);
}

DEFPY_YANG(no_cnpproxy_proxy_for, no_cnpproxy_proxy_for_cmd,
	   "no proxy for <A.B.C.D/M|X:X::X:X/M>$prefix [via <A.B.C.D|X:X::X:X>$via]",
	   NO_STR PROXY_FOR_HELP)
{
	return no_prefix_entry(vty, "./proxy-for", prefix, "via", via_str);
}

void cli_show_cnpproxy_proxy_for(struct vty *vty, const struct lyd_node *dnode, bool show_defaults)
{
	vty_out(vty, " proxy for %s via %s\n", yang_dnode_get_string(dnode, "prefix"),
		yang_dnode_get_string(dnode, "via"));
}

/* The proxy's settings need the role: they must not enable it silently. */
static bool proxy_enabled(struct vty *vty)
{
	if (yang_dnode_existsf(vty->candidate_config->dnode, "%s/proxy", VTY_CURR_XPATH))
		return true;
	vty_out(vty, "%% Enable the proxy role first (proxy)\n");
	return false;
}

/*
 * XPath: /frr-cnpproxyd:cnpproxyd/cnpproxy/proxy/source-ipv4|source-ipv6
 */
#define PROXY_SOURCE_HELP                                                                         \
	"Proxy role\n"                                                                            \
	"IP source address of the CNPs sent to senders\n"                                         \
	"IPv4 address (CNPs to IPv4 senders)\n"                                                   \
	"IPv6 address (CNPs to IPv6 senders)\n"

DEFPY_YANG(cnpproxy_proxy_source, cnpproxy_proxy_source_cmd,
	   "proxy source-address <A.B.C.D$v4|X:X::X:X$v6>",
	   PROXY_SOURCE_HELP)
{
	const char *leaf = v4_str ? "./proxy/source-ipv4" : "./proxy/source-ipv6";

	if (!proxy_enabled(vty))
		return CMD_WARNING_CONFIG_FAILED;
	nb_cli_enqueue_change(vty, leaf, NB_OP_MODIFY, v4_str ? v4_str : v6_str);
	return cnpproxy_cli_apply(vty);
}

int cnpproxy_cli_no_source(struct vty *vty, const char *role, const char *v4, const char *v6)
{
	char x4[64], x6[64];

	snprintf(x4, sizeof(x4), "./%s/source-ipv4", role);
	snprintf(x6, sizeof(x6), "./%s/source-ipv6", role);
	if (v4)
		return cnpproxy_cli_no(vty, x4, v4, x4, NB_OP_DESTROY);
	if (v6)
		return cnpproxy_cli_no(vty, x6, v6, x6, NB_OP_DESTROY);
	/* Without an address, both families go. */
	if (candidate_node(vty, x4))
		nb_cli_enqueue_change(vty, x4, NB_OP_DESTROY, NULL);
	if (candidate_node(vty, x6))
		nb_cli_enqueue_change(vty, x6, NB_OP_DESTROY, NULL);
	return cnpproxy_cli_apply(vty);
}

DEFPY_YANG(no_cnpproxy_proxy_source, no_cnpproxy_proxy_source_cmd,
	   "no proxy source-address [<A.B.C.D$v4|X:X::X:X$v6>]",
	   NO_STR PROXY_SOURCE_HELP)
{
	return cnpproxy_cli_no_source(vty, "proxy", v4_str, v6_str);
}

/*
 * XPath: /frr-cnpproxyd:cnpproxyd/cnpproxy/proxy/learn-interface
 * XPath: /frr-cnpproxyd:cnpproxyd/cnpproxy/proxy/filter-interface
 */
DEFPY_YANG(cnpproxy_proxy_xdp_if, cnpproxy_proxy_xdp_if_cmd,
	   "[no] proxy <learn-interface|filter-interface>$which IFNAME$ifname",
	   NO_STR
	   "Proxy role\n"
	   "Learn RoCEv2 queue pairs from the traffic arriving on an interface (XDP)\n"
	   "Drop refused notifications arriving on an interface at the driver (XDP)\n"
	   "Interface name\n")
{
	char xpath[XPATH_MAXLEN];

	if (!no && !proxy_enabled(vty))
		return CMD_WARNING_CONFIG_FAILED;
	snprintf(xpath, sizeof(xpath), "./proxy/%s[.='%s']", which, ifname);
	nb_cli_enqueue_change(vty, xpath, no ? NB_OP_DESTROY : NB_OP_CREATE, NULL);
	return cnpproxy_cli_apply(vty);
}

/*
 * XPath: /frr-cnpproxyd:cnpproxyd/cnpproxy/proxy/accept-prefix-list
 */
DEFPY_YANG(cnpproxy_proxy_accept, cnpproxy_proxy_accept_cmd,
	   "proxy accept-from prefix-list PREFIXLIST_NAME$name",
	   "Proxy role\n"
	   "Sources whose congestion notifications are accepted\n"
	   "Sources permitted by a prefix-list\n"
	   "Name of the prefix-list (IPv4 and IPv6)\n")
{
	if (!proxy_enabled(vty))
		return CMD_WARNING_CONFIG_FAILED;
	nb_cli_enqueue_change(vty, "./proxy/accept-prefix-list", NB_OP_MODIFY, name);
	return cnpproxy_cli_apply(vty);
}

DEFPY_YANG(no_cnpproxy_proxy_accept, no_cnpproxy_proxy_accept_cmd,
	   "no proxy accept-from [prefix-list PREFIXLIST_NAME$name]",
	   NO_STR
	   "Proxy role\n"
	   "Sources whose congestion notifications are accepted\n"
	   "Sources permitted by a prefix-list\n"
	   "Name of the prefix-list (IPv4 and IPv6)\n")
{
	return cnpproxy_cli_no(vty, "./proxy/accept-prefix-list", name,
			       "./proxy/accept-prefix-list", NB_OP_DESTROY);
}

/*
 * XPath: /frr-cnpproxyd:cnpproxyd/cnpproxy/proxy/{cnp-min-interval,cnp-dscp,
 * rate-limit-per-source,rate-limit-global}
 */
#define PROXY_CNP_HELP                                                                            \
	"Proxy role\n"                                                                            \
	"CNPs sent to senders\n"                                                                  \
	"Minimum interval between CNPs to one sender QP\n"                                        \
	"Microseconds\n"                                                                          \
	"DSCP of the CNPs\n"                                                                      \
	"DSCP value\n"

DEFPY_YANG(cnpproxy_proxy_cnp, cnpproxy_proxy_cnp_cmd,
	   "proxy cnp <min-interval (1-10000000)$iv|dscp (0-63)$dscp>",
	   PROXY_CNP_HELP)
{
	const char *leaf = iv_str ? "./proxy/cnp-min-interval" : "./proxy/cnp-dscp";

	if (!proxy_enabled(vty))
		return CMD_WARNING_CONFIG_FAILED;
	nb_cli_enqueue_change(vty, leaf, NB_OP_MODIFY, iv_str ? iv_str : dscp_str);
	return cnpproxy_cli_apply(vty);
}

/* Modify without a value restores a leaf's default. */
DEFPY_YANG(no_cnpproxy_proxy_cnp, no_cnpproxy_proxy_cnp_cmd,
	   "no proxy cnp <min-interval$ivk [(1-10000000)$iv]|dscp [(0-63)$dscp]>",
	   NO_STR PROXY_CNP_HELP)
{
	const char *leaf = ivk ? "./proxy/cnp-min-interval" : "./proxy/cnp-dscp";

	return cnpproxy_cli_no(vty, leaf, ivk ? iv_str : dscp_str, leaf, NB_OP_MODIFY);
}

/*
 * XPath: /frr-cnpproxyd:cnpproxyd/cnpproxy/proxy/fast-path
 */
#define PROXY_FAST_PATH_HELP                                                                      \
	"Proxy role\n"                                                                            \
	"Where notifications become CNPs\n"                                                       \
	"The daemon's sockets\n"                                                                  \
	"The filter interfaces' XDP program, from the driver\n"                                   \
	"AF_XDP sockets the filter interfaces' XDP program steers notifications to\n"

DEFPY_YANG(cnpproxy_proxy_fast_path, cnpproxy_proxy_fast_path_cmd,
	   "proxy fast-path <socket|xdp|af-xdp>$path",
	   PROXY_FAST_PATH_HELP)
{
	if (!proxy_enabled(vty))
		return CMD_WARNING_CONFIG_FAILED;
	nb_cli_enqueue_change(vty, "./proxy/fast-path", NB_OP_MODIFY, path);
	return cnpproxy_cli_apply(vty);
}

DEFPY_YANG(no_cnpproxy_proxy_fast_path, no_cnpproxy_proxy_fast_path_cmd,
	   "no proxy fast-path [<socket|xdp|af-xdp>$path]",
	   NO_STR PROXY_FAST_PATH_HELP)
{
	return cnpproxy_cli_no(vty, "./proxy/fast-path", path, "./proxy/fast-path", NB_OP_MODIFY);
}

DEFPY_YANG(cnpproxy_proxy_light_to_sender, cnpproxy_proxy_light_to_sender_cmd,
	   "[no] proxy light-to-sender",
	   NO_STR
	   "Proxy role\n"
	   "Tell senders of light notifications too (a deviation from seed 003)\n")
{
	if (!no && !proxy_enabled(vty))
		return CMD_WARNING_CONFIG_FAILED;
	nb_cli_enqueue_change(vty, "./proxy/light-to-sender", NB_OP_MODIFY, no ? "false" : "true");
	return cnpproxy_cli_apply(vty);
}

DEFPY_YANG(cnpproxy_proxy_busy_poll, cnpproxy_proxy_busy_poll_cmd,
	   "[no] proxy fast-path busy-poll",
	   NO_STR
	   "Proxy role\n"
	   "Where notifications become CNPs\n"
	   "Poll the driver through the AF_XDP sockets without sleeping (af-xdp)\n")
{
	if (!no && !proxy_enabled(vty))
		return CMD_WARNING_CONFIG_FAILED;
	nb_cli_enqueue_change(vty, "./proxy/fast-path-busy-poll", NB_OP_MODIFY,
			      no ? "false" : "true");
	return cnpproxy_cli_apply(vty);
}

/*
 * XPath: /frr-cnpproxyd:cnpproxyd/cnpproxy/proxy/flow-table-size
 */
#define PROXY_FLOW_TABLE_HELP                                                                     \
	"Proxy role\n"                                                                            \
	"The table of learned queue-pair flows\n"                                                 \
	"Most flows it keeps\n"                                                                   \
	"Flows\n"

DEFPY_YANG(cnpproxy_proxy_flow_table, cnpproxy_proxy_flow_table_cmd,
	   "proxy flow-table size (1024-16777216)$n",
	   PROXY_FLOW_TABLE_HELP)
{
	if (!proxy_enabled(vty))
		return CMD_WARNING_CONFIG_FAILED;
	nb_cli_enqueue_change(vty, "./proxy/flow-table-size", NB_OP_MODIFY, n_str);
	return cnpproxy_cli_apply(vty);
}

DEFPY_YANG(no_cnpproxy_proxy_flow_table, no_cnpproxy_proxy_flow_table_cmd,
	   "no proxy flow-table size [(1024-16777216)$n]",
	   NO_STR PROXY_FLOW_TABLE_HELP)
{
	return cnpproxy_cli_no(vty, "./proxy/flow-table-size", n_str, "./proxy/flow-table-size",
			       NB_OP_MODIFY);
}

#define PROXY_RATE_LIMIT_HELP                                                                     \
	"Proxy role\n"                                                                            \
	"Notifications accepted per second\n"                                                     \
	"From one source\n"                                                                       \
	"In total\n"                                                                              \
	"Notifications per second\n"

DEFPY_YANG(cnpproxy_proxy_rate_limit, cnpproxy_proxy_rate_limit_cmd,
	   "proxy rate-limit <per-source|global>$which (1-10000000)$rate",
	   PROXY_RATE_LIMIT_HELP)
{
	char xpath[64];

	if (!proxy_enabled(vty))
		return CMD_WARNING_CONFIG_FAILED;
	snprintf(xpath, sizeof(xpath), "./proxy/rate-limit-%s", which);
	nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, rate_str);
	return cnpproxy_cli_apply(vty);
}

DEFPY_YANG(no_cnpproxy_proxy_rate_limit, no_cnpproxy_proxy_rate_limit_cmd,
	   "no proxy rate-limit <per-source|global>$which [(1-10000000)$rate]",
	   NO_STR PROXY_RATE_LIMIT_HELP)
{
	char xpath[64];

	snprintf(xpath, sizeof(xpath), "./proxy/rate-limit-%s", which);
	return cnpproxy_cli_no(vty, xpath, rate_str, xpath, NB_OP_MODIFY);
}

/*
 * XPath: /frr-cnpproxyd:cnpproxyd/cnpproxy/proxy/flow-label-tunnel
 */
DEFPY_YANG(cnpproxy_proxy_fl, cnpproxy_proxy_fl_cmd,
	   "proxy flow-label-tunnel interface IFNAME$ifname source X:X::X:X$src",
	   "Proxy role\n"
	   "Per-flow flow-label IPv6 encapsulation (flow-label congestion notification)\n"
	   "Core-facing interface where traffic enters the tunnel\n"
	   "Interface name\n"
	   "Outer source: this proxy's advertised address\n"
	   "IPv6 address\n")
{
	if (!proxy_enabled(vty))
		return CMD_WARNING_CONFIG_FAILED;
	nb_cli_enqueue_change(vty, "./proxy/flow-label-tunnel", NB_OP_CREATE, NULL);
	nb_cli_enqueue_change(vty, "./proxy/flow-label-tunnel/interface", NB_OP_MODIFY, ifname);
	nb_cli_enqueue_change(vty, "./proxy/flow-label-tunnel/source", NB_OP_MODIFY, src_str);
	return cnpproxy_cli_apply(vty);
}

DEFPY_YANG(no_cnpproxy_proxy_fl, no_cnpproxy_proxy_fl_cmd,
	   "no proxy flow-label-tunnel [interface IFNAME$ifname source X:X::X:X$source]",
	   NO_STR
	   "Proxy role\n"
	   "Per-flow flow-label IPv6 encapsulation (flow-label congestion notification)\n"
	   "Core-facing interface where traffic enters the tunnel\n"
	   "Interface name\n"
	   "Outer source: this proxy's advertised address\n"
	   "IPv6 address\n")
{
	const char *fl = "./proxy/flow-label-tunnel";

	if (!candidate_node(vty, fl))
		return CMD_SUCCESS;
	/* A typed interface and source must both be the configured ones. */
	if (!typed_matches(vty, candidate_node(vty, "./proxy/flow-label-tunnel/interface"),
			   ifname) ||
	    !typed_matches(vty, candidate_node(vty, "./proxy/flow-label-tunnel/source"),
			   source_str))
		return CMD_WARNING_CONFIG_FAILED;
	nb_cli_enqueue_change(vty, fl, NB_OP_DESTROY, NULL);
	return cnpproxy_cli_apply(vty);
}

#define PROXY_FL_TUNNEL_HELP                                                                      \
	"Proxy role\n"                                                                            \
	"Per-flow flow-label IPv6 encapsulation (flow-label congestion notification)\n"           \
	"Destinations carried through the tunnel\n"                                               \
	"IPv4 prefix\n"                                                                           \
	"IPv6 prefix\n"                                                                           \
	"Egress PE's decapsulating address (outer destination)\n"                                 \
	"IPv6 address\n"

/* A change to the tunnel entry of a prefix, or to node below it (path). */
static void fl_tunnel_change(struct vty *vty, const char *pbuf, const char *path,
			     enum nb_operation op, const char *value)
{
	char xpath[XPATH_MAXLEN];

	snprintf(xpath, sizeof(xpath), "./proxy/flow-label-tunnel/tunnel[prefix='%s']%s", pbuf,
		 path);
	nb_cli_enqueue_change(vty, xpath, op, value);
}

DEFPY_YANG(cnpproxy_proxy_fl_tunnel, cnpproxy_proxy_fl_tunnel_cmd,
	   "proxy flow-label-tunnel prefix <A.B.C.D/M|X:X::X:X/M>$pfx endpoint X:X::X:X$ep [vxlan vni (1-16777215)$vni router-mac X:X:X:X:X:X$mac]",
	   PROXY_FL_TUNNEL_HELP
	   "VXLAN over IPv6 instead of IPv6-in-IPv6 (UDP port 4789)\n"
	   "VXLAN Network Identifier the egress PE decapsulates\n"
	   "VNI\n"
	   "Inner destination MAC: the egress PE's VXLAN interface\n"
	   "MAC address\n")
{
	char pbuf[PREFIX_STRLEN];

	if (!candidate_node(vty, "./proxy/flow-label-tunnel")) {
		vty_out(vty,
			"%% Enable the tunnel first (proxy flow-label-tunnel interface ...)\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	prefix_key(pfx, pbuf, sizeof(pbuf));
	fl_tunnel_change(vty, pbuf, "", NB_OP_CREATE, NULL);
	fl_tunnel_change(vty, pbuf, "/endpoint", NB_OP_MODIFY, ep_str);
	/* The whole entry is what was typed: without vxlan, the plain tunnel. */
	fl_tunnel_change(vty, pbuf, "/vxlan", vni_str ? NB_OP_CREATE : NB_OP_DESTROY, NULL);
	if (vni_str) {
		fl_tunnel_change(vty, pbuf, "/vxlan/vni", NB_OP_MODIFY, vni_str);
		fl_tunnel_change(vty, pbuf, "/vxlan/router-mac", NB_OP_MODIFY, mac_str);
	}
	return cnpproxy_cli_apply(vty);
}

DEFPY_YANG(no_cnpproxy_proxy_fl_tunnel, no_cnpproxy_proxy_fl_tunnel_cmd,
	   "no proxy flow-label-tunnel prefix <A.B.C.D/M|X:X::X:X/M>$pfx [endpoint X:X::X:X$ep]",
	   NO_STR PROXY_FL_TUNNEL_HELP)
{
	return no_prefix_entry(vty, "./proxy/flow-label-tunnel/tunnel", pfx, "endpoint", ep_str);
}

#define PROXY_FL_SHAPING_HELP                                                                     \
	"Proxy role\n"                                                                            \
	"Per-flow flow-label IPv6 encapsulation (flow-label congestion notification)\n"           \
	"Slow a tunnelled flow here on light notifications, the sender untouched (seed 003)\n"    \
	"Percent cut per light notification\n"                                                    \
	"Percent\n"                                                                               \
	"Lowest rate of a shaper, Mb/s\n"                                                         \
	"Mb/s\n"                                                                                  \
	"Release a shaper this long after the last light notification, us\n"                      \
	"Microseconds\n"

DEFPY_YANG(cnpproxy_proxy_fl_shaping, cnpproxy_proxy_fl_shaping_cmd,
	   "proxy flow-label-tunnel local-shaping [{step (1-99)$step|floor (1-4000000)$floor|hold-time (1000-60000000)$hold}]",
	   PROXY_FL_SHAPING_HELP)
{
	const char *ls = "./proxy/flow-label-tunnel/local-shaping";
	char xpath[XPATH_MAXLEN];

	if (!candidate_node(vty, "./proxy/flow-label-tunnel")) {
		vty_out(vty,
			"%% Enable the tunnel first (proxy flow-label-tunnel interface ...)\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	nb_cli_enqueue_change(vty, ls, NB_OP_CREATE, NULL);
	/* The command states the whole setting: what it leaves out is the default. */
	snprintf(xpath, sizeof(xpath), "%s/step", ls);
	nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, step_str);
	snprintf(xpath, sizeof(xpath), "%s/floor", ls);
	nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, floor_str);
	snprintf(xpath, sizeof(xpath), "%s/hold-time", ls);
	nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, hold_str);
	return cnpproxy_cli_apply(vty);
}

DEFPY_YANG(no_cnpproxy_proxy_fl_shaping, no_cnpproxy_proxy_fl_shaping_cmd,
	   "no proxy flow-label-tunnel local-shaping [{step (1-99)|floor (1-4000000)|hold-time (1000-60000000)}]",
	   NO_STR PROXY_FL_SHAPING_HELP)
{
	const char *ls = "./proxy/flow-label-tunnel/local-shaping";

	if (!candidate_node(vty, ls))
		return CMD_SUCCESS;
	nb_cli_enqueue_change(vty, ls, NB_OP_DESTROY, NULL);
	return cnpproxy_cli_apply(vty);
}

void cli_show_cnpproxy_fl_shaping(struct vty *vty, const struct lyd_node *dnode, bool show_defaults)
{
	vty_out(vty, " proxy flow-label-tunnel local-shaping");
	if (show_defaults || !yang_dnode_is_default(dnode, "step"))
		vty_out(vty, " step %s", yang_dnode_get_string(dnode, "step"));
	if (show_defaults || !yang_dnode_is_default(dnode, "floor"))
		vty_out(vty, " floor %s", yang_dnode_get_string(dnode, "floor"));
	if (show_defaults || !yang_dnode_is_default(dnode, "hold-time"))
		vty_out(vty, " hold-time %s", yang_dnode_get_string(dnode, "hold-time"));
	vty_out(vty, "\n");
}

void cli_show_cnpproxy_fl(struct vty *vty, const struct lyd_node *dnode, bool show_defaults)
{
	vty_out(vty, " proxy flow-label-tunnel interface %s source %s\n",
		yang_dnode_get_string(dnode, "interface"), yang_dnode_get_string(dnode, "source"));
}

void cli_show_cnpproxy_fl_tunnel(struct vty *vty, const struct lyd_node *dnode, bool show_defaults)
{
	vty_out(vty, " proxy flow-label-tunnel prefix %s endpoint %s",
		yang_dnode_get_string(dnode, "prefix"), yang_dnode_get_string(dnode, "endpoint"));
	if (yang_dnode_exists(dnode, "vxlan"))
		vty_out(vty, " vxlan vni %u router-mac %s",
			yang_dnode_get_uint32(dnode, "vxlan/vni"),
			yang_dnode_get_string(dnode, "vxlan/router-mac"));
	vty_out(vty, "\n");
}

void cli_show_cnpproxy_proxy_setting(struct vty *vty, const struct lyd_node *dnode,
				     bool show_defaults)
{
	const char *name = dnode->schema->name, *value = yang_dnode_get_string(dnode, NULL);

	if (!strcmp(name, "source-ipv4") || !strcmp(name, "source-ipv6"))
		vty_out(vty, " proxy source-address %s\n", value);
	else if (!strcmp(name, "learn-interface"))
		vty_out(vty, " proxy learn-interface %s\n", value);
	else if (!strcmp(name, "filter-interface"))
		vty_out(vty, " proxy filter-interface %s\n", value);
	else if (!strcmp(name, "accept-prefix-list"))
		vty_out(vty, " proxy accept-from prefix-list %s\n", value);
	else if (!strcmp(name, "cnp-min-interval"))
		vty_out(vty, " proxy cnp min-interval %s\n", value);
	else if (!strcmp(name, "cnp-dscp"))
		vty_out(vty, " proxy cnp dscp %s\n", value);
	else if (!strcmp(name, "rate-limit-per-source"))
		vty_out(vty, " proxy rate-limit per-source %s\n", value);
	else if (!strcmp(name, "rate-limit-global"))
		vty_out(vty, " proxy rate-limit global %s\n", value);
	else if (!strcmp(name, "light-to-sender"))
		vty_out(vty, " %sproxy light-to-sender\n",
			yang_dnode_get_bool(dnode, NULL) ? "" : "no ");
	else if (!strcmp(name, "fast-path-busy-poll"))
		vty_out(vty, " %sproxy fast-path busy-poll\n",
			yang_dnode_get_bool(dnode, NULL) ? "" : "no ");
	else if (!strcmp(name, "flow-table-size"))
		vty_out(vty, " proxy flow-table size %s\n", value);
	else if (!strcmp(dnode->parent->schema->name, "long-haul") ||
		 !strcmp(dnode->parent->schema->name, "rate-advice"))
		vty_out(vty, " proxy %s %s %s\n", dnode->parent->schema->name, name, value);
	else
		vty_out(vty, " proxy %s %s\n", name, value);
}

/*
 * XPath: /frr-cnpproxyd:cnpproxyd/cnpproxy/proxy/sender
 */
#define PROXY_SENDER_HELP                                                                         \
	"Proxy role\n"                                                                            \
	"Senders in a prefix\n"                                                                   \
	"IPv4 sender prefix\n"                                                                    \
	"IPv6 sender prefix\n"                                                                    \
	"The message they understand\n"                                                           \
	"Standard RoCEv2 CNP\n"                                                                   \
	"Long-haul CNP as ICMPv6 (IPv6 senders)\n"                                                \
	"Long-haul CNP as a RoCEv2 CNP with the E bit (senders known to support it)\n"            \
	"SCONE rate advice\n"
#define PROXY_SENDER_CNP_SIZED_HELP                                                               \
	"Without extension objects, pad to a standard CNP's length (deviation from the draft)\n"

DEFPY_YANG(cnpproxy_proxy_sender, cnpproxy_proxy_sender_cmd,
	   "proxy sender <A.B.C.D/M|X:X::X:X/M>$prefix format <rocev2-cnp|long-haul-icmpv6|long-haul-rocev2|rate-advice>$fmt [cnp-sized$cnp_sized]",
	   PROXY_SENDER_HELP PROXY_SENDER_CNP_SIZED_HELP)
{
	char entry[XPATH_MAXLEN], child[XPATH_MAXLEN], pbuf[PREFIX_STRLEN];

	if (!proxy_enabled(vty))
		return CMD_WARNING_CONFIG_FAILED;
	if (cnp_sized && strcmp(fmt, "long-haul-rocev2")) {
		vty_out(vty, "%% cnp-sized applies to format long-haul-rocev2 only\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	prefix_key(prefix, pbuf, sizeof(pbuf));
	snprintf(entry, sizeof(entry), "./proxy/sender[prefix='%s']", pbuf);
	nb_cli_enqueue_change(vty, entry, NB_OP_CREATE, NULL);
	snprintf(child, sizeof(child), "./proxy/sender[prefix='%s']/format", pbuf);
	nb_cli_enqueue_change(vty, child, NB_OP_MODIFY, fmt);
	/* The command states the whole entry: no cnp-sized means none. */
	snprintf(child, sizeof(child), "./proxy/sender[prefix='%s']/cnp-sized", pbuf);
	nb_cli_enqueue_change(vty, child, NB_OP_MODIFY, cnp_sized ? "true" : "false");
	return cnpproxy_cli_apply(vty);
}

DEFPY_YANG(no_cnpproxy_proxy_sender, no_cnpproxy_proxy_sender_cmd,
	   "no proxy sender <A.B.C.D/M|X:X::X:X/M>$prefix [format <rocev2-cnp|long-haul-icmpv6|long-haul-rocev2|rate-advice>$fmt [cnp-sized]]",
	   NO_STR PROXY_SENDER_HELP PROXY_SENDER_CNP_SIZED_HELP)
{
	return no_prefix_entry(vty, "./proxy/sender", prefix, "format", fmt);
}

void cli_show_cnpproxy_proxy_sender(struct vty *vty, const struct lyd_node *dnode,
				    bool show_defaults)
{
	vty_out(vty, " proxy sender %s format %s%s\n", yang_dnode_get_string(dnode, "prefix"),
		yang_dnode_get_string(dnode, "format"),
		yang_dnode_get_bool(dnode, "cnp-sized") ? " cnp-sized" : "");
}

/*
 * The level policy and the formats' code points: one leaf per command,
 * the YANG module checks each value's range.
 */
static int proxy_leaf_set(struct vty *vty, const char *container, const char *leaf,
			  const char *value)
{
	char xpath[XPATH_MAXLEN];

	if (!proxy_enabled(vty))
		return CMD_WARNING_CONFIG_FAILED;
	snprintf(xpath, sizeof(xpath), "./proxy/%s%s%s", container, container[0] ? "/" : "", leaf);
	nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, value);
	return cnpproxy_cli_apply(vty);
}

/* Back to the default, or gone when the leaf has none. */
static int proxy_leaf_no(struct vty *vty, const char *container, const char *leaf,
			 const char *typed, enum nb_operation op)
{
	char xpath[XPATH_MAXLEN];

	snprintf(xpath, sizeof(xpath), "./proxy/%s%s%s", container, container[0] ? "/" : "", leaf);
	return cnpproxy_cli_no(vty, xpath, typed, xpath, op);
}

#define PROXY_RESUME_HELP                                                                         \
	"Proxy role\n"                                                                            \
	"Resume a slowed Long-haul or rate-advice sender after this long without notifications\n" \
	"Microseconds (0: never)\n"

DEFPY_YANG(cnpproxy_proxy_resume, cnpproxy_proxy_resume_cmd,
	   "proxy resume-after (0-60000000)$value",
	   PROXY_RESUME_HELP)
{
	return proxy_leaf_set(vty, "", "resume-after", value_str);
}

DEFPY_YANG(no_cnpproxy_proxy_resume, no_cnpproxy_proxy_resume_cmd,
	   "no proxy resume-after [(0-60000000)$value]",
	   NO_STR PROXY_RESUME_HELP)
{
	return proxy_leaf_no(vty, "", "resume-after", value_str, NB_OP_MODIFY);
}

#define PROXY_LEVEL_HELP                                                                          \
	"Proxy role\n"                                                                            \
	"Lowest Congestion Level that is severe\n"                                                \
	"Light notifications: one CNP per this many minimum intervals, 0 none\n"

DEFPY_YANG(cnpproxy_proxy_level, cnpproxy_proxy_level_cmd,
	   "proxy <severe-level|light-cnp-pacing>$leaf (0-255)$value",
	   PROXY_LEVEL_HELP
	   "Value\n")
{
	return proxy_leaf_set(vty, "", leaf, value_str);
}

DEFPY_YANG(no_cnpproxy_proxy_level, no_cnpproxy_proxy_level_cmd,
	   "no proxy <severe-level|light-cnp-pacing>$leaf [(0-255)$value]",
	   NO_STR PROXY_LEVEL_HELP
	   "Value\n")
{
	return proxy_leaf_no(vty, "", leaf, value_str, NB_OP_MODIFY);
}

#define PROXY_LH_HELP                                                                             \
	"Proxy role\n"                                                                            \
	"Long-haul CNP\n"

#define PROXY_LH_NUM_HELP                                                                         \
	PROXY_LH_HELP                                                                             \
	"ICMPv6 type of the ICMPv6 form, 128-255\n"                                               \
	"RFC 4884 Class-Num of the extension objects\n"                                           \
	"Percent a light notification asks to cut, 1-100\n"                                       \
	"Percent a notification of severe-level asks to cut, 1-100\n"                             \
	"Percent more per level above severe-level, 0-100\n"                                      \
	"Percent of the cut a Resume gives back, 0 all, 0-100\n"                                  \
	"Microseconds a level 7 notification asks to pause, 0 none\n"

DEFPY_YANG(cnpproxy_proxy_lh_num, cnpproxy_proxy_lh_num_cmd,
	   "proxy long-haul <icmpv6-type|class-num|light-reduce|severe-reduce|severe-reduce-step|resume-share|pause-time>$leaf (0-65535)$value",
	   PROXY_LH_NUM_HELP
	   "Value\n")
{
	return proxy_leaf_set(vty, "long-haul", leaf, value_str);
}

DEFPY_YANG(no_cnpproxy_proxy_lh_num, no_cnpproxy_proxy_lh_num_cmd,
	   "no proxy long-haul <icmpv6-type|class-num|light-reduce|severe-reduce|severe-reduce-step|resume-share|pause-time>$leaf [(0-65535)$value]",
	   NO_STR PROXY_LH_NUM_HELP
	   "Value\n")
{
	return proxy_leaf_no(vty, "long-haul", leaf, value_str, NB_OP_MODIFY);
}

#define PROXY_LH_ACTION_HELP                                                                      \
	PROXY_LH_HELP                                                                             \
	"Action light notifications ask for\n"                                                    \
	"Notify only\n"                                                                           \
	"Rate Reduce by light-reduce percent\n"

DEFPY_YANG(cnpproxy_proxy_lh_action, cnpproxy_proxy_lh_action_cmd,
	   "proxy long-haul light-action <notify|rate-reduce>$action",
	   PROXY_LH_ACTION_HELP)
{
	return proxy_leaf_set(vty, "long-haul", "light-action", action);
}

DEFPY_YANG(no_cnpproxy_proxy_lh_action, no_cnpproxy_proxy_lh_action_cmd,
	   "no proxy long-haul light-action [<notify|rate-reduce>$action]",
	   NO_STR PROXY_LH_ACTION_HELP)
{
	return proxy_leaf_no(vty, "long-haul", "light-action", action, NB_OP_MODIFY);
}

#define PROXY_LH_DEVICE_HELP                                                                      \
	PROXY_LH_HELP                                                                             \
	"Add the RFC 4884 extension with a timestamp and this device ID\n"                        \
	"Device ID (UTF-8, up to 64 octets)\n"

DEFPY_YANG(cnpproxy_proxy_lh_device, cnpproxy_proxy_lh_device_cmd,
	   "proxy long-haul device-id WORD$id",
	   PROXY_LH_DEVICE_HELP)
{
	return proxy_leaf_set(vty, "long-haul", "device-id", id);
}

DEFPY_YANG(no_cnpproxy_proxy_lh_device, no_cnpproxy_proxy_lh_device_cmd,
	   "no proxy long-haul device-id [WORD$id]",
	   NO_STR PROXY_LH_DEVICE_HELP)
{
	return proxy_leaf_no(vty, "long-haul", "device-id", id, NB_OP_DESTROY);
}

#define PROXY_RA_HELP                                                                             \
	"Proxy role\n"                                                                            \
	"SCONE rate advice\n"                                                                     \
	"BTH opcode of RATE_ADVICE, 192-255\n"                                                    \
	"Rate advised at level 0, in Mb/s; level L gets (8 - L) / 8 of it\n"

DEFPY_YANG(cnpproxy_proxy_ra, cnpproxy_proxy_ra_cmd,
	   "proxy rate-advice <opcode|max-rate>$leaf (0-4294967295)$value",
	   PROXY_RA_HELP
	   "Value\n")
{
	return proxy_leaf_set(vty, "rate-advice", leaf, value_str);
}

DEFPY_YANG(no_cnpproxy_proxy_ra, no_cnpproxy_proxy_ra_cmd,
	   "no proxy rate-advice <opcode|max-rate>$leaf [(0-4294967295)$value]",
	   NO_STR PROXY_RA_HELP
	   "Value\n")
{
	return proxy_leaf_no(vty, "rate-advice", leaf, value_str, NB_OP_MODIFY);
}

#define PORT_HELP                                                                                 \
	"UDP port of five-tuple congestion notifications\n"                                       \
	"UDP port of flow-label congestion notifications\n"

DEFPY_YANG(cnpproxy_port, cnpproxy_port_cmd,
	   "<notification-port|flow-label-port>$leaf (1-65535)$port",
	   PORT_HELP
	   "UDP port number\n")
{
	char xpath[64];

	snprintf(xpath, sizeof(xpath), "./%s", leaf);
	nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, port_str);
	return cnpproxy_cli_apply(vty);
}

DEFPY_YANG(no_cnpproxy_port, no_cnpproxy_port_cmd,
	   "no <notification-port|flow-label-port>$leaf [(1-65535)$port]",
	   NO_STR
	   PORT_HELP
	   "UDP port number\n")
{
	char xpath[64];

	snprintf(xpath, sizeof(xpath), "./%s", leaf);
	return cnpproxy_cli_no(vty, xpath, port_str, xpath, NB_OP_DESTROY);
}

/*
 * XPath: /frr-cnpproxyd:cnpproxyd/cnpproxy/notification-icmp-type and
 * notification-icmpv6-type
 */
#define ICMP_TYPE_HELP                                                                            \
	"ICMP type of five-tuple notifications in ICMP form over IPv4\n"                          \
	"Type\n"                                                                                  \
	"ICMPv6 type of five-tuple notifications in ICMP form over IPv6\n"                        \
	"Type\n"

DEFPY_YANG(cnpproxy_icmp_type, cnpproxy_icmp_type_cmd,
	   "<notification-icmp-type$leaf (44-255)$type|notification-icmpv6-type$leaf (162-255)$type>",
	   ICMP_TYPE_HELP)
{
	char xpath[64];

	snprintf(xpath, sizeof(xpath), "./%s", leaf);
	nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, type_str);
	return cnpproxy_cli_apply(vty);
}

DEFPY_YANG(no_cnpproxy_icmp_type, no_cnpproxy_icmp_type_cmd,
	   "no <notification-icmp-type$leaf [(44-255)$type]|notification-icmpv6-type$leaf [(162-255)$type]>",
	   NO_STR ICMP_TYPE_HELP)
{
	char xpath[64];

	snprintf(xpath, sizeof(xpath), "./%s", leaf);
	return cnpproxy_cli_no(vty, xpath, type_str, xpath, NB_OP_DESTROY);
}

/* The command keyword is the leaf name. */
void cli_show_cnpproxy_port(struct vty *vty, const struct lyd_node *dnode, bool show_defaults)
{
	vty_out(vty, " %s %s\n", dnode->schema->name, yang_dnode_get_string(dnode, NULL));
}

/*
 * XPath: /frr-cnpproxyd:cnpproxyd/cnpproxy/border-interface
 */
DEFPY_YANG(cnpproxy_border_if, cnpproxy_border_if_cmd,
	   "[no] border-interface IFNAME$ifname",
	   NO_STR
	   "Drop the notification and flow-label ports arriving on an interface where the domain ends\n"
	   "Interface name\n")
{
	char xpath[XPATH_MAXLEN];

	snprintf(xpath, sizeof(xpath), "./border-interface[.='%s']", ifname);
	if (no && !candidate_node(vty, xpath)) {
		vty_out(vty, "%% %s is not a border interface: nothing changed\n", ifname);
		return CMD_WARNING_CONFIG_FAILED;
	}
	nb_cli_enqueue_change(vty, xpath, no ? NB_OP_DESTROY : NB_OP_CREATE, NULL);
	return cnpproxy_cli_apply(vty);
}

void cli_show_cnpproxy_border_if(struct vty *vty, const struct lyd_node *dnode, bool show_defaults)
{
	vty_out(vty, " border-interface %s\n", yang_dnode_get_string(dnode, NULL));
}

/*
 * XPath: /frr-cnpproxyd:cnpproxyd/cnpproxy/tunnel-egress/{interface,sid}
 */
DEFPY_YANG(cnpproxy_tunnel_egress, cnpproxy_tunnel_egress_cmd,
	   "[no] tunnel-egress <interface IFNAME$ifname|sid X:X::X:X$sid>",
	   NO_STR
	   "Egress PE of the flow-label tunnel: decapsulate with the modified pipe\n"
	   "Core-facing interface where tunnelled packets arrive\n"
	   "Interface name\n"
	   "Outer destination decapsulated here\n"
	   "IPv6 address\n")
{
	char xpath[XPATH_MAXLEN];

	if (ifname)
		snprintf(xpath, sizeof(xpath), "./tunnel-egress/interface[.='%s']", ifname);
	else
		snprintf(xpath, sizeof(xpath), "./tunnel-egress/sid[.='%s']", sid_str);
	if (no && !candidate_node(vty, xpath)) {
		vty_out(vty, "%% %s is not configured: nothing changed\n",
			ifname ? ifname : sid_str);
		return CMD_WARNING_CONFIG_FAILED;
	}
	nb_cli_enqueue_change(vty, xpath, no ? NB_OP_DESTROY : NB_OP_CREATE, NULL);
	return cnpproxy_cli_apply(vty);
}

void cli_show_cnpproxy_tunnel_egress(struct vty *vty, const struct lyd_node *dnode,
				     bool show_defaults)
{
	vty_out(vty, " tunnel-egress %s %s\n", dnode->schema->name,
		yang_dnode_get_string(dnode, NULL));
}

static int cnpproxy_config_write(struct vty *vty)
{
	const struct lyd_node *dnode;
	int written = 0;

	dnode = yang_dnode_get(running_config->dnode, CNPPROXY_XPATH);
	if (dnode) {
		nb_cli_show_dnode_cmds(vty, dnode, false);
		written = 1;
	}
	return written;
}

static struct cmd_node cnpproxy_node = {
	.name = "cnpproxy",
	.node = CNPPROXY_NODE,
	.parent_node = CONFIG_NODE,
	.prompt = "%s(config-cnpproxy)# ",
	.config_write = cnpproxy_config_write,
};

void cnpproxy_cli_init(void)
{
	install_node(&cnpproxy_node);
	install_default(CNPPROXY_NODE);

	install_element(CONFIG_NODE, &router_cnpproxy_cmd);
	install_element(CONFIG_NODE, &no_router_cnpproxy_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_congestion_point_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_for_cmd);
	install_element(CNPPROXY_NODE, &no_cnpproxy_proxy_for_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_source_cmd);
	install_element(CNPPROXY_NODE, &no_cnpproxy_proxy_source_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_accept_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_xdp_if_cmd);
	install_element(CNPPROXY_NODE, &no_cnpproxy_proxy_accept_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_fast_path_cmd);
	install_element(CNPPROXY_NODE, &no_cnpproxy_proxy_fast_path_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_busy_poll_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_flow_table_cmd);
	install_element(CNPPROXY_NODE, &no_cnpproxy_proxy_flow_table_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_cnp_cmd);
	install_element(CNPPROXY_NODE, &no_cnpproxy_proxy_cnp_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_rate_limit_cmd);
	install_element(CNPPROXY_NODE, &no_cnpproxy_proxy_rate_limit_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_fl_cmd);
	install_element(CNPPROXY_NODE, &no_cnpproxy_proxy_fl_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_fl_tunnel_cmd);
	install_element(CNPPROXY_NODE, &no_cnpproxy_proxy_fl_tunnel_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_fl_shaping_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_light_to_sender_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_resume_cmd);
	install_element(CNPPROXY_NODE, &no_cnpproxy_proxy_resume_cmd);
	install_element(CNPPROXY_NODE, &no_cnpproxy_proxy_fl_shaping_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_sender_cmd);
	install_element(CNPPROXY_NODE, &no_cnpproxy_proxy_sender_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_level_cmd);
	install_element(CNPPROXY_NODE, &no_cnpproxy_proxy_level_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_lh_num_cmd);
	install_element(CNPPROXY_NODE, &no_cnpproxy_proxy_lh_num_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_lh_action_cmd);
	install_element(CNPPROXY_NODE, &no_cnpproxy_proxy_lh_action_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_lh_device_cmd);
	install_element(CNPPROXY_NODE, &no_cnpproxy_proxy_lh_device_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_ra_cmd);
	install_element(CNPPROXY_NODE, &no_cnpproxy_proxy_ra_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_port_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_border_if_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_tunnel_egress_cmd);
	install_element(CNPPROXY_NODE, &no_cnpproxy_port_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_icmp_type_cmd);
	install_element(CNPPROXY_NODE, &no_cnpproxy_icmp_type_cmd);
}
