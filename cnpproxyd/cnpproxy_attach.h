// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd attachment sets: the interfaces a role's program runs on,
 * from their names in the configuration to the ifindex it is attached to,
 * and why not where it is not.
 *
 * The interface layer (cnpproxy_if.h) says when an interface appears or
 * goes, so a missing interface waits for that event; only an attachment
 * the kernel refused is tried again on a timer.
 */
#ifndef _CNPPROXY_ATTACH_H
#define _CNPPROXY_ATTACH_H

#include <stdbool.h>
#include <stddef.h>

#include "cnpproxy_config.h"

struct event;

/* One interface of a set. */
struct cnpproxy_attach_if {
	char name[PNC_IFNAME_MAX];
	unsigned int flags; /* the owner's: what runs there (the XDP program's stages) */
	unsigned int want;  /* what the owner asks for: not flags while the kernel refuses */
	int ifindex;	    /* attached to; 0 if not */
	const char *error;  /* why not, for show */
};

/* What a set attaches, and how.  prog is the owner's loaded program. */
struct cnpproxy_attach_ops {
	/* Optional: shown when the kernel refuses, instead of CNPPROXY_ATTACH_REFUSED. */
	const char *attach_error;
	/* Optional: what runs on an interface of these flags, instead of the set's what. */
	const char *(*what_of)(unsigned int flags);
	/* 0 or -errno; called with the daemon's privileges raised. */
	int (*attach)(void *prog, int ifindex, unsigned int flags);
	void (*detach)(void *prog, int ifindex);
	/* Optional: an attached interface's flags changed.  0 or -errno. */
	int (*update)(void *prog, int ifindex, unsigned int flags);
	/* Optional: run once an interface is attached (a log line, a start). */
	void (*attached)(void *prog, const struct cnpproxy_attach_if *ai);
	/* The owner's apply, run again after the kernel refused one. */
	void (*retry)(void);
};

struct cnpproxy_attach_set {
	const char *what; /* in logs and reasons: "border filter" */
	const struct cnpproxy_attach_ops *ops;
	struct cnpproxy_attach_if *ifs;
	unsigned int max, n;
	unsigned int retry_s;
	struct event *t_retry;
	/* The owner's: why its program is on no interface at all (not loaded). */
	const char *error;
	char why[64 + PNC_IFNAME_MAX]; /* cnpproxy_attach_not_operational()'s */
};

#define CNPPROXY_ATTACH_REFUSED "refused by the kernel (see the log)"

#define CNPPROXY_ATTACH_SET(what_, ops_, ifs_, retry_s_)                                          \
	{                                                                                         \
		.what = (what_), .ops = (ops_), .ifs = (ifs_), .max = array_size(ifs_),           \
		.retry_s = (retry_s_),                                                            \
	}

/*
 * Make the set the n interfaces named, with their flags (NULL: all 0):
 * detach those no longer named, attach those not attached yet, update
 * those whose flags changed.  prog must be loaded.
 */
extern void cnpproxy_attach_sync(struct cnpproxy_attach_set *s, void *prog,
				 const char (*names)[PNC_IFNAME_MAX], const unsigned int *flags,
				 unsigned int n);
/* Detach every interface (prog NULL: the program is gone with them). */
extern void cnpproxy_attach_clear(struct cnpproxy_attach_set *s, void *prog);
/*
 * The interface layer's event: an interface of the set that is gone or
 * came back with another ifindex is detached.  True if the owner should
 * apply again: the interface is there now and is one of the n names
 * configured (the set is empty while the program is not loaded).
 */
extern bool cnpproxy_attach_if_changed(struct cnpproxy_attach_set *s, void *prog,
				       const char (*names)[PNC_IFNAME_MAX], unsigned int n,
				       const char *ifname, int ifindex);
/*
 * Why the set's program does not run where it should: the owner's error,
 * else the first interface not attached as "<what> on IF: why"; NULL if
 * it runs everywhere.
 */
extern const char *cnpproxy_attach_not_operational(struct cnpproxy_attach_set *s);
extern unsigned int cnpproxy_attach_count(const struct cnpproxy_attach_set *s);
/* The interface of that name in the set, or NULL. */
extern const struct cnpproxy_attach_if *cnpproxy_attach_find(const struct cnpproxy_attach_set *s,
							     const char *name);
/* The interface at position i of the set, copied to out; false past the end. */
extern bool cnpproxy_attach_view(const struct cnpproxy_attach_set *s, unsigned int i,
				 struct cnpproxy_attach_if *out);

#endif /* _CNPPROXY_ATTACH_H */
