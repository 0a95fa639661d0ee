// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The BPF shim: maps, packets and helpers emulated in user space for
 * pnc's BPF programs compiled with the host compiler (shim.h).
 *
 * It follows the kernel where a program could tell the difference
 * (error codes and what a failing helper leaves behind, a hash map
 * update replacing the element, the LPM trie's longest match, packet
 * pointers invalidated by the helpers that change packet data) and
 * aborts where the verifier would have refused the program.  One CPU:
 * per-CPU maps hold one value.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "shim.h"
#include "bpf/bpf_helpers.h"
/* Meant for the programs only (bpf_helpers.h). */
#undef asm
#undef volatile

#define SHIM_MAPS_MAX	32
#define ETH_HLEN	14
#define ETH_P_IP_BE	0x0008 /* 0x0800 as the kernel keeps it, network order */
#define ETH_P_IPV6_BE	0xdd86
#define SKB_MAX_LEN	16064 /* what bpf_skb_adjust_room() grows to, 4 KiB pages */
#define JUNK		0xa5  /* what the kernel leaves in memory nobody wrote */
#define RINGBUF_HDR	8
#define XDP_ACTION_MASK 3
#define ENOTSUPP	524 /* the kernel's own, unknown to libc */
/*
 * Octets in front of a packet, as drivers with NET_IP_ALIGN leave: the IP
 * header after Ethernet (and one VLAN tag) is 4-aligned, as the host's
 * compiler assumes struct iphdr is.  The packet's end stays the end of
 * its allocation, where ASan watches.
 */
#define IP_ALIGN 2

struct shim_elem {
	uint8_t *key;
	uint8_t *value;
	uint64_t used; /* LRU order */
};

enum rec_state { REC_RESERVED, REC_SUBMITTED };

struct shim_rec {
	uint8_t *data;
	size_t len;
	enum rec_state state;
};

struct shim_map {
	void *addr;
	const char *name;
	unsigned int type, max;
	size_t ksize, vsize;
	/* hash-like maps */
	struct shim_elem *elems;
	size_t n, cap;
	/* arrays: one allocation per element */
	uint8_t **slots;
	/* ring buffers */
	size_t space;
	struct shim_rec *recs;
	size_t nrecs, caprecs;
};

struct shim_xdp {
	struct xdp_md md; /* first: the program's pointer is ours */
	uint8_t *buf;
	size_t len;
};

struct shim_skb {
	struct __sk_buff skb; /* first, likewise */
	uint8_t *pkt;	      /* the whole packet */
	size_t len;
	uint8_t *lin; /* the linear part, a copy of pkt[0..lin_len) */
	size_t lin_len;
};

struct shim_env shim_env;
struct shim_trace shim_trace;

static struct shim_map maps[SHIM_MAPS_MAX];
static size_t nmaps;
static uint64_t use_clock;
static bool in_run;
static bool locked;
/* Elements replaced or deleted during a run: the kernel frees them after RCU. */
static void **deferred;
static size_t ndeferred, capdeferred;
static struct shim_xdp xdp_ctx;
static bool xdp_busy;
static struct shim_skb skb_ctx;
static bool skb_busy;

static void __attribute__((noreturn, format(printf, 1, 2))) violation(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "bpf shim: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	abort();
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n);

	if (!p && n)
		violation("out of memory");
	return p;
}

static void *grow(void *arr, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return arr;
	*cap = need < 16 ? 16 : 2 * need;
	arr = realloc(arr, *cap * size);
	if (!arr)
		violation("out of memory");
	return arr;
}

/* Frees now, or at the end of the run when the program may still hold it. */
static void release(void *p)
{
	if (!in_run) {
		free(p);
		return;
	}
	deferred = grow(deferred, &capdeferred, ndeferred + 1, sizeof(*deferred));
	deferred[ndeferred++] = p;
}

/* The verifier allows no helper call but the unlock while a lock is held. */
static void helper_entry(const char *name)
{
	if (locked)
		violation("%s() called with a spin lock held", name);
}

/* ---- maps ------------------------------------------------------------------ */

static struct shim_map *map_of(const void *addr)
{
	for (size_t i = 0; i < nmaps; i++)
		if (maps[i].addr == addr)
			return &maps[i];
	violation("map at %p not registered (SHIM_MAP)", addr);
}

static bool is_array(const struct shim_map *m)
{
	return m->type == BPF_MAP_TYPE_ARRAY || m->type == BPF_MAP_TYPE_PERCPU_ARRAY;
}

