// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The link-layer next hop of a destination, from the kernel: the route
 * (RTM_GETROUTE: the interface and the gateway, if any), then the
 * neighbour entry of the gateway or the destination (RTM_GETNEIGH).
 * What a frame sent past the IP stack (AF_XDP) needs, the stack finding
 * it for a raw socket.  No FRR dependency.
 *
 * The requests are built and the replies parsed by pure functions, for
 * the unit tests; pnc_nexthop_resolve() does the I/O.
 */
#ifndef _CNPPROXY_PROXY_XDP_NEXTHOP_H
#define _CNPPROXY_PROXY_XDP_NEXTHOP_H

#include <stddef.h>
#include <stdint.h>

struct pnc_nexthop {
	int ifindex;
	uint8_t mac[6];	    /* the next hop's */
	uint8_t src_mac[6]; /* the interface's */
};

/* A route's answer: where to, and through whom (gw_len 0: on link). */
struct pnc_nh_route {
	int oif;
	uint8_t gw[16];
	uint8_t gw_len;
};

/* The request of a route to dst (4 or 16 octets): its length, or 0. */
extern size_t pnc_nh_route_req(void *buf, size_t size, uint32_t seq, int family,
			       const uint8_t *dst);
/*
 * The neighbour entry of addr on ifindex (RTM_GETNEIGH for one entry,
 * Linux 5.0 on): the request's length, or 0.
 */
extern size_t pnc_nh_neigh_req(void *buf, size_t size, uint32_t seq, int family, int ifindex,
			       const uint8_t *addr);

/*
 * One reply datagram.  0 and *out filled; -EHOSTUNREACH for a route
 * that does not lead out of an interface as unicast (local, blackhole,
 * a gateway of the other family), -ENXIO for a neighbour entry without
 * a usable Ethernet address (incomplete, failed), the kernel's -errno,
 * or -EBADMSG.
 */
extern int pnc_nh_route_parse(const void *buf, size_t len, uint32_t seq, struct pnc_nh_route *out);
extern int pnc_nh_neigh_parse(const void *buf, size_t len, uint32_t seq, uint8_t mac[6]);

/* A NETLINK_ROUTE socket for pnc_nexthop_resolve(), or -errno. */
extern int pnc_nexthop_socket(void);

/*
 * Resolve dst (family AF_INET or AF_INET6) through the NETLINK_ROUTE
 * socket fd, which the caller owns; 0 or -errno.  After -EBADMSG or
 * -EAGAIN the socket may hold a late reply: open another.  No resolution is
 * started: a neighbour the kernel does not know yet is -ENXIO, and a
 * packet through the stack makes it learn it.
 */
extern int pnc_nexthop_resolve(int fd, int family, const uint8_t *dst, struct pnc_nexthop *out);

#endif /* _CNPPROXY_PROXY_XDP_NEXTHOP_H */
