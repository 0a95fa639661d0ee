// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Congestion point trigger policy: thresholds, the per-interface state
 * machine, ECN marking probabilities and congestion levels.
 *
 * Pure C, no I/O, no FRR dependency: the congestion point pipeline feeds
 * it queue observations and the unit tests exercise the same code.
 *
 * Facts from doc/wire-formats.md:
 *  - section 7.2 (seed 000): first level (ECN marking) when the queue is
 *    above K_min; second level (notify) when it is above K_max, or the
 *    ECN marking rate is above V_ecn, or the queue grows faster than
 *    V_growth; K_max = max(K_base, alpha * R * RTT / 8), K_min = K_max / 2
 *    by default; resume after the queue stayed below K_min for RTT.
 *  - section 6.4 (seed 003): the same two thresholds serve as T1/T2;
 *    ECT(1) with rising probability between them, CE above T2.
 *  - section 8: light congestion maps to level 2, severe to 6.
 */
#ifndef _CNPPROXY_CP_POLICY_H
#define _CNPPROXY_CP_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Probabilities handed to the marking program: 0 never .. 65536 always. */
#define PNC_CP_PROB_ONE 65536u

enum pnc_cp_threshold_mode {
	PNC_CP_THR_BDP = 0, /* K_max = max(K_base, alpha * R * RTT / 8) */
	PNC_CP_THR_STATIC,  /* K_min / K_max as configured */
};

enum pnc_cp_marking {
	PNC_CP_MARK_NONE = 0,	   /* never touch ECN */
	PNC_CP_MARK_CE,		   /* CE on ECN-capable packets above K_min */
	PNC_CP_MARK_TWO_THRESHOLD, /* seed 003: ECT(1) ramp T1..T2, CE above T2 */
	PNC_CP_MARK_MAX,
};

struct pnc_cp_policy_config {
	enum pnc_cp_threshold_mode mode;
	uint64_t k_min;	       /* bytes; static mode, 0 = k_min_percent of K_max */
	uint64_t k_max;	       /* bytes; static mode */
	uint64_t k_base;       /* bytes; floor of K_max in BDP mode */
	uint32_t alpha_milli;  /* alpha * 1000 (1000 = 1.0) */
	uint64_t rate_bps;     /* R; 0 = from the qdisc, else the link */
	uint32_t rtt_us;       /* RTT_est */
	uint8_t k_min_percent; /* K_min as a share of K_max */
	uint32_t ecn_permille; /* V_ecn, marked/ECN-capable; 0 = off */
	uint64_t growth_bps;   /* V_growth, queue growth in bytes/s; 0 = off */
	enum pnc_cp_marking marking;
};

/* Where the rate R of the BDP came from. */
enum pnc_cp_rate_source {
	PNC_CP_RATE_NONE = 0, /* unknown: K_max = K_base */
	PNC_CP_RATE_CONFIG,
	PNC_CP_RATE_QDISC,
	PNC_CP_RATE_LINK,
};

struct pnc_cp_thresholds {
	uint64_t k_min, k_max; /* bytes */
	uint64_t bdp;	       /* alpha * R * RTT / 8, 0 in static mode */
	uint64_t rate_bps;     /* the R used */
	enum pnc_cp_rate_source rate_source;
	bool from_base; /* BDP mode, K_base was the larger */
};

/*
 * Whether the thresholds say anything about the queue.  BDP-adaptive
 * thresholds with no rate known and K_base 0 are all 0: with them
 * nothing is marked, nothing notified and the machine stays idle,
 * rather than every ECN-capable packet being marked.
 */
static inline bool pnc_cp_thresholds_known(const struct pnc_cp_thresholds *thr)
{
	return thr->k_max > 0;
}

/* BDP mode, no marking, every value zero (the daemon reads them from YANG). */
extern void pnc_cp_policy_config_init(struct pnc_cp_policy_config *pc);

/*
 * Check a configuration; false with a reason for the operator (static
 * mode without K_max, K_min not below K_max, ...).
 */
extern bool pnc_cp_policy_config_valid(const struct pnc_cp_policy_config *pc, char *err,
				       size_t errlen);

/*
 * Thresholds in force.  qdisc_bps / link_bps: the shaping rate the qdisc
 * reports and the interface speed, 0 when unknown; the configured rate
 * wins, then the qdisc's (it is the real bottleneck), then the link's.
 */
extern void pnc_cp_thresholds_compute(const struct pnc_cp_policy_config *pc, uint64_t qdisc_bps,
				      uint64_t link_bps, struct pnc_cp_thresholds *out);

enum pnc_cp_state {
	PNC_CP_ST_IDLE = 0,  /* queue below K_min */
	PNC_CP_ST_MARKING,   /* first level: above K_min */
	PNC_CP_ST_CONGESTED, /* second level: notifications go out */
	PNC_CP_ST_DRAINING,  /* back under K_min, not yet for RTT_est: Resume territory */
	PNC_CP_ST_MAX,
};

/* Why the interface is (or last became) congested. */
enum pnc_cp_trigger {
	PNC_CP_TRIG_NONE = 0,
	PNC_CP_TRIG_QUEUE,  /* backlog above K_max */
	PNC_CP_TRIG_ECN,    /* marking rate above V_ecn */
	PNC_CP_TRIG_GROWTH, /* growth above V_growth */
};

