// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Collaborative suppression: the per-interface machine.
 */
#include "cp/collab.h"

#include <string.h>

/*
 * A reading covers one poll interval: a few packets at WAN rates, so
 * the arrival rate is smoothed (gain 1/4) before falls are looked for.
 */
#define COLLAB_EWMA_SHIFT 2

void pnc_cp_collab_init(struct pnc_cp_collab *c)
{
	memset(c, 0, sizeof(*c));
}

static void rate_update(struct pnc_cp_collab *c, const struct pnc_cp_collab_input *in)
{
	if (!in->have_rate)
		return;
	if (!c->have_ewma) {
		c->rate_ewma = in->arrival_Bps;
		c->have_ewma = true;
		return;
	}
	if (in->arrival_Bps >= c->rate_ewma)
		c->rate_ewma += (in->arrival_Bps - c->rate_ewma) >> COLLAB_EWMA_SHIFT;
	else
		c->rate_ewma -= (c->rate_ewma - in->arrival_Bps) >> COLLAB_EWMA_SHIFT;
}

static void enter(struct pnc_cp_collab *c, enum pnc_cp_collab_state s, uint64_t now)
{
	c->state = s;
	c->since_us = now;
}

static bool rate_fell(const struct pnc_cp_collab *c, uint8_t fall_percent)
{
	return c->have_ewma && c->onset_rate &&
	       c->rate_ewma * 100 <= c->onset_rate * (uint64_t)(100 - fall_percent);
}

enum pnc_cp_collab_event pnc_cp_collab_step(struct pnc_cp_collab *c,
					    const struct pnc_cp_collab_input *in)
{
	uint64_t in_state;

	rate_update(c, in);
	if (in->resume) {
		enter(c, PNC_CP_COLLAB_IDLE, in->now_us);
		return PNC_CP_COLLAB_EV_NONE;
	}
	if (in->onset) {
		c->onset_rate = c->have_ewma ? c->rate_ewma : 0;
		enter(c, PNC_CP_COLLAB_WATCH, in->now_us);
		return PNC_CP_COLLAB_EV_NONE;
	}
	in_state = in->now_us - c->since_us;
	switch (c->state) {
	case PNC_CP_COLLAB_WATCH:
		if (rate_fell(c, in->fall_percent)) {
			c->defer_backlog = in->backlog;
			enter(c, PNC_CP_COLLAB_DEFER, in->now_us);
			return PNC_CP_COLLAB_EV_DEFERRED;
		}
		/* No rate at the onset to compare with: nothing to defer to. */
		if (in_state >= in->rtt_us || !c->onset_rate)
			enter(c, PNC_CP_COLLAB_NOTIFY, in->now_us);
		return PNC_CP_COLLAB_EV_NONE;
	case PNC_CP_COLLAB_DEFER:
		if (in_state < in->rtt_us)
			return PNC_CP_COLLAB_EV_NONE;
		if (in->backlog > c->defer_backlog) {
			enter(c, PNC_CP_COLLAB_ESCALATE, in->now_us);
			return PNC_CP_COLLAB_EV_ESCALATED;
		}
		/* Draining or steady: keep deferring, measured from here. */
		c->defer_backlog = in->backlog;
		c->since_us = in->now_us;
		return PNC_CP_COLLAB_EV_NONE;
	case PNC_CP_COLLAB_IDLE:
	case PNC_CP_COLLAB_NOTIFY:
	case PNC_CP_COLLAB_ESCALATE:
	case PNC_CP_COLLAB_MAX:
		break;
	}
	return PNC_CP_COLLAB_EV_NONE;
}

const char *pnc_cp_collab_state_name(enum pnc_cp_collab_state s)
{
	switch (s) {
	case PNC_CP_COLLAB_IDLE:
		return "idle";
	case PNC_CP_COLLAB_WATCH:
		return "watching";
	case PNC_CP_COLLAB_NOTIFY:
		return "notifying";
	case PNC_CP_COLLAB_DEFER:
		return "deferring";
	case PNC_CP_COLLAB_ESCALATE:
		return "escalated";
	case PNC_CP_COLLAB_MAX:
		break;
	}
	return "?";
}
