// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the congestion point's tc egress program (mark.bpf.c) and its
 * loader (cp/mark_tc.c) share: the per-interface marking state that user
 * space writes, the sample records of the ring buffer and the counter
 * indexes.  Only __u8..__u64 types, which vmlinux.h defines for the BPF
 * side and <linux/types.h> for user space; include one of those first.
 *
 * The program holds no policy: user space turns queue measurements
 * into probabilities (seed 003: ECT(1) rising between T1 and T2, CE
 * above T2; plain: CE above K_min) and writes them per interface.
 */
#ifndef _CNPPROXY_CP_MARK_ABI_H
#define _CNPPROXY_CP_MARK_ABI_H

/* Probabilities are in 1/65536: 0 never, PNC_MARK_PROB_ONE always. */
#define PNC_MARK_PROB_ONE 65536

/*
 * Octets of a sampled packet copied from its outer IP header: a whole
 * packet of a 1500-octet MTU.  A notification carries as much of the
 * packet as fits in 576 (IPv4) or 1280 (IPv6) octets (codec/notif.h),
 * at most 1216 octets from the inner IP header, so the copy never is
 * what cuts it short.
 */
#define PNC_MARK_DATA_MAX 1536

/*
 * Ring buffer size; a power of two and a multiple of the page size.
 * About 650 samples in flight.
 */
#define PNC_MARK_RINGBUF_SIZE (1024 * 1024)

/* Interfaces with a state, and per-flow sample limiter entries (LRU). */
#define PNC_MARK_IFS_MAX   256
#define PNC_MARK_FLOWS_MAX 16384

/* ECN codepoints: PNC_ECN_* of codec/consts.h. */
#include "codec/consts.h"

/*
 * Value of the state map, keyed by the egress ifindex (__u32).  No entry:
 * the program leaves the interface's packets alone.  User space replaces
 * the whole value at once, so the program never sees half an update.
 *
 * The probabilities describe the queue as user space last saw it, so
 * they hold only while user space keeps looking: past valid_until_ns
 * the program treats the state as absent.  A daemon that hangs, or dies
 * with the program still attached, thus stops marking on its own
 * instead of marking on a reading that no longer holds.
 */
struct pnc_mark_state {
	__u32 ect1_prob; /* ECT(0)/ECT(1) leaves as ECT(1), 0..PNC_MARK_PROB_ONE */
	__u32 ce_prob;	 /* ECN-capable leaves as CE; checked first, so CE wins */
	__u8 sample;	 /* 1: sample ECN-capable RoCEv2 packets to user space */
	__u8 pad[3];
	__u32 rsvd;
	__u64 sample_interval_ns; /* per flow; 0 samples every packet */
	__u64 valid_until_ns;	  /* CLOCK_MONOTONIC (bpf_ktime_get_ns) */
};

/*
 * Counters of one interface (per-CPU hash keyed by ifindex): what user
 * space needs for its ECN-rate trigger.  The loader creates the entry at
 * attach, so the program never inserts.
 */
struct pnc_mark_if_counters {
	__u64 ecn_capable; /* IP packets with ECT(0), ECT(1) or CE */
	__u64 marked_ect1; /* ECT(0) rewritten to ECT(1) */
	__u64 marked_ce;   /* ECT(0)/ECT(1) rewritten to CE */
	__u64 roce;	   /* ECN-capable RoCEv2 packets */
	__u64 sampled;	   /* samples emitted */
};

enum pnc_mark_ev_type {
	PNC_MARK_EV_SAMPLE = 1, /* struct pnc_mark_sample */
};

/* pnc_mark_ev_hdr.flags */
#define PNC_MARK_F_TUNNELLED 0x01 /* IPv4/IPv6 in outer IPv6 */
#define PNC_MARK_F_ROUTING   0x02 /* an IPv6 Routing Header (SRH) before the inner one */
#define PNC_MARK_F_INNER_V6  0x04 /* the inner header is IPv6 */
#define PNC_MARK_F_VXLAN     0x08 /* the tunnel is VXLAN (UDP 4789) over IPv6 */

