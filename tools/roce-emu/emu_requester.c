// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * roce-emu requester: connect, stream RC RDMA WRITE Only packets at the
 * current rate, count ACKs, validate CNPs and cut the rate on each; when
 * enabled, act on Long-haul CNPs (both forms) and SCONE rate advice.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>

#include "codec/cm.h"
#include "codec/errors.h"
#include "codec/lhcnp.h"
#include "codec/ratead.h"
#include "codec/roce.h"

#include "roce_emu.h"

extern volatile sig_atomic_t emu_stop;

#define ACK_DRAIN_US 500000u

static void gid_of(int version, const uint8_t addr[16], uint8_t gid[16])
{
	memset(gid, 0, 16);
	if (version == 4) {
		gid[10] = gid[11] = 0xff;
		memcpy(gid + 12, addr, 4);
	} else {
		memcpy(gid, addr, 16);
	}
}

static int send_cm(struct requester *rq, struct pnc_cm_packet *p)
{
	size_t len;
	int rv;

	emu_ip_fill(rq->cfg, &p->ip, 0);
	rv = pnc_cm_packet_encode(p, rq->pkt, sizeof(rq->pkt), &len);
	if (rv)
		return rv;
	return emu_net_send(&rq->cfg->net, rq->pkt, len);
}

/* CM REQ until a REP answers, then RTU. */
static int connect_cm(struct requester *rq)
{
	struct emu_cfg *cfg = rq->cfg;
	struct pnc_cm_packet req, in;
	uint32_t comm_id = (uint32_t)random() | 1;
	uint8_t buf[2048];

	pnc_cm_packet_init(&req, (uint8_t)cfg->net.version, PNC_CM_ATTR_REQ);
	req.msg.mad.tid = ((uint64_t)random() << 32) | comm_id;
	req.msg.u.req.local_comm_id = comm_id;
	req.msg.u.req.service_id = 0x0000000001064791ull;
	req.msg.u.req.local_qpn = cfg->local_qpn;
	req.msg.u.req.starting_psn = cfg->start_psn;
	req.msg.u.req.pkey = cfg->pkey;
	req.msg.u.req.responder_resources = 1;
	req.msg.u.req.initiator_depth = 1;
	req.msg.u.req.remote_cm_resp_timeout = 20;
	req.msg.u.req.local_cm_resp_timeout = 20;
	req.msg.u.req.retry_count = 7;
	req.msg.u.req.rnr_retry_count = 7;
	req.msg.u.req.max_cm_retries = 15;
	req.msg.u.req.path_mtu = 3; /* 1024 */
	req.msg.u.req.primary_hop_limit = 64;
	req.msg.u.req.primary_local_lid = req.msg.u.req.primary_remote_lid = 0xffff;
	gid_of(cfg->net.version, cfg->net.local, req.msg.u.req.primary_local_gid);
	gid_of(cfg->net.version, cfg->remote, req.msg.u.req.primary_remote_gid);

	for (int attempt = 0; attempt < 50 && !emu_stop; attempt++) {
		uint64_t deadline = emu_now_us() + 100000;

		if (send_cm(rq, &req))
			return -1;
		while (emu_now_us() < deadline && !emu_stop) {
			struct pollfd pfd = { .fd = cfg->net.recv_fd, .events = POLLIN };
			ssize_t n;

			poll(&pfd, 1, 10);
			while ((n = emu_net_recv(&cfg->net, buf, sizeof(buf))) > 0) {
				if (pnc_cm_packet_decode(buf, (size_t)n, &in) ||
				    in.msg.mad.attr_id != PNC_CM_ATTR_REP ||
				    in.msg.u.rep.remote_comm_id != comm_id)
					continue;
				rq->remote_qpn = in.msg.u.rep.local_qpn;

				struct pnc_cm_packet rtu;

				pnc_cm_packet_init(&rtu, (uint8_t)cfg->net.version,
						   PNC_CM_ATTR_RTU);
				rtu.msg.mad.tid = req.msg.mad.tid;
				rtu.msg.u.rtu.local_comm_id = comm_id;
				rtu.msg.u.rtu.remote_comm_id = in.msg.u.rep.local_comm_id;
				if (send_cm(rq, &rtu))
					return -1;
				emu_log(cfg,
					"\"event\":\"connected\",\"cm\":true,\"local_qpn\":%u,\"remote_qpn\":%u,\"comm_id\":%u",
					cfg->local_qpn, rq->remote_qpn, comm_id);
				return 0;
			}
		}
	}
	emu_log(cfg, "\"event\":\"error\",\"reason\":\"no CM reply\"");
	return -1;
}

