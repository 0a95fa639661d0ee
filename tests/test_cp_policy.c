// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The congestion point's trigger policy: thresholds, state machine,
 * marking probabilities and congestion levels.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cp/policy.h"

#define MB 1000000ull

/* The module's defaults (yang/frr-cnpproxyd.yang), as the daemon reads them. */
static void policy_init(struct pnc_cp_policy_config *pc)
{
	pnc_cp_policy_config_init(pc);
	pc->alpha_milli = 1000;
	pc->rtt_us = 10000;
	pc->k_min_percent = 50;
}

static void bdp_config(struct pnc_cp_policy_config *pc, uint64_t rate, uint32_t rtt_us)
{
	policy_init(pc);
	pc->rate_bps = rate;
	pc->rtt_us = rtt_us;
}

/* Seed 000 section 7: 100 Gb/s and 10 ms give K_max = 125 MB. */
static void test_bdp_seed_example(void **state)
{
	struct pnc_cp_policy_config pc;
	struct pnc_cp_thresholds t;

	(void)state;
	bdp_config(&pc, 100000000000ull, 10000);
	pnc_cp_thresholds_compute(&pc, 0, 0, &t);
	assert_int_equal(t.k_max, 125 * MB);
	assert_int_equal(t.k_min, 125 * MB / 2);
	assert_int_equal(t.bdp, 125 * MB);
	assert_int_equal(t.rate_source, PNC_CP_RATE_CONFIG);
	assert_false(t.from_base);
}

static void test_bdp_alpha_and_percent(void **state)
{
	struct pnc_cp_policy_config pc;
	struct pnc_cp_thresholds t;

	(void)state;
	/* 10 Mb/s, 10 ms: 12500 B; alpha 2.5 and K_min at 20 %. */
	bdp_config(&pc, 10000000, 10000);
	pc.alpha_milli = 2500;
	pc.k_min_percent = 20;
	pnc_cp_thresholds_compute(&pc, 0, 0, &t);
	assert_int_equal(t.k_max, 31250);
	assert_int_equal(t.k_min, 6250);
	/* Large products do not overflow: 1.6 Tb/s, 1 s, alpha 100. */
	bdp_config(&pc, 1600000000000ull, 1000000);
	pc.alpha_milli = 100000;
	pnc_cp_thresholds_compute(&pc, 0, 0, &t);
	assert_int_equal(t.k_max, 20000000000000ull);
}

static void test_bdp_rate_sources_and_base(void **state)
{
	struct pnc_cp_policy_config pc;
	struct pnc_cp_thresholds t;

	(void)state;
	bdp_config(&pc, 0, 10000);
	pc.k_base = 50000;
	/* The qdisc's shaping rate beats the link speed. */
	pnc_cp_thresholds_compute(&pc, 80000000, 1000000000, &t);
	assert_int_equal(t.rate_source, PNC_CP_RATE_QDISC);
	assert_int_equal(t.k_max, 100000);
	pnc_cp_thresholds_compute(&pc, 0, 1000000000, &t);
	assert_int_equal(t.rate_source, PNC_CP_RATE_LINK);
	assert_int_equal(t.k_max, 1250000);
	/* Small BDP: K_base is the floor. */
	pnc_cp_thresholds_compute(&pc, 8000000, 0, &t);
	assert_int_equal(t.bdp, 10000);
	assert_int_equal(t.k_max, 50000);
	assert_true(t.from_base);
	/* Nothing known: K_base alone. */
	pnc_cp_thresholds_compute(&pc, 0, 0, &t);
	assert_int_equal(t.rate_source, PNC_CP_RATE_NONE);
	assert_int_equal(t.k_max, 50000);
	assert_int_equal(t.k_min, 25000);
	/* A configured rate wins over both. */
	pc.rate_bps = 16000000;
	pnc_cp_thresholds_compute(&pc, 80000000, 1000000000, &t);
	assert_int_equal(t.rate_source, PNC_CP_RATE_CONFIG);
	assert_int_equal(t.k_max, 50000);
	assert_int_equal(t.bdp, 20000);
}

