// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loader of the XDP flow-learning program: libbpf skeleton, BPF links
 * per interface, ring buffer consumer, per-CPU counters.
 */
#include <errno.h>
#include <linux/if_link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "cnpproxy_alloc.h"
#include "io/bpf_percpu.h"
#include "io/learn_xdp.h"
#include "learn.skel.h"

struct learn_if {
	int ifindex;
	int link_fd;
};

struct pnc_learn_xdp {
	struct pnc_learn *skel;
	struct ring_buffer *rb;
	pnc_learn_xdp_cb cb;
	void *arg;
	uint64_t bad_records;
	struct learn_if *ifs;
	size_t nifs;
};

static int on_record(void *ctx, void *data, size_t len)
{
	struct pnc_learn_xdp *lx = ctx;
	struct pnc_learn_event ev = { .hdr = data };

	if (len < sizeof(*ev.hdr)) {
		lx->bad_records++;
		return 0;
	}
	switch (ev.hdr->type) {
	case PNC_LEARN_EV_CM:
		if (len < sizeof(*ev.cm) ||
		    ((const struct pnc_learn_cm_ev *)data)->cap_len > PNC_LEARN_CM_MAX) {
			lx->bad_records++;
			return 0;
		}
		ev.cm = data;
		break;
	case PNC_LEARN_EV_ROCE:
		if (len < sizeof(*ev.roce)) {
			lx->bad_records++;
			return 0;
		}
		ev.roce = data;
		break;
	default:
		lx->bad_records++;
		return 0;
	}
	lx->cb(lx->arg, &ev);
	return 0;
}

struct pnc_learn_xdp *pnc_learn_xdp_open(const struct pnc_learn_cfg *cfg, pnc_learn_xdp_cb cb,
					 void *arg)
{
	struct pnc_learn_xdp *lx;
	int err;

	lx = pnc_calloc(PNC_POOL_BPF, 1, sizeof(*lx));
	if (!lx)
		return NULL;
	lx->cb = cb;
	lx->arg = arg;
	lx->skel = pnc_learn__open();
	if (!lx->skel) {
		err = -errno;
		goto fail;
	}
	if (cfg)
		lx->skel->data->pnc_cfg = *cfg;
	err = pnc_learn__load(lx->skel);
	if (err)
		goto fail;
	lx->rb = ring_buffer__new(bpf_map__fd(lx->skel->maps.events), on_record, lx, NULL);
	if (!lx->rb) {
		err = -errno;
		goto fail;
	}
	return lx;

fail:
	pnc_learn_xdp_close(lx);
	errno = err < 0 ? -err : EINVAL;
	return NULL;
}

void pnc_learn_xdp_close(struct pnc_learn_xdp *lx)
{
	if (!lx)
		return;
	while (lx->nifs)
		pnc_learn_xdp_detach(lx, lx->ifs[lx->nifs - 1].ifindex);
	pnc_free(PNC_POOL_BPF, lx->ifs);
	ring_buffer__free(lx->rb);
	pnc_learn__destroy(lx->skel);
	pnc_free(PNC_POOL_BPF, lx);
}

static int link_xdp(struct pnc_learn_xdp *lx, int ifindex, __u32 flags)
{
	LIBBPF_OPTS(bpf_link_create_opts, opts, .flags = flags);
	int fd;

	fd = bpf_link_create(bpf_program__fd(lx->skel->progs.pnc_learn), ifindex, BPF_XDP, &opts);
	return fd < 0 ? -errno : fd;
}

int pnc_learn_xdp_attach(struct pnc_learn_xdp *lx, int ifindex, enum pnc_learn_xdp_mode mode,
			 enum pnc_learn_xdp_mode *used)
{
	struct learn_if *ifs;
	size_t i;
	int fd;

	for (i = 0; i < lx->nifs; i++)
		if (lx->ifs[i].ifindex == ifindex)
			return -EEXIST;
	ifs = pnc_realloc(PNC_POOL_BPF, lx->ifs, (lx->nifs + 1) * sizeof(*ifs));
	if (!ifs)
		return -ENOMEM;
	lx->ifs = ifs;

	if (mode == PNC_LEARN_XDP_GENERIC) {
		fd = link_xdp(lx, ifindex, XDP_FLAGS_SKB_MODE);
	} else {
		fd = link_xdp(lx, ifindex, XDP_FLAGS_DRV_MODE);
		/* Only a driver without XDP is worth the generic fallback. */
		if (mode == PNC_LEARN_XDP_AUTO && (fd == -EOPNOTSUPP || fd == -EINVAL)) {
			mode = PNC_LEARN_XDP_GENERIC;
			fd = link_xdp(lx, ifindex, XDP_FLAGS_SKB_MODE);
		} else {
			mode = PNC_LEARN_XDP_NATIVE;
		}
	}
	if (fd < 0)
		return fd;
	lx->ifs[lx->nifs].ifindex = ifindex;
	lx->ifs[lx->nifs].link_fd = fd;
	lx->nifs++;
	if (used)
		*used = mode;
	return 0;
}

int pnc_learn_xdp_detach(struct pnc_learn_xdp *lx, int ifindex)
{
	size_t i;
	int rv = 0;

	for (i = 0; i < lx->nifs; i++)
		if (lx->ifs[i].ifindex == ifindex)
			break;
	if (i == lx->nifs)
		return -ENOENT;
	/* Detach even if someone else holds a reference to the link. */
	if (bpf_link_detach(lx->ifs[i].link_fd) < 0 && errno != ENOLINK)
		rv = -errno;
	close(lx->ifs[i].link_fd);
	lx->ifs[i] = lx->ifs[--lx->nifs];
	return rv;
}

void pnc_learn_xdp_set_cfg(struct pnc_learn_xdp *lx, const struct pnc_learn_cfg *cfg)
{
	/* .data is mmap'ed: the program sees the new values at once. */
	lx->skel->data->pnc_cfg = *cfg;
}

int pnc_learn_xdp_poll(struct pnc_learn_xdp *lx, int timeout_ms)
{
	return ring_buffer__poll(lx->rb, timeout_ms);
}

int pnc_learn_xdp_fd(const struct pnc_learn_xdp *lx)
{
	return ring_buffer__epoll_fd(lx->rb);
}

uint64_t pnc_learn_xdp_bad_records(const struct pnc_learn_xdp *lx)
{
	return lx->bad_records;
}

int pnc_learn_xdp_counters(const struct pnc_learn_xdp *lx, struct pnc_learn_counters *out)
{
	return pnc_bpf_percpu_counters(bpf_map__fd(lx->skel->maps.counters), PNC_LEARN_C_MAX,
				       out->v);
}

int pnc_learn_xdp_counters_clear(struct pnc_learn_xdp *lx)
{
	return pnc_bpf_percpu_clear(bpf_map__fd(lx->skel->maps.counters), PNC_LEARN_C_MAX);
}

const char *pnc_learn_counter_name(enum pnc_learn_counter c)
{
	static const char *const names[PNC_LEARN_C_MAX] = {
		[PNC_LEARN_C_PKTS] = "pkts",
		[PNC_LEARN_C_ROCE] = "roce",
		[PNC_LEARN_C_CM] = "cm",
		[PNC_LEARN_C_SAMPLES] = "samples",
		[PNC_LEARN_C_RATE_LIMITED] = "rate_limited",
		[PNC_LEARN_C_RB_FULL] = "rb_full",
		[PNC_LEARN_C_IGNORED] = "ignored",
		[PNC_LEARN_C_PARSE_ERR] = "parse_err",
	};

	return (unsigned int)c < PNC_LEARN_C_MAX ? names[c] : "?";
}
