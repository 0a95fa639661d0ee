// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * IPv4/IPv6 + UDP headers, the part every packet of the project shares:
 * RoCEv2 packets (roce.c) and the notification messages that tools carry
 * over plain UDP.  Pure C, no I/O, no allocation.
 */
#ifndef _CNPPROXY_CODEC_IPUDP_H
#define _CNPPROXY_CODEC_IPUDP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/consts.h"

/*
 * IP and UDP fields of a packet (RoCEv2 or a notification).  Builders write every field;
 * parsers fill every field.  Defaults: pnc_ip_udp_init().
 */
struct pnc_ip_udp {
	uint8_t version; /* 4 or 6 */
	uint8_t src[16]; /* IPv4: first 4 octets */
	uint8_t dst[16];
	uint8_t tos;	     /* IPv4 TOS / IPv6 Traffic Class: DSCP << 2 | ECN */
	uint8_t ttl;	     /* TTL / Hop Limit */
	uint16_t ip_id;	     /* IPv4 only */
	bool df;	     /* IPv4 only */
	uint32_t flow_label; /* IPv6 only, 20 bits */
	uint16_t sport;
	uint16_t dport;
	/*
	 * Build: compute the UDP checksum (otherwise 0, RNIC practice).
	 * Parse: the checksum was not 0 (and it was verified).
	 */
	bool udp_csum;
};


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
/*
 * The checks every RoCEv2 IP header passes first: a known version, the
 * fixed header all there, no IPv4 options.  Its length into *hdr_len.
 */
extern int pnc_ip_fixed_hlen(const uint8_t *pkt, size_t len, size_t *hdr_len);
/*
 * The same for another protocol after the IP header (ICMP 1, ICMPv6 58:
 * the notification's ICMP form); PNC_E_IP_NOT_UDP names any mismatch.
 */
extern int pnc_ip_parse(const uint8_t *pkt, size_t len, uint8_t proto, struct pnc_ip_udp *ip,
			size_t *hdr_len, size_t *pkt_len);

/* A UDP datagram, parsed by pnc_ipudp_parse(). */
struct pnc_udp_view {
	struct pnc_ip_udp ip; /* addresses, ports; udp_csum: a checksum was there */
	size_t ip_hlen;
	size_t pkt_len; /* from the IP header; octets past it (link padding) ignored */
	uint16_t udp_len;
	uint16_t udp_csum;
	const uint8_t *payload;
	size_t payload_len;
};

/*
 * A whole UDP datagram, any port: pnc_ipudp_parse_ip()'s checks, then
 * the packet present to the length its header gives, the UDP length
 * matching it and, unless flags has PNC_IPUDP_F_NO_CSUM, a non-zero
 * checksum verified.  A zero checksum is accepted in both families;
 * the caller applies RFC 8200's rule where it receives for itself.
 */
/*
 * A frame taken before any stack saw it (XDP, AF_XDP) may carry a UDP
 * checksum its sender left to offload: only the pseudo header's part.
 */
#define PNC_IPUDP_F_NO_CSUM 0x1

extern int pnc_ipudp_parse(const uint8_t *pkt, size_t len, unsigned int flags,
			   struct pnc_udp_view *v);

/*
 * Where the IP header of an Ethernet frame starts, past one 802.1Q or
 * 802.1ad tag: the EtherType (0x0800, 0x86DD or another) and *l3_off,
 * or 0 when the frame is too short to say.
 */
extern uint16_t pnc_eth_l3(const uint8_t *frame, size_t len, size_t *l3_off);

/* The Ethernet header of a frame carrying an IP packet of ip_version. */
extern void pnc_eth_write(uint8_t out[PNC_ETH_HLEN], const uint8_t dst[6], const uint8_t src[6],
			  uint8_t ip_version);

#endif /* _CNPPROXY_CODEC_IPUDP_H */
