// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Memory of the FRR-free modules (flow table, proxy LPM table, the BPF
 * loaders and the queue monitor), by pool.  The daemon's implementation
 * (cnpproxy_alloc.c) accounts each pool in an MTYPE, so that `show
 * memory cnpproxyd` shows every one of them; the tools and tests link
 * cnpproxy_alloc_libc.c, plain libc.  calloc/realloc/free semantics;
 * the daemon's never returns NULL (FRR aborts on exhaustion).
 */
#ifndef _CNPPROXY_ALLOC_H
#define _CNPPROXY_ALLOC_H

#include <stddef.h>

enum pnc_pool {
	PNC_POOL_FLOWS,	     /* flow table: the node pools */
	PNC_POOL_FLOW_INDEX, /* flow table: its hash buckets and header */
	PNC_POOL_LPM,	     /* proxy table entries */
	PNC_POOL_BPF,	     /* BPF loaders: their state and per-CPU reads */
	PNC_POOL_QMON,	     /* queue monitor: socket state and receive buffer */
	PNC_POOL_MAX,
};

extern void *pnc_calloc(enum pnc_pool pool, size_t n, size_t size);
extern void *pnc_realloc(enum pnc_pool pool, void *p, size_t size);
extern void pnc_free(enum pnc_pool pool, void *p);

#endif /* _CNPPROXY_ALLOC_H */
