// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A DCQCN-like sender reaction, simplified: each valid CNP raises the
 * congestion estimate alpha and cuts the rate by alpha/2; each recovery
 * period without a CNP decays alpha and adds a fixed increase, up to the
 * configured rate.  Pure functions of the state, for tests.
 */
#ifndef ROCE_EMU_RATE_H
#define ROCE_EMU_RATE_H

#include <stdint.h>

struct emu_rate_cfg {
	double line_mbps; /* configured (maximum) rate */
	double min_mbps;  /* never below this */
	double g;	  /* alpha gain, DCQCN's 1/16 */
	double ai_mbps;	  /* additive increase per recovery period */
	uint64_t recovery_us;
};

struct emu_rate {
	double mbps;
	double alpha;
	uint64_t last_change_us; /* last cut or increase */
	uint64_t cuts;
};

void emu_rate_init(struct emu_rate *r, const struct emu_rate_cfg *cfg, uint64_t now_us);
/* A valid CNP arrived. */
void emu_rate_on_cnp(struct emu_rate *r, const struct emu_rate_cfg *cfg, uint64_t now_us);
/* Time passed: recover for every full period since the last change. */
void emu_rate_tick(struct emu_rate *r, const struct emu_rate_cfg *cfg, uint64_t now_us);

#endif /* ROCE_EMU_RATE_H */
