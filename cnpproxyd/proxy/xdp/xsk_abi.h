// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the AF_XDP steering stage (xsk.bpf.h, after the guard in the
 * proxy's XDP program) shares with its loader (proxy/xdp/learn_xdp.c) and
 * cnpproxyd's sockets (proxy/xdp/xsk.c).  Only __u8..__u64 types;
 * include vmlinux.h or <linux/types.h> first.
 */
#ifndef _CNPPROXY_PROXY_XDP_XSK_ABI_H
#define _CNPPROXY_PROXY_XDP_XSK_ABI_H

/* Receive queues served per interface; frames of higher ones pass. */
#define PNC_XSK_QUEUES_MAX 64
/* Interfaces with sockets (the filter interfaces, at most 16). */
#define PNC_XSK_IFS_MAX 16
/* Slots of the socket map: an interface's base + its receive queue. */
#define PNC_XSK_SLOTS (PNC_XSK_IFS_MAX * PNC_XSK_QUEUES_MAX)

/*
 * Largest frame steered: a socket's 2048-octet buffer (PNC_XSK_FRAME_SIZE)
 * less the headroom the kernel keeps in front of every frame
 * (XDP_PACKET_HEADROOM).
 */
#define PNC_XSK_FRAME_MAX (2048 - 256)

/* Value of the interface map, keyed by ifindex. */
struct pnc_xsk_if {
	__u32 base;   /* first slot, a multiple of PNC_XSK_QUEUES_MAX */
	__u32 queues; /* receive queues with a socket from base on */
};

#endif /* _CNPPROXY_PROXY_XDP_XSK_ABI_H */
