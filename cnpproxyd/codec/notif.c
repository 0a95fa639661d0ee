// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Seed 002 notification (v1 layout, doc/wire-formats.md 6.2) and seed 001
 * flow-label FCN (6.3).
 */
#include <string.h>

#include "notif.h"
#include "wire.h"


static size_t notif_hlen(uint8_t af)
{
	return af == 4 ? PNC_NOTIF_HLEN4 : PNC_NOTIF_HLEN6;
}

int pnc_notif_encode(const struct pnc_notif *in, uint8_t *buf, size_t buflen, size_t *outlen)
{
	size_t hlen, alen, max, inv;

	if ((in->af != 4 && in->af != 6) || in->cl > 7 || in->start > PNC_NOTIF_START_MPLS)
		return PNC_E_INVALID_ARG;
	if (in->carrier_af != 4 && in->carrier_af != 6)
		return PNC_E_INVALID_ARG;
	if (in->invoking_len && !in->invoking)
		return PNC_E_INVALID_ARG;
	hlen = notif_hlen(in->af);
	alen = in->af == 4 ? 4 : 16;
	max = in->carrier_af == 4 ? PNC_NOTIF_MAX_LEN4 : PNC_NOTIF_MAX_LEN6;
	/* "as much of the invoking packet as fits" (section 6.1) */
	inv = in->invoking_len;
	if (inv > max - hlen)
		inv = max - hlen;
	if (buflen < hlen + inv)
		return PNC_E_BUF_TOO_SMALL;

	buf[0] = (uint8_t)(PNC_NOTIF_VERSION << 4 | in->af);
	buf[1] = in->protocol;
	buf[2] = (uint8_t)(in->cl << 5 | (inv ? PNC_NOTIF_F_INVOKING : 0));
	buf[3] = in->start;
	put_be16(buf + 4, in->sport);
	put_be16(buf + 6, in->dport);
	memcpy(buf + 8, in->src, alen);
	memcpy(buf + 8 + alen, in->dst, alen);
	if (inv)
		memcpy(buf + hlen, in->invoking, inv);
	if (outlen)
		*outlen = hlen + inv;
	return PNC_OK;
}

int pnc_notif_decode(const uint8_t *buf, size_t len, struct pnc_notif *out)
{
	size_t hlen, alen;
	uint8_t af;
	bool has_inv;

	if (len < 1)
		return PNC_E_NOTIF_TRUNCATED;
	/* version first: a later layout may differ in everything else */
	if (buf[0] >> 4 != PNC_NOTIF_VERSION)
		return PNC_E_NOTIF_VERSION;
	af = buf[0] & 0x0f;
	if (af != 4 && af != 6)
		return PNC_E_NOTIF_AF;
	hlen = notif_hlen(af);
	if (len < hlen)
		return PNC_E_NOTIF_TRUNCATED;
	if (len > PNC_NOTIF_MAX_LEN6)
		return PNC_E_NOTIF_TOO_LONG;
	if (buf[3] > PNC_NOTIF_START_MPLS)
		return PNC_E_NOTIF_START;
	has_inv = buf[2] & PNC_NOTIF_F_INVOKING;
	if (has_inv && len == hlen)
		return PNC_E_NOTIF_INVOKING_MISSING;
	if (!has_inv && len > hlen)
		return PNC_E_NOTIF_TRAILING;

	memset(out, 0, sizeof(*out));
	alen = af == 4 ? 4 : 16;
	out->af = af;
	out->protocol = buf[1];
	out->cl = buf[2] >> 5;
	out->start = buf[3];
	out->sport = get_be16(buf + 4);
	out->dport = get_be16(buf + 6);
	memcpy(out->src, buf + 8, alen);
	memcpy(out->dst, buf + 8 + alen, alen);
	if (has_inv) {
		out->invoking = buf + hlen;
		out->invoking_len = len - hlen;
	}
	return PNC_OK;
}

int pnc_notif_invoking_roce(const struct pnc_notif *n, size_t *ip_off, struct pnc_roce_view *v)
{
	size_t off = 0;

	if (!n->invoking_len)
		return PNC_E_NOTIF_NO_INVOKING;
	switch (n->start) {
	case PNC_NOTIF_START_INNER_IP:
	case PNC_NOTIF_START_OUTER_IP:
		break;
	case PNC_NOTIF_START_MPLS:
		/* pop labels up to and including the one with bottom of stack */
		for (;;) {
			if (n->invoking_len < off + 4)
				return PNC_E_MPLS_TRUNCATED;
			off += 4;
			if (n->invoking[off - 2] & 0x01)
				break;
		}
		break;
	default:
		return PNC_E_NOTIF_START;
	}
	*ip_off = off;
	return pnc_roce_parse(n->invoking + off, n->invoking_len - off, PNC_ROCE_F_TRUNCATED, v);
}

