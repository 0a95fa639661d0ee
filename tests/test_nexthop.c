// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The next-hop lookup's netlink requests and replies
 * (cnpproxyd/proxy/xdp/nexthop.c): a route through a gateway or on link,
 * routes that lead nowhere a frame can go, the kernel's errors,
 * neighbour entries usable or not, and replies cut short.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#include <cmocka.h>

#include <linux/neighbour.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "proxy/xdp/nexthop.h"

struct dgram {
	uint8_t b[512] __attribute__((aligned(NLMSG_ALIGNTO)));
	size_t len;
	size_t msg; /* where the message being built starts */
};

static void begin(struct dgram *d, uint16_t type, uint32_t seq, const void *body, size_t blen)
{
	struct nlmsghdr nh = { .nlmsg_type = type, .nlmsg_seq = seq };

	d->msg = d->len;
	memcpy(d->b + d->len, &nh, sizeof(nh));
	memcpy(d->b + d->len + NLMSG_HDRLEN, body, blen);
	d->len += NLMSG_HDRLEN + NLMSG_ALIGN(blen);
	((struct nlmsghdr *)(d->b + d->msg))->nlmsg_len = (uint32_t)(d->len - d->msg);
}

static void attr(struct dgram *d, uint16_t type, const void *data, size_t len)
{
	struct rtattr *rta = (struct rtattr *)(d->b + d->len);

	rta->rta_type = type;
	rta->rta_len = (unsigned short)RTA_LENGTH(len);
	memcpy(RTA_DATA(rta), data, len);
	d->len += RTA_SPACE(len);
	((struct nlmsghdr *)(d->b + d->msg))->nlmsg_len = (uint32_t)(d->len - d->msg);
}

static void route(struct dgram *d, uint32_t seq, unsigned char type, uint32_t oif,
		  const uint8_t *gw, size_t gw_len)
{
	struct rtmsg rtm = { .rtm_family = gw_len == 16 ? AF_INET6 : AF_INET, .rtm_type = type };

	begin(d, RTM_NEWROUTE, seq, &rtm, sizeof(rtm));
	if (gw)
		attr(d, RTA_GATEWAY, gw, gw_len);
	if (oif)
		attr(d, RTA_OIF, &oif, sizeof(oif));
}

static void neigh(struct dgram *d, uint32_t seq, uint16_t state, const uint8_t *mac, size_t mac_len)
{
	struct ndmsg ndm = { .ndm_family = AF_INET, .ndm_state = state, .ndm_ifindex = 3 };
	const uint8_t dst[4] = { 10, 0, 1, 1 };

	begin(d, RTM_NEWNEIGH, seq, &ndm, sizeof(ndm));
	attr(d, NDA_DST, dst, sizeof(dst));
	if (mac)
		attr(d, NDA_LLADDR, mac, mac_len);
}

static void error(struct dgram *d, uint32_t seq, int err)
{
	struct nlmsgerr e = { .error = err };

	begin(d, NLMSG_ERROR, seq, &e, sizeof(e));
}

static void test_requests(void **state)
{
	const uint8_t v4[4] = { 192, 0, 2, 7 }, v6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
	uint8_t buf[128] __attribute__((aligned(NLMSG_ALIGNTO)));
	const struct nlmsghdr *nh = (const void *)buf;
	const struct rtmsg *rtm = NLMSG_DATA(nh);
	const struct ndmsg *ndm = NLMSG_DATA(nh);
	const struct rtattr *rta;
	size_t len;

	len = pnc_nh_route_req(buf, sizeof(buf), 7, AF_INET, v4);
	assert_int_equal(len, NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(*rtm)) + RTA_SPACE(4));
	assert_int_equal(nh->nlmsg_len, len);
	assert_int_equal(nh->nlmsg_type, RTM_GETROUTE);
	assert_int_equal(nh->nlmsg_flags, NLM_F_REQUEST);
	assert_int_equal(nh->nlmsg_seq, 7);
	assert_int_equal(rtm->rtm_family, AF_INET);
	assert_int_equal(rtm->rtm_dst_len, 32);
	rta = (const void *)((const uint8_t *)rtm + NLMSG_ALIGN(sizeof(*rtm)));
	assert_int_equal(rta->rta_type, RTA_DST);
	assert_memory_equal(RTA_DATA(rta), v4, 4);

	len = pnc_nh_neigh_req(buf, sizeof(buf), 8, AF_INET6, 5, v6);
	assert_int_equal(len, NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(*ndm)) + RTA_SPACE(16));
	assert_int_equal(nh->nlmsg_type, RTM_GETNEIGH);
	assert_int_equal(ndm->ndm_family, AF_INET6);
	assert_int_equal(ndm->ndm_ifindex, 5);
	rta = (const void *)((const uint8_t *)ndm + NLMSG_ALIGN(sizeof(*ndm)));
	assert_int_equal(rta->rta_type, NDA_DST);
	assert_memory_equal(RTA_DATA(rta), v6, 16);

	/* No room, no family: nothing. */
	assert_int_equal(pnc_nh_route_req(buf, 20, 1, AF_INET, v4), 0);
	assert_int_equal(pnc_nh_route_req(buf, sizeof(buf), 1, AF_UNIX, v4), 0);
	(void)state;
}

