// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The wire constants the codecs and the BPF programs share.  Macros and
 * enums only, with no includes, so that a BPF program built against
 * vmlinux.h (bpfutil/parse.bpf.h) takes them from here rather than
 * defining them again.
 */
#ifndef _CNPPROXY_CODEC_CONSTS_H
#define _CNPPROXY_CODEC_CONSTS_H

/* ---- Link layer ---------------------------------------------------------- */

#define PNC_ETH_HLEN	    14
#define PNC_VLAN_HLEN	    4
#define PNC_ETH_P_IP	    0x0800
#define PNC_ETH_P_IPV6	    0x86dd
#define PNC_ETH_P_8021Q	    0x8100
#define PNC_ETH_P_8021AD    0x88a8

/* ---- IP and UDP ---------------------------------------------------------- */

#define PNC_IPV4_HLEN 20
#define PNC_IPV6_HLEN 40
#define PNC_UDP_HLEN  8
/* IPv4 fragment offset field: more fragments, and the offset's bits. */
#define PNC_IP_MF     0x2000
#define PNC_IP_OFFSET 0x1fff
/* IPv6 Fragment header: the offset's bits of its second 16-bit word. */
#define PNC_IP6_FRAG_OFFSET 0xfff8
/* Defaults of the headers the codecs build (roce.c's pnc_ip_udp_init()). */
#define PNC_IP_TTL	 64
#define PNC_UDP_SPORT_DEFAULT 0xc000

/* ECN codepoints (RFC 3168; RFC 9331 for ECT(1)) and their mask. */
#define PNC_ECN_MASK	0x03
#define PNC_ECN_NOT_ECT 0
#define PNC_ECN_ECT1	1
#define PNC_ECN_ECT0	2
#define PNC_ECN_CE	3

/* IP protocol numbers, and IPv6 next headers. */
#define PNC_IPPROTO_HOPOPTS  0
#define PNC_IPPROTO_ICMP     1
#define PNC_IPPROTO_IPIP     4
#define PNC_IPPROTO_UDP	     17
#define PNC_IPPROTO_IPV6     41
#define PNC_IPPROTO_ROUTING  43
#define PNC_IPPROTO_FRAGMENT 44
#define PNC_IPPROTO_ICMPV6   58
#define PNC_IPPROTO_DSTOPTS  60

/* ---- RoCEv2 (doc/wire-formats.md sections 1 and 2) ----------------------- */

#define PNC_ROCE_UDP_PORT 4791
#define PNC_BTH_LEN	  12
#define PNC_RETH_LEN	  16
#define PNC_AETH_LEN	  4
#define PNC_DETH_LEN	  8
#define PNC_IMMDT_LEN	  4
#define PNC_ICRC_LEN	  4
#define PNC_CNP_RSVD_LEN  16
#define PNC_DEFAULT_PKEY  0xffff
#define PNC_GSI_QP	  1

/* BTH fields: octet offsets, and the bits of the octets they share. */
#define PNC_BTH_OFF_OPCODE  0
#define PNC_BTH_OFF_FLAGS   1 /* SE, M, PadCnt (2 bits), TVer (4 bits) */
#define PNC_BTH_OFF_PKEY    2
#define PNC_BTH_OFF_FB	    4 /* FECN, BECN, 6 reserved bits */
#define PNC_BTH_OFF_DEST_QP 5 /* 24 bits */
#define PNC_BTH_OFF_ACK	    8 /* AckReq, 7 reserved bits */
#define PNC_BTH_OFF_PSN	    9 /* 24 bits */
#define PNC_BTH_TVER_MASK   0x0f
#define PNC_BTH_PAD_SHIFT   4
#define PNC_BTH_ACKREQ	    0x80
/* AETH syndrome bits 6-5: 0 is an ACK. */
#define PNC_AETH_TYPE_ACK 0
/*
 * Seed 000's E bit (MSB of the BTH's 6-bit reserved field): a CNP that
 * carries the 12-octet Long-haul block (codec/lhcnp.h).
 */
