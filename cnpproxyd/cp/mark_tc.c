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
#include "bpfutil/events.h"
#include "bpfutil/iflist.h"
#include "bpfutil/percpu.h"
#include "cp/mark_tc.h"
#include "bpfutil/tc_filter.h"
#include "mark.skel.h"


struct pnc_mark_tc {
	struct pnc_mark *skel;
	struct pnc_bpf_events *ev;
	pnc_mark_tc_cb cb;
	void *arg;
	struct pnc_if_list ifs; /* of struct pnc_tc_attachment */
	bool filter_only; /* attach as on kernels without tcx */
};

static bool on_record(void *arg, const void *data, size_t len)
{
	struct pnc_mark_tc *mt = arg;
	const struct pnc_mark_sample *s = data;

	if (len < sizeof(*s) || s->hdr.type != PNC_MARK_EV_SAMPLE ||
	    (s->hdr.ip_version != 4 && s->hdr.ip_version != 6) || s->cap_len > PNC_MARK_DATA_MAX ||
	    s->cap_len > s->pkt_len)
		return false;
	mt->cb(mt->arg, s);
	return true;
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
	mt->ifs = PNC_IF_LIST(struct pnc_tc_attachment);
	mt->skel = pnc_mark__open_and_load();
	if (!mt->skel) {
		err = -errno;
		goto fail;
	}
	mt->ev = pnc_bpf_events_open(bpf_map__fd(mt->skel->maps.events), on_record, mt);
	if (!mt->ev) {
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
	for (struct pnc_tc_attachment *a; (a = pnc_if_list_last(&mt->ifs));)
		pnc_mark_tc_detach(mt, a->ifindex);
	pnc_if_list_free(&mt->ifs);
	pnc_bpf_events_close(mt->ev);
	pnc_mark__destroy(mt->skel);
	pnc_free(PNC_POOL_BPF, mt);
}

#define MARK_IF_COUNTERS (sizeof(struct pnc_mark_if_counters) / sizeof(__u64))

/* Zero (create) the interface's per-CPU counters, all CPUs at once. */
static int if_counters_reset(struct pnc_mark_tc *mt, int ifindex)
{
	return pnc_bpf_percpu_elem_zero(bpf_map__fd(mt->skel->maps.if_counters), (uint32_t)ifindex,
					MARK_IF_COUNTERS);
}

static void if_counters_del(struct pnc_mark_tc *mt, int ifindex)
{
	__u32 key = (__u32)ifindex;

	bpf_map_delete_elem(bpf_map__fd(mt->skel->maps.if_counters), &key);
}

int pnc_mark_tc_attach(struct pnc_mark_tc *mt, int ifindex)
{
	struct pnc_tc_attachment *a;
	int err;

	a = pnc_if_list_claim(&mt->ifs, ifindex, &err);
	if (!a)
		return err;
	err = if_counters_reset(mt, ifindex);
	if (err)
		return err;
	/*
	 * A filter left by a dead process keeps marking on its last state
	 * until that expires; a link goes with our fd.
	 */
	err = pnc_tc_attach(a, ifindex, false, PNC_TC_PRIORITY_MARK,
			    bpf_program__fd(mt->skel->progs.pnc_mark),
			    bpf_program__name(mt->skel->progs.pnc_mark), mt->filter_only);
	if (err) {
		if_counters_del(mt, ifindex);
		return err;
	}
	pnc_if_list_add(&mt->ifs);
	return 0;
}

void pnc_mark_tc_filter_only(struct pnc_mark_tc *mt)
{
	mt->filter_only = true;
}

const char *pnc_mark_tc_mode(const struct pnc_mark_tc *mt, int ifindex)
{
	const struct pnc_tc_attachment *a = pnc_if_list_find(&mt->ifs, ifindex);

	return a ? pnc_tc_attachment_mode(a) : NULL;
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
	struct pnc_tc_attachment *a = pnc_if_list_find(&mt->ifs, ifindex);
	int err;

	if (!a)
		return -ENOENT;
	err = pnc_tc_detach(a);
	pnc_mark_tc_clear_state(mt, ifindex);
	if_counters_del(mt, ifindex);
	pnc_if_list_remove(&mt->ifs, a);
	return err;
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
	return pnc_bpf_events_poll(mt->ev, timeout_ms);
}

int pnc_mark_tc_fd(const struct pnc_mark_tc *mt)
{
	return pnc_bpf_events_fd(mt->ev);
}

uint64_t pnc_mark_tc_bad_records(const struct pnc_mark_tc *mt)
{
	return pnc_bpf_events_bad(mt->ev);
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
	uint64_t v[MARK_IF_COUNTERS];
	int err;

	err = pnc_bpf_percpu_elem_sum(bpf_map__fd(mt->skel->maps.if_counters), (uint32_t)ifindex,
				      MARK_IF_COUNTERS, v);
	out->ecn_capable = v[0];
	out->marked_ect1 = v[1];
	out->marked_ce = v[2];
	out->roce = v[3];
	out->sampled = v[4];
	return err;
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
