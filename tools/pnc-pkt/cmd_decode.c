// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pnc-pkt decode: read packets (hex lines, one raw packet, or a pcap
 * file), decode each and print JSON lines or text.  Exit status 1 if
 * any packet is invalid, 2 on usage or I/O errors.
 */
#include <stdlib.h>
#include <string.h>

#include "pnc_pkt.h"

static void report(struct dec_state *st, int err)
{
	const char *why = pkt_strerror(err);

	if (st->fmt == EMIT_JSON)
		fprintf(st->out, "{\"packet\":%lu,\"error\":\"%s\"}\n", st->n, why);
	else
		fprintf(st->out, "packet %lu: error: %s\n\n", st->n, why);
	fprintf(st->err, "pnc-pkt: packet %lu: %s\n", st->n, why);
	st->bad++;
}

/* One frame: linktype says where its IP header starts. */
static void one(struct dec_state *st, uint32_t linktype, const uint8_t *p, size_t len)
{
	struct emit e = { .f = st->out, .fmt = st->fmt };
	size_t off = 0;
	int ret = 0;

	st->n++;
	if (st->d.as == AS_AUTO)
		ret = link_ip_offset(linktype, p, len, &off);
	if (!ret)
		ret = decode_packet(p + off, len - off, &st->d, &e);
	if (ret)
		report(st, ret);
}

static int read_all(FILE *f, uint8_t **buf, size_t *len)
{
	size_t cap = 65536, n = 0, r;
	uint8_t *b = malloc(cap), *nb;

	if (!b)
		return -1;
	while ((r = fread(b + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			nb = realloc(b, cap * 2);
			if (!nb) {
				free(b);
				return -1;
			}
			b = nb;
			cap *= 2;
		}
	}
	if (ferror(f)) {
		free(b);
		return -1;
	}
	*buf = b;
	*len = n;
	return 0;
}

static bool looks_pcap(const uint8_t *b, size_t len)
{
	static const uint8_t m[4][4] = { { 0xd4, 0xc3, 0xb2, 0xa1 },
					 { 0xa1, 0xb2, 0xc3, 0xd4 },
					 { 0x4d, 0x3c, 0xb2, 0xa1 },
					 { 0xa1, 0xb2, 0x3c, 0x4d } };
	int i;

	for (i = 0; len >= 4 && i < 4; i++)
		if (!memcmp(b, m[i], 4))
			return true;
	return false;
}

/* Hex digits and separators, and comments of any text (but NUL) up to the line's end. */
static bool looks_hex(const uint8_t *b, size_t len)
{
	bool comment = false;
	size_t i;

	for (i = 0; i < len; i++) {
		if (b[i] == '#' || b[i] == '\n')
			comment = b[i] == '#';
		else if (!b[i] || (!comment && !strchr("0123456789abcdefABCDEFxX \t\r:", b[i])))
			return false;
	}
	return true;
}

/* One packet per line; blank lines and #-comments are skipped. */
static int decode_hex(struct dec_state *st, char *text, uint32_t linktype)
{
	static uint8_t pkt[PKT_MAX];
	char *line, *save = NULL, *hash;
	size_t len;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		line[strcspn(line, "\r")] = '\0';
		if (strspn(line, " \t") == strlen(line))
			continue;
		if (parse_hex(line, pkt, sizeof(pkt), &len)) {
			fprintf(st->err, "pnc-pkt: line is not hex: %.40s\n", line);
			return -1;
		}
		one(st, linktype, pkt, len);
	}
	return 0;
}

static int decode_pcap(struct dec_state *st, FILE *f)
{
	static uint8_t frame[65536];
	struct pcap_reader r;
	size_t len;
	int ret;

	if (pcap_open(&r, f)) {
		fprintf(st->err, "pnc-pkt: not a pcap file (pcapng is not supported)\n");
		return -1;
	}
	while ((ret = pcap_next(&r, frame, sizeof(frame), &len)) > 0)
		one(st, r.linktype, frame, len);
	if (ret < 0) {
		fprintf(st->err, "pnc-pkt: truncated pcap record\n");
		return -1;
	}
	return 0;
}

