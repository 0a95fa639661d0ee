// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd proxy role: what the XDP-native translator needs, published
 * to the proxy's XDP program (proxy/xdp/xlate.bpf.h).
 *
 * - The flows whose senders take standard CNPs, from the flow table.
 *   A copy of what is published is kept, so that a change costs one map
 *   update per flow that changed, not one per flow; the flow table's
 *   generation says when to look.  Senders configured for another
 *   format are left out: their notifications go on to the socket path,
 *   which builds every format.
 * - The interfaces a CNP may leave by: up, and with a driver that takes
 *   frames redirected by XDP (a veth only while its peer has NAPI on,
 *   so this is looked at again every second).  A CNP whose route leaves
 *   by another interface goes by the socket path.
 * - The settings: source addresses, DSCP, the level policy for standard
 *   CNPs, the minimum interval and the global limit.
 *
 * The program translates only on the filter interfaces, after the
 * guard: the accept list and the per-source limit come first.
 */
#include <zebra.h>

#include "lib/frrevent.h"
#include "lib/hash.h"
#include "lib/if.h"
#include "lib/jhash.h"
#include "lib/json.h"
#include "lib/log.h"
#include "lib/memory.h"
#include "lib/privs.h"
#include "lib/vrf.h"
#include "lib/vty.h"

#include <linux/types.h>

#include "proxy/xdp/learn_xdp.h"
#include "proxy/xdp/features.h"

#include "cnpproxyd.h"
#include "cnpproxy_fp.h"
#include "cnpproxy_debug.h"
#include "proxy/flows.h"
#include "proxy/sender.h"
#include "proxy/xdp/xlate.h"
#include "proxy/xdp/xsk.h"

DEFINE_MTYPE_STATIC(CNPPROXYD, CNPPROXY_XLATE_FLOW, "cnpproxyd XDP translator flow");

#define XLATE_POLL_S 1

/* A flow as published to the program. */
struct xl_flow {
	struct pnc_xlate_key key;
	struct pnc_xlate_flow flow;
	uint64_t mark; /* the publication that last saw it */
};

static struct {
	/* The proxy's flow table, handed by the program's owner; NULL: role off. */
	struct pnc_flow_table *table;
	struct pnc_learn_xdp *lx; /* the program the tables below are in */
	const struct pnc_config *config; /* handed with it */
	struct hash *published;
	uint64_t flow_gen;		    /* flow table generation published */
	const struct pnc_flow_table *flows; /* flow_gen is of this table */
	uint64_t mark;
	struct pnc_xlate_cfg cfg; /* as last written; enabled 0 when off */
	/* The sender formats the published flows were chosen by. */
	struct pnc_sender senders[PNC_SENDER_MAX];
	unsigned int n_senders;
	int tx[PNC_XLATE_TX_MAX];
	size_t n_tx;
	const char *error;
	struct event *t_sync, *t_poll;
} xl = {
	.config = &pnc_config_off,
};

const char *cnpproxy_fast_path_name(enum pnc_fast_path p)
{
	switch (p) {
	case PNC_FAST_PATH_XDP:
		return "xdp";
	case PNC_FAST_PATH_AF_XDP:
		return "af-xdp";
	case PNC_FAST_PATH_SOCKET:
		break;
	}
	return "socket";
}

static unsigned int xl_flow_hash(const void *p)
{
	const struct xl_flow *f = p;

	return jhash(&f->key, sizeof(f->key), 0x71a7e5u);
}

static bool xl_flow_cmp(const void *a, const void *b)
{
	return !memcmp(&((const struct xl_flow *)a)->key, &((const struct xl_flow *)b)->key,
		       sizeof(struct pnc_xlate_key));
}

static void xl_flow_free(void *p)
{
	XFREE(MTYPE_CNPPROXY_XLATE_FLOW, p);
}

static bool wanted(void)
{
	const struct pnc_proxy_config *pc = &xl.config->proxy;

	return pc->fast_path == PNC_FAST_PATH_XDP && pc->n_filter_if && xl.table;
}

/* ---- settings -------------------------------------------------------- */

