// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pnc-pkt: --random, the main fields of each kind drawn from a
 * deterministic generator (args.c rng_next), so that a seed always gives
 * the same packets.
 */
#include <string.h>

#include "pnc_pkt.h"

static uint32_t rnd(uint64_t *r, uint32_t max)
{
	return (uint32_t)(rng_next(r) % ((uint64_t)max + 1));
}

static void rnd_addr(uint64_t *r, uint8_t *a, uint8_t version)
{
	int i;

	if (version == 4) {
		/* anything but 0/8, 127/8 and multicast or above */
		do {
			for (i = 0; i < 4; i++)
				a[i] = (uint8_t)rnd(r, 255);
		} while (a[0] == 0 || a[0] == 127 || a[0] >= 224);
		return;
	}
	a[0] = 0x20;
	a[1] = 0x01;
	a[2] = 0x0d;
	a[3] = 0xb8;
	for (i = 4; i < 16; i++)
		a[i] = (uint8_t)rnd(r, 255);
}

static void rnd_bytes(uint64_t *r, uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)rnd(r, 255);
}

/* Block and, half of the time, an extension with any of the objects. */
static void rnd_lh(uint64_t *r, struct pkt_spec *s)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz0123456789.-_";
	struct pnc_lh_block *b = &s->lh.block;
	struct pnc_lh_ext *x = &s->lh.ext;
	size_t i, n;

	s->bth.dest_qp = rnd(r, 0xffffff);
	b->level = (uint8_t)rnd(r, 255);
	b->action = (uint8_t)rnd(r, PNC_LH_RESUME);
	/* microseconds for pause, percent for reduce and resume, 0 for notify */
	if (b->action == PNC_LH_PAUSE)
		b->parameter = (uint16_t)rnd(r, 0xffff);
	else if (b->action != PNC_LH_NOTIFY)
		b->parameter = (uint16_t)rnd(r, 100);
	b->src_qp = rnd(r, 0xffffff);
	b->metric_type = (uint8_t)rnd(r, PNC_LH_METRIC_RTT_US);
	if (b->metric_type != PNC_LH_METRIC_NONE)
		b->metric = rnd(r, 0xffffff);
	x->present = rnd(r, 1);
	if (!x->present)
		return;
	x->checksum = rnd(r, 1);
	x->has_timestamp = rnd(r, 1);
	if (x->has_timestamp)
		x->timestamp = rng_next(r);
	n = rnd(r, 20);
	for (i = 0; i < n; i++)
		x->device_id[i] = chars[rnd(r, sizeof(chars) - 2)];
	x->device_id[n] = '\0';
	x->path_id_len = rnd(r, 8);
	rnd_bytes(r, x->path_id, x->path_id_len);
}

void spec_randomize(struct pkt_spec *s, uint64_t *r)
{
	struct pnc_cm_msg *m = &s->cm;

	rnd_addr(r, s->ip.src, s->ip.version);
	rnd_addr(r, s->ip.dst, s->ip.version);
	s->ip.tos = (uint8_t)rnd(r, 255);
	s->ip.ttl = (uint8_t)(1 + rnd(r, 254));
	s->ip.ip_id = (uint16_t)rnd(r, 0xffff);
	s->ip.df = rnd(r, 1);
	if (s->ip.version == 6)
		s->ip.flow_label = rnd(r, 0xfffff);
	s->ip.sport = (uint16_t)(0xc000 | rnd(r, 0x3fff));
	if (KM(s->kind) & (KM_ROCE | KM_ROCE_MSG))
		s->bth.pkey = (uint16_t)(rnd(r, 1) ? PNC_DEFAULT_PKEY : rnd(r, 0xffff));

	switch (s->kind) {
	case K_CNP:
		s->bth.dest_qp = rnd(r, 0xffffff);
		break;
	case K_RC_WRITE:
	case K_RC_SEND:
		s->variant = (enum rc_variant)rnd(r, 3);
		s->bth.dest_qp = rnd(r, 0xffffff);
		s->bth.psn = rnd(r, 0xffffff);
		s->bth.ack_req = rnd(r, 1);
		s->bth.se = rnd(r, 1);
		s->bth.becn = rnd(r, 1);
		s->bth.fecn = rnd(r, 1);
		s->imm_present = (s->variant == RC_LAST || s->variant == RC_ONLY) && rnd(r, 1);
		s->imm = rnd(r, 0xffffffff);
		s->reth.va = rng_next(r);
		s->reth.rkey = rnd(r, 0xffffffff);
		s->payload_len = rnd(r, 300);
		rnd_bytes(r, s->payload, s->payload_len);
		s->payload_set = true;
		break;
	case K_ACK: {
		static const uint8_t types[] = { PNC_AETH_ACK, PNC_AETH_RNR_NAK, PNC_AETH_NAK };
		uint8_t t = types[rnd(r, 2)];

		s->aeth.syndrome = pnc_aeth_syndrome(t,
						     (uint8_t)rnd(r, t == PNC_AETH_NAK ? 4 : 31));
		s->aeth.msn = rnd(r, 0xffffff);
		s->bth.dest_qp = rnd(r, 0xffffff);
		s->bth.psn = rnd(r, 0xffffff);
		break;
	}
	case K_CM_REQ:
		m->mad.tid = rng_next(r);
		m->u.req.local_comm_id = rnd(r, 0xffffffff);
		m->u.req.service_id = 0x0000000001060000ull | rnd(r, 0xffff);
		m->u.req.local_qpn = rnd(r, 0xffffff);
		m->u.req.starting_psn = rnd(r, 0xffffff);
		m->u.req.pkey = s->bth.pkey;
		m->u.req.local_ca_guid = rng_next(r);
		break;
	case K_CM_REP:
		m->mad.tid = rng_next(r);
		m->u.rep.local_comm_id = rnd(r, 0xffffffff);
		m->u.rep.remote_comm_id = rnd(r, 0xffffffff);
		m->u.rep.local_qpn = rnd(r, 0xffffff);
		m->u.rep.starting_psn = rnd(r, 0xffffff);
		m->u.rep.local_ca_guid = rng_next(r);
		break;
	case K_CM_RTU:
	case K_CM_REJ:
	case K_CM_DREQ:
		/* local and remote comm IDs sit at the same place in all three */
		m->mad.tid = rng_next(r);
		m->u.rtu.local_comm_id = rnd(r, 0xffffffff);
		m->u.rtu.remote_comm_id = rnd(r, 0xffffffff);
		if (s->kind == K_CM_DREQ)
			m->u.dreq.remote_qpn_eecn = rnd(r, 0xffffff);
		break;
	case K_NOTIF:
		s->notif.cl = (uint8_t)rnd(r, 7);
		s->notif.af = rnd(r, 1) ? 6 : 4;
		rnd_addr(r, s->notif.src, s->notif.af);
		rnd_addr(r, s->notif.dst, s->notif.af);
		s->notif.sport = (uint16_t)(0xc000 | rnd(r, 0x3fff));
		s->tuple_set = true;
		break;
	case K_FCN:
		s->fcn.flow_label = 1 + rnd(r, 0xffffe);
		s->fcn.cl = (uint8_t)rnd(r, 7);
		break;
	case K_LH_ICMP6:
	case K_LH_ROCE:
		rnd_lh(r, s);
		break;
	case K_RATE_ADVICE:
		s->bth.dest_qp = rnd(r, 0xffffff);
		s->ra.peer_qp = rnd(r, 0xffffff);
		s->ra.rate_mbps = rnd(r, 800000);
		break;
	default:
		break;
	}
}
