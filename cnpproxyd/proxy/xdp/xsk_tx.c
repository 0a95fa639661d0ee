// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd proxy role: AF_XDP transmit (see proxy/xdp/xsk_tx.h).
 *
 * Ownership: the next-hop cache and the transmit-only sockets' `used`
 * are read and written under cnpproxy_fp_mtx.  The fast-path thread
 * alone resolves (netlink, without the mutex), opens and closes the
 * sockets; a socket is published by marking its slot used under the
 * mutex, and closed after unmarking it.
 */
#include <zebra.h>

#include <net/if.h>

#include "lib/jhash.h"
#include "lib/json.h"
#include "lib/log.h"
#include "lib/privs.h"
#include "lib/vty.h"

#include "proxy/xdp/xsk_abi.h"
#include "codec/ipudp.h"
#include "proxy/xdp/nexthop.h"
#include "proxy/xdp/xsk_sock.h"

#include "cnpproxyd.h"
#include "cnpproxy_debug.h"
#include "cnpproxy_fp.h"
#include "cnpproxy_if.h"
#include "proxy/xdp/xsk_tx.h"

/* Next hops cached: open addressing, a few probes, then the raw socket. */
#define NH_SLOTS  1024
#define NH_PROBES 8
/* A next hop is used for this long, then refreshed while still used. */
#define NH_TTL_US (1000u * 1000u)
/* An interface that refused a transmit socket is asked again after this. */
#define NO_SOCKET_BACKOFF_US (5000u * 1000u)
/* A transmit-only socket unused this long is closed (checked every few seconds). */
#define TX_IDLE_US (60u * 1000u * 1000u)
/* Frames the kernel left on a ring are kicked again after 1 ms, doubling to 1 s. */
#define REKICK_MIN_MS 1
#define REKICK_MAX_MS 1000
/* Resolutions per turn of the thread's loop. */
#define NH_BATCH 64

enum nh_state {
	NH_FREE = 0,
	NH_PENDING, /* asked for; frames take the raw socket meanwhile */
	NH_OK,
	NH_FAILED, /* the kernel has none (yet): asked again after NH_TTL_US */
};

struct nh_entry {
	uint8_t state;
	uint8_t version;
	bool refresh; /* expired: in use, and asked for again */
	uint8_t addr[16];
	struct pnc_nexthop nh;
	uint64_t expires;
};

/* A socket on an interface without receive sockets. */
struct tx_if {
	bool used;
	int ifindex;
	char name[IFNAMSIZ];
	struct pnc_xsk *sock;
	uint64_t last_used; /* under the mutex */
	bool gone;	    /* under the mutex: the interface layer said so */
};

/* Sockets, each at most once: every receive socket of queue 0 and transmit-only one fits. */
struct xsk_set {
	struct pnc_xsk *s[2 * PNC_XSK_IFS_MAX];
	unsigned int n;
};

/* An interface that refused a transmit socket, until when it is not asked again. */
struct tx_refused {
	int ifindex;
	uint64_t until;
};

static struct {
	/* Under the mutex. */
	struct nh_entry nh[NH_SLOTS];
	struct tx_if tx[PNC_XSK_IFS_MAX];
	struct xsk_set dirty; /* sockets with frames queued */
	/* Sockets with frames the kernel has not taken yet, kicked again by t_rekick. */
	struct xsk_set stalled;
	unsigned int rekick_ms;
	struct event *t_rekick;
	bool on;
	struct pnc_xsk *(*rx_socket)(int ifindex); /* the receive sockets' lookup */
	uint64_t resolved, unresolved;
	/* Kicks the kernel refused; frames still on a ring when its socket closed. */
	uint64_t kick_errors, lost;
	int last_kick_error;
	struct tx_refused refused[PNC_XSK_IFS_MAX];
	/* The thread's. */
	int nl_fd;
	struct event *t_resolve;
} xt = {
	.nl_fd = -1,
};

static size_t addr_len(uint8_t version)
{
	return version == 4 ? 4 : 16;
}

static uint32_t nh_hash(uint8_t version, const uint8_t *addr)
{
	return jhash(addr, addr_len(version), version);
}

