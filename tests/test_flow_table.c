// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the proxy flow table (cnpproxyd/proxy/flows.c): CM
 * pairing and removal, PSN correlation (evidence rule, wrong direction,
 * mismatches, conflicts, ambiguity, wrap-around), lookup for IPv4 and
 * IPv6, aging, bounds, CM over PSN, and real packets through the codecs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "proxy/flows.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define TIMEOUT 1000000u /* 1 s */

static const uint8_t A4[16] = { 10, 0, 0, 1 };
static const uint8_t B4[16] = { 10, 0, 0, 2 };
static const uint8_t X4[16] = { 10, 0, 0, 9 };
static const uint8_t A6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
static const uint8_t B6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 };

struct fam {
	uint8_t ver;
	const uint8_t *a, *b;
};

static const struct fam fams[] = {
	{ 4, A4, B4 },
	{ 6, A6, B6 },
};

/* QPs and comm IDs of the usual connection: C = a, S = b. */
#define QC     0x000c11
#define QS     0x000511
#define COMM_C 0xc0c0c0c1u
#define COMM_S 0x5e5e5e51u
#define PKEY   0x8001
#define SPORT  0xc123
#define FLABEL 0xabcde

/* ---- packet views ---------------------------------------------------------- */

static struct pnc_roce_view rv(uint8_t ver, const uint8_t *src, const uint8_t *dst, uint8_t op,
			       uint32_t dqp, uint32_t psn)
{
	struct pnc_roce_view v;

	memset(&v, 0, sizeof(v));
	v.ip.version = ver;
	memcpy(v.ip.src, src, ver == 4 ? 4 : 16);
	memcpy(v.ip.dst, dst, ver == 4 ? 4 : 16);
	v.ip.sport = SPORT;
	v.ip.dport = PNC_ROCE_UDP_PORT;
	v.ip.flow_label = ver == 6 ? FLABEL : 0;
	v.bth.opcode = op;
	v.bth.pkey = PKEY;
	v.bth.dest_qp = dqp;
	v.bth.psn = psn & 0xffffff;
	v.bth.ack_req = true;
	return v;
}

static int roce(struct pnc_flow_table *t, uint8_t ver, const uint8_t *src, const uint8_t *dst,
		uint8_t op, uint32_t dqp, uint32_t psn, uint64_t now)
{
	struct pnc_roce_view v = rv(ver, src, dst, op, dqp, psn);

	return pnc_flow_learn_roce(t, &v, now);
}

/* Data a->b to qB, PSN psn. */
static int data(struct pnc_flow_table *t, const struct fam *f, uint32_t qb, uint32_t psn,
		uint64_t now)
{
	return roce(t, f->ver, f->a, f->b, PNC_OP_RC_SEND_ONLY, qb, psn, now);
}

/* ACK b->a to qA, PSN psn. */
static int ack(struct pnc_flow_table *t, const struct fam *f, uint32_t qa, uint32_t psn,
	       uint64_t now)
{
	return roce(t, f->ver, f->b, f->a, PNC_OP_RC_ACK, qa, psn, now);
}

static struct pnc_cm_packet cmp(uint8_t ver, const uint8_t *src, const uint8_t *dst, uint16_t attr)
{
	struct pnc_cm_packet p;

	pnc_cm_packet_init(&p, ver, attr);
	memcpy(p.ip.src, src, ver == 4 ? 4 : 16);
	memcpy(p.ip.dst, dst, ver == 4 ? 4 : 16);
	return p;
}

static int req(struct pnc_flow_table *t, const struct fam *f, uint32_t comm, uint32_t qpn,
	       uint64_t now)
{
	struct pnc_cm_packet p = cmp(f->ver, f->a, f->b, PNC_CM_ATTR_REQ);

	p.msg.u.req.local_comm_id = comm;
	p.msg.u.req.local_qpn = qpn;
	p.msg.u.req.pkey = PKEY;
	p.msg.u.req.starting_psn = 0x123456;
	return pnc_flow_learn_cm(t, &p, now);
}

/* REP from b (S) to a (C). */
static int rep(struct pnc_flow_table *t, const struct fam *f, uint32_t local, uint32_t remote,
	       uint32_t qpn, uint64_t now)
{
	struct pnc_cm_packet p = cmp(f->ver, f->b, f->a, PNC_CM_ATTR_REP);

	p.msg.u.rep.local_comm_id = local;
	p.msg.u.rep.remote_comm_id = remote;
	p.msg.u.rep.local_qpn = qpn;
	return pnc_flow_learn_cm(t, &p, now);
}

/* REJ / DREQ / DREP from src to dst. */
static int cm_end(struct pnc_flow_table *t, uint8_t ver, const uint8_t *src, const uint8_t *dst,
		  uint16_t attr, uint32_t local, uint32_t remote, uint8_t msg_rejected)
{
	struct pnc_cm_packet p = cmp(ver, src, dst, attr);

	switch (attr) {
	case PNC_CM_ATTR_REJ:
		p.msg.u.rej.local_comm_id = local;
		p.msg.u.rej.remote_comm_id = remote;
		p.msg.u.rej.msg_rejected = msg_rejected;
		break;
	case PNC_CM_ATTR_DREQ:
		p.msg.u.dreq.local_comm_id = local;
		p.msg.u.dreq.remote_comm_id = remote;
		break;
	default:
		p.msg.u.drep.local_comm_id = local;
		p.msg.u.drep.remote_comm_id = remote;
		break;
	}
	return pnc_flow_learn_cm(t, &p, 0);
}

static const struct pnc_flow *lookup(struct pnc_flow_table *t, const struct fam *f, bool fwd,
				     uint32_t rqpn, uint64_t now)
{
	return pnc_flow_lookup(t, f->ver, fwd ? f->a : f->b, fwd ? f->b : f->a, rqpn, now);
}

static struct pnc_flow_stats stats(const struct pnc_flow_table *t)
{
	struct pnc_flow_stats s;

	pnc_flow_table_stats(t, &s);
	return s;
}

static struct pnc_flow_table *table(size_t flows, size_t reqs, size_t wins)
{
	struct pnc_flow_config cfg = {
		.max_flows = flows,
		.max_cm_pending = reqs,
		.max_psn_windows = wins,
		.idle_timeout_us = TIMEOUT,
		.hash_seed = 0x5eed,
	};
	struct pnc_flow_table *t = pnc_flow_table_new_config(&cfg);

