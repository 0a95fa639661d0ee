// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RoCEv2 packets (doc/wire-formats.md sections 1 and 2): the BTH and the
 * extension headers used here, a generic parser that starts at the IP
 * header, and builders/parsers for the standard CNP, RC SEND/WRITE data
 * and RC ACK/NAK.
 *
 * Pure C, no I/O, no allocation.  Multi-octet fields are host order in
 * the structs and network order on the wire.  Packets always start at
 * the IP header (no Ethernet header) and end with the ICRC.
 */
#ifndef _CNPPROXY_CODEC_ROCE_H
#define _CNPPROXY_CODEC_ROCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/consts.h"
#include "codec/errors.h"
#include "codec/ipudp.h"

/* Base Transport Header, every field (section 1.1). */
struct pnc_bth {
	uint8_t opcode;
	bool se;      /* solicited event */
	bool mig;     /* M, MigReq */
	uint8_t pad;  /* PadCnt, 0-3 */
	uint8_t tver; /* 0-15, must be 0 to decode */
	uint16_t pkey;
	bool fecn;
	bool becn;
	uint8_t resv6;	  /* 6 bits, kept so that proposals (E-bit) round trip */
	uint32_t dest_qp; /* 24 bits: QP at the receiver of this packet */
	bool ack_req;	  /* A */
	uint8_t resv7;	  /* 7 bits */
	uint32_t psn;	  /* 24 bits */
};

/* RDMA Extended Transport Header. */
struct pnc_reth {
	uint64_t va;
	uint32_t rkey;
	uint32_t dma_len;
};

/* ACK Extended Transport Header. */
struct pnc_aeth {
	uint8_t syndrome; /* see pnc_aeth_syndrome() */
	uint32_t msn;	  /* 24 bits */
};

/* Datagram Extended Transport Header. */
struct pnc_deth {
	uint32_t qkey;
	uint32_t src_qp; /* 24 bits */
};

/* AETH syndrome types, bits 7-5 (section 1.2). */
enum pnc_aeth_type {
	PNC_AETH_ACK = 0,     /* low 5 bits: credit count, 0x1f = invalid */
	PNC_AETH_RNR_NAK = 1, /* low 5 bits: RNR timer */
	PNC_AETH_NAK = 3,     /* low 5 bits: enum pnc_nak_code */
};

enum pnc_nak_code {
	PNC_NAK_PSN_SEQ_ERR = 0,
	PNC_NAK_INVALID_REQ = 1,
	PNC_NAK_REMOTE_ACCESS = 2,
	PNC_NAK_REMOTE_OP = 3,
	PNC_NAK_INVALID_RD_REQ = 4,
};

static inline uint8_t pnc_aeth_syndrome(enum pnc_aeth_type type, uint8_t value)
{
	return (uint8_t)((type & 0x7) << 5 | (value & 0x1f));
}


/*
 * Defaults for a packet of the IP version: TOS 0, TTL 64, ID 0, DF,
 * flow label 0, UDP source port 0xC000, destination 4791, no UDP
 * checksum, addresses zero.
 */
extern void pnc_ip_udp_init(struct pnc_ip_udp *ip, uint8_t version);

/*
 * Octets of extension headers after the BTH for an opcode (RETH, AETH,
 * DETH, ImmDt, ..., and the 16 reserved octets of a CNP), or -1 if the
 * opcode is not one this codec knows.
 */
extern int pnc_bth_ext_len(uint8_t opcode);

/* BTH: encode checks field ranges; decode rejects TVer != 0. */
extern int pnc_bth_encode(const struct pnc_bth *in, uint8_t *buf, size_t buflen, size_t *outlen);
extern int pnc_bth_decode(const uint8_t *buf, size_t len, struct pnc_bth *out);

extern int pnc_reth_encode(const struct pnc_reth *in, uint8_t *buf, size_t buflen, size_t *outlen);
extern int pnc_reth_decode(const uint8_t *buf, size_t len, struct pnc_reth *out);
/* AETH: decode rejects the reserved syndrome type 2 and NAK codes > 4. */
extern int pnc_aeth_encode(const struct pnc_aeth *in, uint8_t *buf, size_t buflen, size_t *outlen);
extern int pnc_aeth_decode(const uint8_t *buf, size_t len, struct pnc_aeth *out);
extern int pnc_deth_encode(const struct pnc_deth *in, uint8_t *buf, size_t buflen, size_t *outlen);
extern int pnc_deth_decode(const uint8_t *buf, size_t len, struct pnc_deth *out);

/* ---- Generic RoCEv2 packet ---------------------------------------- */

/* Parser flags. */
#define PNC_ROCE_F_NO_ICRC   0x01 /* do not verify the ICRC */
#define PNC_ROCE_F_TRUNCATED 0x02 /* accept a packet cut after the BTH */

