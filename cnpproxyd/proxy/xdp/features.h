// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What an interface's driver can do with XDP frames, from the kernel's
 * netdev generic netlink family (Linux 6.3 and later).  Debian 12's
 * uapi headers predate the family, so its few stable numbers are here.
 * No FRR dependency.
 */
#ifndef _CNPPROXY_PROXY_XDP_FEATURES_H
#define _CNPPROXY_PROXY_XDP_FEATURES_H

#include <stddef.h>
#include <stdint.h>

/* enum netdev_xdp_act */
#define PNC_XDP_ACT_BASIC    (1u << 0)
#define PNC_XDP_ACT_REDIRECT (1u << 1)
#define PNC_XDP_ACT_NDO_XMIT (1u << 2) /* takes frames redirected to it */

/*
 * The XDP features of the interface.  0 or -errno: -EOPNOTSUPP when the
 * kernel has no netdev family, -ENODEV when the interface is gone.
 * Blocking; one request and one answer on a socket of its own.
 */
extern int pnc_xdp_features(int ifindex, uint64_t *features);

/*
 * The NETDEV_A_DEV_XDP_FEATURES attribute of one netdev dev-get answer
 * (a generic netlink message, from its nlmsghdr), or -errno: the
 * kernel's error, or -EBADMSG.  Pure, for the unit test.
 */
extern int pnc_xdp_features_parse(const void *buf, size_t len, uint64_t *features);

/* The family id in a CTRL_CMD_GETFAMILY answer, or -errno.  Pure. */
extern int pnc_genl_family_parse(const void *buf, size_t len);

#endif /* _CNPPROXY_PROXY_XDP_FEATURES_H */
