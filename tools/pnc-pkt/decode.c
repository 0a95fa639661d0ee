// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pnc-pkt: decode one packet starting at the IP header.  UDP 4791 goes
 * to the RoCEv2 decoder (decode_roce.c); the notification ports carry
 * the seed 002 notification or the seed 001 FCN (doc/wire-formats.md 6);
 * ICMP and ICMPv6 of the notification's types are its ICMP form (6.5);
 * other ICMPv6 is the seed 000 Long-haul CNP (7.2).  --as notif|fcn
 * decodes a bare UDP payload instead.
 */
#include <string.h>

#include "pnc_pkt.h"
#include "codec/wire.h"

#define IPPROTO_ICMPV6_NUM 58

void decode_opts_init(struct decode_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->notif_port = PNC_NOTIF_UDP_PORT;
	o->fcn_port = PNC_FCN_UDP_PORT;
	o->notif_icmp_type = PNC_NOTIF_ICMP_TYPE;
	o->notif_icmp6_type = PNC_NOTIF_ICMP6_TYPE;
	o->lh_icmp_type = PNC_LH_ICMP6_TYPE;
	o->lh_class_num = PNC_LH_EXT_CLASS_NUM;
	o->ra_opcode = PNC_RA_OPCODE;
}

const char *pkt_strerror(int err)
{
	switch (err) {
	case PKT_E_ETH_TRUNCATED:
		return "eth-truncated";
	case PKT_E_ETH_NOT_IP:
		return "eth-not-ip";
	case PKT_E_UNKNOWN_PORT:
		return "udp-unknown-port";
	case PKT_E_PCAP_LINKTYPE:
		return "pcap-unsupported-linktype";
	}
	return pnc_codec_strerror(err);
}

static void emit_notif(struct emit *e, const struct pnc_notif *n)
{
	static const char *const starts[] = { "inner", "outer", "mpls" };
	struct pnc_roce_view v;
	size_t off;
	int ret;

	emit_obj(e, "notif");
	emit_uint(e, "version", PNC_NOTIF_VERSION);
	emit_uint(e, "af", n->af);
	emit_uint(e, "protocol", n->protocol);
	emit_uint(e, "cl", n->cl);
	emit_bool(e, "invoking_present", n->invoking_len > 0);
	emit_uint(e, "start", n->start);
	emit_str(e, "start_name", starts[n->start]);
	emit_addr(e, "flow_src", n->af, n->src);
	emit_addr(e, "flow_dst", n->af, n->dst);
	emit_uint(e, "flow_sport", n->sport);
	emit_uint(e, "flow_dport", n->dport);
	emit_uint(e, "invoking_len", n->invoking_len);
	if (n->invoking_len) {
		emit_hex(e, "invoking", n->invoking, n->invoking_len);
		ret = pnc_notif_invoking_roce(n, &off, &v);
		if (ret) {
			emit_str(e, "invoking_error", pnc_codec_strerror(ret));
		} else {
			emit_obj(e, "invoking_roce");
			emit_uint(e, "ip_offset", off);
			emit_roce_view(e, n->invoking + off, &v);
			emit_obj_end(e);
		}
	}
	emit_obj_end(e);
}

static void emit_fcn(struct emit *e, const struct pnc_fcn *f)
{
	emit_obj(e, "fcn");
	emit_xint(e, "label", f->flow_label, 5);
	emit_uint(e, "cl", f->cl);
	emit_obj_end(e);
}

bool is_icmp6(const uint8_t *pkt, size_t len)
{
	return len >= PNC_IPV6_HLEN && pkt[0] >> 4 == 6 && pkt[6] == IPPROTO_ICMPV6_NUM;
}

/* RFC 8200 8.1 pseudo-header and the message; its checksum field must be 0. */
static uint16_t icmp6_csum(const uint8_t *pkt, size_t plen)
{
	uint32_t sum = csum_add(0, pkt + 8, 32);

	sum += (uint32_t)plen + IPPROTO_ICMPV6_NUM;
	return csum_fold(csum_add(sum, pkt + PNC_IPV6_HLEN, plen));
}

