// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Netlink message walking (cnpproxyd/bpfutil/nlmsg.c): datagrams whose last
 * message is shorter than its alignment, lengths that overrun the
 * datagram, and the stale octets of an earlier datagram behind them,
 * which the libc macros on a size_t remainder would read as messages.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "bpfutil/nlmsg.h"

struct dgram {
	uint8_t b[512] __attribute__((aligned(NLMSG_ALIGNTO)));
	size_t len;
};

/* Append a message of `len` octets in all (header included). */
static void put(struct dgram *d, uint16_t type, uint32_t len, uint32_t handle)
{
	struct nlmsghdr nh = { .nlmsg_len = len, .nlmsg_type = type };
	struct tcmsg tcm = { .tcm_handle = handle };

	memcpy(d->b + d->len, &nh, sizeof(nh));
	if (len >= NLMSG_LENGTH(sizeof(tcm)))
		memcpy(d->b + d->len + NLMSG_HDRLEN, &tcm, sizeof(tcm));
	d->len += NLMSG_ALIGN(len);
}

static void put_error(struct dgram *d, int err, uint32_t len)
{
	struct nlmsghdr nh = { .nlmsg_len = len, .nlmsg_type = NLMSG_ERROR };
	struct nlmsgerr e = { .error = err };

	memcpy(d->b + d->len, &nh, sizeof(nh));
	memcpy(d->b + d->len + NLMSG_HDRLEN, &e, sizeof(e));
	d->len += NLMSG_ALIGN(len);
}

static int walk(const struct dgram *d, size_t len)
{
	const struct nlmsghdr *nh;
	size_t left;
	int n = 0;

	for (nh = pnc_nlmsg_first(d->b, len, &left); nh; nh = pnc_nlmsg_next(nh, &left)) {
		assert_true((const uint8_t *)nh + nh->nlmsg_len <= d->b + len);
		n++;
	}
	return n;
}

static void test_whole_datagram(void **state)
{
	struct dgram d = {};

	(void)state;
	put(&d, RTM_NEWTFILTER, NLMSG_LENGTH(sizeof(struct tcmsg)), 1);
	put(&d, RTM_NEWTFILTER, NLMSG_LENGTH(sizeof(struct tcmsg)) + 5, 2);
	put(&d, NLMSG_DONE, NLMSG_LENGTH(4), 0);
	assert_int_equal(walk(&d, d.len), 3);
}

/*
 * The last message is 21 octets and the datagram ends there, without
 * the 3 octets of padding; behind it lie the octets of an earlier,
 * longer datagram.  NLMSG_NEXT on a size_t would wrap the remainder and
 * walk into them.
 */
static void test_unpadded_last_then_stale(void **state)
{
	struct dgram d = {};
	size_t received;
	int n = 0;

	(void)state;
	put(&d, RTM_NEWTFILTER, NLMSG_LENGTH(sizeof(struct tcmsg)), 1);
	put(&d, RTM_NEWTFILTER, 21, 0);
	received = d.len - 3;
	put(&d, RTM_NEWTFILTER, NLMSG_LENGTH(sizeof(struct tcmsg)), 7);
	put(&d, RTM_NEWTFILTER, NLMSG_LENGTH(sizeof(struct tcmsg)), 8);
	assert_int_equal(walk(&d, received), 2);
	assert_int_equal(pnc_nlmsg_count_filters(d.b, received, &n), 0);
	assert_int_equal(n, 1);
}

static void test_overrunning_lengths(void **state)
{
	struct dgram d = {};
	size_t left;

	(void)state;
	/* Longer than the datagram: nothing whole. */
	put(&d, RTM_NEWTFILTER, 200, 1);
	assert_int_equal(walk(&d, 100), 0);
	/* Shorter than a header: not a message, and no endless loop. */
	memset(&d, 0, sizeof(d));
	put(&d, RTM_NEWTFILTER, NLMSG_LENGTH(sizeof(struct tcmsg)), 1);
	put(&d, RTM_NEWTFILTER, 0, 0);
	d.len += 64;
	assert_int_equal(walk(&d, d.len), 1);
	/* Fewer octets than a header. */
	assert_null(pnc_nlmsg_first(d.b, sizeof(struct nlmsghdr) - 1, &left));
	/* The largest length a message can claim. */
	memset(&d, 0, sizeof(d));
	put(&d, RTM_NEWTFILTER, NLMSG_LENGTH(sizeof(struct tcmsg)), 1);
	put(&d, RTM_NEWTFILTER, UINT32_MAX, 1);
	assert_int_equal(walk(&d, sizeof(d.b)), 1);
}

