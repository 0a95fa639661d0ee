// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RoCEv2 headers and packets: BTH, RETH/AETH/DETH, generic parse and
 * build from the IP header, standard CNP, RC data and RC ACK.
 */
#include <string.h>

#include "icrc.h"
#include "ipudp.h"
#include "roce.h"
#include "wire.h"

void pnc_ip_udp_init(struct pnc_ip_udp *ip, uint8_t version)
{
	memset(ip, 0, sizeof(*ip));
	ip->version = version;
	ip->ttl = PNC_IP_TTL;
	ip->df = true;
	/* RNICs draw the source port from 0xC000-0xFFFF as flow entropy */
	ip->sport = PNC_UDP_SPORT_DEFAULT;
	ip->dport = PNC_ROCE_UDP_PORT;
}

int pnc_bth_ext_len(uint8_t opcode)
{
	/* RC opcodes 0x00-0x1d; UC uses the same layouts for 0x00-0x0b. */
	static const int8_t rc_ext[32] = {
		[PNC_OP_RC_SEND_FIRST] = 0,
		[PNC_OP_RC_SEND_MIDDLE] = 0,
		[PNC_OP_RC_SEND_LAST] = 0,
		[PNC_OP_RC_SEND_LAST_IMM] = PNC_IMMDT_LEN,
		[PNC_OP_RC_SEND_ONLY] = 0,
		[PNC_OP_RC_SEND_ONLY_IMM] = PNC_IMMDT_LEN,
		[PNC_OP_RC_WRITE_FIRST] = PNC_RETH_LEN,
		[PNC_OP_RC_WRITE_MIDDLE] = 0,
		[PNC_OP_RC_WRITE_LAST] = 0,
		[PNC_OP_RC_WRITE_LAST_IMM] = PNC_IMMDT_LEN,
		[PNC_OP_RC_WRITE_ONLY] = PNC_RETH_LEN,
		[PNC_OP_RC_WRITE_ONLY_IMM] = PNC_RETH_LEN + PNC_IMMDT_LEN,
		[PNC_OP_RC_READ_REQ] = PNC_RETH_LEN,
		[PNC_OP_RC_READ_RESP_FIRST] = PNC_AETH_LEN,
		[PNC_OP_RC_READ_RESP_MIDDLE] = 0,
		[PNC_OP_RC_READ_RESP_LAST] = PNC_AETH_LEN,
		[PNC_OP_RC_READ_RESP_ONLY] = PNC_AETH_LEN,
		[PNC_OP_RC_ACK] = PNC_AETH_LEN,
		[PNC_OP_RC_ATOMIC_ACK] = PNC_AETH_LEN + 8, /* + AtomicAckETH */
		[PNC_OP_RC_CMP_SWAP] = 28,		   /* AtomicETH */
		[PNC_OP_RC_FETCH_ADD] = 28,
		[0x15] = -1,		       /* reserved */
		[PNC_OP_RC_SEND_LAST_INV] = 4, /* IETH */
		[PNC_OP_RC_SEND_ONLY_INV] = 4,
		[0x18] = -1,
		[0x19] = -1,
		[0x1a] = -1,
		[0x1b] = -1,
		[PNC_OP_RC_FLUSH] = 4 + PNC_RETH_LEN,	 /* FETH + RETH, as in rxe */
		[PNC_OP_RC_ATOMIC_WRITE] = PNC_RETH_LEN, /* + 8 octets of payload */
		[0x1e] = -1,
		[0x1f] = -1,
	};
	uint8_t code = opcode & 0x1f;

	switch (opcode >> 5) {
	case 0: /* RC */
		return rc_ext[code];
	case 1: /* UC: SEND and RDMA WRITE only */
		return code <= PNC_OP_RC_WRITE_ONLY_IMM ? rc_ext[code] : -1;
	case 3: /* UD */
		if (opcode == PNC_OP_UD_SEND_ONLY)
			return PNC_DETH_LEN;
		if (opcode == PNC_OP_UD_SEND_ONLY_IMM)
			return PNC_DETH_LEN + PNC_IMMDT_LEN;
		return -1;
	case 4:
		/* The CNP's 16 reserved octets count as its extension. */
		return opcode == PNC_OP_CNP ? PNC_CNP_RSVD_LEN : -1;
	}
	return -1;
}

/* ---- BTH and extension headers -------------------------------------- */

