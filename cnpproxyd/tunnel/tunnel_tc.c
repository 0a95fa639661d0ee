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
#include "bpfutil/iflist.h"
#include "bpfutil/percpu.h"
#include "tunnel/tunnel_tc.h"
#include "bpfutil/tc_filter.h"
#include "tunnel.skel.h"

/* One of our filters. */
struct tunnel_att {
	int ifindex;
	enum bpf_tc_attach_point dir; /* BPF_TC_EGRESS: encap, INGRESS: decap */
	struct pnc_tc_attachment tc;
};

struct pnc_tunnel_tc {
	struct pnc_tunnel *skel;
	struct pnc_if_list ifs; /* of struct tunnel_att */
};

struct pnc_tunnel_tc *pnc_tunnel_open(const struct pnc_tunnel_cfg *cfg)
{
	struct pnc_tunnel_tc *fe;
	int err;

	fe = pnc_calloc(PNC_POOL_BPF, 1, sizeof(*fe));
	if (!fe)
		return NULL;
	fe->ifs = PNC_IF_LIST(struct tunnel_att);
	fe->skel = pnc_tunnel__open();
	if (!fe->skel) {
		err = -errno;
		goto fail;
	}
	if (cfg)
		fe->skel->data->pnc_cfg = *cfg;
	err = pnc_tunnel__load(fe->skel);
	if (err)
		goto fail;
	return fe;

fail:
	pnc_tunnel_close(fe);
	errno = err < 0 ? -err : EINVAL;
	return NULL;
}

void pnc_tunnel_close(struct pnc_tunnel_tc *fe)
{
	if (!fe)
		return;
	for (struct tunnel_att *fi; (fi = pnc_if_list_last(&fe->ifs));) {
		if (fi->dir == BPF_TC_EGRESS)
			pnc_tunnel_detach(fe, fi->ifindex);
		else
			pnc_tunnel_detach_decap(fe, fi->ifindex);
	}
	pnc_if_list_free(&fe->ifs);
	pnc_tunnel__destroy(fe->skel);
	pnc_free(PNC_POOL_BPF, fe);
}

static struct tunnel_att *find_if(struct pnc_tunnel_tc *fe, int ifindex,
				  enum bpf_tc_attach_point dir)
{
	for (size_t i = 0; i < fe->ifs.n; i++) {
		struct tunnel_att *fi = pnc_if_list_at(&fe->ifs, i);

		if (fi->ifindex == ifindex && (fi->dir & dir))
			return fi;
	}
	return NULL;
}

/*
 * tc filters, as they always were here: their priorities order them
 * against the congestion point's marker on the same hook.
 */
static int tc_attach(struct pnc_tunnel_tc *fe, int ifindex, enum bpf_tc_attach_point dir,
		     const struct bpf_program *prog)
{
	bool ingress = dir == BPF_TC_INGRESS;
	struct tunnel_att *other, *fi;
	bool own_clsact;
	int err;

	if (find_if(fe, ifindex, dir))
		return -EEXIST;
	other = find_if(fe, ifindex, BPF_TC_INGRESS | BPF_TC_EGRESS);
	own_clsact = other && other->tc.own_clsact;
	fi = pnc_if_list_room(&fe->ifs, ifindex);
	if (!fi)
		return -ENOMEM;
	fi->dir = dir;
	err = pnc_tc_attach(&fi->tc, ifindex, ingress,
			    ingress ? PNC_TC_PRIORITY_DECAP : PNC_TC_PRIORITY_ENCAP,
			    bpf_program__fd(prog), bpf_program__name(prog), true);
	if (err)
		return err;
	/* The clsact our other filter here made: whichever goes last removes it. */
	if (own_clsact)
		fi->tc.own_clsact = true;
	pnc_if_list_add(&fe->ifs);
	return 0;
}

static int tc_detach(struct pnc_tunnel_tc *fe, int ifindex, enum bpf_tc_attach_point dir)
{
	struct tunnel_att *fi = find_if(fe, ifindex, dir);
	struct pnc_tc_attachment tc;
	int err;

	if (!fi)
		return -ENOENT;
	tc = fi->tc;
	pnc_if_list_remove(&fe->ifs, fi);
	err = pnc_tc_detach(&tc);
	/* Replaced by another process: theirs now, and not an error. */
	return err == -EBUSY ? 0 : err;
}

