// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for pnc-pkt's decoder (tools/pnc-pkt: decode_input()
 * of cmd_decode.c, decode.c, decode_roce.c, pcap.c, emit.c).  The first
 * octet of an input holds options, the rest is what `pnc-pkt decode`
 * reads:
 *   bit 0  --lenient          bit 1  --hex
 *   bits 2-3  --as: 1 notif, 2 fcn, else none
 *   bit 4  --eth (for the guessed format)
 *   bit 5  other code points: rate advice opcode 0x81 (the CNP's),
 *          ICMPv6 type 128, extension Class-Num 1
 * The rest is decoded as its content says (hex lines, pcap, one raw
 * packet) in JSON and in text, and as one raw packet with and without
 * an Ethernet header, into memory (output beyond 8 MiB goes unchecked).
 * Properties:
 *  - JSON: a line per packet, each one well-formed object (json_check.h)
 *    with its kind, or its number and a named error;
 *  - text: printable UTF-8 lines, a blank line after each packet;
 *  - a pcap file gives as many packets as it has whole records, and no
 *    error exactly when it ends with one; a raw input is one packet;
 *  - a raw packet decoded as a kind decodes with that kind's codec
 *    (cnpproxyd/codec) to the same fields; and a packet one of the
 *    codecs takes is decoded as its kind, not refused.
 * Seeds (corpus/pktdecode/): made by gen_corpus_tools.c (make
 * fuzz-corpus): every kind as hex lines, pcap (raw and Ethernet, both
 * byte orders) and raw packets, IPv4 and IPv6.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "pnc_pkt.h"
#include "codec/wire.h"
#include "fuzz_util.h"
#include "json_check.h"

#define OPT_LENIENT  0x01
#define OPT_HEX	     0x02
#define OPT_AS_SHIFT 2
#define OPT_ETH	     0x10
#define OPT_CODES    0x20

#define PCAP_FRAME_MAX 65536 /* the largest record pnc-pkt reads */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* What pnc-pkt prints, in memory; one stream for every run (allocations are slow under ASan). */
#define OUT_MAX (8u << 20)
static char out_buf[OUT_MAX];
static FILE *out, *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	out = fmemopen(out_buf, sizeof(out_buf), "w");
	devnull = fopen("/dev/null", "w");
	return out && devnull ? 0 : -1;
}

static void opts_of(struct dec_state *st, uint8_t opt, enum emit_fmt fmt)
{
	static const enum decode_as as[4] = { AS_AUTO, AS_NOTIF, AS_FCN, AS_AUTO };

	memset(st, 0, sizeof(*st));
	decode_opts_init(&st->d);
	st->fmt = fmt;
	st->d.lenient = opt & OPT_LENIENT;
	st->d.with_hex = opt & OPT_HEX;
	st->d.as = as[(opt >> OPT_AS_SHIFT) & 3];
	st->eth = opt & OPT_ETH;
	if (opt & OPT_CODES) {
		st->d.ra_opcode = PNC_OP_CNP;
		st->d.lh_icmp_type = 128;
		st->d.lh_class_num = 1;
	}
}

/* Decode into out_buf: the length of the output, or -1 if it did not fit. */
static long run(struct dec_state *st, enum in_fmt in, const uint8_t *buf, size_t len, int *ret)
{
	long n;

	rewind(out);
	st->out = out;
	st->err = devnull;
	*ret = decode_input(st, in, buf, len);
	fflush(out);
	n = ftell(out);
	if (ferror(out) || n < 0 || (size_t)n >= sizeof(out_buf)) {
		clearerr(out);
		return -1;
	}
	return n;
}

static size_t line_len(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	FUZZ_CHECK(nl); /* every line is ended */
	return (size_t)(nl - p);
}

/* One object a packet, in order; errors named, and counted as bad. */
static void check_json(const struct dec_state *st, const char *out, size_t len)
{
	const char *p = out, *end = out + len;
	unsigned long lines = 0, errors = 0;
	char str[64];
	uint64_t n;
	size_t l;

	while (p < end) {
		l = line_len(p, end);
		FUZZ_CHECK(json_object_ok(p, l));
		lines++;
		if (json_get_str(p, l, "error", str, sizeof(str))) {
			FUZZ_CHECK(json_get_uint(p, l, "packet", &n) && n == lines);
			FUZZ_CHECK(strcmp(str, "unknown") != 0);
			errors++;
		} else {
			FUZZ_CHECK(json_get_str(p, l, "kind", str, sizeof(str)));
		}
		p += l + 1;
	}
	FUZZ_CHECK(lines == st->n && errors == st->bad);
}

