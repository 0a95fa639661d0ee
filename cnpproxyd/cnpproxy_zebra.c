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

#include "lib/log.h"
#include "lib/zclient.h"

#include "cnpproxyd.h"
#include "cnpproxy_debug.h"
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

static void cnpproxy_zebra_connected(struct zclient *zclient)
{
	DEBUGD(&cnp_dbg_zebra, "zebra: connected, sending registrations");
	zclient_send_reg_requests(zclient, VRF_DEFAULT);
	cnpproxy_zebra_set_state(true);
}

const struct cnpproxy_zebra_state *cnpproxy_zebra_state(void)
{
	cnpproxy_zebra_sample();
	return &zstate;
}

void cnpproxy_zebra_init(void)
{
	struct zclient_options opt = zclient_options_default;

	/* No message handlers yet: the session is all that is used. */
	cnpproxy_zclient = zclient_new(master, &opt, NULL, 0);
	cnpproxy_zclient->zebra_connected = cnpproxy_zebra_connected;
	zclient_init(cnpproxy_zclient, ZEBRA_ROUTE_CNPPROXY, 0, &cnpproxy_privs);

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
