// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * HTB classes over rtnetlink (plain NETLINK_ROUTE, no libnl): the
 * per-flow shapers of the ingress PE's local rate adjustment (seed 003
 * 3.2.2.1).  One root HTB qdisc of ours per interface, with no default
 * class, so that traffic no class claims leaves unshaped; a leaf class
 * per shaped flow, chosen by the packet's skb->priority (the flow-label
 * encapsulation program sets it).  No FRR dependency.
 *
 * Two layers: builders (pnc_htb_build_*: one request into a buffer, no
 * I/O, unit-tested) and pnc_htb_request(), which sends one and waits for
 * the kernel's answer.
 */
#ifndef _CNPPROXY_TUNNEL_HTB_H
#define _CNPPROXY_TUNNEL_HTB_H

#include <stddef.h>
#include <stdint.h>

/* Room for any request below. */
#define PNC_HTB_MSG_MAX 256

/*
 * The root HTB qdisc major:0 on ifindex; fails (EEXIST in the answer)
 * when the interface has a root qdisc already: never replaced.
 */
extern size_t pnc_htb_build_root(void *buf, size_t cap, int ifindex, uint16_t major);
/* Its removal. */
extern size_t pnc_htb_build_root_del(void *buf, size_t cap, int ifindex, uint16_t major);
/*
 * Leaf class major:minor under the root, rate = ceil = rate_bps (at
 * least 8000), created or changed.
 */
extern size_t pnc_htb_build_class(void *buf, size_t cap, int ifindex, uint16_t major,
				  uint16_t minor, uint64_t rate_bps);
/* Its removal. */
extern size_t pnc_htb_build_class_del(void *buf, size_t cap, int ifindex, uint16_t major,
				      uint16_t minor);

/* Send one built request and wait for its answer: 0 or -errno. */
extern int pnc_htb_request(const void *msg, size_t len);

#endif /* _CNPPROXY_TUNNEL_HTB_H */
