// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pnc-pkt: plain IPv4/IPv6 + UDP around any payload (the notification
 * messages of doc/wire-formats.md section 6 travel this way), its parser,
 * and the checksum fix-up applied after every build.
 */
#include <string.h>

#include "pnc_pkt.h"
#include "codec/ipudp.h"
#include "codec/wire.h"

static size_t hlen_of(uint8_t version)
{
	return version == 4 ? PNC_IPV4_HLEN : PNC_IPV6_HLEN;
}

int ipudp_encode(const struct pnc_ip_udp *ip, const uint8_t *payload, size_t plen, uint8_t *buf,
		 size_t buflen)
{
	size_t hdr_len, tot;
	int ret;

	ret = pnc_ipudp_write(ip, plen, buf, buflen, &hdr_len, &tot);
	if (ret)
		return ret;
	memcpy(buf + hdr_len, payload, plen);
	return (int)tot;
}

void ipudp_fix_csums(const struct pkt_spec *s, uint8_t *pkt, size_t len)
{
	size_t hlen = hlen_of(s->ip.version), udp_len;
	uint16_t c;

	if (len < hlen + PNC_UDP_HLEN)
		return;
	if (s->ip.version == 4) {
		put_be16(pkt + 10, 0);
		c = s->ip_csum_set ? s->ip_csum : csum_fold(csum_add(0, pkt, PNC_IPV4_HLEN));
		put_be16(pkt + 10, c);
	}
	udp_len = get_be16(pkt + hlen + 4);
	switch (s->udp_csum_mode) {
	case CSUM_ZERO:
		c = 0;
		break;
	case CSUM_VALUE:
		c = s->udp_csum;
		break;
	default:
		put_be16(pkt + hlen + 6, 0);
		c = pnc_ipudp_csum(pkt, s->ip.version, hlen, udp_len);
		/* 0 means "no checksum": a computed 0 goes out as 0xFFFF */
		if (!c)
			c = 0xffff;
	}
	put_be16(pkt + hlen + 6, c);
}

