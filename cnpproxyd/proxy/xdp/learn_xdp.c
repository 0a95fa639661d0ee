// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loader of the proxy's XDP program (flow learning and the notification
 * guard): libbpf skeleton, BPF links per interface, ring buffer
 * consumer, per-CPU counters, the guard's tables.
 */
#include <errno.h>
#include <stdbool.h>
#include <linux/if_link.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "cnpproxy_alloc.h"
#include "codec/icrc.h"
#include "codec/roce.h"
#include "bpfutil/events.h"
#include "bpfutil/iflist.h"
#include "bpfutil/percpu.h"
#include "proxy/xdp/learn_xdp.h"
#include "learn.skel.h"

struct learn_if {
	int ifindex;
	int link_fd;
	unsigned int roles; /* enum pnc_xdp_role */
};

struct pnc_learn_xdp {
	struct pnc_learn *skel;
	struct pnc_bpf_events *ev;
	pnc_learn_xdp_cb cb;
	void *arg;
	struct pnc_if_list ifs; /* of struct learn_if */
};

static bool on_record(void *arg, const void *data, size_t len)
{
	struct pnc_learn_xdp *lx = arg;
	struct pnc_learn_event ev = { .hdr = data };

	if (len < sizeof(*ev.hdr))
		return false;
	switch (ev.hdr->type) {
	case PNC_LEARN_EV_CM:
		if (len < sizeof(*ev.cm) ||
		    ((const struct pnc_learn_cm_ev *)data)->cap_len > PNC_LEARN_CM_MAX)
			return false;
		ev.cm = data;
		break;
	case PNC_LEARN_EV_ROCE:
		if (len < sizeof(*ev.roce))
			return false;
		ev.roce = data;
		break;
	default:
		return false;
	}
	lx->cb(lx->arg, &ev);
	return true;
}

/*
 * The bits of a CNP's first n octets that its ICRC leaves out, as the
 * codec computes it: those whose flip leaves the ICRC as it was (a CRC
 * sees every other single-bit change).  Octet o is at bits 8 * (o % 4)
 * of word o / 4, as a little-endian load puts it.
 */
static void xlate_icrc_mask(uint8_t version, uint32_t *mask, size_t n)
{
	uint8_t cnp[4 * PNC_XLATE_CNP_WORDS] = {};
	size_t hlen = version == 4 ? 20 : 40;
	uint32_t want = 0, got;

	if (version == 4) {
		cnp[0] = 0x45;
		cnp[9] = IPPROTO_UDP;
	} else {
		cnp[0] = 0x60;
		cnp[6] = IPPROTO_UDP;
	}
	cnp[hlen + 8] = 0x81; /* BTH: CNP */
	pnc_icrc_compute(cnp, n, &want);
	memset(mask, 0, PNC_XLATE_CNP_WORDS * sizeof(*mask));
	for (size_t bit = 0; bit < 8 * n; bit++) {
		cnp[bit / 8] ^= 1u << (bit % 8);
		if (pnc_icrc_compute(cnp, n, &got) == PNC_OK && got == want)
			mask[bit / 32] |= 1u << (bit % 32);
		cnp[bit / 8] ^= 1u << (bit % 8);
	}
}

/*
 * The translator's read-only tables, from the codec itself: the CRC-32
 * register update of each octet, sliced by 4, the register after the
 * LRH's ones, the ICRC's masks, and the headers after the BTH.
 */
