// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd border filtering: configuration, interface events, show.
 */
#include <zebra.h>

#include <net/if.h>

#include "lib/command.h"
#include "lib/frrevent.h"
#include "lib/json.h"
#include "lib/log.h"
#include "lib/northbound_cli.h"
#include "lib/privs.h"
#include "lib/vty.h"

#include "border/border_tc.h"

#include "cnpproxyd.h"
#include "cnpproxy_attach.h"
#include "border/border.h"
#include "cnpproxy_debug.h"
#include "cnpproxy_if.h"
#include "cnpproxy_nb.h"

#include "cnpproxyd/border/border_clippy.c"

#define BORDER_RETRY_S 5

static const struct cnpproxy_attach_ops border_ops;

static struct {
	const struct pnc_config *cfg; /* the last apply's */
	struct pnc_border_tc *bt;
	struct cnpproxy_attach_if ifs[PNC_BORDER_IF_MAX];
	struct cnpproxy_attach_set set;
} border = {
	.cfg = &pnc_config_off,
	.set = CNPPROXY_ATTACH_SET("border filter", &border_ops, border.ifs, BORDER_RETRY_S),
};

static int border_attach(void *prog, int ifindex, unsigned int flags)
{
	return pnc_border_tc_attach(prog, ifindex);
}

static void border_detach(void *prog, int ifindex)
{
	pnc_border_tc_detach(prog, ifindex);
}

static void border_attached(void *prog, const struct cnpproxy_attach_if *ai)
{
	const struct pnc_config *cfg = border.cfg;

	zlog_info("cnpproxyd: border filter on %s (%s): UDP ports %u and %u, ICMP type %u and ICMPv6 type %u dropped",
		  ai->name, pnc_border_tc_mode(prog, ai->ifindex), cfg->notification_port,
		  cfg->flow_label_port, cfg->notification_icmp_type, cfg->notification_icmp6_type);
}

static void border_retry(void)
{
	cnpproxy_border_apply(border.cfg);
}

static const struct cnpproxy_attach_ops border_ops = {
	.attach = border_attach,
	.detach = border_detach,
	.attached = border_attached,
	.retry = border_retry,
};

/* Closing the program detaches it everywhere. */
static void border_close(void)
{
	cnpproxy_attach_clear(&border.set, NULL);
	if (border.bt) {
		frr_with_privs (&cnpproxy_privs) {
			pnc_border_tc_close(border.bt);
		}
	}
	border.bt = NULL;
}

void cnpproxy_border_apply(const struct pnc_config *cfg)
{
	int err;

	border.cfg = cfg;
	if (!cfg->present || !cfg->n_border_if) {
		border_close();
		border.set.error = NULL;
		return;
	}
	if (!border.bt) {
		frr_with_privs (&cnpproxy_privs) {
			border.bt = pnc_border_tc_open();
		}
		if (!border.bt) {
			border.set.error = "cannot load the border filter program";
			zlog_warn("cnpproxyd: cannot load the border filter: %s",
				  safe_strerror(errno));
			return;
		}
		border.set.error = NULL;
	}
	/* The ports first: an interface is never attached with old ones. */
	err = pnc_border_tc_set_ports(border.bt, cfg->notification_port, cfg->flow_label_port,
				      cfg->notification_icmp_type, cfg->notification_icmp6_type);
	if (err) {
		border.set.error = "cannot set the border filter's ports";
		zlog_warn("cnpproxyd: border filter ports: %s", safe_strerror(-err));
		return;
	}
	cnpproxy_attach_sync(&border.set, border.bt, cfg->border_if, NULL, cfg->n_border_if);
}

/* Deleted, or re-created with another ifindex: attach to what is there now. */
static void border_if_changed(const char *ifname, int ifindex)
{
	const struct pnc_config *cfg = border.cfg;

	if (cnpproxy_attach_if_changed(&border.set, border.bt, cfg->border_if, cfg->n_border_if,
				       ifname, ifindex))
		border_retry();
}

const char *cnpproxy_border_not_operational(void)
{
	return cnpproxy_attach_not_operational(&border.set);
}

void cnpproxy_border_count(unsigned int *n_configured, unsigned int *attached)
{
	*n_configured = border.cfg->present ? border.cfg->n_border_if : 0;
	*attached = cnpproxy_attach_count(&border.set);
}

void cnpproxy_border_counters_clear(void)
{
	for (unsigned int i = 0; i < border.set.n; i++)
		if (border.ifs[i].ifindex)
			pnc_border_tc_counters_clear(border.bt, border.ifs[i].ifindex);
}

