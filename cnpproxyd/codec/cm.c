// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CM MADs (REQ, REP, RTU, REJ, DREQ, DREP) and their RoCEv2 carrier.
 * Offsets in the comments are from the start of the CM message (MAD
 * offset 24), as in doc/wire-formats.md 4.2.
 */
#include <string.h>

#include "cm.h"
#include "wire.h"

void pnc_cm_mad_init(struct pnc_mad_hdr *mad, uint16_t attr_id, uint64_t tid)
{
	memset(mad, 0, sizeof(*mad));
	mad->base_version = PNC_MAD_BASE_VERSION;
	mad->mgmt_class = PNC_MAD_CLASS_CM;
	mad->class_version = PNC_CM_CLASS_VERSION;
	mad->method = PNC_MAD_METHOD_SEND;
	mad->attr_id = attr_id;
	mad->tid = tid;
}

void pnc_cm_packet_init(struct pnc_cm_packet *p, uint8_t ip_version, uint16_t attr_id)
{
	memset(p, 0, sizeof(*p));
	pnc_ip_udp_init(&p->ip, ip_version);
	p->bth.opcode = PNC_OP_UD_SEND_ONLY;
	p->bth.pkey = PNC_DEFAULT_PKEY;
	p->bth.dest_qp = PNC_GSI_QP;
	p->deth.qkey = PNC_GSI_QKEY;
	p->deth.src_qp = PNC_GSI_QP;
	pnc_cm_mad_init(&p->msg.mad, attr_id, 0);
}

/* ---- per message ----------------------------------------------------- */

static int req_encode(const struct pnc_cm_req *r, uint8_t *m)
{
	if (r->local_qpn > 0xffffff || r->local_eecn > 0xffffff || r->remote_eecn > 0xffffff ||
	    r->remote_cm_resp_timeout > 0x1f || r->transport_type > 3 ||
	    r->starting_psn > 0xffffff || r->local_cm_resp_timeout > 0x1f || r->retry_count > 7 ||
	    r->path_mtu > 0xf || r->rnr_retry_count > 7 || r->max_cm_retries > 0xf ||
	    r->ext_transport_type > 7 || r->primary_flow_label > 0xfffff ||
	    r->primary_packet_rate > 0x3f || r->primary_sl > 0xf ||
	    r->primary_local_ack_timeout > 0x1f)
		return PNC_E_INVALID_ARG;

	put_be32(m + 0, r->local_comm_id);
	put_be64(m + 8, r->service_id);
	put_be64(m + 16, r->local_ca_guid);
	put_be32(m + 28, r->local_qkey);
	put_be32(m + 32, r->local_qpn << 8 | r->responder_resources);
	put_be32(m + 36, r->local_eecn << 8 | r->initiator_depth);
	put_be32(m + 40, r->remote_eecn << 8 | r->remote_cm_resp_timeout << 3 |
				 r->transport_type << 1 | r->e2e_flow_ctrl);
	put_be32(m + 44, r->starting_psn << 8 | r->local_cm_resp_timeout << 3 | r->retry_count);
	put_be16(m + 48, r->pkey);
	m[50] = (uint8_t)(r->path_mtu << 4 | r->rdc_exists << 3 | r->rnr_retry_count);
	m[51] = (uint8_t)(r->max_cm_retries << 4 | r->srq << 3 | r->ext_transport_type);
	put_be16(m + 52, r->primary_local_lid);
	put_be16(m + 54, r->primary_remote_lid);
	memcpy(m + 56, r->primary_local_gid, 16);
	memcpy(m + 72, r->primary_remote_gid, 16);
	put_be32(m + 88, r->primary_flow_label << 12 | r->primary_packet_rate);
	m[92] = r->primary_traffic_class;
	m[93] = r->primary_hop_limit;
	m[94] = (uint8_t)(r->primary_sl << 4 | r->primary_subnet_local << 3);
	m[95] = (uint8_t)(r->primary_local_ack_timeout << 3);
	memcpy(m + 140, r->private_data, PNC_CM_REQ_PRIV_LEN);
	return PNC_OK;
}