static bool nh_is(const struct nh_entry *e, uint8_t version, const uint8_t *addr)
{
	return e->state != NH_FREE && e->version == version &&
	       !memcmp(e->addr, addr, addr_len(version));
}

/* The entry of addr, or a slot to take for it (an expired one if need be), or NULL. */
static struct nh_entry *nh_slot(uint8_t version, const uint8_t *addr, uint64_t now)
{
	uint32_t h = nh_hash(version, addr);
	struct nh_entry *take = NULL;

	for (int i = 0; i < NH_PROBES; i++) {
		struct nh_entry *e = &xt.nh[(h + i) & (NH_SLOTS - 1)];

		if (nh_is(e, version, addr))
			return e;
		if (!take && (e->state == NH_FREE ||
			      (e->state != NH_PENDING && e->expires + NH_TTL_US < now)))
			take = e;
	}
	return take;
}

static void xt_resolve(struct event *t);

static void ask(void)
{
	event_add_event(cnpproxy_fp_loop(), xt_resolve, NULL, 0, &xt.t_resolve);
}

/* The socket to send on out of ifindex, or NULL. */
static struct pnc_xsk *tx_socket(int ifindex, uint64_t now)
{
	struct pnc_xsk *s = xt.rx_socket ? xt.rx_socket(ifindex) : NULL;

	if (s)
		return s;
	for (unsigned int i = 0; i < PNC_XSK_IFS_MAX; i++)
		if (xt.tx[i].used && xt.tx[i].ifindex == ifindex) {
			if (now)
				xt.tx[i].last_used = now;
			return xt.tx[i].sock;
		}
	return NULL;
}

static bool refused(int ifindex, uint64_t now)
{
	for (unsigned int i = 0; i < array_size(xt.refused); i++)
		if (xt.refused[i].ifindex == ifindex && xt.refused[i].until >= now)
			return true;
	return false;
}

/* ifindex is not asked for a socket again for a while: its slot, or the oldest. */
static void refuse(int ifindex, uint64_t now)
{
	struct tx_refused *r = &xt.refused[0];

	for (unsigned int i = 0; i < array_size(xt.refused); i++) {
		if (xt.refused[i].ifindex == ifindex) {
			r = &xt.refused[i];
			break;
		}
		if (xt.refused[i].until < r->until)
			r = &xt.refused[i];
	}
	r->ifindex = ifindex;
	r->until = now + NO_SOCKET_BACKOFF_US;
}

static void set_add(struct xsk_set *set, struct pnc_xsk *s)
{
	for (unsigned int i = 0; i < set->n; i++)
		if (set->s[i] == s)
			return;
	assert(set->n < array_size(set->s));
	set->s[set->n++] = s;
}

static void set_remove(struct xsk_set *set, struct pnc_xsk *s)
{
	unsigned int k = 0;

	for (unsigned int i = 0; i < set->n; i++)
		if (set->s[i] != s)
			set->s[k++] = set->s[i];
	set->n = k;
}

static void xt_rekick(struct event *t);

static void stall(struct pnc_xsk *s)
{
	set_add(&xt.stalled, s);
	if (!xt.rekick_ms)
		xt.rekick_ms = REKICK_MIN_MS;
	event_add_timer_msec(cnpproxy_fp_loop(), xt_rekick, NULL, xt.rekick_ms, &xt.t_rekick);
}

/* Hand a socket's frames over; what the kernel leaves is kicked again later. */
static void kick(struct pnc_xsk *s, bool flush)
{
	int err = flush ? pnc_xsk_tx_flush(s) : pnc_xsk_tx_kick(s);

	if (err) {
		xt.kick_errors++;
		xt.last_kick_error = -err;
	}
	if (pnc_xsk_tx_waiting(s))
		stall(s);
}

