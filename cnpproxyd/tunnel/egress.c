// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd tunnel egress: configuration, interface events, show.
 *
 * The decapsulation program (tunnel/flenc.bpf.c) runs on the ingress of the
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

#include "tunnel/flenc_tc.h"

#include "cnpproxyd.h"
#include "cnpproxy_attach.h"
#include "tunnel/egress.h"
#include "cnpproxy_if.h"

#include "cnpproxyd/tunnel/egress_clippy.c"

#define DECAP_RETRY_S 5

static int decap_attach(void *prog, int ifindex, unsigned int flags)
{
	return pnc_flenc_attach_decap(prog, ifindex);
}

static void decap_detach(void *prog, int ifindex)
{
	pnc_flenc_detach_decap(prog, ifindex);
}

static void decap_attached(void *prog, const struct cnpproxy_attach_if *ai)
{
	zlog_info("cnpproxyd: tunnel egress on %s", ai->name);
}

static void decap_retry(void);

static const struct cnpproxy_attach_ops decap_ops = {
	.what = "tunnel egress",
	.attach_error = "cannot attach the decapsulation program",
	.attach = decap_attach,
	.detach = decap_detach,
	.attached = decap_attached,
	.retry = decap_retry,
};

static struct {
	const struct pnc_config *cfg; /* the last apply's */
	struct pnc_flenc_tc *fe;
	/* The SIDs the program was loaded with: a change reloads it. */
	uint8_t sids[PNC_TE_SID_MAX][16];
	unsigned int n_sids;
	struct cnpproxy_attach_if ifs[PNC_TE_IF_MAX];
	struct cnpproxy_attach_set set;
} decap = {
	.cfg = &pnc_config_off,
	.set = CNPPROXY_ATTACH_SET(&decap_ops, decap.ifs, DECAP_RETRY_S),
};

static void decap_close(void)
{
	cnpproxy_attach_clear(&decap.set, decap.fe);
	if (decap.fe) {
		frr_with_privs (&cnpproxy_privs) {
			pnc_flenc_close(decap.fe);
		}
	}
	decap.fe = NULL;
	decap.n_sids = 0;
}

/* Load the program for the configured SIDs, unless it runs with them. */
static bool decap_load(const struct pnc_config *cfg)
{
	if (decap.fe && decap.n_sids == cfg->n_te_sid &&
	    !memcmp(decap.sids, cfg->te_sid, cfg->n_te_sid * 16))
		return true;
	decap_close();
	frr_with_privs (&cnpproxy_privs) {
		decap.fe = pnc_flenc_open(NULL);
	}
	if (!decap.fe) {
		decap.set.error = "cannot load the decapsulation program";
		zlog_warn("cnpproxyd: cannot load the decapsulation program: %s",
			  safe_strerror(errno));
		return false;
	}
	for (unsigned int i = 0; i < cfg->n_te_sid; i++) {
		if (pnc_flenc_add_sid(decap.fe, cfg->te_sid[i])) {
			decap.set.error = "cannot add a SID to the decapsulation program";
			return false;
		}
	}
	memcpy(decap.sids, cfg->te_sid, sizeof(decap.sids));
	decap.n_sids = cfg->n_te_sid;
	return true;
}

void cnpproxy_egress_apply(const struct pnc_config *cfg)
{
	decap.cfg = cfg;
	decap.set.error = NULL;
	if (!cfg->present || !cfg->n_te_if || !cfg->n_te_sid) {
		decap_close();
		if (cfg->present && cfg->n_te_if)
			decap.set.error = "no tunnel-egress sid: nothing to decapsulate";
		return;
	}
	if (!decap_load(cfg))
		return;
	cnpproxy_attach_sync(&decap.set, decap.fe, cfg->te_if, NULL, cfg->n_te_if);
}

static void decap_retry(void)
{
	cnpproxy_egress_apply(decap.cfg);
}

