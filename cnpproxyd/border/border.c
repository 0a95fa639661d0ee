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
#include "lib/privs.h"
#include "lib/vty.h"

#include "border/border_tc.h"

#include "cnpproxyd.h"
#include "border/border.h"
#include "cnpproxy_debug.h"
#include "cnpproxy_if.h"

#include "cnpproxyd/border/border_clippy.c"

#define BORDER_RETRY_S 5

struct border_if {
	char name[CNP_IFNAME_MAX];
	int ifindex; /* attached to; 0 if not */
	const char *error;
};

static struct {
	struct pnc_border_tc *bt;
	struct border_if ifs[CNP_BORDER_IF_MAX];
	unsigned int n_ifs;
	struct event *t_retry;
	const char *error; /* the program could not be loaded */
} border;

static void border_close(void)
{
	event_cancel(&border.t_retry);
	if (border.bt) {
		frr_with_privs (&cnpproxy_privs) {
			pnc_border_tc_close(border.bt);
		}
	}
	border.bt = NULL;
	memset(border.ifs, 0, sizeof(border.ifs));
	border.n_ifs = 0;
}

static void border_retry(struct event *t)
{
	cnpproxy_border_apply();
}

static bool configured(const char *name)
{
	const struct cnp_config *cfg = &cnp_g.cfg;

	for (unsigned int j = 0; j < cfg->n_border_if; j++)
		if (!strcmp(cfg->border_if[j], name))
			return true;
	return false;
}

static void detach(struct border_if *bi)
{
	if (!bi->ifindex)
		return;
	frr_with_privs (&cnpproxy_privs) {
		pnc_border_tc_detach(border.bt, bi->ifindex);
	}
	bi->ifindex = 0;
}

static struct border_if *border_if_get(const char *name)
{
	struct border_if *bi;

	for (unsigned int i = 0; i < border.n_ifs; i++)
		if (!strcmp(border.ifs[i].name, name))
			return &border.ifs[i];
	bi = &border.ifs[border.n_ifs++];
	memset(bi, 0, sizeof(*bi));
	strlcpy(bi->name, name, sizeof(bi->name));
	return bi;
}

void cnpproxy_border_apply(void)
{
	const struct cnp_config *cfg = &cnp_g.cfg;
	bool missing = false;
	int err;

	if (!cfg->present || !cfg->n_border_if) {
		border_close();
		border.error = NULL;
		return;
	}
	if (!border.bt) {
		frr_with_privs (&cnpproxy_privs) {
			border.bt = pnc_border_tc_open();
		}
		if (!border.bt) {
			border.error = "cannot load the border filter program";
			zlog_warn("cnpproxyd: cannot load the border filter: %s",
				  safe_strerror(errno));
			return;
		}
		border.error = NULL;
	}
	/* The ports first: an interface is never attached with old ones. */
	err = pnc_border_tc_set_ports(border.bt, cfg->notification_port, cfg->flow_label_port,
				      cfg->notification_icmp_type, cfg->notification_icmp6_type);
	if (err) {
		border.error = "cannot set the border filter's ports";
		zlog_warn("cnpproxyd: border filter ports: %s", safe_strerror(-err));
		return;
	}

	for (unsigned int i = 0; i < border.n_ifs;) {
		if (configured(border.ifs[i].name)) {
			i++;
			continue;
		}
		zlog_info("cnpproxyd: border filter off %s", border.ifs[i].name);
		detach(&border.ifs[i]);
		border.ifs[i] = border.ifs[--border.n_ifs];
	}
	for (unsigned int j = 0; j < cfg->n_border_if; j++) {
		struct border_if *bi = border_if_get(cfg->border_if[j]);
		int ifindex;

		if (bi->ifindex)
			continue;
		ifindex = cnpproxy_if_index(bi->name);
		if (!ifindex) {
			bi->error = "no such interface";
			missing = true;
			continue;
		}
		frr_with_privs (&cnpproxy_privs) {
			err = pnc_border_tc_attach(border.bt, ifindex);
		}
		if (err) {
			bi->error = "cannot attach the tc ingress filter";
			zlog_warn("cnpproxyd: cannot attach the border filter to %s: %s", bi->name,
				  safe_strerror(-err));
			missing = true;
			continue;
		}
		bi->ifindex = ifindex;
		bi->error = NULL;
		zlog_info("cnpproxyd: border filter on %s (%s): UDP ports %u and %u, ICMP type %u and ICMPv6 type %u dropped",
			  bi->name, pnc_border_tc_mode(border.bt, ifindex), cfg->notification_port,
			  cfg->flow_label_port, cfg->notification_icmp_type,
			  cfg->notification_icmp6_type);
	}
	if (missing && !border.t_retry)
		event_add_timer(master, border_retry, NULL, BORDER_RETRY_S, &border.t_retry);
}

