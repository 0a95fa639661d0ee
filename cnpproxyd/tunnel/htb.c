// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * HTB classes over rtnetlink (htb.h).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#include "tunnel/htb.h"
#include "bpfutil/nlmsg.h"

/* A class's bucket holds 1 ms of its rate, and never less than this. */
#define HTB_BURST_MIN 16384
/* The kernel warns of quanta outside 1000-200000 octets. */
#define HTB_QUANTUM_MIN 1514
#define HTB_QUANTUM_MAX 200000

struct req {
	struct nlmsghdr *nh;
	size_t cap;
};

/* Append an attribute; NULL if it does not fit. */
static struct rtattr *put(struct req *r, unsigned short type, const void *data, size_t len)
{
	size_t at = NLMSG_ALIGN(r->nh->nlmsg_len);
	struct rtattr *rta;

	if (at + RTA_SPACE(len) > r->cap)
		return NULL;
	rta = (struct rtattr *)((char *)r->nh + at);
	rta->rta_type = type;
	rta->rta_len = (unsigned short)RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(rta), data, len);
	r->nh->nlmsg_len = (uint32_t)(at + RTA_SPACE(len));
	return rta;
}

/* Close a nested attribute opened by put(r, type, NULL, 0). */
static void nest_end(struct req *r, struct rtattr *nest)
{
	nest->rta_len = (unsigned short)((char *)r->nh + r->nh->nlmsg_len - (char *)nest);
}

static struct tcmsg *start(struct req *r, void *buf, size_t cap, uint16_t type, uint16_t flags,
			   int ifindex)
{
	struct tcmsg *tc;

	if (cap < NLMSG_SPACE(sizeof(*tc)))
		return NULL;
	memset(buf, 0, NLMSG_SPACE(sizeof(*tc)));
	r->nh = buf;
	r->cap = cap;
	r->nh->nlmsg_len = NLMSG_LENGTH(sizeof(*tc));
	r->nh->nlmsg_type = type;
	r->nh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	tc = NLMSG_DATA(r->nh);
	tc->tcm_family = AF_UNSPEC;
	tc->tcm_ifindex = ifindex;
	return tc;
}

size_t pnc_htb_build_root(void *buf, size_t cap, int ifindex, uint16_t major)
{
	struct tc_htb_glob glob = { .version = 3, .rate2quantum = 10, .defcls = 0 };
	uint32_t direct_qlen = 1000;
	struct rtattr *opt;
	struct tcmsg *tc;
	struct req r;

	tc = start(&r, buf, cap, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_EXCL, ifindex);
	if (!tc)
		return 0;
	tc->tcm_parent = TC_H_ROOT;
	tc->tcm_handle = TC_H_MAKE((uint32_t)major << 16, 0);
	if (!put(&r, TCA_KIND, "htb", 4) || !(opt = put(&r, TCA_OPTIONS, NULL, 0)) ||
	    !put(&r, TCA_HTB_INIT, &glob, sizeof(glob)) ||
	    !put(&r, TCA_HTB_DIRECT_QLEN, &direct_qlen, sizeof(direct_qlen)))
		return 0;
	nest_end(&r, opt);
	return r.nh->nlmsg_len;
}

size_t pnc_htb_build_root_del(void *buf, size_t cap, int ifindex, uint16_t major)
{
	struct tcmsg *tc;
	struct req r;

	tc = start(&r, buf, cap, RTM_DELQDISC, 0, ifindex);
	if (!tc)
		return 0;
	tc->tcm_parent = TC_H_ROOT;
	tc->tcm_handle = TC_H_MAKE((uint32_t)major << 16, 0);
	return r.nh->nlmsg_len;
}

/* Microseconds to send n octets at rate_bps, in the kernel's 64 ns ticks. */
static uint32_t ticks(uint64_t octets, uint64_t rate_bps)
{
	uint64_t ns = octets * 8u * 1000000000u / rate_bps;

	return ns / 64u > UINT32_MAX ? UINT32_MAX : (uint32_t)(ns / 64u);
}

