// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd proxy role (PN): receive congestion notifications, resolve
 * the sender's queue pair from the flow table, send it a RoCEv2 CNP.
 */
#ifndef _CNPPROXY_PROXY_PROXY_H
#define _CNPPROXY_PROXY_PROXY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/errors.h"
#include "proxy/resume.h"

/* Every outcome of a received notification has a counter. */
enum cnpproxy_proxy_counter {
	CNPPROXY_PROXY_RX = 0,	    /* five-tuple notifications received */
	CNPPROXY_PROXY_RX_FCN,	    /* flow-label notifications received */
	CNPPROXY_PROXY_RX_ICMP,	    /* ... of the five-tuple ones, in their ICMP form */
	CNPPROXY_PROXY_RX_LOCAL,    /* congestion reports from this router's congestion point */
	CNPPROXY_PROXY_RX_OVERFLOW, /* dropped by the kernel: socket receive buffer full */
	CNPPROXY_PROXY_RX_XSK, /* ... of the received, from AF_XDP sockets (fast-path af-xdp) */
	CNPPROXY_PROXY_RX_XSK_DROPPED, /* dropped by the kernel: AF_XDP ring full, no fill buffer */
	CNPPROXY_PROXY_XDP_DENIED,     /* dropped at the driver: source not permitted */
	CNPPROXY_PROXY_XDP_RL_SOURCE,  /* dropped at the driver: per-source rate limit */
	CNPPROXY_PROXY_XDP_HDR_CHAIN,  /* dropped at the driver: IPv6 header chain too long */
	CNPPROXY_PROXY_NO_ACCEPT_LIST, /* dropped: no accept-prefix-list configured */
	CNPPROXY_PROXY_SOURCE_DENIED,  /* dropped: source not permitted */
	CNPPROXY_PROXY_RL_SOURCE,      /* dropped: per-source rate limit */
	CNPPROXY_PROXY_RL_GLOBAL,      /* dropped: global rate limit */
	CNPPROXY_PROXY_MALFORMED,      /* dropped: did not decode (reasons below) */
	CNPPROXY_PROXY_NO_INVOKING,    /* dropped: no RoCEv2 invoking packet to resolve */
	CNPPROXY_PROXY_UNKNOWN_FLOW,   /* dropped: no learned flow for it */
	CNPPROXY_PROXY_FCN_UNRESOLVED, /* dropped: flow label not allocated by this proxy */
	CNPPROXY_PROXY_NO_CNP_SOURCE,  /* dropped: no CNP source address of the family */
	CNPPROXY_PROXY_MIN_INTERVAL,   /* suppressed: CNP to that QP too recently */
	CNPPROXY_PROXY_LIGHT,	       /* suppressed: light notification, level policy */
	CNPPROXY_PROXY_SHAPED_LOCALLY, /* light, tunnelled here: slowed at this PE (seed 003) */
	CNPPROXY_PROXY_RESUMES,	       /* Resumes (or full advice) sent: drained, or quiet */
	CNPPROXY_PROXY_CNP_SENT,       /* standard CNPs sent */
	CNPPROXY_PROXY_XDP_SENT,       /* ... of which from the driver (fast-path xdp) */
	CNPPROXY_PROXY_XDP_PASSED,     /* fast-path xdp: left to the socket path */
	CNPPROXY_PROXY_LH_ICMP6_SENT,  /* Long-haul CNPs sent, ICMPv6 form */
	CNPPROXY_PROXY_LH_ROCE_SENT,   /* Long-haul CNPs sent, RoCEv2 form */
	CNPPROXY_PROXY_RA_SENT,	       /* rate advice messages sent */
	CNPPROXY_PROXY_TX_XSK,	       /* ... of the messages sent, by AF_XDP (fast-path af-xdp) */
	CNPPROXY_PROXY_SEND_ERROR,     /* messages the kernel refused */
	CNPPROXY_PROXY_COUNTER_MAX,
};