#define PNC_BTH_RESV6_EBIT  0x20
#define PNC_LH_ROCE_EXT_LEN 12

/* Length of a CNP from the IP header to the end of the ICRC. */
#define PNC_CNP_LEN4 (PNC_IPV4_HLEN + PNC_UDP_HLEN + PNC_BTH_LEN + PNC_CNP_RSVD_LEN + PNC_ICRC_LEN)
#define PNC_CNP_LEN6 (PNC_IPV6_HLEN + PNC_UDP_HLEN + PNC_BTH_LEN + PNC_CNP_RSVD_LEN + PNC_ICRC_LEN)

/* BTH opcodes (IBTA Vol 1 and Annex A17; section 1.2). */
enum pnc_bth_opcode {
	PNC_OP_RC_SEND_FIRST = 0x00,
	PNC_OP_RC_SEND_MIDDLE = 0x01,
	PNC_OP_RC_SEND_LAST = 0x02,
	PNC_OP_RC_SEND_LAST_IMM = 0x03,
	PNC_OP_RC_SEND_ONLY = 0x04,
	PNC_OP_RC_SEND_ONLY_IMM = 0x05,
	PNC_OP_RC_WRITE_FIRST = 0x06,
	PNC_OP_RC_WRITE_MIDDLE = 0x07,
	PNC_OP_RC_WRITE_LAST = 0x08,
	PNC_OP_RC_WRITE_LAST_IMM = 0x09,
	PNC_OP_RC_WRITE_ONLY = 0x0a,
	PNC_OP_RC_WRITE_ONLY_IMM = 0x0b,
	PNC_OP_RC_READ_REQ = 0x0c,
	PNC_OP_RC_READ_RESP_FIRST = 0x0d,
	PNC_OP_RC_READ_RESP_MIDDLE = 0x0e,
	PNC_OP_RC_READ_RESP_LAST = 0x0f,
	PNC_OP_RC_READ_RESP_ONLY = 0x10,
	PNC_OP_RC_ACK = 0x11,
	PNC_OP_RC_ATOMIC_ACK = 0x12,
	PNC_OP_RC_CMP_SWAP = 0x13,
	PNC_OP_RC_FETCH_ADD = 0x14,
	PNC_OP_RC_SEND_LAST_INV = 0x16,
	PNC_OP_RC_SEND_ONLY_INV = 0x17,
	PNC_OP_RC_FLUSH = 0x1c,
	PNC_OP_RC_ATOMIC_WRITE = 0x1d,
	PNC_OP_UD_SEND_ONLY = 0x64,
	PNC_OP_UD_SEND_ONLY_IMM = 0x65,
	PNC_OP_CNP = 0x81,
};

/* ---- Congestion notifications (section 6) -------------------------------- */

/* Suggested defaults for the TBD UDP ports (section 0); configurable. */
#define PNC_NOTIF_UDP_PORT 61791
#define PNC_FCN_UDP_PORT   61792

#define PNC_NOTIF_VERSION 1
#define PNC_NOTIF_HLEN4	  16
#define PNC_NOTIF_HLEN6	  40
/* Octet 2 of the v1 header: an invoking packet follows the header. */
#define PNC_NOTIF_F_INVOKING 0x10
/*
 * Largest UDP payload: the whole UDP packet stays within 576 octets
 * over IPv4 or the IPv6 minimum MTU of 1280 (section 6.1).
 */
#define PNC_NOTIF_MAX_LEN4 (576 - PNC_IPV4_HLEN - PNC_UDP_HLEN)
#define PNC_NOTIF_MAX_LEN6 (1280 - PNC_IPV6_HLEN - PNC_UDP_HLEN)

/* Where the copied invoking packet starts (octet 3). */
enum pnc_notif_start {
	PNC_NOTIF_START_INNER_IP = 0,
	PNC_NOTIF_START_OUTER_IP = 1,
	PNC_NOTIF_START_MPLS = 2,
};

#endif /* _CNPPROXY_CODEC_CONSTS_H */
