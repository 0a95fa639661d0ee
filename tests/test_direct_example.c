// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The worked example of doc/cnpproxyd.md ("Direct to the source"): a
 * congestion point sending Long-haul CNPs to the source itself, reading
 * by reading, through the same pure functions the daemon runs (state
 * machine, projected level, the proxy's level policy).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "codec/lhcnp.h"
#include "cnpproxy_cp_policy.h"
#include "cnpproxy_sender.h"

#define MB 1000000ull

struct step {
	uint64_t now_us;
	uint64_t backlog;
	int64_t growth_Bps;
	enum cp_event event;
	bool notifies;	    /* congested: samples become messages */
	uint8_t cl;	    /* projected level */
	uint8_t lh_level;   /* on the wire, 0-255 */
	uint8_t action;	    /* enum pnc_lh_action */
	uint16_t parameter; /* percent or microseconds */
};

/*
 * 100 Gb/s, RTT_est 10 ms: K_max 125 MB, K_min 62.5 MB.  The proxy
 * policy's defaults (severe from CL 4, Rate Reduce 50 %) with a pause
 * time of 500 us at CL 7.
 */
static const struct step example[] = {
	{ 1000, 50 * MB, 0, CP_EV_NONE, false, 0, 0, 0, 0 },
	{ 2000, 70 * MB, 20000 * MB, CP_EV_ONSET, false, 0, 0, 0, 0 },
	{ 3000, 130 * MB, 60000 * MB, CP_EV_CONGESTED, true, 7, 255, PNC_LH_PAUSE, 500 },
	{ 4000, 140 * MB, 10000 * MB, CP_EV_NONE, true, 6, 218, PNC_LH_RATE_REDUCE, 50 },
	{ 5000, 130 * MB, -10000 * MB, CP_EV_NONE, true, 4, 145, PNC_LH_RATE_REDUCE, 50 },
	/* Under K_min: draining, Resume territory, nothing sent (seed 000 5.4). */
	{ 20000, 60 * MB, -5000 * MB, CP_EV_EASED, false, 0, 0, 0, 0 },
	{ 29000, 40 * MB, -2000 * MB, CP_EV_NONE, false, 0, 0, 0, 0 },
	{ 30000, 30 * MB, -1000 * MB, CP_EV_RESUME, false, 0, 0, 0, 0 },
};

static void test_worked_example(void **state)
{
	struct cp_policy_config pc;
	struct cnp_level_policy lp;
	struct cp_thresholds thr;
	struct cp_machine m;

	(void)state;
	cp_policy_config_init(&pc);
	pc.rate_bps = 100000000000ull;
	pc.rtt_us = 10000;
	pc.alpha_milli = 1000;
	pc.k_min_percent = 50;
	pc.marking = CP_MARK_CE;
	cp_thresholds_compute(&pc, 0, 0, &thr);
	assert_int_equal(thr.k_max, 125 * MB);
	assert_int_equal(thr.k_min, 125 * MB / 2);
	cnp_level_policy_init(&lp);
	lp.lh_pause_us = 500;
	cp_machine_init(&m, 0);

	for (size_t i = 0; i < sizeof(example) / sizeof(example[0]); i++) {
		const struct step *s = &example[i];
		struct cp_observation obs = {
			.now_us = s->now_us,
			.backlog = s->backlog,
			.growth_bps = s->growth_Bps,
			.have_growth = true,
		};
		struct cnp_reaction r;
		uint8_t cl;

		assert_int_equal(cp_machine_step(&m, &pc, &thr, &obs), s->event);
		assert_int_equal(cp_should_notify(pc.marking, &m, &thr, s->backlog), s->notifies);
		if (!s->notifies)
			continue;
		cl = cp_level_projected(pc.marking, &thr, s->backlog, s->growth_Bps, pc.rtt_us);
		assert_int_equal(cl, s->cl);
		cnp_reaction_for(&lp, CNP_FMT_LONG_HAUL_ICMPV6, cl, &r);
		assert_true(r.send && r.severe);
		assert_int_equal(r.lh_level, s->lh_level);
		assert_int_equal(r.lh_action, s->action);
		assert_int_equal(r.lh_parameter, s->parameter);
	}
	/* After the resume event: Resume, the whole cut restored. */
	assert_int_equal(m.state, CP_ST_IDLE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_worked_example),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
