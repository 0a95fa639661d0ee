// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Our cls_bpf filters under clsact sit at a handle and priority of our
 * own, so that one a killed process left behind can be found and taken
 * off by the next process, and only if it runs one of our programs: a
 * filter of anyone else at that place is never touched.  No FRR
 * dependency.
 */
#ifndef _CNPPROXY_IO_TC_FILTER_H
#define _CNPPROXY_IO_TC_FILTER_H

#include <linux/types.h>

struct bpf_tc_hook;

#define PNC_TC_HANDLE	      0x706e63 /* "pnc" */
#define PNC_TC_PRIORITY_MARK  0x7063
#define PNC_TC_PRIORITY_ENCAP 0x7064
#define PNC_TC_PRIORITY_DECAP 0x7065

/*
 * Remove the filter at (handle, priority) of hook if it runs program
 * prog_id or, with prog_id 0, a program named name (one of ours that a
 * dead process left, or another live process of ours: the place is ours
 * alone).
 * 0 when removed, -ENOENT when there is none, -EBUSY when it is someone
 * else's, or another -errno.
 */
extern int pnc_tc_filter_del(const struct bpf_tc_hook *hook, __u32 handle, __u32 priority,
			     __u32 prog_id, const char *name);

/*
 * Remove the interface's clsact qdisc, which we created, once it holds
 * no filter on either hook: another program may have put its own there
 * meanwhile.  0 (also when it is kept) or -errno.
 */
extern int pnc_tc_clsact_release(int ifindex);

#endif /* _CNPPROXY_IO_TC_FILTER_H */
