// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd's state files (state/file.h).
 */
#include <zebra.h>

#include <fcntl.h>
#include <sys/stat.h>

#include "lib/frrevent.h"
#include "lib/json.h"
#include "lib/libfrr.h"
#include "lib/log.h"
#include "lib/memory.h"
#include "lib/vty.h"

#include "cnpproxyd.h"
#include "cnpproxy_debug.h"
#include "state/file.h"
#include "state/frame.h"

DEFINE_MTYPE_STATIC(CNPPROXYD, CNPPROXY_STATE_FILE, "cnpproxyd state file buffer");

/* Room for the path of a state file under the runstatedir. */
#define STATE_PATH_MAX 256

/* The path of state file name; empty when it does not fit. */
static const char *state_path(const char *name, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/%s", frr_runstatedir, name);

	/* Cut short, it would name another file: name none (open() fails). */
	if (n < 0 || (size_t)n >= len)
		buf[0] = '\0';
	return buf;
}

static void state_free(uint8_t *buf)
{
	XFREE(MTYPE_CNPPROXY_STATE_FILE, buf);
}

/*
 * Read all of state file name, at most max octets, into *buf (free with
 * state_free()), and when it was last written.  0, -ENOENT when there is
 * none, -EFBIG when it is larger, or another -errno.
 */
static int state_read(const char *name, size_t max, uint8_t **buf, size_t *len, time_t *written)
{
	char path[STATE_PATH_MAX];
	struct stat st;
	size_t got = 0;
	ssize_t n;
	int fd;

	*buf = NULL;
	*len = 0;
	fd = open(state_path(name, path, sizeof(path)), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		n = -errno;
		close(fd);
		return (int)n;
	}
	*written = st.st_mtime;
	/* One octet more than allowed tells a file that is too large. */
	*buf = XMALLOC(MTYPE_CNPPROXY_STATE_FILE, max + 1);
	while (got <= max && (n = read(fd, *buf + got, max + 1 - got)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			n = -errno;
			close(fd);
			state_free(*buf);
			*buf = NULL;
			return (int)n;
		}
		got += (size_t)n;
	}
	close(fd);
	if (got > max) {
		state_free(*buf);
		*buf = NULL;
		return -EFBIG;
	}
	*len = got;
	return 0;
}

int cnpproxy_state_file_write(const char *name, const uint8_t *buf, size_t len)
{
	char path[STATE_PATH_MAX], tmp[STATE_PATH_MAX + 4];
	size_t off = 0;
	ssize_t n;
	int fd, err = 0;

	if (!*state_path(name, path, sizeof(path)))
		return -ENAMETOOLONG;
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	while (!err && off < len) {
		n = write(fd, buf + off, len - off);
		if (n < 0 && errno != EINTR)
			err = -errno;
		else if (n > 0)
			off += (size_t)n;
	}
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err && rename(tmp, path) < 0)
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

static void state_remove(const char *name)
{
	char path[STATE_PATH_MAX];

	unlink(state_path(name, path, sizeof(path)));
}

size_t cnpproxy_state_file_load(const char *name, const char *what, size_t max,
				unsigned int max_age_s,
				int (*decode)(const uint8_t *buf, size_t len, void *arg),
				void *arg, struct cnpproxy_state_stats *st)
{
	char path[STATE_PATH_MAX];
	time_t written = 0;
	uint8_t *buf;
	size_t len;
	int rv;

	st->restored = 0;
	st->restore_error = NULL;
	rv = state_read(name, max, &buf, &len, &written);
	if (rv == -ENOENT)
		return 0;
	if (rv < 0) {
		st->restore_error = rv == -EFBIG ? pnc_state_strerror(PNC_STATE_E_LENGTH)
						 : safe_strerror(-rv);
	} else if (time(NULL) - written > (time_t)max_age_s) {
		state_free(buf);
		st->restore_error = "older than what it holds can live";
	} else {
		rv = decode(buf, len, arg);
		state_free(buf);
		if (rv < 0)
			st->restore_error = pnc_state_strerror(rv);
	}
	if (st->restore_error) {
		zlog_warn("cnpproxyd: %s: not restored: %s", state_path(name, path, sizeof(path)),
			  st->restore_error);
		return 0;
	}
	if (rv > 0)
		zlog_info("cnpproxyd: restored %" PRIu64 " %s of %d from %s", st->restored, what,
			  rv, name);
	return st->restored;
}

void cnpproxy_state_file_show(struct vty *vty, struct json_object *json, const char *key,
			      const char *what, const struct cnpproxy_state_stats *st)
{
	if (json) {
		json_object *j = json_object_new_object();

		json_object_int_add(j, "restored", st->restored);
		if (st->restore_error)
			json_object_string_add(j, "restoreError", st->restore_error);
		json_object_int_add(j, "saves", st->saves);
		json_object_int_add(j, "saveErrors", st->save_errors);
		json_object_object_add(json, key, j);
		return;
	}
	vty_out(vty, "%s: %" PRIu64 " restored%s%s, %" PRIu64 " saves, %" PRIu64 " save errors\n",
		what, st->restored, st->restore_error ? ", not read: " : "",
		st->restore_error ? st->restore_error : "", st->saves, st->save_errors);
}

static void saver_write(struct cnpproxy_state_saver *sv, uint64_t gen)
{
	int err = sv->write(sv->obj, sv->name);

	if (err) {
		sv->st.save_errors++;
		DEBUGD(&cnpproxy_dbg_proxy, "proxy: cannot write %s: %s", sv->name,
		       safe_strerror(-err));
		return;
	}
	sv->st.saves++;
	sv->written_gen = gen;
	sv->dirty = false;
	sv->ticks = 0;
}

static void saver_tick(struct event *ev)
{
	struct cnpproxy_state_saver *sv = EVENT_ARG(ev);
	uint64_t gen = sv->generation(sv->obj);

	if (sv->dirty || gen != sv->written_gen ||
	    ++sv->ticks >= CNPPROXY_STATE_REFRESH_S / CNPPROXY_STATE_SAVE_S)
		saver_write(sv, gen);
	event_add_timer(master, saver_tick, sv, CNPPROXY_STATE_SAVE_S, &sv->t_save);
}

void cnpproxy_state_saver_start(struct cnpproxy_state_saver *sv, const void *obj)
{
	if (sv->obj == obj)
		return;
	sv->obj = obj;
	sv->written_gen = sv->generation(obj);
	sv->dirty = false;
	sv->ticks = 0;
	event_add_timer(master, saver_tick, sv, CNPPROXY_STATE_SAVE_S, &sv->t_save);
}

void cnpproxy_state_saver_touch(struct cnpproxy_state_saver *sv)
{
	sv->dirty = true;
}

void cnpproxy_state_saver_stop(struct cnpproxy_state_saver *sv)
{
	if (!sv->obj)
		return;
	saver_write(sv, sv->generation(sv->obj));
	event_cancel(&sv->t_save);
	sv->obj = NULL;
}

void cnpproxy_state_saver_forget(struct cnpproxy_state_saver *sv)
{
	event_cancel(&sv->t_save);
	sv->obj = NULL;
	state_remove(sv->name);
}