int pnc_tunnel_attach(struct pnc_tunnel_tc *fe, int ifindex)
{
	return tc_attach(fe, ifindex, BPF_TC_EGRESS, fe->skel->progs.pnc_tunnel_enc);
}

int pnc_tunnel_detach(struct pnc_tunnel_tc *fe, int ifindex)
{
	return tc_detach(fe, ifindex, BPF_TC_EGRESS);
}

int pnc_tunnel_attach_decap(struct pnc_tunnel_tc *fe, int ifindex)
{
	return tc_attach(fe, ifindex, BPF_TC_INGRESS, fe->skel->progs.pnc_tunnel_dec);
}

int pnc_tunnel_detach_decap(struct pnc_tunnel_tc *fe, int ifindex)
{
	return tc_detach(fe, ifindex, BPF_TC_INGRESS);
}

void pnc_tunnel_set_source(struct pnc_tunnel_tc *fe, const uint8_t src[16])
{
	/* .data is mmap'ed: the program sees it at once. */
	memcpy(fe->skel->data->pnc_cfg.src, src, 16);
}

static int prefix_key(int family, const uint8_t *prefix, unsigned int plen,
		      struct pnc_tunnel_lpm_key *key)
{
	unsigned int alen = family == 4 ? 4 : 16, i;

