// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd proxy role: the XDP program on the proxy's interfaces, and
 * queue-pair learning from its events.  An interface runs the stages
 * its configuration names: learning (learn-interface), the notification
 * guard (filter-interface, tables in proxy/xdp/guard.c), or both.
 */
#include <zebra.h>

#include <net/if.h>

#include "lib/frrevent.h"
#include "lib/json.h"
#include "lib/log.h"
#include "lib/privs.h"
#include "lib/vty.h"

#include <linux/types.h>

#include "codec/cm.h"
#include "codec/roce.h"
#include "proxy/xdp/learn_xdp.h"

#include "cnpproxyd.h"
#include "cnpproxy_attach.h"
#include "cnpproxy_fp.h"
#include "cnpproxy_debug.h"
#include "cnpproxy_if.h"
#include "proxy/xdp/guard.h"
#include "proxy/xdp/xlate.h"
#include "proxy/xdp/xsk.h"
#include "proxy/xdp/learn.h"
#include "proxy/flows.h"

#define LEARN_RETRY_S 5

/* An interface of each list, each with its stages (enum pnc_xdp_role). */
#define LEARN_IFS_MAX (2 * PNC_LEARN_IF_MAX)

static const struct cnpproxy_attach_ops learn_ops;

static struct {
	struct pnc_learn_xdp *lx;
	const struct pnc_config *cfg; /* the last apply's */
	struct pnc_flow_table *flows; /* the proxy role's; learning only fills it */
	struct cnpproxy_attach_if ifs[LEARN_IFS_MAX];
	struct cnpproxy_attach_set set;
	struct event *t_read;
	uint64_t cm_events, roce_events, cm_undecodable;
	uint64_t results[8]; /* by enum pnc_flow_result */
	/* The program's counters of the objects loaded before this one. */
	uint64_t xdp_base[PNC_LEARN_C_MAX];
} learn = {
	.cfg = &pnc_config_off,
	.set = CNPPROXY_ATTACH_SET("XDP program", &learn_ops, learn.ifs, LEARN_RETRY_S),
};

static void count_result(int r)
{
	if (r >= 0 && (size_t)r < array_size(learn.results))
		learn.results[r]++;
}

/* A sampled RoCE packet as the flow table wants it. */
static void roce_view(const struct pnc_learn_roce_ev *ev, struct pnc_roce_view *v)
{
	memset(v, 0, sizeof(*v));
	v->ip.version = ev->hdr.ip_version;
	memcpy(v->ip.src, ev->src, 16);
	memcpy(v->ip.dst, ev->dst, 16);
	v->ip.tos = ev->tos;
	v->ip.flow_label = ev->flow_label;
	v->ip.sport = ev->sport;
	v->ip.dport = PNC_ROCE_UDP_PORT;
	v->bth.opcode = ev->opcode;
	v->bth.pkey = ev->pkey;
	v->bth.dest_qp = ev->dest_qp;
	v->bth.psn = ev->psn;
	v->bth.ack_req = ev->ack_req;
}

static void learn_event(void *arg, const struct pnc_learn_event *ev)
{
	uint64_t now = cnpproxy_now_us();

	if (!learn.flows)
		return;
	if (ev->cm) {
		struct pnc_cm_packet cm;
		int err;

		learn.cm_events++;
		err = pnc_cm_packet_decode(ev->cm->data, ev->cm->cap_len, &cm);
		if (err) {
			learn.cm_undecodable++;
			return;
		}
		count_result(pnc_flow_learn_cm(learn.flows, &cm, now));
	} else if (ev->roce) {
		struct pnc_roce_view v;

		learn.roce_events++;
		roce_view(ev->roce, &v);
		count_result(pnc_flow_learn_roce(learn.flows, &v, now));
	}
}

static void learn_read(struct event *t)
{
	/* Every event of the ring changes the table the fast path reads. */
	frr_with_mutex (&cnpproxy_fp_mtx) {
		pnc_learn_xdp_poll(learn.lx, 0);
	}
	cnpproxy_xlate_flows_changed();
	event_add_read(master, learn_read, NULL, pnc_learn_xdp_fd(learn.lx), &learn.t_read);
}

static void learn_close(void)
{
	event_cancel(&learn.t_read);
	if (learn.lx) {
		struct pnc_learn_counters xc = {};

		/* Counters outlive the program: a reload must not reset them. */
		pnc_learn_xdp_counters(learn.lx, &xc);
		for (unsigned int c = 0; c < PNC_LEARN_C_MAX; c++)
			learn.xdp_base[c] += xc.v[c];
		frr_with_privs (&cnpproxy_privs) {
			pnc_learn_xdp_close(learn.lx);
		}
	}
	/* Closing the program detached it everywhere. */
	cnpproxy_attach_clear(&learn.set, NULL);
	learn.lx = NULL;
	/*
	 * The translator's tables and the steering maps went with the program;
	 * without one the stages still report on the configuration.
	 */
	cnpproxy_guard_sync_now(NULL, learn.cfg);
	cnpproxy_xlate_sync_now(NULL, learn.cfg);
	cnpproxy_xsk_apply(NULL, learn.cfg);
}