static void test_static_and_validation(void **state)
{
	struct pnc_cp_policy_config pc;
	struct pnc_cp_thresholds t;
	char err[128];

	(void)state;
	policy_init(&pc);
	assert_true(pnc_cp_policy_config_valid(&pc, err, sizeof(err)));
	pc.mode = PNC_CP_THR_STATIC;
	assert_false(pnc_cp_policy_config_valid(&pc, err, sizeof(err)));
	assert_string_equal(err, "static thresholds need k-max");
	pc.k_max = 40000;
	assert_true(pnc_cp_policy_config_valid(&pc, err, sizeof(err)));
	pnc_cp_thresholds_compute(&pc, 999, 999, &t);
	assert_int_equal(t.k_max, 40000);
	assert_int_equal(t.k_min, 20000);
	assert_int_equal(t.bdp, 0);
	pc.k_min = 30000;
	pnc_cp_thresholds_compute(&pc, 0, 0, &t);
	assert_int_equal(t.k_min, 30000);
	pc.k_min = 40000;
	assert_false(pnc_cp_policy_config_valid(&pc, err, sizeof(err)));
	assert_string_equal(err, "k-min (40000) must be below k-max (40000)");
	pc.k_min = 0;
	pc.k_min_percent = 100;
	assert_false(pnc_cp_policy_config_valid(&pc, err, sizeof(err)));
	pc.k_min_percent = 50;
	pc.rtt_us = 0;
	assert_false(pnc_cp_policy_config_valid(&pc, err, sizeof(err)));
}

/* K_min 10000, K_max 20000, RTT 1000 us. */
static void machine_setup(struct pnc_cp_policy_config *pc, struct pnc_cp_thresholds *t)
{
	policy_init(pc);
	pc->mode = PNC_CP_THR_STATIC;
	pc->k_max = 20000;
	pc->rtt_us = 1000;
	pnc_cp_thresholds_compute(pc, 0, 0, t);
}

static enum pnc_cp_event feed(struct pnc_cp_machine *m, const struct pnc_cp_policy_config *pc,
			      const struct pnc_cp_thresholds *t, uint64_t now, uint64_t backlog)
{
	struct pnc_cp_observation o = { .now_us = now, .backlog = backlog };

	return pnc_cp_machine_step(m, pc, t, &o);
}

