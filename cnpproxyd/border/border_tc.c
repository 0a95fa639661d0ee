// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loader of the border filter: libbpf skeleton, tcx ingress and egress
 * links (or clsact filters) per interface, per-CPU counters.
 */
#include <errno.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "cnpproxy_alloc.h"
#include "bpfutil/percpu.h"
#include "border/border_tc.h"
#include "bpfutil/iflist.h"
#include "bpfutil/tc_filter.h"
#include "border.skel.h"

/* One interface: the program on each side. */
struct border_att {
	int ifindex;
	struct pnc_tc_attachment in, out;
};

struct pnc_border_tc {
	struct pnc_border *skel;
	struct pnc_if_list ifs; /* of struct border_att */
};

#define BORDER_COUNTERS (sizeof(struct pnc_border_if_counters) / sizeof(__u64))

struct pnc_border_tc *pnc_border_tc_open(void)
{
	struct pnc_border_tc *bt;

	bt = pnc_calloc(PNC_POOL_BPF, 1, sizeof(*bt));
	if (!bt)
		return NULL;
	bt->ifs = PNC_IF_LIST(struct border_att);
	bt->skel = pnc_border__open_and_load();
	if (!bt->skel) {
		int err = errno;

		pnc_free(PNC_POOL_BPF, bt);
		errno = err ? err : EINVAL;
		return NULL;
	}
	return bt;
}

void pnc_border_tc_close(struct pnc_border_tc *bt)
{
	if (!bt)
		return;
	for (struct border_att *a; (a = pnc_if_list_last(&bt->ifs));)
		pnc_border_tc_detach(bt, a->ifindex);
	pnc_if_list_free(&bt->ifs);
	pnc_border__destroy(bt->skel);
	pnc_free(PNC_POOL_BPF, bt);
}

int pnc_border_tc_set_ports(struct pnc_border_tc *bt, uint16_t notification_port,
			    uint16_t flow_label_port, uint8_t icmp_type, uint8_t icmp6_type)
{
	struct pnc_border_config cfg = {
		.notification_port = notification_port,
		.flow_label_port = flow_label_port,
		.icmp_type = icmp_type,
		.icmp6_type = icmp6_type,
	};
	__u32 key = 0;

	if (bpf_map_update_elem(bpf_map__fd(bt->skel->maps.border_config), &key, &cfg, BPF_ANY))
		return -errno;
	return 0;
}

int pnc_border_tc_counters_clear(struct pnc_border_tc *bt, int ifindex)
{
	return pnc_bpf_percpu_elem_zero(bpf_map__fd(bt->skel->maps.if_counters), (uint32_t)ifindex,
					BORDER_COUNTERS);
}

int pnc_border_tc_counters(const struct pnc_border_tc *bt, int ifindex,
			   struct pnc_border_if_counters *out)
{
	uint64_t v[BORDER_COUNTERS];
	int err;

	err = pnc_bpf_percpu_elem_sum(bpf_map__fd(bt->skel->maps.if_counters), (uint32_t)ifindex,
				      BORDER_COUNTERS, v);
	/* The struct is BORDER_COUNTERS __u64s, in order. */
	memcpy(out, v, sizeof(*out));
	return err;
}

int pnc_border_tc_attach(struct pnc_border_tc *bt, int ifindex)
{
	__u32 key = (__u32)ifindex;
	struct border_att *a;
	int err;

	a = pnc_if_list_claim(&bt->ifs, ifindex, &err);
	if (!a)
		return err;
	err = pnc_border_tc_counters_clear(bt, ifindex);
	if (err)
		return err;
	err = pnc_tc_attach(&a->in, ifindex, true, PNC_TC_PRIORITY_BORDER,
			    bpf_program__fd(bt->skel->progs.pnc_border),
			    bpf_program__name(bt->skel->progs.pnc_border), false);
	if (!err) {
		err = pnc_tc_attach(&a->out, ifindex, false, PNC_TC_PRIORITY_BORDER,
				    bpf_program__fd(bt->skel->progs.pnc_border_out),
				    bpf_program__name(bt->skel->progs.pnc_border_out), false);
		/* Half a border is no border. */
		if (err)
			pnc_tc_detach(&a->in);
	}
	if (err) {
		bpf_map_delete_elem(bpf_map__fd(bt->skel->maps.if_counters), &key);
		return err;
	}
	pnc_if_list_add(&bt->ifs);
	return 0;
}

int pnc_border_tc_detach(struct pnc_border_tc *bt, int ifindex)
{
	struct border_att *a = pnc_if_list_find(&bt->ifs, ifindex);
	__u32 key = (__u32)ifindex;
	int err, err_in;

	if (!a)
		return -ENOENT;
	/* Egress first: the ingress side removes a clsact qdisc we made. */
	err = pnc_tc_detach(&a->out);
	err_in = pnc_tc_detach(&a->in);
	if (!err)
		err = err_in;
	bpf_map_delete_elem(bpf_map__fd(bt->skel->maps.if_counters), &key);
	pnc_if_list_remove(&bt->ifs, a);
	return err;
}

const char *pnc_border_tc_mode(const struct pnc_border_tc *bt, int ifindex)
{
	const struct border_att *a = pnc_if_list_find(&bt->ifs, ifindex);

	return a ? pnc_tc_attachment_mode(&a->in) : NULL;
}