	assert_non_null(t);
	return t;
}

/* The full CM handshake a->b, QC <-> QS. */
static void cm_connect(struct pnc_flow_table *t, const struct fam *f, uint64_t now)
{
	assert_int_equal(req(t, f, COMM_C, QC, now), PNC_FLOW_CM_PENDING);
	assert_int_equal(rep(t, f, COMM_S, COMM_C, QS, now), PNC_FLOW_LEARNED_CM);
}

/* n data/ACK rounds a->b starting at psn; returns the last ACK's result. */
static int psn_rounds(struct pnc_flow_table *t, const struct fam *f, uint32_t qa, uint32_t qb,
		      uint32_t psn, int n, uint64_t now)
{
	int r = PNC_FLOW_IGNORED;

	for (int i = 0; i < n; i++) {
		assert_int_not_equal(data(t, f, qb, psn + i, now), PNC_FLOW_IGNORED);
		r = ack(t, f, qa, psn + i, now);
	}
	return r;
}

/* ---- CM ---------------------------------------------------------------------- */

static void test_cm_req_rep(void **state)
{
	(void)state;
	for (size_t k = 0; k < ARRAY_SIZE(fams); k++) {
		const struct fam *f = &fams[k];
		struct pnc_flow_table *t = table(16, 0, 0);
		const struct pnc_flow *fl;

		assert_int_equal(req(t, f, COMM_C, QC, 10), PNC_FLOW_CM_PENDING);
		assert_int_equal(pnc_flow_table_count(t), 0);
		assert_int_equal(stats(t).cm_pending, 1);
		assert_null(lookup(t, f, true, QS, 10));

		assert_int_equal(rep(t, f, COMM_S, COMM_C, QS, 20), PNC_FLOW_LEARNED_CM);
		assert_int_equal(pnc_flow_table_count(t), 2);
		assert_int_equal(stats(t).cm_pending, 0);
		assert_int_equal(stats(t).learned_cm, 2);

		/* Data C->S carries DestQP qS: the CNP goes to qC, and the reverse. */
		fl = lookup(t, f, true, QS, 30);
		assert_non_null(fl);
		assert_int_equal(fl->ip_version, f->ver);
		assert_memory_equal(fl->sender, f->a, 16);
		assert_memory_equal(fl->receiver, f->b, 16);
		assert_int_equal(fl->sender_qpn, QC);
		assert_int_equal(fl->receiver_qpn, QS);
		assert_int_equal(fl->pkey, PKEY);
		assert_int_equal(fl->source, PNC_FLOW_CM);
		assert_int_equal(fl->learned_us, 20);
		assert_int_equal(fl->udp_sport, 0); /* no data seen yet */

		fl = lookup(t, f, false, QC, 30);
		assert_non_null(fl);
		assert_int_equal(fl->sender_qpn, QS);
		assert_memory_equal(fl->sender, f->b, 16);

		/* wrong QP, swapped roles: nothing */
		assert_null(lookup(t, f, true, QC, 30));
		assert_null(lookup(t, f, false, QS, 30));

		/* data refreshes and records the port and the flow label */
		assert_int_equal(data(t, f, QS, 1, 40), PNC_FLOW_REFRESHED);
		fl = lookup(t, f, true, QS, 40);
		assert_int_equal(fl->udp_sport, SPORT);
		assert_int_equal(fl->flow_label, f->ver == 6 ? FLABEL : 0);
		assert_int_equal(fl->packets, 1);
		assert_int_equal(fl->last_seen_us, 40);
		/* CM flows need no PSN window */
		assert_int_equal(stats(t).psn_windows, 0);

		/* a resent REQ + REP changes nothing */
		assert_int_equal(req(t, f, COMM_C, QC, 50), PNC_FLOW_CM_PENDING);
		assert_int_equal(rep(t, f, COMM_S, COMM_C, QS, 50), PNC_FLOW_REFRESHED);
		assert_int_equal(pnc_flow_table_count(t), 2);
		pnc_flow_table_free(t);
	}
}

static void test_cm_rep_unmatched(void **state)
{
	const struct fam *f = &fams[0];
	struct pnc_flow_table *t = table(16, 0, 0);
	struct pnc_cm_packet p;

	(void)state;
	/* no REQ at all */
	assert_int_equal(rep(t, f, COMM_S, COMM_C, QS, 0), PNC_FLOW_IGNORED);
	assert_int_equal(req(t, f, COMM_C, QC, 0), PNC_FLOW_CM_PENDING);
	/* another comm ID */
	assert_int_equal(rep(t, f, COMM_S, COMM_C + 1, QS, 0), PNC_FLOW_IGNORED);
	/* the REP in the direction of the REQ (C->S) */
	p = cmp(4, A4, B4, PNC_CM_ATTR_REP);
	p.msg.u.rep.local_comm_id = COMM_S;
	p.msg.u.rep.remote_comm_id = COMM_C;
	p.msg.u.rep.local_qpn = QS;
	assert_int_equal(pnc_flow_learn_cm(t, &p, 0), PNC_FLOW_IGNORED);
	/* from a third host */
	p = cmp(4, X4, A4, PNC_CM_ATTR_REP);
	p.msg.u.rep.remote_comm_id = COMM_C;
	assert_int_equal(pnc_flow_learn_cm(t, &p, 0), PNC_FLOW_IGNORED);
	/* the IPv6 twin of the IPv4 REQ */
	assert_int_equal(rep(t, &fams[1], COMM_S, COMM_C, QS, 0), PNC_FLOW_IGNORED);

	assert_int_equal(pnc_flow_table_count(t), 0);
	assert_int_equal(stats(t).cm_rep_unmatched, 5);

	/* RTU, unknown versions and RD/XRC REQs teach nothing */
	p = cmp(4, A4, B4, PNC_CM_ATTR_RTU);
	assert_int_equal(pnc_flow_learn_cm(t, &p, 0), PNC_FLOW_IGNORED);
	p = cmp(4, A4, B4, PNC_CM_ATTR_REQ);
	p.ip.version = 5;
	assert_int_equal(pnc_flow_learn_cm(t, &p, 0), PNC_FLOW_IGNORED);
	p = cmp(4, A4, B4, PNC_CM_ATTR_REQ);
	p.msg.u.req.transport_type = 2;
	assert_int_equal(pnc_flow_learn_cm(t, &p, 0), PNC_FLOW_IGNORED);
	assert_int_equal(stats(t).cm_pending, 1);
	pnc_flow_table_free(t);
}

