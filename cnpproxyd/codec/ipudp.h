// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * IPv4/IPv6 + UDP headers, the part every packet of the project shares:
 * RoCEv2 packets (roce.c) and the notification messages that tools carry
 * over plain UDP.  Pure C, no I/O, no allocation.
 */
#ifndef _CNPPROXY_CODEC_IPUDP_H
#define _CNPPROXY_CODEC_IPUDP_H

#include <stddef.h>
#include <stdint.h>

#include "codec/roce.h"

/*
 * Write the IP and UDP headers of a packet with payload_len octets of UDP
 * payload, checksums 0.  *hdr_len: octets of the headers (where the
 * payload goes); *total: the whole packet.  PNC_E_INVALID_ARG for an IP
 * version other than 4/6, a flow label above 20 bits or a packet the
 * length fields cannot describe; PNC_E_BUF_TOO_SMALL if it does not fit.
 */
extern int pnc_ipudp_write(const struct pnc_ip_udp *ip, size_t payload_len, uint8_t *buf,
			   size_t buflen, size_t *hdr_len, size_t *total);

/*
 * Once the payload is in place: the IPv4 header checksum, and the UDP
 * checksum when ip->udp_csum (a computed 0 goes out as 0xFFFF).
 */
extern void pnc_ipudp_finish(const struct pnc_ip_udp *ip, uint8_t *buf, size_t total);

/*
 * Folded UDP checksum of the segment at pkt + hlen, pseudo header
 * included: 0 when a received non-zero checksum verifies.
 */
extern uint16_t pnc_ipudp_csum(const uint8_t *pkt, uint8_t version, size_t hlen, size_t udp_len);

/*
 * Parse the IP header: IPv4 without options, checksum valid, not a
 * fragment; IPv6 without extension headers; UDP next.  Fills the IP
 * fields of *ip, the header length and the packet length the header
 * gives (not checked against len).
 */
extern int pnc_ipudp_parse_ip(const uint8_t *pkt, size_t len, struct pnc_ip_udp *ip,
			      size_t *hdr_len, size_t *pkt_len);

#endif /* _CNPPROXY_CODEC_IPUDP_H */