void shim_map_add(void *map, const char *name, unsigned int type, unsigned int max_entries,
		  size_t key_size, size_t value_size)
{
	struct shim_map *m;

	if (nmaps == SHIM_MAPS_MAX)
		violation("too many maps");
	m = &maps[nmaps++];
	*m = (struct shim_map){ .addr = map,
				.name = name,
				.type = type,
				.max = max_entries,
				.ksize = key_size,
				.vsize = value_size,
				.space = SIZE_MAX };
	switch (type) {
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
		if (key_size != 4)
			violation("%s: array key of %zu octets", name, key_size);
		m->slots = xmalloc(max_entries * sizeof(*m->slots));
		for (unsigned int i = 0; i < max_entries; i++) {
			m->slots[i] = xmalloc(value_size);
			memset(m->slots[i], 0, value_size);
		}
		break;
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_LRU_HASH:
	case BPF_MAP_TYPE_DEVMAP_HASH:
	case BPF_MAP_TYPE_RINGBUF:
		break;
	case BPF_MAP_TYPE_XSKMAP:
		if (key_size != 4 || value_size != 4)
			violation("%s: XSKMAP of %zu/%zu octets", name, key_size, value_size);
		break;
	case BPF_MAP_TYPE_LPM_TRIE:
		if (key_size <= 4)
			violation("%s: LPM key of %zu octets", name, key_size);
		break;
	default:
		violation("%s: map type %u not emulated", name, type);
	}
}

/* The LPM trie key: a 32-bit prefix length, then the data it applies to. */
static __u32 lpm_len(const uint8_t *key)
{
	__u32 len;

	memcpy(&len, key, sizeof(len));
	return len;
}

static bool lpm_covers(const uint8_t *prefix, __u32 bits, const uint8_t *addr)
{
	__u32 whole = bits / 8, rest = bits % 8;

	if (memcmp(prefix + 4, addr + 4, whole))
		return false;
	return !rest || !((prefix[4 + whole] ^ addr[4 + whole]) & (0xff00 >> rest));
}

static ssize_t find(struct shim_map *m, const uint8_t *key)
{
	ssize_t best = -1;

	if (m->type != BPF_MAP_TYPE_LPM_TRIE) {
		for (size_t i = 0; i < m->n; i++)
			if (!memcmp(m->elems[i].key, key, m->ksize))
				return (ssize_t)i;
		return -1;
	}
	/* Longest prefix no longer than the key's that covers its data. */
	for (size_t i = 0; i < m->n; i++) {
		__u32 len = lpm_len(m->elems[i].key);

		if (len <= lpm_len(key) && lpm_covers(m->elems[i].key, len, key) &&
		    (best < 0 || len > lpm_len(m->elems[best].key)))
			best = (ssize_t)i;
	}
	return best;
}

/* An LPM entry with the same prefix, for an update or a delete. */
static ssize_t find_exact(struct shim_map *m, const uint8_t *key)
{
	if (m->type != BPF_MAP_TYPE_LPM_TRIE)
		return find(m, key);
	for (size_t i = 0; i < m->n; i++)
		if (lpm_len(m->elems[i].key) == lpm_len(key) &&
		    lpm_covers(m->elems[i].key, lpm_len(key), key))
			return (ssize_t)i;
	return -1;
}

static void *lookup(struct shim_map *m, const void *key, bool touch)
{
	ssize_t i;
	__u32 idx;

	if (m->type == BPF_MAP_TYPE_RINGBUF)
		violation("%s: lookup in a ring buffer", m->name);
	if (is_array(m)) {
		memcpy(&idx, key, sizeof(idx));
		return idx < m->max ? m->slots[idx] : NULL;
	}
	if (m->type == BPF_MAP_TYPE_LPM_TRIE && lpm_len(key) > 8 * (m->ksize - 4))
		return NULL;
	i = find(m, key);
	if (i < 0)
		return NULL;
	if (touch)
		m->elems[i].used = ++use_clock;
	return m->elems[i].value;
}

static void drop_elem(struct shim_map *m, size_t i)
{
	release(m->elems[i].key);
	release(m->elems[i].value);
	memmove(&m->elems[i], &m->elems[i + 1], (m->n - i - 1) * sizeof(m->elems[0]));
	m->n--;
}

