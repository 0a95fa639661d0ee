// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which proxy serves a sender: the lookup the data path uses.
 *
 * The control plane compiles the proxy table (rib/lpm_dir.h) after
 * it changes and publishes the result by swapping one pointer; the one
 * it replaces is freed after an RCU grace period, so a reader on any
 * FRR thread needs no lock.  Until the compiled table has caught up
 * with the latest change, or when it would exceed its memory limit,
 * lookups on the main thread are answered by the table itself.
 */
#ifndef _CNPPROXY_RIB_LOOKUP_H
#define _CNPPROXY_RIB_LOOKUP_H

#include "lib/json.h"
#include "lib/vty.h"

#include "rib/lpm.h"

/* Most memory the compiled table may take. */
#define CNPPROXY_LOOKUP_MAX_BYTES ((size_t)512 << 20)

/* Compile table, the proxy table its owner keeps, from now on. */
extern void cnpproxy_lookup_init(const struct pnc_pt_table *table);
extern void cnpproxy_lookup_fini(void);

/* The proxy table changed: compile it again (coalesced, rate-bounded). */
extern void cnpproxy_lookup_changed(void);

/* Longest-prefix match; main thread, or any thread inside rcu_read_lock(). */
extern const struct pnc_pt_entry *cnpproxy_lookup(const struct pnc_pt_addr *a);

/* The compiled table's state, for show commands. */
extern void cnpproxy_lookup_show(struct vty *vty, json_object *json);

#endif /* _CNPPROXY_RIB_LOOKUP_H */
