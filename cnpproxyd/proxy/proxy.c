// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd proxy role: the receive and translate pipeline.
 *
 * A notification from a congestion point names a sender and the packet
 * that met congestion; the flow table, learned from the senders'
 * traffic, gives the sender's QP and P_Key; the proxy sends the sender
 * the message its prefix is configured for (standard CNP, Long-haul CNP
 * or rate advice), shaped by the notification's Congestion Level
 * (proxy/sender.c), from its configured address.  Every way a
 * notification can end is counted.
 *
 * The sockets and the pipeline belong to the fast-path thread
 * (cnpproxy_fp.h): a burst of up to CNPPROXY_PROXY_BATCH datagrams is read with one
 * recvmmsg() without the mutex, then translated under it, and its
 * messages leave in one sendmmsg() per family.  The main thread changes
 * the configuration, learns flows and answers show commands; it asks
 * the thread to open or close the sockets (pn_sync) rather than doing
 * it, so that no socket goes away under a read.
 */
#include <zebra.h>

#include <netinet/ip.h>
#include <netinet/icmp6.h>
#include <linux/if_ether.h>

#include "lib/frrevent.h"
#include "lib/hash.h"
#include "lib/jhash.h"
#include "lib/log.h"
#include "lib/memory.h"
#include "lib/plist.h"
#include "lib/privs.h"
#include "lib/sockunion.h"

#include "codec/lhcnp.h"
#include "codec/notif.h"
#include "codec/ratead.h"
#include "codec/roce.h"
#include "codec/ipudp.h"
#include "proxy/xdp/learn_xdp.h"

#include "cnpproxyd.h"
#include "proxy/accept.h"
#include "cnpproxy_debug.h"
#include "tunnel/tunnel.h"
#include "tunnel/shape.h"
#include "proxy/resume.h"
#include "cnpproxy_fp.h"
#include "cnpproxy_sock.h"
#include "proxy/flows_file.h"
#include "proxy/xdp/guard.h"
#include "proxy/xdp/learn.h"
#include "proxy/proxy.h"
#include "proxy/flows.h"
#include "cnpproxy_ratelimit.h"
#include "proxy/sender.h"
#include "proxy/xdp/xlate.h"
#include "proxy/xdp/xsk.h"
#include "proxy/xdp/xsk_tx.h"

DEFINE_MTYPE_STATIC(CNPPROXYD, CNPPROXY_NOTIF_SOURCE, "cnpproxyd notification source");
DEFINE_MTYPE_STATIC(CNPPROXYD, CNPPROXY_QP_INTERVAL, "cnpproxyd CNP interval state");

#define PN_MAX_SOURCES	  4096	/* per-source buckets kept */
#define PN_MAX_QPS	  65536 /* per-QP interval states kept */
#define PN_FLOWS	  65536 /* without configuration (the YANG default) */
#define PN_FLOW_IDLE_US	  (300ull * 1000000u)
#define PN_AGE_INTERVAL_S 10
#define PN_BIND_RETRY_S	  1  /* a port another process holds may be freed */
#define PN_DEBUG_PER_S	  50 /* a flood of bad notifications must not flood the log */
/*
 * Receive buffer of each notification socket: a burst of congestion
 * points reporting at once, or the fast path waiting for a moment on a
 * configuration commit, must not cost notifications (the default, 208 KiB, holds
 * about a thousand).  Datagrams the kernel still drops are counted.
 */
#define PN_RCVBUF (4u << 20)

static bool pn_debug_allowed(void);

#define PN_DEBUG(fmt, ...)                                                                        \
	do {                                                                                      \
		if (DEBUG_MODE_CHECK(&cnpproxy_dbg_proxy, DEBUG_MODE_ALL) && pn_debug_allowed())  \
			zlog_debug("proxy: " fmt, ##__VA_ARGS__);                                 \
	} while (0)

/* Written under the fast path's mutex: read through cnpproxy_proxy_counter_values(). */
static struct cnpproxy_proxy_counters counters;
static struct pnc_flow_table *flow_table;

const struct pnc_flow_table *cnpproxy_proxy_flows(void)
{
	return flow_table;
}

static const char *const counter_names[CNPPROXY_PROXY_COUNTER_MAX] = {
	[CNPPROXY_PROXY_RX] = "received",
	[CNPPROXY_PROXY_RX_FCN] = "receivedFlowLabel",
	[CNPPROXY_PROXY_RX_ICMP] = "receivedIcmp",
	[CNPPROXY_PROXY_RX_LOCAL] = "receivedLocal",
	[CNPPROXY_PROXY_RX_OVERFLOW] = "droppedSocketOverflow",
	[CNPPROXY_PROXY_RX_XSK] = "receivedAfXdp",
	[CNPPROXY_PROXY_RX_XSK_DROPPED] = "droppedAfXdpRing",
	[CNPPROXY_PROXY_XDP_DENIED] = "droppedAtDriverSourceDenied",
	[CNPPROXY_PROXY_XDP_RL_SOURCE] = "droppedAtDriverRateLimitSource",
	[CNPPROXY_PROXY_XDP_HDR_CHAIN] = "droppedAtDriverHeaderChain",
	[CNPPROXY_PROXY_NO_ACCEPT_LIST] = "droppedNoAcceptList",
	[CNPPROXY_PROXY_SOURCE_DENIED] = "droppedSourceDenied",
	[CNPPROXY_PROXY_RL_SOURCE] = "droppedRateLimitSource",
	[CNPPROXY_PROXY_RL_GLOBAL] = "droppedRateLimitGlobal",
	[CNPPROXY_PROXY_MALFORMED] = "droppedMalformed",
	[CNPPROXY_PROXY_NO_INVOKING] = "droppedNoInvokingPacket",
	[CNPPROXY_PROXY_UNKNOWN_FLOW] = "droppedUnknownFlow",
	[CNPPROXY_PROXY_FCN_UNRESOLVED] = "droppedFlowLabelUnresolved",
	[CNPPROXY_PROXY_NO_CNP_SOURCE] = "droppedNoCnpSource",
	[CNPPROXY_PROXY_MIN_INTERVAL] = "suppressedMinInterval",
	[CNPPROXY_PROXY_LIGHT] = "suppressedLight",
	[CNPPROXY_PROXY_SHAPED_LOCALLY] = "shapedLocally",
	[CNPPROXY_PROXY_RESUMES] = "resumesSent",
	[CNPPROXY_PROXY_CNP_SENT] = "cnpSent",
	[CNPPROXY_PROXY_XDP_SENT] = "cnpSentAtDriver",
	[CNPPROXY_PROXY_XDP_PASSED] = "passedToSocketPath",
	[CNPPROXY_PROXY_LH_ICMP6_SENT] = "longHaulIcmpv6Sent",
	[CNPPROXY_PROXY_LH_ROCE_SENT] = "longHaulRocev2Sent",
	[CNPPROXY_PROXY_RA_SENT] = "rateAdviceSent",
	[CNPPROXY_PROXY_TX_XSK] = "sentAfXdp",
	[CNPPROXY_PROXY_SEND_ERROR] = "cnpSendError",
};

const char *cnpproxy_proxy_counter_name(enum cnpproxy_proxy_counter c)
{
	return c < CNPPROXY_PROXY_COUNTER_MAX ? counter_names[c] : "unknown";
}

/* A rate-limited source, or a sender QP's last CNP time. */
struct pn_key {
	uint8_t version;
	uint8_t addr[16];
	uint32_t qpn; /* 0 for sources */
};

struct pn_source {
	struct pn_key key;
	struct pnc_bucket bucket;
};

struct pn_qp {
	struct pn_key key;
	uint64_t last_cnp_us;
};

static unsigned int pn_key_hash(const void *p)
{
	const struct pn_key *k = p;

	return jhash(k->addr, sizeof(k->addr), jhash_2words(k->version, k->qpn, 0x70c0ffee));
}

static bool pn_key_cmp(const void *a, const void *b)
{
	return !memcmp(a, b, sizeof(struct pn_key));
}

static struct {
	/* The last apply's; the fast path reads it under the mutex, like the rest. */
	const struct pnc_config *cfg;
	int notif_fd[2]; /* IPv4, IPv6 */
	int fcn_fd[2];
	int icmp_fd[2]; /* the notification's ICMP form: raw ICMP, ICMPv6 */
	int raw_fd[2];
	uint16_t notif_port, fcn_port; /* of the sockets open */
	uint16_t want_notif_port, want_fcn_port;
	uint8_t icmp_type[2], want_icmp_type[2]; /* ICMP, ICMPv6 */
	/* t_age on the main loop, the others on the fast path's. */
	struct event *t_notif[2], *t_fcn[2], *t_icmp[2], *t_age, *t_open, *t_sync;
	bool open_warned; /* warned of the sockets that failed since they last worked */
	struct hash *sources;
	struct hash *qps;
	struct pnc_bucket global;
	struct pnc_bucket debug;
	uint16_t ip_id;
	/* The kernel's drop count last seen on each socket (SO_RXQ_OVFL). */
	uint32_t notif_ovfl[2], fcn_ovfl[2], icmp_ovfl[2];
	bool role_off;
	const char *sockets_missing; /* NULL: all sockets open */
} pn = {
	.cfg = &pnc_config_off,
	.role_off = true,
	.notif_fd = { -1, -1 },
	.fcn_fd = { -1, -1 },
	.icmp_fd = { -1, -1 },
	.raw_fd = { -1, -1 },
};

static uint64_t now_us(void)
{
	return cnpproxy_now_us();
}

static bool pn_debug_allowed(void)
{
	return pnc_bucket_take(&pn.debug, now_us());
}

static void pn_source_free(void *item)
{
	XFREE(MTYPE_CNPPROXY_NOTIF_SOURCE, item);
}

static void pn_qp_free(void *item)
{
	XFREE(MTYPE_CNPPROXY_QP_INTERVAL, item);
}

/* ---- sockets ---------------------------------------------------------- */

/* Beyond net.core.rmem_max when privileged (CAP_NET_ADMIN), else up to it. */
static void rcvbuf_size(int fd)
{
	int size = PN_RCVBUF, ret = -1;

	frr_with_privs (&cnpproxy_privs) {
		ret = setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size));
	}
	if (ret < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
}

