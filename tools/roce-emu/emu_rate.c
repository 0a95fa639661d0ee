// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DCQCN-like rate reaction of roce-emu's requester.
 */
#include "emu_rate.h"

void emu_rate_init(struct emu_rate *r, const struct emu_rate_cfg *cfg, uint64_t now_us)
{
	r->mbps = cfg->line_mbps;
	r->alpha = 1.0;
	r->last_change_us = now_us;
	r->cuts = 0;
}

void emu_rate_on_cnp(struct emu_rate *r, const struct emu_rate_cfg *cfg, uint64_t now_us)
{
	r->alpha = (1.0 - cfg->g) * r->alpha + cfg->g;
	r->mbps *= 1.0 - r->alpha / 2.0;
	if (r->mbps < cfg->min_mbps)
		r->mbps = cfg->min_mbps;
	r->last_change_us = now_us;
	r->cuts++;
}

void emu_rate_tick(struct emu_rate *r, const struct emu_rate_cfg *cfg, uint64_t now_us)
{
	/* now_us may predate a cut made while it was being used. */
	if (!cfg->recovery_us || now_us < r->last_change_us)
		return;
	while (now_us - r->last_change_us >= cfg->recovery_us) {
		r->alpha *= 1.0 - cfg->g;
		r->mbps += cfg->ai_mbps;
		if (r->mbps > cfg->line_mbps)
			r->mbps = cfg->line_mbps;
		r->last_change_us += cfg->recovery_us;
	}
}
