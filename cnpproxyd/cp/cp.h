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
enum cnpproxy_cp_counter {
	CNPPROXY_CP_POLLS = 0,	       /* qdisc readings */
	CNPPROXY_CP_POLL_ERRORS,       /* readings that failed */
	CNPPROXY_CP_ONSETS,	       /* idle -> marking / congested */
	CNPPROXY_CP_CONGESTED,	       /* second level reached */
	CNPPROXY_CP_RESUMES,	       /* back to idle */
	CNPPROXY_CP_SAMPLES,	       /* packets sampled by the egress program */
	CNPPROXY_CP_SAMPLE_MALFORMED,  /* samples that did not parse as RoCEv2 */
	CNPPROXY_CP_NOTIF_SENT,	       /* five-tuple notifications to a proxy */
	CNPPROXY_CP_FCN_SENT,	       /* flow-label notifications to a tunnel source */
	CNPPROXY_CP_FALLBACK_SENT,     /* of the five-tuple ones, to the fallback proxy */
	CNPPROXY_CP_NO_PROXY,	       /* no proxy known, no fallback: nothing sent */
	CNPPROXY_CP_FLOW_INTERVAL,     /* suppressed: flow notified too recently */
	CNPPROXY_CP_SMALL_FLOW,	       /* suppressed: flow contributes little to the queue */
	CNPPROXY_CP_RATE_LIMITED,      /* suppressed: interface rate limit */
	CNPPROXY_CP_COLLAB_HELD,       /* suppressed: collaborative suppression */
	CNPPROXY_CP_COLLAB_DEFERRED,   /* episodes where another node's action was seen */
	CNPPROXY_CP_COLLAB_ESCALATED,  /* ... and the queue grew all the same */
	CNPPROXY_CP_DIRECT_SENT,       /* sent to the sender by this router's proxy role */
	CNPPROXY_CP_DIRECT_SUPPRESSED, /* ... held back by its level policy or interval */
	CNPPROXY_CP_DIRECT_UNKNOWN,    /* ... not sent: it has not learned the flow */
	CNPPROXY_CP_DIRECT_RESUMES,    /* Resume (or withdrawn advice) once the queue drained */
	CNPPROXY_CP_SEND_ERROR,	       /* the kernel refused the datagram */
	CNPPROXY_CP_COUNTER_MAX,
};

extern const char *cnpproxy_cp_counter_name(enum cnpproxy_cp_counter c);

/* A watched interface, as the show commands see it. */
struct cnpproxy_cp_if_view {
	const struct pnc_cp_if_config *cfg;
	int ifindex;
	const char *not_operational;	     /* NULL: running */
	const char *attach;		     /* "tcx", "tc-filter"; NULL: not attached */
	const struct pnc_qmon_sample *qdisc; /* NULL before the first reading */
	const struct pnc_qmon_rates *rates;
	uint64_t link_bps;
	const struct pnc_cp_thresholds *thr;
	const struct pnc_cp_machine *machine;
	const struct pnc_cp_collab *collab;
	uint32_t ect1_prob, ce_prob; /* marking in force */
	bool sampling;
	uint8_t level;	       /* congestion level of notifications now */
	uint32_t ecn_permille; /* marked share of ECN-capable packets, last poll */
	uint64_t peak_backlog;
	uint64_t avg_backlog; /* the average queue (seed 003 marks on it) */
	uint64_t last_onset_us, last_resume_us, last_notify_us; /* 0 never */
	const uint64_t *counters;				/* [CNPPROXY_CP_COUNTER_MAX] */
};

extern void cnpproxy_cp_init(void);
extern void cnpproxy_cp_fini(void);
/* Follow the configuration (cnpproxy_g.cfg.cp and the role flag). */
struct pnc_config;
extern void cnpproxy_cp_apply(const struct pnc_config *cfg);
/* The configuration the last apply handed, for the show commands. */
extern const struct pnc_config *cnpproxy_cp_config(void);
/* Why the enabled role does not run (NULL: it does). */
extern const char *cnpproxy_cp_not_operational(void);
/* Its interface at position i, for the operational state; false past the end. */
struct cnpproxy_attach_if;
extern bool cnpproxy_cp_attachment(unsigned int i, struct cnpproxy_attach_if *out);

extern unsigned int cnpproxy_cp_if_count(void);
extern bool cnpproxy_cp_if_view(unsigned int i, struct cnpproxy_cp_if_view *out);
extern void cnpproxy_cp_counters_clear(void);
/* Counters of the egress program, summed over interfaces and CPUs. */
extern bool cnpproxy_cp_prog_counters(struct pnc_mark_counters *out);
/* The egress program's kernel id, 0 when it is not loaded. */
extern uint32_t cnpproxy_cp_prog_id(void);

#endif /* _CNPPROXY_CP_CP_H */