static void decap_if_changed(const char *ifname, int ifindex)
{
	const struct pnc_config *cfg = decap.cfg;

	if (cnpproxy_attach_if_changed(&decap.set, decap.fe, cfg->te_if, cfg->n_te_if, ifname,
				       ifindex))
		decap_retry();
}

const char *cnpproxy_egress_not_operational(void)
{
	return cnpproxy_attach_not_operational(&decap.set);
}

void cnpproxy_egress_count(unsigned int *configured, unsigned int *attached)
{
	*configured = decap.cfg->present ? decap.cfg->n_te_if : 0;
	*attached = cnpproxy_attach_count(&decap.set);
}

void cnpproxy_egress_counters_clear(void)
{
	if (decap.fe)
		pnc_flenc_counters_clear(decap.fe);
}

/* The decapsulation counters, by their JSON names. */
static const struct {
	enum pnc_flenc_counter c;
	const char *json;
} decap_counters[] = {
	{ PNC_FLENC_C_DECAP_PKTS, "packets" },	       { PNC_FLENC_C_DECAP_PASSED, "passed" },
	{ PNC_FLENC_C_DECAP, "decapsulated" },	       { PNC_FLENC_C_DECAP_CE, "ceCopiedInward" },
	{ PNC_FLENC_C_DECAP_DROP, "droppedCeNotEct" }, { PNC_FLENC_C_DECAP_ERR, "errors" },
};

DEFPY(show_cnpproxy_tunnel_egress, show_cnpproxy_tunnel_egress_cmd,
      "show cnpproxy tunnel-egress [json$uj]",
      SHOW_STR
      "Congestion notification proxy (cnpproxyd)\n"
      "Tunnel egress: decapsulation with the modified pipe\n"
      JSON_STR)
{
	const struct pnc_config *cfg = decap.cfg;
	struct pnc_flenc_counters c = {};
	const char *why = cnpproxy_egress_not_operational();
	json_object *json = NULL, *jifs = NULL, *jsids = NULL, *jc = NULL;
	char a[INET6_ADDRSTRLEN];

	if (decap.fe)
		pnc_flenc_counters(decap.fe, &c);
	if (uj) {
		json = json_object_new_object();
		jifs = json_object_new_object();
		jsids = json_object_new_array();
		jc = json_object_new_object();
		json_object_boolean_add(json, "operational", cfg->n_te_if && !why);
		if (why)
			json_object_string_add(json, "reason", why);
	} else {
		vty_out(vty, "Tunnel egress: %s%s%s\n",
			!cfg->n_te_if ? "not configured"
			: why	      ? "not operational"
				      : "decapsulating",
			why ? ", " : "", why ? why : "");
		vty_out(vty, "  SIDs:");
	}
	for (unsigned int i = 0; i < decap.n_sids; i++) {
		inet_ntop(AF_INET6, decap.sids[i], a, sizeof(a));
		if (uj)
			json_object_array_add(jsids, json_object_new_string(a));
		else
			vty_out(vty, " %s", a);
	}
	if (!uj)
		vty_out(vty, "\n");
	for (unsigned int i = 0; i < decap.set.n; i++) {
		const struct cnpproxy_attach_if *di = &decap.ifs[i];
		const char *state = di->ifindex ? "decapsulating"
				    : di->error ? di->error
						: "not attached";

		if (uj)
			json_object_string_add(jifs, di->name, state);
		else
			vty_out(vty, "  interface %s: %s\n", di->name, state);
	}
	for (size_t k = 0; k < array_size(decap_counters); k++) {
		uint64_t v = c.v[decap_counters[k].c];

		if (uj)
			json_object_int_add(jc, decap_counters[k].json, v);
		else
			vty_out(vty, "  %-20s %" PRIu64 "\n", decap_counters[k].json, v);
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
	return cnpproxy_attach_view(&decap.set, i, out);
}

void cnpproxy_egress_init(void)
{
	cnpproxy_if_watch(decap_if_changed);
	install_element(VIEW_NODE, &show_cnpproxy_tunnel_egress_cmd);
}

void cnpproxy_egress_fini(void)
{
	decap_close();
}