int pnc_bth_encode(const struct pnc_bth *in, uint8_t *buf, size_t buflen, size_t *outlen)
{
	if (in->pad > 3 || in->tver > 0xf || in->resv6 > 0x3f || in->resv7 > 0x7f ||
	    in->dest_qp > 0xffffff || in->psn > 0xffffff)
		return PNC_E_INVALID_ARG;
	if (buflen < PNC_BTH_LEN)
		return PNC_E_BUF_TOO_SMALL;
	buf[PNC_BTH_OFF_OPCODE] = in->opcode;
	buf[PNC_BTH_OFF_FLAGS] = (uint8_t)(in->se << 7 | in->mig << 6 |
					   in->pad << PNC_BTH_PAD_SHIFT | in->tver);
	put_be16(buf + PNC_BTH_OFF_PKEY, in->pkey);
	buf[PNC_BTH_OFF_FB] = (uint8_t)(in->fecn << 7 | in->becn << 6 | in->resv6);
	put_be24(buf + PNC_BTH_OFF_DEST_QP, in->dest_qp);
	buf[PNC_BTH_OFF_ACK] = (uint8_t)(in->ack_req << 7 | in->resv7);
	put_be24(buf + PNC_BTH_OFF_PSN, in->psn);
	if (outlen)
		*outlen = PNC_BTH_LEN;
	return PNC_OK;
}

int pnc_bth_decode(const uint8_t *buf, size_t len, struct pnc_bth *out)
{
	if (len < PNC_BTH_LEN)
		return PNC_E_BTH_TRUNCATED;
	/* IBTA: a packet with an unsupported TVer is dropped */
	if (buf[PNC_BTH_OFF_FLAGS] & PNC_BTH_TVER_MASK)
		return PNC_E_BTH_TVER;
	out->opcode = buf[PNC_BTH_OFF_OPCODE];
	out->se = buf[PNC_BTH_OFF_FLAGS] & 0x80;
	out->mig = buf[PNC_BTH_OFF_FLAGS] & 0x40;
	out->pad = (buf[PNC_BTH_OFF_FLAGS] >> PNC_BTH_PAD_SHIFT) & 0x3;
	out->tver = 0;
	out->pkey = get_be16(buf + PNC_BTH_OFF_PKEY);
	out->fecn = buf[PNC_BTH_OFF_FB] & 0x80;
	out->becn = buf[PNC_BTH_OFF_FB] & 0x40;
	out->resv6 = buf[PNC_BTH_OFF_FB] & 0x3f;
	out->dest_qp = get_be24(buf + PNC_BTH_OFF_DEST_QP);
	out->ack_req = buf[PNC_BTH_OFF_ACK] & PNC_BTH_ACKREQ;
	out->resv7 = buf[PNC_BTH_OFF_ACK] & 0x7f;
	out->psn = get_be24(buf + PNC_BTH_OFF_PSN);
	return PNC_OK;
}

int pnc_reth_encode(const struct pnc_reth *in, uint8_t *buf, size_t buflen, size_t *outlen)
{
	if (buflen < PNC_RETH_LEN)
		return PNC_E_BUF_TOO_SMALL;
	put_be64(buf, in->va);
	put_be32(buf + 8, in->rkey);
	put_be32(buf + 12, in->dma_len);
	if (outlen)
		*outlen = PNC_RETH_LEN;
	return PNC_OK;
}

int pnc_reth_decode(const uint8_t *buf, size_t len, struct pnc_reth *out)
{
	if (len < PNC_RETH_LEN)
		return PNC_E_EXT_TRUNCATED;
	out->va = get_be64(buf);
	out->rkey = get_be32(buf + 8);
	out->dma_len = get_be32(buf + 12);
	return PNC_OK;
}

int pnc_aeth_encode(const struct pnc_aeth *in, uint8_t *buf, size_t buflen, size_t *outlen)
{
	if (in->msn > 0xffffff)
		return PNC_E_INVALID_ARG;
	if (buflen < PNC_AETH_LEN)
		return PNC_E_BUF_TOO_SMALL;
	buf[0] = in->syndrome;
	put_be24(buf + 1, in->msn);
	if (outlen)
		*outlen = PNC_AETH_LEN;
	return PNC_OK;
}

int pnc_aeth_decode(const uint8_t *buf, size_t len, struct pnc_aeth *out)
{
	uint8_t type, value;

	if (len < PNC_AETH_LEN)
		return PNC_E_EXT_TRUNCATED;
	type = buf[0] >> 5;
	value = buf[0] & 0x1f;
	/* 010 and 1xx are reserved; NAK codes above 4 are reserved too */
	if (type != PNC_AETH_ACK && type != PNC_AETH_RNR_NAK && type != PNC_AETH_NAK)
		return PNC_E_AETH_SYNDROME;
	if (type == PNC_AETH_NAK && value > PNC_NAK_INVALID_RD_REQ)
		return PNC_E_AETH_SYNDROME;
	out->syndrome = buf[0];
	out->msn = get_be24(buf + 1);
	return PNC_OK;
}