size_t pnc_htb_build_class(void *buf, size_t cap, int ifindex, uint16_t major, uint16_t minor,
			   uint64_t rate_bps)
{
	struct tc_htb_opt opt = {};
	uint64_t Bps, burst;
	struct rtattr *nest;
	struct tcmsg *tc;
	struct req r;

	if (rate_bps < 8000)
		rate_bps = 8000;
	Bps = rate_bps / 8u;
	burst = Bps / 1000u > HTB_BURST_MIN ? Bps / 1000u : HTB_BURST_MIN;
	tc = start(&r, buf, cap, RTM_NEWTCLASS, NLM_F_CREATE, ifindex);
	if (!tc)
		return 0;
	tc->tcm_parent = TC_H_MAKE((uint32_t)major << 16, 0);
	tc->tcm_handle = TC_H_MAKE((uint32_t)major << 16, minor);
	/* 64-bit rates go in their own attributes, the 32-bit fields saturate. */
	opt.rate.rate = Bps > UINT32_MAX ? UINT32_MAX : (uint32_t)Bps;
	/* Link layer known: the kernel computes times itself, no rate table. */
	opt.rate.linklayer = TC_LINKLAYER_ETHERNET;
	opt.ceil = opt.rate;
	opt.buffer = opt.cbuffer = ticks(burst, rate_bps);
	opt.quantum = Bps / 10u < HTB_QUANTUM_MIN   ? HTB_QUANTUM_MIN
		      : Bps / 10u > HTB_QUANTUM_MAX ? HTB_QUANTUM_MAX
						    : (uint32_t)(Bps / 10u);
	if (!put(&r, TCA_KIND, "htb", 4) || !(nest = put(&r, TCA_OPTIONS, NULL, 0)) ||
	    !put(&r, TCA_HTB_PARMS, &opt, sizeof(opt)))
		return 0;
	if (Bps > UINT32_MAX && (!put(&r, TCA_HTB_RATE64, &Bps, sizeof(Bps)) ||
				 !put(&r, TCA_HTB_CEIL64, &Bps, sizeof(Bps))))
		return 0;
	nest_end(&r, nest);
	return r.nh->nlmsg_len;
}

size_t pnc_htb_build_class_del(void *buf, size_t cap, int ifindex, uint16_t major, uint16_t minor)
{
	struct tcmsg *tc;
	struct req r;

	tc = start(&r, buf, cap, RTM_DELTCLASS, 0, ifindex);
	if (!tc)
		return 0;
	tc->tcm_parent = TC_H_MAKE((uint32_t)major << 16, 0);
	tc->tcm_handle = TC_H_MAKE((uint32_t)major << 16, minor);
	return r.nh->nlmsg_len;
}

int pnc_htb_request(const void *msg, size_t len)
{
	char buf[1024] __attribute__((aligned(NLMSG_ALIGNTO)));
	const struct nlmsghdr *nh;
	const struct nlmsgerr *e;
	size_t left;
	ssize_t got;
	int fd, rv;

	if (!len)
		return -EMSGSIZE;
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	/* 1: no answer yet.  NLM_F_ACK makes the kernel answer every request. */
	rv = send(fd, msg, len, 0) < 0 ? -errno : 1;
	while (rv == 1) {
		got = pnc_nlmsg_recv_kernel(fd, buf, sizeof(buf), 0);
		if (got < 0) {
			rv = (int)got;
			break;
		}
		for (nh = pnc_nlmsg_first(buf, (size_t)got, &left); nh;
		     nh = pnc_nlmsg_next(nh, &left)) {
			if (nh->nlmsg_type != NLMSG_ERROR)
				continue;
			e = NLMSG_DATA(nh);
			rv = nh->nlmsg_len < NLMSG_LENGTH(sizeof(*e)) || e->error > 0 ? -EPROTO
										      : e->error;
			break;
		}
	}
	close(fd);
	return rv;
}
