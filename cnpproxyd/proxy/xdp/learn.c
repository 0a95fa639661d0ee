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

struct learn_if {
	char name[CNP_IFNAME_MAX];
	unsigned int roles; /* enum pnc_xdp_role: wanted */
	int ifindex;	    /* attached to; 0 if not */
	const char *error;
};

static struct {
	struct pnc_learn_xdp *lx;
	struct pnc_flow_table *flows; /* the proxy role's; learning only fills it */
	struct learn_if ifs[2 * CNP_LEARN_IF_MAX];
	unsigned int n_ifs;
	struct event *t_read, *t_retry;
	const char *error;
	uint64_t cm_events, roce_events, cm_undecodable;
	uint64_t results[8]; /* by enum pnc_flow_result */
	/* The program's counters of the objects loaded before this one. */
	uint64_t xdp_base[PNC_LEARN_C_MAX];
} learn;

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
	event_cancel(&learn.t_retry);
	if (learn.lx) {
		struct pnc_learn_counters xc = {};

		/* Counters outlive the program: a reload must not reset them. */
		pnc_learn_xdp_counters(learn.lx, &xc);
		for (unsigned int c = 0; c < PNC_LEARN_C_MAX; c++)
			learn.xdp_base[c] += xc.v[c];
		frr_with_privs (&cnpproxy_privs) {
			pnc_learn_xdp_close(learn.lx);
		}
		/* The translator's tables and the steering maps went with the program. */
		cnpproxy_guard_sync_now(NULL);
		cnpproxy_xlate_sync_now(NULL);
		cnpproxy_xsk_apply(NULL);
	}
	learn.lx = NULL;
	memset(learn.ifs, 0, sizeof(learn.ifs));
	learn.n_ifs = 0;
}

static void learn_retry(struct event *t)
{
	cnpproxy_learn_apply(learn.flows);
}

