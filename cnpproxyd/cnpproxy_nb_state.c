// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd northbound: operational state (/frr-cnpproxyd:cnpproxyd/state):
 * the roles' counters, the watched interfaces, the proxy table, the
 * learned flows and the attachments.
 *
 * Counter leaves are named like the show commands' JSON keys in
 * kebab-case, so one callback per group serves them all.
 */
#include <zebra.h>

#include "lib/northbound.h"
#include "lib/yang.h"

#include "cnpproxyd.h"
#include "cnpproxy_attach.h"
#include "border/border.h"
#include "cp/cp.h"
#include "cnpproxy_nb.h"
#include "proxy/proxy.h"
#include "proxy/flows.h"
#include "proxy/xdp/learn.h"
#include "rib/rib.h"
#include "tunnel/egress.h"
#include "tunnel/tunnel.h"

/* "droppedSourceDenied" and "dropped-source-denied" name the same counter. */
static bool same_name(const char *camel, const char *kebab)
{
	for (; *camel; camel++, kebab++) {
		if (isupper((unsigned char)*camel)) {
			if (*kebab++ != '-')
				return false;
			if (*kebab != tolower((unsigned char)*camel))
				return false;
		} else if (*kebab != *camel) {
			return false;
		}
	}
	return *kebab == '\0';
}

static const char *leaf_name(const char *xpath)
{
	const char *slash = strrchr(xpath, '/');

	return slash ? slash + 1 : xpath;
}

/*
 * The northbound asks leaf by leaf: one snapshot serves the leaves of a
 * query, so that they agree with each other and the XDP program's
 * per-CPU counters are read once, not once per leaf.  A clear makes it
 * stale at once.
 */
#define SNAPSHOT_US 100000

static const struct cnpproxy_proxy_counters *counters_snapshot(void)
{
	static struct {
		struct cnpproxy_proxy_counters v;
		uint64_t at, clears;
		bool valid;
	} snap;
	uint64_t now = cnpproxy_now_us();

	if (!snap.valid || now - snap.at > SNAPSHOT_US ||
	    snap.clears != cnpproxy_proxy_counters_cleared()) {
		cnpproxy_proxy_counter_values(&snap.v);
		snap.at = now;
		snap.clears = cnpproxy_proxy_counters_cleared();
		snap.valid = true;
	}
	return &snap.v;
}

/* /frr-cnpproxyd:cnpproxyd/state/proxy/<counter> */
struct yang_data *cnpproxy_state_proxy_get_elem(struct nb_cb_get_elem_args *args)
{
	const char *name = leaf_name(args->xpath);

	for (int c = 0; c < CNPPROXY_PROXY_COUNTER_MAX; c++)
		if (same_name(cnpproxy_proxy_counter_name(c), name))
			return yang_data_new_uint64(args->xpath, counters_snapshot()->c[c]);
	return NULL;
}

/* /frr-cnpproxyd:cnpproxyd/state/proxy/flows */
struct yang_data *cnpproxy_state_proxy_flows_get_elem(struct nb_cb_get_elem_args *args)
{
	const struct pnc_flow_table *t = cnpproxy_proxy_flows();

	return yang_data_new_uint32(args->xpath, t ? (uint32_t)pnc_flow_table_count(t) : 0);
}

/*
 * /frr-cnpproxyd:cnpproxyd/state/congestion-interface: list entries are
 * interface positions + 1 (NULL ends the list).
 */
static bool view_of(const void *entry, struct cnpproxy_cp_if_view *v)
{
	return entry && cnpproxy_cp_if_view((unsigned int)(uintptr_t)entry - 1, v);
}

const void *cnpproxy_state_cp_if_get_next(struct nb_cb_get_next_args *args)
{
	uintptr_t next = args->list_entry ? (uintptr_t)args->list_entry + 1 : 1;

	return next <= cnpproxy_cp_if_count() ? (const void *)next : NULL;
}

