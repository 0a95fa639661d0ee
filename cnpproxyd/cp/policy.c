// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Congestion point trigger policy (see cp/policy.h).
 */
#include <stdio.h>
#include <string.h>

#include "cp/policy.h"

void cp_policy_config_init(struct cp_policy_config *pc)
{
	memset(pc, 0, sizeof(*pc));
	pc->mode = CP_THR_BDP;
	pc->marking = CP_MARK_NONE;
}

bool cp_policy_config_valid(const struct cp_policy_config *pc, char *err, size_t errlen)
{
	if (pc->rtt_us == 0) {
		snprintf(err, errlen, "rtt must be above 0");
		return false;
	}
	if (pc->k_min_percent == 0 || pc->k_min_percent >= 100) {
		snprintf(err, errlen, "k-min-percent must be between 1 and 99");
		return false;
	}
	if (pc->mode == CP_THR_STATIC) {
		if (pc->k_max == 0) {
			snprintf(err, errlen, "static thresholds need k-max");
			return false;
		}
		if (pc->k_min >= pc->k_max) {
			snprintf(err, errlen, "k-min (%llu) must be below k-max (%llu)",
				 (unsigned long long)pc->k_min, (unsigned long long)pc->k_max);
			return false;
		}
	}
	return true;
}

/* a * b / c without overflowing for rates up to Tb/s and RTTs in seconds. */
static uint64_t muldiv(uint64_t a, uint64_t b, uint64_t c)
{
	return (uint64_t)(((unsigned __int128)a * b) / c);
}

void cp_thresholds_compute(const struct cp_policy_config *pc, uint64_t qdisc_bps,
			   uint64_t link_bps, struct cp_thresholds *out)
{
	memset(out, 0, sizeof(*out));
	if (pc->mode == CP_THR_STATIC) {
		out->k_max = pc->k_max;
		out->k_min = pc->k_min ? pc->k_min : muldiv(pc->k_max, pc->k_min_percent, 100);
		return;
	}

	if (pc->rate_bps) {
		out->rate_bps = pc->rate_bps;
		out->rate_source = CP_RATE_CONFIG;
	} else if (qdisc_bps) {
		out->rate_bps = qdisc_bps;
		out->rate_source = CP_RATE_QDISC;
	} else if (link_bps) {
		out->rate_bps = link_bps;
		out->rate_source = CP_RATE_LINK;
	}
	/* alpha * R [b/s] * RTT [us] / 8 [b/B] / 1e6 [us/s] / 1000 [milli] */
	out->bdp = muldiv(muldiv(out->rate_bps, pc->rtt_us, 8000000), pc->alpha_milli, 1000);
	if (out->bdp >= pc->k_base) {
		out->k_max = out->bdp;
	} else {
		out->k_max = pc->k_base;
		out->from_base = true;
	}
	out->k_min = muldiv(out->k_max, pc->k_min_percent, 100);
}

void cp_machine_init(struct cp_machine *m, uint64_t now_us)
{
	memset(m, 0, sizeof(*m));
	m->state = CP_ST_IDLE;
	m->since_us = now_us;
}

/*
 * Which second-level condition holds, if any; the queue itself first.
 * Seed 000 5.4: any one of the three, each on its own (a queue growing
 * fast counts before it reaches K_min).
 */
static enum cp_trigger second_level(const struct cp_policy_config *pc,
				    const struct cp_thresholds *thr,
				    const struct cp_observation *obs)
{
	if (thr->k_max && obs->backlog > thr->k_max)
		return CP_TRIG_QUEUE;
	if (pc->ecn_permille && obs->have_ecn && obs->ecn_permille > pc->ecn_permille)
		return CP_TRIG_ECN;
	if (pc->growth_bps && obs->have_growth && obs->growth_bps > 0 &&
	    (uint64_t)obs->growth_bps > pc->growth_bps)
		return CP_TRIG_GROWTH;
	return CP_TRIG_NONE;
}

