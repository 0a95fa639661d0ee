// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd proxy role: the accept-from prefix-list, compiled into
 * longest-match tables of host addresses, for the two places that judge
 * a notification's source away from the main thread's prefix-lists: the
 * XDP guard's map (proxy/xdp/guard.c) and the fast-path thread.
 */
#ifndef _CNPPROXY_PROXY_ACCEPT_H
#define _CNPPROXY_PROXY_ACCEPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/zebra.h"

#include "proxy/plist_lpm.h"

/*
 * The list `name` of one family as it judges host addresses; a missing
 * list gives no entry (every address refused), an existing list
 * without entries one that permits all.  Free with
 * cnpproxy_accept_rules_free().
 */
extern size_t cnpproxy_accept_rules(afi_t afi, const char *name, struct cnpproxy_lpm_rule **out);
extern void cnpproxy_accept_rules_free(struct cnpproxy_lpm_rule **rules);

/*
 * The fast-path thread's question, with cnpproxy_fp_mtx held: does the
 * accept list in force permit this source?
 */
extern bool cnpproxy_accept_permits(uint8_t version, const uint8_t *addr);

/*
 * Compile the prefix-list of that name now (the main thread, with
 * cnpproxy_fp_mtx held), and again whenever prefix-lists change.  The
 * name stays the caller's: in its configuration.
 */
extern void cnpproxy_accept_update(const char *plist);
/* changed: called when a prefix-list changes (lib/plist has one hook). */
extern void cnpproxy_accept_init(void (*changed)(void));
extern void cnpproxy_accept_fini(void);

#endif /* _CNPPROXY_PROXY_ACCEPT_H */
