// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Writes the seed corpora of the fuzz targets of tests/fuzz/tools.am:
 * gen_corpus_tools DIR creates DIR/{pktdecode,cp_sample,flows_learn,
 * emu_rx,qmon_nl,netlink,state_file}/<name>.  Packets come from the codecs' encoders, netlink
 * messages are laid out as the kernel sends them, state files come from
 * their encoders.  Each target's top comment says how it reads its
 * inputs.  Run through "make fuzz-corpus"; the output is committed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/gen_stats.h>
#include <linux/genetlink.h>
#include <linux/neighbour.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "codec/wire.h"
#include "tunnel/labels_state.h"
#include "proxy/flows_state.h"
#include "pnc_pkt.h"

#include "../lhcnp_sample.h"
#include "gen_seed.h"

#define PKTS_MAX 48
#define BUF_MAX	 16384

static const char *dir;

/* A growing buffer, for seeds made of parts. */
struct out {
	uint8_t b[BUF_MAX];
	size_t len;
};

static void out_add(struct out *o, const void *p, size_t len)
{
	if (o->len + len > sizeof(o->b)) {
		fprintf(stderr, "gen_corpus_tools: seed too large\n");
		exit(1);
	}
	if (len)
		memcpy(o->b + o->len, p, len);
	o->len += len;
}

static void out_byte(struct out *o, uint8_t b)
{
	out_add(o, &b, 1);
}

