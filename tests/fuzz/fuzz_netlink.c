// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for cnpproxyd's other netlink reply parsers: the
 * message walk and the tc filter count (bpfutil/nlmsg.c), the next hop's
 * route and neighbour replies (proxy/xdp/nexthop.c) and the generic netlink
 * answers of the XDP features (proxy/xdp/features.c).  The input is one
 * received datagram, given to each.  Properties:
 *  - the walk visits exactly the messages a walk by the format's
 *    definition finds (each inside the datagram, in order), and ends;
 *    count_filters counts those a filter dump counts until its end;
 *  - every result is a documented one: 0, or a negative errno (the
 *    kernel's error passed on must be negative to count as one);
 *  - a route or neighbour reply parsed is rebuilt from what was read
 *    with the request builders (pnc_nh_route_req(), pnc_nh_neigh_req())
 *    and parses to the same; an XDP features or family answer parses the
 *    same alone as followed by other messages; a requests is one whole
 *    message for the walk.
 * The sequence number looked for is the first message's, so that
 * replies match.  Seeds (corpus/netlink/): made by gen_corpus_tools.c
 * (make fuzz-corpus): filter dumps, route replies through a gateway or
 * on link (IPv4, IPv6), unreachable and local routes, neighbour entries
 * usable or not, the kernel's errors, family and dev-get answers.
 */
#include <errno.h>
#include <linux/genetlink.h>
#include <linux/neighbour.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "proxy/xdp/nexthop.h"
#include "bpfutil/nlmsg.h"
#include "proxy/xdp/features.h"
#include "fuzz_check.h"

#define REBUILT_MAX 256

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t get_u32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint16_t get_u16(const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * The walk, from the format's definition: a message is a header of 16
 * octets whose length, at least that, fits what is left; the next
 * starts at the length rounded up to 4.  Offsets into off[].
 */
static size_t walk_by_format(const uint8_t *buf, size_t len, size_t *off, size_t max)
{
	size_t at = 0, n = 0, mlen;

	while (n < max && len - at >= NLMSG_HDRLEN) {
		mlen = get_u32(buf + at);
		if (mlen < NLMSG_HDRLEN || mlen > len - at)
			break;
		off[n++] = at;
		if ((mlen + 3) / 4 * 4 >= len - at)
			break;
		at += (mlen + 3) / 4 * 4;
	}
	return n;
}

static void check_walk(const uint8_t *buf, size_t len)
{
	size_t off[512], n, i = 0, left;
	const struct nlmsghdr *nh;

	n = walk_by_format(buf, len, off, sizeof(off) / sizeof(off[0]));
	for (nh = pnc_nlmsg_first(buf, len, &left); nh && i < n; nh = pnc_nlmsg_next(nh, &left)) {
		FUZZ_CHECK((const uint8_t *)nh == buf + off[i]);
		FUZZ_CHECK(left == len - off[i]);
		FUZZ_CHECK(nh->nlmsg_len >= NLMSG_HDRLEN && nh->nlmsg_len <= left);
		i++;
	}
	FUZZ_CHECK(i == n && (!nh || n == sizeof(off) / sizeof(off[0])));
}

/* What pnc_nlmsg_count_filters() returns for buf, from the walk by format. */
static int count_by_format(const uint8_t *buf, size_t len, int *n)
{
	size_t off[512], m;
	uint32_t mlen;
	uint16_t type;
	int err;

	m = walk_by_format(buf, len, off, sizeof(off) / sizeof(off[0]));
	for (size_t i = 0; i < m; i++) {
		const uint8_t *p = buf + off[i];

		mlen = get_u32(p);
		type = get_u16(p + 4);
		if (type == NLMSG_DONE)
			return 1;
		if (type == NLMSG_ERROR) {
			if (mlen < NLMSG_LENGTH(sizeof(struct nlmsgerr)))
				return -EBADMSG;
			memcpy(&err, p + NLMSG_HDRLEN, sizeof(err));
			return err < 0 ? err : err == 0 ? 1 : -EBADMSG;
		}
		if (type == RTM_NEWTFILTER && mlen >= NLMSG_LENGTH(sizeof(struct tcmsg)) &&
		    get_u32(p + NLMSG_HDRLEN + offsetof(struct tcmsg, tcm_handle)))
			(*n)++;
	}
	return 0;
}

static void check_count(const uint8_t *buf, size_t len)
{
	int n = 0, want_n = 0, rv, want;

	/* More than the oracle's walk can hold would not compare. */
	if (len / NLMSG_HDRLEN >= 512)
		return;
	rv = pnc_nlmsg_count_filters(buf, len, &n);
	want = count_by_format(buf, len, &want_n);
	FUZZ_CHECK(rv == want && n == want_n);
	FUZZ_CHECK(rv <= 1);
}

/* The kernel's error or one of the parser's own: negative, never positive. */
static void check_errno(int rv)
{
	FUZZ_CHECK(rv <= 0);
}

static size_t addr_len(int family)
{
	return family == AF_INET ? 4 : family == AF_INET6 ? 16 : 0;
}

/* Append an attribute to the message in buf (size REBUILT_MAX). */
static void put_attr(uint8_t *buf, uint16_t type, const void *data, size_t len)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)buf;
	struct rtattr *rta = (struct rtattr *)(buf + NLMSG_ALIGN(nh->nlmsg_len));

	FUZZ_CHECK(NLMSG_ALIGN(nh->nlmsg_len) + RTA_SPACE(len) <= REBUILT_MAX);
	rta->rta_type = type;
	rta->rta_len = (unsigned short)RTA_LENGTH(len);
	memcpy(RTA_DATA(rta), data, len);
	nh->nlmsg_len = (uint32_t)(NLMSG_ALIGN(nh->nlmsg_len) + RTA_LENGTH(len));
}