int decode_input(struct dec_state *st, enum in_fmt in, const uint8_t *buf, size_t len)
{
	static const uint8_t none[1]; /* fmemopen() wants a buffer of an octet or more */
	uint32_t linktype = st->eth ? LINKTYPE_ETHERNET : LINKTYPE_RAW;
	char *text;
	FILE *m;
	int ret;

	if (in == IN_AUTO)
		in = looks_pcap(buf, len) ? IN_PCAP : looks_hex(buf, len) ? IN_HEX : IN_RAW;
	if (in == IN_PCAP) {
		m = fmemopen((void *)(len ? buf : none), len ? len : 1, "rb");
		ret = m ? decode_pcap(st, m) : -1;
		if (m)
			fclose(m);
		return ret;
	}
	if (in == IN_HEX) {
		/* strtok_r() cuts the lines in place and wants a NUL after the last */
		text = malloc(len + 1);
		if (!text)
			return -1;
		memcpy(text, buf, len);
		text[len] = '\0';
		ret = decode_hex(st, text, linktype);
		free(text);
		return ret;
	}
	one(st, linktype, buf, len);
	return 0;
}

static int parse_port(const char *s, uint16_t *port)
{
	uint64_t n;

	if (parse_u64(s, 0xffff, &n))
		return -1;
	*port = (uint16_t)n;
	return 0;
}

static int parse_octet(const char *s, uint8_t *v)
{
	uint64_t n;

	if (parse_u64(s, 0xff, &n))
		return -1;
	*v = (uint8_t)n;
	return 0;
}

int cmd_decode(int argc, char **argv)
{
	struct dec_state st = { .fmt = EMIT_JSON, .out = stdout, .err = stderr };
	enum in_fmt in = IN_AUTO;
	const char *file = "-";
	uint8_t *buf = NULL;
	size_t len;
	FILE *f;
	int i, ret = 0;

	decode_opts_init(&st.d);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage_decode(stdout);
			return 0;
		} else if (!strcmp(a, "--format") && (!strcmp(v, "json") || !strcmp(v, "text"))) {
			st.fmt = strcmp(v, "json") ? EMIT_TEXT : EMIT_JSON;
			i++;
		} else if (!strcmp(a, "--input") &&
			   (!strcmp(v, "hex") || !strcmp(v, "pcap") || !strcmp(v, "raw"))) {
			in = !strcmp(v, "hex") ? IN_HEX : !strcmp(v, "pcap") ? IN_PCAP : IN_RAW;
			i++;
		} else if (!strcmp(a, "--as") && (!strcmp(v, "notif") || !strcmp(v, "fcn"))) {
			st.d.as = strcmp(v, "fcn") ? AS_NOTIF : AS_FCN;
			i++;
		} else if (!strcmp(a, "--notif-port") && !parse_port(v, &st.d.notif_port)) {
			i++;
		} else if (!strcmp(a, "--fcn-port") && !parse_port(v, &st.d.fcn_port)) {
			i++;
		} else if (!strcmp(a, "--notif-icmp-type") &&
			   !parse_octet(v, &st.d.notif_icmp_type)) {
			i++;
		} else if (!strcmp(a, "--notif-icmpv6-type") &&
			   !parse_octet(v, &st.d.notif_icmp6_type)) {
			i++;
		} else if (!strcmp(a, "--lh-icmp-type") && !parse_octet(v, &st.d.lh_icmp_type)) {
			i++;
		} else if (!strcmp(a, "--lh-class-num") && !parse_octet(v, &st.d.lh_class_num)) {
			i++;
		} else if (!strcmp(a, "--ra-opcode") && !parse_octet(v, &st.d.ra_opcode)) {
			i++;
		} else if (!strcmp(a, "--lenient")) {
			st.d.lenient = true;
		} else if (!strcmp(a, "--hex")) {
			st.d.with_hex = true;
		} else if (!strcmp(a, "--eth")) {
			st.eth = true;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "pnc-pkt: bad option %s (see pnc-pkt decode --help)\n", a);
			return 2;
		} else {
			file = a;
		}
	}

	f = strcmp(file, "-") ? fopen(file, "rb") : stdin;
	if (!f) {
		perror(file);
		return 2;
	}
	if (read_all(f, &buf, &len)) {
		perror(file);
		ret = -1;
	} else {
		ret = decode_input(&st, in, buf, len);
	}
	free(buf);
	if (f != stdin)
		fclose(f);
	if (ret)
		return 2;
	if (!st.n) {
		fprintf(stderr, "pnc-pkt: no packet in the input\n");
		return 1;
	}
	return st.bad ? 1 : 0;
}
