// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Queue monitor of the congestion-point role: statistics of an
 * interface's root qdisc read over rtnetlink (plain NETLINK_ROUTE, no
 * libnl), and the rates derived from two readings.  No FRR dependency, so
 * that cnpproxyd and the pnc-qmon tool share it.
 *
 * struct pnc_qmon_sample is the interface between a queue source and the
 * trigger logic: the netlink reader below is one source, a hardware
 * driver (switch ASIC counters, NIC queue telemetry) can fill the same
 * struct and use pnc_qmon_derive() unchanged.  Counters only ever go up
 * (and may wrap); backlog is a level.
 *
 * Three layers, each usable alone:
 *   parsers  pnc_qmon_parse_qdisc/_class: one netlink message, no I/O
 *   socket   pnc_qmon_open/begin/continue/close: dump, pick the root,
 *            fill a sample, without ever blocking (pnc_qmon_read: the
 *            same, waiting for the replies, for tools)
 *   derive   pnc_qmon_derive: rates from two samples, no I/O
 *
 * Not thread safe: one thread owns a struct pnc_qmon.
 */
#ifndef _CNPPROXY_CP_QMON_H
#define _CNPPROXY_CP_QMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PNC_QMON_KIND_LEN 16 /* IFNAMSIZ, like the kernel's qdisc ids */

struct pnc_qmon_sample {
	int ifindex;
	char kind[PNC_QMON_KIND_LEN]; /* "tbf", "htb", "noqueue", ... */
	uint64_t bytes, packets;      /* sent (dequeued) since creation */
	uint32_t drops, overlimits, requeues;
	uint32_t backlog_bytes, backlog_pkts; /* queued now */
	/* shaping rate configured (TBF rate, HTB root class rate), 0 if unknown */
	uint64_t rate_bps;
	uint64_t ts_us; /* CLOCK_MONOTONIC of the reading */
};

/* Where a qdisc or class sits, from its struct tcmsg. */
struct pnc_qmon_id {
	int ifindex;
	uint32_t handle;
	uint32_t parent; /* TC_H_ROOT for a root qdisc / a class under it */
};

/* What cnpproxyd needs of a class: HTB's configured rates. */
struct pnc_qmon_class {
	struct pnc_qmon_id id;
	char kind[PNC_QMON_KIND_LEN];
	uint64_t rate_bps; /* HTB rate (TCA_HTB_RATE64 wins); 0 for other kinds */
	uint64_t ceil_bps; /* HTB ceil (TCA_HTB_CEIL64 wins); 0 for other kinds */
};

/*
 * Errors of the parsers and of pnc_qmon_derive().  They sit below -1000
 * so that pnc_qmon_read() can return them next to -errno values; within
 * the range they are dense: PNC_QMON_E_BASE - err indexes a counter.
 */
enum pnc_qmon_err {
	PNC_QMON_E_BASE = -1000,
	PNC_QMON_E_INVALID_ARG = -1001,
	PNC_QMON_E_NLMSG_TRUNCATED = -1002, /* shorter than a struct nlmsghdr */
	PNC_QMON_E_NLMSG_LEN = -1003,	    /* nlmsg_len below the header or past the buffer */
	PNC_QMON_E_MSG_TYPE = -1004,	    /* not RTM_NEWQDISC / RTM_NEWTCLASS */
	PNC_QMON_E_TCMSG_TRUNCATED = -1005,
	PNC_QMON_E_ATTR_LEN = -1006, /* rta_len below 4 or past its container */
	PNC_QMON_E_KIND_LEN = -1007, /* TCA_KIND empty, unterminated or too long */
	PNC_QMON_E_NO_KIND = -1008,
	PNC_QMON_E_STATS2_LEN = -1009,	    /* a nested TCA_STATS2 attribute overruns it */
	PNC_QMON_E_STATS_BASIC_LEN = -1010, /* TCA_STATS_BASIC shorter than its fields */
	PNC_QMON_E_STATS_QUEUE_LEN = -1011, /* TCA_STATS_QUEUE shorter than gnet_stats_queue */
	PNC_QMON_E_STATS_PKT64_LEN = -1012,
	PNC_QMON_E_STATS_LEN = -1013,	/* legacy TCA_STATS shorter than struct tc_stats */
	PNC_QMON_E_NO_STATS = -1014,	/* neither TCA_STATS2 nor TCA_STATS */
	PNC_QMON_E_OPTIONS_LEN = -1015, /* a nested TCA_OPTIONS attribute overruns it */
	PNC_QMON_E_TBF_PARMS_LEN = -1016,
	PNC_QMON_E_TBF_RATE64_LEN = -1017,
	PNC_QMON_E_HTB_PARMS_LEN = -1018,
	PNC_QMON_E_HTB_RATE64_LEN = -1019,
	PNC_QMON_E_HTB_CEIL64_LEN = -1020,
	PNC_QMON_E_NO_ROOT = -1021,  /* pnc_qmon_read: no root qdisc on the interface */
	PNC_QMON_E_DT_ZERO = -1022,  /* pnc_qmon_derive: no time between the samples */
	PNC_QMON_E_MISMATCH = -1023, /* pnc_qmon_derive: other interface or qdisc kind */
	PNC_QMON_E_LAST = PNC_QMON_E_MISMATCH,
};