static void req_decode(const uint8_t *m, struct pnc_cm_req *r)
{
	r->local_comm_id = get_be32(m + 0);
	r->service_id = get_be64(m + 8);
	r->local_ca_guid = get_be64(m + 16);
	r->local_qkey = get_be32(m + 28);
	r->local_qpn = get_be24(m + 32);
	r->responder_resources = m[35];
	r->local_eecn = get_be24(m + 36);
	r->initiator_depth = m[39];
	r->remote_eecn = get_be24(m + 40);
	r->remote_cm_resp_timeout = m[43] >> 3;
	r->transport_type = (m[43] >> 1) & 3;
	r->e2e_flow_ctrl = m[43] & 1;
	r->starting_psn = get_be24(m + 44);
	r->local_cm_resp_timeout = m[47] >> 3;
	r->retry_count = m[47] & 7;
	r->pkey = get_be16(m + 48);
	r->path_mtu = m[50] >> 4;
	r->rdc_exists = m[50] & 0x08;
	r->rnr_retry_count = m[50] & 7;
	r->max_cm_retries = m[51] >> 4;
	r->srq = m[51] & 0x08;
	r->ext_transport_type = m[51] & 7;
	r->primary_local_lid = get_be16(m + 52);
	r->primary_remote_lid = get_be16(m + 54);
	memcpy(r->primary_local_gid, m + 56, 16);
	memcpy(r->primary_remote_gid, m + 72, 16);
	r->primary_flow_label = get_be32(m + 88) >> 12;
	r->primary_packet_rate = m[91] & 0x3f;
	r->primary_traffic_class = m[92];
	r->primary_hop_limit = m[93];
	r->primary_sl = m[94] >> 4;
	r->primary_subnet_local = m[94] & 0x08;
	r->primary_local_ack_timeout = m[95] >> 3;
	memcpy(r->private_data, m + 140, PNC_CM_REQ_PRIV_LEN);
}

static int rep_encode(const struct pnc_cm_rep *r, uint8_t *m)
{
	if (r->local_qpn > 0xffffff || r->local_eecn > 0xffffff || r->starting_psn > 0xffffff ||
	    r->vendor_id > 0xffffff || r->target_ack_delay > 0x1f || r->failover_accepted > 3 ||
	    r->rnr_retry_count > 7)
		return PNC_E_INVALID_ARG;

	put_be32(m + 0, r->local_comm_id);
	put_be32(m + 4, r->remote_comm_id);
	put_be32(m + 8, r->local_qkey);
	/* the vendor ID is spread over the low octets of the next 3 words */
	put_be32(m + 12, r->local_qpn << 8 | (r->vendor_id >> 16));
	put_be32(m + 16, r->local_eecn << 8 | ((r->vendor_id >> 8) & 0xff));
	put_be32(m + 20, r->starting_psn << 8 | (r->vendor_id & 0xff));
	m[24] = r->responder_resources;
	m[25] = r->initiator_depth;
	m[26] = (uint8_t)(r->target_ack_delay << 3 | r->failover_accepted << 1 | r->e2e_flow_ctrl);
	m[27] = (uint8_t)(r->rnr_retry_count << 5 | r->srq << 4);
	put_be64(m + 28, r->local_ca_guid);
	memcpy(m + 36, r->private_data, PNC_CM_REP_PRIV_LEN);
	return PNC_OK;
}

static void rep_decode(const uint8_t *m, struct pnc_cm_rep *r)
{
	r->local_comm_id = get_be32(m + 0);
	r->remote_comm_id = get_be32(m + 4);
	r->local_qkey = get_be32(m + 8);
	r->local_qpn = get_be24(m + 12);
	r->local_eecn = get_be24(m + 16);
	r->starting_psn = get_be24(m + 20);
	r->vendor_id = (uint32_t)m[15] << 16 | (uint32_t)m[19] << 8 | m[23];
	r->responder_resources = m[24];
	r->initiator_depth = m[25];
	r->target_ack_delay = m[26] >> 3;
	r->failover_accepted = (m[26] >> 1) & 3;
	r->e2e_flow_ctrl = m[26] & 1;
	r->rnr_retry_count = m[27] >> 5;
	r->srq = m[27] & 0x10;
	r->local_ca_guid = get_be64(m + 28);
	memcpy(r->private_data, m + 36, PNC_CM_REP_PRIV_LEN);
}

