// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the CM MAD codec (cnpproxyd/codec/cm.c): REQ, REP,
 * RTU, REJ, DREQ and DREP round trips, the UDP payload offsets of
 * doc/wire-formats.md 4.1/4.2, bit-field positions, the 4.3 pairing
 * fields, and one rejection per reason.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "codec/cm.h"
#include "codec_test_util.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void fill_bytes(uint8_t *p, size_t len, uint8_t seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(seed + i * 13);
}

/* A REQ as librdmacm sends it from C (10.0.0.1) to S (10.0.0.2). */
static void make_req(struct pnc_cm_packet *p, uint8_t ip_version)
{
	struct pnc_cm_req *r = &p->msg.u.req;
	static const uint8_t gid_c[16] = { [10] = 0xff, [11] = 0xff, 10, 0, 0, 1 };
	static const uint8_t gid_s[16] = { [10] = 0xff, [11] = 0xff, 10, 0, 0, 2 };

	pnc_cm_packet_init(p, ip_version, PNC_CM_ATTR_REQ);
	p->msg.mad.tid = 0x0102030405060708ull;
	p->msg.mad.attr_mod = 0x00000123;
	memcpy(p->ip.src, ip_version == 4 ? gid_c + 12 : gid_c, ip_version == 4 ? 4 : 16);
	memcpy(p->ip.dst, ip_version == 4 ? gid_s + 12 : gid_s, ip_version == 4 ? 4 : 16);
	p->bth.psn = 0x000abc;
	r->local_comm_id = 0xc0c0c0c1;
	r->service_id = 0x0000000001064e21ull; /* RDMA_PS_TCP, port 20001 */
	r->local_ca_guid = 0x0002c90300a1b2c3ull;
	r->local_qkey = 0;
	r->local_qpn = 0x0000c1;
	r->responder_resources = 16;
	r->local_eecn = 0x000102;
	r->initiator_depth = 15;
	r->remote_eecn = 0x030405;
	r->remote_cm_resp_timeout = 20;
	r->transport_type = 0;
	r->e2e_flow_ctrl = true;
	r->starting_psn = 0x5a5a5a;
	r->local_cm_resp_timeout = 21;
	r->retry_count = 7;
	r->pkey = 0xffff;
	r->path_mtu = 5;
	r->rdc_exists = false;
	r->rnr_retry_count = 6;
	r->max_cm_retries = 15;
	r->srq = true;
	r->ext_transport_type = 0;
	r->primary_local_lid = 0xffff;
	r->primary_remote_lid = 0xffff;
	memcpy(r->primary_local_gid, gid_c, 16);
	memcpy(r->primary_remote_gid, gid_s, 16);
	r->primary_flow_label = 0xabcde;
	r->primary_packet_rate = 0x2a;
	r->primary_traffic_class = 0x68;
	r->primary_hop_limit = 64;
	r->primary_sl = 3;
	r->primary_subnet_local = true;
	r->primary_local_ack_timeout = 18;
	fill_bytes(r->private_data, sizeof(r->private_data), 0x11);
}

/* The REP from S answering make_req(). */
static void make_rep(struct pnc_cm_packet *p, uint8_t ip_version)
{
	struct pnc_cm_rep *r = &p->msg.u.rep;

	pnc_cm_packet_init(p, ip_version, PNC_CM_ATTR_REP);
	p->msg.mad.tid = 0x0102030405060708ull;
	r->local_comm_id = 0x5e5e5e51;
	r->remote_comm_id = 0xc0c0c0c1;
	r->local_qkey = 0x11111111;
	r->local_qpn = 0x0000d7;
	r->local_eecn = 0xabcdef;
	r->starting_psn = 0x123456;
	r->vendor_id = 0x02c903;
	r->responder_resources = 4;
	r->initiator_depth = 5;
	r->target_ack_delay = 31;
	r->failover_accepted = 2;
	r->e2e_flow_ctrl = true;
	r->rnr_retry_count = 7;
	r->srq = true;
	r->local_ca_guid = 0x0002c90300d4e5f6ull;
	fill_bytes(r->private_data, sizeof(r->private_data), 0x22);
}

static size_t encode_packet(const struct pnc_cm_packet *p, uint8_t *buf)
{
	size_t n = 0;

	assert_int_equal(pnc_cm_packet_encode(p, buf, 512, &n), PNC_OK);
	return n;
}