static int update(struct shim_map *m, const void *key, const void *value, __u64 flags)
{
	struct shim_elem e;
	ssize_t old;
	__u32 idx;

	if (flags > BPF_EXIST)
		return -EINVAL;
	if (is_array(m)) {
		memcpy(&idx, key, sizeof(idx));
		if (idx >= m->max)
			return -E2BIG;
		if (flags == BPF_NOEXIST)
			return -EEXIST;
		memcpy(m->slots[idx], value, m->vsize);
		return 0;
	}
	switch (m->type) {
	case BPF_MAP_TYPE_RINGBUF:
		violation("%s: update of a ring buffer", m->name);
	case BPF_MAP_TYPE_LPM_TRIE:
		if (lpm_len(key) > 8 * (m->ksize - 4))
			return -EINVAL;
		break;
	case BPF_MAP_TYPE_XSKMAP:
		memcpy(&idx, key, sizeof(idx));
		if (idx >= m->max)
			return -E2BIG;
		break;
	}
	old = find_exact(m, key);
	if (old >= 0 && flags == BPF_NOEXIST)
		return -EEXIST;
	if (old < 0 && flags == BPF_EXIST)
		return -ENOENT;
	if (old < 0 && m->n >= m->max) {
		size_t lru = 0;

		if (m->type != BPF_MAP_TYPE_LRU_HASH)
			return m->type == BPF_MAP_TYPE_LPM_TRIE ? -ENOSPC : -E2BIG;
		for (size_t i = 1; i < m->n; i++)
			if (m->elems[i].used < m->elems[lru].used)
				lru = i;
		drop_elem(m, lru);
	}
	/* Per-CPU values are copied over; other maps' new element replaces the old one. */
	if (old >= 0 && m->type == BPF_MAP_TYPE_PERCPU_HASH) {
		memcpy(m->elems[old].value, value, m->vsize);
		return 0;
	}
	e.key = xmalloc(m->ksize);
	e.value = xmalloc(m->vsize);
	memcpy(e.key, key, m->ksize);
	memcpy(e.value, value, m->vsize);
	e.used = ++use_clock;
	if (old >= 0) {
		release(m->elems[old].key);
		release(m->elems[old].value);
		m->elems[old] = e;
		return 0;
	}
	m->elems = grow(m->elems, &m->cap, m->n + 1, sizeof(*m->elems));
	m->elems[m->n++] = e;
	return 0;
}

static int map_delete(struct shim_map *m, const void *key)
{
	ssize_t i;

	if (is_array(m))
		return -EINVAL;
	if (m->type == BPF_MAP_TYPE_RINGBUF)
		violation("%s: delete in a ring buffer", m->name);
	i = find_exact(m, key);
	if (i < 0)
		return -ENOENT;
	drop_elem(m, (size_t)i);
	return 0;
}

int shim_map_update(void *map, const void *key, const void *value, __u64 flags)
{
	return update(map_of(map), key, value, flags);
}

void *shim_map_lookup(void *map, const void *key)
{
	return lookup(map_of(map), key, false);
}

int shim_map_delete(void *map, const void *key)
{
	return map_delete(map_of(map), key);
}

size_t shim_map_count(void *map)
{
	return map_of(map)->n;
}

static void clear_records(struct shim_map *m)
{
	for (size_t i = 0; i < m->nrecs; i++)
		free(m->recs[i].data);
	m->nrecs = 0;
}

void shim_ringbuf_space(void *map, size_t bytes)
{
	map_of(map)->space = bytes;
}

static struct shim_map *ringbuf_of(void *map)
{
	struct shim_map *m = map_of(map);

	if (m->type != BPF_MAP_TYPE_RINGBUF)
		violation("%s is not a ring buffer", m->name);
	return m;
}

size_t shim_ringbuf_count(void *map)
{
	return ringbuf_of(map)->nrecs;
}

const void *shim_ringbuf_record(void *map, size_t i, size_t *len)
{
	struct shim_map *m = ringbuf_of(map);

	if (i >= m->nrecs || m->recs[i].state != REC_SUBMITTED)
		violation("%s: record %zu not submitted", m->name, i);
	*len = m->recs[i].len;
	return m->recs[i].data;
}

void shim_ringbuf_clear(void *map)
{
	clear_records(ringbuf_of(map));
}

void shim_reset(void)
{
	for (size_t k = 0; k < nmaps; k++) {
		struct shim_map *m = &maps[k];

		while (m->n)
			drop_elem(m, m->n - 1);
		if (is_array(m))
			for (unsigned int i = 0; i < m->max; i++)
				memset(m->slots[i], 0, m->vsize);
		clear_records(m);
		m->space = SIZE_MAX;
	}
	memset(&shim_env, 0, sizeof(shim_env));
	shim_env.xdp_frame_max = 4096 - 256 - 320; /* a page less headroom and shared info */
	shim_env.mtu = 1500;
	memset(&shim_trace, 0, sizeof(shim_trace));
}

