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
enum pn_counter {
	PN_RX = 0,	   /* five-tuple notifications received */
	PN_RX_FCN,	   /* flow-label notifications received */
	PN_RX_ICMP,	   /* ... of the five-tuple ones, in their ICMP form */
	PN_RX_LOCAL,	   /* congestion reports from this router's congestion point */
	PN_RX_OVERFLOW,	   /* dropped by the kernel: socket receive buffer full */
	PN_RX_XSK,	   /* ... of the received, from AF_XDP sockets (fast-path af-xdp) */
	PN_RX_XSK_DROPPED, /* dropped by the kernel: AF_XDP ring full, no fill buffer */
	PN_XDP_DENIED,	   /* dropped at the driver: source not permitted */
	PN_XDP_RL_SOURCE,  /* dropped at the driver: per-source rate limit */
	PN_XDP_HDR_CHAIN,  /* dropped at the driver: IPv6 header chain too long */
	PN_NO_ACCEPT_LIST, /* dropped: no accept-prefix-list configured */
	PN_SOURCE_DENIED,  /* dropped: source not permitted */
	PN_RL_SOURCE,	   /* dropped: per-source rate limit */
	PN_RL_GLOBAL,	   /* dropped: global rate limit */
	PN_MALFORMED,	   /* dropped: did not decode (reasons below) */
	PN_NO_INVOKING,	   /* dropped: no RoCEv2 invoking packet to resolve */
	PN_UNKNOWN_FLOW,   /* dropped: no learned flow for it */
	PN_FCN_UNRESOLVED, /* dropped: flow label not allocated by this proxy */
	PN_NO_CNP_SOURCE,  /* dropped: no CNP source address of the family */
	PN_MIN_INTERVAL,   /* suppressed: CNP to that QP too recently */
	PN_LIGHT,	   /* suppressed: light notification, level policy */
	PN_SHAPED_LOCALLY, /* light, tunnelled here: slowed at this PE (seed 003) */
	PN_RESUMES,	   /* Resumes (or full advice) sent: drained, or quiet */
	PN_CNP_SENT,	   /* standard CNPs sent */
	PN_XDP_SENT,	   /* ... of which from the driver (fast-path xdp) */
	PN_XDP_PASSED,	   /* fast-path xdp: left to the socket path */
	PN_LH_ICMP6_SENT,  /* Long-haul CNPs sent, ICMPv6 form */
	PN_LH_ROCE_SENT,   /* Long-haul CNPs sent, RoCEv2 form */
	PN_RA_SENT,	   /* rate advice messages sent */
	PN_TX_XSK,	   /* ... of the messages sent, by AF_XDP (fast-path af-xdp) */
	PN_SEND_ERROR,	   /* messages the kernel refused */
	PN_COUNTER_MAX,
};

struct pn_counters {
	uint64_t c[PN_COUNTER_MAX];
	uint64_t malformed[PNC_CODEC_NERR]; /* indexed by -reason */
};

/* Datagrams (and CNPs) per burst of the fast path. */
#define PN_BATCH 32

/* The counter's JSON key / text label. */
extern const char *cnpproxy_proxy_counter_name(enum pn_counter c);

/* (Re)open or close sockets after a configuration change. */
struct cnp_config;
extern void cnpproxy_proxy_apply(const struct cnp_config *cfg);
extern void cnpproxy_proxy_init(void);
extern void cnpproxy_proxy_fini(void);
/* Why the role does not run, or NULL if it does. */
extern const char *cnpproxy_proxy_not_operational(void);
extern void cnpproxy_proxy_counters_clear(void);
/*
 * Every counter's value, wherever it is kept (pn_counters, or the XDP
 * program's per-CPU counters, read once for all of them).
 */
extern void cnpproxy_proxy_counter_values(struct pn_counters *v);
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
extern struct pnc_flow_table *pn_flows;

/*
 * This router's own congestion point reports to the proxy role
 * in-process: it is the proxy of its own senders (seed 001), or sends
 * to the source directly (seed 000).  No accept-list or per-source
 * bucket applies: the congestion point's own limits do.
 */

/* What the congestion point knows of its queue. */
struct pn_queue_report {
	uint8_t lh_level; /* Long-haul level of the depth, cp_lh_level() */
	uint8_t type;	  /* Long-haul Metric Type, enum pnc_lh_metric */
	uint32_t value;	  /* ... and value */
	/* Rate advice: the flow's share of the drain rate, Mb/s, in place of max-rate. */
	uint32_t advice_mbps;
};


enum pn_local_result {
	PN_LOCAL_OFF,	       /* the proxy role does not run */
	PN_LOCAL_UNKNOWN_FLOW, /* no learned flow: nothing sent */
	PN_LOCAL_SUPPRESSED,   /* the level policy or the minimum interval */
	PN_LOCAL_SENT,	       /* the sender's message left */
};

struct pnc_roce_view;

/* Whether the proxy role can take reports now. */
extern bool cnpproxy_proxy_local_ready(void);
/* Congestion of level cl met by the invoking packet inv. */
extern enum pn_local_result cnpproxy_proxy_local(const struct pnc_roce_view *inv, uint8_t cl,
						 const struct pn_queue_report *metric);
/*
 * The queue has drained: a Long-haul Resume, or withdrawn rate advice,
 * to the flow's sender.  False when nothing was sent (a standard CNP
 * sender, or the flow is gone).
 */
extern bool cnpproxy_proxy_local_resume(const struct pn_flow_ref *ref,
					const struct pn_queue_report *metric);

#endif /* _CNPPROXY_PROXY_PROXY_H */
