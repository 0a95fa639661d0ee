// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the queue monitor's rtnetlink parsers
 * (cnpproxyd/cp/qmon.c): the input is a datagram of a qdisc or class
 * dump; each of its whole messages (walked with bpfutil/nlmsg.c, as the
 * reader does) goes to pnc_qmon_parse_id(), pnc_qmon_parse_qdisc() and
 * pnc_qmon_parse_class(), and consecutive qdisc samples, stamped with
 * their messages' sequence numbers as times, to pnc_qmon_derive().  The
 * first octets of the input, taken as two samples, go to
 * pnc_qmon_derive() too.  Properties:
 *  - every error is a documented one (pnc_qmon_strerror() knows it) and
 *    leaves the output alone;
 *  - a message parses the same alone in a buffer of its own length as
 *    followed by the rest of the datagram;
 *  - parsed values are consistent: the message type, the kind a short
 *    string, a rate only for tbf (qdisc) or htb (class), in whole bytes;
 *  - derive: no time or another queue is refused with every rate 0;
 *    else the deltas are the counters' (modulo 2^32 when wrapped), and
 *    each rate is the exact quotient of its delta and the time, or
 *    saturated (checked by multiplying back).
 * Seeds (corpus/qmon_nl/): made by gen_corpus_tools.c (make
 * fuzz-corpus): the messages the kernel sends for tbf, htb (qdisc and
 * classes), fq_codel, noqueue and clsact, in dumps with NLMSG_DONE.
 */
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bpfutil/nlmsg.h"
#include "cp/qmon.h"
#include "fuzz_check.h"

typedef unsigned __int128 u128;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_err(int rv)
{
	FUZZ_CHECK(rv == 0 || (rv < PNC_QMON_E_BASE && rv >= PNC_QMON_E_LAST));
	FUZZ_CHECK(strcmp(pnc_qmon_strerror(rv), "unknown") != 0);
}

static void check_kind(const char kind[PNC_QMON_KIND_LEN])
{
	size_t n = strnlen(kind, PNC_QMON_KIND_LEN);

	FUZZ_CHECK(n > 0 && n < PNC_QMON_KIND_LEN);
}

/* A rate read in bytes/s and given in bits/s: a multiple of 8, or saturated. */
static void check_bps(uint64_t bps)
{
	FUZZ_CHECK(bps % 8 == 0 || bps == UINT64_MAX);
}

/* Every parser on one message: their results in rv, *s and *c. */
static void parse_all(const void *msg, size_t len, struct pnc_qmon_sample *s,
		      struct pnc_qmon_class *c, int rv[3])
{
	struct pnc_qmon_sample s0;
	struct pnc_qmon_class c0;
	struct pnc_qmon_id id;
	uint16_t type = 0;

	/* Errors leave the output as it was. */
	memset(s, 0xa5, sizeof(*s));
	memset(c, 0xa5, sizeof(*c));
	memcpy(&s0, s, sizeof(s0));
	memcpy(&c0, c, sizeof(c0));
	rv[0] = pnc_qmon_parse_id(msg, len, &type, &id);
	rv[1] = pnc_qmon_parse_qdisc(msg, len, s);
	rv[2] = pnc_qmon_parse_class(msg, len, c);
	for (int i = 0; i < 3; i++)
		check_err(rv[i]);
	if (!rv[0])
		FUZZ_CHECK(type == RTM_NEWQDISC || type == RTM_NEWTCLASS);
	if (rv[1]) {
		FUZZ_CHECK(!memcmp(s, &s0, sizeof(s0)));
	} else {
		FUZZ_CHECK(!rv[0] && type == RTM_NEWQDISC && s->ifindex == id.ifindex);
		check_kind(s->kind);
		check_bps(s->rate_bps);
		FUZZ_CHECK(s->ts_us == 0);
		FUZZ_CHECK(!s->rate_bps || !strcmp(s->kind, "tbf"));
	}
	if (rv[2]) {
		FUZZ_CHECK(!memcmp(c, &c0, sizeof(c0)));
	} else {
		FUZZ_CHECK(!rv[0] && type == RTM_NEWTCLASS);
		FUZZ_CHECK(c->id.ifindex == id.ifindex && c->id.handle == id.handle &&
			   c->id.parent == id.parent);
		check_kind(c->kind);
		check_bps(c->rate_bps);
		check_bps(c->ceil_bps);
		FUZZ_CHECK((!c->rate_bps && !c->ceil_bps) || !strcmp(c->kind, "htb"));
	}
}

