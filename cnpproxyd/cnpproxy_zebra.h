// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd ZAPI client.
 */
#ifndef _CNPPROXY_ZEBRA_H
#define _CNPPROXY_ZEBRA_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

struct cnpproxy_zebra_state {
	bool up;	      /* session to zebra established */
	time_t last_change;   /* wall clock of the last up/down change */
	uint32_t connects;    /* sessions established since start */
	uint32_t disconnects; /* sessions lost since start */
};

extern void cnpproxy_zebra_init(void);
extern void cnpproxy_zebra_fini(void);
/* Current session state; samples the socket, so it is never stale. */
extern const struct cnpproxy_zebra_state *cnpproxy_zebra_state(void);

#endif /* _CNPPROXY_ZEBRA_H */
