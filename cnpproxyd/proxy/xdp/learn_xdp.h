// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loader of the XDP flow-learning program (proxy/xdp/learn.bpf.c): load it
 * once, attach it to any number of interfaces, read its events from the
 * ring buffer and its counters.  No FRR dependency, so that cnpproxyd
 * and the pnc-xdp-learn test tool share it.
 *
 * Not thread safe: one thread owns a struct pnc_learn_xdp.
 */
#ifndef _CNPPROXY_PROXY_XDP_LEARN_XDP_H
#define _CNPPROXY_PROXY_XDP_LEARN_XDP_H

#include <linux/bpf.h>
#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proxy/xdp/learn_abi.h"
#include "proxy/xdp/guard_abi.h"
#include "proxy/xdp/xlate_abi.h"
#include "proxy/xdp/xsk_abi.h"

struct pnc_learn_xdp;

enum pnc_learn_xdp_mode {
	PNC_LEARN_XDP_AUTO = 0, /* native, generic if the driver has no XDP */
	PNC_LEARN_XDP_NATIVE,
	PNC_LEARN_XDP_GENERIC,
};

/*
 * One event.  The record has been checked to be as long as its type
 * says; exactly one of cm / roce is set.
 */
struct pnc_learn_event {
	const struct pnc_learn_ev_hdr *hdr;
	const struct pnc_learn_cm_ev *cm;
	const struct pnc_learn_roce_ev *roce;
};

typedef void (*pnc_learn_xdp_cb)(void *arg, const struct pnc_learn_event *ev);

struct pnc_learn_counters {
	uint64_t v[PNC_LEARN_C_MAX]; /* enum pnc_learn_counter, summed over CPUs */
};

/*
 * Load the program (needs CAP_BPF/CAP_SYS_ADMIN and CAP_NET_ADMIN) with
 * cfg (NULL: the defaults of proxy/xdp/learn_abi.h).  NULL on failure, errno set.
 */
extern struct pnc_learn_xdp *pnc_learn_xdp_open(const struct pnc_learn_cfg *cfg,
						pnc_learn_xdp_cb cb, void *arg);
/* Detaches from every interface, then frees. */
extern void pnc_learn_xdp_close(struct pnc_learn_xdp *lx);

/*
 * Attach to an interface through a BPF link, so that the program goes
 * away with the process even if it dies; fails (-EBUSY / -EEXIST) if
 * another XDP program is there.  *used (may be NULL) tells native or
 * generic.  0 or -errno.
 */
extern int pnc_learn_xdp_attach(struct pnc_learn_xdp *lx, int ifindex,
				enum pnc_learn_xdp_mode mode, enum pnc_learn_xdp_mode *used);
/* Detach from an interface attached above.  0 or -errno. */
/* roles: enum pnc_xdp_role bits, the stages to run there. */
extern int pnc_learn_xdp_attach_roles(struct pnc_learn_xdp *lx, int ifindex, unsigned int roles,
				      enum pnc_learn_xdp_mode mode, enum pnc_learn_xdp_mode *used);
/* Swap the program of an attached interface for another set of stages. */
extern int pnc_learn_xdp_set_roles(struct pnc_learn_xdp *lx, int ifindex, unsigned int roles);
extern int pnc_learn_xdp_detach(struct pnc_learn_xdp *lx, int ifindex);

/* Change the sampling intervals while attached. */
extern void pnc_learn_xdp_set_cfg(struct pnc_learn_xdp *lx, const struct pnc_learn_cfg *cfg);

/*
 * Run the callback for the events waiting, waiting up to timeout_ms
 * (0: do not wait, -1: forever).  Number of events, or -errno (-EINTR
 * on a signal).
 */
extern int pnc_learn_xdp_poll(struct pnc_learn_xdp *lx, int timeout_ms);
/* An fd that is readable when events wait (for an event loop). */
extern int pnc_learn_xdp_fd(const struct pnc_learn_xdp *lx);
/* Events the callback refused as malformed (never expected). */
extern uint64_t pnc_learn_xdp_bad_records(const struct pnc_learn_xdp *lx);

extern int pnc_learn_xdp_counters(const struct pnc_learn_xdp *lx, struct pnc_learn_counters *out);
/* Zero the program's counters.  0 or -errno. */
extern int pnc_learn_xdp_counters_clear(struct pnc_learn_xdp *lx);
extern const char *pnc_learn_counter_name(enum pnc_learn_counter c);

/*
 * The guard's tables.  cfg->rate 0 turns the guard off (every
 * notification passes): until the tables are filled, and when no filter
 * interface asks for it.  The accept table and the local addresses are
 * replaced as a whole.
 */
extern void pnc_learn_xdp_guard_cfg(struct pnc_learn_xdp *lx, const struct pnc_guard_cfg *cfg);
extern int pnc_learn_xdp_guard_accept(struct pnc_learn_xdp *lx, const struct pnc_guard_prefix *keys,
				      const __u8 *permit, size_t n);
extern int pnc_learn_xdp_guard_local(struct pnc_learn_xdp *lx, const struct pnc_guard_addr *addrs,
				     size_t n);
/* Forget every source's bucket: the limits changed. */
extern int pnc_learn_xdp_guard_reset_sources(struct pnc_learn_xdp *lx);

/*
 * The translator (`proxy fast-path xdp`).  cfg->enabled 0 turns it off:
 * every notification goes on to the socket path.
 */
extern void pnc_learn_xdp_xlate_cfg(struct pnc_learn_xdp *lx, const struct pnc_xlate_cfg *cfg);
/* Publish or withdraw one flow.  0 or -errno (-E2BIG: the map is full). */
extern int pnc_learn_xdp_xlate_flow_set(struct pnc_learn_xdp *lx, const struct pnc_xlate_key *key,
					const struct pnc_xlate_flow *flow);
extern int pnc_learn_xdp_xlate_flow_del(struct pnc_learn_xdp *lx, const struct pnc_xlate_key *key);
/* The interfaces a CNP may leave by, as a whole.  0 or the last -errno. */
extern int pnc_learn_xdp_xlate_tx(struct pnc_learn_xdp *lx, const int *ifindexes, size_t n);
/* Forget the per-QP intervals and refill the global bucket: the limits changed. */
extern int pnc_learn_xdp_xlate_reset(struct pnc_learn_xdp *lx);

/*
 * AF_XDP steering (`proxy fast-path af-xdp`): the socket map (slot ->
 * socket) and the interface map (ifindex -> struct pnc_xsk_if), for the
 * owner of the sockets to fill.  The descriptors stay the program's.
 * 0 or -errno.
 */
extern int pnc_learn_xdp_xsk_maps(const struct pnc_learn_xdp *lx, int *sockets_fd, int *ifs_fd);

#endif /* _CNPPROXY_PROXY_XDP_LEARN_XDP_H */
