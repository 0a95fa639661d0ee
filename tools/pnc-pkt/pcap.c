// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pnc-pkt: classic pcap files (not pcapng).  Writes LINKTYPE_RAW (the IP
 * header first) or Ethernet; reads both byte orders, micro- and
 * nanosecond timestamps, and finds the IP header in LINKTYPE_RAW,
 * LINKTYPE_IPV4/IPV6 and Ethernet frames with or without 802.1Q tags.
 */
#include <string.h>

#include "pnc_pkt.h"
#include "codec/ipudp.h"
#include "codec/wire.h"

#define PCAP_MAGIC_US 0xa1b2c3d4u
#define PCAP_MAGIC_NS 0xa1b23c4du
#define LINKTYPE_IPV4 228
#define LINKTYPE_IPV6 229
#define PCAP_SNAPLEN  65535

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* pcap files are written little-endian, as on the hosts we run on. */
int pcap_write_header(FILE *f, uint32_t linktype)
{
	uint8_t h[24];

	put_le32(h, PCAP_MAGIC_US);
	h[4] = 2, h[5] = 0; /* version 2.4 */
	h[6] = 4, h[7] = 0;
	put_le32(h + 8, 0);  /* thiszone */
	put_le32(h + 12, 0); /* sigfigs */
	put_le32(h + 16, PCAP_SNAPLEN);
	put_le32(h + 20, linktype);
	return fwrite(h, sizeof(h), 1, f) == 1 ? 0 : -1;
}

int pcap_write_packet(FILE *f, const uint8_t *pkt, size_t len, uint32_t sec, uint32_t usec)
{
	uint8_t h[16];

	put_le32(h, sec);
	put_le32(h + 4, usec);
	put_le32(h + 8, (uint32_t)len);
	put_le32(h + 12, (uint32_t)len);
	if (fwrite(h, sizeof(h), 1, f) != 1 || fwrite(pkt, 1, len, f) != len)
		return -1;
	return 0;
}

int pcap_open(struct pcap_reader *r, FILE *f)
{
	uint8_t h[24];
	uint32_t magic;

	if (fread(h, sizeof(h), 1, f) != 1)
		return -1;
	magic = get_le32(h);
	if (magic == PCAP_MAGIC_US || magic == PCAP_MAGIC_NS)
		r->swap = false;
	else if (get_be32(h) == PCAP_MAGIC_US || get_be32(h) == PCAP_MAGIC_NS)
		r->swap = true;
	else
		return -1;
	r->f = f;
	r->linktype = (r->swap ? get_be32(h + 20) : get_le32(h + 20)) & 0xffff;
	return 0;
}

int pcap_next(struct pcap_reader *r, uint8_t *buf, size_t buflen, size_t *len)
{
	uint8_t h[16];
	uint32_t incl;
	size_t n;

	n = fread(h, 1, sizeof(h), r->f);
	if (n == 0)
		return 0;
	if (n != sizeof(h))
		return -1;
	incl = r->swap ? get_be32(h + 8) : get_le32(h + 8);
	if (incl > buflen)
		return -1;
	if (fread(buf, 1, incl, r->f) != incl)
		return -1;
	*len = incl;
	return 1;
}

int link_ip_offset(uint32_t linktype, const uint8_t *frame, size_t len, size_t *off)
{
	size_t o = 12;
	uint16_t type;

	switch (linktype) {
	case LINKTYPE_RAW:
	case LINKTYPE_IPV4:
	case LINKTYPE_IPV6:
		*off = 0;
		return 0;
	case LINKTYPE_ETHERNET:
		break;
	default:
		return PKT_E_PCAP_LINKTYPE;
	}
	for (;;) {
		if (len < o + 2)
			return PKT_E_ETH_TRUNCATED;
		type = get_be16(frame + o);
		/* 802.1Q, 802.1ad and the old QinQ type: skip the tag */
		if (type == 0x8100 || type == 0x88a8 || type == 0x9100) {
			o += 4;
			continue;
		}
		break;
	}
	if (type != 0x0800 && type != 0x86dd)
		return PKT_E_ETH_NOT_IP;
	*off = o + 2;
	return 0;
}

/* Locally administered, made-up MACs: 02:00:00:00:00:02 <- :01. */
size_t eth_wrap(const uint8_t *pkt, size_t len, uint8_t *out, size_t outlen)
{
	static const uint8_t dst[6] = { 2, 0, 0, 0, 0, 2 }, src[6] = { 2, 0, 0, 0, 0, 1 };

	if (outlen < len + PNC_ETH_HLEN || len < 1)
		return 0;
	pnc_eth_write(out, dst, src, pkt[0] >> 4);
	memcpy(out + PNC_ETH_HLEN, pkt, len);
	return len + PNC_ETH_HLEN;
}