/* Field by field: the structs' padding is nobody's. */
static bool same_sample(const struct pnc_qmon_sample *a, const struct pnc_qmon_sample *b)
{
	return a->ifindex == b->ifindex && !memcmp(a->kind, b->kind, sizeof(a->kind)) &&
	       a->bytes == b->bytes && a->packets == b->packets && a->drops == b->drops &&
	       a->overlimits == b->overlimits && a->requeues == b->requeues &&
	       a->backlog_bytes == b->backlog_bytes && a->backlog_pkts == b->backlog_pkts &&
	       a->rate_bps == b->rate_bps && a->ts_us == b->ts_us;
}

static bool same_class(const struct pnc_qmon_class *a, const struct pnc_qmon_class *b)
{
	return a->id.ifindex == b->id.ifindex && a->id.handle == b->id.handle &&
	       a->id.parent == b->id.parent && !memcmp(a->kind, b->kind, sizeof(a->kind)) &&
	       a->rate_bps == b->rate_bps && a->ceil_bps == b->ceil_bps;
}

/* A message alone in a buffer of its length parses as it did in the datagram. */
static void parse_alone(const struct nlmsghdr *nh, const struct pnc_qmon_sample *s,
			const struct pnc_qmon_class *c, const int rv[3])
{
	struct pnc_qmon_sample s1;
	struct pnc_qmon_class c1;
	int rv1[3];
	void *copy = malloc(nh->nlmsg_len);

	FUZZ_CHECK(copy);
	memcpy(copy, nh, nh->nlmsg_len);
	parse_all(copy, nh->nlmsg_len, &s1, &c1, rv1);
	FUZZ_CHECK(!memcmp(rv, rv1, sizeof(rv1)));
	FUZZ_CHECK(same_sample(s, &s1) && same_class(c, &c1));
	free(copy);
}

/* q = n per dt_us as n per second: q * dt <= n * 10^6 < (q + 1) * dt, or saturated. */
static void check_per_s(uint64_t q, uint64_t n, uint64_t dt_us)
{
	u128 num = (u128)n * 1000000u;

	if (q == UINT64_MAX)
		FUZZ_CHECK(num / dt_us >= UINT64_MAX);
	else
		FUZZ_CHECK((u128)q * dt_us <= num && num < ((u128)q + 1) * dt_us);
}

