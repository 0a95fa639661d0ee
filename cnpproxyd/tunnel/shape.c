// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd proxy role: the ingress PE's local rate adjustment (seed 003
 * 3.2.2.1; tunnel/shape.h).
 *
 * The shapers are HTB leaf classes under a root HTB qdisc of ours on the
 * tunnel interface, created with the first shaped flow and removed with
 * the last: an interface nothing is shaped on keeps the qdisc it had.
 * An interface with a root qdisc of its own is never touched.
 */
#include <zebra.h>

#include <linux/pkt_sched.h>

#include "lib/frrevent.h"
#include "lib/json.h"
#include "lib/log.h"
#include "lib/memory.h"
#include "lib/vty.h"

#include "cnpproxyd.h"
#include "cnpproxy_debug.h"
#include "proxy/flows.h"
#include "cnpproxy_fp.h"
#include "tunnel/shape.h"
#include "tunnel/tunnel_tc.h"
#include "tunnel/htb.h"

DEFINE_MTYPE_STATIC(CNPPROXYD, CNPPROXY_SHAPE_REQ, "cnpproxyd local shaping request");

/* Handle of our root qdisc, "504e:" ("PN"). */
#define FS_MAJOR 0x504e
#define FS_MAX	 256

enum fs_counter {
	FS_C_CUTS = 0,	 /* light notifications that set or lowered a shaper */
	FS_C_RELEASED,	 /* shapers removed after the hold time */
	FS_C_NO_RATE,	 /* not shaped: the flow's rate is not known yet */
	FS_C_FULL,	 /* not shaped: FS_MAX flows shaped already */
	FS_C_QDISC_BUSY, /* not shaped: the interface has a root qdisc of its own */
	FS_C_ERRORS,	 /* not shaped: the kernel refused a change */
	FS_C_MAX,
};

static const char *fs_counter_name(enum fs_counter c)
{
	switch (c) {
	case FS_C_CUTS:
		return "cuts";
	case FS_C_RELEASED:
		return "released";
	case FS_C_NO_RATE:
		return "noRate";
	case FS_C_FULL:
		return "tableFull";
	case FS_C_QDISC_BUSY:
		return "qdiscBusy";
	case FS_C_ERRORS:
	case FS_C_MAX:
		break;
	}
	return "errors";
}

struct fs_flow {
	bool used;
	struct pnc_tunnel_flow flow; /* key fields, and the label */
	uint64_t rate_bps;
	uint64_t since_us, last_us;
	uint32_t cuts;
};

static struct {
	/* Read by other threads under cnpproxy_fp_mtx. */
	struct pnc_tunnel_tc *fe;
	bool on;

	int ifindex;
	struct cnpproxy_shape_config cfg;
	bool root; /* our root qdisc is there */
	unsigned int n;
	struct fs_flow f[FS_MAX]; /* class minor = index + 1 */
	uint64_t c[FS_C_MAX];
	struct event *t_release;
} fs;