/* ---- ICMP form --------------------------------------------------------- */


static uint32_t icmp_sum(const struct pnc_notif_icmp *ic, size_t len)
{
	uint32_t sum = 0;

	/* ICMPv6 covers the RFC 8200 pseudo header; ICMPv4 does not. */
	if (ic->version == 6) {
		sum = csum_add(0, ic->src6, 16);
		sum = csum_add(sum, ic->dst6, 16);
		sum += (uint32_t)len + PNC_IPPROTO_ICMPV6;
	}
	return sum;
}

int pnc_notif_icmp_encode(const struct pnc_notif_icmp *ic, const struct pnc_notif *in,
			  uint8_t *buf, size_t buflen, size_t *outlen)
{
	struct pnc_notif body = *in;
	size_t blen;
	int ret;

	if (ic->version != 4 && ic->version != 6)
		return PNC_E_INVALID_ARG;
	if (buflen < PNC_NOTIF_ICMP_HLEN)
		return PNC_E_BUF_TOO_SMALL;
	body.carrier_af = ic->version;
	ret = pnc_notif_encode(&body, buf + PNC_NOTIF_ICMP_HLEN, buflen - PNC_NOTIF_ICMP_HLEN,
			       &blen);
	if (ret)
		return ret;
	buf[0] = ic->type;
	buf[1] = 0;
	put_be16(buf + 2, 0);
	put_be32(buf + 4, 0);
	if (ic->version == 4 || (ic->src6 && ic->dst6))
		put_be16(buf + 2, csum_fold(csum_add(icmp_sum(ic, PNC_NOTIF_ICMP_HLEN + blen), buf,
						     PNC_NOTIF_ICMP_HLEN + blen)));
	if (outlen)
		*outlen = PNC_NOTIF_ICMP_HLEN + blen;
	return PNC_OK;
}

int pnc_notif_icmp_decode(const struct pnc_notif_icmp *ic, const uint8_t *buf, size_t len,
			  struct pnc_notif *out)
{
	if (len < PNC_NOTIF_ICMP_HLEN)
		return PNC_E_NOTIF_TRUNCATED;
	if (buf[0] != ic->type)
		return PNC_E_NOTIF_ICMP_TYPE;
	if (buf[1] != 0)
		return PNC_E_NOTIF_ICMP_CODE;
	if ((ic->version == 4 || (ic->src6 && ic->dst6)) &&
	    csum_fold(csum_add(icmp_sum(ic, len), buf, len)) != 0)
		return PNC_E_NOTIF_ICMP_CHECKSUM;
	return pnc_notif_decode(buf + PNC_NOTIF_ICMP_HLEN, len - PNC_NOTIF_ICMP_HLEN, out);
}

/* ---- Seed 001 flow-label FCN ------------------------------------------- */

int pnc_fcn_encode(const struct pnc_fcn *in, uint8_t *buf, size_t buflen, size_t *outlen)
{
	if (!in->flow_label || in->flow_label > 0xfffff || in->cl > 7)
		return PNC_E_INVALID_ARG;
	if (buflen < PNC_FCN_LEN)
		return PNC_E_BUF_TOO_SMALL;
	put_be32(buf, in->flow_label << 12 | (uint32_t)in->cl << 9);
	if (outlen)
		*outlen = PNC_FCN_LEN;
	return PNC_OK;
}

int pnc_fcn_decode(const uint8_t *buf, size_t len, struct pnc_fcn *out)
{
	uint32_t w;

	if (len < PNC_FCN_LEN)
		return PNC_E_FCN_TRUNCATED;
	/* the message is exactly 4 octets (UDP length 12) */
	if (len > PNC_FCN_LEN)
		return PNC_E_FCN_TRAILING;
	w = get_be32(buf);
	if (!(w >> 12))
		return PNC_E_FCN_ZERO_LABEL;
	out->flow_label = w >> 12;
	out->cl = (w >> 9) & 7;
	return PNC_OK;
}
