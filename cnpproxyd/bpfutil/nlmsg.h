// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Walking the netlink messages of one received datagram.  The libc
 * macros NLMSG_OK/NLMSG_NEXT take the remainder as an int; given a
 * size_t, NLMSG_NEXT wraps it when the last message's aligned length
 * exceeds what is left, and the walk reads on past the received data
 * (stale octets of an earlier, longer datagram).  These never do.
 */
#ifndef _CNPPROXY_BPFUTIL_NLMSG_H
#define _CNPPROXY_BPFUTIL_NLMSG_H

#include <stddef.h>
#include <sys/types.h>

#include <linux/netlink.h>

/* The first whole message of buf[0..len), or NULL; *left counts from it. */
extern const struct nlmsghdr *pnc_nlmsg_first(const void *buf, size_t len, size_t *left);
/* The whole message after nh, or NULL; *left counts from it. */
extern const struct nlmsghdr *pnc_nlmsg_next(const struct nlmsghdr *nh, size_t *left);

/*
 * Count the tc filters (RTM_NEWTFILTER with a handle) of one dump
 * datagram into *n.  1 when the dump ended (NLMSG_DONE, or an
 * NLMSG_ERROR of 0), 0 when more is to come, else -errno (the dump's
 * error; -EBADMSG for an error message cut short or with a positive
 * error).
 */
extern int pnc_nlmsg_count_filters(const void *buf, size_t len, int *n);

/*
 * recv() for a netlink socket that takes only the kernel's datagrams:
 * another process with the right to send to our port could otherwise
 * answer in the kernel's place.  Octets received, or -errno.
 */
extern ssize_t pnc_nlmsg_recv_kernel(int fd, void *buf, size_t size, int flags);

#endif /* _CNPPROXY_BPFUTIL_NLMSG_H */
