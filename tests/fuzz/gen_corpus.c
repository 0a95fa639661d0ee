// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Writes the seed corpora of the fuzz targets, built with the codecs'
 * own encoders: gen_corpus DIR creates DIR/{icrc,roce,cm,notif,lhcnp}/<name>.
 * Run through "make fuzz-corpus"; the output is committed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "codec/cm.h"
#include "codec/lhcnp.h"
#include "codec/notif.h"
#include "codec/ratead.h"
#include "codec/roce.h"

#include "../lhcnp_sample.h"
#include "gen_seed.h"

static const char *base;

static void put(const char *codec, const char *name, const uint8_t *buf, size_t len)
{
	seed_write(base, codec, name, buf, len);
}

static void ok(int ret, const char *what)
{
	seed_ok(ret, what);
}

static void addrs(struct pnc_ip_udp *ip, uint8_t version)
{
	pnc_ip_udp_init(ip, version);
	if (version == 4) {
		memcpy(ip->src, "\xc0\x00\x02\x01", 4);
		memcpy(ip->dst, "\xc0\x00\x02\x02", 4);
	} else {
		memcpy(ip->src, "\x20\x01\x0d\xb8\0\0\0\0\0\0\0\0\0\0\0\x01", 16);
		memcpy(ip->dst, "\x20\x01\x0d\xb8\0\0\0\0\0\0\0\0\0\0\0\x02", 16);
	}
}

/* Long-haul CNP in both forms and the rate advice (doc/wire-formats.md 7). */
static void lhcnp_seeds(void)
{
	static uint8_t buf[PNC_LH_ROCE_MAX_LEN + PNC_LH_ICMP6_MAX_LEN];
	struct pnc_lh_icmp6 ic;
	struct pnc_lh_roce r;
	struct pnc_rate_advice ra;
	struct pnc_ip_udp ip6;
	char name[64];
	size_t n;
	uint8_t v;
	int ext;

	addrs(&ip6, 6);
	for (ext = 0; ext < 2; ext++) {
		memset(&ic, 0, sizeof(ic));
		memcpy(ic.src, ip6.src, 16);
		memcpy(ic.dst, ip6.dst, 16);
		ic.tclass = 0xc0;
		ic.hop_limit = 64;
		ic.type = PNC_LH_ICMP6_TYPE;
		lhcnp_sample(&ic.msg, ext);
		ok(pnc_lh_icmp6_encode(&ic, buf, sizeof(buf), &n), "lh icmp6");
		snprintf(name, sizeof(name), "icmp6%s", ext ? "-ext" : "");
		put("lhcnp", name, buf, n);
		/* the message alone, as a raw ICMPv6 socket reads it */
		snprintf(name, sizeof(name), "icmp6-msg%s", ext ? "-ext" : "");
		put("lhcnp", name, buf + PNC_IPV6_HLEN, n - PNC_IPV6_HLEN);

		for (v = 4; v <= 6; v += 2) {
			memset(&r, 0, sizeof(r));
			addrs(&r.ip, v);
			r.pkey = 0xffff;
			r.dest_qp = 0x0012ab;
			lhcnp_sample(&r.msg, ext);
			ok(pnc_lh_roce_encode(&r, buf, sizeof(buf), &n), "lh roce");
			snprintf(name, sizeof(name), "roce%u%s", v, ext ? "-ext" : "");
			put("lhcnp", name, buf, n);
		}
	}
	for (v = 4; v <= 6; v += 2) {
		memset(&ra, 0, sizeof(ra));
		addrs(&ra.ip, v);
		ra.opcode = PNC_RA_OPCODE;
		ra.pkey = 0xffff;
		ra.dest_qp = 0x0012ab;
		ra.peer_qp = 0x000c01;
		ra.rate_mbps = 25000;
		ok(pnc_rate_advice_encode(&ra, buf, sizeof(buf), &n), "rate advice");
		snprintf(name, sizeof(name), "rate-advice%u", v);
		put("lhcnp", name, buf, n);
	}
}

