// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * XDP features of an interface, over the netdev generic netlink family.
 */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "bpfutil/nlmsg.h"
#include "proxy/xdp/features.h"

/* The netdev family (include/uapi/linux/netdev.h). */
#define NETDEV_FAMILY_NAME	  "netdev"
#define NETDEV_CMD_DEV_GET	  1
#define NETDEV_A_DEV_IFINDEX	  1
#define NETDEV_A_DEV_XDP_FEATURES 3

#define XF_BUF 4096

/* The first message of an answer, its error turned into -errno. */
static const struct genlmsghdr *genl_answer(const void *buf, size_t len, size_t *attr_len, int *err)
{
	const struct nlmsghdr *nh;
	size_t left;

	nh = pnc_nlmsg_first(buf, len, &left);
	if (!nh) {
		*err = -EBADMSG;
		return NULL;
	}
	if (nh->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = NLMSG_DATA(nh);

		if (nh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
			*err = -EBADMSG;
		else
			*err = e->error < 0 ? e->error : -EBADMSG;
		return NULL;
	}
	if (nh->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN)) {
		*err = -EBADMSG;
		return NULL;
	}
	*attr_len = nh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
	return NLMSG_DATA(nh);
}

/* The attribute of type in the attributes after g, or NULL. */
static const struct nlattr *genl_attr(const struct genlmsghdr *g, size_t len, uint16_t type)
{
	const uint8_t *p = (const uint8_t *)g + GENL_HDRLEN;

	while (len >= NLA_HDRLEN) {
		const struct nlattr *a = (const struct nlattr *)p;
		size_t step;

		if (a->nla_len < NLA_HDRLEN || a->nla_len > len)
			return NULL;
		if ((a->nla_type & NLA_TYPE_MASK) == type)
			return a;
		step = NLA_ALIGN(a->nla_len);
		if (step >= len)
			return NULL;
		p += step;
		len -= step;
	}
	return NULL;
}

/*
 * The value of the attribute of type in the answer in buf, which must
 * hold at least size octets: NULL and *err if the answer is an error or
 * lacks it.
 */
static const void *genl_answer_attr(const void *buf, size_t len, uint16_t type, size_t size,
				    int *err)
{
	const struct genlmsghdr *g;
	const struct nlattr *a;
	size_t alen;

	g = genl_answer(buf, len, &alen, err);
	if (!g)
		return NULL;
	a = genl_attr(g, alen, type);
	if (!a || a->nla_len < NLA_HDRLEN + size) {
		*err = -EBADMSG;
		return NULL;
	}
	return (const uint8_t *)a + NLA_HDRLEN;
}

int pnc_genl_family_parse(const void *buf, size_t len)
{
	const void *v;
	uint16_t id;
	int err;

	v = genl_answer_attr(buf, len, CTRL_ATTR_FAMILY_ID, sizeof(id), &err);
	if (!v)
		return err;
	memcpy(&id, v, sizeof(id));
	return id;
}

int pnc_xdp_features_parse(const void *buf, size_t len, uint64_t *features)
{
	const void *v;
	int err;

	v = genl_answer_attr(buf, len, NETDEV_A_DEV_XDP_FEATURES, sizeof(*features), &err);
	if (!v)
		return err;
	memcpy(features, v, sizeof(*features));
	return 0;
}

/* One request with one u16/u32 attribute (or a string), one answer into buf. */
static int genl_ask(int fd, uint16_t family, uint8_t cmd, uint16_t attr, const void *val,
		    size_t val_len, uint8_t *buf, ssize_t *got)
{
	struct {
		struct nlmsghdr nh;
		struct genlmsghdr g;
		uint8_t attrs[64];
	} req = {};
	struct nlattr *a = (struct nlattr *)req.attrs;

	if (val_len > sizeof(req.attrs) - NLA_HDRLEN)
		return -EINVAL;
	a->nla_type = attr;
	a->nla_len = (uint16_t)(NLA_HDRLEN + val_len);
	memcpy(req.attrs + NLA_HDRLEN, val, val_len);
	req.nh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN + NLA_ALIGN(a->nla_len));
	req.nh.nlmsg_type = family;
	req.nh.nlmsg_flags = NLM_F_REQUEST;
	req.nh.nlmsg_seq = 1;
	req.g.cmd = cmd;
	req.g.version = 1;
	if (send(fd, &req, req.nh.nlmsg_len, 0) < 0)
		return -errno;
	*got = pnc_nlmsg_recv_kernel(fd, buf, XF_BUF, 0);
	return *got < 0 ? (int)*got : 0;
}

int pnc_xdp_features(int ifindex, uint64_t *features)
{
	static const struct timeval timeout = { .tv_sec = 1 };
	uint8_t buf[XF_BUF];
	uint32_t idx = (uint32_t)ifindex;
	ssize_t got;
	int fd, family, err;

	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		return -errno;
	/* Never block the caller for long: the kernel answers at once or not at all. */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
	err = genl_ask(fd, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_NAME,
		       NETDEV_FAMILY_NAME, sizeof(NETDEV_FAMILY_NAME), buf, &got);
	if (err)
		goto out;
	family = pnc_genl_family_parse(buf, (size_t)got);
	if (family < 0) {
		err = family == -ENOENT ? -EOPNOTSUPP : family;
		goto out;
	}
	err = genl_ask(fd, (uint16_t)family, NETDEV_CMD_DEV_GET, NETDEV_A_DEV_IFINDEX, &idx,
		       sizeof(idx), buf, &got);
	if (err)
		goto out;
	err = pnc_xdp_features_parse(buf, (size_t)got, features);
	if (err == -ENOENT || err == -ENODEV)
		err = -ENODEV;
out:
	close(fd);
	return err;
}
