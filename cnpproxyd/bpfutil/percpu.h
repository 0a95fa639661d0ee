// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reading per-CPU counter maps of the BPF programs (learn, mark, tunnel):
 * each keeps its counters in a BPF_MAP_TYPE_PERCPU_ARRAY of __u64, one
 * key per counter.  No FRR dependency.
 */
#ifndef _CNPPROXY_BPFUTIL_PERCPU_H
#define _CNPPROXY_BPFUTIL_PERCPU_H

#include <stdint.h>

/* out[k] = the sum over all CPUs of key k, for k < n.  0 or -errno. */
extern int pnc_bpf_percpu_counters(int map_fd, unsigned int n, uint64_t *out);
/*
 * Zero keys 0..n-1 on every CPU ("clear ... counters").  A packet counted
 * while this runs may be lost from the new count.  0 or -errno.
 */
extern int pnc_bpf_percpu_clear(int map_fd, unsigned int n);

/*
 * One entry of a per-CPU map whose value is a struct of n_u64 __u64
 * fields: zero it on every CPU (creating it), or sum each field over
 * the CPUs into out[0..n_u64).  0 or -errno.
 */
extern int pnc_bpf_percpu_elem_zero(int map_fd, uint32_t key, unsigned int n_u64);
extern int pnc_bpf_percpu_elem_sum(int map_fd, uint32_t key, unsigned int n_u64, uint64_t *out);

#endif /* _CNPPROXY_BPFUTIL_PERCPU_H */
