// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The proxy role's flows across a restart: pnc_flow_table_walk_saved()
 * and pnc_flow_table_restore() (cnpproxyd/proxy/flows.c), and the
 * state file codec (cnpproxyd/proxy/flows_state.c): a round trip
 * through a file into a new table, and files that are damaged, cut
 * short, of another version or with records that make no flow.  The
 * flow-label tunnel's labels (cnpproxyd/tunnel/labels_state.c) in the same
 * frame: a round trip with the meta word, and damage.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "proxy/flows.h"
#include "tunnel/labels_state.h"
#include "proxy/flows_state.h"
#include "state/frame.h"

#define TIMEOUT (300ull * 1000000u)
#define NOW	(1000ull * 1000000u)

static const struct pnc_flow_saved saved[] = {
	{ .f = { .ip_version = 4,
		 .sender = { 10, 0, 1, 1 },
		 .receiver = { 10, 0, 2, 1 },
		 .sender_qpn = 0x11,
		 .receiver_qpn = 0x22,
		 .pkey = 0xffff,
		 .udp_sport = 0xc001,
		 .source = PNC_FLOW_CM,
		 .learned_us = NOW - 5000000,
		 .last_seen_us = NOW - 1000000,
		 .packets = 1234 },
	  .sender_comm = 0xc0c0c0c1u,
	  .receiver_comm = 0x5e5e5e51u },
	{ .f = { .ip_version = 6,
		 .sender = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 },
		 .receiver = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 },
		 .sender_qpn = 0xabcdef,
		 .receiver_qpn = 0x123456,
		 .pkey = 0x8001,
		 .udp_sport = 0xc002,
		 .flow_label = 0xabcde,
		 .source = PNC_FLOW_PSN,
		 .learned_us = NOW - 7000000,
		 .last_seen_us = NOW - 2000000,
		 .packets = 99 } },
};
#define N_SAVED (sizeof(saved) / sizeof(saved[0]))

struct collect {
	struct pnc_flow_saved s[8];
	size_t n;
};

static void collect(const struct pnc_flow_saved *s, void *arg)
{
	struct collect *c = arg;

	assert_true(c->n < 8);
	c->s[c->n++] = *s;
}

static void restore_into(const struct pnc_flow_saved *s, void *arg)
{
	assert_int_not_equal(pnc_flow_table_restore(arg, s, NOW), PNC_FLOW_TABLE_FULL);
}

/* Table -> file -> another table: the same flows, times and IDs. */
static void test_round_trip(void **state)
{
	struct pnc_flow_table *a = pnc_flow_table_new(64, TIMEOUT);
	struct pnc_flow_table *b = pnc_flow_table_new(64, TIMEOUT);
	struct collect ca = {}, cb = {};
	uint8_t *buf;
	size_t i;

	(void)state;
	assert_int_equal(pnc_flow_table_restore(a, &saved[0], NOW), PNC_FLOW_LEARNED_CM);
	assert_int_equal(pnc_flow_table_restore(a, &saved[1], NOW), PNC_FLOW_LEARNED_PSN);
	assert_int_equal(pnc_flow_table_restore(a, &saved[1], NOW), PNC_FLOW_REFRESHED);
	pnc_flow_table_walk_saved(a, collect, &ca);
	assert_int_equal(ca.n, N_SAVED);

	buf = malloc(pnc_flows_state_size(ca.n));
	pnc_flows_state_encode(ca.s, ca.n, buf);
	assert_int_equal(pnc_flows_state_decode(buf, pnc_flows_state_size(ca.n), restore_into, b),
			 (int)N_SAVED);
	pnc_flow_table_walk_saved(b, collect, &cb);
	assert_int_equal(cb.n, N_SAVED);
	for (i = 0; i < N_SAVED; i++) {
		const struct pnc_flow *f = &saved[i].f, *got;

		got = pnc_flow_lookup(b, f->ip_version, f->sender, f->receiver, f->receiver_qpn,
				      NOW);
		assert_non_null(got);
		assert_int_equal(got->sender_qpn, f->sender_qpn);
		assert_int_equal(got->source, f->source);
		assert_int_equal(got->pkey, f->pkey);
		assert_int_equal(got->udp_sport, f->udp_sport);
		assert_int_equal(got->flow_label, f->flow_label);
		assert_int_equal(got->learned_us, f->learned_us);
		assert_int_equal(got->last_seen_us, f->last_seen_us);
		assert_int_equal(got->packets, f->packets);
	}
	/* The CM IDs come back with the CM flow (its DREQ will name them). */
	for (i = 0; i < cb.n; i++)
		if (cb.s[i].f.source == PNC_FLOW_CM) {
			assert_int_equal(cb.s[i].sender_comm, saved[0].sender_comm);
			assert_int_equal(cb.s[i].receiver_comm, saved[0].receiver_comm);
		} else {
			assert_int_equal(cb.s[i].sender_comm, 0);
		}
	free(buf);
	pnc_flow_table_free(a);
	pnc_flow_table_free(b);
}