static void out_printf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out_printf(struct out *o, const char *fmt, ...)
{
	char line[BUF_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	out_add(o, line, (size_t)n);
}

/* --- packets -------------------------------------------------------------- */

/* The two ends as pnc-pkt has them: 192.0.2.1 -> 192.0.2.2, 2001:db8::1 -> ::2. */
#define REQUESTER 2
#define RESPONDER 1

struct pkt {
	char name[32];
	uint8_t b[2048];
	size_t len;
};

static struct pkt pkts[PKTS_MAX];
static size_t n_pkts;

static struct pkt *pkt_new(const char *name, uint8_t v)
{
	struct pkt *p;

	if (n_pkts == PKTS_MAX) {
		fprintf(stderr, "gen_corpus_tools: more than %d packets\n", PKTS_MAX);
		exit(1);
	}
	p = &pkts[n_pkts++];
	snprintf(p->name, sizeof(p->name), "%s%u", name, v);
	return p;
}

static void ends(struct pnc_ip_udp *ip, uint8_t v, uint8_t from, uint8_t to)
{
	pnc_ip_udp_init(ip, v);
	if (v == 4) {
		memcpy(ip->src, (uint8_t[]){ 192, 0, 2, from }, 4);
		memcpy(ip->dst, (uint8_t[]){ 192, 0, 2, to }, 4);
	} else {
		memcpy(ip->src, (uint8_t[]){ 0x20, 0x01, 0x0d, 0xb8, [15] = from }, 16);
		memcpy(ip->dst, (uint8_t[]){ 0x20, 0x01, 0x0d, 0xb8, [15] = to }, 16);
	}
}

/* A UDP payload in a packet to port dport. */
static void udp_pkt(struct pkt *p, uint8_t v, uint16_t dport, const uint8_t *msg, size_t mlen)
{
	struct pnc_ip_udp ip;
	size_t hlen;

	ends(&ip, v, RESPONDER, REQUESTER);
	ip.dport = dport;
	ip.udp_csum = true;
	seed_ok(pnc_ipudp_write(&ip, mlen, p->b, sizeof(p->b), &hlen, &p->len), "udp");
	memcpy(p->b + hlen, msg, mlen);
	pnc_ipudp_finish(&ip, p->b, p->len);
}

static void lh_roce(uint8_t v, const char *name, uint8_t action, uint16_t parameter, bool ext)
{
	struct pnc_lh_roce m = { .pkey = 0xffff, .dest_qp = 0x123 };
	struct pkt *p = pkt_new(name, v);

	ends(&m.ip, v, RESPONDER, REQUESTER);
	m.ip.tos = 0xc0;
	lhcnp_sample(&m.msg, ext);
	m.msg.block.action = action;
	m.msg.block.parameter = parameter;
	m.msg.block.src_qp = 0x123;
	seed_ok(pnc_lh_roce_encode(&m, p->b, sizeof(p->b), &p->len), "lh roce");
}

static void rate_advice(uint8_t v, const char *name, uint32_t mbps, uint32_t qp)
{
	struct pnc_rate_advice ra = {
		.opcode = PNC_RA_OPCODE, .pkey = 0xffff, .dest_qp = qp, .peer_qp = 0x22
	};
	struct pkt *p = pkt_new(name, v);

	ends(&ra.ip, v, RESPONDER, REQUESTER);
	ra.rate_mbps = mbps;
	seed_ok(pnc_rate_advice_encode(&ra, p->b, sizeof(p->b), &p->len), "rate advice");
}

/* RC WRITE Only to the responder; CE if ce. */
static void write_only(uint8_t v, const char *name, uint32_t psn, bool ce)
{
	static const uint8_t payload[64] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct pnc_rc_data d = { 0 };
	struct pkt *p = pkt_new(name, v);

	ends(&d.ip, v, REQUESTER, RESPONDER);
	d.ip.tos = (uint8_t)(26 << 2 | (ce ? 3 : 2));
	d.bth.opcode = PNC_OP_RC_WRITE_ONLY;
	d.bth.pkey = 0xffff;
	d.bth.dest_qp = 0x22;
	d.bth.psn = psn;
	d.bth.ack_req = true;
	d.reth.va = 0x10000;
	d.reth.rkey = 0x1000;
	d.reth.dma_len = sizeof(payload);
	d.payload = payload;
	d.payload_len = sizeof(payload);
	seed_ok(pnc_rc_data_encode(&d, p->b, sizeof(p->b), &p->len), "write");
}

/* The CM messages of roce-emu's handshake (REQ, REP, RTU) and a DREQ; comm IDs match. */
static void cm(uint8_t v, const char *name, uint16_t attr)
{
	const uint32_t req_comm = 0xc0c0c0c1, rep_comm = 0x6b8b4567; /* random() | 1, srandom(1) */
	struct pnc_cm_packet c;
	struct pkt *p = pkt_new(name, v);

	pnc_cm_packet_init(&c, v, attr);
	ends(&c.ip, v, REQUESTER, RESPONDER);
	c.msg.mad.tid = 0x1122334455667788ull;
	if (attr == PNC_CM_ATTR_REQ) {
		c.msg.u.req = (struct pnc_cm_req){ .local_comm_id = req_comm,
						   .service_id = 0x0000000001064791ull,
						   .local_qpn = 0x123,
						   .starting_psn = 0x1000,
						   .pkey = 0xffff,
						   .path_mtu = 3,
						   .primary_hop_limit = 64 };
	} else if (attr == PNC_CM_ATTR_REP) {
		ends(&c.ip, v, RESPONDER, REQUESTER);
		c.msg.u.rep = (struct pnc_cm_rep){ .local_comm_id = rep_comm,
						   .remote_comm_id = req_comm,
						   .local_qpn = 0x22,
						   .starting_psn = 0x2000 };
	} else if (attr == PNC_CM_ATTR_DREQ) {
		c.msg.u.dreq.local_comm_id = req_comm;
		c.msg.u.dreq.remote_comm_id = rep_comm;
		c.msg.u.dreq.remote_qpn_eecn = 0x22;
	} else {
		c.msg.u.rtu = (struct pnc_cm_rtu){ .local_comm_id = req_comm,
						   .remote_comm_id = rep_comm };
	}
	seed_ok(pnc_cm_packet_encode(&c, p->b, sizeof(p->b), &p->len), "cm");
}

/*
 * What pnc-pkt decodes without a codec of its own: RC SEND with an
 * immediate, a UD SEND to another QP than QP1, a READ request; and a
 * device ID that is not all ASCII.
 */
static void other_opcodes(uint8_t v)
{
	static const uint8_t body[16] = { 0x80, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x77 };
	struct pnc_rc_data d = { 0 };
	struct pnc_bth bth = { .pkey = 0xffff, .dest_qp = 0x77 };
	struct pnc_lh_roce m = { .pkey = 0xffff, .dest_qp = 0x123 };
	struct pnc_ip_udp ip;
	struct pkt *p;

	ends(&d.ip, v, REQUESTER, RESPONDER);
	d.bth.opcode = PNC_OP_RC_SEND_ONLY_IMM;
	d.bth.pkey = 0xffff;
	d.bth.dest_qp = 0x22;
	d.imm = 0xdeadbeef;
	d.payload = body;
	d.payload_len = 5;
	p = pkt_new("send-imm", v);
	seed_ok(pnc_rc_data_encode(&d, p->b, sizeof(p->b), &p->len), "send");

	ends(&ip, v, REQUESTER, RESPONDER);
	bth.opcode = PNC_OP_UD_SEND_ONLY;
	p = pkt_new("ud-send", v);
	seed_ok(pnc_roce_encode(&ip, &bth, body, sizeof(body), p->b, sizeof(p->b), &p->len), "ud");
	bth.opcode = PNC_OP_RC_READ_REQ;
	p = pkt_new("read-req", v);
	seed_ok(pnc_roce_encode(&ip, &bth, body, sizeof(body), p->b, sizeof(p->b), &p->len),
		"read");

	ends(&m.ip, v, RESPONDER, REQUESTER);
	lhcnp_sample(&m.msg, true);
	strcpy(m.msg.ext.device_id, "p\xc3\xa9.dc\x7f\xff\"2\\");
	p = pkt_new("lh-utf8-", v);
	seed_ok(pnc_lh_roce_encode(&m, p->b, sizeof(p->b), &p->len), "lh utf8");
}

/* Every kind of packet pnc-pkt decodes and roce-emu receives, of one IP version. */
static void make_packets(uint8_t v)
{
	struct pnc_cnp cnp = { .pkey = 0xffff, .dest_qp = 0x123 };
	struct pnc_rc_ack a = { 0 };
	struct pnc_lh_icmp6 ic = { .tclass = 0xc0, .hop_limit = 64, .type = PNC_LH_ICMP6_TYPE };
	struct pnc_notif nt = { .af = v, .protocol = 17, .cl = 5, .sport = 0xc000, .dport = 4791 };
	struct pnc_fcn fcn = { 0x12345, 5 };
	uint8_t msg[1024];
	size_t mlen;
	struct pkt *p, *w;

	p = pkt_new("cnp", v);
	ends(&cnp.ip, v, RESPONDER, REQUESTER);
	cnp.ip.tos = 0xc0;
	seed_ok(pnc_cnp_encode(&cnp, p->b, sizeof(p->b), &p->len), "cnp");
	p = pkt_new("cnp-other-qp", v);
	cnp.dest_qp = 0x456;
	seed_ok(pnc_cnp_encode(&cnp, p->b, sizeof(p->b), &p->len), "cnp");

	write_only(v, "write", 0x1000, false);
	write_only(v, "write-ce", 0x1001, true);
	write_only(v, "write-gap", 0x1005, true);
	w = &pkts[n_pkts - 3];

	ends(&a.ip, v, RESPONDER, REQUESTER);
	a.bth.opcode = PNC_OP_RC_ACK;
	a.bth.pkey = 0xffff;
	a.bth.dest_qp = 0x123;
	a.bth.psn = 0x1000;
	a.aeth.syndrome = pnc_aeth_syndrome(PNC_AETH_ACK, 0x1f);
	a.aeth.msn = 1;
	p = pkt_new("ack", v);
	seed_ok(pnc_rc_ack_encode(&a, p->b, sizeof(p->b), &p->len), "ack");
	a.aeth.syndrome = pnc_aeth_syndrome(PNC_AETH_NAK, 0);
	p = pkt_new("nak", v);
	seed_ok(pnc_rc_ack_encode(&a, p->b, sizeof(p->b), &p->len), "nak");

	cm(v, "cm-req", PNC_CM_ATTR_REQ);
	cm(v, "cm-rep", PNC_CM_ATTR_REP);
	cm(v, "cm-rtu", PNC_CM_ATTR_RTU);
	cm(v, "cm-dreq", PNC_CM_ATTR_DREQ);
	if (v == 4) {
		cm(v, "cm-rej", PNC_CM_ATTR_REJ);
		cm(v, "cm-drep", PNC_CM_ATTR_DREP);
		other_opcodes(v);
	}

	/* The seed 002 notification carrying the CE-marked WRITE, and the FCN. */
	memcpy(nt.src, w->b + (v == 4 ? 12 : 8), v == 4 ? 4 : 16);
	memcpy(nt.dst, w->b + (v == 4 ? 16 : 24), v == 4 ? 4 : 16);
	nt.carrier_af = v;
	nt.invoking = w[1].b;
	nt.invoking_len = 64;
	seed_ok(pnc_notif_encode(&nt, msg, sizeof(msg), &mlen), "notif");
	udp_pkt(pkt_new("notif", v), v, PNC_NOTIF_UDP_PORT, msg, mlen);
	seed_ok(pnc_fcn_encode(&fcn, msg, sizeof(msg), &mlen), "fcn");
	udp_pkt(pkt_new("fcn", v), v, PNC_FCN_UDP_PORT, msg, mlen);

	lh_roce(v, "lh-reduce", PNC_LH_RATE_REDUCE, 50, false);
	lh_roce(v, "lh-pause", PNC_LH_PAUSE, 200, false);
	lh_roce(v, "lh-resume-ext", PNC_LH_RESUME, 0, true);
	lh_roce(v, "lh-notify", PNC_LH_NOTIFY, 0, false);
	rate_advice(v, "advice", 10, 0x123);
	rate_advice(v, "advice-withdrawn", 0, 0x123);
	rate_advice(v, "advice-other-qp", 50, 0x456);

	if (v == 6) {
		struct pnc_ip_udp ip;

		ends(&ip, 6, RESPONDER, REQUESTER);
		memcpy(ic.src, ip.src, 16);
		memcpy(ic.dst, ip.dst, 16);
		lhcnp_sample(&ic.msg, true);
		ic.msg.block.src_qp = 0x123;
		p = pkt_new("lh-icmp6-", v);
		seed_ok(pnc_lh_icmp6_encode(&ic, p->b, sizeof(p->b), &p->len), "lh icmp6");
	}
}

static const struct pkt *pkt_of(const char *name)
{
	for (size_t i = 0; i < n_pkts; i++)
		if (!strcmp(pkts[i].name, name))
			return &pkts[i];
	fprintf(stderr, "gen_corpus_tools: no packet %s\n", name);
	exit(1);
}

/* --- pktdecode: option octet, then what pnc-pkt decode reads --------------- */

static void hex_line(struct out *o, const uint8_t *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		out_printf(o, "%02x", p[i]);
	out_printf(o, "\n");
}

/* A classic pcap file in the other byte order, nanoseconds, one record. */
static void pcap_swapped(struct out *o, const struct pkt *p)
{
	uint8_t h[24] = { 0xa1, 0xb2, 0x3c, 0x4d, 0, 2, 0, 4 }, r[16] = { 0 };

	put_be32(h + 16, 65535);
	put_be32(h + 20, LINKTYPE_RAW);
	out_add(o, h, sizeof(h));
	put_be32(r + 8, (uint32_t)p->len);
	put_be32(r + 12, (uint32_t)p->len);
	out_add(o, r, sizeof(r));
	out_add(o, p->b, p->len);
}

static void pcap_file(struct out *o, uint8_t opt, uint32_t linktype, bool vlan, size_t cut)
{
	uint8_t frame[2100];
	FILE *f;
	char *buf;
	size_t len, n;

	f = open_memstream(&buf, &len);
	if (!f || pcap_write_header(f, linktype))
		exit(1);
	for (size_t i = 0; i < n_pkts; i++) {
		n = pkts[i].len;
		memcpy(frame, pkts[i].b, n);
		if (linktype == LINKTYPE_ETHERNET) {
			n = eth_wrap(pkts[i].b, pkts[i].len, frame, sizeof(frame));
			if (vlan && i % 2) {
				/* an 802.1Q tag, VLAN 100, before the type */
				memmove(frame + 16, frame + 12, n - 12);
				put_be16(frame + 12, 0x8100);
				put_be16(frame + 14, 100);
				n += 4;
			}
		}
		if (pcap_write_packet(f, frame, n, (uint32_t)i, 0))
			exit(1);
	}
	fclose(f);
	out_byte(o, opt);
	out_add(o, buf, len - cut);
	free(buf);
}

static void pktdecode_seeds(void)
{
	static struct out o;
	const struct pkt *p;
	char name[64];

	for (size_t i = 0; i < n_pkts; i++) {
		o.len = 0;
		out_byte(&o, 0);
		out_add(&o, pkts[i].b, pkts[i].len);
		snprintf(name, sizeof(name), "raw-%s", pkts[i].name);
		seed_write(dir, "pktdecode", name, o.b, o.len);
	}
	/* All of them as hex lines, with a comment; and in Ethernet frames. */
	o.len = 0;
	out_byte(&o, 0);
	out_printf(&o, "# every kind, IPv4 and IPv6\n");
	for (size_t i = 0; i < n_pkts; i++)
		hex_line(&o, pkts[i].b, pkts[i].len);
	seed_write(dir, "pktdecode", "hex-all", o.b, o.len);
	o.len = 0;
	out_byte(&o, 0x10);
	for (size_t i = 0; i < n_pkts; i += 3) {
		uint8_t frame[2100];

		hex_line(&o, frame, eth_wrap(pkts[i].b, pkts[i].len, frame, sizeof(frame)));
	}
	seed_write(dir, "pktdecode", "hex-eth", o.b, o.len);

	o.len = 0;
	pcap_file(&o, 0, LINKTYPE_RAW, false, 0);
	seed_write(dir, "pktdecode", "pcap-raw", o.b, o.len);
	o.len = 0;
	pcap_file(&o, 0, LINKTYPE_ETHERNET, true, 0);
	seed_write(dir, "pktdecode", "pcap-eth-vlan", o.b, o.len);
	o.len = 0;
	pcap_file(&o, 0, LINKTYPE_RAW, false, 7);
	seed_write(dir, "pktdecode", "pcap-truncated", o.b, o.len);
	o.len = 0;
	out_byte(&o, 0);
	pcap_swapped(&o, pkt_of("cnp4"));
	seed_write(dir, "pktdecode", "pcap-swapped-ns", o.b, o.len);

	/* The options: --lenient with a bad ICRC and a bad ICMPv6 checksum, --hex, --as. */
	p = pkt_of("cnp4");
	o.len = 0;
	out_byte(&o, 0x01 | 0x02);
	out_add(&o, p->b, p->len);
	o.b[o.len - 1] ^= 0xff;
	seed_write(dir, "pktdecode", "lenient-bad-icrc", o.b, o.len);
	p = pkt_of("lh-icmp6-6");
	o.len = 0;
	out_byte(&o, 0x01);
	out_add(&o, p->b, p->len);
	o.b[1 + 40 + 2] ^= 0xff;
	seed_write(dir, "pktdecode", "lenient-bad-icmp6-csum", o.b, o.len);
	p = pkt_of("notif4");
	o.len = 0;
	out_byte(&o, 1 << 2);
	out_add(&o, p->b + 28, p->len - 28);
	seed_write(dir, "pktdecode", "as-notif", o.b, o.len);
	p = pkt_of("fcn6");
	o.len = 0;
	out_byte(&o, 2 << 2);
	out_add(&o, p->b + 48, p->len - 48);
	seed_write(dir, "pktdecode", "as-fcn", o.b, o.len);
	/* The CNP's opcode configured as the rate advice's. */
	p = pkt_of("cnp6");
	o.len = 0;
	out_byte(&o, 0x20);
	out_add(&o, p->b, p->len);
	seed_write(dir, "pktdecode", "codes-cnp-opcode", o.b, o.len);
}

/* --- cp_sample: inner offset, level, carrier, then the sample -------------- */

/* The outer IPv6 header of the flow-label tunnel around inner. */
static void outer6(struct out *o, const struct pkt *inner)
{
	uint8_t h[PNC_IPV6_HLEN] = { 0x60, 0x01, 0x23, 0x45, [7] = 64, [8] = 0x20,
				     0x01, 0x0d, 0xb8, 0xff, [23] = 1, [24] = 0x20,
				     0x01, 0x0d, 0xb8, 0xff, [39] = 2 };

	put_be16(h + 4, (uint16_t)inner->len);
	h[6] = inner->b[0] >> 4 == 4 ? 4 : 41; /* IPv4 or IPv6 in IPv6 */
	out_add(o, h, sizeof(h));
}

static void cp_sample_seeds(void)
{
	static const char *const names[] = { "write4", "write-ce6", "cnp4" };
	static struct out o;
	char name[64];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct pkt *p = pkt_of(names[i]);

		for (int tunnelled = 0; tunnelled < 2; tunnelled++) {
			for (size_t cut = 0; cut <= 64; cut += 64) {
				uint8_t hdr[4] = { 0, tunnelled ? PNC_IPV6_HLEN : 0, 5,
						   (uint8_t)(i % 2) };

				o.len = 0;
				out_add(&o, hdr, sizeof(hdr));
				if (tunnelled)
					outer6(&o, p);
				out_add(&o, p->b, cut ? cut : p->len);
				snprintf(name, sizeof(name), "%s%s%s", names[i],
					 tunnelled ? "-tunnelled" : "", cut ? "-cut" : "");
				seed_write(dir, "cp_sample", name, o.b, o.len);
			}
		}
	}
}

