// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd proxy role: AF_XDP receive on the fast-path thread (see
 * proxy/xdp/xsk.h).
 *
 * Ownership: the main thread writes what is wanted (interfaces, the
 * program's two steering maps as duplicated descriptors, busy polling)
 * under cnpproxy_fp_mtx and asks the thread to act.  The thread takes
 * its own duplicates of the maps, opens and closes the sockets without
 * the mutex (binding one takes milliseconds the main thread must not
 * wait) and publishes an interface's sockets by marking its slot used,
 * under the mutex.  It alone touches the rings; it takes the mutex to
 * run frames through the pipeline.  Show commands read the published
 * slots under the mutex.
 */
#include <zebra.h>

#include <fcntl.h>

#include <bpf/bpf.h>
#include <linux/types.h>

#include "lib/frrevent.h"
#include "lib/json.h"
#include "lib/log.h"
#include "lib/privs.h"
#include "lib/vty.h"

#include "proxy/xdp/xsk_abi.h"
#include "proxy/xdp/learn_xdp.h"
#include "proxy/xdp/xsk_sock.h"

#include "cnpproxyd.h"
#include "cnpproxy_debug.h"
#include "cnpproxy_fp.h"
#include "cnpproxy_if.h"
#include "proxy/xdp/xsk.h"
#include "proxy/xdp/xsk_tx.h"

/* Per socket: 2048 frames of 2 KiB (4 MiB of UMEM), rings to match. */
#define XK_FRAMES	    2048
#define XK_BUSY_POLL_US	    20
#define XK_BUSY_POLL_BUDGET 64
#define XK_CHECK_S	    5

struct xk_queue {
	struct pnc_xsk *sock;
	struct event *t_read;
};

/* An interface with sockets; its slots start at its position * QUEUES_MAX. */
struct xk_if {
	bool used;
	char name[PNC_IFNAME_MAX];
	int ifindex;
	unsigned int n_queues;
	bool zero_copy;
	struct xk_queue q[PNC_XSK_QUEUES_MAX];
};

struct xk_want {
	char name[PNC_IFNAME_MAX];
	int ifindex;
};

static struct {
	/* The proxy's pipeline, which every received frame goes to. */
	pnc_xsk_frame_cb rx;
	void (*rx_flush)(void);
	/* The main thread's, written under the mutex. */
	struct pnc_learn_xdp *lx;
	const struct pnc_config *config; /* handed with it */
	bool proxy_on;		/* the role runs: it has a flow table */
	int sockets_fd, ifs_fd; /* duplicates of the program's steering maps */
	uint64_t maps_gen;
	uint64_t req; /* requests made: the thread reports on the last */
	struct xk_want want[PNC_XSK_IFS_MAX];
	unsigned int n_want;
	bool busy_poll;
	bool on;
	/*
	 * The thread's.  A slot's `used` and the counters below are
	 * written under the mutex; the rest of a slot while it is unused.
	 */
	struct xk_if ifs[PNC_XSK_IFS_MAX];
	char error[160]; /* the last failure, "" when all open */
	uint64_t dropped_closed, dropped_cleared;
	/* The thread's only. */
	int t_sockets_fd, t_ifs_fd; /* its duplicates of the maps in use */
	uint64_t maps_used;	    /* their generation */
	bool busy_used;
	char warned[160]; /* the failure last logged */
	struct event *t_sync, *t_check, *t_busy;
} xk = {
	.config = &pnc_config_off,
	.sockets_fd = -1,
	.ifs_fd = -1,
	.t_sockets_fd = -1,
	.t_ifs_fd = -1,
};

/* What the program can steer is what a socket's buffer holds. */
_Static_assert(PNC_XSK_FRAME_SIZE - XDP_PACKET_HEADROOM == PNC_XSK_FRAME_MAX,
	       "the steering stage's frame limit follows the UMEM frame size");

/* ---- the fast-path thread ------------------------------------------------ */

static void xk_read(struct event *t);
static void xk_busy(struct event *t);

static uint64_t xk_if_dropped(const struct xk_if *xi)
{
	struct pnc_xsk_stats st;
	uint64_t sum = 0;

	for (unsigned int k = 0; k < xi->n_queues; k++)
		if (xi->q[k].sock && !pnc_xsk_stats(xi->q[k].sock, &st))
			sum += st.dropped;
	return sum;
}

/* Receive queues of an interface a socket can serve. */
static unsigned int xk_queues(const char *ifname)
{
	int nq = pnc_xsk_rx_queues(ifname);

	return MIN((unsigned int)MAX(nq, 1), PNC_XSK_QUEUES_MAX);
}

/* Run what a socket holds through the pipeline. */
static void xk_drain(struct pnc_xsk *sock);

/* Steering into an interface's sockets stops, their frames are answered, they close. */
static void xk_if_close(struct xk_if *xi)
{
	uint32_t ifindex = (uint32_t)xi->ifindex;

	/* Steering stops first: frames pass to the kernel meanwhile. */
	frr_with_privs (&cnpproxy_privs) {
		if (xk.t_ifs_fd >= 0)
			bpf_map_delete_elem(xk.t_ifs_fd, &ifindex);
	}
	/* What was steered before is answered, not lost with the rings. */
	for (unsigned int k = 0; k < xi->n_queues; k++) {
		event_cancel(&xi->q[k].t_read);
		if (xi->q[k].sock)
			xk_drain(xi->q[k].sock);
	}
	frr_with_mutex (&cnpproxy_fp_mtx) {
		if (xi->used)
			xk.dropped_closed += xk_if_dropped(xi);
		xi->used = false;
		cnpproxy_xsk_tx_forget(xi->q[0].sock);
	}
	for (unsigned int k = 0; k < xi->n_queues; k++)
		pnc_xsk_close(xi->q[k].sock);
	DEBUGD(&cnpproxy_dbg_proxy, "proxy: AF_XDP sockets of %s closed", xi->name);
	frr_with_mutex (&cnpproxy_fp_mtx) {
		memset(xi, 0, sizeof(*xi));
	}
}

static void xk_arm(struct xk_if *xi)
{
	if (xk.busy_used)
		return;
	for (unsigned int k = 0; k < xi->n_queues; k++)
		event_add_read(cnpproxy_fp_loop(), xk_read, &xi->q[k], pnc_xsk_fd(xi->q[k].sock),
			       &xi->q[k].t_read);
}

/*
 * Sockets on every receive queue of the interface, or none, in the
 * unused slot xi.  On failure, why says so.
 */
static bool xk_if_open(struct xk_if *xi, const struct xk_want *w, char *why, size_t whysz)
{
	struct pnc_xsk_cfg cfg = {
		.frames = XK_FRAMES,
		.busy_poll_us = xk.busy_used ? XK_BUSY_POLL_US : 0,
		.busy_poll_budget = XK_BUSY_POLL_BUDGET,
	};
	uint32_t base = (uint32_t)(xi - xk.ifs) * PNC_XSK_QUEUES_MAX;
	struct pnc_xsk_if val = {};
	const char *what = "steering map";
	int err = 0, fd;
	uint32_t k, failed = 0;

	frr_with_mutex (&cnpproxy_fp_mtx) {
		memset(xi, 0, sizeof(*xi));
	}
	strlcpy(xi->name, w->name, sizeof(xi->name));
	xi->ifindex = w->ifindex;
	xi->n_queues = xk_queues(w->name);
	xi->zero_copy = true;
	/* Queue 0 transmits too: a transmit-only socket there would hold it. */
	cnpproxy_xsk_tx_release(w->ifindex);
	for (k = 0; k < xi->n_queues && !err; k++) {
		cfg.tx_frames = k == 0 ? CNPPROXY_XSK_TX_FRAMES : 0;
		/* The UMEM is pinned: CAP_IPC_LOCK, or the memlock limit. */
		frr_with_privs (&cnpproxy_privs) {
			err = pnc_xsk_open(&xi->q[k].sock, w->name, k, &cfg, &what);
			if (!err) {
				uint32_t slot = base + k;

				fd = pnc_xsk_fd(xi->q[k].sock);
				if (bpf_map_update_elem(xk.t_sockets_fd, &slot, &fd, BPF_ANY) < 0) {
					err = -errno;
					what = "steering map";
				}
			}
		}
		if (err)
			failed = k;
		else
			xi->zero_copy &= pnc_xsk_zero_copy(xi->q[k].sock);
	}
	val.base = base;
	val.queues = xi->n_queues;
	if (!err) {
		frr_with_privs (&cnpproxy_privs) {
			if (bpf_map_update_elem(xk.t_ifs_fd, &xi->ifindex, &val, BPF_ANY) < 0) {
				err = -errno;
				what = "steering map";
			}
		}
	}
	if (err) {
		snprintf(why, whysz, "fast-path af-xdp: %.*s queue %u: %s: %s",
			 (int)sizeof(w->name), w->name, failed, what, safe_strerror(-err));
		xk_if_close(xi);
		return false;
	}
	frr_with_mutex (&cnpproxy_fp_mtx) {
		xi->used = true;
	}
	xk_arm(xi);
	DEBUGD(&cnpproxy_dbg_proxy, "proxy: AF_XDP on %s: %u queues, %s", xi->name, xi->n_queues,
	       xi->zero_copy ? "zero-copy" : "copy mode");
	return true;
}

static bool wanted(const struct xk_if *xi, const struct xk_want *want, unsigned int n_want)
{
	for (unsigned int i = 0; i < n_want; i++)
		if (want[i].ifindex == xi->ifindex && !strcmp(want[i].name, xi->name))
			return true;
	return false;
}

static struct xk_if *open_of(const struct xk_want *w)
{
	for (unsigned int i = 0; i < PNC_XSK_IFS_MAX; i++)
		if (xk.ifs[i].used && xk.ifs[i].ifindex == w->ifindex &&
		    !strcmp(xk.ifs[i].name, w->name))
			return &xk.ifs[i];
	return NULL;
}

static struct xk_if *free_if(void)
{
	for (unsigned int i = 0; i < PNC_XSK_IFS_MAX; i++)
		if (!xk.ifs[i].used)
			return &xk.ifs[i];
	return NULL;
}

static void xk_close_all(void)
{
	for (unsigned int i = 0; i < PNC_XSK_IFS_MAX; i++)
		if (xk.ifs[i].used)
			xk_if_close(&xk.ifs[i]);
}

/* Hand the thread's map descriptors over to new ones. */
static void xk_take_maps(int sockets_fd, int ifs_fd)
{
	if (xk.t_sockets_fd >= 0)
		close(xk.t_sockets_fd);
	if (xk.t_ifs_fd >= 0)
		close(xk.t_ifs_fd);
	xk.t_sockets_fd = sockets_fd;
	xk.t_ifs_fd = ifs_fd;
}

static int dup_fd(int fd)
{
	return fd >= 0 ? fcntl(fd, F_DUPFD_CLOEXEC, 0) : -1;
}

static void xk_sync(struct event *t);

/* The receive socket of queue 0 of ifindex, or NULL (cnpproxy_fp_mtx held). */
static struct pnc_xsk *rx_socket(int ifindex)
{
	for (unsigned int i = 0; i < PNC_XSK_IFS_MAX; i++)
		if (xk.ifs[i].used && xk.ifs[i].ifindex == ifindex)
			return xk.ifs[i].q[0].sock;
	return NULL;
}

/*
 * Make the sockets what the main thread wants.  Also every XK_CHECK_S
 * while there are interfaces: a queue busy with another socket may be
 * free now, and the number of receive queues (`ethtool -L`) may have
 * changed, which no notification reports.
 */
static void xk_sync(struct event *t)
{
	struct xk_want want[PNC_XSK_IFS_MAX];
	unsigned int n_want;
	char error[sizeof(xk.error)] = "";
	int sockets_fd = -1, ifs_fd = -1;
	bool busy, any = false;
	uint64_t gen, req;

	event_cancel(&xk.t_check);
	frr_with_mutex (&cnpproxy_fp_mtx) {
		n_want = xk.n_want;
		memcpy(want, xk.want, sizeof(want));
		busy = xk.busy_poll;
		gen = xk.maps_gen;
		req = xk.req;
		/* The main thread may close its descriptors once the mutex is free. */
		if (gen != xk.maps_used) {
			sockets_fd = dup_fd(xk.sockets_fd);
			ifs_fd = dup_fd(xk.ifs_fd);
		}
	}
	/* Other maps (the program was reloaded): the old ones' entries go first. */
	if (gen != xk.maps_used) {
		xk_close_all();
		xk_take_maps(sockets_fd, ifs_fd);
		xk.maps_used = gen;
	}
	/* Another mode: start over. */
	if (busy != xk.busy_used) {
		xk_close_all();
		xk.busy_used = busy;
	}
	for (unsigned int i = 0; i < PNC_XSK_IFS_MAX; i++) {
		struct xk_if *xi = &xk.ifs[i];
		unsigned int nq;

		if (!xi->used)
			continue;
		if (!wanted(xi, want, n_want)) {
			xk_if_close(xi);
			continue;
		}
		nq = xk_queues(xi->name);
		if (nq != xi->n_queues) {
			zlog_info("cnpproxyd: %s has %u receive queues now, AF_XDP sockets reopened",
				  xi->name, nq);
			xk_if_close(xi);
		}
	}
	for (unsigned int i = 0; i < n_want; i++) {
		struct xk_if *xi;

		if (open_of(&want[i]))
			continue;
		xi = free_if();
		if (xi && xk.t_sockets_fd >= 0 && xk.t_ifs_fd >= 0)
			xk_if_open(xi, &want[i], error, sizeof(error));
		else if (!error[0])
			snprintf(error, sizeof(error), "fast-path af-xdp: %.*s: no steering map",
				 (int)sizeof(want[i].name), want[i].name);
	}
	for (unsigned int i = 0; i < PNC_XSK_IFS_MAX; i++)
		any |= xk.ifs[i].used;
	/* Once per failure, not at every check. */
	if (error[0] && strcmp(error, xk.warned))
		zlog_warn("cnpproxyd: AF_XDP sockets missing, their notifications take the UDP sockets: %s",
			  error);
	strlcpy(xk.warned, error, sizeof(xk.warned));
	frr_with_mutex (&cnpproxy_fp_mtx) {
		/* A newer request supersedes this outcome: its own sync reports. */
		if (req == xk.req)
			strlcpy(xk.error, error, sizeof(xk.error));
	}
	cnpproxy_xsk_tx_sync(n_want && xk.t_sockets_fd >= 0, rx_socket);
	if (n_want)
		event_add_timer(cnpproxy_fp_loop(), xk_sync, NULL, XK_CHECK_S, &xk.t_check);
	if (any && xk.busy_used)
		event_add_event(cnpproxy_fp_loop(), xk_busy, NULL, 0, &xk.t_busy);
	else
		event_cancel(&xk.t_busy);
}

/* Bursts per turn of the loop: the other sockets and timers get theirs. */
#define XK_BURSTS 8
/* Frames per burst: the pipeline's batch. */
#define XK_BATCH 32

static void xk_drain(struct pnc_xsk *sock)
{
	/* The rings are this thread's: the mutex only for the pipeline. */
	if (!pnc_xsk_pending(sock))
		return;
	frr_with_mutex (&cnpproxy_fp_mtx) {
		for (int b = 0; b < XK_BURSTS; b++) {
			if (!pnc_xsk_receive(sock, XK_BATCH, xk.rx, NULL))
				break;
			xk.rx_flush();
		}
	}
}

static void xk_read(struct event *t)
{
	struct xk_queue *q = EVENT_ARG(t);

	xk_drain(q->sock);
	event_add_read(cnpproxy_fp_loop(), xk_read, q, pnc_xsk_fd(q->sock), &q->t_read);
}

/*
 * Busy polling: the thread spins, polling the driver through each
 * socket, and gives its event loop a turn between rounds (timers,
 * the UDP sockets, requests from the main thread).
 */
static void xk_busy(struct event *t)
{
	for (unsigned int i = 0; i < PNC_XSK_IFS_MAX; i++)
		for (unsigned int k = 0; xk.ifs[i].used && k < xk.ifs[i].n_queues; k++)
			xk_drain(xk.ifs[i].q[k].sock);
	event_add_event(cnpproxy_fp_loop(), xk_busy, NULL, 0, &xk.t_busy);
}

/* ---- the main thread --------------------------------------------------- */

static void close_maps(void)
{
	if (xk.sockets_fd >= 0)
		close(xk.sockets_fd);
	if (xk.ifs_fd >= 0)
		close(xk.ifs_fd);
	xk.sockets_fd = xk.ifs_fd = -1;
}

void cnpproxy_xsk_receiver(pnc_xsk_frame_cb rx, void (*flush)(void))
{
	xk.rx = rx;
	xk.rx_flush = flush;
}

void cnpproxy_xsk_flows(bool proxy_on)
{
	xk.proxy_on = proxy_on;
}

void cnpproxy_xsk_apply(struct pnc_learn_xdp *lx, const struct pnc_config *cfg)
{
	const struct pnc_proxy_config *pc = &cfg->proxy;
	bool on = lx && xk.proxy_on && pc->fast_path == PNC_FAST_PATH_AF_XDP;

	xk.config = cfg;
	frr_with_mutex (&cnpproxy_fp_mtx) {
		if (lx != xk.lx) {
			int sfd = -1, ifd = -1;

			/* The thread duplicates the maps under the mutex. */
			close_maps();
			if (lx && !pnc_learn_xdp_xsk_maps(lx, &sfd, &ifd)) {
				xk.sockets_fd = fcntl(sfd, F_DUPFD_CLOEXEC, 0);
				xk.ifs_fd = fcntl(ifd, F_DUPFD_CLOEXEC, 0);
			}
			xk.lx = lx;
			xk.maps_gen++;
		}
		xk.req++;
		xk.on = on && xk.sockets_fd >= 0 && xk.ifs_fd >= 0;
		xk.busy_poll = pc->fast_path_busy_poll;
		xk.n_want = 0;
		for (unsigned int i = 0; xk.on && i < pc->n_filter_if; i++) {
			int ifindex = cnpproxy_if_index(pc->filter_if[i]);

			if (!ifindex || xk.n_want == PNC_XSK_IFS_MAX)
				continue;
			strlcpy(xk.want[xk.n_want].name, pc->filter_if[i], PNC_IFNAME_MAX);
			xk.want[xk.n_want++].ifindex = ifindex;
		}
		/* Until the thread has been at it: status must not say it runs. */
		if (xk.on)
			snprintf(xk.error, sizeof(xk.error),
				 "fast-path af-xdp: opening the AF_XDP sockets");
	}
	event_add_event(cnpproxy_fp_loop(), xk_sync, NULL, 0, &xk.t_sync);
}

const char *cnpproxy_xsk_not_operational(void)
{
	static char why[sizeof(xk.error)];
	const struct pnc_proxy_config *pc = &xk.config->proxy;

	if (pc->fast_path != PNC_FAST_PATH_AF_XDP || !xk.proxy_on)
		return NULL;
	if (!pc->n_filter_if)
		return "fast-path af-xdp: no filter-interface to receive on";
	if (!xk.lx)
		return "fast-path af-xdp: the XDP program is not loaded";
	if (!xk.on)
		return "fast-path af-xdp: cannot use the XDP program's steering maps";
	frr_with_mutex (&cnpproxy_fp_mtx) {
		strlcpy(why, xk.error, sizeof(why));
	}
	return why[0] ? why : NULL;
}

/* The kernel's drops since the daemon started, closed sockets' included. */
static uint64_t xk_dropped_total(void)
{
	uint64_t total = xk.dropped_closed;

	for (unsigned int i = 0; i < PNC_XSK_IFS_MAX; i++)
		if (xk.ifs[i].used)
			total += xk_if_dropped(&xk.ifs[i]);
	return total;
}

uint64_t cnpproxy_xsk_dropped(void)
{
	uint64_t total = xk_dropped_total();

	return total - MIN(total, xk.dropped_cleared);
}

void cnpproxy_xsk_counters_clear(void)
{
	frr_with_mutex (&cnpproxy_fp_mtx) {
		xk.dropped_cleared = xk_dropped_total();
		cnpproxy_xsk_tx_counters_clear();
	}
}

void cnpproxy_xsk_show(struct vty *vty, struct json_object *json)
{
	const struct pnc_proxy_config *pc = &xk.config->proxy;
	const char *why = cnpproxy_xsk_not_operational();
	json_object *jx = NULL, *js = NULL;

	if (pc->fast_path != PNC_FAST_PATH_AF_XDP)
		return;
	if (json) {
		jx = json_object_new_object();
		js = json_object_new_array();
		json_object_boolean_add(jx, "active", !why);
		if (why)
			json_object_string_add(jx, "reason", why);
		json_object_boolean_add(jx, "busyPoll", pc->fast_path_busy_poll);
	} else {
		vty_out(vty, "Fast path: af-xdp%s, %s\n",
			pc->fast_path_busy_poll ? " (busy-poll)" : "", why ? why : "active");
	}
	frr_with_mutex (&cnpproxy_fp_mtx) {
		for (unsigned int i = 0; i < PNC_XSK_IFS_MAX; i++) {
			const struct xk_if *xi = &xk.ifs[i];
			size_t umem = 0;

			if (!xi->used)
				continue;
			for (unsigned int k = 0; k < xi->n_queues; k++)
				umem += pnc_xsk_umem_bytes(xi->q[k].sock);
			if (js) {
				json_object *j = json_object_new_object();

				json_object_string_add(j, "interface", xi->name);
				json_object_int_add(j, "queues", xi->n_queues);
				json_object_string_add(j, "mode",
						       xi->zero_copy ? "zero-copy" : "copy");
				json_object_int_add(j, "umemBytes", (int64_t)umem);
				json_object_array_add(js, j);
			} else {
				vty_out(vty, "  %s: %u receive queue%s, %s, %zu KiB of UMEM\n",
					xi->name, xi->n_queues, xi->n_queues == 1 ? "" : "s",
					xi->zero_copy ? "zero-copy" : "copy mode", umem >> 10);
			}
		}
	}
	cnpproxy_xsk_tx_show(vty, jx);
	if (jx) {
		json_object_object_add(jx, "sockets", js);
		json_object_object_add(json, "afXdp", jx);
	}
	if (!json && pc->fast_path_busy_poll)
		vty_out(vty, "  busy polling: the fast-path thread spins on the sockets\n");
}

void cnpproxy_xsk_fini(void)
{
	/*
	 * After the thread stopped: nothing reads the sockets any more, and
	 * its loop's events go with the loop.
	 */
	for (unsigned int i = 0; i < PNC_XSK_IFS_MAX; i++)
		for (unsigned int k = 0; xk.ifs[i].used && k < xk.ifs[i].n_queues; k++) {
			pnc_xsk_close(xk.ifs[i].q[k].sock);
			xk.ifs[i].q[k].sock = NULL;
		}
	memset(xk.ifs, 0, sizeof(xk.ifs));
	cnpproxy_xsk_tx_fini();
	xk_take_maps(-1, -1);
	close_maps();
	xk.lx = NULL;
}