static uint32_t be(const uint8_t *p, size_t n)
{
	uint32_t v = 0;

	while (n--)
		v = v << 8 | *p++;
	return v;
}

/* 4.1/4.2: offsets in the UDP payload of a REQ. */
static void test_req_layout(void **state)
{
	struct pnc_cm_packet p;
	uint8_t buf[512];
	const uint8_t *u;
	size_t n, h;
	uint8_t v;

	(void)state;
	for (v = 4; v <= 6; v += 2) {
		make_req(&p, v);
		n = encode_packet(&p, buf);
		h = v == 4 ? 20 : 40;
		assert_int_equal(n, h + PNC_CM_PKT_UDP_LEN);
		assert_int_equal(be(buf + h + 4, 2), 288);
		u = buf + h + 8; /* UDP payload */
		assert_int_equal(u[0], 0x64);
		assert_int_equal(be(u + 2, 2), 0xffff);
		assert_int_equal(be(u + 5, 3), 1);
		assert_int_equal(be(u + 12, 4), 0x80010000);
		assert_int_equal(u[16], 0);
		assert_int_equal(be(u + 17, 3), 1);
		/* MAD header */
		assert_int_equal(u[20], 1);
		assert_int_equal(u[21], 0x07);
		assert_int_equal(u[22], 2);
		assert_int_equal(u[23], 0x03);
		assert_int_equal(be(u + 28, 4), 0x01020304);
		assert_int_equal(be(u + 32, 4), 0x05060708);
		assert_int_equal(be(u + 36, 2), 0x0010);
		assert_int_equal(be(u + 40, 4), 0x123);
		/* REQ */
		assert_int_equal(be(u + 44, 4), 0xc0c0c0c1);
		assert_int_equal(be(u + 52, 4), 0x00000000);
		assert_int_equal(be(u + 56, 4), 0x01064e21);
		assert_int_equal(be(u + 60, 4), 0x0002c903);
		assert_int_equal(be(u + 76, 3), 0x0000c1);
		assert_int_equal(u[79], 16);
		assert_int_equal(be(u + 80, 3), 0x000102);
		assert_int_equal(u[83], 15);
		assert_int_equal(be(u + 84, 3), 0x030405);
		assert_int_equal(u[87], 20 << 3 | 0 << 1 | 1);
		assert_int_equal(be(u + 88, 3), 0x5a5a5a);
		assert_int_equal(u[91], 21 << 3 | 7);
		assert_int_equal(be(u + 92, 2), 0xffff);
		assert_int_equal(u[94], 5 << 4 | 6);
		assert_int_equal(u[95], 15 << 4 | 1 << 3);
		assert_int_equal(be(u + 96, 4), 0xffffffff);
		assert_memory_equal(u + 100, p.msg.u.req.primary_local_gid, 16);
		assert_memory_equal(u + 116, p.msg.u.req.primary_remote_gid, 16);
		assert_int_equal(be(u + 132, 4), 0xabcde000 | 0x2a);
		assert_int_equal(u[136], 0x68);
		assert_int_equal(u[137], 64);
		assert_int_equal(u[138], 3 << 4 | 1 << 3);
		assert_int_equal(u[139], 18 << 3);
		/* alternate path: all zero */
		for (size_t k = 140; k < 184; k++)
			assert_int_equal(u[k], 0);
		assert_memory_equal(u + 184, p.msg.u.req.private_data, 92);
		assert_int_equal(pnc_icrc_verify(buf, n), PNC_OK);
	}
}

static void test_rep_layout(void **state)
{
	struct pnc_cm_packet p;
	uint8_t buf[512];
	const uint8_t *u;

	(void)state;
	make_rep(&p, 4);
	encode_packet(&p, buf);
	u = buf + 28;
	assert_int_equal(be(u + 36, 2), 0x0013);
	assert_int_equal(be(u + 44, 4), 0x5e5e5e51);
	assert_int_equal(be(u + 48, 4), 0xc0c0c0c1);
	assert_int_equal(be(u + 52, 4), 0x11111111);
	assert_int_equal(be(u + 56, 4), 0x0000d702);
	assert_int_equal(be(u + 60, 4), 0xabcdefc9);
	assert_int_equal(be(u + 64, 4), 0x12345603);
	assert_int_equal(u[68], 4);
	assert_int_equal(u[69], 5);
	assert_int_equal(u[70], 0xf8 | 2 << 1 | 1);
	assert_int_equal(u[71], 0xe0 | 0x10);
	assert_int_equal(be(u + 72, 4), 0x0002c903);
	assert_int_equal(be(u + 76, 4), 0x00d4e5f6);
	assert_memory_equal(u + 80, p.msg.u.rep.private_data, 196);
}

