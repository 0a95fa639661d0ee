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

/* Compiled into the XDP programs and into user space alike. */
#define REFLECT_INLINE static inline __attribute__((always_inline))

/* The UDP payload of a reply: BTH with the QPN, 16 reserved, ICRC 0. */
REFLECT_INLINE void reflect_body(unsigned char *b, const unsigned char *qpn)
{
	__builtin_memset(b, 0, REFLECT_BODY_LEN);
	b[0] = REFLECT_OP_CNP;
	b[2] = 0xff;
	b[3] = 0xff;
	b[4] = REFLECT_BECN;
	b[5] = qpn[0];
	b[6] = qpn[1];
	b[7] = qpn[2];
}

/*
 * The untagged Ethernet + IPv4 (no options) + UDP frame at f, of at
 * least REFLECT_FRAME_LEN octets, turned in place into the reply to its
 * source: REFLECT_FRAME_LEN octets, destination QP qpn (copied out of
 * the datagram beforehand, since the body overwrites it).
 */
REFLECT_INLINE void reflect_rewrite(unsigned char *f, const unsigned char *qpn)
{
	unsigned char *ip = f + REFLECT_ETH_LEN, *udp = ip + REFLECT_IP_LEN, t;
	unsigned int sum = 0;

	for (int i = 0; i < 6; i++) { /* MAC addresses */
		t = f[i];
		f[i] = f[i + 6];
		f[i + 6] = t;
	}
	for (int i = 12; i < 16; i++) { /* IP addresses */
		t = ip[i];
		ip[i] = ip[i + 4];
		ip[i + 4] = t;
	}
	ip[2] = 0;
	ip[3] = REFLECT_IP_LEN + REFLECT_UDP_LEN + REFLECT_BODY_LEN;
	ip[8] = 64;
	ip[10] = ip[11] = 0;
	for (int i = 0; i < REFLECT_IP_LEN; i += 2)
		sum += (unsigned int)(ip[i] << 8 | ip[i + 1]);
	sum = (sum & 0xffff) + (sum >> 16);
	sum = ~((sum & 0xffff) + (sum >> 16));
	ip[10] = (unsigned char)(sum >> 8);
	ip[11] = (unsigned char)sum;
	udp[0] = 0xc0; /* source port 0xc000 */
	udp[1] = 0x00;
	udp[2] = REFLECT_ROCE_PORT >> 8;
	udp[3] = REFLECT_ROCE_PORT & 0xff;
	udp[4] = 0;
	udp[5] = REFLECT_UDP_LEN + REFLECT_BODY_LEN;
	udp[6] = udp[7] = 0; /* no checksum */
	reflect_body(udp + REFLECT_UDP_LEN, qpn);
}

#endif /* _PNC_REFLECT_H */