/* --- flows_learn: configuration, then learner events ----------------------- */

/* A RoCE event of the learner's ring, as fuzz_flows_learn.c reads it. */
static void learn_event(struct out *o, uint8_t v, uint8_t from, uint32_t dqpn, uint8_t op,
			uint32_t psn)
{
	uint8_t e[3 + 49] = { 0, 0, 10, v, 0 };
	struct pnc_ip_udp ip;

	ends(&ip, v, from, from == 1 ? 2 : 1);
	put_be24(e + 5, v == 6 ? 0xabcde : 0);
	memcpy(e + 8, ip.src, 16);
	memcpy(e + 24, ip.dst, 16);
	put_be16(e + 40, (uint16_t)(0xc000 | dqpn));
	e[42] = op;
	put_be16(e + 43, 0xffff);
	put_be24(e + 45, dqpn);
	put_be24(e + 48, psn);
	out_add(o, e, sizeof(e));
}

static void learn_cm(struct out *o, const char *name)
{
	const struct pkt *p = pkt_of(name);
	uint8_t h[5] = { 1, 0, 10 };

	put_be16(h + 3, (uint16_t)p->len);
	out_add(o, h, sizeof(h));
	out_add(o, p->b, p->len);
}

/* RC WRITEs 2 -> 1 to QP 0x22, and ACKs 1 -> 2 to QP 0x123 of PSNs they sent. */
static void learn_psn(struct out *o, uint8_t v)
{
	for (uint32_t i = 0; i < 6; i++) {
		learn_event(o, v, 2, 0x22, PNC_OP_RC_WRITE_ONLY, 0x1000 + 2 * i);
		learn_event(o, v, 2, 0x22, PNC_OP_RC_WRITE_ONLY, 0x1001 + 2 * i);
		learn_event(o, v, 1, 0x123, PNC_OP_RC_ACK, 0x1000 + 2 * i);
	}
}