static void test_machine_levels_and_resume(void **state)
{
	struct pnc_cp_policy_config pc;
	struct pnc_cp_thresholds t;
	struct pnc_cp_machine m;

	(void)state;
	machine_setup(&pc, &t);
	pnc_cp_machine_init(&m, 0);
	assert_int_equal(feed(&m, &pc, &t, 100, 10000), PNC_CP_EV_NONE); /* == K_min */
	assert_int_equal(m.state, PNC_CP_ST_IDLE);
	assert_int_equal(feed(&m, &pc, &t, 200, 10001), PNC_CP_EV_ONSET);
	assert_int_equal(m.state, PNC_CP_ST_MARKING);
	assert_int_equal(m.since_us, 200);
	assert_int_equal(feed(&m, &pc, &t, 300, 15000), PNC_CP_EV_NONE);
	assert_int_equal(feed(&m, &pc, &t, 400, 20001), PNC_CP_EV_CONGESTED);
	assert_int_equal(m.state, PNC_CP_ST_CONGESTED);
	assert_int_equal(m.trigger, PNC_CP_TRIG_QUEUE);
	/*
	 * Seed 000 5.4: the second level holds while its condition does.
	 * Back between the thresholds, the first level only.
	 */
	assert_int_equal(feed(&m, &pc, &t, 500, 12000), PNC_CP_EV_EASED);
	assert_int_equal(m.state, PNC_CP_ST_MARKING);
	assert_int_equal(m.trigger, PNC_CP_TRIG_QUEUE); /* what it last was */
	assert_int_equal(feed(&m, &pc, &t, 550, 25000), PNC_CP_EV_CONGESTED);
	/* Under K_min: draining, Resume territory, nothing notified. */
	assert_int_equal(feed(&m, &pc, &t, 600, 5000), PNC_CP_EV_EASED);
	assert_int_equal(m.state, PNC_CP_ST_DRAINING);
	assert_false(pnc_cp_should_notify(PNC_CP_MARK_CE, &m, &t, 5000));
	assert_int_equal(feed(&m, &pc, &t, 1500, 5000), PNC_CP_EV_NONE);
	/* Not under K_min for a whole RTT: a bump goes on with the episode. */
	assert_int_equal(feed(&m, &pc, &t, 1550, 11000), PNC_CP_EV_NONE);
	assert_int_equal(m.state, PNC_CP_ST_MARKING);
	assert_int_equal(feed(&m, &pc, &t, 1600, 0), PNC_CP_EV_NONE);
	assert_int_equal(m.state, PNC_CP_ST_DRAINING);
	assert_int_equal(feed(&m, &pc, &t, 2599, 0), PNC_CP_EV_NONE);
	assert_int_equal(feed(&m, &pc, &t, 2600, 0), PNC_CP_EV_RESUME);
	assert_int_equal(m.state, PNC_CP_ST_IDLE);
	assert_int_equal(m.since_us, 2600);
	/* Straight from idle to congested is one onset. */
	assert_int_equal(feed(&m, &pc, &t, 3000, 50000), PNC_CP_EV_ONSET);
	assert_int_equal(m.state, PNC_CP_ST_CONGESTED);
	/* Marking also resumes only after RTT under K_min. */
	pnc_cp_machine_init(&m, 0);
	feed(&m, &pc, &t, 0, 15000);
	assert_int_equal(feed(&m, &pc, &t, 10, 0), PNC_CP_EV_NONE);
	assert_int_equal(m.state, PNC_CP_ST_DRAINING);
	assert_int_equal(feed(&m, &pc, &t, 1010, 0), PNC_CP_EV_RESUME);
}

/*
 * Issue 38 row 2, on seed 000 7's link (K_max 125 MB, K_min 62.5 MB,
 * RTT 10 ms): a queue of 130 MB draining through 50, 30, 20 and 10 MB
 * is notified at 130 MB only; nothing while it drains.
 */
static void test_machine_draining_queue_is_not_notified(void **state)
{
	static const uint64_t mb = 1000000;
	static const uint64_t depth[] = { 70, 130, 50, 30, 20, 10 };
	static const bool notified[] = { false, true, false, false, false, false };
	struct pnc_cp_policy_config pc;
	struct pnc_cp_thresholds t;
	struct pnc_cp_machine m;

	(void)state;
	bdp_config(&pc, 100000000000ull, 10000);
	pnc_cp_thresholds_compute(&pc, 0, 0, &t);
	assert_int_equal(t.k_max, 125 * mb);
	pnc_cp_machine_init(&m, 0);
	for (size_t i = 0; i < sizeof(depth) / sizeof(depth[0]); i++) {
		feed(&m, &pc, &t, 1000 * (i + 1), depth[i] * mb);
		assert_int_equal(pnc_cp_should_notify(PNC_CP_MARK_CE, &m, &t, depth[i] * mb),
				 notified[i]);
	}
	/* 10 MB for 10 ms after it got under K_min: Resume. */
	assert_int_equal(m.state, PNC_CP_ST_DRAINING);
	assert_int_equal(feed(&m, &pc, &t, 3000 + 10000, 10 * mb), PNC_CP_EV_RESUME);
}

