// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd configuration commands of the flow-label tunnel: its ingress
 * ("proxy flow-label-tunnel ...") and its egress ("tunnel-egress ...").
 */
#include <zebra.h>

#include "lib/command.h"
#include "lib/northbound_cli.h"
#include "lib/vty.h"

#include "cnpproxyd.h"
#include "cnpproxy_nb.h"

#include "cnpproxyd/tunnel/cli_clippy.c"

static bool tunnel_enabled(struct vty *vty)
{
	return cnpproxy_cli_needs(vty, "./proxy/flow-label-tunnel", "the tunnel",
				  "proxy flow-label-tunnel interface ...");
}

static int tunnel_no(struct vty *vty, const char *ifname, const char *src)
{
	const char *fl = "./proxy/flow-label-tunnel";
	const struct lyd_node *conf_if, *conf_src;

	if (!cnpproxy_cli_candidate(vty, fl))
		return CMD_SUCCESS;
	/* A typed interface and source must both be the configured ones. */
	conf_if = cnpproxy_cli_candidate(vty, "./proxy/flow-label-tunnel/interface");
	conf_src = cnpproxy_cli_candidate(vty, "./proxy/flow-label-tunnel/source");
	if (!cnpproxy_cli_typed_matches(vty, conf_if, ifname) ||
	    !cnpproxy_cli_typed_matches(vty, conf_src, src))
		return CMD_WARNING_CONFIG_FAILED;
	nb_cli_enqueue_change(vty, fl, NB_OP_DESTROY, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

/*
 * XPath: /frr-cnpproxyd:cnpproxyd/cnpproxy/proxy/flow-label-tunnel
 */
DEFPY_YANG(cnpproxy_proxy_tunnel, cnpproxy_proxy_tunnel_cmd,
	   "[no] proxy flow-label-tunnel ![interface IFNAME$ifname source X:X::X:X$src]",
	   NO_STR
	   "Proxy role\n"
	   "Per-flow flow-label IPv6 encapsulation (flow-label congestion notification)\n"
	   "Core-facing interface where traffic enters the tunnel\n"
	   "Interface name\n"
	   "Outer source: this proxy's advertised address\n"
	   "IPv6 address\n")
{
	if (no)
		return tunnel_no(vty, ifname, src_str);
	if (!cnpproxy_cli_proxy_enabled(vty))
		return CMD_WARNING_CONFIG_FAILED;
	nb_cli_enqueue_change(vty, "./proxy/flow-label-tunnel", NB_OP_CREATE, NULL);
	nb_cli_enqueue_change(vty, "./proxy/flow-label-tunnel/interface", NB_OP_MODIFY, ifname);
	nb_cli_enqueue_change(vty, "./proxy/flow-label-tunnel/source", NB_OP_MODIFY, src_str);
	return nb_cli_apply_changes(vty, NULL);
}

/* A tunnel entry of a prefix, or a node below it. */
#define FL_TUNNEL_XPATH "./proxy/flow-label-tunnel/tunnel[prefix='%s']%s"

/* A change to the tunnel entry of a prefix, or to node below it (path). */
static void tunnel_change(struct vty *vty, const char *pbuf, const char *path,
			  enum nb_operation op, const char *value)
{
	char xpath[XPATH_MAXLEN];

	snprintf(xpath, sizeof(xpath), FL_TUNNEL_XPATH, pbuf, path);
	nb_cli_enqueue_change(vty, xpath, op, value);
}

/* "no ... vxlan vni N router-mac M": the configured tunnel's VXLAN, or nothing changes. */
static bool vxlan_matches(struct vty *vty, const struct prefix *pfx, const char *vni,
			  const char *mac)
{
	char pbuf[PREFIX_STRLEN], xpath[XPATH_MAXLEN];

	cnpproxy_cli_prefix_key(pfx, pbuf, sizeof(pbuf));
	snprintf(xpath, sizeof(xpath), FL_TUNNEL_XPATH, pbuf, "");
	if (!cnpproxy_cli_candidate(vty, xpath))
		return true; /* nothing configured: nothing to remove */
	snprintf(xpath, sizeof(xpath), FL_TUNNEL_XPATH, pbuf, "/vxlan/vni");
	if (!cnpproxy_cli_candidate(vty, xpath)) {
		vty_out(vty, "%% The tunnel of %s is not VXLAN: nothing changed\n", pbuf);
		return false;
	}
	if (!cnpproxy_cli_typed_matches(vty, cnpproxy_cli_candidate(vty, xpath), vni))
		return false;
	snprintf(xpath, sizeof(xpath), FL_TUNNEL_XPATH, pbuf, "/vxlan/router-mac");
	return cnpproxy_cli_typed_matches(vty, cnpproxy_cli_candidate(vty, xpath), mac);
}

DEFPY_YANG(cnpproxy_proxy_tunnel_prefix, cnpproxy_proxy_tunnel_prefix_cmd,
	   "[no] proxy flow-label-tunnel prefix <A.B.C.D/M|X:X::X:X/M>$pfx ![endpoint X:X::X:X$ep [vxlan vni (1-16777215)$vni router-mac X:X:X:X:X:X$mac]]",
	   NO_STR
	   "Proxy role\n"
	   "Per-flow flow-label IPv6 encapsulation (flow-label congestion notification)\n"
	   "Destinations carried through the tunnel\n"
	   "IPv4 prefix\n"
	   "IPv6 prefix\n"
	   "Egress PE's decapsulating address (outer destination)\n"
	   "IPv6 address\n"
	   "VXLAN over IPv6 instead of IPv6-in-IPv6 (UDP port 4789)\n"
	   "VXLAN Network Identifier the egress PE decapsulates\n"
	   "VNI\n"
	   "Inner destination MAC: the egress PE's VXLAN interface\n"
	   "MAC address\n")
{
	char pbuf[PREFIX_STRLEN];

	if (no) {
		if (vni_str && !vxlan_matches(vty, pfx, vni_str, mac_str))
			return CMD_WARNING_CONFIG_FAILED;
		return cnpproxy_cli_prefix_leaf(vty, true, "./proxy/flow-label-tunnel/tunnel", pfx,
						"endpoint", ep_str);
	}
	if (!tunnel_enabled(vty))
		return CMD_WARNING_CONFIG_FAILED;
	cnpproxy_cli_prefix_key(pfx, pbuf, sizeof(pbuf));
	tunnel_change(vty, pbuf, "", NB_OP_CREATE, NULL);
	tunnel_change(vty, pbuf, "/endpoint", NB_OP_MODIFY, ep_str);
	/* The whole entry is what was typed: without vxlan, the plain tunnel. */
	tunnel_change(vty, pbuf, "/vxlan", vni_str ? NB_OP_CREATE : NB_OP_DESTROY, NULL);
	if (vni_str) {
		tunnel_change(vty, pbuf, "/vxlan/vni", NB_OP_MODIFY, vni_str);
		tunnel_change(vty, pbuf, "/vxlan/router-mac", NB_OP_MODIFY, mac_str);
	}
	return nb_cli_apply_changes(vty, NULL);
}

DEFPY_YANG(cnpproxy_proxy_tunnel_shaping, cnpproxy_proxy_tunnel_shaping_cmd,
	   "[no] proxy flow-label-tunnel local-shaping [{step (1-99)$step|floor (1-4000000)$floor|hold-time (1000-60000000)$hold}]",
	   NO_STR
	   "Proxy role\n"
	   "Per-flow flow-label IPv6 encapsulation (flow-label congestion notification)\n"
	   "Slow a tunnelled flow here on light notifications, the sender untouched (seed 003)\n"
	   "Percent cut per light notification\n"
	   "Percent\n"
	   "Lowest rate of a shaper, Mb/s\n"
	   "Mb/s\n"
	   "Release a shaper this long after the last light notification, us\n"
	   "Microseconds\n")
{
	const char *ls = "./proxy/flow-label-tunnel/local-shaping";
	char xpath[XPATH_MAXLEN];

	if (no) {
		if (!cnpproxy_cli_candidate(vty, ls))
			return CMD_SUCCESS;
		nb_cli_enqueue_change(vty, ls, NB_OP_DESTROY, NULL);
		return nb_cli_apply_changes(vty, NULL);
	}
	if (!tunnel_enabled(vty))
		return CMD_WARNING_CONFIG_FAILED;
	nb_cli_enqueue_change(vty, ls, NB_OP_CREATE, NULL);
	/* The command states the whole setting: what it leaves out is the default. */
	snprintf(xpath, sizeof(xpath), "%s/step", ls);
	nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, step_str);
	snprintf(xpath, sizeof(xpath), "%s/floor", ls);
	nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, floor_str);
	snprintf(xpath, sizeof(xpath), "%s/hold-time", ls);
	nb_cli_enqueue_change(vty, xpath, NB_OP_MODIFY, hold_str);
	return nb_cli_apply_changes(vty, NULL);
}

