// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A packet sampled at a congested egress queue, and the notification it
 * turns into.  Pure C, no I/O: the congestion point pipeline decides
 * where the result goes (proxy table, flow-label source, fallback).
 *
 * A sample is a copy of the packet from its outermost IP header.  Plain
 * RoCEv2 packets are parsed from there.  Tunnelled ones (IPv4 or IPv6
 * in an outer IPv6 header, doc/wire-formats.md 6.3) are parsed from the
 * inner IP header: the five-tuple of a notification is the customer's
 * (6.1), and the outer source and flow label name the ingress PE's flow.
 */
#ifndef _CNPPROXY_CP_SAMPLE_H
#define _CNPPROXY_CP_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/notif.h"
#include "codec/roce.h"

struct pnc_cp_sample_view {
	bool tunnelled;
	uint8_t outer_version; /* 4 or 6 */
	uint8_t outer_src[16]; /* IPv4: first 4 octets */
	uint32_t flow_label;   /* outer IPv6 flow label, 0 if none */
	/* The RoCEv2 packet: the inner one when tunnelled. */
	struct pnc_roce_view roce;
	const uint8_t *ip; /* its IP header, inside the sample */
	size_t ip_len;	   /* octets captured from there */
};

/*
 * Parse a sample of cap_len octets.  inner_off: offset of the inner IP
 * header for a tunnelled packet, 0 for a plain one.  Errors: the
 * codec's (PNC_E_IP_*, PNC_E_UDP_*, PNC_E_BTH_*), PNC_E_INVALID_ARG for
 * an inner offset outside the sample or an outer header that is not
 * IPv6.
 */
extern int pnc_cp_sample_parse(const uint8_t *data, size_t cap_len, size_t inner_off,
			       struct pnc_cp_sample_view *out);

/*
 * The seed 002 notification (6.2 layout) for a sample: the RoCEv2
 * packet's five-tuple, congestion level 0-7, the packet from its
 * (inner) IP header as invoking packet, cut to what a carrier of IP
 * version form->version allows; a UDP payload when form->type is 0,
 * else the ICMP message of that type (6.5; the kernel fills in an
 * ICMPv6 checksum).
 */
extern int pnc_cp_notification_build(const struct pnc_cp_sample_view *v, uint8_t level,
				     const struct pnc_notif_icmp *form, uint8_t *buf,
				     size_t buflen, size_t *outlen);

#endif /* _CNPPROXY_CP_SAMPLE_H */
