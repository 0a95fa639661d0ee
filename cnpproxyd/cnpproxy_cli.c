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

DEFPY_YANG(cnpproxy_proxy, cnpproxy_proxy_cmd,
	   "[no] proxy",
	   NO_STR
	   "Proxy role: turn congestion notifications into sender-native CNPs (packet path not implemented yet)\n")
{
	nb_cli_enqueue_change(vty, "./proxy", no ? NB_OP_DESTROY : NB_OP_CREATE, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

void cli_show_cnpproxy_proxy(struct vty *vty, const struct lyd_node *dnode, bool show_defaults)
{
	vty_out(vty, " proxy\n");
}

DEFPY_YANG(cnpproxy_congestion_point, cnpproxy_congestion_point_cmd,
	   "[no] congestion-point",
	   NO_STR
	   "Congestion point role: notify proxies of congesting senders (packet path not implemented yet)\n")
{
	nb_cli_enqueue_change(vty, "./congestion-point", no ? NB_OP_DESTROY : NB_OP_CREATE, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

void cli_show_cnpproxy_congestion_point(struct vty *vty, const struct lyd_node *dnode,
					bool show_defaults)
{
	vty_out(vty, " congestion-point\n");
}

DEFPY_YANG(cnpproxy_proxy_for, cnpproxy_proxy_for_cmd,
	   "[no] proxy for <A.B.C.D/M|X:X::X:X/M>$prefix [via <A.B.C.D|X:X::X:X>$via]",
	   NO_STR
	   "Static proxy: who proxies congestion notifications for a sender prefix\n"
	   "Sender prefix\n"
	   "IPv4 sender prefix\n"
	   "IPv6 sender prefix\n"
	   "Address of the proxy node\n"
	   "IPv4 address of the proxy\n"
	   "IPv6 address of the proxy\n")
{
	char xpath[XPATH_MAXLEN];
	char pbuf[PREFIX_STRLEN];
	struct prefix p;

	/* The canonical prefix is the key, whatever host bits were typed. */
	prefix_copy(&p, prefix);
	apply_mask(&p);
	prefix2str(&p, pbuf, sizeof(pbuf));
	snprintf(xpath, sizeof(xpath), "./proxy-for[prefix='%s']", pbuf);

	if (no) {
		nb_cli_enqueue_change(vty, xpath, NB_OP_DESTROY, NULL);
	} else {
		if (!via_str) {
			vty_out(vty, "%% Specify the proxy: proxy for %s via ADDRESS\n", pbuf);
			return CMD_WARNING_CONFIG_FAILED;
		}
		nb_cli_enqueue_change(vty, xpath, NB_OP_CREATE, NULL);
		strlcat(xpath, "/via", sizeof(xpath));
		nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, via_str);
	}
	return nb_cli_apply_changes(vty, NULL);
}

void cli_show_cnpproxy_proxy_for(struct vty *vty, const struct lyd_node *dnode, bool show_defaults)
{
	vty_out(vty, " proxy for %s via %s\n", yang_dnode_get_string(dnode, "prefix"),
		yang_dnode_get_string(dnode, "via"));
}

#define PORT_HELP                                                                                 \
	"UDP port of five-tuple congestion notifications (default 61791)\n"                       \
	"UDP port of flow-label congestion notifications (default 61792)\n"

DEFPY_YANG(cnpproxy_port, cnpproxy_port_cmd,
	   "<notification-port|flow-label-port>$leaf (1-65535)$port",
	   PORT_HELP
	   "UDP port number\n")
{
	char xpath[64];

	snprintf(xpath, sizeof(xpath), "./%s", leaf);
	nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, port_str);
	return nb_cli_apply_changes(vty, NULL);
}

DEFPY_YANG(no_cnpproxy_port, no_cnpproxy_port_cmd,
	   "no <notification-port|flow-label-port>$leaf [(1-65535)]",
	   NO_STR
	   PORT_HELP
	   "UDP port number\n")
{
	char xpath[64];

	snprintf(xpath, sizeof(xpath), "./%s", leaf);
	nb_cli_enqueue_change(vty, xpath, NB_OP_DESTROY, NULL);
	return nb_cli_apply_changes(vty, NULL);
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
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_congestion_point_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_for_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_port_cmd);
	install_element(CNPPROXY_NODE, &no_cnpproxy_port_cmd);
}
