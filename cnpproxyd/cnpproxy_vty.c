// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd operational commands: show cnpproxy ..., debug cnpproxy ...
 */
#include <zebra.h>

#include "lib/command.h"
#include "lib/json.h"
#include "lib/vty.h"
#include "lib/version.h"

#include "cnpproxyd.h"
#include "cnpproxy_debug.h"
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
	install_element(ENABLE_NODE, &debug_cnpproxy_cmd);
	install_element(CONFIG_NODE, &debug_cnpproxy_cmd);
	install_element(ENABLE_NODE, &show_debugging_cnpproxy_cmd);
}
