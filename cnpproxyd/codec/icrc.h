// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CRC-32 and the RoCEv2 invariant CRC (ICRC), doc/wire-formats.md section 3.
 *
 * Packets are given from the first octet of the IP header.  Only what
 * RoCEv2 implementations handle is accepted: IPv4 without options and
 * IPv6 without extension headers, UDP directly after the IP header.
 */
#ifndef _CNPPROXY_CODEC_ICRC_H
#define _CNPPROXY_CODEC_ICRC_H

#include <stddef.h>
#include <stdint.h>

#include "codec/consts.h"
#include "codec/errors.h"

/*
 * CRC-32 of IEEE 802.3 / zlib (reflected 0xEDB88320, init and final
 * XOR 0xFFFFFFFF).  Chainable like zlib's crc32(): start with crc = 0,
 * pass the previous result to continue over more data.
 */
extern uint32_t pnc_crc32(uint32_t crc, const uint8_t *buf, size_t len);

/*
 * ICRC of a RoCEv2 packet: pkt starts at the IP header, len covers
 * everything up to (not including) the ICRC field.  The IP and UDP
 * length fields must already be final.  *icrc receives the CRC value;
 * on the wire it goes least significant octet first.
 * Errors: PNC_E_IP_TRUNCATED, PNC_E_IP_VERSION, PNC_E_IP_HDR_LEN,
 * PNC_E_IP_OPTIONS, PNC_E_IP_NOT_UDP, PNC_E_BTH_TRUNCATED.
 */
extern int pnc_icrc_compute(const uint8_t *pkt, size_t len, uint32_t *icrc);

/* Compute the ICRC over pkt[0..len-4) and store it in the last 4 octets. */
extern int pnc_icrc_write(uint8_t *pkt, size_t len);

/*
 * Check the ICRC in the last 4 octets of pkt[0..len).  Returns 0,
 * PNC_E_ICRC on mismatch, or an error of pnc_icrc_compute().
 */
extern int pnc_icrc_verify(const uint8_t *pkt, size_t len);

#endif /* _CNPPROXY_CODEC_ICRC_H */