static int calls;

static void count_call(const struct pnc_flow_saved *s, void *arg)
{
	(void)s;
	(void)arg;
	calls++;
}

/* Damaged files are refused whole: not one record is handed out. */
static void test_damaged_files(void **state)
{
	size_t len = pnc_flows_state_size(N_SAVED);
	uint8_t buf[PNC_STATE_HDR_LEN + 2 * PNC_FLOWS_STATE_REC_LEN];
	uint8_t bad[sizeof(buf)];

	(void)state;
	assert_int_equal(len, sizeof(buf));
	pnc_flows_state_encode(saved, N_SAVED, buf);
	calls = 0;

	memcpy(bad, buf, len);
	bad[PNC_STATE_HDR_LEN + 40] ^= 1; /* a receiver QPN */
	assert_int_equal(pnc_flows_state_decode(bad, len, count_call, NULL), PNC_STATE_E_CRC);
	assert_int_equal(pnc_flows_state_decode(buf, len - 1, count_call, NULL),
			 PNC_STATE_E_LENGTH);
	assert_int_equal(pnc_flows_state_decode(buf, len - PNC_FLOWS_STATE_REC_LEN, count_call,
						NULL),
			 PNC_STATE_E_LENGTH);
	assert_int_equal(pnc_flows_state_decode(buf, 10, count_call, NULL), PNC_STATE_E_SHORT);
	memcpy(bad, buf, len);
	bad[0] = 'X';
	assert_int_equal(pnc_flows_state_decode(bad, len, count_call, NULL), PNC_STATE_E_MAGIC);
	memcpy(bad, buf, len);
	bad[5] = 2;
	assert_int_equal(pnc_flows_state_decode(bad, len, count_call, NULL), PNC_STATE_E_VERSION);
	/* A count whose records would not fit in any file. */
	memcpy(bad, buf, len);
	memset(bad + 8, 0xff, 4);
	assert_int_equal(pnc_flows_state_decode(bad, len, count_call, NULL), PNC_STATE_E_LENGTH);
	assert_int_equal(calls, 0);
	/* An empty file is sound. */
	pnc_flows_state_encode(NULL, 0, buf);
	assert_int_equal(pnc_flows_state_decode(buf, PNC_STATE_HDR_LEN, count_call, NULL), 0);
	assert_string_equal(pnc_state_strerror(PNC_STATE_E_CRC), "damaged (CRC)");
}