static void assert_req_equal(const struct pnc_cm_req *a, const struct pnc_cm_req *b)
{
	assert_int_equal(a->local_comm_id, b->local_comm_id);
	assert_true(a->service_id == b->service_id);
	assert_true(a->local_ca_guid == b->local_ca_guid);
	assert_int_equal(a->local_qkey, b->local_qkey);
	assert_int_equal(a->local_qpn, b->local_qpn);
	assert_int_equal(a->responder_resources, b->responder_resources);
	assert_int_equal(a->local_eecn, b->local_eecn);
	assert_int_equal(a->initiator_depth, b->initiator_depth);
	assert_int_equal(a->remote_eecn, b->remote_eecn);
	assert_int_equal(a->remote_cm_resp_timeout, b->remote_cm_resp_timeout);
	assert_int_equal(a->transport_type, b->transport_type);
	assert_int_equal(a->e2e_flow_ctrl, b->e2e_flow_ctrl);
	assert_int_equal(a->starting_psn, b->starting_psn);
	assert_int_equal(a->local_cm_resp_timeout, b->local_cm_resp_timeout);
	assert_int_equal(a->retry_count, b->retry_count);
	assert_int_equal(a->pkey, b->pkey);
	assert_int_equal(a->path_mtu, b->path_mtu);
	assert_int_equal(a->rdc_exists, b->rdc_exists);
	assert_int_equal(a->rnr_retry_count, b->rnr_retry_count);
	assert_int_equal(a->max_cm_retries, b->max_cm_retries);
	assert_int_equal(a->srq, b->srq);
	assert_int_equal(a->ext_transport_type, b->ext_transport_type);
	assert_int_equal(a->primary_local_lid, b->primary_local_lid);
	assert_int_equal(a->primary_remote_lid, b->primary_remote_lid);
	assert_memory_equal(a->primary_local_gid, b->primary_local_gid, 16);
	assert_memory_equal(a->primary_remote_gid, b->primary_remote_gid, 16);
	assert_int_equal(a->primary_flow_label, b->primary_flow_label);
	assert_int_equal(a->primary_packet_rate, b->primary_packet_rate);
	assert_int_equal(a->primary_traffic_class, b->primary_traffic_class);
	assert_int_equal(a->primary_hop_limit, b->primary_hop_limit);
	assert_int_equal(a->primary_sl, b->primary_sl);
	assert_int_equal(a->primary_subnet_local, b->primary_subnet_local);
	assert_int_equal(a->primary_local_ack_timeout, b->primary_local_ack_timeout);
	assert_memory_equal(a->private_data, b->private_data, sizeof(a->private_data));
}

static void assert_rep_equal(const struct pnc_cm_rep *a, const struct pnc_cm_rep *b)
{
	assert_int_equal(a->local_comm_id, b->local_comm_id);
	assert_int_equal(a->remote_comm_id, b->remote_comm_id);
	assert_int_equal(a->local_qkey, b->local_qkey);
	assert_int_equal(a->local_qpn, b->local_qpn);
	assert_int_equal(a->local_eecn, b->local_eecn);
	assert_int_equal(a->starting_psn, b->starting_psn);
	assert_int_equal(a->vendor_id, b->vendor_id);
	assert_int_equal(a->responder_resources, b->responder_resources);
	assert_int_equal(a->initiator_depth, b->initiator_depth);
	assert_int_equal(a->target_ack_delay, b->target_ack_delay);
	assert_int_equal(a->failover_accepted, b->failover_accepted);
	assert_int_equal(a->e2e_flow_ctrl, b->e2e_flow_ctrl);
	assert_int_equal(a->rnr_retry_count, b->rnr_retry_count);
	assert_int_equal(a->srq, b->srq);
	assert_true(a->local_ca_guid == b->local_ca_guid);
	assert_memory_equal(a->private_data, b->private_data, sizeof(a->private_data));
}