/* Few events (one per light notification, per flow per RTT at most). */
#define FS_DEBUG(fmt, ...)                                                                        \
	do {                                                                                      \
		if (DEBUG_MODE_CHECK(&cnpproxy_dbg_proxy, DEBUG_MODE_ALL))                        \
			zlog_debug("proxy: local shaping: " fmt, ##__VA_ARGS__);                  \
	} while (0)

struct fs_req {
	struct pnc_tunnel_flow flow;
};

/* One rtnetlink request built by tunnel/htb.c; changing qdiscs needs CAP_NET_ADMIN. */
static int htb_send(const void *msg, size_t len)
{
	int rv;

	frr_with_privs (&cnpproxy_privs) {
		rv = pnc_htb_request(msg, len);
	}
	return rv;
}

static int htb(size_t (*build)(void *, size_t, int, uint16_t), uint16_t major)
{
	uint8_t msg[PNC_HTB_MSG_MAX] __attribute__((aligned(4)));

	return htb_send(msg, build(msg, sizeof(msg), fs.ifindex, major));
}

static int htb_class(uint16_t minor, uint64_t rate_bps, bool del)
{
	uint8_t msg[PNC_HTB_MSG_MAX] __attribute__((aligned(4)));
	size_t len;

	len = del ? pnc_htb_build_class_del(msg, sizeof(msg), fs.ifindex, FS_MAJOR, minor)
		  : pnc_htb_build_class(msg, sizeof(msg), fs.ifindex, FS_MAJOR, minor, rate_bps);
	return htb_send(msg, len);
}

/* Our root qdisc goes with the last shaper. */
static void root_release_if_unused(void)
{
	if (!fs.n && fs.root) {
		htb(pnc_htb_build_root_del, FS_MAJOR);
		fs.root = false;
	}
}

static bool same_flow(const struct pnc_tunnel_flow *a, const struct pnc_tunnel_flow *b)
{
	return a->ip_version == b->ip_version && a->dest_qp == b->dest_qp &&
	       !memcmp(a->src, b->src, sizeof(a->src)) && !memcmp(a->dst, b->dst, sizeof(a->dst));
}

static void release(struct fs_flow *s)
{
	unsigned int minor = (unsigned int)(s - fs.f) + 1;

	/* The packets first, then their class: none meets a missing class. */
	frr_with_mutex (&cnpproxy_fp_mtx) {
		if (fs.fe) {
			frr_with_privs (&cnpproxy_privs) {
				pnc_tunnel_shape(fs.fe, &s->flow, 0);
			}
		}
	}
	htb_class((uint16_t)minor, 0, true);
	memset(s, 0, sizeof(*s));
	fs.n--;
	root_release_if_unused();
}

static void release_check(struct event *t)
{
	uint64_t now = cnpproxy_now_us();

	for (unsigned int i = 0; i < FS_MAX; i++) {
		struct fs_flow *s = &fs.f[i];

		if (!s->used || now - s->last_us < fs.cfg.hold_us)
			continue;
		FS_DEBUG("flow label 0x%05x released after %u cuts", s->flow.label, s->cuts);
		release(s);
		fs.c[FS_C_RELEASED]++;
	}
	if (fs.n)
		event_add_timer_msec(master, release_check, NULL, MAX(fs.cfg.hold_us / 4000u, 1u),
				     &fs.t_release);
}

static struct fs_flow *slot_for(const struct pnc_tunnel_flow *ff)
{
	struct fs_flow *free_slot = NULL;

	for (unsigned int i = 0; i < FS_MAX; i++) {
		if (fs.f[i].used && same_flow(&fs.f[i].flow, ff))
			return &fs.f[i];
		if (!fs.f[i].used && !free_slot)
			free_slot = &fs.f[i];
	}
	return free_slot;
}

/* Our root qdisc, created with the first shaper; false if it cannot be. */
static bool root_ready(void)
{
	int rv;

	if (fs.root)
		return true;
	rv = htb(pnc_htb_build_root, FS_MAJOR);
	if (rv == -EEXIST) {
		fs.c[FS_C_QDISC_BUSY]++;
		return false;
	}
	if (rv) {
		fs.c[FS_C_ERRORS]++;
		zlog_warn("cnpproxyd: local shaping: cannot add a root qdisc: %s", strerror(-rv));
		return false;
	}
	fs.root = true;
	return true;
}

static void shape(const struct pnc_tunnel_flow *ff)
{
	uint64_t now = cnpproxy_now_us(), from, rate;
	struct fs_flow *s = slot_for(ff);
	uint16_t minor;
	int rv;

	if (!s) {
		fs.c[FS_C_FULL]++;
		return;
	}
	from = s->used ? s->rate_bps : cnpproxy_shape_measured(ff->bytes, ff->first_ns, ff->last_ns);
	if (!from) {
		fs.c[FS_C_NO_RATE]++;
		return;
	}
	if (!root_ready())
		return;
	minor = (uint16_t)(s - fs.f + 1);
	rate = cnpproxy_shape_next_rate(from, fs.cfg.step, (uint64_t)fs.cfg.floor_mbps * 1000000u);
	rv = htb_class(minor, rate, false);
	if (!rv && !s->used) {
		frr_with_mutex (&cnpproxy_fp_mtx) {
			frr_with_privs (&cnpproxy_privs) {
				rv = fs.fe ? pnc_tunnel_shape(fs.fe, ff,
							      TC_H_MAKE(FS_MAJOR << 16, minor))
					   : -ENODEV;
			}
		}
		if (rv)
			htb_class(minor, 0, true);
	}
	if (rv) {
		fs.c[FS_C_ERRORS]++;
		zlog_warn("cnpproxyd: local shaping: flow label 0x%05x: %s", ff->label,
			  strerror(-rv));
		root_release_if_unused();
		return;
	}
	if (!s->used) {
		s->used = true;
		s->flow = *ff;
		s->since_us = now;
		fs.n++;
	}
	s->rate_bps = rate;
	s->last_us = now;
	s->cuts++;
	fs.c[FS_C_CUTS]++;
	FS_DEBUG("flow label 0x%05x at %" PRIu64 " bit/s", ff->label, rate);
	if (!fs.t_release)
		event_add_timer_msec(master, release_check, NULL, MAX(fs.cfg.hold_us / 4000u, 1u),
				     &fs.t_release);
}

static void shape_event(struct event *t)
{
	struct fs_req *req = EVENT_ARG(t);

	/* Stopped since it was posted: nothing to do. */
	if (fs.on)
		shape(&req->flow);
	XFREE(MTYPE_CNPPROXY_SHAPE_REQ, req);
}

bool cnpproxy_shape_light(const struct pnc_flow *f)
{
	struct pnc_tunnel_flow ff = {};
	struct fs_req *req;

	/* The fast-path thread holds cnpproxy_fp_mtx here, the main thread too. */
	if (!fs.on || !fs.fe)
		return false;
	ff.ip_version = f->ip_version;
	memcpy(ff.src, f->sender, sizeof(ff.src));
	memcpy(ff.dst, f->receiver, sizeof(ff.dst));
	ff.dest_qp = f->receiver_qpn;
	if (pnc_tunnel_lookup_flow(fs.fe, &ff))
		return false;
	req = XCALLOC(MTYPE_CNPPROXY_SHAPE_REQ, sizeof(*req));
	req->flow = ff;
	event_add_event(master, shape_event, req, 0, NULL);
	return true;
}

void cnpproxy_shape_stop(void)
{
	event_cancel(&fs.t_release);
	for (unsigned int i = 0; i < FS_MAX; i++)
		if (fs.f[i].used)
			release(&fs.f[i]);
	frr_with_mutex (&cnpproxy_fp_mtx) {
		fs.on = false;
		fs.fe = NULL;
	}
	fs.ifindex = 0;
}

void cnpproxy_shape_start(struct pnc_tunnel_tc *fe, int ifindex,
			  const struct cnpproxy_shape_config *cfg)
{
	cnpproxy_shape_stop();
	if (!cfg || !fe || !ifindex)
		return;
	fs.cfg = *cfg;
	fs.ifindex = ifindex;
	/* A root of ours a killed daemon left: no class of it is in use now. */
	htb(pnc_htb_build_root_del, FS_MAJOR);
	frr_with_mutex (&cnpproxy_fp_mtx) {
		fs.fe = fe;
		fs.on = true;
	}
}

void cnpproxy_shape_show(struct vty *vty, json_object *json)
{
	uint64_t now = cnpproxy_now_us();
	json_object *js = NULL, *jarr = NULL;

	if (json) {
		js = json_object_new_object();
		json_object_boolean_add(js, "enabled", fs.on);
		jarr = json_object_new_array();
	} else {
		vty_out(vty, "Local shaping (seed 003): %s, %u flows\n", fs.on ? "on" : "off",
			fs.n);
	}
	if (fs.on && json) {
		json_object_int_add(js, "stepPercent", fs.cfg.step);
		json_object_int_add(js, "floorMbps", fs.cfg.floor_mbps);
		json_object_int_add(js, "holdTimeUs", fs.cfg.hold_us);
		json_object_boolean_add(js, "rootQdisc", fs.root);
	}
	for (unsigned int i = 0; i < FS_MAX; i++) {
		const struct fs_flow *s = &fs.f[i];

		if (!s->used)
			continue;
		if (json) {
			json_object *j = json_object_new_object();

			json_object_int_add(j, "label", s->flow.label);
			json_object_int_add(j, "receiverQp", s->flow.dest_qp);
			json_object_int_add(j, "classMinor", i + 1);
			json_object_int_add(j, "rateBps", s->rate_bps);
			json_object_int_add(j, "cuts", s->cuts);
			json_object_int_add(j, "sinceUs", now - s->since_us);
			json_object_int_add(j, "lastCutUs", now - s->last_us);
			json_object_array_add(jarr, j);
		} else {
			vty_out(vty,
				"  label 0x%05x (receiver QP 0x%06x): class %x:%x, %" PRIu64
				" bit/s after %u cuts, last %" PRIu64 " ms ago\n",
				s->flow.label, s->flow.dest_qp, FS_MAJOR, i + 1, s->rate_bps,
				s->cuts, (now - s->last_us) / 1000u);
		}
	}
	for (int c = 0; c < FS_C_MAX; c++) {
		if (json)
			json_object_int_add(js, fs_counter_name(c), fs.c[c]);
		else
			vty_out(vty, "    %-20s %" PRIu64 "\n", fs_counter_name(c), fs.c[c]);
	}
	if (json) {
		json_object_object_add(js, "flows", jarr);
		json_object_object_add(json, "localShaping", js);
	}
}

void cnpproxy_shape_counters_clear(void)
{
	memset(fs.c, 0, sizeof(fs.c));
}
