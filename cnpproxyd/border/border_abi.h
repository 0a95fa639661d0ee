// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the border filter (border.bpf.c) and its loader (border/border_tc.c)
 * share.  Seed 002 asks that the notification ports be dropped where
 * the domain ends, both ways: a notification from outside could make a
 * proxy slow any sender down, and one leaving tells the outside about
 * the domain's congestion.  Only __u8..__u64 types; include vmlinux.h or
 * <linux/types.h> first.
 */
#ifndef _CNPPROXY_BORDER_BORDER_ABI_H
#define _CNPPROXY_BORDER_BORDER_ABI_H

/*
 * Key 0 of the config map: the UDP destination ports to drop, and the
 * ICMP / ICMPv6 types of the notification's ICMP form (0: none).
 */
struct pnc_border_config {
	__u16 notification_port;
	__u16 flow_label_port;
	__u8 icmp_type;
	__u8 icmp6_type;
	__u16 rsvd;
};

/* Per interface (key: ifindex), per CPU; arriving, then leaving. */
struct pnc_border_if_counters {
	__u64 notifications; /* dropped: UDP to the notification port, or its ICMP form */
	__u64 flow_label;    /* dropped: UDP to the flow-label port */
	__u64 header_chain;  /* dropped: IPv6 header chain too long to walk */
	__u64 notifications_out;
	__u64 flow_label_out;
	__u64 header_chain_out;
};

#define PNC_BORDER_IFS_MAX 64

#endif /* _CNPPROXY_BORDER_BORDER_ABI_H */
