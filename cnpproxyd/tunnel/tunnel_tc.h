// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loader of the flow-label encapsulation programs (tunnel/tunnel.bpf.c), the
 * seed 001 ingress-PE data path: attach the encapsulation to the
 * egress of core-facing interfaces (and, optionally, the decapsulation
 * to their ingress), configure the outer source, the tunnelled prefixes
 * and the SIDs, resolve FCN flow labels to flows, age idle flows.  No
 * FRR dependency, so that cnpproxyd and the pnc-fl-encap test tool
 * share it.
 *
 * Attachment is tc clsact with a cls_bpf direct-action filter.  A
 * clsact qdisc that is missing is created, and removed again with our
 * last filter on the interface; one that was there is left alone.
 * Filters outlive the process if it dies (call pnc_tunnel_close()); they
 * sit at a place of our own (bpfutil/tc_filter.h), where the next process to
 * attach finds such a filter and removes it.
 *
 * Not thread safe: one thread owns a struct pnc_tunnel_tc.
 */
#ifndef _CNPPROXY_TUNNEL_TUNNEL_TC_H
#define _CNPPROXY_TUNNEL_TUNNEL_TC_H

#include <linux/types.h>
#include <stddef.h>
#include <stdint.h>

#include "tunnel/tunnel_abi.h"

struct pnc_tunnel_tc;

/* A RoCE flow with its label (the label map joined with the flow map). */
struct pnc_tunnel_flow {
	uint8_t ip_version; /* inner, 4 or 6 */
	uint8_t src[16];    /* IPv4: first 4 octets */
	uint8_t dst[16];
	uint32_t dest_qp; /* receiver's QP; the sender QP is in cnpproxyd's flow table */
	uint16_t pkey;
	uint16_t sport;
	uint32_t label;
	uint64_t first_ns; /* CLOCK_MONOTONIC */
	uint64_t last_ns;
	uint64_t pkts;
	uint64_t bytes;
};

/* Return non-zero to stop the iteration (which then returns that value). */
typedef int (*pnc_tunnel_flow_cb)(void *arg, const struct pnc_tunnel_flow *f);

struct pnc_tunnel_counters {
	uint64_t v[PNC_TUNNEL_C_MAX]; /* enum pnc_tunnel_counter, summed over CPUs */
};

/*
 * Load the programs (needs CAP_BPF/CAP_SYS_ADMIN and CAP_NET_ADMIN) with
 * cfg (NULL: no source yet, hop limit 64, hashed non-RoCE labels).  NULL
 * on failure, errno set.
 */
extern struct pnc_tunnel_tc *pnc_tunnel_open(const struct pnc_tunnel_cfg *cfg);
/* Detaches everything, removes the clsact qdiscs we created, frees. */
extern void pnc_tunnel_close(struct pnc_tunnel_tc *fe);

/*
 * Encapsulation on the egress of a core-facing interface.  -EEXIST if
 * already attached there by us.  0 or -errno.
 */
extern int pnc_tunnel_attach(struct pnc_tunnel_tc *fe, int ifindex);
extern int pnc_tunnel_detach(struct pnc_tunnel_tc *fe, int ifindex);
/* Decapsulation (for packets to our SIDs) on the ingress of one. */
extern int pnc_tunnel_attach_decap(struct pnc_tunnel_tc *fe, int ifindex);
extern int pnc_tunnel_detach_decap(struct pnc_tunnel_tc *fe, int ifindex);

/*
 * The outer source, this PE's address, where FCNs come to.  Set it
 * before attaching: packets encapsulated while it changes may carry a
 * mix of the two addresses.
 */
extern void pnc_tunnel_set_source(struct pnc_tunnel_tc *fe, const uint8_t src[16]);

/*
 * Tunnel the inner destinations in prefix/plen (family 4 or 6; prefix
 * 4 or 16 octets) to the outer destination dst (IPv6).  Host bits are
 * ignored.  Adding an existing prefix replaces its destination.  vni 0:
 * IPv6-in-IPv6; else VXLAN with that VNI, the inner frame to router_mac.
 */
extern int pnc_tunnel_add_tunnel(struct pnc_tunnel_tc *fe, int family, const uint8_t *prefix,
				 unsigned int plen, const uint8_t dst[16], uint32_t vni,
				 const uint8_t *router_mac);
extern int pnc_tunnel_del_tunnel(struct pnc_tunnel_tc *fe, int family, const uint8_t *prefix,
				 unsigned int plen);

/* Outer destinations the decapsulation accepts. */
extern int pnc_tunnel_add_sid(struct pnc_tunnel_tc *fe, const uint8_t sid[16]);
extern int pnc_tunnel_del_sid(struct pnc_tunnel_tc *fe, const uint8_t sid[16]);

/*
 * FCN resolution: the flow that holds label.  0, -ENOENT (no such
 * label, a hashed non-RoCE label, or the flow was just aged) or -errno.
 */
extern int pnc_tunnel_lookup_label(const struct pnc_tunnel_tc *fe, uint32_t label,
				   struct pnc_tunnel_flow *out);

/* Every flow, in no particular order.  0, the callback's value or -errno. */
/*
 * The flow f names (ip_version, src, dst, dest_qp), filled in whole
 * from the program's table; -ENOENT when not tunnelled.
 */
extern int pnc_tunnel_lookup_flow(const struct pnc_tunnel_tc *fe, struct pnc_tunnel_flow *f);
/*
 * Steer flow f's packets to tc class classid (skb->priority) of the
 * interface's root qdisc; classid 0 stops it.  0 or -errno.
 */
extern int pnc_tunnel_shape(struct pnc_tunnel_tc *fe, const struct pnc_tunnel_flow *f,
			    uint32_t classid);
extern int pnc_tunnel_for_each_flow(const struct pnc_tunnel_tc *fe, pnc_tunnel_flow_cb cb,
				    void *arg);

/*
 * Forget the flows idle for more than idle_s seconds, freeing their
 * labels; cb (may be NULL) sees each one removed.  A packet of the flow
 * after that gets a new label.  Number removed, or -errno.
 */
extern int pnc_tunnel_age(struct pnc_tunnel_tc *fe, unsigned int idle_s, pnc_tunnel_flow_cb cb,
			  void *arg);

/*
 * Put a flow's label back into a new program (a restart): the flow ages
 * from now.  0, -EEXIST if the label or the flow is taken, -EINVAL for a
 * bad label or IP version, or another -errno.
 */
extern int pnc_tunnel_restore_flow(struct pnc_tunnel_tc *fe, const struct pnc_tunnel_flow *f);

extern int pnc_tunnel_counters(const struct pnc_tunnel_tc *fe, struct pnc_tunnel_counters *out);
/* Zero the program's counters (not the flows' packet counts).  0 or -errno. */
extern int pnc_tunnel_counters_clear(struct pnc_tunnel_tc *fe);
extern const char *pnc_tunnel_counter_name(enum pnc_tunnel_counter c);

#endif /* _CNPPROXY_TUNNEL_TUNNEL_TC_H */
