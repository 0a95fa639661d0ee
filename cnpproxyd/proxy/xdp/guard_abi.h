// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the notification guard (guard.bpf.h, a stage of the proxy's XDP
 * program) shares with its loader (proxy/xdp/learn_xdp.c): map keys and the
 * run-time configuration.  The guard drops, at the driver, notifications
 * the proxy would refuse anyway, so that a flood never reaches the
 * socket queue a trusted congestion point shares with it.  Only
 * __u8..__u64 types; include vmlinux.h or <linux/types.h> first.
 */
#ifndef _CNPPROXY_PROXY_XDP_GUARD_ABI_H
#define _CNPPROXY_PROXY_XDP_GUARD_ABI_H

/* The accept list as a longest-match table (from the prefix-lists). */
#define PNC_GUARD_ACCEPT_MAX 16384
/* This router's addresses: only notifications to them are guarded. */
#define PNC_GUARD_LOCAL_MAX 1024
/* Per-source token buckets (LRU: a source silent for long is forgotten). */
#define PNC_GUARD_SOURCES_MAX 65536

/* A host address; IPv4 in the first four octets. */
struct pnc_guard_addr {
	__u8 version; /* 4 or 6 */
	__u8 rsvd[3];
	__u8 addr[16];
};

/*
 * Key of the accept table.  The version octet is part of the matched
 * data, so one trie holds both families: prefixlen is 8 + the prefix
 * length.
 */
struct pnc_guard_prefix {
	__u32 prefixlen;
	__u8 version;
	__u8 addr[16];
	__u8 rsvd[3];
};

#define PNC_GUARD_PERMIT 1
#define PNC_GUARD_DENY	 0

struct pnc_guard_bucket {
	__u64 last_ns;
	__u64 micro; /* tokens * 1e6 */
};

/*
 * Run-time configuration, a global of the program.  rate 0: the guard
 * is off and lets every notification through.
 */
struct pnc_guard_cfg {
	__u16 notification_port;
	__u16 flow_label_port;
	/* The notification's ICMP form (0: none), guarded like the UDP one. */
	__u8 icmp_type;
	__u8 icmp6_type;
	__u16 rsvd;
	__u64 rate;  /* notifications per second and source */
	__u64 burst; /* bucket size */
};

#endif /* _CNPPROXY_PROXY_XDP_GUARD_ABI_H */
