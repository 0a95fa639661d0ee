// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Collaborative suppression between congestion points: the machine of
 * cnpproxyd/cp/collab.c, reading by reading.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "cp/collab.h"

#define RTT  10000   /* us */
#define POLL 1000    /* us between readings */
#define FAST 2500000 /* octets/s arriving: 20 Mb/s */
#define FALL 10	     /* percent */

struct run {
	struct pnc_cp_collab c;
	uint64_t now;
	unsigned int deferred, escalated;
};

static enum pnc_cp_collab_event reading(struct run *r, uint64_t rate, uint64_t backlog, bool onset,
					bool resume)
{
	struct pnc_cp_collab_input in = {
		.now_us = r->now,
		.onset = onset,
		.resume = resume,
		.have_rate = true,
		.arrival_Bps = rate,
		.backlog = backlog,
		.rtt_us = RTT,
		.fall_percent = FALL,
	};
	enum pnc_cp_collab_event ev = pnc_cp_collab_step(&r->c, &in);

	r->deferred += ev == PNC_CP_COLLAB_EV_DEFERRED;
	r->escalated += ev == PNC_CP_COLLAB_EV_ESCALATED;
	r->now += POLL;
	return ev;
}

/* Steady arrivals before the episode, then its onset. */
static void start(struct run *r)
{
	pnc_cp_collab_init(&r->c);
	r->now = 1000000;
	r->deferred = r->escalated = 0;
	for (int i = 0; i < 20; i++)
		reading(r, FAST, 0, false, false);
	assert_int_equal(r->c.state, PNC_CP_COLLAB_IDLE);
	assert_true(pnc_cp_collab_notify_ok(&r->c));
	reading(r, FAST, 20000, true, false);
	assert_int_equal(r->c.state, PNC_CP_COLLAB_WATCH);
	/* Watching: this node's notifications wait. */
	assert_false(pnc_cp_collab_notify_ok(&r->c));
}

static void test_alone_notifies_after_rtt(void **state)
{
	struct run r;

	(void)state;
	start(&r);
	/* Nobody upstream: the rate holds, and after RTT_est it notifies. */
	for (int i = 0; i < RTT / POLL - 1; i++) {
		reading(&r, FAST, 20000 + i * 1000, false, false);
		assert_int_equal(r.c.state, PNC_CP_COLLAB_WATCH);
	}
	reading(&r, FAST, 40000, false, false);
	assert_int_equal(r.c.state, PNC_CP_COLLAB_NOTIFY);
	assert_true(pnc_cp_collab_notify_ok(&r.c));
	assert_int_equal(pnc_cp_collab_level_boost(&r.c), 0);
	assert_int_equal(r.deferred + r.escalated, 0);
	/* Small wobbles do not count as someone else's action. */
	reading(&r, FAST * 95 / 100, 40000, false, false);
	assert_int_equal(r.c.state, PNC_CP_COLLAB_NOTIFY);
	/* The episode ends; the next starts watching again. */
	reading(&r, FAST, 0, false, true);
	assert_int_equal(r.c.state, PNC_CP_COLLAB_IDLE);
	reading(&r, FAST, 20000, true, false);
	assert_int_equal(r.c.state, PNC_CP_COLLAB_WATCH);
}

static void test_upstream_acted_defers_then_drains(void **state)
{
	struct run r;
	int i;

	(void)state;
	start(&r);
	/* The senders slow within RTT_est: defer once the smoothed rate shows it. */
	for (i = 0; i < RTT / POLL && r.c.state == PNC_CP_COLLAB_WATCH; i++)
		reading(&r, FAST / 2, 20000, false, false);
	assert_int_equal(r.c.state, PNC_CP_COLLAB_DEFER);
	assert_int_equal(r.deferred, 1);
	assert_false(pnc_cp_collab_notify_ok(&r.c));
	/* A gain of 1/4: 50 % falls below 90 % after a single reading. */
	assert_int_equal(i, 1);
	/* Draining: it keeps deferring, well past RTT_est, and never escalates. */
	for (i = 0; i < 5 * RTT / POLL; i++)
		reading(&r, FAST / 2, 20000 - i * 50, false, false);
	assert_int_equal(r.c.state, PNC_CP_COLLAB_DEFER);
	assert_int_equal(r.escalated, 0);
	reading(&r, FAST / 2, 0, false, true);
	assert_int_equal(r.c.state, PNC_CP_COLLAB_IDLE);
	assert_true(pnc_cp_collab_notify_ok(&r.c));
}

static void test_deferred_but_growing_escalates(void **state)
{
	struct run r;
	uint64_t backlog = 20000;

	(void)state;
	start(&r);
	reading(&r, FAST / 2, backlog, false, false);
	assert_int_equal(r.c.state, PNC_CP_COLLAB_DEFER);
	/* Not enough upstream: the queue still grows; RTT_est later, escalate. */
	for (int i = 0; i < RTT / POLL - 1; i++) {
		backlog += 500;
		reading(&r, FAST / 2, backlog, false, false);
		assert_int_equal(r.c.state, PNC_CP_COLLAB_DEFER);
	}
	reading(&r, FAST / 2, backlog + 500, false, false);
	assert_int_equal(r.c.state, PNC_CP_COLLAB_ESCALATE);
	assert_int_equal(r.escalated, 1);
	assert_true(pnc_cp_collab_notify_ok(&r.c));
	assert_int_equal(pnc_cp_collab_level_boost(&r.c), 1);
	/* Escalated stays so until the episode ends; counted once. */
	for (int i = 0; i < 30; i++)
		reading(&r, FAST / 2, backlog, false, false);
	assert_int_equal(r.c.state, PNC_CP_COLLAB_ESCALATE);
	assert_int_equal(r.escalated, 1);
}

static void test_no_rate_never_defers(void **state)
{
	struct pnc_cp_collab c;
	struct pnc_cp_collab_input in = {
		.now_us = 1000,
		.onset = true,
		.backlog = 20000,
		.rtt_us = RTT,
		.fall_percent = FALL,
	};

	(void)state;
	/* No rate measured before the onset: nothing to compare; notify at once. */
	pnc_cp_collab_init(&c);
	assert_int_equal(pnc_cp_collab_step(&c, &in), PNC_CP_COLLAB_EV_NONE);
	in.onset = false;
	in.now_us += POLL;
	in.have_rate = true;
	in.arrival_Bps = 1;
	assert_int_equal(pnc_cp_collab_step(&c, &in), PNC_CP_COLLAB_EV_NONE);
	assert_int_equal(c.state, PNC_CP_COLLAB_NOTIFY);
	assert_true(pnc_cp_collab_notify_ok(&c));
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(pnc_cp_collab_state_name(PNC_CP_COLLAB_DEFER), "deferring");
	assert_string_equal(pnc_cp_collab_state_name(PNC_CP_COLLAB_ESCALATE), "escalated");
	assert_string_equal(pnc_cp_collab_state_name(PNC_CP_COLLAB_MAX), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alone_notifies_after_rtt),
		cmocka_unit_test(test_upstream_acted_defers_then_drains),
		cmocka_unit_test(test_deferred_but_growing_escalates),
		cmocka_unit_test(test_no_rate_never_defers),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
