// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pnc-delay-line: a layer-2 bridge between two interfaces that holds
 * every frame for a fixed time before sending it out of the other one,
 * both directions, in order.  The test kernel has no netem, so this is
 * how the demo and the tests get WAN round-trip times.
 *
 * One AF_PACKET socket per interface, bound to it, reads everything that
 * arrives there (PACKET_IGNORE_OUTGOING: never what was sent out of it,
 * ours included) and sends what the other side received.  Frames carry a
 * virtio-net header (PACKET_VNET_HDR) in and out: veth hands over
 * GSO super-frames and frames whose checksum is left to offload, and the
 * header passes both on intact, so that they are neither dropped as too
 * long nor delivered with a bad checksum.  A VLAN tag the kernel moved
 * into metadata is put back into the frame.
 *
 * Timing: a FIFO per direction, due times from CLOCK_MONOTONIC at
 * receipt, and ppoll() sleeping until the earliest due time; never a
 * busy loop.  Queues are bounded (tail drop, counted).  SIGINT/SIGTERM
 * end it after printing the counters as JSON.
 */
#define _GNU_SOURCE /* ppoll */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/virtio_net.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "common/tool.h"

#define VNET_LEN sizeof(struct virtio_net_hdr)
#define VLAN_LEN 4
/* 64 KiB frames (GSO from veth) plus Ethernet and VLAN headers. */
#define MAX_FRAME    (65536 + 64)
#define BUF_SIZE     (VNET_LEN + MAX_FRAME + VLAN_LEN)
#define RX_BATCH     64
#define SOCK_BUF     (32 << 20)
#define STATS_PERIOD 1000000000ull /* ns between --stats FILE updates */

struct frame {
	uint64_t due_ns;
	uint32_t len; /* virtio-net header + frame */
	uint8_t data[];
};

/* A bounded FIFO of frames; due times only grow, so the head is next. */
struct fifo {
	struct frame **slot;
	uint32_t cap, head, count;
};

struct port {
	const char *name;
	int ifindex;
	int fd;
};

struct dir_stats {
	uint64_t rx, forwarded, dropped_full, dropped_oversize, rx_errors;
	uint64_t send_errors, send_emsgsize, send_enobufs, vlan_restored, kernel_drops;
	uint32_t max_queue;
};

struct dir {
	const char *name;
	struct port *in, *out;
	struct fifo q;
	struct dir_stats st;
	bool out_blocked; /* send buffer full: wait for POLLOUT */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* --- FIFO ----------------------------------------------------------------- */

static int fifo_init(struct fifo *q, uint32_t cap)
{
	q->slot = calloc(cap, sizeof(*q->slot));
	q->cap = cap;
	q->head = q->count = 0;
	return q->slot ? 0 : -1;
}

static bool fifo_push(struct fifo *q, struct frame *f)
{
	if (q->count == q->cap)
		return false;
	q->slot[(q->head + q->count) % q->cap] = f;
	q->count++;
	return true;
}

static struct frame *fifo_peek(const struct fifo *q)
{
	return q->count ? q->slot[q->head] : NULL;
}

static struct frame *fifo_pop(struct fifo *q)
{
	struct frame *f = fifo_peek(q);

	if (f) {
		q->head = (q->head + 1) % q->cap;
		q->count--;
	}
	return f;
}

static void fifo_free(struct fifo *q)
{
	struct frame *f;

	while ((f = fifo_pop(q)))
		free(f);
	free(q->slot);
}

/* --- frames --------------------------------------------------------------- */

/*
 * Put back the 802.1Q/802.1ad tag that the receive path moved into
 * metadata: after the two MAC addresses of the frame that follows the
 * virtio-net header, whose checksum and header offsets then move by the
 * tag's 4 bytes (legacy virtio-net header: host byte order).  buf has
 * room for cap bytes.  false if the frame is too short or too long.
 */
static bool vlan_restore(uint8_t *buf, uint32_t *len, size_t cap, uint16_t tpid, uint16_t tci)
{
	struct virtio_net_hdr vh;
	uint8_t *eth = buf + VNET_LEN;
	uint16_t tag[2] = { htons(tpid), htons(tci) };

	if (*len < VNET_LEN + 2 * ETH_ALEN || *len + VLAN_LEN > cap)
		return false;
	memmove(eth + 2 * ETH_ALEN + VLAN_LEN, eth + 2 * ETH_ALEN, *len - VNET_LEN - 2 * ETH_ALEN);
	memcpy(eth + 2 * ETH_ALEN, tag, VLAN_LEN);
	*len += VLAN_LEN;
	memcpy(&vh, buf, sizeof(vh));
	if (vh.flags & VIRTIO_NET_HDR_F_NEEDS_CSUM)
		vh.csum_start += VLAN_LEN;
	if (vh.hdr_len)
		vh.hdr_len += VLAN_LEN;
	memcpy(buf, &vh, sizeof(vh));
	return true;
}

/* The VLAN tag of a received frame, from PACKET_AUXDATA, if it had one. */
static bool aux_vlan(struct msghdr *mh, uint16_t *tpid, uint16_t *tci)
{
	for (struct cmsghdr *c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c)) {
		struct tpacket_auxdata aux;

		if (c->cmsg_level != SOL_PACKET || c->cmsg_type != PACKET_AUXDATA ||
		    c->cmsg_len < CMSG_LEN(sizeof(aux)))
			continue;
		memcpy(&aux, CMSG_DATA(c), sizeof(aux));
		if (!(aux.tp_status & TP_STATUS_VLAN_VALID))
			return false;
		*tci = aux.tp_vlan_tci;
		*tpid = (aux.tp_status & TP_STATUS_VLAN_TPID_VALID) ? aux.tp_vlan_tpid
								    : ETH_P_8021Q;
		return true;
	}
	return false;
}

