// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Long-haul CNP, ICMPv6 and RoCEv2 forms (seed 000).
 */
#include <string.h>

#include "codec/icrc.h"
#include "codec/ipudp.h"
#include "codec/lhcnp.h"
#include "codec/wire.h"

#define LH_EXT_VERSION	   2
#define LH_CTYPE_TIMESTAMP 1
#define LH_CTYPE_DEVICE_ID 2
#define LH_CTYPE_PATH_ID   3

uint8_t pnc_lh_level_from_cl(uint8_t cl)
{
	if (cl > 7)
		cl = 7;
	return (uint8_t)(1u + cl * 254u / 7u);
}

uint8_t pnc_lh_level_to_cl(uint8_t level)
{
	if (!level)
		return 0;
	return (uint8_t)(((level - 1u) * 7u + 253u) / 254u);
}

const char *pnc_lh_action_name(uint8_t action)
{
	static const char *const names[4] = { "notify", "pause", "rate-reduce", "resume" };

	return names[action & 3];
}

uint32_t pnc_lh_queue_kb(uint64_t bytes)
{
	return bytes / 1000u > 0xffffffu ? 0xffffffu : (uint32_t)(bytes / 1000u);
}

static size_t round4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

/* One object: Length is the unpadded size (seed 000), zero pad to a word. */
static uint8_t *put_object(uint8_t *p, uint8_t class_num, uint8_t ctype, const void *data,
			   size_t len)
{
	put_be16(p, (uint16_t)(PNC_LH_OBJ_HLEN + len));
	p[2] = class_num;
	p[3] = ctype;
	memcpy(p + PNC_LH_OBJ_HLEN, data, len);
	memset(p + PNC_LH_OBJ_HLEN + len, 0, round4(len) - len);
	return p + PNC_LH_OBJ_HLEN + round4(len);
}

static size_t ext_len(const struct pnc_lh_ext *e)
{
	size_t n = PNC_LH_EXT_HLEN;

	if (e->has_timestamp)
		n += PNC_LH_OBJ_HLEN + 8;
	if (e->device_id[0])
		n += PNC_LH_OBJ_HLEN + round4(strnlen(e->device_id, PNC_LH_DEVICE_ID_MAX));
	if (e->path_id_len)
		n += PNC_LH_OBJ_HLEN + round4(e->path_id_len);
	return n;
}

int pnc_lh_body_encode(const struct pnc_lh_cnp *in, uint8_t *buf, size_t buflen, size_t *outlen)
{
	const struct pnc_lh_block *b = &in->block;
	const struct pnc_lh_ext *e = &in->ext;
	size_t len = PNC_LH_BLOCK_LEN;
	uint8_t *p;

	if (b->action > PNC_LH_RESUME || b->metric > 0xffffff ||
	    ((b->action == PNC_LH_RATE_REDUCE || b->action == PNC_LH_RESUME) &&
	     b->parameter > 100) ||
	    e->path_id_len > PNC_LH_PATH_ID_MAX ||
	    memchr(e->device_id, 0, sizeof(e->device_id)) == NULL)
		return PNC_E_INVALID_ARG;
	if (e->present)
		len += ext_len(e);
	if (buflen < len)
		return PNC_E_BUF_TOO_SMALL;

	buf[0] = b->level;
	buf[1] = (uint8_t)(b->action << 6);
	put_be16(buf + 2, b->parameter);
	put_be32(buf + 4, b->src_qp);
	buf[8] = b->metric_type;
	put_be24(buf + 9, b->metric);
	if (e->present) {
		uint8_t *ext = buf + PNC_LH_BLOCK_LEN;
		size_t dlen = strnlen(e->device_id, PNC_LH_DEVICE_ID_MAX);

		put_be32(ext, (uint32_t)LH_EXT_VERSION << 28);
		p = ext + PNC_LH_EXT_HLEN;
		if (e->has_timestamp) {
			uint8_t ts[8];

			put_be64(ts, e->timestamp);
			p = put_object(p, e->class_num, LH_CTYPE_TIMESTAMP, ts, sizeof(ts));
		}
		if (dlen)
			p = put_object(p, e->class_num, LH_CTYPE_DEVICE_ID, e->device_id, dlen);
		if (e->path_id_len)
			p = put_object(p, e->class_num, LH_CTYPE_PATH_ID, e->path_id,
				       e->path_id_len);
		/* RFC 4884: the checksum covers the extension structure. */
		if (e->checksum) {
			uint16_t c = csum_fold(csum_add(0, ext, (size_t)(p - ext)));

			/* 0 means "no checksum": a computed 0 goes out as 0xFFFF. */
			put_be16(ext + 2, c ? c : 0xffff);
		}
	}
	*outlen = len;
	return PNC_OK;
}