static void settings(struct pnc_xlate_cfg *xc)
{
	const struct pnc_proxy_config *pc = &xl.config->proxy;
	struct pnc_reaction r;

	memset(xc, 0, sizeof(*xc));
	xc->enabled = 1;
	xc->tos = (uint8_t)(pc->cnp_dscp << 2);
	xc->src4_set = pc->src4_set;
	xc->src6_set = pc->src6_set;
	memcpy(xc->src4, pc->src4, sizeof(xc->src4));
	memcpy(xc->src6, pc->src6, sizeof(xc->src6));
	for (uint8_t cl = 0; cl < PNC_XLATE_LEVELS; cl++) {
		pnc_reaction_for(&pc->level, PNC_FMT_ROCEV2_CNP, cl, &r);
		xc->factor[cl] = r.send ? MAX(r.interval_factor, 1) : 0;
	}
	xc->min_interval_ns = (uint64_t)pc->cnp_min_interval_us * 1000u;
	xc->global_rate = xc->global_burst = pc->rl_global;
}

/* ---- flows ------------------------------------------------------------ */

struct publish {
	struct pnc_learn_xdp *lx;
	size_t n;
	int err;
};

static void publish_flow(const struct pnc_flow *f, void *arg)
{
	const struct pnc_proxy_config *pc = &xl.config->proxy;
	struct publish *pub = arg;
	struct xl_flow lookup = {}, *e;
	bool fresh = false;
	int err;

	if (pnc_sender_format_of(pc->senders, pc->n_senders, f->ip_version, f->sender) !=
	    PNC_FMT_ROCEV2_CNP)
		return;
	lookup.key.version = f->ip_version;
	lookup.key.receiver_qpn = f->receiver_qpn;
	memcpy(lookup.key.sender, f->sender, 16);
	memcpy(lookup.key.receiver, f->receiver, 16);
	lookup.flow.sender_qpn = f->sender_qpn;
	lookup.flow.pkey = f->pkey;
	lookup.flow.udp_sport = f->udp_sport;

	e = hash_lookup(xl.published, &lookup);
	if (!e) {
		e = XCALLOC(MTYPE_CNPPROXY_XLATE_FLOW, sizeof(*e));
		e->key = lookup.key;
		fresh = true;
	}
	if (fresh || memcmp(&e->flow, &lookup.flow, sizeof(e->flow))) {
		err = pnc_learn_xdp_xlate_flow_set(pub->lx, &lookup.key, &lookup.flow);
		if (err) {
			/* Not there: its notifications take the socket path. */
			pub->err = err;
			if (fresh)
				XFREE(MTYPE_CNPPROXY_XLATE_FLOW, e);
			else
				e->mark = 0; /* withdrawn by the sweep */
			return;
		}
		e->flow = lookup.flow;
		if (fresh)
			(void)hash_get(xl.published, e, hash_alloc_intern);
	}
	e->mark = xl.mark;
	pub->n++;
}

static void sweep_flow(struct hash_bucket *hb, void *arg)
{
	struct xl_flow *e = hb->data;
	struct publish *pub = arg;

	if (e->mark == xl.mark)
		return;
	if (pnc_learn_xdp_xlate_flow_del(pub->lx, &e->key))
		pub->err = -EIO;
	hash_release(xl.published, e);
	XFREE(MTYPE_CNPPROXY_XLATE_FLOW, e);
}

/* Make the program's flows those of the table now. */
static int publish_flows(struct pnc_learn_xdp *lx)
{
	struct publish pub = { .lx = lx };

	xl.mark++;
	frr_with_privs (&cnpproxy_privs) {
		if (xl.table)
			pnc_flow_table_walk(xl.table, publish_flow, &pub);
		hash_iterate(xl.published, sweep_flow, &pub);
	}
	xl.flow_gen = pnc_flow_table_generation(xl.table);
	DEBUGD(&cnpproxy_dbg_proxy, "proxy: XDP translator: %zu flows published", pub.n);
	return pub.err;
}

/* Every flow out of the program (it stays loaded for learning or the guard). */
static void withdraw_flows(struct pnc_learn_xdp *lx)
{
	struct publish pub = { .lx = lx };

	xl.mark++;
	frr_with_privs (&cnpproxy_privs) {
		hash_iterate(xl.published, sweep_flow, &pub);
	}
}

