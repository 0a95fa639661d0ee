// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd tunnel egress: configuration, interface events, show.
 *
 * The decapsulation program (tunnel/tunnel.bpf.c) runs on the ingress of the
 * core-facing interfaces and removes the outer IPv6 header of packets to
 * the configured SIDs, applying seed 003's modified pipe to the ECN
 * field.  The inner packet is then routed as usual.
 */
#include <zebra.h>

#include <net/if.h>

#include "lib/command.h"
#include "lib/frrevent.h"
#include "lib/json.h"
#include "lib/log.h"
#include "lib/privs.h"
#include "lib/vty.h"

#include "tunnel/tunnel_tc.h"

#include "cnpproxyd.h"
#include "cnpproxy_attach.h"
#include "tunnel/egress.h"
#include "cnpproxy_if.h"

#include "cnpproxyd/tunnel/egress_clippy.c"

#define DECAP_RETRY_S 5

static int egress_attach(void *prog, int ifindex, unsigned int flags)
{
	return pnc_tunnel_attach_decap(prog, ifindex);
}

static void egress_detach(void *prog, int ifindex)
{
	pnc_tunnel_detach_decap(prog, ifindex);
}

static void egress_attached(void *prog, const struct cnpproxy_attach_if *ai)
{
	zlog_info("cnpproxyd: tunnel egress on %s", ai->name);
}

static void egress_retry(void);

static const struct cnpproxy_attach_ops egress_ops = {
	.attach = egress_attach,
	.detach = egress_detach,
	.attached = egress_attached,
	.retry = egress_retry,
};

static struct {
	const struct pnc_config *cfg; /* the last apply's */
	struct pnc_tunnel_tc *fe;
	/* The SIDs the program was loaded with: a change reloads it. */
	uint8_t sids[PNC_EGRESS_SID_MAX][16];
	unsigned int n_sids;
	struct cnpproxy_attach_if ifs[PNC_EGRESS_IF_MAX];
	struct cnpproxy_attach_set set;
} egress = {
	.cfg = &pnc_config_off,
	.set = CNPPROXY_ATTACH_SET("tunnel egress", &egress_ops, egress.ifs, DECAP_RETRY_S),
};

static void egress_close(void)
{
	cnpproxy_attach_clear(&egress.set, egress.fe);
	if (egress.fe) {
		frr_with_privs (&cnpproxy_privs) {
			pnc_tunnel_close(egress.fe);
		}
	}
	egress.fe = NULL;
	egress.n_sids = 0;
}

/* Load the program for the configured SIDs, unless it runs with them. */
static bool egress_load(const struct pnc_config *cfg)
{
	if (egress.fe && egress.n_sids == cfg->n_egress_sid &&
	    !memcmp(egress.sids, cfg->egress_sid, cfg->n_egress_sid * 16))
		return true;
	egress_close();
	frr_with_privs (&cnpproxy_privs) {
		egress.fe = pnc_tunnel_open(NULL);
	}
	if (!egress.fe) {
		egress.set.error = "cannot load the decapsulation program";
		zlog_warn("cnpproxyd: cannot load the decapsulation program: %s",
			  safe_strerror(errno));
		return false;
	}
	for (unsigned int i = 0; i < cfg->n_egress_sid; i++) {
		if (pnc_tunnel_add_sid(egress.fe, cfg->egress_sid[i])) {
			egress.set.error = "cannot add a SID to the decapsulation program";
			return false;
		}
	}
	memcpy(egress.sids, cfg->egress_sid, sizeof(egress.sids));
	egress.n_sids = cfg->n_egress_sid;
	return true;
}

void cnpproxy_egress_apply(const struct pnc_config *cfg)
{
	egress.cfg = cfg;
	egress.set.error = NULL;
	if (!cfg->present || !cfg->n_egress_if || !cfg->n_egress_sid) {
		egress_close();
		if (cfg->present && cfg->n_egress_if)
			egress.set.error = "no tunnel-egress sid: nothing to decapsulate";
		return;
	}
	if (!egress_load(cfg))
		return;
	cnpproxy_attach_sync(&egress.set, egress.fe, cfg->egress_if, NULL, cfg->n_egress_if);
}

static void egress_retry(void)
{
	cnpproxy_egress_apply(egress.cfg);
}

