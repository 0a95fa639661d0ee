// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loader of the flow-label encapsulation programs: libbpf skeleton, tc
 * clsact filters per interface and direction, tunnel / SID / flow maps,
 * per-CPU counters.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "cnpproxy_alloc.h"
#include "bpfutil/percpu.h"
#include "tunnel/flenc_tc.h"
#include "bpfutil/tc_filter.h"
#include "flenc.skel.h"

/* One of our filters. */
struct flenc_if {
	int ifindex;
	enum bpf_tc_attach_point dir; /* BPF_TC_EGRESS: encap, INGRESS: decap */
	__u32 priority;
	__u32 prog_id;
	bool own_qdisc; /* clsact created by us, for this and later filters */
};

struct pnc_flenc_tc {
	struct pnc_flenc *skel;
	struct flenc_if *ifs;
	size_t nifs;
};

struct pnc_flenc_tc *pnc_flenc_open(const struct pnc_flenc_cfg *cfg)
{
	struct pnc_flenc_tc *fe;
	int err;

	fe = pnc_calloc(PNC_POOL_BPF, 1, sizeof(*fe));
	if (!fe)
		return NULL;
	fe->skel = pnc_flenc__open();
	if (!fe->skel) {
		err = -errno;
		goto fail;
	}
	if (cfg)
		fe->skel->data->pnc_cfg = *cfg;
	err = pnc_flenc__load(fe->skel);
	if (err)
		goto fail;
	return fe;

fail:
	pnc_flenc_close(fe);
	errno = err < 0 ? -err : EINVAL;
	return NULL;
}

void pnc_flenc_close(struct pnc_flenc_tc *fe)
{
	if (!fe)
		return;
	while (fe->nifs) {
		struct flenc_if *fi = &fe->ifs[fe->nifs - 1];

		if (fi->dir == BPF_TC_EGRESS)
			pnc_flenc_detach(fe, fi->ifindex);
		else
			pnc_flenc_detach_decap(fe, fi->ifindex);
	}
	pnc_free(PNC_POOL_BPF, fe->ifs);
	pnc_flenc__destroy(fe->skel);
	pnc_free(PNC_POOL_BPF, fe);
}

static struct flenc_if *find_if(struct pnc_flenc_tc *fe, int ifindex, enum bpf_tc_attach_point dir)
{
	size_t i;

	for (i = 0; i < fe->nifs; i++)
		if (fe->ifs[i].ifindex == ifindex && (fe->ifs[i].dir & dir))
			return &fe->ifs[i];
	return NULL;
}

/*
 * Remove a clsact qdisc we created once it holds no filter at all: some
 * other program (the congestion point's marker, say) may have put its
 * own into it meanwhile.
 */
static int clsact_release(struct pnc_flenc_tc *fe, int ifindex)
{
	if (find_if(fe, ifindex, BPF_TC_INGRESS | BPF_TC_EGRESS))
		return 0;
	return pnc_tc_clsact_release(ifindex);
}

/*
 * Make sure a clsact qdisc is there; *created tells whether it is ours,
 * either made now or made by us for our other filter on the interface.
 */
static int ensure_clsact(struct pnc_flenc_tc *fe, int ifindex, bool *created)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex, .attach_point = BPF_TC_EGRESS);
	struct flenc_if *other = find_if(fe, ifindex, BPF_TC_INGRESS | BPF_TC_EGRESS);
	int err;

	if (other) {
		*created = other->own_qdisc;
		return 0;
	}
	err = bpf_tc_hook_create(&hook);
	if (err && err != -EEXIST)
		return err;
	*created = !err;
	return 0;
}

