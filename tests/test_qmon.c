// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The queue monitor's pure parts: rtnetlink qdisc/class parsers on
 * hand-built messages (good, truncated, overlong) and the derived rates.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <cmocka.h>

#include <linux/gen_stats.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include "cp/qmon.h"

/* --- a small netlink message builder -------------------------------------- */

struct msg {
	uint8_t b[2048];
	size_t len;
};

static void msg_init(struct msg *m, uint16_t type, int ifindex, uint32_t handle, uint32_t parent)
{
	struct nlmsghdr nh = { .nlmsg_type = type };
	struct tcmsg tcm = { .tcm_family = AF_UNSPEC,
			     .tcm_ifindex = ifindex,
			     .tcm_handle = handle,
			     .tcm_parent = parent };

	memset(m, 0, sizeof(*m));
	memcpy(m->b, &nh, sizeof(nh));
	memcpy(m->b + NLMSG_HDRLEN, &tcm, sizeof(tcm));
	m->len = NLMSG_SPACE(sizeof(tcm));
}

/* An attribute with payload len, padded; returns its offset. */
static size_t put(struct msg *m, uint16_t type, const void *data, size_t len)
{
	struct rtattr rta = { .rta_len = RTA_LENGTH(len), .rta_type = type };
	size_t off = m->len;

	assert_true(off + RTA_SPACE(len) <= sizeof(m->b));
	memcpy(m->b + off, &rta, sizeof(rta));
	if (len)
		memcpy(m->b + off + RTA_LENGTH(0), data, len);
	m->len += RTA_SPACE(len);
	return off;
}

static void put_str(struct msg *m, uint16_t type, const char *s)
{
	put(m, type, s, strlen(s) + 1);
}

static void put_u64(struct msg *m, uint16_t type, uint64_t v)
{
	put(m, type, &v, sizeof(v));
}

static size_t nest_start(struct msg *m, uint16_t type)
{
	return put(m, type, NULL, 0);
}

static void nest_end(struct msg *m, size_t off)
{
	struct rtattr rta;

	memcpy(&rta, m->b + off, sizeof(rta));
	rta.rta_len = m->len - off;
	memcpy(m->b + off, &rta, sizeof(rta));
}

/* Set rta_len of the attribute at off (to break it). */
static void set_rta_len(struct msg *m, size_t off, uint16_t rta_len)
{
	struct rtattr rta;

	memcpy(&rta, m->b + off, sizeof(rta));
	rta.rta_len = rta_len;
	memcpy(m->b + off, &rta, sizeof(rta));
}

static void msg_end(struct msg *m)
{
	struct nlmsghdr nh;

	memcpy(&nh, m->b, sizeof(nh));
	nh.nlmsg_len = m->len;
	memcpy(m->b, &nh, sizeof(nh));
}

static void put_stats2(struct msg *m, uint64_t bytes, uint32_t packets, uint32_t backlog,
		       uint32_t qlen, uint32_t drops)
{
	struct gnet_stats_basic b = { .bytes = bytes, .packets = packets };
	struct gnet_stats_queue q = {
		.qlen = qlen, .backlog = backlog, .drops = drops, .requeues = 3, .overlimits = 77
	};
	size_t n = nest_start(m, TCA_STATS2);

	put(m, TCA_STATS_BASIC, &b, sizeof(b));
	put(m, TCA_STATS_QUEUE, &q, sizeof(q));
	nest_end(m, n);
}

static void put_legacy(struct msg *m, uint64_t bytes, uint32_t packets, uint32_t backlog)
{
	struct tc_stats st = { .bytes = bytes,
			       .packets = packets,
			       .drops = 5,
			       .overlimits = 6,
			       .qlen = 7,
			       .backlog = backlog };

	put(m, TCA_STATS, &st, sizeof(st));
}

static void put_tbf_parms(struct msg *m, uint32_t rate_Bps)
{
	struct tc_tbf_qopt q = { .rate = { .rate = rate_Bps }, .limit = 1 << 20 };

	put(m, TCA_TBF_PARMS, &q, sizeof(q));
}

/* The qdisc the kernel sends for "tbf rate 10mbit": kind, options, stats. */
static void build_tbf(struct msg *m)
{
	size_t o;

	msg_init(m, RTM_NEWQDISC, 7, 0x80010000, TC_H_ROOT);
	put_str(m, TCA_KIND, "tbf");
	o = nest_start(m, TCA_OPTIONS);
	put_tbf_parms(m, 1250000);
	nest_end(m, o);
	put_stats2(m, 123456789, 4321, 65000, 45, 9);
	put_legacy(m, 1, 2, 3);
	msg_end(m);
}

static int parse_q(const struct msg *m, struct pnc_qmon_sample *s)
{
	memset(s, 0xa5, sizeof(*s));
	return pnc_qmon_parse_qdisc(m->b, m->len, s);
}

static int parse_c(const struct msg *m, struct pnc_qmon_class *c)
{
	memset(c, 0xa5, sizeof(*c));
	return pnc_qmon_parse_class(m->b, m->len, c);
}

