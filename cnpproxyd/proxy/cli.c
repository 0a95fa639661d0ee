// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd configuration commands of the proxy role ("proxy ..." in the
 * router cnpproxy node).
 */
#include <zebra.h>

#include "lib/command.h"
#include "lib/northbound_cli.h"
#include "lib/vty.h"

#include "cnpproxyd.h"
#include "cnpproxy_nb.h"

#include "cnpproxyd/proxy/cli_clippy.c"

/*
 * "[no] proxy ... VALUE" of one leaf: setting it needs the role, removing
 * it does not (no_op: NB_OP_MODIFY back to the default, or NB_OP_DESTROY).
 */
static int proxy_leaf(struct vty *vty, bool no, const char *xpath, const char *value,
		      enum nb_operation no_op)
{
	if (!no && !cnpproxy_cli_proxy_enabled(vty))
		return CMD_WARNING_CONFIG_FAILED;
	return cnpproxy_cli_leaf(vty, no, xpath, value, no_op);
}

/* The same for a leaf of a container of the role ("" for the role's own). */
static int proxy_leaf_in(struct vty *vty, bool no, const char *container, const char *leaf,
			 const char *value, enum nb_operation no_op)
{
	char xpath[XPATH_MAXLEN];

	snprintf(xpath, sizeof(xpath), "./proxy/%s%s%s", container, container[0] ? "/" : "", leaf);
	return proxy_leaf(vty, no, xpath, value, no_op);
}

/*
 * XPath: /frr-cnpproxyd:cnpproxyd/cnpproxy/proxy/source-ipv4|source-ipv6
 */
