// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loader of the border filter (border/border.bpf.c): tc ingress and egress
 * of the interfaces where the domain ends drop the notification and
 * flow-label ports, counted per interface and direction.  A tcx link
 * per side where the kernel has tcx (it goes with the process);
 * elsewhere a filter on clsact ingress and egress at PNC_TC_HANDLE /
 * PNC_TC_PRIORITY_BORDER (bpfutil/tc_filter.h).
 * No FRR dependency.  Not thread safe.
 */
#ifndef _CNPPROXY_BORDER_BORDER_TC_H
#define _CNPPROXY_BORDER_BORDER_TC_H

#include <linux/types.h>
#include <stdint.h>

#include "border/border_abi.h"

struct pnc_border_tc;

/* Load the program; NULL on failure, errno set. */
extern struct pnc_border_tc *pnc_border_tc_open(void);
/* Detach from every interface, then free. */
extern void pnc_border_tc_close(struct pnc_border_tc *bt);

/*
 * The ports and the notification's ICMP / ICMPv6 types (0: none) to
 * drop, on every attached interface at once.  0 or -errno.
 */
extern int pnc_border_tc_set_ports(struct pnc_border_tc *bt, uint16_t notification_port,
				   uint16_t flow_label_port, uint8_t icmp_type, uint8_t icmp6_type);

/* Attach to both sides of an interface, counters zeroed.  0 or -errno (-EEXIST: attached). */
extern int pnc_border_tc_attach(struct pnc_border_tc *bt, int ifindex);
/* Take our links or filters off.  0 or -errno (-ENOENT: not attached). */
extern int pnc_border_tc_detach(struct pnc_border_tc *bt, int ifindex);
/* "tcx" or "tc-filter"; NULL when not attached. */
extern const char *pnc_border_tc_mode(const struct pnc_border_tc *bt, int ifindex);

/* Drops on one interface, summed over CPUs.  0 or -errno. */
extern int pnc_border_tc_counters(const struct pnc_border_tc *bt, int ifindex,
				  struct pnc_border_if_counters *out);
extern int pnc_border_tc_counters_clear(struct pnc_border_tc *bt, int ifindex);

#endif /* _CNPPROXY_BORDER_BORDER_TC_H */