static void xlate_tables(struct pnc_learn *skel)
{
	static const uint8_t ones[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	volatile uint32_t(*t)[256] = skel->rodata->pnc_xlate_crc;

	for (unsigned int i = 0; i < 256; i++) {
		uint8_t octet = (uint8_t)i;

		/* pnc_crc32(~0, x) = ~update(0, x), and update(0, i) is entry i. */
		t[0][i] = ~pnc_crc32(0xffffffff, &octet, 1);
		skel->rodata->pnc_xlate_ext_len[i] = (int8_t)pnc_bth_ext_len(octet);
	}
	/* Table k: an octet then k zero octets through the register. */
	for (unsigned int k = 1; k < PNC_XLATE_CRC_SLICES; k++)
		for (unsigned int i = 0; i < 256; i++)
			t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xff];
	/* The raw register from ~0 through the ones: pnc_crc32 inverts on both sides. */
	skel->rodata->pnc_xlate_icrc_seed = ~pnc_crc32(0, ones, sizeof(ones));
	xlate_icrc_mask(4, (uint32_t *)skel->rodata->pnc_xlate_icrc_mask[0],
			4 * PNC_XLATE_CNP_V4_WORDS);
	xlate_icrc_mask(6, (uint32_t *)skel->rodata->pnc_xlate_icrc_mask[1],
			4 * PNC_XLATE_CNP_WORDS);
}

