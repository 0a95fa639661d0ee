// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pnc-pkt: the packet kinds, their defaults (doc/wire-formats.md sections 0,
 * 2, 4, 6 and 7) and the table of field=value names that "build" accepts.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pnc_pkt.h"

static const char *const kind_names[K_NKINDS] = {
	[K_CNP] = "cnp",
	[K_RC_WRITE] = "rc-write",
	[K_RC_SEND] = "rc-send",
	[K_ACK] = "ack",
	[K_CM_REQ] = "cm-req",
	[K_CM_REP] = "cm-rep",
	[K_CM_RTU] = "cm-rtu",
	[K_CM_REJ] = "cm-rej",
	[K_CM_DREQ] = "cm-dreq",
	[K_NOTIF] = "notif",
	[K_FCN] = "fcn",
	[K_LH_ICMP6] = "long-haul-icmpv6",
	[K_LH_ROCE] = "long-haul-rocev2",
	[K_RATE_ADVICE] = "rate-advice",
};

const char *kind_name(enum pkt_kind k)
{
	return k < K_NKINDS ? kind_names[k] : "?";
}

int kind_parse(const char *name, enum pkt_kind *k)
{
	int i;

	for (i = 0; i < K_NKINDS; i++)
		if (!strcmp(name, kind_names[i])) {
			*k = (enum pkt_kind)i;
			return 0;
		}
	return -1;
}

/* ---- defaults ----------------------------------------------------------- */

