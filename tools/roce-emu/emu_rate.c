// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DCQCN-like rate reaction of roce-emu's requester, and its reactions to
 * Long-haul CNP actions and SCONE rate advice.
 */
#include <string.h>

#include "codec/lhcnp.h"

#include "emu_rate.h"

void emu_rate_init(struct emu_rate *r, const struct emu_rate_cfg *cfg, uint64_t now_us)
{
	r->mbps = cfg->line_mbps;
	r->alpha = 1.0;
	r->last_change_us = now_us;
	r->cuts = 0;
	r->advice_mbps = 0;
}

/*
 * A cut of the rate from before to cut stops at min_mbps, but never raises
 * a rate that was below it already (an advice may have set one).
 */
static double cut_floor(double before, double cut, const struct emu_rate_cfg *cfg)
{
	double floor = before < cfg->min_mbps ? before : cfg->min_mbps;

	return cut < floor ? floor : cut;
}

void emu_rate_on_cnp(struct emu_rate *r, const struct emu_rate_cfg *cfg, uint64_t now_us)
{
	r->alpha = (1.0 - cfg->g) * r->alpha + cfg->g;
	r->mbps = cut_floor(r->mbps, r->mbps * (1.0 - r->alpha / 2.0), cfg);
	r->last_change_us = now_us;
	r->cuts++;
}

double emu_rate_ceiling(const struct emu_rate *r, const struct emu_rate_cfg *cfg)
{
	if (r->advice_mbps > 0 && r->advice_mbps < cfg->line_mbps)
		return r->advice_mbps;
	return cfg->line_mbps;
}

void emu_rate_tick(struct emu_rate *r, const struct emu_rate_cfg *cfg, uint64_t now_us)
{
	double ceiling = emu_rate_ceiling(r, cfg);

	/* now_us may predate a cut made while it was being used. */
	if (!cfg->recovery_us || now_us < r->last_change_us)
		return;
	while (now_us - r->last_change_us >= cfg->recovery_us) {
		r->alpha *= 1.0 - cfg->g;
		r->mbps += cfg->ai_mbps;
		/* An advice below the current rate is applied when it arrives. */
		if (r->mbps > ceiling)
			r->mbps = ceiling;
		r->last_change_us += cfg->recovery_us;
	}
}

void emu_rate_on_advice(struct emu_rate *r, const struct emu_rate_cfg *cfg, uint32_t mbps,
			uint64_t now_us)
{
	r->advice_mbps = mbps;
	if (mbps)
		r->mbps = emu_rate_ceiling(r, cfg);
	/* Withdrawn or not, the normal recovery counts from here. */
	r->last_change_us = now_us;
}

void emu_lh_init(struct emu_lh *lh)
{
	memset(lh, 0, sizeof(*lh));
}

static void lh_end(struct emu_lh *lh)
{
	lh->active = false;
	lh->cap_mbps = 0;
	lh->lost_mbps = 0;
}

static void lh_rate_reduce(struct emu_lh *lh, struct emu_rate *r, const struct emu_rate_cfg *cfg,
			   uint16_t pct, uint64_t now_us)
{
	double before = r->mbps;

	if (pct > 100)
		pct = 100;
	if (!lh->active) {
		lh->active = true;
		lh->cap_mbps = before;
	}
	/* Pacing needs a positive rate; a full stop is what Pause is for. */
	r->mbps = cut_floor(before, before * (1.0 - pct / 100.0), cfg);
	if (r->mbps < before)
		lh->lost_mbps += before - r->mbps;
	r->last_change_us = now_us;
}

static void lh_resume(struct emu_lh *lh, struct emu_rate *r, const struct emu_rate_cfg *cfg,
		      uint16_t pct, uint64_t now_us)
{
	double give, cap;

	if (!lh->active)
		return;
	give = pct == 0 || pct >= 100 ? lh->lost_mbps : lh->lost_mbps * pct / 100.0;
	/* The Resume cap: never above the rate before the first reduction. */
	cap = lh->cap_mbps;
	if (cap > emu_rate_ceiling(r, cfg))
		cap = emu_rate_ceiling(r, cfg);
	if (r->mbps + give > cap)
		give = cap > r->mbps ? cap - r->mbps : 0;
	r->mbps += give;
	lh->lost_mbps -= give;
	r->last_change_us = now_us;
	/* Nothing left to give back: the normal recovery takes over. */
	if (pct == 0 || pct >= 100 || lh->lost_mbps <= 1e-9 || r->mbps >= cap)
		lh_end(lh);
}

void emu_lh_on_action(struct emu_lh *lh, struct emu_rate *r, const struct emu_rate_cfg *cfg,
		      uint8_t action, uint16_t parameter, uint64_t now_us)
{
	lh->last_us = now_us;
	switch (action) {
	case PNC_LH_NOTIFY:
		break;
	case PNC_LH_PAUSE:
		/* A shorter Pause does not cut a longer one short. */
		if (now_us + parameter > lh->pause_until_us)
			lh->pause_until_us = now_us + parameter;
		break;
	case PNC_LH_RATE_REDUCE:
		lh_rate_reduce(lh, r, cfg, parameter, now_us);
		break;
	case PNC_LH_RESUME:
		lh_resume(lh, r, cfg, parameter, now_us);
		break;
	}
}

void emu_lh_tick(struct emu_lh *lh, struct emu_rate *r, const struct emu_rate_cfg *cfg,
		 uint64_t now_us)
{
	if (lh->active && cfg->lh_recovery_us && now_us >= lh->last_us &&
	    now_us - lh->last_us >= cfg->lh_recovery_us) {
		uint64_t expiry = lh->last_us + cfg->lh_recovery_us;

		lh_end(lh);
		/*
		 * Recovery periods count from the timer's expiry, not from the
		 * last cut, unless a CNP has cut since.
		 */
		if (expiry > r->last_change_us)
			r->last_change_us = expiry;
	}
	if (lh->active) {
		/* Held: no recovery periods accrue while the episode lasts. */
		if (now_us > r->last_change_us)
			r->last_change_us = now_us;
		return;
	}
	emu_rate_tick(r, cfg, now_us);
}

bool emu_lh_paused(const struct emu_lh *lh, uint64_t now_us)
{
	return now_us < lh->pause_until_us;
}

double emu_lh_effective_mbps(const struct emu_lh *lh, const struct emu_rate *r, uint64_t now_us)
{
	return emu_lh_paused(lh, now_us) ? 0.0 : r->mbps;
}

bool emu_prefix_match(const struct emu_prefix *list, size_t n, int version, const uint8_t addr[16])
{
	for (size_t i = 0; i < n; i++) {
		const struct emu_prefix *p = &list[i];
		unsigned int bytes = p->plen / 8, bits = p->plen % 8;

		if (p->version != version)
			continue;
		if (memcmp(p->addr, addr, bytes))
			continue;
		if (bits && ((p->addr[bytes] ^ addr[bytes]) & (uint8_t)(0xff << (8 - bits))))
			continue;
		return true;
	}
	return false;
}
