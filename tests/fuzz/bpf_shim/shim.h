// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fuzz targets' side of the BPF shim (shim.c): what a loader and
 * the kernel would do around a BPF program, for a program compiled for
 * user space against the shim's vmlinux.h and bpf/ headers.
 *
 *  - Maps: every `struct {...} name SEC(".maps")` of the program is an
 *    ordinary global; SHIM_MAP(name) (SHIM_RINGBUF for a ring buffer)
 *    tells the shim its type and sizes, once.  The shim_map_* calls are
 *    the loader's bpf_map_*_elem(), the program's helpers the kernel's.
 *  - Packets: shim_xdp_frame() and shim_skb_packet() give a context
 *    over a copy of the packet that the shim owns, each view of it in
 *    an allocation of exactly its size, so that ASan reports a read
 *    the verifier would have refused (past data_end, or through a
 *    pointer a helper invalidated).
 *  - Runs: shim_run_xdp() / shim_run_skb() run one program and then
 *    check what the verifier guarantees at exit: no ring buffer record
 *    left reserved, no spin lock held.  Anything the shim finds the
 *    verifier or the kernel would refuse aborts with "bpf shim:".
 *  - Answers: shim_env holds the clock and the answers of the helpers
 *    that ask the kernel (FIB, MTU, hash, random numbers); shim_trace
 *    what the last run asked for and where it redirected.
 */
#ifndef _PNC_BPF_SHIM_H
#define _PNC_BPF_SHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vmlinux.h"

/* ---- maps ------------------------------------------------------------------ */

extern void shim_map_add(void *map, const char *name, unsigned int type, unsigned int max_entries,
			 size_t key_size, size_t value_size);

/* A parameter of a map definition: the array length __uint() put in its type. */
#define SHIM_MAP_PARAM(m, p) ((unsigned int)(sizeof(*(m).p) / sizeof(int)))
#define SHIM_MAP(m)                                                                               \
	shim_map_add(&(m), #m, SHIM_MAP_PARAM(m, type), SHIM_MAP_PARAM(m, max_entries),           \
		     sizeof(*(m).key), sizeof(*(m).value))
#define SHIM_RINGBUF(m)                                                                           \
	shim_map_add(&(m), #m, SHIM_MAP_PARAM(m, type), SHIM_MAP_PARAM(m, max_entries), 0, 0)

/* The loader's view: as bpf_map_update_elem() etc. of libbpf (0 or -errno). */
extern int shim_map_update(void *map, const void *key, const void *value, __u64 flags);
extern void *shim_map_lookup(void *map, const void *key);
extern int shim_map_delete(void *map, const void *key);
/* Entries of a hash-like map. */
extern size_t shim_map_count(void *map);

/* Ring buffers: room for records, and the records submitted so far. */
extern void shim_ringbuf_space(void *map, size_t bytes);
extern size_t shim_ringbuf_count(void *map);
extern const void *shim_ringbuf_record(void *map, size_t i, size_t *len);
extern void shim_ringbuf_clear(void *map);

/* Empties every map (arrays read zero), drops records, resets env. */
extern void shim_reset(void);

/*
 * Writes a `const volatile` global (.rodata) as a loader does before
 * loading the program; the host keeps it read-only otherwise.
 */
extern void shim_rodata_write(const volatile void *dst, const void *src, size_t len);

/* ---- packets and runs --------------------------------------------------------- */

/*
 * An XDP frame of len octets; bpf_xdp_adjust_tail() may grow it to
 * shim_env.xdp_frame_max.  One context at a time.
 */
extern struct xdp_md *shim_xdp_frame(const uint8_t *frame, size_t len, __u32 ifindex,
				     __u32 rx_queue);
extern const uint8_t *shim_xdp_bytes(const struct xdp_md *ctx, size_t *len);
extern void shim_xdp_release(struct xdp_md *ctx);
extern int shim_run_xdp(int (*prog)(struct xdp_md *), struct xdp_md *ctx);

/*
 * An skb of len octets from the Ethernet header, the first linear of
 * them in the linear part (direct access); protocol in network order.
 * gso_segs > 1 makes it a GSO packet.
 */
extern struct __sk_buff *shim_skb_packet(const uint8_t *pkt, size_t len, size_t linear,
					 __u32 ifindex, __u16 protocol_be, __u32 gso_segs);
extern const uint8_t *shim_skb_bytes(struct __sk_buff *skb, size_t *len);
extern void shim_skb_release(struct __sk_buff *skb);
extern int shim_run_skb(int (*prog)(struct __sk_buff *), struct __sk_buff *skb);

/* ---- the kernel's answers, and what the program asked -------------------------- */

struct shim_env {
	__u64 now_ns;	      /* bpf_ktime_get_ns() */
	size_t xdp_frame_max; /* largest frame bpf_xdp_adjust_tail() makes */
	long fib_ret;	      /* bpf_fib_lookup() return value */
	__u32 fib_ifindex;    /* ... and on success, params->ifindex */
	__u8 fib_smac[6];     /* ... params->smac */
	__u8 fib_dmac[6];     /* ... params->dmac */
	__u32 mtu;	      /* the device's, for bpf_check_mtu() */
	bool gso_fits;	      /* a GSO skb's segments fit the MTU */
	__u32 hash;	      /* bpf_get_hash_recalc() */
	const __u32 *random;  /* bpf_get_prandom_u32(), cyclic; 0 if none */
	size_t n_random;
};

struct shim_trace {
	unsigned int fib_calls;
	struct bpf_fib_lookup fib_asked; /* the last call's params as given */
	unsigned int redirects;		 /* bpf_redirect_map() calls that found their target */
	void *redirect_map;		 /* the last one's */
	__u64 redirect_key;
	size_t random_drawn; /* bpf_get_prandom_u32() calls */
};

extern struct shim_env shim_env;
extern struct shim_trace shim_trace;

#endif /* _PNC_BPF_SHIM_H */
