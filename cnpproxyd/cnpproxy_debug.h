// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd debugging flags.
 */
#ifndef _CNPPROXY_DEBUG_H
#define _CNPPROXY_DEBUG_H

#include "lib/debug.h"

extern struct debug cnpproxy_dbg_zebra;
extern struct debug cnpproxy_dbg_nb;
extern struct debug cnpproxy_dbg_proxy;
extern struct debug cnpproxy_dbg_cp;

extern void cnpproxy_debug_init(void);

#endif /* _CNPPROXY_DEBUG_H */
