// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loader of the congestion point's tc egress program: libbpf skeleton,
 * a tcx link (or, on kernels before 6.6, a clsact egress filter) per
 * interface, the state map, ring buffer consumer, per-CPU counters.
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
#include "io/bpf_percpu.h"
#include "io/mark_tc.h"
#include "io/tc_filter.h"
#include "mark.skel.h"

/*
 * Linux 6.6 UAPI; older headers lack it.  bpf_link_create() of libbpf
 * 1.1 passes any attach type through to the kernel unchanged.
 */
#define PNC_BPF_TCX_EGRESS 47

struct mark_if {
	int ifindex;
	int link_fd;	 /* tcx link, or -1 with a tc filter */
	__u32 prog_id;	 /* what our filter runs: detach checks it still does */
	bool own_clsact; /* attach created the qdisc, so detach removes it */
};

struct pnc_mark_tc {
	struct pnc_mark *skel;
	struct ring_buffer *rb;
	pnc_mark_tc_cb cb;
	void *arg;
	uint64_t bad_records;
	struct mark_if *ifs;
	size_t nifs;
	bool filter_only; /* attach as on kernels without tcx */
};

static int on_record(void *ctx, void *data, size_t len)
{
	struct pnc_mark_tc *mt = ctx;
	const struct pnc_mark_sample *s = data;

	if (len < sizeof(*s) || s->hdr.type != PNC_MARK_EV_SAMPLE ||
	    (s->hdr.ip_version != 4 && s->hdr.ip_version != 6) || s->cap_len > PNC_MARK_DATA_MAX ||
	    s->cap_len > s->pkt_len) {
		mt->bad_records++;
		return 0;
	}
	mt->cb(mt->arg, s);
	return 0;
}

struct pnc_mark_tc *pnc_mark_tc_open(pnc_mark_tc_cb cb, void *arg)
{
	struct pnc_mark_tc *mt;
	int err;

	mt = pnc_calloc(PNC_POOL_BPF, 1, sizeof(*mt));
	if (!mt)
		return NULL;
	mt->cb = cb;
	mt->arg = arg;
	mt->skel = pnc_mark__open_and_load();
	if (!mt->skel) {
		err = -errno;
		goto fail;
	}
	mt->rb = ring_buffer__new(bpf_map__fd(mt->skel->maps.events), on_record, mt, NULL);
	if (!mt->rb) {
		err = -errno;
		goto fail;
	}
	return mt;

fail:
	pnc_mark_tc_close(mt);
	errno = err < 0 ? -err : EINVAL;
	return NULL;
}

void pnc_mark_tc_close(struct pnc_mark_tc *mt)
{
	if (!mt)
		return;
	while (mt->nifs)
		pnc_mark_tc_detach(mt, mt->ifs[mt->nifs - 1].ifindex);
	pnc_free(PNC_POOL_BPF, mt->ifs);
	ring_buffer__free(mt->rb);
	pnc_mark__destroy(mt->skel);
	pnc_free(PNC_POOL_BPF, mt);
}

static struct mark_if *find_if(const struct pnc_mark_tc *mt, int ifindex)
{
	size_t i;

	for (i = 0; i < mt->nifs; i++)
		if (mt->ifs[i].ifindex == ifindex)
			return &mt->ifs[i];
	return NULL;
}

/* Create clsact unless the interface has it; *created says which. */
static int clsact_get(struct bpf_tc_hook *hook, bool *created)
{
	int err = bpf_tc_hook_create(hook);

	*created = err == 0;
	return err == -EEXIST ? 0 : err;
}

/* The clsact we made, unless another filter (the tunnel's, say) uses it now. */
static void clsact_put(struct bpf_tc_hook *hook)
{
	pnc_tc_clsact_release(hook->ifindex);
}

/* Zero (create) the interface's per-CPU counters, all CPUs at once. */
static int if_counters_reset(struct pnc_mark_tc *mt, int ifindex)
{
	int ncpus = libbpf_num_possible_cpus();
	struct pnc_mark_if_counters *vals;
	__u32 key = (__u32)ifindex;
	int err = 0;

	if (ncpus <= 0)
		return ncpus < 0 ? ncpus : -EINVAL;
	vals = pnc_calloc(PNC_POOL_BPF, (size_t)ncpus, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	if (bpf_map_update_elem(bpf_map__fd(mt->skel->maps.if_counters), &key, vals, BPF_ANY))
		err = -errno;
	pnc_free(PNC_POOL_BPF, vals);
	return err;
}

static void if_counters_del(struct pnc_mark_tc *mt, int ifindex)
{
	__u32 key = (__u32)ifindex;

	bpf_map_delete_elem(bpf_map__fd(mt->skel->maps.if_counters), &key);
}

/* A filter a dead process of ours left at our place goes; anyone else's stays. */
static void filter_remove_stale(const struct pnc_mark_tc *mt, int ifindex)
{
	DECLARE_LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex, .attach_point = BPF_TC_EGRESS);

	pnc_tc_filter_del(&hook, PNC_TC_HANDLE, PNC_TC_PRIORITY_MARK, 0,
			  bpf_program__name(mt->skel->progs.pnc_mark));
}

