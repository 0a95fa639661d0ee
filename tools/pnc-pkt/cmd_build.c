// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pnc-pkt build: options, --count/--vary/--random, and the output of
 * the packets as hex lines, raw octets, pcap or decoded JSON.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "pnc_pkt.h"

enum out_fmt { OUT_HEX, OUT_RAW, OUT_PCAP, OUT_JSON };

#define MAX_ARGS 256

struct build_opts {
	enum pkt_kind kind;
	enum out_fmt out;
	const char *pcap_file;
	bool eth;
	bool v6;
	unsigned long count;
	bool random;
	uint64_t seed;
	const char *fields[MAX_ARGS]; /* name=value */
	int nfields;
	const char *vary[MAX_ARGS]; /* name=start:step */
	int nvary;
};

static int parse_opts(int argc, char **argv, struct build_opts *o)
{
	uint64_t n;
	int i;

	memset(o, 0, sizeof(*o));
	o->count = 1;
	o->kind = K_NKINDS;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage_build(stdout);
			exit(0);
		} else if (!strcmp(a, "--out") && i + 1 < argc) {
			a = argv[++i];
			if (!strcmp(a, "hex"))
				o->out = OUT_HEX;
			else if (!strcmp(a, "raw"))
				o->out = OUT_RAW;
			else if (!strcmp(a, "json"))
				o->out = OUT_JSON;
			else if (!strcmp(a, "pcap") && i + 1 < argc) {
				o->out = OUT_PCAP;
				o->pcap_file = argv[++i];
			} else {
				fprintf(stderr, "pnc-pkt: --out hex|raw|json|pcap FILE\n");
				return -1;
			}
		} else if (!strcmp(a, "--eth")) {
			o->eth = true;
		} else if (!strcmp(a, "-6")) {
			o->v6 = true;
		} else if (!strcmp(a, "-4")) {
			o->v6 = false;
		} else if (!strcmp(a, "--count") && i + 1 < argc) {
			if (parse_u64(argv[++i], 100000000, &n) || !n) {
				fprintf(stderr, "pnc-pkt: bad --count\n");
				return -1;
			}
			o->count = (unsigned long)n;
		} else if (!strcmp(a, "--random") && i + 1 < argc) {
			if (parse_u64(argv[++i], UINT64_MAX, &o->seed)) {
				fprintf(stderr, "pnc-pkt: bad --random seed\n");
				return -1;
			}
			o->random = true;
		} else if (!strcmp(a, "--vary") && i + 1 < argc) {
			if (o->nvary == MAX_ARGS || !strchr(argv[i + 1], '=') ||
			    !strchr(argv[i + 1], ':')) {
				fprintf(stderr, "pnc-pkt: --vary FIELD=START:STEP\n");
				return -1;
			}
			o->vary[o->nvary++] = argv[++i];
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "pnc-pkt: unknown option %s\n", a);
			return -1;
		} else if (o->kind == K_NKINDS) {
			if (kind_parse(a, &o->kind)) {
				fprintf(stderr, "pnc-pkt: unknown kind %s\n", a);
				return -1;
			}
		} else if (o->nfields < MAX_ARGS) {
			o->fields[o->nfields++] = a;
		}
	}
	if (o->kind == K_NKINDS) {
		usage_build(stderr);
		return -1;
	}
	return 0;
}

/* name=value, or a bare RC variant word (first, middle, last, only). */
static int apply(struct pkt_spec *s, const char *arg)
{
	char name[64];
	const char *eq = strchr(arg, '=');

	if (!eq)
		return spec_set(s, "variant", arg);
	if ((size_t)(eq - arg) >= sizeof(name)) {
		fprintf(stderr, "pnc-pkt: bad field %s\n", arg);
		return -1;
	}
	memcpy(name, arg, (size_t)(eq - arg));
	name[eq - arg] = '\0';
	return spec_set(s, name, eq + 1);
}

/* --vary NAME=START:STEP for packet i: numbers or IP addresses. */
static int apply_vary(struct pkt_spec *s, const char *arg, unsigned long i)
{
	char name[64], start[64], val[80];
	const char *eq = strchr(arg, '='), *colon = strrchr(arg, ':');
	uint8_t a[16], ver;
	long long step;
	uint64_t n;
	uint32_t low;
	char *end;

	if ((size_t)(eq - arg) >= sizeof(name) || colon < eq ||
	    (size_t)(colon - eq - 1) >= sizeof(start))
		return -1;
	memcpy(name, arg, (size_t)(eq - arg));
	name[eq - arg] = '\0';
	memcpy(start, eq + 1, (size_t)(colon - eq - 1));
	start[colon - eq - 1] = '\0';
	step = strtoll(colon + 1, &end, 0);
	if (*end)
		return -1;
	if (!parse_addr(start, a, &ver)) {
		int off = ver == 4 ? 0 : 12;

		low = (uint32_t)a[off] << 24 | (uint32_t)a[off + 1] << 16 |
		      (uint32_t)a[off + 2] << 8 | a[off + 3];
		low += (uint32_t)((long long)i * step);
		a[off] = (uint8_t)(low >> 24), a[off + 1] = (uint8_t)(low >> 16);
		a[off + 2] = (uint8_t)(low >> 8), a[off + 3] = (uint8_t)low;
		inet_ntop(ver == 4 ? AF_INET : AF_INET6, a, val, sizeof(val));
	} else {
		if (parse_u64(start, UINT64_MAX, &n))
			return -1;
		snprintf(val, sizeof(val), "%llu",
			 (unsigned long long)(n + (uint64_t)((long long)i * step)));
	}
	return spec_set(s, name, val);
}

