// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the state files cnpproxyd reads back at start-up
 * (state/frame.c, and the records of proxy/flows_state.c and
 * tunnel/labels_state.c): the learned flows restored into a flow table
 * (proxy/flows.c) as proxy/flows_file.c does, the flow labels
 * decoded.  The first octet of an input says what to make of the rest:
 *   bit 0  a flow-label file (else a flows file)
 *   bit 1  write the right CRC into the header (else the CRC is checked
 *          as it is, and hardly ever right)
 *   bit 2  write the record count the length implies
 *   bit 3  write the kind's magic and version
 *   bits 4-7  flows: the table's size, 1 to 61
 * Properties:
 *  - a file is refused with a named error and nothing restored, or
 *    every record is handed out, as many as the header says; a file
 *    whose frame was made right is never refused;
 *  - the records decoded encode back to the file, but for what the
 *    format does not keep (reserved octets, a flow's source above 1);
 *  - the table restored saves to a file that restores to the same
 *    table, and each record was refused only for what makes no flow.
 * Seeds (corpus/state_file/): made by gen_corpus_tools.c (make
 * fuzz-corpus) with the encoders: files of both kinds with 0, 1 and
 * several records, IPv4 and IPv6, CM and PSN flows.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec/icrc.h"
#include "codec/wire.h"
#include "tunnel/labels_state.h"
#include "proxy/flows.h"
#include "proxy/flows_state.h"
#include "state/frame.h"
#include "fuzz_check.h"

#define OPT_FL	    0x01
#define OPT_RESEAL  0x02
#define OPT_RECOUNT 0x04
#define OPT_MAGIC   0x08

#define NOW	(1000ull * 1000000u)
#define TIMEOUT (300ull * 1000000u)
#define QPN_MAX 0xffffffu

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The frames of the two kinds, as their headers describe them. */
struct kind {
	const char *magic;
	uint16_t version;
	size_t meta_len, rec_len;
};

static const struct kind flows_kind = { "PNCF", PNC_FLOWS_STATE_VERSION, 0,
					PNC_FLOWS_STATE_REC_LEN };
static const struct kind fl_kind = { "PNCL", PNC_FL_STATE_VERSION, 4, PNC_FL_STATE_REC_LEN };

/* Make the frame right where the options say; whether all of it is. */
static bool frame(uint8_t opt, const struct kind *k, uint8_t *buf, size_t len)
{
	size_t fixed = PNC_STATE_HDR_LEN + k->meta_len;

	if (len < PNC_STATE_HDR_LEN)
		return false;
	if (opt & OPT_MAGIC) {
		memcpy(buf, k->magic, 4);
		put_be16(buf + 4, k->version);
	}
	if ((opt & OPT_RECOUNT) && len >= fixed)
		put_be32(buf + 8, (uint32_t)((len - fixed) / k->rec_len));
	if (opt & OPT_RESEAL)
		put_be32(buf + 12, pnc_crc32(0, buf + PNC_STATE_HDR_LEN, len - PNC_STATE_HDR_LEN));
	return (opt & (OPT_MAGIC | OPT_RECOUNT | OPT_RESEAL)) ==
		       (OPT_MAGIC | OPT_RECOUNT | OPT_RESEAL) &&
	       len >= fixed && (len - fixed) % k->rec_len == 0;
}

/* A refusal is one of the frame's, named; success counts what the length holds. */
static void check_result(int n, const struct kind *k, size_t len, bool made_right, int calls)
{
	if (n < 0) {
		FUZZ_CHECK(n >= PNC_STATE_E_CRC && !made_right);
		FUZZ_CHECK(strcmp(pnc_state_strerror(n), "?") != 0);
		FUZZ_CHECK(calls == 0);
		return;
	}
	FUZZ_CHECK(calls == n);
	FUZZ_CHECK(len == PNC_STATE_HDR_LEN + k->meta_len + (size_t)n * k->rec_len);
}

/*
 * The file as the encoder writes what was decoded from it: the header's
 * and records' reserved octets 0 (reserved lists their offsets in a
 * record), the CRC over that.
 */
static void canonical(uint8_t *buf, size_t len, const struct kind *k, const size_t *reserved,
		      size_t n_reserved)
{
	size_t off;

	put_be16(buf + 6, 0);
	for (off = PNC_STATE_HDR_LEN + k->meta_len; off < len; off += k->rec_len)
		for (size_t i = 0; i < n_reserved; i++)
			buf[off + reserved[i]] = 0;
	put_be32(buf + 12, pnc_crc32(0, buf + PNC_STATE_HDR_LEN, len - PNC_STATE_HDR_LEN));
}

/* --- flows ---------------------------------------------------------------- */

struct flows {
	struct pnc_flow_table *t;
	struct pnc_flow_saved *s; /* every record handed out */
	int calls, max;
};

/* Restore as proxy/flows_file.c does; keep the record to compare. */
static void restore_one(const struct pnc_flow_saved *s, void *arg)
{
	struct flows *fl = arg;
	const struct pnc_flow *f = &s->f;
	bool makes_flow = (f->source == PNC_FLOW_CM || f->source == PNC_FLOW_PSN) &&
			  (f->ip_version == 4 || f->ip_version == 6) && f->sender_qpn <= QPN_MAX &&
			  f->receiver_qpn <= QPN_MAX;
	int rv;

	FUZZ_CHECK(fl->calls < fl->max);
	fl->s[fl->calls++] = *s;
	rv = pnc_flow_table_restore(fl->t, s, NOW);
	if (!makes_flow)
		FUZZ_CHECK(rv == PNC_FLOW_IGNORED);
	else
		FUZZ_CHECK(rv == PNC_FLOW_LEARNED_CM || rv == PNC_FLOW_LEARNED_PSN ||
			   rv == PNC_FLOW_REFRESHED || rv == PNC_FLOW_TABLE_FULL);
}

static void collect(const struct pnc_flow_saved *s, void *arg)
{
	struct flows *fl = arg;

	FUZZ_CHECK(fl->calls < fl->max);
	fl->s[fl->calls++] = *s;
}

/* The fields of a saved flow, in the order of a key, then the rest. */
static int saved_cmp(const void *pa, const void *pb)
{
	const struct pnc_flow_saved *a = pa, *b = pb;
	const struct pnc_flow *x = &a->f, *y = &b->f;
	uint64_t ka[] = { x->ip_version,   x->receiver_qpn, x->sender_qpn,  x->pkey,
			  x->udp_sport,	   x->flow_label,   x->source,	    x->learned_us,
			  x->last_seen_us, x->packets,	    a->sender_comm, a->receiver_comm };
	uint64_t kb[] = { y->ip_version,   y->receiver_qpn, y->sender_qpn,  y->pkey,
			  y->udp_sport,	   y->flow_label,   y->source,	    y->learned_us,
			  y->last_seen_us, y->packets,	    b->sender_comm, b->receiver_comm };
	int c = memcmp(x->sender, y->sender, 16);

	if (!c)
		c = memcmp(x->receiver, y->receiver, 16);
	for (size_t i = 0; !c && i < sizeof(ka) / sizeof(ka[0]); i++)
		c = ka[i] < kb[i] ? -1 : ka[i] > kb[i];
	return c;
}

/* The table's flows, sorted (the walk follows the hash). */
static void table_saved(struct pnc_flow_table *t, struct flows *out)
{
	out->calls = 0;
	pnc_flow_table_walk_saved(t, collect, out);
	FUZZ_CHECK((size_t)out->calls == pnc_flow_table_count(t));
	qsort(out->s, (size_t)out->calls, sizeof(*out->s), saved_cmp);
}

static void fuzz_flows(uint8_t opt, uint8_t *buf, size_t len)
{
	static const size_t reserved[] = { 46, 47 };
	size_t cap = 1 + (size_t)(opt >> 4) * 4;
	struct flows a = { .max = (int)(len / PNC_FLOWS_STATE_REC_LEN + cap) };
	struct flows b = { .max = a.max };
	bool made_right = frame(opt, &flows_kind, buf, len);
	uint8_t *out;
	int n;

	a.t = pnc_flow_table_new(cap, TIMEOUT);
	b.t = pnc_flow_table_new(cap, TIMEOUT);
	a.s = malloc((size_t)a.max * sizeof(*a.s));
	b.s = malloc((size_t)b.max * sizeof(*b.s));
	FUZZ_CHECK(a.t && b.t && a.s && b.s);

	n = pnc_flows_state_decode(buf, len, restore_one, &a);
	check_result(n, &flows_kind, len, made_right, a.calls);
	if (n < 0)
		goto out;

	/* The records encode back to the file, source 0 or 1. */
	out = malloc(len);
	FUZZ_CHECK(out);
	pnc_flows_state_encode(a.s, (size_t)n, out);
	for (int i = 0; i < n; i++) {
		uint8_t *src = buf + PNC_STATE_HDR_LEN + (size_t)i * PNC_FLOWS_STATE_REC_LEN + 1;

		*src = *src != 0;
	}
	canonical(buf, len, &flows_kind, reserved, 2);
	FUZZ_CHECK(!memcmp(out, buf, len));
	free(out);

	/* The table restored, saved and restored again: the same table. */
	table_saved(a.t, &a);
	out = malloc(pnc_flows_state_size((size_t)a.calls));
	FUZZ_CHECK(out);
	pnc_flows_state_encode(a.s, (size_t)a.calls, out);
	n = pnc_flows_state_decode(out, pnc_flows_state_size((size_t)a.calls), restore_one, &b);
	FUZZ_CHECK(n == a.calls);
	table_saved(b.t, &b);
	FUZZ_CHECK(b.calls == a.calls);
	for (int i = 0; i < a.calls; i++)
		FUZZ_CHECK(!saved_cmp(&a.s[i], &b.s[i]));
	free(out);
out:
	pnc_flow_table_free(a.t);
	pnc_flow_table_free(b.t);
	free(a.s);
	free(b.s);
}

/* --- flow labels ---------------------------------------------------------- */

struct labels {
	struct pnc_tunnel_flow *f;
	int calls, max;
};

static void label_one(const struct pnc_tunnel_flow *f, void *arg)
{
	struct labels *l = arg;

	FUZZ_CHECK(l->calls < l->max);
	l->f[l->calls++] = *f;
}

static void fuzz_labels(uint8_t opt, uint8_t *buf, size_t len)
{
	static const size_t reserved[] = { 1, 6, 7 };
	struct labels l = { .max = (int)(len / PNC_FL_STATE_REC_LEN) + 1 };
	bool made_right = frame(opt, &fl_kind, buf, len);
	uint32_t cursor = 0xa5a5a5a5u;
	uint8_t *out;
	int n;

	l.f = malloc((size_t)l.max * sizeof(*l.f));
	FUZZ_CHECK(l.f);
	n = pnc_labels_state_decode(buf, len, &cursor, label_one, &l);
	check_result(n, &fl_kind, len, made_right, l.calls);
	if (n < 0) {
		FUZZ_CHECK(cursor == 0xa5a5a5a5u);
	} else {
		out = malloc(len);
		FUZZ_CHECK(out);
		pnc_labels_state_encode(cursor, l.f, (size_t)n, out);
		canonical(buf, len, &fl_kind, reserved, 3);
		FUZZ_CHECK(!memcmp(out, buf, len));
		free(out);
	}
	free(l.f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *buf;

	if (size < 1)
		return 0;
	/* The frame is made right in place: a copy, of exactly the file's size. */
	buf = malloc(size - 1 ? size - 1 : 1);
	FUZZ_CHECK(buf);
	memcpy(buf, data + 1, size - 1);
	if (data[0] & OPT_FL)
		fuzz_labels(data[0], buf, size - 1);
	else
		fuzz_flows(data[0], buf, size - 1);
	free(buf);
	return 0;
}