static void test_count_filters(void **state)
{
	struct dgram d = {};
	int n = 0;

	(void)state;
	put(&d, RTM_NEWTFILTER, NLMSG_LENGTH(sizeof(struct tcmsg)), 0); /* classifier */
	put(&d, RTM_NEWTFILTER, NLMSG_LENGTH(sizeof(struct tcmsg)), 1);
	put(&d, RTM_NEWTFILTER, NLMSG_LENGTH(sizeof(struct tcmsg)), 2);
	/* Too short to hold a tcmsg: not counted, not read. */
	put(&d, RTM_NEWTFILTER, NLMSG_HDRLEN + 4, 3);
	assert_int_equal(pnc_nlmsg_count_filters(d.b, d.len, &n), 0);
	assert_int_equal(n, 2);
	put(&d, NLMSG_DONE, NLMSG_LENGTH(4), 0);
	n = 0;
	assert_int_equal(pnc_nlmsg_count_filters(d.b, d.len, &n), 1);
	assert_int_equal(n, 2);
}

static void test_count_filters_errors(void **state)
{
	struct dgram d = {};
	int n = 0;

	(void)state;
	put_error(&d, -ENODEV, NLMSG_LENGTH(sizeof(struct nlmsgerr)));
	assert_int_equal(pnc_nlmsg_count_filters(d.b, d.len, &n), -ENODEV);
	memset(&d, 0, sizeof(d));
	put_error(&d, 0, NLMSG_LENGTH(sizeof(struct nlmsgerr)));
	assert_int_equal(pnc_nlmsg_count_filters(d.b, d.len, &n), 1);
	/* An error message cut short: refused, its error not read. */
	memset(&d, 0, sizeof(d));
	put_error(&d, -ENODEV, NLMSG_HDRLEN + 2);
	assert_int_equal(pnc_nlmsg_count_filters(d.b, d.len, &n), -EBADMSG);
	/*
	 * A positive error is no errno: malformed, not passed on as a count
	 * (found by tests/fuzz/fuzz_netlink.c,
	 * tests/fuzz/regress/netlink/count-filters-positive-error).
	 */
	memset(&d, 0, sizeof(d));
	put_error(&d, ENODEV, NLMSG_LENGTH(sizeof(struct nlmsgerr)));
	assert_int_equal(pnc_nlmsg_count_filters(d.b, d.len, &n), -EBADMSG);
}

/* The port a netlink socket was given. */
static uint32_t port_of(int fd)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	socklen_t len = sizeof(sa);

	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sa, &len), 0);
	return sa.nl_pid;
}

/*
 * A datagram another process sends to our port (root may) is passed over;
 * the kernel's answer, queued after it, is what comes back.
 */
static void test_recv_only_from_kernel(void **state)
{
	int us = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
	int other = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
	struct sockaddr_nl to = { .nl_family = AF_NETLINK };
	struct nlmsghdr forged = { .nlmsg_len = sizeof(forged), .nlmsg_type = NLMSG_DONE,
				   .nlmsg_seq = 7 };
	struct {
		struct nlmsghdr nh;
		struct rtgenmsg g;
	} req = { .nh = { .nlmsg_len = sizeof(req), .nlmsg_type = RTM_GETLINK,
			  .nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK, .nlmsg_seq = 7 },
		  .g = { .rtgen_family = AF_UNSPEC } };
	uint8_t buf[8192] __attribute__((aligned(NLMSG_ALIGNTO)));
	const struct nlmsghdr *nh;
	size_t left;
	ssize_t n;

	(void)state;
	assert_true(us >= 0 && other >= 0);
	to.nl_pid = port_of(us);
	port_of(other);
	assert_int_equal(sendto(other, &forged, sizeof(forged), 0, (struct sockaddr *)&to,
				sizeof(to)),
			 sizeof(forged));
	to.nl_pid = 0;
	assert_int_equal(sendto(us, &req, sizeof(req), 0, (struct sockaddr *)&to, sizeof(to)),
			 sizeof(req));
	n = pnc_nlmsg_recv_kernel(us, buf, sizeof(buf), 0);
	assert_true(n > 0);
	/* a link, or the kernel's refusal of the request: not the forged DONE */
	nh = pnc_nlmsg_first(buf, (size_t)n, &left);
	assert_non_null(nh);
	assert_int_not_equal(nh->nlmsg_type, NLMSG_DONE);
	close(other);
	close(us);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole_datagram),
		cmocka_unit_test(test_unpadded_last_then_stale),
		cmocka_unit_test(test_overrunning_lengths),
		cmocka_unit_test(test_count_filters),
		cmocka_unit_test(test_count_filters_errors),
		cmocka_unit_test(test_recv_only_from_kernel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
