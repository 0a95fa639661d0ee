// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd proxy role: the XDP notification guard's tables.
 *
 * The guard must refuse exactly what the user-space checks refuse
 * (source_allowed() and within_rate() in proxy/proxy.c), no more:
 * the accept table is the accept-from prefix-list as it judges host
 * addresses, an existing list without entries permits everything, and
 * a missing list nothing.  Until the tables are in, the guard is off
 * and everything goes to user space, which filters it anyway.
 */
#include <zebra.h>

#include "lib/frrevent.h"
#include "lib/if.h"
#include "lib/json.h"
#include "lib/log.h"
#include "lib/privs.h"
#include "lib/vrf.h"
#include "lib/vty.h"

#include <linux/types.h>

#include "proxy/xdp/learn_xdp.h"

#include "cnpproxyd.h"
#include "cnpproxy_debug.h"
#include "proxy/xdp/guard.h"
#include "proxy/accept.h"

DEFINE_MTYPE_STATIC(CNPPROXYD, CNPPROXY_GUARD_TABLE, "cnpproxyd XDP guard table");

static struct {
	struct pnc_learn_xdp *lx; /* the program, as its owner last handed it */
	const struct pnc_config *config; /* and the configuration */
	struct event *t_sync;
	const char *error;
	/* What the tables hold now, for show. */
	size_t n_accept, n_local;
	uint32_t rate;
	bool synced;
} guard = {
	.config = &pnc_config_off,
};

/* The accept table of both families; count in *n. */
static struct pnc_guard_prefix *accept_table(const char *name, __u8 **permit, size_t *n)
{
	struct pnc_guard_prefix *keys;
	struct cnpproxy_lpm_rule *lpm[2] = {};
	size_t nlpm[2] = {}, i, k = 0;
	afi_t afi;

	for (afi = AFI_IP; afi <= AFI_IP6; afi++)
		nlpm[afi - AFI_IP] = cnpproxy_accept_rules(afi, name, &lpm[afi - AFI_IP]);
	keys = XCALLOC(MTYPE_CNPPROXY_GUARD_TABLE, sizeof(*keys) * (nlpm[0] + nlpm[1] + 1));
	*permit = XCALLOC(MTYPE_CNPPROXY_GUARD_TABLE, nlpm[0] + nlpm[1] + 1);
	for (afi = 0; afi < 2; afi++) {
		for (i = 0; i < nlpm[afi]; i++, k++) {
			keys[k].prefixlen = 8 + lpm[afi][i].plen;
			keys[k].version = lpm[afi][i].version;
			memcpy(keys[k].addr, lpm[afi][i].addr, 16);
			(*permit)[k] = lpm[afi][i].permit ? PNC_GUARD_PERMIT : PNC_GUARD_DENY;
		}
		cnpproxy_accept_rules_free(&lpm[afi]);
	}
	*n = k;
	return keys;
}

/* Every address of every interface zebra told us of. */
static struct pnc_guard_addr *local_table(size_t *n)
{
	struct vrf *vrf = vrf_lookup_by_id(VRF_DEFAULT);
	struct pnc_guard_addr *addrs;
	struct interface *ifp;
	struct connected *c;
	size_t max = 0, k = 0;

	*n = 0;
	if (!vrf)
		return NULL;
	FOR_ALL_INTERFACES (vrf, ifp)
		max += if_connected_count(ifp->connected);
	addrs = XCALLOC(MTYPE_CNPPROXY_GUARD_TABLE, sizeof(*addrs) * (max + 1));
	FOR_ALL_INTERFACES (vrf, ifp) {
		frr_each (if_connected, ifp->connected, c) {
			const struct prefix *p = c->address;

			if (k == max || !p || (p->family != AF_INET && p->family != AF_INET6))
				continue;
			addrs[k].version = p->family == AF_INET ? 4 : 6;
			memcpy(addrs[k].addr, &p->u.prefix, p->family == AF_INET ? 4 : 16);
			k++;
		}
	}
	*n = k;
	return addrs;
}

