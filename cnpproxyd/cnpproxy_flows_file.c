// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The proxy role's learned flows kept in a file (cnpproxy_flows_file.h).
 */
#include <zebra.h>

#include <fcntl.h>

#include "lib/frrevent.h"
#include "lib/json.h"
#include "lib/libfrr.h"
#include "lib/log.h"
#include "lib/memory.h"
#include "lib/vty.h"

#include "cnpproxyd.h"
#include "cnpproxy_debug.h"
#include "cnpproxy_flows.h"
#include "cnpproxy_flows_file.h"
#include "cnpproxy_flows_state.h"

DEFINE_MTYPE_STATIC(CNPPROXYD, PNC_FLOWS_FILE, "cnpproxyd flow state file buffer");

#define FLOWS_FILE_NAME	  "cnpproxyd-flows.state"
#define FLOWS_FILE_SAVE_S 2
/* Traffic only refreshes last-seen times: write those now and then too. */
#define FLOWS_FILE_REFRESH_S 30

static struct {
	struct pnc_flow_table *t;
	struct event *t_save;
	uint64_t generation; /* of the table when last written */
	unsigned int ticks;  /* since the last write */
	uint64_t restored, saves, save_errors;
	const char *restore_error; /* why the last restore read nothing; NULL: it did, or no file */
} ff;

static void path(char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", frr_runstatedir, FLOWS_FILE_NAME);
}

/*
 * Changes whenever a flow is installed, re-paired, removed or aged: the
 * counters only grow, so their sum moves with every such event.
 */
static uint64_t generation(const struct pnc_flow_table *t)
{
	struct pnc_flow_stats st;

	pnc_flow_table_stats(t, &st);
	return st.learned_cm + st.learned_psn + st.cm_removed + st.aged_flows;
}

static void restore_one(const struct pnc_flow_saved *s, void *arg)
{
	struct pnc_flow_table *t = arg;
	int rv = pnc_flow_table_restore(t, s, cnpproxy_now_us());

	if (rv == PNC_FLOW_LEARNED_CM || rv == PNC_FLOW_LEARNED_PSN)
		ff.restored++;
}

size_t cnpproxy_flows_file_restore(struct pnc_flow_table *t)
{
	char name[sizeof(frr_runstatedir) + sizeof(FLOWS_FILE_NAME) + 1];
	size_t max = pnc_flows_state_size(65536 * 4), got = 0;
	uint8_t *buf;
	ssize_t n;
	int fd, rv;

	ff.restored = 0;
	ff.restore_error = NULL;
	path(name, sizeof(name));
	fd = open(name, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno != ENOENT)
			ff.restore_error = safe_strerror(errno);
		return 0;
	}
	buf = XMALLOC(MTYPE_PNC_FLOWS_FILE, max + 1);
	while (got <= max && (n = read(fd, buf + got, max + 1 - got)) > 0)
		got += (size_t)n;
	close(fd);
	rv = got > max ? PNC_FLOWS_STATE_E_LENGTH
		       : pnc_flows_state_decode(buf, got, restore_one, t);
	XFREE(MTYPE_PNC_FLOWS_FILE, buf);
	if (rv < 0) {
		ff.restore_error = pnc_flows_state_strerror(rv);
		zlog_warn("cnpproxyd: %s: not restored: %s", name, pnc_flows_state_strerror(rv));
		return 0;
	}
	zlog_info("cnpproxyd: restored %" PRIu64 " learned flows of %d from %s", ff.restored, rv,
		  name);
	return ff.restored;
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

/* Write to a new file and rename it over the old: never half a file. */
static int save(const struct pnc_flow_table *t)
{
	char name[sizeof(frr_runstatedir) + sizeof(FLOWS_FILE_NAME) + 1];
	char tmp[sizeof(name) + 4];
	struct collect c = { .max = pnc_flow_table_count(t) };
	size_t len, off = 0;
	uint8_t *buf;
	ssize_t n;
	int fd, err = 0;

	c.s = XCALLOC(MTYPE_PNC_FLOWS_FILE, (c.max ? c.max : 1) * sizeof(*c.s));
	pnc_flow_table_walk_saved(t, collect, &c);
	qsort(c.s, c.n, sizeof(*c.s), by_last_seen);
	len = pnc_flows_state_size(c.n);
	buf = XMALLOC(MTYPE_PNC_FLOWS_FILE, len);
	pnc_flows_state_encode(c.s, c.n, buf);
	XFREE(MTYPE_PNC_FLOWS_FILE, c.s);

	path(name, sizeof(name));
	snprintf(tmp, sizeof(tmp), "%s.new", name);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		err = -errno;
	while (!err && off < len) {
		n = write(fd, buf + off, len - off);
		if (n < 0 && errno != EINTR)
			err = -errno;
		else if (n > 0)
			off += (size_t)n;
	}
	if (fd >= 0 && close(fd) < 0 && !err)
		err = -errno;
	if (!err && rename(tmp, name) < 0)
		err = -errno;
	if (err)
		unlink(tmp);
	XFREE(MTYPE_PNC_FLOWS_FILE, buf);
	if (err) {
		ff.save_errors++;
		DEBUGD(&cnp_dbg_proxy, "proxy: cannot write %s: %s", name, safe_strerror(-err));
	} else {
		ff.saves++;
	}
	return err;
}

static void save_tick(struct event *ev)
{
	uint64_t gen = generation(ff.t);
	bool stale = pnc_flow_table_count(ff.t) &&
		     ++ff.ticks >= FLOWS_FILE_REFRESH_S / FLOWS_FILE_SAVE_S;

	if ((gen != ff.generation || stale) && !save(ff.t)) {
		ff.generation = gen;
		ff.ticks = 0;
	}
	event_add_timer(master, save_tick, NULL, FLOWS_FILE_SAVE_S, &ff.t_save);
}

void cnpproxy_flows_file_start(struct pnc_flow_table *t)
{
	if (ff.t == t)
		return;
	ff.t = t;
	/* What was just restored is on file already. */
	ff.generation = generation(t);
	event_add_timer(master, save_tick, NULL, FLOWS_FILE_SAVE_S, &ff.t_save);
}

void cnpproxy_flows_file_stop(void)
{
	if (!ff.t)
		return;
	save(ff.t);
	event_cancel(&ff.t_save);
	ff.t = NULL;
}

void cnpproxy_flows_file_forget(void)
{
	char name[sizeof(frr_runstatedir) + sizeof(FLOWS_FILE_NAME) + 1];

	event_cancel(&ff.t_save);
	ff.t = NULL;
	path(name, sizeof(name));
	unlink(name);
}

void cnpproxy_flows_file_show(struct vty *vty, struct json_object *json)
{
	if (json) {
		json_object *j = json_object_new_object();

		json_object_int_add(j, "restored", ff.restored);
		if (ff.restore_error)
			json_object_string_add(j, "restoreError", ff.restore_error);
		json_object_int_add(j, "saves", ff.saves);
		json_object_int_add(j, "saveErrors", ff.save_errors);
		json_object_object_add(json, "flowStateFile", j);
		return;
	}
	vty_out(vty,
		"Flow state file: %" PRIu64 " flows restored%s%s, %" PRIu64 " saves, %" PRIu64
		" save errors\n",
		ff.restored, ff.restore_error ? ", not read: " : "",
		ff.restore_error ? ff.restore_error : "", ff.saves, ff.save_errors);
}
