// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd configuration commands ("router cnpproxy" node): the node,
 * the roles on and off, the static proxies, the ports, and the helpers
 * the roles' commands share (proxy/cli.c, tunnel/cli.c, cp/cli.c,
 * border/border.c).
 */
#include <zebra.h>

#include "lib/command.h"
#include "lib/northbound_cli.h"
#include "lib/vty.h"

#include "cnpproxyd.h"
#include "cnpproxy_nb.h"

#include "cnpproxyd/cnpproxy_cli_clippy.c"

#define CNPPROXY_STR "Congestion notification proxy (cnpproxyd)\n"

/* A relative xpath ("./...") of the node being edited, made absolute. */
const struct lyd_node *cnpproxy_cli_candidate(struct vty *vty, const char *rel)
{
	char xpath[XPATH_MAXLEN];

	snprintf(xpath, sizeof(xpath), "%s%s", VTY_CURR_XPATH, rel + 1);
	return yang_dnode_get(vty->candidate_config->dnode, xpath);
}

/*
 * Whether a value typed after "no ..." is the configured one, compared as
 * YANG values (so "2001:db8::0:1" is "2001:db8::1"); says why not.
 */
bool cnpproxy_cli_typed_matches(struct vty *vty, const struct lyd_node *dn, const char *typed)
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
	const struct lyd_node *dn = cnpproxy_cli_candidate(vty, check);

	/* Nothing configured there: nothing to remove, and nothing to create. */
	if (!dn || !cnpproxy_cli_candidate(vty, change))
		return CMD_SUCCESS;
	if (!cnpproxy_cli_typed_matches(vty, dn, typed))
		return CMD_WARNING_CONFIG_FAILED;
	nb_cli_enqueue_change(vty, change, op, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

int cnpproxy_cli_leaf(struct vty *vty, bool no, const char *xpath, const char *value,
		      enum nb_operation no_op)
{
	if (no)
		return cnpproxy_cli_no(vty, xpath, value, xpath, no_op);
	nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, value);
	return nb_cli_apply_changes(vty, NULL);
}

