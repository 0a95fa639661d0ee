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

#include "io/nlmsg.h"
#include "io/tc_filter.h"

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
