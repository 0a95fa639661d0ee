// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pnc-pkt: decode a RoCEv2 packet (UDP 4791) with the codecs: the BTH
 * opcode selects CNP (the Long-haul CNP with the E bit), the rate
 * advice (its configured opcode), RC SEND/WRITE data, RC ACK, or a CM
 * MAD in a UD SEND Only to QP1; anything else is shown as BTH + raw
 * octets.
 */
#include <string.h>

#include "pnc_pkt.h"
#include "codec/wire.h"

static const char *opcode_name(uint8_t op)
{
	static const char *const rc[] = {
		"send-first",	      "send-middle",	     "send-last",
		"send-last-imm",      "send-only",	     "send-only-imm",
		"write-first",	      "write-middle",	     "write-last",
		"write-last-imm",     "write-only",	     "write-only-imm",
		"read-request",	      "read-response-first", "read-response-middle",
		"read-response-last", "read-response-only",  "acknowledge",
		"atomic-acknowledge", "compare-swap",	     "fetch-add",
	};

	if (op < sizeof(rc) / sizeof(rc[0]))
		return rc[op];
	switch (op) {
	case PNC_OP_RC_SEND_LAST_INV:
		return "send-last-inv";
	case PNC_OP_RC_SEND_ONLY_INV:
		return "send-only-inv";
	case PNC_OP_RC_FLUSH:
		return "flush";
	case PNC_OP_RC_ATOMIC_WRITE:
		return "atomic-write";
	case PNC_OP_UD_SEND_ONLY:
		return "ud-send-only";
	case PNC_OP_UD_SEND_ONLY_IMM:
		return "ud-send-only-imm";
	case PNC_OP_CNP:
		return "cnp";
	}
	return "unknown";
}

/* opname: the name of a configured opcode, else NULL (IBTA's names). */
static void emit_bth(struct emit *e, const struct pnc_bth *b, const char *opname)
{
	emit_obj(e, "bth");
	emit_xint(e, "opcode", b->opcode, 2);
	emit_str(e, "opcode_name", opname ? opname : opcode_name(b->opcode));
	emit_bool(e, "se", b->se);
	emit_bool(e, "m", b->mig);
	emit_uint(e, "pad", b->pad);
	emit_uint(e, "tver", b->tver);
	emit_xint(e, "pkey", b->pkey, 4);
	emit_bool(e, "fecn", b->fecn);
	emit_bool(e, "becn", b->becn);
	emit_xint(e, "resv6", b->resv6, 2);
	emit_xint(e, "dqpn", b->dest_qp, 6);
	emit_bool(e, "ackreq", b->ack_req);
	emit_xint(e, "resv7", b->resv7, 2);
	emit_xint(e, "psn", b->psn, 6);
	emit_obj_end(e);
}

static void emit_aeth(struct emit *e, const struct pnc_aeth *a)
{
	static const char *const types[8] = { "ack",	  "rnr-nak",  "reserved", "nak",
					      "reserved", "reserved", "reserved", "reserved" };

	emit_obj(e, "aeth");
	emit_xint(e, "syndrome", a->syndrome, 2);
	emit_str(e, "type", types[a->syndrome >> 5]);
	emit_uint(e, "value", a->syndrome & 0x1f);
	emit_xint(e, "msn", a->msn, 6);
	emit_obj_end(e);
}

static void emit_mad(struct emit *e, const struct pnc_mad_hdr *h)
{
	emit_obj(e, "mad");
	emit_uint(e, "base_version", h->base_version);
	emit_xint(e, "mgmt_class", h->mgmt_class, 2);
	emit_uint(e, "class_version", h->class_version);
	emit_xint(e, "method", h->method, 2);
	emit_xint(e, "status", h->status, 4);
	emit_xint(e, "class_specific", h->class_specific, 4);
	emit_xint(e, "tid", h->tid, 16);
	emit_xint(e, "attr_id", h->attr_id, 4);
	emit_xint(e, "attr_mod", h->attr_mod, 8);
	emit_obj_end(e);
}