/* --- sockets -------------------------------------------------------------- */

static int setopt(int fd, int level, int name, int val)
{
	return setsockopt(fd, level, name, &val, sizeof(val));
}

/* A socket that sees only what arrives on the port, with the frame's metadata. */
static int port_open(struct port *p)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL) };
	struct packet_mreq mr = { .mr_type = PACKET_MR_PROMISC };

	p->ifindex = (int)if_nametoindex(p->name);
	if (!p->ifindex)
		return -1;
	sll.sll_ifindex = mr.mr_ifindex = p->ifindex;
	/* Protocol 0 until bound, so that no other interface's frame slips in. */
	p->fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (p->fd < 0)
		return -1;
	if (setopt(p->fd, SOL_PACKET, PACKET_VNET_HDR, 1) < 0 ||
	    setopt(p->fd, SOL_PACKET, PACKET_AUXDATA, 1) < 0 ||
	    setopt(p->fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, 1) < 0)
		return -1;
	/* Bursts wait in the socket until read; FORCE lifts rmem_max (root). */
	if (setopt(p->fd, SOL_SOCKET, SO_RCVBUFFORCE, SOCK_BUF) < 0)
		setopt(p->fd, SOL_SOCKET, SO_RCVBUF, SOCK_BUF);
	if (setopt(p->fd, SOL_SOCKET, SO_SNDBUFFORCE, SOCK_BUF) < 0)
		setopt(p->fd, SOL_SOCKET, SO_SNDBUF, SOCK_BUF);
	if (bind(p->fd, (struct sockaddr *)&sll, sizeof(sll)) < 0)
		return -1;
	/* veth delivers every frame anyway; a real NIC needs this. */
	if (setsockopt(p->fd, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mr, sizeof(mr)) < 0)
		return -1;
	return 0;
}

/* Frames the kernel dropped because the socket was full (read resets them). */
static void collect_kernel_drops(struct dir *d)
{
	struct tpacket_stats st;
	socklen_t len = sizeof(st);

	if (!getsockopt(d->in->fd, SOL_PACKET, PACKET_STATISTICS, &st, &len))
		d->st.kernel_drops += st.tp_drops;
}

/* --- forwarding ------------------------------------------------------------ */

/* Read what waits on d's input, up to a batch, and queue it. */
static void rx_batch(struct dir *d, uint64_t delay_ns, uint8_t *buf)
{
	for (int i = 0; i < RX_BATCH; i++) {
		union {
			struct cmsghdr align;
			uint8_t b[CMSG_SPACE(sizeof(struct tpacket_auxdata))];
		} ctl;
		struct iovec iov = { buf, BUF_SIZE - VLAN_LEN };
		struct msghdr mh = { .msg_iov = &iov,
				     .msg_iovlen = 1,
				     .msg_control = &ctl,
				     .msg_controllen = sizeof(ctl) };
		uint16_t tpid, tci;
		struct frame *f;
		uint32_t len;
		ssize_t n;

		n = recvmsg(d->in->fd, &mh, MSG_TRUNC);
		if (n < 0) {
			if (errno != EAGAIN && errno != EINTR)
				d->st.rx_errors++; /* e.g. ENETDOWN, reported once */
			return;
		}
		d->st.rx++;
		if ((size_t)n > iov.iov_len || (size_t)n < VNET_LEN + ETH_HLEN) {
			d->st.dropped_oversize++;
			continue;
		}
		len = (uint32_t)n;
		if (aux_vlan(&mh, &tpid, &tci)) {
			if (!vlan_restore(buf, &len, BUF_SIZE, tpid, tci)) {
				d->st.dropped_oversize++;
				continue;
			}
			d->st.vlan_restored++;
		}
		if (d->q.count == d->q.cap) {
			d->st.dropped_full++;
			continue;
		}
		f = malloc(sizeof(*f) + len);
		if (!f) {
			d->st.dropped_full++;
			continue;
		}
		f->due_ns = now_ns() + delay_ns;
		f->len = len;
		memcpy(f->data, buf, len);
		fifo_push(&d->q, f);
		if (d->q.count > d->st.max_queue)
			d->st.max_queue = d->q.count;
	}
}