static void print_hex(const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		printf("%02x", p[i]);
	putchar('\n');
}

static void print_json(const struct pkt_spec *s, const uint8_t *pkt, size_t len)
{
	struct decode_opts d;
	struct emit e = { .f = stdout, .fmt = EMIT_JSON };
	int ret;

	decode_opts_init(&d);
	d.lenient = true;
	d.with_hex = true;
	/* decode with the code points the packet was built with */
	if (KM(s->kind) & KM_LH) {
		d.lh_icmp_type = s->icmp_type;
		d.lh_class_num = s->lh.ext.class_num;
	}
	if (s->kind == K_RATE_ADVICE)
		d.ra_opcode = s->bth.opcode;
	if (s->kind == K_NOTIF) {
		d.notif_port = s->ip.dport;
		if (s->icmp_type)
			d.notif_icmp_type = d.notif_icmp6_type = s->icmp_type;
	}
	if (s->kind == K_FCN)
		d.fcn_port = s->ip.dport;
	if (s->bare)
		d.as = s->kind == K_FCN ? AS_FCN : AS_NOTIF;
	ret = decode_packet(pkt, len, &d, &e);
	if (ret) {
		printf("{\"kind\":\"%s\",\"error\":\"%s\",\"hex\":\"", kind_name(s->kind),
		       pkt_strerror(ret));
		for (size_t i = 0; i < len; i++)
			printf("%02x", pkt[i]);
		printf("\"}\n");
	}
}

static int build_one(const struct build_opts *o, struct pkt_spec *s, unsigned long i, uint64_t *rng)
{
	int j;

	spec_init(s, o->kind, o->kind == K_FCN || o->kind == K_LH_ICMP6 || o->v6 ? 6 : 4);
	/* the IP version first: it decides the random and default addresses */
	for (j = 0; j < o->nfields; j++)
		if ((!strncmp(o->fields[j], "ip=", 3) || !strncmp(o->fields[j], "version=", 8)) &&
		    apply(s, o->fields[j]))
			return -1;
	if (o->random)
		spec_randomize(s, rng);
	for (j = 0; j < o->nfields; j++)
		if (apply(s, o->fields[j]))
			return -1;
	for (j = 0; j < o->nvary; j++)
		if (apply_vary(s, o->vary[j], i)) {
			fprintf(stderr, "pnc-pkt: bad --vary %s\n", o->vary[j]);
			return -1;
		}
	return 0;
}

int cmd_build(int argc, char **argv)
{
	static uint8_t pkt[PKT_MAX], frame[PKT_MAX + 14];
	struct build_opts o;
	struct pkt_spec *s;
	FILE *pcap = NULL;
	uint64_t rng;
	unsigned long i;
	const uint8_t *out;
	size_t outlen;
	int ret = 0, len;

	if (parse_opts(argc, argv, &o))
		return 2;
	rng = o.seed;
	s = calloc(1, sizeof(*s));
	if (!s)
		return 2;
	if (o.out == OUT_PCAP) {
		pcap = strcmp(o.pcap_file, "-") ? fopen(o.pcap_file, "wb") : stdout;
		if (!pcap || pcap_write_header(pcap, o.eth ? LINKTYPE_ETHERNET : LINKTYPE_RAW)) {
			perror(o.pcap_file);
			free(s);
			return 2;
		}
	}
	for (i = 0; i < o.count && !ret; i++) {
		if (build_one(&o, s, i, &rng)) {
			ret = 2;
			break;
		}
		len = build_packet(s, pkt, sizeof(pkt));
		if (len < 0) {
			fprintf(stderr, "pnc-pkt: cannot build %s: %s\n", kind_name(o.kind),
				pkt_strerror(len));
			ret = 2;
			break;
		}
		if (s->bare && o.out == OUT_PCAP) {
			fprintf(stderr, "pnc-pkt: bare=1 has no IP header for a pcap\n");
			ret = 2;
			break;
		}
		out = pkt;
		outlen = (size_t)len;
		if (o.eth && !s->bare) {
			outlen = eth_wrap(pkt, outlen, frame, sizeof(frame));
			out = frame;
		}
		switch (o.out) {
		case OUT_HEX:
			print_hex(out, outlen);
			break;
		case OUT_RAW:
			fwrite(out, 1, outlen, stdout);
			break;
		case OUT_JSON:
			print_json(s, pkt, (size_t)len);
			break;
		case OUT_PCAP:
			if (pcap_write_packet(pcap, out, outlen, 1700000000 + (uint32_t)(i / 1000),
					      (uint32_t)(i % 1000) * 1000)) {
				perror(o.pcap_file);
				ret = 2;
			}
			break;
		}
		spec_free(s);
	}
	spec_free(s);
	free(s);
	if (pcap && pcap != stdout && fclose(pcap)) {
		perror(o.pcap_file);
		ret = 2;
	}
	if (fflush(stdout))
		ret = 2;
	return ret;
}