/* --- qdisc ---------------------------------------------------------------- */

static void test_tbf_rate(void **state)
{
	struct pnc_qmon_sample s;
	struct pnc_qmon_id id;
	struct msg m;
	uint16_t type;

	(void)state;
	build_tbf(&m);
	assert_int_equal(parse_q(&m, &s), 0);
	assert_int_equal(s.ifindex, 7);
	assert_string_equal(s.kind, "tbf");
	assert_int_equal(s.bytes, 123456789);
	assert_int_equal(s.packets, 4321);
	assert_int_equal(s.backlog_bytes, 65000);
	assert_int_equal(s.backlog_pkts, 45);
	assert_int_equal(s.drops, 9);
	assert_int_equal(s.requeues, 3);
	assert_int_equal(s.overlimits, 77);
	assert_int_equal(s.rate_bps, 10000000);
	assert_int_equal(s.ts_us, 0);

	assert_int_equal(pnc_qmon_parse_id(m.b, m.len, &type, &id), 0);
	assert_int_equal(type, RTM_NEWQDISC);
	assert_int_equal(id.ifindex, 7);
	assert_int_equal(id.handle, 0x80010000);
	assert_int_equal(id.parent, TC_H_ROOT);
}

static void test_tbf_rate64(void **state)
{
	struct pnc_qmon_sample s;
	struct msg m;
	size_t o;

	(void)state;
	/* 40 Gbit/s: the 32-bit rate saturates, RATE64 has it; order must not matter. */
	msg_init(&m, RTM_NEWQDISC, 2, 0x10000, TC_H_ROOT);
	o = nest_start(&m, TCA_OPTIONS);
	put_u64(&m, TCA_TBF_RATE64, 5000000000ull);
	put_tbf_parms(&m, UINT32_MAX);
	nest_end(&m, o);
	put_stats2(&m, 1, 1, 0, 0, 0);
	put_str(&m, TCA_KIND, "tbf");
	msg_end(&m);
	assert_int_equal(parse_q(&m, &s), 0);
	assert_int_equal(s.rate_bps, 40000000000ull);

	/* Without RATE64 the 32-bit rate counts. */
	msg_init(&m, RTM_NEWQDISC, 2, 0x10000, TC_H_ROOT);
	put_str(&m, TCA_KIND, "tbf");
	o = nest_start(&m, TCA_OPTIONS);
	put_tbf_parms(&m, UINT32_MAX);
	nest_end(&m, o);
	put_stats2(&m, 1, 1, 0, 0, 0);
	msg_end(&m);
	assert_int_equal(parse_q(&m, &s), 0);
	assert_int_equal(s.rate_bps, (uint64_t)UINT32_MAX * 8);
}

static void test_htb_qdisc_has_no_rate(void **state)
{
	struct tc_htb_glob g = { .version = 3, .rate2quantum = 10, .defcls = 0x10 };
	struct pnc_qmon_sample s;
	struct msg m;
	size_t o;

	(void)state;
	msg_init(&m, RTM_NEWQDISC, 3, 0x10000, TC_H_ROOT);
	put_str(&m, TCA_KIND, "htb");
	o = nest_start(&m, TCA_OPTIONS);
	put(&m, TCA_HTB_INIT, &g, sizeof(g));
	nest_end(&m, o);
	put_stats2(&m, 1000, 10, 3000, 2, 1);
	msg_end(&m);
	assert_int_equal(parse_q(&m, &s), 0);
	assert_string_equal(s.kind, "htb");
	assert_int_equal(s.rate_bps, 0);
	assert_int_equal(s.backlog_bytes, 3000);
}

static void test_fifo_options_not_nested(void **state)
{
	struct tc_fifo_qopt f = { .limit = 1000 };
	struct pnc_qmon_sample s;
	struct msg m;

	(void)state;
	/* pfifo's TCA_OPTIONS is a bare struct: never parsed as attributes. */
	msg_init(&m, RTM_NEWQDISC, 3, 0x10000, TC_H_ROOT);
	put_str(&m, TCA_KIND, "pfifo");
	put(&m, TCA_OPTIONS, &f, sizeof(f));
	put_stats2(&m, 1000, 10, 0, 0, 0);
	msg_end(&m);
	assert_int_equal(parse_q(&m, &s), 0);
	assert_int_equal(s.rate_bps, 0);
}

static void test_stats2_wins_over_legacy(void **state)
{
	struct pnc_qmon_sample s;
	struct msg m;

	(void)state;
	/* Legacy after STATS2 in the message: STATS2 still wins. */
	msg_init(&m, RTM_NEWQDISC, 3, 0x10000, TC_H_ROOT);
	put_str(&m, TCA_KIND, "pfifo_fast");
	put_stats2(&m, 5000, 50, 100, 1, 2);
	put_legacy(&m, 9999, 99, 999);
	msg_end(&m);
	assert_int_equal(parse_q(&m, &s), 0);
	assert_int_equal(s.bytes, 5000);
	assert_int_equal(s.packets, 50);
	assert_int_equal(s.backlog_bytes, 100);
	assert_int_equal(s.drops, 2);
}

