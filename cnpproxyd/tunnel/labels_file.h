// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The flow-label tunnel's labels kept in a state file
 * (state/file.h), so that the labels of the flows in flight do
 * not change when cnpproxyd restarts or the tunnel is rebuilt after a
 * configuration change: written every few seconds while labels are
 * allocated, now and then anyway, and when the tunnel stops; read when
 * it starts; removed when it is unconfigured.
 */
#ifndef _CNPPROXY_TUNNEL_LABELS_FILE_H
#define _CNPPROXY_TUNNEL_LABELS_FILE_H

#include <stddef.h>

struct pnc_tunnel_tc;
struct vty;
struct json_object;

/*
 * Put the saved labels into fe, which has just been loaded, unless the
 * file was written more than max_age_s ago (the flows' idle time).
 * Labels restored.
 */
extern size_t cnpproxy_labels_file_restore(struct pnc_tunnel_tc *fe, unsigned int max_age_s);
/* Write fe's labels every few seconds while they change. */
extern void cnpproxy_labels_file_start(struct pnc_tunnel_tc *fe);
/* The program's counters were cleared: the next tick writes the labels. */
extern void cnpproxy_labels_file_touch(void);
/* Write them now and stop (clean stop of the daemon, tunnel rebuilt). */
extern void cnpproxy_labels_file_stop(void);
/* Stop and remove the file (the tunnel is unconfigured). */
extern void cnpproxy_labels_file_forget(void);
/* For show cnpproxy flow-labels: what was restored and saved. */
extern void cnpproxy_labels_file_show(struct vty *vty, struct json_object *json);

#endif /* _CNPPROXY_TUNNEL_LABELS_FILE_H */