static void test_cm_remove(void **state)
{
	static const struct {
		const char *name;
		bool from_c; /* sent C->S, else S->C */
		uint16_t attr;
		uint8_t msg_rejected;
		bool before_rep; /* the REQ only is pending */
		bool good_ids;
	} cases[] = {
		{ "REJ of the REP by C", true, PNC_CM_ATTR_REJ, 1, false, true },
		{ "DREQ from C", true, PNC_CM_ATTR_DREQ, 0, false, true },
		{ "DREQ from S", false, PNC_CM_ATTR_DREQ, 0, false, true },
		{ "DREP from S", false, PNC_CM_ATTR_DREP, 0, false, true },
		{ "DREP from C", true, PNC_CM_ATTR_DREP, 0, false, true },
		{ "REJ of the REQ by S", false, PNC_CM_ATTR_REJ, 0, true, true },
		{ "REJ by C, timeout", true, PNC_CM_ATTR_REJ, 2, true, true },
		{ "DREQ, other comm IDs", true, PNC_CM_ATTR_DREQ, 0, false, false },
		{ "REJ of the REQ, other comm ID", false, PNC_CM_ATTR_REJ, 0, true, false },
	};

	(void)state;
	for (size_t k = 0; k < ARRAY_SIZE(fams); k++) {
		const struct fam *f = &fams[k];

		for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
			struct pnc_flow_table *t = table(16, 0, 0);
			uint32_t c_id = COMM_C + (cases[i].good_ids ? 0 : 7);
			uint32_t s_id = COMM_S + (cases[i].good_ids ? 0 : 7);
			int r;

			print_message("v%u %s\n", f->ver, cases[i].name);
			if (cases[i].before_rep)
				assert_int_equal(req(t, f, COMM_C, QC, 0), PNC_FLOW_CM_PENDING);
			else
				cm_connect(t, f, 0);
			/* a REJ of a REQ carries S's ID only if S has one: use 0 */
			if (cases[i].before_rep && !cases[i].from_c)
				s_id = 0;
			if (cases[i].from_c)
				r = cm_end(t, f->ver, f->a, f->b, cases[i].attr, c_id, s_id,
					   cases[i].msg_rejected);
			else
				r = cm_end(t, f->ver, f->b, f->a, cases[i].attr, s_id, c_id,
					   cases[i].msg_rejected);

			if (!cases[i].good_ids) {
				assert_int_equal(r, PNC_FLOW_IGNORED);
				assert_int_equal(pnc_flow_table_count(t) + stats(t).cm_pending,
						 cases[i].before_rep ? 1 : 2);
			} else {
				assert_int_equal(r, PNC_FLOW_REMOVED);
				assert_int_equal(pnc_flow_table_count(t), 0);
				assert_int_equal(stats(t).cm_pending, 0);
				assert_null(lookup(t, f, true, QS, 0));
				assert_null(lookup(t, f, false, QC, 0));
				/* and a late REP finds nothing to complete */
				assert_int_equal(rep(t, f, COMM_S, COMM_C, QS, 0),
						 PNC_FLOW_IGNORED);
			}
			pnc_flow_table_free(t);
		}
	}
}

/* ---- PSN correlation ------------------------------------------------------------- */

#define QA 0x0000a1
#define QB 0x0000b1

static void test_psn_learns_after_evidence(void **state)
{
	static const uint32_t starts[] = { 0x001000, 0xfffffe, 0x7fffff };

	(void)state;
	for (size_t k = 0; k < ARRAY_SIZE(fams); k++) {
		for (size_t s = 0; s < ARRAY_SIZE(starts); s++) {
			const struct fam *f = &fams[k];
			struct pnc_flow_table *t = table(16, 0, 0);
			uint32_t p = starts[s];
			const struct pnc_flow *fl;

			assert_int_equal(data(t, f, QB, p, 1), PNC_FLOW_PSN_OBSERVED);
			assert_int_equal(ack(t, f, QA, p, 2), PNC_FLOW_PSN_OBSERVED);
			assert_null(lookup(t, f, true, QB, 2));
			assert_int_equal(data(t, f, QB, p + 1, 3), PNC_FLOW_PSN_OBSERVED);
			assert_int_equal(ack(t, f, QA, p + 1, 4), PNC_FLOW_PSN_OBSERVED);
			assert_null(lookup(t, f, true, QB, 4));
			assert_int_equal(pnc_flow_table_count(t), 0);
			assert_int_equal(data(t, f, QB, p + 2, 5), PNC_FLOW_PSN_OBSERVED);
			assert_int_equal(ack(t, f, QA, p + 2, 6), PNC_FLOW_LEARNED_PSN);

			fl = lookup(t, f, true, QB, 6);
			assert_non_null(fl);
			assert_int_equal(fl->sender_qpn, QA);
			assert_int_equal(fl->receiver_qpn, QB);
			assert_int_equal(fl->pkey, PKEY);
			assert_int_equal(fl->udp_sport, SPORT);
			assert_int_equal(fl->flow_label, f->ver == 6 ? FLABEL : 0);
			assert_int_equal(fl->source, PNC_FLOW_PSN);
			assert_int_equal(fl->learned_us, 6);
			/* only the direction the evidence is about */
			assert_int_equal(pnc_flow_table_count(t), 1);
			assert_null(lookup(t, f, false, QA, 6));

			/* later traffic refreshes */
			assert_int_equal(data(t, f, QB, p + 3, 7), PNC_FLOW_REFRESHED);
			assert_int_equal(ack(t, f, QA, p + 3, 8), PNC_FLOW_PSN_OBSERVED);
			assert_int_equal(stats(t).learned_psn, 1);
			pnc_flow_table_free(t);
		}
	}
}

/* ACK coalescing: one ACK for several packets, PSN inside the window. */
static void test_psn_coalesced_and_wrapping_window(void **state)
{
	const struct fam *f = &fams[0];
	struct pnc_flow_table *t = table(16, 0, 0);
	uint32_t p = 0xfffff0;
	int i;

	(void)state;
	/* 16 packets before the wrap, ACK after it */
	for (i = 0; i < 20; i++)
		data(t, f, QB, p + i, 1);
	assert_int_equal(ack(t, f, QA, p + 18, 2), PNC_FLOW_PSN_OBSERVED); /* 0x000002 */
	for (i = 20; i < 30; i++)
		data(t, f, QB, p + i, 3);
	assert_int_equal(ack(t, f, QA, p + 25, 4), PNC_FLOW_PSN_OBSERVED);
	data(t, f, QB, p + 30, 5);
	/* below the low end (already acknowledged) and beyond the high end */
	assert_int_equal(ack(t, f, QA, p + 10, 6), PNC_FLOW_IGNORED);
	assert_int_equal(ack(t, f, QA, p + 31, 6), PNC_FLOW_IGNORED);
	assert_int_equal(ack(t, f, QA, p + 29, 6), PNC_FLOW_LEARNED_PSN);
	assert_int_equal(lookup(t, f, true, QB, 6)->sender_qpn, QA);
	pnc_flow_table_free(t);
}

