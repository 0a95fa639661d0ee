// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd northbound: checks shared by the address leaves of every
 * role (kept apart so that the role files and the loader in
 * cnpproxy_nb_config.c do not call each other in a circle).
 */
#include <zebra.h>

#include "lib/northbound.h"
#include "lib/yang.h"

#include "cnpproxy_nb.h"

/* Not unspecified, multicast or broadcast: a proxy must be one node. */
bool cnpproxy_ipaddr_is_unicast(const struct ipaddr *a)
{
	if (ipaddr_is_zero(a))
		return false;
	if (IS_IPADDR_V4(a))
		return !IN_MULTICAST(ntohl(a->ipaddr_v4.s_addr)) &&
		       a->ipaddr_v4.s_addr != INADDR_BROADCAST;
	return !IN6_IS_ADDR_MULTICAST(&a->ipaddr_v6);
}

/* NB_EV_VALIDATE of an address leaf that must name one node. */
int cnpproxy_unicast_validate(struct nb_cb_modify_args *args, const char *what)
{
	struct ipaddr a;

	if (args->event != NB_EV_VALIDATE)
		return NB_OK;
	yang_dnode_get_ip(&a, args->dnode, NULL);
	if (cnpproxy_ipaddr_is_unicast(&a))
		return NB_OK;
	snprintfrr(args->errmsg, args->errmsg_len, "%s %pIA is not a unicast address", what, &a);
	return NB_ERR_VALIDATION;
}
