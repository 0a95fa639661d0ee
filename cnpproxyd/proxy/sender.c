// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd proxy role: sender formats and the level policy.
 */
#include <string.h>

#include "codec/lhcnp.h"

#include "proxy/sender.h"

void pnc_level_policy_init(struct pnc_level_policy *p)
{
	memset(p, 0, sizeof(*p));
	p->severe_level = 4;
	p->light_cnp_pacing = 1;
	p->lh_light_action = PNC_LH_LIGHT_NOTIFY;
	p->lh_light_reduce = 20;
	p->lh_severe_reduce = 30;
	p->lh_reduce_step = 10;
	p->lh_resume_share = 50;
	p->ra_max_rate = 100000;
}

static bool prefix_holds(const struct pnc_sender *s, const uint8_t *addr)
{
	unsigned int full = s->plen / 8, rest = s->plen % 8;

	if (memcmp(s->prefix, addr, full))
		return false;
	return !rest || !((s->prefix[full] ^ addr[full]) & (uint8_t)(0xff << (8 - rest)));
}

const struct pnc_sender *pnc_sender_of(const struct pnc_sender *senders, unsigned int n,
				       uint8_t family, const uint8_t *addr)
{
	static const struct pnc_sender none = { .format = PNC_FMT_ROCEV2_CNP };
	const struct pnc_sender *best = NULL;

	/* A handful of configured prefixes: a scan is cheaper than a trie. */
	for (unsigned int i = 0; i < n; i++) {
		const struct pnc_sender *s = &senders[i];

		if (s->family != family || !prefix_holds(s, addr))
			continue;
		if (!best || s->plen > best->plen)
			best = s;
	}
	return best ? best : &none;
}

enum pnc_sender_format pnc_sender_format_of(const struct pnc_sender *senders, unsigned int n,
					    uint8_t family, const uint8_t *addr)
{
	return pnc_sender_of(senders, n, family, addr)->format;
}

void pnc_resume_for(const struct pnc_level_policy *p, enum pnc_sender_format fmt,
		    struct pnc_reaction *r)
{
	memset(r, 0, sizeof(*r));
	switch (fmt) {
	case PNC_FMT_LONG_HAUL_ICMPV6:
	case PNC_FMT_LONG_HAUL_ROCEV2:
		r->send = true;
		r->lh_action = PNC_LH_RESUME;
		r->lh_parameter = p->lh_resume_share;
		break;
	case PNC_FMT_RATE_ADVICE:
		r->send = true;
		r->ra_rate = p->ra_max_rate ? p->ra_max_rate : 1;
		break;
	case PNC_FMT_ROCEV2_CNP:
	case PNC_FMT_MAX:
		break;
	}
}

/* Each level above severe_level asks a stricter cut (seed 000 5.7). */
static uint16_t severe_cut(const struct pnc_level_policy *p, uint8_t cl)
{
	unsigned int pct = p->lh_severe_reduce + (cl - p->severe_level) * p->lh_reduce_step;

	return pct > 100 ? 100 : (uint16_t)pct;
}

void pnc_reaction_for(const struct pnc_level_policy *p, enum pnc_sender_format fmt, uint8_t cl,
		      struct pnc_reaction *r)
{
	if (cl > 7)
		cl = 7;
	memset(r, 0, sizeof(*r));
	r->severe = cl >= p->severe_level;
	r->send = true;
	r->interval_factor = 1;
	r->lh_level = pnc_lh_level_from_cl(cl);
	/* Seed 003 3.2.2.1: the end host is kept unaware of light congestion. */
	if (!r->severe && !p->light_to_sender) {
		r->send = false;
		return;
	}

	switch (fmt) {
	case PNC_FMT_ROCEV2_CNP:
		if (!r->severe) {
			r->send = p->light_cnp_pacing != 0;
			r->interval_factor = p->light_cnp_pacing;
		}
		break;
	case PNC_FMT_LONG_HAUL_ICMPV6:
	case PNC_FMT_LONG_HAUL_ROCEV2:
		if (r->severe && cl == 7 && p->lh_pause_us) {
			r->lh_action = PNC_LH_PAUSE;
			r->lh_parameter = p->lh_pause_us;
		} else if (r->severe) {
			r->lh_action = PNC_LH_RATE_REDUCE;
			r->lh_parameter = severe_cut(p, cl);
		} else if (p->lh_light_action == PNC_LH_LIGHT_RATE_REDUCE) {
			r->lh_action = PNC_LH_RATE_REDUCE;
			r->lh_parameter = p->lh_light_reduce;
		} else {
			r->lh_action = PNC_LH_NOTIFY;
		}
		break;
	case PNC_FMT_RATE_ADVICE:
		r->ra_rate = (uint32_t)((uint64_t)p->ra_max_rate * (8u - cl) / 8u);
		if (!r->ra_rate)
			r->ra_rate = 1;
		break;
	case PNC_FMT_MAX:
		r->send = false;
		break;
	}
}

void pnc_reaction_at_depth(struct pnc_reaction *r, uint8_t depth_level)
{
	if (r->lh_action == PNC_LH_RESUME || depth_level > r->lh_level)
		r->lh_level = depth_level;
}
