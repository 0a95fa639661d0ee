// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Our cls_bpf filters under clsact (tc_filter.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

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
	named = !bpf_obj_get_info_by_fd(fd, &info, &len) && !strncmp(info.name, name, strlen(name));
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