enum bad_psn {
	BAD_WRONG_DIRECTION, /* "ACKs" a->b, the direction of the data */
	BAD_OUTSIDE,	     /* ACK PSNs outside the window */
	BAD_DUPLICATE,	     /* the same ACK again and again */
	BAD_CONFLICT,	     /* ACKs alternate between two sender QPs */
	BAD_AMBIGUOUS,	     /* two windows overlap */
	BAD_STALLED,	     /* increasing ACKs but no new data in between */
	BAD_OTHER_HOST,	     /* ACKs from a third host */
	BAD_UC,		     /* UC has no ACKs: UC "data" builds no window */
	BAD_V6_ACK,	     /* IPv4 data, IPv6 ACKs with the same leading octets */
};

static void test_psn_no_pair(void **state)
{
	static const struct {
		const char *name;
		enum bad_psn bad;
	} cases[] = {
		{ "wrong direction", BAD_WRONG_DIRECTION },
		{ "outside the window", BAD_OUTSIDE },
		{ "duplicate ACK", BAD_DUPLICATE },
		{ "conflicting sender QPs", BAD_CONFLICT },
		{ "ambiguous windows", BAD_AMBIGUOUS },
		{ "stalled window", BAD_STALLED },
		{ "other host", BAD_OTHER_HOST },
		{ "UC", BAD_UC },
		{ "IPv6 ACKs for IPv4 data", BAD_V6_ACK },
	};
	const struct fam *f = &fams[0];
	uint8_t a6[16] = { 10, 0, 0, 1 }, b6[16] = { 10, 0, 0, 2 };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct pnc_flow_table *t = table(16, 0, 0);
		uint32_t p = 0x400000;
		struct pnc_flow_stats st;

		print_message("%s\n", cases[i].name);
		for (int n = 0; n < 8; n++) {
			uint32_t x = p + n;
			uint8_t op = cases[i].bad == BAD_UC ? 0x24 /* UC SEND Only */
							    : PNC_OP_RC_SEND_ONLY;

			if (cases[i].bad != BAD_STALLED || n == 0)
				for (int d = 0; d < (cases[i].bad == BAD_STALLED ? 10 : 1); d++)
					roce(t, 4, A4, B4, op, QB, x + d, n);
			if (cases[i].bad == BAD_AMBIGUOUS)
				roce(t, 4, A4, B4, op, QB + 1, x, n);

			switch (cases[i].bad) {
			case BAD_WRONG_DIRECTION:
				roce(t, 4, A4, B4, PNC_OP_RC_ACK, QA, x, n);
				break;
			case BAD_OUTSIDE:
				ack(t, f, QA, x + 1 + n, n);
				ack(t, f, QA, x - 100, n);
				break;
			case BAD_DUPLICATE:
				ack(t, f, QA, p, n);
				break;
			case BAD_CONFLICT:
				ack(t, f, QA + (n & 1), x, n);
				break;
			case BAD_AMBIGUOUS:
			case BAD_UC:
				ack(t, f, QA, x, n);
				break;
			case BAD_STALLED:
				ack(t, f, QA, p + 1 + n, n);
				break;
			case BAD_OTHER_HOST:
				roce(t, 4, X4, A4, PNC_OP_RC_ACK, QA, x, n);
				break;
			case BAD_V6_ACK:
				roce(t, 6, b6, a6, PNC_OP_RC_ACK, QA, x, n);
				break;
			}
		}
		assert_int_equal(pnc_flow_table_count(t), 0);
		assert_null(lookup(t, f, true, QB, 8));
		st = stats(t);
		if (cases[i].bad == BAD_CONFLICT)
			assert_true(st.psn_conflicts >= 6);
		if (cases[i].bad == BAD_AMBIGUOUS)
			assert_int_equal(st.psn_ambiguous, 8);
		if (cases[i].bad == BAD_UC)
			assert_int_equal(st.psn_windows, 0);
		pnc_flow_table_free(t);
	}
}

/* READ responses and atomic ACKs echo request PSNs too. */
static void test_psn_other_responses(void **state)
{
	const struct fam *f = &fams[1];
	struct pnc_flow_table *t = table(16, 0, 0);
	static const uint8_t resp[] = { PNC_OP_RC_READ_RESP_ONLY, PNC_OP_RC_ATOMIC_ACK,
					PNC_OP_RC_READ_RESP_FIRST };
	static const uint8_t reqs[] = { PNC_OP_RC_READ_REQ, PNC_OP_RC_FETCH_ADD,
					PNC_OP_RC_READ_REQ };
	int r = PNC_FLOW_IGNORED;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(resp); i++) {
		roce(t, 6, A6, B6, reqs[i], QB, 100 + i * 4, 1);
		r = roce(t, 6, B6, A6, resp[i], QA, 100 + i * 4, 2);
	}
	assert_int_equal(r, PNC_FLOW_LEARNED_PSN);
	assert_int_equal(lookup(t, f, true, QB, 2)->sender_qpn, QA);
	pnc_flow_table_free(t);
}

/* A QPN reused by another connection re-pairs after the same evidence. */
static void test_psn_repair(void **state)
{
	const struct fam *f = &fams[0];
	struct pnc_flow_table *t = table(16, 0, 0);

	(void)state;
	assert_int_equal(psn_rounds(t, f, QA, QB, 0x100, 3, 1), PNC_FLOW_LEARNED_PSN);
	/* new random starting PSN, new sender QP */
	assert_int_equal(psn_rounds(t, f, QA + 5, QB, 0xa00000, 2, 2), PNC_FLOW_PSN_OBSERVED);
	assert_int_equal(lookup(t, f, true, QB, 2)->sender_qpn, QA);
	assert_int_equal(psn_rounds(t, f, QA + 5, QB, 0xa00002, 1, 3), PNC_FLOW_LEARNED_PSN);
	assert_int_equal(lookup(t, f, true, QB, 3)->sender_qpn, QA + 5);
	assert_int_equal(pnc_flow_table_count(t), 1);
	assert_int_equal(stats(t).learned_psn, 2);
	pnc_flow_table_free(t);
}

