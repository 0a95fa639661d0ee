// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pnc-pkt: decode one packet starting at the IP header.  UDP 4791 goes
 * to the RoCEv2 decoder (decode_roce.c); the notification ports carry
 * the seed 002 notification or the seed 001 FCN (doc/wire-formats.md 6).
 * --as notif|fcn decodes a bare UDP payload instead.
 */
#include <string.h>

#include "pnc_pkt.h"
#include "codec/wire.h"

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

void emit_ip_udp(struct emit *e, const uint8_t *pkt, const struct pnc_ip_udp *ip)
{
	size_t hlen = ip->version == 4 ? PNC_IPV4_HLEN : PNC_IPV6_HLEN;

	emit_obj(e, "ip");
	emit_uint(e, "version", ip->version);
	emit_addr(e, "src", ip->version, ip->src);
	emit_addr(e, "dst", ip->version, ip->dst);
	emit_xint(e, "tos", ip->tos, 2);
	emit_uint(e, "dscp", ip->tos >> 2);
	emit_uint(e, "ecn", ip->tos & 3);
	emit_uint(e, "ttl", ip->ttl);
	if (ip->version == 4) {
		emit_xint(e, "id", ip->ip_id, 4);
		emit_bool(e, "df", ip->df);
		emit_xint(e, "checksum", get_be16(pkt + 10), 4);
	} else {
		emit_xint(e, "flow_label", ip->flow_label, 5);
	}
	emit_obj_end(e);
	emit_obj(e, "udp");
	emit_uint(e, "sport", ip->sport);
	emit_uint(e, "dport", ip->dport);
	emit_uint(e, "len", get_be16(pkt + hlen + 4));
	emit_xint(e, "checksum", get_be16(pkt + hlen + 6), 4);
	emit_obj_end(e);
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

int decode_packet(const uint8_t *pkt, size_t len, const struct decode_opts *o, struct emit *e)
{
	struct ipudp_view v;
	int ret;

	if (o->as != AS_AUTO)
		return decode_msg(o->as, NULL, NULL, pkt, len, o, e);
	ret = ipudp_parse(pkt, len, &v);
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