/* A tc filter on clsact egress, for kernels without tcx. */
static int filter_attach(struct pnc_mark_tc *mt, struct mark_if *mi)
{
	DECLARE_LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = mi->ifindex,
			    .attach_point = BPF_TC_EGRESS);
	DECLARE_LIBBPF_OPTS(bpf_tc_opts, opts, .handle = PNC_TC_HANDLE,
			    .priority = PNC_TC_PRIORITY_MARK,
			    .prog_fd = bpf_program__fd(mt->skel->progs.pnc_mark));
	bool created;
	int err;

	err = clsact_get(&hook, &created);
	if (err)
		return err;
	if (!created)
		filter_remove_stale(mt, mi->ifindex);
	err = bpf_tc_attach(&hook, &opts);
	if (err) {
		if (created)
			clsact_put(&hook);
		return err;
	}
	mi->prog_id = opts.prog_id;
	mi->own_clsact = created;
	return 0;
}

int pnc_mark_tc_attach(struct pnc_mark_tc *mt, int ifindex)
{
	struct mark_if *ifs, *mi;
	int err = 0;

	if (ifindex <= 0)
		return -EINVAL;
	if (find_if(mt, ifindex))
		return -EEXIST;
	ifs = pnc_realloc(PNC_POOL_BPF, mt->ifs, (mt->nifs + 1) * sizeof(*ifs));
	if (!ifs)
		return -ENOMEM;
	mt->ifs = ifs;
	mi = &ifs[mt->nifs];
	memset(mi, 0, sizeof(*mi));
	mi->ifindex = ifindex;

	err = if_counters_reset(mt, ifindex);
	if (err)
		return err;
	/*
	 * A link lives only as long as our fd: whatever way the process
	 * ends, the kernel detaches the program with it.
	 */
	mi->link_fd = mt->filter_only ? -EINVAL
				      : bpf_link_create(bpf_program__fd(mt->skel->progs.pnc_mark),
							ifindex, PNC_BPF_TCX_EGRESS, NULL);
	if (mi->link_fd < 0) {
		err = mi->link_fd;
		mi->link_fd = -1;
		/* No tcx in this kernel; anything else is a real error. */
		if (err == -EINVAL)
			err = filter_attach(mt, mi);
	} else {
		/*
		 * A filter a dead process of an older version left at our
		 * handle would run after the link, marking on its last state.
		 */
		filter_remove_stale(mt, ifindex);
	}
	if (err) {
		if_counters_del(mt, ifindex);
		return err;
	}
	mt->nifs++;
	return 0;
}

void pnc_mark_tc_filter_only(struct pnc_mark_tc *mt)
{
	mt->filter_only = true;
}

const char *pnc_mark_tc_mode(const struct pnc_mark_tc *mt, int ifindex)
{
	const struct mark_if *mi = find_if(mt, ifindex);

	if (!mi)
		return NULL;
	return mi->link_fd >= 0 ? "tcx" : "tc-filter";
}

uint32_t pnc_mark_tc_prog_id(const struct pnc_mark_tc *mt)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(bpf_program__fd(mt->skel->progs.pnc_mark), &info, &len))
		return 0;
	return info.id;
}

uint64_t pnc_mark_tc_now_ns(void)
{
	struct timespec ts;

	/* The clock of bpf_ktime_get_ns(), which valid_until_ns is read against. */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int pnc_mark_tc_detach(struct pnc_mark_tc *mt, int ifindex)
{
	DECLARE_LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex, .attach_point = BPF_TC_EGRESS);
	struct mark_if *mi = find_if(mt, ifindex);
	int err;

	if (!mi)
		return -ENOENT;
	if (mi->link_fd >= 0) {
		/* Interface gone: the kernel has detached the link already. */
		close(mi->link_fd);
		err = 0;
	} else {
		/* -EBUSY: replaced by another process, theirs now. */
		err = pnc_tc_filter_del(&hook, PNC_TC_HANDLE, PNC_TC_PRIORITY_MARK, mi->prog_id,
					NULL);
		/* Someone else's filter keeps their clsact alive. */
		if (mi->own_clsact && err != -EBUSY)
			clsact_put(&hook);
	}
	pnc_mark_tc_clear_state(mt, ifindex);
	if_counters_del(mt, ifindex);
	*mi = mt->ifs[--mt->nifs];
	/* Gone with the interface or the qdisc: detached all the same. */
	return err == -ENOENT ? 0 : err;
}

