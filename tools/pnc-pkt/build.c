// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pnc-pkt: turn a packet specification into octets with the codecs of
 * cnpproxyd/codec, then apply the overrides (PadCnt, ICRC, checksums).
 */
#include <string.h>

#include "pnc_pkt.h"
#include "codec/wire.h"

static const uint8_t rc_opcodes[2][4][2] = {
	/* [write][variant][imm] */
	{ { PNC_OP_RC_SEND_FIRST, PNC_OP_RC_SEND_FIRST },
	  { PNC_OP_RC_SEND_MIDDLE, PNC_OP_RC_SEND_MIDDLE },
	  { PNC_OP_RC_SEND_LAST, PNC_OP_RC_SEND_LAST_IMM },
	  { PNC_OP_RC_SEND_ONLY, PNC_OP_RC_SEND_ONLY_IMM } },
	{ { PNC_OP_RC_WRITE_FIRST, PNC_OP_RC_WRITE_FIRST },
	  { PNC_OP_RC_WRITE_MIDDLE, PNC_OP_RC_WRITE_MIDDLE },
	  { PNC_OP_RC_WRITE_LAST, PNC_OP_RC_WRITE_LAST_IMM },
	  { PNC_OP_RC_WRITE_ONLY, PNC_OP_RC_WRITE_ONLY_IMM } },
};

static int build_rc(struct pkt_spec *s, uint8_t *buf, size_t buflen, size_t *len)
{
	struct pnc_rc_data d;

	if (!s->opcode_set)
		s->bth.opcode = rc_opcodes[s->kind == K_RC_WRITE][s->variant][s->imm_present];
	if (!s->dma_len_set)
		s->reth.dma_len = (uint32_t)s->payload_len;
	/* opcodes outside RC SEND/WRITE: the payload follows the BTH as is */
	if (s->bth.opcode > PNC_OP_RC_WRITE_ONLY_IMM)
		return pnc_roce_encode(&s->ip, &s->bth, s->payload, s->payload_len, buf, buflen,
				       len);
	memset(&d, 0, sizeof(d));
	d.ip = s->ip;
	d.bth = s->bth;
	d.reth = s->reth;
	d.imm = s->imm;
	d.payload = s->payload;
	d.payload_len = s->payload_len;
	return pnc_rc_data_encode(&d, buf, buflen, len);
}

static int build_cm(struct pkt_spec *s, uint8_t *buf, size_t buflen, size_t *len)
{
	struct pnc_cm_packet p;
	uint8_t *gid[2] = { s->cm.u.req.primary_local_gid, s->cm.u.req.primary_remote_gid };
	const uint8_t *addr[2] = { s->ip.src, s->ip.dst };
	int i;

	/* REQ GIDs default to the IP addresses (IPv4 as ::ffff:a.b.c.d) */
	for (i = 0; s->kind == K_CM_REQ && i < 2; i++) {
		if (s->gid_set[i])
			continue;
		if (s->ip.version == 6) {
			memcpy(gid[i], addr[i], 16);
		} else {
			memset(gid[i], 0, 10);
			gid[i][10] = gid[i][11] = 0xff;
			memcpy(gid[i] + 12, addr[i], 4);
		}
	}
	memset(&p, 0, sizeof(p));
	p.ip = s->ip;
	p.bth = s->bth;
	p.deth = s->deth;
	p.msg = s->cm;
	return pnc_cm_packet_encode(&p, buf, buflen, len);
}

/* Five-tuple of the invoking packet when none was given. */
static void tuple_from_invoking(struct pkt_spec *s)
{
	struct pnc_roce_view v;
	size_t off = 0;

	if (s->tuple_set || !s->invoking_len)
		return;
	if (s->notif.start == PNC_NOTIF_START_MPLS) {
		while (off + 4 <= s->invoking_len && !(s->invoking[off + 2] & 1))
			off += 4;
		off += 4;
		if (off > s->invoking_len)
			return;
	}
	if (pnc_roce_parse(s->invoking + off, s->invoking_len - off, PNC_ROCE_F_TRUNCATED, &v))
		return;
	s->notif.af = v.ip.version;
	s->notif.protocol = 17;
	memcpy(s->notif.src, v.ip.src, 16);
	memcpy(s->notif.dst, v.ip.dst, 16);
	s->notif.sport = v.ip.sport;
	s->notif.dport = v.ip.dport;
}