static void test_machine_second_level_triggers(void **state)
{
	struct pnc_cp_policy_config pc;
	struct pnc_cp_thresholds t;
	struct pnc_cp_machine m;
	struct pnc_cp_observation o = { .now_us = 10, .backlog = 15000 };

	(void)state;
	machine_setup(&pc, &t);
	pc.ecn_permille = 300;
	pc.growth_bps = 1000000;
	pnc_cp_machine_init(&m, 0);
	/* Not above V_ecn / V_growth: first level only. */
	o.have_ecn = true;
	o.ecn_permille = 300;
	o.have_growth = true;
	o.growth_bps = 1000000;
	assert_int_equal(pnc_cp_machine_step(&m, &pc, &t, &o), PNC_CP_EV_ONSET);
	assert_int_equal(m.state, PNC_CP_ST_MARKING);
	o.ecn_permille = 301;
	assert_int_equal(pnc_cp_machine_step(&m, &pc, &t, &o), PNC_CP_EV_CONGESTED);
	assert_int_equal(m.trigger, PNC_CP_TRIG_ECN);
	/* The condition gone, the second level goes with it. */
	o.ecn_permille = 300;
	assert_int_equal(pnc_cp_machine_step(&m, &pc, &t, &o), PNC_CP_EV_EASED);
	assert_int_equal(m.state, PNC_CP_ST_MARKING);

	pnc_cp_machine_init(&m, 0);
	o.ecn_permille = 0;
	o.growth_bps = 1000001;
	assert_int_equal(pnc_cp_machine_step(&m, &pc, &t, &o), PNC_CP_EV_ONSET);
	assert_int_equal(m.state, PNC_CP_ST_CONGESTED);
	assert_int_equal(m.trigger, PNC_CP_TRIG_GROWTH);

	/*
	 * Seed 000 5.4, issue 38 row 3: any one condition triggers, below
	 * K_min too.  EMR 90 % at a 10 KB queue, and a queue growing fast
	 * before it has reached K_min.
	 */
	pnc_cp_machine_init(&m, 0);
	o.backlog = 10000;
	o.ecn_permille = 900;
	o.growth_bps = 0;
	assert_int_equal(pnc_cp_machine_step(&m, &pc, &t, &o), PNC_CP_EV_ONSET);
	assert_int_equal(m.state, PNC_CP_ST_CONGESTED);
	assert_int_equal(m.trigger, PNC_CP_TRIG_ECN);
	pnc_cp_machine_init(&m, 0);
	o.ecn_permille = 0;
	o.growth_bps = 50000000000ll; /* 50 GB/s */
	assert_int_equal(pnc_cp_machine_step(&m, &pc, &t, &o), PNC_CP_EV_ONSET);
	assert_int_equal(m.trigger, PNC_CP_TRIG_GROWTH);
	/* Shrinking is not growth. */
	pnc_cp_machine_init(&m, 0);
	o.growth_bps = -50000000000ll;
	assert_int_equal(pnc_cp_machine_step(&m, &pc, &t, &o), PNC_CP_EV_NONE);
	assert_int_equal(m.state, PNC_CP_ST_IDLE);
	/* Triggers switched off in config are ignored. */
	pc.ecn_permille = 0;
	pc.growth_bps = 0;
	o.backlog = 15000;
	o.ecn_permille = 1000;
	o.growth_bps = 50000000000ll;
	assert_int_equal(pnc_cp_machine_step(&m, &pc, &t, &o), PNC_CP_EV_ONSET);
	assert_int_equal(m.state, PNC_CP_ST_MARKING);
	/* Stale rates (have_* false) are ignored too. */
	pc.ecn_permille = 1;
	pc.growth_bps = 1;
	o.have_ecn = o.have_growth = false;
	assert_int_equal(pnc_cp_machine_step(&m, &pc, &t, &o), PNC_CP_EV_NONE);
	assert_int_equal(m.state, PNC_CP_ST_MARKING);
}