int pnc_mark_tc_set_state(struct pnc_mark_tc *mt, int ifindex, const struct pnc_mark_state *st)
{
	__u32 key = (__u32)ifindex;
	struct pnc_mark_state v = *st;

	/* The program does not check the ranges; clamp here. */
	if (v.ect1_prob > PNC_MARK_PROB_ONE)
		v.ect1_prob = PNC_MARK_PROB_ONE;
	if (v.ce_prob > PNC_MARK_PROB_ONE)
		v.ce_prob = PNC_MARK_PROB_ONE;
	memset(v.pad, 0, sizeof(v.pad));
	v.rsvd = 0;
	if (bpf_map_update_elem(bpf_map__fd(mt->skel->maps.states), &key, &v, BPF_ANY))
		return -errno;
	return 0;
}

int pnc_mark_tc_clear_state(struct pnc_mark_tc *mt, int ifindex)
{
	__u32 key = (__u32)ifindex;

	if (bpf_map_delete_elem(bpf_map__fd(mt->skel->maps.states), &key))
		return -errno;
	return 0;
}

int pnc_mark_tc_poll(struct pnc_mark_tc *mt, int timeout_ms)
{
	return ring_buffer__poll(mt->rb, timeout_ms);
}

int pnc_mark_tc_fd(const struct pnc_mark_tc *mt)
{
	return ring_buffer__epoll_fd(mt->rb);
}

uint64_t pnc_mark_tc_bad_records(const struct pnc_mark_tc *mt)
{
	return mt->bad_records;
}

int pnc_mark_tc_counters(const struct pnc_mark_tc *mt, struct pnc_mark_counters *out)
{
	return pnc_bpf_percpu_counters(bpf_map__fd(mt->skel->maps.counters), PNC_MARK_C_MAX,
				       out->v);
}

int pnc_mark_tc_counters_clear(struct pnc_mark_tc *mt)
{
	return pnc_bpf_percpu_clear(bpf_map__fd(mt->skel->maps.counters), PNC_MARK_C_MAX);
}

int pnc_mark_tc_if_counters(const struct pnc_mark_tc *mt, int ifindex,
			    struct pnc_mark_if_counters *out)
{
	int ncpus = libbpf_num_possible_cpus();
	struct pnc_mark_if_counters *vals;
	__u32 key = (__u32)ifindex;
	int cpu;

	if (ncpus <= 0)
		return ncpus < 0 ? ncpus : -EINVAL;
	vals = pnc_calloc(PNC_POOL_BPF, (size_t)ncpus, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	if (bpf_map_lookup_elem(bpf_map__fd(mt->skel->maps.if_counters), &key, vals)) {
		int err = -errno;

		pnc_free(PNC_POOL_BPF, vals);
		return err;
	}
	memset(out, 0, sizeof(*out));
	for (cpu = 0; cpu < ncpus; cpu++) {
		out->ecn_capable += vals[cpu].ecn_capable;
		out->marked_ect1 += vals[cpu].marked_ect1;
		out->marked_ce += vals[cpu].marked_ce;
		out->roce += vals[cpu].roce;
		out->sampled += vals[cpu].sampled;
	}
	pnc_free(PNC_POOL_BPF, vals);
	return 0;
}

const char *pnc_mark_counter_name(enum pnc_mark_counter c)
{
	static const char *const names[PNC_MARK_C_MAX] = {
		[PNC_MARK_C_SEEN] = "seen",
		[PNC_MARK_C_NO_STATE] = "no_state",
		[PNC_MARK_C_STALE] = "stale",
		[PNC_MARK_C_NOT_IP] = "not_ip",
		[PNC_MARK_C_PARSE_ERROR] = "parse_error",
		[PNC_MARK_C_NOT_ECT] = "not_ect",
		[PNC_MARK_C_ECN_CAPABLE] = "ecn_capable",
		[PNC_MARK_C_MARKED_ECT1] = "marked_ect1",
		[PNC_MARK_C_MARKED_CE] = "marked_ce",
		[PNC_MARK_C_MARK_ERROR] = "mark_error",
		[PNC_MARK_C_ROCE] = "roce",
		[PNC_MARK_C_TUNNELLED] = "tunnelled",
		[PNC_MARK_C_TRUNCATED] = "truncated",
		[PNC_MARK_C_SAMPLED] = "sampled",
		[PNC_MARK_C_SAMPLE_SUPPRESSED] = "sample_suppressed",
		[PNC_MARK_C_RINGBUF_FULL] = "ringbuf_full",
		[PNC_MARK_C_SAMPLE_ERROR] = "sample_error",
	};

	return (unsigned int)c < PNC_MARK_C_MAX ? names[c] : "?";
}