static void enter(struct cp_machine *m, enum cp_state s, uint64_t now_us)
{
	m->state = s;
	m->since_us = now_us;
}

enum cp_event cp_machine_step(struct cp_machine *m, const struct cp_policy_config *pc,
			      const struct cp_thresholds *thr, const struct cp_observation *obs)
{
	bool known = cp_thresholds_known(thr);
	enum cp_trigger trig = known ? second_level(pc, thr, obs) : CP_TRIG_NONE;
	enum cp_state was = m->state;

	if (trig != CP_TRIG_NONE) {
		m->trigger = trig;
		if (was == CP_ST_CONGESTED)
			return CP_EV_NONE;
		enter(m, CP_ST_CONGESTED, obs->now_us);
		return was == CP_ST_IDLE ? CP_EV_ONSET : CP_EV_CONGESTED;
	}
	if (known && obs->backlog > thr->k_min) {
		if (was == CP_ST_MARKING)
			return CP_EV_NONE;
		enter(m, CP_ST_MARKING, obs->now_us);
		if (was == CP_ST_CONGESTED)
			return CP_EV_EASED; /* m->trigger says what it was */
		if (was == CP_ST_DRAINING)
			return CP_EV_NONE; /* the same episode */
		m->trigger = CP_TRIG_NONE;
		return CP_EV_ONSET;
	}
	switch (was) {
	case CP_ST_IDLE:
		return CP_EV_NONE;
	case CP_ST_MARKING:
	case CP_ST_CONGESTED:
		enter(m, CP_ST_DRAINING, obs->now_us);
		return was == CP_ST_CONGESTED ? CP_EV_EASED : CP_EV_NONE;
	case CP_ST_DRAINING:
	case CP_ST_MAX:
		break;
	}
	/* Resume once the queue has stayed under K_min for RTT_est. */
	if (obs->now_us - m->since_us < pc->rtt_us)
		return CP_EV_NONE;
	enter(m, CP_ST_IDLE, obs->now_us);
	return CP_EV_RESUME;
}

/* p * (x - lo) / (hi - lo), x in [lo, hi) */
static uint32_t ramp(uint64_t x, uint64_t lo, uint64_t hi)
{
	return (uint32_t)muldiv(CP_PROB_ONE, x - lo, hi - lo);
}

uint64_t cp_queue_average(uint64_t avg, uint64_t backlog, uint64_t dt_us, uint32_t tau_us)
{
	uint64_t step;

	if (!tau_us)
		return backlog;
	/* The weight of the new reading is dt / (dt + tau): 1 after a long gap. */
	if (backlog >= avg) {
		step = muldiv(backlog - avg, dt_us, dt_us + tau_us);
		return avg + step;
	}
	step = muldiv(avg - backlog, dt_us, dt_us + tau_us);
	return avg - step;
}

uint64_t cp_marking_depth(enum cp_marking marking, uint64_t backlog, uint64_t avg)
{
	return marking == CP_MARK_TWO_THRESHOLD ? avg : backlog;
}

void cp_marks_compute(enum cp_marking marking, const struct cp_thresholds *thr, uint64_t backlog,
		      struct cp_marks *out)
{
	memset(out, 0, sizeof(*out));
	if (!cp_thresholds_known(thr))
		return;
	switch (marking) {
	case CP_MARK_NONE:
	case CP_MARK_MAX:
		break;
	case CP_MARK_CE:
		if (backlog > thr->k_min)
			out->ce_prob = CP_PROB_ONE;
		break;
	case CP_MARK_TWO_THRESHOLD:
		/*
		 * Above T2, RED's gentle ramp: CE from 0 at T2 to certain at
		 * 2 T2; what is not marked CE is still past T1, ECT(1).
		 */
		if (backlog >= thr->k_max) {
			out->ect1_prob = CP_PROB_ONE;
			out->ce_prob = backlog - thr->k_max >= thr->k_max
					       ? CP_PROB_ONE
					       : ramp(backlog, thr->k_max, 2 * thr->k_max);
		} else if (backlog > thr->k_min)
			out->ect1_prob = ramp(backlog, thr->k_min, thr->k_max);
		break;
	}
}

