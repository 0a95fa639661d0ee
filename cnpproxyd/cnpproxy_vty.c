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
#include "cnpproxy_debug.h"
#include "cnpproxy_proxies.h"
#include "cnpproxy_version.h"
#include "cnpproxy_vty.h"
#include "cnpproxy_zebra.h"

#include "cnpproxyd/cnpproxy_vty_clippy.c"

#define CNPPROXY_STR "Congestion notification proxy (cnpproxyd)\n"

/*
 * Neither role's packet pipeline exists in this version; the status says
 * so instead of implying that an enabled role does anything.
 */
static const char *const role_not_operational = "packet path not implemented in this version";

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

DEFPY(show_cnpproxy_status, show_cnpproxy_status_cmd,
      "show cnpproxy status [json$uj]",
      SHOW_STR
      CNPPROXY_STR
      "Daemon status: version, zebra session, configured roles\n"
      JSON_STR)
{
	const struct cnpproxy_zebra_state *zs = cnpproxy_zebra_state();
	const struct cnp_config *cfg = &cnp_g.cfg;
	char since[32];
	enum cnp_role r;

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
		for (r = 0; r < CNP_ROLE_MAX; r++) {
			json_object *jr = json_object_new_object();

			json_object_boolean_add(jr, "enabled", cfg->role[r]);
			json_object_boolean_add(jr, "operational", false);
			if (cfg->role[r])
				json_object_string_add(jr, "reason", role_not_operational);
			json_object_object_add(jroles, cnp_role_json_key(r), jr);
		}
		json_object_object_add(json, "roles", jroles);

		json_object_int_add(jports, "notification", cfg->notification_port);
		json_object_int_add(jports, "flowLabel", cfg->flow_label_port);
		json_object_object_add(json, "ports", jports);

		vty_json(vty, json);
		return CMD_SUCCESS;
	}

	vty_out(vty, "cnpproxyd %s (FRR %s)\n", CNPPROXYD_VERSION, FRR_VERSION);
	vty_out(vty, "  zebra session: %s since %s (%u connects, %u disconnects)\n",
		zs->up ? "up" : "down", since, zs->connects, zs->disconnects);
	vty_out(vty, "  configuration: %s\n", cfg->present ? "router cnpproxy" : "none");
	for (r = 0; r < CNP_ROLE_MAX; r++) {
		if (cfg->role[r])
			vty_out(vty, "  role %s: enabled, not operational (%s)\n",
				cnp_role_name(r), role_not_operational);
		else
			vty_out(vty, "  role %s: disabled\n", cnp_role_name(r));
	}
	vty_out(vty, "  notification port: %u, flow-label port: %u\n", cfg->notification_port,
		cfg->flow_label_port);
	return CMD_SUCCESS;
}

static const char *source_str(enum pt_source source)
{
	return source == PT_SOURCE_LEARNED ? "learned" : "static";
}

/* The protocol that signalled a learned entry; "config" for static ones. */
static const char *origin_str(const struct pt_entry *e)
{
	return e->source == PT_SOURCE_LEARNED ? zebra_route_string(e->origin) : "config";
}

