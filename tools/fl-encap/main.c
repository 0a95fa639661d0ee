// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pnc-fl-encap: run the seed 001 ingress-PE data path for a while.
 * Attaches the flow-label encapsulation to an interface's egress (and
 * optionally the decapsulation to ingresses), and prints, one JSON
 * object per line: the flow/label table (periodically, on SIGUSR1 and
 * at exit), aged flows, FCNs received and resolved to their flow, and
 * the counters at exit.  A test and debugging aid; the loader itself
 * (cnpproxyd/tunnel/tunnel_tc.c) is what cnpproxyd uses.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "common/tool.h"
#include "codec/notif.h"
#include "tunnel/tunnel_tc.h"

#define MAX_ITEMS 16

static volatile sig_atomic_t stop, dump_now;

struct tunnel_arg {
	int family;
	uint8_t prefix[16];
	unsigned int plen;
	uint8_t dst[16];
};

struct opts {
	const char *devs[MAX_ITEMS];
	int ndevs;
	const char *decap_devs[MAX_ITEMS];
	int ndecap_devs;
	struct tunnel_arg tunnels[MAX_ITEMS];
	int ntunnels;
	uint8_t sids[MAX_ITEMS][16];
	int nsids;
	struct pnc_tunnel_cfg cfg;
	bool have_src;
	double duration;
	bool dump;
	unsigned int dump_ms;
	unsigned int age_s;
	unsigned int fcn_port;
};

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		dump_now = 1;
	else
		stop = 1;
}

static void usage(FILE *f)
{
	fputs("usage: pnc-fl-encap --dev IF --src ADDR6 --tunnel PREFIX=DST6... [options]\n"
	      "       pnc-fl-encap --decap-dev IF --sid ADDR6... [options]\n"
	      "\n"
	      "Seed 001 ingress PE: per-flow Flow Label IPv6 encapsulation (tc egress).\n"
	      "Prints the flow/label table, FCNs and counters as JSON lines.\n"
	      "\n"
	      "  --dev IF              encapsulate on IF's egress (repeatable)\n"
	      "  --src ADDR6           outer source: this PE, where FCNs are sent\n"
	      "  --tunnel PREFIX=DST6  tunnel inner destinations in PREFIX (IPv4 or IPv6)\n"
	      "                        to the outer destination DST6 (repeatable)\n"
	      "  --other-label M       non-RoCE packets: hash (default) or zero\n"
	      "  --hop-limit N         outer hop limit (default 64)\n"
	      "  --decap-dev IF        decapsulate on IF's ingress (repeatable)\n"
	      "  --sid ADDR6           outer destination decapsulated there (repeatable)\n"
	      "  --fcn-port N          resolve seed 001 FCNs received on UDP N (0 = off)\n"
	      "  --age S               forget flows idle for S seconds (default 0 = never)\n"
	      "  --dump                print the table every --dump-ms, not only at exit\n"
	      "  --dump-ms N           (default 1000); SIGUSR1 prints it at once\n"
	      "  --duration S          seconds to run (default 5; 0 = until SIGINT/SIGTERM)\n",
	      f);
}

static int parse_addr6(const char *s, uint8_t a[16])
{
	return inet_pton(AF_INET6, s, a) == 1 ? 0 : -1;
}

/* PREFIX=DST6, PREFIX as a.b.c.d/n or x::y/n. */
static int parse_tunnel(const char *arg, struct tunnel_arg *t)
{
	char buf[128], *eq, *slash, *end;
	unsigned long plen;

	if (strlen(arg) >= sizeof(buf))
		return -1;
	strcpy(buf, arg);
	eq = strchr(buf, '=');
	if (!eq)
		return -1;
	*eq = '\0';
	if (parse_addr6(eq + 1, t->dst))
		return -1;
	slash = strchr(buf, '/');
	if (slash)
		*slash = '\0';
	memset(t->prefix, 0, sizeof(t->prefix));
	if (inet_pton(AF_INET, buf, t->prefix) == 1)
		t->family = 4;
	else if (inet_pton(AF_INET6, buf, t->prefix) == 1)
		t->family = 6;
	else
		return -1;
	plen = t->family == 4 ? 32 : 128;
	if (slash) {
		errno = 0;
		plen = strtoul(slash + 1, &end, 10);
		if (errno || *end || plen > (t->family == 4 ? 32UL : 128UL))
			return -1;
	}
	t->plen = (unsigned int)plen;
	return 0;
}

