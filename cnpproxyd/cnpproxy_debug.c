// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd debugging flags.  lib/debug.c writes enabled flags to the
 * running configuration from the .conf strings.
 */
#include <zebra.h>

#include "cnpproxy_debug.h"

/* clang-format off */
struct debug cnpproxy_dbg_zebra = {0, "debug cnpproxy zebra", "cnpproxyd zebra session events"};
struct debug cnpproxy_dbg_nb = {0, "debug cnpproxy northbound", "cnpproxyd configuration changes"};
struct debug cnpproxy_dbg_proxy = {0, "debug cnpproxy proxy", "cnpproxyd proxy role: notifications and CNPs"};
struct debug cnpproxy_dbg_cp = {0, "debug cnpproxy congestion", "cnpproxyd congestion point: queue states and notifications"};
/* clang-format on */

void cnpproxy_debug_init(void)
{
	debug_install(&cnpproxy_dbg_zebra);
	debug_install(&cnpproxy_dbg_nb);
	debug_install(&cnpproxy_dbg_proxy);
	debug_install(&cnpproxy_dbg_cp);
}
