// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd congestion point role.
 *
 * Per watched interface, a timer reads the root qdisc over netlink and
 * feeds the trigger policy (cp/policy.c); the resulting marking and
 * sampling state goes to the tc egress program (cp/mark.bpf.c).  The
 * program samples ECN-capable RoCEv2 packets while the interface is
 * congested; each sample becomes a notification:
 *  - a tunnelled packet whose outer source is itself a proxy (a
 *    P-flagged host prefix) gets a flow-label FCN to that address
 *    (doc/wire-formats.md 6.3);
 *  - a sender that direct-to-source names, or whose proxy is this
 *    router, is served in-process by this router's proxy role, which
 *    sends the sender's own message (seed 000 and seed 001); Resume
 *    follows when the queue has drained;
 *  - otherwise the sender's proxy comes from the proxy table (PNC in
 *    zebra's RIB, or proxy-for) and gets the five-tuple notification
 *    (6.2); without one, the configured fallback, else nothing (counted).
 * With collaborative suppression, notifications wait while another
 * congestion point upstream is seen acting (cp/collab.h).
 * Runs on the FRR event loop: a poll costs one netlink dump.
 */
#include <zebra.h>

#include <net/if.h>

#include "lib/frrevent.h"
#include "lib/if.h"
#include "lib/log.h"
#include "lib/plist.h"
#include "lib/sockunion.h"
#include "lib/vrf.h"

/* Linux 4.15; glibc's netinet/in.h does not name it yet. */
#ifndef IPV6_FREEBIND
#define IPV6_FREEBIND 78
#endif
/* linux/in6.h's, which cannot be included beside netinet/in.h. */
#ifndef IPV6_FLOWINFO_SEND
#define IPV6_FLOWINFO_SEND 33
#endif

#include "codec/lhcnp.h"
#include "codec/notif.h"

#include "cnpproxyd.h"
#include "cp/cp.h"
#include "cnpproxy_attach.h"
#include "cnpproxy_debug.h"
#include "cnpproxy_if.h"
#include "cnpproxy_sock.h"
#include "rib/lookup.h"
#include "rib/rib.h"
#include "cp/collab.h"
#include "cp/gate.h"
#include "cp/sample.h"
#include "proxy/proxy.h"
#include "cnpproxy_ratelimit.h"

#define CP_GATE_SLOTS  16384
#define CP_RETRY_S     1
#define CP_DEBUG_PER_S 50
/* The marking state's lifetime: polls, and a floor in ms. */
#define CP_STATE_LIFETIME_POLLS	 4
#define CP_STATE_LIFETIME_MIN_MS 200
#define CP_READ_TIMEOUT_MS	 1000 /* for the kernel's answer to a qdisc dump */
/* Flows told to slow down directly, per interface, to resume when it drains. */
#define CP_RESUME_MAX 64

#define CP_DEBUG(fmt, ...)                                                                        \
	do {                                                                                      \
		if (DEBUG_MODE_CHECK(&cnpproxy_dbg_cp, DEBUG_MODE_ALL) && cp_debug_allowed())     \
			zlog_debug("congestion: " fmt, ##__VA_ARGS__);                            \
	} while (0)

struct cp_if {
	struct pnc_cp_if_config cfg;
	int ifindex;
	bool attached;
	const char *not_operational;
	struct event *t_poll;
	struct pnc_qmon *qm; /* this interface's own: readings never wait on another's */
	struct event *t_read, *t_timeout; /* a reading under way */

	struct pnc_qmon_sample cur;
	bool have_cur;
	struct pnc_qmon_rates rates;
	uint64_t link_bps;
	struct pnc_cp_thresholds thr;
	struct pnc_cp_machine m;
	struct pnc_cp_collab collab;
	struct pnc_cp_share share;
	struct pnc_mark_state pushed;
	bool pushed_valid;
	uint8_t level;
	uint64_t peak_backlog;
	uint64_t avg_backlog; /* pnc_cp_queue_average() of the readings */

	struct pnc_mark_if_counters ecn_prev;
	uint32_t ecn_permille;
	bool have_ecn;

	struct pnc_bucket bucket;
	uint64_t last_onset_us, last_resume_us, last_notify_us;
	struct cnpproxy_resume_flow_ref slowed[CP_RESUME_MAX];
	unsigned int n_slowed;
	uint64_t c[CNPPROXY_CP_COUNTER_MAX];
};

static const struct cnpproxy_attach_ops cp_attach_ops;

static struct {
	const struct pnc_config *cfg; /* the last apply's */
	struct cp_if ifs[PNC_CP_IF_MAX];
	unsigned int n_if;
	struct pnc_mark_tc *mt;
	/* Where the egress program runs; ifs[] mirrors it for its readings. */
	struct cnpproxy_attach_if att[PNC_CP_IF_MAX];
	struct cnpproxy_attach_set set;
	const char *not_operational;
	struct event *t_samples, *t_qmon;
	int fd[2];	/* UDP, IPv4 and IPv6 */
	int icmp_fd[2]; /* raw ICMP and ICMPv6, for notification-form icmp */
	struct pnc_cp_gate gate;
	struct pnc_cp_gate_slot slots[CP_GATE_SLOTS];
	struct pnc_bucket debug;
} cp = {
	.cfg = &pnc_config_off,
	.set = CNPPROXY_ATTACH_SET("congestion point", &cp_attach_ops, cp.att, CP_RETRY_S),
	.fd = { -1, -1 },
	.icmp_fd = { -1, -1 },
};

static const char *const counter_names[CNPPROXY_CP_COUNTER_MAX] = {
	[CNPPROXY_CP_POLLS] = "polls",
	[CNPPROXY_CP_POLL_ERRORS] = "pollErrors",
	[CNPPROXY_CP_ONSETS] = "onsets",
	[CNPPROXY_CP_CONGESTED] = "congested",
	[CNPPROXY_CP_RESUMES] = "resumes",
	[CNPPROXY_CP_SAMPLES] = "samples",
	[CNPPROXY_CP_SAMPLE_MALFORMED] = "samplesMalformed",
	[CNPPROXY_CP_NOTIF_SENT] = "notificationsSent",
	[CNPPROXY_CP_FCN_SENT] = "flowLabelSent",
	[CNPPROXY_CP_FALLBACK_SENT] = "fallbackSent",
	[CNPPROXY_CP_NO_PROXY] = "noProxy",
	[CNPPROXY_CP_FLOW_INTERVAL] = "suppressedFlowInterval",
	[CNPPROXY_CP_SMALL_FLOW] = "suppressedSmallFlow",
	[CNPPROXY_CP_RATE_LIMITED] = "suppressedRateLimit",
	[CNPPROXY_CP_COLLAB_HELD] = "suppressedCollaborative",
	[CNPPROXY_CP_COLLAB_DEFERRED] = "deferred",
	[CNPPROXY_CP_COLLAB_ESCALATED] = "escalated",
	[CNPPROXY_CP_DIRECT_SENT] = "directSent",
	[CNPPROXY_CP_DIRECT_SUPPRESSED] = "directSuppressed",
	[CNPPROXY_CP_DIRECT_UNKNOWN] = "directUnknownFlow",
	[CNPPROXY_CP_DIRECT_RESUMES] = "directResumes",
	[CNPPROXY_CP_SEND_ERROR] = "sendErrors",
};

const char *cnpproxy_cp_counter_name(enum cnpproxy_cp_counter c)
{
	return c < CNPPROXY_CP_COUNTER_MAX ? counter_names[c] : "unknown";
}

static bool cp_debug_allowed(void)
{
	return pnc_bucket_take(&cp.debug, cnpproxy_now_us());
}

static bool role_on(void)
{
	return cp.cfg->present && cp.cfg->role[PNC_ROLE_CONGESTION_POINT];
}

static struct cp_if *if_by_index(int ifindex)
{
	for (unsigned int i = 0; i < cp.n_if; i++)
		if (cp.ifs[i].attached && cp.ifs[i].ifindex == ifindex)
			return &cp.ifs[i];
	return NULL;
}

/* Interface speed in bit/s from sysfs; 0 when the driver has none. */
static uint64_t link_speed(const char *ifname)
{
	char path[64];
	long mbps = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/net/%s/speed", ifname);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%ld", &mbps) != 1 || mbps <= 0)
		mbps = 0;
	fclose(f);
	return (uint64_t)mbps * 1000000u;
}

