// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the proxy's flow learning (cnpproxyd/proxy/flows.c):
 * what the XDP learner reports from sender-facing interfaces, packets
 * anyone may send, fed to pnc_flow_learn_roce() and pnc_flow_learn_cm()
 * as proxy/xdp/learn.c does, with lookups and ageing in between.  An
 * input is a configuration of 3 octets (the table's size 1-64, PSN
 * matches 1-4, idle timeout: 0 none, else N x 10 ms), then records:
 * what (0 a RoCE event, 1 a CM packet, 2 ageing, 3 a lookup), the
 * microseconds since the last (16 bits, big-endian), and
 *   0  the event's fields as the learner's ring has them: IP version,
 *      TOS, flow label (3), source and destination (16 each), UDP
 *      source port (2), BTH opcode, P_Key (2), DestQP (3), PSN (3),
 *      AckReq (EV_LEN octets, big-endian)
 *   1  length (16 bits) and the packet, as the learner captures it
 *   3  IP version, sender, receiver (16 each), receiver QPN (3)
 * Properties:
 *  - results are named, and the counters say what they say (a pairing
 *    learned is counted, a full table too); counters only grow;
 *  - the table never holds more than its size, nor the pending REQs
 *    and PSN windows more than theirs; every flow walked is whole (IP
 *    version, 24-bit QPNs, times in order) and found by its key;
 *  - a REP that completes a pairing installs both directions;
 *  - after ageing, no flow idle longer than the timeout is left.
 * Seeds (corpus/flows_learn/): made by gen_corpus_tools.c (make
 * fuzz-corpus): a CM handshake and its DREQ, RC WRITEs and the ACKs
 * that pair them by PSN, IPv4 and IPv6, a table too small for both.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "codec/cm.h"
#include "codec/wire.h"
#include "proxy/flows.h"
#include "fuzz_check.h"

#define EV_LEN	  49
#define PROBE_LEN 36
#define QPN_MAX	  0xffffffu
#define NOW0	  1000000000ull

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct pnc_flow_config *cfg_of(const uint8_t *h, struct pnc_flow_config *c)
{
	memset(c, 0, sizeof(*c));
	c->max_flows = 1 + h[0] % 64;
	c->psn_matches = 1 + h[1] % 4;
	c->idle_timeout_us = h[2] * 10000ull;
	return c;
}

/* The learner's RoCE event, as proxy/xdp/learn.c turns it into a view. */
static void event_view(const uint8_t *e, struct pnc_roce_view *v)
{
	memset(v, 0, sizeof(*v));
	v->ip.version = e[0];
	v->ip.tos = e[1];
	v->ip.flow_label = get_be24(e + 2) & 0xfffff;
	memcpy(v->ip.src, e + 5, 16);
	memcpy(v->ip.dst, e + 21, 16);
	v->ip.sport = get_be16(e + 37);
	v->ip.dport = PNC_ROCE_UDP_PORT;
	v->bth.opcode = e[39];
	v->bth.pkey = get_be16(e + 40);
	v->bth.dest_qp = get_be24(e + 42);
	v->bth.psn = get_be24(e + 45);
	v->bth.ack_req = e[48] & 1;
}

static void check_stats(const struct pnc_flow_stats *a, const struct pnc_flow_stats *b,
			const struct pnc_flow_config *c)
{
	/* Counters only grow. */
	FUZZ_CHECK(b->learned_cm >= a->learned_cm && b->learned_psn >= a->learned_psn);
	FUZZ_CHECK(b->cm_rep_unmatched >= a->cm_rep_unmatched && b->cm_removed >= a->cm_removed);
	FUZZ_CHECK(b->table_full >= a->table_full);
	FUZZ_CHECK(b->cm_pending_evicted >= a->cm_pending_evicted);
	FUZZ_CHECK(b->psn_evicted >= a->psn_evicted && b->psn_ambiguous >= a->psn_ambiguous);
	FUZZ_CHECK(b->psn_conflicts >= a->psn_conflicts && b->aged_flows >= a->aged_flows);
	FUZZ_CHECK(b->aged_cm_pending >= a->aged_cm_pending);
	FUZZ_CHECK(b->aged_psn_windows >= a->aged_psn_windows);
	FUZZ_CHECK(b->lookups >= a->lookups && b->lookup_misses >= a->lookup_misses);
	/* Gauges within their pools. */
	FUZZ_CHECK(b->flows <= c->max_flows && b->cm_pending <= c->max_flows / 4 + 1);
	FUZZ_CHECK(b->psn_windows <= c->max_flows);
}

/* What a learn call returned is what its counters say. */
static void check_result(int rv, const struct pnc_flow_stats *a, const struct pnc_flow_stats *b)
{
	FUZZ_CHECK(rv >= PNC_FLOW_IGNORED && rv <= PNC_FLOW_TABLE_FULL);
	FUZZ_CHECK(strcmp(pnc_flow_result_str(rv), "unknown") != 0);
	if (rv == PNC_FLOW_LEARNED_CM)
		FUZZ_CHECK(b->learned_cm > a->learned_cm);
	if (rv == PNC_FLOW_LEARNED_PSN)
		FUZZ_CHECK(b->learned_psn > a->learned_psn);
	if (rv == PNC_FLOW_TABLE_FULL)
		FUZZ_CHECK(b->table_full > a->table_full);
	if (rv == PNC_FLOW_REMOVED)
		FUZZ_CHECK(b->cm_removed > a->cm_removed);
	if (rv == PNC_FLOW_IGNORED || rv == PNC_FLOW_REFRESHED)
		FUZZ_CHECK(b->flows == a->flows);
}