static void assert_mad_equal(const struct pnc_mad_hdr *a, const struct pnc_mad_hdr *b)
{
	assert_int_equal(a->base_version, b->base_version);
	assert_int_equal(a->mgmt_class, b->mgmt_class);
	assert_int_equal(a->class_version, b->class_version);
	assert_int_equal(a->method, b->method);
	assert_int_equal(a->status, b->status);
	assert_int_equal(a->class_specific, b->class_specific);
	assert_true(a->tid == b->tid);
	assert_int_equal(a->attr_id, b->attr_id);
	assert_int_equal(a->attr_mod, b->attr_mod);
}

/* 4.3: REQ gives qC/psnC/P_Key, the matching REP gives qS/psnS. */
static void test_req_rep_round_trip_and_pairing(void **state)
{
	struct pnc_cm_packet req, rep, out_req, out_rep;
	uint8_t buf[512];
	size_t n;
	uint8_t v;

	(void)state;
	for (v = 4; v <= 6; v += 2) {
		make_req(&req, v);
		make_rep(&rep, v);
		n = encode_packet(&req, buf);
		assert_int_equal(pnc_cm_packet_decode(buf, n, &out_req), PNC_OK);
		assert_mad_equal(&out_req.msg.mad, &req.msg.mad);
		assert_req_equal(&out_req.msg.u.req, &req.msg.u.req);
		assert_int_equal(out_req.bth.dest_qp, 1);
		assert_int_equal(out_req.bth.psn, 0xabc);
		assert_int_equal(out_req.deth.qkey, PNC_GSI_QKEY);
		assert_int_equal(out_req.deth.src_qp, 1);
		assert_memory_equal(out_req.ip.src, req.ip.src, v == 4 ? 4 : 16);

		n = encode_packet(&rep, buf);
		assert_int_equal(pnc_cm_packet_decode(buf, n, &out_rep), PNC_OK);
		assert_mad_equal(&out_rep.msg.mad, &rep.msg.mad);
		assert_rep_equal(&out_rep.msg.u.rep, &rep.msg.u.rep);

		/* the pairing a learner derives from the two */
		assert_int_equal(out_rep.msg.u.rep.remote_comm_id, out_req.msg.u.req.local_comm_id);
		assert_int_equal(out_req.msg.u.req.local_qpn, 0xc1); /* qC */
		assert_int_equal(out_req.msg.u.req.starting_psn, 0x5a5a5a);
		assert_int_equal(out_req.msg.u.req.pkey, 0xffff);
		assert_int_equal(out_rep.msg.u.rep.local_qpn, 0xd7); /* qS */
		assert_int_equal(out_rep.msg.u.rep.starting_psn, 0x123456);
	}
}

