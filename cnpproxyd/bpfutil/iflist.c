// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The interfaces a BPF loader has put its program on (see iflist.h).
 */
#include <errno.h>
#include <string.h>

#include "cnpproxy_alloc.h"
#include "bpfutil/iflist.h"

void *pnc_if_list_find(const struct pnc_if_list *l, int ifindex)
{
	for (size_t i = 0; i < l->n; i++) {
		int *e = pnc_if_list_at(l, i);

		if (*e == ifindex)
			return e;
	}
	return NULL;
}

void *pnc_if_list_room(struct pnc_if_list *l, int ifindex)
{
	void *v = pnc_realloc(PNC_POOL_BPF, l->v, (l->n + 1) * l->size);
	int *e;

	if (!v)
		return NULL;
	l->v = v;
	e = pnc_if_list_at(l, l->n);
	memset(e, 0, l->size);
	*e = ifindex;
	return e;
}

void *pnc_if_list_claim(struct pnc_if_list *l, int ifindex, int *err)
{
	void *e;

	*err = 0;
	if (ifindex <= 0)
		*err = -EINVAL;
	else if (pnc_if_list_find(l, ifindex))
		*err = -EEXIST;
	if (*err)
		return NULL;
	e = pnc_if_list_room(l, ifindex);
	if (!e)
		*err = -ENOMEM;
	return e;
}

void pnc_if_list_add(struct pnc_if_list *l)
{
	l->n++;
}

void pnc_if_list_remove(struct pnc_if_list *l, void *e)
{
	void *last = pnc_if_list_at(l, --l->n);

	if (e != last)
		memcpy(e, last, l->size);
}

void *pnc_if_list_last(const struct pnc_if_list *l)
{
	return l->n ? pnc_if_list_at(l, l->n - 1) : NULL;
}

void pnc_if_list_free(struct pnc_if_list *l)
{
	pnc_free(PNC_POOL_BPF, l->v);
	l->v = NULL;
	l->n = 0;
}