int decode_lh_icmp6(const uint8_t *pkt, size_t len, const struct decode_opts *o, struct emit *e)
{
	static uint8_t fixed[PKT_MAX];
	struct pnc_lh_icmp6 m;
	struct pnc_ip_udp ip;
	size_t plen;
	uint16_t expect = 0;
	bool csum_ok = true;
	int ret;

	ret = pnc_lh_icmp6_decode(pkt, len, o->lh_icmp_type, o->lh_class_num, &m);
	/* Past the length checks: plen octets of message are there. */
	plen = len >= PNC_IPV6_HLEN ? get_be16(pkt + 4) : 0;
	if (ret == PNC_E_LH_CHECKSUM && o->lenient && PNC_IPV6_HLEN + plen <= sizeof(fixed)) {
		/* As for a bad ICRC: decode a copy with the right checksum. */
		memcpy(fixed, pkt, PNC_IPV6_HLEN + plen);
		put_be16(fixed + PNC_IPV6_HLEN + 2, 0);
		expect = icmp6_csum(fixed, plen);
		put_be16(fixed + PNC_IPV6_HLEN + 2, expect);
		csum_ok = false;
		ret = pnc_lh_icmp6_decode(fixed, PNC_IPV6_HLEN + plen, o->lh_icmp_type,
					  o->lh_class_num, &m);
	}
	if (ret)
		return ret;

	memset(&ip, 0, sizeof(ip));
	ip.version = 6;
	memcpy(ip.src, m.src, 16);
	memcpy(ip.dst, m.dst, 16);
	ip.tos = m.tclass;
	ip.ttl = m.hop_limit;
	ip.flow_label = m.flow_label;

	emit_begin(e, e->f, e->fmt);
	emit_str(e, "kind", "long-haul-icmpv6");
	emit_uint(e, "len", PNC_IPV6_HLEN + plen);
	emit_ip(e, pkt, &ip);
	emit_obj(e, "icmp6");
	emit_uint(e, "type", m.type);
	emit_uint(e, "code", m.code);
	emit_xint(e, "checksum", get_be16(pkt + PNC_IPV6_HLEN + 2), 4);
	emit_bool(e, "checksum_ok", csum_ok);
	if (!csum_ok)
		emit_xint(e, "checksum_expected", expect, 4);
	emit_obj_end(e);
	emit_lh(e, &m.msg);
	if (o->with_hex)
		emit_hex(e, "hex", pkt, PNC_IPV6_HLEN + plen);
	emit_end(e);
	return PNC_OK;
}

/* A UDP payload of the notification ports; pkt is NULL for --as. */
static int decode_msg(enum decode_as as, const uint8_t *pkt, const struct pnc_ip_udp *ip,
		      const uint8_t *msg, size_t mlen, const struct decode_opts *o, struct emit *e)
{
	struct pnc_notif n;
	struct pnc_fcn f;
	int ret;

	ret = as == AS_FCN ? pnc_fcn_decode(msg, mlen, &f) : pnc_notif_decode(msg, mlen, &n);
	if (ret)
		return ret;
	emit_begin(e, e->f, e->fmt);
	emit_str(e, "kind", as == AS_FCN ? "fcn" : "notif");
	if (pkt) {
		emit_uint(e, "len",
			  (ip->version == 4 ? PNC_IPV4_HLEN : PNC_IPV6_HLEN) + PNC_UDP_HLEN + mlen);
		emit_ip_udp(e, pkt, ip);
	}
	emit_uint(e, "msg_len", mlen);
	if (as == AS_FCN)
		emit_fcn(e, &f);
	else
		emit_notif(e, &n);
	if (o->with_hex)
		emit_hex(e, "hex", pkt ? pkt : msg, pkt ? (size_t)(msg - pkt) + mlen : mlen);
	emit_end(e);
	return PNC_OK;
}

