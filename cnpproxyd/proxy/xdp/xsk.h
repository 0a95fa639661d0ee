// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd proxy role: AF_XDP receive (`proxy fast-path af-xdp`).
 *
 * The XDP program of the filter interfaces steers the notifications the
 * guard let through into AF_XDP sockets, one per receive queue, which
 * the fast-path thread reads and runs through the pipeline; the CNPs
 * leave by AF_XDP too (proxy/xdp/xsk_tx.h).  The main thread says which interfaces (and which
 * program's maps); the thread owns the sockets.  Where a socket cannot
 * be opened, its notifications reach the UDP sockets as before and
 * status says why.
 */
#ifndef _CNPPROXY_PROXY_XDP_XSK_H
#define _CNPPROXY_PROXY_XDP_XSK_H

#include <stdbool.h>
#include <stdint.h>

#include "proxy/xdp/xsk_sock.h"

struct pnc_learn_xdp;
struct vty;
struct json_object;

/* Where received frames go: the proxy's pipeline, then its flush per burst. */
extern void cnpproxy_xsk_receiver(pnc_xsk_frame_cb rx, void (*flush)(void));
/* Whether the proxy role runs (from the program's owner). */
extern void cnpproxy_xsk_flows(bool proxy_on);
/* The configuration or the program changed (lx NULL: none loaded). */
struct pnc_config;
extern void cnpproxy_xsk_apply(struct pnc_learn_xdp *lx, const struct pnc_config *cfg);
/* Why AF_XDP asked for does not run, or NULL. */
extern const char *cnpproxy_xsk_not_operational(void);
/* Frames the kernel dropped before the sockets; cnpproxy_fp_mtx held. */
extern uint64_t cnpproxy_xsk_dropped(void);
extern void cnpproxy_xsk_counters_clear(void);
extern void cnpproxy_xsk_show(struct vty *vty, struct json_object *json);
extern void cnpproxy_xsk_fini(void);

#endif /* _CNPPROXY_PROXY_XDP_XSK_H */