/* One entry as JSON; the caller adds the prefix where it needs it. */
static json_object *proxy_entry_json(const struct pt_entry *e)
{
	json_object *j = json_object_new_object();
	char buf[INET6_ADDRSTRLEN];
	char since[32];

	time_str(e->since, since, sizeof(since));
	json_object_string_add(j, "proxy", cnpproxy_pt_addr2str(&e->proxy, buf, sizeof(buf)));
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
	json_object *json = NULL;
	size_t i;

	if (uj)
		json = json_object_new_object();
	else
		vty_out(vty, "%-43s %-39s %-8s %-8s %s\n", "Prefix", "Proxy", "Source", "Origin",
			"Since");

	for (i = 0; i < cnp_proxies.count; i++) {
		const struct pt_entry *e = &cnp_proxies.entries[i];
		char pfx[INET6_ADDRSTRLEN + 5];
		char addr[INET6_ADDRSTRLEN];
		char since[32];

		cnpproxy_pt_prefix2str(&e->prefix, pfx, sizeof(pfx));
		if (json) {
			json_object *list = NULL;

			if (!json_object_object_get_ex(json, pfx, &list)) {
				list = json_object_new_array();
				json_object_object_add(json, pfx, list);
			}
			json_object_array_add(list, proxy_entry_json(e));
			continue;
		}
		time_str(e->since, since, sizeof(since));
		vty_out(vty, "%-43s %-39s %-8s %-8s %s\n", pfx,
			cnpproxy_pt_addr2str(&e->proxy, addr, sizeof(addr)), source_str(e->source),
			origin_str(e), since);
	}

	if (json)
		vty_json(vty, json);
	else
		vty_out(vty,
			"%zu entries (learned from zebra: %" PRIu64 " changes, %" PRIu64
			" removals, %" PRIu64 " PNC without proxy address)\n",
			cnp_proxies.count, cnp_proxies_stats.learned_add,
			cnp_proxies_stats.learned_del, cnp_proxies_stats.no_proxy_addr);
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
	const struct pt_entry *e = NULL;
	struct pt_addr a;
	char pfx[INET6_ADDRSTRLEN + 5];
	char buf[INET6_ADDRSTRLEN];

	struct ipaddr ip;

	if (str2ipaddr(addr_str, &ip) == 0 && cnpproxy_pt_addr(&a, &ip))
		e = pt_lookup(&cnp_proxies, &a);

	if (uj) {
		json_object *json = e ? proxy_entry_json(e) : json_object_new_object();

		json_object_string_add(json, "address", addr_str);
		json_object_boolean_add(json, "found", e != NULL);
		if (e)
			json_object_string_add(json, "prefix",
					       cnpproxy_pt_prefix2str(&e->prefix, pfx,
								      sizeof(pfx)));
		vty_json(vty, json);
		return CMD_SUCCESS;
	}
	if (!e) {
		vty_out(vty, "%s: no proxy\n", addr_str);
		return CMD_SUCCESS;
	}
	vty_out(vty, "%s: proxy %s, through %s %s (%s)\n", addr_str,
		cnpproxy_pt_addr2str(&e->proxy, buf, sizeof(buf)), source_str(e->source),
		cnpproxy_pt_prefix2str(&e->prefix, pfx, sizeof(pfx)), origin_str(e));
	return CMD_SUCCESS;
}

DEFPY(debug_cnpproxy, debug_cnpproxy_cmd,
      "[no] debug cnpproxy [{zebra$zebra|northbound$nb}]",
      NO_STR
      DEBUG_STR
      CNPPROXY_STR
      "Zebra session events\n"
      "Configuration changes\n")
{
	uint32_t mode = DEBUG_NODE2MODE(vty->node);
	bool all = !zebra && !nb;

	if (all || zebra)
		DEBUG_MODE_SET(&cnp_dbg_zebra, mode, !no);
	if (all || nb)
		DEBUG_MODE_SET(&cnp_dbg_nb, mode, !no);
	return CMD_SUCCESS;
}

DEFUN_NOSH(show_debugging_cnpproxy, show_debugging_cnpproxy_cmd,
	   "show debugging [cnpproxy]",
	   SHOW_STR
	   DEBUG_STR
	   CNPPROXY_STR)
{
	vty_out(vty, "cnpproxyd debugging status:\n");
	cmd_show_lib_debugs(vty);
	return CMD_SUCCESS;
}

void cnpproxy_vty_init(void)
{
	install_element(VIEW_NODE, &show_cnpproxy_status_cmd);
	install_element(VIEW_NODE, &show_cnpproxy_proxies_cmd);
	install_element(VIEW_NODE, &show_cnpproxy_lookup_cmd);
	install_element(ENABLE_NODE, &debug_cnpproxy_cmd);
	install_element(CONFIG_NODE, &debug_cnpproxy_cmd);
	install_element(ENABLE_NODE, &show_debugging_cnpproxy_cmd);
}