static void emit_gid(struct emit *e, const char *name, const uint8_t *gid)
{
	emit_addr(e, name, 6, gid);
}

static void emit_req(struct emit *e, const struct pnc_cm_req *r)
{
	emit_xint(e, "local_comm_id", r->local_comm_id, 8);
	emit_xint(e, "service_id", r->service_id, 16);
	emit_xint(e, "local_ca_guid", r->local_ca_guid, 16);
	emit_xint(e, "local_qkey", r->local_qkey, 8);
	emit_xint(e, "local_qpn", r->local_qpn, 6);
	emit_uint(e, "responder_resources", r->responder_resources);
	emit_xint(e, "local_eecn", r->local_eecn, 6);
	emit_uint(e, "initiator_depth", r->initiator_depth);
	emit_xint(e, "remote_eecn", r->remote_eecn, 6);
	emit_uint(e, "remote_cm_resp_timeout", r->remote_cm_resp_timeout);
	emit_uint(e, "transport_type", r->transport_type);
	emit_bool(e, "e2e_flow_ctrl", r->e2e_flow_ctrl);
	emit_xint(e, "starting_psn", r->starting_psn, 6);
	emit_uint(e, "local_cm_resp_timeout", r->local_cm_resp_timeout);
	emit_uint(e, "retry_count", r->retry_count);
	emit_xint(e, "partition_key", r->pkey, 4);
	emit_uint(e, "path_mtu", r->path_mtu);
	emit_bool(e, "rdc_exists", r->rdc_exists);
	emit_uint(e, "rnr_retry_count", r->rnr_retry_count);
	emit_uint(e, "max_cm_retries", r->max_cm_retries);
	emit_bool(e, "srq", r->srq);
	emit_uint(e, "ext_transport_type", r->ext_transport_type);
	emit_xint(e, "primary_local_lid", r->primary_local_lid, 4);
	emit_xint(e, "primary_remote_lid", r->primary_remote_lid, 4);
	emit_gid(e, "primary_local_gid", r->primary_local_gid);
	emit_gid(e, "primary_remote_gid", r->primary_remote_gid);
	emit_xint(e, "primary_flow_label", r->primary_flow_label, 5);
	emit_uint(e, "primary_packet_rate", r->primary_packet_rate);
	emit_xint(e, "primary_traffic_class", r->primary_traffic_class, 2);
	emit_uint(e, "primary_hop_limit", r->primary_hop_limit);
	emit_uint(e, "primary_sl", r->primary_sl);
	emit_bool(e, "primary_subnet_local", r->primary_subnet_local);
	emit_uint(e, "primary_local_ack_timeout", r->primary_local_ack_timeout);
	emit_hex(e, "private_data", r->private_data, PNC_CM_REQ_PRIV_LEN);
}

static void emit_rep(struct emit *e, const struct pnc_cm_rep *r)
{
	emit_xint(e, "local_comm_id", r->local_comm_id, 8);
	emit_xint(e, "remote_comm_id", r->remote_comm_id, 8);
	emit_xint(e, "local_qkey", r->local_qkey, 8);
	emit_xint(e, "local_qpn", r->local_qpn, 6);
	emit_xint(e, "local_eecn", r->local_eecn, 6);
	emit_xint(e, "starting_psn", r->starting_psn, 6);
	emit_xint(e, "vendor_id", r->vendor_id, 6);
	emit_uint(e, "responder_resources", r->responder_resources);
	emit_uint(e, "initiator_depth", r->initiator_depth);
	emit_uint(e, "target_ack_delay", r->target_ack_delay);
	emit_uint(e, "failover_accepted", r->failover_accepted);
	emit_bool(e, "e2e_flow_ctrl", r->e2e_flow_ctrl);
	emit_uint(e, "rnr_retry_count", r->rnr_retry_count);
	emit_bool(e, "srq", r->srq);
	emit_xint(e, "local_ca_guid", r->local_ca_guid, 16);
	emit_hex(e, "private_data", r->private_data, PNC_CM_REP_PRIV_LEN);
}