static void flows_learn_seeds(void)
{
	static const uint8_t probe[3 + 36] = { 3, 0,	      10, 4, 192, 0,	      2,
					       2, [20] = 192, 0,  2, 1,	  [38] = 0x22 };
	static const uint8_t age[3] = { 2, 0xff, 0xff };
	static struct out o;

	/* 16 flows, 3 matches, no timeout: CM, a lookup, then the DREQ. */
	o.len = 0;
	out_add(&o, (uint8_t[]){ 15, 2, 0 }, 3);
	learn_cm(&o, "cm-req4");
	learn_cm(&o, "cm-rep4");
	out_add(&o, probe, sizeof(probe));
	learn_cm(&o, "cm-dreq4");
	seed_write(dir, "flows_learn", "cm4", o.b, o.len);

	/* 16 flows, 2 matches, 20 ms timeout: PSN pairing, then ageing. */
	for (uint8_t v = 4; v <= 6; v += 2) {
		o.len = 0;
		out_add(&o, (uint8_t[]){ 15, 1, 2 }, 3);
		learn_psn(&o, v);
		out_add(&o, age, sizeof(age));
		seed_write(dir, "flows_learn", v == 4 ? "psn4" : "psn6", o.b, o.len);
	}

	/* One flow: a CM pairing does not fit, PSN learns one direction. */
	o.len = 0;
	out_add(&o, (uint8_t[]){ 0, 0, 0 }, 3);
	learn_cm(&o, "cm-req6");
	learn_cm(&o, "cm-rep6");
	learn_psn(&o, 6);
	seed_write(dir, "flows_learn", "table-full6", o.b, o.len);
}