/* Send the frames of d that are due, in order. */
static void tx_due(struct dir *d, uint64_t now)
{
	struct frame *f;

	while (!d->out_blocked && (f = fifo_peek(&d->q)) && f->due_ns <= now) {
		ssize_t n = send(d->out->fd, f->data, f->len, MSG_DONTWAIT);

		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			/* Keep it at the head: order matters more than timing. */
			d->out_blocked = true;
			return;
		}
		if (n < 0) {
			d->st.send_errors++;
			if (errno == EMSGSIZE)
				d->st.send_emsgsize++;
			else if (errno == ENOBUFS)
				d->st.send_enobufs++; /* the output qdisc dropped it */
		} else {
			d->st.forwarded++;
		}
		free(fifo_pop(&d->q));
	}
}

/* ns until the earliest due frame of a direction that can send; -1 if none. */
static int64_t next_wait_ns(const struct dir *dirs, int n, uint64_t now)
{
	int64_t wait = -1;

	for (int i = 0; i < n; i++) {
		const struct frame *f = fifo_peek(&dirs[i].q);
		int64_t w;

		if (!f || dirs[i].out_blocked)
			continue;
		w = f->due_ns > now ? (int64_t)(f->due_ns - now) : 0;
		if (wait < 0 || w < wait)
			wait = w;
	}
	return wait;
}

/* --- output ----------------------------------------------------------------- */

static void print_dir(FILE *f, const struct dir *d)
{
	const struct dir_stats *s = &d->st;

	fprintf(f,
		"\"%s\":{\"in\":\"%s\",\"out\":\"%s\",\"rx\":%" PRIu64 ",\"forwarded\":%" PRIu64
		",\"dropped_full\":%" PRIu64 ",\"dropped_oversize\":%" PRIu64
		",\"kernel_drops\":%" PRIu64 ",\"rx_errors\":%" PRIu64 ",\"send_errors\":%" PRIu64
		",\"send_emsgsize\":%" PRIu64 ",\"send_enobufs\":%" PRIu64
		",\"vlan_restored\":%" PRIu64 ",\"queued\":%u,\"max_queue\":%u}",
		d->name, d->in->name, d->out->name, s->rx, s->forwarded, s->dropped_full,
		s->dropped_oversize, s->kernel_drops, s->rx_errors, s->send_errors,
		s->send_emsgsize, s->send_enobufs, s->vlan_restored, d->q.count, s->max_queue);
}

static void print_stats(FILE *f, const char *event, struct dir *dirs, uint64_t delay_ns,
			uint32_t limit)
{
	for (int i = 0; i < 2; i++)
		collect_kernel_drops(&dirs[i]);
	fprintf(f, "{\"event\":\"%s\",\"delay_us\":%" PRIu64 ",\"limit\":%u,", event,
		delay_ns / 1000, limit);
	print_dir(f, &dirs[0]);
	fputc(',', f);
	print_dir(f, &dirs[1]);
	fputs("}\n", f);
}

/* Replace FILE atomically, so that a reader never sees half of it. */
static void write_stats_file(const char *path, struct dir *dirs, uint64_t delay_ns, uint32_t limit,
			     const char *event)
{
	char tmp[4096];
	FILE *f;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return;
	f = fopen(tmp, "w");
	if (!f)
		return;
	print_stats(f, event, dirs, delay_ns, limit);
	if (fclose(f) == 0)
		rename(tmp, path);
	else
		unlink(tmp);
}

/* --- main ----------------------------------------------------------------- */

static void usage(FILE *f)
{
	fputs("usage: pnc-delay-line --a IF1 --b IF2 --delay-ms D [--limit N] [--stats FILE]\n"
	      "\n"
	      "Bridge IF1 and IF2 at layer 2, holding every frame D ms (one way) in\n"
	      "both directions.  Counters as JSON on SIGINT/SIGTERM.\n"
	      "\n"
	      "  --a IF1, --b IF2   the two interfaces (no address needed on either)\n"
	      "  --delay-ms D       one-way delay, ms (decimals allowed; 0 = plain bridge)\n"
	      "  --limit N          frames queued per direction before tail drop\n"
	      "                     (default 10000)\n"
	      "  --stats FILE       also write the counters to FILE, every second and at exit\n",
	      f);
}