static int send_write(struct requester *rq)
{
	struct emu_cfg *cfg = rq->cfg;
	static uint8_t payload[9000];
	struct pnc_rc_data d = {};
	unsigned int plen = cfg->mtu;
	size_t len;

	/* The last packet of a --bytes transfer carries only what is left. */
	if (cfg->transfer_bytes && cfg->transfer_bytes - rq->tx_payload < plen)
		plen = (unsigned int)(cfg->transfer_bytes - rq->tx_payload);
	emu_ip_fill(rq->cfg, &d.ip, (uint8_t)(cfg->dscp << 2 | cfg->ecn));
	d.bth.opcode = PNC_OP_RC_WRITE_ONLY;
	d.bth.pkey = cfg->pkey;
	d.bth.dest_qp = rq->remote_qpn;
	d.bth.psn = rq->psn;
	d.bth.ack_req = (rq->tx_pkts % cfg->ack_every) == cfg->ack_every - 1;
	d.reth.va = rq->va;
	d.reth.rkey = 0x1000;
	d.reth.dma_len = plen;
	d.payload = payload;
	d.payload_len = plen;
	if (pnc_rc_data_encode(&d, rq->pkt, sizeof(rq->pkt), &len))
		return -1;
	if (emu_net_send(&cfg->net, rq->pkt, len))
		return -1;
	rq->psn = (rq->psn + 1) & 0xffffff;
	rq->va += plen;
	rq->last_tx_us = emu_now_us();
	if (!rq->tx_pkts)
		rq->first_tx_us = rq->last_tx_us;
	rq->tx_pkts++;
	rq->tx_bytes += len;
	rq->tx_payload += plen;
	return 0;
}

static void addr_str(int version, const uint8_t addr[16], char *buf, size_t len)
{
	if (!inet_ntop(version == 4 ? AF_INET : AF_INET6, addr, buf, (socklen_t)len))
		snprintf(buf, len, "?");
}

static void log_malformed(struct requester *rq, const char *kind, int rv)
{
	rq->malformed++;
	emu_log(rq->cfg, "\"event\":\"malformed\",\"kind\":\"%s\",\"reason\":\"%s\"", kind,
		pnc_codec_strerror(rv));
}

/*
 * A decoded Long-haul CNP, either form: act on it only when its source
 * is known and it names our QP (seed 000 5.6, step 1), in the RoCEv2
 * form in both places, the BTH's DestQP and the block's Source QP.
 */
static void lh_act(struct requester *rq, const char *form, int version, const uint8_t src[16],
		   uint32_t qp, const struct pnc_lh_block *b)
{
	struct emu_cfg *cfg = rq->cfg;
	uint64_t now = emu_now_us();
	char from[INET6_ADDRSTRLEN];
	const char *reason = NULL;

	addr_str(version, src, from, sizeof(from));
	if (!emu_prefix_match(cfg->lh_known, cfg->n_lh_known, version, src)) {
		rq->unknown_src++;
		reason = "unknown-source";
	} else if (qp != cfg->local_qpn) {
		rq->ignored++;
		reason = "wrong-qp";
	} else if (b->src_qp != qp) {
		rq->ignored++;
		reason = "qp-mismatch";
	}
	if (reason) {
		emu_log(cfg,
			"\"event\":\"lh-ignored\",\"form\":\"%s\",\"reason\":\"%s\","
			"\"src\":\"%s\",\"qp\":%u,\"action\":\"%s\"",
			form, reason, from, qp, pnc_lh_action_name(b->action));
		return;
	}
	switch (b->action) {
	case PNC_LH_NOTIFY:
		rq->lh_notify++;
		break;
	case PNC_LH_PAUSE:
		rq->lh_pause++;
		break;
	case PNC_LH_RATE_REDUCE:
		rq->lh_reduce++;
		break;
	case PNC_LH_RESUME:
		rq->lh_resume++;
		break;
	}
	emu_lh_on_action(&rq->lh, &rq->rate, &cfg->rate, b->action, b->parameter, now);
	emu_log(cfg,
		"\"event\":\"lh\",\"form\":\"%s\",\"src\":\"%s\",\"qpn\":%u,\"action\":\"%s\","
		"\"parameter\":%u,\"level\":%u,\"rate_mbps\":%.3f,\"paused_us\":%llu",
		form, from, cfg->local_qpn, pnc_lh_action_name(b->action), b->parameter, b->level,
		rq->rate.mbps,
		(unsigned long long)(emu_lh_paused(&rq->lh, now) ? rq->lh.pause_until_us - now
								 : 0));
}