struct pnc_learn_xdp *pnc_learn_xdp_open(const struct pnc_learn_cfg *cfg, pnc_learn_xdp_cb cb,
					 void *arg)
{
	struct pnc_learn_xdp *lx;
	int err;

	lx = pnc_calloc(PNC_POOL_BPF, 1, sizeof(*lx));
	if (!lx)
		return NULL;
	lx->ifs = PNC_IF_LIST(struct learn_if);
	lx->cb = cb;
	lx->arg = arg;
	lx->skel = pnc_learn__open();
	if (!lx->skel) {
		err = -errno;
		goto fail;
	}
	if (cfg)
		lx->skel->data->pnc_cfg = *cfg;
	xlate_tables(lx->skel);
	err = pnc_learn__load(lx->skel);
	if (err)
		goto fail;
	lx->ev = pnc_bpf_events_open(bpf_map__fd(lx->skel->maps.events), on_record, lx);
	if (!lx->ev) {
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
	for (struct learn_if *li; (li = pnc_if_list_last(&lx->ifs));)
		pnc_learn_xdp_detach(lx, li->ifindex);
	pnc_if_list_free(&lx->ifs);
	pnc_bpf_events_close(lx->ev);
	pnc_learn__destroy(lx->skel);
	pnc_free(PNC_POOL_BPF, lx);
}

/* The entry point that runs exactly the stages of roles. */
static int prog_fd(const struct pnc_learn_xdp *lx, unsigned int roles)
{
	switch (roles) {
	case PNC_XDP_ROLE_LEARN:
		return bpf_program__fd(lx->skel->progs.pnc_learn);
	case PNC_XDP_ROLE_GUARD:
		return bpf_program__fd(lx->skel->progs.pnc_guard);
	case PNC_XDP_ROLE_LEARN | PNC_XDP_ROLE_GUARD:
		return bpf_program__fd(lx->skel->progs.pnc_guard_learn);
	}
	return -EINVAL;
}

static int link_xdp(struct pnc_learn_xdp *lx, int ifindex, unsigned int roles, __u32 flags)
{
	LIBBPF_OPTS(bpf_link_create_opts, opts, .flags = flags);
	int fd;

	fd = bpf_link_create(prog_fd(lx, roles), ifindex, BPF_XDP, &opts);
	return fd < 0 ? -errno : fd;
}

int pnc_learn_xdp_attach(struct pnc_learn_xdp *lx, int ifindex, enum pnc_learn_xdp_mode mode,
			 enum pnc_learn_xdp_mode *used)
{
	return pnc_learn_xdp_attach_roles(lx, ifindex, PNC_XDP_ROLE_LEARN, mode, used);
}

int pnc_learn_xdp_attach_roles(struct pnc_learn_xdp *lx, int ifindex, unsigned int roles,
			       enum pnc_learn_xdp_mode mode, enum pnc_learn_xdp_mode *used)
{
	struct learn_if *li;
	int fd, err;

	li = pnc_if_list_claim(&lx->ifs, ifindex, &err);
	if (!li)
		return err;
	if (prog_fd(lx, roles) < 0)
		return -EINVAL;
	if (mode == PNC_LEARN_XDP_GENERIC) {
		fd = link_xdp(lx, ifindex, roles, XDP_FLAGS_SKB_MODE);
	} else {
		fd = link_xdp(lx, ifindex, roles, XDP_FLAGS_DRV_MODE);
		/* Only a driver without XDP is worth the generic fallback. */
		if (mode == PNC_LEARN_XDP_AUTO && (fd == -EOPNOTSUPP || fd == -EINVAL)) {
			mode = PNC_LEARN_XDP_GENERIC;
			fd = link_xdp(lx, ifindex, roles, XDP_FLAGS_SKB_MODE);
		} else {
			mode = PNC_LEARN_XDP_NATIVE;
		}
	}
	if (fd < 0)
		return fd;
	li->link_fd = fd;
	li->roles = roles;
	pnc_if_list_add(&lx->ifs);
	if (used)
		*used = mode;
	return 0;
}

int pnc_learn_xdp_detach(struct pnc_learn_xdp *lx, int ifindex)
{
	struct learn_if *li = pnc_if_list_find(&lx->ifs, ifindex);
	int rv = 0;

	if (!li)
		return -ENOENT;
	/* Detach even if someone else holds a reference to the link. */
	if (bpf_link_detach(li->link_fd) < 0 && errno != ENOLINK)
		rv = -errno;
	close(li->link_fd);
	pnc_if_list_remove(&lx->ifs, li);
	return rv;
}

int pnc_learn_xdp_set_roles(struct pnc_learn_xdp *lx, int ifindex, unsigned int roles)
{
	struct learn_if *li = pnc_if_list_find(&lx->ifs, ifindex);
	int fd = prog_fd(lx, roles);

	if (fd < 0)
		return -EINVAL;
	if (!li)
		return -ENOENT;
	if (li->roles == roles)
		return 0;
	/* Atomic: no packet goes through the interface without a program. */
	if (bpf_link_update(li->link_fd, fd, NULL) < 0)
		return -errno;
	li->roles = roles;
	return 0;
}

void pnc_learn_xdp_set_cfg(struct pnc_learn_xdp *lx, const struct pnc_learn_cfg *cfg)
{
	/* .data is mmap'ed: the program sees the new values at once. */
	lx->skel->data->pnc_cfg = *cfg;
}

int pnc_learn_xdp_poll(struct pnc_learn_xdp *lx, int timeout_ms)
{
	return pnc_bpf_events_poll(lx->ev, timeout_ms);
}

int pnc_learn_xdp_fd(const struct pnc_learn_xdp *lx)
{
	return pnc_bpf_events_fd(lx->ev);
}

uint64_t pnc_learn_xdp_bad_records(const struct pnc_learn_xdp *lx)
{
	return pnc_bpf_events_bad(lx->ev);
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
		[PNC_LEARN_C_GUARD_PASSED] = "guard_passed",
		[PNC_LEARN_C_GUARD_DENIED] = "guard_denied",
		[PNC_LEARN_C_GUARD_RATE_LIMITED] = "guard_rate_limited",
		[PNC_LEARN_C_GUARD_HDR_CHAIN] = "guard_header_chain",
		[PNC_LEARN_C_XLATE_RX] = "xlate_received",
		[PNC_LEARN_C_XLATE_SENT] = "xlate_cnp_sent",
		[PNC_LEARN_C_XLATE_LIGHT] = "xlate_light",
		[PNC_LEARN_C_XLATE_RL_GLOBAL] = "xlate_rate_limited_global",
		[PNC_LEARN_C_XLATE_MIN_INTERVAL] = "xlate_min_interval",
		[PNC_LEARN_C_XLATE_TX_ERROR] = "xlate_tx_error",
		[PNC_LEARN_C_XLATE_PASS_FLOW] = "xlate_passed_no_flow",
		[PNC_LEARN_C_XLATE_PASS_ROUTE] = "xlate_passed_no_route",
		[PNC_LEARN_C_XLATE_PASS_OTHER] = "xlate_passed_other",
		[PNC_LEARN_C_XSK_STEERED] = "xsk_steered",
		[PNC_LEARN_C_XSK_PASSED] = "xsk_passed",
	};

	return (unsigned int)c < PNC_LEARN_C_MAX ? names[c] : "?";
}

