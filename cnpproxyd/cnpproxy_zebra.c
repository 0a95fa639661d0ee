// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd ZAPI client: the session to zebra.
 *
 * lib/zclient has no "disconnected" callback: on a lost session it closes
 * the socket and schedules a reconnect.  The session state is therefore
 * derived from the socket, both when it is asked for and from a one-second
 * watcher that logs changes as they happen.
 */
#include <zebra.h>

#include "lib/if.h"
#include "lib/log.h"
#include "lib/zclient.h"

#include "cnpproxyd.h"
#include "cnpproxy_debug.h"
#include "proxy/xdp/guard.h"
#include "rib/rib.h"
#include "cnpproxy_zebra.h"

static struct zclient *cnpproxy_zclient;
static struct cnpproxy_zebra_state zstate;
static struct event *t_watch;

#define CNPPROXY_ZEBRA_WATCH_INTERVAL 1 /* seconds */

static void cnpproxy_zebra_set_state(bool up)
{
	if (zstate.up == up)
		return;

	zstate.up = up;
	zstate.last_change = time(NULL);
	if (up)
		zstate.connects++;
	else
		zstate.disconnects++;

	zlog_info("zebra session %s", up ? "up" : "down");

	/* A new session sends every route again (we subscribe again). */
	if (!up)
		cnpproxy_rib_flush_learned();
}

static void cnpproxy_zebra_sample(void)
{
	cnpproxy_zebra_set_state(cnpproxy_zclient && cnpproxy_zclient->sock >= 0);
}

static void cnpproxy_zebra_watch(struct event *event)
{
	cnpproxy_zebra_sample();
	event_add_timer(master, cnpproxy_zebra_watch, NULL, CNPPROXY_ZEBRA_WATCH_INTERVAL,
			&t_watch);
}

static void cnpproxy_zebra_subscribe(void);

static void cnpproxy_zebra_connected(struct zclient *zclient)
{
	DEBUGD(&cnpproxy_dbg_zebra, "zebra: connected, sending registrations");
	zclient_send_reg_requests(zclient, VRF_DEFAULT);
	/*
	 * A failed session goes through zclient_stop(), which forgets the
	 * redistribution subscriptions: make them again on every session
	 * (a no-op for the ones zclient_send_reg_requests() just sent).
	 */
	cnpproxy_zebra_subscribe();
	cnpproxy_zebra_set_state(true);
}

/* Redistributed routes: the ones with PNC fill the proxy table. */
static int cnpproxy_zebra_redist_route(ZAPI_CALLBACK_ARGS)
{
	struct zapi_route api;

	if (zapi_route_decode(zclient->ibuf, &api) < 0) {
		cnpproxy_rib_decode_error();
		zlog_warn("zebra: could not decode a redistributed route");
		return -1;
	}
	cnpproxy_rib_route(&api, cmd == ZEBRA_REDISTRIBUTE_ROUTE_ADD);
	return 0;
}

/*
 * The interfaces' addresses, kept by lib/if.c: the congestion point
 * recognises a proxy that is this router by them.
 */
static int cnpproxy_zebra_if_address_add(ZAPI_CALLBACK_ARGS)
{
	zebra_interface_address_read(cmd, zclient->ibuf, vrf_id);
	cnpproxy_guard_sync();
	return 0;
}

static int cnpproxy_zebra_if_address_del(ZAPI_CALLBACK_ARGS)
{
	struct connected *c = zebra_interface_address_read(cmd, zclient->ibuf, vrf_id);

	if (c)
		connected_free(&c);
	cnpproxy_guard_sync();
	return 0;
}

static zclient_handler *const cnpproxy_handlers[] = {
	[ZEBRA_INTERFACE_ADDRESS_ADD] = cnpproxy_zebra_if_address_add,
	[ZEBRA_INTERFACE_ADDRESS_DELETE] = cnpproxy_zebra_if_address_del,
	[ZEBRA_REDISTRIBUTE_ROUTE_ADD] = cnpproxy_zebra_redist_route,
	[ZEBRA_REDISTRIBUTE_ROUTE_DEL] = cnpproxy_zebra_redist_route,
};

/*
 * Every protocol may signal PNC, so ask for all of them, both families;
 * the session's redist_pnc_only option makes zebra send only the routes
 * that carry PNC.  Sent at once when the session is up, else by
 * zclient_send_reg_requests() when it comes up.
 */
static void cnpproxy_zebra_subscribe(void)
{
	afi_t afi;
	int type;

	for (afi = AFI_IP; afi <= AFI_IP6; afi++)
		for (type = 0; type < ZEBRA_ROUTE_MAX; type++) {
			/* our own type; table-direct is a per-table subscription */
			if (type == ZEBRA_ROUTE_CNPPROXY || type == ZEBRA_ROUTE_TABLE_DIRECT)
				continue;
			zclient_redistribute(ZEBRA_REDISTRIBUTE_ADD, cnpproxy_zclient, afi, type,
					     0, VRF_DEFAULT);
		}
}

const struct cnpproxy_zebra_state *cnpproxy_zebra_state(void)
{
	cnpproxy_zebra_sample();
	return &zstate;
}

void cnpproxy_zebra_init(void)
{
	struct zclient_options opt = zclient_options_default;

	/* A full-table router must not feed us every route it has. */
	opt.redist_pnc_only = true;

	cnpproxy_zclient = zclient_new(master, &opt, cnpproxy_handlers,
				       array_size(cnpproxy_handlers));
	cnpproxy_zclient->zebra_connected = cnpproxy_zebra_connected;
	zclient_init(cnpproxy_zclient, ZEBRA_ROUTE_CNPPROXY, 0, &cnpproxy_privs);
	cnpproxy_zebra_subscribe();

	event_add_timer(master, cnpproxy_zebra_watch, NULL, CNPPROXY_ZEBRA_WATCH_INTERVAL,
			&t_watch);
}

void cnpproxy_zebra_fini(void)
{
	event_cancel(&t_watch);
	if (cnpproxy_zclient) {
		zclient_stop(cnpproxy_zclient);
		zclient_free(cnpproxy_zclient);
		cnpproxy_zclient = NULL;
	}
}