/* --- emu_rx: configuration, then records ---------------------------------- */

enum { TO_REQUESTER, TO_REQUESTER_ICMP6, TO_RESPONDER, TIME_ONLY };

static void emu_record(struct out *o, uint8_t what, uint16_t dt_us, const uint8_t *p, size_t len)
{
	uint8_t h[5] = { what };

	put_be16(h + 1, dt_us);
	put_be16(h + 3, (uint16_t)len);
	out_add(o, h, sizeof(h));
	out_add(o, p, len);
}

static void emu_pkt(struct out *o, uint8_t what, uint16_t dt_us, const char *name)
{
	const struct pkt *p = pkt_of(name);
	uint8_t rec[2048];

	if (what != TO_REQUESTER_ICMP6) {
		emu_record(o, what, dt_us, p->b, p->len);
		return;
	}
	/* The IPv6 source, then the message from its type on, as the socket gives them. */
	memcpy(rec, p->b + 8, 16);
	memcpy(rec + 16, p->b + PNC_IPV6_HLEN, p->len - PNC_IPV6_HLEN);
	emu_record(o, what, dt_us, rec, 16 + p->len - PNC_IPV6_HLEN);
}

/*
 * Scenarios, a record a step: who gets it (r the requester, i its ICMPv6
 * socket, s the responder, f the responder with its sends failing, t
 * nobody: time passes), +N microseconds since the last step (10 if not
 * given), the packet.
 */
struct scenario {
	const char *name;
	uint8_t flags, min_rate; /* octets 0 and 4 of the configuration */
	const char *steps;
};

static const struct scenario scenarios[] = {
	/* CNPs to us, to another QP, ACKs, and recovery in between. */
	{ "cnp-ack4", 0, 0,
	  "r cnp4; r cnp4; r cnp-other-qp4; r+5000 ack4; r nak4; t+60000; r cnp4" },
	/* Long-haul: reduce, pause, resume, then the recovery timer. */
	{ "long-haul4", 0x01, 4,
	  "r lh-reduce4; r lh-reduce4; r+100 lh-pause4; r lh-notify4; r+300 lh-resume-ext4; "
	  "r lh-reduce4; t+60000; t+60000; r cnp4" },
	/* The same without --long-haul: the E bit makes no difference. */
	{ "long-haul-off4", 0, 4, "r lh-reduce4; r+100 lh-pause4; r cnp4" },
	{ "long-haul6", 0x01 | 0x08 | 0x10, 0, "i lh-icmp6-6; r lh-pause6; r lh-reduce6" },
	/* Rate advice below --min-rate, a CNP, withdrawal, another QP's. */
	{ "advice4", 0x02, 1,
	  "r advice4; r cnp4; t+20000; r advice-withdrawn4; t+20000; r advice-other-qp4" },
	/* The responder: CM, data with CE and a gap, CNPs paced, an RTU, sends failing. */
	{ "responder-cm4", 0x04 | 0x20, 0,
	  "s cm-req4; s cm-req4; s cm-rtu4; s write4; s write-ce4; s write-gap4; "
	  "s+100 write-ce4; f write-ce4" },
	{ "responder6", 0x04 | 0x08, 0, "s write6; s write-ce6; s cm-req6" },
};

/* One step of a scenario, as described above scenarios[]. */
static void emu_step(struct out *o, const char *step)
{
	static const char who[] = "risft";
	static const uint8_t what[] = { TO_REQUESTER, TO_REQUESTER_ICMP6, TO_RESPONDER,
					TO_RESPONDER | 4, TIME_ONLY };
	const char *w = strchr(who, step[0]), *name = strchr(step, ' ');
	unsigned long dt = step[1] == '+' ? strtoul(step + 2, NULL, 10) : 10;

	if (!step[0] || !w || !dt || dt > UINT16_MAX) {
		fprintf(stderr, "gen_corpus_tools: bad step %s\n", step);
		exit(1);
	}
	if (name)
		emu_pkt(o, what[w - who], (uint16_t)dt, name + 1);
	else
		emu_record(o, what[w - who], (uint16_t)dt, NULL, 0);
}