bool cnpproxy_xsk_tx(uint8_t version, const uint8_t *dst, const uint8_t *pkt, size_t len)
{
	uint64_t now = cnpproxy_now_us();
	struct nh_entry *e;
	struct pnc_xsk *s;
	uint8_t eth[PNC_ETH_HLEN];

	if (!xt.on)
		return false;
	e = nh_slot(version, dst, now);
	if (!e)
		return false;
	if (!nh_is(e, version, dst)) {
		memset(e, 0, sizeof(*e));
		e->version = version;
		memcpy(e->addr, dst, addr_len(version));
		e->state = NH_PENDING;
		ask();
		return false;
	}
	if (e->state != NH_OK) {
		/* Failed a while ago: the kernel may know it by now. */
		if (e->state == NH_FAILED && e->expires < now) {
			e->state = NH_PENDING;
			ask();
		}
		return false;
	}
	if (e->expires < now && !e->refresh) {
		e->refresh = true;
		ask();
	}
	s = tx_socket(e->nh.ifindex, now);
	if (!s) {
		/* Its socket is opened with the next resolution, unless that just failed. */
		if (!refused(e->nh.ifindex, now)) {
			e->refresh = true;
			ask();
		}
		return false;
	}
	pnc_eth_write(eth, e->nh.mac, e->nh.src_mac, version);
	if (!pnc_xsk_tx_queue(s, eth, sizeof(eth), pkt, len))
		return false;
	set_add(&xt.dirty, s);
	return true;
}

void cnpproxy_xsk_tx_flush(void)
{
	for (unsigned int i = 0; i < xt.dirty.n; i++)
		kick(xt.dirty.s[i], true);
	xt.dirty.n = 0;
}

/*
 * A device that was busy or down kept frames on the ring: kick again,
 * less often while it refuses, until they are gone or the socket closes.
 */
static void xt_rekick(struct event *t)
{
	frr_with_mutex (&cnpproxy_fp_mtx) {
		struct xsk_set was = xt.stalled;

		xt.stalled.n = 0;
		xt.rekick_ms = MIN(xt.rekick_ms * 2, REKICK_MAX_MS);
		for (unsigned int i = 0; i < was.n; i++)
			kick(was.s[i], false);
		if (!xt.stalled.n)
			xt.rekick_ms = 0;
	}
}

void cnpproxy_xsk_tx_forget(struct pnc_xsk *s)
{
	if (!s)
		return;
	/* Whatever the ring still holds is lost with the socket. */
	xt.lost += pnc_xsk_tx_waiting(s);
	set_remove(&xt.stalled, s);
	set_remove(&xt.dirty, s);
}

/* ---- the fast-path thread ------------------------------------------------ */

static void tx_close(struct tx_if *ti)
{
	frr_with_mutex (&cnpproxy_fp_mtx) {
		ti->used = false;
		cnpproxy_xsk_tx_forget(ti->sock);
	}
	pnc_xsk_close(ti->sock);
	DEBUGD(&cnpproxy_dbg_proxy, "proxy: AF_XDP transmit socket of %s closed", ti->name);
	frr_with_mutex (&cnpproxy_fp_mtx) {
		memset(ti, 0, sizeof(*ti));
	}
}

/* A transmit-only socket on ifindex, unless it has one. */
static void tx_open(int ifindex)
{
	const struct pnc_xsk_cfg cfg = { .tx_frames = CNPPROXY_XSK_TX_FRAMES };
	const char *what = "";
	struct tx_if *ti = NULL;
	bool have;
	int err;

	frr_with_mutex (&cnpproxy_fp_mtx) {
		have = tx_socket(ifindex, 0) != NULL;
	}
	if (have)
		return;
	for (unsigned int i = 0; i < PNC_XSK_IFS_MAX && !ti; i++)
		if (!xt.tx[i].used)
			ti = &xt.tx[i];
	if (!ti || !if_indextoname((unsigned int)ifindex, ti->name)) {
		err = -ENOSPC;
	} else {
		frr_with_privs (&cnpproxy_privs) {
			err = pnc_xsk_open(&ti->sock, ti->name, 0, &cfg, &what);
		}
	}
	if (err) {
		/* Another AF_XDP user of queue 0, say: the raw socket, asked again later. */
		if (ti)
			DEBUGD(&cnpproxy_dbg_proxy,
			       "proxy: no AF_XDP transmit socket on %s: %s: %s", ti->name, what,
			       safe_strerror(-err));
		frr_with_mutex (&cnpproxy_fp_mtx) {
			if (ti)
				memset(ti, 0, sizeof(*ti));
			refuse(ifindex, cnpproxy_now_us());
		}
		return;
	}
	ti->ifindex = ifindex;
	frr_with_mutex (&cnpproxy_fp_mtx) {
		ti->last_used = cnpproxy_now_us();
		ti->used = true;
	}
	DEBUGD(&cnpproxy_dbg_proxy, "proxy: AF_XDP transmit socket on %s", ti->name);
}