static int parse_args(int argc, char **argv, struct port *a, struct port *b, uint64_t *delay_ns,
		      uint32_t *limit, const char **stats)
{
	static const struct option opts[] = {
		{ "a", required_argument, NULL, 'a' },
		{ "b", required_argument, NULL, 'b' },
		{ "delay-ms", required_argument, NULL, 'd' },
		{ "limit", required_argument, NULL, 'l' },
		{ "stats", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	bool have_delay = false;
	unsigned long ul;
	char *end;
	double ms;
	int opt;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'a':
			a->name = optarg;
			break;
		case 'b':
			b->name = optarg;
			break;
		case 'd':
			errno = 0;
			ms = strtod(optarg, &end);
			if (errno || *end || !(ms >= 0 && ms <= 3600000))
				return -1;
			*delay_ns = (uint64_t)(ms * 1000000.0 + 0.5);
			have_delay = true;
			break;
		case 'l':
			errno = 0;
			ul = strtoul(optarg, &end, 0);
			if (errno || *end || !ul || ul > 10000000)
				return -1;
			*limit = (uint32_t)ul;
			break;
		case 's':
			*stats = optarg;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			return -1;
		}
	}
	if (!a->name || !b->name || !have_delay || optind != argc || !strcmp(a->name, b->name))
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	struct port ports[2] = { { .fd = -1 }, { .fd = -1 } };
	struct dir dirs[2] = {
		{ .name = "a_to_b", .in = &ports[0], .out = &ports[1] },
		{ .name = "b_to_a", .in = &ports[1], .out = &ports[0] },
	};
	uint64_t delay_ns = 0, next_stats;
	const char *stats_path = NULL;
	uint32_t limit = 10000;
	sigset_t block, orig;
	uint8_t *buf;
	int rv = 0;

	if (parse_args(argc, argv, &ports[0], &ports[1], &delay_ns, &limit, &stats_path)) {
		usage(stderr);
		return 2;
	}
	buf = malloc(BUF_SIZE);
	if (!buf || fifo_init(&dirs[0].q, limit) || fifo_init(&dirs[1].q, limit)) {
		fprintf(stderr, "pnc-delay-line: out of memory\n");
		return 1;
	}
	for (int i = 0; i < 2; i++) {
		if (port_open(&ports[i])) {
			fprintf(stderr, "pnc-delay-line: %s: %s\n", ports[i].name, strerror(errno));
			return 1;
		}
	}
	/* Signals only interrupt ppoll(), so none is lost between checks. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &orig);
	pnc_tool_stop_on(SIGINT, false);
	pnc_tool_stop_on(SIGTERM, false);
	/* Wake-ups on time, not up to 50 us late. */
	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);

	printf("{\"event\":\"ready\",\"a\":\"%s\",\"b\":\"%s\",\"delay_us\":%" PRIu64
	       ",\"limit\":%u}\n",
	       ports[0].name, ports[1].name, delay_ns / 1000, limit);
	fflush(stdout);
	next_stats = now_ns() + STATS_PERIOD;

	while (!pnc_tool_stop) {
		struct pollfd pfd[2];
		struct timespec ts, *tsp = NULL;
		uint64_t now = now_ns();
		int64_t wait;

		for (int i = 0; i < 2; i++)
			tx_due(&dirs[i], now);
		if (stats_path && now >= next_stats) {
			write_stats_file(stats_path, dirs, delay_ns, limit, "stats");
			next_stats = now + STATS_PERIOD;
		}
		wait = next_wait_ns(dirs, 2, now);
		if (stats_path && (wait < 0 || (uint64_t)wait > next_stats - now))
			wait = (int64_t)(next_stats - now);
		if (wait >= 0) {
			ts.tv_sec = wait / 1000000000;
			ts.tv_nsec = wait % 1000000000;
			tsp = &ts;
		}
		for (int i = 0; i < 2; i++) {
			/* Port i receives for dirs[i] and sends for the other direction. */
			pfd[i].fd = ports[i].fd;
			pfd[i].events = POLLIN | (dirs[1 - i].out_blocked ? POLLOUT : 0);
			pfd[i].revents = 0;
		}
		if (ppoll(pfd, 2, tsp, &orig) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "pnc-delay-line: poll: %s\n", strerror(errno));
			rv = 1;
			break;
		}
		for (int i = 0; i < 2; i++) {
			if (pfd[i].revents & POLLOUT)
				dirs[1 - i].out_blocked = false;
			if (pfd[i].revents & (POLLIN | POLLERR))
				rx_batch(&dirs[i], delay_ns, buf);
		}
	}

	print_stats(stdout, "exit", dirs, delay_ns, limit);
	if (stats_path)
		write_stats_file(stats_path, dirs, delay_ns, limit, "exit");
	for (int i = 0; i < 2; i++) {
		fifo_free(&dirs[i].q);
		close(ports[i].fd);
	}
	free(buf);
	return rv;
}