static void test_marks(void **state)
{
	struct pnc_cp_policy_config pc;
	struct pnc_cp_thresholds t;
	struct pnc_cp_marks mk;

	(void)state;
	machine_setup(&pc, &t);
	pnc_cp_marks_compute(PNC_CP_MARK_NONE, &t, 1000000, &mk);
	assert_int_equal(mk.ce_prob + mk.ect1_prob, 0);

	pnc_cp_marks_compute(PNC_CP_MARK_CE, &t, 10000, &mk);
	assert_int_equal(mk.ce_prob, 0);
	pnc_cp_marks_compute(PNC_CP_MARK_CE, &t, 10001, &mk);
	assert_int_equal(mk.ce_prob, PNC_CP_PROB_ONE);
	assert_int_equal(mk.ect1_prob, 0);

	/* Seed 003: linear ECT(1) ramp from T1 to T2, then RED-like CE. */
	pnc_cp_marks_compute(PNC_CP_MARK_TWO_THRESHOLD, &t, 10000, &mk);
	assert_int_equal(mk.ect1_prob + mk.ce_prob, 0);
	pnc_cp_marks_compute(PNC_CP_MARK_TWO_THRESHOLD, &t, 12500, &mk);
	assert_int_equal(mk.ect1_prob, PNC_CP_PROB_ONE / 4);
	assert_int_equal(mk.ce_prob, 0);
	pnc_cp_marks_compute(PNC_CP_MARK_TWO_THRESHOLD, &t, 15000, &mk);
	assert_int_equal(mk.ect1_prob, PNC_CP_PROB_ONE / 2);
	pnc_cp_marks_compute(PNC_CP_MARK_TWO_THRESHOLD, &t, 19999, &mk);
	assert_true(mk.ect1_prob < PNC_CP_PROB_ONE);
	/* At T2 CE starts at 0 and rises to certain at 2 T2; the rest is ECT(1). */
	pnc_cp_marks_compute(PNC_CP_MARK_TWO_THRESHOLD, &t, 20000, &mk);
	assert_int_equal(mk.ect1_prob, PNC_CP_PROB_ONE);
	assert_int_equal(mk.ce_prob, 0);
	pnc_cp_marks_compute(PNC_CP_MARK_TWO_THRESHOLD, &t, 25000, &mk);
	assert_int_equal(mk.ce_prob, PNC_CP_PROB_ONE / 4);
	pnc_cp_marks_compute(PNC_CP_MARK_TWO_THRESHOLD, &t, 30000, &mk);
	assert_int_equal(mk.ce_prob, PNC_CP_PROB_ONE / 2);
	pnc_cp_marks_compute(PNC_CP_MARK_TWO_THRESHOLD, &t, 40000, &mk);
	assert_int_equal(mk.ce_prob, PNC_CP_PROB_ONE);
	pnc_cp_marks_compute(PNC_CP_MARK_TWO_THRESHOLD, &t, UINT64_MAX, &mk);
	assert_int_equal(mk.ce_prob, PNC_CP_PROB_ONE);
	assert_int_equal(mk.ect1_prob, PNC_CP_PROB_ONE);
}

/*
 * Seed 003 3.2.1 marks on the average queue: a burst one reading long
 * moves it a little, a queue that stays moves it all the way; the
 * seed 000 modes mark on the reading itself.
 */
static void test_queue_average(void **state)
{
	struct pnc_cp_policy_config pc;
	struct pnc_cp_thresholds t;
	struct pnc_cp_marks mk;
	uint64_t avg = 0;

	(void)state;
	machine_setup(&pc, &t); /* T1 10000, T2 20000 */
	/* A 1 ms burst to 50000 with a 10 ms time constant: 1/11 of it. */
	avg = pnc_cp_queue_average(avg, 50000, 1000, 10000);
	assert_int_equal(avg, 4545);
	pnc_cp_marks_compute(PNC_CP_MARK_TWO_THRESHOLD, &t,
			     pnc_cp_marking_depth(PNC_CP_MARK_TWO_THRESHOLD, 50000, avg), &mk);
	assert_int_equal(mk.ect1_prob + mk.ce_prob, 0);
	/* The instantaneous modes see the burst. */
	assert_int_equal(pnc_cp_marking_depth(PNC_CP_MARK_CE, 50000, avg), 50000);
	/* The queue stays at 50000: the average passes T1, then T2. */
	for (int i = 0; i < 200; i++)
		avg = pnc_cp_queue_average(avg, 50000, 1000, 10000);
	assert_true(avg > 49000 && avg <= 50000);
	pnc_cp_marks_compute(PNC_CP_MARK_TWO_THRESHOLD, &t, avg, &mk);
	assert_int_equal(mk.ce_prob, PNC_CP_PROB_ONE);
	/* It drains: the average follows down, never below the reading. */
	for (int i = 0; i < 200; i++)
		avg = pnc_cp_queue_average(avg, 0, 1000, 10000);
	assert_true(avg < 1000);
	/* No time constant, or a long gap: the reading itself. */
	assert_int_equal(pnc_cp_queue_average(777, 5000, 1000, 0), 5000);
	assert_int_equal(pnc_cp_queue_average(0, 5000, UINT32_MAX, 1), 4999);
	assert_int_equal(pnc_cp_queue_average(5000, 5000, 0, 10000), 5000);
	assert_int_equal(pnc_cp_queue_average(UINT64_MAX, 0, 1, 1), UINT64_MAX / 2 + 1);
}

