// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pnc-pkt: plain IPv4/IPv6 + UDP around any payload (the notification
 * messages of wire-formats.md section 6 travel this way), its parser,
 * and the checksum fix-up applied after every build.
 */
#include <string.h>

#include "pnc_pkt.h"
#include "codec/wire.h"

#define PROTO_UDP 17

static size_t hlen_of(uint8_t version)
{
	return version == 4 ? PNC_IPV4_HLEN : PNC_IPV6_HLEN;
}

int ipudp_encode(const struct pnc_ip_udp *ip, const uint8_t *payload, size_t plen, uint8_t *buf,
		 size_t buflen)
{
	size_t hlen = hlen_of(ip->version), udp_len = PNC_UDP_HLEN + plen;
	size_t tot = hlen + udp_len;
	uint8_t *udp = buf + hlen;

	if (udp_len > 0xffff || (ip->version == 4 && tot > 0xffff) || ip->flow_label > 0xfffff)
		return PNC_E_INVALID_ARG;
	if (buflen < tot)
		return PNC_E_BUF_TOO_SMALL;
	memset(buf, 0, hlen + PNC_UDP_HLEN);
	if (ip->version == 4) {
		buf[0] = 0x45;
		buf[1] = ip->tos;
		put_be16(buf + 2, (uint16_t)tot);
		put_be16(buf + 4, ip->ip_id);
		put_be16(buf + 6, ip->df ? 0x4000 : 0);
		buf[8] = ip->ttl;
		buf[9] = PROTO_UDP;
		memcpy(buf + 12, ip->src, 4);
		memcpy(buf + 16, ip->dst, 4);
	} else {
		put_be32(buf, 6u << 28 | (uint32_t)ip->tos << 20 | ip->flow_label);
		put_be16(buf + 4, (uint16_t)udp_len);
		buf[6] = PROTO_UDP;
		buf[7] = ip->ttl;
		memcpy(buf + 8, ip->src, 16);
		memcpy(buf + 24, ip->dst, 16);
	}
	put_be16(udp, ip->sport);
	put_be16(udp + 2, ip->dport);
	put_be16(udp + 4, (uint16_t)udp_len);
	memcpy(udp + PNC_UDP_HLEN, payload, plen);
	return (int)tot;
}

static uint16_t udp_csum(const uint8_t *pkt, uint8_t version, size_t hlen, size_t udp_len)
{
	uint32_t sum;

	if (version == 4)
		sum = csum_add(0, pkt + 12, 8);
	else
		sum = csum_add(0, pkt + 8, 32);
	sum += PROTO_UDP + (uint32_t)udp_len;
	return csum_fold(csum_add(sum, pkt + hlen, udp_len));
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
		c = udp_csum(pkt, s->ip.version, hlen, udp_len);
		/* 0 means "no checksum": a computed 0 goes out as 0xFFFF */
		if (!c)
			c = 0xffff;
	}
	put_be16(pkt + hlen + 6, c);
}

/* The same checks as the codec's RoCEv2 parser, for any UDP port. */
int ipudp_parse(const uint8_t *pkt, size_t len, struct ipudp_view *v)
{
	const uint8_t *udp;
	uint16_t frag;

	memset(v, 0, sizeof(*v));
	if (len < 1)
		return PNC_E_IP_TRUNCATED;
	switch (pkt[0] >> 4) {
	case 4:
		if (len < PNC_IPV4_HLEN)
			return PNC_E_IP_TRUNCATED;
		if ((pkt[0] & 0x0f) < 5)
			return PNC_E_IP_HDR_LEN;
		if ((pkt[0] & 0x0f) > 5)
			return PNC_E_IP_OPTIONS;
		if (csum_fold(csum_add(0, pkt, PNC_IPV4_HLEN)))
			return PNC_E_IP_CHECKSUM;
		v->pkt_len = get_be16(pkt + 2);
		if (v->pkt_len < PNC_IPV4_HLEN)
			return PNC_E_IP_TOTAL_LEN;
		frag = get_be16(pkt + 6);
		if (frag & 0x3fff)
			return PNC_E_IP_FRAGMENT;
		if (pkt[9] != PROTO_UDP)
			return PNC_E_IP_NOT_UDP;
		v->ip.version = 4;
		v->ip.tos = pkt[1];
		v->ip.ip_id = get_be16(pkt + 4);
		v->ip.df = frag & 0x4000;
		v->ip.ttl = pkt[8];
		memcpy(v->ip.src, pkt + 12, 4);
		memcpy(v->ip.dst, pkt + 16, 4);
		v->ip_hlen = PNC_IPV4_HLEN;
		break;
	case 6:
		if (len < PNC_IPV6_HLEN)
			return PNC_E_IP_TRUNCATED;
		if (pkt[6] != PROTO_UDP)
			return PNC_E_IP_NOT_UDP;
		v->ip.version = 6;
		v->ip.tos = (uint8_t)(get_be32(pkt) >> 20);
		v->ip.flow_label = get_be32(pkt) & 0xfffff;
		v->ip.ttl = pkt[7];
		memcpy(v->ip.src, pkt + 8, 16);
		memcpy(v->ip.dst, pkt + 24, 16);
		v->ip_hlen = PNC_IPV6_HLEN;
		v->pkt_len = PNC_IPV6_HLEN + get_be16(pkt + 4);
		break;
	default:
		return PNC_E_IP_VERSION;
	}
	if (len < v->pkt_len)
		return PNC_E_IP_TRUNCATED;
	if (v->pkt_len < v->ip_hlen + PNC_UDP_HLEN)
		return PNC_E_UDP_TRUNCATED;
	udp = pkt + v->ip_hlen;
	v->udp_len = get_be16(udp + 4);
	if (v->udp_len != v->pkt_len - v->ip_hlen)
		return PNC_E_UDP_LEN;
	v->ip.sport = get_be16(udp);
	v->ip.dport = get_be16(udp + 2);
	v->udp_csum = get_be16(udp + 6);
	if (v->udp_csum) {
		if (udp_csum(pkt, v->ip.version, v->ip_hlen, v->udp_len) != 0)
			return PNC_E_UDP_CHECKSUM;
		v->ip.udp_csum = true;
	}
	v->payload = udp + PNC_UDP_HLEN;
	v->payload_len = v->udp_len - PNC_UDP_HLEN;
	return PNC_OK;
}