/* Each packet's block ends with a blank line; values hold no newline. */
static void check_text(const struct dec_state *st, const char *out, size_t len)
{
	unsigned long blocks = 0;

	FUZZ_CHECK(text_lines_ok(out, len));
	for (size_t i = 1; i < len; i++)
		blocks += out[i] == '\n' && out[i - 1] == '\n';
	FUZZ_CHECK(blocks == st->n);
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * The whole records of a classic pcap file, read from the format's
 * definition: -1 if it is not one, else their number; *whole says
 * whether the file ends right after the last.
 */
static long pcap_records(const uint8_t *d, size_t len, bool *whole)
{
	uint32_t magic, incl;
	size_t off = 24;
	bool be;
	long n = 0;

	if (len < 4)
		return -1;
	magic = get_le32(d);
	if (magic == 0xa1b2c3d4u || magic == 0xa1b23c4du)
		be = false;
	else if (magic == 0xd4c3b2a1u || magic == 0x4d3cb2a1u)
		be = true;
	else
		return -1;
	if (len < 24) {
		*whole = false;
		return 0;
	}
	while (len - off >= 16) {
		incl = be ? get_be32(d + off + 8) : get_le32(d + off + 8);
		if (incl > PCAP_FRAME_MAX || len - off - 16 < incl)
			break;
		off += 16 + incl;
		n++;
	}
	*whole = off == len;
	return n;
}

/* The input as its content says, JSON and text. */
static void fuzz_guessed(uint8_t opt, const uint8_t *d, size_t len)
{
	struct dec_state st;
	bool whole = false;
	long records, n;
	int ret;

	opts_of(&st, opt, EMIT_JSON);
	n = run(&st, IN_AUTO, d, len, &ret);
	FUZZ_CHECK(ret == 0 || ret == -1);
	if (n >= 0)
		check_json(&st, out_buf, (size_t)n);
	records = pcap_records(d, len, &whole);
	if (records >= 0) {
		FUZZ_CHECK(st.n == (unsigned long)records);
		FUZZ_CHECK((ret == 0) == whole);
	}

	opts_of(&st, opt, EMIT_TEXT);
	n = run(&st, IN_AUTO, d, len, &ret);
	if (n >= 0)
		check_text(&st, out_buf, (size_t)n);
}

/* What the codec says of a packet pnc-pkt decoded as kind. */
static void check_kind(const struct decode_opts *o, const char *kind, const uint8_t *pkt,
		       size_t len, const char *line, size_t l)
{
	static struct pnc_cm_packet cm;
	static struct pnc_lh_icmp6 lhi;
	static struct pnc_lh_roce lhr;
	struct pnc_rate_advice ra;
	struct pnc_udp_view uv;
	struct pnc_rc_data rc;
	struct pnc_rc_ack ack;
	struct pnc_roce_view v;
	struct pnc_notif nt;
	struct pnc_fcn fcn;
	struct pnc_cnp cnp;
	uint64_t x;

#define FIELD_IS(path, val) FUZZ_CHECK(json_get_uint(line, l, path, &x) && x == (val))
	if (!strcmp(kind, "cnp")) {
		FUZZ_CHECK(pnc_cnp_decode(pkt, len, &cnp) == PNC_OK);
		FIELD_IS("bth.dqpn", cnp.dest_qp);
		FIELD_IS("bth.pkey", cnp.pkey);
	} else if (!strcmp(kind, "rc-send") || !strcmp(kind, "rc-write")) {
		FUZZ_CHECK(pnc_rc_data_decode(pkt, len, &rc) == PNC_OK);
		FIELD_IS("bth.psn", rc.bth.psn);
		FIELD_IS("payload_len", rc.payload_len);
	} else if (!strcmp(kind, "ack")) {
		FUZZ_CHECK(pnc_rc_ack_decode(pkt, len, &ack) == PNC_OK);
		FIELD_IS("aeth.syndrome", ack.aeth.syndrome);
		FIELD_IS("aeth.msn", ack.aeth.msn);
	} else if (!strncmp(kind, "cm-", 3)) {
		FUZZ_CHECK(pnc_cm_packet_decode(pkt, len, &cm) == PNC_OK);
		FIELD_IS("mad.attr_id", cm.msg.mad.attr_id);
		FIELD_IS("deth.qkey", cm.deth.qkey);
	} else if (!strcmp(kind, "long-haul-rocev2")) {
		FUZZ_CHECK(pnc_lh_roce_decode(pkt, len, o->lh_class_num, &lhr) == PNC_OK);
		FIELD_IS("bth.dqpn", lhr.dest_qp);
		FIELD_IS("lh.level", lhr.msg.block.level);
		FIELD_IS("lh.parameter", lhr.msg.block.parameter);
	} else if (!strcmp(kind, "long-haul-icmpv6")) {
		FUZZ_CHECK(pnc_lh_icmp6_decode(pkt, len, o->lh_icmp_type, o->lh_class_num, &lhi) ==
			   PNC_OK);
		FIELD_IS("icmp6.code", lhi.code);
		FIELD_IS("lh.level", lhi.msg.block.level);
		FIELD_IS("lh.src_qp", lhi.msg.block.src_qp);
	} else if (!strcmp(kind, "rate-advice")) {
		FUZZ_CHECK(pnc_rate_advice_decode(pkt, len, o->ra_opcode, &ra) == PNC_OK);
		FIELD_IS("rate_advice.rate", ra.rate_mbps);
		FIELD_IS("rate_advice.peer_qp", ra.peer_qp);
	} else if (!strcmp(kind, "notif") || !strcmp(kind, "fcn")) {
		/* --as gives the UDP payload itself */
		if (o->as == AS_AUTO) {
			FUZZ_CHECK(pnc_ipudp_parse(pkt, len, 0, &uv) == PNC_OK);
			pkt = uv.payload;
			len = uv.payload_len;
		}
		FIELD_IS("msg_len", len);
		if (!strcmp(kind, "fcn")) {
			FUZZ_CHECK(pnc_fcn_decode(pkt, len, &fcn) == PNC_OK);
			FIELD_IS("fcn.label", fcn.flow_label);
			FIELD_IS("fcn.cl", fcn.cl);
		} else {
			FUZZ_CHECK(pnc_notif_decode(pkt, len, &nt) == PNC_OK);
			FIELD_IS("notif.cl", nt.cl);
			FIELD_IS("notif.invoking_len", nt.invoking_len);
		}
	} else {
		/* ud-send, roce: the generic view, checked as the ICRC says */
		FUZZ_CHECK(pnc_roce_parse(pkt, len, 0, &v) == PNC_OK);
		FIELD_IS("bth.opcode", v.bth.opcode);
	}
#undef FIELD_IS
}

/*
 * Packets the codecs take that pnc-pkt must decode as their kind: name
 * of the kind (a prefix of it), or NULL.  Only where pnc-pkt's choice
 * is the codec's: within its size, and no configured opcode in the way.
 */
static const char *codec_kind(const struct decode_opts *o, const uint8_t *pkt, size_t len)
{
	static struct pnc_cm_packet cm;
	struct pnc_rc_data rc;
	struct pnc_rc_ack ack;
	struct pnc_roce_view v;
	struct pnc_cnp cnp;

	if (o->as != AS_AUTO || len > PKT_MAX || pnc_roce_parse(pkt, len, 0, &v) ||
	    v.pkt_len != len || v.bth.opcode == o->ra_opcode)
		return NULL;
	if (pnc_cnp_decode(pkt, len, &cnp) == PNC_OK && !(v.bth.resv6 & PNC_BTH_RESV6_EBIT))
		return "cnp";
	if (v.bth.opcode <= PNC_OP_RC_WRITE_ONLY_IMM && pnc_rc_data_decode(pkt, len, &rc) == PNC_OK)
		return "rc-";
	if (pnc_rc_ack_decode(pkt, len, &ack) == PNC_OK)
		return "ack";
	if (pnc_cm_packet_decode(pkt, len, &cm) == PNC_OK)
		return "cm-";
	return NULL;
}

/* The input as one raw packet, IP header first or in an Ethernet frame. */
static void fuzz_raw(uint8_t opt, const uint8_t *d, size_t len, bool eth)
{
	struct dec_state st;
	const char *want;
	char kind[64];
	uint64_t pkt_len;
	long n;
	size_t l;
	int ret;

	/* Against the codecs, which know no --lenient. */
	opts_of(&st, (uint8_t)((opt & ~(OPT_LENIENT | OPT_ETH)) | (eth ? OPT_ETH : 0)), EMIT_JSON);
	n = run(&st, IN_RAW, d, len, &ret);
	FUZZ_CHECK(ret == 0 && st.n == 1 && n > 0);
	check_json(&st, out_buf, (size_t)n);
	if (eth)
		return;
	l = line_len(out_buf, out_buf + n);
	want = codec_kind(&st.d, d, len);
	if (!json_get_str(out_buf, l, "kind", kind, sizeof(kind))) {
		FUZZ_CHECK(!want);
		return;
	}
	if (want)
		FUZZ_CHECK(!strncmp(kind, want, strlen(want)));
	/* The packet is as long as its IP header says; octets after it are not its. */
	if (json_get_uint(out_buf, l, "len", &pkt_len)) {
		FUZZ_CHECK(pkt_len <= len);
		len = (size_t)pkt_len;
	}
	check_kind(&st.d, kind, d, len, out_buf, l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t opt;

	if (size < 1)
		return 0;
	opt = data[0];
	data++;
	size--;
	fuzz_guessed(opt, data, size);
	fuzz_raw(opt, data, size, false);
	fuzz_raw(opt, data, size, true);
	return 0;
}