static void emu_seeds(void)
{
	static struct out o;
	char steps[512], *step, *save;

	for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		const struct scenario *sc = &scenarios[i];
		const uint8_t cfg[8] = { sc->flags, 0, 0, 0, sc->min_rate, 3, 5, 5 };

		o.len = 0;
		out_add(&o, cfg, sizeof(cfg));
		snprintf(steps, sizeof(steps), "%s", sc->steps);
		for (step = strtok_r(steps, ";", &save); step; step = strtok_r(NULL, ";", &save))
			emu_step(&o, step + strspn(step, " "));
		seed_write(dir, "emu_rx", sc->name, o.b, o.len);
	}
}

/* --- netlink messages ------------------------------------------------------ */

/* A datagram being built: messages one after the other, aligned. */
struct nl {
	uint8_t b[4096] __attribute__((aligned(NLMSG_ALIGNTO)));
	size_t len, msg; /* msg: where the message being built starts */
	size_t nest[4];
	int depth;
};

static void nl_msg(struct nl *d, uint16_t type, uint32_t seq, const void *body, size_t blen)
{
	struct nlmsghdr nh = { .nlmsg_type = type, .nlmsg_flags = NLM_F_MULTI, .nlmsg_seq = seq };

	d->len = NLMSG_ALIGN(d->len);
	d->msg = d->len;
	memcpy(d->b + d->len, &nh, sizeof(nh));
	memcpy(d->b + d->len + NLMSG_HDRLEN, body, blen);
	d->len += NLMSG_HDRLEN + NLMSG_ALIGN(blen);
	((struct nlmsghdr *)(d->b + d->msg))->nlmsg_len = (uint32_t)(d->len - d->msg);
}

static void nl_fix(struct nl *d)
{
	for (int i = 0; i < d->depth; i++)
		((struct rtattr *)(d->b + d->nest[i]))->rta_len =
			(unsigned short)(d->len - d->nest[i]);
	((struct nlmsghdr *)(d->b + d->msg))->nlmsg_len = (uint32_t)(d->len - d->msg);
}

static void nl_attr(struct nl *d, uint16_t type, const void *data, size_t len)
{
	struct rtattr *rta = (struct rtattr *)(d->b + d->len);

	rta->rta_type = type;
	rta->rta_len = (unsigned short)RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(rta), data, len);
	d->len += RTA_SPACE(len);
	nl_fix(d);
}

static void nl_u32(struct nl *d, uint16_t type, uint32_t v)
{
	nl_attr(d, type, &v, sizeof(v));
}

static void nl_u64(struct nl *d, uint16_t type, uint64_t v)
{
	nl_attr(d, type, &v, sizeof(v));
}

static void nl_nest(struct nl *d, uint16_t type)
{
	d->nest[d->depth++] = d->len;
	nl_attr(d, type, NULL, 0);
}

static void nl_end(struct nl *d)
{
	d->depth--;
}

static void nl_error(struct nl *d, uint32_t seq, int err)
{
	struct nlmsgerr e = { .error = err };

	nl_msg(d, NLMSG_ERROR, seq, &e, sizeof(e));
}

static void nl_done(struct nl *d, uint32_t seq)
{
	int zero = 0;

	nl_msg(d, NLMSG_DONE, seq, &zero, sizeof(zero));
}

/* The datagram built as a seed of target; d is empty again after. */
static void nl_seed(struct nl *d, const char *target, const char *name)
{
	seed_write(dir, target, name, d->b, d->len);
	memset(d, 0, sizeof(*d));
}

/* --- qmon_nl: qdisc and class dumps --------------------------------------- */

static void qdisc(struct nl *d, uint16_t type, uint32_t seq, const char *kind, uint32_t parent,
		  uint64_t bytes, uint32_t backlog)
{
	struct tcmsg tcm = { .tcm_family = AF_UNSPEC, .tcm_ifindex = 7, .tcm_parent = parent };
	struct gnet_stats_queue q = { .qlen = backlog / 1000, .backlog = backlog, .drops = 3 };
	/* Structs with padding: zeroed whole, so that the seeds are the same every time. */
	struct gnet_stats_basic b;
	struct tc_stats st;
	union {
		struct tc_tbf_qopt tbf;
		struct tc_htb_opt htb;
		struct tc_htb_glob glob;
	} o;

	memset(&b, 0, sizeof(b));
	memset(&st, 0, sizeof(st));
	memset(&o, 0, sizeof(o));
	b.bytes = st.bytes = bytes;
	b.packets = st.packets = (uint32_t)(bytes / 1000);
	st.backlog = backlog;
	tcm.tcm_handle = type == RTM_NEWTCLASS ? 0x10001 : 0x10000;
	nl_msg(d, type, seq, &tcm, sizeof(tcm));
	nl_attr(d, TCA_KIND, kind, strlen(kind) + 1);
	nl_nest(d, TCA_OPTIONS);
	if (!strcmp(kind, "tbf")) {
		o.tbf.rate.rate = 1250000;
		o.tbf.limit = 100000;
		nl_attr(d, TCA_TBF_PARMS, &o.tbf, sizeof(o.tbf));
		nl_u64(d, TCA_TBF_RATE64, 6250000000ull);
	} else if (!strcmp(kind, "htb") && type == RTM_NEWTCLASS) {
		o.htb.rate.rate = 1250000;
		o.htb.ceil.rate = 2500000;
		nl_attr(d, TCA_HTB_PARMS, &o.htb, sizeof(o.htb));
		nl_u64(d, TCA_HTB_RATE64, 6250000000ull);
		nl_u64(d, TCA_HTB_CEIL64, 12500000000ull);
	} else if (!strcmp(kind, "htb")) {
		o.glob.version = 3;
		o.glob.rate2quantum = 10;
		nl_attr(d, TCA_HTB_INIT, &o.glob, sizeof(o.glob));
	}
	nl_end(d);
	nl_nest(d, TCA_STATS2);
	nl_attr(d, TCA_STATS_BASIC, &b, sizeof(b));
	nl_u64(d, TCA_STATS_PKT64, b.packets);
	nl_attr(d, TCA_STATS_QUEUE, &q, sizeof(q));
	nl_end(d);
	nl_attr(d, TCA_STATS, &st, sizeof(st));
}

