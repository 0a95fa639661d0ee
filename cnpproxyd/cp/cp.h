// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd congestion point role (CP): watch egress queues, mark ECN,
 * sample the offending RoCEv2 packets and notify their senders' proxies.
 */
#ifndef _CNPPROXY_CP_CP_H
#define _CNPPROXY_CP_CP_H

#include <stdbool.h>
#include <stdint.h>

#include "cnpproxy_config.h"
#include "cp/collab.h"
#include "cp/policy.h"
#include "cp/mark_tc.h"
#include "cp/qmon.h"

/* Every outcome on a watched interface has a counter. */
enum cp_counter {
	CP_C_POLLS = 0,		/* qdisc readings */
	CP_C_POLL_ERRORS,	/* readings that failed */
	CP_C_ONSETS,		/* idle -> marking / congested */
	CP_C_CONGESTED,		/* second level reached */
	CP_C_RESUMES,		/* back to idle */
	CP_C_SAMPLES,		/* packets sampled by the egress program */
	CP_C_SAMPLE_MALFORMED,	/* samples that did not parse as RoCEv2 */
	CP_C_NOTIF_SENT,	/* five-tuple notifications to a proxy */
	CP_C_FCN_SENT,		/* flow-label notifications to a tunnel source */
	CP_C_FALLBACK_SENT,	/* of the five-tuple ones, to the fallback proxy */
	CP_C_NO_PROXY,		/* no proxy known, no fallback: nothing sent */
	CP_C_FLOW_INTERVAL,	/* suppressed: flow notified too recently */
	CP_C_SMALL_FLOW,	/* suppressed: flow contributes little to the queue */
	CP_C_RATE_LIMITED,	/* suppressed: interface rate limit */
	CP_C_COLLAB_HELD,	/* suppressed: collaborative suppression */
	CP_C_COLLAB_DEFERRED,	/* episodes where another node's action was seen */
	CP_C_COLLAB_ESCALATED,	/* ... and the queue grew all the same */
	CP_C_DIRECT_SENT,	/* sent to the sender by this router's proxy role */
	CP_C_DIRECT_SUPPRESSED, /* ... held back by its level policy or interval */
	CP_C_DIRECT_UNKNOWN,	/* ... not sent: it has not learned the flow */
	CP_C_DIRECT_RESUMES,	/* Resume (or withdrawn advice) once the queue drained */
	CP_C_SEND_ERROR,	/* the kernel refused the datagram */
	CP_C_MAX,
};

extern const char *cp_counter_name(enum cp_counter c);

/* A watched interface, as the show commands see it. */
struct cp_if_view {
	const struct cnp_cp_if_config *cfg;
	int ifindex;
	const char *not_operational;	     /* NULL: running */
	const char *attach;		     /* "tcx", "tc-filter"; NULL: not attached */
	const struct pnc_qmon_sample *qdisc; /* NULL before the first reading */
	const struct pnc_qmon_rates *rates;
	uint64_t link_bps;
	const struct cp_thresholds *thr;
	const struct cp_machine *machine;
	const struct cp_collab *collab;
	uint32_t ect1_prob, ce_prob; /* marking in force */
	bool sampling;
	uint8_t level;	       /* congestion level of notifications now */
	uint32_t ecn_permille; /* marked share of ECN-capable packets, last poll */
	uint64_t peak_backlog;
	uint64_t avg_backlog; /* the average queue (seed 003 marks on it) */
	uint64_t last_onset_us, last_resume_us, last_notify_us; /* 0 never */
	const uint64_t *counters;				/* [CP_C_MAX] */
};

extern void cnpproxy_cp_init(void);
extern void cnpproxy_cp_fini(void);
/* Follow the configuration (cnp_g.cfg.cp and the role flag). */
struct cnp_config;
extern void cnpproxy_cp_apply(const struct cnp_config *cfg);
/* The configuration the last apply handed, for the show commands. */
extern const struct cnp_config *cnpproxy_cp_config(void);
/* Why the enabled role does not run (NULL: it does). */
extern const char *cnpproxy_cp_not_operational(void);
/* Its interface at position i, for the operational state; false past the end. */
struct cnp_attach_if;
extern bool cnpproxy_cp_attachment(unsigned int i, struct cnp_attach_if *out);

extern unsigned int cnpproxy_cp_if_count(void);
extern bool cnpproxy_cp_if_view(unsigned int i, struct cp_if_view *out);
extern void cnpproxy_cp_counters_clear(void);
/* Counters of the egress program, summed over interfaces and CPUs. */
extern bool cnpproxy_cp_prog_counters(struct pnc_mark_counters *out);
/* The egress program's kernel id, 0 when it is not loaded. */
extern uint32_t cnpproxy_cp_prog_id(void);

#endif /* _CNPPROXY_CP_CP_H */
