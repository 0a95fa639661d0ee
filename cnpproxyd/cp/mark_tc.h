// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loader of the congestion point's tc egress program (cp/mark.bpf.c):
 * load it once, attach it to the egress of any number of interfaces
 * (clsact, next to whatever root qdisc shapes the queue), write the
 * marking state of each, read the samples from the ring buffer and the
 * counters.  No FRR dependency, so that cnpproxyd and the pnc-tc-mark
 * test tool share it.
 *
 * Not thread safe: one thread owns a struct pnc_mark_tc.
 */
#ifndef _CNPPROXY_CP_MARK_TC_H
#define _CNPPROXY_CP_MARK_TC_H

#include <linux/types.h>
#include <stddef.h>
#include <stdint.h>

#include "cp/mark_abi.h"

struct pnc_mark_tc;

/*
 * Without tcx, our filter on clsact egress is at PNC_TC_HANDLE and
 * PNC_TC_PRIORITY_MARK (bpfutil/tc_filter.h), so that one left behind by a
 * process that died is removed by the next attach instead of running
 * twice.
 */

/* A sample, checked to be a complete record with cap_len in bounds. */
typedef void (*pnc_mark_tc_cb)(void *arg, const struct pnc_mark_sample *s);

struct pnc_mark_counters {
	uint64_t v[PNC_MARK_C_MAX]; /* enum pnc_mark_counter, summed over CPUs */
};

/*
 * Load the program (needs CAP_BPF/CAP_SYS_ADMIN and CAP_NET_ADMIN).
 * Nothing is attached yet.  NULL on failure, errno set.
 */
extern struct pnc_mark_tc *pnc_mark_tc_open(pnc_mark_tc_cb cb, void *arg);
/* Detaches from every interface, then frees. */
extern void pnc_mark_tc_close(struct pnc_mark_tc *mt);

/*
 * Attach to the egress of an interface and zero its per-interface
 * counters.  A tcx link where the kernel has tcx (Linux 6.6): it runs
 * before any clsact filter and lives only as long as this process, so
 * nothing is left attached by a process that dies.  Elsewhere a filter
 * on clsact egress, creating the qdisc if the interface has none; that
 * filter outlives a process that dies (the state's valid_until_ns stops
 * it marking) and the next attach removes it (bpfutil/tc_filter.h).  The interface has no
 * state yet, so its packets pass unchanged until
 * pnc_mark_tc_set_state().  0 or -errno (-EEXIST: attached already by
 * this process).
 */
extern int pnc_mark_tc_attach(struct pnc_mark_tc *mt, int ifindex);
/*
 * Remove our link or filter (a filter only if it still runs our
 * program), the clsact qdisc if attach created it, and the interface's
 * state and counters.  0 or -errno.
 */
extern int pnc_mark_tc_detach(struct pnc_mark_tc *mt, int ifindex);
/*
 * Attach with a clsact filter even where the kernel has tcx, as on older
 * kernels, so that path can be tested here.
 */
extern void pnc_mark_tc_filter_only(struct pnc_mark_tc *mt);
/* "tcx" or "tc-filter" for an attached interface, else NULL. */
extern const char *pnc_mark_tc_mode(const struct pnc_mark_tc *mt, int ifindex);
/* The loaded program's kernel id (what its links and filters run); 0 unknown. */
extern uint32_t pnc_mark_tc_prog_id(const struct pnc_mark_tc *mt);
/* Now on the program's clock, for pnc_mark_state.valid_until_ns. */
extern uint64_t pnc_mark_tc_now_ns(void);

/* Marking and sampling of an interface; takes effect at once.  0 or -errno. */
extern int pnc_mark_tc_set_state(struct pnc_mark_tc *mt, int ifindex,
				 const struct pnc_mark_state *st);
/* Back to leaving the interface's packets alone.  0 or -errno (-ENOENT). */
extern int pnc_mark_tc_clear_state(struct pnc_mark_tc *mt, int ifindex);

/*
 * Run the callback for the samples waiting, waiting up to timeout_ms
 * (0: do not wait, -1: forever).  Number of records, or -errno (-EINTR
 * on a signal).
 */
extern int pnc_mark_tc_poll(struct pnc_mark_tc *mt, int timeout_ms);
/* An fd that is readable when samples wait (for an event loop). */
extern int pnc_mark_tc_fd(const struct pnc_mark_tc *mt);
/* Records the callback wrapper refused as malformed (never expected). */
extern uint64_t pnc_mark_tc_bad_records(const struct pnc_mark_tc *mt);

extern int pnc_mark_tc_counters(const struct pnc_mark_tc *mt, struct pnc_mark_counters *out);
/*
 * Zero the program's counters (not the per-interface ones, whose deltas
 * drive the ECN-rate trigger).  0 or -errno.
 */
extern int pnc_mark_tc_counters_clear(struct pnc_mark_tc *mt);
extern const char *pnc_mark_counter_name(enum pnc_mark_counter c);
/*
 * Counters of one attached interface, summed over CPUs; zeroed by attach.
 * 0 or -errno (-ENOENT: not attached).
 */
extern int pnc_mark_tc_if_counters(const struct pnc_mark_tc *mt, int ifindex,
				   struct pnc_mark_if_counters *out);

#endif /* _CNPPROXY_CP_MARK_TC_H */
