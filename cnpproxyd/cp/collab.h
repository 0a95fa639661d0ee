// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Collaborative suppression between congestion points on one path
 * (seed 000, doc/cnpproxyd.md "Collaborative suppression").
 *
 * A congestion point downstream of another sees its congestion start,
 * then its arrival rate fall within RTT_est: the upstream one has
 * already had the senders slowed.  It then defers: it holds its own
 * notifications, which would only slow the same senders twice.  If its
 * queue keeps growing for RTT_est all the same, the upstream action was
 * not enough: it escalates, notifying again one level higher.
 *
 * Our reading of the seed, whose text says no more than this: the
 * decision is per interface (the arrival rate of the queue, the sum of
 * its flows), not per flow, because the queue, not a flow, is what the
 * congestion point measures; notifications are held during the first
 * RTT_est of an episode while the rate is watched.
 *
 * Pure C, no I/O, no FRR dependency: unit-tested directly.
 */
#ifndef _CNPPROXY_CP_COLLAB_H
#define _CNPPROXY_CP_COLLAB_H

#include <stdbool.h>
#include <stdint.h>

enum pnc_cp_collab_state {
	PNC_CP_COLLAB_IDLE = 0, /* no congestion episode */
	PNC_CP_COLLAB_WATCH,	/* first RTT_est of an episode: rate watched, notifications held */
	PNC_CP_COLLAB_NOTIFY,	/* the rate did not fall: notify as usual */
	PNC_CP_COLLAB_DEFER,	/* it fell: another node acted, notifications held */
	PNC_CP_COLLAB_ESCALATE, /* deferred, yet the queue grew: notify one level higher */
	PNC_CP_COLLAB_MAX,
};

/* What one queue reading tells the machine. */
struct pnc_cp_collab_input {
	uint64_t now_us;
	bool onset;	      /* the congestion episode starts with this reading */
	bool resume;	      /* ... or ends */
	bool have_rate;	      /* arrival_Bps is measured */
	uint64_t arrival_Bps; /* dequeue rate plus backlog growth */
	uint64_t backlog;     /* octets */
	uint32_t rtt_us;      /* RTT_est */
	uint8_t fall_percent; /* a fall by this much is someone else's action */
};

/* What it changed; the counters of the interface follow from it. */
enum pnc_cp_collab_event {
	PNC_CP_COLLAB_EV_NONE = 0,
	PNC_CP_COLLAB_EV_DEFERRED,
	PNC_CP_COLLAB_EV_ESCALATED,
};

struct pnc_cp_collab {
	enum pnc_cp_collab_state state;
	uint64_t since_us;	/* entered the state */
	uint64_t rate_ewma;	/* arrival rate, smoothed over readings */
	uint64_t onset_rate;	/* the smoothed rate when the episode started */
	uint64_t defer_backlog; /* the backlog when it deferred */
	bool have_ewma;
};

extern void pnc_cp_collab_init(struct pnc_cp_collab *c);

/* One queue reading: the new state, and whether it deferred or escalated. */
extern enum pnc_cp_collab_event pnc_cp_collab_step(struct pnc_cp_collab *c,
						   const struct pnc_cp_collab_input *in);

/* Whether a notification may leave now. */
static inline bool pnc_cp_collab_notify_ok(const struct pnc_cp_collab *c)
{
	return c->state != PNC_CP_COLLAB_WATCH && c->state != PNC_CP_COLLAB_DEFER;
}

/* Levels added to the notifications' Congestion Level. */
static inline uint8_t pnc_cp_collab_level_boost(const struct pnc_cp_collab *c)
{
	return c->state == PNC_CP_COLLAB_ESCALATE ? 1 : 0;
}

extern const char *pnc_cp_collab_state_name(enum pnc_cp_collab_state s);

#endif /* _CNPPROXY_CP_COLLAB_H */