/* ---- interfaces ------------------------------------------------------- */

static bool can_transmit(const struct interface *ifp)
{
	uint64_t features = 0;

	if (ifp->ifindex <= 0 || !if_is_operative(ifp) || if_is_loopback(ifp))
		return false;
	return pnc_xdp_features(ifp->ifindex, &features) == 0 && (features & PNC_XDP_ACT_NDO_XMIT);
}

static int publish_tx(struct pnc_learn_xdp *lx)
{
	struct vrf *vrf = vrf_lookup_by_id(VRF_DEFAULT);
	struct interface *ifp;
	int tx[PNC_XLATE_TX_MAX], err = 0;
	size_t n = 0;

	if (vrf) {
		FOR_ALL_INTERFACES (vrf, ifp)
			if (n < PNC_XLATE_TX_MAX && can_transmit(ifp))
				tx[n++] = ifp->ifindex;
	}
	if (n == xl.n_tx && !memcmp(tx, xl.tx, n * sizeof(tx[0])))
		return 0;
	frr_with_privs (&cnpproxy_privs) {
		err = pnc_learn_xdp_xlate_tx(lx, tx, n);
	}
	memcpy(xl.tx, tx, n * sizeof(tx[0]));
	xl.n_tx = n;
	DEBUGD(&cnpproxy_dbg_proxy, "proxy: XDP translator: %zu transmit interfaces", n);
	return err;
}

/* ---- publication ------------------------------------------------------ */

static void xlate_sync(struct event *t);

static void turn_off(struct pnc_learn_xdp *lx)
{
	struct pnc_xlate_cfg off = {};

	if (xl.cfg.enabled) {
		frr_with_privs (&cnpproxy_privs) {
			pnc_learn_xdp_xlate_cfg(lx, &off);
		}
	}
	xl.cfg.enabled = 0;
	withdraw_flows(lx);
}

void cnpproxy_xlate_sync_now(struct pnc_learn_xdp *lx, const struct pnc_config *cfg)
{
	const struct pnc_proxy_config *pc = &cfg->proxy;
	struct pnc_xlate_cfg xc;
	bool changed;
	int err;

	event_cancel(&xl.t_sync);
	xl.config = cfg;
	if (lx != xl.lx) {
		/* Another program (or none): its maps start empty. */
		hash_clean(xl.published, xl_flow_free);
		memset(&xl.cfg, 0, sizeof(xl.cfg));
		xl.n_tx = 0;
		xl.lx = lx;
	}
	xl.error = NULL;
	if (!lx || !wanted()) {
		if (lx)
			turn_off(lx);
		event_cancel(&xl.t_poll);
		return;
	}
	settings(&xc);
	changed = memcmp(&xc, &xl.cfg, sizeof(xc)) != 0;
	if (pc->n_senders != xl.n_senders ||
	    memcmp(pc->senders, xl.senders, sizeof(pc->senders[0]) * pc->n_senders)) {
		/* A sender moved to another format: its flows in or out. */
		memcpy(xl.senders, pc->senders, sizeof(xl.senders));
		xl.n_senders = pc->n_senders;
		xl.flow_gen = pnc_flow_table_generation(xl.table) - 1;
	}
	if (xl.flows != xl.table) {
		/* Another table (resized): its generations are its own. */
		xl.flows = xl.table;
		xl.flow_gen = pnc_flow_table_generation(xl.table) - 1;
	}
	err = publish_tx(lx);
	if (changed) {
		/* The limits start afresh, and the sender formats may have moved. */
		frr_with_privs (&cnpproxy_privs) {
			if (!err)
				err = pnc_learn_xdp_xlate_reset(lx);
		}
		xl.flow_gen = pnc_flow_table_generation(xl.table) - 1;
	}
	if (!err && xl.flow_gen != pnc_flow_table_generation(xl.table))
		err = publish_flows(lx);
	if (err) {
		const char *was = xl.error;

		/* Left off: the socket path translates everything. */
		xl.error = err == -E2BIG ? "more flows than the XDP flow map holds"
					 : "cannot fill the XDP translator's tables";
		if (xl.error != was)
			zlog_warn("cnpproxyd: XDP translator off: %s (%s)", xl.error,
				  safe_strerror(-err));
		turn_off(lx);
	} else if (changed || !xl.cfg.enabled) {
		frr_with_privs (&cnpproxy_privs) {
			pnc_learn_xdp_xlate_cfg(lx, &xc);
		}
		xl.cfg = xc;
	}
	if (!xl.t_poll)
		event_add_timer(master, xlate_sync, NULL, XLATE_POLL_S, &xl.t_poll);
}