/* Kind name and CM fields of a MAD; returns the kind. */
static const char *emit_cm(struct emit *e, const struct pnc_cm_msg *m, bool names_only)
{
	const struct pnc_cm_rtu *ids = &m->u.rtu; /* first two words of every message */
	const char *kind;

	switch (m->mad.attr_id) {
	case PNC_CM_ATTR_REQ:
		kind = "cm-req";
		break;
	case PNC_CM_ATTR_REP:
		kind = "cm-rep";
		break;
	case PNC_CM_ATTR_RTU:
		kind = "cm-rtu";
		break;
	case PNC_CM_ATTR_REJ:
		kind = "cm-rej";
		break;
	case PNC_CM_ATTR_DREQ:
		kind = "cm-dreq";
		break;
	default:
		kind = "cm-drep";
	}
	if (names_only)
		return kind;
	emit_obj(e, "cm");
	switch (m->mad.attr_id) {
	case PNC_CM_ATTR_REQ:
		emit_req(e, &m->u.req);
		break;
	case PNC_CM_ATTR_REP:
		emit_rep(e, &m->u.rep);
		break;
	case PNC_CM_ATTR_REJ:
		emit_xint(e, "local_comm_id", ids->local_comm_id, 8);
		emit_xint(e, "remote_comm_id", ids->remote_comm_id, 8);
		emit_uint(e, "msg_rejected", m->u.rej.msg_rejected);
		emit_uint(e, "reject_info_len", m->u.rej.reject_info_len);
		emit_uint(e, "reason", m->u.rej.reason);
		emit_hex(e, "ari", m->u.rej.ari, PNC_CM_REJ_ARI_LEN);
		emit_hex(e, "private_data", m->u.rej.private_data, PNC_CM_REJ_PRIV_LEN);
		break;
	case PNC_CM_ATTR_DREQ:
		emit_xint(e, "local_comm_id", ids->local_comm_id, 8);
		emit_xint(e, "remote_comm_id", ids->remote_comm_id, 8);
		emit_xint(e, "remote_qpn", m->u.dreq.remote_qpn_eecn, 6);
		emit_hex(e, "private_data", m->u.dreq.private_data, PNC_CM_DREQ_PRIV_LEN);
		break;
	default: /* RTU, DREP */
		emit_xint(e, "local_comm_id", ids->local_comm_id, 8);
		emit_xint(e, "remote_comm_id", ids->remote_comm_id, 8);
		emit_hex(e, "private_data", ids->private_data, PNC_CM_RTU_PRIV_LEN);
	}
	emit_obj_end(e);
	return kind;
}

static const char *const variants[] = { "first", "middle", "last", "only" };

static int rc_variant(uint8_t op)
{
	static const int8_t v[12] = { 0, 1, 2, 2, 3, 3, 0, 1, 2, 2, 3, 3 };

	return v[op];
}

void emit_rate_advice(struct emit *e, const struct pnc_rate_advice *ra)
{
	emit_obj(e, "rate_advice");
	emit_uint(e, "rate", ra->rate_mbps);
	emit_uint(e, "version", ra->version);
	emit_xint(e, "dest_qp", ra->dest_qp, 6);
	emit_xint(e, "peer_qp", ra->peer_qp, 6);
	emit_obj_end(e);
}

/* Messages that are not IBTA's but use its headers (doc/wire-formats.md 7). */
enum roce_form { F_IBTA, F_LONG_HAUL, F_RATE_ADVICE };

