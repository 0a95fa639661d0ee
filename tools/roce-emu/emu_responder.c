// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * roce-emu responder: accept a CM connection (or take the QPNs given),
 * check PSNs, acknowledge when asked, and, like an RNIC's notification
 * point, answer CE-marked packets with a CNP to the requester's QP.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "codec/cm.h"
#include "codec/roce.h"

#include "roce_emu.h"

extern volatile sig_atomic_t emu_stop;

static void handle_cm(struct responder *rs, const struct pnc_roce_view *v, const uint8_t *pkt,
		      size_t len)
{
	struct emu_cfg *cfg = rs->cfg;
	struct pnc_cm_packet in, rep;
	size_t olen;

	if (pnc_cm_packet_decode(pkt, len, &in))
		return;
	if (in.msg.mad.attr_id == PNC_CM_ATTR_RTU && in.msg.u.rtu.remote_comm_id == rs->comm_id) {
		emu_log(cfg,
			"\"event\":\"connected\",\"cm\":true,\"local_qpn\":%u,\"remote_qpn\":%u",
			cfg->local_qpn, rs->remote_qpn);
		return;
	}
	if (in.msg.mad.attr_id != PNC_CM_ATTR_REQ)
		return;

	/* A repeated REQ gets the same answer. */
	memcpy(cfg->remote, v->ip.src, 16);
	rs->have_peer = true;
	rs->remote_qpn = in.msg.u.req.local_qpn;
	rs->epsn = in.msg.u.req.starting_psn;
	if (!rs->comm_id)
		rs->comm_id = (uint32_t)random() | 1;

	pnc_cm_packet_init(&rep, (uint8_t)cfg->net.version, PNC_CM_ATTR_REP);
	emu_ip_fill(rs->cfg, &rep.ip, 0);
	rep.msg.mad.tid = in.msg.mad.tid;
	rep.msg.u.rep.local_comm_id = rs->comm_id;
	rep.msg.u.rep.remote_comm_id = in.msg.u.req.local_comm_id;
	rep.msg.u.rep.local_qpn = cfg->local_qpn;
	rep.msg.u.rep.starting_psn = cfg->start_psn;
	rep.msg.u.rep.responder_resources = 1;
	rep.msg.u.rep.initiator_depth = 1;
	rep.msg.u.rep.rnr_retry_count = 7;
	if (!pnc_cm_packet_encode(&rep, rs->pkt, sizeof(rs->pkt), &olen))
		emu_net_send(&cfg->net, rs->pkt, olen);
}

static void send_ack(struct responder *rs, uint32_t psn)
{
	struct pnc_rc_ack a = {};
	size_t len;

	emu_ip_fill(rs->cfg, &a.ip, (uint8_t)(rs->cfg->dscp << 2));
	a.bth.opcode = PNC_OP_RC_ACK;
	a.bth.pkey = rs->cfg->pkey;
	a.bth.dest_qp = rs->remote_qpn;
	a.bth.psn = psn;
	a.aeth.syndrome = pnc_aeth_syndrome(PNC_AETH_ACK, 0x1f);
	a.aeth.msn = rs->msn;
	if (!pnc_rc_ack_encode(&a, rs->pkt, sizeof(rs->pkt), &len) &&
	    !emu_net_send(&rs->cfg->net, rs->pkt, len))
		rs->acks_sent++;
}

static void send_cnp(struct responder *rs, uint64_t now)
{
	struct pnc_cnp c = {};
	size_t len;

	if (now - rs->last_cnp_us < rs->cfg->cnp_interval_us && rs->last_cnp_us)
		return;
	emu_ip_fill(rs->cfg, &c.ip, 48 << 2);
	c.pkey = rs->cfg->pkey;
	c.dest_qp = rs->remote_qpn;
	if (!pnc_cnp_encode(&c, rs->pkt, sizeof(rs->pkt), &len) &&
	    !emu_net_send(&rs->cfg->net, rs->pkt, len)) {
		rs->last_cnp_us = now;
		rs->cnps_sent++;
		emu_log(rs->cfg, "\"event\":\"cnp-sent\",\"dest_qp\":%u,\"cnps_sent\":%llu",
			rs->remote_qpn, (unsigned long long)rs->cnps_sent);
	}
}