static void test_other_messages(void **state)
{
	struct pnc_cm_msg in, out;
	uint8_t mad[PNC_MAD_LEN];
	size_t n;

	(void)state;
	/* RTU */
	memset(&in, 0, sizeof(in));
	pnc_cm_mad_init(&in.mad, PNC_CM_ATTR_RTU, 99);
	in.u.rtu.local_comm_id = 0x11;
	in.u.rtu.remote_comm_id = 0x22;
	fill_bytes(in.u.rtu.private_data, PNC_CM_RTU_PRIV_LEN, 3);
	assert_int_equal(pnc_cm_encode(&in, mad, sizeof(mad), &n), PNC_OK);
	assert_int_equal(n, PNC_MAD_LEN);
	assert_int_equal(be(mad + 24, 4), 0x11);
	assert_int_equal(be(mad + 28, 4), 0x22);
	assert_int_equal(pnc_cm_decode(mad, n, &out), PNC_OK);
	assert_mad_equal(&out.mad, &in.mad);
	assert_int_equal(out.u.rtu.local_comm_id, 0x11);
	assert_int_equal(out.u.rtu.remote_comm_id, 0x22);
	assert_memory_equal(out.u.rtu.private_data, in.u.rtu.private_data, PNC_CM_RTU_PRIV_LEN);

	/* DREP: same layout as RTU */
	in.mad.attr_id = PNC_CM_ATTR_DREP;
	assert_int_equal(pnc_cm_encode(&in, mad, sizeof(mad), &n), PNC_OK);
	assert_int_equal(pnc_cm_decode(mad, n, &out), PNC_OK);
	assert_int_equal(out.u.drep.local_comm_id, 0x11);
	assert_int_equal(out.u.drep.remote_comm_id, 0x22);

	/* REJ: MessageRejected in bits 7-6 of CM octet 8, reason at 10 */
	memset(&in, 0, sizeof(in));
	pnc_cm_mad_init(&in.mad, PNC_CM_ATTR_REJ, 100);
	in.u.rej.local_comm_id = 0x5e5e5e51;
	in.u.rej.remote_comm_id = 0xc0c0c0c1;
	in.u.rej.msg_rejected = 1;
	in.u.rej.reject_info_len = 0x7f;
	in.u.rej.reason = 28; /* consumer reject */
	fill_bytes(in.u.rej.ari, PNC_CM_REJ_ARI_LEN, 4);
	fill_bytes(in.u.rej.private_data, PNC_CM_REJ_PRIV_LEN, 5);
	assert_int_equal(pnc_cm_encode(&in, mad, sizeof(mad), &n), PNC_OK);
	assert_int_equal(mad[24 + 8], 0x40);
	assert_int_equal(mad[24 + 9], 0xfe);
	assert_int_equal(be(mad + 24 + 10, 2), 28);
	assert_memory_equal(mad + 24 + 12, in.u.rej.ari, PNC_CM_REJ_ARI_LEN);
	assert_memory_equal(mad + 24 + 84, in.u.rej.private_data, PNC_CM_REJ_PRIV_LEN);
	assert_int_equal(pnc_cm_decode(mad, n, &out), PNC_OK);
	assert_int_equal(out.u.rej.local_comm_id, 0x5e5e5e51);
	assert_int_equal(out.u.rej.remote_comm_id, 0xc0c0c0c1);
	assert_int_equal(out.u.rej.msg_rejected, 1);
	assert_int_equal(out.u.rej.reject_info_len, 0x7f);
	assert_int_equal(out.u.rej.reason, 28);
	assert_memory_equal(out.u.rej.ari, in.u.rej.ari, PNC_CM_REJ_ARI_LEN);
	assert_memory_equal(out.u.rej.private_data, in.u.rej.private_data, PNC_CM_REJ_PRIV_LEN);

	/* DREQ: remote QPN in the top 3 octets of CM word 8 (UDP 52-54) */
	memset(&in, 0, sizeof(in));
	pnc_cm_mad_init(&in.mad, PNC_CM_ATTR_DREQ, 101);
	in.u.dreq.local_comm_id = 1;
	in.u.dreq.remote_comm_id = 2;
	in.u.dreq.remote_qpn_eecn = 0xd7;
	fill_bytes(in.u.dreq.private_data, PNC_CM_DREQ_PRIV_LEN, 6);
	assert_int_equal(pnc_cm_encode(&in, mad, sizeof(mad), &n), PNC_OK);
	assert_int_equal(be(mad + 24 + 8, 4), 0xd700);
	assert_int_equal(pnc_cm_decode(mad, n, &out), PNC_OK);
	assert_int_equal(out.u.dreq.local_comm_id, 1);
	assert_int_equal(out.u.dreq.remote_comm_id, 2);
	assert_int_equal(out.u.dreq.remote_qpn_eecn, 0xd7);
	assert_memory_equal(out.u.dreq.private_data, in.u.dreq.private_data, PNC_CM_DREQ_PRIV_LEN);
}