struct nh_job {
	uint8_t version;
	uint8_t addr[16];
	int err;
	struct pnc_nexthop nh;
};

static void xt_resolve(struct event *t)
{
	struct nh_job jobs[NH_BATCH];
	unsigned int n = 0;
	uint64_t now;
	bool more = false;

	if (xt.nl_fd < 0)
		xt.nl_fd = pnc_nexthop_socket();
	frr_with_mutex (&cnpproxy_fp_mtx) {
		for (unsigned int i = 0; i < NH_SLOTS; i++) {
			struct nh_entry *e = &xt.nh[i];

			if (e->state != NH_PENDING && !e->refresh)
				continue;
			if (n == NH_BATCH) {
				more = true;
				break;
			}
			jobs[n].version = e->version;
			memcpy(jobs[n].addr, e->addr, sizeof(e->addr));
			n++;
		}
	}
	for (unsigned int i = 0; i < n; i++) {
		jobs[i].err = xt.nl_fd < 0 ? xt.nl_fd
					   : pnc_nexthop_resolve(xt.nl_fd,
								 jobs[i].version == 4 ? AF_INET
										      : AF_INET6,
								 jobs[i].addr, &jobs[i].nh);
		/* A reply out of step would answer the next request: start over. */
		if (jobs[i].err == -EBADMSG || jobs[i].err == -EAGAIN) {
			close(xt.nl_fd);
			xt.nl_fd = pnc_nexthop_socket();
		}
		if (!jobs[i].err)
			tx_open(jobs[i].nh.ifindex);
	}
	now = cnpproxy_now_us();
	frr_with_mutex (&cnpproxy_fp_mtx) {
		for (unsigned int i = 0; i < n; i++) {
			struct nh_entry *e = nh_slot(jobs[i].version, jobs[i].addr, now);

			if (!e || !nh_is(e, jobs[i].version, jobs[i].addr))
				continue;
			e->refresh = false;
			e->expires = now + NH_TTL_US;
			if (jobs[i].err) {
				e->state = NH_FAILED;
				xt.unresolved++;
			} else {
				e->state = NH_OK;
				e->nh = jobs[i].nh;
				xt.resolved++;
			}
		}
	}
	if (more)
		event_add_event(cnpproxy_fp_loop(), xt_resolve, NULL, 0, &xt.t_resolve);
}

static void tx_clear(void)
{
	frr_with_mutex (&cnpproxy_fp_mtx) {
		memset(xt.nh, 0, sizeof(xt.nh));
		memset(xt.refused, 0, sizeof(xt.refused));
	}
	for (unsigned int i = 0; i < PNC_XSK_IFS_MAX; i++)
		if (xt.tx[i].used)
			tx_close(&xt.tx[i]);
}

void cnpproxy_xsk_tx_release(int ifindex)
{
	for (unsigned int i = 0; i < PNC_XSK_IFS_MAX; i++)
		if (xt.tx[i].used && xt.tx[i].ifindex == ifindex)
			tx_close(&xt.tx[i]);
}

void cnpproxy_xsk_tx_sync(bool on, struct pnc_xsk *(*rx_socket)(int ifindex))
{
	frr_with_mutex (&cnpproxy_fp_mtx) {
		xt.on = on;
		xt.rx_socket = rx_socket;
	}
	if (!on) {
		event_cancel(&xt.t_resolve);
		tx_clear();
		/* The receive sockets were closed before: nothing is stalled any more. */
		event_cancel(&xt.t_rekick);
		return;
	}
	/*
	 * An interface deleted (or re-created: another index) unbinds its
	 * socket; one no message went out of for a while gives its queue back.
	 */
	for (unsigned int i = 0; i < PNC_XSK_IFS_MAX; i++) {
		bool idle, gone;

		if (!xt.tx[i].used)
			continue;
		frr_with_mutex (&cnpproxy_fp_mtx) {
			idle = xt.tx[i].last_used + TX_IDLE_US < cnpproxy_now_us() &&
			       !pnc_xsk_tx_waiting(xt.tx[i].sock);
			gone = xt.tx[i].gone;
		}
		if (idle || gone)
			tx_close(&xt.tx[i]);
	}
}