static int udp_socket(int family, uint16_t port, bool warn)
{
	union sockunion su = {};
	int fd, on = 1;

	fd = socket(family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
	/* Every datagram says how many the socket has dropped so far. */
	setsockopt(fd, SOL_SOCKET, SO_RXQ_OVFL, &on, sizeof(on));
	rcvbuf_size(fd);
	if (family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof(on));
	su.sa.sa_family = family;
	if (family == AF_INET)
		su.sin.sin_port = htons(port);
	else
		su.sin6.sin6_port = htons(port);
	if (bind(fd, &su.sa, sockunion_sizeof(&su)) < 0) {
		if (warn)
			zlog_warn("cnpproxyd: cannot bind UDP port %u (%s): %s; retrying every %d s",
				  port, family == AF_INET ? "IPv4" : "IPv6", safe_strerror(errno),
				  PN_BIND_RETRY_S);
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * A raw socket for the notification's ICMP form, taking in only its type:
 * the kernel hands raw ICMP sockets a copy of every ICMP message.
 */
static int icmp_socket(int family, uint8_t type)
{
	int fd = cnpproxy_icmp_socket(family, type), on = 1;

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_RXQ_OVFL, &on, sizeof(on));
	rcvbuf_size(fd);
	return fd;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void pn_read(struct event *t);

static void pn_close_fds(void)
{
	for (int i = 0; i < 2; i++) {
		close_fd(&pn.notif_fd[i]);
		close_fd(&pn.fcn_fd[i]);
		close_fd(&pn.icmp_fd[i]);
		close_fd(&pn.raw_fd[i]);
		pn.icmp_type[i] = 0;
	}
	pn.notif_port = pn.fcn_port = 0;
	pn.open_warned = false;
}

/* On the fast-path thread, with the mutex held. */
static void pn_close(void)
{
	for (int i = 0; i < 2; i++) {
		event_cancel(&pn.t_notif[i]);
		event_cancel(&pn.t_fcn[i]);
		event_cancel(&pn.t_icmp[i]);
	}
	event_cancel(&pn.t_open);
	pn_close_fds();
}

static void pn_age(struct event *t)
{
	frr_with_mutex (&cnpproxy_fp_mtx) {
		if (flow_table)
			pnc_flow_table_age(flow_table, now_us());
	}
	event_add_timer(master, pn_age, NULL, PN_AGE_INTERVAL_S, &pn.t_age);
}

static void pn_arm(int i)
{
	struct event_loop *loop = cnpproxy_fp_loop();

	if (pn.notif_fd[i] >= 0)
		event_add_read(loop, pn_read, &pn.notif_fd[i], pn.notif_fd[i], &pn.t_notif[i]);
	if (pn.fcn_fd[i] >= 0)
		event_add_read(loop, pn_read, &pn.fcn_fd[i], pn.fcn_fd[i], &pn.t_fcn[i]);
	if (pn.icmp_fd[i] >= 0)
		event_add_read(loop, pn_read, &pn.icmp_fd[i], pn.icmp_fd[i], &pn.t_icmp[i]);
}

static void pn_open_retry(struct event *t);

/*
 * Open whichever sockets are missing, and come back until all are
 * there: a port held by another process now may be free later, and the
 * operator should not have to touch the configuration for it.  On the
 * fast-path thread, with the mutex held.
 */
static void pn_open(void)
{
	static const int families[2] = { AF_INET, AF_INET6 };
	bool missing = false;

	for (int i = 0; i < 2; i++) {
		if (pn.notif_fd[i] < 0) {
			pn.notif_fd[i] = udp_socket(families[i], pn.notif_port, !pn.open_warned);
			pn.notif_ovfl[i] = 0;
		}
		if (pn.fcn_fd[i] < 0) {
			pn.fcn_fd[i] = udp_socket(families[i], pn.fcn_port, !pn.open_warned);
			pn.fcn_ovfl[i] = 0;
		}
		if (pn.icmp_fd[i] < 0) {
			pn.icmp_type[i] = pn.want_icmp_type[i];
			pn.icmp_fd[i] = icmp_socket(families[i], pn.icmp_type[i]);
			pn.icmp_ovfl[i] = 0;
		}
		if (pn.raw_fd[i] < 0) {
			frr_with_privs (&cnpproxy_privs) {
				pn.raw_fd[i] = socket(families[i], SOCK_RAW | SOCK_CLOEXEC,
						      IPPROTO_RAW);
			}
		}
		pn_arm(i);
		missing |= pn.notif_fd[i] < 0 || pn.fcn_fd[i] < 0 || pn.icmp_fd[i] < 0 ||
			   pn.raw_fd[i] < 0;
	}
	if (pn.notif_fd[0] < 0 || pn.notif_fd[1] < 0 || pn.fcn_fd[0] < 0 || pn.fcn_fd[1] < 0)
		pn.sockets_missing = "cannot bind the notification ports (retrying)";
	else if (pn.raw_fd[0] < 0 || pn.raw_fd[1] < 0 || pn.icmp_fd[0] < 0 || pn.icmp_fd[1] < 0)
		pn.sockets_missing = "cannot open raw sockets (CAP_NET_RAW; retrying)";
	else
		pn.sockets_missing = NULL;
	if (missing) {
		pn.open_warned = true;
		event_add_timer(cnpproxy_fp_loop(), pn_open_retry, NULL, PN_BIND_RETRY_S,
				&pn.t_open);
	} else if (pn.open_warned) {
		zlog_info("cnpproxyd: notification ports %u and %u bound", pn.notif_port,
			  pn.fcn_port);
		pn.open_warned = false;
	}
}

static void pn_open_retry(struct event *t)
{
	frr_with_mutex (&cnpproxy_fp_mtx) {
		pn_open();
	}
}

/* The fast-path thread makes its sockets what the configuration wants. */
static void pn_sync(struct event *t)
{
	frr_with_mutex (&cnpproxy_fp_mtx) {
		if (pn.role_off) {
			pn_close();
			pn.sockets_missing = NULL;
		} else {
			if (pn.notif_port != pn.want_notif_port ||
			    pn.fcn_port != pn.want_fcn_port) {
				pn_close();
				pn.notif_port = pn.want_notif_port;
				pn.fcn_port = pn.want_fcn_port;
			}
			/* Another ICMP type: the filters are the sockets'. */
			for (int i = 0; i < 2; i++) {
				if (pn.icmp_type[i] == pn.want_icmp_type[i])
					continue;
				event_cancel(&pn.t_icmp[i]);
				close_fd(&pn.icmp_fd[i]);
			}
			pn_open();
		}
	}
}

struct flows_move {
	struct pnc_flow_table *to;
	uint64_t now;
	size_t moved, dropped;
};

static void flow_move(const struct pnc_flow_saved *s, void *arg)
{
	struct flows_move *m = arg;

	if (pnc_flow_table_restore(m->to, s, m->now) == PNC_FLOW_TABLE_FULL)
		m->dropped++;
	else
		m->moved++;
}

/*
 * A table of another size in place of flow_table, with the flows it had
 * learned (as many as fit; pending CM requests and PSN evidence start
 * over).  The caller hands the new table to learning.
 */
static void pn_flows_resize(size_t size)
{
	struct flows_move m = { .now = now_us() };

	m.to = pnc_flow_table_new(size, PN_FLOW_IDLE_US);
	pnc_flow_table_walk_saved(flow_table, flow_move, &m);
	cnpproxy_flows_file_stop();
	pnc_flow_table_free(flow_table);
	flow_table = m.to;
	cnpproxy_flows_file_start(flow_table);
	zlog_info("cnpproxyd: flow table resized to %zu flows (%zu bytes): %zu flows kept, %zu did not fit",
		  size, pnc_flow_table_bytes(flow_table), m.moved, m.dropped);
}

/* A sender cut by a remote notification, quiet since: its Resume. */
static bool pn_resume_quiet(const struct cnpproxy_resume_flow_ref *ref)
{
	return cnpproxy_proxy_local_resume(ref, NULL);
}

void cnpproxy_proxy_apply(const struct pnc_config *cfg)
{
	bool on = cfg->present && cfg->role[PNC_ROLE_PROXY];
	size_t flows_size = cfg->proxy.flow_table_size ? cfg->proxy.flow_table_size : PN_FLOWS;

	pn.cfg = cfg;
	pnc_bucket_init(&pn.global, cfg->proxy.rl_global, cfg->proxy.rl_global, now_us());
	cnpproxy_resume_apply(on ? cfg->proxy.resume_after_us : 0, pn_resume_quiet);
	/* New limits apply to sources from scratch. */
	hash_clean(pn.sources, pn_source_free);

	/* The flow table's pools are large: only the enabled role has one. */
	if (on && !flow_table) {
		flow_table = pnc_flow_table_new(flows_size, PN_FLOW_IDLE_US);
		/* What a previous cnpproxyd had learned (a restart, not a new role). */
		cnpproxy_flows_file_restore(flow_table, PN_FLOW_IDLE_US / 1000000u);
		cnpproxy_flows_file_start(flow_table);
	} else if (on && pnc_flow_table_capacity(flow_table) != flows_size) {
		pn_flows_resize(flows_size);
	}
	if (!on) {
		/* Disabling the role forgets the flows, on file too. */
		if (flow_table)
			cnpproxy_flows_file_forget();
		/* Learning lets go of the table before it is freed. */
		cnpproxy_learn_apply(cfg, NULL);
		cnpproxy_tunnel_apply(cfg);
		event_cancel(&pn.t_age);
		pnc_flow_table_free(flow_table);
		flow_table = NULL;
		hash_clean(pn.qps, pn_qp_free);
		pn.role_off = true;
		/* Closed by the thread: a read under way finds the role off. */
		event_add_event(cnpproxy_fp_loop(), pn_sync, NULL, 0, &pn.t_sync);
		return;
	}
	cnpproxy_learn_apply(cfg, flow_table);
	cnpproxy_tunnel_apply(cfg);
	cnpproxy_accept_update(cfg->proxy.accept_plist);
	if (!pn.t_age)
		event_add_timer(master, pn_age, NULL, PN_AGE_INTERVAL_S, &pn.t_age);
	if (!pn.role_off && pn.want_notif_port == cfg->notification_port &&
	    pn.want_fcn_port == cfg->flow_label_port &&
	    pn.want_icmp_type[0] == cfg->notification_icmp_type &&
	    pn.want_icmp_type[1] == cfg->notification_icmp6_type)
		return;
	pn.role_off = false;
	pn.want_notif_port = cfg->notification_port;
	pn.want_fcn_port = cfg->flow_label_port;
	pn.want_icmp_type[0] = cfg->notification_icmp_type;
	pn.want_icmp_type[1] = cfg->notification_icmp6_type;
	/* Until the thread has tried: status must not say the role runs. */
	pn.sockets_missing = "opening the notification sockets";
	event_add_event(cnpproxy_fp_loop(), pn_sync, NULL, 0, &pn.t_sync);
}

/* Every call, not at apply time: a prefix-list may come and go later. */
const char *cnpproxy_proxy_not_operational(void)
{
	const char *plist = pn.cfg->proxy.accept_plist;
	const char *why = NULL;

	if (pn.role_off)
		return "role not enabled";
	/* Before the sockets: they are opened by the thread. */
	if (!cnpproxy_fp_running())
		return "the fast-path thread does not run";
	frr_with_mutex (&cnpproxy_fp_mtx) {
		why = pn.sockets_missing;
	}
	if (why)
		return why;
	if (!plist[0])
		return "no accept-from prefix-list: every notification is dropped";
	if (!prefix_list_lookup(AFI_IP, plist) && !prefix_list_lookup(AFI_IP6, plist))
		return "the accept-from prefix-list does not exist: every notification is dropped";
	/* Parts the configuration asks for, failing: the role does less than it says. */
	why = cnpproxy_learn_not_operational();
	if (why)
		return why;
	why = cnpproxy_guard_not_operational();
	if (why)
		return why;
	why = cnpproxy_xlate_not_operational();
	if (why)
		return why;
	why = cnpproxy_xsk_not_operational();
	if (why)
		return why;
	if (pn.cfg->proxy.tunnel_enabled && cnpproxy_tunnel_not_operational())
		return cnpproxy_tunnel_not_operational();
	return NULL;
}

/* ---- the pipeline ------------------------------------------------------ */

/* Room for the largest message: a Long-haul CNP with its extension. */
#define PN_OUT_MAX MAX(PNC_LH_ROCE_MAX_LEN, PNC_LH_ICMP6_MAX_LEN)

struct pn_out {
	uint8_t pkt[PN_OUT_MAX];
	size_t len;
	enum cnpproxy_proxy_counter sent; /* counted when the kernel takes it */
	union sockunion dst;
	/* Held to the sender QP's minimum interval: its time is the send's. */
	bool paced;
	struct pn_key qp;
};

static struct {
	struct pn_out out[2][CNPPROXY_PROXY_BATCH];
	unsigned int n[2];
} batch;

/* The accept-from list, as compiled for this thread (proxy/accept.c). */
static bool source_allowed(const union sockunion *from)
{
	const struct pnc_proxy_config *pc = &pn.cfg->proxy;

	if (!pc->accept_plist[0]) {
		counters.c[CNPPROXY_PROXY_NO_ACCEPT_LIST]++;
		return false;
	}
	if (!cnpproxy_accept_permits(sockunion_family(from) == AF_INET ? 4 : 6,
				     sockunion_get_addr(from))) {
		counters.c[CNPPROXY_PROXY_SOURCE_DENIED]++;
		PN_DEBUG("notification from %pSU refused by prefix-list %s", from,
			 pc->accept_plist);
		return false;
	}
	return true;
}

static void key_of(struct pn_key *k, int family, const void *addr, uint32_t qpn)
{
	memset(k, 0, sizeof(*k));
	k->version = family == AF_INET ? 4 : 6;
	memcpy(k->addr, addr, family == AF_INET ? 4 : 16);
	k->qpn = qpn;
}

static bool within_rate(const union sockunion *from, uint64_t now)
{
	const struct pnc_proxy_config *pc = &pn.cfg->proxy;
	struct pn_source lookup, *src;

	key_of(&lookup.key, sockunion_family(from), sockunion_get_addr(from), 0);
	src = hash_lookup(pn.sources, &lookup);
	if (!src) {
		/* Bounded: forget everyone rather than grow without end. */
		if (pn.sources->count >= PN_MAX_SOURCES)
			hash_clean(pn.sources, pn_source_free);
		src = XCALLOC(MTYPE_CNPPROXY_NOTIF_SOURCE, sizeof(*src));
		src->key = lookup.key;
		pnc_bucket_init(&src->bucket, pc->rl_per_source, pc->rl_per_source, now);
		(void)hash_get(pn.sources, src, hash_alloc_intern);
	}
	if (!pnc_bucket_take(&src->bucket, now)) {
		counters.c[CNPPROXY_PROXY_RL_SOURCE]++;
		return false;
	}
	if (!pnc_bucket_take(&pn.global, now)) {
		counters.c[CNPPROXY_PROXY_RL_GLOBAL]++;
		return false;
	}
	return true;
}

/*
 * Per sender QP minimum interval between messages, times factor (the
 * level policy's pacing of light notifications).
 */
static bool interval_ok(const struct pnc_flow *f, uint64_t now, unsigned int factor)
{
	struct pn_qp lookup, *qp;

	key_of(&lookup.key, f->ip_version == 4 ? AF_INET : AF_INET6, f->sender, f->sender_qpn);
	qp = hash_lookup(pn.qps, &lookup);
	if (!qp) {
		if (pn.qps->count >= PN_MAX_QPS)
			hash_clean(pn.qps, pn_qp_free);
		qp = XCALLOC(MTYPE_CNPPROXY_QP_INTERVAL, sizeof(*qp));
		qp->key = lookup.key;
		(void)hash_get(pn.qps, qp, hash_alloc_intern);
	} else if (now - qp->last_cnp_us < (uint64_t)pn.cfg->proxy.cnp_min_interval_us * factor) {
		counters.c[CNPPROXY_PROXY_MIN_INTERVAL]++;
		return false;
	}
	qp->last_cnp_us = now;
	return true;
}

/* IP and UDP fields every RoCEv2 message to the sender shares. */
static void sender_ip(const struct pnc_flow *f, struct pnc_ip_udp *ip)
{
	const struct pnc_proxy_config *pc = &pn.cfg->proxy;
	int i = f->ip_version == 4 ? 0 : 1;

	pnc_ip_udp_init(ip, f->ip_version);
	memcpy(ip->src, i == 0 ? pc->src4 : pc->src6, i == 0 ? 4 : 16);
	memcpy(ip->dst, f->sender, 16);
	ip->tos = (uint8_t)(pc->cnp_dscp << 2); /* Not-ECT */
	/* Never 0: the kernel would rewrite it, and the ICRC covers it. */
	ip->ip_id = ++pn.ip_id ? pn.ip_id : ++pn.ip_id;
	ip->sport = f->udp_sport ? f->udp_sport : 0xc000;
}

/* Wall clock in the 64-bit NTP format of the extension's timestamp. */
static uint64_t ntp_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((uint64_t)ts.tv_sec + 2208988800u) << 32 |
	       (((uint64_t)ts.tv_nsec << 32) / 1000000000u);
}

/* The Long-haul block and extension for a reaction. */
static void lh_message(const struct pnc_flow *f, const struct pnc_reaction *r,
		       const struct cnpproxy_proxy_queue_report *metric, struct pnc_lh_cnp *m)
{
	const struct pnc_proxy_config *pc = &pn.cfg->proxy;

	memset(m, 0, sizeof(*m));
	m->block.level = r->lh_level;
	m->block.action = r->lh_action;
	m->block.parameter = r->lh_parameter;
	m->block.src_qp = f->sender_qpn;
	/*
	 * A remote notification gives the level only; this router's own
	 * congestion point also knows its queue.
	 */
	m->block.metric_type = metric ? metric->type : PNC_LH_METRIC_NONE;
	m->block.metric = metric ? metric->value : 0;
	if (pc->lh_device_id[0]) {
		m->ext.present = true;
		m->ext.checksum = true;
		m->ext.class_num = pc->lh_class_num;
		m->ext.has_timestamp = true;
		m->ext.timestamp = ntp_now();
		strlcpy(m->ext.device_id, pc->lh_device_id, sizeof(m->ext.device_id));
	}
}

/* Build the message the sender understands into o. */
static int build_message(const struct pnc_flow *f, const struct pnc_sender *snd,
			 const struct pnc_reaction *r,
			 const struct cnpproxy_proxy_queue_report *metric, struct pn_out *o)
{
	const struct pnc_proxy_config *pc = &pn.cfg->proxy;
	struct pnc_lh_icmp6 icmp;
	struct pnc_rate_advice ra;
	struct pnc_lh_roce lh;
	struct pnc_cnp c;

	switch (snd->format) {
	case PNC_FMT_LONG_HAUL_ICMPV6:
		memset(&icmp, 0, sizeof(icmp));
		memcpy(icmp.src, pc->src6, 16);
		memcpy(icmp.dst, f->sender, 16);
		icmp.tclass = (uint8_t)(pc->cnp_dscp << 2);
		icmp.hop_limit = 64;
		icmp.type = pc->lh_icmp6_type;
		lh_message(f, r, metric, &icmp.msg);
		o->sent = CNPPROXY_PROXY_LH_ICMP6_SENT;
		return pnc_lh_icmp6_encode(&icmp, o->pkt, sizeof(o->pkt), &o->len);
	case PNC_FMT_LONG_HAUL_ROCEV2:
		memset(&lh, 0, sizeof(lh));
		sender_ip(f, &lh.ip);
		lh.pkey = f->pkey;
		lh.dest_qp = f->sender_qpn;
		lh.cnp_sized = snd->cnp_sized;
		lh_message(f, r, metric, &lh.msg);
		o->sent = CNPPROXY_PROXY_LH_ROCE_SENT;
		return pnc_lh_roce_encode(&lh, o->pkt, sizeof(o->pkt), &o->len);
	case PNC_FMT_RATE_ADVICE:
		memset(&ra, 0, sizeof(ra));
		sender_ip(f, &ra.ip);
		ra.opcode = pc->ra_opcode;
		ra.pkey = f->pkey;
		ra.dest_qp = f->sender_qpn;
		ra.peer_qp = f->receiver_qpn;
		ra.rate_mbps = r->ra_rate;
		o->sent = CNPPROXY_PROXY_RA_SENT;
		return pnc_rate_advice_encode(&ra, o->pkt, sizeof(o->pkt), &o->len);
	case PNC_FMT_ROCEV2_CNP:
	case PNC_FMT_MAX:
		break;
	}
	memset(&c, 0, sizeof(c));
	sender_ip(f, &c.ip);
	c.pkey = f->pkey;
	c.dest_qp = f->sender_qpn;
	o->sent = CNPPROXY_PROXY_CNP_SENT;
	return pnc_cnp_encode(&c, o->pkt, sizeof(o->pkt), &o->len);
}

/* Queue the message of reaction r to flow f's sender; false if none left. */
static bool queue_message(const struct pnc_flow *f, const struct pnc_sender *snd,
			  const struct pnc_reaction *r,
			  const struct cnpproxy_proxy_queue_report *metric, uint8_t cl, bool paced,
			  const char *why)
{
	int i = f->ip_version == 4 ? 0 : 1;
	struct pn_out *o;

	if (batch.n[i] == CNPPROXY_PROXY_BATCH)
		return false; /* flushed by the caller after every datagram batch */
	o = &batch.out[i][batch.n[i]];
	if (build_message(f, snd, r, metric, o)) {
		counters.c[CNPPROXY_PROXY_SEND_ERROR]++;
		return false;
	}
	memset(&o->dst, 0, sizeof(o->dst));
	sockunion_set(&o->dst, i == 0 ? AF_INET : AF_INET6, f->sender, i == 0 ? 4 : 16);
	o->paced = paced;
	key_of(&o->qp, i == 0 ? AF_INET : AF_INET6, f->sender, f->sender_qpn);
	batch.n[i]++;
	PN_DEBUG("%s to %pSU QP 0x%06x (CL %u, %s)", pnc_sender_format_name(snd->format), &o->dst,
		 f->sender_qpn, cl, why);
	return true;
}

static bool source_set(const struct pnc_flow *f)
{
	const struct pnc_proxy_config *pc = &pn.cfg->proxy;

	if (f->ip_version == 4 ? pc->src4_set : pc->src6_set)
		return true;
	counters.c[CNPPROXY_PROXY_NO_CNP_SOURCE]++;
	return false;
}

/* Whether the message asks the sender to slow down (a Resume can undo it). */
static bool cuts(enum pnc_sender_format fmt, const struct pnc_reaction *r)
{
	if (fmt == PNC_FMT_RATE_ADVICE)
		return true;
	return (fmt == PNC_FMT_LONG_HAUL_ICMPV6 || fmt == PNC_FMT_LONG_HAUL_ROCEV2) &&
	       (r->lh_action == PNC_LH_RATE_REDUCE || r->lh_action == PNC_LH_PAUSE);
}

static void resume_note(const struct pnc_flow *f, uint64_t now)
{
	struct cnpproxy_resume_flow_ref ref = {};

	ref.ip_version = f->ip_version;
	memcpy(ref.sender, f->sender, sizeof(ref.sender));
	memcpy(ref.receiver, f->receiver, sizeof(ref.receiver));
	ref.receiver_qpn = f->receiver_qpn;
	cnpproxy_resume_note(&ref, now);
}

/* A notification of level cl for flow f: the sender's message, if any. */
static bool react(const struct pnc_flow *f, uint8_t cl,
		  const struct cnpproxy_proxy_queue_report *metric, uint64_t now)
{
	const struct pnc_proxy_config *pc = &pn.cfg->proxy;
	const struct pnc_sender *snd;
	struct pnc_level_policy lp;
	struct pnc_reaction r;

	snd = pnc_sender_of(pc->senders, pc->n_senders, f->ip_version, f->sender);
	/*
	 * A congestion point of this router knows its queue's drain rate:
	 * the advice scales the flow's share of it, not the configured
	 * maximum, by the level.
	 */
	lp = pc->level;
	if (metric && metric->advice_mbps)
		lp.ra_max_rate = metric->advice_mbps;
	pnc_reaction_for(&lp, snd->format, cl, &r);
	if (metric)
		pnc_reaction_at_depth(&r, metric->lh_level);
	/* Seed 003 3.2.2.1: light congestion of a tunnelled flow stays at the PE. */
	if (!r.severe && cnpproxy_shape_light(f)) {
		counters.c[CNPPROXY_PROXY_SHAPED_LOCALLY]++;
		PN_DEBUG("light notification (CL %u) for QP 0x%06x: slowed at this PE", cl,
			 f->sender_qpn);
		return false;
	}
	if (!r.send) {
		counters.c[CNPPROXY_PROXY_LIGHT]++;
		PN_DEBUG("light notification (CL %u) for QP 0x%06x: no CNP by policy", cl,
			 f->sender_qpn);
		return false;
	}
	if (!source_set(f) || !interval_ok(f, now, r.interval_factor))
		return false;
	if (!queue_message(f, snd, &r, metric, cl, true, r.severe ? "severe" : "light"))
		return false;
	/* A remote congestion point never says "drained": the quiet time will. */
	if (!metric && cuts(snd->format, &r))
		resume_note(f, now);
	return true;
}

/*
 * The minimum interval runs from when a message left, not from when it
 * was decided: a batch that took long to finish must not bring the next
 * message closer to this one on the wire.
 */
static void paced_sent(uint64_t now)
{
	for (int i = 0; i < 2; i++) {
		for (unsigned int k = 0; k < batch.n[i]; k++) {
			struct pn_qp lookup, *qp;

			if (!batch.out[i][k].paced)
				continue;
			lookup.key = batch.out[i][k].qp;
			qp = hash_lookup(pn.qps, &lookup);
			if (qp && now > qp->last_cnp_us)
				qp->last_cnp_us = now;
		}
		batch.n[i] = 0;
	}
}

/* With fast-path af-xdp, as frames on AF_XDP sockets; the rest by the raw sockets. */
static void flush_cnps(void)
{
	for (int i = 0; i < 2; i++) {
		struct mmsghdr msgs[CNPPROXY_PROXY_BATCH] = {};
		struct iovec iov[CNPPROXY_PROXY_BATCH];
		struct pn_out *raw[CNPPROXY_PROXY_BATCH];
		unsigned int n = 0;
		int sent;

		for (unsigned int k = 0; k < batch.n[i]; k++) {
			struct pn_out *o = &batch.out[i][k];

			if (cnpproxy_xsk_tx(i == 0 ? 4 : 6, sockunion_get_addr(&o->dst), o->pkt,
					    o->len)) {
				counters.c[o->sent]++;
				counters.c[CNPPROXY_PROXY_TX_XSK]++;
				continue;
			}
			raw[n] = o;
			iov[n].iov_base = o->pkt;
			iov[n].iov_len = o->len;
			msgs[n].msg_hdr.msg_iov = &iov[n];
			msgs[n].msg_hdr.msg_iovlen = 1;
			msgs[n].msg_hdr.msg_name = &o->dst;
			msgs[n].msg_hdr.msg_namelen = sockunion_sizeof(&o->dst);
			n++;
		}
		if (!n)
			continue;
		sent = pn.raw_fd[i] >= 0 ? sendmmsg(pn.raw_fd[i], msgs, n, 0) : -1;
		if (sent < 0)
			sent = 0;
		for (int k = 0; k < sent; k++)
			counters.c[raw[k]->sent]++;
		counters.c[CNPPROXY_PROXY_SEND_ERROR] += n - (unsigned int)sent;
	}
	cnpproxy_xsk_tx_flush();
	paced_sent(now_us());
}

static void malformed(int err, const union sockunion *from)
{
	counters.c[CNPPROXY_PROXY_MALFORMED]++;
	if (err < 0 && -err < PNC_CODEC_NERR)
		counters.malformed[-err]++;
	PN_DEBUG("malformed notification from %pSU: %s", from, pnc_codec_strerror(err));
}

/* icmp: the message in its ICMP form (6.5), NULL for a UDP payload. */
static void handle_notification(const uint8_t *buf, size_t len, const union sockunion *from,
				const struct pnc_notif_icmp *icmp, uint64_t now)
{
	const struct pnc_flow *f;
	struct pnc_roce_view v;
	struct pnc_notif n;
	size_t ip_off;
	int err;

	counters.c[CNPPROXY_PROXY_RX]++;
	if (icmp)
		counters.c[CNPPROXY_PROXY_RX_ICMP]++;
	if (!source_allowed(from) || !within_rate(from, now))
		return;
	err = icmp ? pnc_notif_icmp_decode(icmp, buf, len, &n) : pnc_notif_decode(buf, len, &n);
	if (err) {
		malformed(err, from);
		return;
	}
	/* The BTH of the invoking packet names the receiver's QP. */
	err = pnc_notif_invoking_roce(&n, &ip_off, &v);
	if (err) {
		counters.c[CNPPROXY_PROXY_NO_INVOKING]++;
		PN_DEBUG("notification from %pSU without usable packet: %s", from,
			 pnc_codec_strerror(err));
		return;
	}
	f = flow_table ? pnc_flow_lookup(flow_table, v.ip.version, v.ip.src, v.ip.dst,
					 v.bth.dest_qp, now)
		       : NULL;
	if (!f) {
		counters.c[CNPPROXY_PROXY_UNKNOWN_FLOW]++;
		PN_DEBUG("notification from %pSU for an unknown flow (QP 0x%06x)", from,
			 v.bth.dest_qp);
		return;
	}
	react(f, n.cl, NULL, now);
}

static void handle_fcn(const uint8_t *buf, size_t len, const union sockunion *from, uint64_t now)
{
	const struct pnc_flow *f;
	struct pnc_tunnel_flow ff;
	struct pnc_fcn fcn;
	int err;

	counters.c[CNPPROXY_PROXY_RX_FCN]++;
	if (!source_allowed(from) || !within_rate(from, now))
		return;
	err = pnc_fcn_decode(buf, len, &fcn);
	if (err) {
		malformed(err, from);
		return;
	}
	if (!cnpproxy_tunnel_resolve(fcn.flow_label, &ff)) {
		counters.c[CNPPROXY_PROXY_FCN_UNRESOLVED]++;
		PN_DEBUG("flow-label notification from %pSU: label 0x%05x not ours", from,
			 fcn.flow_label);
		return;
	}
	f = flow_table
		    ? pnc_flow_lookup(flow_table, ff.ip_version, ff.src, ff.dst, ff.dest_qp, now)
		    : NULL;
	if (!f) {
		counters.c[CNPPROXY_PROXY_UNKNOWN_FLOW]++;
		PN_DEBUG("flow-label notification from %pSU: label 0x%05x, no learned flow", from,
			 fcn.flow_label);
		return;
	}
	/* CL 0: the congestion point gave none; treat it as severe. */
	react(f, fcn.cl ? fcn.cl : pn.cfg->proxy.level.severe_level, NULL, now);
}

/*
 * The socket's drop count as of this datagram: what grew since the last
 * one are notifications the kernel dropped for want of buffer.
 */
static void overflow_count(struct msghdr *mh, uint32_t *seen)
{
	struct cmsghdr *cm;
	uint32_t drops;

	for (cm = CMSG_FIRSTHDR(mh); cm; cm = CMSG_NXTHDR(mh, cm)) {
		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SO_RXQ_OVFL)
			continue;
		memcpy(&drops, CMSG_DATA(cm), sizeof(drops));
		counters.c[CNPPROXY_PROXY_RX_OVERFLOW] += (uint32_t)(drops - *seen);
		*seen = drops;
	}
}

/* One read burst: datagrams, their senders and the sockets' drop counts. */
struct pn_burst {
	uint8_t buf[CNPPROXY_PROXY_BATCH][2048];
	union sockunion from[CNPPROXY_PROXY_BATCH];
	struct iovec iov[CNPPROXY_PROXY_BATCH];
	struct mmsghdr msgs[CNPPROXY_PROXY_BATCH];
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE(sizeof(uint32_t))];
	} control[CNPPROXY_PROXY_BATCH];
};