static void test_legacy_stats_only(void **state)
{
	struct pnc_qmon_sample s;
	struct msg m;

	(void)state;
	msg_init(&m, RTM_NEWQDISC, 3, 0x10000, TC_H_ROOT);
	put_str(&m, TCA_KIND, "pfifo_fast");
	put_legacy(&m, 9999, 99, 999);
	msg_end(&m);
	assert_int_equal(parse_q(&m, &s), 0);
	assert_int_equal(s.bytes, 9999);
	assert_int_equal(s.packets, 99);
	assert_int_equal(s.drops, 5);
	assert_int_equal(s.overlimits, 6);
	assert_int_equal(s.backlog_pkts, 7);
	assert_int_equal(s.backlog_bytes, 999);
	assert_int_equal(s.requeues, 0);
}

static void test_pkt64_and_nested_flag(void **state)
{
	struct gnet_stats_basic b = { .bytes = 10, .packets = 1 };
	struct pnc_qmon_sample s;
	struct msg m;
	size_t n;

	(void)state;
	msg_init(&m, RTM_NEWQDISC, 3, 0x10000, TC_H_ROOT);
	put_str(&m, TCA_KIND, "tbf");
	/* NLA_F_NESTED may be set by newer senders; it is not part of the type. */
	n = nest_start(&m, TCA_STATS2 | NLA_F_NESTED);
	put_u64(&m, TCA_STATS_PKT64, 0x100000005ull);
	put(&m, TCA_STATS_PAD, NULL, 0);
	put(&m, TCA_STATS_BASIC, &b, sizeof(b));
	nest_end(&m, n);
	msg_end(&m);
	assert_int_equal(parse_q(&m, &s), 0);
	assert_int_equal(s.bytes, 10);
	assert_int_equal(s.packets, 0x100000005ull);
}

static void test_unpadded_last_attribute(void **state)
{
	struct pnc_qmon_sample s;
	struct msg m;

	(void)state;
	/* TCA_KIND "x" is 6 bytes + 2 of padding: the message ends without them. */
	msg_init(&m, RTM_NEWQDISC, 3, 0x10000, TC_H_ROOT);
	put_legacy(&m, 1, 1, 1);
	put_str(&m, TCA_KIND, "x");
	m.len -= 2;
	msg_end(&m);
	assert_int_equal(parse_q(&m, &s), 0);
	assert_string_equal(s.kind, "x");
}

/* --- class ---------------------------------------------------------------- */

static void put_htb_parms(struct msg *m, uint32_t rate_Bps, uint32_t ceil_Bps, size_t len)
{
	struct tc_htb_opt o = { .rate = { .rate = rate_Bps },
				.ceil = { .rate = ceil_Bps },
				.quantum = 1514,
				.prio = 0 };

	put(m, TCA_HTB_PARMS, &o, len);
}

static void test_htb_class(void **state)
{
	struct pnc_qmon_class c;
	struct msg m;
	size_t o;

	(void)state;
	msg_init(&m, RTM_NEWTCLASS, 4, 0x10010, TC_H_ROOT);
	put_str(&m, TCA_KIND, "htb");
	o = nest_start(&m, TCA_OPTIONS);
	put_htb_parms(&m, 1250000, 2500000, sizeof(struct tc_htb_opt));
	nest_end(&m, o);
	put_stats2(&m, 1, 1, 0, 0, 0);
	msg_end(&m);
	assert_int_equal(parse_c(&m, &c), 0);
	assert_int_equal(c.id.ifindex, 4);
	assert_int_equal(c.id.handle, 0x10010);
	assert_int_equal(c.id.parent, TC_H_ROOT);
	assert_string_equal(c.kind, "htb");
	assert_int_equal(c.rate_bps, 10000000);
	assert_int_equal(c.ceil_bps, 20000000);

	/* 100 Gbit rate, 200 Gbit ceil through the 64-bit attributes. */
	msg_init(&m, RTM_NEWTCLASS, 4, 0x10011, 0x10010);
	put_str(&m, TCA_KIND, "htb");
	o = nest_start(&m, TCA_OPTIONS);
	put_htb_parms(&m, UINT32_MAX, UINT32_MAX, sizeof(struct tc_htb_opt));
	put_u64(&m, TCA_HTB_RATE64, 12500000000ull);
	put_u64(&m, TCA_HTB_CEIL64, 25000000000ull);
	nest_end(&m, o);
	msg_end(&m);
	assert_int_equal(parse_c(&m, &c), 0);
	assert_int_equal(c.id.parent, 0x10010);
	assert_int_equal(c.rate_bps, 100000000000ull);
	assert_int_equal(c.ceil_bps, 200000000000ull);
}

