// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the XDP flow-learning program (learn.bpf.c) hands to user space
 * (proxy/xdp/learn_xdp.c): ring buffer records, counter indexes and the run-time
 * configuration.  Shared by both sides, so it uses only the __u8..__u64
 * types, which vmlinux.h defines for the BPF side and <linux/types.h>
 * for user space; include one of those first.
 */
#ifndef _CNPPROXY_PROXY_XDP_LEARN_ABI_H
#define _CNPPROXY_PROXY_XDP_LEARN_ABI_H

/*
 * Octets of a CM packet copied from its IP header: a CM MAD on RoCEv2
 * is UDP 288 octets, 308 from an IPv4 header and 328 from an IPv6 one.
 */
#define PNC_LEARN_CM_MAX 384

/* Ring buffer size; a power of two and a multiple of the page size. */
#define PNC_LEARN_RINGBUF_SIZE (256 * 1024)

/* Rate limiter entries (LRU: idle flows are forgotten first). */
#define PNC_LEARN_FLOWS_MAX 16384
/* Sampled AckReq requests waiting for their ACK (LRU too). */
#define PNC_LEARN_PENDING_MAX 16384

enum pnc_learn_ev_type {
	PNC_LEARN_EV_CM = 1,   /* struct pnc_learn_cm_ev */
	PNC_LEARN_EV_ROCE = 2, /* struct pnc_learn_roce_ev */
};

/* Which rate limiter a sample went through (pnc_learn_roce_ev.kind). */
enum pnc_learn_kind {
	PNC_LEARN_K_DATA_ACKREQ = 0, /* RC data with AckReq: its PSN gets echoed */
	PNC_LEARN_K_DATA_PLAIN = 1,  /* RC data without AckReq, sparse */
	PNC_LEARN_K_ACK = 2,	     /* ACKNOWLEDGE, AETH type ACK */
	PNC_LEARN_K_NAK = 3,	     /* ACKNOWLEDGE, AETH type NAK / RNR NAK */
};

struct pnc_learn_ev_hdr {
	__u8 type;	 /* enum pnc_learn_ev_type */
	__u8 ip_version; /* 4 or 6 */
	__u16 rsvd;
	__u32 ifindex; /* where the packet came in */
	__u64 ts_ns;   /* CLOCK_MONOTONIC */
};

/* Every CM MAD (UD SEND Only to QP1), from its IP header. */
struct pnc_learn_cm_ev {
	struct pnc_learn_ev_hdr hdr;
	__u32 pkt_len; /* length from the IP header (IP length field) */
	__u32 cap_len; /* octets in data: pkt_len capped to the frame and the buffer */
	__u8 data[PNC_LEARN_CM_MAX];
};

/* A sampled RC data packet or ACK/NAK.  Addresses: IPv4 in the first 4. */
struct pnc_learn_roce_ev {
	struct pnc_learn_ev_hdr hdr;
	__u8 src[16];
	__u8 dst[16];
	__u16 sport;
	__u8 opcode;
	__u8 kind;    /* enum pnc_learn_kind */
	__u8 tos;     /* TOS / Traffic Class */
	__u8 ack_req; /* BTH A bit */
	__u16 pkey;
	__u32 flow_label; /* IPv6, 20 bits; 0 for IPv4 */
	__u32 dest_qp;	  /* 24 bits */
	__u32 psn;	  /* 24 bits */
	__u8 syndrome;	  /* AETH, ACK/NAK only */
	__u8 echo;	  /* ACK whose PSN is that of a sampled AckReq request */
	__u8 rsvd[2];
	__u32 msn;     /* AETH, ACK/NAK only, 24 bits */
	__u32 echo_qp; /* echo: DestQP of that request, the peer of dest_qp */
};

/*
 * Which stages run on an interface: the program attached there is the
 * one with these stages (learn.bpf.c).
 */