static int pn_receive(int fd, struct pn_burst *b)
{
	for (int k = 0; k < CNPPROXY_PROXY_BATCH; k++) {
		b->iov[k].iov_base = b->buf[k];
		b->iov[k].iov_len = sizeof(b->buf[k]);
		b->msgs[k].msg_hdr = (struct msghdr){
			.msg_name = &b->from[k],
			.msg_namelen = sizeof(b->from[k]),
			.msg_iov = &b->iov[k],
			.msg_iovlen = 1,
			.msg_control = b->control[k].buf,
			.msg_controllen = sizeof(b->control[k].buf),
		};
	}
	return recvmmsg(fd, b->msgs, CNPPROXY_PROXY_BATCH, MSG_DONTWAIT, NULL);
}

/*
 * A message read from a raw ICMP socket: an ICMPv4 one comes with its IP
 * header, which the kernel has checked.
 */
static void handle_icmp(int i, const uint8_t *buf, size_t len, const union sockunion *from,
			uint64_t now)
{
	struct pnc_notif_icmp ic = { .version = i == 0 ? 4 : 6, .type = pn.icmp_type[i] };
	size_t hl = i == 0 && len ? (size_t)(buf[0] & 0x0f) * 4 : 0;

	if (hl > len)
		hl = len;
	handle_notification(buf + hl, len - hl, from, &ic, now);
}

