// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The allocator of cnpproxy_alloc.h in the daemon: one MTYPE a pool.
 */
#include <zebra.h>

#include "lib/memory.h"

#include "cnpproxyd.h"
#include "cnpproxy_alloc.h"

DEFINE_MTYPE_STATIC(CNPPROXYD, CNPPROXY_FLOWS, "cnpproxyd flow table pools");
DEFINE_MTYPE_STATIC(CNPPROXYD, CNPPROXY_FLOW_INDEX, "cnpproxyd flow table index");
DEFINE_MTYPE_STATIC(CNPPROXYD, CNPPROXY_PROXY_TABLE, "cnpproxyd proxy table");
DEFINE_MTYPE_STATIC(CNPPROXYD, CNPPROXY_BPF, "cnpproxyd BPF loaders");
DEFINE_MTYPE_STATIC(CNPPROXYD, CNPPROXY_QMON, "cnpproxyd queue monitor");

static struct memtype *pool_mtype(enum pnc_pool pool)
{
	switch (pool) {
	case PNC_POOL_FLOWS:
		return MTYPE_CNPPROXY_FLOWS;
	case PNC_POOL_FLOW_INDEX:
		return MTYPE_CNPPROXY_FLOW_INDEX;
	case PNC_POOL_LPM:
		return MTYPE_CNPPROXY_PROXY_TABLE;
	case PNC_POOL_BPF:
		return MTYPE_CNPPROXY_BPF;
	case PNC_POOL_QMON:
	case PNC_POOL_MAX:
		break;
	}
	return MTYPE_CNPPROXY_QMON;
}

void *pnc_calloc(enum pnc_pool pool, size_t n, size_t size)
{
	/* The modules check their sizes; an overflow here is a bug. */
	assert(!size || n <= SIZE_MAX / size);
	return XCALLOC(pool_mtype(pool), n * size);
}

void *pnc_realloc(enum pnc_pool pool, void *p, size_t size)
{
	return XREALLOC(pool_mtype(pool), p, size);
}

void pnc_free(enum pnc_pool pool, void *p)
{
	XFREE(pool_mtype(pool), p);
}