static void rtu_encode(const struct pnc_cm_rtu *r, uint8_t *m)
{
	put_be32(m + 0, r->local_comm_id);
	put_be32(m + 4, r->remote_comm_id);
	memcpy(m + 8, r->private_data, PNC_CM_RTU_PRIV_LEN);
}

static void rtu_decode(const uint8_t *m, struct pnc_cm_rtu *r)
{
	r->local_comm_id = get_be32(m + 0);
	r->remote_comm_id = get_be32(m + 4);
	memcpy(r->private_data, m + 8, PNC_CM_RTU_PRIV_LEN);
}

static int rej_encode(const struct pnc_cm_rej *r, uint8_t *m)
{
	if (r->msg_rejected > 3 || r->reject_info_len > 0x7f)
		return PNC_E_INVALID_ARG;
	put_be32(m + 0, r->local_comm_id);
	put_be32(m + 4, r->remote_comm_id);
	m[8] = (uint8_t)(r->msg_rejected << 6);
	m[9] = (uint8_t)(r->reject_info_len << 1);
	put_be16(m + 10, r->reason);
	memcpy(m + 12, r->ari, PNC_CM_REJ_ARI_LEN);
	memcpy(m + 84, r->private_data, PNC_CM_REJ_PRIV_LEN);
	return PNC_OK;
}

static void rej_decode(const uint8_t *m, struct pnc_cm_rej *r)
{
	r->local_comm_id = get_be32(m + 0);
	r->remote_comm_id = get_be32(m + 4);
	r->msg_rejected = m[8] >> 6;
	r->reject_info_len = m[9] >> 1;
	r->reason = get_be16(m + 10);
	memcpy(r->ari, m + 12, PNC_CM_REJ_ARI_LEN);
	memcpy(r->private_data, m + 84, PNC_CM_REJ_PRIV_LEN);
}

static int dreq_encode(const struct pnc_cm_dreq *r, uint8_t *m)
{
	if (r->remote_qpn_eecn > 0xffffff)
		return PNC_E_INVALID_ARG;
	put_be32(m + 0, r->local_comm_id);
	put_be32(m + 4, r->remote_comm_id);
	put_be32(m + 8, r->remote_qpn_eecn << 8);
	memcpy(m + 12, r->private_data, PNC_CM_DREQ_PRIV_LEN);
	return PNC_OK;
}

static void dreq_decode(const uint8_t *m, struct pnc_cm_dreq *r)
{
	r->local_comm_id = get_be32(m + 0);
	r->remote_comm_id = get_be32(m + 4);
	r->remote_qpn_eecn = get_be24(m + 8);
	memcpy(r->private_data, m + 12, PNC_CM_DREQ_PRIV_LEN);
}

/* ---- MAD ---------------------------------------------------------------- */

int pnc_cm_encode(const struct pnc_cm_msg *in, uint8_t *buf, size_t buflen, size_t *outlen)
{
	const struct pnc_mad_hdr *h = &in->mad;
	uint8_t *m = buf + PNC_MAD_HDR_LEN;
	int ret;

	if (buflen < PNC_MAD_LEN)
		return PNC_E_BUF_TOO_SMALL;
	memset(buf, 0, PNC_MAD_LEN);
	buf[0] = h->base_version;
	buf[1] = h->mgmt_class;
	buf[2] = h->class_version;
	buf[3] = h->method;
	put_be16(buf + 4, h->status);
	put_be16(buf + 6, h->class_specific);
	put_be64(buf + 8, h->tid);
	put_be16(buf + 16, h->attr_id);
	put_be32(buf + 20, h->attr_mod);

	switch (h->attr_id) {
	case PNC_CM_ATTR_REQ:
		ret = req_encode(&in->u.req, m);
		break;
	case PNC_CM_ATTR_REP:
		ret = rep_encode(&in->u.rep, m);
		break;
	case PNC_CM_ATTR_RTU:
		rtu_encode(&in->u.rtu, m);
		ret = PNC_OK;
		break;
	case PNC_CM_ATTR_DREP:
		rtu_encode(&in->u.drep, m);
		ret = PNC_OK;
		break;
	case PNC_CM_ATTR_REJ:
		ret = rej_encode(&in->u.rej, m);
		break;
	case PNC_CM_ATTR_DREQ:
		ret = dreq_encode(&in->u.dreq, m);
		break;
	default:
		ret = PNC_E_INVALID_ARG;
	}
	if (ret)
		return ret;
	if (outlen)
		*outlen = PNC_MAD_LEN;
	return PNC_OK;
}