/* No rate known and K_base 0: thresholds 0 mark and notify nothing. */
static void test_unknown_rate_marks_nothing(void **state)
{
	struct pnc_cp_policy_config pc;
	struct pnc_cp_thresholds t;
	struct pnc_cp_machine m;
	struct pnc_cp_marks mk;
	struct pnc_cp_observation obs = { .now_us = 1000, .backlog = 500000 };

	(void)state;
	bdp_config(&pc, 0, 10000);
	pc.ecn_permille = 1;
	pnc_cp_thresholds_compute(&pc, 0, 0, &t);
	assert_int_equal(t.rate_source, PNC_CP_RATE_NONE);
	assert_int_equal(t.k_max, 0);
	assert_false(pnc_cp_thresholds_known(&t));
	for (int mark = PNC_CP_MARK_NONE; mark < PNC_CP_MARK_MAX; mark++) {
		pnc_cp_marks_compute(mark, &t, 1, &mk);
		assert_int_equal(mk.ce_prob + mk.ect1_prob, 0);
		pnc_cp_marks_compute(mark, &t, 500000, &mk);
		assert_int_equal(mk.ce_prob + mk.ect1_prob, 0);
	}
	pnc_cp_machine_init(&m, 0);
	obs.have_ecn = true;
	obs.ecn_permille = 1000;
	assert_int_equal(pnc_cp_machine_step(&m, &pc, &t, &obs), PNC_CP_EV_NONE);
	assert_int_equal(m.state, PNC_CP_ST_IDLE);
	assert_false(pnc_cp_should_notify(PNC_CP_MARK_TWO_THRESHOLD, &m, &t, 500000));
	/* A congested interface whose rate goes away resumes after RTT_est. */
	m.state = PNC_CP_ST_CONGESTED;
	assert_false(pnc_cp_should_notify(PNC_CP_MARK_CE, &m, &t, 500000));
	assert_int_equal(pnc_cp_machine_step(&m, &pc, &t, &obs), PNC_CP_EV_EASED);
	assert_int_equal(m.state, PNC_CP_ST_DRAINING);
	obs.now_us += 10000;
	assert_int_equal(pnc_cp_machine_step(&m, &pc, &t, &obs), PNC_CP_EV_RESUME);
	/* A K_base makes them known again. */
	pc.k_base = 30000;
	pnc_cp_thresholds_compute(&pc, 0, 0, &t);
	assert_true(pnc_cp_thresholds_known(&t));
	pnc_cp_marks_compute(PNC_CP_MARK_CE, &t, 20000, &mk);
	assert_int_equal(mk.ce_prob, PNC_CP_PROB_ONE);
}

