// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd proxy role: the ingress PE's flow-label tunnel (seed 001,
 * doc/wire-formats.md 6.3).
 *
 * Traffic to the configured prefixes leaves the core-facing interface
 * in an outer IPv6 header whose flow label names the RoCEv2 flow
 * (tunnel/tunnel.bpf.c).  A congested WAN node that sees the label sends a
 * flow-label FCN to the outer source, this proxy; the label gives the
 * flow's (sender, receiver, receiver QP), the flow table the sender's
 * QP, and the proxy sends the usual CNP.
 */
#include <zebra.h>

#include <net/if.h>

#include "lib/frrevent.h"
#include "lib/json.h"
#include "lib/log.h"
#include "lib/vty.h"

#include "cnpproxyd.h"
#include "cnpproxy_attach.h"
#include "cnpproxy_fp.h"
#include "tunnel/tunnel.h"
#include "tunnel/labels_file.h"
#include "tunnel/shape.h"
#include "cnpproxy_if.h"

#define FL_RETRY_S 1
#define FL_AGE_S   10
#define FL_IDLE_S  300

static const struct cnpproxy_attach_ops tunnel_ops;

static struct {
	struct pnc_tunnel_tc *fe;
	/* What the program was built from, to rebuild only on a change. */
	struct pnc_proxy_config applied;
	bool on;
	/* The interface: the set's, mirrored for the fast path under its mutex. */
	struct cnpproxy_attach_if ifs[1];
	struct cnpproxy_attach_set set;
	int ifindex;
	bool attached;
	/* The program's own trouble; the set says the interface's. */
	const char *not_operational;
	struct event *t_age;
} tun = {
	.set = CNPPROXY_ATTACH_SET("flow-label tunnel", &tunnel_ops, tun.ifs, FL_RETRY_S),
	.not_operational = "not configured",
};

static bool same_config(const struct pnc_proxy_config *a, const struct pnc_proxy_config *b)
{
	return !strcmp(a->tunnel_if, b->tunnel_if) && !memcmp(a->tunnel_src, b->tunnel_src, 16) &&
	       a->n_tunnel_prefixes == b->n_tunnel_prefixes &&
	       !memcmp(a->tunnel_prefixes, b->tunnel_prefixes,
		       a->n_tunnel_prefixes * sizeof(a->tunnel_prefixes[0]));
}

static bool same_shaping(const struct pnc_proxy_config *a, const struct pnc_proxy_config *b)
{
	return a->tunnel_shape == b->tunnel_shape &&
	       a->tunnel_shape_step == b->tunnel_shape_step &&
	       a->tunnel_shape_floor_mbps == b->tunnel_shape_floor_mbps &&
	       a->tunnel_shape_hold_us == b->tunnel_shape_hold_us;
}

/* Local shaping follows the attached program and its settings. */
static void shaping_start(void)
{
	struct cnpproxy_shape_config sc = {
		.step = tun.applied.tunnel_shape_step,
		.floor_mbps = tun.applied.tunnel_shape_floor_mbps,
		.hold_us = tun.applied.tunnel_shape_hold_us,
	};

	cnpproxy_shape_start(tun.fe, tun.attached ? tun.ifindex : 0,
			     tun.applied.tunnel_shape ? &sc : NULL);
}

/* The fast path resolves labels through tun.fe once attached: under its mutex. */
static int tunnel_attach(void *prog, int ifindex, unsigned int flags)
{
	int ret;

	frr_with_mutex (&cnpproxy_fp_mtx) {
		ret = pnc_tunnel_attach(prog, ifindex);
		if (!ret) {
			tun.ifindex = ifindex;
			tun.attached = true;
		}
	}
	return ret;
}

static void tunnel_detach(void *prog, int ifindex)
{
	/* The shapers' classes go with the interface, and their packets through the program. */
	cnpproxy_shape_stop();
	frr_with_mutex (&cnpproxy_fp_mtx) {
		pnc_tunnel_detach(prog, ifindex);
		tun.attached = false;
	}
}