/* ---- notifications ----------------------------------------------------- */

static void sockets_close(void)
{
	for (int i = 0; i < 2; i++) {
		if (cp.fd[i] >= 0)
			close(cp.fd[i]);
		if (cp.icmp_fd[i] >= 0)
			close(cp.icmp_fd[i]);
		cp.fd[i] = cp.icmp_fd[i] = -1;
	}
}

/*
 * A raw ICMP socket gets a copy of every ICMP message the host receives:
 * this one only sends, so it takes none in.
 */
/* UDP, or with icmp the raw socket of the notification's ICMP form. */
static int socket_open(int family, bool icmp, bool bind_src, const uint8_t *src)
{
	union sockunion su = {};
	int fd, one = 1;

	if (icmp) {
		/* To send on: it receives nothing. */
		fd = cnpproxy_icmp_socket(family, -1);
		if (fd < 0)
			zlog_warn("cnpproxyd: cannot open a raw %s socket for notifications: %s",
				  family == AF_INET ? "ICMP" : "ICMPv6", safe_strerror(errno));
	} else
		fd = socket(family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	/*
	 * The destination's sin6_flowinfo sets the Flow Label (fcn-copy-flow-
	 * label); 0 leaves it to the kernel, as without the option.
	 */
	if (fd >= 0 && family == AF_INET6 &&
	    setsockopt(fd, SOL_IPV6, IPV6_FLOWINFO_SEND, &one, sizeof(one)) < 0)
		zlog_warn("cnpproxyd: notification socket: cannot send flow labels: %s",
			  safe_strerror(errno));
	if (fd < 0 || !bind_src)
		return fd;
	/*
	 * The source address is configuration, like BGP's update-source: it
	 * may be configured (on a loopback, by zebra) after cnpproxyd starts,
	 * or be removed and come back.  Bind to it regardless.
	 */
	if (setsockopt(fd, family == AF_INET ? SOL_IP : SOL_IPV6,
		       family == AF_INET ? IP_FREEBIND : IPV6_FREEBIND, &one, sizeof(one)) < 0)
		zlog_warn("cnpproxyd: notification source: cannot set free bind: %s",
			  safe_strerror(errno));
	su.sa.sa_family = family;
	if (family == AF_INET)
		memcpy(&su.sin.sin_addr, src, 4);
	else
		memcpy(&su.sin6.sin6_addr, src, 16);
	if (bind(fd, &su.sa, sockunion_sizeof(&su)) < 0) {
		zlog_warn("cnpproxyd: cannot bind notification source %pSU: %s", &su,
			  safe_strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static void sockets_open(void)
{
	const struct pnc_cp_config *cc = &cp.cfg->cp;

	sockets_close();
	cp.fd[0] = socket_open(AF_INET, false, cc->src4_set, cc->src4);
	cp.fd[1] = socket_open(AF_INET6, false, cc->src6_set, cc->src6);
	if (!cc->notify_icmp)
		return;
	cp.icmp_fd[0] = socket_open(AF_INET, true, cc->src4_set, cc->src4);
	cp.icmp_fd[1] = socket_open(AF_INET6, true, cc->src6_set, cc->src6);
}

/*
 * port 0: an ICMP message on the raw socket.  flow_label: for the IPv6
 * header of a datagram to an IPv6 address; 0: the kernel's.
 */
static void send_to(struct cp_if *ci, const struct pnc_pt_addr *to, uint16_t port,
		    const uint8_t *msg, size_t len, enum cnpproxy_cp_counter ok,
		    uint32_t flow_label)
{
	union sockunion su = {};
	int i = to->family == PNC_PT_AF_INET ? 0 : 1;
	int fd = port ? cp.fd[i] : cp.icmp_fd[i];

	su.sa.sa_family = i == 0 ? AF_INET : AF_INET6;
	if (i == 0) {
		memcpy(&su.sin.sin_addr, to->bytes, 4);
		su.sin.sin_port = htons(port);
	} else {
		memcpy(&su.sin6.sin6_addr, to->bytes, 16);
		su.sin6.sin6_port = htons(port);
		su.sin6.sin6_flowinfo = htonl(flow_label & 0xfffff);
	}
	if (fd < 0 || sendto(fd, msg, len, 0, &su.sa, sockunion_sizeof(&su)) != (ssize_t)len) {
		ci->c[CNPPROXY_CP_SEND_ERROR]++;
		CP_DEBUG("%s: cannot send to %pSU: %s", ci->cfg.name, &su, safe_strerror(errno));
		return;
	}
	ci->c[ok]++;
	ci->last_notify_us = cnpproxy_now_us();
	CP_DEBUG("%s: %s to %pSU (%zu octets, CL %u)", ci->cfg.name,
		 ok == CNPPROXY_CP_FCN_SENT ? "flow-label FCN"
		 : port			    ? "notification"
					    : "ICMP notification",
		 &su, len, ci->level);
}

static void pt_addr_of(struct pnc_pt_addr *a, uint8_t version, const uint8_t *bytes)
{
	memset(a, 0, sizeof(*a));
	a->family = version == 4 ? PNC_PT_AF_INET : PNC_PT_AF_INET6;
	memcpy(a->bytes, bytes, version == 4 ? 4 : 16);
}

/*
 * The outer source of a tunnelled packet is a tunnel head to notify by
 * flow label when the proxy table says that address is proxied by
 * itself (a P-flagged host prefix, design R1), or when the configured
 * tunnel-heads prefix-list permits it: seed 001 notifies any ingress PE
 * the congestion point knows, PNC or not.
 */
/*
 * Whether the configured prefix-list name ("": none) permits an address
 * (IP version 4 or 6).  As for accept-from, the address is matched as a
 * host prefix: a list that does not exist permits nothing.
 */
static bool plist_permits(const char *name, uint8_t version, const uint8_t *addr)
{
	struct prefix_list *plist;
	struct prefix p = {};

	if (!name[0])
		return false;
	p.family = version == 4 ? AF_INET : AF_INET6;
	p.prefixlen = version == 4 ? IPV4_MAX_BITLEN : IPV6_MAX_BITLEN;
	memcpy(&p.u.prefix, addr, version == 4 ? 4 : 16);
	plist = prefix_list_lookup(family2afi(p.family), name);
	return plist && prefix_list_apply(plist, &p) == PREFIX_PERMIT;
}

static bool outer_source_is_tunnel_head(const struct pnc_cp_sample_view *v, struct pnc_pt_addr *src)
{
	const struct pnc_pt_entry *e;

	if (!v->tunnelled || !v->flow_label)
		return false;
	pt_addr_of(src, 6, v->outer_src);
	e = cnpproxy_lookup(src);
	if (e && !memcmp(&e->proxy, src, sizeof(*src)))
		return true;
	return plist_permits(cp.cfg->cp.tunnel_heads_plist, 6, v->outer_src);
}

/* The level notifications carry: one more once collaboration escalated. */
static uint8_t notify_level(const struct cp_if *ci, uint8_t level)
{
	return MIN(level + pnc_cp_collab_level_boost(&ci->collab), 7);
}

static void notify_fcn(struct cp_if *ci, const struct pnc_cp_sample_view *v,
		       const struct pnc_pt_addr *to)
{
	struct pnc_fcn fcn = {
		.flow_label = v->flow_label,
		.cl = pnc_cp_level_fcn(notify_level(ci, ci->level)),
	};
	uint8_t msg[PNC_FCN_LEN];
	size_t len;

	if (pnc_fcn_encode(&fcn, msg, sizeof(msg), &len)) {
		ci->c[CNPPROXY_CP_SEND_ERROR]++;
		return;
	}
	send_to(ci, to, cp.cfg->flow_label_port, msg, len, CNPPROXY_CP_FCN_SENT,
		cp.cfg->cp.fcn_copy_flow_label ? v->flow_label : 0);
}

/*
 * The depth marking, levels and seed 003 notifications follow: the
 * average queue in two-threshold mode (seed 003 3.2.1), the reading
 * otherwise (seed 000 5.3.1's QD is instantaneous).
 */
static uint64_t depth_of(const struct cp_if *ci)
{
	return pnc_cp_marking_depth(ci->cfg.policy.marking, ci->cur.backlog_bytes, ci->avg_backlog);
}

/*
 * What this router's proxy role is told of the queue: its Long-haul
 * level, its depth for the Long-haul Metric (unless hidden), and for rate advice the rate it
 * drains at (the qdisc's shaping rate, else the link's) shared among
 * the flows slowed in this episode.
 */
static void queue_report(const struct cp_if *ci, unsigned int flows,
			 struct cnpproxy_proxy_queue_report *m)
{
	uint64_t drain_bps = ci->cur.rate_bps ? ci->cur.rate_bps : ci->link_bps;

	memset(m, 0, sizeof(*m));
	if (drain_bps && flows)
		m->advice_mbps = (uint32_t)MAX(drain_bps / 1000000u / flows, 1);
	m->lh_level = pnc_cp_lh_level(&ci->thr, ci->cur.backlog_bytes);
	if (cp.cfg->cp.hide_queue_state)
		return;
	m->type = PNC_LH_METRIC_QUEUE_KB;
	m->value = pnc_lh_queue_kb(ci->cur.backlog_bytes);
}

static void flow_ref_of(const struct pnc_cp_sample_view *v, struct cnpproxy_resume_flow_ref *ref)
{
	memset(ref, 0, sizeof(*ref));
	ref->ip_version = v->roce.ip.version;
	memcpy(ref->sender, v->roce.ip.src, 16);
	memcpy(ref->receiver, v->roce.ip.dst, 16);
	ref->receiver_qpn = v->roce.bth.dest_qp;
}

static bool slowed_has(const struct cp_if *ci, const struct cnpproxy_resume_flow_ref *ref)
{
	for (unsigned int i = 0; i < ci->n_slowed; i++)
		if (!memcmp(&ci->slowed[i], ref, sizeof(*ref)))
			return true;
	return false;
}

/*
 * This router's proxy role sends the sender's message itself, with the
 * level of the depth one RTT_est ahead.  False when that role cannot.
 */
static bool notify_local(struct cp_if *ci, const struct pnc_cp_sample_view *v)
{
	struct cnpproxy_proxy_queue_report m;
	struct cnpproxy_resume_flow_ref ref;
	bool known;
	uint8_t cl;

	cl = notify_level(ci, pnc_cp_level_projected(ci->cfg.policy.marking, &ci->thr, depth_of(ci),
						     ci->rates.valid ? ci->rates.growth_Bps : 0,
						     ci->cfg.policy.rtt_us));
	flow_ref_of(v, &ref);
	known = slowed_has(ci, &ref);
	queue_report(ci, ci->n_slowed + !known, &m);
	switch (cnpproxy_proxy_local(&v->roce, cl, &m)) {
	case CNPPROXY_PROXY_LOCAL_OFF:
		return false;
	case CNPPROXY_PROXY_LOCAL_UNKNOWN_FLOW:
		ci->c[CNPPROXY_CP_DIRECT_UNKNOWN]++;
		break;
	case CNPPROXY_PROXY_LOCAL_SUPPRESSED:
		ci->c[CNPPROXY_CP_DIRECT_SUPPRESSED]++;
		break;
	case CNPPROXY_PROXY_LOCAL_SENT:
		ci->c[CNPPROXY_CP_DIRECT_SENT]++;
		ci->last_notify_us = cnpproxy_now_us();
		/* Full: a later flow recovers by its own timer, not by Resume. */
		if (!known && ci->n_slowed < CP_RESUME_MAX)
			ci->slowed[ci->n_slowed++] = ref;
		CP_DEBUG("%s: sent to the sender of QP 0x%06x directly (CL %u)", ci->cfg.name,
			 v->roce.bth.dest_qp, cl);
		break;
	}
	return true;
}

/* The queue drained: the senders slowed from here may speed up again. */
static void resume_slowed(struct cp_if *ci)
{
	struct cnpproxy_proxy_queue_report m;

	/* Rate advice: each flow slowed gets its share of the drain rate back. */
	queue_report(ci, ci->n_slowed, &m);
	for (unsigned int i = 0; i < ci->n_slowed; i++)
		if (cnpproxy_proxy_local_resume(&ci->slowed[i], &m))
			ci->c[CNPPROXY_CP_DIRECT_RESUMES]++;
	ci->n_slowed = 0;
}

static bool direct_wanted(const struct pnc_cp_sample_view *v)
{
	return plist_permits(cp.cfg->cp.direct_plist, v->roce.ip.version, v->roce.ip.src);
}

/* The proxy named is this router: the report needs no datagram. */
static bool proxy_is_self(const struct pnc_pt_addr *to)
{
	/* if_address_is_local() reads an in_addr or in6_addr: not at bytes' offset. */
	union {
		struct in_addr v4;
		struct in6_addr v6;
	} addr;

	memcpy(&addr, to->bytes, sizeof(addr));
	return if_address_is_local(&addr, to->family == PNC_PT_AF_INET ? AF_INET : AF_INET6,
				   VRF_DEFAULT);
}

static void notify_proxy(struct cp_if *ci, const struct pnc_cp_sample_view *v)
{
	const struct pnc_cp_config *cc = &cp.cfg->cp;
	const struct pnc_pt_entry *e;
	struct pnc_pt_addr sender, to;
	uint8_t msg[PNC_NOTIF_ICMP_HLEN + PNC_NOTIF_MAX_LEN6];
	struct pnc_notif_icmp form = {};
	bool fallback = false;
	size_t len;

	pt_addr_of(&sender, v->roce.ip.version, v->roce.ip.src);
	e = cnpproxy_lookup(&sender);
	if (e) {
		to = e->proxy;
		if (proxy_is_self(&to) && notify_local(ci, v))
			return;
	} else if (cc->fallback_family) {
		pt_addr_of(&to, cc->fallback_family, cc->fallback);
		fallback = true;
	} else {
		ci->c[CNPPROXY_CP_NO_PROXY]++;
		CP_DEBUG("%s: no proxy for sender of QP 0x%06x", ci->cfg.name, v->roce.bth.dest_qp);
		return;
	}
	/* The carrier's family; with the ICMP form, its type (0: UDP). */
	form.version = to.family == PNC_PT_AF_INET ? 4 : 6;
	if (cc->notify_icmp)
		form.type = form.version == 4 ? cp.cfg->notification_icmp_type
					      : cp.cfg->notification_icmp6_type;
	if (pnc_cp_notification_build(v, notify_level(ci, ci->level), &form, msg, sizeof(msg),
				      &len)) {
		ci->c[CNPPROXY_CP_SEND_ERROR]++;
		return;
	}
	send_to(ci, &to, form.type ? 0 : cp.cfg->notification_port, msg, len,
		CNPPROXY_CP_NOTIF_SENT, 0);
	if (fallback)
		ci->c[CNPPROXY_CP_FALLBACK_SENT]++;
}

/* Names the flow for the per-flow interval: the PE's label, or the QP. */
struct cp_flow_key {
	uint8_t kind; /* 1: tunnel source + label, 2: sender, receiver, QP */
	uint8_t a[16], b[16];
	uint32_t n;
};

static void flow_key(struct cp_flow_key *k, const struct pnc_cp_sample_view *v)
{
	memset(k, 0, sizeof(*k));
	if (v->tunnelled && v->flow_label) {
		k->kind = 1;
		memcpy(k->a, v->outer_src, 16);
		k->n = v->flow_label;
	} else {
		k->kind = 2;
		memcpy(k->a, v->roce.ip.src, 16);
		memcpy(k->b, v->roce.ip.dst, 16);
		k->n = v->roce.bth.dest_qp;
	}
}

static uint32_t notify_interval(const struct cp_if *ci)
{
	return ci->cfg.notify_min_interval_us ? ci->cfg.notify_min_interval_us
					      : ci->cfg.policy.rtt_us;
}

static void sample_cb(void *arg, const struct pnc_mark_sample *s)
{
	struct cp_if *ci = if_by_index((int)s->hdr.ifindex);
	struct pnc_cp_sample_view v;
	struct cp_flow_key k;
	struct pnc_pt_addr tunnel_src;
	uint64_t now = cnpproxy_now_us();
	int err;

	if (!ci)
		return;
	ci->c[CNPPROXY_CP_SAMPLES]++;
	err = pnc_cp_sample_parse(s->data, s->cap_len, s->inner_off, &v);
	if (err) {
		ci->c[CNPPROXY_CP_SAMPLE_MALFORMED]++;
		CP_DEBUG("%s: sample dropped: %s", ci->cfg.name, pnc_codec_strerror(err));
		return;
	}
	/* Held while another node's action is awaited or seen. */
	if (ci->cfg.collab_fall_percent && !pnc_cp_collab_notify_ok(&ci->collab)) {
		ci->c[CNPPROXY_CP_COLLAB_HELD]++;
		return;
	}
	/* Seed 000 5.5: the flows that fill the queue, not every flow in it. */
	if (!pnc_cp_share_select(&ci->share, s->flow_bytes, now, notify_interval(ci),
				 ci->cfg.notify_min_share)) {
		ci->c[CNPPROXY_CP_SMALL_FLOW]++;
		return;
	}
	flow_key(&k, &v);
	if (!pnc_cp_gate_pass(&cp.gate, &k, sizeof(k), now, notify_interval(ci))) {
		ci->c[CNPPROXY_CP_FLOW_INTERVAL]++;
		return;
	}
	if (!pnc_bucket_take(&ci->bucket, now)) {
		ci->c[CNPPROXY_CP_RATE_LIMITED]++;
		return;
	}
	if (outer_source_is_tunnel_head(&v, &tunnel_src))
		notify_fcn(ci, &v, &tunnel_src);
	else if (!direct_wanted(&v) || !notify_local(ci, &v))
		notify_proxy(ci, &v);
}

static void samples_read(struct event *t)
{
	pnc_mark_tc_poll(cp.mt, 0);
	event_add_read(master, samples_read, NULL, pnc_mark_tc_fd(cp.mt), &cp.t_samples);
}

/* ---- queue monitoring --------------------------------------------------- */

/* Share of ECN-capable packets the program marked since the last poll. */
static void ecn_rate_update(struct cp_if *ci)
{
	struct pnc_mark_if_counters now;
	uint64_t capable, marked;

	ci->have_ecn = false;
	if (pnc_mark_tc_if_counters(cp.mt, ci->ifindex, &now))
		return;
	capable = now.ecn_capable - ci->ecn_prev.ecn_capable;
	marked = (now.marked_ce - ci->ecn_prev.marked_ce) +
		 (now.marked_ect1 - ci->ecn_prev.marked_ect1);
	ci->ecn_prev = now;
	if (!capable)
		return;
	ci->ecn_permille = (uint32_t)(marked * 1000 / capable);
	ci->have_ecn = true;
}

/*
 * How long a state written to the program holds (cp/mark_abi.h): a few
 * poll intervals, and not less than a scheduling hiccup of the event
 * loop.  A daemon that stops polling stops marking within this.
 */
static uint64_t state_lifetime_ns(const struct cp_if *ci)
{
	uint64_t ms = MAX((uint64_t)ci->cfg.poll_ms * CP_STATE_LIFETIME_POLLS,
			  (uint64_t)CP_STATE_LIFETIME_MIN_MS);

	return ms * 1000000u;
}

static void push_state(struct cp_if *ci, bool sampling)
{
	struct pnc_mark_state st = {};
	struct pnc_cp_marks mk;
	uint64_t now = pnc_mark_tc_now_ns(), life = state_lifetime_ns(ci);

	pnc_cp_marks_compute(ci->cfg.policy.marking, &ci->thr, depth_of(ci), &mk);
	st.ect1_prob = mk.ect1_prob;
	st.ce_prob = mk.ce_prob;
	st.sample = sampling;
	st.sample_interval_ns = (uint64_t)notify_interval(ci) * 1000u;
	/* Unchanged and still good for half its lifetime: no write needed. */
	st.valid_until_ns = ci->pushed.valid_until_ns;
	if (ci->pushed_valid && !memcmp(&st, &ci->pushed, sizeof(st)) &&
	    st.valid_until_ns > now + life / 2)
		return;
	st.valid_until_ns = now + life;
	if (pnc_mark_tc_set_state(cp.mt, ci->ifindex, &st) == 0) {
		ci->pushed = st;
		ci->pushed_valid = true;
	}
}

static void machine_event(struct cp_if *ci, enum pnc_cp_event ev, uint64_t now)
{
	switch (ev) {
	case PNC_CP_EV_NONE:
		return;
	case PNC_CP_EV_ONSET:
		ci->c[CNPPROXY_CP_ONSETS]++;
		ci->last_onset_us = now;
		if (ci->m.state == PNC_CP_ST_CONGESTED)
			ci->c[CNPPROXY_CP_CONGESTED]++;
		break;
	case PNC_CP_EV_CONGESTED:
		ci->c[CNPPROXY_CP_CONGESTED]++;
		break;
	case PNC_CP_EV_EASED:
		break;
	case PNC_CP_EV_RESUME:
		ci->c[CNPPROXY_CP_RESUMES]++;
		ci->last_resume_us = now;
		resume_slowed(ci);
		break;
	}
	/* State changes are few and worth seeing, debug limits or not. */
	if (DEBUG_MODE_CHECK(&cnpproxy_dbg_cp, DEBUG_MODE_ALL))
		zlog_debug("congestion: %s: %s (backlog %u octets, K_min %" PRIu64
			   ", K_max %" PRIu64 ", trigger %s)",
			   ci->cfg.name, pnc_cp_state_name(ci->m.state), ci->cur.backlog_bytes,
			   ci->thr.k_min, ci->thr.k_max, pnc_cp_trigger_name(ci->m.trigger));
}

/* Collaborative suppression follows every reading (cp/collab.h). */
static void collab_step(struct cp_if *ci, enum pnc_cp_event ev, const struct pnc_qmon_sample *s)
{
	struct pnc_cp_collab_input in = {};
	int64_t arrival;

	if (!ci->cfg.collab_fall_percent) {
		pnc_cp_collab_init(&ci->collab);
		return;
	}
	/* What left plus what stayed is what arrived. */
	arrival = (int64_t)(ci->rates.tx_bps / 8) + ci->rates.growth_Bps;
	in.now_us = s->ts_us;
	in.onset = ev == PNC_CP_EV_ONSET;
	in.resume = ev == PNC_CP_EV_RESUME;
	in.have_rate = ci->rates.valid;
	in.arrival_Bps = arrival > 0 ? (uint64_t)arrival : 0;
	in.backlog = s->backlog_bytes;
	in.rtt_us = ci->cfg.policy.rtt_us;
	in.fall_percent = ci->cfg.collab_fall_percent;
	switch (pnc_cp_collab_step(&ci->collab, &in)) {
	case PNC_CP_COLLAB_EV_DEFERRED:
		ci->c[CNPPROXY_CP_COLLAB_DEFERRED]++;
		break;
	case PNC_CP_COLLAB_EV_ESCALATED:
		ci->c[CNPPROXY_CP_COLLAB_ESCALATED]++;
		break;
	case PNC_CP_COLLAB_EV_NONE:
		return;
	}
	if (DEBUG_MODE_CHECK(&cnpproxy_dbg_cp, DEBUG_MODE_ALL))
		zlog_debug("congestion: %s: collaborative suppression: %s (arrival %" PRIu64
			   " octets/s, %" PRIu64 " at onset, backlog %u octets)",
			   ci->cfg.name, pnc_cp_collab_state_name(ci->collab.state),
			   ci->collab.rate_ewma, ci->collab.onset_rate, s->backlog_bytes);
}

static void if_poll(struct event *t);

static void poll_arm(struct cp_if *ci)
{
	event_add_timer_msec(master, if_poll, ci, ci->cfg.poll_ms, &ci->t_poll);
}

static void poll_failed(struct cp_if *ci, int err)
{
	ci->c[CNPPROXY_CP_POLL_ERRORS]++;
	/* No new state: what the program has expires (push_state()). */
	ci->not_operational = "cannot read the interface's qdisc";
	CP_DEBUG("%s: qdisc: %s", ci->cfg.name, pnc_qmon_strerror(err));
}

/* A complete reading of the queue: thresholds, state machine, marking. */
static void if_reading(struct cp_if *ci, const struct pnc_qmon_sample *s)
{
	struct pnc_cp_observation obs = {};
	enum pnc_cp_event ev;

	ci->not_operational = NULL;
	if (ci->have_cur) {
		pnc_qmon_derive(&ci->cur, s, &ci->rates);
		ci->avg_backlog = pnc_cp_queue_average(ci->avg_backlog, s->backlog_bytes,
						       s->ts_us > ci->cur.ts_us
							       ? s->ts_us - ci->cur.ts_us
							       : 0,
						       ci->cfg.policy.rtt_us);
	} else {
		ci->avg_backlog = s->backlog_bytes;
	}
	ci->cur = *s;
	ci->have_cur = true;
	ecn_rate_update(ci);
	pnc_cp_thresholds_compute(&ci->cfg.policy, s->rate_bps, ci->link_bps, &ci->thr);
	if (!strcmp(s->kind, "noqueue"))
		/* Nothing queues: the link rate makes thresholds, but no backlog. */
		ci->not_operational = "no queue to watch (qdisc noqueue): add a root qdisc";
	else if (!pnc_cp_thresholds_known(&ci->thr))
		ci->not_operational =
			"no rate known and K_base 0: not marking (set rate or k-base)";

	obs.now_us = s->ts_us;
	obs.backlog = s->backlog_bytes;
	obs.growth_bps = ci->rates.growth_Bps;
	obs.have_growth = ci->rates.valid;
	obs.ecn_permille = ci->ecn_permille;
	obs.have_ecn = ci->have_ecn;
	ev = pnc_cp_machine_step(&ci->m, &ci->cfg.policy, &ci->thr, &obs);
	machine_event(ci, ev, s->ts_us);
	collab_step(ci, ev, s);

	ci->level = pnc_cp_level(ci->cfg.policy.marking, &ci->thr, depth_of(ci));
	if (s->backlog_bytes > ci->peak_backlog)
		ci->peak_backlog = s->backlog_bytes;
	push_state(ci,
		   pnc_cp_should_notify(ci->cfg.policy.marking, &ci->m, &ci->thr, depth_of(ci)));
}

/* A reading is over, with an answer or an error: use it, poll again. */
static void reading_done(struct cp_if *ci, int err, const struct pnc_qmon_sample *s)
{
	if (err)
		poll_failed(ci, err);
	else
		if_reading(ci, s);
	poll_arm(ci);
}

static void if_read(struct event *t)
{
	struct cp_if *ci = EVENT_ARG(t);
	struct pnc_qmon_sample s;
	int err = pnc_qmon_continue(ci->qm, &s);

	if (err == PNC_QMON_PENDING) {
		event_add_read(master, if_read, ci, pnc_qmon_fd(ci->qm), &ci->t_read);
		return;
	}
	event_cancel(&ci->t_timeout);
	reading_done(ci, err, &s);
}

static void if_read_timeout(struct event *t)
{
	struct cp_if *ci = EVENT_ARG(t);
	struct pnc_qmon_sample s;
	int err;

	event_cancel(&ci->t_read);
	/* Timers run before I/O: the answer may be waiting after a stall. */
	err = pnc_qmon_continue(ci->qm, &s);
	/* Still nothing: the next reading's request abandons this one. */
	reading_done(ci, err == PNC_QMON_PENDING ? -ETIMEDOUT : err, &s);
}

/*
 * Ask the kernel and come back when it answers: the event loop never
 * waits for a reply, and one lost reply costs one reading.
 */
static void if_poll(struct event *t)
{
	struct cp_if *ci = EVENT_ARG(t);
	int err;

	ci->c[CNPPROXY_CP_POLLS]++;
	err = pnc_qmon_begin(ci->qm, ci->ifindex);
	if (err) {
		poll_failed(ci, err);
		poll_arm(ci);
		return;
	}
	event_add_read(master, if_read, ci, pnc_qmon_fd(ci->qm), &ci->t_read);
	event_add_timer_msec(master, if_read_timeout, ci, CP_READ_TIMEOUT_MS, &ci->t_timeout);
}

/* ---- configuration ------------------------------------------------------ */

static void if_events_cancel(struct cp_if *ci)
{
	event_cancel(&ci->t_poll);
	event_cancel(&ci->t_read);
	event_cancel(&ci->t_timeout);
}

/* The running interface of that name, with its state, or NULL. */
static struct cp_if *if_find(struct cp_if *ifs, unsigned int n, const char *name)
{
	for (unsigned int i = 0; i < n; i++)
		if (!strcmp(ifs[i].cfg.name, name))
			return &ifs[i];
	return NULL;
}

/* The interface's readings stop; the attachment set detaches the program. */
static void if_stop(struct cp_if *ci)
{
	if_events_cancel(ci);
	pnc_qmon_close(ci->qm);
	ci->qm = NULL;
	ci->attached = false;
	ci->pushed_valid = false;
	ci->have_cur = false;
	ci->n_slowed = 0;
}

/* The program runs there: start reading the queue. */
static void if_start(struct cp_if *ci, int ifindex)
{
	ci->ifindex = ifindex;
	ci->attached = true;
	if (!ci->qm)
		ci->qm = pnc_qmon_open();
	if (!ci->qm) {
		/* The next configuration change tries again. */
		ci->not_operational = "cannot open a netlink socket";
		return;
	}
	ci->not_operational = "waiting for the first reading";
	ci->link_bps = link_speed(ci->cfg.name);
	pnc_cp_machine_init(&ci->m, cnpproxy_now_us());
	event_add_timer_msec(master, if_poll, ci, 0, &ci->t_poll);
}

static int cp_attach(void *prog, int ifindex, unsigned int flags)
{
	int ret = pnc_mark_tc_attach(prog, ifindex);

	return ret == -EEXIST ? 0 : ret;
}

static void cp_detach(void *prog, int ifindex)
{
	pnc_mark_tc_detach(prog, ifindex);
}

static void cp_attached(void *prog, const struct cnpproxy_attach_if *ai)
{
	struct cp_if *ci = if_find(cp.ifs, cp.n_if, ai->name);

	if (ci)
		if_start(ci, ai->ifindex);
}

static void cp_sync(void);

static void cp_qmon_retry(struct event *t)
{
	cp_sync();
}

/*
 * The interfaces whose thresholds are valid, to the attachment set;
 * then the reason of each that does not run.
 */
static void cp_sync(void)
{
	char names[PNC_CP_IF_MAX][PNC_IFNAME_MAX], err[128];
	const struct cnpproxy_attach_if *ai;
	unsigned int n = 0;

	for (unsigned int i = 0; i < cp.n_if; i++) {
		struct cp_if *ci = &cp.ifs[i];

		if (!pnc_cp_policy_config_valid(&ci->cfg.policy, err, sizeof(err))) {
			ci->not_operational = "invalid thresholds";
			continue;
		}
		strlcpy(names[n++], ci->cfg.name, sizeof(names[0]));
	}
	cnpproxy_attach_sync(&cp.set, cp.mt, names, NULL, n);
	event_cancel(&cp.t_qmon);
	for (unsigned int i = 0; i < cp.n_if; i++) {
		struct cp_if *ci = &cp.ifs[i];

		ai = cnpproxy_attach_find(&cp.set, ci->cfg.name);
		if (ai && ai->ifindex) {
			/* Attached, but no netlink socket to read the queue with yet. */
			if (ci->attached && !ci->qm)
				if_start(ci, ci->ifindex);
			if (ci->attached && !ci->qm && !cp.t_qmon)
				event_add_timer(master, cp_qmon_retry, NULL, CP_RETRY_S,
						&cp.t_qmon);
			continue;
		}
		/* Not (or no longer) attached: no readings. */
		if (ci->attached)
			if_stop(ci);
		if (ai)
			ci->not_operational = ai->error;
	}
}

static const struct cnpproxy_attach_ops cp_attach_ops = {
	.attach = cp_attach,
	.detach = cp_detach,
	.attached = cp_attached,
	.retry = cp_sync,
};

static void cp_stop(void)
{
	cnpproxy_attach_clear(&cp.set, cp.mt);
	event_cancel(&cp.t_qmon);
	for (unsigned int i = 0; i < cp.n_if; i++)
		if_stop(&cp.ifs[i]);
	cp.n_if = 0;
	event_cancel(&cp.t_samples);
	frr_with_privs (&cnpproxy_privs) {
		pnc_mark_tc_close(cp.mt);
	}
	cp.mt = NULL;
	sockets_close();
}

static bool cp_start(void)
{
	frr_with_privs (&cnpproxy_privs) {
		if (!cp.mt)
			cp.mt = pnc_mark_tc_open(sample_cb, NULL);
	}
	if (!cp.mt) {
		cp.not_operational = "cannot load the egress program (CAP_BPF, BTF?)";
		return false;
	}
	if (!cp.t_samples)
		event_add_read(master, samples_read, NULL, pnc_mark_tc_fd(cp.mt), &cp.t_samples);
	cp.not_operational = NULL;
	return true;
}

static bool configured(const struct pnc_cp_config *cc, const char *name)
{
	for (unsigned int k = 0; k < cc->n_if; k++)
		if (!strcmp(cc->ifs[k].name, name))
			return true;
	return false;
}

void cnpproxy_cp_apply(const struct pnc_config *cfg)
{
	const struct pnc_cp_config *cc = &cfg->cp;
	static struct cp_if old[PNC_CP_IF_MAX];
	unsigned int n_old = cp.n_if;

	cp.cfg = cfg;
	if (!role_on()) {
		cp_stop();
		cp.not_operational = "role not enabled";
		return;
	}
	if (!cp_start()) {
		cp_stop();
		return;
	}
	sockets_open();

	/*
	 * Keep the state of interfaces still configured; stop the others.
	 * The events point into cp.ifs, which is rebuilt: cancel them all (a
	 * reading under way is abandoned) and arm them again below.
	 */
	for (unsigned int i = 0; i < n_old; i++)
		if_events_cancel(&cp.ifs[i]);
	memcpy(old, cp.ifs, sizeof(old));
	/* The attachment set detaches the program from those no longer configured. */
	for (unsigned int i = 0; i < n_old; i++)
		if (!configured(cc, old[i].cfg.name))
			pnc_qmon_close(old[i].qm);
	memset(cp.ifs, 0, sizeof(cp.ifs));
	for (unsigned int k = 0; k < cc->n_if; k++) {
		struct cp_if *ci = &cp.ifs[k], *was = if_find(old, n_old, cc->ifs[k].name);

		if (was)
			*ci = *was;
		ci->t_poll = ci->t_read = ci->t_timeout = NULL;
		ci->cfg = cc->ifs[k];
		ci->pushed_valid = false;
		pnc_bucket_init(&ci->bucket, ci->cfg.notify_rate, ci->cfg.notify_rate,
				cnpproxy_now_us());
	}
	cp.n_if = cc->n_if;
	for (unsigned int k = 0; k < cp.n_if; k++) {
		struct cp_if *ci = &cp.ifs[k];

		if (ci->attached && ci->qm)
			poll_arm(ci);
	}
	cp_sync();
}

const char *cnpproxy_cp_not_operational(void)
{
	if (cp.not_operational)
		return cp.not_operational;
	if (!cp.n_if)
		return "no interface configured";
	return NULL;
}

/* ---- state for the show commands ---------------------------------------- */

const struct pnc_config *cnpproxy_cp_config(void)
{
	return cp.cfg;
}

bool cnpproxy_cp_attachment(unsigned int i, struct cnpproxy_attach_if *out)
{
	const struct pnc_cp_config *cc = &cp.cfg->cp;
	const struct cnpproxy_attach_if *ai;

	if (!cp.mt) {
		/* The program did not load: the configured interfaces, and why. */
		if (!role_on() || i >= cc->n_if)
			return false;
		memset(out, 0, sizeof(*out));
		strlcpy(out->name, cc->ifs[i].name, sizeof(out->name));
		out->error = cp.not_operational;
		return true;
	}
	if (i >= cp.n_if)
		return false;
	ai = cnpproxy_attach_find(&cp.set, cp.ifs[i].cfg.name);
	if (ai) {
		*out = *ai;
		return true;
	}
	/* Not given to the set: its thresholds are invalid. */
	memset(out, 0, sizeof(*out));
	strlcpy(out->name, cp.ifs[i].cfg.name, sizeof(out->name));
	out->error = cp.ifs[i].not_operational;
	return true;
}

unsigned int cnpproxy_cp_if_count(void)
{
	return cp.n_if;
}

bool cnpproxy_cp_if_view(unsigned int i, struct cnpproxy_cp_if_view *out)
{
	const struct cp_if *ci;

	if (i >= cp.n_if)
		return false;
	ci = &cp.ifs[i];
	memset(out, 0, sizeof(*out));
	out->cfg = &ci->cfg;
	out->ifindex = ci->ifindex;
	out->not_operational = ci->not_operational;
	/* Attached, and stays so: no packet goes out of a link that is down. */
	if (!out->not_operational && !cnpproxy_if_operative(ci->cfg.name))
		out->not_operational = "interface down";
	out->attach = ci->attached ? pnc_mark_tc_mode(cp.mt, ci->ifindex) : NULL;
	out->qdisc = ci->have_cur ? &ci->cur : NULL;
	out->rates = &ci->rates;
	out->link_bps = ci->link_bps;
	out->thr = &ci->thr;
	out->machine = &ci->m;
	out->collab = &ci->collab;
	out->ect1_prob = ci->pushed.ect1_prob;
	out->ce_prob = ci->pushed.ce_prob;
	out->sampling = ci->pushed.sample;
	out->level = ci->level;
	out->ecn_permille = ci->have_ecn ? ci->ecn_permille : 0;
	out->peak_backlog = ci->peak_backlog;
	out->avg_backlog = ci->have_cur ? ci->avg_backlog : 0;
	out->last_onset_us = ci->last_onset_us;
	out->last_resume_us = ci->last_resume_us;
	out->last_notify_us = ci->last_notify_us;
	out->counters = ci->c;
	return true;
}

void cnpproxy_cp_counters_clear(void)
{
	for (unsigned int i = 0; i < cp.n_if; i++) {
		memset(cp.ifs[i].c, 0, sizeof(cp.ifs[i].c));
		cp.ifs[i].peak_backlog = 0;
	}
	if (cp.mt) {
		frr_with_privs (&cnpproxy_privs) {
			pnc_mark_tc_counters_clear(cp.mt);
		}
	}
}

bool cnpproxy_cp_prog_counters(struct pnc_mark_counters *out)
{
	return cp.mt && pnc_mark_tc_counters(cp.mt, out) == 0;
}

uint32_t cnpproxy_cp_prog_id(void)
{
	return cp.mt ? pnc_mark_tc_prog_id(cp.mt) : 0;
}

/*
 * The interface was deleted, or re-created with another ifindex: the
 * program went with the old device; start over on the new one.
 */
static void cp_if_changed(const char *ifname, int ifindex)
{
	struct cp_if *ci = if_find(cp.ifs, cp.n_if, ifname);
	char names[1][PNC_IFNAME_MAX];

	if (!ci)
		return;
	if (ci->attached && ci->ifindex != ifindex) {
		if_stop(ci);
		ci->not_operational = "no such interface";
	}
	strlcpy(names[0], ifname, sizeof(names[0]));
	if (cnpproxy_attach_if_changed(&cp.set, cp.mt, names, 1, ifname, ifindex))
		cp_sync();
}

void cnpproxy_cp_init(void)
{
	cnpproxy_if_watch(cp_if_changed);
	pnc_cp_gate_init(&cp.gate, cp.slots, CP_GATE_SLOTS);
	pnc_bucket_init(&cp.debug, CP_DEBUG_PER_S, CP_DEBUG_PER_S, cnpproxy_now_us());
	cp.not_operational = "role not enabled";
}

void cnpproxy_cp_fini(void)
{
	cp_stop();
}
