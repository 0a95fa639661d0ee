// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The flow-label tunnel's labels kept in a state file (tunnel/labels_file.h).
 */
#include <zebra.h>

#include "lib/memory.h"

#include "cnpproxyd.h"
#include "tunnel/labels_file.h"
#include "tunnel/labels_state.h"
#include "state/file.h"
#include "tunnel/tunnel_tc.h"

DEFINE_MTYPE_STATIC(CNPPROXYD, CNPPROXY_LABELS_FILE, "cnpproxyd flow-label state buffer");

/*
 * Labels handed out after the last save (at most 2 s before a crash) are
 * not on file; drawn at random, one of them is given to another flow
 * while FCNs naming it may still be in flight only by the chance of a
 * draw among 2^19 - 1.
 */
#define FL_FILE_NAME "cnpproxyd-flow-labels.state"

static uint64_t generation(const void *obj);
static int save(const void *obj, const char *name);

static struct cnpproxy_state_saver lf = {
	.name = FL_FILE_NAME,
	.generation = generation,
	.write = save,
};

/*
 * Labels handed out (aged ones are written with the next refresh).  The
 * counter goes back to 0 with clear cnpproxy counters: tunnel/tunnel.c
 * touches the saver then.
 */
static uint64_t generation(const void *obj)
{
	struct pnc_tunnel_counters c;

	return pnc_tunnel_counters(obj, &c) ? 0 : c.v[PNC_TUNNEL_C_LABELS_ALLOCATED];
}

static void restore_one(const struct pnc_tunnel_flow *f, void *arg)
{
	if (!pnc_tunnel_restore_flow(arg, f))
		lf.st.restored++;
}

static int decode(const uint8_t *buf, size_t len, void *arg)
{
	uint32_t unused;

	return pnc_labels_state_decode(buf, len, &unused, restore_one, arg);
}

size_t cnpproxy_labels_file_restore(struct pnc_tunnel_tc *fe, unsigned int max_age_s)
{
	return cnpproxy_state_file_load(FL_FILE_NAME, "flow labels",
					pnc_labels_state_size(PNC_TUNNEL_FLOWS_MAX), max_age_s,
					decode, fe, &lf.st);
}

struct collect {
	struct pnc_tunnel_flow *s;
	size_t n, max;
};

static int collect(void *arg, const struct pnc_tunnel_flow *f)
{
	struct collect *c = arg;

	if (c->n == c->max) {
		c->max = c->max ? 2 * c->max : 64;
		c->s = XREALLOC(MTYPE_CNPPROXY_LABELS_FILE, c->s, c->max * sizeof(*c->s));
	}
	c->s[c->n++] = *f;
	return 0;
}

static int save(const void *obj, const char *name)
{
	const struct pnc_tunnel_tc *fe = obj;
	struct collect c = {};
	uint8_t *buf;
	size_t len;
	int err;

	err = pnc_tunnel_for_each_flow(fe, collect, &c);
	if (!err) {
		len = pnc_labels_state_size(c.n);
		buf = XMALLOC(MTYPE_CNPPROXY_LABELS_FILE, len);
		pnc_labels_state_encode(0, c.s, c.n, buf);
		err = cnpproxy_state_file_write(name, buf, len);
		XFREE(MTYPE_CNPPROXY_LABELS_FILE, buf);
	}
	XFREE(MTYPE_CNPPROXY_LABELS_FILE, c.s);
	return err;
}

void cnpproxy_labels_file_start(struct pnc_tunnel_tc *fe)
{
	cnpproxy_state_saver_start(&lf, fe);
}

void cnpproxy_labels_file_touch(void)
{
	cnpproxy_state_saver_touch(&lf);
}

void cnpproxy_labels_file_stop(void)
{
	cnpproxy_state_saver_stop(&lf);
}

void cnpproxy_labels_file_forget(void)
{
	cnpproxy_state_saver_forget(&lf);
}

void cnpproxy_labels_file_show(struct vty *vty, struct json_object *json)
{
	cnpproxy_state_file_show(vty, json, "labelStateFile", "Label state file", &lf.st);
}