/* On the fast-path thread. */
static void pn_read(struct event *t)
{
	static struct pn_burst burst; /* this thread's only */
	int *fdp = EVENT_ARG(t);
	int fd = *fdp, i;
	bool fcn, icmp;
	uint32_t *ovfl;
	int n;

	fcn = fdp == &pn.fcn_fd[0] || fdp == &pn.fcn_fd[1];
	icmp = fdp == &pn.icmp_fd[0] || fdp == &pn.icmp_fd[1];
	i = fdp == &pn.notif_fd[0] || fdp == &pn.fcn_fd[0] || fdp == &pn.icmp_fd[0] ? 0 : 1;
	ovfl = fcn ? &pn.fcn_ovfl[i] : icmp ? &pn.icmp_ovfl[i] : &pn.notif_ovfl[i];

	/* The mutex is not needed to read: only this thread closes the socket. */
	n = pn_receive(fd, &burst);
	frr_with_mutex (&cnpproxy_fp_mtx) {
		for (int k = 0; k < n; k++) {
			struct msghdr *mh = &burst.msgs[k].msg_hdr;
			size_t len = burst.msgs[k].msg_len;

			overflow_count(mh, ovfl);
			/* The role went off after the read: nothing to answer. */
			if (pn.role_off)
				continue;
			if (fcn)
				handle_fcn(burst.buf[k], len, &burst.from[k], now_us());
			else if (icmp)
				handle_icmp(i, burst.buf[k], len, &burst.from[k], now_us());
			else
				handle_notification(burst.buf[k], len, &burst.from[k], NULL,
						    now_us());
		}
		flush_cnps();
	}
	pn_arm(i);
}

