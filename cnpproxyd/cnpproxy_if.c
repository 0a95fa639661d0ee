// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd's interface layer, on the interface hooks of lib/if.c.
 */
#include <zebra.h>

#include "lib/if.h"
#include "lib/log.h"
#include "lib/vrf.h"

#include "cnpproxy_debug.h"
#include "cnpproxy_if.h"

/* What attaches to interfaces: learning, marking, encapsulation, the border filter. */
#define IF_WATCHERS_MAX 8

static cnpproxy_if_watcher watchers[IF_WATCHERS_MAX];
static unsigned int n_watchers;

/* The interface of that name zebra told us of, if it is real. */
static struct interface *if_real_by_name(const char *ifname)
{
	struct interface *ifp;
	struct vrf *vrf;

	/* Names are unique in the network namespace, whatever the VRF. */
	RB_FOREACH (vrf, vrf_name_head, &vrfs_by_name) {
		ifp = if_lookup_by_name(ifname, vrf->vrf_id);
		if (ifp && ifp->ifindex != IFINDEX_INTERNAL)
			return ifp;
	}
	return NULL;
}

int cnpproxy_if_index(const char *ifname)
{
	struct interface *ifp = if_real_by_name(ifname);

	return ifp ? ifp->ifindex : 0;
}

bool cnpproxy_if_operative(const char *ifname)
{
	struct interface *ifp = if_real_by_name(ifname);

	return ifp && if_is_operative(ifp);
}

void cnpproxy_if_watch(cnpproxy_if_watcher watcher)
{
	assert(n_watchers < IF_WATCHERS_MAX);
	watchers[n_watchers++] = watcher;
}

static void tell(const struct interface *ifp, int ifindex)
{
	DEBUGD(&cnpproxy_dbg_zebra, "zebra: interface %s %s (ifindex %d)", ifp->name,
	       ifindex ? "appeared" : "is gone", ifindex ? ifindex : ifp->ifindex);
	for (unsigned int i = 0; i < n_watchers; i++)
		watchers[i](ifp->name, ifindex);
}

static int if_became_real(struct interface *ifp)
{
	tell(ifp, ifp->ifindex);
	return 0;
}

/* Called while ifp still has its old ifindex. */
static int if_became_unreal(struct interface *ifp)
{
	tell(ifp, 0);
	return 0;
}

void cnpproxy_if_init(void)
{
	hook_register_prio(if_real, 0, if_became_real);
	hook_register_prio(if_unreal, 0, if_became_unreal);
}

void cnpproxy_if_fini(void)
{
	hook_unregister(if_real, if_became_real);
	hook_unregister(if_unreal, if_became_unreal);
	n_watchers = 0;
}
