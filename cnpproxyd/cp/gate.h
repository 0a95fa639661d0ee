// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-flow minimum interval between notifications, in bounded memory.
 *
 * A direct-mapped cache of (key hash, last time): a flow whose slot was
 * taken over by another flow may be notified early, never late, which
 * is the safe side for a rate limit that only spares the proxy work.
 * Pure: the caller passes the time.
 */
#ifndef _CNPPROXY_CP_GATE_H
#define _CNPPROXY_CP_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pnc_cp_gate_slot {
	uint64_t hash; /* 0: empty */
	uint64_t last_us;
};

struct pnc_cp_gate {
	struct pnc_cp_gate_slot *slots;
	size_t mask; /* slots - 1; a power of two */
};

/* slots: storage for n entries, n a power of two. */
extern void pnc_cp_gate_init(struct pnc_cp_gate *g, struct pnc_cp_gate_slot *slots, size_t n);
extern void pnc_cp_gate_clear(struct pnc_cp_gate *g);

/*
 * Whether the flow named by key may be notified at now_us; if so, its
 * time is recorded.  interval_us 0 lets everything through.
 */
extern bool pnc_cp_gate_pass(struct pnc_cp_gate *g, const void *key, size_t keylen,
			     uint64_t now_us, uint32_t interval_us);

/*
 * Seed 000 5.5: notify the flows contributing most to the queue.  Each
 * sample says how many octets its flow put through the queue since its
 * last one; the largest such figure of the last one or two windows is
 * the reference, and a flow is selected when it brought at least
 * min_percent of it.  A flow's first sample (0 octets: not known yet)
 * is always selected, and min_percent 0 selects every flow.
 */
struct pnc_cp_share {
	uint64_t window_start_us;
	uint32_t max_cur, max_prev; /* largest figure of this window and the last */
};

extern bool pnc_cp_share_select(struct pnc_cp_share *s, uint32_t flow_bytes, uint64_t now_us,
				uint32_t window_us, uint8_t min_percent);

#endif /* _CNPPROXY_CP_GATE_H */