	if ((family != 4 && family != 6) || plen > alen * 8)
		return -EINVAL;
	memset(key, 0, sizeof(*key));
	key->prefixlen = PNC_TUNNEL_PREFIX_BITS(plen);
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

int pnc_tunnel_add_tunnel(struct pnc_tunnel_tc *fe, int family, const uint8_t *prefix,
			  unsigned int plen, const uint8_t dst[16], uint32_t vni,
			  const uint8_t *router_mac)
{
	struct pnc_tunnel_tunnel t = {};
	struct pnc_tunnel_lpm_key key;
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

int pnc_tunnel_del_tunnel(struct pnc_tunnel_tc *fe, int family, const uint8_t *prefix,
			  unsigned int plen)
{
	struct pnc_tunnel_lpm_key key;
	int err = prefix_key(family, prefix, plen, &key);

	if (err)
		return err;
	return map_err(bpf_map__delete_elem(fe->skel->maps.tunnels, &key, sizeof(key), 0));
}

int pnc_tunnel_add_sid(struct pnc_tunnel_tc *fe, const uint8_t sid[16])
{
	uint8_t one = 1;

	return map_err(bpf_map__update_elem(fe->skel->maps.sids, sid, 16, &one, 1, BPF_ANY));
}

int pnc_tunnel_del_sid(struct pnc_tunnel_tc *fe, const uint8_t sid[16])
{
	return map_err(bpf_map__delete_elem(fe->skel->maps.sids, sid, 16, 0));
}

static void flow_from(const struct pnc_tunnel_flow_key *k, const struct pnc_tunnel_flow_val *v,
		      struct pnc_tunnel_flow *f)
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

int pnc_tunnel_lookup_label(const struct pnc_tunnel_tc *fe, uint32_t label,
			    struct pnc_tunnel_flow *out)
{
	struct pnc_tunnel_flow_key key;
	struct pnc_tunnel_flow_val val;
	__u32 l = label;

	if (!label || label > PNC_TUNNEL_LABEL_ALLOC_MAX)
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

static void key_of(const struct pnc_tunnel_flow *f, struct pnc_tunnel_flow_key *k)
{
	memset(k, 0, sizeof(*k));
	k->ip_version = f->ip_version;
	memcpy(k->src, f->src, sizeof(k->src));
	memcpy(k->dst, f->dst, sizeof(k->dst));
	k->dest_qp = f->dest_qp;
}

int pnc_tunnel_lookup_flow(const struct pnc_tunnel_tc *fe, struct pnc_tunnel_flow *f)
{
	struct pnc_tunnel_flow_key key;
	struct pnc_tunnel_flow_val val;

	key_of(f, &key);
	if (bpf_map__lookup_elem(fe->skel->maps.flows, &key, sizeof(key), &val, sizeof(val), 0))
		return -errno;
	flow_from(&key, &val, f);
	return 0;
}

int pnc_tunnel_shape(struct pnc_tunnel_tc *fe, const struct pnc_tunnel_flow *f, uint32_t classid)
{
	struct pnc_tunnel_flow_key key;
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

int pnc_tunnel_for_each_flow(const struct pnc_tunnel_tc *fe, pnc_tunnel_flow_cb cb, void *arg)
{
	const struct bpf_map *flows = fe->skel->maps.flows;
	struct pnc_tunnel_flow_key key, next;
	struct pnc_tunnel_flow_val val;
	struct pnc_tunnel_flow f;
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
	struct pnc_tunnel_flow *idle;
	size_t n, cap;
};

static int collect_idle(void *arg, const struct pnc_tunnel_flow *f)
{
	struct age_ctx *ac = arg;
	struct pnc_tunnel_flow *p;

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

static void flow_key_of(const struct pnc_tunnel_flow *f, struct pnc_tunnel_flow_key *k)
{
	memset(k, 0, sizeof(*k));
	memcpy(k->src, f->src, sizeof(k->src));
	memcpy(k->dst, f->dst, sizeof(k->dst));
	k->dest_qp = f->dest_qp;
	k->ip_version = f->ip_version;
}

/* Remove one idle flow unless a packet came meanwhile.  1 if removed. */
static int forget_flow(struct pnc_tunnel_tc *fe, const struct pnc_tunnel_flow *f, uint64_t before)
{
	struct pnc_tunnel_flow_key key, lkey;
	struct pnc_tunnel_flow_val val;
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

int pnc_tunnel_restore_flow(struct pnc_tunnel_tc *fe, const struct pnc_tunnel_flow *f)
{
	struct pnc_tunnel_flow_key key;
	struct pnc_tunnel_flow_val val = {};
	__u32 label = f->label;

	if (!label || label > PNC_TUNNEL_LABEL_ALLOC_MAX ||
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

int pnc_tunnel_age(struct pnc_tunnel_tc *fe, unsigned int idle_s, pnc_tunnel_flow_cb cb, void *arg)
{
	struct age_ctx ac = {};
	uint64_t now = now_ns(), idle_ns = (uint64_t)idle_s * 1000000000ULL;
	size_t i;
	int rv, n = 0;

	ac.before = now > idle_ns ? now - idle_ns : 0;
	/* Collected first: deleting while walking a hash map restarts the walk. */
	rv = pnc_tunnel_for_each_flow(fe, collect_idle, &ac);
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

int pnc_tunnel_counters(const struct pnc_tunnel_tc *fe, struct pnc_tunnel_counters *out)
{
	return pnc_bpf_percpu_counters(bpf_map__fd(fe->skel->maps.counters), PNC_TUNNEL_C_MAX,
				       out->v);
}

int pnc_tunnel_counters_clear(struct pnc_tunnel_tc *fe)
{
	return pnc_bpf_percpu_clear(bpf_map__fd(fe->skel->maps.counters), PNC_TUNNEL_C_MAX);
}

const char *pnc_tunnel_counter_name(enum pnc_tunnel_counter c)
{
	static const char *const names[PNC_TUNNEL_C_MAX] = {
		[PNC_TUNNEL_C_PKTS] = "pkts",
		[PNC_TUNNEL_C_PASSED] = "passed",
		[PNC_TUNNEL_C_ENCAP_ROCE] = "encap_roce",
		[PNC_TUNNEL_C_ENCAP_OTHER] = "encap_other",
		[PNC_TUNNEL_C_TOO_BIG] = "too_big",
		[PNC_TUNNEL_C_PARSE_ERR] = "parse_error",
		[PNC_TUNNEL_C_NO_SOURCE] = "no_source",
		[PNC_TUNNEL_C_ENCAP_ERR] = "encap_error",
		[PNC_TUNNEL_C_LABELS_ALLOCATED] = "labels_allocated",
		[PNC_TUNNEL_C_ALLOC_FAILED] = "alloc_failed",
		[PNC_TUNNEL_C_SHAPED] = "shaped",
		[PNC_TUNNEL_C_DECAP_PKTS] = "decap_pkts",
		[PNC_TUNNEL_C_DECAP_PASSED] = "decap_passed",
		[PNC_TUNNEL_C_DECAP] = "decapsulated",
		[PNC_TUNNEL_C_DECAP_CE] = "decap_ce",
		[PNC_TUNNEL_C_DECAP_DROP] = "decap_drop",
		[PNC_TUNNEL_C_DECAP_ERR] = "decap_error",
	};

	return (unsigned int)c < PNC_TUNNEL_C_MAX ? names[c] : "?";
}