/* Everything a packet can be decoded into. */
struct roce_decoded {
	struct pnc_roce_view v;
	enum roce_form form;
	struct pnc_rc_data rc;
	struct pnc_rc_ack ack;
	struct pnc_cm_packet cm;
	struct pnc_deth deth;
	struct pnc_lh_roce lh;
	struct pnc_rate_advice ra;
};

static int decode_kind(const uint8_t *pkt, size_t len, const struct decode_opts *o,
		       struct roce_decoded *d)
{
	struct pnc_cnp cnp;
	uint8_t op = d->v.bth.opcode;

	/* The E bit makes a CNP a Long-haul CNP, whatever its length. */
	if (op == PNC_OP_CNP && (d->v.bth.resv6 & PNC_BTH_RESV6_EBIT)) {
		d->form = F_LONG_HAUL;
		return pnc_lh_roce_decode(pkt, len, o->lh_class_num, &d->lh);
	}
	/* Configured, so it wins over what IBTA may have given the opcode. */
	if (op == o->ra_opcode) {
		d->form = F_RATE_ADVICE;
		return pnc_rate_advice_decode(pkt, len, op, &d->ra);
	}
	if (op == PNC_OP_CNP)
		return pnc_cnp_decode(pkt, len, &cnp);
	if (op <= PNC_OP_RC_WRITE_ONLY_IMM)
		return pnc_rc_data_decode(pkt, len, &d->rc);
	if (op == PNC_OP_RC_ACK)
		return pnc_rc_ack_decode(pkt, len, &d->ack);
	if (op == PNC_OP_UD_SEND_ONLY && d->v.bth.dest_qp == PNC_GSI_QP)
		return pnc_cm_packet_decode(pkt, len, &d->cm);
	if (op == PNC_OP_UD_SEND_ONLY || op == PNC_OP_UD_SEND_ONLY_IMM)
		return pnc_deth_decode(pkt + d->v.ext_off, PNC_DETH_LEN, &d->deth);
	return PNC_OK;
}

static const char *kind_of(const struct roce_decoded *d)
{
	uint8_t op = d->v.bth.opcode;

	if (d->form == F_LONG_HAUL)
		return "long-haul-rocev2";
	if (d->form == F_RATE_ADVICE)
		return "rate-advice";
	if (op == PNC_OP_CNP)
		return "cnp";
	if (op <= PNC_OP_RC_SEND_ONLY_IMM)
		return "rc-send";
	if (op <= PNC_OP_RC_WRITE_ONLY_IMM)
		return "rc-write";
	if (op == PNC_OP_RC_ACK)
		return "ack";
	if (op == PNC_OP_UD_SEND_ONLY && d->v.bth.dest_qp == PNC_GSI_QP)
		return emit_cm(NULL, &d->cm.msg, true);
	if (op == PNC_OP_UD_SEND_ONLY || op == PNC_OP_UD_SEND_ONLY_IMM)
		return "ud-send";
	return "roce";
}

