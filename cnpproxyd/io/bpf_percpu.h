// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading per-CPU counter maps of the BPF programs (learn, mark, flenc):
 * each keeps its counters in a BPF_MAP_TYPE_PERCPU_ARRAY of __u64, one
 * key per counter.  No FRR dependency.
 */
#ifndef _CNPPROXY_IO_BPF_PERCPU_H
#define _CNPPROXY_IO_BPF_PERCPU_H

#include <stdint.h>

/* out[k] = the sum over all CPUs of key k, for k < n.  0 or -errno. */
extern int pnc_bpf_percpu_counters(int map_fd, unsigned int n, uint64_t *out);
/*
 * Zero keys 0..n-1 on every CPU ("clear ... counters").  A packet counted
 * while this runs may be lost from the new count.  0 or -errno.
 */
extern int pnc_bpf_percpu_clear(int map_fd, unsigned int n);

#endif /* _CNPPROXY_IO_BPF_PERCPU_H */