/* A stable identifier for err (one of the above, or a -errno). */
extern const char *pnc_qmon_strerror(int err);

/*
 * The tcmsg of an RTM_NEWQDISC / RTM_NEWTCLASS message of len bytes (at
 * least nlmsg_len).  0 or a PNC_QMON_E_*; *type gets nlmsg_type.
 */
extern int pnc_qmon_parse_id(const void *nlmsg, size_t len, uint16_t *type, struct pnc_qmon_id *id);

/*
 * An RTM_NEWQDISC message: kind, statistics (TCA_STATS2's BASIC, PKT64
 * and QUEUE, else legacy TCA_STATS), and for tbf the rate of TCA_OPTIONS.
 * ts_us is left 0 and rate_bps is 0 for kinds without a rate of their
 * own (htb: see pnc_qmon_parse_class()).  Reads nothing outside
 * [nlmsg, nlmsg + len).  0 or a PNC_QMON_E_*.
 */
extern int pnc_qmon_parse_qdisc(const void *nlmsg, size_t len, struct pnc_qmon_sample *out);

/* An RTM_NEWTCLASS message, with HTB's rate and ceil.  0 or a PNC_QMON_E_*. */
extern int pnc_qmon_parse_class(const void *nlmsg, size_t len, struct pnc_qmon_class *out);

/* --- netlink reader ------------------------------------------------------ */

struct pnc_qmon;

/* A NETLINK_ROUTE socket of the caller's network namespace; NULL + errno. */
extern struct pnc_qmon *pnc_qmon_open(void);
extern void pnc_qmon_close(struct pnc_qmon *qm);

/* pnc_qmon_continue(): the reading goes on, wait for pnc_qmon_fd(). */
#define PNC_QMON_PENDING 1

/*
 * Start reading the root qdisc of ifindex: send the request.  A reading
 * still under way is abandoned (its replies are skipped).  0 or -errno.
 */
extern int pnc_qmon_begin(struct pnc_qmon *qm, int ifindex);
/*
 * Take in the replies waiting on the socket.  PNC_QMON_PENDING while the
 * reading is incomplete; 0 when *out holds it; else it failed: -errno or
 * a PNC_QMON_E_* (PNC_QMON_E_NO_ROOT: no such interface or no qdisc).
 * For htb, rate_bps is the sum of the rates of the classes right under
 * the root (what the root may send without borrowing).
 */
extern int pnc_qmon_continue(struct pnc_qmon *qm, struct pnc_qmon_sample *out);
/* Readable when replies wait (non-blocking socket). */
extern int pnc_qmon_fd(const struct pnc_qmon *qm);
/* begin, then continue until done, waiting up to 2 s for each reply. */
extern int pnc_qmon_read(struct pnc_qmon *qm, int ifindex, struct pnc_qmon_sample *out);

/* Messages the reader skipped as malformed since open (never expected). */
extern uint64_t pnc_qmon_bad_messages(const struct pnc_qmon *qm);

/* --- derived rates -------------------------------------------------------- */

struct pnc_qmon_rates {
	uint64_t dt_us;
	/* Counter deltas, modulo their width, so that a wrap is no jump. */
	uint64_t d_bytes, d_packets;
	uint32_t d_drops, d_overlimits;
	uint64_t tx_bps; /* dequeue rate, bits/s */
	uint64_t tx_pps;
	int64_t growth_Bps;    /* backlog change, bytes/s; negative when draining */
	uint64_t drop_pps;     /* drops/s */
	uint64_t overlimit_ps; /* overlimits/s (TBF/HTB: throttled dequeues) */
	/* From cur: time to drain the backlog at rate_bps, and tx_bps over it. */
	uint64_t qdelay_us;	/* 0 if rate_bps is 0 */
	uint32_t util_permille; /* 0 if rate_bps is 0 */
	bool valid;		/* false: every rate above is 0, see the return */
};

/*
 * Rates from prev to cur (cur later).  0, PNC_QMON_E_DT_ZERO (cur not
 * later than prev) or PNC_QMON_E_MISMATCH (other ifindex or kind, i.e.
 * the counters are not comparable); in both cases out->valid is false
 * and only dt_us is set.
 */
extern int pnc_qmon_derive(const struct pnc_qmon_sample *prev, const struct pnc_qmon_sample *cur,
			   struct pnc_qmon_rates *out);

#endif /* _CNPPROXY_CP_QMON_H */