/* A request built for a reply: one whole message, as the walk sees it. */
static void check_request(const uint8_t *buf, size_t len, uint16_t type)
{
	const struct nlmsghdr *nh;
	size_t left;

	FUZZ_CHECK(len);
	nh = pnc_nlmsg_first(buf, len, &left);
	FUZZ_CHECK(nh && nh->nlmsg_len == len && nh->nlmsg_type == type);
	FUZZ_CHECK(!pnc_nlmsg_next(nh, &left));
}

/*
 * The route read, as the kernel would answer it: the request's layout
 * (header, rtmsg, the destination) made a unicast RTM_NEWROUTE with the
 * interface and the gateway.
 */
static void route_round_trip(uint32_t seq, int family, const struct pnc_nh_route *rt)
{
	uint8_t buf[REBUILT_MAX] __attribute__((aligned(NLMSG_ALIGNTO))) = { 0 };
	struct nlmsghdr *nh = (struct nlmsghdr *)buf;
	struct rtmsg *rtm = NLMSG_DATA(nh);
	const uint8_t dst[16] = { 192, 0, 2, 1 };
	struct pnc_nh_route again;
	size_t len;

	len = pnc_nh_route_req(buf, sizeof(buf), seq, family, dst);
	check_request(buf, len, RTM_GETROUTE);
	nh->nlmsg_type = RTM_NEWROUTE;
	rtm->rtm_type = RTN_UNICAST;
	put_attr(buf, RTA_OIF, &rt->oif, sizeof(rt->oif));
	if (rt->gw_len)
		put_attr(buf, RTA_GATEWAY, rt->gw, rt->gw_len);
	FUZZ_CHECK(pnc_nh_route_parse(buf, nh->nlmsg_len, seq, &again) == 0);
	FUZZ_CHECK(again.oif == rt->oif && again.gw_len == rt->gw_len);
	FUZZ_CHECK(!memcmp(again.gw, rt->gw, rt->gw_len));
}

