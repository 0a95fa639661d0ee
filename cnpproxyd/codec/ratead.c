// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * SCONE rate advice over RoCEv2 (seed 004).
 */
#include <string.h>

#include "codec/ratead.h"
#include "codec/wire.h"

int pnc_rate_advice_encode(const struct pnc_rate_advice *in, uint8_t *buf, size_t buflen,
			   size_t *outlen)
{
	uint8_t body[PNC_RA_BODY_LEN];
	struct pnc_bth bth = {
		.opcode = in->opcode,
		.pkey = in->pkey,
		.dest_qp = in->dest_qp,
	};

	if (in->dest_qp > 0xffffff || in->peer_qp > 0xffffff)
		return PNC_E_INVALID_ARG;
	put_be32(body, in->rate_mbps);
	put_be32(body + 4, in->version ? in->version : PNC_RA_VERSION);
	put_be32(body + 8, in->dest_qp);
	put_be32(body + 12, in->peer_qp);
	return pnc_roce_encode(&in->ip, &bth, body, sizeof(body), buf, buflen, outlen);
}

int pnc_rate_advice_decode(const uint8_t *pkt, size_t len, uint8_t opcode,
			   struct pnc_rate_advice *out)
{
	struct pnc_roce_view v;
	const uint8_t *body;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = pnc_roce_parse_op(pkt, len, opcode, &v);
	if (ret)
		return ret;
	if (v.payload_len != PNC_RA_BODY_LEN || v.payload_off != v.ext_off)
		return PNC_E_RA_LEN;
	body = pkt + v.payload_off;
	out->ip = v.ip;
	out->opcode = v.bth.opcode;
	out->pkey = v.bth.pkey;
	out->dest_qp = v.bth.dest_qp;
	out->rate_mbps = get_be32(body);
	out->version = get_be32(body + 4);
	out->peer_qp = get_be32(body + 12) & 0xffffff;
	if (out->version != PNC_RA_VERSION)
		return PNC_E_RA_VERSION;
	if (get_be32(body + 8) != v.bth.dest_qp)
		return PNC_E_RA_QP;
	return PNC_OK;
}