static void handle_lh_roce(struct requester *rq, const uint8_t *pkt, size_t len)
{
	struct pnc_lh_roce m;
	int rv = pnc_lh_roce_decode(pkt, len, rq->cfg->lh_class_num, &m);

	if (rv) {
		log_malformed(rq, "lh-roce", rv);
		return;
	}
	rq->lh_roce++;
	/* As in a CNP, the BTH DestQP is the traffic source's QP: ours. */
	lh_act(rq, "roce", m.ip.version, m.ip.src, m.dest_qp, &m.msg.block);
}

void emu_requester_rx_icmp6(struct requester *rq, const uint8_t *msg, size_t len,
			    const uint8_t src[16])
{
	struct pnc_lh_icmp6 m;
	int rv = pnc_lh_icmp6_msg_decode(msg, len, rq->cfg->lh_icmp6_type, rq->cfg->lh_class_num,
					 &m);

	if (rv) {
		log_malformed(rq, "lh-icmp6", rv);
		return;
	}
	rq->lh_icmp6++;
	/* No BTH here: the block's Source QP names the QP to act on. */
	lh_act(rq, "icmp6", 6, src, m.msg.block.src_qp, &m.msg.block);
}

static void handle_advice(struct requester *rq, const uint8_t *pkt, size_t len)
{
	struct emu_cfg *cfg = rq->cfg;
	struct pnc_rate_advice ra;
	int rv = pnc_rate_advice_decode(pkt, len, cfg->ra_opcode, &ra);

	if (rv) {
		log_malformed(rq, "rate-advice", rv);
		return;
	}
	rq->advices++;
	if (ra.dest_qp != cfg->local_qpn) {
		rq->ignored++;
		emu_log(cfg, "\"event\":\"advice-ignored\",\"reason\":\"wrong-qp\",\"qp\":%u",
			ra.dest_qp);
		return;
	}
	/*
	 * Seed 004 gives 0 no special meaning: a sender built to it would
	 * stop.  The emulation counts such an advice and keeps its rate, so
	 * that a test sees the proxy sent one.
	 */
	if (!ra.rate_mbps) {
		rq->advice_zero++;
		emu_log(cfg, "\"event\":\"advice-zero\",\"qpn\":%u", cfg->local_qpn);
		return;
	}
	emu_rate_on_advice(&rq->rate, &cfg->rate, ra.rate_mbps, emu_now_us());
	emu_log(cfg, "\"event\":\"rate-advice\",\"qpn\":%u,\"advised_mbps\":%u,\"rate_mbps\":%.3f",
		cfg->local_qpn, ra.rate_mbps, rq->rate.mbps);
}

void emu_requester_rx(struct requester *rq, const uint8_t *pkt, size_t len)
{
	struct emu_cfg *cfg = rq->cfg;
	struct pnc_roce_view v;
	int rv;

	/* Look at the opcode first, so that a CNP with a bad ICRC counts. */
	if (pnc_roce_parse(pkt, len, PNC_ROCE_F_NO_ICRC, &v))
		return;
	rv = pnc_roce_parse(pkt, len, 0, &v);

	/*
	 * Without --long-haul the E bit is not looked at: the packet takes
	 * the standard CNP path below, as on an RNIC that predates it.
	 */
	if (cfg->long_haul && v.bth.opcode == PNC_OP_CNP && (v.bth.resv6 & PNC_BTH_RESV6_EBIT)) {
		handle_lh_roce(rq, pkt, len);
		return;
	}
	if (cfg->rate_advice && v.bth.opcode == cfg->ra_opcode) {
		handle_advice(rq, pkt, len);
		return;
	}
	if (v.bth.opcode == PNC_OP_CNP) {
		const char *reason = NULL;

		if (rv)
			reason = pnc_codec_strerror(rv);
		else if (v.bth.dest_qp != cfg->local_qpn)
			reason = "wrong-dest-qp";
		if (reason) {
			rq->cnps_invalid++;
			emu_log(cfg, "\"event\":\"cnp-invalid\",\"reason\":\"%s\",\"dest_qp\":%u",
				reason, v.bth.dest_qp);
			return;
		}
		rq->cnps++;
		emu_rate_on_cnp(&rq->rate, &cfg->rate, emu_now_us());
		emu_log(cfg, "\"event\":\"cnp\",\"qpn\":%u,\"cnps\":%llu,\"rate_mbps\":%.3f",
			cfg->local_qpn, (unsigned long long)rq->cnps, rq->rate.mbps);
		return;
	}
	if (v.bth.opcode != PNC_OP_RC_ACK) {
		rq->unknown++;
		return;
	}
	if (rv || v.bth.dest_qp != cfg->local_qpn)
		return;
	if ((pkt[v.ext_off] >> 5) == PNC_AETH_ACK)
		rq->acks++;
	else
		rq->naks++;
}

