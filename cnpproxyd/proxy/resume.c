// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd proxy role: Resume through the proxy (proxy/resume.h).
 */
#include <zebra.h>

#include "lib/frrevent.h"

#include "cnpproxyd.h"
#include "cnpproxy_fp.h"
#include "proxy/resume.h"

struct pn_cut {
	struct cnpproxy_resume_flow_ref ref;
	uint64_t last_us;
};

/* The table is written under cnpproxy_fp_mtx, from either thread. */
static struct {
	uint32_t quiet_us;   /* 0: off */
	cnpproxy_resume_fn resume; /* the proxy's: sends one Resume */
	struct pn_cut cut[CNPPROXY_RESUME_MAX];
	unsigned int n;
	struct event *t_check;
} rs;

static void check(struct event *t);

static void arm(void)
{
	/* A quarter of the quiet time late at most. */
	event_add_timer_msec(master, check, NULL, MAX(rs.quiet_us / 4000u, 1u), &rs.t_check);
}

void cnpproxy_resume_note(const struct cnpproxy_resume_flow_ref *ref, uint64_t now_us)
{
	unsigned int i;

	if (!rs.quiet_us)
		return;
	for (i = 0; i < rs.n; i++)
		if (!memcmp(&rs.cut[i].ref, ref, sizeof(*ref)))
			break;
	if (i == rs.n) {
		if (rs.n == CNPPROXY_RESUME_MAX)
			return; /* the sender's own recovery timer takes over */
		rs.cut[rs.n++].ref = *ref;
	}
	rs.cut[i].last_us = now_us;
	/* The main thread arms the timer; posting is safe from the fast path. */
	if (!rs.t_check)
		event_add_event(master, check, NULL, 0, &rs.t_check);
}

static void check(struct event *t)
{
	struct cnpproxy_resume_flow_ref due[CNPPROXY_RESUME_MAX];
	unsigned int n_due = 0, pending;
	uint64_t now = cnpproxy_now_us();

	/* Taken out under the mutex, sent without it: the send takes it. */
	frr_with_mutex (&cnpproxy_fp_mtx) {
		for (unsigned int i = 0; i < rs.n;) {
			if (now - rs.cut[i].last_us < rs.quiet_us) {
				i++;
				continue;
			}
			due[n_due++] = rs.cut[i].ref;
			rs.cut[i] = rs.cut[--rs.n];
		}
		pending = rs.n;
	}
	for (unsigned int i = 0; i < n_due; i++)
		rs.resume(&due[i]);
	if (pending && rs.quiet_us)
		arm();
}

void cnpproxy_resume_apply(uint32_t quiet_us, cnpproxy_resume_fn resume)
{
	rs.resume = resume;
	if (quiet_us == rs.quiet_us)
		return;
	frr_with_mutex (&cnpproxy_fp_mtx) {
		rs.quiet_us = quiet_us;
		if (!quiet_us)
			rs.n = 0;
	}
	if (!quiet_us)
		event_cancel(&rs.t_check);
}

void cnpproxy_resume_fini(void)
{
	cnpproxy_resume_apply(0, NULL);
}