/* /proc/self/maps permissions of the mapping holding [a, b), or NULL. */
static bool mapping_perms(uintptr_t a, uintptr_t b, char perms[5])
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long lo, hi;
	char line[512];
	bool found = false;

	if (!f)
		violation("cannot read /proc/self/maps");
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) == 3 && lo <= a && b <= hi)
			found = true;
	fclose(f);
	return found;
}

void shim_rodata_write(const volatile void *dst, const void *src, size_t len)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = (uintptr_t)dst & ~(page - 1);
	uintptr_t b = ((uintptr_t)dst + len + page - 1) & ~(page - 1);
	void *to;
	char perms[5];

	/* Read-only data only: never take the execute right off code. */
	if (!mapping_perms(a, b, perms) || strcmp(perms, "r--p") != 0)
		violation("rodata at %p is not in a read-only mapping", (const void *)dst);
	if (mprotect((void *)a, b - a, PROT_READ | PROT_WRITE))
		violation("mprotect: %s", strerror(errno));
	/* Hide the const object from the compiler, which may assume it never changes. */
	to = (void *)(uintptr_t)dst;
	__asm__ __volatile__("" : "+r"(to));
	memcpy(to, src, len);
	if (mprotect((void *)a, b - a, PROT_READ))
		violation("mprotect: %s", strerror(errno));
}

/* ---- runs ---------------------------------------------------------------------- */

static void run_begin(void)
{
	if (in_run)
		violation("a program run inside another");
	in_run = true;
	memset(&shim_trace, 0, sizeof(shim_trace));
}

/* The verdict, once what the verifier guarantees at exit is checked. */
static int run_end(int verdict)
{
	if (locked)
		violation("program exited with a spin lock held");
	for (size_t k = 0; k < nmaps; k++)
		for (size_t i = 0; i < maps[k].nrecs; i++)
			if (maps[k].recs[i].state == REC_RESERVED)
				violation("%s: ring buffer record neither submitted nor discarded",
					  maps[k].name);
	in_run = false;
	for (size_t i = 0; i < ndeferred; i++)
		free(deferred[i]);
	ndeferred = 0;
	return verdict;
}

/* ---- XDP ------------------------------------------------------------------------- */

/* A packet buffer: IP_ALIGN octets, then len. */
static uint8_t *pkt_alloc(size_t len)
{
	return (uint8_t *)xmalloc(IP_ALIGN + len) + IP_ALIGN;
}

static void pkt_free(uint8_t *pkt)
{
	if (pkt)
		free(pkt - IP_ALIGN);
}

static void xdp_set(struct shim_xdp *x, uint8_t *buf, size_t len)
{
	x->buf = buf;
	x->len = len;
	x->md.data = (unsigned long)buf;
	x->md.data_end = (unsigned long)(buf + len);
}

struct xdp_md *shim_xdp_frame(const uint8_t *frame, size_t len, __u32 ifindex, __u32 rx_queue)
{
	uint8_t *buf;

	if (xdp_busy)
		violation("XDP context in use");
	xdp_busy = true;
	buf = pkt_alloc(len);
	if (len)
		memcpy(buf, frame, len);
	memset(&xdp_ctx, 0, sizeof(xdp_ctx));
	xdp_set(&xdp_ctx, buf, len);
	xdp_ctx.md.ingress_ifindex = ifindex;
	xdp_ctx.md.rx_queue_index = rx_queue;
	return &xdp_ctx.md;
}

static struct shim_xdp *xdp_of(const void *ctx)
{
	if (ctx != &xdp_ctx.md || !xdp_busy)
		violation("not the XDP context");
	return &xdp_ctx;
}

const uint8_t *shim_xdp_bytes(const struct xdp_md *ctx, size_t *len)
{
	struct shim_xdp *x = xdp_of(ctx);

	*len = x->len;
	return x->buf;
}

void shim_xdp_release(struct xdp_md *ctx)
{
	struct shim_xdp *x = xdp_of(ctx);

	pkt_free(x->buf);
	xdp_busy = false;
}

int shim_run_xdp(int (*prog)(struct xdp_md *), struct xdp_md *ctx)
{
	xdp_of(ctx);
	run_begin();
	return run_end(prog(ctx));
}