static double completion_ms(const struct requester *rq)
{
	return (double)(rq->last_tx_us - rq->first_tx_us) / 1000.0;
}

/* extra: more fields, each with its leading comma, or "". */
static void log_stats(struct requester *rq, const char *event, double tx_mbps, const char *extra)
{
	uint64_t now = emu_now_us();

	/* rate_mbps is what the sender is held to: 0 during a Pause. */
	emu_log(rq->cfg,
		"\"event\":\"%s\",\"qpn\":%u,\"rate_mbps\":%.3f,\"tx_mbps\":%.3f,\"tx_pkts\":%llu,\"acks\":%llu,\"naks\":%llu,\"cnps\":%llu,\"cnps_invalid\":%llu,\"alpha\":%.4f,"
		"\"paused\":%s,\"lh_active\":%s,\"advice_mbps\":%.3f,"
		"\"lh_roce\":%llu,\"lh_icmp6\":%llu,\"rate_advices\":%llu,"
		"\"lh_notify\":%llu,\"lh_pause\":%llu,\"lh_rate_reduce\":%llu,"
		"\"lh_resume\":%llu,\"advice_zero\":%llu,"
		"\"ignored\":%llu,\"unknown_src\":%llu,\"malformed\":%llu,\"unknown\":%llu%s",
		event, rq->cfg->local_qpn, emu_lh_effective_mbps(&rq->lh, &rq->rate, now), tx_mbps,
		(unsigned long long)rq->tx_pkts, (unsigned long long)rq->acks,
		(unsigned long long)rq->naks, (unsigned long long)rq->cnps,
		(unsigned long long)rq->cnps_invalid, rq->rate.alpha,
		emu_lh_paused(&rq->lh, now) ? "true" : "false", rq->lh.active ? "true" : "false",
		rq->rate.advice_mbps, (unsigned long long)rq->lh_roce,
		(unsigned long long)rq->lh_icmp6, (unsigned long long)rq->advices,
		(unsigned long long)rq->lh_notify, (unsigned long long)rq->lh_pause,
		(unsigned long long)rq->lh_reduce, (unsigned long long)rq->lh_resume,
		(unsigned long long)rq->advice_zero, (unsigned long long)rq->ignored,
		(unsigned long long)rq->unknown_src, (unsigned long long)rq->malformed,
		(unsigned long long)rq->unknown, extra);
}

/* Long-haul CNPs of the ICMPv6 form waiting on their own socket. */
static void drain_icmp6(struct requester *rq, uint8_t *buf, size_t buflen)
{
	uint8_t src[16];
	ssize_t n;

	while ((n = emu_net_recv_icmp6(&rq->cfg->net, buf, buflen, src)) > 0)
		emu_requester_rx_icmp6(rq, buf, (size_t)n, src);
}

/*
 * The responder answers the last ACK requests after the last packet left:
 * wait for them (briefly, they may be lost) so that the summary counts every
 * answer however late a loaded machine delivers it.
 */
static void drain_acks(struct requester *rq, uint8_t *buf, size_t buflen)
{
	uint64_t want = rq->tx_pkts / rq->cfg->ack_every;
	uint64_t deadline = emu_now_us() + ACK_DRAIN_US;
	ssize_t n;

	while (!emu_stop && rq->acks + rq->naks < want) {
		uint64_t now = emu_now_us();
		struct pollfd pfd = { .fd = rq->cfg->net.recv_fd, .events = POLLIN };

		if (now >= deadline)
			break;
		poll(&pfd, 1, (int)((deadline - now + 999) / 1000));
		while ((n = emu_net_recv(&rq->cfg->net, buf, buflen)) > 0)
			emu_requester_rx(rq, buf, (size_t)n);
	}
}