/* ---- the notification guard's tables ----------------------------------- */

void pnc_learn_xdp_guard_cfg(struct pnc_learn_xdp *lx, const struct pnc_guard_cfg *cfg)
{
	struct pnc_guard_cfg *live = &lx->skel->bss->pnc_guard_cfg;

	/* The rate turns the guard on: set it last, once the rest is there. */
	live->rate = 0;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	live->notification_port = cfg->notification_port;
	live->flow_label_port = cfg->flow_label_port;
	live->icmp_type = cfg->icmp_type;
	live->icmp6_type = cfg->icmp6_type;
	live->burst = cfg->burst ? cfg->burst : 1;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	live->rate = cfg->rate;
}

#define PNC_GUARD_KEY_MAX 32

/* The key size of the map being synced (the control plane is one thread). */
static size_t sync_key_size;

static int key_cmp(const void *a, const void *b)
{
	return memcmp(a, b, sync_key_size);
}

/*
 * Make the map hold exactly keys[n] (values vals of val_size octets each,
 * or the octet 1 when vals is NULL): add
 * and update first, then delete what is no longer wanted, so that every
 * lookup meanwhile finds the old entry or the new one.
 */
static int map_sync(int fd, const void *keys, const void *vals, size_t n, size_t key_size,
		    size_t val_size, size_t max)
{
	unsigned char *wanted, *stale, cur[PNC_GUARD_KEY_MAX], prev[PNC_GUARD_KEY_MAX];
	size_t i, nstale = 0;
	bool walked = false;
	const __u8 one = 1;
	int err = 0;

	if (key_size > sizeof(cur))
		return -EINVAL;

	/* An entry that cannot go in does not keep the others out. */
	for (i = 0; i < n; i++)
		if (bpf_map_update_elem(fd, (const char *)keys + i * key_size,
					vals ? (const char *)vals + i * val_size
					     : (const void *)&one,
					BPF_ANY) < 0)
			err = -errno;

	wanted = pnc_calloc(PNC_POOL_BPF, n + 1, key_size);
	stale = pnc_calloc(PNC_POOL_BPF, max, key_size);
	if (!wanted || !stale) {
		err = -ENOMEM;
		goto out;
	}
	if (n)
		memcpy(wanted, keys, n * key_size);
	sync_key_size = key_size;
	qsort(wanted, n, key_size, key_cmp);
	/* Collect first: a walk over a map that changes may start over. */
	while (nstale < max && bpf_map_get_next_key(fd, walked ? prev : NULL, cur) == 0) {
		walked = true;
		memcpy(prev, cur, key_size);
		if (!bsearch(cur, wanted, n, key_size, key_cmp))
			memcpy(stale + nstale++ * key_size, cur, key_size);
	}
	for (i = 0; i < nstale; i++)
		if (bpf_map_delete_elem(fd, stale + i * key_size) < 0 && errno != ENOENT)
			err = -errno;
out:
	pnc_free(PNC_POOL_BPF, wanted);
	pnc_free(PNC_POOL_BPF, stale);
	return err;
}

int pnc_learn_xdp_guard_accept(struct pnc_learn_xdp *lx, const struct pnc_guard_prefix *keys,
			       const __u8 *permit, size_t n)
{
	if (n > PNC_GUARD_ACCEPT_MAX)
		return -E2BIG;
	return map_sync(bpf_map__fd(lx->skel->maps.guard_accept), keys, permit, n, sizeof(*keys),
			sizeof(*permit), PNC_GUARD_ACCEPT_MAX);
}

