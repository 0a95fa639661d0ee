// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Seed 000 section 7, the operational example, message by message:
 * N1, a congestion point sending Long-haul CNPs to the source itself,
 * driven through the pure functions the daemon runs (thresholds, state
 * machine, first-level marking, projected level, the depth's level, the
 * proxy's level policy) and the codec that puts the RoCEv2 form on the
 * wire.  doc/cnpproxyd.md, "Direct to the source", walks through it.
 *
 * Steps 6 (N2 defers) and 7 (the source's own recovery after 2 RTT_est)
 * are other nodes' behaviour: tests/test_cp_collab.c and
 * tests/test_emu_rate.c hold them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "codec/lhcnp.h"
#include "cp/policy.h"
#include "proxy/sender.h"

#define MB 1000000ull

/* 100 Gb/s, RTT_est 10 ms, alpha 1.0, K_base 64 KB (step 2). */
static void example_link(struct pnc_cp_policy_config *pc, struct pnc_cp_thresholds *thr)
{
	pnc_cp_policy_config_init(pc);
	pc->rate_bps = 100000000000ull;
	pc->rtt_us = 10000;
	pc->alpha_milli = 1000;
	pc->k_base = 64000;
	pc->k_min_percent = 50;
	pc->marking = PNC_CP_MARK_CE;
	pnc_cp_thresholds_compute(pc, 0, 0, thr);
}

static void step(struct pnc_cp_machine *m, const struct pnc_cp_policy_config *pc,
		 const struct pnc_cp_thresholds *thr, uint64_t now_us, uint64_t backlog,
		 int64_t growth, enum pnc_cp_event want)
{
	struct pnc_cp_observation obs = {
		.now_us = now_us,
		.backlog = backlog,
		.growth_bps = growth,
		.have_growth = true,
	};

	assert_int_equal(pnc_cp_machine_step(m, pc, thr, &obs), want);
}

/* The RoCEv2 form to the source (10.0.0.1, QP 100), from N1 (10.0.0.2). */
static void encode(const struct pnc_reaction *r, uint64_t backlog, uint8_t *pkt, size_t *len)
{
	static const uint8_t n1[4] = { 10, 0, 0, 2 }, source[4] = { 10, 0, 0, 1 };
	struct pnc_lh_roce lh;

	memset(&lh, 0, sizeof(lh));
	lh.ip.version = 4;
	memcpy(lh.ip.src, n1, 4);
	memcpy(lh.ip.dst, source, 4);
	lh.ip.ttl = 64;
	lh.ip.sport = 0xc000;
	lh.ip.dport = 4791;
	lh.pkey = 0xffff;
	lh.dest_qp = 100;
	lh.msg.block.level = r->lh_level;
	lh.msg.block.action = r->lh_action;
	lh.msg.block.parameter = r->lh_parameter;
	lh.msg.block.src_qp = 100;
	lh.msg.block.metric_type = PNC_LH_METRIC_QUEUE_KB;
	lh.msg.block.metric = pnc_lh_queue_kb(backlog);
	assert_int_equal(pnc_lh_roce_encode(&lh, pkt, 128, len), 0);
}

/* BTH (after 20 octets of IPv4, 8 of UDP), then the 12-octet block, then ICRC. */
static void assert_wire(const uint8_t *pkt, size_t len, const uint8_t block[12])
{
	static const uint8_t bth[12] = {
		0x81,		  /* OpCode: CNP */
		0x00,		  /* SE, M, PadCnt, TVer */
		0xff, 0xff,	  /* P_Key */
		0x60,		  /* F 0, B 1, E 1, reserved 0 */
		0x00, 0x00, 0x64, /* DestQP 100 */
		0x00,		  /* A, reserved */
		0x00, 0x00, 0x00, /* PSN */
	};

	/* No extension objects: no extension header, the ICRC follows the block. */
	assert_int_equal(len, 20 + 8 + 12 + 12 + 4);
	assert_int_equal(pkt[24] << 8 | pkt[25], 8 + 12 + 12 + 4); /* UDP length */
	assert_memory_equal(pkt + 28, bth, sizeof(bth));
	assert_memory_equal(pkt + 40, block, 12);
}

static void test_operational_example(void **state)
{
	/* Step 4: Rate Reduce, parameter 30, QP 100, level 180, Metric 1, 130000. */
	static const uint8_t reduce[12] = { 180, 0x80, 0, 30, 0, 0, 0, 100, 1, 0x01, 0xfb, 0xd0 };
	/* Step 8: Resume, parameter 50, QP 100, level 20, Metric 1, 30000. */
	static const uint8_t resume[12] = { 20, 0xc0, 0, 50, 0, 0, 0, 100, 1, 0x00, 0x75, 0x30 };
	struct pnc_cp_policy_config pc;
	struct pnc_level_policy lp;
	struct pnc_cp_thresholds thr;
	struct pnc_cp_machine m;
	struct pnc_cp_marks marks;
	struct pnc_reaction r;
	uint8_t pkt[128];
	size_t len;
	uint8_t cl;

	(void)state;
	/* Step 2: K_max = max(64 KB, 1.0 * 100e9 * 0.010 / 8) = 125 MB, K_min half. */
	example_link(&pc, &thr);
	assert_int_equal(thr.k_max, 125 * MB);
	assert_int_equal(thr.k_min, 62500000ull);
	assert_false(thr.from_base);
	pnc_level_policy_init(&lp);
	pnc_cp_machine_init(&m, 0);

	/* Step 3: 70 MB, above K_min: the first level marks CE, nothing is sent. */
	step(&m, &pc, &thr, 0, 70 * MB, 3000 * MB, PNC_CP_EV_ONSET);
	assert_int_equal(m.state, PNC_CP_ST_MARKING);
	pnc_cp_marks_compute(pc.marking, &thr, 70 * MB, &marks);
	assert_true(marks.ce_prob > 0);
	assert_false(pnc_cp_should_notify(pc.marking, &m, &thr, 70 * MB));

	/*
	 * Step 4: 130 MB, above K_max, 20 ms later at 3 GB/s: the second
	 * level.  One RTT_est ahead the queue holds 160 MB, still level 4
	 * of the notifications' scale: the policy's severe cut, 30 percent.
	 * The block's level is the depth's, 180.
	 */
	step(&m, &pc, &thr, 20000, 130 * MB, 3000 * MB, PNC_CP_EV_CONGESTED);
	assert_true(pnc_cp_should_notify(pc.marking, &m, &thr, 130 * MB));
	cl = pnc_cp_level_projected(pc.marking, &thr, 130 * MB, 3000 * MB, pc.rtt_us);
	assert_int_equal(cl, 4);
	pnc_reaction_for(&lp, PNC_FMT_LONG_HAUL_ROCEV2, cl, &r);
	pnc_reaction_at_depth(&r, pnc_cp_lh_level(&thr, 130 * MB));
	assert_true(r.send && r.severe);
	assert_int_equal(r.lh_level, 180);
	assert_int_equal(r.lh_action, PNC_LH_RATE_REDUCE);
	assert_int_equal(r.lh_parameter, 30);
	encode(&r, 130 * MB, pkt, &len);
	assert_wire(pkt, len, reduce);

	/* The queue drains: under K_min it is Resume territory, nothing sent. */
	step(&m, &pc, &thr, 30000, 100 * MB, -4000 * MB, PNC_CP_EV_EASED);
	assert_int_equal(m.state, PNC_CP_ST_MARKING);
	assert_false(pnc_cp_should_notify(pc.marking, &m, &thr, 100 * MB));
	step(&m, &pc, &thr, 40000, 60 * MB, -4000 * MB, PNC_CP_EV_NONE);
	assert_int_equal(m.state, PNC_CP_ST_DRAINING);
	step(&m, &pc, &thr, 45000, 40 * MB, -2000 * MB, PNC_CP_EV_NONE);
	/* 10 ms under K_min is not yet "more than" RTT_est. */
	step(&m, &pc, &thr, 49000, 32 * MB, -2000 * MB, PNC_CP_EV_NONE);

	/* Step 8: more than 10 ms under K_min, 30 MB: Resume 50, level 20. */
	step(&m, &pc, &thr, 51000, 30 * MB, -1000 * MB, PNC_CP_EV_RESUME);
	assert_int_equal(m.state, PNC_CP_ST_IDLE);
	pnc_resume_for(&lp, PNC_FMT_LONG_HAUL_ROCEV2, &r);
	pnc_reaction_at_depth(&r, pnc_cp_lh_level(&thr, 30 * MB));
	assert_true(r.send);
	assert_int_equal(r.lh_level, 20);
	assert_int_equal(r.lh_action, PNC_LH_RESUME);
	assert_int_equal(r.lh_parameter, 50);
	encode(&r, 30 * MB, pkt, &len);
	assert_wire(pkt, len, resume);
}

/*
 * The level scale of pnc_cp_lh_level(): 72 at K_min, 172 at K_max, clamped;
 * 0 where the thresholds say nothing.
 */
static void test_depth_levels(void **state)
{
	struct pnc_cp_policy_config pc;
	struct pnc_cp_thresholds thr;

	(void)state;
	example_link(&pc, &thr);
	assert_int_equal(pnc_cp_lh_level(&thr, thr.k_min), 72);
	assert_int_equal(pnc_cp_lh_level(&thr, thr.k_max), 172);
	assert_int_equal(pnc_cp_lh_level(&thr, 0), 0);
	assert_int_equal(pnc_cp_lh_level(&thr, 250 * MB), 255);
	assert_int_equal(pnc_cp_lh_level(&thr, UINT64_MAX), 255);
	memset(&thr, 0, sizeof(thr));
	assert_int_equal(pnc_cp_lh_level(&thr, 130 * MB), 0);
}

/*
 * Section 5.7 after the example: still worsening, the next message is
 * one level higher and asks a stricter cut; at the top, with a pause
 * time configured, a Pause.
 */
static void test_escalation(void **state)
{
	struct pnc_cp_policy_config pc;
	struct pnc_level_policy lp;
	struct pnc_cp_thresholds thr;
	struct pnc_reaction first, again;

	(void)state;
	example_link(&pc, &thr);
	pnc_level_policy_init(&lp);
	pnc_reaction_for(&lp, PNC_FMT_LONG_HAUL_ROCEV2, 4, &first);
	pnc_reaction_at_depth(&first, pnc_cp_lh_level(&thr, 130 * MB));
	pnc_reaction_for(&lp, PNC_FMT_LONG_HAUL_ROCEV2, 5, &again);
	pnc_reaction_at_depth(&again, pnc_cp_lh_level(&thr, 140 * MB));
	assert_true(again.lh_level > first.lh_level);
	assert_int_equal(again.lh_action, PNC_LH_RATE_REDUCE);
	assert_true(again.lh_parameter > first.lh_parameter);
	lp.lh_pause_us = 5000;
	pnc_reaction_for(&lp, PNC_FMT_LONG_HAUL_ROCEV2, 7, &again);
	assert_int_equal(again.lh_action, PNC_LH_PAUSE);
	assert_int_equal(again.lh_parameter, 5000);
	assert_int_equal(again.lh_level, 255);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_operational_example),
		cmocka_unit_test(test_depth_levels),
		cmocka_unit_test(test_escalation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