/* One look at the queue. */
struct pnc_cp_observation {
	uint64_t now_us;
	uint64_t backlog;      /* bytes */
	int64_t growth_bps;    /* bytes/s, negative when draining */
	uint32_t ecn_permille; /* of ECN-capable packets, marked since last look */
	bool have_growth, have_ecn;
};

struct pnc_cp_machine {
	enum pnc_cp_state state;
	enum pnc_cp_trigger trigger;
	uint64_t since_us; /* when the state was entered */
};

/* What a step did. */
enum pnc_cp_event {
	PNC_CP_EV_NONE = 0,
	PNC_CP_EV_ONSET,     /* IDLE -> MARKING or straight to CONGESTED */
	PNC_CP_EV_CONGESTED, /* MARKING -> CONGESTED */
	PNC_CP_EV_EASED,  /* CONGESTED -> MARKING or DRAINING: no second-level condition holds */
	PNC_CP_EV_RESUME, /* DRAINING -> IDLE after RTT_est under K_min */
};

extern void pnc_cp_machine_init(struct pnc_cp_machine *m, uint64_t now_us);
/*
 * Feed one observation (seed 000 5.4).  CONGESTED (the second level)
 * while any of its conditions holds: queue above K_max, marking rate
 * above V_ecn, growth above V_growth, each on its own.  Otherwise
 * MARKING (the first level) while the queue is above K_min.  Below K_min
 * is Resume territory: DRAINING, nothing notified, and back to IDLE with
 * a Resume once the queue has stayed there for RTT_est; a queue that
 * rises again within RTT_est goes on with the same episode.
 */
extern enum pnc_cp_event pnc_cp_machine_step(struct pnc_cp_machine *m,
					     const struct pnc_cp_policy_config *pc,
					     const struct pnc_cp_thresholds *thr,
					     const struct pnc_cp_observation *obs);

/*
 * Seed 003 marks on the average queue, not the instantaneous one (its
 * 3.2.1): the average after a reading of backlog dt_us after the last,
 * an exponential moving average with time constant tau_us (RTT_est:
 * what the WAN's feedback loop can act on).  tau 0: the reading itself.
 */
extern uint64_t pnc_cp_queue_average(uint64_t avg, uint64_t backlog, uint64_t dt_us,
				     uint32_t tau_us);
/* The depth marking and notifications follow: the average in seed 003 mode. */
extern uint64_t pnc_cp_marking_depth(enum pnc_cp_marking marking, uint64_t backlog, uint64_t avg);

/*
 * Marking probabilities for the egress program at this depth.  Seed
 * 003 (two-threshold): ECT(1) rising linearly from T1 to T2; above T2
 * CE rising linearly to certain at 2 T2 (RED-like), the rest ECT(1).
 */
struct pnc_cp_marks {
	uint32_t ect1_prob; /* ECT(0)/ECT(1) -> ECT(1) */
	uint32_t ce_prob;   /* ECN-capable -> CE */
};

extern void pnc_cp_marks_compute(enum pnc_cp_marking marking, const struct pnc_cp_thresholds *thr,
				 uint64_t backlog, struct pnc_cp_marks *out);

/*
 * Whether offending packets are sampled for notifications: in the
 * second level, and in seed 003 mode from T1 on (light congestion is
 * notified too).
 */
extern bool pnc_cp_should_notify(enum pnc_cp_marking marking, const struct pnc_cp_machine *m,
				 const struct pnc_cp_thresholds *thr, uint64_t backlog);

/*
 * Congestion level 0-7 (seed 002 scale) for a notification.  Seed 003
 * mode: light (T1..T2) 2, severe (above T2) 6.  Otherwise 4 at K_max,
 * rising linearly to 7 at 2 * K_max; 4 as well when an ECN or growth
 * trigger fired below K_max.
 */
extern uint8_t pnc_cp_level(enum pnc_cp_marking marking, const struct pnc_cp_thresholds *thr,
			    uint64_t backlog);

/*
 * The level a congestion point reports to a source directly (seed 000,
 * which acts on depth and on how fast the queue grows): pnc_cp_level() of
 * the backlog the queue will hold one RTT_est from now at its current
 * growth rate, when it grows; of the backlog itself otherwise.
 */
extern uint8_t pnc_cp_level_projected(enum pnc_cp_marking marking,
				      const struct pnc_cp_thresholds *thr, uint64_t backlog,
				      int64_t growth_Bps, uint32_t rtt_us);

/*
 * Long-haul Congestion Level (0-255) of a queue depth.  Seed 000 6.1
 * leaves the scale to the node; ours is the line through 72 at K_min
 * and 172 at K_max, clamped, on which both points of section 7's
 * example lie (K_max 125 MB: 130 MB reads 180, 30 MB reads 20).  0 when
 * the thresholds say nothing.
 */
extern uint8_t pnc_cp_lh_level(const struct pnc_cp_thresholds *thr, uint64_t backlog);

/* Seed 001 carries 1-7 (0 means "not given"). */
static inline uint8_t pnc_cp_level_fcn(uint8_t level)
{
	return level ? level : 1;
}

extern const char *pnc_cp_state_name(enum pnc_cp_state s);
extern const char *pnc_cp_trigger_name(enum pnc_cp_trigger t);
extern const char *pnc_cp_marking_name(enum pnc_cp_marking m);
extern bool pnc_cp_marking_parse(const char *name, enum pnc_cp_marking *out);
extern const char *pnc_cp_rate_source_name(enum pnc_cp_rate_source s);

#endif /* _CNPPROXY_CP_POLICY_H */
