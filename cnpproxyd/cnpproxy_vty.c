// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd operational commands: show cnpproxy ..., debug cnpproxy ...
 */
#include <zebra.h>

#include "lib/command.h"
#include "lib/json.h"
#include "lib/zclient.h"
#include "lib/vty.h"
#include "lib/version.h"

#include "cnpproxyd.h"
#include "border/border.h"
#include "tunnel/egress.h"
#include "cp/cp.h"
#include "cnpproxy_debug.h"
#include "tunnel/tunnel.h"
#include "proxy/flows_file.h"
#include "cnpproxy_fp.h"
#include "proxy/xdp/guard.h"
#include "proxy/xdp/xlate.h"
#include "proxy/xdp/learn.h"
#include "proxy/proxy.h"
#include "rib/lookup.h"
#include "rib/rib.h"
#include "proxy/flows.h"
#include "cnpproxy_version.h"
#include "cnpproxy_vty.h"
#include "cnpproxy_zebra.h"

#include "cnpproxyd/cnpproxy_vty_clippy.c"

#define CNPPROXY_STR "Congestion notification proxy (cnpproxyd)\n"

/*
 * Whether an enabled role runs, and if not why; the status never implies
 * that an enabled role does something it does not.
 */
static const char *role_not_operational(enum pnc_role r)
{
	if (r == PNC_ROLE_PROXY)
		return cnpproxy_proxy_not_operational();
	return cnpproxy_cp_not_operational();
}