static void emit_body(struct emit *e, const uint8_t *pkt, const struct roce_decoded *d)
{
	const struct pnc_roce_view *v = &d->v;
	uint8_t op = v->bth.opcode;

	if (d->form == F_LONG_HAUL) {
		emit_lh(e, &d->lh.msg);
		return;
	}
	if (d->form == F_RATE_ADVICE) {
		emit_rate_advice(e, &d->ra);
		return;
	}
	if (op == PNC_OP_CNP) {
		emit_hex(e, "reserved", pkt + v->ext_off, PNC_CNP_RSVD_LEN);
	} else if (op <= PNC_OP_RC_WRITE_ONLY_IMM) {
		emit_str(e, "variant", variants[rc_variant(op)]);
		if (pnc_rc_has_reth(op)) {
			emit_obj(e, "reth");
			emit_xint(e, "va", d->rc.reth.va, 16);
			emit_xint(e, "rkey", d->rc.reth.rkey, 8);
			emit_uint(e, "dma_len", d->rc.reth.dma_len);
			emit_obj_end(e);
		}
		if (pnc_rc_has_imm(op))
			emit_xint(e, "imm", d->rc.imm, 8);
	} else if (op == PNC_OP_RC_ACK) {
		emit_aeth(e, &d->ack.aeth);
	} else if (op == PNC_OP_UD_SEND_ONLY && v->bth.dest_qp == PNC_GSI_QP) {
		emit_obj(e, "deth");
		emit_xint(e, "qkey", d->cm.deth.qkey, 8);
		emit_xint(e, "src_qp", d->cm.deth.src_qp, 6);
		emit_obj_end(e);
		emit_mad(e, &d->cm.msg.mad);
		emit_cm(e, &d->cm.msg, false);
		return;
	} else if (op == PNC_OP_UD_SEND_ONLY || op == PNC_OP_UD_SEND_ONLY_IMM) {
		emit_obj(e, "deth");
		emit_xint(e, "qkey", d->deth.qkey, 8);
		emit_xint(e, "src_qp", d->deth.src_qp, 6);
		emit_obj_end(e);
	} else if (v->ext_len > 0) {
		emit_hex(e, "ext", pkt + v->ext_off, (size_t)v->ext_len);
	}
	if (op != PNC_OP_CNP && op != PNC_OP_RC_ACK) {
		emit_uint(e, "payload_len", v->payload_len);
		emit_hex(e, "payload", pkt + v->payload_off, v->payload_len);
	}
}

int decode_roce(const uint8_t *pkt, size_t len, const struct decode_opts *o, struct emit *e)
{
	static struct roce_decoded d;
	static uint8_t fixed[PKT_MAX];
	size_t hlen;
	uint32_t expect = 0;
	bool icrc_ok;
	int ret;

	memset(&d, 0, sizeof(d));
	ret = pnc_roce_parse(pkt, len, PNC_ROCE_F_NO_ICRC, &d.v);
	if (ret)
		return ret;
	if (d.v.pkt_len > sizeof(fixed))
		return PNC_E_INVALID_ARG;
	icrc_ok = pnc_icrc_verify(pkt, d.v.pkt_len) == PNC_OK;
	if (!icrc_ok && !o->lenient)
		return PNC_E_ICRC;
	pnc_icrc_compute(pkt, d.v.pkt_len - PNC_ICRC_LEN, &expect);

	/*
	 * The per-kind decoders verify the ICRC again: give them a copy with
	 * the right one (only differs with --lenient), and no UDP checksum,
	 * which covers the ICRC and was checked already.
	 */
	memcpy(fixed, pkt, d.v.pkt_len);
	pnc_icrc_write(fixed, d.v.pkt_len);
	hlen = d.v.ip_hlen;
	put_be16(fixed + hlen + 6, 0);
	ret = decode_kind(fixed, d.v.pkt_len, o, &d);
	if (ret)
		return ret;

	emit_begin(e, e->f, e->fmt);
	emit_str(e, "kind", kind_of(&d));
	emit_uint(e, "len", d.v.pkt_len);
	emit_ip_udp(e, pkt, &d.v.ip);
	emit_bth(e, &d.v.bth, d.form == F_RATE_ADVICE ? "rate-advice" : NULL);
	emit_body(e, pkt, &d);
	emit_xint(e, "icrc", d.v.icrc, 8);
	emit_bool(e, "icrc_ok", icrc_ok);
	if (!icrc_ok)
		emit_xint(e, "icrc_expected", expect, 8);
	if (o->with_hex)
		emit_hex(e, "hex", pkt, d.v.pkt_len);
	emit_end(e);
	return PNC_OK;
}

/* Headers found in the invoking packet of a notification. */
void emit_roce_view(struct emit *e, const uint8_t *pkt, const struct pnc_roce_view *v)
{
	emit_ip_udp(e, pkt, &v->ip);
	emit_bth(e, &v->bth, NULL);
	emit_bool(e, "truncated", v->truncated);
}