static const uint8_t def4_src[4] = { 192, 0, 2, 1 }, def4_dst[4] = { 192, 0, 2, 2 };
static const uint8_t def6_src[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
static const uint8_t def6_dst[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 };
static const uint8_t flow4_src[4] = { 198, 51, 100, 1 }, flow4_dst[4] = { 198, 51, 100, 2 };
static const uint8_t flow6_src[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 1, [15] = 1 };
static const uint8_t flow6_dst[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 1, [15] = 2 };

static void default_addr(uint8_t *a, uint8_t version, bool dst, bool flow)
{
	memset(a, 0, 16);
	if (version == 4)
		memcpy(a, flow ? (dst ? flow4_dst : flow4_src) : (dst ? def4_dst : def4_src), 4);
	else
		memcpy(a, flow ? (dst ? flow6_dst : flow6_src) : (dst ? def6_dst : def6_src), 16);
}

static void cm_defaults(struct pkt_spec *s)
{
	struct pnc_cm_msg *m = &s->cm;

	switch (s->kind) {
	case K_CM_REQ:
		m->u.req.local_comm_id = 0x00001000;
		/* librdmacm RDMA_PS_TCP, port 7471 (section 4.2) */
		m->u.req.service_id = 0x0000000001060000ull | 7471;
		m->u.req.local_ca_guid = 0x0002c90300000001ull;
		m->u.req.local_qpn = 0x000011;
		m->u.req.starting_psn = 0x000100;
		m->u.req.pkey = PNC_DEFAULT_PKEY;
		m->u.req.responder_resources = 16;
		m->u.req.initiator_depth = 16;
		m->u.req.remote_cm_resp_timeout = 20;
		m->u.req.local_cm_resp_timeout = 20;
		m->u.req.retry_count = 7;
		m->u.req.rnr_retry_count = 7;
		m->u.req.max_cm_retries = 15;
		m->u.req.path_mtu = 5; /* 4096 */
		m->u.req.primary_hop_limit = 64;
		m->u.req.primary_local_ack_timeout = 18;
		break;
	case K_CM_REP:
		m->u.rep.local_comm_id = 0x00002000;
		m->u.rep.remote_comm_id = 0x00001000;
		m->u.rep.local_qpn = 0x000022;
		m->u.rep.starting_psn = 0x000200;
		m->u.rep.local_ca_guid = 0x0002c90300000002ull;
		m->u.rep.responder_resources = 16;
		m->u.rep.initiator_depth = 16;
		m->u.rep.target_ack_delay = 15;
		m->u.rep.rnr_retry_count = 7;
		break;
	case K_CM_RTU:
		m->u.rtu.local_comm_id = 0x00001000;
		m->u.rtu.remote_comm_id = 0x00002000;
		break;
	case K_CM_REJ:
		m->u.rej.local_comm_id = 0x00002000;
		m->u.rej.remote_comm_id = 0x00001000;
		m->u.rej.reason = 28; /* consumer reject */
		break;
	case K_CM_DREQ:
		m->u.dreq.local_comm_id = 0x00001000;
		m->u.dreq.remote_comm_id = 0x00002000;
		m->u.dreq.remote_qpn_eecn = 0x000022;
		break;
	default:
		break;
	}
}

static const uint16_t cm_attr[K_NKINDS] = {
	[K_CM_REQ] = PNC_CM_ATTR_REQ, [K_CM_REP] = PNC_CM_ATTR_REP,   [K_CM_RTU] = PNC_CM_ATTR_RTU,
	[K_CM_REJ] = PNC_CM_ATTR_REJ, [K_CM_DREQ] = PNC_CM_ATTR_DREQ,
};

void spec_init(struct pkt_spec *s, enum pkt_kind k, uint8_t version)
{
	memset(s, 0, sizeof(*s));
	s->kind = k;
	pnc_ip_udp_init(&s->ip, version);
	default_addr(s->ip.src, version, false, false);
	default_addr(s->ip.dst, version, true, false);
	s->bth.pkey = PNC_DEFAULT_PKEY;

	switch (k) {
	case K_CNP:
		/* DSCP 48, Not-ECT (doc/design.md 5); DestQP of doc/wire-formats.md 3.3 */
		s->ip.tos = 48 << 2;
		s->bth.opcode = PNC_OP_CNP;
		s->bth.becn = true;
		s->bth.dest_qp = 0x000123;
		break;
	case K_RC_WRITE:
	case K_RC_SEND:
		s->ip.tos = 26 << 2 | 2; /* DSCP 26, ECT(0) */
		s->variant = RC_ONLY;
		s->bth.dest_qp = 0x000022;
		s->bth.ack_req = true;
		s->reth.va = 0x10000;
		s->reth.rkey = 0x1234;
		s->payload_len = PKT_DEFAULT_PLEN;
		for (size_t i = 0; i < PKT_DEFAULT_PLEN; i++)
			s->payload[i] = (uint8_t)i;
		break;
	case K_ACK:
		s->ip.tos = 26 << 2 | 2;
		s->bth.opcode = PNC_OP_RC_ACK;
		s->bth.dest_qp = 0x000011;
		s->aeth.syndrome = pnc_aeth_syndrome(PNC_AETH_ACK, 0x1f);
		break;
	case K_CM_REQ:
	case K_CM_REP:
	case K_CM_RTU:
	case K_CM_REJ:
	case K_CM_DREQ:
		s->bth.opcode = PNC_OP_UD_SEND_ONLY;
		s->bth.dest_qp = PNC_GSI_QP;
		s->deth.qkey = PNC_GSI_QKEY;
		s->deth.src_qp = PNC_GSI_QP;
		pnc_cm_mad_init(&s->cm.mad, cm_attr[k], 1);
		cm_defaults(s);
		break;
	case K_NOTIF:
		s->ip.dport = PNC_NOTIF_UDP_PORT;
		s->udp_csum_mode = CSUM_AUTO;
		s->notif.af = 4;
		s->notif.protocol = 17;
		s->notif.cl = 3;
		s->notif.sport = 0xc000;
		s->notif.dport = PNC_ROCE_UDP_PORT;
		default_addr(s->notif.src, 4, false, true);
		default_addr(s->notif.dst, 4, true, true);
		break;
	case K_FCN:
		s->ip.dport = PNC_FCN_UDP_PORT;
		s->udp_csum_mode = CSUM_AUTO;
		/* the example of doc/wire-formats.md 6.3: 12 34 5A 00 */
		s->fcn.flow_label = 0x12345;
		s->fcn.cl = 5;
		break;
	case K_LH_ICMP6:
	case K_LH_ROCE:
		/* Sent with a CNP's priority, about the cnp kind's QP, at notif's CL 3. */
		s->ip.tos = 48 << 2;
		s->bth.dest_qp = 0x000123;
		s->icmp_type = PNC_LH_ICMP6_TYPE;
		s->lh.block.level = pnc_lh_level_from_cl(3);
		s->lh.block.action = PNC_LH_NOTIFY;
		s->lh.block.src_qp = 0x000123;
		/* An extension, once asked for, is well formed: checksummed. */
		s->lh.ext.checksum = true;
		s->lh.ext.class_num = PNC_LH_EXT_CLASS_NUM;
		break;
	case K_RATE_ADVICE:
		/* Advice to the cnp kind's QP, whose peer is the rc kinds' DestQP. */
		s->ip.tos = 48 << 2;
		s->bth.opcode = PNC_RA_OPCODE;
		s->bth.dest_qp = 0x000123;
		s->ra.rate_mbps = 25000;
		s->ra.version = PNC_RA_VERSION;
		s->ra.peer_qp = 0x000022;
		break;
	default:
		break;
	}
	if (s->udp_csum_mode == CSUM_AUTO)
		s->ip.udp_csum = true;
}

void spec_free(struct pkt_spec *s)
{
	if (s->inv) {
		spec_free(s->inv);
		free(s->inv);
		s->inv = NULL;
	}
}

/* ---- setters for fields that are more than a number --------------------- */

static int set_version(struct pkt_spec *s, uint8_t version, bool keep_src, bool keep_dst)
{
	if (s->ip.version == version)
		return 0;
	/* ICMPv6 is IPv6 only. */
	if (s->kind == K_LH_ICMP6)
		return -1;
	if ((s->src_set && !keep_src) || (s->dst_set && !keep_dst))
		return -1; /* the other address has the other family */
	s->ip.version = version;
	if (!keep_src)
		default_addr(s->ip.src, version, false, false);
	if (!keep_dst)
		default_addr(s->ip.dst, version, true, false);
	return 0;
}

static int set_ipver(struct pkt_spec *s, const char *v)
{
	if (strcmp(v, "4") && strcmp(v, "6"))
		return -1;
	return set_version(s, (uint8_t)atoi(v), false, false);
}

static int set_addr(struct pkt_spec *s, const char *v, bool dst)
{
	uint8_t a[16], ver;

	if (parse_addr(v, a, &ver) || set_version(s, ver, !dst, dst))
		return -1;
	memcpy(dst ? s->ip.dst : s->ip.src, a, 16);
	if (dst)
		s->dst_set = true;
	else
		s->src_set = true;
	return 0;
}

static int set_src(struct pkt_spec *s, const char *v)
{
	return set_addr(s, v, false);
}

static int set_dst(struct pkt_spec *s, const char *v)
{
	return set_addr(s, v, true);
}

static int set_dscp(struct pkt_spec *s, const char *v)
{
	uint64_t n;

	if (parse_u64(v, 63, &n))
		return -1;
	s->ip.tos = (uint8_t)(n << 2 | (s->ip.tos & 3));
	return 0;
}

static int set_ecn(struct pkt_spec *s, const char *v)
{
	static const char *const names[] = { "not-ect", "ect1", "ect0", "ce" };
	uint64_t n;
	int i;

	for (i = 0; i < 4; i++)
		if (!strcasecmp(v, names[i]))
			break;
	if (i < 4)
		n = (uint64_t)i;
	else if (parse_u64(v, 3, &n))
		return -1;
	s->ip.tos = (uint8_t)((s->ip.tos & ~3) | n);
	return 0;
}

static int set_udp_csum(struct pkt_spec *s, const char *v)
{
	uint64_t n;

	if (!strcmp(v, "auto")) {
		s->udp_csum_mode = CSUM_AUTO;
		s->ip.udp_csum = true;
		return 0;
	}
	if (parse_u64(v, 0xffff, &n))
		return -1;
	s->udp_csum_mode = n ? CSUM_VALUE : CSUM_ZERO;
	s->udp_csum = (uint16_t)n;
	s->ip.udp_csum = false;
	return 0;
}

static int set_ip_csum(struct pkt_spec *s, const char *v)
{
	uint64_t n;

	if (!strcmp(v, "auto")) {
		s->ip_csum_set = false;
		return 0;
	}
	if (parse_u64(v, 0xffff, &n))
		return -1;
	s->ip_csum_set = true;
	s->ip_csum = (uint16_t)n;
	return 0;
}

static int set_icrc(struct pkt_spec *s, const char *v)
{
	uint64_t n;

	if (!strcmp(v, "auto")) {
		s->icrc_set = false;
		return 0;
	}
	if (parse_u64(v, 0xffffffff, &n))
		return -1;
	s->icrc_set = true;
	s->icrc = (uint32_t)n;
	return 0;
}

static const struct {
	const char *name;
	uint8_t op;
} opcode_names[] = {
	{ "cnp", PNC_OP_CNP },
	{ "ack", PNC_OP_RC_ACK },
	{ "ud-send-only", PNC_OP_UD_SEND_ONLY },
	{ "send-first", PNC_OP_RC_SEND_FIRST },
	{ "send-middle", PNC_OP_RC_SEND_MIDDLE },
	{ "send-last", PNC_OP_RC_SEND_LAST },
	{ "send-only", PNC_OP_RC_SEND_ONLY },
	{ "write-first", PNC_OP_RC_WRITE_FIRST },
	{ "write-middle", PNC_OP_RC_WRITE_MIDDLE },
	{ "write-last", PNC_OP_RC_WRITE_LAST },
	{ "write-only", PNC_OP_RC_WRITE_ONLY },
	{ "read-request", PNC_OP_RC_READ_REQ },
};

static int set_opcode(struct pkt_spec *s, const char *v)
{
	uint64_t n;
	size_t i;

	for (i = 0; i < sizeof(opcode_names) / sizeof(opcode_names[0]); i++)
		if (!strcmp(v, opcode_names[i].name)) {
			s->bth.opcode = opcode_names[i].op;
			s->opcode_set = true;
			return 0;
		}
	if (parse_u64(v, 0xff, &n))
		return -1;
	s->bth.opcode = (uint8_t)n;
	s->opcode_set = true;
	return 0;
}

static int set_pad(struct pkt_spec *s, const char *v)
{
	uint64_t n;

	if (parse_u64(v, 3, &n))
		return -1;
	s->bth.pad = (uint8_t)n;
	s->pad_set = true;
	return 0;
}

static int set_variant(struct pkt_spec *s, const char *v)
{
	static const char *const names[] = { "first", "middle", "last", "only" };
	int i;

	for (i = 0; i < 4; i++)
		if (!strcmp(v, names[i])) {
			s->variant = (enum rc_variant)i;
			return 0;
		}
	return -1;
}

static int set_imm(struct pkt_spec *s, const char *v)
{
	uint64_t n;

	if (!strcmp(v, "none")) {
		s->imm_present = false;
		return 0;
	}
	if (parse_u64(v, 0xffffffff, &n))
		return -1;
	s->imm_present = true;
	s->imm = (uint32_t)n;
	return 0;
}

static int set_dma_len(struct pkt_spec *s, const char *v)
{
	uint64_t n;

	if (parse_u64(v, 0xffffffff, &n))
		return -1;
	s->reth.dma_len = (uint32_t)n;
	s->dma_len_set = true;
	return 0;
}

static int set_payload(struct pkt_spec *s, const char *v)
{
	if (parse_hex(v, s->payload, sizeof(s->payload), &s->payload_len))
		return -1;
	s->payload_set = true;
	return 0;
}

/* payload-len=N: the given payload repeated, or octets 00 01 02 ... */
static int set_payload_len(struct pkt_spec *s, const char *v)
{
	uint64_t n;
	size_t i;

	if (parse_u64(v, PKT_PAYLOAD_MAX, &n))
		return -1;
	for (i = 0; i < n; i++)
		s->payload[i] = s->payload_set && s->payload_len ? s->payload[i % s->payload_len]
								 : (uint8_t)i;
	s->payload_len = (size_t)n;
	s->payload_set = true;
	return 0;
}

static int set_syndrome(struct pkt_spec *s, const char *v)
{
	uint64_t n;

	if (!strcmp(v, "ack"))
		n = pnc_aeth_syndrome(PNC_AETH_ACK, 0x1f);
	else if (!strcmp(v, "rnr") || !strcmp(v, "rnr-nak"))
		n = pnc_aeth_syndrome(PNC_AETH_RNR_NAK, 0);
	else if (!strcmp(v, "nak"))
		n = pnc_aeth_syndrome(PNC_AETH_NAK, PNC_NAK_PSN_SEQ_ERR);
	else if (parse_u64(v, 0xff, &n))
		return -1;
	s->aeth.syndrome = (uint8_t)n;
	return 0;
}

static int set_syn_value(struct pkt_spec *s, const char *v, enum pnc_aeth_type t, uint64_t max)
{
	uint64_t n;

	if (parse_u64(v, max, &n))
		return -1;
	s->aeth.syndrome = pnc_aeth_syndrome(t, (uint8_t)n);
	return 0;
}

static int set_nak(struct pkt_spec *s, const char *v)
{
	static const char *const names[] = { "psn-seq", "invalid-req", "remote-access",
					     "remote-op", "invalid-rd-req" };
	uint8_t i;

	for (i = 0; i < 5; i++)
		if (!strcmp(v, names[i])) {
			s->aeth.syndrome = pnc_aeth_syndrome(PNC_AETH_NAK, i);
			return 0;
		}
	return set_syn_value(s, v, PNC_AETH_NAK, 0x1f);
}

static int set_credits(struct pkt_spec *s, const char *v)
{
	return set_syn_value(s, v, PNC_AETH_ACK, 0x1f);
}

static int set_rnr_timer(struct pkt_spec *s, const char *v)
{
	return set_syn_value(s, v, PNC_AETH_RNR_NAK, 0x1f);
}

/* GIDs: an IPv6 address, or IPv4 as ::ffff:a.b.c.d (section 4.2). */
static int set_gid(struct pkt_spec *s, const char *v, int which)
{
	uint8_t a[16], ver, *gid;

	if (parse_addr(v, a, &ver))
		return -1;
	gid = which ? s->cm.u.req.primary_remote_gid : s->cm.u.req.primary_local_gid;
	if (ver == 4) {
		memset(gid, 0, 10);
		gid[10] = gid[11] = 0xff;
		memcpy(gid + 12, a, 4);
	} else {
		memcpy(gid, a, 16);
	}
	s->gid_set[which] = true;
	return 0;
}

static int set_lgid(struct pkt_spec *s, const char *v)
{
	return set_gid(s, v, 0);
}

static int set_rgid(struct pkt_spec *s, const char *v)
{
	return set_gid(s, v, 1);
}

static int set_private(struct pkt_spec *s, const char *v)
{
	uint8_t *p;
	size_t max, len;

	switch (s->kind) {
	case K_CM_REQ:
		p = s->cm.u.req.private_data, max = PNC_CM_REQ_PRIV_LEN;
		break;
	case K_CM_REP:
		p = s->cm.u.rep.private_data, max = PNC_CM_REP_PRIV_LEN;
		break;
	case K_CM_RTU:
		p = s->cm.u.rtu.private_data, max = PNC_CM_RTU_PRIV_LEN;
		break;
	case K_CM_REJ:
		p = s->cm.u.rej.private_data, max = PNC_CM_REJ_PRIV_LEN;
		break;
	default:
		p = s->cm.u.dreq.private_data, max = PNC_CM_DREQ_PRIV_LEN;
		break;
	}
	memset(p, 0, max);
	return parse_hex(v, p, max, &len);
}

static int set_ari(struct pkt_spec *s, const char *v)
{
	size_t len;

	memset(s->cm.u.rej.ari, 0, PNC_CM_REJ_ARI_LEN);
	return parse_hex(v, s->cm.u.rej.ari, PNC_CM_REJ_ARI_LEN, &len);
}

static int set_flow_addr(struct pkt_spec *s, const char *v, bool dst)
{
	uint8_t a[16], ver;

	if (parse_addr(v, a, &ver))
		return -1;
	if (ver != s->notif.af) {
		if (s->tuple_set)
			return -1;
		s->notif.af = ver;
		default_addr(dst ? s->notif.src : s->notif.dst, ver, !dst, true);
	}
	memcpy(dst ? s->notif.dst : s->notif.src, a, 16);
	s->tuple_set = true;
	return 0;
}

static int set_flow_src(struct pkt_spec *s, const char *v)
{
	return set_flow_addr(s, v, false);
}

static int set_flow_dst(struct pkt_spec *s, const char *v)
{
	return set_flow_addr(s, v, true);
}

static int set_flow_port(struct pkt_spec *s, const char *v, uint16_t *port)
{
	uint64_t n;

	if (parse_u64(v, 0xffff, &n))
		return -1;
	*port = (uint16_t)n;
	s->tuple_set = true;
	return 0;
}

static int set_flow_sport(struct pkt_spec *s, const char *v)
{
	return set_flow_port(s, v, &s->notif.sport);
}

static int set_flow_dport(struct pkt_spec *s, const char *v)
{
	return set_flow_port(s, v, &s->notif.dport);
}

static int set_start(struct pkt_spec *s, const char *v)
{
	static const char *const names[] = { "inner", "outer", "mpls" };
	uint64_t n;
	int i;

	for (i = 0; i < 3; i++)
		if (!strcmp(v, names[i])) {
			s->notif.start = (uint8_t)i;
			return 0;
		}
	if (parse_u64(v, 0xff, &n))
		return -1;
	s->notif.start = (uint8_t)n;
	return 0;
}

/* invoking=HEX, or invoking=KIND whose fields follow as inv.FIELD=VALUE. */
static int set_invoking(struct pkt_spec *s, const char *v)
{
	enum pkt_kind k;

	spec_free(s);
	if (!kind_parse(v, &k)) {
		if (k == K_NOTIF || k == K_FCN)
			return -1;
		s->inv = calloc(1, sizeof(*s->inv));
		if (!s->inv)
			return -1;
		spec_init(s->inv, k, 4);
		s->invoking_len = 0;
		return 0;
	}
	return parse_hex(v, s->invoking, sizeof(s->invoking), &s->invoking_len);
}

static int set_bare(struct pkt_spec *s, const char *v)
{
	return parse_bool(v, &s->bare);
}

/* ---- Long-haul CNP and rate advice ---------------------------------------- */

/* The notification scale (0-7) mapped as the proxy maps it. */
static int set_lh_cl(struct pkt_spec *s, const char *v)
{
	uint64_t n;

	if (parse_u64(v, 7, &n))
		return -1;
	s->lh.block.level = pnc_lh_level_from_cl((uint8_t)n);
	return 0;
}

static int set_lh_action(struct pkt_spec *s, const char *v)
{
	uint64_t n;
	uint8_t i;

	for (i = 0; i <= PNC_LH_RESUME; i++)
		if (!strcmp(v, pnc_lh_action_name(i))) {
			s->lh.block.action = i;
			return 0;
		}
	if (parse_u64(v, PNC_LH_RESUME, &n))
		return -1;
	s->lh.block.action = (uint8_t)n;
	return 0;
}

const char *lh_metric_name(uint8_t type)
{
	static const char *const names[] = { "none", "queue-kb", "growth", "ecn-pct", "rtt-us" };

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : "unknown";
}

static int set_lh_metric_type(struct pkt_spec *s, const char *v)
{
	uint64_t n;
	uint8_t i;

	for (i = 0; i <= PNC_LH_METRIC_RTT_US; i++)
		if (!strcmp(v, lh_metric_name(i))) {
			s->lh.block.metric_type = i;
			return 0;
		}
	if (parse_u64(v, 0xff, &n))
		return -1;
	s->lh.block.metric_type = (uint8_t)n;
	return 0;
}

/* Giving an object asks for the extension that carries it. */
static int set_lh_timestamp(struct pkt_spec *s, const char *v)
{
	if (parse_u64(v, UINT64_MAX, &s->lh.ext.timestamp))
		return -1;
	s->lh.ext.has_timestamp = true;
	s->lh.ext.present = true;
	return 0;
}

static int set_lh_device_id(struct pkt_spec *s, const char *v)
{
	if (strlen(v) > PNC_LH_DEVICE_ID_MAX)
		return -1;
	snprintf(s->lh.ext.device_id, sizeof(s->lh.ext.device_id), "%s", v);
	s->lh.ext.present = true;
	return 0;
}

static int set_lh_path_id(struct pkt_spec *s, const char *v)
{
	if (parse_hex(v, s->lh.ext.path_id, PNC_LH_PATH_ID_MAX, &s->lh.ext.path_id_len))
		return -1;
	s->lh.ext.present = true;
	return 0;
}

static int set_icmp_csum(struct pkt_spec *s, const char *v)
{
	uint64_t n;

	if (!strcmp(v, "auto")) {
		s->icmp_csum_set = false;
		return 0;
	}
	if (parse_u64(v, 0xffff, &n))
		return -1;
	s->icmp_csum_set = true;
	s->icmp_csum = (uint16_t)n;
	return 0;
}

/* ---- the table ------------------------------------------------------------ */

enum ftype { F_U, F_BOOL, F_FN };

struct field {
	const char *name;
	uint32_t kinds;
	enum ftype type;
	size_t off, size;
	uint64_t max;
	int (*fn)(struct pkt_spec *s, const char *v);
	const char *help;
};

#define MSIZE(m) sizeof(((struct pkt_spec *)0)->m)
#define U(n, k, m, mx, h)                                                                         \
	{                                                                                         \
		n, k, F_U, offsetof(struct pkt_spec, m), MSIZE(m), mx, NULL, h                    \
	}
#define B(n, k, m, h)                                                                             \
	{                                                                                         \
		n, k, F_BOOL, offsetof(struct pkt_spec, m), 1, 1, NULL, h                         \
	}
#define FN(n, k, f, h)                                                                            \
	{                                                                                         \
		n, k, F_FN, 0, 0, 0, f, h                                                         \
	}

static const struct field fields[] = {
	FN("ip", KM_ALL, set_ipver, "IP version 4 or 6 (also follows src/dst)"),
	FN("src", KM_ALL, set_src, "IP source address"),
	FN("dst", KM_ALL, set_dst, "IP destination address"),
	U("tos", KM_ALL, ip.tos, 0xff, "IPv4 TOS / IPv6 traffic class"),
	FN("dscp", KM_ALL, set_dscp, "DSCP (0-63), keeps ECN"),
	FN("ecn", KM_ALL, set_ecn, "ECN: 0-3 or not-ect, ect1, ect0, ce"),
	U("ttl", KM_ALL, ip.ttl, 0xff, "TTL / hop limit"),
	U("id", KM_UDP, ip.ip_id, 0xffff, "IPv4 identification"),
	B("df", KM_UDP, ip.df, "IPv4 don't fragment"),
	U("flow-label", KM_ALL, ip.flow_label, 0xfffff, "IPv6 flow label"),
	FN("ip-csum", KM_UDP, set_ip_csum, "IPv4 header checksum: auto or a value"),
	U("sport", KM_UDP, ip.sport, 0xffff, "UDP source port"),
	U("dport", KM_UDP, ip.dport, 0xffff, "UDP destination port"),
	FN("udp-csum", KM_UDP, set_udp_csum, "UDP checksum: 0, auto or a value"),

	FN("opcode", KM_ROCE | KM(K_RATE_ADVICE), set_opcode,
	   "BTH opcode override (number or name); rate-advice: 0xc0"),
	B("se", KM_ROCE, bth.se, "BTH solicited event"),
	B("m", KM_ROCE, bth.mig, "BTH MigReq"),
	FN("pad", KM_ROCE | KM_ROCE_MSG, set_pad, "BTH PadCnt override (0-3; default: computed)"),
	U("tver", KM_ROCE, bth.tver, 0xf, "BTH transport header version"),
	U("pkey", KM_ROCE | KM_ROCE_MSG, bth.pkey, 0xffff, "BTH P_Key"),
	B("fecn", KM_ROCE, bth.fecn, "BTH FECN"),
	B("becn", KM_ROCE, bth.becn, "BTH BECN"),
	U("resv6", KM_ROCE, bth.resv6, 0x3f, "BTH reserved 6 bits"),
	U("dqpn", KM_ROCE | KM_ROCE_MSG, bth.dest_qp, 0xffffff, "BTH destination QP"),
	B("ackreq", KM_ROCE, bth.ack_req, "BTH AckReq"),
	U("resv7", KM_ROCE, bth.resv7, 0x7f, "BTH reserved 7 bits"),
	U("psn", KM_ROCE, bth.psn, 0xffffff, "BTH PSN"),
	FN("icrc", KM_ROCE | KM_ROCE_MSG, set_icrc, "ICRC value: auto or a forced CRC value"),

	FN("variant", KM_RC, set_variant, "first, middle, last or only"),
	FN("imm", KM_RC, set_imm, "immediate data (last/only), or none"),
	U("va", KM_RC, reth.va, UINT64_MAX, "RETH virtual address (WRITE first/only)"),
	U("rkey", KM_RC, reth.rkey, 0xffffffff, "RETH R_Key"),
	FN("dma-len", KM_RC, set_dma_len, "RETH DMA length (default: payload length)"),
	FN("payload", KM_RC, set_payload, "payload octets in hex"),
	FN("payload-len", KM_RC, set_payload_len, "payload length (pattern or payload repeated)"),

	FN("syndrome", KM(K_ACK), set_syndrome, "AETH syndrome: value, ack, rnr or nak"),
	FN("nak", KM(K_ACK), set_nak, "NAK code (0-4 or psn-seq, invalid-req, ...)"),
	FN("credits", KM(K_ACK), set_credits, "ACK credit count (31 = invalid)"),
	FN("rnr-timer", KM(K_ACK), set_rnr_timer, "RNR NAK timer"),
	U("msn", KM(K_ACK), aeth.msn, 0xffffff, "AETH MSN"),

	U("qkey", KM_CM, deth.qkey, 0xffffffff, "DETH Q_Key"),
	U("src-qp", KM_CM, deth.src_qp, 0xffffff, "cm-*: DETH source QP; long-haul-*: Source QP"),
	U("base-version", KM_CM, cm.mad.base_version, 0xff, "MAD base version"),
	U("mgmt-class", KM_CM, cm.mad.mgmt_class, 0xff, "MAD class"),
	U("class-version", KM_CM, cm.mad.class_version, 0xff, "MAD class version"),
	U("method", KM_CM, cm.mad.method, 0xff, "MAD method"),
	U("status", KM_CM, cm.mad.status, 0xffff, "MAD status"),
	U("class-specific", KM_CM, cm.mad.class_specific, 0xffff, "MAD class specific"),
	U("tid", KM_CM, cm.mad.tid, UINT64_MAX, "MAD transaction ID"),
	U("attr-id", KM_CM, cm.mad.attr_id, 0xffff, "MAD attribute ID"),
	U("attr-mod", KM_CM, cm.mad.attr_mod, 0xffffffff, "MAD attribute modifier"),
	FN("private-data", KM_CM, set_private, "CM private data in hex"),

	U("local-comm-id", KM(K_CM_REQ), cm.u.req.local_comm_id, 0xffffffff, "local comm ID"),
	U("service-id", KM(K_CM_REQ), cm.u.req.service_id, UINT64_MAX, "service ID"),
	U("local-ca-guid", KM(K_CM_REQ), cm.u.req.local_ca_guid, UINT64_MAX, "CA GUID"),
	U("local-qkey", KM(K_CM_REQ), cm.u.req.local_qkey, 0xffffffff, "local Q_Key"),
	U("local-qpn", KM(K_CM_REQ), cm.u.req.local_qpn, 0xffffff, "requester's QPN"),
	U("responder-resources", KM(K_CM_REQ), cm.u.req.responder_resources, 0xff, ""),
	U("local-eecn", KM(K_CM_REQ), cm.u.req.local_eecn, 0xffffff, ""),
	U("initiator-depth", KM(K_CM_REQ), cm.u.req.initiator_depth, 0xff, ""),
	U("remote-eecn", KM(K_CM_REQ), cm.u.req.remote_eecn, 0xffffff, ""),
	U("remote-cm-resp-timeout", KM(K_CM_REQ), cm.u.req.remote_cm_resp_timeout, 0x1f, ""),
	U("transport-type", KM(K_CM_REQ), cm.u.req.transport_type, 3, "0 RC, 1 UC, 2 RD"),
	B("e2e-flow-ctrl", KM(K_CM_REQ), cm.u.req.e2e_flow_ctrl, ""),
	U("starting-psn", KM(K_CM_REQ), cm.u.req.starting_psn, 0xffffff, "requester's PSN"),
	U("local-cm-resp-timeout", KM(K_CM_REQ), cm.u.req.local_cm_resp_timeout, 0x1f, ""),
	U("retry-count", KM(K_CM_REQ), cm.u.req.retry_count, 7, ""),
	U("partition-key", KM(K_CM_REQ), cm.u.req.pkey, 0xffff, "REQ P_Key"),
	U("path-mtu", KM(K_CM_REQ), cm.u.req.path_mtu, 0xf, "1 256 ... 5 4096"),
	B("rdc-exists", KM(K_CM_REQ), cm.u.req.rdc_exists, ""),
	U("rnr-retry-count", KM(K_CM_REQ), cm.u.req.rnr_retry_count, 7, ""),
	U("max-cm-retries", KM(K_CM_REQ), cm.u.req.max_cm_retries, 0xf, ""),
	B("srq", KM(K_CM_REQ), cm.u.req.srq, ""),
	U("ext-transport-type", KM(K_CM_REQ), cm.u.req.ext_transport_type, 7, ""),
	U("primary-local-lid", KM(K_CM_REQ), cm.u.req.primary_local_lid, 0xffff, ""),
	U("primary-remote-lid", KM(K_CM_REQ), cm.u.req.primary_remote_lid, 0xffff, ""),
	FN("primary-local-gid", KM(K_CM_REQ), set_lgid, "default ::ffff:src"),
	FN("primary-remote-gid", KM(K_CM_REQ), set_rgid, "default ::ffff:dst"),
	U("primary-flow-label", KM(K_CM_REQ), cm.u.req.primary_flow_label, 0xfffff, ""),
	U("primary-packet-rate", KM(K_CM_REQ), cm.u.req.primary_packet_rate, 0x3f, ""),
	U("primary-traffic-class", KM(K_CM_REQ), cm.u.req.primary_traffic_class, 0xff, ""),
	U("primary-hop-limit", KM(K_CM_REQ), cm.u.req.primary_hop_limit, 0xff, ""),
	U("primary-sl", KM(K_CM_REQ), cm.u.req.primary_sl, 0xf, ""),
	B("primary-subnet-local", KM(K_CM_REQ), cm.u.req.primary_subnet_local, ""),
	U("primary-local-ack-timeout", KM(K_CM_REQ), cm.u.req.primary_local_ack_timeout, 0x1f, ""),

	U("local-comm-id", KM(K_CM_REP), cm.u.rep.local_comm_id, 0xffffffff, ""),
	U("remote-comm-id", KM(K_CM_REP), cm.u.rep.remote_comm_id, 0xffffffff, "= REQ's"),
	U("local-qkey", KM(K_CM_REP), cm.u.rep.local_qkey, 0xffffffff, ""),
	U("local-qpn", KM(K_CM_REP), cm.u.rep.local_qpn, 0xffffff, "responder's QPN"),
	U("local-eecn", KM(K_CM_REP), cm.u.rep.local_eecn, 0xffffff, ""),
	U("starting-psn", KM(K_CM_REP), cm.u.rep.starting_psn, 0xffffff, "responder's PSN"),
	U("vendor-id", KM(K_CM_REP), cm.u.rep.vendor_id, 0xffffff, ""),
	U("responder-resources", KM(K_CM_REP), cm.u.rep.responder_resources, 0xff, ""),
	U("initiator-depth", KM(K_CM_REP), cm.u.rep.initiator_depth, 0xff, ""),
	U("target-ack-delay", KM(K_CM_REP), cm.u.rep.target_ack_delay, 0x1f, ""),
	U("failover-accepted", KM(K_CM_REP), cm.u.rep.failover_accepted, 3, ""),
	B("e2e-flow-ctrl", KM(K_CM_REP), cm.u.rep.e2e_flow_ctrl, ""),
	U("rnr-retry-count", KM(K_CM_REP), cm.u.rep.rnr_retry_count, 7, ""),
	B("srq", KM(K_CM_REP), cm.u.rep.srq, ""),
	U("local-ca-guid", KM(K_CM_REP), cm.u.rep.local_ca_guid, UINT64_MAX, ""),

	U("local-comm-id", KM(K_CM_RTU), cm.u.rtu.local_comm_id, 0xffffffff, ""),
	U("remote-comm-id", KM(K_CM_RTU), cm.u.rtu.remote_comm_id, 0xffffffff, ""),

	U("local-comm-id", KM(K_CM_REJ), cm.u.rej.local_comm_id, 0xffffffff, ""),
	U("remote-comm-id", KM(K_CM_REJ), cm.u.rej.remote_comm_id, 0xffffffff, ""),
	U("msg-rejected", KM(K_CM_REJ), cm.u.rej.msg_rejected, 3, "0 REQ, 1 REP, 2 other"),
	U("reject-info-len", KM(K_CM_REJ), cm.u.rej.reject_info_len, 0x7f, ""),
	U("reason", KM(K_CM_REJ), cm.u.rej.reason, 0xffff, "reject reason"),
	FN("ari", KM(K_CM_REJ), set_ari, "additional reject information in hex"),

	U("local-comm-id", KM(K_CM_DREQ), cm.u.dreq.local_comm_id, 0xffffffff, ""),
	U("remote-comm-id", KM(K_CM_DREQ), cm.u.dreq.remote_comm_id, 0xffffffff, ""),
	U("remote-qpn", KM(K_CM_DREQ), cm.u.dreq.remote_qpn_eecn, 0xffffff, "remote QPN/EECN"),

	U("protocol", KM(K_NOTIF), notif.protocol, 0xff, "five-tuple protocol"),
	U("cl", KM(K_NOTIF), notif.cl, 7, "congestion level 0-7"),
	FN("start", KM(K_NOTIF), set_start, "invoking packet start: inner, outer, mpls"),
	FN("flow-src", KM(K_NOTIF), set_flow_src, "five-tuple source address"),
	FN("flow-dst", KM(K_NOTIF), set_flow_dst, "five-tuple destination address"),
	FN("flow-sport", KM(K_NOTIF), set_flow_sport, "five-tuple source port"),
	FN("flow-dport", KM(K_NOTIF), set_flow_dport, "five-tuple destination port"),
	FN("invoking", KM(K_NOTIF), set_invoking, "invoking packet: hex, or a kind + inv.FIELD"),
	FN("bare", KM_UDPMSG, set_bare, "output the UDP (or ICMP) payload only"),
	B("icmp", KM(K_NOTIF), notif_icmp, "the ICMP form: ICMP or ICMPv6, not UDP (6.5)"),
	U("icmp-type", KM(K_NOTIF), icmp_type, 0xff, "its type (0: 253, ICMPv6 201)"),
	FN("icmp-csum", KM(K_NOTIF), set_icmp_csum, "its checksum: auto or a value"),

	U("label", KM(K_FCN), fcn.flow_label, 0xfffff, "flow label (not 0)"),
	U("cl", KM(K_FCN), fcn.cl, 7, "congestion level, 0 = not given"),

	U("level", KM_LH, lh.block.level, 0xff, "Congestion Level 0-255"),
	FN("cl", KM_LH, set_lh_cl, "level from the 0-7 scale: 1 + floor(cl * 254 / 7)"),
	FN("action", KM_LH, set_lh_action, "notify, pause, rate-reduce, resume or 0-3"),
	U("parameter", KM_LH, lh.block.parameter, 0xffff, "pause us, or reduce/resume %"),
	U("src-qp", KM_LH, lh.block.src_qp, 0xffffffff, "Source QP number (32 bits)"),
	FN("metric-type", KM_LH, set_lh_metric_type,
	   "none, queue-kb, growth, ecn-pct, rtt-us or 0-255"),
	U("metric", KM_LH, lh.block.metric, 0xffffff, "metric value (24 bits)"),
	B("ext", KM_LH, lh.ext.present, "RFC 4884 extension after the block"),
	B("ext-checksum", KM_LH, lh.ext.checksum, "extension checksum computed (else 0)"),
	U("class-num", KM_LH, lh.ext.class_num, 0xff, "Class-Num of the objects"),
	FN("timestamp", KM_LH, set_lh_timestamp, "timestamp object, 64-bit NTP (ext=1)"),
	FN("device-id", KM_LH, set_lh_device_id, "device ID object, <= 64 octets (ext=1)"),
	FN("path-id", KM_LH, set_lh_path_id, "path ID object in hex, <= 32 octets (ext=1)"),
	B("cnp-sized", KM(K_LH_ROCE), lh_cnp_sized,
	  "without ext, 4 zero octets: a CNP's length (not seed 000)"),
	U("icmp-type", KM(K_LH_ICMP6), icmp_type, 0xff, "ICMPv6 type (128-255)"),
	U("icmp-code", KM(K_LH_ICMP6), icmp_code, 0xff, "ICMPv6 code (0: flow level)"),
	FN("icmp-csum", KM(K_LH_ICMP6), set_icmp_csum, "ICMPv6 checksum: auto or a value"),

	U("rate", KM(K_RATE_ADVICE), ra.rate_mbps, 0xffffffff, "advised rate, Mb/s (0: none)"),
	U("ra-version", KM(K_RATE_ADVICE), ra.version, 0xffffffff, "Version field"),
	U("peer-qp", KM(K_RATE_ADVICE), ra.peer_qp, 0xffffff, "Source QP ID: the peer's QP"),
};

#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

static const struct {
	const char *alias, *name;
} aliases[] = {
	{ "tclass", "tos" },
	{ "hlim", "ttl" },
	{ "ip-id", "id" },
	{ "fl", "flow-label" },
	{ "dest-qp", "dqpn" },
	{ "mig", "m" },
	{ "a", "ackreq" },
	{ "dmalen", "dma-len" },
	{ "len", "payload-len" },
	{ "version", "ip" },
	{ "proto", "protocol" },
	{ "remote-qpn-eecn", "remote-qpn" },
	{ "flow-label-fcn", "label" },
};

static void normalise(const char *in, char *out, size_t outlen)
{
	size_t i;

	for (i = 0; in[i] && i + 1 < outlen; i++)
		out[i] = in[i] == '_' ? '-' : (char)tolower((unsigned char)in[i]);
	out[i] = '\0';
}

static int set_field(struct pkt_spec *s, const struct field *f, const char *v)
{
	uint8_t *p = (uint8_t *)s + f->off;
	uint64_t n;
	bool b;

	switch (f->type) {
	case F_FN:
		return f->fn(s, v);
	case F_BOOL:
		if (parse_bool(v, &b))
			return -1;
		*(bool *)p = b;
		return 0;
	case F_U:
		if (parse_u64(v, f->max, &n))
			return -1;
		switch (f->size) {
		case 1:
			*p = (uint8_t)n;
			break;
		case 2:
			*(uint16_t *)p = (uint16_t)n;
			break;
		case 4:
			*(uint32_t *)p = (uint32_t)n;
			break;
		default:
			*(uint64_t *)p = n;
		}
		return 0;
	}
	return -1;
}

int spec_set(struct pkt_spec *s, const char *name, const char *value)
{
	char norm[64];
	size_t i;
	bool known = false;

	normalise(name, norm, sizeof(norm));
	if (!strncmp(norm, "inv.", 4)) {
		if (s->kind != K_NOTIF || !s->inv) {
			fprintf(stderr, "pnc-pkt: %s needs invoking=KIND before it\n", name);
			return -1;
		}
		return spec_set(s->inv, name + 4, value);
	}
	for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcmp(norm, aliases[i].alias))
			snprintf(norm, sizeof(norm), "%s", aliases[i].name);

	for (i = 0; i < NFIELDS; i++) {
		if (strcmp(norm, fields[i].name))
			continue;
		known = true;
		if (!(fields[i].kinds & KM(s->kind)))
			continue;
		if (set_field(s, &fields[i], value)) {
			fprintf(stderr, "pnc-pkt: bad value for %s: '%s'\n", name, value);
			return -1;
		}
		return 0;
	}
	if (known)
		fprintf(stderr, "pnc-pkt: field %s does not apply to %s\n", name,
			kind_name(s->kind));
	else
		fprintf(stderr, "pnc-pkt: unknown field %s (see pnc-pkt build --help)\n", name);
	return -1;
}

