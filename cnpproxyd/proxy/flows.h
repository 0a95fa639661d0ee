// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Flow table of the proxy: which sender QP talks to which receiver QP.
 *
 * A congestion notification carries the invoking packet, whose BTH
 * names only the receiver's QP (doc/wire-formats.md 1.1, A15, A21).  To
 * send a CNP to the sender the proxy needs the sender's QP, learned
 * passively from packets seen on sender-facing interfaces (section 4):
 *
 *  - CM snooping (4.3): REQ C->S is kept by communication ID until the
 *    REP S->C that names it; the REP then gives both QPNs, and the
 *    P_Key comes from the REQ.  REJ, DREQ and DREP remove the state.
 *  - PSN correlation (4.4) for QPs connected out of band, see
 *    proxy/flows.c for the exact rule.
 *
 * A flow is keyed by (IP version, sender, receiver, receiver QPN), as
 * in the invoking packet: IP source, IP destination, BTH DestQP.
 *
 * Pure C, no I/O, no globals, no FRR dependency.  All memory is
 * allocated by pnc_flow_table_new(); learning never allocates, so the
 * table, the pending CM requests and the PSN windows are all bounded.
 * Not thread safe: the caller serialises access.  Timestamps are the
 * caller's monotonic clock in microseconds and must not go backwards.
 */
#ifndef _CNPPROXY_PROXY_FLOWS_H
#define _CNPPROXY_PROXY_FLOWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/cm.h"
#include "codec/roce.h"

/* Consistent PSN matches needed to pair QPs without CM (section 4.4). */
#define PNC_FLOW_PSN_MATCHES 3

/* A learned pairing.  Addresses: IPv4 in the first 4 octets, rest 0. */
struct pnc_flow {
	uint8_t ip_version; /* 4 or 6 */
	uint8_t sender[16];
	uint8_t receiver[16];
	uint32_t sender_qpn;   /* the DestQP of the CNP to build */
	uint32_t receiver_qpn; /* BTH DestQP of sender->receiver packets */
	uint16_t pkey;
	uint16_t udp_sport;  /* of the last sender->receiver packet, 0 if none */
	uint32_t flow_label; /* IPv6: of the last such packet; IPv4: 0 */
	enum pnc_flow_source {
		PNC_FLOW_CM,
		PNC_FLOW_PSN,
	} source;
	uint64_t learned_us; /* when the pairing was (re)learned */
	uint64_t last_seen_us;
	uint64_t packets; /* packets with the flow's key since it was learned */
};

/* What a learn call did; counters are in struct pnc_flow_stats. */
enum pnc_flow_result {
	PNC_FLOW_IGNORED = 0,  /* nothing to learn from this packet */
	PNC_FLOW_CM_PENDING,   /* REQ stored, waiting for its REP */
	PNC_FLOW_LEARNED_CM,   /* REP completed a pairing */
	PNC_FLOW_REMOVED,      /* REJ / DREQ / DREP removed state */
	PNC_FLOW_PSN_OBSERVED, /* PSN window or evidence updated, no pair yet */
	PNC_FLOW_LEARNED_PSN,  /* PSN evidence paired (or re-paired) a flow */
	PNC_FLOW_REFRESHED,    /* packet of a known flow, nothing new */
	PNC_FLOW_TABLE_FULL,   /* a pairing was refused: no free flow */
};

struct pnc_flow_config {
	size_t max_flows;
	size_t max_cm_pending;	  /* 0: max_flows / 4 + 1 */
	size_t max_psn_windows;	  /* 0: max_flows */
	uint64_t idle_timeout_us; /* 0: nothing ages */
	unsigned int psn_matches; /* 0: PNC_FLOW_PSN_MATCHES */
	uint64_t hash_seed;	  /* random per process makes chains hard to aim at */
};

struct pnc_flow_stats {
	/* gauges */
	size_t flows;
	size_t cm_pending;
	size_t psn_windows;
	/* counters */
	uint64_t learned_cm;	     /* flows installed or updated from CM */
	uint64_t learned_psn;	     /* flows installed or re-paired from PSNs */
	uint64_t cm_rep_unmatched;   /* REP without a stored REQ */
	uint64_t cm_removed;	     /* flows and REQs removed by REJ/DREQ/DREP */
	uint64_t table_full;	     /* pairings refused for lack of room */
	uint64_t cm_pending_evicted; /* oldest REQ dropped to store a new one */
	uint64_t psn_evicted;	     /* oldest PSN window dropped for a new one */
	uint64_t psn_ambiguous;	     /* ACK PSN inside several windows */
	uint64_t psn_conflicts;	     /* evidence for another sender QP: restart */
	uint64_t aged_flows;
	uint64_t aged_cm_pending;
	uint64_t aged_psn_windows;
	uint64_t lookups;
	uint64_t lookup_misses;
};

