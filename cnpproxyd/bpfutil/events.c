// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A BPF program's ring buffer of records (bpfutil/events.h).
 */
#include <errno.h>

#include <bpf/libbpf.h>

#include "cnpproxy_alloc.h"
#include "bpfutil/events.h"

struct pnc_bpf_events {
	struct ring_buffer *rb;
	pnc_bpf_events_cb cb;
	void *arg;
	uint64_t bad;
};

static int on_record(void *ctx, void *data, size_t len)
{
	struct pnc_bpf_events *ev = ctx;

	if (!ev->cb(ev->arg, data, len))
		ev->bad++;
	return 0;
}

struct pnc_bpf_events *pnc_bpf_events_open(int map_fd, pnc_bpf_events_cb cb, void *arg)
{
	struct pnc_bpf_events *ev = pnc_calloc(PNC_POOL_BPF, 1, sizeof(*ev));
	int err;

	if (!ev)
		return NULL;
	ev->cb = cb;
	ev->arg = arg;
	ev->rb = ring_buffer__new(map_fd, on_record, ev, NULL);
	if (!ev->rb) {
		err = errno;
		pnc_free(PNC_POOL_BPF, ev);
		errno = err ? err : EINVAL;
		return NULL;
	}
	return ev;
}

void pnc_bpf_events_close(struct pnc_bpf_events *ev)
{
	if (!ev)
		return;
	ring_buffer__free(ev->rb);
	pnc_free(PNC_POOL_BPF, ev);
}

int pnc_bpf_events_poll(struct pnc_bpf_events *ev, int timeout_ms)
{
	return ring_buffer__poll(ev->rb, timeout_ms);
}

int pnc_bpf_events_fd(const struct pnc_bpf_events *ev)
{
	return ring_buffer__epoll_fd(ev->rb);
}

uint64_t pnc_bpf_events_bad(const struct pnc_bpf_events *ev)
{
	return ev->bad;
}