/* Also every XLATE_POLL_S: aged flows, and drivers that gained or lost XDP transmit. */
static void xlate_sync(struct event *t)
{
	cnpproxy_xlate_sync_now(xl.lx, xl.config);
}

void cnpproxy_xlate_flows(struct pnc_flow_table *flows)
{
	xl.table = flows;
}

void cnpproxy_xlate_flows_changed(void)
{
	if (!xl.lx || !wanted())
		return;
	event_add_event(master, xlate_sync, NULL, 0, &xl.t_sync);
}

const char *cnpproxy_xlate_not_operational(void)
{
	if (xl.config->proxy.fast_path != PNC_FAST_PATH_XDP || !xl.table)
		return NULL;
	if (!xl.config->proxy.n_filter_if)
		return "fast-path xdp: no filter-interface to translate on";
	if (!xl.lx)
		return "fast-path xdp: the XDP program is not loaded";
	if (xl.error)
		return xl.error;
	if (!xl.n_tx)
		return "fast-path xdp: no interface can transmit XDP frames";
	return NULL;
}

void cnpproxy_xlate_show(struct vty *vty, struct json_object *json)
{
	const struct pnc_proxy_config *pc = &xl.config->proxy;
	const char *why = cnpproxy_xlate_not_operational();
	bool xdp = pc->fast_path == PNC_FAST_PATH_XDP;
	bool on = xdp && xl.cfg.enabled && !why;
	struct interface *ifp;

	if (json) {
		json_object *jf = json_object_new_object();
		json_object *jt = json_object_new_array();

		json_object_string_add(jf, "mode", cnpproxy_fast_path_name(pc->fast_path));
		json_object_boolean_add(jf, "active", on);
		if (why)
			json_object_string_add(jf, "reason", why);
		json_object_int_add(jf, "flowsPublished",
				    xdp && xl.published ? xl.published->count : 0);
		for (size_t i = 0; xdp && i < xl.n_tx; i++) {
			ifp = if_lookup_by_index(xl.tx[i], VRF_DEFAULT);
			json_object_array_add(jt, json_object_new_string(ifp ? ifp->name : "?"));
		}
		json_object_object_add(jf, "transmitInterfaces", jt);
		/* Where the user-space path (socket, or what xdp passes) runs. */
		json_object_string_add(jf, "thread", cnpproxy_fp_name());
		json_object_boolean_add(jf, "threadRunning", cnpproxy_fp_running());
		cnpproxy_xsk_show(vty, jf);
		json_object_object_add(json, "fastPath", jf);
		return;
	}
	vty_out(vty, "Fast path thread: %s, %s\n", cnpproxy_fp_name(),
		cnpproxy_fp_running() ? "running" : "not running");
	cnpproxy_xsk_show(vty, NULL);
	if (!xdp)
		return;
	vty_out(vty, "Fast path: xdp, %s\n", on ? "active" : why ? why : "not loaded");
	vty_out(vty, "  %lu flows published, %zu transmit interfaces\n",
		xl.published ? xl.published->count : 0, xl.n_tx);
}

void cnpproxy_xlate_init(void)
{
	xl.published = hash_create(xl_flow_hash, xl_flow_cmp, "cnpproxyd XDP translator flows");
}

void cnpproxy_xlate_fini(void)
{
	event_cancel(&xl.t_sync);
	event_cancel(&xl.t_poll);
	hash_clean_and_free(&xl.published, xl_flow_free);
	xl.lx = NULL;
}
