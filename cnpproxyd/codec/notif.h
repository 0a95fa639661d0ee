// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Congested node -> proxy messages (doc/wire-formats.md section 6):
 *  - the seed 002 notification in the versioned cnpproxyd v1 layout of
 *    section 6.2: five-tuple, congestion level, truncated invoking packet,
 *    as a UDP payload or in an ICMP / ICMPv6 message (section 6.5);
 *  - the seed 001 flow-label FCN of section 6.3: flow label and CL.
 */
#ifndef _CNPPROXY_CODEC_NOTIF_H
#define _CNPPROXY_CODEC_NOTIF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/errors.h"
#include "codec/roce.h"

struct pnc_notif {
	uint8_t af;	  /* 4 or 6: family of the five-tuple */
	uint8_t protocol; /* 17 for RoCEv2 */
	uint8_t cl;	  /* congestion level 0 (lowest) - 7 */
	uint8_t start;	  /* enum pnc_notif_start */
	uint16_t sport;
	uint16_t dport;
	uint8_t src[16]; /* IPv4: first 4 octets */
	uint8_t dst[16];
	/*
	 * Copy of the packet that met congestion; decode points into the
	 * message.  Present in the message iff invoking_len > 0.
	 */
	const uint8_t *invoking;
	size_t invoking_len;
	/*
	 * Encode only: IP version of the header that will carry the
	 * message (4 or 6), which sets the size limit.  Decode sets 0.
	 */
	uint8_t carrier_af;
};

/*
 * Encode; the invoking packet is cut to what fits in
 * PNC_NOTIF_MAX_LEN4/6 for carrier_af (*outlen tells how much was
 * kept).  PNC_E_BUF_TOO_SMALL if buflen is below that result.
 */
extern int pnc_notif_encode(const struct pnc_notif *in, uint8_t *buf, size_t buflen,
			    size_t *outlen);
/*
 * Decode a UDP payload.  Version 1 only.  The reserved bits of octet 2
 * are ignored.  A message longer than PNC_NOTIF_MAX_LEN6 is refused.
 */
extern int pnc_notif_decode(const uint8_t *buf, size_t len, struct pnc_notif *out);

/*
 * Find the RoCEv2 headers in the invoking packet of a decoded message:
 * skips an MPLS label stack (start type 2), then parses from the IP
 * header with PNC_ROCE_F_TRUNCATED.  *ip_off is the offset of that IP
 * header inside n->invoking; the view's offsets are relative to it.
 * Errors: PNC_E_NOTIF_NO_INVOKING, PNC_E_MPLS_TRUNCATED,
 * PNC_E_NOTIF_START, or those of pnc_roce_parse().
 */
extern int pnc_notif_invoking_roce(const struct pnc_notif *n, size_t *ip_off,
				   struct pnc_roce_view *v);

/* ---- The notification's ICMP form (section 6.5) -------------------------- */

/*
 * Suggested defaults (TBD, section 0): an RFC 4727 experimental ICMPv4
 * type, and the RFC 4443 private experimentation ICMPv6 type that the
 * Long-haul CNP's default (200) leaves free.
 */
#define PNC_NOTIF_ICMP_TYPE  253
#define PNC_NOTIF_ICMP6_TYPE 201
/* Type, code, checksum and 4 reserved octets: as long as a UDP header. */
#define PNC_NOTIF_ICMP_HLEN 8

struct pnc_notif_icmp {
	uint8_t version; /* 4: ICMP, 6: ICMPv6 */
	uint8_t type;
	/*
	 * ICMPv6 only: the pseudo header's addresses.  Without them the
	 * encoder leaves the checksum 0 (a raw ICMPv6 socket fills it in)
	 * and the decoder does not check it (the kernel did).
	 */
	const uint8_t *src6, *dst6;
};

/*
 * The ICMP message, from its type octet: header, then the v1 body of
 * pnc_notif_encode() with in->carrier_af taken from ic->version (the
 * ICMP header is as long as the UDP one, so the same limits apply).
 */
extern int pnc_notif_icmp_encode(const struct pnc_notif_icmp *ic, const struct pnc_notif *in,
				 uint8_t *buf, size_t buflen, size_t *outlen);
/*
 * Decode an ICMP message: type ic->type (PNC_E_NOTIF_ICMP_TYPE), code 0
 * (PNC_E_NOTIF_ICMP_CODE), checksum (ICMPv4 always, ICMPv6 with the
 * addresses); the reserved octets are ignored; then the body as
 * pnc_notif_decode().
 */
extern int pnc_notif_icmp_decode(const struct pnc_notif_icmp *ic, const uint8_t *buf, size_t len,
				 struct pnc_notif *out);

/* ---- Seed 001 flow-label FCN ------------------------------------------- */

#define PNC_FCN_LEN 4

struct pnc_fcn {
	uint32_t flow_label; /* 20 bits, not 0 */
	uint8_t cl;	     /* 1 lowest - 7 highest; 0 = not given */
};

/* u32 (FL << 12) | (CL << 9); the 9 reserved bits are sent as 0. */
extern int pnc_fcn_encode(const struct pnc_fcn *in, uint8_t *buf, size_t buflen, size_t *outlen);
/*
 * Exactly 4 octets; flow label 0 is refused (RFC 6437 "no label", never
 * allocated by the ingress PE); reserved bits are ignored.
 */
extern int pnc_fcn_decode(const uint8_t *buf, size_t len, struct pnc_fcn *out);

#endif /* _CNPPROXY_CODEC_NOTIF_H */
