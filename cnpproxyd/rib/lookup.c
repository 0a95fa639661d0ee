// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which proxy serves a sender: the compiled proxy table, published by
 * pointer swap and freed through RCU.
 */
#include <zebra.h>

#include "lib/frrcu.h"
#include "lib/frrevent.h"
#include "lib/memory.h"
#include "lib/monotime.h"

#include "cnpproxyd.h"
#include "cnpproxy_debug.h"
#include "rib/lookup.h"
#include "rib/lpm_dir.h"

DEFINE_MTYPE_STATIC(CNPPROXYD, CNPPROXY_LOOKUP, "cnpproxyd published proxy lookup");

/*
 * Rebuilding takes at most this share of the main thread: after a build
 * that took T, the next one waits (100 / share - 1) x T.
 */
#define LOOKUP_BUILD_SHARE_PCT	 10
#define LOOKUP_BUILD_WAIT_MAX_MS 5000

/* A compiled table as published: the RCU head frees it. */
struct lookup_pub {
	struct rcu_head rcu;
	struct pt_dir *dir;
};

static struct {
	const struct pnc_pt_table *table; /* what is compiled: the RIB's */
	_Atomic(struct lookup_pub *) pub;
	struct event *t_build;
	uint64_t builds;
	int64_t last_build_us;
	size_t refused_bytes; /* the last build was over the limit by this much */
} lk;

/* Whether p answers for the proxy table as it is now. */
static bool pub_current(const struct lookup_pub *p)
{
	return p && pnc_pt_dir_generation(p->dir) == lk.table->generation;
}

static void pub_free(struct lookup_pub *p)
{
	pnc_pt_dir_free(p->dir);
	XFREE(MTYPE_CNPPROXY_LOOKUP, p);
}

static void publish(struct lookup_pub *p)
{
	struct lookup_pub *old = atomic_exchange_explicit(&lk.pub, p, memory_order_acq_rel);

	/* Readers on other threads may still hold it: free after they leave. */
	if (old)
		rcu_call(pub_free, old, rcu);
}

static void lookup_build(struct event *t)
{
	struct lookup_pub *cur = atomic_load_explicit(&lk.pub, memory_order_acquire);
	struct timeval start;
	struct pt_dir *d;
	size_t needed;

	if (pub_current(cur))
		return;
	monotime(&start);
	d = pnc_pt_dir_build(lk.table, CNPPROXY_LOOKUP_MAX_BYTES, &needed);
	lk.last_build_us = monotime_since(&start, NULL);
	lk.builds++;
	lk.refused_bytes = d ? 0 : needed;
	if (!d) {
		/* A stale table must not answer: the proxy table itself will. */
		publish(NULL);
		zlog_warn("cnpproxyd: the compiled proxy table would take %zu bytes, more than %zu; lookups search the table instead",
			  needed, CNPPROXY_LOOKUP_MAX_BYTES);
		return;
	}
	cur = XCALLOC(MTYPE_CNPPROXY_LOOKUP, sizeof(*cur));
	cur->dir = d;
	publish(cur);
	DEBUGD(&cnpproxy_dbg_zebra,
	       "proxy lookup: compiled generation %" PRIu64 " in %" PRId64 " us",
	       pnc_pt_dir_generation(d), lk.last_build_us);
}

void cnpproxy_lookup_changed(void)
{
	int64_t wait_ms;

	if (lk.t_build)
		return;
	wait_ms = lk.last_build_us * (100 / LOOKUP_BUILD_SHARE_PCT - 1) / 1000;
	if (wait_ms > LOOKUP_BUILD_WAIT_MAX_MS)
		wait_ms = LOOKUP_BUILD_WAIT_MAX_MS;
	/* A burst of route updates from one read of zebra: one build. */
	event_add_timer_msec(master, lookup_build, NULL, wait_ms, &lk.t_build);
}

const struct pnc_pt_entry *cnpproxy_lookup(const struct pnc_pt_addr *a)
{
	struct lookup_pub *p = atomic_load_explicit(&lk.pub, memory_order_acquire);

	if (pub_current(p))
		return pnc_pt_dir_lookup(p->dir, a);
	return pnc_pt_lookup(lk.table, a);
}

static void family_json(json_object *json, const char *key, const struct pnc_pt_dir_family_info *f)
{
	json_object *j = json_object_new_object();

	json_object_int_add(j, "prefixes", f->prefixes);
	json_object_int_add(j, "firstTableBits", f->first_bits);
	json_object_int_add(j, "tables", f->groups + (f->first_bits ? 1 : 0));
	json_object_int_add(j, "maxReads", f->depth);
	json_object_object_add(json, key, j);
}

static void family_text(struct vty *vty, const char *name, const struct pnc_pt_dir_family_info *f)
{
	if (!f->first_bits)
		return;
	vty_out(vty, "  %s: %zu prefixes, first table %u bits, %zu tables, at most %u reads\n",
		name, f->prefixes, f->first_bits, f->groups + 1, f->depth);
}

void cnpproxy_lookup_show(struct vty *vty, json_object *json)
{
	struct lookup_pub *p = atomic_load_explicit(&lk.pub, memory_order_acquire);
	bool current = pub_current(p);
	const char *state = current	       ? "compiled"
			    : lk.refused_bytes ? "over-memory-limit"
					       : "compiling";
	struct pnc_pt_dir_info info = {};

	if (p)
		pnc_pt_dir_info(p->dir, &info);
	if (json) {
		json_object *j = json_object_new_object();

		json_object_string_add(j, "state", state);
		json_object_int_add(j, "generation", current ? (int64_t)info.generation : 0);
		json_object_int_add(j, "bytes", current ? (int64_t)info.bytes : 0);
		json_object_int_add(j, "memoryLimit", CNPPROXY_LOOKUP_MAX_BYTES);
		json_object_int_add(j, "refusedBytes", lk.refused_bytes);
		json_object_int_add(j, "builds", lk.builds);
		json_object_int_add(j, "lastBuildUs", lk.last_build_us);
		if (current) {
			family_json(j, "ipv4", &info.v4);
			family_json(j, "ipv6", &info.v6);
		}
		json_object_object_add(json, "lookup", j);
		return;
	}
	if (!current) {
		vty_out(vty, "Lookup: %s%s\n", state,
			lk.refused_bytes ? " (searching the table itself)" : "");
		if (lk.refused_bytes)
			vty_out(vty, "  needs %zu bytes, the limit is %zu\n", lk.refused_bytes,
				CNPPROXY_LOOKUP_MAX_BYTES);
		return;
	}
	vty_out(vty,
		"Lookup: compiled, generation %" PRIu64 ", %zu bytes (%" PRIu64
		" builds, the last took %" PRId64 " us)\n",
		info.generation, info.bytes, lk.builds, lk.last_build_us);
	family_text(vty, "IPv4", &info.v4);
	family_text(vty, "IPv6", &info.v6);
}

void cnpproxy_lookup_init(const struct pnc_pt_table *table)
{
	lk.table = table;
	cnpproxy_lookup_changed();
}

void cnpproxy_lookup_fini(void)
{
	struct lookup_pub *p = atomic_exchange_explicit(&lk.pub, NULL, memory_order_acq_rel);

	event_cancel(&lk.t_build);
	/* The other threads are gone by now. */
	if (p)
		pub_free(p);
}