void emu_responder_rx(struct responder *rs, const uint8_t *pkt, size_t len)
{
	struct emu_cfg *cfg = rs->cfg;
	struct pnc_roce_view v;

	if (pnc_roce_parse(pkt, len, 0, &v))
		return;
	if (v.bth.opcode == PNC_OP_UD_SEND_ONLY && v.bth.dest_qp == PNC_GSI_QP) {
		handle_cm(rs, &v, pkt, len);
		return;
	}
	if (v.bth.dest_qp != cfg->local_qpn || v.bth.opcode > PNC_OP_RC_WRITE_ONLY_IMM)
		return;
	if (!rs->have_peer) {
		/* Without CM the first data packet tells where to answer. */
		memcpy(cfg->remote, v.ip.src, 16);
		rs->have_peer = true;
		rs->epsn = v.bth.psn;
	}
	rs->rx_pkts++;
	rs->rx_bytes += v.pkt_len;
	if (v.bth.psn != rs->epsn)
		rs->psn_gaps++;
	rs->epsn = (v.bth.psn + 1) & 0xffffff;
	rs->msn = (rs->msn + 1) & 0xffffff;
	if ((v.ip.tos & 3) == 3) {
		rs->ce_pkts++;
		if (cfg->cnp_on_ce)
			send_cnp(rs, emu_now_us());
	}
	if (v.bth.ack_req)
		send_ack(rs, v.bth.psn);
}

static void log_stats(struct responder *rs, const char *event, double rx_mbps)
{
	emu_log(rs->cfg,
		"\"event\":\"%s\",\"qpn\":%u,\"rx_mbps\":%.3f,\"rx_pkts\":%llu,\"ce_pkts\":%llu,\"acks_sent\":%llu,\"cnps_sent\":%llu,\"psn_gaps\":%llu",
		event, rs->cfg->local_qpn, rx_mbps, (unsigned long long)rs->rx_pkts,
		(unsigned long long)rs->ce_pkts, (unsigned long long)rs->acks_sent,
		(unsigned long long)rs->cnps_sent, (unsigned long long)rs->psn_gaps);
}

int emu_run_responder(struct emu_cfg *cfg)
{
	struct responder *rs = calloc(1, sizeof(*rs));
	uint64_t start = emu_now_us(), next_log = start, log_bytes = 0;
	uint64_t end = start + (uint64_t)(cfg->duration_s * 1e6);
	uint8_t buf[9216];

	rs->cfg = cfg;
	rs->remote_qpn = cfg->remote_qpn;
	rs->have_peer = !cfg->use_cm && cfg->remote[0];
	while (!emu_stop && emu_now_us() < end) {
		struct pollfd pfd = { .fd = cfg->net.recv_fd, .events = POLLIN };
		uint64_t now;
		ssize_t n;

		poll(&pfd, 1, 1);
		while ((n = emu_net_recv(&cfg->net, buf, sizeof(buf))) > 0)
			emu_responder_rx(rs, buf, (size_t)n);
		now = emu_now_us();
		if (now >= next_log) {
			log_stats(rs, "stats",
				  (double)(rs->rx_bytes - log_bytes) * 8 / (cfg->log_ms / 1000.0) /
					  1e6);
			log_bytes = rs->rx_bytes;
			next_log += cfg->log_ms * 1000u;
		}
	}
	log_stats(rs, "summary", (double)rs->rx_bytes * 8 / ((emu_now_us() - start) / 1e6) / 1e6);
	free(rs);
	return 0;
}
