// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An AF_XDP socket: one queue of one interface, its own UMEM.  It
 * receives (the fill ring kept full), transmits, or both.  No FRR
 * dependency.  Frames reach it only through an XDP program's redirect
 * into an XSKMAP the caller fills with pnc_xsk_fd().
 *
 * Not thread safe: one thread owns a struct pnc_xsk.
 */
#ifndef _CNPPROXY_PROXY_XDP_XSK_SOCK_H
#define _CNPPROXY_PROXY_XDP_XSK_SOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pnc_xsk;

struct pnc_xsk_cfg {
	/*
	 * UMEM frames to receive into, a power of two: the receive ring as
	 * many, the fill ring twice.  0: the socket only transmits.
	 */
	uint32_t frames;
	/* UMEM frames to transmit from, a power of two or 0: it only receives. */
	uint32_t tx_frames;
	/*
	 * Busy polling: the receive calls poll the driver for this many
	 * microseconds (SO_BUSY_POLL, SO_PREFER_BUSY_POLL); 0: interrupts.
	 */
	uint32_t busy_poll_us;
	uint32_t busy_poll_budget;
};

/*
 * Frame buffer size, the kernel's headroom included: enough for any
 * notification a 1500-octet link carries.
 */
#define PNC_XSK_FRAME_SIZE 2048

struct pnc_xsk_stats {
	uint64_t dropped;    /* no fill buffer, or the receive ring full */
	uint64_t ring_full;  /* ... of which the receive ring full */
	uint64_t invalid;    /* descriptors the kernel refused */
	uint64_t fill_empty; /* times the fill ring was found empty */
};

/*
 * Open and bind to queue `queue` of interface `ifname` (CAP_NET_RAW,
 * and CAP_IPC_LOCK or RLIMIT_MEMLOCK for the UMEM).  0 or -errno; *what
 * says which step failed.
 */
extern int pnc_xsk_open(struct pnc_xsk **out, const char *ifname, uint32_t queue,
			const struct pnc_xsk_cfg *cfg, const char **what);
extern void pnc_xsk_close(struct pnc_xsk *x);

extern int pnc_xsk_fd(const struct pnc_xsk *x);
/* Whether the driver gave zero-copy (else the kernel copies each frame). */
extern bool pnc_xsk_zero_copy(const struct pnc_xsk *x);
/* UMEM octets mapped. */
extern size_t pnc_xsk_umem_bytes(const struct pnc_xsk *x);

typedef void (*pnc_xsk_frame_cb)(void *arg, const uint8_t *frame, uint32_t len);

/*
 * Whether frames wait on the receive ring; with busy polling, the
 * driver is polled first.
 */
extern unsigned int pnc_xsk_pending(struct pnc_xsk *x);

/*
 * Hand up to max received frames to cb, give their buffers back to the
 * fill ring and, if the kernel asks for it, wake the driver.  Number
 * of frames.
 */
extern unsigned int pnc_xsk_receive(struct pnc_xsk *x, unsigned int max, pnc_xsk_frame_cb cb,
				    void *arg);

/*
 * Copy a frame (l2 then l3) into a free transmit buffer and queue it;
 * false when no buffer or ring slot is free, or it does not fit.
 */
extern bool pnc_xsk_tx_queue(struct pnc_xsk *x, const void *l2, size_t l2_len, const void *l3,
			     size_t l3_len);
/*
 * Hand the frames queued to the kernel and make it transmit them: 0, or
 * -errno when it refused to (the device down, say).  Frames it has not
 * taken yet stay on the ring: pnc_xsk_tx_waiting() says how many, and
 * pnc_xsk_tx_kick() asks again.
 */
extern int pnc_xsk_tx_flush(struct pnc_xsk *x);
extern int pnc_xsk_tx_kick(struct pnc_xsk *x);
/* Frames handed over that the kernel has not taken off the ring. */
extern unsigned int pnc_xsk_tx_waiting(struct pnc_xsk *x);

extern int pnc_xsk_stats(const struct pnc_xsk *x, struct pnc_xsk_stats *st);

/* Receive queues of an interface (/sys/class/net), at least 1; -errno. */
extern int pnc_xsk_rx_queues(const char *ifname);

#endif /* _CNPPROXY_PROXY_XDP_XSK_SOCK_H */