static void time_str(time_t t, char *buf, size_t len)
{
	struct tm tm;

	if (!t) {
		strlcpy(buf, "never", len);
		return;
	}
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/*
 * A per-interface program in the status (border filter, tunnel egress):
 * on how many of its interfaces it works, and why not on all.
 */
struct status_attachment {
	const char *key;     /* its JSON object */
	const char *working; /* its JSON count of the interfaces it works on */
	const char *label;   /* its text line */
	void (*count)(unsigned int *n_configured, unsigned int *attached);
	const char *(*not_operational)(void);
};

static const struct status_attachment status_attachments[] = {
	{ "border", "filtering", "border filter", cnpproxy_border_count,
	  cnpproxy_border_not_operational },
	{ "tunnelEgress", "decapsulating", "tunnel egress", cnpproxy_egress_count,
	  cnpproxy_egress_not_operational },
};

static void attachments_status(struct vty *vty, json_object *json)
{
	for (size_t i = 0; i < array_size(status_attachments); i++) {
		const struct status_attachment *sa = &status_attachments[i];
		const char *why = sa->not_operational();
		unsigned int n, attached;
		json_object *j;

		sa->count(&n, &attached);
		if (!n)
			continue;
		if (!json) {
			vty_out(vty, "  %s: %u of %u interfaces%s%s\n", sa->label, attached, n,
				why ? ", " : "", why ? why : "");
			continue;
		}
		j = json_object_new_object();
		json_object_int_add(j, "interfaces", n);
		json_object_int_add(j, sa->working, attached);
		if (why)
			json_object_string_add(j, "reason", why);
		json_object_object_add(json, sa->key, j);
	}
}

DEFPY(show_cnpproxy_status, show_cnpproxy_status_cmd,
      "show cnpproxy status [json$uj]",
      SHOW_STR
      CNPPROXY_STR
      "Daemon status: version, zebra session, configured roles\n"
      JSON_STR)
{
	const struct cnpproxy_zebra_state *zs = cnpproxy_zebra_state();
	const struct pnc_config *cfg = &cnpproxy_g.cfg;
	char since[32];
	enum pnc_role r;

	time_str(zs->last_change, since, sizeof(since));

	if (uj) {
		json_object *json = json_object_new_object();
		json_object *jz = json_object_new_object();
		json_object *jroles = json_object_new_object();
		json_object *jports = json_object_new_object();

		json_object_string_add(json, "version", CNPPROXYD_VERSION);
		json_object_string_add(json, "frrVersion", FRR_VERSION);

		json_object_string_add(jz, "session", zs->up ? "up" : "down");
		json_object_string_add(jz, "lastChange", since);
		json_object_int_add(jz, "connects", zs->connects);
		json_object_int_add(jz, "disconnects", zs->disconnects);
		json_object_object_add(json, "zebra", jz);

		json_object_boolean_add(json, "configured", cfg->present);
		for (r = 0; r < PNC_ROLE_MAX; r++) {
			json_object *jr = json_object_new_object();

			const char *why = role_not_operational(r);

			json_object_boolean_add(jr, "enabled", cfg->role[r]);
			json_object_boolean_add(jr, "operational", cfg->role[r] && !why);
			if (cfg->role[r] && why)
				json_object_string_add(jr, "reason", why);
			json_object_object_add(jroles, pnc_role_json_key(r), jr);
		}
		json_object_object_add(json, "roles", jroles);

		if (cfg->role[PNC_ROLE_PROXY]) {
			const struct pnc_proxy_config *pc = &cfg->proxy;
			json_object *jp = json_object_new_object(), *jl = json_object_new_array();
			char a[INET6_ADDRSTRLEN];

			if (pc->src4_set)
				json_object_string_add(jp, "sourceIpv4",
						       inet_ntop(AF_INET, pc->src4, a, sizeof(a)));
			if (pc->src6_set)
				json_object_string_add(jp, "sourceIpv6",
						       inet_ntop(AF_INET6, pc->src6, a, sizeof(a)));
			if (pc->accept_plist[0])
				json_object_string_add(jp, "acceptPrefixList", pc->accept_plist);
			json_object_int_add(jp, "cnpMinIntervalUs", pc->cnp_min_interval_us);
			json_object_int_add(jp, "cnpDscp", pc->cnp_dscp);
			json_object_int_add(jp, "rateLimitPerSource", pc->rl_per_source);
			json_object_int_add(jp, "rateLimitGlobal", pc->rl_global);
			for (unsigned int i = 0; i < pc->n_learn_if; i++)
				json_object_array_add(jl, json_object_new_string(pc->learn_if[i]));
			json_object_object_add(jp, "learnInterfaces", jl);
			jl = json_object_new_array();
			for (unsigned int i = 0; i < pc->n_filter_if; i++)
				json_object_array_add(jl, json_object_new_string(pc->filter_if[i]));
			json_object_object_add(jp, "filterInterfaces", jl);
			json_object_string_add(jp, "fastPath",
					       cnpproxy_fast_path_name(pc->fast_path));
			json_object_int_add(jp, "flowTableSize", pc->flow_table_size);
			json_object *jproxy = NULL;

			json_object_object_get_ex(jroles, "proxy", &jproxy);
			json_object_object_add(jproxy, "settings", jp);
		}

		json_object_int_add(jports, "notification", cfg->notification_port);
		json_object_int_add(jports, "flowLabel", cfg->flow_label_port);
		json_object_int_add(jports, "notificationIcmpType", cfg->notification_icmp_type);
		json_object_int_add(jports, "notificationIcmpv6Type", cfg->notification_icmp6_type);
		json_object_object_add(json, "ports", jports);
		attachments_status(vty, json);
		cnpproxy_guard_show(vty, json);
		cnpproxy_xlate_show(vty, json);

		vty_json(vty, json);
		return CMD_SUCCESS;
	}

	vty_out(vty, "cnpproxyd %s (FRR %s)\n", CNPPROXYD_VERSION, FRR_VERSION);
	vty_out(vty, "  zebra session: %s since %s (%u connects, %u disconnects)\n",
		zs->up ? "up" : "down", since, zs->connects, zs->disconnects);
	vty_out(vty, "  configuration: %s\n", cfg->present ? "router cnpproxy" : "none");
	for (r = 0; r < PNC_ROLE_MAX; r++) {
		const char *why = role_not_operational(r);

		if (cfg->role[r] && why)
			vty_out(vty, "  role %s: enabled, not operational (%s)\n",
				pnc_role_name(r), why);
		else if (cfg->role[r])
			vty_out(vty, "  role %s: enabled, operational\n", pnc_role_name(r));
		else
			vty_out(vty, "  role %s: disabled\n", pnc_role_name(r));
	}
	vty_out(vty, "  notification port: %u, flow-label port: %u\n", cfg->notification_port,
		cfg->flow_label_port);
	attachments_status(vty, NULL);
	cnpproxy_guard_show(vty, NULL);
	cnpproxy_xlate_show(vty, NULL);
	return CMD_SUCCESS;
}

static const char *source_str(enum pnc_pt_source source)
{
	return source == PNC_PT_SOURCE_LEARNED ? "learned" : "static";
}

/* The protocol that signalled a learned entry; "config" for static ones. */
static const char *origin_str(const struct pnc_pt_entry *e)
{
	return e->source == PNC_PT_SOURCE_LEARNED ? zebra_route_string(e->origin) : "config";
}

/* One entry as JSON; the caller adds the prefix where it needs it. */
static json_object *proxy_entry_json(const struct pnc_pt_entry *e)
{
	json_object *j = json_object_new_object();
	char buf[INET6_ADDRSTRLEN];
	char since[32];

	time_str(e->since, since, sizeof(since));
	json_object_string_add(j, "proxy", cnpproxy_rib_addr2str(&e->proxy, buf, sizeof(buf)));
	json_object_string_add(j, "source", source_str(e->source));
	json_object_string_add(j, "origin", origin_str(e));
	json_object_boolean_add(j, "proxyHost", CHECK_FLAG(e->flags, ZAPI_PNC_FLAG_PROXY_HOST));
	json_object_string_add(j, "since", since);
	return j;
}

DEFPY(show_cnpproxy_proxies, show_cnpproxy_proxies_cmd,
      "show cnpproxy proxies [json$uj]",
      SHOW_STR
      CNPPROXY_STR
      "Proxy table: which proxy serves which sender prefix\n"
      JSON_STR)
{
	const struct pnc_pt_table *pt = cnpproxy_rib_table();
	const struct cnpproxy_rib_stats *st = cnpproxy_rib_counters();
	json_object *json = NULL, *jentries = NULL;
	size_t i;

	if (uj)
		jentries = json_object_new_object();
	else
		vty_out(vty, "%-43s %-39s %-8s %-8s %s\n", "Prefix", "Proxy", "Source", "Origin",
			"Since");

	for (i = 0; i < pt->count; i++) {
		const struct pnc_pt_entry *e = &pt->entries[i];
		char pfx[INET6_ADDRSTRLEN + 5];
		char addr[INET6_ADDRSTRLEN];
		char since[32];

		cnpproxy_rib_prefix2str(&e->prefix, pfx, sizeof(pfx));
		if (jentries) {
			json_object *list = NULL;

			if (!json_object_object_get_ex(jentries, pfx, &list)) {
				list = json_object_new_array();
				json_object_object_add(jentries, pfx, list);
			}
			json_object_array_add(list, proxy_entry_json(e));
			continue;
		}
		time_str(e->since, since, sizeof(since));
		vty_out(vty, "%-43s %-39s %-8s %-8s %s\n", pfx,
			cnpproxy_rib_addr2str(&e->proxy, addr, sizeof(addr)),
			source_str(e->source), origin_str(e), since);
	}

	if (jentries) {
		json = json_object_new_object();
		json_object_object_add(json, "proxies", jentries);
		json_object_int_add(json, "count", pt->count);
		json_object_int_add(json, "learnedChanges", st->learned_add);
		json_object_int_add(json, "learnedRemovals", st->learned_del);
		json_object_int_add(json, "pncWithoutProxyAddress", st->no_proxy_addr);
		json_object_int_add(json, "routesWithoutPnc", st->without_pnc);
		cnpproxy_lookup_show(vty, json);
		vty_json(vty, json);
	} else {
		vty_out(vty,
			"%zu entries (learned from zebra: %" PRIu64 " changes, %" PRIu64
			" removals, %" PRIu64 " PNC without proxy address, %" PRIu64
			" routes without PNC)\n",
			pt->count, st->learned_add, st->learned_del, st->no_proxy_addr,
			st->without_pnc);
		cnpproxy_lookup_show(vty, NULL);
	}
	return CMD_SUCCESS;
}

DEFPY(show_cnpproxy_lookup, show_cnpproxy_lookup_cmd,
      "show cnpproxy lookup <A.B.C.D|X:X::X:X>$addr [json$uj]",
      SHOW_STR
      CNPPROXY_STR
      "Which proxy serves a sender address (longest prefix match)\n"
      "IPv4 sender address\n"
      "IPv6 sender address\n"
      JSON_STR)
{
	const struct pnc_pt_entry *e = NULL;
	struct pnc_pt_addr a;
	char pfx[INET6_ADDRSTRLEN + 5];
	char buf[INET6_ADDRSTRLEN];

	struct ipaddr ip;

	if (str2ipaddr(addr_str, &ip) == 0 && cnpproxy_rib_addr(&a, &ip))
		e = cnpproxy_lookup(&a);

	if (uj) {
		json_object *json = e ? proxy_entry_json(e) : json_object_new_object();

		json_object_string_add(json, "address", addr_str);
		json_object_boolean_add(json, "found", e != NULL);
		if (e)
			json_object_string_add(json, "prefix",
					       cnpproxy_rib_prefix2str(&e->prefix, pfx,
								       sizeof(pfx)));
		vty_json(vty, json);
		return CMD_SUCCESS;
	}
	if (!e) {
		vty_out(vty, "%s: no proxy\n", addr_str);
		return CMD_SUCCESS;
	}
	vty_out(vty, "%s: proxy %s, through %s %s (%s)\n", addr_str,
		cnpproxy_rib_addr2str(&e->proxy, buf, sizeof(buf)), source_str(e->source),
		cnpproxy_rib_prefix2str(&e->prefix, pfx, sizeof(pfx)), origin_str(e));
	return CMD_SUCCESS;
}

DEFPY(debug_cnpproxy, debug_cnpproxy_cmd,
      "[no] debug cnpproxy [{zebra$zebra|northbound$nb|proxy$proxy|congestion$cong}]",
      NO_STR
      DEBUG_STR
      CNPPROXY_STR
      "Zebra session events\n"
      "Configuration changes\n"
      "Proxy role: refused notifications and CNPs sent (rate-limited)\n"
      "Congestion point: queue states and notifications sent (rate-limited)\n")
{
	uint32_t mode = DEBUG_NODE2MODE(vty->node);
	bool all = !zebra && !nb && !proxy && !cong;

	if (all || zebra)
		DEBUG_MODE_SET(&cnpproxy_dbg_zebra, mode, !no);
	if (all || nb)
		DEBUG_MODE_SET(&cnpproxy_dbg_nb, mode, !no);
	if (all || proxy)
		DEBUG_MODE_SET(&cnpproxy_dbg_proxy, mode, !no);
	if (all || cong)
		DEBUG_MODE_SET(&cnpproxy_dbg_cp, mode, !no);
	return CMD_SUCCESS;
}

static int show_debugging(struct vty *vty)
{
	vty_out(vty, "cnpproxyd debugging status:\n");
	cmd_show_lib_debugs(vty);
	return CMD_SUCCESS;
}

/* What vtysh's own "show debugging" asks every daemon. */
DEFUN_NOSH(show_debugging_cnpproxy_all, show_debugging_cnpproxy_all_cmd,
	   "show debugging",
	   SHOW_STR
	   DEBUG_STR)
{
	return show_debugging(vty);
}

/* Not _NOSH, unlike other daemons' [DAEMON] form: vtysh must know it. */
DEFUN(show_debugging_cnpproxy, show_debugging_cnpproxy_cmd,
      "show debugging cnpproxy",
      SHOW_STR
      DEBUG_STR
      CNPPROXY_STR)
{
	return show_debugging(vty);
}

DEFPY(show_cnpproxy_counters, show_cnpproxy_counters_cmd,
      "show cnpproxy counters [json$uj]",
      SHOW_STR
      CNPPROXY_STR
      "What happened to received congestion notifications\n"
      JSON_STR)
{
	json_object *json = NULL, *jm = NULL;
	struct cnpproxy_proxy_counters v;

	cnpproxy_proxy_counter_values(&v);
	if (uj) {
		json = json_object_new_object();
		jm = json_object_new_object();
	} else {
		vty_out(vty, "Proxy role:\n");
	}
	for (int c = 0; c < CNPPROXY_PROXY_COUNTER_MAX; c++) {
		if (json)
			json_object_int_add(json, cnpproxy_proxy_counter_name(c), v.c[c]);
		else
			vty_out(vty, "  %-28s %" PRIu64 "\n", cnpproxy_proxy_counter_name(c),
				v.c[c]);
	}
	/* Malformed notifications by the codec's reason. */
	for (int e = 1; e < PNC_CODEC_NERR; e++) {
		if (!v.malformed[e])
			continue;
		if (json)
			json_object_int_add(jm, pnc_codec_strerror(-e), v.malformed[e]);
		else
			vty_out(vty, "    malformed, %-20s %" PRIu64 "\n", pnc_codec_strerror(-e),
				v.malformed[e]);
	}
	if (json)
		json_object_object_add(json, "malformedByReason", jm);
	cnpproxy_learn_show(vty, json);
	cnpproxy_flows_file_show(vty, json);
	if (json)
		vty_json(vty, json);
	return CMD_SUCCESS;
}

DEFPY(clear_cnpproxy_counters, clear_cnpproxy_counters_cmd,
      "clear cnpproxy counters",
      CLEAR_STR
      CNPPROXY_STR
      "Notification counters\n")
{
	cnpproxy_proxy_counters_clear();
	cnpproxy_cp_counters_clear();
	cnpproxy_border_counters_clear();
	cnpproxy_egress_counters_clear();
	cnpproxy_tunnel_counters_clear();
	return CMD_SUCCESS;
}

struct flows_walk {
	struct vty *vty;
	json_object *jarr;
};

static void flow_show(const struct pnc_flow *f, void *arg)
{
	struct flows_walk *w = arg;
	int family = f->ip_version == 4 ? AF_INET : AF_INET6;
	char snd[INET6_ADDRSTRLEN], rcv[INET6_ADDRSTRLEN];
	const char *how = f->source == PNC_FLOW_CM ? "cm" : "psn";

	inet_ntop(family, f->sender, snd, sizeof(snd));
	inet_ntop(family, f->receiver, rcv, sizeof(rcv));
	if (w->jarr) {
		json_object *j = json_object_new_object();

		json_object_string_add(j, "sender", snd);
		json_object_int_add(j, "senderQp", f->sender_qpn);
		json_object_string_add(j, "receiver", rcv);
		json_object_int_add(j, "receiverQp", f->receiver_qpn);
		json_object_int_add(j, "pkey", f->pkey);
		json_object_string_add(j, "learnedBy", how);
		json_object_int_add(j, "packets", f->packets);
		json_object_array_add(w->jarr, j);
		return;
	}
	vty_out(w->vty, "%-39s 0x%06x  %-39s 0x%06x  0x%04x  %-3s %" PRIu64 "\n", snd,
		f->sender_qpn, rcv, f->receiver_qpn, f->pkey, how, f->packets);
}

DEFPY(show_cnpproxy_flows, show_cnpproxy_flows_cmd,
      "show cnpproxy flows [json$uj]",
      SHOW_STR
      CNPPROXY_STR
      "RoCEv2 queue pairs learned from the senders' traffic\n"
      JSON_STR)
{
	const struct pnc_flow_table *t = cnpproxy_proxy_flows();
	struct flows_walk w = { .vty = vty };

	if (uj)
		w.jarr = json_object_new_array();
	else
		vty_out(vty, "%-39s %-8s  %-39s %-8s  %-6s  %-3s %s\n", "Sender", "QP", "Receiver",
			"QP", "P_Key", "By", "Packets");
	/*
	 * Without the fast path's mutex: this thread is the only one that
	 * changes the table, and the fast path waits for nothing.
	 */
	if (t)
		pnc_flow_table_walk(t, flow_show, &w);
	if (uj) {
		json_object *json = json_object_new_object();

		json_object_object_add(json, "flows", w.jarr);
		json_object_int_add(json, "count", pnc_flow_table_count(t));
		json_object_int_add(json, "capacity", pnc_flow_table_capacity(t));
		json_object_int_add(json, "bytes", pnc_flow_table_bytes(t));
		vty_json(vty, json);
	} else if (t) {
		vty_out(vty, "%zu of %zu flows, the table holds %zu bytes\n",
			pnc_flow_table_count(t), pnc_flow_table_capacity(t),
			pnc_flow_table_bytes(t));
	}
	return CMD_SUCCESS;
}

DEFPY(show_cnpproxy_flow_labels, show_cnpproxy_flow_labels_cmd,
      "show cnpproxy flow-labels [json$uj]",
      SHOW_STR
      CNPPROXY_STR
      "Proxy role: flow labels allocated by the flow-label tunnel\n"
      JSON_STR)
{
	json_object *json = uj ? json_object_new_object() : NULL;

	cnpproxy_tunnel_show(vty, json);
	if (json)
		vty_json(vty, json);
	return CMD_SUCCESS;
}

void cnpproxy_vty_init(void)
{
	install_element(VIEW_NODE, &show_cnpproxy_flow_labels_cmd);
	install_element(VIEW_NODE, &show_cnpproxy_counters_cmd);
	install_element(VIEW_NODE, &show_cnpproxy_flows_cmd);
	install_element(ENABLE_NODE, &clear_cnpproxy_counters_cmd);
	install_element(VIEW_NODE, &show_cnpproxy_status_cmd);
	install_element(VIEW_NODE, &show_cnpproxy_proxies_cmd);
	install_element(VIEW_NODE, &show_cnpproxy_lookup_cmd);
	install_element(ENABLE_NODE, &debug_cnpproxy_cmd);
	install_element(CONFIG_NODE, &debug_cnpproxy_cmd);
	install_element(ENABLE_NODE, &show_debugging_cnpproxy_all_cmd);
	install_element(ENABLE_NODE, &show_debugging_cnpproxy_cmd);
}