/* Main thread: an interface went, or came back as another; its socket goes at the next sync. */
static void tx_if_changed(const char *ifname, int ifindex)
{
	frr_with_mutex (&cnpproxy_fp_mtx) {
		for (unsigned int i = 0; i < PNC_XSK_IFS_MAX; i++)
			if (xt.tx[i].used && !strcmp(xt.tx[i].name, ifname) &&
			    xt.tx[i].ifindex != ifindex)
				xt.tx[i].gone = true;
	}
}

void cnpproxy_xsk_tx_init(void)
{
	cnpproxy_if_watch(tx_if_changed);
}

void cnpproxy_xsk_tx_show(struct vty *vty, struct json_object *jx)
{
	json_object *jt = NULL;
	unsigned int ok = 0, waiting = 0;

	if (jx)
		jt = json_object_new_array();
	frr_with_mutex (&cnpproxy_fp_mtx) {
		for (unsigned int i = 0; i < NH_SLOTS; i++)
			ok += xt.nh[i].state == NH_OK;
		for (unsigned int i = 0; i < xt.stalled.n; i++)
			waiting += pnc_xsk_tx_waiting(xt.stalled.s[i]);
		for (unsigned int i = 0; i < PNC_XSK_IFS_MAX; i++) {
			if (!xt.tx[i].used)
				continue;
			if (jt)
				json_object_array_add(jt, json_object_new_string(xt.tx[i].name));
			else
				vty_out(vty, "  %s: transmit only\n", xt.tx[i].name);
		}
		if (jt) {
			json_object_object_add(jx, "transmitOnly", jt);
			json_object_int_add(jx, "nextHops", ok);
			json_object_int_add(jx, "nextHopResolutions", (int64_t)xt.resolved);
			json_object_int_add(jx, "nextHopFailures", (int64_t)xt.unresolved);
			json_object_int_add(jx, "txWaiting", waiting);
			json_object_int_add(jx, "txKickErrors", (int64_t)xt.kick_errors);
			if (xt.kick_errors)
				json_object_string_add(jx, "txLastKickError",
						       safe_strerror(xt.last_kick_error));
			json_object_int_add(jx, "txLost", (int64_t)xt.lost);
		} else {
			vty_out(vty,
				"  next hops: %u cached, %" PRIu64 " resolved, %" PRIu64
				" not known to the kernel\n",
				ok, xt.resolved, xt.unresolved);
			vty_out(vty,
				"  transmit: %u frames waiting for the kernel, %" PRIu64
				" kicks refused%s%s%s, %" PRIu64 " frames lost with their socket\n",
				waiting, xt.kick_errors, xt.kick_errors ? " (last: " : "",
				xt.kick_errors ? safe_strerror(xt.last_kick_error) : "",
				xt.kick_errors ? ")" : "", xt.lost);
		}
	}
}

void cnpproxy_xsk_tx_counters_clear(void)
{
	xt.resolved = xt.unresolved = xt.kick_errors = xt.lost = 0;
}

void cnpproxy_xsk_tx_fini(void)
{
	/* After the thread stopped: its events go with its loop. */
	for (unsigned int i = 0; i < PNC_XSK_IFS_MAX; i++)
		if (xt.tx[i].used) {
			pnc_xsk_close(xt.tx[i].sock);
			memset(&xt.tx[i], 0, sizeof(xt.tx[i]));
		}
	if (xt.nl_fd >= 0)
		close(xt.nl_fd);
	xt.nl_fd = -1;
	xt.on = false;
	/* The loop frees its events without clearing the references to them. */
	xt.t_resolve = xt.t_rekick = NULL;
	xt.dirty.n = xt.stalled.n = xt.rekick_ms = 0;
}