static int tc_attach(struct pnc_flenc_tc *fe, int ifindex, enum bpf_tc_attach_point dir,
		     const struct bpf_program *prog)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex, .attach_point = dir);
	__u32 prio = dir == BPF_TC_EGRESS ? PNC_TC_PRIORITY_ENCAP : PNC_TC_PRIORITY_DECAP;
	LIBBPF_OPTS(bpf_tc_opts, opts, .handle = PNC_TC_HANDLE, .priority = prio,
		    .prog_fd = bpf_program__fd(prog));
	struct flenc_if *ifs;
	bool created;
	int err;

	if (find_if(fe, ifindex, dir))
		return -EEXIST;
	ifs = pnc_realloc(PNC_POOL_BPF, fe->ifs, (fe->nifs + 1) * sizeof(*ifs));
	if (!ifs)
		return -ENOMEM;
	fe->ifs = ifs;

	err = ensure_clsact(fe, ifindex, &created);
	if (err)
		return err;
	/*
	 * A filter of ours that a killed process left encapsulates with its
	 * own labels, and would go on doing so after we are unconfigured
	 * (none can be in a clsact we made).
	 */
	if (!created)
		pnc_tc_filter_del(&hook, PNC_TC_HANDLE, prio, 0, bpf_program__name(prog));
	err = bpf_tc_attach(&hook, &opts);
	if (err) {
		if (created)
			clsact_release(fe, ifindex);
		return err;
	}
	fe->ifs[fe->nifs] = (struct flenc_if){
		.ifindex = ifindex,
		.dir = dir,
		.priority = prio,
		.prog_id = opts.prog_id,
		.own_qdisc = created,
	};
	fe->nifs++;
	return 0;
}

static int tc_detach(struct pnc_flenc_tc *fe, int ifindex, enum bpf_tc_attach_point dir)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex, .attach_point = dir);
	struct flenc_if *fi = find_if(fe, ifindex, dir);
	bool own_qdisc;
	int err;

	if (!fi)
		return -ENOENT;
	own_qdisc = fi->own_qdisc;
	err = pnc_tc_filter_del(&hook, PNC_TC_HANDLE, fi->priority, fi->prog_id, NULL);
	/*
	 * Gone already (interface deleted, someone flushed), or replaced by
	 * another process: not an error.
	 */
	if (err == -ENOENT || err == -EBUSY)
		err = 0;
	*fi = fe->ifs[--fe->nifs];
	if (own_qdisc) {
		int rv = clsact_release(fe, ifindex);

		if (!err)
			err = rv;
	}
	return err;
}

int pnc_flenc_attach(struct pnc_flenc_tc *fe, int ifindex)
{
	return tc_attach(fe, ifindex, BPF_TC_EGRESS, fe->skel->progs.pnc_flenc);
}

int pnc_flenc_detach(struct pnc_flenc_tc *fe, int ifindex)
{
	return tc_detach(fe, ifindex, BPF_TC_EGRESS);
}

int pnc_flenc_attach_decap(struct pnc_flenc_tc *fe, int ifindex)
{
	return tc_attach(fe, ifindex, BPF_TC_INGRESS, fe->skel->progs.pnc_fldec);
}

int pnc_flenc_detach_decap(struct pnc_flenc_tc *fe, int ifindex)
{
	return tc_detach(fe, ifindex, BPF_TC_INGRESS);
}

void pnc_flenc_set_source(struct pnc_flenc_tc *fe, const uint8_t src[16])
{
	/* .data is mmap'ed: the program sees it at once. */
	memcpy(fe->skel->data->pnc_cfg.src, src, 16);
}

static int prefix_key(int family, const uint8_t *prefix, unsigned int plen,
		      struct pnc_flenc_prefix *key)
{
	unsigned int alen = family == 4 ? 4 : 16, i;

	if ((family != 4 && family != 6) || plen > alen * 8)
		return -EINVAL;
	memset(key, 0, sizeof(*key));
	key->prefixlen = PNC_FLENC_PREFIX_BITS(plen);
	key->family = (__u8)family;
	memcpy(key->addr, prefix, alen);
	/* Host bits off, so that a prefix has one key. */
	for (i = 0; i < alen; i++) {
		if (plen >= 8 * (i + 1))
			continue;
		key->addr[i] &= plen > 8 * i ? (uint8_t)(0xff << (8 - (plen - 8 * i))) : 0;
	}
	return 0;
}