/* ---- AF_XDP ------------------------------------------------------------- */

/*
 * The checks the kernel makes before a UDP socket gets a datagram, made
 * here for what bypassed it; a frame failing them is malformed.  All but
 * the UDP checksum: a sender that leaves it to offload (veth, most NICs'
 * drivers on the same host) hands XDP a frame where it is not final,
 * and the stack would trust the driver's word, which AF_XDP does not
 * carry.  The notification's own decoder checks every field it uses.
 */
void cnpproxy_proxy_frame(void *arg, const uint8_t *frame, uint32_t len)
{
	union sockunion from = {};
	struct pnc_udp_view v = {};
	uint16_t type;
	size_t l3 = 0;
	int err;

	/* The role went off after the thread read the ring: nothing to answer. */
	if (pn.role_off)
		return;
	counters.c[CNPPROXY_PROXY_RX_XSK]++;
	type = pnc_eth_l3(frame, len, &l3);
	if (type == ETH_P_IP || type == ETH_P_IPV6)
		err = pnc_ipudp_parse(frame + l3, len - l3, PNC_IPUDP_F_NO_CSUM, &v);
	else
		err = PNC_E_IP_VERSION;
	/* RFC 8200: an IPv6 UDP datagram without checksum is discarded. */
	if (!err && v.ip.version == 6 && !v.udp_csum)
		err = PNC_E_UDP_CHECKSUM;
	if (!err && v.ip.dport != pn.notif_port && v.ip.dport != pn.fcn_port)
		err = PNC_E_UDP_PORT;
	/* The source as the checks and the debug messages know it. */
	if (!err)
		sockunion_set(&from, v.ip.version == 4 ? AF_INET : AF_INET6, v.ip.src,
			      v.ip.version == 4 ? 4 : 16);
	if (err) {
		/* Where the kernel would have delivered it, if it got that far. */
		counters.c[err != PNC_E_UDP_PORT && v.ip.dport == pn.fcn_port ? CNPPROXY_PROXY_RX_FCN
									      : CNPPROXY_PROXY_RX]++;
		malformed(err, &from);
		return;
	}
	if (v.ip.dport == pn.fcn_port)
		handle_fcn(v.payload, v.payload_len, &from, now_us());
	else
		handle_notification(v.payload, v.payload_len, &from, NULL, now_us());
}