static int parse_uint(const char *s, unsigned long max, unsigned int *out)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || *end || v > max)
		return -1;
	*out = (unsigned int)v;
	return 0;
}

/* 0, 1 for --help, -1 on a usage error. */
static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option lopts[] = {
		{ "dev", required_argument, NULL, 'd' },
		{ "src", required_argument, NULL, 's' },
		{ "tunnel", required_argument, NULL, 't' },
		{ "other-label", required_argument, NULL, 'o' },
		{ "hop-limit", required_argument, NULL, 'l' },
		{ "decap-dev", required_argument, NULL, 'D' },
		{ "sid", required_argument, NULL, 'S' },
		{ "fcn-port", required_argument, NULL, 'f' },
		{ "age", required_argument, NULL, 'a' },
		{ "dump", no_argument, NULL, 'p' },
		{ "dump-ms", required_argument, NULL, 'm' },
		{ "duration", required_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int v;
	int opt;

	while ((opt = getopt_long(argc, argv, "h", lopts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			if (o->ndevs == MAX_ITEMS)
				return -1;
			o->devs[o->ndevs++] = optarg;
			break;
		case 's':
			if (parse_addr6(optarg, o->cfg.src))
				return -1;
			o->have_src = true;
			break;
		case 't':
			if (o->ntunnels == MAX_ITEMS ||
			    parse_tunnel(optarg, &o->tunnels[o->ntunnels]))
				return -1;
			o->ntunnels++;
			break;
		case 'o':
			if (!strcmp(optarg, "hash"))
				o->cfg.other_label = PNC_TUNNEL_OTHER_HASH;
			else if (!strcmp(optarg, "zero"))
				o->cfg.other_label = PNC_TUNNEL_OTHER_ZERO;
			else
				return -1;
			break;
		case 'l':
			if (parse_uint(optarg, 255, &v) || !v)
				return -1;
			o->cfg.hop_limit = (uint8_t)v;
			break;
		case 'D':
			if (o->ndecap_devs == MAX_ITEMS)
				return -1;
			o->decap_devs[o->ndecap_devs++] = optarg;
			break;
		case 'S':
			if (o->nsids == MAX_ITEMS || parse_addr6(optarg, o->sids[o->nsids]))
				return -1;
			o->nsids++;
			break;
		case 'f':
			if (parse_uint(optarg, 65535, &o->fcn_port))
				return -1;
			break;
		case 'a':
			if (parse_uint(optarg, 86400 * 365, &o->age_s))
				return -1;
			break;
		case 'p':
			o->dump = true;
			break;
		case 'm':
			if (parse_uint(optarg, 3600 * 1000, &o->dump_ms) || !o->dump_ms)
				return -1;
			break;
		case 'u':
			o->duration = strtod(optarg, NULL);
			if (o->duration < 0)
				return -1;
			break;
		case 'h':
			return 1;
		default:
			return -1;
		}
	}
	if (optind != argc || (!o->ndevs && !o->ndecap_devs))
		return -1;
	if (o->ndevs && (!o->have_src || !o->ntunnels))
		return -1;
	if (o->ndecap_devs && !o->nsids)
		return -1;
	return 0;
}

static void print_flow_fields(const struct pnc_tunnel_flow *f)
{
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
	int af = f->ip_version == 4 ? AF_INET : AF_INET6;
	double idle = pnc_tool_now_s() - (double)f->last_ns / 1e9;

	inet_ntop(af, f->src, src, sizeof(src));
	inet_ntop(af, f->dst, dst, sizeof(dst));
	printf("\"label\":%u,\"ip_version\":%u,\"src\":\"%s\",\"dst\":\"%s\",\"dest_qp\":%u"
	       ",\"pkey\":%u,\"sport\":%u,\"pkts\":%" PRIu64 ",\"bytes\":%" PRIu64
	       ",\"idle_ms\":%.0f",
	       f->label, f->ip_version, src, dst, f->dest_qp, f->pkey, f->sport, f->pkts, f->bytes,
	       idle > 0 ? idle * 1e3 : 0);
}

static int print_flow(void *arg, const struct pnc_tunnel_flow *f)
{
	int *n = arg;

	printf("{\"event\":\"flow\",");
	print_flow_fields(f);
	printf("}\n");
	(*n)++;
	return 0;
}

static int print_aged(void *arg, const struct pnc_tunnel_flow *f)
{
	(void)arg;
	printf("{\"event\":\"aged\",");
	print_flow_fields(f);
	printf("}\n");
	return 0;
}

/* The flow lines, then a "dump" line that closes them. */
static void dump_table(const struct pnc_tunnel_tc *fe)
{
	int n = 0, rv = pnc_tunnel_for_each_flow(fe, print_flow, &n);

	if (rv < 0)
		printf("{\"event\":\"dump\",\"flows\":%d,\"error\":\"%s\"}\n", n, strerror(-rv));
	else
		printf("{\"event\":\"dump\",\"flows\":%d}\n", n);
}

/* Dual-stack UDP socket for FCNs, or -1. */
static int open_fcn_socket(unsigned int port)
{
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6, .sin6_port = htons(port) };
	int fd = socket(AF_INET6, SOCK_DGRAM | SOCK_NONBLOCK, 0), off = 0;

	if (fd < 0)
		return -1;
	setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off));
	if (bind(fd, (struct sockaddr *)&sin6, sizeof(sin6)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* What the proxy does with an FCN: label -> flow (doc/wire-formats.md 6.3). */
static void handle_fcn(const struct pnc_tunnel_tc *fe, int fd)
{
	struct sockaddr_in6 from;
	socklen_t flen = sizeof(from);
	char addr[INET6_ADDRSTRLEN];
	struct pnc_tunnel_flow f;
	struct pnc_fcn fcn;
	uint8_t buf[64];
	ssize_t n;
	int rv;

	while ((n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from, &flen)) >= 0) {
		inet_ntop(AF_INET6, &from.sin6_addr, addr, sizeof(addr));
		printf("{\"event\":\"fcn\",\"from\":\"%s\"", addr);
		rv = pnc_fcn_decode(buf, (size_t)n, &fcn);
		if (rv) {
			printf(",\"error\":\"%s\"}\n", pnc_codec_strerror(rv));
		} else {
			printf(",\"fcn_label\":%u,\"cl\":%u", fcn.flow_label, fcn.cl);
			rv = pnc_tunnel_lookup_label(fe, fcn.flow_label, &f);
			if (rv) {
				printf(",\"error\":\"%s\"}\n", strerror(-rv));
			} else {
				printf(",\"flow\":{");
				print_flow_fields(&f);
				printf("}}\n");
			}
		}
		flen = sizeof(from);
	}
}

static void print_counters(const struct pnc_tunnel_tc *fe)
{
	struct pnc_tunnel_counters c;
	int i;

	if (pnc_tunnel_counters(fe, &c))
		return;
	printf("{\"event\":\"counters\"");
	for (i = 0; i < PNC_TUNNEL_C_MAX; i++)
		printf(",\"%s\":%" PRIu64, pnc_tunnel_counter_name(i), c.v[i]);
	printf("}\n");
}

static int configure(struct pnc_tunnel_tc *fe, const struct opts *o)
{
	int i, err;

	for (i = 0; i < o->ntunnels; i++) {
		const struct tunnel_arg *t = &o->tunnels[i];

		err = pnc_tunnel_add_tunnel(fe, t->family, t->prefix, t->plen, t->dst, 0, NULL);
		if (err) {
			fprintf(stderr, "pnc-fl-encap: adding a tunnel: %s\n", strerror(-err));
			return -1;
		}
	}
	for (i = 0; i < o->nsids; i++) {
		err = pnc_tunnel_add_sid(fe, o->sids[i]);
		if (err) {
			fprintf(stderr, "pnc-fl-encap: adding a SID: %s\n", strerror(-err));
			return -1;
		}
	}
	return 0;
}

/* Where we attached, to detach before the final table and counters. */
static struct {
	int ifindex;
	bool decap;
} attached[2 * MAX_ITEMS];
static int nattached;

static int attach_one(struct pnc_tunnel_tc *fe, const char *name, bool decap)
{
	int ifindex = (int)if_nametoindex(name), err;

	if (!ifindex) {
		fprintf(stderr, "pnc-fl-encap: %s: no such interface\n", name);
		return -1;
	}
	err = decap ? pnc_tunnel_attach_decap(fe, ifindex) : pnc_tunnel_attach(fe, ifindex);
	if (err) {
		fprintf(stderr, "pnc-fl-encap: attaching to %s: %s\n", name, strerror(-err));
		return -1;
	}
	attached[nattached].ifindex = ifindex;
	attached[nattached++].decap = decap;
	printf("{\"event\":\"attached\",\"ifname\":\"%s\",\"ifindex\":%d,\"hook\":\"%s\"}\n", name,
	       ifindex, decap ? "ingress" : "egress");
	return 0;
}

static int attach_all(struct pnc_tunnel_tc *fe, const struct opts *o)
{
	int i;

	for (i = 0; i < o->ndevs; i++)
		if (attach_one(fe, o->devs[i], false))
			return -1;
	for (i = 0; i < o->ndecap_devs; i++)
		if (attach_one(fe, o->decap_devs[i], true))
			return -1;
	return 0;
}

static void detach_all(struct pnc_tunnel_tc *fe)
{
	while (nattached) {
		nattached--;
		if (attached[nattached].decap)
			pnc_tunnel_detach_decap(fe, attached[nattached].ifindex);
		else
			pnc_tunnel_detach(fe, attached[nattached].ifindex);
	}
}

static void run(struct pnc_tunnel_tc *fe, const struct opts *o, int fcn_fd)
{
	double now = pnc_tool_now_s();
	double end = now + o->duration, next_dump = now + o->dump_ms / 1e3, next_age = now + 1;
	struct pollfd pfd = { .fd = fcn_fd, .events = POLLIN };

	while (!stop && (o->duration == 0 || pnc_tool_now_s() < end)) {
		if (poll(&pfd, fcn_fd >= 0 ? 1 : 0, 100) > 0)
			handle_fcn(fe, fcn_fd);
		if (dump_now || (o->dump && pnc_tool_now_s() >= next_dump)) {
			dump_now = 0;
			next_dump = pnc_tool_now_s() + o->dump_ms / 1e3;
			dump_table(fe);
		}
		if (o->age_s && pnc_tool_now_s() >= next_age) {
			next_age = pnc_tool_now_s() + 1;
			pnc_tunnel_age(fe, o->age_s, print_aged, NULL);
		}
	}
}

int main(int argc, char **argv)
{
	struct opts o = {
		.cfg = { .hop_limit = PNC_TUNNEL_HOP_LIMIT, .other_label = PNC_TUNNEL_OTHER_HASH },
		.duration = 5,
		.dump_ms = 1000,
	};
	struct pnc_tunnel_tc *fe;
	int rv = 0, fcn_fd = -1;

	switch (parse_args(argc, argv, &o)) {
	case 0:
		break;
	case 1:
		usage(stdout);
		return 0;
	default:
		usage(stderr);
		return 2;
	}

	/* The test reads our output through a pipe while we run. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGUSR1, on_signal);

	fe = pnc_tunnel_open(&o.cfg);
	if (!fe) {
		fprintf(stderr, "pnc-fl-encap: loading the tc programs: %s\n", strerror(errno));
		return 1;
	}
	if (o.fcn_port) {
		fcn_fd = open_fcn_socket(o.fcn_port);
		if (fcn_fd < 0) {
			fprintf(stderr, "pnc-fl-encap: UDP port %u: %s\n", o.fcn_port,
				strerror(errno));
			pnc_tunnel_close(fe);
			return 1;
		}
	}
	if (configure(fe, &o) || attach_all(fe, &o)) {
		rv = 1;
	} else {
		run(fe, &o, fcn_fd);
		/* Detach first so that the counters and the table stay put. */
		detach_all(fe);
		dump_table(fe);
		print_counters(fe);
	}
	if (fcn_fd >= 0)
		close(fcn_fd);
	pnc_tunnel_close(fe);
	return rv;
}