/* ---- CM against PSN ---------------------------------------------------------------- */

static void test_cm_beats_psn(void **state)
{
	const struct fam *f = &fams[0];
	struct pnc_flow_table *t = table(16, 0, 0);
	const struct pnc_flow *fl;

	(void)state;
	/* PSN first (pointing at a wrong QP), then CM: CM replaces it */
	assert_int_equal(psn_rounds(t, f, QC + 1, QS, 0x100, 3, 1), PNC_FLOW_LEARNED_PSN);
	assert_int_equal(lookup(t, f, true, QS, 1)->source, PNC_FLOW_PSN);
	cm_connect(t, f, 2);
	fl = lookup(t, f, true, QS, 2);
	assert_int_equal(fl->source, PNC_FLOW_CM);
	assert_int_equal(fl->sender_qpn, QC);
	assert_int_equal(pnc_flow_table_count(t), 2);

	/* more PSN evidence for another QP does not change a CM pairing */
	psn_rounds(t, f, QC + 2, QS, 0x200, 6, 3);
	fl = lookup(t, f, true, QS, 3);
	assert_int_equal(fl->source, PNC_FLOW_CM);
	assert_int_equal(fl->sender_qpn, QC);

	/* evidence collected before the CM pairing and completed after it */
	{
		struct fam g = { 4, A4, X4 };
		struct pnc_cm_packet p;

		psn_rounds(t, &g, QA, QB, 0x900, 2, 5);
		data(t, &g, QB, 0x902, 5);
		assert_int_equal(req(t, &g, 41, QA + 1, 5), PNC_FLOW_CM_PENDING);
		p = cmp(4, X4, A4, PNC_CM_ATTR_REP);
		p.msg.u.rep.local_comm_id = 42;
		p.msg.u.rep.remote_comm_id = 41;
		p.msg.u.rep.local_qpn = QB;
		assert_int_equal(pnc_flow_learn_cm(t, &p, 5), PNC_FLOW_LEARNED_CM);
		assert_int_equal(ack(t, &g, QA, 0x902, 6), PNC_FLOW_PSN_OBSERVED);
		fl = pnc_flow_lookup(t, 4, A4, X4, QB, 6);
		assert_int_equal(fl->source, PNC_FLOW_CM);
		assert_int_equal(fl->sender_qpn, QA + 1);
	}

	/* reverse direction too, CM first */
	{
		struct fam r = { f->ver, f->b, f->a };

		psn_rounds(t, &r, QS + 9, QC, 0x300, 6, 4);
		fl = lookup(t, f, false, QC, 4);
		assert_int_equal(fl->source, PNC_FLOW_CM);
		assert_int_equal(fl->sender_qpn, QS);
	}
	assert_int_equal(stats(t).learned_psn, 1);
	pnc_flow_table_free(t);
}

/* ---- lookup -------------------------------------------------------------------------- */

static void test_lookup_families(void **state)
{
	struct pnc_flow_table *t = table(16, 0, 0);
	/* IPv6 addresses whose first 4 octets are the IPv4 ones */
	struct fam v6 = { 6, A4, B4 };
	uint8_t junk_a[16], junk_b[16];
	const struct pnc_flow *fl;

	(void)state;
	cm_connect(t, &fams[0], 0);
	assert_int_equal(req(t, &v6, COMM_C, QC + 0x100, 0), PNC_FLOW_CM_PENDING);
	assert_int_equal(rep(t, &v6, COMM_S, COMM_C, QS + 0x100, 0), PNC_FLOW_LEARNED_CM);
	assert_int_equal(pnc_flow_table_count(t), 4);

	fl = lookup(t, &fams[0], true, QS, 0);
	assert_non_null(fl);
	assert_int_equal(fl->sender_qpn, QC);
	assert_null(lookup(t, &v6, true, QS, 0));
	fl = lookup(t, &v6, true, QS + 0x100, 0);
	assert_non_null(fl);
	assert_int_equal(fl->ip_version, 6);
	assert_int_equal(fl->sender_qpn, QC + 0x100);

	/* IPv4: octets 4-15 of the caller's buffers do not matter */
	memset(junk_a, 0xee, 16);
	memset(junk_b, 0x77, 16);
	memcpy(junk_a, A4, 4);
	memcpy(junk_b, B4, 4);
	fl = pnc_flow_lookup(t, 4, junk_a, junk_b, QS, 0);
	assert_non_null(fl);
	assert_int_equal(fl->sender[4], 0);
	assert_null(pnc_flow_lookup(t, 6, junk_a, junk_b, QS + 0x100, 0));
	assert_null(pnc_flow_lookup(t, 5, A4, B4, QS, 0));
	assert_int_equal(stats(t).lookup_misses, 3);
	pnc_flow_table_free(t);
}

/* One bucket: every flow shares a chain, so only full key compares tell them apart. */
static void test_lookup_one_chain(void **state)
{
	struct pnc_flow_table *t = table(1, 1, 1);
	const struct fam *f = &fams[0];
	uint8_t a6[16] = { 10, 0, 0, 1 }, b6[16] = { 10, 0, 0, 2 };

	(void)state;
	assert_int_equal(psn_rounds(t, f, QA, QB, 0x10, 3, 0), PNC_FLOW_LEARNED_PSN);
	assert_non_null(pnc_flow_lookup(t, 4, A4, B4, QB, 0));
	assert_null(pnc_flow_lookup(t, 6, a6, b6, QB, 0));
	assert_null(pnc_flow_lookup(t, 4, B4, A4, QB, 0));
	assert_null(pnc_flow_lookup(t, 4, A4, X4, QB, 0));
	assert_null(pnc_flow_lookup(t, 4, X4, B4, QB, 0));
	assert_null(pnc_flow_lookup(t, 4, A4, B4, QB + 1, 0));
	/* a second flow does not fit: the first is not replaced */
	assert_int_equal(psn_rounds(t, f, QA + 1, QB + 1, 0x500000, 3, 0), PNC_FLOW_TABLE_FULL);
	assert_int_equal(pnc_flow_lookup(t, 4, A4, B4, QB, 0)->sender_qpn, QA);
	pnc_flow_table_free(t);
}