/* Families of kinds that the help abbreviates when a field has them all. */
static const struct {
	uint32_t mask;
	const char *name;
} kind_groups[] = {
	{ KM_RC, "rc-*" },
	{ KM_CM, "cm-*" },
	{ KM_LH, "long-haul-*" },
};

static const char *kind_label(uint32_t kinds, int k, uint32_t *done)
{
	size_t i;

	for (i = 0; i < sizeof(kind_groups) / sizeof(kind_groups[0]); i++)
		if ((kind_groups[i].mask & KM(k)) &&
		    (kinds & kind_groups[i].mask) == kind_groups[i].mask) {
			*done |= kind_groups[i].mask;
			return kind_groups[i].name;
		}
	*done |= KM(k);
	return kind_name((enum pkt_kind)k);
}

/* Kinds a field applies to, in kind order. */
static void kinds_label(uint32_t kinds, char *buf, size_t len)
{
	uint32_t done = 0;
	int k;

	if (kinds == KM_ALL || kinds == KM_UDP || kinds == (KM_ROCE | KM_ROCE_MSG)) {
		snprintf(buf, len, "%s",
			 kinds == KM_ALL   ? "all"
			 : kinds == KM_UDP ? "UDP kinds"
					   : "RoCEv2 kinds");
		return;
	}
	buf[0] = '\0';
	for (k = 0; k < K_NKINDS; k++)
		if ((kinds & KM(k)) && !(done & KM(k)))
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", *buf ? "," : "",
				 kind_label(kinds, k, &done));
}

void fields_help(FILE *f)
{
	char buf[96];
	size_t i, j;

	for (i = 0; i < NFIELDS; i++) {
		const struct field *fl = &fields[i];
		uint32_t kinds = 0;
		bool dup = false;

		for (j = 0; j < i; j++)
			if (!strcmp(fields[j].name, fl->name))
				dup = true;
		if (dup)
			continue;
		for (j = i; j < NFIELDS; j++)
			if (!strcmp(fields[j].name, fl->name))
				kinds |= fields[j].kinds;
		kinds_label(kinds, buf, sizeof(buf));
		fprintf(f, "  %-26s %-18s %s\n", fl->name, buf, fl->help);
	}
}