static void neigh_round_trip(uint32_t seq, int family, const uint8_t mac[6])
{
	uint8_t buf[REBUILT_MAX] __attribute__((aligned(NLMSG_ALIGNTO))) = { 0 };
	struct nlmsghdr *nh = (struct nlmsghdr *)buf;
	struct ndmsg *ndm = NLMSG_DATA(nh);
	const uint8_t addr[16] = { 192, 0, 2, 1 };
	uint8_t again[6];
	size_t len;

	len = pnc_nh_neigh_req(buf, sizeof(buf), seq, family, 3, addr);
	check_request(buf, len, RTM_GETNEIGH);
	nh->nlmsg_type = RTM_NEWNEIGH;
	ndm->ndm_state = NUD_REACHABLE;
	put_attr(buf, NDA_LLADDR, mac, 6);
	FUZZ_CHECK(pnc_nh_neigh_parse(buf, nh->nlmsg_len, seq, again) == 0);
	FUZZ_CHECK(!memcmp(again, mac, 6));
}

/* The family of the first reply of type `type` to seq, or 0. */
static int reply_family(const uint8_t *buf, size_t len, uint32_t seq, uint16_t type)
{
	const struct nlmsghdr *nh;
	size_t left;

	for (nh = pnc_nlmsg_first(buf, len, &left); nh; nh = pnc_nlmsg_next(nh, &left))
		if (nh->nlmsg_seq == seq && nh->nlmsg_type == type && nh->nlmsg_len > NLMSG_HDRLEN)
			return ((const uint8_t *)nh)[NLMSG_HDRLEN];
	return 0;
}

static void check_nexthop(const uint8_t *buf, size_t len, uint32_t seq)
{
	struct pnc_nh_route rt;
	uint8_t mac[6];
	int rv, family;

	rv = pnc_nh_route_parse(buf, len, seq, &rt);
	check_errno(rv);
	if (!rv) {
		family = reply_family(buf, len, seq, RTM_NEWROUTE);
		FUZZ_CHECK(rt.oif > 0);
		FUZZ_CHECK(rt.gw_len == 0 || rt.gw_len == addr_len(family));
		if (addr_len(family))
			route_round_trip(seq, family, &rt);
	}
	rv = pnc_nh_neigh_parse(buf, len, seq, mac);
	check_errno(rv);
	if (!rv) {
		family = reply_family(buf, len, seq, RTM_NEWNEIGH);
		if (addr_len(family))
			neigh_round_trip(seq, family, mac);
	}
}

/* Generic netlink: the answer is the first message; what follows is not read. */
static void check_genl(const uint8_t *buf, size_t len)
{
	const struct nlmsghdr *nh;
	uint64_t f1 = 0, f2 = 0;
	int id1, id2, rv1, rv2;
	uint8_t *copy;
	size_t left;

	id1 = pnc_genl_family_parse(buf, len);
	rv1 = pnc_xdp_features_parse(buf, len, &f1);
	FUZZ_CHECK(id1 <= UINT16_MAX);
	check_errno(rv1);
	nh = pnc_nlmsg_first(buf, len, &left);
	if (!nh) {
		FUZZ_CHECK(id1 == -EBADMSG && rv1 == -EBADMSG);
		return;
	}
	copy = malloc(nh->nlmsg_len);
	FUZZ_CHECK(copy);
	memcpy(copy, nh, nh->nlmsg_len);
	id2 = pnc_genl_family_parse(copy, nh->nlmsg_len);
	rv2 = pnc_xdp_features_parse(copy, nh->nlmsg_len, &f2);
	FUZZ_CHECK(id1 == id2 && rv1 == rv2 && (rv1 || f1 == f2));
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t seq = size >= NLMSG_HDRLEN ? get_u32(data + 8) : 0;

	check_walk(data, size);
	check_count(data, size);
	check_nexthop(data, size, seq);
	check_genl(data, size);
	return 0;
}
