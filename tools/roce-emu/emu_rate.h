// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A DCQCN-like sender reaction, simplified: each valid CNP raises the
 * congestion estimate alpha and cuts the rate by alpha/2; each recovery
 * period without a CNP decays alpha and adds a fixed increase, up to the
 * configured rate.  On top of it, the reactions to the sender-facing
 * messages beyond the CNP: Long-haul CNP actions (seed 000) and SCONE
 * rate advice (seed 004).  Pure functions of the state, for tests.
 */
#ifndef ROCE_EMU_RATE_H
#define ROCE_EMU_RATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct emu_rate_cfg {
	double line_mbps; /* configured (maximum) rate */
	double min_mbps;  /* never below this */
	double g;	  /* alpha gain, DCQCN's 1/16 */
	double ai_mbps;	  /* additive increase per recovery period */
	uint64_t recovery_us;
	/*
	 * Long-haul recovery timer: this long without a Long-haul message
	 * ends a Long-haul reduction and hands the rate back to the normal
	 * recovery above (0: only a full Resume ends it).
	 */
	uint64_t lh_recovery_us;
};

struct emu_rate {
	double mbps;
	double alpha;
	uint64_t last_change_us; /* last cut or increase */
	uint64_t cuts;
	/* SCONE rate advice in force: recovery stops here (0: none). */
	double advice_mbps;
};

/*
 * Long-haul state of one QP.  A reduction episode starts with the first
 * Rate Reduce and ends on the recovery timer or when a Resume gives back
 * everything; while it lasts the normal recovery is held, so that only
 * Resume raises the rate, and never above cap_mbps.
 */
struct emu_lh {
	bool active;
	double cap_mbps;	 /* rate before the episode's first reduction */
	double lost_mbps;	 /* taken by Rate Reduce, not yet resumed */
	uint64_t last_us;	 /* last Long-haul message acted on */
	uint64_t pause_until_us; /* no sending before this */
};

/* A known source of Long-haul messages: an address or a prefix. */
struct emu_prefix {
	int version; /* 4 or 6 */
	uint8_t addr[16];
	unsigned int plen;
};

void emu_rate_init(struct emu_rate *r, const struct emu_rate_cfg *cfg, uint64_t now_us);
/* A valid CNP arrived. */
void emu_rate_on_cnp(struct emu_rate *r, const struct emu_rate_cfg *cfg, uint64_t now_us);
/* Time passed: recover for every full period since the last change. */
void emu_rate_tick(struct emu_rate *r, const struct emu_rate_cfg *cfg, uint64_t now_us);

/* Highest rate recovery may reach: the line rate or the advice. */
double emu_rate_ceiling(const struct emu_rate *r, const struct emu_rate_cfg *cfg);
/*
 * SCONE rate advice for this QP: the rate becomes min(line, advised);
 * 0 withdraws the advice and the normal recovery resumes from here.
 */
void emu_rate_on_advice(struct emu_rate *r, const struct emu_rate_cfg *cfg, uint32_t mbps,
			uint64_t now_us);

void emu_lh_init(struct emu_lh *lh);
/*
 * A valid Long-haul action (enum pnc_lh_action, codec/lhcnp.h) for this
 * QP: Notify counts only, Pause stops sending for parameter µs, Rate
 * Reduce cuts parameter % (not below min_mbps), Resume gives back
 * parameter % of what Rate Reduce took (0: all), up to the cap.
 */
void emu_lh_on_action(struct emu_lh *lh, struct emu_rate *r, const struct emu_rate_cfg *cfg,
		      uint8_t action, uint16_t parameter, uint64_t now_us);
/* emu_rate_tick, unless a Long-haul episode holds the rate. */
void emu_lh_tick(struct emu_lh *lh, struct emu_rate *r, const struct emu_rate_cfg *cfg,
		 uint64_t now_us);
bool emu_lh_paused(const struct emu_lh *lh, uint64_t now_us);
/* Rate the sender is held to now: 0 during a Pause. */
double emu_lh_effective_mbps(const struct emu_lh *lh, const struct emu_rate *r, uint64_t now_us);

/* Whether addr (of the given version) is in one of the n prefixes. */
bool emu_prefix_match(const struct emu_prefix *list, size_t n, int version, const uint8_t addr[16]);

#endif /* ROCE_EMU_RATE_H */