static void test_other_class_has_no_rate(void **state)
{
	struct pnc_qmon_class c;
	struct msg m;
	size_t o;

	(void)state;
	/* Options of another kind are never read as HTB's. */
	msg_init(&m, RTM_NEWTCLASS, 4, 0x10001, 0x10000);
	put_str(&m, TCA_KIND, "prio");
	o = nest_start(&m, TCA_OPTIONS);
	put_htb_parms(&m, 1, 1, sizeof(struct tc_htb_opt));
	nest_end(&m, o);
	msg_end(&m);
	assert_int_equal(parse_c(&m, &c), 0);
	assert_int_equal(c.rate_bps, 0);
	assert_int_equal(c.ceil_bps, 0);
}

static void test_htb_class_bad_lengths(void **state)
{
	struct pnc_qmon_class c;
	struct msg m;
	uint32_t four = 4;
	size_t o;

	(void)state;
	msg_init(&m, RTM_NEWTCLASS, 4, 0x10010, TC_H_ROOT);
	put_str(&m, TCA_KIND, "htb");
	o = nest_start(&m, TCA_OPTIONS);
	put_htb_parms(&m, 1, 1, offsetof(struct tc_htb_opt, ceil) + 4);
	nest_end(&m, o);
	msg_end(&m);
	assert_int_equal(parse_c(&m, &c), PNC_QMON_E_HTB_PARMS_LEN);

	msg_init(&m, RTM_NEWTCLASS, 4, 0x10010, TC_H_ROOT);
	put_str(&m, TCA_KIND, "htb");
	o = nest_start(&m, TCA_OPTIONS);
	put(&m, TCA_HTB_RATE64, &four, sizeof(four));
	nest_end(&m, o);
	msg_end(&m);
	assert_int_equal(parse_c(&m, &c), PNC_QMON_E_HTB_RATE64_LEN);

	msg_init(&m, RTM_NEWTCLASS, 4, 0x10010, TC_H_ROOT);
	put_str(&m, TCA_KIND, "htb");
	o = nest_start(&m, TCA_OPTIONS);
	put(&m, TCA_HTB_CEIL64, &four, sizeof(four));
	nest_end(&m, o);
	msg_end(&m);
	assert_int_equal(parse_c(&m, &c), PNC_QMON_E_HTB_CEIL64_LEN);

	/* A nested attribute running past TCA_OPTIONS. */
	msg_init(&m, RTM_NEWTCLASS, 4, 0x10010, TC_H_ROOT);
	put_str(&m, TCA_KIND, "htb");
	o = nest_start(&m, TCA_OPTIONS);
	put_u64(&m, TCA_HTB_RATE64, 1);
	nest_end(&m, o);
	set_rta_len(&m, o + RTA_LENGTH(0), RTA_LENGTH(16));
	msg_end(&m);
	assert_int_equal(parse_c(&m, &c), PNC_QMON_E_OPTIONS_LEN);
}

/* --- message type and header ----------------------------------------------- */

static void test_wrong_message_type(void **state)
{
	struct pnc_qmon_sample s;
	struct pnc_qmon_class c;
	struct pnc_qmon_id id;
	uint16_t type;
	struct msg m;

	(void)state;
	build_tbf(&m);
	assert_int_equal(parse_c(&m, &c), PNC_QMON_E_MSG_TYPE);
	m.b[offsetof(struct nlmsghdr, nlmsg_type)] = RTM_DELQDISC;
	assert_int_equal(parse_q(&m, &s), PNC_QMON_E_MSG_TYPE);
	assert_int_equal(pnc_qmon_parse_id(m.b, m.len, &type, &id), PNC_QMON_E_MSG_TYPE);
	assert_int_equal(type, RTM_DELQDISC);
	m.b[offsetof(struct nlmsghdr, nlmsg_type)] = NLMSG_ERROR;
	assert_int_equal(parse_q(&m, &s), PNC_QMON_E_MSG_TYPE);

	msg_init(&m, RTM_NEWTCLASS, 4, 0x10010, TC_H_ROOT);
	put_str(&m, TCA_KIND, "htb");
	put_stats2(&m, 1, 1, 0, 0, 0);
	msg_end(&m);
	assert_int_equal(parse_q(&m, &s), PNC_QMON_E_MSG_TYPE);
	assert_int_equal(parse_c(&m, &c), 0);
}