/* Records that make no flow are skipped; times ahead of now are taken as now. */
static void test_restore_checks(void **state)
{
	struct pnc_flow_table *t = pnc_flow_table_new(1, TIMEOUT);
	struct pnc_flow_saved s = saved[0];
	const struct pnc_flow *got;

	(void)state;
	s.f.ip_version = 5;
	assert_int_equal(pnc_flow_table_restore(t, &s, NOW), PNC_FLOW_IGNORED);
	s = saved[0];
	s.f.sender_qpn = 0x1000000;
	assert_int_equal(pnc_flow_table_restore(t, &s, NOW), PNC_FLOW_IGNORED);
	s = saved[0];
	s.f.source = (enum pnc_flow_source)7;
	assert_int_equal(pnc_flow_table_restore(t, &s, NOW), PNC_FLOW_IGNORED);
	assert_int_equal(pnc_flow_table_count(t), 0);

	s = saved[0];
	s.f.learned_us = s.f.last_seen_us = NOW + 1000000;
	assert_int_equal(pnc_flow_table_restore(t, &s, NOW), PNC_FLOW_LEARNED_CM);
	got = pnc_flow_lookup(t, 4, s.f.sender, s.f.receiver, s.f.receiver_qpn, NOW);
	assert_non_null(got);
	assert_int_equal(got->learned_us, NOW);
	assert_int_equal(got->last_seen_us, NOW);
	/* One slot: the second flow does not fit. */
	assert_int_equal(pnc_flow_table_restore(t, &saved[1], NOW), PNC_FLOW_TABLE_FULL);
	pnc_flow_table_free(t);
}

static const struct pnc_tunnel_flow labels[] = {
	{ .ip_version = 4,
	  .pkey = 0xffff,
	  .sport = 0xc001,
	  .label = 0x12345,
	  .dest_qp = 0x22,
	  .src = { 10, 0, 1, 1 },
	  .dst = { 10, 0, 2, 1 } },
	{ .ip_version = 6,
	  .pkey = 0x8001,
	  .sport = 0xc002,
	  .label = 0x7fffe,
	  .dest_qp = 0xabcdef,
	  .src = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 },
	  .dst = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 } },
};

struct label_sink {
	struct pnc_tunnel_flow got[4];
	size_t n;
};

static void label_collect(const struct pnc_tunnel_flow *s, void *arg)
{
	struct label_sink *k = arg;

	if (k->n < 4)
		k->got[k->n++] = *s;
}

static void test_labels_round_trip_and_damage(void **state)
{
	uint8_t buf[PNC_STATE_HDR_LEN + 4 + 2 * PNC_FL_STATE_REC_LEN];
	uint8_t flows[PNC_STATE_HDR_LEN];
	struct label_sink k = {};
	uint32_t cursor = 0;

	(void)state;
	assert_int_equal(pnc_labels_state_size(2), sizeof(buf));
	pnc_labels_state_encode(0x5a5a5, labels, 2, buf);
	/* Layout: "PNCL", version 1, two records, the meta word in front of them. */
	assert_memory_equal(buf, "PNCL\x00\x01\x00\x00\x00\x00\x00\x02", 12);
	assert_memory_equal(buf + PNC_STATE_HDR_LEN, "\x00\x05\xa5\xa5", 4);
	assert_int_equal(pnc_labels_state_decode(buf, sizeof(buf), &cursor, label_collect, &k), 2);
	assert_int_equal(cursor, 0x5a5a5);
	assert_int_equal(k.n, 2);
	assert_memory_equal(k.got, labels, sizeof(labels));

	/* The meta word is covered by the CRC too; nothing is handed out. */
	k.n = 0;
	cursor = 7;
	buf[PNC_STATE_HDR_LEN + 3] ^= 1;
	assert_int_equal(pnc_labels_state_decode(buf, sizeof(buf), &cursor, label_collect, &k),
			 PNC_STATE_E_CRC);
	assert_int_equal(k.n, 0);
	assert_int_equal(cursor, 7);
	buf[PNC_STATE_HDR_LEN + 3] ^= 1;
	assert_int_equal(pnc_labels_state_decode(buf, sizeof(buf) - 1, &cursor, label_collect, &k),
			 PNC_STATE_E_LENGTH);
	/* A header without its meta word is cut short. */
	assert_int_equal(pnc_labels_state_decode(buf, PNC_STATE_HDR_LEN, &cursor, label_collect,
						 &k),
			 PNC_STATE_E_LENGTH);

	/* A flows file is not a label file. */
	pnc_flows_state_encode(NULL, 0, flows);
	assert_int_equal(pnc_labels_state_decode(flows, sizeof(flows), &cursor, label_collect, &k),
			 PNC_STATE_E_MAGIC);
	assert_int_equal(k.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_damaged_files),
		cmocka_unit_test(test_restore_checks),
		cmocka_unit_test(test_labels_round_trip_and_damage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