static void test_levels_and_notify(void **state)
{
	struct pnc_cp_policy_config pc;
	struct pnc_cp_thresholds t;
	struct pnc_cp_machine m;

	(void)state;
	machine_setup(&pc, &t);
	/* Seed 003 light / severe (doc/wire-formats.md section 8). */
	assert_int_equal(pnc_cp_level(PNC_CP_MARK_TWO_THRESHOLD, &t, 15000), 2);
	assert_int_equal(pnc_cp_level(PNC_CP_MARK_TWO_THRESHOLD, &t, 20000), 6);
	/* Seed 000 triggers: 4 up to K_max, 7 from 2 * K_max. */
	assert_int_equal(pnc_cp_level(PNC_CP_MARK_CE, &t, 12000), 4);
	assert_int_equal(pnc_cp_level(PNC_CP_MARK_CE, &t, 20000), 4);
	assert_int_equal(pnc_cp_level(PNC_CP_MARK_CE, &t, 26667), 5);
	assert_int_equal(pnc_cp_level(PNC_CP_MARK_NONE, &t, 33334), 6);
	assert_int_equal(pnc_cp_level(PNC_CP_MARK_CE, &t, 39999), 6);
	assert_int_equal(pnc_cp_level(PNC_CP_MARK_CE, &t, 40000), 7);
	assert_int_equal(pnc_cp_level(PNC_CP_MARK_CE, &t, 1000000), 7);
	/*
	 * Direct to the source: depth one RTT_est ahead.  At 20000 octets,
	 * growing 6.667 MB/s for 1 ms is 26667: level 5; shrinking is the
	 * depth's own level; 1 GB/s for 1 ms passes 2 * K_max: 7.
	 */
	assert_int_equal(pnc_cp_level_projected(PNC_CP_MARK_CE, &t, 20000, 6667000, 1000), 5);
	assert_int_equal(pnc_cp_level_projected(PNC_CP_MARK_CE, &t, 20000, -6667000, 1000), 4);
	assert_int_equal(pnc_cp_level_projected(PNC_CP_MARK_CE, &t, 20000, 0, 1000), 4);
	assert_int_equal(pnc_cp_level_projected(PNC_CP_MARK_CE, &t, 20000, 1000000000, 1000), 7);
	assert_int_equal(pnc_cp_level_projected(PNC_CP_MARK_TWO_THRESHOLD, &t, 15000, 5000000,
						1000),
			 6);
	/* Seed 001 has no level 0. */
	assert_int_equal(pnc_cp_level_fcn(0), 1);
	assert_int_equal(pnc_cp_level_fcn(6), 6);

	pnc_cp_machine_init(&m, 0);
	assert_false(pnc_cp_should_notify(PNC_CP_MARK_CE, &m, &t, 15000));
	/* Seed 003 notifies light congestion from T1 on. */
	assert_true(pnc_cp_should_notify(PNC_CP_MARK_TWO_THRESHOLD, &m, &t, 15000));
	assert_false(pnc_cp_should_notify(PNC_CP_MARK_TWO_THRESHOLD, &m, &t, 10000));
	m.state = PNC_CP_ST_MARKING;
	assert_false(pnc_cp_should_notify(PNC_CP_MARK_CE, &m, &t, 15000));
	m.state = PNC_CP_ST_CONGESTED;
	assert_true(pnc_cp_should_notify(PNC_CP_MARK_CE, &m, &t, 5000));
	assert_true(pnc_cp_should_notify(PNC_CP_MARK_NONE, &m, &t, 5000));
}

static void test_names(void **state)
{
	enum pnc_cp_marking mk;

	(void)state;
	for (int i = 0; i < PNC_CP_MARK_MAX; i++) {
		assert_true(pnc_cp_marking_parse(pnc_cp_marking_name(i), &mk));
		assert_int_equal(mk, i);
	}
	assert_false(pnc_cp_marking_parse("red", &mk));
	assert_string_equal(pnc_cp_state_name(PNC_CP_ST_CONGESTED), "congested");
	assert_string_equal(pnc_cp_trigger_name(PNC_CP_TRIG_GROWTH), "growth-rate");
	assert_string_equal(pnc_cp_rate_source_name(PNC_CP_RATE_QDISC), "qdisc");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bdp_seed_example),
		cmocka_unit_test(test_bdp_alpha_and_percent),
		cmocka_unit_test(test_bdp_rate_sources_and_base),
		cmocka_unit_test(test_static_and_validation),
		cmocka_unit_test(test_machine_levels_and_resume),
		cmocka_unit_test(test_machine_draining_queue_is_not_notified),
		cmocka_unit_test(test_machine_second_level_triggers),
		cmocka_unit_test(test_marks),
		cmocka_unit_test(test_queue_average),
		cmocka_unit_test(test_unknown_rate_marks_nothing),
		cmocka_unit_test(test_levels_and_notify),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
