// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The proxy role's learned flows kept in a file under FRR's runstatedir
 * (ephemeral across reboots, as the flows are), so that a restarted
 * cnpproxyd goes on sending CNPs without learning again.  The file is
 * written every few seconds while the table changes, and at a clean
 * stop; it is read when the role starts, and removed when the role is
 * disabled (disabling forgets the flows).
 */
#ifndef _CNPPROXY_PROXY_FLOWS_FILE_H
#define _CNPPROXY_PROXY_FLOWS_FILE_H

#include <stddef.h>

struct pnc_flow_table;
struct vty;
struct json_object;

/*
 * Read the file into t (the role just started), unless it was written
 * more than max_age_s ago (the flows' idle timeout).  Flows restored.
 */
extern size_t cnpproxy_flows_file_restore(struct pnc_flow_table *t, unsigned int max_age_s);
/* Write t to the file every few seconds while it changes. */
extern void cnpproxy_flows_file_start(struct pnc_flow_table *t);
/* Write t now and stop (clean stop of the daemon). */
extern void cnpproxy_flows_file_stop(void);
/* Stop and remove the file (the role is disabled). */
extern void cnpproxy_flows_file_forget(void);
/* For show cnpproxy counters: what was restored and saved. */
extern void cnpproxy_flows_file_show(struct vty *vty, struct json_object *json);

#endif /* _CNPPROXY_PROXY_FLOWS_FILE_H */
