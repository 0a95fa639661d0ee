// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd proxy role: the accept-from list compiled (proxy/accept.h).
 *
 * lib/plist belongs to the main thread: the fast-path thread never reads
 * a prefix-list, only the table compiled from it here.  A change to any
 * prefix-list recompiles it in an event (a pasted list of a thousand
 * entries calls the hook a thousand times); until that event has run,
 * the table of before the change applies.
 */
#include <zebra.h>

#include "lib/frrevent.h"
#include "lib/log.h"
#include "lib/memory.h"
#include "lib/plist.h"
#include "lib/plist_int.h"

#include "cnpproxyd.h"
#include "proxy/accept.h"
#include "cnpproxy_fp.h"

DEFINE_MTYPE_STATIC(CNPPROXYD, CNPPROXY_ACCEPT_LIST, "cnpproxyd compiled accept list");

static struct {
	/* In force for the fast path: IPv4, IPv6. */
	struct cnpproxy_lpm_rule *rules[2];
	size_t n[2];
	/* The configured list's name: in the configuration the owner handed. */
	const char *plist;
	struct event *t_update;
	void (*changed)(void); /* the owner's: other users of the lists follow */
} acc = {
	.plist = "",
};

/* The entries of the list of one family, in seq order. */
static size_t plist_rules(afi_t afi, const struct prefix_list *plist,
			  struct cnpproxy_plist_rule *rules)
{
	struct prefix_list_entry *e;
	size_t n = 0;

	/* lib/plist.c: a list without entries permits everything. */
	if (!plist->count) {
		rules[0].version = afi == AFI_IP ? 4 : 6;
		rules[0].permit = true;
		rules[0].le = afi == AFI_IP ? IPV4_MAX_BITLEN : IPV6_MAX_BITLEN;
		return 1;
	}
	for (e = plist->head; e && n < (size_t)plist->count; e = e->next) {
		struct cnpproxy_plist_rule *r = &rules[n];

		if (!e->installed || e->prefix.family != afi2family(afi))
			continue;
		r->seq = e->seq;
		r->permit = e->type == PREFIX_PERMIT;
		r->version = afi == AFI_IP ? 4 : 6;
		memcpy(r->addr, &e->prefix.u.prefix, afi == AFI_IP ? 4 : 16);
		r->plen = e->prefix.prefixlen;
		r->ge = (uint8_t)e->ge;
		r->le = (uint8_t)e->le;
		n++;
	}
	return n;
}

size_t cnpproxy_accept_rules(afi_t afi, const char *name, struct cnpproxy_lpm_rule **out)
{
	struct prefix_list *plist = name[0] ? prefix_list_lookup(afi, name) : NULL;
	struct cnpproxy_plist_rule *rules;
	size_t n, room;

	*out = NULL;
	if (!plist)
		return 0;
	room = plist->count ? (size_t)plist->count : 1;
	rules = XCALLOC(MTYPE_CNPPROXY_ACCEPT_LIST, sizeof(*rules) * room);
	n = plist_rules(afi, plist, rules);
	*out = XCALLOC(MTYPE_CNPPROXY_ACCEPT_LIST, sizeof(**out) * room);
	n = cnpproxy_plist_lpm(rules, n, *out);
	XFREE(MTYPE_CNPPROXY_ACCEPT_LIST, rules);
	return n;
}

void cnpproxy_accept_rules_free(struct cnpproxy_lpm_rule **rules)
{
	XFREE(MTYPE_CNPPROXY_ACCEPT_LIST, *rules);
}

bool cnpproxy_accept_permits(uint8_t version, const uint8_t *addr)
{
	int i = version == 4 ? 0 : 1;

	return cnpproxy_lpm_permits(acc.rules[i], acc.n[i], version, addr);
}

void cnpproxy_accept_update(const char *plist)
{
	acc.plist = plist;
	for (afi_t afi = AFI_IP; afi <= AFI_IP6; afi++) {
		int i = afi == AFI_IP ? 0 : 1;

		cnpproxy_accept_rules_free(&acc.rules[i]);
		acc.n[i] = cnpproxy_accept_rules(afi, plist, &acc.rules[i]);
	}
}

static void accept_update(struct event *t)
{
	frr_with_mutex (&cnpproxy_fp_mtx) {
		cnpproxy_accept_update(acc.plist);
	}
}

/* lib/plist keeps one hook of each kind: whoever else reads the lists is told. */
static void accept_plist_changed(struct prefix_list *plist)
{
	event_add_event(master, accept_update, NULL, 0, &acc.t_update);
	if (acc.changed)
		acc.changed();
}

void cnpproxy_accept_init(void (*changed)(void))
{
	acc.changed = changed;
	prefix_list_add_hook(accept_plist_changed);
	prefix_list_delete_hook(accept_plist_changed);
}

void cnpproxy_accept_fini(void)
{
	event_cancel(&acc.t_update);
	for (int i = 0; i < 2; i++)
		cnpproxy_accept_rules_free(&acc.rules[i]);
}
