// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * IPv4/IPv6 + UDP headers.
 */
#include <string.h>

#include "codec/errors.h"
#include "codec/ipudp.h"
#include "codec/wire.h"


static size_t ip_hlen(uint8_t version)
{
	return version == 4 ? PNC_IPV4_HLEN : PNC_IPV6_HLEN;
}

int pnc_ipudp_write(const struct pnc_ip_udp *ip, size_t payload_len, uint8_t *buf, size_t buflen,
		    size_t *hdr_len, size_t *total)
{
	size_t hlen, udp_len, tot;
	uint8_t *udp;

	if (ip->version != 4 && ip->version != 6)
		return PNC_E_INVALID_ARG;
	if (ip->version == 6 && ip->flow_label > 0xfffff)
		return PNC_E_INVALID_ARG;
	if (payload_len > 0xffff)
		return PNC_E_INVALID_ARG;
	hlen = ip_hlen(ip->version);
	udp_len = PNC_UDP_HLEN + payload_len;
	tot = hlen + udp_len;
	if (udp_len > 0xffff || (ip->version == 4 && tot > 0xffff))
		return PNC_E_INVALID_ARG;
	if (buflen < tot)
		return PNC_E_BUF_TOO_SMALL;

	if (ip->version == 4) {
		buf[0] = 0x45;
		buf[1] = ip->tos;
		put_be16(buf + 2, (uint16_t)tot);
		put_be16(buf + 4, ip->ip_id);
		put_be16(buf + 6, ip->df ? 0x4000 : 0);
		buf[8] = ip->ttl;
		buf[9] = PNC_IPPROTO_UDP;
		put_be16(buf + 10, 0);
		memcpy(buf + 12, ip->src, 4);
		memcpy(buf + 16, ip->dst, 4);
	} else {
		put_be32(buf, 6u << 28 | (uint32_t)ip->tos << 20 | ip->flow_label);
		put_be16(buf + 4, (uint16_t)udp_len);
		buf[6] = PNC_IPPROTO_UDP;
		buf[7] = ip->ttl;
		memcpy(buf + 8, ip->src, 16);
		memcpy(buf + 24, ip->dst, 16);
	}
	udp = buf + hlen;
	put_be16(udp, ip->sport);
	put_be16(udp + 2, ip->dport);
	put_be16(udp + 4, (uint16_t)udp_len);
	put_be16(udp + 6, 0);

	*hdr_len = hlen + PNC_UDP_HLEN;
	*total = tot;
	return PNC_OK;
}

uint16_t pnc_ipudp_csum(const uint8_t *pkt, uint8_t version, size_t hlen, size_t udp_len)
{
	uint32_t sum;

	if (version == 4)
		sum = csum_add(0, pkt + 12, 8);
	else
		sum = csum_add(0, pkt + 8, 32);
	sum += PNC_IPPROTO_UDP + (uint32_t)udp_len;
	return csum_fold(csum_add(sum, pkt + hlen, udp_len));
}

void pnc_ipudp_finish(const struct pnc_ip_udp *ip, uint8_t *buf, size_t total)
{
	size_t hlen = ip_hlen(ip->version);

	if (ip->version == 4)
		put_be16(buf + 10, csum_fold(csum_add(0, buf, PNC_IPV4_HLEN)));
	if (ip->udp_csum) {
		uint16_t c = pnc_ipudp_csum(buf, ip->version, hlen, total - hlen);

		/* 0 means "no checksum"; a computed 0 is sent as 0xFFFF */
		put_be16(buf + hlen + 6, c ? c : 0xffff);
	}
}

int pnc_ipudp_parse_ip(const uint8_t *pkt, size_t len, struct pnc_ip_udp *ip, size_t *hdr_len,
		       size_t *pkt_len)
{
	return pnc_ip_parse(pkt, len, PNC_IPPROTO_UDP, ip, hdr_len, pkt_len);
}