static int map_err(int rv)
{
	return rv < 0 ? -errno : 0;
}

int pnc_flenc_add_tunnel(struct pnc_flenc_tc *fe, int family, const uint8_t *prefix,
			 unsigned int plen, const uint8_t dst[16], uint32_t vni,
			 const uint8_t *router_mac)
{
	struct pnc_flenc_tunnel t = {};
	struct pnc_flenc_prefix key;
	int err = prefix_key(family, prefix, plen, &key);

	if (err)
		return err;
	if (vni > 0xffffff || (vni && !router_mac))
		return -EINVAL;
	memcpy(t.dst, dst, sizeof(t.dst));
	t.vni = vni;
	if (vni)
		memcpy(t.router_mac, router_mac, sizeof(t.router_mac));
	return map_err(bpf_map__update_elem(fe->skel->maps.tunnels, &key, sizeof(key), &t,
					    sizeof(t), BPF_ANY));
}

int pnc_flenc_del_tunnel(struct pnc_flenc_tc *fe, int family, const uint8_t *prefix,
			 unsigned int plen)
{
	struct pnc_flenc_prefix key;
	int err = prefix_key(family, prefix, plen, &key);

	if (err)
		return err;
	return map_err(bpf_map__delete_elem(fe->skel->maps.tunnels, &key, sizeof(key), 0));
}

int pnc_flenc_add_sid(struct pnc_flenc_tc *fe, const uint8_t sid[16])
{
	uint8_t one = 1;

	return map_err(bpf_map__update_elem(fe->skel->maps.sids, sid, 16, &one, 1, BPF_ANY));
}

int pnc_flenc_del_sid(struct pnc_flenc_tc *fe, const uint8_t sid[16])
{
	return map_err(bpf_map__delete_elem(fe->skel->maps.sids, sid, 16, 0));
}

static void flow_from(const struct pnc_flenc_flow_key *k, const struct pnc_flenc_flow_val *v,
		      struct pnc_flenc_flow *f)
{
	memset(f, 0, sizeof(*f));
	f->ip_version = k->ip_version;
	memcpy(f->src, k->src, sizeof(f->src));
	memcpy(f->dst, k->dst, sizeof(f->dst));
	f->dest_qp = k->dest_qp;
	f->pkey = v->pkey;
	f->sport = v->sport;
	f->label = v->label;
	f->first_ns = v->first_ns;
	f->last_ns = v->last_ns;
	f->pkts = v->pkts;
	f->bytes = v->bytes;
}

int pnc_flenc_lookup_label(const struct pnc_flenc_tc *fe, uint32_t label,
			   struct pnc_flenc_flow *out)
{
	struct pnc_flenc_flow_key key;
	struct pnc_flenc_flow_val val;
	__u32 l = label;

	if (!label || label > PNC_FLENC_LABEL_ALLOC_MAX)
		return -ENOENT;
	if (bpf_map__lookup_elem(fe->skel->maps.labels, &l, sizeof(l), &key, sizeof(key), 0))
		return -errno;
	if (bpf_map__lookup_elem(fe->skel->maps.flows, &key, sizeof(key), &val, sizeof(val), 0))
		return -errno;
	/* Aged and learned again between the two lookups: another label. */
	if (val.label != label)
		return -ENOENT;
	flow_from(&key, &val, out);
	return 0;
}

static void key_of(const struct pnc_flenc_flow *f, struct pnc_flenc_flow_key *k)
{
	memset(k, 0, sizeof(*k));
	k->ip_version = f->ip_version;
	memcpy(k->src, f->src, sizeof(k->src));
	memcpy(k->dst, f->dst, sizeof(k->dst));
	k->dest_qp = f->dest_qp;
}

int pnc_flenc_lookup_flow(const struct pnc_flenc_tc *fe, struct pnc_flenc_flow *f)
{
	struct pnc_flenc_flow_key key;
	struct pnc_flenc_flow_val val;

	key_of(f, &key);
	if (bpf_map__lookup_elem(fe->skel->maps.flows, &key, sizeof(key), &val, sizeof(val), 0))
		return -errno;
	flow_from(&key, &val, f);
	return 0;
}

