// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pnc-pkt: the views of the headers that every decoder emits (IP, UDP,
 * the Long-haul block), below decode.c and decode_roce.c, which both
 * print them.
 */
#include "pnc_pkt.h"
#include "codec/wire.h"

void emit_ip(struct emit *e, const uint8_t *pkt, const struct pnc_ip_udp *ip)
{
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
}

void emit_ip_udp(struct emit *e, const uint8_t *pkt, const struct pnc_ip_udp *ip)
{
	size_t hlen = ip->version == 4 ? PNC_IPV4_HLEN : PNC_IPV6_HLEN;

	emit_ip(e, pkt, ip);
	emit_obj(e, "udp");
	emit_uint(e, "sport", ip->sport);
	emit_uint(e, "dport", ip->dport);
	emit_uint(e, "len", get_be16(pkt + hlen + 4));
	emit_xint(e, "checksum", get_be16(pkt + hlen + 6), 4);
	emit_obj_end(e);
}

/* The Long-haul block and extension; keys are the build field names. */
void emit_lh(struct emit *e, const struct pnc_lh_cnp *m)
{
	const struct pnc_lh_block *b = &m->block;
	const struct pnc_lh_ext *x = &m->ext;

	emit_obj(e, "lh");
	emit_uint(e, "level", b->level);
	emit_uint(e, "cl", pnc_lh_level_to_cl(b->level));
	emit_uint(e, "action", b->action);
	emit_str(e, "action_name", pnc_lh_action_name(b->action));
	emit_uint(e, "parameter", b->parameter);
	emit_xint(e, "src_qp", b->src_qp, 8);
	emit_uint(e, "metric_type", b->metric_type);
	emit_str(e, "metric_type_name", lh_metric_name(b->metric_type));
	emit_uint(e, "metric", b->metric);
	emit_bool(e, "ext", x->present);
	if (x->present) {
		emit_bool(e, "ext_checksum", x->checksum);
		emit_xint(e, "class_num", x->class_num, 2);
		if (x->has_timestamp)
			emit_xint(e, "timestamp", x->timestamp, 16);
		if (x->device_id[0])
			emit_text(e, "device_id", x->device_id);
		if (x->path_id_len)
			emit_hex(e, "path_id", x->path_id, x->path_id_len);
		emit_uint(e, "unknown_objects", x->unknown);
	}
	emit_obj_end(e);
}