/* Each REQ bit field alone at its maximum lands in the right bits. */
static void test_req_bitfields(void **state)
{
	static const struct {
		const char *name;
		size_t off; /* CM offset */
		uint8_t want;
	} cases[] = {
		{ "remote_cm_resp_timeout", 43, 0xf8 },
		{ "transport_type", 43, 0x06 },
		{ "e2e_flow_ctrl", 43, 0x01 },
		{ "local_cm_resp_timeout", 47, 0xf8 },
		{ "retry_count", 47, 0x07 },
		{ "path_mtu", 50, 0xf0 },
		{ "rdc_exists", 50, 0x08 },
		{ "rnr_retry_count", 50, 0x07 },
		{ "max_cm_retries", 51, 0xf0 },
		{ "srq", 51, 0x08 },
		{ "ext_transport_type", 51, 0x07 },
		{ "primary_packet_rate", 91, 0x3f },
		{ "primary_sl", 94, 0xf0 },
		{ "primary_subnet_local", 94, 0x08 },
		{ "primary_local_ack_timeout", 95, 0xf8 },
	};
	struct pnc_cm_msg in, out;
	uint8_t mad[PNC_MAD_LEN];
	size_t i, k;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct pnc_cm_req *r = &in.u.req;

		memset(&in, 0, sizeof(in));
		pnc_cm_mad_init(&in.mad, PNC_CM_ATTR_REQ, 0);
		switch (i) {
		case 0:
			r->remote_cm_resp_timeout = 31;
			break;
		case 1:
			r->transport_type = 3;
			break;
		case 2:
			r->e2e_flow_ctrl = true;
			break;
		case 3:
			r->local_cm_resp_timeout = 31;
			break;
		case 4:
			r->retry_count = 7;
			break;
		case 5:
			r->path_mtu = 15;
			break;
		case 6:
			r->rdc_exists = true;
			break;
		case 7:
			r->rnr_retry_count = 7;
			break;
		case 8:
			r->max_cm_retries = 15;
			break;
		case 9:
			r->srq = true;
			break;
		case 10:
			r->ext_transport_type = 7;
			break;
		case 11:
			r->primary_packet_rate = 63;
			break;
		case 12:
			r->primary_sl = 15;
			break;
		case 13:
			r->primary_subnet_local = true;
			break;
		case 14:
			r->primary_local_ack_timeout = 31;
			break;
		}
		print_message("  %s\n", cases[i].name);
		assert_int_equal(pnc_cm_encode(&in, mad, sizeof(mad), NULL), PNC_OK);
		for (k = 0; k < PNC_CM_MSG_LEN; k++)
			assert_int_equal(mad[24 + k], k == cases[i].off ? cases[i].want : 0);
		assert_int_equal(pnc_cm_decode(mad, sizeof(mad), &out), PNC_OK);
		assert_req_equal(&out.u.req, r);
	}
}

static void test_encode_errors(void **state)
{
	struct pnc_cm_packet p;
	struct pnc_cm_msg m;
	uint8_t buf[512];

	(void)state;
	make_req(&p, 4);
	assert_int_equal(pnc_cm_encode(&p.msg, buf, PNC_MAD_LEN - 1, NULL), PNC_E_BUF_TOO_SMALL);
	assert_int_equal(pnc_cm_packet_encode(&p, buf, 20 + 287, NULL), PNC_E_BUF_TOO_SMALL);
	p.msg.u.req.local_qpn = 1u << 24;
	assert_int_equal(pnc_cm_packet_encode(&p, buf, sizeof(buf), NULL), PNC_E_INVALID_ARG);
	make_req(&p, 4);
	p.msg.u.req.primary_flow_label = 1u << 20;
	assert_int_equal(pnc_cm_encode(&p.msg, buf, sizeof(buf), NULL), PNC_E_INVALID_ARG);
	make_rep(&p, 4);
	p.msg.u.rep.vendor_id = 1u << 24;
	assert_int_equal(pnc_cm_encode(&p.msg, buf, sizeof(buf), NULL), PNC_E_INVALID_ARG);
	make_req(&p, 4);
	p.deth.src_qp = 1u << 24;
	assert_int_equal(pnc_cm_packet_encode(&p, buf, sizeof(buf), NULL), PNC_E_INVALID_ARG);
	memset(&m, 0, sizeof(m));
	pnc_cm_mad_init(&m.mad, PNC_CM_ATTR_MRA, 0);
	assert_int_equal(pnc_cm_encode(&m, buf, sizeof(buf), NULL), PNC_E_INVALID_ARG);
	pnc_cm_mad_init(&m.mad, PNC_CM_ATTR_REJ, 0);
	m.u.rej.msg_rejected = 4;
	assert_int_equal(pnc_cm_encode(&m, buf, sizeof(buf), NULL), PNC_E_INVALID_ARG);
	memset(&m, 0, sizeof(m));
	pnc_cm_mad_init(&m.mad, PNC_CM_ATTR_DREQ, 0);
	m.u.dreq.remote_qpn_eecn = 1u << 24;
	assert_int_equal(pnc_cm_encode(&m, buf, sizeof(buf), NULL), PNC_E_INVALID_ARG);
}

/* ---- rejections -------------------------------------------------------- */

