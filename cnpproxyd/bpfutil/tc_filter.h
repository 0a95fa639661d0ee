// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Our cls_bpf filters under clsact sit at a handle and priority of our
 * own, so that one a killed process left behind can be found and taken
 * off by the next process, and only if it runs one of our programs: a
 * filter of anyone else at that place is never touched.  No FRR
 * dependency.
 */
#ifndef _CNPPROXY_BPFUTIL_TC_FILTER_H
#define _CNPPROXY_BPFUTIL_TC_FILTER_H

#include <linux/types.h>

#include <stdbool.h>

struct bpf_tc_hook;

#define PNC_TC_HANDLE	       0x706e63 /* "pnc" */
#define PNC_TC_PRIORITY_MARK   0x7063
#define PNC_TC_PRIORITY_ENCAP  0x7064
#define PNC_TC_PRIORITY_DECAP  0x7065
#define PNC_TC_PRIORITY_BORDER 0x7066

/* Linux 6.6 UAPI; older headers lack them.  libbpf passes them through. */
#define PNC_BPF_TCX_INGRESS 46
#define PNC_BPF_TCX_EGRESS  47

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

/*
 * One of our programs on one side of an interface: a tcx link where the
 * kernel has tcx (Linux 6.6; the link lives as long as our fd, so a
 * process that dies leaves nothing attached), else a filter on clsact
 * at (PNC_TC_HANDLE, priority), creating the qdisc if there is none.
 */
struct pnc_tc_attachment {
	int ifindex;
	bool ingress;
	__u32 priority;
	int link_fd;	 /* tcx link, or -1 with a tc filter */
	__u32 prog_id;	 /* what our filter runs: detach checks it still does */
	bool own_clsact; /* attach created the qdisc, so detach removes it */
};

/*
 * Attach program prog_fd, named name (a filter of ours by that name a
 * dead process left at our place is removed).  filter_only: as on a
 * kernel without tcx.  0 or -errno.
 */
extern int pnc_tc_attach(struct pnc_tc_attachment *a, int ifindex, bool ingress, __u32 priority,
			 int prog_fd, const char *name, bool filter_only);
/*
 * Take our link or filter off (a filter only if it still runs our
 * program), and the clsact qdisc if attach created it and nobody else
 * uses it.  0 or -errno; an interface or qdisc already gone counts as
 * detached.
 */
extern int pnc_tc_detach(struct pnc_tc_attachment *a);
/* "tcx" or "tc-filter". */
extern const char *pnc_tc_attachment_mode(const struct pnc_tc_attachment *a);

#endif /* _CNPPROXY_BPFUTIL_TC_FILTER_H */