int pnc_flenc_shape(struct pnc_flenc_tc *fe, const struct pnc_flenc_flow *f, uint32_t classid)
{
	struct pnc_flenc_flow_key key;
	__u32 c = classid;

	key_of(f, &key);
	if (!classid) {
		int err =
			map_err(bpf_map__delete_elem(fe->skel->maps.shaped, &key, sizeof(key), 0));

		return err == -ENOENT ? 0 : err;
	}
	return map_err(bpf_map__update_elem(fe->skel->maps.shaped, &key, sizeof(key), &c,
					    sizeof(c), BPF_ANY));
}

int pnc_flenc_for_each_flow(const struct pnc_flenc_tc *fe, pnc_flenc_flow_cb cb, void *arg)
{
	const struct bpf_map *flows = fe->skel->maps.flows;
	struct pnc_flenc_flow_key key, next;
	struct pnc_flenc_flow_val val;
	struct pnc_flenc_flow f;
	const void *prev = NULL;
	int rv;

	while (!bpf_map__get_next_key(flows, prev, &next, sizeof(next))) {
		key = next;
		prev = &key;
		/* Deleted since get_next_key: skip it. */
		if (bpf_map__lookup_elem(flows, &key, sizeof(key), &val, sizeof(val), 0))
			continue;
		flow_from(&key, &val, &f);
		rv = cb(arg, &f);
		if (rv)
			return rv;
	}
	return errno == ENOENT ? 0 : -errno;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	/* bpf_ktime_get_ns() is CLOCK_MONOTONIC. */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

struct age_ctx {
	uint64_t before; /* last_ns older than this is idle */
	struct pnc_flenc_flow *idle;
	size_t n, cap;
};

static int collect_idle(void *arg, const struct pnc_flenc_flow *f)
{
	struct age_ctx *ac = arg;
	struct pnc_flenc_flow *p;

	if (f->last_ns >= ac->before)
		return 0;
	if (ac->n == ac->cap) {
		size_t cap = ac->cap ? 2 * ac->cap : 64;

		p = pnc_realloc(PNC_POOL_BPF, ac->idle, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		ac->idle = p;
		ac->cap = cap;
	}
	ac->idle[ac->n++] = *f;
	return 0;
}

static void flow_key_of(const struct pnc_flenc_flow *f, struct pnc_flenc_flow_key *k)
{
	memset(k, 0, sizeof(*k));
	memcpy(k->src, f->src, sizeof(k->src));
	memcpy(k->dst, f->dst, sizeof(k->dst));
	k->dest_qp = f->dest_qp;
	k->ip_version = f->ip_version;
}

/* Remove one idle flow unless a packet came meanwhile.  1 if removed. */
static int forget_flow(struct pnc_flenc_tc *fe, const struct pnc_flenc_flow *f, uint64_t before)
{
	struct pnc_flenc_flow_key key, lkey;
	struct pnc_flenc_flow_val val;
	__u32 label = f->label;

	flow_key_of(f, &key);
	if (bpf_map__lookup_elem(fe->skel->maps.flows, &key, sizeof(key), &val, sizeof(val), 0) ||
	    val.last_ns >= before || val.label != f->label)
		return 0;
	/* Flow first: a packet now allocates a new label, never this one. */
	if (bpf_map__delete_elem(fe->skel->maps.flows, &key, sizeof(key), 0))
		return 0;
	if (!bpf_map__lookup_elem(fe->skel->maps.labels, &label, sizeof(label), &lkey,
				  sizeof(lkey), 0) &&
	    !memcmp(&lkey, &key, sizeof(key)))
		bpf_map__delete_elem(fe->skel->maps.labels, &label, sizeof(label), 0);
	return 1;
}

int pnc_flenc_restore_flow(struct pnc_flenc_tc *fe, const struct pnc_flenc_flow *f)
{
	struct pnc_flenc_flow_key key;
	struct pnc_flenc_flow_val val = {};
	__u32 label = f->label;

	if (!label || label > PNC_FLENC_LABEL_ALLOC_MAX ||
	    (f->ip_version != 4 && f->ip_version != 6))
		return -EINVAL;
	flow_key_of(f, &key);
	val.label = label;
	val.pkey = f->pkey;
	val.sport = f->sport;
	/* Counted as seen now: it ages from the restart, not from before. */
	val.first_ns = val.last_ns = now_ns();
	/* Label first, as the program does: it never hands out a label taken here. */
	if (bpf_map__update_elem(fe->skel->maps.labels, &label, sizeof(label), &key, sizeof(key),
				 BPF_NOEXIST))
		return -errno;
	if (bpf_map__update_elem(fe->skel->maps.flows, &key, sizeof(key), &val, sizeof(val),
				 BPF_NOEXIST)) {
		int err = -errno;

		bpf_map__delete_elem(fe->skel->maps.labels, &label, sizeof(label), 0);
		return err;
	}
	return 0;
}

int pnc_flenc_age(struct pnc_flenc_tc *fe, unsigned int idle_s, pnc_flenc_flow_cb cb, void *arg)
{
	struct age_ctx ac = {};
	uint64_t now = now_ns(), idle_ns = (uint64_t)idle_s * 1000000000ULL;
	size_t i;
	int rv, n = 0;

	ac.before = now > idle_ns ? now - idle_ns : 0;
	/* Collected first: deleting while walking a hash map restarts the walk. */
	rv = pnc_flenc_for_each_flow(fe, collect_idle, &ac);
	if (rv < 0) {
		pnc_free(PNC_POOL_BPF, ac.idle);
		return rv;
	}
	for (i = 0; i < ac.n; i++) {
		if (!forget_flow(fe, &ac.idle[i], ac.before))
			continue;
		n++;
		if (cb)
			cb(arg, &ac.idle[i]);
	}
	pnc_free(PNC_POOL_BPF, ac.idle);
	return n;
}

int pnc_flenc_counters(const struct pnc_flenc_tc *fe, struct pnc_flenc_counters *out)
{
	return pnc_bpf_percpu_counters(bpf_map__fd(fe->skel->maps.counters), PNC_FLENC_C_MAX,
				       out->v);
}

int pnc_flenc_counters_clear(struct pnc_flenc_tc *fe)
{
	return pnc_bpf_percpu_clear(bpf_map__fd(fe->skel->maps.counters), PNC_FLENC_C_MAX);
}

const char *pnc_flenc_counter_name(enum pnc_flenc_counter c)
{
	static const char *const names[PNC_FLENC_C_MAX] = {
		[PNC_FLENC_C_PKTS] = "pkts",
		[PNC_FLENC_C_PASSED] = "passed",
		[PNC_FLENC_C_ENCAP_ROCE] = "encap_roce",
		[PNC_FLENC_C_ENCAP_OTHER] = "encap_other",
		[PNC_FLENC_C_TOO_BIG] = "too_big",
		[PNC_FLENC_C_PARSE_ERR] = "parse_error",
		[PNC_FLENC_C_NO_SOURCE] = "no_source",
		[PNC_FLENC_C_ENCAP_ERR] = "encap_error",
		[PNC_FLENC_C_LABELS_ALLOCATED] = "labels_allocated",
		[PNC_FLENC_C_ALLOC_FAILED] = "alloc_failed",
		[PNC_FLENC_C_SHAPED] = "shaped",
		[PNC_FLENC_C_DECAP_PKTS] = "decap_pkts",
		[PNC_FLENC_C_DECAP_PASSED] = "decap_passed",
		[PNC_FLENC_C_DECAP] = "decapsulated",
		[PNC_FLENC_C_DECAP_CE] = "decap_ce",
		[PNC_FLENC_C_DECAP_DROP] = "decap_drop",
		[PNC_FLENC_C_DECAP_ERR] = "decap_error",
	};

	return (unsigned int)c < PNC_FLENC_C_MAX ? names[c] : "?";
}
