// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for roce-emu's receive paths (tools/roce-emu):
 * emu_requester_rx() and emu_requester_rx_icmp6() (CNPs, ACKs, Long-haul
 * CNPs of both forms, rate advice) and emu_responder_rx() (RC data, CM).
 * The program's socket layer is replaced: emu_net_send() below records
 * what would be sent, and time is the input's (the link wraps
 * emu_now_us()).  An input is a configuration of 8 octets,
 *   0  flags: 0x01 --long-haul, 0x02 --rate-advice, 0x04 --cnp-on-ce,
 *      0x08 IPv6, 0x10 --lh-known any (else 192.0.2.0/24, 2001:db8::/64),
 *      0x20 the responder waits for CM, 0x40 --lh-recovery-us 0,
 *      0x80 --recovery-us 0
 *  1-3  --rate-advice opcode, --lh-icmp6-type, --lh-class-num (0: default)
 *  4-7  --min-rate 1-64, --g 1/64-16/64, --ai 0-31, --cnp-interval-us x10
 * (roce-emu's defaults for the rest), then records: what (0 requester,
 * 1 requester's ICMPv6 socket, whose 16 first octets are the source,
 * 2 responder, 3 time only; +4: sends fail), microseconds since the last
 * and length (16 bits each, big-endian; the length cut to what is left),
 * the packet.  Properties:
 *  - the rate stays between the floor (--min-rate, or an advice below
 *    it so far) and the ceiling (--rate, or the advice in force), alpha in
 *    [0, 1], a Pause no longer than its parameter allows;
 *  - counters only grow, by at most one event a packet, and a packet that
 *    is not RoCEv2 changes nothing;
 *  - the requester sends nothing in reply; what the responder sends
 *    decodes with the codec (ACK with the MSN, CNP for the peer's QP at
 *    most once an interval, REP answering the REQ), to the peer;
 *  - every event logged is one well-formed JSON object, reasons named.
 * Seeds (corpus/emu_rx/): made by gen_corpus_tools.c (make fuzz-corpus)
 * from the codecs' encoders: CNPs right and wrong, ACK and NAK,
 * Long-haul CNPs of each action in both forms, rate advice and its
 * withdrawal, RC WRITEs with and without CE, a CM REQ and RTU.
 */
#define _GNU_SOURCE
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>

#include "codec/cm.h"
#include "codec/lhcnp.h"
#include "codec/ratead.h"
#include "codec/roce.h"
#include "codec/wire.h"
#include "fuzz_util.h"
#include "json_check.h"
#include "roce_emu.h"

#define REQ_QPN	 0x123 /* pnc-pkt's default DestQP of CNPs and the like */
#define RESP_QPN 0x22  /* ... and of RC data */
#define CLOCK0	 1000000000000ull
#define SENT_MAX 4
#define EPS	 1e-6

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
uint64_t __wrap_emu_now_us(void);

volatile sig_atomic_t emu_stop;

static uint64_t clock_us;

uint64_t __wrap_emu_now_us(void)
{
	return clock_us;
}

static struct {
	uint8_t pkt[2048];
	size_t len;
} sent[SENT_MAX];
static unsigned int n_sent;
static bool send_fails;

/* emu_net.c's sockets, replaced: a send is recorded, nothing is received. */
int emu_net_send(struct emu_net *net, const uint8_t *pkt, size_t len)
{
	(void)net;
	FUZZ_CHECK(n_sent < SENT_MAX && len <= sizeof(sent[0].pkt));
	if (send_fails)
		return -1;
	memcpy(sent[n_sent].pkt, pkt, len);
	sent[n_sent++].len = len;
	return 0;
}

ssize_t emu_net_recv(struct emu_net *net, uint8_t *buf, size_t buflen)
{
	(void)net;
	(void)buf;
	(void)buflen;
	return 0;
}

ssize_t emu_net_recv_icmp6(struct emu_net *net, uint8_t *buf, size_t buflen, uint8_t src[16])
{
	(void)net;
	(void)buf;
	(void)buflen;
	(void)src;
	return 0;
}

static const uint8_t addr4[2][16] = { { 192, 0, 2, 1 }, { 192, 0, 2, 2 } };
static const uint8_t addr6[2][16] = { { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 },
				      { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 } };

