// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pnc-tc-mark: attach the congestion point's tc egress program to an
 * interface with a fixed marking state for a while, and print what it
 * reports, one JSON object per line: each sample, then the interface's
 * and the program's counters.  A test and debugging aid; the loader itself
 * (cnpproxyd/cp/mark_tc.c) is what cnpproxyd uses, with probabilities
 * that follow the queue instead of fixed ones.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <net/if.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/tool.h"
#include "cp/mark_tc.h"

static void usage(FILE *f)
{
	fputs("usage: pnc-tc-mark --dev IFNAME [options]\n"
	      "\n"
	      "Attach the ECN marking program to IFNAME's egress (tcx, or clsact on\n"
	      "kernels without it) and print its samples and counters as JSON lines.\n"
	      "\n"
	      "  --ce-prob P            probability of CE, 0..65536 (= always; default 0)\n"
	      "  --ect1-prob P          probability that ECT(0) leaves as ECT(1) (default 0)\n"
	      "  --sample               sample ECN-capable RoCEv2 packets\n"
	      "  --sample-interval-us N per-flow minimum between samples (default 1000;\n"
	      "                         0 = every packet)\n"
	      "  --no-state             attach without a state: packets pass untouched\n"
	      "  --lifetime-ms N        the state holds N ms past each refresh (default\n"
	      "                         1000); refreshed every 100 ms while running\n"
	      "  --duration S           seconds to run (default 5; 0 = until SIGINT/SIGTERM)\n"
	      "  --tc-filter            attach a clsact filter even where tcx exists\n",
	      f);
}

static void print_addr(const char *name, uint8_t version, const uint8_t *a)
{
	char buf[INET6_ADDRSTRLEN];

	inet_ntop(version == 4 ? AF_INET : AF_INET6, a, buf, sizeof(buf));
	printf(",\"%s\":\"%s\"", name, buf);
}

static void print_hex(const char *name, const uint8_t *p, size_t len)
{
	size_t i;

	printf(",\"%s\":\"", name);
	for (i = 0; i < len; i++)
		printf("%02x", p[i]);
	printf("\"");
}

static const char *json_bool(bool b)
{
	return b ? "true" : "false";
}

static void on_sample(void *arg, const struct pnc_mark_sample *s)
{
	const struct pnc_mark_ev_hdr *h = &s->hdr;
	bool tunnelled = h->flags & PNC_MARK_F_TUNNELLED;

	(void)arg;
	printf("{\"event\":\"sample\",\"ts_ns\":%" PRIu64 ",\"ifindex\":%u,\"ip_version\":%u"
	       ",\"flags\":%u,\"tunnelled\":%s,\"routing_header\":%s,\"inner_version\":%u",
	       (uint64_t)h->ts_ns, h->ifindex, h->ip_version, h->flags, json_bool(tunnelled),
	       json_bool(h->flags & PNC_MARK_F_ROUTING),
	       tunnelled ? (h->flags & PNC_MARK_F_INNER_V6 ? 6 : 4) : 0);
	print_addr("src", h->ip_version, s->src);
	print_addr("dst", h->ip_version, s->dst);
	printf(",\"flow_label\":%u,\"ecn_in\":%u,\"ecn_out\":%u,\"inner_off\":%u,\"l4_off\":%u"
	       ",\"dest_qp\":%u,\"pkt_len\":%u,\"cap_len\":%u",
	       s->flow_label, s->ecn_in, s->ecn_out, s->inner_off, s->l4_off, s->dest_qp,
	       s->pkt_len, s->cap_len);
	print_hex("data", s->data, s->cap_len);
	printf("}\n");
}

static int parse_u64(const char *s, uint64_t max, uint64_t *v)
{
	unsigned long long n;
	char *end;

	errno = 0;
	n = strtoull(s, &end, 0);
	if (errno || end == s || *end || n > max)
		return -1;
	*v = n;
	return 0;
}

struct opts {
	const char *dev;
	struct pnc_mark_state st;
	bool no_state;
	bool tc_filter;
	uint64_t lifetime_ns;
	double duration;
};