struct pnc_flow_table;

/* NULL if max_flows is 0 or too large, or on allocation failure. */
extern struct pnc_flow_table *pnc_flow_table_new(size_t max_flows, uint64_t idle_timeout_us);
extern struct pnc_flow_table *pnc_flow_table_new_config(const struct pnc_flow_config *cfg);
extern void pnc_flow_table_free(struct pnc_flow_table *t);

/*
 * Learn from a CM MAD seen in either direction.  Returns an enum
 * pnc_flow_result.  A pairing installs both directions (C->S and S->C):
 * an RC connection carries data both ways and either end may be the
 * sender that a notification is about.
 */
extern int pnc_flow_learn_cm(struct pnc_flow_table *t, const struct pnc_cm_packet *cm,
			     uint64_t now_us);

/*
 * Learn from a RoCEv2 packet seen in either direction: refresh the flow
 * its key names, track RC request PSNs, and use ACK / NAK / READ
 * response PSNs as pairing evidence.  Returns an enum pnc_flow_result.
 */
extern int pnc_flow_learn_roce(struct pnc_flow_table *t, const struct pnc_roce_view *v,
			       uint64_t now_us);

/*
 * The flow of an invoking packet (IP source, IP destination, BTH
 * DestQP), or NULL.  A flow idle longer than the timeout is not
 * returned even if not aged yet.  Does not refresh the flow: a
 * notification is not traffic.  The pointer is valid until the next
 * call that changes the table.
 */
extern const struct pnc_flow *pnc_flow_lookup(struct pnc_flow_table *t, uint8_t ip_version,
					      const uint8_t sender[16], const uint8_t receiver[16],
					      uint32_t receiver_qpn, uint64_t now_us);

/* Drop flows, pending REQs and PSN windows idle longer than the timeout. */
extern void pnc_flow_table_age(struct pnc_flow_table *t, uint64_t now_us);

extern size_t pnc_flow_table_count(const struct pnc_flow_table *t);
/* Most flows it holds (max_flows), and all the memory it holds: fixed at creation. */
extern size_t pnc_flow_table_capacity(const struct pnc_flow_table *t);
extern size_t pnc_flow_table_bytes(const struct pnc_flow_table *t);

/* Call cb for every flow; cb must not change the table. */
extern void pnc_flow_table_walk(const struct pnc_flow_table *t,
				void (*cb)(const struct pnc_flow *f, void *arg), void *arg);

/*
 * Walks that stop and resume (the northbound's pages): the flow in the
 * first used slot at or after *slot, which becomes its slot, or NULL
 * past the end; and the slot of the flow with a key, whatever its age.
 * Slots stay put while the table does not change.
 */
extern const struct pnc_flow *pnc_flow_table_next(const struct pnc_flow_table *t, uint32_t *slot);
extern bool pnc_flow_table_slot(const struct pnc_flow_table *t, uint8_t ip_version,
				const uint8_t sender[16], const uint8_t receiver[16],
				uint32_t receiver_qpn, uint32_t *slot);

/*
 * A learned flow as kept across a restart of the daemon: the flow and,
 * for a CM pairing, the communication IDs its DREQ/DREP/REJ will name.
 */
struct pnc_flow_saved {
	struct pnc_flow f;
	uint32_t sender_comm, receiver_comm;
};

/* Call cb for every flow with what pnc_flow_table_restore() takes back. */
extern void pnc_flow_table_walk_saved(const struct pnc_flow_table *t,
				      void (*cb)(const struct pnc_flow_saved *s, void *arg),
				      void *arg);
/*
 * Put a saved flow back, with its times (CLOCK_MONOTONIC survives a
 * daemon restart; times ahead of now_us are taken as now_us).  Returns
 * PNC_FLOW_LEARNED_CM / _PSN, PNC_FLOW_REFRESHED if it was there
 * already, PNC_FLOW_TABLE_FULL, or PNC_FLOW_IGNORED for a record that
 * makes no flow (version, QPNs out of range).
 */
extern int pnc_flow_table_restore(struct pnc_flow_table *t, const struct pnc_flow_saved *s,
				  uint64_t now_us);

/* Forget every flow and pending state; counters are kept. */
extern void pnc_flow_table_clear(struct pnc_flow_table *t);

extern void pnc_flow_table_stats(const struct pnc_flow_table *t, struct pnc_flow_stats *out);

/*
 * Changes whenever a flow comes, goes, or changes what a CNP to its
 * sender would carry (QP, P_Key, UDP source port): a copy made at one
 * generation is still exact while the generation is the same.
 */
extern uint64_t pnc_flow_table_generation(const struct pnc_flow_table *t);

/* Stable short name of a result ("learned-cm", ...), for debug output. */
extern const char *pnc_flow_result_str(int result);

#endif /* _CNPPROXY_PROXY_FLOWS_H */
