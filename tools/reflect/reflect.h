/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pnc-reflect: what its XDP programs (reflect.bpf.c) and the user-space
 * side (reflect.c) share.
 */
#ifndef _PNC_REFLECT_H
#define _PNC_REFLECT_H

/* Per-CPU counters of the programs. */
enum reflect_counter {
	REFLECT_C_MATCHED, /* UDP to the port */
	REFLECT_C_DONE,	   /* reflected, redirected to the XSK, sunk */
	REFLECT_C_SHORT,   /* too short to carry the QPN */
	REFLECT_C_MAX,
};

/* The CNP-shaped reply: Ethernet, IPv4, UDP, BTH, 16 reserved, ICRC. */
#define REFLECT_ETH_LEN	  14
#define REFLECT_IP_LEN	  20
#define REFLECT_UDP_LEN	  8
#define REFLECT_BTH_LEN	  12
#define REFLECT_BODY_LEN  (REFLECT_BTH_LEN + 16 + 4)
#define REFLECT_FRAME_LEN (REFLECT_ETH_LEN + REFLECT_IP_LEN + REFLECT_UDP_LEN + REFLECT_BODY_LEN)
#define REFLECT_ROCE_PORT 4791
#define REFLECT_OP_CNP	  0x81
#define REFLECT_BECN	  0x40
#define REFLECT_QPN_MAX	  1024 /* the offset of the QPN in the datagram */

#endif /* _PNC_REFLECT_H */