/* The notification's type of the ICMP form for the spec's IP version. */
static uint8_t notif_icmp_type(const struct pkt_spec *s)
{
	if (s->icmp_type)
		return s->icmp_type;
	return s->ip.version == 4 ? PNC_NOTIF_ICMP_TYPE : PNC_NOTIF_ICMP6_TYPE;
}

/*
 * IP header + the ICMP message.  pnc_ipudp_write() lays out the IP
 * header for a UDP datagram as long as the message; the message then
 * takes the UDP header's place and the protocol is changed.
 */
static int ip_icmp_encode(const struct pkt_spec *s, const uint8_t *msg, size_t mlen, uint8_t *buf,
			  size_t buflen, size_t *len)
{
	size_t hlen, tot;
	int ret;

	ret = pnc_ipudp_write(&s->ip, mlen - PNC_UDP_HLEN, buf, buflen, &hlen, &tot);
	if (ret)
		return ret;
	/* hlen ends after the UDP header. */
	memcpy(buf + hlen - PNC_UDP_HLEN, msg, mlen);
	if (s->ip.version == 4) {
		buf[9] = 1;
		put_be16(buf + 10, 0);
		put_be16(buf + 10,
			 s->ip_csum_set ? s->ip_csum : csum_fold(csum_add(0, buf, PNC_IPV4_HLEN)));
	} else {
		buf[6] = 58;
	}
	*len = tot;
	return PNC_OK;
}

static int build_udp_msg(struct pkt_spec *s, uint8_t *buf, size_t buflen, size_t *len)
{
	struct pnc_notif_icmp ic = {};
	uint8_t msg[PKT_MAX];
	size_t mlen;
	int ret;

	if (s->kind == K_FCN) {
		ret = pnc_fcn_encode(&s->fcn, msg, sizeof(msg), &mlen);
	} else {
		if (s->inv) {
			ret = build_packet(s->inv, s->invoking, sizeof(s->invoking));
			if (ret < 0)
				return ret;
			s->invoking_len = (size_t)ret;
		}
		tuple_from_invoking(s);
		s->notif.invoking = s->invoking;
		s->notif.invoking_len = s->invoking_len;
		s->notif.carrier_af = s->ip.version;
		ic.version = s->ip.version;
		ic.type = notif_icmp_type(s);
		ic.src6 = s->ip.src;
		ic.dst6 = s->ip.dst;
		if (s->notif_icmp)
			ret = pnc_notif_icmp_encode(&ic, &s->notif, msg, sizeof(msg), &mlen);
		else
			ret = pnc_notif_encode(&s->notif, msg, sizeof(msg), &mlen);
	}
	if (ret)
		return ret;
	if (s->notif_icmp && s->icmp_csum_set)
		put_be16(msg + 2, s->icmp_csum);
	if (s->bare) {
		if (buflen < mlen)
			return PNC_E_BUF_TOO_SMALL;
		memcpy(buf, msg, mlen);
		*len = mlen;
		return PNC_OK;
	}
	if (s->notif_icmp)
		return ip_icmp_encode(s, msg, mlen, buf, buflen, len);
	ret = ipudp_encode(&s->ip, msg, mlen, buf, buflen);
	if (ret < 0)
		return ret;
	*len = (size_t)ret;
	ipudp_fix_csums(s, buf, *len);
	return PNC_OK;
}