/* Exactly the two context loads learn.bpf.c's stage_frame() makes, whitespace aside. */
void shim_xdp_data_asm(const char *text, struct xdp_md *ctx, void **data, void **data_end)
{
	static const char want[] = "\"%0 = *(u32 *)(%2 + 0)\\n\\t\" \"%1 = *(u32 *)(%2 + 4)\""
				   " : \"=&r\"(data), \"=&r\"(data_end) : \"r\"(ctx)";
	const char *a = text, *b = want;

	for (;;) {
		while (*a == ' ')
			a++;
		while (*b == ' ')
			b++;
		if (*a != *b)
			violation("BPF assembly not emulated: %s", text);
		if (!*a)
			break;
		a++;
		b++;
	}
	xdp_of(ctx);
	*data = (void *)ctx->data;
	*data_end = (void *)ctx->data_end;
}

long bpf_xdp_load_bytes(struct xdp_md *xdp_md, __u32 offset, void *buf, __u32 len)
{
	struct shim_xdp *x = xdp_of(xdp_md);

	helper_entry(__func__);
	if (!len)
		violation("%s: size 0", __func__);
	if (offset > 0xffff || len > 0xffff)
		return -EFAULT;
	if ((size_t)offset + len > x->len)
		return -EINVAL;
	memcpy(buf, x->buf + offset, len);
	return 0;
}

/* A new buffer of exactly the new size: pointers into the old one go stale. */
long bpf_xdp_adjust_tail(struct xdp_md *xdp_md, int delta)
{
	struct shim_xdp *x = xdp_of(xdp_md);
	long len = (long)x->len + delta;
	uint8_t *buf;

	helper_entry(__func__);
	if (len < ETH_HLEN || (size_t)len > shim_env.xdp_frame_max)
		return -EINVAL;
	buf = pkt_alloc((size_t)len);
	memcpy(buf, x->buf, (size_t)len < x->len ? (size_t)len : x->len);
	/* The kernel clears what the frame grows into. */
	if ((size_t)len > x->len)
		memset(buf + x->len, 0, (size_t)len - x->len);
	pkt_free(x->buf);
	xdp_set(x, buf, (size_t)len);
	return 0;
}

long bpf_redirect_map(void *map, __u64 key, __u64 flags)
{
	struct shim_map *m = map_of(map);
	__u32 k = (__u32)key;

	helper_entry(__func__);
	if (m->type != BPF_MAP_TYPE_XSKMAP && m->type != BPF_MAP_TYPE_DEVMAP_HASH)
		violation("%s: redirect through a map of type %u", m->name, m->type);
	if (flags & ~(__u64)XDP_ACTION_MASK)
		violation("%s: redirect flags 0x%llx not emulated", m->name,
			  (unsigned long long)flags);
	if (key > UINT32_MAX || !lookup(m, &k, false))
		return (long)(flags & XDP_ACTION_MASK);
	shim_trace.redirects++;
	shim_trace.redirect_map = map;
	shim_trace.redirect_key = key;
	return XDP_REDIRECT;
}

long bpf_fib_lookup(void *ctx, struct bpf_fib_lookup *params, int plen, __u32 flags)
{
	helper_entry(__func__);
	xdp_of(ctx);
	if (plen < (int)sizeof(*params))
		return -EINVAL;
	if (flags)
		violation("%s: flags 0x%x not emulated", __func__, flags);
	shim_trace.fib_calls++;
	shim_trace.fib_asked = *params;
	if (shim_env.fib_ret == BPF_FIB_LKUP_RET_SUCCESS) {
		params->ifindex = shim_env.fib_ifindex;
		memcpy(params->smac, shim_env.fib_smac, sizeof(params->smac));
		memcpy(params->dmac, shim_env.fib_dmac, sizeof(params->dmac));
	}
	return shim_env.fib_ret;
}

/* ---- skb ------------------------------------------------------------------------------ */

/* Direct writes through skb->data into the packet. */
static void skb_sync_in(struct shim_skb *s)
{
	memcpy(s->pkt, s->lin, s->lin_len);
}

/* A new linear part of lin_len octets; pointers into the old one go stale. */
static void skb_relinearize(struct shim_skb *s, size_t lin_len)
{
	uint8_t *lin;

	if (lin_len > s->len)
		lin_len = s->len;
	lin = pkt_alloc(lin_len);
	memcpy(lin, s->pkt, lin_len);
	pkt_free(s->lin);
	s->lin = lin;
	s->lin_len = lin_len;
	s->skb.len = (__u32)s->len;
	s->skb.data = (unsigned long)lin;
	s->skb.data_end = (unsigned long)(lin + lin_len);
}

