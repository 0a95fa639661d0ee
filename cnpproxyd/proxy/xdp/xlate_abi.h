// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the XDP-native translator (xlate.bpf.h, a stage of the proxy's
 * XDP program after the guard) shares with its loader (proxy/xdp/learn_xdp.c):
 * the flow map the daemon publishes, the transmit map and the run-time
 * configuration.  Only __u8..__u64 types; include vmlinux.h or
 * <linux/types.h> first.
 */
#ifndef _CNPPROXY_PROXY_XDP_XLATE_ABI_H
#define _CNPPROXY_PROXY_XDP_XLATE_ABI_H

/* As many as the daemon's flow table holds. */
#define PNC_XLATE_FLOWS_MAX 65536
/* Per sender QP time of the last CNP (LRU: idle QPs are forgotten). */
#define PNC_XLATE_QPS_MAX 65536
/* Interfaces a CNP may leave by (device map, keyed by ifindex). */
#define PNC_XLATE_TX_MAX 256
/* The ICRC four octets at a time: four CRC-32 tables. */
#define PNC_XLATE_CRC_SLICES 4
/*
 * Four-octet words of the CNPs the translator builds (IP, UDP, BTH and
 * 16 reserved octets; the ICRC excluded): IPv4, and IPv6, the longest.
 */
#define PNC_XLATE_CNP_V4_WORDS ((20 + 8 + 12 + 16) / 4)
#define PNC_XLATE_CNP_WORDS    ((40 + 8 + 12 + 16) / 4)

/*
 * A flow as an invoking packet names it (sender -> receiver, the BTH
 * DestQP, i.e. the receiver's QP).  IPv4 addresses in the first four
 * octets, the rest zero.
 */
struct pnc_xlate_key {
	__u8 version; /* 4 or 6 */
	__u8 rsvd[3];
	__u32 receiver_qpn;
	__u8 sender[16];
	__u8 receiver[16];
};

/* What the CNP to the flow's sender needs. */
struct pnc_xlate_flow {
	__u32 sender_qpn;
	__u16 pkey;
	__u16 udp_sport; /* 0: the proxy's default, 0xC000 */
};

/* Key of the minimum-interval map: a sender QP. */
struct pnc_xlate_qp {
	__u8 version;
	__u8 rsvd[3];
	__u32 sender_qpn;
	__u8 sender[16];
};

/* The global token bucket, shared by every CPU. */
struct pnc_xlate_global {
	struct bpf_spin_lock lock;
	__u32 rsvd;
	__u64 last_ns;
	__u64 micro; /* tokens * 1e6 */
};

/*
 * Level policy for a standard CNP, per Congestion Level 0-7: 0 sends
 * nothing (a light notification the policy leaves alone), N > 0 sends
 * with the minimum interval multiplied by N.
 */
#define PNC_XLATE_LEVELS 8

/*
 * Run-time configuration, a global of the program.  enabled 0: every
 * notification goes on to the socket path.
 */
struct pnc_xlate_cfg {
	__u8 enabled;
	__u8 tos; /* DSCP << 2, Not-ECT */
	__u8 src4_set;
	__u8 src6_set;
	__u8 src4[4];
	__u8 src6[16];
	__u8 factor[PNC_XLATE_LEVELS];
	__u64 min_interval_ns;
	__u64 global_rate; /* notifications per second, all sources */
	__u64 global_burst;
};

#endif /* _CNPPROXY_PROXY_XDP_XLATE_ABI_H */