/*
 * An IP packet carrying ICMP or ICMPv6 of the notification's type, its
 * IP header as the codec checks it: its IP fields and the message, else
 * false.
 */
static bool notif_icmp_of(const uint8_t *pkt, size_t len, const struct decode_opts *o,
			  struct pnc_ip_udp *ip, const uint8_t **msg, size_t *mlen)
{
	uint8_t version = len ? pkt[0] >> 4 : 0;
	size_t hlen, tot;

	memset(ip, 0, sizeof(*ip));
	if (version != 4 && version != 6)
		return false;
	if (pnc_ip_parse(pkt, len, version == 4 ? 1 : IPPROTO_ICMPV6_NUM, ip, &hlen, &tot) ||
	    tot <= hlen || tot > len)
		return false;
	if (pkt[hlen] != (version == 4 ? o->notif_icmp_type : o->notif_icmp6_type))
		return false;
	/* A type given to both: --lh-icmp-type says what is wanted. */
	if (version == 6 && pkt[hlen] == o->lh_icmp_type)
		return false;
	*msg = pkt + hlen;
	*mlen = tot - hlen;
	return true;
}

/* The notification's ICMP form (6.5), checksum included. */
static int decode_notif_icmp(const uint8_t *pkt, const struct pnc_ip_udp *ip, const uint8_t *msg,
			     size_t mlen, const struct decode_opts *o, struct emit *e)
{
	struct pnc_notif_icmp ic = { .version = ip->version };
	struct pnc_notif n;
	int ret;

	ic.type = msg[0];
	if (ip->version == 6) {
		ic.src6 = ip->src;
		ic.dst6 = ip->dst;
	}
	ret = pnc_notif_icmp_decode(&ic, msg, mlen, &n);
	if (ret)
		return ret;
	emit_begin(e, e->f, e->fmt);
	emit_str(e, "kind", "notif");
	emit_str(e, "form", "icmp");
	emit_uint(e, "len", (size_t)(msg - pkt) + mlen);
	emit_ip(e, pkt, ip);
	emit_obj(e, ip->version == 4 ? "icmp" : "icmp6");
	emit_uint(e, "type", msg[0]);
	emit_uint(e, "code", msg[1]);
	emit_xint(e, "checksum", get_be16(msg + 2), 4);
	emit_obj_end(e);
	emit_uint(e, "msg_len", mlen - PNC_NOTIF_ICMP_HLEN);
	emit_notif(e, &n);
	if (o->with_hex)
		emit_hex(e, "hex", pkt, (size_t)(msg - pkt) + mlen);
	emit_end(e);
	return PNC_OK;
}

int decode_packet(const uint8_t *pkt, size_t len, const struct decode_opts *o, struct emit *e)
{
	struct pnc_udp_view v;
	struct pnc_ip_udp ip;
	const uint8_t *msg;
	size_t mlen;
	int ret;

	if (o->as != AS_AUTO)
		return decode_msg(o->as, NULL, NULL, pkt, len, o, e);
	if (notif_icmp_of(pkt, len, o, &ip, &msg, &mlen))
		return decode_notif_icmp(pkt, &ip, msg, mlen, o, e);
	if (is_icmp6(pkt, len))
		return decode_lh_icmp6(pkt, len, o, e);
	ret = pnc_ipudp_parse(pkt, len, 0, &v);
	if (ret)
		return ret;
	if (v.ip.dport == PNC_ROCE_UDP_PORT)
		return decode_roce(pkt, len, o, e);
	if (v.ip.dport == o->notif_port)
		return decode_msg(AS_NOTIF, pkt, &v.ip, v.payload, v.payload_len, o, e);
	if (v.ip.dport == o->fcn_port)
		return decode_msg(AS_FCN, pkt, &v.ip, v.payload, v.payload_len, o, e);
	return PKT_E_UNKNOWN_PORT;
}