void cli_show_cnpproxy_tunnel_shaping(struct vty *vty, const struct lyd_node *dnode,
				      bool show_defaults)
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

void cli_show_cnpproxy_tunnel(struct vty *vty, const struct lyd_node *dnode, bool show_defaults)
{
	vty_out(vty, " proxy flow-label-tunnel interface %s source %s\n",
		yang_dnode_get_string(dnode, "interface"), yang_dnode_get_string(dnode, "source"));
}

void cli_show_cnpproxy_tunnel_prefix(struct vty *vty, const struct lyd_node *dnode,
				     bool show_defaults)
{
	vty_out(vty, " proxy flow-label-tunnel prefix %s endpoint %s",
		yang_dnode_get_string(dnode, "prefix"), yang_dnode_get_string(dnode, "endpoint"));
	if (yang_dnode_exists(dnode, "vxlan"))
		vty_out(vty, " vxlan vni %u router-mac %s",
			yang_dnode_get_uint32(dnode, "vxlan/vni"),
			yang_dnode_get_string(dnode, "vxlan/router-mac"));
	vty_out(vty, "\n");
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

	if (ifname && !cnpproxy_cli_ifname(vty, ifname))
		return CMD_WARNING_CONFIG_FAILED;
	if (ifname)
		snprintf(xpath, sizeof(xpath), "./tunnel-egress/interface[.='%s']", ifname);
	else
		snprintf(xpath, sizeof(xpath), "./tunnel-egress/sid[.='%s']", sid_str);
	if (no && !cnpproxy_cli_candidate(vty, xpath)) {
		vty_out(vty, "%% %s is not configured: nothing changed\n",
			ifname ? ifname : sid_str);
		return CMD_WARNING_CONFIG_FAILED;
	}
	nb_cli_enqueue_change(vty, xpath, no ? NB_OP_DESTROY : NB_OP_CREATE, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

void cli_show_cnpproxy_tunnel_egress(struct vty *vty, const struct lyd_node *dnode,
				     bool show_defaults)
{
	vty_out(vty, " tunnel-egress %s %s\n", dnode->schema->name,
		yang_dnode_get_string(dnode, NULL));
}

void cnpproxy_tunnel_cli_init(void)
{
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_tunnel_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_tunnel_prefix_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_proxy_tunnel_shaping_cmd);
	install_element(CNPPROXY_NODE, &cnpproxy_tunnel_egress_cmd);
}
