// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pnc-qmon: read an interface's root qdisc every interval and print each
 * sample with the rates derived from the previous one, one JSON object
 * per line.  A test and debugging aid for the queue monitor that
 * cnpproxyd's congestion-point role uses (cnpproxyd/cp/qmon.c).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/tool.h"
#include "cp/qmon.h"

static void usage(FILE *f)
{
	fputs("usage: pnc-qmon --dev IFNAME [--interval-ms N] [--count N]\n"
	      "\n"
	      "Print the root qdisc's statistics of IFNAME as JSON lines, with the rates\n"
	      "derived from the previous sample.\n"
	      "\n"
	      "  --dev IFNAME       interface to watch (in the current namespace)\n"
	      "  --interval-ms N    time between samples (default 1000)\n"
	      "  --count N          samples to print (default 0 = until SIGINT/SIGTERM)\n",
	      f);
}

static int parse_uint(const char *s, unsigned long max, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 0);
	return (errno || !*s || *end || *v > max) ? -1 : 0;
}

static void print_sample(const char *dev, const struct pnc_qmon_sample *s)
{
	printf("{\"dev\":\"%s\",\"ifindex\":%d,\"kind\":\"%s\",\"ts_us\":%" PRIu64
	       ",\"bytes\":%" PRIu64 ",\"packets\":%" PRIu64
	       ",\"drops\":%u,\"overlimits\":%u,\"requeues\":%u"
	       ",\"backlog_bytes\":%u,\"backlog_pkts\":%u,\"rate_bps\":%" PRIu64,
	       dev, s->ifindex, s->kind, s->ts_us, s->bytes, s->packets, s->drops, s->overlimits,
	       s->requeues, s->backlog_bytes, s->backlog_pkts, s->rate_bps);
}

static void print_rates(const struct pnc_qmon_rates *r)
{
	if (!r->valid) {
		printf(",\"rates\":null}\n");
		return;
	}
	printf(",\"rates\":{\"dt_us\":%" PRIu64 ",\"tx_bps\":%" PRIu64 ",\"tx_pps\":%" PRIu64
	       ",\"growth_Bps\":%" PRId64 ",\"drop_pps\":%" PRIu64 ",\"overlimit_ps\":%" PRIu64
	       ",\"qdelay_us\":%" PRIu64 ",\"util_permille\":%u}}\n",
	       r->dt_us, r->tx_bps, r->tx_pps, r->growth_Bps, r->drop_pps, r->overlimit_ps,
	       r->qdelay_us, r->util_permille);
}

/* Absolute deadlines, so that the interval does not drift with the reads. */
static void sleep_until(struct timespec *next, unsigned long interval_ms)
{
	next->tv_nsec += (long)(interval_ms % 1000) * 1000000L;
	next->tv_sec += (time_t)(interval_ms / 1000) + next->tv_nsec / 1000000000L;
	next->tv_nsec %= 1000000000L;
	while (!pnc_tool_stop &&
	       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, next, NULL) == EINTR)
		;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dev", required_argument, NULL, 'd' },
		{ "interval-ms", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	unsigned long interval_ms = 1000, count = 0, n;
	struct pnc_qmon_sample prev = {}, cur;
	struct pnc_qmon_rates rates;
	const char *dev = NULL;
	struct timespec next;
	struct pnc_qmon *qm;
	bool have_prev = false;
	int ifindex, opt, rv, status = 0;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			dev = optarg;
			break;
		case 'i':
			if (parse_uint(optarg, 3600000, &interval_ms) || !interval_ms) {
				fprintf(stderr, "pnc-qmon: bad --interval-ms: %s\n", optarg);
				return 2;
			}
			break;
		case 'c':
			if (parse_uint(optarg, ULONG_MAX, &count)) {
				fprintf(stderr, "pnc-qmon: bad --count: %s\n", optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!dev || optind != argc) {
		usage(stderr);
		return 2;
	}
	ifindex = (int)if_nametoindex(dev);
	if (!ifindex) {
		fprintf(stderr, "pnc-qmon: %s: %s\n", dev, strerror(errno));
		return 1;
	}
	qm = pnc_qmon_open();
	if (!qm) {
		fprintf(stderr, "pnc-qmon: netlink: %s\n", strerror(errno));
		return 1;
	}
	pnc_tool_stop_on(SIGINT, true);
	pnc_tool_stop_on(SIGTERM, true);
	/* A reader of the pipe sees each sample when it is taken. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (n = 0; !pnc_tool_stop && (!count || n < count); n++) {
		if (n)
			sleep_until(&next, interval_ms);
		if (pnc_tool_stop)
			break;
		rv = pnc_qmon_read(qm, ifindex, &cur);
		if (rv) {
			/* e.g. the qdisc being replaced: report, and start over. */
			printf("{\"dev\":\"%s\",\"ifindex\":%d,\"error\":\"%s\"}\n", dev, ifindex,
			       pnc_qmon_strerror(rv));
			have_prev = false;
			status = 1;
			continue;
		}
		print_sample(dev, &cur);
		if (!have_prev || pnc_qmon_derive(&prev, &cur, &rates))
			rates = (struct pnc_qmon_rates){};
		print_rates(&rates);
		prev = cur;
		have_prev = true;
	}
	if (pnc_qmon_bad_messages(qm))
		fprintf(stderr, "pnc-qmon: %" PRIu64 " malformed netlink messages skipped\n",
			pnc_qmon_bad_messages(qm));
	pnc_qmon_close(qm);
	return status;
}