static int object_decode(const uint8_t *p, size_t olen, uint8_t class_num, struct pnc_lh_ext *e)
{
	const uint8_t *data = p + PNC_LH_OBJ_HLEN;
	size_t dlen = olen - PNC_LH_OBJ_HLEN;

	if (p[2] != class_num) {
		e->unknown++;
		return PNC_OK;
	}
	switch (p[3]) {
	case LH_CTYPE_TIMESTAMP:
		if (dlen != 8)
			return PNC_E_LH_EXT_OBJECT;
		e->has_timestamp = true;
		e->timestamp = get_be64(data);
		return PNC_OK;
	case LH_CTYPE_DEVICE_ID:
		/* A padded Length (RFC 4884 practice) leaves NULs: not part of it. */
		while (dlen && !data[dlen - 1])
			dlen--;
		if (dlen > PNC_LH_DEVICE_ID_MAX || memchr(data, 0, dlen))
			return PNC_E_LH_EXT_OBJECT;
		memcpy(e->device_id, data, dlen);
		e->device_id[dlen] = '\0';
		return PNC_OK;
	case LH_CTYPE_PATH_ID:
		if (!dlen || dlen > PNC_LH_PATH_ID_MAX)
			return PNC_E_LH_EXT_OBJECT;
		memcpy(e->path_id, data, dlen);
		e->path_id_len = dlen;
		return PNC_OK;
	}
	e->unknown++;
	return PNC_OK;
}

static int ext_decode(const uint8_t *ext, size_t len, uint8_t class_num, struct pnc_lh_ext *e)
{
	size_t off = PNC_LH_EXT_HLEN;
	int ret;

	if (len < PNC_LH_EXT_HLEN)
		return PNC_E_LH_TRUNCATED;
	/* The RoCEv2 form pads a message without extension to a CNP's size. */
	if (len == PNC_LH_EXT_HLEN && !get_be32(ext))
		return PNC_OK;
	if (ext[0] >> 4 != LH_EXT_VERSION)
		return PNC_E_LH_EXT_VERSION;
	e->present = true;
	e->class_num = class_num;
	if (get_be16(ext + 2)) {
		if (csum_fold(csum_add(0, ext, len)) != 0)
			return PNC_E_LH_EXT_CHECKSUM;
		e->checksum = true;
	}
	while (off < len) {
		size_t olen;

		if (len - off < PNC_LH_OBJ_HLEN)
			return PNC_E_LH_EXT_OBJECT;
		olen = get_be16(ext + off);
		/* Unpadded (seed 000) or padded (RFC 4884) Length: both end on a word. */
		if (olen < PNC_LH_OBJ_HLEN || round4(olen) > len - off)
			return PNC_E_LH_EXT_OBJECT;
		ret = object_decode(ext + off, olen, class_num, e);
		if (ret)
			return ret;
		off += round4(olen);
	}
	return PNC_OK;
}

int pnc_lh_body_decode(const uint8_t *buf, size_t len, uint8_t class_num, struct pnc_lh_cnp *out)
{
	struct pnc_lh_block *b = &out->block;

	memset(out, 0, sizeof(*out));
	if (len < PNC_LH_BLOCK_LEN)
		return PNC_E_LH_TRUNCATED;
	b->level = buf[0];
	b->action = buf[1] >> 6;
	b->parameter = get_be16(buf + 2);
	b->src_qp = get_be32(buf + 4);
	b->metric_type = buf[8];
	b->metric = get_be24(buf + 9);
	if ((b->action == PNC_LH_RATE_REDUCE || b->action == PNC_LH_RESUME) && b->parameter > 100)
		return PNC_E_LH_PARAMETER;
	if (len == PNC_LH_BLOCK_LEN)
		return PNC_OK;
	return ext_decode(buf + PNC_LH_BLOCK_LEN, len - PNC_LH_BLOCK_LEN, class_num, &out->ext);
}

/* ---- ICMPv6 ------------------------------------------------------------ */

static uint16_t icmp6_csum(const uint8_t *src, const uint8_t *dst, const uint8_t *msg, size_t len)
{
	uint32_t sum;

	sum = csum_add(0, src, 16);
	sum = csum_add(sum, dst, 16);
	sum += (uint32_t)len + PNC_IPPROTO_ICMPV6;
	return csum_fold(csum_add(sum, msg, len));
}