/* RFC 7348's port; VXLAN header and inner Ethernet header before the inner IP one. */
#define PNC_MARK_VXLAN_PORT 4789
#define PNC_MARK_VXLAN_HLEN (8 + 8 + 14)

struct pnc_mark_ev_hdr {
	__u8 type;	 /* enum pnc_mark_ev_type */
	__u8 ip_version; /* of the outer header: 4 or 6 */
	__u8 flags;	 /* PNC_MARK_F_* */
	__u8 rsvd;
	__u32 ifindex; /* egress interface */
	__u64 ts_ns;   /* CLOCK_MONOTONIC */
};

/*
 * A sampled ECN-capable RoCEv2 packet as it leaves (after marking).
 * Addresses are the outer ones, IPv4 in the first 4 octets.  Offsets
 * count from the outer IP header, i.e. from data[0]; they may point
 * beyond cap_len when the headers are longer than PNC_MARK_DATA_MAX.
 */
struct pnc_mark_sample {
	struct pnc_mark_ev_hdr hdr;
	__u8 src[16];
	__u8 dst[16];
	__u32 flow_label; /* outer IPv6, 20 bits; 0 for IPv4 */
	__u8 ecn_in;	  /* outer ECN as the packet arrived */
	__u8 ecn_out;	  /* and as it leaves */
	__u16 inner_off;  /* inner IP header; 0 if not tunnelled */
	__u16 l4_off;	  /* UDP header of the RoCEv2 packet (the inner one) */
	__u16 cap_len;	  /* octets in data */
	__u32 pkt_len;	  /* outer IP length field, from the IP header */
	__u32 dest_qp;	  /* BTH DestQP, 24 bits */
	/*
	 * The flow's outer IP octets since its last sample, this packet's
	 * included (saturating): its share of what went through the queue.
	 * 0 for a flow's first sample, when nothing is known yet.
	 */
	__u32 flow_bytes;
	__u8 data[PNC_MARK_DATA_MAX];
};

/*
 * Per-CPU counters.  Every frame lands in exactly one of NO_STATE,
 * STALE, NOT_IP, PARSE_ERROR, NOT_ECT and ECN_CAPABLE.  MARKED_* count the
 * packets whose codepoint changed.  ROCE counts RoCEv2 packets (plain
 * or tunnelled, complete BTH), TUNNELLED those of them in a tunnel; an
 * ECN-capable one on an interface that samples lands in exactly one of
 * SAMPLED, SAMPLE_SUPPRESSED, RINGBUF_FULL and SAMPLE_ERROR.
 */
enum pnc_mark_counter {
	PNC_MARK_C_SEEN = 0,	      /* frames seen */
	PNC_MARK_C_NO_STATE,	      /* interface without state: left alone */
	PNC_MARK_C_NOT_IP,	      /* neither IPv4 nor IPv6 */
	PNC_MARK_C_PARSE_ERROR,	      /* IP header cut short or malformed */
	PNC_MARK_C_NOT_ECT,	      /* IP, Not-ECT: never marked */
	PNC_MARK_C_ECN_CAPABLE,	      /* IP, ECT(0), ECT(1) or CE */
	PNC_MARK_C_MARKED_ECT1,	      /* ECT(0) rewritten to ECT(1) */
	PNC_MARK_C_MARKED_CE,	      /* ECT(0)/ECT(1) rewritten to CE */
	PNC_MARK_C_MARK_ERROR,	      /* rewriting the header failed */
	PNC_MARK_C_ROCE,	      /* RoCEv2 packets */
	PNC_MARK_C_TUNNELLED,	      /* of which in an IPv6 tunnel */
	PNC_MARK_C_TRUNCATED,	      /* UDP 4791 or tunnel with headers cut short */
	PNC_MARK_C_SAMPLED,	      /* samples emitted */
	PNC_MARK_C_SAMPLE_SUPPRESSED, /* within the flow's sample interval */
	PNC_MARK_C_RINGBUF_FULL,      /* samples lost: ring buffer full */
	PNC_MARK_C_SAMPLE_ERROR,      /* copying the packet failed */
	PNC_MARK_C_STALE,	      /* state past valid_until_ns: left alone */
	PNC_MARK_C_MAX,
};

#endif /* _CNPPROXY_CP_MARK_ABI_H */
