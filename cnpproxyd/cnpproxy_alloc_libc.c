// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The allocator of cnpproxy_alloc.h for the tools and tests: libc.
 */
#include <stdlib.h>

#include "cnpproxy_alloc.h"

void *pnc_calloc(enum pnc_pool pool, size_t n, size_t size)
{
	(void)pool;
	return calloc(n, size);
}

void *pnc_realloc(enum pnc_pool pool, void *p, size_t size)
{
	(void)pool;
	return realloc(p, size);
}

void pnc_free(enum pnc_pool pool, void *p)
{
	(void)pool;
	free(p);
}