int pnc_lh_icmp6_encode(const struct pnc_lh_icmp6 *in, uint8_t *buf, size_t buflen, size_t *outlen)
{
	uint8_t *msg = buf + PNC_IPV6_HLEN;
	size_t body;
	int ret;

	if (in->flow_label > 0xfffff || in->type < 128)
		return PNC_E_INVALID_ARG;
	if (buflen < PNC_IPV6_HLEN + PNC_LH_ICMP6_HLEN)
		return PNC_E_BUF_TOO_SMALL;
	ret = pnc_lh_body_encode(&in->msg, msg + PNC_LH_ICMP6_HLEN,
				 buflen - PNC_IPV6_HLEN - PNC_LH_ICMP6_HLEN, &body);
	if (ret)
		return ret;

	put_be32(buf, 6u << 28 | (uint32_t)in->tclass << 20 | in->flow_label);
	put_be16(buf + 4, (uint16_t)(PNC_LH_ICMP6_HLEN + body));
	buf[6] = PNC_IPPROTO_ICMPV6;
	buf[7] = in->hop_limit;
	memcpy(buf + 8, in->src, 16);
	memcpy(buf + 24, in->dst, 16);
	msg[0] = in->type;
	msg[1] = in->code;
	put_be16(msg + 2, 0);
	put_be16(msg + 2, icmp6_csum(in->src, in->dst, msg, PNC_LH_ICMP6_HLEN + body));
	*outlen = PNC_IPV6_HLEN + PNC_LH_ICMP6_HLEN + body;
	return PNC_OK;
}

int pnc_lh_icmp6_msg_decode(const uint8_t *msg, size_t len, uint8_t type, uint8_t class_num,
			    struct pnc_lh_icmp6 *out)
{
	if (len < PNC_LH_ICMP6_HLEN)
		return PNC_E_LH_TRUNCATED;
	if (msg[0] != type)
		return PNC_E_LH_NOT_LONG_HAUL;
	out->type = msg[0];
	out->code = msg[1];
	return pnc_lh_body_decode(msg + PNC_LH_ICMP6_HLEN, len - PNC_LH_ICMP6_HLEN, class_num,
				  &out->msg);
}

int pnc_lh_icmp6_decode(const uint8_t *pkt, size_t len, uint8_t type, uint8_t class_num,
			struct pnc_lh_icmp6 *out)
{
	size_t plen;

	memset(out, 0, sizeof(*out));
	if (len < PNC_IPV6_HLEN)
		return PNC_E_IP_TRUNCATED;
	if (pkt[0] >> 4 != 6)
		return PNC_E_IP_VERSION;
	/* Extension headers are not expected on a message the proxy builds. */
	if (pkt[6] != PNC_IPPROTO_ICMPV6)
		return PNC_E_LH_NOT_LONG_HAUL;
	plen = get_be16(pkt + 4);
	if (len < PNC_IPV6_HLEN + plen)
		return PNC_E_IP_TRUNCATED;
	if (plen < PNC_LH_ICMP6_HLEN)
		return PNC_E_LH_TRUNCATED;
	if (pkt[PNC_IPV6_HLEN] == type &&
	    icmp6_csum(pkt + 8, pkt + 24, pkt + PNC_IPV6_HLEN, plen) != 0)
		return PNC_E_LH_CHECKSUM;
	out->tclass = (uint8_t)(get_be32(pkt) >> 20);
	out->flow_label = get_be32(pkt) & 0xfffff;
	out->hop_limit = pkt[7];
	memcpy(out->src, pkt + 8, 16);
	memcpy(out->dst, pkt + 24, 16);
	return pnc_lh_icmp6_msg_decode(pkt + PNC_IPV6_HLEN, plen, type, class_num, out);
}

/* ---- RoCEv2 ------------------------------------------------------------ */

int pnc_lh_roce_encode(const struct pnc_lh_roce *in, uint8_t *buf, size_t buflen, size_t *outlen)
{
	uint8_t body[PNC_LH_BLOCK_LEN + PNC_LH_EXT_MAX];
	struct pnc_bth bth = {
		.opcode = PNC_OP_CNP,
		.pkey = in->pkey,
		.becn = true,
		.resv6 = PNC_BTH_RESV6_EBIT,
		.dest_qp = in->dest_qp,
	};
	size_t len;
	int ret;

	ret = pnc_lh_body_encode(&in->msg, body, sizeof(body), &len);
	if (ret)
		return ret;
	if (in->cnp_sized && !in->msg.ext.present) {
		/* A standard CNP's length: its 16 reserved octets, 12 used. */
		memset(body + len, 0, PNC_CNP_RSVD_LEN - len);
		len = PNC_CNP_RSVD_LEN;
	}
	return pnc_roce_encode(&in->ip, &bth, body, len, buf, buflen, outlen);
}

int pnc_lh_roce_decode(const uint8_t *pkt, size_t len, uint8_t class_num, struct pnc_lh_roce *out)
{
	struct pnc_roce_view v;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = pnc_roce_parse(pkt, len, 0, &v);
	if (ret)
		return ret;
	if (v.bth.opcode != PNC_OP_CNP || !(v.bth.resv6 & PNC_BTH_RESV6_EBIT))
		return PNC_E_LH_NOT_LONG_HAUL;
	if (v.bth.pad)
		return PNC_E_BTH_PAD;
	out->ip = v.ip;
	out->pkey = v.bth.pkey;
	out->dest_qp = v.bth.dest_qp;
	return pnc_lh_body_decode(pkt + v.ext_off, PNC_LH_BLOCK_LEN + v.payload_len, class_num,
				  &out->msg);
}
