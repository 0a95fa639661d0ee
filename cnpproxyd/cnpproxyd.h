// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd: congestion notification proxy daemon, global state.
 */
#ifndef _CNPPROXYD_H
#define _CNPPROXYD_H

#include <stdint.h>
#include <time.h>

#include "lib/privs.h"
#include "lib/frrevent.h"
#include "lib/memory.h"

#include "cnpproxy_config.h"

struct cnpproxy_globals {
	/* Configuration as applied by the northbound. */
	struct pnc_config cfg;
};

DECLARE_MGROUP(CNPPROXYD);

extern struct cnpproxy_globals cnpproxy_g;
extern struct zebra_privs_t cnpproxy_privs;
extern struct event_loop *master;

/* CLOCK_MONOTONIC in microseconds: the time base of both roles. */
static inline uint64_t cnpproxy_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

#endif /* _CNPPROXYD_H */
