// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd proxy role: AF_XDP transmit (`proxy fast-path af-xdp`).
 *
 * A CNP leaves as an Ethernet frame on an AF_XDP socket of the
 * interface the route to its sender goes out of, to the next hop's
 * address, both as the kernel knows them (route and neighbour tables,
 * cached for a second and refreshed meanwhile).  The socket is the
 * receive socket of the interface's queue 0 where there is one, else a
 * transmit-only socket.  What cannot go that way yet (next hop being
 * resolved, unknown to the kernel, no socket yet) takes the raw socket:
 * nothing waits for a resolution.
 *
 * The pipeline calls cnpproxy_xsk_tx() and cnpproxy_xsk_tx_flush() with
 * cnpproxy_fp_mtx held; the fast-path thread resolves next hops and
 * opens sockets without it.
 */
#ifndef _CNPPROXY_PROXY_XDP_XSK_TX_H
#define _CNPPROXY_PROXY_XDP_XSK_TX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pnc_xsk;
struct vty;
struct json_object;

/*
 * Queue an IP packet (version 4 or 6) to dst for an AF_XDP socket; false
 * when it must take the raw socket.  cnpproxy_fp_mtx held.
 */
extern bool cnpproxy_xsk_tx(uint8_t version, const uint8_t *dst, const uint8_t *pkt, size_t len);
/* Hand what was queued to the kernel.  cnpproxy_fp_mtx held. */
extern void cnpproxy_xsk_tx_flush(void);

/* ---- for proxy/xdp/xsk.c, on the fast-path thread -------------------------- */

/* Transmit frames of the receive socket of queue 0. */
#define CNPPROXY_XSK_TX_FRAMES 256

/*
 * A socket is about to close: it is no longer kicked, and the frames
 * its ring still holds count as lost.  cnpproxy_fp_mtx held.
 */
extern void cnpproxy_xsk_tx_forget(struct pnc_xsk *s);
/* Receive sockets are to be bound on ifindex: its transmit-only socket goes. */
extern void cnpproxy_xsk_tx_release(int ifindex);
/*
 * After the receive sockets were synchronised: on, whether transmitting
 * (rx_socket: an interface's receive socket, which sends first)
 * stays wanted (else every socket and next hop goes); also drops the
 * sockets of interfaces gone.
 */
extern void cnpproxy_xsk_tx_sync(bool on, struct pnc_xsk *(*rx_socket)(int ifindex));
extern void cnpproxy_xsk_tx_show(struct vty *vty, struct json_object *jx);
/* Follow the interface layer: a transmit socket's interface can go. */
extern void cnpproxy_xsk_tx_init(void);
/* `clear cnpproxy counters`: next-hop and transmit counts.  cnpproxy_fp_mtx held. */
extern void cnpproxy_xsk_tx_counters_clear(void);
extern void cnpproxy_xsk_tx_fini(void);

#endif /* _CNPPROXY_PROXY_XDP_XSK_TX_H */
