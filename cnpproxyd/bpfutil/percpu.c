// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-CPU counter maps (see bpf_percpu.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "cnpproxy_alloc.h"
#include "bpfutil/percpu.h"

int pnc_bpf_percpu_counters(int map_fd, unsigned int n, uint64_t *out)
{
	int ncpus = libbpf_num_possible_cpus();
	uint64_t *vals;
	__u32 key;
	int cpu;

	if (ncpus <= 0)
		return ncpus < 0 ? ncpus : -EINVAL;
	vals = pnc_calloc(PNC_POOL_BPF, (size_t)ncpus, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	memset(out, 0, n * sizeof(*out));
	for (key = 0; key < n; key++) {
		if (bpf_map_lookup_elem(map_fd, &key, vals)) {
			int err = -errno;

			pnc_free(PNC_POOL_BPF, vals);
			return err;
		}
		for (cpu = 0; cpu < ncpus; cpu++)
			out[key] += vals[cpu];
	}
	pnc_free(PNC_POOL_BPF, vals);
	return 0;
}

int pnc_bpf_percpu_clear(int map_fd, unsigned int n)
{
	int ncpus = libbpf_num_possible_cpus();
	uint64_t *zeros;
	int err = 0;
	__u32 key;

	if (ncpus <= 0)
		return ncpus < 0 ? ncpus : -EINVAL;
	zeros = pnc_calloc(PNC_POOL_BPF, (size_t)ncpus, sizeof(*zeros));
	if (!zeros)
		return -ENOMEM;
	for (key = 0; key < n && !err; key++)
		if (bpf_map_update_elem(map_fd, &key, zeros, BPF_EXIST))
			err = -errno;
	pnc_free(PNC_POOL_BPF, zeros);
	return err;
}

int pnc_bpf_percpu_elem_zero(int map_fd, uint32_t key, unsigned int n_u64)
{
	int ncpus = libbpf_num_possible_cpus();
	uint64_t *vals;
	int err = 0;

	if (ncpus <= 0)
		return ncpus < 0 ? ncpus : -EINVAL;
	vals = pnc_calloc(PNC_POOL_BPF, (size_t)ncpus * n_u64, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	if (bpf_map_update_elem(map_fd, &key, vals, BPF_ANY))
		err = -errno;
	pnc_free(PNC_POOL_BPF, vals);
	return err;
}

int pnc_bpf_percpu_elem_sum(int map_fd, uint32_t key, unsigned int n_u64, uint64_t *out)
{
	int ncpus = libbpf_num_possible_cpus();
	uint64_t *vals;
	int err = 0;

	memset(out, 0, n_u64 * sizeof(*out));
	if (ncpus <= 0)
		return ncpus < 0 ? ncpus : -EINVAL;
	vals = pnc_calloc(PNC_POOL_BPF, (size_t)ncpus * n_u64, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	if (bpf_map_lookup_elem(map_fd, &key, vals)) {
		err = -errno;
	} else {
		/* libbpf lays the CPUs' values out one after the other. */
		for (int cpu = 0; cpu < ncpus; cpu++)
			for (unsigned int f = 0; f < n_u64; f++)
				out[f] += vals[(size_t)cpu * n_u64 + f];
	}
	pnc_free(PNC_POOL_BPF, vals);
	return err;
}
