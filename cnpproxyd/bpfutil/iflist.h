// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The interfaces a BPF loader has put its program on: a growable array
 * of the loader's own entries, each beginning with its int ifindex.
 * No FRR dependency.
 */
#ifndef _CNPPROXY_BPFUTIL_IFLIST_H
#define _CNPPROXY_BPFUTIL_IFLIST_H

#include <stddef.h>

struct pnc_if_list {
	void *v;
	size_t n;
	size_t size; /* of an entry */
};

/* An empty list of entries of type (whose first member is int ifindex). */
#define PNC_IF_LIST(type) ((struct pnc_if_list){ .size = sizeof(type) })

static inline void *pnc_if_list_at(const struct pnc_if_list *l, size_t i)
{
	return (char *)l->v + i * l->size;
}

/* The first entry of ifindex, or NULL. */
extern void *pnc_if_list_find(const struct pnc_if_list *l, int ifindex);
/*
 * Zeroed room for one more entry, with its ifindex set, not counted
 * until pnc_if_list_add() (the attach it records succeeded).  NULL when
 * out of memory.
 */
extern void *pnc_if_list_room(struct pnc_if_list *l, int ifindex);
/*
 * Room for an interface the list does not hold yet: NULL with *err
 * -EINVAL (not an ifindex), -EEXIST or -ENOMEM otherwise.
 */
extern void *pnc_if_list_claim(struct pnc_if_list *l, int ifindex, int *err);
extern void pnc_if_list_add(struct pnc_if_list *l);
/* Forget entry e: the last one takes its place. */
extern void pnc_if_list_remove(struct pnc_if_list *l, void *e);
/* The last entry, which a close detaches first; NULL if none. */
extern void *pnc_if_list_last(const struct pnc_if_list *l);
extern void pnc_if_list_free(struct pnc_if_list *l);

#endif /* _CNPPROXY_BPFUTIL_IFLIST_H */