struct cnpproxy_proxy_counters {
	uint64_t c[CNPPROXY_PROXY_COUNTER_MAX];
	uint64_t malformed[PNC_CODEC_NERR]; /* indexed by -reason */
};

/* Datagrams (and CNPs) per burst of the fast path. */
#define CNPPROXY_PROXY_BATCH 32

/* The counter's JSON key / text label. */
extern const char *cnpproxy_proxy_counter_name(enum cnpproxy_proxy_counter c);

/* (Re)open or close sockets after a configuration change. */
struct pnc_config;
extern void cnpproxy_proxy_apply(const struct pnc_config *cfg);
extern void cnpproxy_proxy_init(void);
extern void cnpproxy_proxy_fini(void);
/* Why the role does not run, or NULL if it does. */
extern const char *cnpproxy_proxy_not_operational(void);
extern void cnpproxy_proxy_counters_clear(void);
/*
 * Every counter's value, wherever it is kept (cnpproxy_proxy_counters, or the XDP
 * program's per-CPU counters, read once for all of them).
 */
extern void cnpproxy_proxy_counter_values(struct cnpproxy_proxy_counters *v);
/* How many times the counters were cleared: a snapshot older than a clear is stale. */
extern uint64_t cnpproxy_proxy_counters_cleared(void);


/*
 * One Ethernet frame from an AF_XDP socket (proxy/xdp/xsk.c) through the
 * pipeline, then the CNPs it queued out: on the fast-path thread, with
 * cnpproxy_fp_mtx held.
 */
extern void cnpproxy_proxy_frame(void *arg, const uint8_t *frame, uint32_t len);
extern void cnpproxy_proxy_flush(void);

/*
 * The flow table.  Only the main thread changes it (learning, ageing,
 * configuration), under cnpproxy_fp_mtx; the fast path only looks up
 * in it (counting its lookups), under the mutex too.  The main thread
 * reads it without the mutex, apart from its statistics.
 */
struct pnc_flow_table;
/* The learned flows, for show and the operational state; NULL while the role is off. */
extern const struct pnc_flow_table *cnpproxy_proxy_flows(void);

/*
 * This router's own congestion point reports to the proxy role
 * in-process: it is the proxy of its own senders (seed 001), or sends
 * to the source directly (seed 000).  No accept-list or per-source
 * bucket applies: the congestion point's own limits do.
 */

/* What the congestion point knows of its queue. */
struct cnpproxy_proxy_queue_report {
	uint8_t lh_level; /* Long-haul level of the depth, pnc_cp_lh_level() */
	uint8_t type;	  /* Long-haul Metric Type, enum pnc_lh_metric */
	uint32_t value;	  /* ... and value */
	/* Rate advice: the flow's share of the drain rate, Mb/s, in place of max-rate. */
	uint32_t advice_mbps;
};


enum cnpproxy_proxy_local_result {
	CNPPROXY_PROXY_LOCAL_OFF,	   /* the proxy role does not run */
	CNPPROXY_PROXY_LOCAL_UNKNOWN_FLOW, /* no learned flow: nothing sent */
	CNPPROXY_PROXY_LOCAL_SUPPRESSED,   /* the level policy or the minimum interval */
	CNPPROXY_PROXY_LOCAL_SENT,	   /* the sender's message left */
};

struct pnc_roce_view;

/* Whether the proxy role can take reports now. */
extern bool cnpproxy_proxy_local_ready(void);
/* Congestion of level cl met by the invoking packet inv. */
extern enum cnpproxy_proxy_local_result
cnpproxy_proxy_local(const struct pnc_roce_view *inv, uint8_t cl,
		     const struct cnpproxy_proxy_queue_report *metric);
/*
 * The queue has drained: a Long-haul Resume, or withdrawn rate advice,
 * to the flow's sender.  False when nothing was sent (a standard CNP
 * sender, or the flow is gone).
 */
extern bool cnpproxy_proxy_local_resume(const struct cnpproxy_resume_flow_ref *ref,
					const struct cnpproxy_proxy_queue_report *metric);

#endif /* _CNPPROXY_PROXY_PROXY_H */