DEFPY_YANG_NOSH(router_cnpproxy, router_cnpproxy_cmd,
		"router cnpproxy",
		ROUTER_STR
		CNPPROXY_STR)
{
	int ret;

	nb_cli_enqueue_change(vty, CNPPROXY_XPATH, NB_OP_CREATE, NULL);
	ret = nb_cli_apply_changes(vty, NULL);
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
	return nb_cli_apply_changes(vty, NULL);
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

/*
 * XPath: /frr-cnpproxyd:cnpproxyd/cnpproxy/proxy and congestion-point
 */
DEFPY_YANG(cnpproxy_role, cnpproxy_role_cmd,
	   "[no] <proxy|congestion-point>$role",
	   NO_STR
	   "Proxy role: turn congestion notifications into CNPs to the senders\n"
	   "Congestion point role: mark, and notify the proxies of congesting senders\n")
{
	char xpath[32];

	snprintf(xpath, sizeof(xpath), "./%s", role);
	nb_cli_enqueue_change(vty, xpath, no ? NB_OP_DESTROY : NB_OP_CREATE, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

/* Either role's container: its name is its command. */
void cli_show_cnpproxy_role(struct vty *vty, const struct lyd_node *dnode, bool show_defaults)
{
	vty_out(vty, " %s\n", dnode->schema->name);
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
void cnpproxy_cli_prefix_key(const struct prefix *prefix, char *buf, size_t len)
{
	struct prefix p;

	prefix_copy(&p, prefix);
	apply_mask(&p);
	prefix2str(&p, buf, len);
}

int cnpproxy_cli_prefix_leaf(struct vty *vty, bool no, const char *list,
			     const struct prefix *prefix, const char *leaf, const char *value)
{
	char entry[XPATH_MAXLEN], child[XPATH_MAXLEN], pbuf[PREFIX_STRLEN];

	cnpproxy_cli_prefix_key(prefix, pbuf, sizeof(pbuf));
	snprintf(entry, sizeof(entry), "%s[prefix='%s']", list, pbuf);
	snprintf(child, sizeof(child), "%s[prefix='%s']/%s", list, pbuf, leaf);
	if (no)
		return cnpproxy_cli_no(vty, child, value, entry, NB_OP_DESTROY);
	nb_cli_enqueue_change(vty, entry, NB_OP_CREATE, NULL);
	nb_cli_enqueue_change(vty, child, NB_OP_MODIFY, value);
	return nb_cli_apply_changes(vty, NULL);
}

DEFPY_YANG(cnpproxy_proxy_for, cnpproxy_proxy_for_cmd,
	   "[no] proxy for <A.B.C.D/M|X:X::X:X/M>$prefix [via <A.B.C.D|X:X::X:X>$via]",
	   NO_STR PROXY_FOR_HELP)
{
	char pbuf[PREFIX_STRLEN];

	if (no)
		return cnpproxy_cli_prefix_leaf(vty, true, "./proxy-for", prefix, "via", via_str);
	/* Optional in the syntax only, for a message better than "incomplete". */
	if (!via_str) {
		cnpproxy_cli_prefix_key(prefix, pbuf, sizeof(pbuf));
		vty_out(vty, "%% Specify the proxy: proxy for %s via ADDRESS\n", pbuf);
		return CMD_WARNING_CONFIG_FAILED;
	}
	return cnpproxy_cli_prefix_leaf(vty, false, "./proxy-for", prefix, "via", via_str);
}

void cli_show_cnpproxy_proxy_for(struct vty *vty, const struct lyd_node *dnode, bool show_defaults)
{
	vty_out(vty, " proxy for %s via %s\n", yang_dnode_get_string(dnode, "prefix"),
		yang_dnode_get_string(dnode, "via"));
}

bool cnpproxy_cli_ifname(struct vty *vty, const char *ifname)
{
	if (!strchr(ifname, '\''))
		return true;
	vty_out(vty, "%% Interface names with a quote (') cannot be configured\n");
	return false;
}

/* A role's settings need the role: they must not enable it silently. */
bool cnpproxy_cli_needs(struct vty *vty, const char *rel, const char *what, const char *cmd)
{
	if (cnpproxy_cli_candidate(vty, rel))
		return true;
	vty_out(vty, "%% Enable %s first (%s)\n", what, cmd);
	return false;
}

bool cnpproxy_cli_proxy_enabled(struct vty *vty)
{
	return cnpproxy_cli_needs(vty, "./proxy", "the proxy role", "proxy");
}

int cnpproxy_cli_source(struct vty *vty, bool no, const char *role, const char *v4, const char *v6)
{
	char x4[64], x6[64];

	snprintf(x4, sizeof(x4), "./%s/source-ipv4", role);
	snprintf(x6, sizeof(x6), "./%s/source-ipv6", role);
	if (v4 || v6)
		return cnpproxy_cli_leaf(vty, no, v4 ? x4 : x6, v4 ? v4 : v6, NB_OP_DESTROY);
	/* "no" without an address: both families go. */
	if (cnpproxy_cli_candidate(vty, x4))
		nb_cli_enqueue_change(vty, x4, NB_OP_DESTROY, NULL);
	if (cnpproxy_cli_candidate(vty, x6))
		nb_cli_enqueue_change(vty, x6, NB_OP_DESTROY, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

/*
 * XPath: /frr-cnpproxyd:cnpproxyd/cnpproxy/notification-port, flow-label-port,
 * notification-icmp-type and notification-icmpv6-type
 */
DEFPY_YANG(cnpproxy_port, cnpproxy_port_cmd,
	   "[no] <notification-port$leaf ![(1-65535)$val]|flow-label-port$leaf ![(1-65535)$val]|notification-icmp-type$leaf ![(44-255)$val]|notification-icmpv6-type$leaf ![(162-255)$val]>",
	   NO_STR
	   "UDP port of five-tuple congestion notifications\n"
	   "UDP port number\n"
	   "UDP port of flow-label congestion notifications\n"
	   "UDP port number\n"
	   "ICMP type of five-tuple notifications in ICMP form over IPv4\n"
	   "Type\n"
	   "ICMPv6 type of five-tuple notifications in ICMP form over IPv6\n"
	   "Type\n")
{
	char xpath[64];

	snprintf(xpath, sizeof(xpath), "./%s", leaf);
	return cnpproxy_cli_leaf(vty, no, xpath, val_str, NB_OP_DESTROY);
}

/* The command keyword is the leaf name. */
void cli_show_cnpproxy_port(struct vty *vty, const struct lyd_node *dnode, bool show_defaults)
{
	vty_out(vty, " %s %s\n", dnode->schema->name, yang_dnode_get_string(dnode, NULL));
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
	install_element(CNPPROXY_NODE, &cnpproxy_role_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_for_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_port_cmd);
}