/* Many flows: every one found, none confused (chains, not just one bucket). */
static void test_lookup_many(void **state)
{
	enum { N = 500 };
	struct pnc_flow_table *t = table(2 * N, 0, 0);

	(void)state;
	for (uint32_t i = 0; i < N; i++) {
		uint8_t a[16] = { 10, 1, (uint8_t)(i >> 8), (uint8_t)i };
		struct fam f = { 4, a, B4 };

		assert_int_equal(req(t, &f, i, 0x1000 + i, 0), PNC_FLOW_CM_PENDING);
		assert_int_equal(rep(t, &f, 0x10000 + i, i, 0x2000 + i, 0), PNC_FLOW_LEARNED_CM);
	}
	assert_int_equal(pnc_flow_table_count(t), 2 * N);
	for (uint32_t i = 0; i < N; i++) {
		uint8_t a[16] = { 10, 1, (uint8_t)(i >> 8), (uint8_t)i };
		const struct pnc_flow *fl = pnc_flow_lookup(t, 4, a, B4, 0x2000 + i, 0);

		assert_non_null(fl);
		assert_int_equal(fl->sender_qpn, 0x1000 + i);
		fl = pnc_flow_lookup(t, 4, B4, a, 0x1000 + i, 0);
		assert_non_null(fl);
		assert_int_equal(fl->sender_qpn, 0x2000 + i);
		assert_null(pnc_flow_lookup(t, 4, a, B4, 0x2000 + i + 1, 0));
	}
	/* remove every other connection by DREQ, the rest stay */
	for (uint32_t i = 0; i < N; i += 2) {
		uint8_t a[16] = { 10, 1, (uint8_t)(i >> 8), (uint8_t)i };

		assert_int_equal(cm_end(t, 4, a, B4, PNC_CM_ATTR_DREQ, i, 0x10000 + i, 0),
				 PNC_FLOW_REMOVED);
	}
	assert_int_equal(pnc_flow_table_count(t), N);
	for (uint32_t i = 0; i < N; i++) {
		uint8_t a[16] = { 10, 1, (uint8_t)(i >> 8), (uint8_t)i };

		if (i & 1)
			assert_non_null(pnc_flow_lookup(t, 4, a, B4, 0x2000 + i, 0));
		else
			assert_null(pnc_flow_lookup(t, 4, a, B4, 0x2000 + i, 0));
	}
	pnc_flow_table_free(t);
}

/* ---- aging ------------------------------------------------------------------------------ */

static void test_aging(void **state)
{
	const struct fam *f = &fams[1];
	struct fam other = { 6, A6, A6 }; /* only for a pending REQ */
	struct pnc_flow_table *t = table(16, 0, 0);
	struct pnc_flow_stats st;

	(void)state;
	cm_connect(t, f, 0);
	assert_int_equal(req(t, &other, 77, 0x77, 0), PNC_FLOW_CM_PENDING);
	assert_int_equal(data(t, f, QB, 5, 0), PNC_FLOW_PSN_OBSERVED); /* a window */

	/* half way: only the C->S flow sees traffic */
	assert_int_equal(data(t, f, QS, 1, TIMEOUT / 2), PNC_FLOW_REFRESHED);
	pnc_flow_table_age(t, TIMEOUT); /* nothing is older than the timeout yet */
	st = stats(t);
	assert_int_equal(st.flows, 2);
	assert_int_equal(st.cm_pending, 1);
	assert_int_equal(st.psn_windows, 1);

	/* idle flows vanish from lookups even before aging runs */
	assert_null(lookup(t, f, false, QC, TIMEOUT + 1));
	assert_non_null(lookup(t, f, true, QS, TIMEOUT + 1));

	pnc_flow_table_age(t, TIMEOUT + 1);
	st = stats(t);
	assert_int_equal(st.flows, 1);
	assert_int_equal(st.cm_pending, 0);
	assert_int_equal(st.psn_windows, 0);
	assert_int_equal(st.aged_flows, 1);
	assert_int_equal(st.aged_cm_pending, 1);
	assert_int_equal(st.aged_psn_windows, 1);
	assert_non_null(lookup(t, f, true, QS, TIMEOUT + 1));

	pnc_flow_table_age(t, TIMEOUT / 2 + TIMEOUT + 1);
	assert_int_equal(pnc_flow_table_count(t), 0);
	/* the REP of the aged REQ no longer completes anything */
	assert_int_equal(rep(t, &other, 78, 77, 0x78, 3 * TIMEOUT), PNC_FLOW_IGNORED);

	/* timeout 0: nothing ages */
	pnc_flow_table_free(t);
	t = pnc_flow_table_new(4, 0);
	assert_non_null(t);
	cm_connect(t, f, 0);
	pnc_flow_table_age(t, UINT64_MAX);
	assert_non_null(lookup(t, f, true, QS, UINT64_MAX));
	assert_int_equal(pnc_flow_table_count(t), 2);
	pnc_flow_table_free(t);
}

/* ---- bounds ------------------------------------------------------------------------------- */

static void test_bounds_flows(void **state)
{
	const struct fam *f = &fams[0];
	struct fam g = { 4, A4, X4 };
	struct pnc_flow_table *t = table(3, 0, 0);

	(void)state;
	cm_connect(t, f, 0);
	/* one slot left: a pair needs two, so none is installed */
	assert_int_equal(req(t, &g, 9, 0x99, 0), PNC_FLOW_CM_PENDING);
	assert_int_equal(rep(t, &g, 10, 9, 0x98, 0), PNC_FLOW_TABLE_FULL);
	assert_int_equal(pnc_flow_table_count(t), 2);
	assert_int_equal(stats(t).table_full, 1);
	assert_int_equal(stats(t).cm_pending, 1); /* kept for a resent REP */

	/* PSN pairing takes the last slot, the next one is refused */
	assert_int_equal(psn_rounds(t, &g, QA, QB, 0x10, 3, 1), PNC_FLOW_LEARNED_PSN);
	assert_int_equal(pnc_flow_table_count(t), 3);
	assert_int_equal(psn_rounds(t, &g, QA + 1, QB + 1, 0x500000, 3, 1), PNC_FLOW_TABLE_FULL);
	assert_int_equal(pnc_flow_table_count(t), 3);
	assert_int_equal(stats(t).table_full, 2);

	/* room again: the resent REP completes */
	assert_int_equal(cm_end(t, 4, A4, B4, PNC_CM_ATTR_DREQ, COMM_C, COMM_S, 0),
			 PNC_FLOW_REMOVED);
	assert_int_equal(pnc_flow_table_count(t), 1);
	assert_int_equal(rep(t, &g, 10, 9, 0x98, 2), PNC_FLOW_LEARNED_CM);
	assert_int_equal(pnc_flow_table_count(t), 3);
	assert_int_equal(stats(t).cm_pending, 0);
	assert_int_equal(pnc_flow_lookup(t, 4, A4, X4, 0x98, 2)->sender_qpn, 0x99);
	pnc_flow_table_free(t);
}

