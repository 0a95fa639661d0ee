// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The proxy role's learned flows kept in a file (proxy/flows_file.h).
 */
#include <zebra.h>

#include "lib/json.h"
#include "lib/memory.h"
#include "lib/vty.h"

#include "cnpproxyd.h"
#include "cnpproxy_fp.h"
#include "proxy/flows.h"
#include "proxy/flows_file.h"
#include "proxy/flows_state.h"
#include "state/file.h"

DEFINE_MTYPE_STATIC(CNPPROXYD, CNPPROXY_FLOWS_FILE, "cnpproxyd flow state file buffer");

#define FLOWS_FILE_NAME "cnpproxyd-flows.state"

static uint64_t generation(const void *obj);
static int save(const void *obj, const char *name);

/* Traffic only refreshes last-seen times: the saver writes those now and then. */
static struct cnpproxy_state_saver ff = {
	.name = FLOWS_FILE_NAME,
	.generation = generation,
	.write = save,
};

/*
 * Changes whenever a flow is installed, re-paired, removed or aged: the
 * counters only grow, so their sum moves with every such event.
 */
static uint64_t generation(const void *obj)
{
	const struct pnc_flow_table *t = obj;
	struct pnc_flow_stats st;

	/* Its lookup counts are the fast path's. */
	frr_with_mutex (&cnpproxy_fp_mtx) {
		pnc_flow_table_stats(t, &st);
	}
	return st.learned_cm + st.learned_psn + st.cm_removed + st.aged_flows;
}

static void restore_one(const struct pnc_flow_saved *s, void *arg)
{
	struct pnc_flow_table *t = arg;
	int rv = pnc_flow_table_restore(t, s, cnpproxy_now_us());

	if (rv == PNC_FLOW_LEARNED_CM || rv == PNC_FLOW_LEARNED_PSN)
		ff.st.restored++;
}

static int decode(const uint8_t *buf, size_t len, void *arg)
{
	return pnc_flows_state_decode(buf, len, restore_one, arg);
}

size_t cnpproxy_flows_file_restore(struct pnc_flow_table *t, unsigned int max_age_s)
{
	return cnpproxy_state_file_load(FLOWS_FILE_NAME, "learned flows",
					pnc_flows_state_size(65536 * 4), max_age_s, decode, t,
					&ff.st);
}

struct collect {
	struct pnc_flow_saved *s;
	size_t n, max;
};

static void collect(const struct pnc_flow_saved *s, void *arg)
{
	struct collect *c = arg;

	if (c->n < c->max)
		c->s[c->n++] = *s;
}

/* Oldest first: restored in this order, they age in it too. */
static int by_last_seen(const void *a, const void *b)
{
	uint64_t x = ((const struct pnc_flow_saved *)a)->f.last_seen_us;
	uint64_t y = ((const struct pnc_flow_saved *)b)->f.last_seen_us;

	return x < y ? -1 : x > y;
}

static int save(const void *obj, const char *name)
{
	const struct pnc_flow_table *t = obj;
	struct collect c = { .max = pnc_flow_table_count(t) };
	size_t len;
	uint8_t *buf;
	int err;

	c.s = XCALLOC(MTYPE_CNPPROXY_FLOWS_FILE, (c.max ? c.max : 1) * sizeof(*c.s));
	pnc_flow_table_walk_saved(t, collect, &c);
	qsort(c.s, c.n, sizeof(*c.s), by_last_seen);
	len = pnc_flows_state_size(c.n);
	buf = XMALLOC(MTYPE_CNPPROXY_FLOWS_FILE, len);
	pnc_flows_state_encode(c.s, c.n, buf);
	XFREE(MTYPE_CNPPROXY_FLOWS_FILE, c.s);
	err = cnpproxy_state_file_write(name, buf, len);
	XFREE(MTYPE_CNPPROXY_FLOWS_FILE, buf);
	return err;
}

void cnpproxy_flows_file_start(struct pnc_flow_table *t)
{
	cnpproxy_state_saver_start(&ff, t);
}

void cnpproxy_flows_file_stop(void)
{
	cnpproxy_state_saver_stop(&ff);
}

void cnpproxy_flows_file_forget(void)
{
	cnpproxy_state_saver_forget(&ff);
}

void cnpproxy_flows_file_show(struct vty *vty, struct json_object *json)
{
	cnpproxy_state_file_show(vty, json, "flowStateFile", "Flow state file", &ff.st);
}