static void test_header_lengths(void **state)
{
	struct pnc_qmon_sample s;
	struct nlmsghdr nh;
	struct msg m;

	(void)state;
	build_tbf(&m);
	assert_int_equal(pnc_qmon_parse_qdisc(m.b, 0, &s), PNC_QMON_E_NLMSG_TRUNCATED);
	assert_int_equal(pnc_qmon_parse_qdisc(m.b, sizeof(nh) - 1, &s), PNC_QMON_E_NLMSG_TRUNCATED);
	/* nlmsg_len beyond the buffer given */
	assert_int_equal(pnc_qmon_parse_qdisc(m.b, m.len - 1, &s), PNC_QMON_E_NLMSG_LEN);
	/* nlmsg_len below its own header */
	memcpy(&nh, m.b, sizeof(nh));
	nh.nlmsg_len = sizeof(nh) - 1;
	memcpy(m.b, &nh, sizeof(nh));
	assert_int_equal(parse_q(&m, &s), PNC_QMON_E_NLMSG_LEN);
	/* room for the header but not for the tcmsg */
	nh.nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg)) - 1;
	memcpy(m.b, &nh, sizeof(nh));
	assert_int_equal(parse_q(&m, &s), PNC_QMON_E_TCMSG_TRUNCATED);
	assert_int_equal(pnc_qmon_parse_qdisc(NULL, 100, &s), PNC_QMON_E_INVALID_ARG);
	assert_int_equal(pnc_qmon_parse_qdisc(m.b, m.len, NULL), PNC_QMON_E_INVALID_ARG);
}

/* --- attribute lengths ------------------------------------------------------ */

static void test_top_level_attr_lengths(void **state)
{
	struct pnc_qmon_sample s;
	struct msg m;
	size_t k;

	(void)state;
	/* rta_len past the message */
	msg_init(&m, RTM_NEWQDISC, 3, 0x10000, TC_H_ROOT);
	k = put(&m, TCA_KIND, "tbf", 4);
	set_rta_len(&m, k, 64);
	msg_end(&m);
	assert_int_equal(parse_q(&m, &s), PNC_QMON_E_ATTR_LEN);
	/* rta_len below the attribute header: would loop forever if trusted */
	set_rta_len(&m, k, 2);
	assert_int_equal(parse_q(&m, &s), PNC_QMON_E_ATTR_LEN);
	set_rta_len(&m, k, 0);
	assert_int_equal(parse_q(&m, &s), PNC_QMON_E_ATTR_LEN);
	/* trailing bytes too few for an attribute header */
	build_tbf(&m);
	m.len += 2;
	msg_end(&m);
	assert_int_equal(parse_q(&m, &s), PNC_QMON_E_ATTR_LEN);
}

static void test_kind_lengths(void **state)
{
	struct pnc_qmon_sample s;
	struct msg m;

	(void)state;
	msg_init(&m, RTM_NEWQDISC, 3, 0x10000, TC_H_ROOT);
	put(&m, TCA_KIND, "tbf", 3); /* unterminated */
	put_stats2(&m, 1, 1, 0, 0, 0);
	msg_end(&m);
	assert_int_equal(parse_q(&m, &s), PNC_QMON_E_KIND_LEN);

	msg_init(&m, RTM_NEWQDISC, 3, 0x10000, TC_H_ROOT);
	put_str(&m, TCA_KIND, ""); /* empty */
	put_stats2(&m, 1, 1, 0, 0, 0);
	msg_end(&m);
	assert_int_equal(parse_q(&m, &s), PNC_QMON_E_KIND_LEN);

	msg_init(&m, RTM_NEWQDISC, 3, 0x10000, TC_H_ROOT);
	put_str(&m, TCA_KIND, "0123456789abcdef"); /* 16 + NUL > kind[16] */
	put_stats2(&m, 1, 1, 0, 0, 0);
	msg_end(&m);
	assert_int_equal(parse_q(&m, &s), PNC_QMON_E_KIND_LEN);

	msg_init(&m, RTM_NEWQDISC, 3, 0x10000, TC_H_ROOT);
	put_str(&m, TCA_KIND, "0123456789abcde"); /* exactly fits */
	put_stats2(&m, 1, 1, 0, 0, 0);
	msg_end(&m);
	assert_int_equal(parse_q(&m, &s), 0);
	assert_string_equal(s.kind, "0123456789abcde");

	msg_init(&m, RTM_NEWQDISC, 3, 0x10000, TC_H_ROOT);
	put_stats2(&m, 1, 1, 0, 0, 0);
	msg_end(&m);
	assert_int_equal(parse_q(&m, &s), PNC_QMON_E_NO_KIND);
}

/* A qdisc "tbf" whose only statistic is the attribute given. */
static int parse_with_stats2_attr(uint16_t type, const void *data, size_t len)
{
	struct pnc_qmon_sample s;
	struct msg m;
	size_t n;

	msg_init(&m, RTM_NEWQDISC, 3, 0x10000, TC_H_ROOT);
	put_str(&m, TCA_KIND, "tbf");
	n = nest_start(&m, TCA_STATS2);
	put(&m, type, data, len);
	nest_end(&m, n);
	msg_end(&m);
	return parse_q(&m, &s);
}