static void qmon_seeds(void)
{
	static struct nl d;

	memset(&d, 0, sizeof(d));
	qdisc(&d, RTM_NEWQDISC, 1, "tbf", TC_H_ROOT, 1000000, 30000);
	qdisc(&d, RTM_NEWQDISC, 1001, "tbf", TC_H_ROOT, 1125000, 60000);
	qdisc(&d, RTM_NEWQDISC, 2001, "tbf", TC_H_ROOT, 1250000, 10000);
	nl_done(&d, 2001);
	nl_seed(&d, "qmon_nl", "tbf-dump");

	qdisc(&d, RTM_NEWQDISC, 5, "htb", TC_H_ROOT, 5000000, 1500);
	qdisc(&d, RTM_NEWTCLASS, 5, "htb", TC_H_ROOT, 5000000, 0);
	qdisc(&d, RTM_NEWTCLASS, 5, "htb", 0x10001, 2000000, 0);
	nl_done(&d, 5);
	nl_seed(&d, "qmon_nl", "htb-dump");

	qdisc(&d, RTM_NEWQDISC, 9, "fq_codel", TC_H_ROOT, 77777, 0);
	qdisc(&d, RTM_NEWQDISC, 9, "clsact", TC_H_CLSACT, 0, 0);
	qdisc(&d, RTM_NEWQDISC, 9, "noqueue", TC_H_ROOT, 0, 0);
	nl_error(&d, 9, -ENODEV);
	nl_seed(&d, "qmon_nl", "other-kinds");
}

/* --- netlink: filters, next hops, generic netlink -------------------------- */

static void route(struct nl *d, uint32_t seq, uint8_t family, uint8_t type, const void *gw,
		  uint16_t gw_attr)
{
	struct rtmsg rtm = { .rtm_family = family, .rtm_table = RT_TABLE_MAIN, .rtm_type = type };
	size_t alen = family == AF_INET ? 4 : 16;
	const uint8_t dst[16] = { 192, 0, 2, 77 };

	rtm.rtm_dst_len = (uint8_t)(alen * 8);
	nl_msg(d, RTM_NEWROUTE, seq, &rtm, sizeof(rtm));
	nl_u32(d, RTA_TABLE, RT_TABLE_MAIN);
	nl_attr(d, RTA_DST, dst, alen);
	if (gw)
		nl_attr(d, gw_attr, gw, gw_attr == RTA_VIA ? 2 + 4 : alen);
	nl_u32(d, RTA_OIF, 3);
}

static void neigh(struct nl *d, uint32_t seq, uint8_t family, uint16_t state, size_t mac_len)
{
	struct ndmsg ndm = { .ndm_family = family, .ndm_ifindex = 3, .ndm_state = state };
	const uint8_t addr[16] = { 10, 0, 1, 254 }, mac[6] = { 2, 0, 0, 0, 0, 0x11 };

	nl_msg(d, RTM_NEWNEIGH, seq, &ndm, sizeof(ndm));
	nl_attr(d, NDA_DST, addr, family == AF_INET ? 4 : 16);
	if (mac_len)
		nl_attr(d, NDA_LLADDR, mac, mac_len);
	nl_u32(d, NDA_PROBES, 0);
}

static void genl(struct nl *d, uint16_t type)
{
	struct genlmsghdr g = { .cmd = 1, .version = 1 };

	nl_msg(d, type, 1, &g, sizeof(g));
}

static void netlink_seeds(void)
{
	static struct nl d;
	const uint8_t gw4[4] = { 10, 0, 1, 254 }, gw6[16] = { 0xfe, 0x80, [15] = 9 };
	const uint8_t via[6] = { AF_INET, 0, 10, 0, 1, 254 };
	struct tcmsg tcm = { .tcm_ifindex = 3, .tcm_parent = TC_H_MAKE(TC_H_CLSACT, 0xfff2) };
	uint64_t features = 0x7;
	uint16_t id = 0x1d;

	/* A tc filter dump: the classifier without a handle, two filters. */
	memset(&d, 0, sizeof(d));
	for (uint32_t h = 0; h < 3; h++) {
		tcm.tcm_handle = h;
		nl_msg(&d, RTM_NEWTFILTER, 4, &tcm, sizeof(tcm));
		nl_attr(&d, TCA_KIND, "bpf", 4);
	}
	nl_done(&d, 4);
	nl_seed(&d, "netlink", "filter-dump");
	nl_msg(&d, RTM_NEWTFILTER, 4, &tcm, sizeof(tcm));
	nl_error(&d, 4, -ENODEV);
	nl_seed(&d, "netlink", "filter-dump-error");

	/* Routes: through a gateway, on link, of no use. */
	route(&d, 1, AF_INET, RTN_UNICAST, gw4, RTA_GATEWAY);
	nl_seed(&d, "netlink", "route4-gateway");
	route(&d, 2, AF_INET6, RTN_UNICAST, gw6, RTA_GATEWAY);
	nl_seed(&d, "netlink", "route6-gateway");
	route(&d, 3, AF_INET, RTN_UNICAST, NULL, 0);
	nl_seed(&d, "netlink", "route4-on-link");
	route(&d, 3, AF_INET6, RTN_UNICAST, via, RTA_VIA);
	nl_seed(&d, "netlink", "route6-via4");
	route(&d, 3, AF_INET, RTN_LOCAL, NULL, 0);
	route(&d, 3, AF_INET, RTN_BLACKHOLE, NULL, 0);
	nl_seed(&d, "netlink", "route-local-blackhole");
	nl_error(&d, 5, -ENETUNREACH);
	nl_seed(&d, "netlink", "route-error");

	/* Neighbours: usable, not yet, not Ethernet. */
	neigh(&d, 6, AF_INET, NUD_REACHABLE, 6);
	nl_seed(&d, "netlink", "neigh4-reachable");
	neigh(&d, 7, AF_INET6, NUD_STALE, 6);
	nl_seed(&d, "netlink", "neigh6-stale");
	neigh(&d, 8, AF_INET, NUD_INCOMPLETE, 0);
	neigh(&d, 8, AF_INET, NUD_PERMANENT, 4);
	nl_seed(&d, "netlink", "neigh-unusable");

	/* Generic netlink: the netdev family's id, a device's XDP features. */
	genl(&d, GENL_ID_CTRL);
	nl_attr(&d, CTRL_ATTR_FAMILY_NAME, "netdev", 7);
	nl_attr(&d, CTRL_ATTR_FAMILY_ID, &id, sizeof(id));
	nl_u32(&d, CTRL_ATTR_VERSION, 1);
	nl_seed(&d, "netlink", "genl-family");
	genl(&d, id);
	nl_u32(&d, 1, 3);	 /* NETDEV_A_DEV_IFINDEX */
	nl_u64(&d, 3, features); /* NETDEV_A_DEV_XDP_FEATURES */
	nl_seed(&d, "netlink", "genl-xdp-features");
	nl_error(&d, 1, -ENOENT);
	nl_seed(&d, "netlink", "genl-error");
}

