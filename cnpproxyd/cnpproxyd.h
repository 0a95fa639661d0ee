// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd: congestion notification proxy daemon, global state.
 */
#ifndef _CNPPROXYD_H
#define _CNPPROXYD_H

#include "lib/privs.h"
#include "lib/frrevent.h"
#include "lib/memory.h"

#include "cnpproxy_config.h"

struct cnpproxy_globals {
	/* Configuration as applied by the northbound. */
	struct cnp_config cfg;
};

DECLARE_MGROUP(CNPPROXYD);

extern struct cnpproxy_globals cnp_g;
extern struct zebra_privs_t cnpproxy_privs;
extern struct event_loop *master;

#endif /* _CNPPROXYD_H */
