// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * User-space stand-in for the vmlinux.h that bpftool dumps from the
 * kernel's BTF: just the types, structs and enumerators pnc's BPF
 * programs (cnpproxyd/bpf/) use, so that they compile unchanged
 * with the host compiler for the fuzz targets (tests/fuzz/fuzz_bpf_*.c).
 *
 * Two deliberate differences from the kernel's view:
 *  - the context structs (xdp_md, __sk_buff) hold data and data_end as
 *    pointer-sized integers: a user-space pointer does not fit the
 *    kernel's __u32 fields, which the verifier rewrites into pointers;
 *  - only what the programs read is here, so a program that starts
 *    using something new fails to compile instead of silently reading
 *    a field the shim never sets.
 *
 * Little-endian hosts only, like the BPF target the programs are built
 * for (xlate.bpf.h refuses anything else too).
 */
#ifndef _PNC_BPF_SHIM_VMLINUX_H
#define _PNC_BPF_SHIM_VMLINUX_H

/* The fuzz targets check that this, not a kernel dump, was included. */
#define PNC_BPF_SHIM 1

#include <stdbool.h>
#include <linux/types.h>

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__ || __SIZEOF_POINTER__ != 8
#error "the BPF shim assumes a little-endian 64-bit host"
#endif

/* ---- map types, update flags --------------------------------------------- */

enum bpf_map_type {
	BPF_MAP_TYPE_UNSPEC = 0,
	BPF_MAP_TYPE_HASH = 1,
	BPF_MAP_TYPE_ARRAY = 2,
	BPF_MAP_TYPE_PERCPU_HASH = 5,
	BPF_MAP_TYPE_PERCPU_ARRAY = 6,
	BPF_MAP_TYPE_LRU_HASH = 9,
	BPF_MAP_TYPE_LPM_TRIE = 11,
	BPF_MAP_TYPE_XSKMAP = 17,
	BPF_MAP_TYPE_DEVMAP_HASH = 25,
	BPF_MAP_TYPE_RINGBUF = 27,
};

enum {
	BPF_ANY = 0,
	BPF_NOEXIST = 1,
	BPF_EXIST = 2,
};

enum {
	BPF_F_NO_PREALLOC = 1,
};

/* ---- verdicts and helper return codes ------------------------------------ */

enum xdp_action {
	XDP_ABORTED = 0,
	XDP_DROP = 1,
	XDP_PASS = 2,
	XDP_TX = 3,
	XDP_REDIRECT = 4,
};

enum {
	BPF_FIB_LKUP_RET_SUCCESS = 0,
	BPF_FIB_LKUP_RET_BLACKHOLE = 1,
	BPF_FIB_LKUP_RET_UNREACHABLE = 2,
	BPF_FIB_LKUP_RET_PROHIBIT = 3,
	BPF_FIB_LKUP_RET_NOT_FWDED = 4,
	BPF_FIB_LKUP_RET_FWD_DISABLED = 5,
	BPF_FIB_LKUP_RET_UNSUPP_LWT = 6,
	BPF_FIB_LKUP_RET_NO_NEIGH = 7,
	BPF_FIB_LKUP_RET_FRAG_NEEDED = 8,
};

enum bpf_check_mtu_ret {
	BPF_MTU_CHK_RET_SUCCESS = 0,
	BPF_MTU_CHK_RET_FRAG_NEEDED = 1,
	BPF_MTU_CHK_RET_SEGS_TOOBIG = 2,
};

enum bpf_adj_room_mode {
	BPF_ADJ_ROOM_NET = 0,
	BPF_ADJ_ROOM_MAC = 1,
};

enum {
	BPF_F_ADJ_ROOM_FIXED_GSO = 1ULL << 0,
	BPF_F_ADJ_ROOM_ENCAP_L3_IPV4 = 1ULL << 1,
	BPF_F_ADJ_ROOM_ENCAP_L3_IPV6 = 1ULL << 2,
	BPF_F_ADJ_ROOM_ENCAP_L4_UDP = 1ULL << 4,
	BPF_F_ADJ_ROOM_ENCAP_L2_ETH = 1ULL << 6,
	BPF_F_ADJ_ROOM_DECAP_L3_IPV4 = 1ULL << 7,
	BPF_F_ADJ_ROOM_DECAP_L3_IPV6 = 1ULL << 8,
};

enum {
	BPF_ADJ_ROOM_ENCAP_L2_MASK = 0xff,
	BPF_ADJ_ROOM_ENCAP_L2_SHIFT = 56,
};

/* bpf_skb_store_bytes() flags; bpf_l3_csum_replace() takes the size. */
enum {
	BPF_F_RECOMPUTE_CSUM = 1ULL << 0,
	BPF_F_INVALIDATE_HASH = 1ULL << 1,
	BPF_F_HDR_FIELD_MASK = 0xfULL,
};

enum {
	IPPROTO_UDP = 17,
};

/* ---- program contexts ------------------------------------------------------ */

struct xdp_md {
	unsigned long data;
	unsigned long data_end;
	__u32 ingress_ifindex;
	__u32 rx_queue_index;
};

struct __sk_buff {
	__u32 len;
	__u32 priority; /* tc class a root qdisc picks up */
	__u32 protocol; /* network order in the low 16 bits, as the kernel's */
	__u32 ifindex;
	__u32 gso_segs;
	unsigned long data;
	unsigned long data_end;
};

/* ---- headers ----------------------------------------------------------------- */

struct ethhdr {
	__u8 h_dest[6];
	__u8 h_source[6];
	__be16 h_proto;
};

struct iphdr {
	__u8 ihl : 4, version : 4;
	__u8 tos;
	__be16 tot_len, id, frag_off;
	__u8 ttl, protocol;
	__sum16 check;
	__be32 saddr, daddr;
};

struct ipv6hdr {
	__u8 priority : 4, version : 4;
	__u8 flow_lbl[3];
	__be16 payload_len;
	__u8 nexthdr;
	__u8 hop_limit;
	__u8 saddr[16];
	__u8 daddr[16];
};

struct udphdr {
	__be16 source;
	__be16 dest;
	__be16 len;
	__sum16 check;
};

_Static_assert(sizeof(struct ethhdr) == 14 && sizeof(struct iphdr) == 20 &&
		       sizeof(struct ipv6hdr) == 40 && sizeof(struct udphdr) == 8,
	       "header sizes");

/* ---- helper arguments ---------------------------------------------------------- */

struct bpf_spin_lock {
	__u32 val;
};

struct bpf_devmap_val {
	__u32 ifindex;
	__u32 bpf_prog_fd;
};

/* IPv4 addresses in the first word of the IPv6 ones, as in the kernel. */
struct bpf_fib_lookup {
	__u8 family;
	__u8 l4_protocol;
	__be16 sport;
	__be16 dport;
	__u16 tot_len;
	__u32 ifindex;
	__u32 flowinfo;
	union {
		__be32 ipv4_src;
		__u32 ipv6_src[4];
	};
	union {
		__be32 ipv4_dst;
		__u32 ipv6_dst[4];
	};
	__u8 smac[6];
	__u8 dmac[6];
};

#endif /* _PNC_BPF_SHIM_VMLINUX_H */
