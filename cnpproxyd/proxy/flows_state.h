// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The proxy role's learned flows as a file, so that a restarted daemon
 * (watchfrr after a crash, an upgrade) goes on sending CNPs for the
 * connections it had learned, as graceful restart keeps routes: a flow
 * learned from a CM handshake is never learned again without a new
 * connection.  Pure codec, no I/O.
 *
 * In the frame of state/frame.h: magic "PNCF", version 1, no
 * meta data.  Each record (84 octets, big-endian): IP version, source (0 CM, 1 PSN),
 * P_Key, sender and receiver addresses (16 octets each, IPv4 in the
 * first 4), sender and receiver QPN, UDP source port, 0 (16 bits), flow
 * label, sender and receiver CM communication IDs, learned and last-seen
 * times (CLOCK_MONOTONIC, microseconds), packets.
 */
#ifndef _CNPPROXY_PROXY_FLOWS_STATE_H
#define _CNPPROXY_PROXY_FLOWS_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "proxy/flows.h"

#define PNC_FLOWS_STATE_REC_LEN 84
#define PNC_FLOWS_STATE_VERSION 1

/* Errors are the frame's (state/frame.h): pnc_state_strerror(). */

/* Octets of a file of n records. */
extern size_t pnc_flows_state_size(size_t n);

/* Write n records (and the header) to buf of pnc_flows_state_size(n) octets. */
extern void pnc_flows_state_encode(const struct pnc_flow_saved *flows, size_t n, uint8_t *buf);

/*
 * Check a whole file and call cb for each record, in order.  Nothing is
 * called unless all of it is sound.  Number of records, or a
 * PNC_STATE_E_*.
 */
extern int pnc_flows_state_decode(const uint8_t *buf, size_t len,
				  void (*cb)(const struct pnc_flow_saved *s, void *arg), void *arg);

#endif /* _CNPPROXY_PROXY_FLOWS_STATE_H */