int emu_run_requester(struct emu_cfg *cfg)
{
	struct requester *rq = calloc(1, sizeof(*rq));
	uint64_t start, end, next_send, next_log, log_bytes = 0;
	char extra[96];
	uint8_t buf[9216];
	int ret = 0;

	rq->cfg = cfg;
	rq->psn = cfg->start_psn;
	rq->remote_qpn = cfg->remote_qpn;
	if (cfg->use_cm && connect_cm(rq)) {
		free(rq);
		return 1;
	}
	if (!cfg->use_cm)
		emu_log(cfg,
			"\"event\":\"connected\",\"cm\":false,\"local_qpn\":%u,\"remote_qpn\":%u",
			cfg->local_qpn, rq->remote_qpn);

	start = emu_now_us();
	end = start + (uint64_t)(cfg->duration_s * 1e6);
	next_send = next_log = start;
	emu_rate_init(&rq->rate, &cfg->rate, start);
	emu_lh_init(&rq->lh);

	while (!emu_stop) {
		uint64_t now = emu_now_us();
		ssize_t n;

		if (now >= end)
			break;
		while ((n = emu_net_recv(&cfg->net, buf, sizeof(buf))) > 0)
			emu_requester_rx(rq, buf, (size_t)n);
		drain_icmp6(rq, buf, sizeof(buf));
		/* Without Long-haul messages this is emu_rate_tick. */
		emu_lh_tick(&rq->lh, &rq->rate, &cfg->rate, now);

		if (now >= next_log) {
			double secs = cfg->log_ms / 1000.0;

			log_stats(rq, "stats", (double)(rq->tx_bytes - log_bytes) * 8 / secs / 1e6,
				  "");
			log_bytes = rq->tx_bytes;
			next_log += cfg->log_ms * 1000u;
		}
		/* A Pause holds the next packet; no burst to catch up after it. */
		if (emu_lh_paused(&rq->lh, now) && next_send < rq->lh.pause_until_us)
			next_send = rq->lh.pause_until_us;
		if (now >= next_send) {
			uint64_t before = rq->tx_bytes;

			if (send_write(rq) && errno != ENOBUFS) {
				ret = 1;
				break;
			}
			if (cfg->transfer_bytes && rq->tx_payload >= cfg->transfer_bytes) {
				rq->complete = true;
				emu_log(cfg,
					"\"event\":\"complete\",\"qpn\":%u,\"bytes\":%llu,\"tx_pkts\":%llu,\"completion_ms\":%.3f",
					cfg->local_qpn, (unsigned long long)rq->tx_payload,
					(unsigned long long)rq->tx_pkts, completion_ms(rq));
				break;
			}
			/* Pace on the packet just sent, at the current rate. */
			next_send +=
				(uint64_t)((double)(rq->tx_bytes - before) * 8 / rq->rate.mbps);
			if (next_send + 100000 < now)
				next_send = now; /* do not burst after a stall */
			continue;
		}

		struct pollfd pfd[2] = { { .fd = cfg->net.recv_fd, .events = POLLIN },
					 { .fd = cfg->net.icmp6_fd, .events = POLLIN } };
		uint64_t wake = next_send < next_log ? next_send : next_log;
		struct timespec ts = { 0, 0 };

		if (wake > now) {
			ts.tv_sec = (time_t)((wake - now) / 1000000u);
			ts.tv_nsec = (long)((wake - now) % 1000000u) * 1000;
		}
		ppoll(pfd, cfg->net.icmp6_fd >= 0 ? 2 : 1, &ts, NULL);
	}
	end = emu_now_us();
	if (!ret)
		drain_acks(rq, buf, sizeof(buf));
	/* null: no --bytes, or not all of it sent within --duration. */
	if (rq->complete)
		snprintf(extra, sizeof(extra), ",\"transfer_bytes\":%llu,\"completion_ms\":%.3f",
			 (unsigned long long)cfg->transfer_bytes, completion_ms(rq));
	else
		snprintf(extra, sizeof(extra), ",\"transfer_bytes\":%llu,\"completion_ms\":null",
			 (unsigned long long)cfg->transfer_bytes);
	log_stats(rq, "summary", (double)rq->tx_bytes * 8 / ((end - start) / 1e6) / 1e6, extra);
	free(rq);
	return ret;
}