static void test_stats_lengths(void **state)
{
	uint8_t z[64] = {};
	struct pnc_qmon_sample s;
	struct msg m;
	size_t n;

	(void)state;
	assert_int_equal(parse_with_stats2_attr(TCA_STATS_BASIC, z, 11),
			 PNC_QMON_E_STATS_BASIC_LEN);
	assert_int_equal(parse_with_stats2_attr(TCA_STATS_BASIC, z, 12), 0);
	assert_int_equal(parse_with_stats2_attr(TCA_STATS_QUEUE, z, 16),
			 PNC_QMON_E_STATS_QUEUE_LEN);
	assert_int_equal(parse_with_stats2_attr(TCA_STATS_QUEUE, z, 20), 0);
	assert_int_equal(parse_with_stats2_attr(TCA_STATS_PKT64, z, 4), PNC_QMON_E_STATS_PKT64_LEN);
	/* Longer than the struct: newer kernels may append fields. */
	assert_int_equal(parse_with_stats2_attr(TCA_STATS_QUEUE, z, 24), 0);

	/* A nested attribute running past TCA_STATS2. */
	msg_init(&m, RTM_NEWQDISC, 3, 0x10000, TC_H_ROOT);
	put_str(&m, TCA_KIND, "tbf");
	n = nest_start(&m, TCA_STATS2);
	put(&m, TCA_STATS_QUEUE, z, 20);
	nest_end(&m, n);
	set_rta_len(&m, n + RTA_LENGTH(0), RTA_LENGTH(24));
	put_legacy(&m, 1, 1, 1);
	msg_end(&m);
	assert_int_equal(parse_q(&m, &s), PNC_QMON_E_STATS2_LEN);

	/* legacy TCA_STATS too short for backlog */
	msg_init(&m, RTM_NEWQDISC, 3, 0x10000, TC_H_ROOT);
	put_str(&m, TCA_KIND, "tbf");
	put(&m, TCA_STATS, z, offsetof(struct tc_stats, backlog));
	msg_end(&m);
	assert_int_equal(parse_q(&m, &s), PNC_QMON_E_STATS_LEN);

	/* no statistics at all */
	msg_init(&m, RTM_NEWQDISC, 3, 0x10000, TC_H_ROOT);
	put_str(&m, TCA_KIND, "tbf");
	msg_end(&m);
	assert_int_equal(parse_q(&m, &s), PNC_QMON_E_NO_STATS);
}

static void test_tbf_option_lengths(void **state)
{
	struct pnc_qmon_sample s;
	uint8_t z[64] = {};
	struct msg m;
	size_t o;

	(void)state;
	msg_init(&m, RTM_NEWQDISC, 3, 0x10000, TC_H_ROOT);
	put_str(&m, TCA_KIND, "tbf");
	o = nest_start(&m, TCA_OPTIONS);
	put(&m, TCA_TBF_PARMS, z, sizeof(struct tc_ratespec) - 1);
	nest_end(&m, o);
	put_stats2(&m, 1, 1, 0, 0, 0);
	msg_end(&m);
	assert_int_equal(parse_q(&m, &s), PNC_QMON_E_TBF_PARMS_LEN);

	msg_init(&m, RTM_NEWQDISC, 3, 0x10000, TC_H_ROOT);
	put_str(&m, TCA_KIND, "tbf");
	o = nest_start(&m, TCA_OPTIONS);
	put(&m, TCA_TBF_RATE64, z, 7);
	nest_end(&m, o);
	put_stats2(&m, 1, 1, 0, 0, 0);
	msg_end(&m);
	assert_int_equal(parse_q(&m, &s), PNC_QMON_E_TBF_RATE64_LEN);

	msg_init(&m, RTM_NEWQDISC, 3, 0x10000, TC_H_ROOT);
	put_str(&m, TCA_KIND, "tbf");
	o = nest_start(&m, TCA_OPTIONS);
	put(&m, TCA_TBF_RATE64, z, 8);
	nest_end(&m, o);
	set_rta_len(&m, o + RTA_LENGTH(0), 3);
	put_stats2(&m, 1, 1, 0, 0, 0);
	msg_end(&m);
	assert_int_equal(parse_q(&m, &s), PNC_QMON_E_OPTIONS_LEN);
}

/*
 * Every prefix of a good message, in a buffer of exactly that size, with
 * nlmsg_len claiming the prefix: an error or success, never a read past
 * the end (run under ASan/valgrind to see one).
 */
static void test_every_truncation(void **state)
{
	struct pnc_qmon_sample s;
	struct pnc_qmon_class c;
	struct nlmsghdr nh;
	struct msg m;

	(void)state;
	build_tbf(&m);
	for (size_t cut = 0; cut <= m.len; cut++) {
		uint8_t *p = malloc(cut ? cut : 1);
		int rv;

		assert_non_null(p);
		memcpy(p, m.b, cut);
		if (cut >= sizeof(nh)) {
			memcpy(&nh, p, sizeof(nh));
			nh.nlmsg_len = cut;
			memcpy(p, &nh, sizeof(nh));
		}
		rv = pnc_qmon_parse_qdisc(p, cut, &s);
		if (cut == m.len)
			assert_int_equal(rv, 0);
		else
			assert_true(rv < PNC_QMON_E_BASE || rv == 0);
		rv = pnc_qmon_parse_class(p, cut, &c);
		assert_true(rv < PNC_QMON_E_BASE);
		free(p);
	}
}