/* Both ends' configuration: roce-emu's defaults, and what the input's first 8 octets say. */
static void config(const uint8_t *h, struct emu_cfg *rq, struct emu_cfg *rs)
{
	bool v6 = h[0] & 0x08;
	const uint8_t(*a)[16] = v6 ? addr6 : addr4;
	/* The source prefixes of the Long-haul CNPs, both families, or any source. */
	unsigned int plen = h[0] & 0x10 ? 0 : 1;

	emu_cfg_defaults(rq);
	rq->requester = true;
	rq->net.version = v6 ? 6 : 4;
	memcpy(rq->net.local, a[1], 16);
	memcpy(rq->remote, a[0], 16);
	rq->use_cm = h[0] & 0x20;
	rq->local_qpn = REQ_QPN;
	rq->remote_qpn = RESP_QPN;
	rq->rate.min_mbps = 1 + h[4] % 64;
	rq->rate.g = (1 + h[5] % 16) / 64.0;
	rq->rate.ai_mbps = h[6] % 32;
	rq->rate.recovery_us = h[0] & 0x80 ? 0 : rq->rate.recovery_us;
	rq->rate.lh_recovery_us = h[0] & 0x40 ? 0 : rq->rate.lh_recovery_us;
	rq->long_haul = h[0] & 0x01;
	rq->rate_advice = h[0] & 0x02;
	rq->ra_opcode = h[1] ? h[1] : rq->ra_opcode;
	rq->lh_icmp6_type = h[2] ? h[2] : rq->lh_icmp6_type;
	rq->lh_class_num = h[3] ? h[3] : rq->lh_class_num;
	rq->lh_known[0] = (struct emu_prefix){ .version = 4, .plen = 24 * plen };
	rq->lh_known[1] = (struct emu_prefix){ .version = 6, .plen = 64 * plen };
	memcpy(rq->lh_known[0].addr, addr4[0], 16);
	memcpy(rq->lh_known[1].addr, addr6[0], 16);
	rq->n_lh_known = 2;

	*rs = *rq;
	rs->requester = false;
	memcpy(rs->net.local, a[0], 16);
	memset(rs->remote, 0, 16);
	rs->local_qpn = RESP_QPN;
	rs->remote_qpn = REQ_QPN;
	rs->cnp_on_ce = h[0] & 0x04;
	rs->cnp_interval_us = 10u * h[7];
}

/* As emu_run_requester() and emu_run_responder() set them up. */
static void start(struct requester *rq, struct emu_cfg *qc, struct responder *rs,
		  struct emu_cfg *sc)
{
	memset(rq, 0, offsetof(struct requester, pkt));
	rq->cfg = qc;
	rq->psn = qc->start_psn;
	rq->remote_qpn = qc->remote_qpn;
	emu_rate_init(&rq->rate, &qc->rate, clock_us);
	emu_lh_init(&rq->lh);
	memset(rs, 0, offsetof(struct responder, pkt));
	rs->cfg = sc;
	rs->remote_qpn = sc->remote_qpn;
	rs->have_peer = !sc->use_cm && sc->remote[0];
}

/* The requester's counters, by name, so that they compare at once. */
enum {
	C_TX_PKTS,
	C_TX_BYTES,
	C_ACKS, /* from here to C_ADVICES: what a packet was, one at most */
	C_NAKS,
	C_CNPS,
	C_CNPS_INVALID,
	C_LH_ROCE,
	C_LH_ICMP6,
	C_ADVICES,
	C_LH_NOTIFY, /* from here to C_LH_RESUME: the action taken */
	C_LH_PAUSE,
	C_LH_REDUCE,
	C_LH_RESUME,
	C_ADVICE_ZERO,
	C_IGNORED,
	C_UNKNOWN_SRC,
	C_MALFORMED,
	C_UNKNOWN,
	C_CUTS,
	C_N
};

static void req_counters(const struct requester *rq, uint64_t c[C_N])
{
	c[C_TX_PKTS] = rq->tx_pkts;
	c[C_TX_BYTES] = rq->tx_bytes;
	c[C_ACKS] = rq->acks;
	c[C_NAKS] = rq->naks;
	c[C_CNPS] = rq->cnps;
	c[C_CNPS_INVALID] = rq->cnps_invalid;
	c[C_LH_ROCE] = rq->lh_roce;
	c[C_LH_ICMP6] = rq->lh_icmp6;
	c[C_ADVICES] = rq->advices;
	c[C_LH_NOTIFY] = rq->lh_notify;
	c[C_LH_PAUSE] = rq->lh_pause;
	c[C_LH_REDUCE] = rq->lh_reduce;
	c[C_LH_RESUME] = rq->lh_resume;
	c[C_ADVICE_ZERO] = rq->advice_zero;
	c[C_IGNORED] = rq->ignored;
	c[C_UNKNOWN_SRC] = rq->unknown_src;
	c[C_MALFORMED] = rq->malformed;
	c[C_UNKNOWN] = rq->unknown;
	c[C_CUTS] = rq->rate.cuts;
}