static void tunnel_attached(void *prog, const struct cnpproxy_attach_if *ai)
{
	shaping_start();
}

/* The interface the configuration names, as the set takes it. */
static void tunnel_sync(void)
{
	char names[1][PNC_IFNAME_MAX];

	strlcpy(names[0], tun.applied.tunnel_if, sizeof(names[0]));
	cnpproxy_attach_sync(&tun.set, tun.fe, names, NULL, 1);
}

static const struct cnpproxy_attach_ops tunnel_ops = {
	.attach = tunnel_attach,
	.detach = tunnel_detach,
	.attached = tunnel_attached,
	.retry = tunnel_sync,
};

/* keep_labels: write them for the next program; else forget them. */
static void tunnel_stop(bool keep_labels)
{
	event_cancel(&tun.t_age);
	/* The shapers' packets go through the program: before it goes. */
	cnpproxy_shape_stop();
	/* Before the program goes: its maps hold the labels. */
	if (keep_labels)
		cnpproxy_labels_file_stop();
	else
		cnpproxy_labels_file_forget();
	cnpproxy_attach_clear(&tun.set, tun.fe);
	if (tun.fe) {
		frr_with_privs (&cnpproxy_privs) {
			pnc_tunnel_close(tun.fe);
		}
	}
	tun.fe = NULL;
	tun.on = false;
}

/* Flows idle for long give their labels back. */
static void tunnel_age(struct event *t)
{
	frr_with_mutex (&cnpproxy_fp_mtx) {
		pnc_tunnel_age(tun.fe, FL_IDLE_S, NULL, NULL);
	}
	event_add_timer(master, tunnel_age, NULL, FL_AGE_S, &tun.t_age);
}

void cnpproxy_tunnel_apply(const struct pnc_config *cfg)
{
	const struct pnc_proxy_config *pc = &cfg->proxy;
	bool on = cfg->present && cfg->role[PNC_ROLE_PROXY] && pc->tunnel_enabled;
	struct pnc_tunnel_cfg c = {};

	if (on == tun.on && (!on || same_config(pc, &tun.applied))) {
		if (on && !same_shaping(pc, &tun.applied)) {
			tun.applied = *pc;
			shaping_start();
		}
		return;
	}
	/* Rebuilt for a new configuration, the tunnel keeps its labels. */
	tunnel_stop(on);
	if (!on) {
		tun.not_operational = "not configured";
		return;
	}
	tun.applied = *pc;
	tun.on = true;
	memcpy(c.src, pc->tunnel_src, sizeof(c.src));
	frr_with_privs (&cnpproxy_privs) {
		tun.fe = pnc_tunnel_open(&c);
	}
	if (!tun.fe) {
		tun.not_operational = "cannot load the encapsulation program (CAP_BPF, BTF?)";
		return;
	}
	for (unsigned int i = 0; i < pc->n_tunnel_prefixes; i++) {
		const struct pnc_tunnel_prefix *t = &pc->tunnel_prefixes[i];

		if (pnc_tunnel_add_tunnel(tun.fe, t->family, t->prefix, t->plen, t->endpoint,
					  t->vni, t->router_mac))
			zlog_warn("cnpproxyd: cannot add flow-label tunnel prefix %u/%u",
				  t->family, t->plen);
	}
	/* Before traffic can allocate labels that a restored flow had. */
	cnpproxy_labels_file_restore(tun.fe, FL_IDLE_S);
	tun.not_operational = NULL;
	tunnel_sync();
	cnpproxy_labels_file_start(tun.fe);
	event_add_timer(master, tunnel_age, NULL, FL_AGE_S, &tun.t_age);
}

bool cnpproxy_tunnel_resolve(uint32_t label, struct pnc_tunnel_flow *out)
{
	return tun.fe && tun.attached && pnc_tunnel_lookup_label(tun.fe, label, out) == 0;
}

const char *cnpproxy_tunnel_not_operational(void)
{
	struct cnpproxy_attach_if ai;

	if (tun.not_operational)
		return tun.not_operational;
	if (cnpproxy_attach_view(&tun.set, 0, &ai) && !ai.ifindex)
		return ai.error ? ai.error : "not attached";
	return NULL;
}