int pnc_deth_encode(const struct pnc_deth *in, uint8_t *buf, size_t buflen, size_t *outlen)
{
	if (in->src_qp > 0xffffff)
		return PNC_E_INVALID_ARG;
	if (buflen < PNC_DETH_LEN)
		return PNC_E_BUF_TOO_SMALL;
	put_be32(buf, in->qkey);
	buf[4] = 0;
	put_be24(buf + 5, in->src_qp);
	if (outlen)
		*outlen = PNC_DETH_LEN;
	return PNC_OK;
}

int pnc_deth_decode(const uint8_t *buf, size_t len, struct pnc_deth *out)
{
	if (len < PNC_DETH_LEN)
		return PNC_E_EXT_TRUNCATED;
	out->qkey = get_be32(buf);
	out->src_qp = get_be24(buf + 5);
	return PNC_OK;
}

/* ---- Generic packet: build ------------------------------------------- */

/*
 * Write IP, UDP and BTH for a packet carrying body_len octets after the
 * BTH, and zero the pad octets.  The caller fills the body and then
 * calls roce_finish().
 */
static int roce_begin(const struct pnc_ip_udp *ip, const struct pnc_bth *bth, size_t body_len,
		      uint8_t *buf, size_t buflen, size_t *body_off, size_t *total)
{
	struct pnc_bth b = *bth;
	size_t pad, hdr_len;
	int ret;

	if (body_len > 0xffff)
		return PNC_E_INVALID_ARG;
	/* IBTA: payload plus pad is a multiple of 4 octets */
	pad = (4 - (body_len & 3)) & 3;
	ret = pnc_ipudp_write(ip, PNC_BTH_LEN + body_len + pad + PNC_ICRC_LEN, buf, buflen,
			      &hdr_len, total);
	if (ret)
		return ret;

	b.pad = (uint8_t)pad;
	ret = pnc_bth_encode(&b, buf + hdr_len, PNC_BTH_LEN, NULL);
	if (ret)
		return ret;

	*body_off = hdr_len + PNC_BTH_LEN;
	memset(buf + *body_off + body_len, 0, pad);
	return PNC_OK;
}

/* ICRC first: it masks the checksums that the finish computes. */
static int roce_finish(const struct pnc_ip_udp *ip, uint8_t *buf, size_t total)
{
	int ret;

	ret = pnc_icrc_write(buf, total);
	if (ret)
		return ret;
	pnc_ipudp_finish(ip, buf, total);
	return PNC_OK;
}

int pnc_roce_encode(const struct pnc_ip_udp *ip, const struct pnc_bth *bth, const uint8_t *body,
		    size_t body_len, uint8_t *buf, size_t buflen, size_t *outlen)
{
	size_t off, total;
	int ret;

	ret = roce_begin(ip, bth, body_len, buf, buflen, &off, &total);
	if (ret)
		return ret;
	if (body_len)
		memcpy(buf + off, body, body_len);
	ret = roce_finish(ip, buf, total);
	if (ret)
		return ret;
	if (outlen)
		*outlen = total;
	return PNC_OK;
}

/* ---- Generic packet: parse ------------------------------------------- */

