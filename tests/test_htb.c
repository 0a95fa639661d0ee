// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ingress PE's local shapers (seed 003 3.2.2.1): the HTB requests
 * cnpproxyd sends (tunnel/htb.c), read back attribute by attribute, and the
 * rate steps of tunnel/shape.h.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include "tunnel/htb.h"
#include "tunnel/shape.h"

/* The attribute of that type directly under [rta, rta + len). */
static const struct rtattr *attr(const struct rtattr *rta, size_t len, unsigned short type)
{
	for (; RTA_OK(rta, len); rta = RTA_NEXT(rta, len))
		if (rta->rta_type == type)
			return rta;
	return NULL;
}

static const struct rtattr *top(const void *msg, unsigned short type)
{
	const struct nlmsghdr *nh = msg;

	return attr((const struct rtattr *)((const char *)NLMSG_DATA(nh) +
					    NLMSG_ALIGN(sizeof(struct tcmsg))),
		    nh->nlmsg_len - NLMSG_LENGTH(sizeof(struct tcmsg)), type);
}

static const struct rtattr *option(const void *msg, unsigned short type)
{
	const struct rtattr *opt = top(msg, TCA_OPTIONS);

	assert_non_null(opt);
	return attr(RTA_DATA(opt), RTA_PAYLOAD(opt), type);
}

static void test_root(void **state)
{
	uint8_t msg[PNC_HTB_MSG_MAX] __attribute__((aligned(4)));
	const struct nlmsghdr *nh = (const void *)msg;
	const struct tcmsg *tc = NLMSG_DATA(nh);
	const struct tc_htb_glob *glob;
	size_t len;

	(void)state;
	len = pnc_htb_build_root(msg, sizeof(msg), 7, 0x504e);
	assert_int_equal(len, nh->nlmsg_len);
	assert_int_equal(nh->nlmsg_type, RTM_NEWQDISC);
	/* Never replaces a qdisc: a root of the operator's answers EEXIST. */
	assert_true(nh->nlmsg_flags & NLM_F_EXCL);
	assert_false(nh->nlmsg_flags & NLM_F_REPLACE);
	assert_int_equal(tc->tcm_ifindex, 7);
	assert_int_equal(tc->tcm_parent, TC_H_ROOT);
	assert_int_equal(tc->tcm_handle, 0x504e0000);
	assert_string_equal(RTA_DATA(top(msg, TCA_KIND)), "htb");
	glob = RTA_DATA(option(msg, TCA_HTB_INIT));
	/* No default class: what no shaper claims leaves unshaped. */
	assert_int_equal(glob->defcls, 0);
	assert_int_equal(glob->version, 3);

	len = pnc_htb_build_root_del(msg, sizeof(msg), 7, 0x504e);
	assert_int_equal(nh->nlmsg_type, RTM_DELQDISC);
	/* With our handle: the kernel refuses to delete another root. */
	assert_int_equal(tc->tcm_handle, 0x504e0000);
	assert_int_equal(len, NLMSG_LENGTH(sizeof(struct tcmsg)));
	/* Too small a buffer: nothing built. */
	assert_int_equal(pnc_htb_build_root(msg, 40, 7, 0x504e), 0);
}

static void test_class(void **state)
{
	uint8_t msg[PNC_HTB_MSG_MAX] __attribute__((aligned(4)));
	const struct nlmsghdr *nh = (const void *)msg;
	const struct tcmsg *tc = NLMSG_DATA(nh);
	const struct tc_htb_opt *opt;
	uint64_t rate64;

	(void)state;
	assert_true(pnc_htb_build_class(msg, sizeof(msg), 3, 0x504e, 5, 4000000) > 0);
	assert_int_equal(nh->nlmsg_type, RTM_NEWTCLASS);
	assert_int_equal(tc->tcm_parent, 0x504e0000);
	assert_int_equal(tc->tcm_handle, 0x504e0005);
	opt = RTA_DATA(option(msg, TCA_HTB_PARMS));
	assert_int_equal(opt->rate.rate, 500000); /* octets per second */
	assert_int_equal(opt->ceil.rate, 500000);
	assert_int_equal(opt->rate.linklayer, TC_LINKLAYER_ETHERNET);
	/* 16 KiB at 4 Mb/s: 32.768 ms, in 64 ns ticks. */
	assert_int_equal(opt->buffer, 512000);
	assert_int_equal(opt->quantum, 50000);
	assert_null(option(msg, TCA_HTB_RATE64));

	/* Above 32 bits of octets per second: the 64-bit attributes. */
	assert_true(pnc_htb_build_class(msg, sizeof(msg), 3, 0x504e, 1, 400000000000ull) > 0);
	opt = RTA_DATA(option(msg, TCA_HTB_PARMS));
	assert_int_equal(opt->rate.rate, UINT32_MAX);
	assert_int_equal(opt->quantum, 200000);
	memcpy(&rate64, RTA_DATA(option(msg, TCA_HTB_RATE64)), sizeof(rate64));
	assert_int_equal(rate64, 50000000000ull);
	memcpy(&rate64, RTA_DATA(option(msg, TCA_HTB_CEIL64)), sizeof(rate64));
	assert_int_equal(rate64, 50000000000ull);

	/* A rate of 0 is raised to the least HTB takes. */
	assert_true(pnc_htb_build_class(msg, sizeof(msg), 3, 0x504e, 1, 0) > 0);
	opt = RTA_DATA(option(msg, TCA_HTB_PARMS));
	assert_int_equal(opt->rate.rate, 1000);
	assert_int_equal(opt->quantum, 1514);

	assert_true(pnc_htb_build_class_del(msg, sizeof(msg), 3, 0x504e, 9) > 0);
	assert_int_equal(nh->nlmsg_type, RTM_DELTCLASS);
	assert_int_equal(tc->tcm_handle, 0x504e0009);
	assert_int_equal(pnc_htb_request(msg, 0), -EMSGSIZE);
}

static void test_rate_steps(void **state)
{
	(void)state;
	assert_int_equal(cnpproxy_shape_next_rate(8000000, 50, 2000000), 4000000);
	assert_int_equal(cnpproxy_shape_next_rate(4000000, 50, 2000000), 2000000);
	assert_int_equal(cnpproxy_shape_next_rate(2000000, 50, 2000000), 2000000);
	assert_int_equal(cnpproxy_shape_next_rate(100000000, 20, 1000000), 80000000);
	/* No overflow at the largest rates. */
	assert_int_equal(cnpproxy_shape_next_rate(UINT64_MAX, 1, 0),
			 UINT64_MAX / 100 * 99 + 15 * 99 / 100);
	/* Measured: 1 MB in 1 s is 8 Mb/s; unknown before a second packet. */
	assert_int_equal(cnpproxy_shape_measured(1000000, 5000000000ull, 6000000000ull), 8000000);
	assert_int_equal(cnpproxy_shape_measured(1000, 7, 7), 0);
	assert_int_equal(cnpproxy_shape_measured(UINT64_MAX, 0, 1), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_root),
		cmocka_unit_test(test_class),
		cmocka_unit_test(test_rate_steps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
