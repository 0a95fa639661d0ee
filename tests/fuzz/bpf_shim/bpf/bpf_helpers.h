// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * User-space stand-in for libbpf's <bpf/bpf_helpers.h>: the section and
 * map-definition macros, and the helpers pnc's BPF programs call, as
 * ordinary functions that shim.c emulates over maps and packets the
 * shim owns (tests/fuzz/bpf_shim/shim.h is the fuzz targets' side).
 */
#ifndef _PNC_BPF_SHIM_BPF_HELPERS_H
#define _PNC_BPF_SHIM_BPF_HELPERS_H

#include <stddef.h> /* NULL, which libbpf's header provides */

/*
 * Sections mean nothing here: a map becomes an ordinary global, which
 * the shim knows by its address once the target registered it.
 */
#define SEC(name)

/*
 * A map definition keeps its parameters in its type, so that
 * SHIM_MAP() (shim.h) can read them back with sizeof.
 */
#define __uint(name, val) int(*name)[val]
#define __type(name, val) typeof(val) *name

#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif
#define __noinline __attribute__((noinline))

/* Keeps the compiler from reasoning about var across this point. */
#define barrier_var(var) __asm__ __volatile__("" : "+r"(var))

/*
 * learn.bpf.c's stage_frame() loads data and data_end in BPF assembly
 * (see its comment why).  The host cannot assemble that, so `asm volatile(...)` becomes
 * a call that checks the text is exactly those two loads and makes them
 * from the shim's context.  Only that statement is handled: any other
 * BPF assembly aborts the target.  The names data, data_end and ctx are
 * those of the statement; a program using others fails to compile.
 * The fuzz targets #undef both after including the program.
 */
#define asm
#define volatile(...) shim_xdp_data_asm(#__VA_ARGS__, ctx, &data, &data_end)

struct xdp_md;
struct __sk_buff;
struct bpf_fib_lookup;
struct bpf_spin_lock;

extern void shim_xdp_data_asm(const char *text, struct xdp_md *ctx, void **data, void **data_end);

/* ---- helpers (prototypes as in the kernel's UAPI documentation) --------- */

extern void *bpf_map_lookup_elem(void *map, const void *key);
extern long bpf_map_update_elem(void *map, const void *key, const void *value, __u64 flags);
extern long bpf_map_delete_elem(void *map, const void *key);

extern void *bpf_ringbuf_reserve(void *ringbuf, __u64 size, __u64 flags);
extern void bpf_ringbuf_submit(void *data, __u64 flags);
extern void bpf_ringbuf_discard(void *data, __u64 flags);

extern __u64 bpf_ktime_get_ns(void);
extern __u32 bpf_get_prandom_u32(void);
extern void bpf_spin_lock(struct bpf_spin_lock *lock);
extern void bpf_spin_unlock(struct bpf_spin_lock *lock);

extern long bpf_xdp_load_bytes(struct xdp_md *xdp_md, __u32 offset, void *buf, __u32 len);
extern long bpf_xdp_adjust_tail(struct xdp_md *xdp_md, int delta);
extern long bpf_redirect_map(void *map, __u64 key, __u64 flags);
extern long bpf_fib_lookup(void *ctx, struct bpf_fib_lookup *params, int plen, __u32 flags);

extern long bpf_skb_load_bytes(const void *skb, __u32 offset, void *to, __u32 len);
extern long bpf_skb_store_bytes(struct __sk_buff *skb, __u32 offset, const void *from, __u32 len,
				__u64 flags);
extern long bpf_l3_csum_replace(struct __sk_buff *skb, __u32 offset, __u64 from, __u64 to,
				__u64 size);
extern long bpf_skb_adjust_room(struct __sk_buff *skb, __s32 len_diff, __u32 mode, __u64 flags);
extern long bpf_skb_pull_data(struct __sk_buff *skb, __u32 len);
extern long bpf_check_mtu(void *ctx, __u32 ifindex, __u32 *mtu_len, __s32 len_diff, __u64 flags);
extern __u32 bpf_get_hash_recalc(struct __sk_buff *skb);

#endif /* _PNC_BPF_SHIM_BPF_HELPERS_H */