/* Add roles to the interface called name in the wanted set. */
static void want(char (*names)[PNC_IFNAME_MAX], unsigned int *roles, unsigned int *n,
		 const char *name, unsigned int role)
{
	for (unsigned int i = 0; i < *n; i++)
		if (!strcmp(names[i], name)) {
			roles[i] |= role;
			return;
		}
	strlcpy(names[*n], name, sizeof(names[*n]));
	roles[(*n)++] = role;
}

/* The interfaces the configuration names, each with the stages it runs. */
static unsigned int wanted(const struct pnc_proxy_config *pc, char (*names)[PNC_IFNAME_MAX],
			   unsigned int *roles)
{
	unsigned int n = 0;

	for (unsigned int j = 0; j < pc->n_learn_if; j++)
		want(names, roles, &n, pc->learn_if[j], PNC_XDP_ROLE_LEARN);
	for (unsigned int j = 0; j < pc->n_filter_if; j++)
		want(names, roles, &n, pc->filter_if[j], PNC_XDP_ROLE_GUARD);
	return n;
}

static const char *roles_str(unsigned int roles)
{
	switch (roles) {
	case PNC_XDP_ROLE_LEARN:
		return "learn";
	case PNC_XDP_ROLE_GUARD:
		return "filter";
	case PNC_XDP_ROLE_LEARN | PNC_XDP_ROLE_GUARD:
		return "learn, filter";
	}
	return "-";
}

static const char *learn_what(unsigned int roles)
{
	return roles & PNC_XDP_ROLE_LEARN ? "learning" : "filtering";
}

static int learn_attach(void *prog, int ifindex, unsigned int roles)
{
	return pnc_learn_xdp_attach_roles(prog, ifindex, roles, PNC_LEARN_XDP_AUTO, NULL);
}

static void learn_detach(void *prog, int ifindex)
{
	pnc_learn_xdp_detach(prog, ifindex);
}

/* Attached: the program may have to run other stages now. */
static int learn_update(void *prog, int ifindex, unsigned int roles)
{
	return pnc_learn_xdp_set_roles(prog, ifindex, roles);
}

static void learn_attached(void *prog, const struct cnpproxy_attach_if *ai)
{
	DEBUGD(&cnpproxy_dbg_proxy, "proxy: XDP (%s) on %s", roles_str(ai->flags), ai->name);
}

static void learn_retry(void)
{
	cnpproxy_learn_apply(learn.cfg, learn.flows);
}

static const struct cnpproxy_attach_ops learn_ops = {
	.what_of = learn_what,
	.attach_error = "cannot attach XDP (another program there?)",
	.attach = learn_attach,
	.detach = learn_detach,
	.update = learn_update,
	.attached = learn_attached,
	.retry = learn_retry,
};

void cnpproxy_learn_apply(const struct pnc_config *cfg, struct pnc_flow_table *flows)
{
	const struct pnc_proxy_config *pc = &cfg->proxy;
	bool on = cfg->present && cfg->role[PNC_ROLE_PROXY] && (pc->n_learn_if || pc->n_filter_if);
	char names[LEARN_IFS_MAX][PNC_IFNAME_MAX];
	unsigned int roles[LEARN_IFS_MAX], n;

	learn.cfg = cfg;
	learn.flows = flows;
	cnpproxy_xlate_flows(flows);
	cnpproxy_xsk_flows(flows != NULL);
	if (!on) {
		learn_close();
		learn.set.error = NULL;
		return;
	}
	if (!learn.lx) {
		frr_with_privs (&cnpproxy_privs) {
			learn.lx = pnc_learn_xdp_open(NULL, learn_event, NULL);
		}
		if (!learn.lx) {
			learn.set.error = "cannot load the XDP program";
			zlog_warn("cnpproxyd: cannot load the proxy's XDP program: %s",
				  safe_strerror(errno));
			return;
		}
		learn.set.error = NULL;
		event_add_read(master, learn_read, NULL, pnc_learn_xdp_fd(learn.lx), &learn.t_read);
	}
	/* The guard's and the translator's tables go in before any interface runs them. */
	cnpproxy_guard_sync_now(learn.lx, cfg);
	cnpproxy_xlate_sync_now(learn.lx, cfg);

	n = wanted(pc, names, roles);
	cnpproxy_attach_sync(&learn.set, learn.lx, names, roles, n);
	/* AF_XDP sockets on the filter interfaces as they are now. */
	cnpproxy_xsk_apply(learn.lx, cfg);
}

void cnpproxy_learn_xdp_counters(struct pnc_learn_counters *out)
{
	memset(out, 0, sizeof(*out));
	if (learn.lx)
		pnc_learn_xdp_counters(learn.lx, out);
	for (unsigned int c = 0; c < PNC_LEARN_C_MAX; c++)
		out->v[c] += learn.xdp_base[c];
}