struct tunnel_walk {
	struct vty *vty;
	json_object *jarr;
};

static int flow_show(void *arg, const struct pnc_tunnel_flow *f)
{
	struct tunnel_walk *w = arg;
	int family = f->ip_version == 4 ? AF_INET : AF_INET6;
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];

	inet_ntop(family, f->src, src, sizeof(src));
	inet_ntop(family, f->dst, dst, sizeof(dst));
	if (w->jarr) {
		json_object *j = json_object_new_object();

		json_object_int_add(j, "label", f->label);
		json_object_string_add(j, "sender", src);
		json_object_string_add(j, "receiver", dst);
		json_object_int_add(j, "receiverQp", f->dest_qp);
		json_object_int_add(j, "pkey", f->pkey);
		json_object_int_add(j, "packets", f->pkts);
		json_object_array_add(w->jarr, j);
	} else {
		vty_out(w->vty, "  0x%05x  %s -> %s QP 0x%06x, %" PRIu64 " packets\n", f->label,
			src, dst, f->dest_qp, f->pkts);
	}
	return 0;
}

void cnpproxy_tunnel_show(struct vty *vty, json_object *json)
{
	const char *why = cnpproxy_tunnel_not_operational();
	struct tunnel_walk w = { .vty = vty };
	struct pnc_tunnel_counters c;

	if (json) {
		json_object_boolean_add(json, "operational", !why);
		if (why)
			json_object_string_add(json, "reason", why);
		w.jarr = json_object_new_array();
	} else {
		vty_out(vty, "Flow-label tunnel: %s\n", why ? why : "running");
	}
	cnpproxy_labels_file_show(vty, json);
	if (!tun.fe) {
		if (json)
			json_object_object_add(json, "flows", w.jarr);
		return;
	}
	pnc_tunnel_for_each_flow(tun.fe, flow_show, &w);
	if (json)
		json_object_object_add(json, "flows", w.jarr);
	cnpproxy_shape_show(vty, json);
	if (pnc_tunnel_counters(tun.fe, &c))
		return;
	for (int i = 0; i < PNC_TUNNEL_C_MAX; i++) {
		if (json)
			json_object_int_add(json, pnc_tunnel_counter_name(i), c.v[i]);
		else
			vty_out(vty, "    %-20s %" PRIu64 "\n", pnc_tunnel_counter_name(i), c.v[i]);
	}
}

void cnpproxy_tunnel_counters_clear(void)
{
	cnpproxy_shape_counters_clear();
	if (!tun.fe)
		return;
	frr_with_privs (&cnpproxy_privs) {
		pnc_tunnel_counters_clear(tun.fe);
	}
	/* The saver's generation is one of those counters. */
	cnpproxy_labels_file_touch();
}

/* Deleted, or re-created with another ifindex: attach to what is there now. */
static void tunnel_if_changed(const char *ifname, int ifindex)
{
	char names[1][PNC_IFNAME_MAX];

	if (!tun.on || !tun.fe)
		return;
	strlcpy(names[0], tun.applied.tunnel_if, sizeof(names[0]));
	if (cnpproxy_attach_if_changed(&tun.set, tun.fe, names, 1, ifname, ifindex))
		tunnel_sync();
}

bool cnpproxy_tunnel_attachment(unsigned int i, struct cnpproxy_attach_if *out)
{
	if (!tun.on || i)
		return false;
	if (!cnpproxy_attach_view(&tun.set, 0, out)) {
		/* The program did not load: nothing was tried. */
		memset(out, 0, sizeof(*out));
		strlcpy(out->name, tun.applied.tunnel_if, sizeof(out->name));
	}
	if (!out->ifindex && tun.not_operational)
		out->error = tun.not_operational;
	return true;
}

void cnpproxy_tunnel_init(void)
{
	cnpproxy_if_watch(tunnel_if_changed);
}

void cnpproxy_tunnel_fini(void)
{
	/* A clean stop keeps the labels for the next start. */
	tunnel_stop(true);
}