/* --- state_file: option octet, then the file -------------------------------- */

/*
 * Flows of both IP versions and sources: i even an IPv4 CM flow, odd an
 * IPv6 PSN flow, between hosts 1 and 2 (i > 1: the way back).
 */
static void make_flows(struct pnc_flow_saved *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct pnc_flow *x = &f[i].f;
		uint8_t from = i < 2 ? 1 : 2, to = i < 2 ? 2 : 1;
		struct pnc_ip_udp ip;

		memset(&f[i], 0, sizeof(f[i]));
		x->ip_version = i % 2 ? 6 : 4;
		ends(&ip, x->ip_version, from, to);
		memcpy(x->sender, ip.src, 16);
		memcpy(x->receiver, ip.dst, 16);
		x->sender_qpn = from == 1 ? 0x11 : 0x22;
		x->receiver_qpn = from == 1 ? 0x22 : 0x11;
		x->pkey = 0xffff;
		x->udp_sport = (uint16_t)(0xc000 | x->sender_qpn);
		x->flow_label = x->ip_version == 6 ? 0xabcde : 0;
		x->source = i % 2 ? PNC_FLOW_PSN : PNC_FLOW_CM;
		x->learned_us = 1000 * (i + 1);
		x->last_seen_us = 2000 * (i + 1);
		x->packets = 10 * i;
		if (x->source == PNC_FLOW_CM) {
			f[i].sender_comm = 0xc0c0c0c1u + (uint32_t)i;
			f[i].receiver_comm = 0x5e5e5e51u + (uint32_t)i;
		}
	}
}

static void flows_file(struct out *o, uint8_t opt, const struct pnc_flow_saved *f, size_t n)
{
	o->len = 0;
	out_byte(o, opt);
	o->len += pnc_flows_state_size(n);
	pnc_flows_state_encode(f, n, o->b + 1);
}

/* Labels of the flows: as the tunnel keeps them. */
static void labels_file(struct out *o, uint8_t opt, uint32_t cursor,
			const struct pnc_flow_saved *f, size_t n)
{
	struct pnc_tunnel_flow l[4] = { 0 };

	for (size_t i = 0; i < n; i++) {
		l[i].ip_version = f[i].f.ip_version;
		memcpy(l[i].src, f[i].f.sender, 16);
		memcpy(l[i].dst, f[i].f.receiver, 16);
		l[i].dest_qp = f[i].f.receiver_qpn;
		l[i].pkey = f[i].f.pkey;
		l[i].sport = f[i].f.udp_sport;
		l[i].label = i ? 0xfffff : 0x10;
	}
	o->len = 0;
	out_byte(o, opt);
	o->len += pnc_labels_state_size(n);
	pnc_labels_state_encode(cursor, l, n, o->b + 1);
}

static void state_seeds(void)
{
	static struct out o;
	struct pnc_flow_saved f[4];

	make_flows(f, 4);
	/* Table sizes (bits 4-7): 61, 1 (the rest does not fit) and 5. */
	flows_file(&o, 0xf0, f, 0);
	seed_write(dir, "state_file", "flows-0", o.b, o.len);
	flows_file(&o, 0xf0, f, 4);
	seed_write(dir, "state_file", "flows-4", o.b, o.len);
	flows_file(&o, 0x0e, f, 4);
	seed_write(dir, "state_file", "flows-table-full", o.b, o.len);
	flows_file(&o, 0x10, f + 1, 1);
	seed_write(dir, "state_file", "flows-1", o.b, o.len);

	labels_file(&o, 0x01, 0x4242, f, 2);
	seed_write(dir, "state_file", "labels-2", o.b, o.len);
	labels_file(&o, 0x01 | 0x0e, 7, f, 0);
	seed_write(dir, "state_file", "labels-0", o.b, o.len);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	dir = argv[1];
	mkdir(dir, 0755);
	make_packets(4);
	make_packets(6);
	pktdecode_seeds();
	cp_sample_seeds();
	flows_learn_seeds();
	emu_seeds();
	qmon_seeds();
	netlink_seeds();
	state_seeds();
	return 0;
}
