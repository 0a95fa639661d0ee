// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The netdev generic netlink answers the XDP translator relies on to
 * know which interfaces take redirected frames (proxy/xdp/features.c):
 * the attribute found among others, the kernel's error passed on, and
 * answers cut short or with lengths that overrun the datagram refused.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "proxy/xdp/features.h"

struct answer {
	uint8_t b[256] __attribute__((aligned(NLMSG_ALIGNTO)));
	size_t len;
};

static void begin(struct answer *a)
{
	struct nlmsghdr nh = { .nlmsg_type = 0x20 };
	struct genlmsghdr g = { .cmd = 1, .version = 1 };

	memset(a, 0, sizeof(*a));
	memcpy(a->b, &nh, sizeof(nh));
	memcpy(a->b + NLMSG_HDRLEN, &g, sizeof(g));
	a->len = NLMSG_LENGTH(GENL_HDRLEN);
}

static void attr(struct answer *a, uint16_t type, const void *val, uint16_t len)
{
	struct nlattr na = { .nla_len = NLA_HDRLEN + len, .nla_type = type };

	memcpy(a->b + a->len, &na, sizeof(na));
	memcpy(a->b + a->len + NLA_HDRLEN, val, len);
	a->len += NLA_ALIGN(na.nla_len);
}

static size_t end(struct answer *a)
{
	((struct nlmsghdr *)a->b)->nlmsg_len = (uint32_t)a->len;
	return a->len;
}

static void features_after_other_attributes(void **state)
{
	uint32_t ifindex = 7;
	uint64_t xdp = 0x67, got = 0;
	struct answer a;

	(void)state;

	begin(&a);
	attr(&a, 1, &ifindex, sizeof(ifindex)); /* NETDEV_A_DEV_IFINDEX */
	attr(&a, 2, &ifindex, 4);		/* NETDEV_A_DEV_PAD */
	attr(&a, 3, &xdp, sizeof(xdp));		/* NETDEV_A_DEV_XDP_FEATURES */
	assert_int_equal(pnc_xdp_features_parse(a.b, end(&a), &got), 0);
	assert_int_equal(got, 0x67);
	assert_true(got & PNC_XDP_ACT_NDO_XMIT);
}

static void features_missing_or_short(void **state)
{
	uint32_t ifindex = 7, short_val = 4;
	uint64_t got = 0;
	struct answer a;

	(void)state;

	begin(&a);
	attr(&a, 1, &ifindex, sizeof(ifindex));
	assert_int_equal(pnc_xdp_features_parse(a.b, end(&a), &got), -EBADMSG);

	/* An attribute of 4 octets where 8 are due. */
	begin(&a);
	attr(&a, 3, &short_val, sizeof(short_val));
	assert_int_equal(pnc_xdp_features_parse(a.b, end(&a), &got), -EBADMSG);

	/* An attribute length beyond the message. */
	begin(&a);
	attr(&a, 1, &ifindex, sizeof(ifindex));
	((struct nlattr *)(a.b + NLMSG_LENGTH(GENL_HDRLEN)))->nla_len = 200;
	assert_int_equal(pnc_xdp_features_parse(a.b, end(&a), &got), -EBADMSG);

	/* No room for the generic netlink header. */
	begin(&a);
	a.len = NLMSG_HDRLEN + 2;
	assert_int_equal(pnc_xdp_features_parse(a.b, end(&a), &got), -EBADMSG);
	assert_int_equal(pnc_xdp_features_parse(a.b, 3, &got), -EBADMSG);
}

static void kernel_error_passed_on(void **state)
{
	struct answer a = {};
	struct nlmsghdr nh = { .nlmsg_type = NLMSG_ERROR };
	struct nlmsgerr e = { .error = -ENODEV };
	uint64_t got;

	(void)state;

	nh.nlmsg_len = NLMSG_LENGTH(sizeof(e));
	memcpy(a.b, &nh, sizeof(nh));
	memcpy(a.b + NLMSG_HDRLEN, &e, sizeof(e));
	assert_int_equal(pnc_xdp_features_parse(a.b, nh.nlmsg_len, &got), -ENODEV);
	assert_int_equal(pnc_genl_family_parse(a.b, nh.nlmsg_len), -ENODEV);
	/* An error message cut short. */
	((struct nlmsghdr *)a.b)->nlmsg_len = NLMSG_HDRLEN + 2;
	assert_int_equal(pnc_genl_family_parse(a.b, NLMSG_HDRLEN + 2), -EBADMSG);
}

static void family_id(void **state)
{
	uint16_t id = 0x1d;
	struct answer a;

	(void)state;

	begin(&a);
	attr(&a, CTRL_ATTR_FAMILY_NAME, "netdev", 7);
	attr(&a, CTRL_ATTR_FAMILY_ID, &id, sizeof(id));
	assert_int_equal(pnc_genl_family_parse(a.b, end(&a)), 0x1d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(features_after_other_attributes),
		cmocka_unit_test(features_missing_or_short),
		cmocka_unit_test(kernel_error_passed_on),
		cmocka_unit_test(family_id),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