int pnc_ip_fixed_hlen(const uint8_t *pkt, size_t len, size_t *hdr_len)
{
	if (len < 1)
		return PNC_E_IP_TRUNCATED;
	switch (pkt[0] >> 4) {
	case 4:
		if (len < PNC_IPV4_HLEN)
			return PNC_E_IP_TRUNCATED;
		if ((pkt[0] & 0x0f) < 5)
			return PNC_E_IP_HDR_LEN;
		/* RoCEv2 stacks and the ICRC assume a 20-octet header */
		if ((pkt[0] & 0x0f) > 5)
			return PNC_E_IP_OPTIONS;
		*hdr_len = PNC_IPV4_HLEN;
		return PNC_OK;
	case 6:
		if (len < PNC_IPV6_HLEN)
			return PNC_E_IP_TRUNCATED;
		*hdr_len = PNC_IPV6_HLEN;
		return PNC_OK;
	}
	return PNC_E_IP_VERSION;
}

int pnc_ip_parse(const uint8_t *pkt, size_t len, uint8_t proto, struct pnc_ip_udp *ip,
		 size_t *hdr_len, size_t *pkt_len)
{
	uint16_t frag;
	int err;

	err = pnc_ip_fixed_hlen(pkt, len, hdr_len);
	if (err)
		return err;
	switch (pkt[0] >> 4) {
	case 4:
		if (csum_fold(csum_add(0, pkt, PNC_IPV4_HLEN)) != 0)
			return PNC_E_IP_CHECKSUM;
		*pkt_len = get_be16(pkt + 2);
		if (*pkt_len < PNC_IPV4_HLEN)
			return PNC_E_IP_TOTAL_LEN;
		frag = get_be16(pkt + 6);
		/* MF or a fragment offset: the UDP header may not be here */
		if (frag & 0x3fff)
			return PNC_E_IP_FRAGMENT;
		if (pkt[9] != proto)
			return PNC_E_IP_NOT_UDP;
		ip->version = 4;
		ip->tos = pkt[1];
		ip->ip_id = get_be16(pkt + 4);
		ip->df = frag & 0x4000;
		ip->ttl = pkt[8];
		memcpy(ip->src, pkt + 12, 4);
		memcpy(ip->dst, pkt + 16, 4);
		return PNC_OK;
	case 6:
		/* extension headers are outside what RoCEv2 handles (3.2) */
		if (pkt[6] != proto)
			return PNC_E_IP_NOT_UDP;
		ip->version = 6;
		ip->tos = (uint8_t)(get_be32(pkt) >> 20);
		ip->flow_label = get_be32(pkt) & 0xfffff;
		ip->ttl = pkt[7];
		memcpy(ip->src, pkt + 8, 16);
		memcpy(ip->dst, pkt + 24, 16);
		*pkt_len = PNC_IPV6_HLEN + get_be16(pkt + 4);
		return PNC_OK;
	}
	return PNC_E_IP_VERSION;
}

int pnc_ipudp_parse(const uint8_t *pkt, size_t len, unsigned int flags, struct pnc_udp_view *v)
{
	const uint8_t *udp;
	int ret;

	memset(v, 0, sizeof(*v));
	ret = pnc_ipudp_parse_ip(pkt, len, &v->ip, &v->ip_hlen, &v->pkt_len);
	if (ret)
		return ret;
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
	if (v->udp_csum && !(flags & PNC_IPUDP_F_NO_CSUM)) {
		if (pnc_ipudp_csum(pkt, v->ip.version, v->ip_hlen, v->udp_len) != 0)
			return PNC_E_UDP_CHECKSUM;
		v->ip.udp_csum = true;
	}
	v->payload = udp + PNC_UDP_HLEN;
	v->payload_len = v->udp_len - PNC_UDP_HLEN;
	return PNC_OK;
}


uint16_t pnc_eth_l3(const uint8_t *frame, size_t len, size_t *l3_off)
{
	uint16_t type;

	if (len < PNC_ETH_HLEN)
		return 0;
	type = get_be16(frame + 12);
	*l3_off = PNC_ETH_HLEN;
	if (type == PNC_ETH_P_8021Q || type == PNC_ETH_P_8021AD) {
		if (len < PNC_ETH_HLEN + PNC_VLAN_HLEN)
			return 0;
		type = get_be16(frame + 16);
		*l3_off += PNC_VLAN_HLEN;
	}
	return type;
}

void pnc_eth_write(uint8_t out[PNC_ETH_HLEN], const uint8_t dst[6], const uint8_t src[6],
		   uint8_t ip_version)
{
	memcpy(out, dst, 6);
	memcpy(out + 6, src, 6);
	put_be16(out + 12, ip_version == 6 ? PNC_ETH_P_IPV6 : PNC_ETH_P_IP);
}
