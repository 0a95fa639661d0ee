// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pnc-flood: send one UDP payload to an address, as fast as the socket
 * takes it or at a given rate, bounded in count and time, and say how
 * many went out and how fast.  The load of the flood tests and of the
 * benchmarks: batches of sendmmsg, so that the generator is not what
 * limits the rate it reports.
 *
 *   pnc-flood --dst ADDR --port N --payload HEX [--src ADDR]
 *             [--count N] [--seconds S] [--rate PPS]
 *
 * At least one of --count and --seconds bounds it.  Prints one JSON line:
 * {"sent": N, "seconds": S, "pps": R, "errors": E}.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "common/tool.h"
#include "pnc_pkt.h" /* parse_addr, parse_hex, parse_u64 */

#define BATCH	    64
#define PAYLOAD_MAX 1400
#define ROCE_PORT   4791
#define QPN_MASK    0xffffff
/*
 * After the last datagram, replies are awaited until all have come, none
 * has come for REPLY_IDLE seconds, or REPLY_DRAIN seconds have passed: a
 * loaded reflector may answer the tail of a burst late, not never.
 */
#define REPLY_IDLE  0.3
#define REPLY_DRAIN 3.0

/* Flows in turn (--vary-qpn) and the replies to them (--replies). */
struct flows {
	uint64_t off, base, n;
	bool replies;
	uint64_t reply_base;
	int fd;		   /* replies */
	uint64_t *sent_ns; /* per flow: when its last datagram left */
	double *lat_us;	   /* per reply */
	uint64_t n_lat, max_lat;
};

/* ADDR into a socket address with the port; pnc-pkt's address parser. */
static int sock_addr(const char *s, uint16_t port, struct sockaddr_storage *ss, socklen_t *len)
{
	struct sockaddr_in *in = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
	uint8_t addr[16], version;

	if (parse_addr(s, addr, &version) < 0)
		return -1;
	memset(ss, 0, sizeof(*ss));
	if (version == 4) {
		in->sin_family = AF_INET;
		in->sin_port = htons(port);
		memcpy(&in->sin_addr, addr, 4);
		*len = sizeof(*in);
	} else {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(port);
		memcpy(&in6->sin6_addr, addr, 16);
		*len = sizeof(*in6);
	}
	return 0;
}

/* A number of seconds or a rate: finite, not negative. */
static int parse_amount(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return errno || end == s || *end || !(*out >= 0 && *out < 1e12) ? -1 : 0;
}

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* "OFF:BASE:N" */
static int parse_vary(char *s, struct flows *fl, size_t plen)
{
	char *base = strchr(s, ':'), *n = base ? strchr(base + 1, ':') : NULL;

	if (!n)
		return -1;
	*base++ = '\0';
	*n++ = '\0';
	if (parse_u64(s, PAYLOAD_MAX - 3, &fl->off) < 0 ||
	    parse_u64(base, QPN_MASK, &fl->base) < 0 || parse_u64(n, 1u << 20, &fl->n) < 0 ||
	    !fl->n || fl->off + 3 > plen)
		return -1;
	return 0;
}

static void put_qpn(uint8_t *p, uint32_t qpn)
{
	p[0] = (uint8_t)(qpn >> 16);
	p[1] = (uint8_t)(qpn >> 8);
	p[2] = (uint8_t)qpn;
}

/* Bound to the RoCEv2 port on any address of the family. */
static int reply_socket(int family)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int fd = socket(family, SOCK_DGRAM | SOCK_NONBLOCK, 0), on = 1;

	if (fd < 0 || sock_addr(family == AF_INET ? "0.0.0.0" : "::", ROCE_PORT, &ss, &len) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof(on)) < 0 ||
	    bind(fd, (struct sockaddr *)&ss, len) < 0)
		return -1;
	return fd;
}