int cnpproxy_state_cp_if_get_keys(struct nb_cb_get_keys_args *args)
{
	struct cnpproxy_cp_if_view v;

	if (!view_of(args->list_entry, &v))
		return NB_ERR;
	args->keys->num = 1;
	strlcpy(args->keys->key[0], v.cfg->name, sizeof(args->keys->key[0]));
	return NB_OK;
}

const void *cnpproxy_state_cp_if_lookup_entry(struct nb_cb_lookup_entry_args *args)
{
	struct cnpproxy_cp_if_view v;

	for (unsigned int i = 0; cnpproxy_cp_if_view(i, &v); i++)
		if (!strcmp(v.cfg->name, args->keys->key[0]))
			return (const void *)(uintptr_t)(i + 1);
	return NULL;
}

/* /frr-cnpproxyd:cnpproxyd/state/congestion-interface/<leaf> */
struct yang_data *cnpproxy_state_cp_if_get_elem(struct nb_cb_get_elem_args *args)
{
	const char *name = leaf_name(args->xpath);
	struct cnpproxy_cp_if_view v;

	if (!view_of(args->list_entry, &v))
		return NULL;
	if (!strcmp(name, "name"))
		return yang_data_new_string(args->xpath, v.cfg->name);
	if (!strcmp(name, "state"))
		return yang_data_new_string(args->xpath, pnc_cp_state_name(v.machine->state));
	if (!strcmp(name, "backlog"))
		return yang_data_new_uint32(args->xpath, v.qdisc ? v.qdisc->backlog_bytes : 0);
	if (!strcmp(name, "average-backlog"))
		return yang_data_new_uint64(args->xpath, v.avg_backlog);
	if (!strcmp(name, "k-min"))
		return yang_data_new_uint64(args->xpath, v.thr->k_min);
	if (!strcmp(name, "k-max"))
		return yang_data_new_uint64(args->xpath, v.thr->k_max);
	for (int c = 0; c < CNPPROXY_CP_COUNTER_MAX; c++)
		if (same_name(cnpproxy_cp_counter_name(c), name))
			return yang_data_new_uint64(args->xpath, v.counters[c]);
	return NULL;
}

/*
 * /frr-cnpproxyd:cnpproxyd/state/proxy-table: entries are positions in
 * the table + 1 (NULL ends the list).  The table is sorted by prefix,
 * a learned entry before a static one of the same prefix: the list
 * gives the first of each prefix, the one in force.  Only the flows
 * are walked in pages: FRR's walk may stop in one list of a container.
 */
static const struct pnc_pt_entry *pt_entry_of(const void *entry)
{
	const struct pnc_pt_table *pt = cnpproxy_rib_table();
	uintptr_t i = (uintptr_t)entry;

	return i && i <= pt->count ? &pt->entries[i - 1] : NULL;
}

static bool pt_same_prefix(const struct pnc_pt_prefix *a, const struct pnc_pt_prefix *b)
{
	return a->addr.family == b->addr.family && a->len == b->len &&
	       !memcmp(a->addr.bytes, b->addr.bytes, sizeof(a->addr.bytes));
}

/* The position i, or the first after it that starts another prefix; NULL past the end. */
static const void *pt_from(size_t i)
{
	const struct pnc_pt_table *pt = cnpproxy_rib_table();
	const struct pnc_pt_entry *e = pt->entries;

	while (i && i < pt->count && pt_same_prefix(&e[i - 1].prefix, &e[i].prefix))
		i++;
	return i < pt->count ? (const void *)(uintptr_t)(i + 1) : NULL;
}

const void *cnpproxy_state_pt_get_next(struct nb_cb_get_next_args *args)
{
	return pt_from((uintptr_t)args->list_entry);
}

