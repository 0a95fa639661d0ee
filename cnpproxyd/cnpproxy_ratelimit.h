// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Token bucket for notification rate limits: `rate` tokens per second,
 * at most `burst` saved.  Pure: the caller passes the time.
 */
#ifndef _CNPPROXY_RATELIMIT_H
#define _CNPPROXY_RATELIMIT_H

#include <stdbool.h>
#include <stdint.h>

struct pnc_bucket {
	uint64_t rate;	/* tokens per second */
	uint64_t burst; /* bucket size, in tokens */
	uint64_t micro; /* tokens * 1e6, so that refills need no division */
	uint64_t last_us;
};

extern void pnc_bucket_init(struct pnc_bucket *b, uint64_t rate, uint64_t burst, uint64_t now_us);
/* Take one token if there is one. */
extern bool pnc_bucket_take(struct pnc_bucket *b, uint64_t now_us);

#endif /* _CNPPROXY_RATELIMIT_H */