/*
 * The lowest rate so far: the floor of the cuts, or an advice below it,
 * which stays after its withdrawal until the recovery raises it.
 */
static double floor_mbps;

static void check_rate(const struct requester *rq)
{
	const struct emu_rate_cfg *c = &rq->cfg->rate;
	const struct emu_rate *r = &rq->rate;
	const struct emu_lh *lh = &rq->lh;

	if (r->advice_mbps > 0 && r->advice_mbps < floor_mbps)
		floor_mbps = r->advice_mbps;
	FUZZ_CHECK(isfinite(r->mbps) && r->mbps >= floor_mbps - EPS);
	FUZZ_CHECK(r->mbps <= emu_rate_ceiling(r, c) + EPS);
	FUZZ_CHECK(r->alpha >= 0 && r->alpha <= 1 + EPS);
	if (lh->active)
		FUZZ_CHECK(lh->lost_mbps >= -EPS && lh->cap_mbps <= c->line_mbps + EPS);
	else
		FUZZ_CHECK(lh->lost_mbps == 0 && lh->cap_mbps == 0);
	/* A Pause lasts its parameter (16 bits) from the last message at most. */
	FUZZ_CHECK(lh->pause_until_us <= clock_us + UINT16_MAX);
	FUZZ_CHECK(emu_lh_effective_mbps(lh, r, clock_us) <= r->mbps);
}

static void requester_rx(struct requester *rq, bool icmp6, const uint8_t *p, size_t len)
{
	uint64_t b[C_N], a[C_N];
	struct requester before;
	struct pnc_roce_view v;
	unsigned int kinds = 0;

	req_counters(rq, b);
	memcpy(&before, rq, offsetof(struct requester, pkt));
	if (icmp6) {
		if (len < 16)
			return;
		emu_requester_rx_icmp6(rq, p + 16, len - 16, p);
	} else {
		emu_requester_rx(rq, p, len);
	}
	req_counters(rq, a);
	for (int i = 0; i < C_N; i++)
		FUZZ_CHECK(a[i] >= b[i]);
	for (int i = C_ACKS; i <= C_ADVICES; i++)
		kinds += (unsigned int)(a[i] - b[i]);
	kinds += (unsigned int)(a[C_MALFORMED] - b[C_MALFORMED] + a[C_UNKNOWN] - b[C_UNKNOWN]);
	FUZZ_CHECK(kinds <= 1);
	/* An action is taken on a Long-haul CNP only. */
	for (int i = C_LH_NOTIFY; i <= C_LH_RESUME; i++)
		FUZZ_CHECK(a[i] == b[i] ||
			   a[C_LH_ROCE] + a[C_LH_ICMP6] > b[C_LH_ROCE] + b[C_LH_ICMP6]);
	/* Receiving never sends. */
	FUZZ_CHECK(a[C_TX_PKTS] == b[C_TX_PKTS] && a[C_TX_BYTES] == b[C_TX_BYTES] && !n_sent);
	if (!icmp6 && pnc_roce_parse(p, len, PNC_ROCE_F_NO_ICRC, &v))
		FUZZ_CHECK(!memcmp(&before, rq, offsetof(struct requester, pkt)));
	check_rate(rq);
}

static void check_to_peer(const struct responder *rs, const struct pnc_ip_udp *ip)
{
	size_t alen = rs->cfg->net.version == 4 ? 4 : 16;

	FUZZ_CHECK(ip->version == rs->cfg->net.version);
	FUZZ_CHECK(!memcmp(ip->src, rs->cfg->net.local, alen));
	FUZZ_CHECK(!memcmp(ip->dst, rs->cfg->remote, alen));
}