void cnpproxy_proxy_flush(void)
{
	flush_cnps();
}

/* ---- this router's own congestion point ---------------------------------- */

bool cnpproxy_proxy_local_ready(void)
{
	return !pn.role_off && flow_table;
}

static enum cnpproxy_proxy_local_result pn_local(const struct pnc_roce_view *inv, uint8_t cl,
						 const struct cnpproxy_proxy_queue_report *metric)
{
	const struct pnc_flow *f;
	uint64_t now = now_us();
	bool queued;

	counters.c[CNPPROXY_PROXY_RX_LOCAL]++;
	f = pnc_flow_lookup(flow_table, inv->ip.version, inv->ip.src, inv->ip.dst,
			    inv->bth.dest_qp, now);
	if (!f) {
		counters.c[CNPPROXY_PROXY_UNKNOWN_FLOW]++;
		PN_DEBUG("own congestion point: unknown flow (QP 0x%06x)", inv->bth.dest_qp);
		return CNPPROXY_PROXY_LOCAL_UNKNOWN_FLOW;
	}
	queued = react(f, cl, metric, now);
	flush_cnps();
	return queued ? CNPPROXY_PROXY_LOCAL_SENT : CNPPROXY_PROXY_LOCAL_SUPPRESSED;
}

/* The main thread's way into the fast path's pipeline. */
enum cnpproxy_proxy_local_result
cnpproxy_proxy_local(const struct pnc_roce_view *inv, uint8_t cl,
		     const struct cnpproxy_proxy_queue_report *metric)
{
	enum cnpproxy_proxy_local_result res = CNPPROXY_PROXY_LOCAL_OFF;

	if (!cnpproxy_proxy_local_ready())
		return CNPPROXY_PROXY_LOCAL_OFF;
	frr_with_mutex (&cnpproxy_fp_mtx) {
		res = pn_local(inv, cl, metric);
	}
	return res;
}

