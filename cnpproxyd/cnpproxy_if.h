// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd's interface layer: every attachment (XDP learning, tc marking,
 * flow-label encapsulation, the queue monitor) finds its interface through
 * FRR's interface model, which zebra keeps, and hears when it appears or
 * goes (deleted, re-created with a new ifindex) instead of polling for it.
 */
#ifndef _CNPPROXY_IF_H
#define _CNPPROXY_IF_H

#include <stdbool.h>

/* ifindex of the interface as zebra knows it now; 0: no such interface. */
extern int cnpproxy_if_index(const char *ifname);
/* Whether it exists and is up and running (zebra's interface events). */
extern bool cnpproxy_if_operative(const char *ifname);

/*
 * Called when an interface becomes real (ifindex > 0: created, or known
 * after zebra connected) or stops being real (ifindex 0: deleted).
 */
typedef void (*cnpproxy_if_watcher)(const char *ifname, int ifindex);

extern void cnpproxy_if_watch(cnpproxy_if_watcher watcher);
extern void cnpproxy_if_init(void);
extern void cnpproxy_if_fini(void);

#endif /* _CNPPROXY_IF_H */