/* What pnc_roce_parse() found.  Offsets are from the IP header. */
struct pnc_roce_view {
	struct pnc_ip_udp ip;
	struct pnc_bth bth;
	size_t ip_hlen; /* 20 or 40 */
	size_t pkt_len; /* IP header to end of ICRC, from the IP length */
	size_t udp_off;
	size_t bth_off;
	size_t ext_off;	    /* first octet after the BTH */
	int ext_len;	    /* pnc_bth_ext_len(opcode); -1: unknown opcode */
	size_t payload_off; /* ext_off + ext_len (ext_off if unknown) */
	size_t payload_len; /* without the pad octets */
	size_t icrc_off;
	uint32_t icrc;	/* value read (wire is LSB first); 0 if truncated */
	bool truncated; /* only with PNC_ROCE_F_TRUNCATED */
};

/*
 * Parse a RoCEv2 packet starting at the IP header.  Octets after the
 * length given by the IP header (Ethernet padding) are ignored.
 * Unknown opcodes are accepted (ext_len = -1).  A non-zero UDP checksum
 * is verified; zero is accepted for IPv4 and IPv6 (RoCEv2 practice).
 * With PNC_ROCE_F_TRUNCATED a packet shorter than its IP length is
 * accepted if it holds IP, UDP and BTH; the ICRC is then not checked.
 */
extern int pnc_roce_parse(const uint8_t *pkt, size_t len, unsigned int flags,
			  struct pnc_roce_view *v);
/* A whole packet that must be of one opcode (PNC_E_BTH_OPCODE if not). */
extern int pnc_roce_parse_op(const uint8_t *pkt, size_t len, uint8_t opcode,
			     struct pnc_roce_view *v);

/*
 * Build IP + UDP + BTH + body + pad + ICRC.  body holds the extension
 * headers and the payload.  bth->pad is ignored: the pad count follows
 * from body_len.  Returns PNC_E_INVALID_ARG for out-of-range fields.
 */
extern int pnc_roce_encode(const struct pnc_ip_udp *ip, const struct pnc_bth *bth,
			   const uint8_t *body, size_t body_len, uint8_t *buf, size_t buflen,
			   size_t *outlen);

/* ---- Standard CNP (section 2) -------------------------------------- */

/*
 * BTH of a CNP: opcode 0x81, BECN 1, everything else 0 except P_Key and
 * DestQP; then 16 reserved zero octets.
 */
struct pnc_cnp {
	struct pnc_ip_udp ip;
	uint16_t pkey;	  /* the flow's P_Key, normally 0xFFFF */
	uint32_t dest_qp; /* QPN at the traffic sender */
};

extern int pnc_cnp_encode(const struct pnc_cnp *in, uint8_t *buf, size_t buflen, size_t *outlen);
/*
 * Parse a CNP: opcode 0x81, exactly 16 octets after the BTH, valid
 * ICRC.  The reserved octets and the other BTH bits are ignored, as
 * IBTA asks of receivers.  A Long-haul CNP (E bit) of at least 16
 * octets after the BTH is accepted as the CNP it also is: what seed 000
 * asks of a receiver that does not know the extension.
 */
extern int pnc_cnp_decode(const uint8_t *pkt, size_t len, struct pnc_cnp *out);

/* ---- RC SEND / RDMA WRITE data ------------------------------------- */

/*
 * RC SEND First/Middle/Last/Only and RDMA WRITE First/Middle/Last/Only,
 * with or without immediate (opcodes 0x00-0x0b).  RETH is present on
 * WRITE First and WRITE Only (+imm); imm on the *_IMM opcodes.
 */
struct pnc_rc_data {
	struct pnc_ip_udp ip;
	struct pnc_bth bth;
	struct pnc_reth reth;
	uint32_t imm;
	const uint8_t *payload; /* decode: points into the packet */
	size_t payload_len;
};

extern bool pnc_rc_has_reth(uint8_t opcode);
extern bool pnc_rc_has_imm(uint8_t opcode);

extern int pnc_rc_data_encode(const struct pnc_rc_data *in, uint8_t *buf, size_t buflen,
			      size_t *outlen);
/* Rejects opcodes outside 0x00-0x0b with PNC_E_BTH_OPCODE. */
extern int pnc_rc_data_decode(const uint8_t *pkt, size_t len, struct pnc_rc_data *out);

/* ---- RC ACKNOWLEDGE (ACK, RNR NAK, NAK) ----------------------------- */

struct pnc_rc_ack {
	struct pnc_ip_udp ip;
	struct pnc_bth bth; /* written as given; opcode normally 0x11 */
	struct pnc_aeth aeth;
};

extern int pnc_rc_ack_encode(const struct pnc_rc_ack *in, uint8_t *buf, size_t buflen,
			     size_t *outlen);
/* Opcode 0x11 with exactly the AETH after the BTH. */
extern int pnc_rc_ack_decode(const uint8_t *pkt, size_t len, struct pnc_rc_ack *out);

#endif /* _CNPPROXY_CODEC_ROCE_H */