int pnc_roce_parse(const uint8_t *pkt, size_t len, unsigned int flags, struct pnc_roce_view *v)
{
	size_t avail, udp_len, body, ext;
	const uint8_t *udp;
	bool complete;
	int ret;

	memset(v, 0, sizeof(*v));
	ret = pnc_ipudp_parse_ip(pkt, len, &v->ip, &v->ip_hlen, &v->pkt_len);
	if (ret)
		return ret;

	complete = len >= v->pkt_len;
	if (!complete && !(flags & PNC_ROCE_F_TRUNCATED))
		return PNC_E_IP_TRUNCATED;
	avail = complete ? v->pkt_len : len;

	v->udp_off = v->ip_hlen;
	if (v->pkt_len < v->ip_hlen + PNC_UDP_HLEN || avail < v->ip_hlen + PNC_UDP_HLEN)
		return PNC_E_UDP_TRUNCATED;
	udp = pkt + v->udp_off;
	udp_len = get_be16(udp + 4);
	if (udp_len != v->pkt_len - v->ip_hlen)
		return PNC_E_UDP_LEN;
	v->ip.sport = get_be16(udp);
	v->ip.dport = get_be16(udp + 2);
	if (v->ip.dport != PNC_ROCE_UDP_PORT)
		return PNC_E_UDP_PORT;

	v->bth_off = v->udp_off + PNC_UDP_HLEN;
	if (udp_len < PNC_UDP_HLEN + PNC_BTH_LEN || avail < v->bth_off + PNC_BTH_LEN)
		return PNC_E_BTH_TRUNCATED;
	ret = pnc_bth_decode(pkt + v->bth_off, PNC_BTH_LEN, &v->bth);
	if (ret)
		return ret;
	if (udp_len < PNC_UDP_HLEN + PNC_BTH_LEN + PNC_ICRC_LEN)
		return PNC_E_ICRC_TRUNCATED;

	/* Octets between the BTH and the ICRC: extensions, payload, pad. */
	body = udp_len - PNC_UDP_HLEN - PNC_BTH_LEN - PNC_ICRC_LEN;
	v->ext_off = v->bth_off + PNC_BTH_LEN;
	v->ext_len = pnc_bth_ext_len(v->bth.opcode);
	/* A Long-haul CNP has its block where a CNP has 16 reserved octets. */
	if (v->bth.opcode == PNC_OP_CNP && (v->bth.resv6 & PNC_BTH_RESV6_EBIT))
		v->ext_len = PNC_LH_ROCE_EXT_LEN;
	ext = v->ext_len > 0 ? (size_t)v->ext_len : 0;
	if (body < ext)
		return PNC_E_EXT_TRUNCATED;
	if (body < ext + v->bth.pad)
		return PNC_E_BTH_PAD;
	/* IBTA opcodes always pad to 4 octets; vendor ones may not */
	if (v->ext_len >= 0 && (body & 3))
		return PNC_E_BTH_PAD;
	v->payload_off = v->ext_off + ext;
	v->payload_len = body - ext - v->bth.pad;
	v->icrc_off = v->pkt_len - PNC_ICRC_LEN;

	if (!complete) {
		v->truncated = true;
		return PNC_OK;
	}
	if (get_be16(udp + 6)) {
		if (pnc_ipudp_csum(pkt, v->ip.version, v->ip_hlen, udp_len) != 0)
			return PNC_E_UDP_CHECKSUM;
		v->ip.udp_csum = true;
	}
	if (!(flags & PNC_ROCE_F_NO_ICRC)) {
		ret = pnc_icrc_verify(pkt, v->pkt_len);
		if (ret)
			return ret;
	}
	v->icrc = (uint32_t)pkt[v->icrc_off] | (uint32_t)pkt[v->icrc_off + 1] << 8 |
		  (uint32_t)pkt[v->icrc_off + 2] << 16 | (uint32_t)pkt[v->icrc_off + 3] << 24;
	return PNC_OK;
}

int pnc_roce_parse_op(const uint8_t *pkt, size_t len, uint8_t opcode, struct pnc_roce_view *v)
{
	int ret = pnc_roce_parse(pkt, len, 0, v);

	if (ret)
		return ret;
	return v->bth.opcode == opcode ? PNC_OK : PNC_E_BTH_OPCODE;
}

/* ---- CNP ---------------------------------------------------------------- */

int pnc_cnp_encode(const struct pnc_cnp *in, uint8_t *buf, size_t buflen, size_t *outlen)
{
	static const uint8_t rsvd[PNC_CNP_RSVD_LEN];
	struct pnc_bth bth = {
		.opcode = PNC_OP_CNP,
		.pkey = in->pkey,
		.becn = true,
		.dest_qp = in->dest_qp,
	};

	return pnc_roce_encode(&in->ip, &bth, rsvd, sizeof(rsvd), buf, buflen, outlen);
}

int pnc_cnp_decode(const uint8_t *pkt, size_t len, struct pnc_cnp *out)
{
	struct pnc_roce_view v;
	int ret;

	ret = pnc_roce_parse_op(pkt, len, PNC_OP_CNP, &v);
	if (ret)
		return ret;
	if (v.bth.pad)
		return PNC_E_BTH_PAD;
	if (v.bth.resv6 & PNC_BTH_RESV6_EBIT) {
		if (v.ext_len + v.payload_len < PNC_CNP_RSVD_LEN)
			return PNC_E_EXT_TRUNCATED;
	} else if (v.payload_len) {
		return PNC_E_UNEXPECTED_PAYLOAD;
	}
	out->ip = v.ip;
	out->pkey = v.bth.pkey;
	out->dest_qp = v.bth.dest_qp;
	return PNC_OK;
}

