// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd's fast-path thread: the proxy role's notification sockets,
 * the translation pipeline and the CNPs it sends run here, on an event
 * loop of their own, so that vtysh, zebra and the northbound on the
 * main loop hold a notification up only while they change what the
 * thread reads (a configuration commit, a batch of learned flows) or
 * copy what it writes (counters).
 *
 * What the thread reads or writes (the flow table, the proxy role's
 * configuration, its per-source and per-QP state, counters, sockets,
 * the compiled accept list) is written under cnpproxy_fp_mtx.  The main
 * thread reads its own writes freely and takes the mutex to read what
 * the thread writes, or to write anything the thread reads.  The
 * thread takes it once per read burst, never per packet.  The main
 * thread's long readers (show commands, the state files, publishing to
 * the XDP translator) walk the flow table without it: only the main
 * thread changes the table.
 */
#ifndef _CNPPROXY_FP_H
#define _CNPPROXY_FP_H

#include <pthread.h>
#include <stdbool.h>

#include "lib/frr_pthread.h"

extern pthread_mutex_t cnpproxy_fp_mtx;

/* The fast-path thread's event loop (exists from cnpproxy_fp_init()). */
extern struct event_loop *cnpproxy_fp_loop(void);
/* Whether the thread is running, for show. */
extern bool cnpproxy_fp_running(void);
extern const char *cnpproxy_fp_name(void);

/* The loop exists before the configuration is read ... */
extern void cnpproxy_fp_init(void);
/* ... the thread starts after the daemon has forked ... */
extern void cnpproxy_fp_start(void);
/* ... and stops before the state it uses is freed. */
extern void cnpproxy_fp_stop(void);

#endif /* _CNPPROXY_FP_H */