/* Deleted, or re-created with another ifindex: attach to what is there now. */
static void border_if_changed(const char *ifname, int ifindex)
{
	for (unsigned int i = 0; i < border.n_ifs; i++) {
		struct border_if *bi = &border.ifs[i];

		if (strcmp(bi->name, ifname) || !bi->ifindex || bi->ifindex == ifindex)
			continue;
		zlog_info("cnpproxyd: border interface %s is gone", ifname);
		detach(bi);
		bi->error = "no such interface";
	}
	if (ifindex && configured(ifname))
		cnpproxy_border_apply();
}

const char *cnpproxy_border_not_operational(void)
{
	static char why[64 + IFNAMSIZ];

	if (border.error)
		return border.error;
	for (unsigned int i = 0; i < border.n_ifs; i++) {
		if (border.ifs[i].ifindex)
			continue;
		snprintf(why, sizeof(why), "border filter on %s: %s", border.ifs[i].name,
			 border.ifs[i].error ? border.ifs[i].error : "not attached");
		return why;
	}
	return NULL;
}

void cnpproxy_border_count(unsigned int *n_configured, unsigned int *attached)
{
	*n_configured = cnp_g.cfg.present ? cnp_g.cfg.n_border_if : 0;
	*attached = 0;
	for (unsigned int i = 0; i < border.n_ifs; i++)
		*attached += border.ifs[i].ifindex != 0;
}

void cnpproxy_border_counters_clear(void)
{
	for (unsigned int i = 0; i < border.n_ifs; i++)
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
	const struct cnp_config *cfg = &cnp_g.cfg;
	json_object *json = NULL, *jifs = NULL;

	if (uj) {
		json = json_object_new_object();
		jifs = json_object_new_object();
		json_object_int_add(json, "notificationPort", cfg->notification_port);
		json_object_int_add(json, "flowLabelPort", cfg->flow_label_port);
		json_object_int_add(json, "notificationIcmpType", cfg->notification_icmp_type);
		json_object_int_add(json, "notificationIcmpv6Type", cfg->notification_icmp6_type);
		if (border.error)
			json_object_string_add(json, "reason", border.error);
	} else {
		vty_out(vty,
			"Border filter: UDP ports %u and %u, ICMP type %u, ICMPv6 type %u dropped arriving and leaving%s%s\n",
			cfg->notification_port, cfg->flow_label_port, cfg->notification_icmp_type,
			cfg->notification_icmp6_type, border.error ? ": " : "",
			border.error ? border.error : "");
		vty_out(vty, "  %-16s %-20s %-10s %-4s %14s %14s %14s\n", "Interface", "State",
			"Mode", "Way", "Notifications", "Flow-label", "Header-chain");
	}
	for (unsigned int i = 0; i < border.n_ifs; i++) {
		const struct border_if *bi = &border.ifs[i];
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

void cnpproxy_border_init(void)
{
	cnpproxy_if_watch(border_if_changed);
	install_element(VIEW_NODE, &show_cnpproxy_border_cmd);
}

void cnpproxy_border_fini(void)
{
	border_close();
}
