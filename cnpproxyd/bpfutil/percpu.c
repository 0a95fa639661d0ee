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

/* Room for n_u64 values on every possible CPU, as libbpf lays them out. */
static uint64_t *percpu_vals(unsigned int n_u64, int *ncpus, int *err)
{
	uint64_t *vals;

	*ncpus = libbpf_num_possible_cpus();
	if (*ncpus <= 0) {
		*err = *ncpus < 0 ? *ncpus : -EINVAL;
		return NULL;
	}
	vals = pnc_calloc(PNC_POOL_BPF, (size_t)*ncpus * n_u64, sizeof(*vals));
	if (!vals)
		*err = -ENOMEM;
	return vals;
}

int pnc_bpf_percpu_counters(int map_fd, unsigned int n, uint64_t *out)
{
	int err = 0;

	memset(out, 0, n * sizeof(*out));
	for (__u32 key = 0; key < n && !err; key++)
		err = pnc_bpf_percpu_elem_sum(map_fd, key, 1, &out[key]);
	return err;
}

int pnc_bpf_percpu_clear(int map_fd, unsigned int n)
{
	int err = 0;

	for (__u32 key = 0; key < n && !err; key++)
		err = pnc_bpf_percpu_elem_zero(map_fd, key, 1);
	return err;
}

int pnc_bpf_percpu_elem_zero(int map_fd, uint32_t key, unsigned int n_u64)
{
	int ncpus, err = 0;
	uint64_t *vals = percpu_vals(n_u64, &ncpus, &err);

	if (!vals)
		return err;
	if (bpf_map_update_elem(map_fd, &key, vals, BPF_ANY))
		err = -errno;
	pnc_free(PNC_POOL_BPF, vals);
	return err;
}

int pnc_bpf_percpu_elem_sum(int map_fd, uint32_t key, unsigned int n_u64, uint64_t *out)
{
	int ncpus, err = 0;
	uint64_t *vals;

	memset(out, 0, n_u64 * sizeof(*out));
	vals = percpu_vals(n_u64, &ncpus, &err);
	if (!vals)
		return err;
	if (bpf_map_lookup_elem(map_fd, &key, vals)) {
		err = -errno;
	} else {
		for (int cpu = 0; cpu < ncpus; cpu++)
			for (unsigned int f = 0; f < n_u64; f++)
				out[f] += vals[(size_t)cpu * n_u64 + f];
	}
	pnc_free(PNC_POOL_BPF, vals);
	return err;
}
