// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-flow notification interval (see cp/gate.h).
 */
#include <string.h>

#include "cp/gate.h"

/* FNV-1a; never 0, which marks an empty slot. */
static uint64_t key_hash(const void *key, size_t len)
{
	const uint8_t *p = key;
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h ? h : 1;
}

void pnc_cp_gate_init(struct pnc_cp_gate *g, struct pnc_cp_gate_slot *slots, size_t n)
{
	g->slots = slots;
	g->mask = n - 1;
	pnc_cp_gate_clear(g);
}

void pnc_cp_gate_clear(struct pnc_cp_gate *g)
{
	memset(g->slots, 0, (g->mask + 1) * sizeof(*g->slots));
}

bool pnc_cp_gate_pass(struct pnc_cp_gate *g, const void *key, size_t keylen, uint64_t now_us,
		      uint32_t interval_us)
{
	uint64_t h = key_hash(key, keylen);
	struct pnc_cp_gate_slot *s = &g->slots[(h ^ (h >> 32)) & g->mask];

	if (s->hash == h && now_us - s->last_us < interval_us)
		return false;
	s->hash = h;
	s->last_us = now_us;
	return true;
}

bool pnc_cp_share_select(struct pnc_cp_share *s, uint32_t flow_bytes, uint64_t now_us,
			 uint32_t window_us, uint8_t min_percent)
{
	uint64_t ref;

	if (now_us - s->window_start_us >= window_us) {
		/* A quiet window in between: the old maximum says nothing now. */
		s->max_prev = now_us - s->window_start_us >= 2ull * window_us ? 0 : s->max_cur;
		s->max_cur = 0;
		s->window_start_us = now_us;
	}
	if (flow_bytes > s->max_cur)
		s->max_cur = flow_bytes;
	if (!min_percent || !flow_bytes)
		return true;
	ref = s->max_cur > s->max_prev ? s->max_cur : s->max_prev;
	return (uint64_t)flow_bytes * 100u >= ref * min_percent;
}