/* Add roles to the interface called name in the wanted set. */
static void want(struct learn_if *set, unsigned int *n, const char *name, unsigned int roles)
{
	for (unsigned int i = 0; i < *n; i++)
		if (!strcmp(set[i].name, name)) {
			set[i].roles |= roles;
			return;
		}
	memset(&set[*n], 0, sizeof(set[*n]));
	strlcpy(set[*n].name, name, sizeof(set[*n].name));
	set[(*n)++].roles = roles;
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

void cnpproxy_learn_apply(struct pnc_flow_table *flows)
{
	const struct cnp_proxy_config *pc = &cnp_g.cfg.proxy;
	bool on = cnp_g.cfg.present && cnp_g.cfg.role[CNP_ROLE_PROXY] &&
		  (pc->n_learn_if || pc->n_filter_if);
	struct learn_if wanted[array_size(learn.ifs)];
	unsigned int i, j, n_wanted = 0;
	bool missing = false;

	learn.flows = flows;
	cnpproxy_xlate_flows(flows);
	cnpproxy_xsk_flows(flows != NULL);
	if (!on) {
		learn_close();
		learn.error = NULL;
		return;
	}
	if (!learn.lx) {
		frr_with_privs (&cnpproxy_privs) {
			learn.lx = pnc_learn_xdp_open(NULL, learn_event, NULL);
		}
		if (!learn.lx) {
			learn.error = "cannot load the XDP program";
			zlog_warn("cnpproxyd: cannot load the proxy's XDP program: %s",
				  safe_strerror(errno));
			return;
		}
		learn.error = NULL;
		event_add_read(master, learn_read, NULL, pnc_learn_xdp_fd(learn.lx), &learn.t_read);
	}
	/* The guard's and the translator's tables go in before any interface runs them. */
	cnpproxy_guard_sync_now(learn.lx);
	cnpproxy_xlate_sync_now(learn.lx);

	for (j = 0; j < pc->n_learn_if; j++)
		want(wanted, &n_wanted, pc->learn_if[j], PNC_XDP_ROLE_LEARN);
	for (j = 0; j < pc->n_filter_if; j++)
		want(wanted, &n_wanted, pc->filter_if[j], PNC_XDP_ROLE_GUARD);

	/* Detach from interfaces no longer configured. */
	for (i = 0; i < learn.n_ifs;) {
		struct learn_if *li = &learn.ifs[i];
		unsigned int roles = 0;

		for (j = 0; j < n_wanted; j++)
			if (!strcmp(li->name, wanted[j].name))
				roles = wanted[j].roles;
		if (roles) {
			li->roles = roles;
			i++;
			continue;
		}
		if (li->ifindex) {
			frr_with_privs (&cnpproxy_privs) {
				pnc_learn_xdp_detach(learn.lx, li->ifindex);
			}
		}
		*li = learn.ifs[--learn.n_ifs];
	}

	/* Attach to the configured ones; an interface may appear later. */
	for (j = 0; j < n_wanted; j++) {
		struct learn_if *li = NULL;
		int ifindex, err = 0;

		for (i = 0; i < learn.n_ifs; i++)
			if (!strcmp(learn.ifs[i].name, wanted[j].name))
				li = &learn.ifs[i];
		if (!li) {
			li = &learn.ifs[learn.n_ifs++];
			*li = wanted[j];
		}
		if (li->ifindex) {
			/* Attached: the program may have to run other stages now. */
			frr_with_privs (&cnpproxy_privs) {
				err = pnc_learn_xdp_set_roles(learn.lx, li->ifindex, li->roles);
			}
			if (err)
				zlog_warn("cnpproxyd: cannot change the XDP program of %s: %s",
					  li->name, safe_strerror(-err));
			continue;
		}
		ifindex = cnpproxy_if_index(li->name);
		if (!ifindex) {
			/* learn_if_changed() attaches it when it appears. */
			li->error = "no such interface";
			continue;
		}
		frr_with_privs (&cnpproxy_privs) {
			err = pnc_learn_xdp_attach_roles(learn.lx, ifindex, li->roles,
							 PNC_LEARN_XDP_AUTO, NULL);
		}
		if (err) {
			li->error = "cannot attach XDP (another program there?)";
			zlog_warn("cnpproxyd: cannot attach XDP (%s) to %s: %s",
				  roles_str(li->roles), li->name, safe_strerror(-err));
			missing = true;
			continue;
		}
		li->ifindex = ifindex;
		li->error = NULL;
		DEBUGD(&cnp_dbg_proxy, "proxy: XDP (%s) on %s", roles_str(li->roles), li->name);
	}
	if (missing && !learn.t_retry)
		event_add_timer(master, learn_retry, NULL, LEARN_RETRY_S, &learn.t_retry);
	/* AF_XDP sockets on the filter interfaces as they are now. */
	cnpproxy_xsk_apply(learn.lx);
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
	for (unsigned int i = 0; i < learn.n_ifs; i++) {
		struct learn_if *li = &learn.ifs[i];

		if (strcmp(li->name, ifname) || !li->ifindex || li->ifindex == ifindex)
			continue;
		zlog_info("cnpproxyd: XDP interface %s is gone", ifname);
		if (learn.lx) {
			frr_with_privs (&cnpproxy_privs) {
				pnc_learn_xdp_detach(learn.lx, li->ifindex);
			}
		}
		li->ifindex = 0;
		li->error = "no such interface";
	}
	if (ifindex)
		cnpproxy_learn_apply(learn.flows);
	else
		/* The program is gone from it; so go its AF_XDP sockets. */
		cnpproxy_xsk_apply(learn.lx);
}

const char *cnpproxy_learn_not_operational(void)
{
	static char why[64 + IFNAMSIZ];

	if (learn.error)
		return learn.error;
	for (unsigned int i = 0; i < learn.n_ifs; i++) {
		if (learn.ifs[i].ifindex)
			continue;
		snprintf(why, sizeof(why), "%s on %s: %s",
			 learn.ifs[i].roles & PNC_XDP_ROLE_LEARN ? "learning" : "filtering",
			 learn.ifs[i].name,
			 learn.ifs[i].error ? learn.ifs[i].error : "not attached");
		return why;
	}
	return NULL;
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

bool cnpproxy_learn_attachment(unsigned int i, struct cnp_attach_if *out)
{
	if (i >= learn.n_ifs)
		return false;
	strlcpy(out->name, learn.ifs[i].name, sizeof(out->name));
	out->ifindex = learn.ifs[i].ifindex;
	out->error = learn.ifs[i].error;
	return true;
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
		if (learn.error)
			json_object_string_add(jl, "error", learn.error);
		json_object_int_add(jl, "cmEvents", learn.cm_events);
		json_object_int_add(jl, "cmUndecodable", learn.cm_undecodable);
		json_object_int_add(jl, "roceEvents", learn.roce_events);
		json_object_int_add(jl, "flows",
				    learn.flows ? pnc_flow_table_count(learn.flows) : 0);
	} else {
		vty_out(vty, "Queue-pair learning (XDP): %s\n",
			learn.lx ? "loaded" : (learn.error ? learn.error : "not configured"));
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
	for (i = 0; i < learn.n_ifs; i++) {
		const struct learn_if *li = &learn.ifs[i];
		const char *state = li->ifindex ? "attached" : li->error;

		if (ji) {
			json_object_string_add(ji, li->name, state);
			json_object_string_add(jr, li->name, roles_str(li->roles));
		} else {
			vty_out(vty, "  interface %s: %s (%s)\n", li->name, state,
				roles_str(li->roles));
		}
	}
}
