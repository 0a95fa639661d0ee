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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "pnc_pkt.h" /* parse_addr, parse_hex, parse_u64 */

#define BATCH	    64
#define PAYLOAD_MAX 1400

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

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

static void usage(FILE *f)
{
	fputs("usage: pnc-flood --dst ADDR --port N --payload HEX [--src ADDR]\n"
	      "                 [--count N] [--seconds S] [--rate PPS]\n",
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
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	const char *dst = NULL, *src = NULL;
	uint64_t count = 0, port = 0;
	unsigned long long sent = 0, errors = 0;
	bool bad = false;
	double seconds = 0, rate = 0, start, elapsed;
	struct sockaddr_storage to, from;
	struct mmsghdr msgs[BATCH];
	uint8_t payload[PAYLOAD_MAX];
	struct iovec iov;
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
			bad |= parse_hex(optarg, payload, sizeof(payload), &plen) < 0;
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
	    (src && sock_addr(src, 0, &from, &fromlen) < 0)) {
		usage(stderr);
		return 2;
	}
	fd = socket(to.ss_family, SOCK_DGRAM, 0);
	if (fd < 0 || (src && bind(fd, (struct sockaddr *)&from, fromlen) < 0)) {
		perror("pnc-flood");
		return 1;
	}
	iov.iov_base = payload;
	iov.iov_len = plen;
	memset(msgs, 0, sizeof(msgs));
	for (int i = 0; i < BATCH; i++) {
		msgs[i].msg_hdr.msg_name = &to;
		msgs[i].msg_hdr.msg_namelen = tolen;
		msgs[i].msg_hdr.msg_iov = &iov;
		msgs[i].msg_hdr.msg_iovlen = 1;
	}

	start = now_s();
	for (;;) {
		unsigned int n = BATCH;
		int rv;

		elapsed = now_s() - start;
		if ((count && sent >= count) || (seconds > 0 && elapsed >= seconds))
			break;
		if (count && count - sent < n)
			n = (unsigned int)(count - sent);
		if (rate > 0) {
			/* Paced: one datagram at a time, asleep until it is due. */
			double ahead = (double)sent / rate - elapsed;

			if (ahead > 0) {
				struct timespec ts = { .tv_sec = (time_t)ahead,
						       .tv_nsec = (long)((ahead - (time_t)ahead) *
									 1e9) };

				nanosleep(&ts, NULL);
				continue;
			}
			n = 1;
		}
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
	elapsed = now_s() - start;
	printf("{\"sent\": %llu, \"seconds\": %.3f, \"pps\": %.0f, \"errors\": %llu}\n", sent,
	       elapsed, elapsed > 0 ? (double)sent / elapsed : 0.0, errors);
	return 0;
}