struct walk {
	struct pnc_flow_table *t;
	uint64_t now;
	size_t n;
};

/* Every flow whole, and found by its key (unless idle: lookups skip those). */
static void check_flow(const struct pnc_flow *f, void *arg)
{
	struct walk *w = arg;
	const struct pnc_flow *got;
	static const uint8_t zero[12];

	w->n++;
	FUZZ_CHECK(f->ip_version == 4 || f->ip_version == 6);
	FUZZ_CHECK(f->sender_qpn <= QPN_MAX && f->receiver_qpn <= QPN_MAX);
	FUZZ_CHECK(f->source == PNC_FLOW_CM || f->source == PNC_FLOW_PSN);
	FUZZ_CHECK(f->learned_us <= f->last_seen_us && f->last_seen_us <= w->now);
	if (f->ip_version == 4)
		FUZZ_CHECK(!memcmp(f->sender + 4, zero, 12) &&
			   !memcmp(f->receiver + 4, zero, 12) && !f->flow_label);
	got = pnc_flow_lookup(w->t, f->ip_version, f->sender, f->receiver, f->receiver_qpn,
			      f->last_seen_us);
	FUZZ_CHECK(got == f);
}

static void check_table(struct pnc_flow_table *t, const struct pnc_flow_config *c, uint64_t now)
{
	struct walk w = { .t = t, .now = now };

	pnc_flow_table_walk(t, check_flow, &w);
	FUZZ_CHECK(w.n == pnc_flow_table_count(t) && w.n <= c->max_flows);
}

/* A REP that paired C and S: both directions are there, each the other's QP. */
static void check_pairing(struct pnc_flow_table *t, const struct pnc_cm_packet *rep, uint64_t now)
{
	const struct pnc_flow *cs, *sc;

	cs = pnc_flow_lookup(t, rep->ip.version, rep->ip.dst, rep->ip.src,
			     rep->msg.u.rep.local_qpn, now);
	FUZZ_CHECK(cs && cs->source == PNC_FLOW_CM);
	sc = pnc_flow_lookup(t, rep->ip.version, rep->ip.src, rep->ip.dst, cs->sender_qpn, now);
	FUZZ_CHECK(sc && sc->source == PNC_FLOW_CM && sc->sender_qpn == cs->receiver_qpn);
}

struct aged {
	uint64_t now, timeout;
};

/* After ageing, nothing idle is left: times only go forward here. */
static void check_aged(const struct pnc_flow *f, void *arg)
{
	const struct aged *ag = arg;

	FUZZ_CHECK(!ag->timeout || ag->now - f->last_seen_us <= ag->timeout);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pnc_cm_packet cm;
	struct pnc_flow_config cfg;
	struct pnc_flow_stats a, b;
	struct pnc_flow_table *t;
	struct pnc_roce_view v;
	uint64_t now = NOW0;
	size_t len;
	int rv;

	if (size < 3)
		return 0;
	t = pnc_flow_table_new_config(cfg_of(data, &cfg));
	FUZZ_CHECK(t);
	data += 3;
	size -= 3;
	while (size >= 3) {
		uint8_t what = data[0] & 3;

		now += get_be16(data + 1);
		data += 3;
		size -= 3;
		pnc_flow_table_stats(t, &a);
		rv = PNC_FLOW_IGNORED;
		if (what == 0 && size >= EV_LEN) {
			event_view(data, &v);
			rv = pnc_flow_learn_roce(t, &v, now);
			len = EV_LEN;
		} else if (what == 1 && size >= 2) {
			len = get_be16(data);
			len = len > size - 2 ? size - 2 : len;
			if (!pnc_cm_packet_decode(data + 2, len, &cm))
				rv = pnc_flow_learn_cm(t, &cm, now);
			len += 2;
		} else if (what == 2) {
			struct aged ag = { .now = now, .timeout = cfg.idle_timeout_us };

			pnc_flow_table_age(t, now);
			pnc_flow_table_walk(t, check_aged, &ag);
			len = 0;
		} else if (what == 3 && size >= PROBE_LEN) {
			pnc_flow_lookup(t, data[0], data + 1, data + 17, get_be24(data + 33), now);
			len = PROBE_LEN;
		} else {
			break;
		}
		pnc_flow_table_stats(t, &b);
		check_stats(&a, &b, &cfg);
		if (what <= 1)
			check_result(rv, &a, &b);
		if (what == 1 && rv == PNC_FLOW_LEARNED_CM)
			check_pairing(t, &cm, now);
		check_table(t, &cfg, now);
		data += len;
		size -= len;
	}
	pnc_flow_table_free(t);
	return 0;
}