static bool pn_local_resume(const struct cnpproxy_resume_flow_ref *ref,
			    const struct cnpproxy_proxy_queue_report *metric)
{
	const struct pnc_proxy_config *pc = &pn.cfg->proxy;
	const struct pnc_sender *snd;
	struct pnc_level_policy lp;
	const struct pnc_flow *f;
	struct pnc_reaction r;
	bool queued;

	f = pnc_flow_lookup(flow_table, ref->ip_version, ref->sender, ref->receiver,
			    ref->receiver_qpn, now_us());
	if (!f)
		return false;
	/* The advice at level 0 is the flow's whole share of the drain rate. */
	snd = pnc_sender_of(pc->senders, pc->n_senders, f->ip_version, f->sender);
	lp = pc->level;
	if (metric && metric->advice_mbps)
		lp.ra_max_rate = metric->advice_mbps;
	pnc_resume_for(&lp, snd->format, &r);
	if (metric)
		pnc_reaction_at_depth(&r, metric->lh_level);
	if (!r.send || !source_set(f))
		return false;
	queued = queue_message(f, snd, &r, metric, 0, false, "resume");
	flush_cnps();
	if (queued)
		counters.c[CNPPROXY_PROXY_RESUMES]++;
	return queued;
}

bool cnpproxy_proxy_local_resume(const struct cnpproxy_resume_flow_ref *ref,
				 const struct cnpproxy_proxy_queue_report *metric)
{
	bool queued = false;

	if (!cnpproxy_proxy_local_ready())
		return false;
	frr_with_mutex (&cnpproxy_fp_mtx) {
		queued = pn_local_resume(ref, metric);
	}
	return queued;
}