/* Deleted, or re-created with another ifindex: attach to what is there now. */
static void learn_if_changed(const char *ifname, int ifindex)
{
	char names[LEARN_IFS_MAX][PNC_IFNAME_MAX];
	unsigned int roles[LEARN_IFS_MAX], n;

	n = wanted(&learn.cfg->proxy, names, roles);
	if (cnpproxy_attach_if_changed(&learn.set, learn.lx, names, n, ifname, ifindex))
		learn_retry();
	else
		/* The program may be gone from it; so go its AF_XDP sockets. */
		cnpproxy_xsk_apply(learn.lx, learn.cfg);
}

const char *cnpproxy_learn_not_operational(void)
{
	return cnpproxy_attach_not_operational(&learn.set);
}

void cnpproxy_learn_init(void)
{
	cnpproxy_if_watch(learn_if_changed);
}

void cnpproxy_learn_fini(void)
{
	learn_close();
	cnpproxy_xlate_flows(NULL);
	cnpproxy_xsk_flows(false);
}

bool cnpproxy_learn_attachment(unsigned int i, struct cnpproxy_attach_if *out)
{
	return cnpproxy_attach_view(&learn.set, i, out);
}

void cnpproxy_learn_counters_clear(void)
{
	learn.cm_events = learn.roce_events = learn.cm_undecodable = 0;
	memset(learn.results, 0, sizeof(learn.results));
	memset(learn.xdp_base, 0, sizeof(learn.xdp_base));
	if (learn.lx) {
		frr_with_privs (&cnpproxy_privs) {
			pnc_learn_xdp_counters_clear(learn.lx);
		}
	}
}

void cnpproxy_learn_show(struct vty *vty, struct json_object *json)
{
	struct pnc_learn_counters xc;
	json_object *jl = NULL, *ji = NULL, *jx = NULL, *jr = NULL;
	struct cnpproxy_attach_if ai;
	unsigned int i;

	cnpproxy_learn_xdp_counters(&xc);
	if (json) {
		jl = json_object_new_object();
		ji = json_object_new_object();
		json_object_object_add(json, "learning", jl);
		json_object_object_add(jl, "interfaces", ji);
		/* What the program runs there: "learn", "filter" or both. */
		jr = json_object_new_object();
		json_object_object_add(jl, "interfaceStages", jr);
		/* The program's own counters: some share a name with the results'. */
		jx = json_object_new_object();
		json_object_object_add(jl, "xdp", jx);
		json_object_boolean_add(jl, "loaded", learn.lx != NULL);
		if (learn.set.error)
			json_object_string_add(jl, "error", learn.set.error);
		json_object_int_add(jl, "cmEvents", learn.cm_events);
		json_object_int_add(jl, "cmUndecodable", learn.cm_undecodable);
		json_object_int_add(jl, "roceEvents", learn.roce_events);
		json_object_int_add(jl, "flows",
				    learn.flows ? pnc_flow_table_count(learn.flows) : 0);
	} else {
		vty_out(vty, "Queue-pair learning (XDP): %s\n",
			learn.lx ? "loaded"
				 : (learn.set.error ? learn.set.error : "not configured"));
		vty_out(vty, "  %-28s %" PRIu64 "\n", "cmEvents", learn.cm_events);
		vty_out(vty, "  %-28s %" PRIu64 "\n", "cmUndecodable", learn.cm_undecodable);
		vty_out(vty, "  %-28s %" PRIu64 "\n", "roceEvents", learn.roce_events);
		vty_out(vty, "  %-28s %zu\n", "flows",
			learn.flows ? pnc_flow_table_count(learn.flows) : 0);
	}
	for (i = 0; i < array_size(learn.results); i++) {
		const char *name = pnc_flow_result_str((int)i);

		if (!learn.results[i] || !name)
			continue;
		if (jl)
			json_object_int_add(jl, name, learn.results[i]);
		else
			vty_out(vty, "  %-28s %" PRIu64 "\n", name, learn.results[i]);
	}
	for (i = 0; i < PNC_LEARN_C_MAX; i++) {
		if (jx)
			json_object_int_add(jx, pnc_learn_counter_name(i), xc.v[i]);
		else
			vty_out(vty, "  xdp %-24s %" PRIu64 "\n", pnc_learn_counter_name(i),
				xc.v[i]);
	}
	for (i = 0; cnpproxy_attach_view(&learn.set, i, &ai); i++) {
		const char *state = ai.ifindex ? "attached" : ai.error;

		if (ji) {
			json_object_string_add(ji, ai.name, state);
			json_object_string_add(jr, ai.name, roles_str(ai.flags));
		} else {
			vty_out(vty, "  interface %s: %s (%s)\n", ai.name, state,
				roles_str(ai.flags));
		}
	}
}