static void test_bounds_pending(void **state)
{
	const struct fam *f = &fams[0];
	struct pnc_flow_table *t = table(16, 2, 2);
	struct pnc_flow_stats st;

	(void)state;
	/* REQs 1, 2, 3: the oldest one is evicted */
	assert_int_equal(req(t, f, 1, 0x11, 1), PNC_FLOW_CM_PENDING);
	assert_int_equal(req(t, f, 2, 0x12, 2), PNC_FLOW_CM_PENDING);
	assert_int_equal(req(t, f, 1, 0x11, 3), PNC_FLOW_CM_PENDING); /* resent: now newest */
	assert_int_equal(req(t, f, 3, 0x13, 4), PNC_FLOW_CM_PENDING);
	st = stats(t);
	assert_int_equal(st.cm_pending, 2);
	assert_int_equal(st.cm_pending_evicted, 1);
	assert_int_equal(rep(t, f, 102, 2, 0x22, 5), PNC_FLOW_IGNORED);
	assert_int_equal(rep(t, f, 101, 1, 0x21, 5), PNC_FLOW_LEARNED_CM);
	assert_int_equal(rep(t, f, 103, 3, 0x23, 5), PNC_FLOW_LEARNED_CM);

	/* PSN windows: three streams, two windows */
	data(t, f, QB, 0x10, 6);
	data(t, f, QB + 1, 0x20000, 7);
	data(t, f, QB, 0x11, 8); /* QB is now the newest */
	data(t, f, QB + 2, 0x40000, 9);
	st = stats(t);
	assert_int_equal(st.psn_windows, 2);
	assert_int_equal(st.psn_evicted, 1);
	/* the evicted stream (QB + 1) cannot be paired by its ACKs any more */
	assert_int_equal(ack(t, f, QA + 1, 0x20000, 10), PNC_FLOW_IGNORED);
	assert_int_equal(ack(t, f, QA, 0x11, 10), PNC_FLOW_PSN_OBSERVED);

	/* nothing grows past its bound */
	for (uint32_t i = 0; i < 100; i++) {
		req(t, f, 1000 + i, 0x100 + i, 11);
		data(t, f, 0x5000 + i, i << 12, 11);
	}
	st = stats(t);
	assert_int_equal(st.cm_pending, 2);
	assert_int_equal(st.psn_windows, 2);
	assert_int_equal(st.flows, 4);
	pnc_flow_table_free(t);
}

/* ---- the rest of the API ------------------------------------------------------------------ */

static void count_cb(const struct pnc_flow *f, void *arg)
{
	size_t *n = arg;

	assert_true(f->ip_version == 4 || f->ip_version == 6);
	(*n)++;
}

static void test_walk_clear_new(void **state)
{
	struct pnc_flow_table *t = table(8, 0, 0);
	struct pnc_flow_config bad = { .max_flows = 0 };
	size_t n = 0;

	(void)state;
	cm_connect(t, &fams[0], 0);
	cm_connect(t, &fams[1], 0);
	assert_int_equal(req(t, &fams[0], 5, 5, 0), PNC_FLOW_CM_PENDING);
	pnc_flow_table_walk(t, count_cb, &n);
	assert_int_equal(n, 4);

	pnc_flow_table_clear(t);
	assert_int_equal(pnc_flow_table_count(t), 0);
	assert_int_equal(stats(t).cm_pending, 0);
	assert_null(lookup(t, &fams[0], true, QS, 0));
	assert_int_equal(stats(t).learned_cm, 4); /* counters survive */
	n = 0;
	pnc_flow_table_walk(t, count_cb, &n);
	assert_int_equal(n, 0);
	/* usable after clear */
	cm_connect(t, &fams[0], 0);
	assert_int_equal(pnc_flow_table_count(t), 2);
	pnc_flow_table_free(t);

	assert_null(pnc_flow_table_new(0, TIMEOUT));
	assert_null(pnc_flow_table_new_config(&bad));
	pnc_flow_table_free(NULL);
	assert_string_equal(pnc_flow_result_str(PNC_FLOW_TABLE_FULL), "table-full");
	assert_string_equal(pnc_flow_result_str(99), "unknown");
}

/*
 * A walk that stops after any flow and resumes from its keys (the
 * northbound's pages) sees every flow once, also when flows go between
 * the pages.
 */
static void test_walk_resumes_from_keys(void **state)
{
	enum { N = 40 };
	struct pnc_flow_table *t = table(2 * N, 0, 0);
	unsigned int seen[2 * N] = {}, pages = 0;
	const struct pnc_flow *f;
	uint32_t slot = 0, n = 0;

	(void)state;
	for (uint32_t i = 0; i < N; i++) {
		uint8_t a[16] = { 10, 1, 0, (uint8_t)i };
		struct fam fa = { 4, a, B4 };

		assert_int_equal(req(t, &fa, i, 0x1000 + i, 0), PNC_FLOW_CM_PENDING);
		assert_int_equal(rep(t, &fa, 0x10000 + i, i, 0x2000 + i, 0), PNC_FLOW_LEARNED_CM);
	}
	while ((f = pnc_flow_table_next(t, &slot))) {
		struct pnc_flow key = *f;
		uint32_t again;

		/* Its keys give its slot back. */
		assert_true(pnc_flow_table_slot(t, key.ip_version, key.sender, key.receiver,
						key.receiver_qpn, &again));
		assert_int_equal(again, slot);
		/* 10.1.0.i -> B4, or B4 -> 10.1.0.i */
		seen[key.sender[1] == 1 ? key.sender[3] : N + key.receiver[3]]++;
		n++;
		/* A page ends every 7 flows: resume from the last keys. */
		if (n % 7 == 0) {
			pages++;
			assert_true(pnc_flow_table_slot(t, key.ip_version, key.sender,
							key.receiver, key.receiver_qpn, &slot));
		}
		slot++;
	}
	assert_int_equal(n, 2 * N);
	assert_true(pages >= 5);
	for (uint32_t i = 0; i < 2 * N; i++)
		assert_int_equal(seen[i], 1);
	/* A flow that is gone has no slot. */
	{
		uint8_t a[16] = { 10, 1, 0, 0 };

		assert_int_equal(cm_end(t, 4, a, B4, PNC_CM_ATTR_DREQ, 0, 0x10000, 0),
				 PNC_FLOW_REMOVED);
		assert_false(pnc_flow_table_slot(t, 4, a, B4, 0x2000, &slot));
	}
	slot = 0;
	assert_null(pnc_flow_table_next(NULL, &slot));
	pnc_flow_table_free(t);
}

