// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Congestion point trigger policy (see cp/policy.h).
 */
#include <stdio.h>
#include <string.h>

#include "cp/policy.h"

void pnc_cp_policy_config_init(struct pnc_cp_policy_config *pc)
{
	memset(pc, 0, sizeof(*pc));
	pc->mode = PNC_CP_THR_BDP;
	pc->marking = PNC_CP_MARK_NONE;
}

bool pnc_cp_policy_config_valid(const struct pnc_cp_policy_config *pc, char *err, size_t errlen)
{
	if (pc->rtt_us == 0) {
		snprintf(err, errlen, "rtt must be above 0");
		return false;
	}
	if (pc->k_min_percent == 0 || pc->k_min_percent >= 100) {
		snprintf(err, errlen, "k-min-percent must be between 1 and 99");
		return false;
	}
	if (pc->mode == PNC_CP_THR_STATIC) {
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

void pnc_cp_thresholds_compute(const struct pnc_cp_policy_config *pc, uint64_t qdisc_bps,
			       uint64_t link_bps, struct pnc_cp_thresholds *out)
{
	memset(out, 0, sizeof(*out));
	if (pc->mode == PNC_CP_THR_STATIC) {
		out->k_max = pc->k_max;
		out->k_min = pc->k_min ? pc->k_min : muldiv(pc->k_max, pc->k_min_percent, 100);
		return;
	}

	if (pc->rate_bps) {
		out->rate_bps = pc->rate_bps;
		out->rate_source = PNC_CP_RATE_CONFIG;
	} else if (qdisc_bps) {
		out->rate_bps = qdisc_bps;
		out->rate_source = PNC_CP_RATE_QDISC;
	} else if (link_bps) {
		out->rate_bps = link_bps;
		out->rate_source = PNC_CP_RATE_LINK;
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

void pnc_cp_machine_init(struct pnc_cp_machine *m, uint64_t now_us)
{
	memset(m, 0, sizeof(*m));
	m->state = PNC_CP_ST_IDLE;
	m->since_us = now_us;
}

/*
 * Which second-level condition holds, if any; the queue itself first.
 * Seed 000 5.4: any one of the three, each on its own (a queue growing
 * fast counts before it reaches K_min).
 */
static enum pnc_cp_trigger second_level(const struct pnc_cp_policy_config *pc,
					const struct pnc_cp_thresholds *thr,
					const struct pnc_cp_observation *obs)
{
	if (thr->k_max && obs->backlog > thr->k_max)
		return PNC_CP_TRIG_QUEUE;
	if (pc->ecn_permille && obs->have_ecn && obs->ecn_permille > pc->ecn_permille)
		return PNC_CP_TRIG_ECN;
	if (pc->growth_bps && obs->have_growth && obs->growth_bps > 0 &&
	    (uint64_t)obs->growth_bps > pc->growth_bps)
		return PNC_CP_TRIG_GROWTH;
	return PNC_CP_TRIG_NONE;
}

static void enter(struct pnc_cp_machine *m, enum pnc_cp_state s, uint64_t now_us)
{
	m->state = s;
	m->since_us = now_us;
}

enum pnc_cp_event pnc_cp_machine_step(struct pnc_cp_machine *m,
				      const struct pnc_cp_policy_config *pc,
				      const struct pnc_cp_thresholds *thr,
				      const struct pnc_cp_observation *obs)
{
	bool known = pnc_cp_thresholds_known(thr);
	enum pnc_cp_trigger trig = known ? second_level(pc, thr, obs) : PNC_CP_TRIG_NONE;
	enum pnc_cp_state was = m->state;

	if (trig != PNC_CP_TRIG_NONE) {
		m->trigger = trig;
		if (was == PNC_CP_ST_CONGESTED)
			return PNC_CP_EV_NONE;
		enter(m, PNC_CP_ST_CONGESTED, obs->now_us);
		return was == PNC_CP_ST_IDLE ? PNC_CP_EV_ONSET : PNC_CP_EV_CONGESTED;
	}
	if (known && obs->backlog > thr->k_min) {
		if (was == PNC_CP_ST_MARKING)
			return PNC_CP_EV_NONE;
		enter(m, PNC_CP_ST_MARKING, obs->now_us);
		if (was == PNC_CP_ST_CONGESTED)
			return PNC_CP_EV_EASED; /* m->trigger says what it was */
		if (was == PNC_CP_ST_DRAINING)
			return PNC_CP_EV_NONE; /* the same episode */
		m->trigger = PNC_CP_TRIG_NONE;
		return PNC_CP_EV_ONSET;
	}
	switch (was) {
	case PNC_CP_ST_IDLE:
		return PNC_CP_EV_NONE;
	case PNC_CP_ST_MARKING:
	case PNC_CP_ST_CONGESTED:
		enter(m, PNC_CP_ST_DRAINING, obs->now_us);
		return was == PNC_CP_ST_CONGESTED ? PNC_CP_EV_EASED : PNC_CP_EV_NONE;
	case PNC_CP_ST_DRAINING:
	case PNC_CP_ST_MAX:
		break;
	}
	/* Resume once the queue has stayed under K_min for RTT_est. */
	if (obs->now_us - m->since_us < pc->rtt_us)
		return PNC_CP_EV_NONE;
	enter(m, PNC_CP_ST_IDLE, obs->now_us);
	return PNC_CP_EV_RESUME;
}

/* p * (x - lo) / (hi - lo), x in [lo, hi) */
static uint32_t ramp(uint64_t x, uint64_t lo, uint64_t hi)
{
	return (uint32_t)muldiv(PNC_CP_PROB_ONE, x - lo, hi - lo);
}

uint64_t pnc_cp_queue_average(uint64_t avg, uint64_t backlog, uint64_t dt_us, uint32_t tau_us)
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

uint64_t pnc_cp_marking_depth(enum pnc_cp_marking marking, uint64_t backlog, uint64_t avg)
{
	return marking == PNC_CP_MARK_TWO_THRESHOLD ? avg : backlog;
}

void pnc_cp_marks_compute(enum pnc_cp_marking marking, const struct pnc_cp_thresholds *thr,
			  uint64_t backlog, struct pnc_cp_marks *out)
{
	memset(out, 0, sizeof(*out));
	if (!pnc_cp_thresholds_known(thr))
		return;
	switch (marking) {
	case PNC_CP_MARK_NONE:
	case PNC_CP_MARK_MAX:
		break;
	case PNC_CP_MARK_CE:
		if (backlog > thr->k_min)
			out->ce_prob = PNC_CP_PROB_ONE;
		break;
	case PNC_CP_MARK_TWO_THRESHOLD:
		/*
		 * Above T2, RED's gentle ramp: CE from 0 at T2 to certain at
		 * 2 T2; what is not marked CE is still past T1, ECT(1).
		 */
		if (backlog >= thr->k_max) {
			out->ect1_prob = PNC_CP_PROB_ONE;
			out->ce_prob = backlog - thr->k_max >= thr->k_max
					       ? PNC_CP_PROB_ONE
					       : ramp(backlog, thr->k_max, 2 * thr->k_max);
		} else if (backlog > thr->k_min)
			out->ect1_prob = ramp(backlog, thr->k_min, thr->k_max);
		break;
	}
}

bool pnc_cp_should_notify(enum pnc_cp_marking marking, const struct pnc_cp_machine *m,
			  const struct pnc_cp_thresholds *thr, uint64_t backlog)
{
	if (!pnc_cp_thresholds_known(thr))
		return false;
	if (m->state == PNC_CP_ST_CONGESTED)
		return true;
	return marking == PNC_CP_MARK_TWO_THRESHOLD && backlog > thr->k_min;
}

uint8_t pnc_cp_level(enum pnc_cp_marking marking, const struct pnc_cp_thresholds *thr,
		     uint64_t backlog)
{
	uint64_t over;

	if (marking == PNC_CP_MARK_TWO_THRESHOLD)
		return backlog >= thr->k_max ? 6 : 2;
	if (!thr->k_max || backlog <= thr->k_max)
		return 4;
	over = backlog - thr->k_max;
	if (over >= thr->k_max)
		return 7;
	return (uint8_t)(4 + muldiv(over, 3, thr->k_max));
}

uint8_t pnc_cp_level_projected(enum pnc_cp_marking marking, const struct pnc_cp_thresholds *thr,
			       uint64_t backlog, int64_t growth_Bps, uint32_t rtt_us)
{
	uint64_t ahead = 0;

	if (growth_Bps > 0)
		ahead = muldiv((uint64_t)growth_Bps, rtt_us, 1000000u);
	return pnc_cp_level(marking, thr, backlog + ahead);
}

uint8_t pnc_cp_lh_level(const struct pnc_cp_thresholds *thr, uint64_t backlog)
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

static const char *const state_names[PNC_CP_ST_MAX] = {
	[PNC_CP_ST_IDLE] = "idle",
	[PNC_CP_ST_MARKING] = "marking",
	[PNC_CP_ST_CONGESTED] = "congested",
	[PNC_CP_ST_DRAINING] = "draining",
};

const char *pnc_cp_state_name(enum pnc_cp_state s)
{
	return s < PNC_CP_ST_MAX ? state_names[s] : "?";
}

const char *pnc_cp_trigger_name(enum pnc_cp_trigger t)
{
	switch (t) {
	case PNC_CP_TRIG_NONE:
		return "none";
	case PNC_CP_TRIG_QUEUE:
		return "queue";
	case PNC_CP_TRIG_ECN:
		return "ecn-rate";
	case PNC_CP_TRIG_GROWTH:
		return "growth-rate";
	}
	return "?";
}

static const char *const marking_names[PNC_CP_MARK_MAX] = {
	[PNC_CP_MARK_NONE] = "none",
	[PNC_CP_MARK_CE] = "ce",
	[PNC_CP_MARK_TWO_THRESHOLD] = "two-threshold",
};

const char *pnc_cp_marking_name(enum pnc_cp_marking m)
{
	return m < PNC_CP_MARK_MAX ? marking_names[m] : "?";
}

bool pnc_cp_marking_parse(const char *name, enum pnc_cp_marking *out)
{
	for (int i = 0; i < PNC_CP_MARK_MAX; i++) {
		if (!strcmp(name, marking_names[i])) {
			*out = i;
			return true;
		}
	}
	return false;
}

const char *pnc_cp_rate_source_name(enum pnc_cp_rate_source s)
{
	switch (s) {
	case PNC_CP_RATE_NONE:
		return "none";
	case PNC_CP_RATE_CONFIG:
		return "configured";
	case PNC_CP_RATE_QDISC:
		return "qdisc";
	case PNC_CP_RATE_LINK:
		return "link";
	}
	return "?";
}