bool cp_should_notify(enum cp_marking marking, const struct cp_machine *m,
		      const struct cp_thresholds *thr, uint64_t backlog)
{
	if (!cp_thresholds_known(thr))
		return false;
	if (m->state == CP_ST_CONGESTED)
		return true;
	return marking == CP_MARK_TWO_THRESHOLD && backlog > thr->k_min;
}

uint8_t cp_level(enum cp_marking marking, const struct cp_thresholds *thr, uint64_t backlog)
{
	uint64_t over;

	if (marking == CP_MARK_TWO_THRESHOLD)
		return backlog >= thr->k_max ? 6 : 2;
	if (!thr->k_max || backlog <= thr->k_max)
		return 4;
	over = backlog - thr->k_max;
	if (over >= thr->k_max)
		return 7;
	return (uint8_t)(4 + muldiv(over, 3, thr->k_max));
}

uint8_t cp_level_projected(enum cp_marking marking, const struct cp_thresholds *thr,
			   uint64_t backlog, int64_t growth_Bps, uint32_t rtt_us)
{
	uint64_t ahead = 0;

	if (growth_Bps > 0)
		ahead = muldiv((uint64_t)growth_Bps, rtt_us, 1000000u);
	return cp_level(marking, thr, backlog + ahead);
}

uint8_t cp_lh_level(const struct cp_thresholds *thr, uint64_t backlog)
{
	uint64_t span, v;

	if (thr->k_max <= thr->k_min)
		return 0;
	span = thr->k_max - thr->k_min;
	/* Past either end of the scale first: no product can overflow then. */
	if (backlog >= thr->k_min) {
		if ((backlog - thr->k_min) / 2 >= span)
			return 255;
		v = 72 + muldiv(backlog - thr->k_min, 100, span);
		return v > 255 ? 255 : (uint8_t)v;
	}
	if (thr->k_min - backlog >= span)
		return 0;
	v = muldiv(thr->k_min - backlog, 100, span);
	return v >= 72 ? 0 : (uint8_t)(72 - v);
}

static const char *const state_names[CP_ST_MAX] = {
	[CP_ST_IDLE] = "idle",
	[CP_ST_MARKING] = "marking",
	[CP_ST_CONGESTED] = "congested",
	[CP_ST_DRAINING] = "draining",
};

const char *cp_state_name(enum cp_state s)
{
	return s < CP_ST_MAX ? state_names[s] : "?";
}

const char *cp_trigger_name(enum cp_trigger t)
{
	switch (t) {
	case CP_TRIG_NONE:
		return "none";
	case CP_TRIG_QUEUE:
		return "queue";
	case CP_TRIG_ECN:
		return "ecn-rate";
	case CP_TRIG_GROWTH:
		return "growth-rate";
	}
	return "?";
}

static const char *const marking_names[CP_MARK_MAX] = {
	[CP_MARK_NONE] = "none",
	[CP_MARK_CE] = "ce",
	[CP_MARK_TWO_THRESHOLD] = "two-threshold",
};

const char *cp_marking_name(enum cp_marking m)
{
	return m < CP_MARK_MAX ? marking_names[m] : "?";
}

bool cp_marking_parse(const char *name, enum cp_marking *out)
{
	for (int i = 0; i < CP_MARK_MAX; i++) {
		if (!strcmp(name, marking_names[i])) {
			*out = i;
			return true;
		}
	}
	return false;
}

const char *cp_rate_source_name(enum cp_rate_source s)
{
	switch (s) {
	case CP_RATE_NONE:
		return "none";
	case CP_RATE_CONFIG:
		return "configured";
	case CP_RATE_QDISC:
		return "qdisc";
	case CP_RATE_LINK:
		return "link";
	}
	return "?";
}