int pnc_learn_xdp_guard_local(struct pnc_learn_xdp *lx, const struct pnc_guard_addr *addrs,
			      size_t n)
{
	if (n > PNC_GUARD_LOCAL_MAX)
		return -E2BIG;
	return map_sync(bpf_map__fd(lx->skel->maps.guard_local), addrs, NULL, n, sizeof(*addrs), 0,
			PNC_GUARD_LOCAL_MAX);
}

int pnc_learn_xdp_guard_reset_sources(struct pnc_learn_xdp *lx)
{
	return map_sync(bpf_map__fd(lx->skel->maps.guard_buckets), NULL, NULL, 0,
			sizeof(struct pnc_guard_addr), 0, PNC_GUARD_SOURCES_MAX);
}

/* ---- the translator's tables ------------------------------------------- */

void pnc_learn_xdp_xlate_cfg(struct pnc_learn_xdp *lx, const struct pnc_xlate_cfg *cfg)
{
	struct pnc_xlate_cfg *live = &lx->skel->bss->pnc_xlate_cfg;

	/* As for the guard: off while the rest changes, on last. */
	live->enabled = 0;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	*live = *cfg;
	live->enabled = 0;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	live->enabled = cfg->enabled;
}

int pnc_learn_xdp_xlate_flow_set(struct pnc_learn_xdp *lx, const struct pnc_xlate_key *key,
				 const struct pnc_xlate_flow *flow)
{
	if (bpf_map_update_elem(bpf_map__fd(lx->skel->maps.xlate_flows), key, flow, BPF_ANY) < 0)
		return -errno;
	return 0;
}

int pnc_learn_xdp_xlate_flow_del(struct pnc_learn_xdp *lx, const struct pnc_xlate_key *key)
{
	if (bpf_map_delete_elem(bpf_map__fd(lx->skel->maps.xlate_flows), key) < 0 &&
	    errno != ENOENT)
		return -errno;
	return 0;
}

int pnc_learn_xdp_xlate_tx(struct pnc_learn_xdp *lx, const int *ifindexes, size_t n)
{
	struct bpf_devmap_val vals[PNC_XLATE_TX_MAX] = {};
	__u32 keys[PNC_XLATE_TX_MAX];

	if (n > PNC_XLATE_TX_MAX)
		return -E2BIG;
	for (size_t i = 0; i < n; i++) {
		keys[i] = (__u32)ifindexes[i];
		vals[i].ifindex = keys[i];
	}
	return map_sync(bpf_map__fd(lx->skel->maps.xlate_tx), keys, vals, n, sizeof(*keys),
			sizeof(*vals), PNC_XLATE_TX_MAX);
}

int pnc_learn_xdp_xlate_reset(struct pnc_learn_xdp *lx)
{
	struct pnc_xlate_global g = {};
	__u32 zero = 0;
	int err;

	err = map_sync(bpf_map__fd(lx->skel->maps.xlate_qps), NULL, NULL, 0,
		       sizeof(struct pnc_xlate_qp), 0, PNC_XLATE_QPS_MAX);
	if (bpf_map_update_elem(bpf_map__fd(lx->skel->maps.xlate_global), &zero, &g, BPF_ANY) < 0)
		err = -errno;
	return err;
}

/* ---- AF_XDP steering ------------------------------------------------------ */

int pnc_learn_xdp_xsk_maps(const struct pnc_learn_xdp *lx, int *sockets_fd, int *ifs_fd)
{
	*sockets_fd = bpf_map__fd(lx->skel->maps.xsk_sockets);
	*ifs_fd = bpf_map__fd(lx->skel->maps.xsk_ifs);
	return *sockets_fd < 0 || *ifs_fd < 0 ? -EBADF : 0;
}
