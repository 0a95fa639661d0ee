// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The link-layer next hop of a destination (see nexthop.h).
 */
#include <errno.h>
#include <net/if.h>
#include <net/if_arp.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/neighbour.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "proxy/xdp/nexthop.h"
#include "bpfutil/nlmsg.h"

static size_t addr_len(int family)
{
	return family == AF_INET ? 4 : family == AF_INET6 ? 16 : 0;
}

/* Header, family message and one address attribute. */
static size_t req(void *buf, size_t size, uint32_t seq, uint16_t type, const void *fam,
		  size_t fam_len, uint16_t attr, const uint8_t *addr, size_t alen)
{
	size_t fam_off = NLMSG_HDRLEN, rta_off = fam_off + NLMSG_ALIGN(fam_len);
	size_t total = rta_off + RTA_SPACE(alen);
	struct nlmsghdr *nh = buf;
	struct rtattr *rta;

	if (!alen || size < total)
		return 0;
	memset(buf, 0, total);
	nh->nlmsg_len = (uint32_t)total;
	nh->nlmsg_type = type;
	nh->nlmsg_flags = NLM_F_REQUEST;
	nh->nlmsg_seq = seq;
	memcpy((uint8_t *)buf + fam_off, fam, fam_len);
	rta = (struct rtattr *)((uint8_t *)buf + rta_off);
	rta->rta_type = attr;
	rta->rta_len = (unsigned short)RTA_LENGTH(alen);
	memcpy(RTA_DATA(rta), addr, alen);
	return total;
}

size_t pnc_nh_route_req(void *buf, size_t size, uint32_t seq, int family, const uint8_t *dst)
{
	size_t alen = addr_len(family);
	struct rtmsg rtm = {
		.rtm_family = (unsigned char)family,
		.rtm_dst_len = (unsigned char)(alen * 8),
	};

	return req(buf, size, seq, RTM_GETROUTE, &rtm, sizeof(rtm), RTA_DST, dst, alen);
}

size_t pnc_nh_neigh_req(void *buf, size_t size, uint32_t seq, int family, int ifindex,
			const uint8_t *addr)
{
	struct ndmsg ndm = {
		.ndm_family = (unsigned char)family,
		.ndm_ifindex = ifindex,
	};

	return req(buf, size, seq, RTM_GETNEIGH, &ndm, sizeof(ndm), NDA_DST, addr,
		   addr_len(family));
}

/*
 * The reply of type `type` to request seq in one datagram: its family
 * message at *body, its attributes from *attrs on (*attrs_len octets),
 * or the kernel's error.
 */