struct mad_reject {
	const char *name;
	size_t off; /* MAD octet to set */
	uint8_t val;
	size_t len;
	int expect;
};

static const struct mad_reject mad_rejects[] = {
	{ "short", 0, 1, 255, PNC_E_MAD_TRUNCATED },
	{ "long", 0, 1, 257, PNC_E_MAD_LEN },
	{ "base-version", 0, 2, 256, PNC_E_MAD_BASE_VERSION },
	{ "class-sa", 1, 0x03, 256, PNC_E_MAD_CLASS },
	{ "class-version", 2, 1, 256, PNC_E_MAD_CLASS_VERSION },
	{ "method-get", 3, 0x01, 256, PNC_E_MAD_METHOD },
	{ "method-response", 3, 0x83, 256, PNC_E_MAD_METHOD },
	{ "attr-mra", 17, 0x11, 256, PNC_E_CM_ATTR },
	{ "attr-sidr-req", 17, 0x17, 256, PNC_E_CM_ATTR },
	{ "attr-zero", 17, 0x00, 256, PNC_E_CM_ATTR },
};

static void test_mad_rejects(void **state)
{
	struct pnc_cm_packet p;
	struct pnc_cm_msg out;
	uint8_t mad[300];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(mad_rejects); i++) {
		const struct mad_reject *r = &mad_rejects[i];

		print_message("  %s\n", r->name);
		make_req(&p, 4);
		memset(mad, 0, sizeof(mad));
		assert_int_equal(pnc_cm_encode(&p.msg, mad, sizeof(mad), NULL), PNC_OK);
		assert_int_equal(pnc_cm_decode(mad, PNC_MAD_LEN, &out), PNC_OK);
		mad[r->off] = r->val;
		assert_int_equal(pnc_cm_decode(mad, r->len, &out), r->expect);
	}
}

struct pkt_reject {
	const char *name;
	size_t off; /* UDP payload octet to set, or SIZE_MAX */
	uint8_t val;
	int len_delta;
	int expect;
};

static const struct pkt_reject pkt_rejects[] = {
	{ "opcode-ud-imm", 0, 0x65, 0, PNC_E_BTH_OPCODE },
	{ "opcode-rc-send", 0, 0x04, 0, PNC_E_BTH_OPCODE },
	{ "dest-qp-2", 7, 2, 0, PNC_E_CM_QP },
	{ "dest-qp-0", 7, 0, 0, PNC_E_CM_QP },
	{ "qkey", 15, 1, 0, PNC_E_CM_QKEY },
	{ "mad-short", SIZE_MAX, 0, -4, PNC_E_MAD_TRUNCATED },
	{ "mad-long", SIZE_MAX, 0, +4, PNC_E_MAD_LEN },
	{ "mad-class", 21, 0x04, 0, PNC_E_MAD_CLASS },
	{ "deth-missing", SIZE_MAX, 0, -264, PNC_E_EXT_TRUNCATED },
};

static void test_packet_rejects(void **state)
{
	struct pnc_cm_packet p, out;
	uint8_t buf[512];
	size_t i, n;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(pkt_rejects); i++) {
		const struct pkt_reject *r = &pkt_rejects[i];

		print_message("  %s\n", r->name);
		make_req(&p, 4);
		memset(buf, 0, sizeof(buf));
		n = encode_packet(&p, buf);
		n = (size_t)((long)n + r->len_delta);
		set_lengths(buf, n);
		if (r->off != SIZE_MAX)
			buf[28 + r->off] = r->val;
		refix(buf, n);
		assert_int_equal(pnc_cm_packet_decode(buf, n, &out), r->expect);
	}
	/* a broken ICRC is caught before anything CM-specific */
	make_req(&p, 6);
	n = encode_packet(&p, buf);
	buf[n - 10] ^= 0x80;
	assert_int_equal(pnc_cm_packet_decode(buf, n, &out), PNC_E_ICRC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_req_layout),
		cmocka_unit_test(test_rep_layout),
		cmocka_unit_test(test_req_rep_round_trip_and_pairing),
		cmocka_unit_test(test_other_messages),
		cmocka_unit_test(test_req_bitfields),
		cmocka_unit_test(test_encode_errors),
		cmocka_unit_test(test_mad_rejects),
		cmocka_unit_test(test_packet_rejects),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
