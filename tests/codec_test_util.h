// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Helpers shared by the codec unit tests: hex strings to octets, and
 * repairing checksums after a test has changed a packet on purpose.
 */
#ifndef _PNC_CODEC_TEST_UTIL_H
#define _PNC_CODEC_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "codec/icrc.h"

/* Octets of a hex string; spaces are skipped.  Returns the count. */
static inline size_t hex2bin(const char *hex, uint8_t *out, size_t max)
{
	size_t n = 0;
	int hi = -1;

	for (; *hex; hex++) {
		int v;

		if (*hex >= '0' && *hex <= '9')
			v = *hex - '0';
		else if (*hex >= 'a' && *hex <= 'f')
			v = *hex - 'a' + 10;
		else if (*hex >= 'A' && *hex <= 'F')
			v = *hex - 'A' + 10;
		else
			continue;
		if (hi < 0) {
			hi = v;
			continue;
		}
		if (n < max)
			out[n] = (uint8_t)(hi << 4 | v);
		n++;
		hi = -1;
	}
	return n;
}

/* Recompute the IPv4 header checksum of a 20-octet header. */
static inline void fix_ipv4_csum(uint8_t *ip)
{
	uint32_t sum = 0;
	size_t i;

	ip[10] = ip[11] = 0;
	for (i = 0; i < 20; i += 2)
		sum += (uint32_t)(ip[i] << 8 | ip[i + 1]);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	sum = ~sum & 0xffff;
	ip[10] = (uint8_t)(sum >> 8);
	ip[11] = (uint8_t)sum;
}

/* Set both length fields (IP and UDP) for a packet of len octets. */
static inline void set_lengths(uint8_t *pkt, size_t len)
{
	size_t hlen = (pkt[0] >> 4) == 4 ? 20 : 40;
	size_t udp = len - hlen;

	if (hlen == 20) {
		pkt[2] = (uint8_t)(len >> 8);
		pkt[3] = (uint8_t)len;
	} else {
		pkt[4] = (uint8_t)(udp >> 8);
		pkt[5] = (uint8_t)udp;
	}
	pkt[hlen + 4] = (uint8_t)(udp >> 8);
	pkt[hlen + 5] = (uint8_t)udp;
}

/* After an edit: IPv4 checksum, UDP checksum 0, fresh ICRC. */
static inline void refix(uint8_t *pkt, size_t len)
{
	size_t hlen = (pkt[0] >> 4) == 4 ? 20 : 40;

	if (hlen == 20)
		fix_ipv4_csum(pkt);
	pkt[hlen + 6] = pkt[hlen + 7] = 0;
	pnc_icrc_write(pkt, len);
}

#endif /* _PNC_CODEC_TEST_UTIL_H */