int pnc_cm_decode(const uint8_t *buf, size_t len, struct pnc_cm_msg *out)
{
	const uint8_t *m = buf + PNC_MAD_HDR_LEN;
	struct pnc_mad_hdr *h = &out->mad;

	if (len < PNC_MAD_LEN)
		return PNC_E_MAD_TRUNCATED;
	/* a MAD is exactly 256 octets; more means a framing error */
	if (len > PNC_MAD_LEN)
		return PNC_E_MAD_LEN;
	if (buf[0] != PNC_MAD_BASE_VERSION)
		return PNC_E_MAD_BASE_VERSION;
	if (buf[1] != PNC_MAD_CLASS_CM)
		return PNC_E_MAD_CLASS;
	if (buf[2] != PNC_CM_CLASS_VERSION)
		return PNC_E_MAD_CLASS_VERSION;
	/* the CM only ever uses Send, never a response */
	if (buf[3] != PNC_MAD_METHOD_SEND)
		return PNC_E_MAD_METHOD;

	memset(out, 0, sizeof(*out));
	h->base_version = buf[0];
	h->mgmt_class = buf[1];
	h->class_version = buf[2];
	h->method = buf[3];
	h->status = get_be16(buf + 4);
	h->class_specific = get_be16(buf + 6);
	h->tid = get_be64(buf + 8);
	h->attr_id = get_be16(buf + 16);
	h->attr_mod = get_be32(buf + 20);

	switch (h->attr_id) {
	case PNC_CM_ATTR_REQ:
		req_decode(m, &out->u.req);
		return PNC_OK;
	case PNC_CM_ATTR_REP:
		rep_decode(m, &out->u.rep);
		return PNC_OK;
	case PNC_CM_ATTR_RTU:
		rtu_decode(m, &out->u.rtu);
		return PNC_OK;
	case PNC_CM_ATTR_DREP:
		rtu_decode(m, &out->u.drep);
		return PNC_OK;
	case PNC_CM_ATTR_REJ:
		rej_decode(m, &out->u.rej);
		return PNC_OK;
	case PNC_CM_ATTR_DREQ:
		dreq_decode(m, &out->u.dreq);
		return PNC_OK;
	}
	return PNC_E_CM_ATTR;
}

/* ---- RoCEv2 carrier --------------------------------------------------- */

int pnc_cm_packet_encode(const struct pnc_cm_packet *in, uint8_t *buf, size_t buflen,
			 size_t *outlen)
{
	uint8_t body[PNC_DETH_LEN + PNC_MAD_LEN];
	int ret;

	ret = pnc_deth_encode(&in->deth, body, sizeof(body), NULL);
	if (ret)
		return ret;
	ret = pnc_cm_encode(&in->msg, body + PNC_DETH_LEN, PNC_MAD_LEN, NULL);
	if (ret)
		return ret;
	return pnc_roce_encode(&in->ip, &in->bth, body, sizeof(body), buf, buflen, outlen);
}

int pnc_cm_packet_decode(const uint8_t *pkt, size_t len, struct pnc_cm_packet *out)
{
	struct pnc_roce_view v;
	struct pnc_deth deth;
	int ret;

	ret = pnc_roce_parse_op(pkt, len, PNC_OP_UD_SEND_ONLY, &v);
	if (ret)
		return ret;
	if (v.bth.dest_qp != PNC_GSI_QP)
		return PNC_E_CM_QP;
	pnc_deth_decode(pkt + v.ext_off, PNC_DETH_LEN, &deth);
	if (deth.qkey != PNC_GSI_QKEY)
		return PNC_E_CM_QKEY;
	ret = pnc_cm_decode(pkt + v.payload_off, v.payload_len, &out->msg);
	if (ret)
		return ret;
	out->ip = v.ip;
	out->bth = v.bth;
	out->deth = deth;
	return PNC_OK;
}