int main(int argc, char **argv)
{
	static uint8_t payload[300], buf[1500];
	struct pnc_cnp cnp = { .pkey = 0xffff, .dest_qp = 0x123 };
	struct pnc_rc_data d = { 0 };
	struct pnc_rc_ack a = { 0 };
	struct pnc_cm_packet cm;
	struct pnc_notif nt = { 0 };
	struct pnc_fcn fcn = { 0x12345, 5 };
	uint8_t v;
	size_t n, i;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	base = argv[1];
	mkdir(base, 0755);
	for (i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)i;

	for (v = 4; v <= 6; v += 2) {
		char name[64];

		/* CNP: the 3.3 vectors, then one with every option set */
		addrs(&cnp.ip, v);
		cnp.ip.tos = 0xc0;
		ok(pnc_cnp_encode(&cnp, buf, sizeof(buf), &n), "cnp");
		snprintf(name, sizeof(name), "cnp%u", v);
		put("roce", name, buf, n);
		put("icrc", name, buf, n);
		cnp.ip.udp_csum = true;
		cnp.ip.flow_label = 0xabcde;
		cnp.ip.df = false;
		cnp.ip.ip_id = 0x1234;
		ok(pnc_cnp_encode(&cnp, buf, sizeof(buf), &n), "cnp");
		snprintf(name, sizeof(name), "cnp%u-csum", v);
		put("roce", name, buf, n);

		/* RC WRITE First with a payload that needs padding */
		addrs(&d.ip, v);
		d.bth.opcode = PNC_OP_RC_WRITE_FIRST;
		d.bth.pkey = 0xffff;
		d.bth.dest_qp = 0xd7;
		d.bth.psn = 0x123456;
		d.bth.ack_req = true;
		d.reth.va = 0x7f0000001000ull;
		d.reth.rkey = 0x1234;
		d.reth.dma_len = 4096;
		d.payload = payload;
		d.payload_len = 61;
		ok(pnc_rc_data_encode(&d, buf, sizeof(buf), &n), "write");
		snprintf(name, sizeof(name), "write-first%u", v);
		put("roce", name, buf, n);
		put("icrc", name, buf, n);
		/* the same cut after 64 octets, as a notification carries it */
		nt.af = v;
		nt.carrier_af = v;
		nt.protocol = 17;
		nt.cl = 5;
		nt.sport = 0xc000;
		nt.dport = 4791;
		memcpy(nt.src, d.ip.src, 16);
		memcpy(nt.dst, d.ip.dst, 16);
		nt.invoking = buf;
		nt.invoking_len = 64;
		{
			uint8_t msg[1500];
			size_t mlen;

			ok(pnc_notif_encode(&nt, msg, sizeof(msg), &mlen), "notif");
			snprintf(name, sizeof(name), "notif%u-invoking", v);
			put("notif", name, msg, mlen);
			nt.invoking_len = 0;
			ok(pnc_notif_encode(&nt, msg, sizeof(msg), &mlen), "notif");
			snprintf(name, sizeof(name), "notif%u", v);
			put("notif", name, msg, mlen);
		}

		d.bth.opcode = PNC_OP_RC_SEND_ONLY_IMM;
		d.imm = 0xdeadbeef;
		d.payload_len = 8;
		ok(pnc_rc_data_encode(&d, buf, sizeof(buf), &n), "send");
		snprintf(name, sizeof(name), "send-only-imm%u", v);
		put("roce", name, buf, n);

		/* ACK and NAK */
		addrs(&a.ip, v);
		a.bth.opcode = PNC_OP_RC_ACK;
		a.bth.pkey = 0xffff;
		a.bth.dest_qp = 0xc1;
		a.bth.psn = 0x123456;
		a.aeth.syndrome = v == 4 ? 0x1f : pnc_aeth_syndrome(PNC_AETH_NAK, 0);
		a.aeth.msn = 42;
		ok(pnc_rc_ack_encode(&a, buf, sizeof(buf), &n), "ack");
		snprintf(name, sizeof(name), "ack%u", v);
		put("roce", name, buf, n);

		/* CM REQ and REP in RoCEv2, and the bare MADs */
		pnc_cm_packet_init(&cm, v, PNC_CM_ATTR_REQ);
		addrs(&cm.ip, v);
		cm.msg.mad.tid = 0x1122334455667788ull;
		cm.msg.u.req.local_comm_id = 0xc0c0c0c1;
		cm.msg.u.req.service_id = 0x0000000001064e21ull;
		cm.msg.u.req.local_qpn = 0xc1;
		cm.msg.u.req.starting_psn = 0x5a5a5a;
		cm.msg.u.req.pkey = 0xffff;
		cm.msg.u.req.path_mtu = 5;
		cm.msg.u.req.primary_local_lid = 0xffff;
		cm.msg.u.req.primary_remote_lid = 0xffff;
		cm.msg.u.req.primary_hop_limit = 64;
		ok(pnc_cm_packet_encode(&cm, buf, sizeof(buf), &n), "req");
		snprintf(name, sizeof(name), "req%u", v);
		put("cm", name, buf, n);
		if (v == 4) {
			put("cm", "req-mad", buf + 20 + 8 + 12 + 8, PNC_MAD_LEN);
			put("roce", "cm-req4", buf, n);
		}
		pnc_cm_packet_init(&cm, v, PNC_CM_ATTR_REP);
		addrs(&cm.ip, v);
		cm.msg.u.rep.local_comm_id = 0x5e5e5e51;
		cm.msg.u.rep.remote_comm_id = 0xc0c0c0c1;
		cm.msg.u.rep.local_qpn = 0xd7;
		cm.msg.u.rep.starting_psn = 0x123456;
		ok(pnc_cm_packet_encode(&cm, buf, sizeof(buf), &n), "rep");
		snprintf(name, sizeof(name), "rep%u", v);
		put("cm", name, buf, n);
	}

	/* RTU, REJ, DREQ, DREP as bare MADs */
	{
		static const uint16_t attrs[] = { PNC_CM_ATTR_RTU, PNC_CM_ATTR_REJ,
						  PNC_CM_ATTR_DREQ, PNC_CM_ATTR_DREP };
		static const char *const names[] = { "rtu-mad", "rej-mad", "dreq-mad", "drep-mad" };
		struct pnc_cm_msg m;

		for (i = 0; i < 4; i++) {
			memset(&m, 0, sizeof(m));
			pnc_cm_mad_init(&m.mad, attrs[i], 7 + i);
			m.u.rtu.local_comm_id = 0x5e5e5e51;
			m.u.rtu.remote_comm_id = 0xc0c0c0c1;
			ok(pnc_cm_encode(&m, buf, sizeof(buf), &n), names[i]);
			put("cm", names[i], buf, n);
		}
	}

	/* MPLS-started notification and the seed 001 FCN */
	{
		uint8_t inv[80], msg[200];
		size_t mlen;

		memcpy(inv, "\x00\x01\x01\x40", 4);
		addrs(&cnp.ip, 4);
		ok(pnc_cnp_encode(&cnp, inv + 4, sizeof(inv) - 4, &n), "cnp");
		nt.af = 4;
		nt.start = PNC_NOTIF_START_MPLS;
		nt.invoking = inv;
		nt.invoking_len = 4 + n;
		ok(pnc_notif_encode(&nt, msg, sizeof(msg), &mlen), "notif");
		put("notif", "notif4-mpls", msg, mlen);
		ok(pnc_fcn_encode(&fcn, buf, sizeof(buf), &n), "fcn");
		put("notif", "fcn", buf, n);
	}
	lhcnp_seeds();
	return 0;
}