/* What the responder sent for packet p: each decodes, as its kind says. */
static void check_sent(const struct responder *rs, const uint8_t *p, size_t len,
		       uint64_t *last_cnp_us)
{
	static struct pnc_cm_packet in, rep;
	struct pnc_rc_ack ack;
	struct pnc_cnp cnp;
	struct pnc_roce_view v;

	for (unsigned int i = 0; i < n_sent; i++) {
		const uint8_t *s = sent[i].pkt;
		size_t n = sent[i].len;

		FUZZ_CHECK(pnc_roce_parse(s, n, 0, &v) == PNC_OK);
		switch (v.bth.opcode) {
		case PNC_OP_RC_ACK:
			FUZZ_CHECK(pnc_rc_ack_decode(s, n, &ack) == PNC_OK);
			FUZZ_CHECK(ack.bth.dest_qp == rs->remote_qpn && ack.aeth.msn == rs->msn);
			check_to_peer(rs, &ack.ip);
			break;
		case PNC_OP_CNP:
			FUZZ_CHECK(pnc_cnp_decode(s, n, &cnp) == PNC_OK);
			FUZZ_CHECK(cnp.dest_qp == rs->remote_qpn);
			FUZZ_CHECK(clock_us - *last_cnp_us >= rs->cfg->cnp_interval_us);
			*last_cnp_us = clock_us;
			check_to_peer(rs, &cnp.ip);
			break;
		default:
			FUZZ_CHECK(pnc_cm_packet_decode(s, n, &rep) == PNC_OK);
			FUZZ_CHECK(pnc_cm_packet_decode(p, len, &in) == PNC_OK);
			FUZZ_CHECK(rep.msg.mad.attr_id == PNC_CM_ATTR_REP &&
				   in.msg.mad.attr_id == PNC_CM_ATTR_REQ);
			FUZZ_CHECK(rep.msg.mad.tid == in.msg.mad.tid);
			FUZZ_CHECK(rep.msg.u.rep.remote_comm_id == in.msg.u.req.local_comm_id);
			FUZZ_CHECK(rep.msg.u.rep.local_qpn == rs->cfg->local_qpn);
			check_to_peer(rs, &rep.ip);
		}
	}
}

static void responder_rx(struct responder *rs, const uint8_t *p, size_t len, uint64_t *last_cnp_us)
{
	struct responder b = *rs;

	emu_responder_rx(rs, p, len);
	FUZZ_CHECK(rs->rx_pkts - b.rx_pkts <= 1 && rs->rx_bytes >= b.rx_bytes);
	FUZZ_CHECK(rs->ce_pkts - b.ce_pkts <= rs->rx_pkts - b.rx_pkts);
	FUZZ_CHECK(rs->psn_gaps - b.psn_gaps <= rs->rx_pkts - b.rx_pkts);
	FUZZ_CHECK(rs->cnps_sent - b.cnps_sent <= rs->ce_pkts - b.ce_pkts);
	FUZZ_CHECK(rs->acks_sent - b.acks_sent <= rs->rx_pkts - b.rx_pkts);
	FUZZ_CHECK(rs->epsn <= 0xffffff && rs->msn <= 0xffffff);
	/* Counted as sent only when they were. */
	FUZZ_CHECK(rs->acks_sent - b.acks_sent + rs->cnps_sent - b.cnps_sent <= n_sent);
	check_sent(rs, p, len, last_cnp_us);
}

/* Every event a JSON object of its own, any reason given a name. */
static void check_log(const char *log, size_t len)
{
	const char *p = log, *end = log + len, *nl;
	char reason[64];

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		FUZZ_CHECK(nl);
		FUZZ_CHECK(json_object_ok(p, (size_t)(nl - p)));
		if (json_get_str(p, (size_t)(nl - p), "reason", reason, sizeof(reason)))
			FUZZ_CHECK(strcmp(reason, "unknown") != 0);
		p = nl + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct requester rq;
	static struct responder rs;
	struct emu_cfg qc, sc;
	uint64_t last_cnp_us = 0;
	char *log;
	size_t log_len, len;
	FILE *f;

	if (size < 8)
		return 0;
	clock_us = CLOCK0;
	/* The responder's CM communication ID comes from random(). */
	srandom(1);
	config(data, &qc, &sc);
	floor_mbps = qc.rate.min_mbps;
	f = open_memstream(&log, &log_len);
	FUZZ_CHECK(f);
	qc.log = sc.log = f;
	start(&rq, &qc, &rs, &sc);
	data += 8;
	size -= 8;
	while (size >= 5) {
		uint8_t what = data[0];

		clock_us += get_be16(data + 1);
		len = get_be16(data + 3);
		data += 5;
		size -= 5;
		if (len > size)
			len = size;
		n_sent = 0;
		send_fails = what & 4;
		switch (what & 3) {
		case 0:
		case 1:
			requester_rx(&rq, what & 1, data, len);
			break;
		case 2:
			responder_rx(&rs, data, len, &last_cnp_us);
			break;
		}
		/* The requester's loop moves the rate on after each batch. */
		emu_lh_tick(&rq.lh, &rq.rate, &qc.rate, clock_us);
		check_rate(&rq);
		data += len;
		size -= len;
	}
	FUZZ_CHECK(fclose(f) == 0);
	check_log(log, log_len);
	free(log);
	return 0;
}
