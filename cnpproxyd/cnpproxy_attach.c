// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd attachment sets: see cnpproxy_attach.h.
 */
#include <zebra.h>

#include "lib/frrevent.h"
#include "lib/log.h"
#include "lib/privs.h"

#include "cnpproxyd.h"
#include "cnpproxy_attach.h"
#include "cnpproxy_if.h"

static bool named(const char (*names)[PNC_IFNAME_MAX], unsigned int n, const char *name)
{
	for (unsigned int j = 0; j < n; j++)
		if (!strcmp(names[j], name))
			return true;
	return false;
}

static struct cnpproxy_attach_if *find(struct cnpproxy_attach_set *s, const char *name)
{
	for (unsigned int i = 0; i < s->n; i++)
		if (!strcmp(s->ifs[i].name, name))
			return &s->ifs[i];
	return NULL;
}

static void detach(struct cnpproxy_attach_set *s, void *prog, struct cnpproxy_attach_if *ai)
{
	if (!ai->ifindex)
		return;
	if (prog) {
		frr_with_privs (&cnpproxy_privs) {
			s->ops->detach(prog, ai->ifindex);
		}
	}
	ai->ifindex = 0;
}

static const char *what(const struct cnpproxy_attach_set *s, const struct cnpproxy_attach_if *ai)
{
	return s->ops->what_of ? s->ops->what_of(ai->flags) : s->what;
}

/* An attached interface whose flags changed; false if the kernel refuses. */
static bool update(struct cnpproxy_attach_set *s, void *prog, struct cnpproxy_attach_if *ai,
		   unsigned int flags)
{
	int err = 0;

	ai->want = flags;
	if (ai->flags == flags)
		return true;
	if (s->ops->update) {
		frr_with_privs (&cnpproxy_privs) {
			err = s->ops->update(prog, ai->ifindex, flags);
		}
	}
	if (err) {
		zlog_warn("cnpproxyd: cannot change the %s of %s: %s", what(s, ai), ai->name,
			  safe_strerror(-err));
		return false;
	}
	ai->flags = flags;
	return true;
}

static void attach_retry(struct event *t)
{
	const struct cnpproxy_attach_ops *ops = EVENT_ARG(t);

	ops->retry();
}

void cnpproxy_attach_sync(struct cnpproxy_attach_set *s, void *prog,
			  const char (*names)[PNC_IFNAME_MAX], const unsigned int *flags,
			  unsigned int n)
{
	bool refused = false;
	int err;

	for (unsigned int i = 0; i < s->n;) {
		if (named(names, n, s->ifs[i].name)) {
			i++;
			continue;
		}
		if (s->ifs[i].ifindex)
			zlog_info("cnpproxyd: %s off %s", what(s, &s->ifs[i]), s->ifs[i].name);
		detach(s, prog, &s->ifs[i]);
		s->ifs[i] = s->ifs[--s->n];
	}
	for (unsigned int j = 0; j < n; j++) {
		struct cnpproxy_attach_if *ai = find(s, names[j]);
		unsigned int want = flags ? flags[j] : 0;
		int ifindex;

		if (!ai) {
			if (s->n == s->max)
				break; /* the configuration's limit is the set's */
			ai = &s->ifs[s->n++];
			memset(ai, 0, sizeof(*ai));
			strlcpy(ai->name, names[j], sizeof(ai->name));
		}
		if (ai->ifindex) {
			refused |= !update(s, prog, ai, want);
			continue;
		}
		ai->flags = ai->want = want;
		ifindex = cnpproxy_if_index(ai->name);
		if (!ifindex) {
			/* The interface layer tells the owner when it appears. */
			ai->error = "no such interface";
			continue;
		}
		frr_with_privs (&cnpproxy_privs) {
			err = s->ops->attach(prog, ifindex, ai->flags);
		}
		if (err) {
			ai->error = s->ops->attach_error ? s->ops->attach_error
							 : CNPPROXY_ATTACH_REFUSED;
			zlog_warn("cnpproxyd: cannot attach the %s to %s: %s", what(s, ai),
				  ai->name, safe_strerror(-err));
			refused = true;
			continue;
		}
		ai->ifindex = ifindex;
		ai->error = NULL;
		if (s->ops->attached)
			s->ops->attached(prog, ai);
	}
	if (!refused)
		event_cancel(&s->t_retry);
	else if (!s->t_retry)
		event_add_timer(master, attach_retry, (void *)s->ops, s->retry_s, &s->t_retry);
}

void cnpproxy_attach_clear(struct cnpproxy_attach_set *s, void *prog)
{
	event_cancel(&s->t_retry);
	for (unsigned int i = 0; i < s->n; i++)
		detach(s, prog, &s->ifs[i]);
	s->n = 0;
}

bool cnpproxy_attach_if_changed(struct cnpproxy_attach_set *s, void *prog,
				const char (*names)[PNC_IFNAME_MAX], unsigned int n,
				const char *ifname, int ifindex)
{
	struct cnpproxy_attach_if *ai = find(s, ifname);

	if (ai && ai->ifindex && ai->ifindex != ifindex) {
		zlog_info("cnpproxyd: %s interface %s is gone", what(s, ai), ifname);
		detach(s, prog, ai);
		ai->error = "no such interface";
	}
	return ifindex && named(names, n, ifname);
}

const char *cnpproxy_attach_not_operational(struct cnpproxy_attach_set *s)
{
	char *buf = s->why;
	size_t len = sizeof(s->why);

	if (s->error)
		return s->error;
	for (unsigned int i = 0; i < s->n; i++) {
		if (s->ifs[i].ifindex && s->ifs[i].flags != s->ifs[i].want) {
			snprintf(buf, len, "%s on %s: cannot change what runs there",
				 what(s, &s->ifs[i]), s->ifs[i].name);
			return buf;
		}
		if (s->ifs[i].ifindex)
			continue;
		snprintf(buf, len, "%s on %s: %s", what(s, &s->ifs[i]), s->ifs[i].name,
			 s->ifs[i].error ? s->ifs[i].error : "not attached");
		return buf;
	}
	return NULL;
}

const struct cnpproxy_attach_if *cnpproxy_attach_find(const struct cnpproxy_attach_set *s,
						      const char *name)
{
	return find((struct cnpproxy_attach_set *)s, name);
}

bool cnpproxy_attach_view(const struct cnpproxy_attach_set *s, unsigned int i,
			  struct cnpproxy_attach_if *out)
{
	if (i >= s->n)
		return false;
	*out = s->ifs[i];
	return true;
}

unsigned int cnpproxy_attach_count(const struct cnpproxy_attach_set *s)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < s->n; i++)
		n += s->ifs[i].ifindex != 0;
	return n;
}