/* Read the replies waiting, for up to timeout_ms; time each. */
static void take_replies(struct flows *fl, int timeout_ms)
{
	struct pollfd p = { .fd = fl->fd, .events = POLLIN };

	if (poll(&p, 1, timeout_ms) <= 0)
		return;
	for (;;) {
		uint8_t buf[256];
		union {
			struct cmsghdr align;
			char buf[CMSG_SPACE(sizeof(struct timespec))];
		} control;
		struct iovec iov = { buf, sizeof(buf) };
		struct msghdr mh = { .msg_iov = &iov,
				     .msg_iovlen = 1,
				     .msg_control = control.buf,
				     .msg_controllen = sizeof(control.buf) };
		struct timespec ts = {};
		ssize_t len = recvmsg(fl->fd, &mh, 0);
		uint64_t j, at;

		if (len < 0)
			return;
		if (len < 8)
			continue;
		for (struct cmsghdr *cm = CMSG_FIRSTHDR(&mh); cm; cm = CMSG_NXTHDR(&mh, cm))
			if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_TIMESTAMPNS)
				memcpy(&ts, CMSG_DATA(cm), sizeof(ts));
		/* BTH destination QP: octets 5 to 7 of the reply. */
		j = (((uint64_t)buf[5] << 16 | (uint64_t)buf[6] << 8 | buf[7]) - fl->reply_base) &
		    QPN_MASK;
		at = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
		if (j >= fl->n || !fl->sent_ns[j] || !ts.tv_sec || at < fl->sent_ns[j] ||
		    fl->n_lat == fl->max_lat)
			continue;
		fl->lat_us[fl->n_lat++] = (double)(at - fl->sent_ns[j]) / 1e3;
		fl->sent_ns[j] = 0; /* one reply per datagram */
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double pct(const struct flows *fl, double q)
{
	size_t i = (size_t)(q * (double)(fl->n_lat - 1) + 0.5);

	return fl->n_lat ? fl->lat_us[i] : 0.0;
}

static void usage(FILE *f)
{
	fputs("usage: pnc-flood --dst ADDR --port N --payload HEX [--src ADDR]\n"
	      "                 [--count N] [--seconds S] [--rate PPS]\n"
	      "                 [--burst N] [--vary-qpn OFF:BASE:N] [--replies BASE]\n",
	      f);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dst", required_argument, NULL, 'd' },
		{ "src", required_argument, NULL, 's' },
		{ "port", required_argument, NULL, 'p' },
		{ "payload", required_argument, NULL, 'x' },
		{ "count", required_argument, NULL, 'c' },
		{ "seconds", required_argument, NULL, 't' },
		{ "rate", required_argument, NULL, 'r' },
		{ "vary-qpn", required_argument, NULL, 'v' },
		{ "burst", required_argument, NULL, 'b' },
		{ "replies", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	const char *dst = NULL, *src = NULL;
	uint64_t count = 0, port = 0, burst = 1;
	unsigned long long sent = 0, errors = 0;
	bool bad = false;
	double seconds = 0, rate = 0, start, elapsed;
	struct sockaddr_storage to, from;
	struct mmsghdr msgs[BATCH];
	static uint8_t payload[BATCH][PAYLOAD_MAX];
	struct iovec iov[BATCH];
	struct flows fl = { .fd = -1 };
	char *vary = NULL;
	socklen_t tolen, fromlen;
	size_t plen = 0;
	int c, fd;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			dst = optarg;
			break;
		case 's':
			src = optarg;
			break;
		case 'p':
			bad |= parse_u64(optarg, 65535, &port) < 0;
			break;
		case 'x':
			bad |= parse_hex(optarg, payload[0], sizeof(payload[0]), &plen) < 0;
			break;
		case 'c':
			bad |= parse_u64(optarg, UINT64_MAX, &count) < 0;
			break;
		case 't':
			bad |= parse_amount(optarg, &seconds) < 0;
			break;
		case 'r':
			bad |= parse_amount(optarg, &rate) < 0;
			break;
		case 'b':
			bad |= parse_u64(optarg, BATCH, &burst) < 0 || !burst;
			break;
		case 'v':
			vary = optarg;
			break;
		case 'R':
			fl.replies = true;
			bad |= parse_u64(optarg, QPN_MASK, &fl.reply_base) < 0;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (bad || !dst || !port || !plen || (!count && seconds <= 0) ||
	    sock_addr(dst, (uint16_t)port, &to, &tolen) < 0 ||
	    (src && sock_addr(src, 0, &from, &fromlen) < 0) ||
	    (vary && parse_vary(vary, &fl, plen) < 0) || (fl.replies && (!vary || rate <= 0))) {
		usage(stderr);
		return 2;
	}
	if (fl.replies) {
		fl.fd = reply_socket(to.ss_family);
		fl.max_lat = count ? count : (uint64_t)(rate * seconds) + 1;
		fl.sent_ns = calloc(fl.n, sizeof(*fl.sent_ns));
		fl.lat_us = calloc(fl.max_lat, sizeof(*fl.lat_us));
		if (fl.fd < 0 || !fl.sent_ns || !fl.lat_us) {
			perror("pnc-flood: replies");
			return 1;
		}
	}
	/* Paced sleeps as asked for, not 50 us late. */
	prctl(PR_SET_TIMERSLACK, 1UL);
	fd = socket(to.ss_family, SOCK_DGRAM, 0);
	if (fd < 0 || (src && bind(fd, (struct sockaddr *)&from, fromlen) < 0)) {
		perror("pnc-flood");
		return 1;
	}
	memset(msgs, 0, sizeof(msgs));
	for (int i = 0; i < BATCH; i++) {
		memcpy(payload[i], payload[0], plen);
		iov[i].iov_base = payload[i];
		iov[i].iov_len = plen;
		msgs[i].msg_hdr.msg_name = &to;
		msgs[i].msg_hdr.msg_namelen = tolen;
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
	}

	start = pnc_tool_now_s();
	for (;;) {
		unsigned int n = BATCH;
		int rv;

		elapsed = pnc_tool_now_s() - start;
		if ((count && sent >= count) || (seconds > 0 && elapsed >= seconds))
			break;
		if (count && count - sent < n)
			n = (unsigned int)(count - sent);
		if (rate > 0) {
			/* Paced: asleep until the burst's last datagram is due. */
			double ahead = (double)(sent + burst - 1) / rate - elapsed;

			if (ahead > 0 && fl.replies) {
				take_replies(&fl, (int)(ahead * 1e3));
				continue;
			}
			if (ahead > 0) {
				struct timespec ts = { .tv_sec = (time_t)ahead,
						       .tv_nsec = (long)((ahead - (time_t)ahead) *
									 1e9) };

				nanosleep(&ts, NULL);
				continue;
			}
			if (n > burst)
				n = (unsigned int)burst;
		}
		for (unsigned int k = 0; vary && k < n; k++)
			put_qpn(payload[k] + fl.off, (uint32_t)(fl.base + (sent + k) % fl.n));
		for (unsigned int k = 0; fl.replies && k < n; k++)
			fl.sent_ns[(sent + k) % fl.n] = realtime_ns();
		rv = sendmmsg(fd, msgs, n, 0);
		if (rv < 0) {
			/* A full queue on the way: count it, keep going. */
			if (errno != ENOBUFS && errno != EAGAIN && errno != ECONNREFUSED) {
				perror("pnc-flood: sendmmsg");
				return 1;
			}
			errors++;
			continue;
		}
		sent += (unsigned int)rv;
	}
	elapsed = pnc_tool_now_s() - start;
	printf("{\"sent\": %llu, \"seconds\": %.3f, \"pps\": %.0f, \"errors\": %llu", sent,
	       elapsed, elapsed > 0 ? (double)sent / elapsed : 0.0, errors);
	if (fl.replies) {
		double t0 = pnc_tool_now_s(), last = t0;

		while (fl.n_lat < sent && fl.n_lat < fl.max_lat &&
		       pnc_tool_now_s() - t0 < REPLY_DRAIN &&
		       pnc_tool_now_s() - last < REPLY_IDLE) {
			uint64_t had = fl.n_lat;

			take_replies(&fl, 10);
			if (fl.n_lat != had)
				last = pnc_tool_now_s();
		}
		qsort(fl.lat_us, fl.n_lat, sizeof(*fl.lat_us), cmp_double);
		printf(", \"replies\": %llu, \"latency_us\": {\"p50\": %.1f, \"p90\": %.1f, "
		       "\"p99\": %.1f, \"max\": %.1f}",
		       (unsigned long long)fl.n_lat, pct(&fl, 0.5), pct(&fl, 0.9), pct(&fl, 0.99),
		       pct(&fl, 1.0));
	}
	printf("}\n");
	return 0;
}
