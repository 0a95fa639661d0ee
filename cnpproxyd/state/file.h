// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd's state files (learned flows, flow labels) under FRR's
 * runstatedir: ephemeral across reboots, as what they hold is, and read
 * by a restarted daemon.  Written to a new file renamed over the old, so
 * a crash never leaves half a file.
 */
#ifndef _CNPPROXY_STATE_FILE_H
#define _CNPPROXY_STATE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Replace state file name by len octets of buf.  0 or -errno. */
extern int cnpproxy_state_file_write(const char *name, const uint8_t *buf, size_t len);

/* What a state file did, for show commands. */
struct cnpproxy_state_stats {
	uint64_t restored, saves, save_errors;
	const char *restore_error; /* why the last restore read nothing; NULL: it did, or no file */
};

struct vty;
struct json_object;

/*
 * Read state file name (at most max octets) and hand it to decode, which
 * returns the number of records or a PNC_STATE_E_*.  A file last written
 * more than max_age_s ago is not read: what it holds would have aged out
 * meanwhile (it may be left by a role removed while the daemon was
 * down).  Sets st's restore fields (decode counts st->restored), logs
 * the outcome, naming the records what, and returns st->restored.
 */
extern size_t cnpproxy_state_file_load(const char *name, const char *what, size_t max,
				       unsigned int max_age_s,
				       int (*decode)(const uint8_t *buf, size_t len, void *arg),
				       void *arg, struct cnpproxy_state_stats *st);

/*
 * Keeps a state file up to date: written every CNPPROXY_STATE_SAVE_S
 * seconds while what it holds changes, every CNPPROXY_STATE_REFRESH_S
 * seconds anyway (so that what changes without moving the generation,
 * last-seen times, is not too old), and when it stops.
 */
#define CNPPROXY_STATE_SAVE_S	 2
#define CNPPROXY_STATE_REFRESH_S 30

struct event;

struct cnpproxy_state_saver {
	const char *name;
	/* A number that moves with every change of obj worth writing at once. */
	uint64_t (*generation)(const void *obj);
	/* Write obj to state file name: 0 or -errno. */
	int (*write)(const void *obj, const char *name);

	const void *obj; /* NULL: stopped */
	struct event *t_save;
	uint64_t written_gen;
	bool dirty;	    /* write at the next tick whatever the generation */
	unsigned int ticks; /* since the last write */
	struct cnpproxy_state_stats st;
};

/* Start keeping obj on file (what was just restored is on file already). */
extern void cnpproxy_state_saver_start(struct cnpproxy_state_saver *sv, const void *obj);
/* The generation may have moved back (its counters cleared): write anyway. */
extern void cnpproxy_state_saver_touch(struct cnpproxy_state_saver *sv);
/* Write now and stop: a clean stop, kept for the next start. */
extern void cnpproxy_state_saver_stop(struct cnpproxy_state_saver *sv);
/* Stop and remove the file: what it held is forgotten. */
extern void cnpproxy_state_saver_forget(struct cnpproxy_state_saver *sv);

/* JSON object key (e.g. "flowStateFile") or one text line headed what. */
extern void cnpproxy_state_file_show(struct vty *vty, struct json_object *json, const char *key,
				     const char *what, const struct cnpproxy_state_stats *st);

#endif /* _CNPPROXY_STATE_FILE_H */