static void egress_if_changed(const char *ifname, int ifindex)
{
	const struct pnc_config *cfg = egress.cfg;

	if (cnpproxy_attach_if_changed(&egress.set, egress.fe, cfg->egress_if, cfg->n_egress_if,
				       ifname, ifindex))
		egress_retry();
}

const char *cnpproxy_egress_not_operational(void)
{
	return cnpproxy_attach_not_operational(&egress.set);
}

void cnpproxy_egress_count(unsigned int *configured, unsigned int *attached)
{
	*configured = egress.cfg->present ? egress.cfg->n_egress_if : 0;
	*attached = cnpproxy_attach_count(&egress.set);
}

void cnpproxy_egress_counters_clear(void)
{
	if (egress.fe)
		pnc_tunnel_counters_clear(egress.fe);
}

/* The decapsulation counters, by their JSON names. */
static const struct {
	enum pnc_tunnel_counter c;
	const char *json;
} egress_counters[] = {
	{ PNC_TUNNEL_C_DECAP_PKTS, "packets" },
	{ PNC_TUNNEL_C_DECAP_PASSED, "passed" },
	{ PNC_TUNNEL_C_DECAP, "decapsulated" },
	{ PNC_TUNNEL_C_DECAP_CE, "ceCopiedInward" },
	{ PNC_TUNNEL_C_DECAP_DROP, "droppedCeNotEct" },
	{ PNC_TUNNEL_C_DECAP_ERR, "errors" },
};

DEFPY(show_cnpproxy_tunnel_egress, show_cnpproxy_tunnel_egress_cmd,
      "show cnpproxy tunnel-egress [json$uj]",
      SHOW_STR
      "Congestion notification proxy (cnpproxyd)\n"
      "Tunnel egress: decapsulation with the modified pipe\n"
      JSON_STR)
{
	const struct pnc_config *cfg = egress.cfg;
	struct pnc_tunnel_counters c = {};
	const char *why = cnpproxy_egress_not_operational();
	json_object *json = NULL, *jifs = NULL, *jsids = NULL, *jc = NULL;
	char a[INET6_ADDRSTRLEN];

	if (egress.fe)
		pnc_tunnel_counters(egress.fe, &c);
	if (uj) {
		json = json_object_new_object();
		jifs = json_object_new_object();
		jsids = json_object_new_array();
		jc = json_object_new_object();
		json_object_boolean_add(json, "operational", cfg->n_egress_if && !why);
		if (why)
			json_object_string_add(json, "reason", why);
	} else {
		vty_out(vty, "Tunnel egress: %s%s%s\n",
			!cfg->n_egress_if ? "not configured"
			: why		  ? "not operational"
					  : "decapsulating",
			why ? ", " : "", why ? why : "");
		vty_out(vty, "  SIDs:");
	}
	for (unsigned int i = 0; i < egress.n_sids; i++) {
		inet_ntop(AF_INET6, egress.sids[i], a, sizeof(a));
		if (uj)
			json_object_array_add(jsids, json_object_new_string(a));
		else
			vty_out(vty, " %s", a);
	}
	if (!uj)
		vty_out(vty, "\n");
	for (unsigned int i = 0; i < egress.set.n; i++) {
		const struct cnpproxy_attach_if *di = &egress.ifs[i];
		const char *state = di->ifindex ? "decapsulating"
				    : di->error ? di->error
						: "not attached";

		if (uj)
			json_object_string_add(jifs, di->name, state);
		else
			vty_out(vty, "  interface %s: %s\n", di->name, state);
	}
	for (size_t k = 0; k < array_size(egress_counters); k++) {
		uint64_t v = c.v[egress_counters[k].c];

		if (uj)
			json_object_int_add(jc, egress_counters[k].json, v);
		else
			vty_out(vty, "  %-20s %" PRIu64 "\n", egress_counters[k].json, v);
	}
	if (uj) {
		json_object_object_add(json, "sids", jsids);
		json_object_object_add(json, "interfaces", jifs);
		json_object_object_add(json, "counters", jc);
		vty_json(vty, json);
	}
	return CMD_SUCCESS;
}

bool cnpproxy_egress_attachment(unsigned int i, struct cnpproxy_attach_if *out)
{
	return cnpproxy_attach_view(&egress.set, i, out);
}

void cnpproxy_egress_init(void)
{
	cnpproxy_if_watch(egress_if_changed);
	install_element(VIEW_NODE, &show_cnpproxy_tunnel_egress_cmd);
}

void cnpproxy_egress_fini(void)
{
	egress_close();
}