int cnpproxy_state_pt_get_keys(struct nb_cb_get_keys_args *args)
{
	const struct pnc_pt_entry *e = pt_entry_of(args->list_entry);

	if (!e)
		return NB_ERR;
	args->keys->num = 1;
	cnpproxy_rib_prefix2str(&e->prefix, args->keys->key[0], sizeof(args->keys->key[0]));
	return NB_OK;
}

/*
 * Where the key's prefix is, or would be: *i, and whether an entry of
 * the prefix is there.
 */
static bool pt_find_key(const struct yang_list_keys *keys, size_t *i, bool *there)
{
	const struct pnc_pt_table *pt = cnpproxy_rib_table();
	struct pnc_pt_prefix typed, key;
	struct prefix p;

	/* Host bits cleared, as the table has them. */
	if (!str2prefix(keys->key[0], &p) || !cnpproxy_rib_prefix(&typed, &p) ||
	    !pnc_pt_prefix_make(&key, &typed.addr, typed.len))
		return false;
	*i = pnc_pt_rank(pt, &key);
	*there = *i < pt->count && pt_same_prefix(&pt->entries[*i].prefix, &key);
	return true;
}

const void *cnpproxy_state_pt_lookup_entry(struct nb_cb_lookup_entry_args *args)
{
	bool there;
	size_t i;

	if (!pt_find_key(args->keys, &i, &there) || !there)
		return NULL;
	return (const void *)(uintptr_t)(i + 1);
}

struct yang_data *cnpproxy_state_pt_get_elem(struct nb_cb_get_elem_args *args)
{
	const struct pnc_pt_entry *e = pt_entry_of(args->list_entry);
	const char *name = leaf_name(args->xpath);
	char buf[PREFIX_STRLEN];

	if (!e)
		return NULL;
	if (!strcmp(name, "prefix"))
		return yang_data_new_string(args->xpath,
					    cnpproxy_rib_prefix2str(&e->prefix, buf, sizeof(buf)));
	if (!strcmp(name, "proxy"))
		return yang_data_new_string(args->xpath,
					    cnpproxy_rib_addr2str(&e->proxy, buf, sizeof(buf)));
	if (!strcmp(name, "source"))
		return yang_data_new_string(args->xpath, e->source == PNC_PT_SOURCE_STATIC
								 ? "static"
								 : "learned");
	if (!strcmp(name, "protocol") && e->source == PNC_PT_SOURCE_LEARNED)
		return yang_data_new_string(args->xpath, zebra_route_string(e->origin));
	return NULL;
}

/*
 * /frr-cnpproxyd:cnpproxyd/state/flow: entries are slots of the flow
 * table + 1.  A walk runs in one event of the main thread, the only one
 * that changes the table; one that yields resumes from its last keys
 * (lookup_next).  A flow keeps its slot while it lives, and a walk
 * resumes after the slot of the last flow it gave even if that flow is
 * gone since.
 */
struct flow_key {
	uint8_t ver;
	uint8_t snd[16], rcv[16];
	uint32_t qpn;
};

/* The last flow whose keys were given, and its slot. */
static struct {
	bool valid;
	struct flow_key key;
	uint32_t slot;
} flow_last;

static const struct pnc_flow *flow_of(const void *entry)
{
	uint32_t want, slot = (uint32_t)(uintptr_t)entry;
	const struct pnc_flow *f;

	if (!slot--)
		return NULL;
	want = slot;
	f = pnc_flow_table_next(cnpproxy_proxy_flows(), &slot);
	return f && slot == want ? f : NULL;
}

static const void *flow_from(uint32_t slot)
{
	return pnc_flow_table_next(cnpproxy_proxy_flows(), &slot)
		       ? (const void *)(uintptr_t)(slot + 1)
		       : NULL;
}

const void *cnpproxy_state_flow_get_next(struct nb_cb_get_next_args *args)
{
	return flow_from((uint32_t)(uintptr_t)args->list_entry);
}