enum pnc_xdp_role {
	PNC_XDP_ROLE_LEARN = 1 << 0,
	PNC_XDP_ROLE_GUARD = 1 << 1,
};

/*
 * Per-CPU counters.  Every RoCE packet lands in exactly one of CM,
 * SAMPLES, RATE_LIMITED, RB_FULL and IGNORED, or in PARSE_ERR when it
 * is cut short after the BTH.
 */
enum pnc_learn_counter {
	PNC_LEARN_C_PKTS = 0,	  /* frames seen */
	PNC_LEARN_C_ROCE,	  /* IP/UDP to 4791 with a complete BTH */
	PNC_LEARN_C_CM,		  /* CM events emitted */
	PNC_LEARN_C_SAMPLES,	  /* RoCE samples emitted */
	PNC_LEARN_C_RATE_LIMITED, /* RoCE samples suppressed by the interval */
	PNC_LEARN_C_RB_FULL,	  /* events lost: ring buffer full */
	PNC_LEARN_C_IGNORED,	  /* other opcodes, data without AckReq not due */
	PNC_LEARN_C_PARSE_ERR,	  /* truncated headers */
	/* The notification guard (guard.bpf.h), on filter interfaces. */
	PNC_LEARN_C_GUARD_PASSED,	/* notifications let through */
	PNC_LEARN_C_GUARD_DENIED,	/* dropped: source not in the accept table */
	PNC_LEARN_C_GUARD_RATE_LIMITED, /* dropped: source's bucket empty */
	PNC_LEARN_C_GUARD_HDR_CHAIN,	/* dropped: IPv6 header chain too long to walk */
	/*
	 * The translator (xlate.bpf.h).  Every notification it decides is
	 * in XLATE_RX and one of SENT, LIGHT, RL_GLOBAL, MIN_INTERVAL and
	 * TX_ERROR; the others go on to the socket path, counted in one of
	 * the PASS counters by why.
	 */
	PNC_LEARN_C_XLATE_RX,		/* notifications decided at the driver */
	PNC_LEARN_C_XLATE_SENT,		/* CNPs sent from the driver */
	PNC_LEARN_C_XLATE_LIGHT,	/* light notifications, level policy */
	PNC_LEARN_C_XLATE_RL_GLOBAL,	/* dropped: global rate limit */
	PNC_LEARN_C_XLATE_MIN_INTERVAL, /* suppressed: CNP to that QP too recently */
	PNC_LEARN_C_XLATE_TX_ERROR,	/* the frame could not be rewritten */
	PNC_LEARN_C_XLATE_PASS_FLOW,	/* to the socket path: flow not published */
	PNC_LEARN_C_XLATE_PASS_ROUTE,	/* ... no route, neighbour or XDP transmit */
	PNC_LEARN_C_XLATE_PASS_OTHER,	/* ... anything else it does not translate */
	/* AF_XDP steering (xsk.bpf.h), `proxy fast-path af-xdp`. */
	PNC_LEARN_C_XSK_STEERED, /* redirected into cnpproxyd's socket */
	PNC_LEARN_C_XSK_PASSED,	 /* to the kernel: no socket, fragment, options */
	PNC_LEARN_C_MAX,
};

/*
 * Run-time configuration, a global of the program (.data, writable from
 * user space while attached).  Intervals in ns; 0 samples every packet,
 * PNC_LEARN_NEVER none.
 */
#define PNC_LEARN_NEVER (~(__u64)0)

struct pnc_learn_cfg {
	__u64 sample_ns; /* data with AckReq, ACK, NAK: per (src, dst, dest_qp) */
	__u64 plain_ns;	 /* data without AckReq, per (src, dst, dest_qp) */
};

#define PNC_LEARN_SAMPLE_NS_DEFAULT 1000000ULL	 /* 1 ms */
#define PNC_LEARN_PLAIN_NS_DEFAULT  100000000ULL /* 100 ms */

#endif /* _CNPPROXY_PROXY_XDP_LEARN_ABI_H */