static int reply(const void *buf, size_t len, uint32_t seq, uint16_t type, size_t body_len,
		 const void **body, const struct rtattr **attrs, size_t *attrs_len)
{
	const struct nlmsghdr *nh;
	size_t left;

	for (nh = pnc_nlmsg_first(buf, len, &left); nh; nh = pnc_nlmsg_next(nh, &left)) {
		if (nh->nlmsg_seq != seq)
			continue;
		if (nh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = NLMSG_DATA(nh);

			if (nh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
				return -EBADMSG;
			/* The kernel's errors are negative: a positive one is no errno. */
			return e->error < 0 ? e->error : -EBADMSG;
		}
		if (nh->nlmsg_type != type)
			continue;
		if (nh->nlmsg_len < NLMSG_LENGTH(NLMSG_ALIGN(body_len)))
			return -EBADMSG;
		*body = NLMSG_DATA(nh);
		*attrs = (const struct rtattr *)((const uint8_t *)NLMSG_DATA(nh) +
						 NLMSG_ALIGN(body_len));
		*attrs_len = nh->nlmsg_len - NLMSG_LENGTH(NLMSG_ALIGN(body_len));
		return 0;
	}
	return -EBADMSG;
}

int pnc_nh_route_parse(const void *buf, size_t len, uint32_t seq, struct pnc_nh_route *out)
{
	const struct rtattr *rta;
	const struct rtmsg *rtm;
	const void *body;
	size_t alen;
	int left, err;

	memset(out, 0, sizeof(*out));
	err = reply(buf, len, seq, RTM_NEWROUTE, sizeof(*rtm), &body, &rta, &alen);
	if (err)
		return err;
	rtm = body;
	if (rtm->rtm_type != RTN_UNICAST)
		return -EHOSTUNREACH;
	for (left = (int)alen; RTA_OK(rta, left); rta = RTA_NEXT(rta, left)) {
		size_t plen = RTA_PAYLOAD(rta);

		switch (rta->rta_type) {
		case RTA_OIF:
			if (plen != sizeof(uint32_t))
				return -EBADMSG;
			memcpy(&out->oif, RTA_DATA(rta), sizeof(uint32_t));
			break;
		case RTA_GATEWAY:
			if (plen != addr_len(rtm->rtm_family))
				return -EBADMSG;
			memcpy(out->gw, RTA_DATA(rta), plen);
			out->gw_len = (uint8_t)plen;
			break;
		case RTA_VIA: /* a gateway of the other family (RFC 5549) */
			return -EHOSTUNREACH;
		default:
			break;
		}
	}
	return out->oif > 0 ? 0 : -EHOSTUNREACH;
}

int pnc_nh_neigh_parse(const void *buf, size_t len, uint32_t seq, uint8_t mac[6])
{
	const struct rtattr *rta;
	const struct ndmsg *ndm;
	const void *body;
	size_t alen;
	int left, err;

	err = reply(buf, len, seq, RTM_NEWNEIGH, sizeof(*ndm), &body, &rta, &alen);
	if (err)
		return err;
	ndm = body;
	/* What the stack itself would send to without asking first. */
	if (!(ndm->ndm_state & (NUD_PERMANENT | NUD_REACHABLE | NUD_STALE | NUD_DELAY | NUD_PROBE)))
		return -ENXIO;
	for (left = (int)alen; RTA_OK(rta, left); rta = RTA_NEXT(rta, left)) {
		if (rta->rta_type != NDA_LLADDR)
			continue;
		if (RTA_PAYLOAD(rta) != 6)
			return -ENXIO;
		memcpy(mac, RTA_DATA(rta), 6);
		return 0;
	}
	return -ENXIO;
}

/* Send one request, receive its reply datagram. */
static ssize_t exchange(int fd, const void *req_buf, size_t req_len, void *buf, size_t size)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };

	if (sendto(fd, req_buf, req_len, 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0)
		return -errno;
	/* The kernel answers while the request is sent: nothing to wait for. */
	return pnc_nlmsg_recv_kernel(fd, buf, size, MSG_DONTWAIT);
}

int pnc_nexthop_socket(void)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);

	return fd < 0 ? -errno : fd;
}

int pnc_nexthop_resolve(int fd, int family, const uint8_t *dst, struct pnc_nexthop *out)
{
	static uint32_t seq;
	uint8_t rq[128] __attribute__((aligned(NLMSG_ALIGNTO)));
	uint8_t buf[4096] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct pnc_nh_route rt;
	struct ifreq ifr = {};
	size_t qlen;
	ssize_t n;
	int err;

	memset(out, 0, sizeof(*out));
	qlen = pnc_nh_route_req(rq, sizeof(rq), ++seq, family, dst);
	if (!qlen)
		return -EAFNOSUPPORT;
	n = exchange(fd, rq, qlen, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	err = pnc_nh_route_parse(buf, (size_t)n, seq, &rt);
	if (err)
		return err;
	qlen = pnc_nh_neigh_req(rq, sizeof(rq), ++seq, family, rt.oif, rt.gw_len ? rt.gw : dst);
	n = exchange(fd, rq, qlen, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	err = pnc_nh_neigh_parse(buf, (size_t)n, seq, out->mac);
	if (err)
		return err;
	/* The interface's own address, and that it is Ethernet. */
	if (!if_indextoname((unsigned int)rt.oif, ifr.ifr_name))
		return -errno;
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0)
		return -errno;
	if (ifr.ifr_hwaddr.sa_family != ARPHRD_ETHER)
		return -EPFNOSUPPORT;
	memcpy(out->src_mac, ifr.ifr_hwaddr.sa_data, 6);
	out->ifindex = rt.oif;
	return 0;
}