int cnpproxy_state_flow_get_keys(struct nb_cb_get_keys_args *args)
{
	const struct pnc_flow *f = flow_of(args->list_entry);
	int af;

	if (!f)
		return NB_ERR;
	af = f->ip_version == 4 ? AF_INET : AF_INET6;
	args->keys->num = 3;
	inet_ntop(af, f->sender, args->keys->key[0], sizeof(args->keys->key[0]));
	inet_ntop(af, f->receiver, args->keys->key[1], sizeof(args->keys->key[1]));
	snprintf(args->keys->key[2], sizeof(args->keys->key[2]), "%u", f->receiver_qpn);
	flow_last.valid = true;
	flow_last.key.ver = f->ip_version;
	memcpy(flow_last.key.snd, f->sender, 16);
	memcpy(flow_last.key.rcv, f->receiver, 16);
	flow_last.key.qpn = f->receiver_qpn;
	flow_last.slot = (uint32_t)(uintptr_t)args->list_entry - 1;
	return NB_OK;
}

static bool flow_key_parse(const struct yang_list_keys *keys, struct flow_key *k)
{
	int af = strchr(keys->key[0], ':') ? AF_INET6 : AF_INET;
	unsigned long qpn;
	char *end;

	memset(k, 0, sizeof(*k));
	k->ver = af == AF_INET ? 4 : 6;
	qpn = strtoul(keys->key[2], &end, 10);
	k->qpn = (uint32_t)qpn;
	return !*end && qpn <= 0xffffff && inet_pton(af, keys->key[0], k->snd) == 1 &&
	       inet_pton(af, keys->key[1], k->rcv) == 1;
}

const void *cnpproxy_state_flow_lookup_entry(struct nb_cb_lookup_entry_args *args)
{
	struct flow_key k;
	uint32_t slot;

	if (!flow_key_parse(args->keys, &k) ||
	    !pnc_flow_table_slot(cnpproxy_proxy_flows(), k.ver, k.snd, k.rcv, k.qpn, &slot))
		return NULL;
	return (const void *)(uintptr_t)(slot + 1);
}

const void *cnpproxy_state_flow_lookup_next(struct nb_cb_lookup_entry_args *args)
{
	struct flow_key k;
	uint32_t slot;

	if (!flow_key_parse(args->keys, &k))
		return NULL;
	if (pnc_flow_table_slot(cnpproxy_proxy_flows(), k.ver, k.snd, k.rcv, k.qpn, &slot))
		return flow_from(slot + 1);
	/* Gone since the page ended: after the slot it had. */
	if (flow_last.valid && flow_last.key.ver == k.ver && flow_last.key.qpn == k.qpn &&
	    !memcmp(flow_last.key.snd, k.snd, 16) && !memcmp(flow_last.key.rcv, k.rcv, 16))
		return flow_from(flow_last.slot + 1);
	return NULL;
}

struct yang_data *cnpproxy_state_flow_get_elem(struct nb_cb_get_elem_args *args)
{
	const struct pnc_flow *f = flow_of(args->list_entry);
	const char *name = leaf_name(args->xpath);
	char buf[INET6_ADDRSTRLEN];
	int af;

	if (!f)
		return NULL;
	af = f->ip_version == 4 ? AF_INET : AF_INET6;
	if (!strcmp(name, "sender"))
		return yang_data_new_string(args->xpath,
					    inet_ntop(af, f->sender, buf, sizeof(buf)));
	if (!strcmp(name, "receiver"))
		return yang_data_new_string(args->xpath,
					    inet_ntop(af, f->receiver, buf, sizeof(buf)));
	if (!strcmp(name, "receiver-qpn"))
		return yang_data_new_uint32(args->xpath, f->receiver_qpn);
	if (!strcmp(name, "sender-qpn"))
		return yang_data_new_uint32(args->xpath, f->sender_qpn);
	if (!strcmp(name, "pkey"))
		return yang_data_new_uint16(args->xpath, f->pkey);
	if (!strcmp(name, "learned-by"))
		return yang_data_new_string(args->xpath, f->source == PNC_FLOW_CM ? "cm" : "psn");
	if (!strcmp(name, "packets"))
		return yang_data_new_uint64(args->xpath, f->packets);
	return NULL;
}

