// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd proxy role: which message a sender understands, and what a
 * notification of a given Congestion Level becomes in that message
 * (doc/cnpproxyd.md, "Sender formats and congestion levels").
 *
 * Pure C, no FRR dependency, no I/O: unit-tested directly.
 */
#ifndef _CNPPROXY_PROXY_SENDER_H
#define _CNPPROXY_PROXY_SENDER_H

#include <stdbool.h>
#include <stdint.h>

#include "cnpproxy_config.h"

/* What to send a sender for one notification. */
struct pnc_reaction {
	bool send;		 /* false: a light notification the policy leaves alone */
	bool severe;		 /* the level is at or above severe_level */
	uint8_t interval_factor; /* the per-QP minimum interval is multiplied by it */
	uint8_t lh_level;	 /* Long-haul: 0-255 */
	uint8_t lh_action;	 /* Long-haul: enum pnc_lh_action */
	uint16_t lh_parameter;	 /* Long-haul */
	uint32_t ra_rate;	 /* rate advice, Mb/s */
};

/* The policy's defaults, as the YANG module has them (for tests). */
extern void pnc_level_policy_init(struct pnc_level_policy *p);

/*
 * The most specific sender prefix holding addr (IPv4: first 4 octets),
 * or a rocev2-cnp sender without options if none does; never NULL.
 */
extern const struct pnc_sender *pnc_sender_of(const struct pnc_sender *senders, unsigned int n,
					      uint8_t family, const uint8_t *addr);
/* Its format. */
extern enum pnc_sender_format pnc_sender_format_of(const struct pnc_sender *senders, unsigned int n,
						   uint8_t family, const uint8_t *addr);

/*
 * The reaction that tells a sender of the format the congestion has
 * gone (a Resume):
 *  - Long-haul: Resume, parameter lh_resume_share, level 0;
 *  - rate advice: ra_max_rate, the advice of a level 0 queue; never 0
 *    (seed 004: the Rate is a rate, 0 would stop the sender);
 *  - rocev2-cnp: nothing to send (DCQCN recovers on its own).
 */
extern void pnc_resume_for(const struct pnc_level_policy *p, enum pnc_sender_format fmt,
			   struct pnc_reaction *r);

/*
 * The reaction to a notification of level cl (0-7) for a sender of the
 * format; a light one (below severe_level) sends nothing unless
 * light_to_sender is set, and then:
 *  - rocev2-cnp: severe, a CNP each minimum interval; light, one per
 *    light_cnp_pacing intervals, or none when it is 0;
 *  - Long-haul: level 1 + cl * 254 / 7; severe, Rate Reduce by
 *    lh_severe_reduce percent plus lh_reduce_step per level above
 *    severe_level (at most 100), or at level 7 with lh_pause_us set,
 *    Pause that long; light, Notify or Rate Reduce by lh_light_reduce
 *    percent (lh_light_action);
 *  - rate advice: ra_max_rate * (8 - cl) / 8, at least 1 Mb/s.
 * Long-haul and rate advice keep the minimum interval as it is: their
 * message itself says how hard to react.
 */
extern void pnc_reaction_for(const struct pnc_level_policy *p, enum pnc_sender_format fmt,
			     uint8_t cl, struct pnc_reaction *r);

/*
 * This router's own congestion point knows its queue: the Long-haul
 * level of its depth (pnc_cp_lh_level()) goes on the wire as it is in a
 * Resume, and in place of the notification's level when higher.
 */
extern void pnc_reaction_at_depth(struct pnc_reaction *r, uint8_t depth_level);

#endif /* _CNPPROXY_PROXY_SENDER_H */
