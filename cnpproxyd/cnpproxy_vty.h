// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd operational commands (show, debug).
 */
#ifndef _CNPPROXY_VTY_H
#define _CNPPROXY_VTY_H

extern void cnpproxy_vty_init(void);
/* show cnpproxy congestion (cp/vty.c) */
extern void cnpproxy_cp_vty_init(void);

#endif /* _CNPPROXY_VTY_H */
