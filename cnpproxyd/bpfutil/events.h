// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The records a BPF program writes to its ring buffer map, handed one by
 * one to the loader, which says whether each is one it can read; those
 * it cannot are counted (never expected: the program writes them).  No
 * FRR dependency.
 */
#ifndef _CNPPROXY_BPFUTIL_EVENTS_H
#define _CNPPROXY_BPFUTIL_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pnc_bpf_events;

/* One record of len octets; false if malformed. */
typedef bool (*pnc_bpf_events_cb)(void *arg, const void *data, size_t len);

/* Read the ring buffer map map_fd; NULL with errno set on failure. */
extern struct pnc_bpf_events *pnc_bpf_events_open(int map_fd, pnc_bpf_events_cb cb, void *arg);
extern void pnc_bpf_events_close(struct pnc_bpf_events *ev);
/*
 * Hand over the records waiting, waiting up to timeout_ms for one (0:
 * do not wait, -1: forever).  Number of records, or -errno (-EINTR on a
 * signal).
 */
extern int pnc_bpf_events_poll(struct pnc_bpf_events *ev, int timeout_ms);
/* An fd that is readable when records wait (for an event loop). */
extern int pnc_bpf_events_fd(const struct pnc_bpf_events *ev);
/* Records the callback refused as malformed. */
extern uint64_t pnc_bpf_events_bad(const struct pnc_bpf_events *ev);

#endif /* _CNPPROXY_BPFUTIL_EVENTS_H */