/* A reply to request 1 with these fields, parsed. */
static int parse_route(unsigned char type, uint32_t oif, const uint8_t *gw, size_t gw_len,
		       struct pnc_nh_route *rt)
{
	struct dgram d = {};

	route(&d, 1, type, oif, gw, gw_len);
	return pnc_nh_route_parse(d.b, d.len, 1, rt);
}

static void test_route_replies(void **state)
{
	const uint8_t gw4[4] = { 10, 0, 1, 254 }, gw6[16] = { 0xfe, 0x80, [15] = 9 };
	struct pnc_nh_route rt;
	struct dgram d = {};

	route(&d, 4, RTN_UNICAST, 3, gw4, 4);
	assert_int_equal(pnc_nh_route_parse(d.b, d.len, 4, &rt), 0);
	assert_int_equal(rt.oif, 3);
	assert_int_equal(rt.gw_len, 4);
	assert_memory_equal(rt.gw, gw4, 4);
	/* Another request's reply is not this one's. */
	assert_int_equal(pnc_nh_route_parse(d.b, d.len, 5, &rt), -EBADMSG);

	assert_int_equal(parse_route(RTN_UNICAST, 2, gw6, 16, &rt), 0);
	assert_int_equal(rt.gw_len, 16);
	assert_memory_equal(rt.gw, gw6, 16);

	/* On link: the destination is the neighbour. */
	assert_int_equal(parse_route(RTN_UNICAST, 2, NULL, 0, &rt), 0);
	assert_int_equal(rt.gw_len, 0);

	/* This router's own address, a blackhole, no interface. */
	assert_int_equal(parse_route(RTN_LOCAL, 1, NULL, 0, &rt), -EHOSTUNREACH);
	assert_int_equal(parse_route(RTN_BLACKHOLE, 0, NULL, 0, &rt), -EHOSTUNREACH);
	assert_int_equal(parse_route(RTN_UNICAST, 0, gw4, 4, &rt), -EHOSTUNREACH);

	/* A gateway of the wrong length is not believed. */
	assert_int_equal(parse_route(RTN_UNICAST, 2, gw6, 5, &rt), -EBADMSG);

	/* The kernel's answer: no route. */
	memset(&d, 0, sizeof(d));
	error(&d, 1, -ENETUNREACH);
	assert_int_equal(pnc_nh_route_parse(d.b, d.len, 1, &rt), -ENETUNREACH);

	/*
	 * An error that is no errno, or none: a malformed reply, not a route
	 * and not an error code of the wrong sign (found by
	 * tests/fuzz/fuzz_netlink.c, tests/fuzz/regress/netlink/nexthop-positive-error).
	 */
	memset(&d, 0, sizeof(d));
	error(&d, 1, ENETUNREACH);
	assert_int_equal(pnc_nh_route_parse(d.b, d.len, 1, &rt), -EBADMSG);
	assert_int_equal(pnc_nh_neigh_parse(d.b, d.len, 1, rt.gw), -EBADMSG);
	memset(&d, 0, sizeof(d));
	error(&d, 1, 0);
	assert_int_equal(pnc_nh_route_parse(d.b, d.len, 1, &rt), -EBADMSG);

	/* Cut short: the header promises more than came. */
	memset(&d, 0, sizeof(d));
	route(&d, 1, RTN_UNICAST, 2, gw4, 4);
	assert_int_equal(pnc_nh_route_parse(d.b, d.len - 4, 1, &rt), -EBADMSG);
	assert_int_equal(pnc_nh_route_parse(d.b, 0, 1, &rt), -EBADMSG);
	(void)state;
}

static void test_neigh_replies(void **state)
{
	const uint8_t mac[6] = { 0x02, 0, 0, 0, 0, 0x11 };
	uint8_t got[6];
	struct dgram d = {};

	for (uint16_t s = NUD_INCOMPLETE; s <= NUD_PERMANENT; s <<= 1) {
		bool usable = s &
			      (NUD_REACHABLE | NUD_STALE | NUD_DELAY | NUD_PROBE | NUD_PERMANENT);

		memset(&d, 0, sizeof(d));
		memset(got, 0, sizeof(got));
		neigh(&d, 2, s, mac, 6);
		assert_int_equal(pnc_nh_neigh_parse(d.b, d.len, 2, got), usable ? 0 : -ENXIO);
		if (usable)
			assert_memory_equal(got, mac, 6);
	}
	/* No address, or not an Ethernet one. */
	memset(&d, 0, sizeof(d));
	neigh(&d, 2, NUD_REACHABLE, NULL, 0);
	assert_int_equal(pnc_nh_neigh_parse(d.b, d.len, 2, got), -ENXIO);
	memset(&d, 0, sizeof(d));
	neigh(&d, 2, NUD_REACHABLE, mac, 4);
	assert_int_equal(pnc_nh_neigh_parse(d.b, d.len, 2, got), -ENXIO);
	/* The kernel has no entry. */
	memset(&d, 0, sizeof(d));
	error(&d, 2, -ENOENT);
	assert_int_equal(pnc_nh_neigh_parse(d.b, d.len, 2, got), -ENOENT);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_requests),
		cmocka_unit_test(test_route_replies),
		cmocka_unit_test(test_neigh_replies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