DEFPY(show_cnpproxy_border, show_cnpproxy_border_cmd,
      "show cnpproxy border [json$uj]",
      SHOW_STR
      "Congestion notification proxy (cnpproxyd)\n"
      "Border filter: notification ports dropped where the domain ends\n"
      JSON_STR)
{
	const struct pnc_config *cfg = border.cfg;
	json_object *json = NULL, *jifs = NULL;

	if (uj) {
		json = json_object_new_object();
		jifs = json_object_new_object();
		json_object_int_add(json, "notificationPort", cfg->notification_port);
		json_object_int_add(json, "flowLabelPort", cfg->flow_label_port);
		json_object_int_add(json, "notificationIcmpType", cfg->notification_icmp_type);
		json_object_int_add(json, "notificationIcmpv6Type", cfg->notification_icmp6_type);
		if (border.set.error)
			json_object_string_add(json, "reason", border.set.error);
	} else {
		vty_out(vty,
			"Border filter: UDP ports %u and %u, ICMP type %u, ICMPv6 type %u dropped arriving and leaving%s%s\n",
			cfg->notification_port, cfg->flow_label_port, cfg->notification_icmp_type,
			cfg->notification_icmp6_type, border.set.error ? ": " : "",
			border.set.error ? border.set.error : "");
		vty_out(vty, "  %-16s %-20s %-10s %-4s %14s %14s %14s\n", "Interface", "State",
			"Mode", "Way", "Notifications", "Flow-label", "Header-chain");
	}
	for (unsigned int i = 0; i < border.set.n; i++) {
		const struct cnpproxy_attach_if *bi = &border.ifs[i];
		struct pnc_border_if_counters c = {};
		const char *state = bi->ifindex ? "filtering" : bi->error;
		const char *mode = bi->ifindex ? pnc_border_tc_mode(border.bt, bi->ifindex) : "-";

		if (bi->ifindex)
			pnc_border_tc_counters(border.bt, bi->ifindex, &c);
		if (uj) {
			json_object *j = json_object_new_object();

			json_object_string_add(j, "state", state ? state : "not attached");
			json_object_string_add(j, "mode", mode);
			json_object_int_add(j, "droppedNotifications", c.notifications);
			json_object_int_add(j, "droppedFlowLabel", c.flow_label);
			json_object_int_add(j, "droppedHeaderChain", c.header_chain);
			json_object_int_add(j, "droppedNotificationsOut", c.notifications_out);
			json_object_int_add(j, "droppedFlowLabelOut", c.flow_label_out);
			json_object_int_add(j, "droppedHeaderChainOut", c.header_chain_out);
			json_object_object_add(jifs, bi->name, j);
		} else {
			vty_out(vty,
				"  %-16s %-20s %-10s %-4s %14" PRIu64 " %14" PRIu64 " %14" PRIu64
				"\n",
				bi->name, state ? state : "not attached", mode, "in",
				(uint64_t)c.notifications, (uint64_t)c.flow_label,
				(uint64_t)c.header_chain);
			vty_out(vty,
				"  %-16s %-20s %-10s %-4s %14" PRIu64 " %14" PRIu64 " %14" PRIu64
				"\n",
				"", "", "", "out", (uint64_t)c.notifications_out,
				(uint64_t)c.flow_label_out, (uint64_t)c.header_chain_out);
		}
	}
	if (uj) {
		json_object_object_add(json, "interfaces", jifs);
		vty_json(vty, json);
	}
	return CMD_SUCCESS;
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

	if (!cnpproxy_cli_ifname(vty, ifname))
		return CMD_WARNING_CONFIG_FAILED;
	snprintf(xpath, sizeof(xpath), "./border-interface[.='%s']", ifname);
	if (no && !cnpproxy_cli_candidate(vty, xpath)) {
		vty_out(vty, "%% %s is not a border interface: nothing changed\n", ifname);
		return CMD_WARNING_CONFIG_FAILED;
	}
	nb_cli_enqueue_change(vty, xpath, no ? NB_OP_DESTROY : NB_OP_CREATE, NULL);
	return nb_cli_apply_changes(vty, NULL);
}

void cli_show_cnpproxy_border_if(struct vty *vty, const struct lyd_node *dnode, bool show_defaults)
{
	vty_out(vty, " border-interface %s\n", yang_dnode_get_string(dnode, NULL));
}

void cnpproxy_border_cli_init(void)
{
	install_element(CNPPROXY_NODE, &cnpproxy_border_if_cmd);
}

bool cnpproxy_border_attachment(unsigned int i, struct cnpproxy_attach_if *out)
{
	return cnpproxy_attach_view(&border.set, i, out);
}

void cnpproxy_border_init(void)
{
	cnpproxy_if_watch(border_if_changed);
	install_element(VIEW_NODE, &show_cnpproxy_border_cmd);
}

void cnpproxy_border_fini(void)
{
	border_close();
}