struct __sk_buff *shim_skb_packet(const uint8_t *pkt, size_t len, size_t linear, __u32 ifindex,
				  __u16 protocol_be, __u32 gso_segs)
{
	struct shim_skb *s = &skb_ctx;

	if (skb_busy)
		violation("skb context in use");
	skb_busy = true;
	memset(s, 0, sizeof(*s));
	s->pkt = xmalloc(len);
	if (len)
		memcpy(s->pkt, pkt, len);
	s->len = len;
	s->skb.ifindex = ifindex;
	s->skb.protocol = protocol_be;
	s->skb.gso_segs = gso_segs;
	skb_relinearize(s, linear);
	return &s->skb;
}

static struct shim_skb *skb_of(const void *ctx)
{
	if (ctx != &skb_ctx.skb || !skb_busy)
		violation("not the skb context");
	return &skb_ctx;
}

const uint8_t *shim_skb_bytes(struct __sk_buff *skb, size_t *len)
{
	struct shim_skb *s = skb_of(skb);

	skb_sync_in(s);
	*len = s->len;
	return s->pkt;
}

void shim_skb_release(struct __sk_buff *skb)
{
	struct shim_skb *s = skb_of(skb);

	free(s->pkt);
	pkt_free(s->lin);
	skb_busy = false;
}

int shim_run_skb(int (*prog)(struct __sk_buff *), struct __sk_buff *skb)
{
	skb_of(skb);
	run_begin();
	return run_end(prog(skb));
}

long bpf_skb_load_bytes(const void *skb, __u32 offset, void *to, __u32 len)
{
	struct shim_skb *s = skb_of(skb);

	helper_entry(__func__);
	if (!len)
		violation("%s: size 0", __func__);
	skb_sync_in(s);
	if (offset > INT32_MAX || (size_t)offset + len > s->len) {
		memset(to, 0, len);
		return -EFAULT;
	}
	memcpy(to, s->pkt + offset, len);
	return 0;
}

/* The kernel makes [0, end) writable, which pulls it into the linear part. */
static size_t writable(const struct shim_skb *s, size_t end)
{
	return end > s->lin_len ? end : s->lin_len;
}

long bpf_skb_store_bytes(struct __sk_buff *skb, __u32 offset, const void *from, __u32 len,
			 __u64 flags)
{
	struct shim_skb *s = skb_of(skb);

	helper_entry(__func__);
	if (!len)
		violation("%s: size 0", __func__);
	if (flags & ~(__u64)(BPF_F_RECOMPUTE_CSUM | BPF_F_INVALIDATE_HASH))
		return -EINVAL;
	skb_sync_in(s);
	if (offset > INT32_MAX || (size_t)offset + len > s->len)
		return -EFAULT;
	memcpy(s->pkt + offset, from, len);
	skb_relinearize(s, writable(s, (size_t)offset + len));
	return 0;
}

static __u16 csum16_add(__u16 a, __u16 b)
{
	__u32 sum = (__u32)a + b;

	return (__u16)((sum & 0xffff) + (sum >> 16));
}

/*
 * RFC 1624 eqn. 3, HC' = ~(~HC + ~m + m'), on the octets as they lie in
 * memory: the ones' complement sum does not depend on the byte order.
 */
long bpf_l3_csum_replace(struct __sk_buff *skb, __u32 offset, __u64 from, __u64 to, __u64 size)
{
	struct shim_skb *s = skb_of(skb);
	__u16 check, words;

	helper_entry(__func__);
	if (size & ~BPF_F_HDR_FIELD_MASK)
		return -EINVAL;
	if (offset > 0xffff || (offset & 1))
		return -EFAULT;
	skb_sync_in(s);
	if ((size_t)offset + sizeof(check) > s->len)
		return -EFAULT;
	switch (size) {
	case 2:
		words = 1;
		break;
	case 4:
		words = 2;
		break;
	case 0:
		violation("%s: checksum difference (size 0) not emulated", __func__);
	default:
		return -EINVAL;
	}
	memcpy(&check, s->pkt + offset, sizeof(check));
	check = (__u16)~check;
	for (__u16 i = 0; i < words; i++) {
		check = csum16_add(check, (__u16) ~(from >> (16 * i)));
		check = csum16_add(check, (__u16)(to >> (16 * i)));
	}
	check = (__u16)~check;
	memcpy(s->pkt + offset, &check, sizeof(check));
	skb_relinearize(s, writable(s, (size_t)offset + sizeof(check)));
	return 0;
}

