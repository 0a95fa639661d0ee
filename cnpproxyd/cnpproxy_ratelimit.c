// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Token bucket.
 */
#include "cnpproxy_ratelimit.h"

void pnc_bucket_init(struct pnc_bucket *b, uint64_t rate, uint64_t burst, uint64_t now_us)
{
	b->rate = rate;
	b->burst = burst ? burst : 1;
	b->micro = b->burst * 1000000u; /* start full */
	b->last_us = now_us;
}

bool pnc_bucket_take(struct pnc_bucket *b, uint64_t now_us)
{
	uint64_t cap = b->burst * 1000000u;

	if (now_us > b->last_us) {
		uint64_t add = (now_us - b->last_us) * b->rate;

		b->micro = (add >= cap - b->micro) ? cap : b->micro + add;
		b->last_us = now_us;
	}
	if (b->micro < 1000000u)
		return false;
	b->micro -= 1000000u;
	return true;
}
