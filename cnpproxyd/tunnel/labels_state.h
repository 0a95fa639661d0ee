// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The flow-label tunnel's labels as a file, so that a restarted daemon,
 * or a tunnel rebuilt after a configuration change, keeps the label of
 * every flow: a flow-label FCN in flight names the label it saw, and a
 * label given to another flow meanwhile would send a CNP to the wrong
 * sender.  Pure codec, no I/O.
 *
 * In the frame of state/frame.h: magic "PNCL", version 1; meta
 * data (4 octets): a word the codec carries but the daemon no longer uses
(written 0: labels are drawn at random; versions that allocated them in
sequence kept their cursor there).  Each record (48 octets,
 * big-endian): inner IP version, 0, P_Key, UDP source port, 0 (16 bits),
 * label, receiver QP, sender and receiver addresses (16 octets each,
 * IPv4 in the first 4): the fields of the loader's struct pnc_tunnel_flow
 * that name a flow and its label (its times and counters start again).
 */
#ifndef _CNPPROXY_TUNNEL_LABELS_STATE_H
#define _CNPPROXY_TUNNEL_LABELS_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "tunnel/tunnel_tc.h"

#define PNC_FL_STATE_REC_LEN 48
#define PNC_FL_STATE_VERSION 1

/* Octets of a file of n records. */
extern size_t pnc_labels_state_size(size_t n);

/* Write the meta word and n records to buf of pnc_labels_state_size(n) octets. */
extern void pnc_labels_state_encode(uint32_t meta, const struct pnc_tunnel_flow *fl, size_t n,
				    uint8_t *buf);

/*
 * Check a whole file; when sound, set *meta and call cb for each record
 * in order.  Number of records, or a PNC_STATE_E_*.
 */
extern int pnc_labels_state_decode(const uint8_t *buf, size_t len, uint32_t *meta,
				   void (*cb)(const struct pnc_tunnel_flow *f, void *arg),
				   void *arg);

#endif /* _CNPPROXY_TUNNEL_LABELS_STATE_H */