/*
 * The outcomes the XDP program counts, per CPU, in its own counters:
 * which of them each of ours includes, one bit per PNC_LEARN_C_*.
 */
#define XC(n) (1ull << PNC_LEARN_C_##n)
static const uint64_t xdp_parts[CNPPROXY_PROXY_COUNTER_MAX] = {
	[CNPPROXY_PROXY_XDP_DENIED] = XC(GUARD_DENIED),
	[CNPPROXY_PROXY_XDP_RL_SOURCE] = XC(GUARD_RATE_LIMITED),
	[CNPPROXY_PROXY_XDP_HDR_CHAIN] = XC(GUARD_HDR_CHAIN),
	[CNPPROXY_PROXY_RX] = XC(XLATE_RX),
	[CNPPROXY_PROXY_LIGHT] = XC(XLATE_LIGHT),
	[CNPPROXY_PROXY_RL_GLOBAL] = XC(XLATE_RL_GLOBAL),
	[CNPPROXY_PROXY_MIN_INTERVAL] = XC(XLATE_MIN_INTERVAL),
	[CNPPROXY_PROXY_CNP_SENT] = XC(XLATE_SENT),
	[CNPPROXY_PROXY_XDP_SENT] = XC(XLATE_SENT),
	[CNPPROXY_PROXY_SEND_ERROR] = XC(XLATE_TX_ERROR),
	[CNPPROXY_PROXY_XDP_PASSED] = XC(XLATE_PASS_FLOW) | XC(XLATE_PASS_ROUTE) |
				      XC(XLATE_PASS_OTHER),
};
#undef XC
_Static_assert(PNC_LEARN_C_MAX <= 64, "xdp_parts holds one bit per XDP counter");

static uint64_t xdp_part(enum cnpproxy_proxy_counter c, const struct pnc_learn_counters *xc)
{
	uint64_t sum = 0;

	for (int i = 0; i < PNC_LEARN_C_MAX; i++)
		if (xdp_parts[c] & (1ull << i))
			sum += xc->v[i];
	return sum;
}

void cnpproxy_proxy_counter_values(struct cnpproxy_proxy_counters *v)
{
	struct pnc_learn_counters xc;

	/* One read of the program's per-CPU counters for all of them. */
	cnpproxy_learn_xdp_counters(&xc);
	frr_with_mutex (&cnpproxy_fp_mtx) {
		*v = counters;
		v->c[CNPPROXY_PROXY_RX_XSK_DROPPED] = cnpproxy_xsk_dropped();
	}
	for (int c = 0; c < CNPPROXY_PROXY_COUNTER_MAX; c++)
		v->c[c] += xdp_part(c, &xc);
}

static uint64_t pn_clears; /* the main thread's */

void cnpproxy_proxy_counters_clear(void)
{
	frr_with_mutex (&cnpproxy_fp_mtx) {
		memset(&counters, 0, sizeof(counters));
	}
	cnpproxy_xsk_counters_clear();
	cnpproxy_learn_counters_clear();
	pn_clears++;
}

uint64_t cnpproxy_proxy_counters_cleared(void)
{
	return pn_clears;
}

void cnpproxy_proxy_init(void)
{
	pn.sources = hash_create(pn_key_hash, pn_key_cmp, "cnpproxyd notification sources");
	pn.qps = hash_create(pn_key_hash, pn_key_cmp, "cnpproxyd CNP intervals");
	cnpproxy_fp_init();
	cnpproxy_learn_init();
	cnpproxy_xsk_receiver(cnpproxy_proxy_frame, cnpproxy_proxy_flush);
	cnpproxy_xsk_tx_init();
	cnpproxy_accept_init(cnpproxy_guard_sync);
	cnpproxy_xlate_init();
	cnpproxy_tunnel_init();
	pnc_bucket_init(&pn.debug, PN_DEBUG_PER_S, PN_DEBUG_PER_S, now_us());
}

void cnpproxy_proxy_fini(void)
{
	/* Nothing of the pipeline is freed under a read. */
	cnpproxy_fp_stop();
	cnpproxy_resume_fini();
	/* A clean stop keeps the flows for the next start. */
	cnpproxy_flows_file_stop();
	cnpproxy_guard_fini();
	cnpproxy_xsk_fini();
	cnpproxy_xlate_fini();
	cnpproxy_learn_fini();
	cnpproxy_tunnel_fini();
	cnpproxy_accept_fini();
	event_cancel(&pn.t_age);
	pn_close_fds();
	hash_clean_and_free(&pn.sources, pn_source_free);
	hash_clean_and_free(&pn.qps, pn_qp_free);
	pnc_flow_table_free(flow_table);
	flow_table = NULL;
}
