// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Netlink message walking that stays inside the received octets.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/socket.h>

#include <linux/rtnetlink.h>

#include "bpfutil/nlmsg.h"

static const struct nlmsghdr *whole(const void *p, size_t left)
{
	const struct nlmsghdr *nh = p;

	if (left < sizeof(*nh) || nh->nlmsg_len < sizeof(*nh) || nh->nlmsg_len > left)
		return NULL;
	return nh;
}

const struct nlmsghdr *pnc_nlmsg_first(const void *buf, size_t len, size_t *left)
{
	*left = len;
	return whole(buf, len);
}

const struct nlmsghdr *pnc_nlmsg_next(const struct nlmsghdr *nh, size_t *left)
{
	size_t step = NLMSG_ALIGN((size_t)nh->nlmsg_len);

	/* The last message's padding may be missing: nothing follows it. */
	if (step >= *left) {
		*left = 0;
		return NULL;
	}
	*left -= step;
	return whole((const uint8_t *)nh + step, *left);
}

int pnc_nlmsg_count_filters(const void *buf, size_t len, int *n)
{
	const struct nlmsghdr *nh;
	size_t left;

	for (nh = pnc_nlmsg_first(buf, len, &left); nh; nh = pnc_nlmsg_next(nh, &left)) {
		if (nh->nlmsg_type == NLMSG_DONE)
			return 1;
		if (nh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = NLMSG_DATA(nh);

			if (nh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
				return -EBADMSG;
			/* The kernel's errors are negative: a positive one is no errno. */
			return e->error < 0 ? e->error : e->error ? -EBADMSG : 1;
		}
		/* A classifier also shows up once without a handle: skip that. */
		if (nh->nlmsg_type == RTM_NEWTFILTER &&
		    nh->nlmsg_len >= NLMSG_LENGTH(sizeof(struct tcmsg)) &&
		    ((const struct tcmsg *)NLMSG_DATA(nh))->tcm_handle)
			(*n)++;
	}
	return 0;
}

ssize_t pnc_nlmsg_recv_kernel(int fd, void *buf, size_t size, int flags)
{
	struct sockaddr_nl from;
	socklen_t fromlen;
	ssize_t n;

	do {
		fromlen = sizeof(from);
		n = recvfrom(fd, buf, size, flags, (struct sockaddr *)&from, &fromlen);
	} while ((n >= 0 && (fromlen != sizeof(from) || from.nl_pid != 0)) ||
		 (n < 0 && errno == EINTR));
	return n < 0 ? -errno : n;
}