/* Real packets, encoded and parsed by the codecs, as the fast path gives them. */
static void test_codec_packets(void **state)
{
	struct pnc_flow_table *t = table(8, 0, 0);
	uint8_t buf[512];
	size_t n;

	(void)state;
	for (size_t k = 0; k < ARRAY_SIZE(fams); k++) {
		const struct fam *f = &fams[k];
		struct pnc_cm_packet p, d;
		struct pnc_rc_data dat;
		struct pnc_rc_ack ak;
		struct pnc_roce_view v;
		const struct pnc_flow *fl;

		p = cmp(f->ver, f->a, f->b, PNC_CM_ATTR_REQ);
		p.msg.u.req.local_comm_id = COMM_C;
		p.msg.u.req.local_qpn = QC;
		p.msg.u.req.pkey = PKEY;
		assert_int_equal(pnc_cm_packet_encode(&p, buf, sizeof(buf), &n), PNC_OK);
		assert_int_equal(pnc_cm_packet_decode(buf, n, &d), PNC_OK);
		assert_int_equal(pnc_flow_learn_cm(t, &d, 0), PNC_FLOW_CM_PENDING);

		p = cmp(f->ver, f->b, f->a, PNC_CM_ATTR_REP);
		p.msg.u.rep.local_comm_id = COMM_S;
		p.msg.u.rep.remote_comm_id = COMM_C;
		p.msg.u.rep.local_qpn = QS;
		assert_int_equal(pnc_cm_packet_encode(&p, buf, sizeof(buf), &n), PNC_OK);
		assert_int_equal(pnc_cm_packet_decode(buf, n, &d), PNC_OK);
		assert_int_equal(pnc_flow_learn_cm(t, &d, 0), PNC_FLOW_LEARNED_CM);

		memset(&dat, 0, sizeof(dat));
		pnc_ip_udp_init(&dat.ip, f->ver);
		memcpy(dat.ip.src, f->a, 16);
		memcpy(dat.ip.dst, f->b, 16);
		dat.ip.sport = 0xd00d;
		dat.ip.flow_label = f->ver == 6 ? 0x12345 : 0;
		dat.bth.opcode = PNC_OP_RC_SEND_ONLY;
		dat.bth.pkey = PKEY;
		dat.bth.dest_qp = QS;
		dat.bth.psn = 7;
		assert_int_equal(pnc_rc_data_encode(&dat, buf, sizeof(buf), &n), PNC_OK);
		assert_int_equal(pnc_roce_parse(buf, n, 0, &v), PNC_OK);
		assert_int_equal(pnc_flow_learn_roce(t, &v, 1), PNC_FLOW_REFRESHED);

		/* the invoking packet of a notification is that data packet */
		fl = pnc_flow_lookup(t, v.ip.version, v.ip.src, v.ip.dst, v.bth.dest_qp, 1);
		assert_non_null(fl);
		assert_int_equal(fl->sender_qpn, QC);
		assert_int_equal(fl->pkey, PKEY);
		assert_int_equal(fl->udp_sport, 0xd00d);
		assert_int_equal(fl->flow_label, f->ver == 6 ? 0x12345 : 0);

		memset(&ak, 0, sizeof(ak));
		pnc_ip_udp_init(&ak.ip, f->ver);
		memcpy(ak.ip.src, f->b, 16);
		memcpy(ak.ip.dst, f->a, 16);
		ak.bth.opcode = PNC_OP_RC_ACK;
		ak.bth.pkey = PKEY;
		ak.bth.dest_qp = QC;
		ak.bth.psn = 7;
		assert_int_equal(pnc_rc_ack_encode(&ak, buf, sizeof(buf), &n), PNC_OK);
		assert_int_equal(pnc_roce_parse(buf, n, 0, &v), PNC_OK);
		/* the ACK is S->C traffic of the connection */
		assert_int_equal(pnc_flow_learn_roce(t, &v, 2), PNC_FLOW_REFRESHED);
		assert_int_equal(lookup(t, f, false, QC, 2)->packets, 1);
	}
	/* CM MADs themselves (UD to QP1) teach nothing as RoCE packets */
	{
		struct pnc_roce_view v = rv(4, A4, B4, PNC_OP_UD_SEND_ONLY, 1, 0);

		assert_int_equal(pnc_flow_learn_roce(t, &v, 3), PNC_FLOW_IGNORED);
		v = rv(4, A4, B4, PNC_OP_CNP, QS, 0);
		assert_int_equal(pnc_flow_learn_roce(t, &v, 3), PNC_FLOW_IGNORED);
	}
	pnc_flow_table_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cm_req_rep),
		cmocka_unit_test(test_cm_rep_unmatched),
		cmocka_unit_test(test_cm_remove),
		cmocka_unit_test(test_psn_learns_after_evidence),
		cmocka_unit_test(test_psn_coalesced_and_wrapping_window),
		cmocka_unit_test(test_psn_no_pair),
		cmocka_unit_test(test_psn_other_responses),
		cmocka_unit_test(test_psn_repair),
		cmocka_unit_test(test_cm_beats_psn),
		cmocka_unit_test(test_lookup_families),
		cmocka_unit_test(test_lookup_one_chain),
		cmocka_unit_test(test_lookup_many),
		cmocka_unit_test(test_aging),
		cmocka_unit_test(test_bounds_flows),
		cmocka_unit_test(test_bounds_pending),
		cmocka_unit_test(test_walk_clear_new),
		cmocka_unit_test(test_walk_resumes_from_keys),
		cmocka_unit_test(test_codec_packets),
	};

	return cmocka_run_group_tests_name("flow_table", tests, NULL, NULL);
}
