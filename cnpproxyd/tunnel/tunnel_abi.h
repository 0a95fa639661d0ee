// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the flow-label encapsulation programs (tunnel.bpf.c) share with
 * user space (tunnel/tunnel_tc.c): map keys and values, counter indexes and
 * the run-time configuration.  Seed 001 ingress-PE data path,
 * doc/wire-formats.md 6.3.  Only __u8..__u64 types, which vmlinux.h defines
 * for the BPF side and <linux/types.h> for user space; include one of
 * those first.
 */
#ifndef _CNPPROXY_TUNNEL_TUNNEL_ABI_H
#define _CNPPROXY_TUNNEL_TUNNEL_ABI_H

/* Flows with an allocated label, and so labels in use. */
#define PNC_TUNNEL_FLOWS_MAX   65536
#define PNC_TUNNEL_TUNNELS_MAX 1024
#define PNC_TUNNEL_SIDS_MAX    64
/* Flows held to a local shaper's class at once (seed 003 3.2.2.1). */
#define PNC_TUNNEL_SHAPED_MAX 1024

/*
 * The 20-bit label space is split so that an FCN can never resolve to
 * the wrong flow: labels of RoCE flows are allocated in 1..0x7ffff (never
 * 0, RFC 6437 "no label"); other packets get 0x80000 | 19 bits of the
 * kernel's flow hash, which no lookup ever finds.
 */
#define PNC_TUNNEL_LABEL_ALLOC_MAX 0x7ffff
/*
 * Labels are drawn at random (bpf_get_prandom_u32()), as seed 001 asks;
 * their bits then vary as RFC 6437 wants of flow labels (ECMP may hash
 * on them), and a label says nothing of the flows set up before it.
 */
#define PNC_TUNNEL_LABEL_HASH_BIT 0x80000
#define PNC_TUNNEL_LABEL_MASK	  0xfffff

/* Outer header (IPv6, no extension headers). */
#define PNC_TUNNEL_OUTER_LEN 40
/*
 * VXLAN over IPv6 (RFC 7348): the outer header, UDP to 4789, the VXLAN
 * header and the inner Ethernet header.
 */
#define PNC_TUNNEL_VXLAN_PORT 4789
#define PNC_TUNNEL_VXLAN_LEN  (PNC_TUNNEL_OUTER_LEN + 8 + 8 + 14)
#define PNC_TUNNEL_HOP_LIMIT  64

/*
 * Key of the tunnelled-prefix LPM trie.  The family octet is part of the
 * matched data, so IPv4 and IPv6 prefixes share the trie: prefixlen is
 * 8 + the prefix length.
 */
struct pnc_tunnel_lpm_key {
	__u32 prefixlen;
	__u8 family; /* 4 or 6 */
	__u8 addr[16];
	__u8 pad[3]; /* zero */
};

#define PNC_TUNNEL_PREFIX_BITS(plen) (8 + (plen))

/* Value of the trie: where the flows to that prefix are tunnelled. */
struct pnc_tunnel_tunnel {
	__u8 dst[16];	    /* outer destination: the egress PE's SID or address */
	__u32 vni;	    /* 0: IPv6-in-IPv6; else VXLAN with this VNI (24 bits) */
	__u8 router_mac[6]; /* VXLAN: inner destination MAC */
	__u8 pad[2];	    /* zero */
};

/*
 * A RoCE flow as the ingress PE sees it: the sender QP is not in data
 * packets, so cnpproxyd finds it in its own flow table from this.
 * Addresses: IPv4 in the first 4 octets, the rest zero.
 */
struct pnc_tunnel_flow_key {
	__u8 src[16];
	__u8 dst[16];
	__u32 dest_qp;	 /* BTH DestQP: the receiver's QP, 24 bits */
	__u8 ip_version; /* of the inner header, 4 or 6 */
	__u8 pad[3];	 /* zero */
};

/* Value of the flow map; the label map maps label -> key. */
struct pnc_tunnel_flow_val {
	__u32 label;
	__u16 pkey;	/* BTH P_Key when the flow was learned */
	__u16 sport;	/* UDP source port when the flow was learned */
	__u64 first_ns; /* CLOCK_MONOTONIC */
	__u64 last_ns;	/* last packet; user space ages on it */
	__u64 pkts;
	__u64 bytes; /* inner IP lengths */
};

/* What non-RoCE packets get in their outer Flow Label. */
enum pnc_tunnel_other_label {
	PNC_TUNNEL_OTHER_HASH = 0, /* 0x80000 | flow hash: ECMP entropy */
	PNC_TUNNEL_OTHER_ZERO = 1, /* 0: no label */
};

/*
 * Run-time configuration, a global of the program (.data, writable from
 * user space).  An all-zero source means "not configured": tunnelled
 * packets are dropped rather than sent with a bogus outer header.
 */
struct pnc_tunnel_cfg {
	__u8 src[16];	  /* outer source: this PE, where FCNs are sent */
	__u8 hop_limit;	  /* 0: PNC_TUNNEL_HOP_LIMIT */
	__u8 other_label; /* enum pnc_tunnel_other_label */
	__u8 rsvd[6];
};

/*
 * Per-CPU counters.  Every packet the encapsulation program sees lands
 * in exactly one of PASSED, ENCAP_ROCE, ENCAP_OTHER, TOO_BIG, PARSE_ERR,
 * NO_SOURCE and ENCAP_ERR; every packet the decapsulation program sees
 * in exactly one of DECAP_PASSED, DECAP, DECAP_DROP and DECAP_ERR.
 */
enum pnc_tunnel_counter {
	PNC_TUNNEL_C_PKTS = 0,	       /* seen by the encapsulation program */
	PNC_TUNNEL_C_PASSED,	       /* not IP or not tunnelled: untouched */
	PNC_TUNNEL_C_ENCAP_ROCE,       /* encapsulated with a RoCE flow's label */
	PNC_TUNNEL_C_ENCAP_OTHER,      /* encapsulated with the non-RoCE label */
	PNC_TUNNEL_C_TOO_BIG,	       /* dropped: over the MTU or 64 KiB once encapsulated */
	PNC_TUNNEL_C_PARSE_ERR,	       /* truncated IP header: untouched */
	PNC_TUNNEL_C_NO_SOURCE,	       /* dropped: no outer source configured */
	PNC_TUNNEL_C_ENCAP_ERR,	       /* dropped: the kernel refused the change */
	PNC_TUNNEL_C_LABELS_ALLOCATED, /* new RoCE flows */
	PNC_TUNNEL_C_ALLOC_FAILED,     /* RoCE packets sent with label 0: tables full */
	PNC_TUNNEL_C_SHAPED,	       /* RoCE packets steered to a local shaper's class */
	PNC_TUNNEL_C_DECAP_PKTS,       /* seen by the decapsulation program */
	PNC_TUNNEL_C_DECAP_PASSED,     /* not for one of our SIDs: untouched */
	PNC_TUNNEL_C_DECAP,	       /* outer header removed */
	PNC_TUNNEL_C_DECAP_CE,	       /* of those, CE copied to the inner header */
	PNC_TUNNEL_C_DECAP_DROP,       /* outer CE, inner Not-ECT (RFC 6040) */
	PNC_TUNNEL_C_DECAP_ERR,	       /* dropped: truncated or the kernel refused */
	PNC_TUNNEL_C_MAX,
};

#endif /* _CNPPROXY_TUNNEL_TUNNEL_ABI_H */