/* Whole IPv6 packet; the codec computes the checksum, icmp-csum= breaks it. */
static int build_lh_icmp6(const struct pkt_spec *s, uint8_t *buf, size_t buflen, size_t *len)
{
	struct pnc_lh_icmp6 p;
	int ret;

	memset(&p, 0, sizeof(p));
	memcpy(p.src, s->ip.src, 16);
	memcpy(p.dst, s->ip.dst, 16);
	p.tclass = s->ip.tos;
	p.hop_limit = s->ip.ttl;
	p.flow_label = s->ip.flow_label;
	p.type = s->icmp_type;
	p.code = s->icmp_code;
	p.msg = s->lh;
	ret = pnc_lh_icmp6_encode(&p, buf, buflen, len);
	if (!ret && s->icmp_csum_set)
		put_be16(buf + PNC_IPV6_HLEN + 2, s->icmp_csum);
	return ret;
}

static int build_lh_roce(const struct pkt_spec *s, uint8_t *buf, size_t buflen, size_t *len)
{
	struct pnc_lh_roce r;

	memset(&r, 0, sizeof(r));
	r.ip = s->ip;
	r.pkey = s->bth.pkey;
	r.dest_qp = s->bth.dest_qp;
	r.cnp_sized = s->lh_cnp_sized;
	r.msg = s->lh;
	return pnc_lh_roce_encode(&r, buf, buflen, len);
}

static int build_rate_advice(const struct pkt_spec *s, uint8_t *buf, size_t buflen, size_t *len)
{
	struct pnc_rate_advice ra = s->ra;

	ra.ip = s->ip;
	ra.opcode = s->bth.opcode;
	ra.pkey = s->bth.pkey;
	ra.dest_qp = s->bth.dest_qp;
	return pnc_rate_advice_encode(&ra, buf, buflen, len);
}

/* PadCnt and ICRC overrides, then the checksums, which cover the ICRC. */
static void roce_overrides(struct pkt_spec *s, uint8_t *buf, size_t len)
{
	size_t bth = (s->ip.version == 4 ? PNC_IPV4_HLEN : PNC_IPV6_HLEN) + PNC_UDP_HLEN;

	if (s->pad_set) {
		buf[bth + 1] = (uint8_t)((buf[bth + 1] & ~0x30) | s->bth.pad << 4);
		pnc_icrc_write(buf, len);
	}
	if (s->icrc_set) {
		buf[len - 4] = (uint8_t)s->icrc;
		buf[len - 3] = (uint8_t)(s->icrc >> 8);
		buf[len - 2] = (uint8_t)(s->icrc >> 16);
		buf[len - 1] = (uint8_t)(s->icrc >> 24);
	}
	ipudp_fix_csums(s, buf, len);
}

int build_packet(struct pkt_spec *s, uint8_t *buf, size_t buflen)
{
	static const uint8_t cnp_rsvd[PNC_CNP_RSVD_LEN];
	struct pnc_rc_ack ack;
	size_t len = 0;
	int ret;

	switch (s->kind) {
	case K_CNP:
		ret = pnc_roce_encode(&s->ip, &s->bth, cnp_rsvd, sizeof(cnp_rsvd), buf, buflen,
				      &len);
		break;
	case K_RC_WRITE:
	case K_RC_SEND:
		ret = build_rc(s, buf, buflen, &len);
		break;
	case K_ACK:
		ack.ip = s->ip;
		ack.bth = s->bth;
		ack.aeth = s->aeth;
		ret = pnc_rc_ack_encode(&ack, buf, buflen, &len);
		break;
	case K_NOTIF:
	case K_FCN:
		ret = build_udp_msg(s, buf, buflen, &len);
		return ret ? ret : (int)len;
	case K_LH_ICMP6:
		/* no UDP header: none of the RoCEv2 overrides applies */
		ret = build_lh_icmp6(s, buf, buflen, &len);
		return ret ? ret : (int)len;
	case K_LH_ROCE:
		ret = build_lh_roce(s, buf, buflen, &len);
		break;
	case K_RATE_ADVICE:
		ret = build_rate_advice(s, buf, buflen, &len);
		break;
	default:
		ret = build_cm(s, buf, buflen, &len);
		break;
	}
	if (ret)
		return ret;
	roce_overrides(s, buf, len);
	return (int)len;
}