DEFPY_YANG(cnpproxy_proxy_source, cnpproxy_proxy_source_cmd,
	   "[no] proxy source-address ![<A.B.C.D$v4|X:X::X:X$v6>]",
	   NO_STR
	   "Proxy role\n"
	   "IP source address of the CNPs sent to senders\n"
	   "IPv4 address (CNPs to IPv4 senders)\n"
	   "IPv6 address (CNPs to IPv6 senders)\n")
{
	if (!no && !cnpproxy_cli_proxy_enabled(vty))
		return CMD_WARNING_CONFIG_FAILED;
	return cnpproxy_cli_source(vty, no, "proxy", v4_str, v6_str);
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

	if (!cnpproxy_cli_ifname(vty, ifname))
		return CMD_WARNING_CONFIG_FAILED;
	if (!no && !cnpproxy_cli_proxy_enabled(vty))
		return CMD_WARNING_CONFIG_FAILED;
	snprintf(xpath, sizeof(xpath), "./proxy/%s[.='%s']", which, ifname);
	nb_cli_enqueue_change(vty, xpath, no ? NB_OP_DESTROY : NB_OP_CREATE, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

/*
 * XPath: /frr-cnpproxyd:cnpproxyd/cnpproxy/proxy/accept-prefix-list
 */
DEFPY_YANG(cnpproxy_proxy_accept, cnpproxy_proxy_accept_cmd,
	   "[no] proxy accept-from ![prefix-list PREFIXLIST_NAME$name]",
	   NO_STR
	   "Proxy role\n"
	   "Sources whose congestion notifications are accepted\n"
	   "Sources permitted by a prefix-list\n"
	   "Name of the prefix-list (IPv4 and IPv6)\n")
{
	return proxy_leaf(vty, no, "./proxy/accept-prefix-list", name, NB_OP_DESTROY);
}

/*
 * XPath: /frr-cnpproxyd:cnpproxyd/cnpproxy/proxy/{cnp-min-interval,cnp-dscp}
 */
DEFPY_YANG(cnpproxy_proxy_cnp, cnpproxy_proxy_cnp_cmd,
	   "[no] proxy cnp <min-interval$ivk ![(1-10000000)$iv]|dscp ![(0-63)$dscp]>",
	   NO_STR
	   "Proxy role\n"
	   "CNPs sent to senders\n"
	   "Minimum interval between CNPs to one sender QP\n"
	   "Microseconds\n"
	   "DSCP of the CNPs\n"
	   "DSCP value\n")
{
	if (ivk)
		return proxy_leaf(vty, no, "./proxy/cnp-min-interval", iv_str, NB_OP_MODIFY);
	return proxy_leaf(vty, no, "./proxy/cnp-dscp", dscp_str, NB_OP_MODIFY);
}

/*
 * XPath: /frr-cnpproxyd:cnpproxyd/cnpproxy/proxy/fast-path
 */
DEFPY_YANG(cnpproxy_proxy_fast_path, cnpproxy_proxy_fast_path_cmd,
	   "[no] proxy fast-path ![<socket|xdp|af-xdp>$path]",
	   NO_STR
	   "Proxy role\n"
	   "Where notifications become CNPs\n"
	   "The daemon's sockets\n"
	   "The filter interfaces' XDP program, from the driver\n"
	   "AF_XDP sockets the filter interfaces' XDP program steers notifications to\n")
{
	return proxy_leaf(vty, no, "./proxy/fast-path", path, NB_OP_MODIFY);
}

/* A boolean leaf: "no" sets it false, and does nothing while the role is off. */
static int proxy_flag(struct vty *vty, const char *xpath, bool no)
{
	if (no && !cnpproxy_cli_candidate(vty, "./proxy"))
		return CMD_SUCCESS;
	return proxy_leaf(vty, false, xpath, no ? "false" : "true", NB_OP_MODIFY);
}

DEFPY_YANG(cnpproxy_proxy_light_to_sender, cnpproxy_proxy_light_to_sender_cmd,
	   "[no] proxy light-to-sender",
	   NO_STR
	   "Proxy role\n"
	   "Tell senders of light notifications too (a deviation from seed 003)\n")
{
	return proxy_flag(vty, "./proxy/light-to-sender", no);
}

DEFPY_YANG(cnpproxy_proxy_busy_poll, cnpproxy_proxy_busy_poll_cmd,
	   "[no] proxy fast-path busy-poll",
	   NO_STR
	   "Proxy role\n"
	   "Where notifications become CNPs\n"
	   "Poll the driver through the AF_XDP sockets without sleeping (af-xdp)\n")
{
	return proxy_flag(vty, "./proxy/fast-path-busy-poll", no);
}

/*
 * XPath: /frr-cnpproxyd:cnpproxyd/cnpproxy/proxy/flow-table-size
 */
DEFPY_YANG(cnpproxy_proxy_flow_table, cnpproxy_proxy_flow_table_cmd,
	   "[no] proxy flow-table size ![(1024-16777216)$n]",
	   NO_STR
	   "Proxy role\n"
	   "The table of learned queue-pair flows\n"
	   "Most flows it keeps\n"
	   "Flows\n")
{
	return proxy_leaf(vty, no, "./proxy/flow-table-size", n_str, NB_OP_MODIFY);
}

/*
 * XPath: /frr-cnpproxyd:cnpproxyd/cnpproxy/proxy/rate-limit-{per-source,global}
 */
DEFPY_YANG(cnpproxy_proxy_rate_limit, cnpproxy_proxy_rate_limit_cmd,
	   "[no] proxy rate-limit <per-source|global>$which ![(1-10000000)$rate]",
	   NO_STR
	   "Proxy role\n"
	   "Notifications accepted per second\n"
	   "From one source\n"
	   "In total\n"
	   "Notifications per second\n")
{
	char leaf[32];

	snprintf(leaf, sizeof(leaf), "rate-limit-%s", which);
	return proxy_leaf_in(vty, no, "", leaf, rate_str, NB_OP_MODIFY);
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
DEFPY_YANG(cnpproxy_proxy_sender, cnpproxy_proxy_sender_cmd,
	   "[no] proxy sender <A.B.C.D/M|X:X::X:X/M>$prefix ![format <rocev2-cnp|long-haul-icmpv6|long-haul-rocev2|rate-advice>$fmt [cnp-sized$cnp_sized]]",
	   NO_STR
	   "Proxy role\n"
	   "Senders in a prefix\n"
	   "IPv4 sender prefix\n"
	   "IPv6 sender prefix\n"
	   "The message they understand\n"
	   "Standard RoCEv2 CNP\n"
	   "Long-haul CNP as ICMPv6 (IPv6 senders)\n"
	   "Long-haul CNP as a RoCEv2 CNP with the E bit (senders known to support it)\n"
	   "SCONE rate advice\n"
	   "Without extension objects, pad to a standard CNP's length (deviation from the draft)\n")
{
	char entry[XPATH_MAXLEN], child[XPATH_MAXLEN], pbuf[PREFIX_STRLEN];

	if (no)
		return cnpproxy_cli_prefix_leaf(vty, true, "./proxy/sender", prefix, "format", fmt);
	if (!cnpproxy_cli_proxy_enabled(vty))
		return CMD_WARNING_CONFIG_FAILED;
	if (cnp_sized && strcmp(fmt, "long-haul-rocev2")) {
		vty_out(vty, "%% cnp-sized applies to format long-haul-rocev2 only\n");
		return CMD_WARNING_CONFIG_FAILED;
	}
	cnpproxy_cli_prefix_key(prefix, pbuf, sizeof(pbuf));
	snprintf(entry, sizeof(entry), "./proxy/sender[prefix='%s']", pbuf);
	nb_cli_enqueue_change(vty, entry, NB_OP_CREATE, NULL);
	snprintf(child, sizeof(child), "./proxy/sender[prefix='%s']/format", pbuf);
	nb_cli_enqueue_change(vty, child, NB_OP_MODIFY, fmt);
	/* The command states the whole entry: no cnp-sized means none. */
	snprintf(child, sizeof(child), "./proxy/sender[prefix='%s']/cnp-sized", pbuf);
	nb_cli_enqueue_change(vty, child, NB_OP_MODIFY, cnp_sized ? "true" : "false");
	return nb_cli_apply_changes(vty, NULL);
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
DEFPY_YANG(cnpproxy_proxy_resume, cnpproxy_proxy_resume_cmd,
	   "[no] proxy resume-after ![(0-60000000)$value]",
	   NO_STR
	   "Proxy role\n"
	   "Resume a slowed Long-haul or rate-advice sender after this long without notifications\n"
	   "Microseconds (0: never)\n")
{
	return proxy_leaf_in(vty, no, "", "resume-after", value_str, NB_OP_MODIFY);
}

DEFPY_YANG(cnpproxy_proxy_level, cnpproxy_proxy_level_cmd,
	   "[no] proxy <severe-level|light-cnp-pacing>$leaf ![(0-255)$value]",
	   NO_STR
	   "Proxy role\n"
	   "Lowest Congestion Level that is severe\n"
	   "Light notifications: one CNP per this many minimum intervals, 0 none\n"
	   "Value\n")
{
	return proxy_leaf_in(vty, no, "", leaf, value_str, NB_OP_MODIFY);
}

DEFPY_YANG(cnpproxy_proxy_lh_num, cnpproxy_proxy_lh_num_cmd,
	   "[no] proxy long-haul <icmpv6-type|class-num|light-reduce|severe-reduce|severe-reduce-step|resume-share|pause-time>$leaf ![(0-65535)$value]",
	   NO_STR
	   "Proxy role\n"
	   "Long-haul CNP\n"
	   "ICMPv6 type of the ICMPv6 form, 128-255\n"
	   "RFC 4884 Class-Num of the extension objects\n"
	   "Percent a light notification asks to cut, 1-100\n"
	   "Percent a notification of severe-level asks to cut, 1-100\n"
	   "Percent more per level above severe-level, 0-100\n"
	   "Percent of the cut a Resume gives back, 0 all, 0-100\n"
	   "Microseconds a level 7 notification asks to pause, 0 none\n"
	   "Value\n")
{
	return proxy_leaf_in(vty, no, "long-haul", leaf, value_str, NB_OP_MODIFY);
}

DEFPY_YANG(cnpproxy_proxy_lh_action, cnpproxy_proxy_lh_action_cmd,
	   "[no] proxy long-haul light-action ![<notify|rate-reduce>$action]",
	   NO_STR
	   "Proxy role\n"
	   "Long-haul CNP\n"
	   "Action light notifications ask for\n"
	   "Notify only\n"
	   "Rate Reduce by light-reduce percent\n")
{
	return proxy_leaf_in(vty, no, "long-haul", "light-action", action, NB_OP_MODIFY);
}

DEFPY_YANG(cnpproxy_proxy_lh_device, cnpproxy_proxy_lh_device_cmd,
	   "[no] proxy long-haul device-id ![WORD$id]",
	   NO_STR
	   "Proxy role\n"
	   "Long-haul CNP\n"
	   "Add the RFC 4884 extension with a timestamp and this device ID\n"
	   "Device ID (UTF-8, up to 64 octets)\n")
{
	return proxy_leaf_in(vty, no, "long-haul", "device-id", id, NB_OP_DESTROY);
}

DEFPY_YANG(cnpproxy_proxy_ra, cnpproxy_proxy_ra_cmd,
	   "[no] proxy rate-advice <opcode|max-rate>$leaf ![(0-4294967295)$value]",
	   NO_STR
	   "Proxy role\n"
	   "SCONE rate advice\n"
	   "BTH opcode of RATE_ADVICE, 192-255\n"
	   "Rate advised at level 0, in Mb/s; level L gets (8 - L) / 8 of it\n"
	   "Value\n")
{
	return proxy_leaf_in(vty, no, "rate-advice", leaf, value_str, NB_OP_MODIFY);
}

void cnpproxy_proxy_cli_init(void)
{
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_source_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_xdp_if_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_accept_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_cnp_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_fast_path_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_light_to_sender_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_busy_poll_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_flow_table_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_rate_limit_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_sender_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_resume_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_level_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_lh_num_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_lh_action_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_lh_device_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_ra_cmd);
}