/* Room inserted or removed right after the Ethernet header (BPF_ADJ_ROOM_MAC). */
long bpf_skb_adjust_room(struct __sk_buff *skb, __s32 len_diff, __u32 mode, __u64 flags)
{
	const __u64 encap = BPF_F_ADJ_ROOM_ENCAP_L3_IPV4 | BPF_F_ADJ_ROOM_ENCAP_L3_IPV6;
	const __u64 decap = BPF_F_ADJ_ROOM_DECAP_L3_IPV4 | BPF_F_ADJ_ROOM_DECAP_L3_IPV6;
	/* What the encapsulation holds past its L3 header, for GSO. */
	const __u64 inner = BPF_F_ADJ_ROOM_ENCAP_L4_UDP | BPF_F_ADJ_ROOM_ENCAP_L2_ETH |
			    (__u64)BPF_ADJ_ROOM_ENCAP_L2_MASK << BPF_ADJ_ROOM_ENCAP_L2_SHIFT;
	size_t l2 = (flags >> BPF_ADJ_ROOM_ENCAP_L2_SHIFT) & BPF_ADJ_ROOM_ENCAP_L2_MASK;
	struct shim_skb *s = skb_of(skb);
	size_t diff = len_diff < 0 ? -(size_t)len_diff : (size_t)len_diff;
	size_t base, len, lin;
	uint8_t *pkt;

	helper_entry(__func__);
	if (mode != BPF_ADJ_ROOM_MAC)
		violation("%s: mode %u not emulated", __func__, mode);
	if (flags & ~(encap | decap | inner))
		violation("%s: flags 0x%llx not emulated", __func__, (unsigned long long)flags);
	if ((flags & encap) == encap || (flags & decap) == decap ||
	    (len_diff > 0 && (flags & decap)) || (len_diff < 0 && (flags & encap)))
		return -EINVAL;
	/* As the kernel: inner headers only in an encapsulation, and they fit in it. */
	if ((flags & inner) &&
	    (!(flags & encap) || len_diff <= 0 ||
	     (size_t)len_diff < ((flags & BPF_F_ADJ_ROOM_ENCAP_L3_IPV6) ? 40 : 20) +
					((flags & BPF_F_ADJ_ROOM_ENCAP_L4_UDP) ? 8 : 0) + l2))
		return -EINVAL;
	if (diff > 0xfff)
		return -EFAULT;
	if (s->skb.protocol != ETH_P_IP_BE && s->skb.protocol != ETH_P_IPV6_BE)
		return -ENOTSUPP;
	skb_sync_in(s);
	if (s->len < ETH_HLEN)
		return -ENOTSUPP;
	/* The shortest the packet may become: the new outer header's, else the current one's. */
	if (flags & decap)
		base = (flags & BPF_F_ADJ_ROOM_DECAP_L3_IPV4) ? 20 : 40;
	else
		base = s->skb.protocol == ETH_P_IP_BE ? 20 : 40;
	if (len_diff < 0 && (diff >= s->len - ETH_HLEN || s->len - ETH_HLEN - diff < base))
		return -ENOTSUPP;
	if (len_diff > 0 && s->len + diff > SKB_MAX_LEN && s->skb.gso_segs <= 1)
		return -ENOTSUPP;

	len = len_diff < 0 ? s->len - diff : s->len + diff;
	pkt = xmalloc(len);
	memcpy(pkt, s->pkt, ETH_HLEN);
	if (len_diff < 0) {
		memcpy(pkt + ETH_HLEN, s->pkt + ETH_HLEN + diff, len - ETH_HLEN);
		lin = writable(s, ETH_HLEN + diff) - diff;
	} else {
		memset(pkt + ETH_HLEN, JUNK, diff);
		memcpy(pkt + ETH_HLEN + diff, s->pkt + ETH_HLEN, s->len - ETH_HLEN);
		lin = s->lin_len + diff;
	}
	free(s->pkt);
	s->pkt = pkt;
	s->len = len;
	/* The new outer header's protocol, as the kernel sets it. */
	if (flags & (BPF_F_ADJ_ROOM_ENCAP_L3_IPV6 | BPF_F_ADJ_ROOM_DECAP_L3_IPV6))
		s->skb.protocol = ETH_P_IPV6_BE;
	if (flags & (BPF_F_ADJ_ROOM_ENCAP_L3_IPV4 | BPF_F_ADJ_ROOM_DECAP_L3_IPV4))
		s->skb.protocol = ETH_P_IP_BE;
	skb_relinearize(s, lin);
	return 0;
}