void cnpproxy_guard_sync_now(struct pnc_learn_xdp *lx, const struct pnc_config *cfg)
{
	struct pnc_guard_cfg gc = {}, off = {};
	struct pnc_guard_prefix *accept;
	struct pnc_guard_addr *local;
	size_t n_accept, n_local;
	__u8 *permit;
	int err = 0;

	event_cancel(&guard.t_sync);
	guard.lx = lx;
	guard.config = cfg;
	if (!lx)
		return;
	if (!cfg->proxy.n_filter_if) {
		/* Learning only: no interface runs the guard, no table to keep. */
		guard.synced = false;
		guard.error = NULL;
		guard.rate = 0; /* the buckets start afresh when a filter comes */
		return;
	}
	accept = accept_table(cfg->proxy.accept_plist, &permit, &n_accept);
	local = local_table(&n_local);
	gc.notification_port = cfg->notification_port;
	gc.flow_label_port = cfg->flow_label_port;
	gc.icmp_type = cfg->notification_icmp_type;
	gc.icmp6_type = cfg->notification_icmp6_type;
	gc.rate = gc.burst = cfg->proxy.rl_per_source;

	frr_with_privs (&cnpproxy_privs) {
		/*
		 * Each table changes entry by entry: every lookup meanwhile is
		 * right for before or after.  Too many entries: -E2BIG.
		 */
		err = pnc_learn_xdp_guard_accept(lx, accept, permit, n_accept);
		if (!err)
			err = pnc_learn_xdp_guard_local(lx, local, n_local);
		if (!err && gc.rate != guard.rate)
			err = pnc_learn_xdp_guard_reset_sources(lx);
		pnc_learn_xdp_guard_cfg(lx, err ? &off : &gc);
	}
	XFREE(MTYPE_CNPPROXY_GUARD_TABLE, accept);
	XFREE(MTYPE_CNPPROXY_GUARD_TABLE, permit);
	XFREE(MTYPE_CNPPROXY_GUARD_TABLE, local);

	if (err) {
		const char *was = guard.error;

		/* Left off: user space still refuses what it must. */
		guard.error = err == -E2BIG
				      ? "accept list or addresses too many for the XDP tables"
				      : "cannot fill the XDP tables";
		if (guard.error != was)
			zlog_warn("cnpproxyd: notification filter off: %s (%s)", guard.error,
				  safe_strerror(-err));
		guard.synced = false;
		guard.rate = 0;
		return;
	}
	guard.error = NULL;
	guard.synced = true;
	guard.n_accept = n_accept;
	guard.n_local = n_local;
	guard.rate = (uint32_t)gc.rate;
	DEBUGD(&cnpproxy_dbg_proxy, "proxy: XDP guard: %zu accept entries, %zu local addresses",
	       n_accept, n_local);
}

static void guard_sync(struct event *t)
{
	cnpproxy_guard_sync_now(guard.lx, guard.config);
}

void cnpproxy_guard_sync(void)
{
	if (!guard.lx || !guard.config->proxy.n_filter_if)
		return;
	/* A pasted list of a thousand entries calls us a thousand times. */
	event_add_event(master, guard_sync, NULL, 0, &guard.t_sync);
}

const char *cnpproxy_guard_not_operational(void)
{
	if (!guard.config->proxy.n_filter_if || !guard.lx)
		return NULL;
	return guard.error;
}

void cnpproxy_guard_show(struct vty *vty, struct json_object *json)
{
	bool on = guard.config->proxy.n_filter_if && guard.lx && guard.synced;

	if (json) {
		json_object *jg = json_object_new_object();

		json_object_boolean_add(jg, "active", on);
		if (guard.error)
			json_object_string_add(jg, "error", guard.error);
		json_object_int_add(jg, "acceptEntries", on ? guard.n_accept : 0);
		json_object_int_add(jg, "localAddresses", on ? guard.n_local : 0);
		json_object_int_add(jg, "ratePerSource", on ? guard.rate : 0);
		json_object_object_add(json, "filter", jg);
		return;
	}
	if (!guard.config->proxy.n_filter_if)
		return;
	vty_out(vty, "Notification filter (XDP): %s\n",
		on ? "active" : (guard.error ? guard.error : "not loaded"));
	if (on)
		vty_out(vty,
			"  %zu accept entries, %zu local addresses, %u per second and source\n",
			guard.n_accept, guard.n_local, guard.rate);
}

void cnpproxy_guard_fini(void)
{
	event_cancel(&guard.t_sync);
}