/* 0, or 2 for a usage error (already reported). */
static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option lopts[] = {
		{ "dev", required_argument, NULL, 'D' },
		{ "ce-prob", required_argument, NULL, 'c' },
		{ "ect1-prob", required_argument, NULL, 'e' },
		{ "sample", no_argument, NULL, 's' },
		{ "sample-interval-us", required_argument, NULL, 'i' },
		{ "no-state", no_argument, NULL, 'n' },
		{ "lifetime-ms", required_argument, NULL, 'l' },
		{ "duration", required_argument, NULL, 'd' },
		{ "tc-filter", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	char *end;
	int opt;

	o->st.sample_interval_ns = 1000000;
	o->lifetime_ns = 1000000000;
	o->duration = 5;
	while ((opt = getopt_long(argc, argv, "h", lopts, NULL)) != -1) {
		switch (opt) {
		case 'D':
			o->dev = optarg;
			break;
		case 'c':
		case 'e':
			if (parse_u64(optarg, PNC_MARK_PROB_ONE, &v))
				goto bad;
			if (opt == 'c')
				o->st.ce_prob = (__u32)v;
			else
				o->st.ect1_prob = (__u32)v;
			break;
		case 's':
			o->st.sample = 1;
			break;
		case 'i':
			if (parse_u64(optarg, UINT64_MAX / 1000, &v))
				goto bad;
			o->st.sample_interval_ns = v * 1000;
			break;
		case 'n':
			o->no_state = true;
			break;
		case 'f':
			o->tc_filter = true;
			break;
		case 'l':
			/* A day at most: now + lifetime must not wrap. */
			if (parse_u64(optarg, 86400000, &v))
				goto bad;
			o->lifetime_ns = v * 1000000;
			break;
		case 'd':
			o->duration = strtod(optarg, &end);
			if (*end || o->duration < 0)
				goto bad;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			goto bad;
		}
	}
	if (!o->dev || optind != argc)
		goto bad;
	return 0;
bad:
	usage(stderr);
	return 2;
}

static void print_attached(const struct opts *o, int ifindex, const char *mode, uint32_t prog_id)
{
	printf("{\"event\":\"attached\",\"ifname\":\"%s\",\"ifindex\":%d,\"mode\":\"%s\""
	       ",\"prog_id\":%u",
	       o->dev, ifindex, mode, prog_id);
	if (o->no_state)
		printf(",\"state\":null}\n");
	else
		printf(",\"state\":{\"ce_prob\":%u,\"ect1_prob\":%u,\"sample\":%s"
		       ",\"sample_interval_ns\":%" PRIu64 "}}\n",
		       o->st.ce_prob, o->st.ect1_prob, json_bool(o->st.sample),
		       (uint64_t)o->st.sample_interval_ns);
}

static int print_counters(const struct pnc_mark_tc *mt)
{
	struct pnc_mark_counters c;
	int i;

	if (pnc_mark_tc_counters(mt, &c))
		return -1;
	printf("{\"event\":\"counters\"");
	for (i = 0; i < PNC_MARK_C_MAX; i++)
		printf(",\"%s\":%" PRIu64, pnc_mark_counter_name(i), c.v[i]);
	printf(",\"bad_records\":%" PRIu64 "}\n", pnc_mark_tc_bad_records(mt));
	return 0;
}

/* Read while attached: detach removes them. */
static void print_if_counters(const struct pnc_mark_tc *mt, int ifindex)
{
	struct pnc_mark_if_counters c;

	if (pnc_mark_tc_if_counters(mt, ifindex, &c))
		return;
	printf("{\"event\":\"if_counters\",\"ifindex\":%d,\"ecn_capable\":%" PRIu64
	       ",\"marked_ect1\":%" PRIu64 ",\"marked_ce\":%" PRIu64 ",\"roce\":%" PRIu64
	       ",\"sampled\":%" PRIu64 "}\n",
	       ifindex, (uint64_t)c.ecn_capable, (uint64_t)c.marked_ect1, (uint64_t)c.marked_ce,
	       (uint64_t)c.roce, (uint64_t)c.sampled);
}

/* Write the state with a fresh lifetime, as cnpproxyd does every poll. */
static int refresh(struct pnc_mark_tc *mt, int ifindex, struct opts *o)
{
	if (o->no_state)
		return 0;
	o->st.valid_until_ns = pnc_mark_tc_now_ns() + o->lifetime_ns;
	return pnc_mark_tc_set_state(mt, ifindex, &o->st);
}

static int run(struct pnc_mark_tc *mt, int ifindex, struct opts *o)
{
	double end = pnc_tool_now_s() + o->duration;

	while (!pnc_tool_stop && (o->duration == 0 || pnc_tool_now_s() < end)) {
		int n = pnc_mark_tc_poll(mt, 100);

		if (n < 0 && n != -EINTR) {
			fprintf(stderr, "pnc-tc-mark: ring buffer: %s\n", strerror(-n));
			return 1;
		}
		n = refresh(mt, ifindex, o);
		if (n) {
			fprintf(stderr, "pnc-tc-mark: state: %s\n", strerror(-n));
			return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = {};
	struct pnc_mark_tc *mt;
	int ifindex, err, rv;

	rv = parse_args(argc, argv, &o);
	if (rv)
		return rv;
	ifindex = (int)if_nametoindex(o.dev);
	if (!ifindex) {
		fprintf(stderr, "pnc-tc-mark: %s: no such interface\n", o.dev);
		return 1;
	}

	/* The test reads our output through a pipe while we run. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	pnc_tool_stop_on(SIGINT, true);
	pnc_tool_stop_on(SIGTERM, true);

	mt = pnc_mark_tc_open(on_sample, NULL);
	if (!mt) {
		fprintf(stderr, "pnc-tc-mark: loading the tc program: %s\n", strerror(errno));
		return 1;
	}
	if (o.tc_filter)
		pnc_mark_tc_filter_only(mt);
	err = pnc_mark_tc_attach(mt, ifindex);
	if (!err)
		err = refresh(mt, ifindex, &o);
	if (err) {
		fprintf(stderr, "pnc-tc-mark: attaching to %s: %s\n", o.dev, strerror(-err));
		pnc_mark_tc_close(mt);
		return 1;
	}
	print_attached(&o, ifindex, pnc_mark_tc_mode(mt, ifindex), pnc_mark_tc_prog_id(mt));

	rv = run(mt, ifindex, &o);
	print_if_counters(mt, ifindex);

	/* Detach first so that the counters match the samples drained below. */
	err = pnc_mark_tc_detach(mt, ifindex);
	if (err) {
		fprintf(stderr, "pnc-tc-mark: detaching from %s: %s\n", o.dev, strerror(-err));
		rv = 1;
	}
	pnc_mark_tc_poll(mt, 0);
	if (print_counters(mt))
		rv = 1;
	pnc_mark_tc_close(mt);
	return rv;
}
