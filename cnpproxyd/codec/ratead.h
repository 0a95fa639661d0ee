// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SCONE rate advice over RoCEv2 (seed 004, doc/wire-formats.md 7.4):
 * IP | UDP 4791 | BTH (RATE_ADVICE opcode) | Rate | Version | Destination
 * QP ID | Source QP ID | ICRC, the size of a CNP.
 *
 * Pure C, no I/O, no allocation.  Packets start at the IP header.
 */
#ifndef _CNPPROXY_CODEC_RATEAD_H
#define _CNPPROXY_CODEC_RATEAD_H

#include <stddef.h>
#include <stdint.h>

#include "codec/errors.h"
#include "codec/roce.h"

/*
 * The draft's example opcode 0x1D is IBTA's RC ATOMIC WRITE; the default
 * is the first of the manufacturer-specific opcodes (section 0).
 */
#define PNC_RA_OPCODE	0xc0
#define PNC_RA_VERSION	1
#define PNC_RA_BODY_LEN 16
#define PNC_RA_LEN6	(PNC_IPV6_HLEN + PNC_UDP_HLEN + PNC_BTH_LEN + PNC_RA_BODY_LEN + 4)

struct pnc_rate_advice {
	struct pnc_ip_udp ip;
	uint8_t opcode;
	uint16_t pkey;
	/*
	 * Our reading of the draft's QP fields (A26): the BTH DestQP and
	 * Destination QP ID both name the traffic source's QP, the one the
	 * advice is for; Source QP ID names its peer, the receiver's QP (the
	 * DestQP of the data packets).
	 */
	uint32_t dest_qp;
	uint32_t rate_mbps; /* 0: no limit, the advice is withdrawn */
	uint32_t version;   /* encode writes PNC_RA_VERSION when 0 */
	uint32_t peer_qp;
};

extern int pnc_rate_advice_encode(const struct pnc_rate_advice *in, uint8_t *buf, size_t buflen,
				  size_t *outlen);
/*
 * The given opcode (else PNC_E_BTH_OPCODE), exactly 16 octets after the
 * BTH (PNC_E_RA_LEN), Version 1 (PNC_E_RA_VERSION), valid ICRC.
 * dest_qp is the BTH DestQP; a Destination QP ID that differs from it
 * is refused (PNC_E_RA_QP): the message would name two QPs.
 */
extern int pnc_rate_advice_decode(const uint8_t *pkt, size_t len, uint8_t opcode,
				  struct pnc_rate_advice *out);

#endif /* _CNPPROXY_CODEC_RATEAD_H */
