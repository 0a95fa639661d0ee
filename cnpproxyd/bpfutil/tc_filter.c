// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Our cls_bpf filters under clsact (tc_filter.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpfutil/nlmsg.h"
#include "bpfutil/tc_filter.h"

static bool prog_named(__u32 id, const char *name)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);
	bool named;
	int fd;

	fd = bpf_prog_get_fd_by_id(id);
	if (fd < 0)
		return false;
	/* The kernel keeps 15 characters of a name: ours are shorter. */
	named = !bpf_obj_get_info_by_fd(fd, &info, &len) && !strcmp(info.name, name);
	close(fd);
	return named;
}

int pnc_tc_filter_del(const struct bpf_tc_hook *hook, __u32 handle, __u32 priority, __u32 prog_id,
		      const char *name)
{
	DECLARE_LIBBPF_OPTS(bpf_tc_opts, opts, .handle = handle, .priority = priority);
	int err;

	err = bpf_tc_query(hook, &opts);
	if (err)
		return err == -ENODEV || err == -EINVAL ? -ENOENT : err;
	if (prog_id ? opts.prog_id != prog_id : !prog_named(opts.prog_id, name))
		return -EBUSY;
	/* Detach takes the place alone. */
	opts.prog_id = 0;
	return bpf_tc_detach(hook, &opts);
}

/* Filters under one clsact hook (parent TC_H_MIN_INGRESS/EGRESS), or -errno. */
static int count_filters(int ifindex, __u32 hook_min)
{
	struct {
		struct nlmsghdr nh;
		struct tcmsg tc;
	} req = {
		.nh.nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg)),
		.nh.nlmsg_type = RTM_GETTFILTER,
		.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
		.tc.tcm_family = AF_UNSPEC,
		.tc.tcm_ifindex = ifindex,
		.tc.tcm_parent = TC_H_MAKE(TC_H_CLSACT, hook_min),
	};
	char buf[8192] __attribute__((aligned(NLMSG_ALIGNTO)));
	int fd, n = 0, rv = 0;
	ssize_t len;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	if (send(fd, &req, req.nh.nlmsg_len, 0) < 0)
		rv = -errno;
	while (!rv) {
		len = recv(fd, buf, sizeof(buf), 0);
		rv = len < 0 ? -errno : pnc_nlmsg_count_filters(buf, (size_t)len, &n);
	}
	close(fd);
	return rv < 0 ? rv : n;
}

int pnc_tc_clsact_release(int ifindex)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex,
		    .attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS);
	int in, out, err;

	in = count_filters(ifindex, TC_H_MIN_INGRESS);
	out = count_filters(ifindex, TC_H_MIN_EGRESS);
	if (in != 0 || out != 0)
		return 0; /* in use, or unknown: keep it */
	err = bpf_tc_hook_destroy(&hook);
	return err == -ENOENT || err == -ENODEV || err == -EINVAL ? 0 : err;
}

static void hook_of(struct bpf_tc_hook *hook, int ifindex, bool ingress)
{
	memset(hook, 0, sizeof(*hook));
	hook->sz = sizeof(*hook);
	hook->ifindex = ifindex;
	hook->attach_point = ingress ? BPF_TC_INGRESS : BPF_TC_EGRESS;
}

/* A tc filter on clsact, for kernels without tcx. */
static int filter_attach(struct pnc_tc_attachment *a, int prog_fd, const char *name)
{
	DECLARE_LIBBPF_OPTS(bpf_tc_opts, opts, .handle = PNC_TC_HANDLE, .priority = a->priority,
			    .prog_fd = prog_fd);
	struct bpf_tc_hook hook;
	bool created;
	int err;

	hook_of(&hook, a->ifindex, a->ingress);
	err = bpf_tc_hook_create(&hook);
	created = err == 0;
	if (err && err != -EEXIST)
		return err;
	if (!created)
		pnc_tc_filter_del(&hook, PNC_TC_HANDLE, a->priority, 0, name);
	err = bpf_tc_attach(&hook, &opts);
	if (err) {
		if (created)
			pnc_tc_clsact_release(a->ifindex);
		return err;
	}
	a->prog_id = opts.prog_id;
	a->own_clsact = created;
	return 0;
}

int pnc_tc_attach(struct pnc_tc_attachment *a, int ifindex, bool ingress, __u32 priority,
		  int prog_fd, const char *name, bool filter_only)
{
	struct bpf_tc_hook hook;
	int err;

	memset(a, 0, sizeof(*a));
	a->ifindex = ifindex;
	a->ingress = ingress;
	a->priority = priority;
	a->link_fd = filter_only
			     ? -EINVAL
			     : bpf_link_create(prog_fd, ifindex,
					       ingress ? PNC_BPF_TCX_INGRESS : PNC_BPF_TCX_EGRESS,
					       NULL);
	if (a->link_fd >= 0) {
		/* A filter an older version left at our place would run after the link. */
		hook_of(&hook, ifindex, ingress);
		pnc_tc_filter_del(&hook, PNC_TC_HANDLE, priority, 0, name);
		return 0;
	}
	err = a->link_fd;
	a->link_fd = -1;
	/* No tcx in this kernel; anything else is a real error. */
	return err == -EINVAL ? filter_attach(a, prog_fd, name) : err;
}

int pnc_tc_detach(struct pnc_tc_attachment *a)
{
	struct bpf_tc_hook hook;
	int err;

	if (a->link_fd >= 0) {
		/* Interface gone: the kernel has detached the link already. */
		close(a->link_fd);
		a->link_fd = -1;
		return 0;
	}
	hook_of(&hook, a->ifindex, a->ingress);
	/* -EBUSY: replaced by another process, theirs now. */
	err = pnc_tc_filter_del(&hook, PNC_TC_HANDLE, a->priority, a->prog_id, NULL);
	/* Someone else's filter keeps their clsact alive. */
	if (a->own_clsact && err != -EBUSY)
		pnc_tc_clsact_release(a->ifindex);
	return err == -ENOENT ? 0 : err;
}

const char *pnc_tc_attachment_mode(const struct pnc_tc_attachment *a)
{
	return a->link_fd >= 0 ? "tcx" : "tc-filter";
}