long bpf_skb_pull_data(struct __sk_buff *skb, __u32 len)
{
	struct shim_skb *s = skb_of(skb);

	helper_entry(__func__);
	skb_sync_in(s);
	if (len > s->len)
		return -ENOMEM;
	skb_relinearize(s, writable(s, len ? len : s->lin_len));
	return 0;
}

long bpf_check_mtu(void *ctx, __u32 ifindex, __u32 *mtu_len, __s32 len_diff, __u64 flags)
{
	struct shim_skb *s = skb_of(ctx);
	long len;

	helper_entry(__func__);
	if (ifindex || flags)
		violation("%s: ifindex %u, flags 0x%llx not emulated", __func__, ifindex,
			  (unsigned long long)flags);
	len = *mtu_len ? (long)*mtu_len + ETH_HLEN : (long)s->len;
	len += len_diff;
	*mtu_len = shim_env.mtu;
	if (len <= (long)shim_env.mtu + ETH_HLEN || (s->skb.gso_segs > 1 && shim_env.gso_fits))
		return BPF_MTU_CHK_RET_SUCCESS;
	return BPF_MTU_CHK_RET_FRAG_NEEDED;
}

__u32 bpf_get_hash_recalc(struct __sk_buff *skb)
{
	helper_entry(__func__);
	skb_of(skb);
	return shim_env.hash;
}

/* ---- maps and the rest, from the program -------------------------------------------- */

void *bpf_map_lookup_elem(void *map, const void *key)
{
	helper_entry(__func__);
	return lookup(map_of(map), key, true);
}

long bpf_map_update_elem(void *map, const void *key, const void *value, __u64 flags)
{
	struct shim_map *m = map_of(map);

	helper_entry(__func__);
	if (m->type == BPF_MAP_TYPE_XSKMAP || m->type == BPF_MAP_TYPE_DEVMAP_HASH)
		violation("%s: updated by the program", m->name);
	return update(m, key, value, flags);
}

long bpf_map_delete_elem(void *map, const void *key)
{
	helper_entry(__func__);
	return map_delete(map_of(map), key);
}

void *bpf_ringbuf_reserve(void *ringbuf, __u64 size, __u64 flags)
{
	struct shim_map *m = ringbuf_of(ringbuf);
	size_t need = (size + RINGBUF_HDR + 7) & ~(size_t)7;
	struct shim_rec *r;

	helper_entry(__func__);
	if (flags)
		return NULL;
	if (!size || size > m->max || need > m->space)
		return NULL;
	m->space -= need;
	m->recs = grow(m->recs, &m->caprecs, m->nrecs + 1, sizeof(*m->recs));
	r = &m->recs[m->nrecs++];
	r->data = xmalloc(size);
	/* Ring buffer memory holds older records, not zeros. */
	memset(r->data, JUNK, size);
	r->len = size;
	r->state = REC_RESERVED;
	return r->data;
}

static void ringbuf_done(void *data, bool submit)
{
	for (size_t k = 0; k < nmaps; k++) {
		struct shim_map *m = &maps[k];

		for (size_t i = 0; i < m->nrecs; i++) {
			if (m->recs[i].data != data || m->recs[i].state != REC_RESERVED)
				continue;
			if (submit) {
				m->recs[i].state = REC_SUBMITTED;
				return;
			}
			free(data);
			memmove(&m->recs[i], &m->recs[i + 1],
				(m->nrecs - i - 1) * sizeof(*m->recs));
			m->nrecs--;
			return;
		}
	}
	violation("ring buffer record %p released but not reserved", data);
}

void bpf_ringbuf_submit(void *data, __u64 flags)
{
	helper_entry(__func__);
	(void)flags;
	ringbuf_done(data, true);
}

void bpf_ringbuf_discard(void *data, __u64 flags)
{
	helper_entry(__func__);
	(void)flags;
	ringbuf_done(data, false);
}

__u64 bpf_ktime_get_ns(void)
{
	helper_entry(__func__);
	return shim_env.now_ns;
}

__u32 bpf_get_prandom_u32(void)
{
	size_t i = shim_trace.random_drawn++;

	helper_entry(__func__);
	return shim_env.n_random ? shim_env.random[i % shim_env.n_random] : 0;
}

void bpf_spin_lock(struct bpf_spin_lock *lock)
{
	helper_entry(__func__);
	(void)lock;
	locked = true;
}

void bpf_spin_unlock(struct bpf_spin_lock *lock)
{
	(void)lock;
	if (!locked)
		violation("%s() without the lock", __func__);
	locked = false;
}