static void check_derive(const struct pnc_qmon_sample *a, const struct pnc_qmon_sample *b)
{
	struct pnc_qmon_rates r;
	uint64_t dt = b->ts_us > a->ts_us ? b->ts_us - a->ts_us : 0;
	int64_t d_backlog = (int64_t)b->backlog_bytes - (int64_t)a->backlog_bytes;
	u128 v;
	int rv;

	memset(&r, 0xa5, sizeof(r));
	rv = pnc_qmon_derive(a, b, &r);
	check_err(rv);
	if (a->ifindex != b->ifindex || strncmp(a->kind, b->kind, PNC_QMON_KIND_LEN)) {
		FUZZ_CHECK(rv == PNC_QMON_E_MISMATCH);
	} else if (!dt) {
		FUZZ_CHECK(rv == PNC_QMON_E_DT_ZERO);
	} else {
		FUZZ_CHECK(rv == 0);
	}
	FUZZ_CHECK(r.dt_us == dt);
	if (rv) {
		FUZZ_CHECK(!r.valid && !r.d_bytes && !r.d_packets && !r.d_drops && !r.d_overlimits);
		FUZZ_CHECK(!r.tx_bps && !r.tx_pps && !r.growth_Bps && !r.drop_pps &&
			   !r.overlimit_ps && !r.qdelay_us && !r.util_permille);
		return;
	}
	FUZZ_CHECK(r.valid);
	/* Deltas: the counters' difference, modulo 2^32 at least. */
	FUZZ_CHECK((uint32_t)r.d_bytes == (uint32_t)(b->bytes - a->bytes));
	FUZZ_CHECK((uint32_t)r.d_packets == (uint32_t)(b->packets - a->packets));
	if (b->bytes >= a->bytes)
		FUZZ_CHECK(r.d_bytes == b->bytes - a->bytes);
	if (b->packets >= a->packets)
		FUZZ_CHECK(r.d_packets == b->packets - a->packets);
	FUZZ_CHECK(r.d_drops == (uint32_t)(b->drops - a->drops));
	FUZZ_CHECK(r.d_overlimits == (uint32_t)(b->overlimits - a->overlimits));
	check_per_s(r.tx_bps, r.d_bytes > UINT64_MAX / 8 ? UINT64_MAX : r.d_bytes * 8, dt);
	check_per_s(r.tx_pps, r.d_packets, dt);
	check_per_s(r.drop_pps, r.d_drops, dt);
	check_per_s(r.overlimit_ps, r.d_overlimits, dt);
	/* Growth: the backlog's change per second, rounded toward 0. */
	FUZZ_CHECK((r.growth_Bps < 0) == (d_backlog < 0) || r.growth_Bps == 0);
	check_per_s((uint64_t)(r.growth_Bps < 0 ? -r.growth_Bps : r.growth_Bps),
		    (uint64_t)(d_backlog < 0 ? -d_backlog : d_backlog), dt);
	if (!b->rate_bps) {
		FUZZ_CHECK(!r.qdelay_us && !r.util_permille);
		return;
	}
	/* Time to drain the backlog at the rate, and the rate's share used. */
	v = (u128)b->backlog_bytes * 8 * 1000000u;
	FUZZ_CHECK((u128)r.qdelay_us * b->rate_bps <= v &&
		   v < ((u128)r.qdelay_us + 1) * b->rate_bps);
	v = (u128)r.tx_bps * 1000u;
	if (r.util_permille != UINT32_MAX)
		FUZZ_CHECK((u128)r.util_permille * b->rate_bps <= v &&
			   v < ((u128)r.util_permille + 1) * b->rate_bps);
	else
		FUZZ_CHECK(v / b->rate_bps >= UINT32_MAX);
}

/* The first octets as two samples, whatever they hold. */
static void derive_raw(const uint8_t *data, size_t size)
{
	struct pnc_qmon_sample s[2];

	if (size < sizeof(s))
		return;
	memcpy(s, data, sizeof(s));
	for (int i = 0; i < 2; i++)
		s[i].kind[PNC_QMON_KIND_LEN - 1] = '\0';
	check_derive(&s[0], &s[1]);
	check_derive(&s[1], &s[0]);
	check_derive(&s[0], &s[0]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pnc_qmon_sample s, prev;
	struct pnc_qmon_class c;
	const struct nlmsghdr *nh;
	bool have_prev = false;
	size_t left;
	int rv[3];

	/* Straight from the octets: a message cut short is refused. */
	parse_all(data, size, &s, &c, rv);
	for (nh = pnc_nlmsg_first(data, size, &left); nh; nh = pnc_nlmsg_next(nh, &left)) {
		parse_all(nh, left, &s, &c, rv);
		parse_alone(nh, &s, &c, rv);
		if (rv[1])
			continue;
		/* As the reader stamps them, in the order they came. */
		s.ts_us = nh->nlmsg_seq;
		if (have_prev)
			check_derive(&prev, &s);
		check_derive(&s, &s);
		prev = s;
		have_prev = true;
	}
	derive_raw(data, size);
	return 0;
}