/* --- derived rates -------------------------------------------------------- */

static struct pnc_qmon_sample sample(uint64_t ts_us, uint64_t bytes, uint64_t packets,
				     uint32_t drops, uint32_t backlog)
{
	struct pnc_qmon_sample s = { .ifindex = 3,
				     .kind = "tbf",
				     .ts_us = ts_us,
				     .bytes = bytes,
				     .packets = packets,
				     .drops = drops,
				     .overlimits = drops * 2,
				     .backlog_bytes = backlog,
				     .rate_bps = 10000000 };
	return s;
}

static void test_derive_rates(void **state)
{
	struct pnc_qmon_sample a = sample(1000000, 1000, 10, 4, 10000);
	struct pnc_qmon_sample b = sample(1100000, 126000, 110, 54, 60000);
	struct pnc_qmon_rates r;

	(void)state;
	/* 100 ms: 125000 B = 10 Mbit/s, 100 pkts, 50 drops, +50000 B backlog. */
	assert_int_equal(pnc_qmon_derive(&a, &b, &r), 0);
	assert_true(r.valid);
	assert_int_equal(r.dt_us, 100000);
	assert_int_equal(r.d_bytes, 125000);
	assert_int_equal(r.tx_bps, 10000000);
	assert_int_equal(r.tx_pps, 1000);
	assert_int_equal(r.drop_pps, 500);
	assert_int_equal(r.overlimit_ps, 1000);
	assert_int_equal(r.growth_Bps, 500000);
	/* 60000 B at 10 Mbit/s drain in 48 ms; at full rate: 1000 permille. */
	assert_int_equal(r.qdelay_us, 48000);
	assert_int_equal(r.util_permille, 1000);
}

static void test_derive_draining(void **state)
{
	struct pnc_qmon_sample a = sample(0, 0, 0, 0, 80000);
	struct pnc_qmon_sample b = sample(200000, 250000, 0, 0, 30000);
	struct pnc_qmon_rates r;

	(void)state;
	assert_int_equal(pnc_qmon_derive(&a, &b, &r), 0);
	assert_int_equal(r.growth_Bps, -250000);
	assert_int_equal(r.tx_bps, 10000000);
}

static void test_derive_wraps(void **state)
{
	struct pnc_qmon_sample a = sample(5, UINT64_MAX - 99, UINT32_MAX - 1, UINT32_MAX - 2, 0);
	struct pnc_qmon_sample b = sample(1000005, 25, 8, 7, 0);
	struct pnc_qmon_rates r;

	(void)state;
	a.overlimits = UINT32_MAX;
	b.overlimits = 0;
	assert_int_equal(pnc_qmon_derive(&a, &b, &r), 0);
	assert_int_equal(r.d_bytes, 125);
	assert_int_equal(r.tx_bps, 1000);
	/* a 32-bit packet counter wrapped: 2 to reach 2^32, then 8 */
	assert_int_equal(r.d_packets, 10);
	assert_int_equal(r.d_drops, 10);
	assert_int_equal(r.d_overlimits, 1);
	assert_int_equal(r.drop_pps, 10);

	/* A 64-bit counter above 2^32 wraps at 2^64 only. */
	a.packets = (1ull << 40) + 5;
	b.packets = 3;
	assert_int_equal(pnc_qmon_derive(&a, &b, &r), 0);
	assert_int_equal(r.d_packets, (uint64_t)0 - (1ull << 40) - 2);
}

static void test_derive_no_time(void **state)
{
	struct pnc_qmon_sample a = sample(500, 0, 0, 0, 0);
	struct pnc_qmon_sample b = sample(500, 1000, 1, 0, 100);
	struct pnc_qmon_rates r;

	(void)state;
	assert_int_equal(pnc_qmon_derive(&a, &b, &r), PNC_QMON_E_DT_ZERO);
	assert_false(r.valid);
	assert_int_equal(r.tx_bps, 0);
	assert_int_equal(r.growth_Bps, 0);
	/* cur before prev: no rates either */
	b.ts_us = 400;
	assert_int_equal(pnc_qmon_derive(&a, &b, &r), PNC_QMON_E_DT_ZERO);
	assert_false(r.valid);
}

static void test_derive_mismatch_and_no_rate(void **state)
{
	struct pnc_qmon_sample a = sample(0, 0, 0, 0, 0);
	struct pnc_qmon_sample b = sample(1000000, 1000, 1, 0, 5000);
	struct pnc_qmon_rates r;

	(void)state;
	strcpy(b.kind, "htb");
	assert_int_equal(pnc_qmon_derive(&a, &b, &r), PNC_QMON_E_MISMATCH);
	assert_false(r.valid);
	strcpy(b.kind, "tbf");
	b.ifindex = 4;
	assert_int_equal(pnc_qmon_derive(&a, &b, &r), PNC_QMON_E_MISMATCH);
	b.ifindex = 3;
	/* Unknown shaping rate: no queue delay, no utilisation. */
	b.rate_bps = 0;
	assert_int_equal(pnc_qmon_derive(&a, &b, &r), 0);
	assert_true(r.valid);
	assert_int_equal(r.tx_bps, 8000);
	assert_int_equal(r.qdelay_us, 0);
	assert_int_equal(r.util_permille, 0);
	assert_int_equal(pnc_qmon_derive(NULL, &b, &r), PNC_QMON_E_INVALID_ARG);
}