/*
 * /frr-cnpproxyd:cnpproxyd/state/attachment: each program's interfaces
 * one after the other; an entry is (program << 8 | position) + 1.
 */
static const struct {
	const char *name;
	bool (*view)(unsigned int i, struct cnpproxy_attach_if *out);
} attach_programs[] = {
	{ "xdp", cnpproxy_learn_attachment },
	{ "flow-label-tunnel", cnpproxy_tunnel_attachment },
	{ "tunnel-egress", cnpproxy_egress_attachment },
	{ "border-filter", cnpproxy_border_attachment },
	{ "congestion-point", cnpproxy_cp_attachment },
};

static bool attach_of(const void *entry, unsigned int *prog, struct cnpproxy_attach_if *ai)
{
	uintptr_t v = (uintptr_t)entry;

	if (!v--)
		return false;
	*prog = v >> 8;
	return *prog < array_size(attach_programs) && attach_programs[*prog].view(v & 0xff, ai);
}

const void *cnpproxy_state_attach_get_next(struct nb_cb_get_next_args *args)
{
	uintptr_t v = (uintptr_t)args->list_entry;
	unsigned int prog = v ? (v - 1) >> 8 : 0, pos = v ? ((v - 1) & 0xff) + 1 : 0;
	struct cnpproxy_attach_if ai;

	for (; prog < array_size(attach_programs); prog++, pos = 0)
		if (attach_programs[prog].view(pos, &ai))
			return (const void *)(uintptr_t)((prog << 8 | pos) + 1);
	return NULL;
}

int cnpproxy_state_attach_get_keys(struct nb_cb_get_keys_args *args)
{
	struct cnpproxy_attach_if ai;
	unsigned int prog;

	if (!attach_of(args->list_entry, &prog, &ai))
		return NB_ERR;
	args->keys->num = 2;
	strlcpy(args->keys->key[0], attach_programs[prog].name, sizeof(args->keys->key[0]));
	strlcpy(args->keys->key[1], ai.name, sizeof(args->keys->key[1]));
	return NB_OK;
}

const void *cnpproxy_state_attach_lookup_entry(struct nb_cb_lookup_entry_args *args)
{
	struct cnpproxy_attach_if ai;

	for (unsigned int prog = 0; prog < array_size(attach_programs); prog++) {
		if (strcmp(attach_programs[prog].name, args->keys->key[0]))
			continue;
		for (unsigned int i = 0; attach_programs[prog].view(i, &ai); i++)
			if (!strcmp(ai.name, args->keys->key[1]))
				return (const void *)(uintptr_t)((prog << 8 | i) + 1);
	}
	return NULL;
}

struct yang_data *cnpproxy_state_attach_get_elem(struct nb_cb_get_elem_args *args)
{
	const char *name = leaf_name(args->xpath);
	struct cnpproxy_attach_if ai;
	unsigned int prog;

	if (!attach_of(args->list_entry, &prog, &ai))
		return NULL;
	if (!strcmp(name, "program"))
		return yang_data_new_string(args->xpath, attach_programs[prog].name);
	if (!strcmp(name, "interface"))
		return yang_data_new_string(args->xpath, ai.name);
	if (!strcmp(name, "attached"))
		return yang_data_new_bool(args->xpath, ai.ifindex != 0);
	if (!strcmp(name, "ifindex") && ai.ifindex)
		return yang_data_new_uint32(args->xpath, (uint32_t)ai.ifindex);
	if (!strcmp(name, "reason") && !ai.ifindex)
		return yang_data_new_string(args->xpath, ai.error ? ai.error : "not attached");
	return NULL;
}