/* ---- RC data ------------------------------------------------------------- */

bool pnc_rc_has_reth(uint8_t opcode)
{
	return opcode == PNC_OP_RC_WRITE_FIRST || opcode == PNC_OP_RC_WRITE_ONLY ||
	       opcode == PNC_OP_RC_WRITE_ONLY_IMM;
}

bool pnc_rc_has_imm(uint8_t opcode)
{
	return opcode == PNC_OP_RC_SEND_LAST_IMM || opcode == PNC_OP_RC_SEND_ONLY_IMM ||
	       opcode == PNC_OP_RC_WRITE_LAST_IMM || opcode == PNC_OP_RC_WRITE_ONLY_IMM;
}

int pnc_rc_data_encode(const struct pnc_rc_data *in, uint8_t *buf, size_t buflen, size_t *outlen)
{
	size_t off, total, ext;
	int ret;

	if (in->bth.opcode > PNC_OP_RC_WRITE_ONLY_IMM)
		return PNC_E_INVALID_ARG;
	if (in->payload_len && !in->payload)
		return PNC_E_INVALID_ARG;
	ext = (size_t)pnc_bth_ext_len(in->bth.opcode);
	ret = roce_begin(&in->ip, &in->bth, ext + in->payload_len, buf, buflen, &off, &total);
	if (ret)
		return ret;
	/* RETH comes before ImmDt (WRITE Only with immediate) */
	if (pnc_rc_has_reth(in->bth.opcode)) {
		pnc_reth_encode(&in->reth, buf + off, PNC_RETH_LEN, NULL);
		off += PNC_RETH_LEN;
	}
	if (pnc_rc_has_imm(in->bth.opcode)) {
		put_be32(buf + off, in->imm);
		off += PNC_IMMDT_LEN;
	}
	if (in->payload_len)
		memcpy(buf + off, in->payload, in->payload_len);
	ret = roce_finish(&in->ip, buf, total);
	if (ret)
		return ret;
	if (outlen)
		*outlen = total;
	return PNC_OK;
}

int pnc_rc_data_decode(const uint8_t *pkt, size_t len, struct pnc_rc_data *out)
{
	struct pnc_roce_view v;
	size_t off;
	int ret;

	ret = pnc_roce_parse(pkt, len, 0, &v);
	if (ret)
		return ret;
	if (v.bth.opcode > PNC_OP_RC_WRITE_ONLY_IMM)
		return PNC_E_BTH_OPCODE;
	memset(out, 0, sizeof(*out));
	out->ip = v.ip;
	out->bth = v.bth;
	off = v.ext_off;
	if (pnc_rc_has_reth(v.bth.opcode)) {
		pnc_reth_decode(pkt + off, PNC_RETH_LEN, &out->reth);
		off += PNC_RETH_LEN;
	}
	if (pnc_rc_has_imm(v.bth.opcode))
		out->imm = get_be32(pkt + off);
	out->payload = pkt + v.payload_off;
	out->payload_len = v.payload_len;
	return PNC_OK;
}

/* ---- RC ACK ------------------------------------------------------------------ */

int pnc_rc_ack_encode(const struct pnc_rc_ack *in, uint8_t *buf, size_t buflen, size_t *outlen)
{
	uint8_t aeth[PNC_AETH_LEN];
	int ret;

	ret = pnc_aeth_encode(&in->aeth, aeth, sizeof(aeth), NULL);
	if (ret)
		return ret;
	return pnc_roce_encode(&in->ip, &in->bth, aeth, sizeof(aeth), buf, buflen, outlen);
}

int pnc_rc_ack_decode(const uint8_t *pkt, size_t len, struct pnc_rc_ack *out)
{
	struct pnc_roce_view v;
	int ret;

	ret = pnc_roce_parse_op(pkt, len, PNC_OP_RC_ACK, &v);
	if (ret)
		return ret;
	ret = pnc_aeth_decode(pkt + v.ext_off, PNC_AETH_LEN, &out->aeth);
	if (ret)
		return ret;
	if (v.bth.pad)
		return PNC_E_BTH_PAD;
	if (v.payload_len)
		return PNC_E_UNEXPECTED_PAYLOAD;
	out->ip = v.ip;
	out->bth = v.bth;
	return PNC_OK;
}