static void test_derive_huge_values_saturate(void **state)
{
	struct pnc_qmon_sample a = sample(0, 0, 0, 0, 0);
	struct pnc_qmon_sample b = sample(1, UINT64_MAX / 2, 0, 0, UINT32_MAX);
	struct pnc_qmon_rates r;

	(void)state;
	b.rate_bps = 1;
	assert_int_equal(pnc_qmon_derive(&a, &b, &r), 0);
	assert_int_equal(r.tx_bps, UINT64_MAX);
	assert_int_equal(r.util_permille, UINT32_MAX);
	assert_int_equal(r.growth_Bps, (int64_t)UINT32_MAX * 1000000);
	assert_int_equal(r.qdelay_us, (uint64_t)UINT32_MAX * 8 * 1000000);
}

/*
 * Samples more than 2^63 us apart (a source with a broken clock): the
 * growth keeps the backlog's sign (found by tests/fuzz/fuzz_qmon_nl.c,
 * tests/fuzz/regress/qmon_nl/derive-dt-above-int64).
 */
static void test_derive_dt_above_int64(void **state)
{
	struct pnc_qmon_sample a = sample(0, 0, 0, 0, 0);
	struct pnc_qmon_sample b = sample(UINT64_MAX, 0, 0, 0, UINT32_MAX);
	struct pnc_qmon_rates r;

	(void)state;
	assert_int_equal(pnc_qmon_derive(&a, &b, &r), 0);
	assert_int_equal(r.dt_us, UINT64_MAX);
	assert_int_equal(r.growth_Bps, 0);
	b.ts_us = (uint64_t)INT64_MAX + 1;
	b.backlog_bytes = 0;
	a.backlog_bytes = UINT32_MAX;
	assert_int_equal(pnc_qmon_derive(&a, &b, &r), 0);
	assert_true(r.growth_Bps <= 0);
	b.ts_us = 1000000;
	assert_int_equal(pnc_qmon_derive(&a, &b, &r), 0);
	assert_int_equal(r.growth_Bps, -(int64_t)UINT32_MAX);
}

static void test_strerror(void **state)
{
	(void)state;
	assert_string_equal(pnc_qmon_strerror(0), "ok");
	for (int e = PNC_QMON_E_INVALID_ARG; e >= PNC_QMON_E_LAST; e--) {
		const char *s = pnc_qmon_strerror(e);

		assert_non_null(s);
		assert_string_not_equal(s, "unknown");
		for (int f = e + 1; f <= PNC_QMON_E_INVALID_ARG; f++)
			assert_string_not_equal(s, pnc_qmon_strerror(f));
	}
	assert_string_equal(pnc_qmon_strerror(PNC_QMON_E_ATTR_LEN), "attr-len");
	assert_string_equal(pnc_qmon_strerror(PNC_QMON_E_LAST - 1), "unknown");
	assert_string_equal(pnc_qmon_strerror(1), "unknown");
	assert_non_null(pnc_qmon_strerror(-2)); /* -ENOENT */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tbf_rate),
		cmocka_unit_test(test_tbf_rate64),
		cmocka_unit_test(test_htb_qdisc_has_no_rate),
		cmocka_unit_test(test_fifo_options_not_nested),
		cmocka_unit_test(test_stats2_wins_over_legacy),
		cmocka_unit_test(test_legacy_stats_only),
		cmocka_unit_test(test_pkt64_and_nested_flag),
		cmocka_unit_test(test_unpadded_last_attribute),
		cmocka_unit_test(test_htb_class),
		cmocka_unit_test(test_other_class_has_no_rate),
		cmocka_unit_test(test_htb_class_bad_lengths),
		cmocka_unit_test(test_wrong_message_type),
		cmocka_unit_test(test_header_lengths),
		cmocka_unit_test(test_top_level_attr_lengths),
		cmocka_unit_test(test_kind_lengths),
		cmocka_unit_test(test_stats_lengths),
		cmocka_unit_test(test_tbf_option_lengths),
		cmocka_unit_test(test_every_truncation),
		cmocka_unit_test(test_derive_rates),
		cmocka_unit_test(test_derive_draining),
		cmocka_unit_test(test_derive_wraps),
		cmocka_unit_test(test_derive_no_time),
		cmocka_unit_test(test_derive_mismatch_and_no_rate),
		cmocka_unit_test(test_derive_huge_values_saturate),
		cmocka_unit_test(test_derive_dt_above_int64),
		cmocka_unit_test(test_strerror),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
