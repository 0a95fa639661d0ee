// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pnc-reflect: the reference reflectors and the sink of the fast-path
 * benchmark (tests/bench/fast_path).  A reflector turns each UDP datagram
 * to --port into a CNP-shaped reply to its source (BTH opcode 0x81, the
 * QPN taken from the datagram at --qpn-off) and does no other work, so
 * that what cnpproxyd costs per notification can be set against what
 * the same path costs when it does nothing.
 *
 *   pnc-reflect MODE --dev IF [--port N] [--qpn-off N] [--seconds S]
 *               [--busy] [--pass] [--queue N]
 *
 *   sendto  recvfrom + sendto, one datagram per system call
 *   mmsg    recvmmsg + sendmmsg, up to 64 per system call
 *   xsk     AF_XDP (copy mode): the frame rewritten in the UMEM, sent back
 *   xdp     in the XDP program, XDP_TX (reflect.bpf.c)
 *   sink    count and drop (--pass: and pass) what arrives at --port
 *   pass    an XDP program that passes everything
 *   hold    an AF_XDP socket bound to --queue (0) and nothing else, so
 *           that another process finds the queue taken; "bound" on
 *           stdout once it is
 *
 * The XDP programs are attached through BPF links: they go with the
 * process, even a killed one.
 *
 * --busy spins instead of sleeping in poll (sockets and AF_XDP).  It
 * runs for --seconds or until SIGINT/SIGTERM, then prints one JSON
 * line: {"mode": M, "packets": N, "matched": N}; packets are the replies
 * sent (sink: the datagrams counted).
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/if_link.h>
#include <xdp/xsk.h>

#include "bpfutil/percpu.h"
#include "common/tool.h"
#include "pnc_pkt.h" /* parse_u64 */
#include "reflect.h"
#include "reflect.skel.h"

#define BATCH	    64
#define XSK_FRAMES  4096
#define XSK_RING    2048
#define UDP_PAYLOAD 2048

struct opts {
	const char *mode, *dev;
	unsigned int ifindex, port, qpn_off, queue;
	bool busy, pass;
};

/* ---- sockets --------------------------------------------------------- */

static int udp_socket(const struct opts *o)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(o->port) };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), size = 4 << 20;

	if (fd < 0 || bind(fd, (struct sockaddr *)&sin, sizeof(sin)) < 0) {
		perror("pnc-reflect: UDP socket");
		exit(1);
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size));
	return fd;
}

/* Wait for the socket to be readable: false when it is time to stop. */
static bool wait_in(int fd, bool busy)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (busy)
		return !pnc_tool_stop;
	while (!pnc_tool_stop)
		if (poll(&p, 1, 100) > 0)
			return true;
	return false;
}

static uint64_t run_sendto(const struct opts *o)
{
	int fd = udp_socket(o);
	uint8_t buf[UDP_PAYLOAD], out[REFLECT_BODY_LEN];
	uint64_t n = 0;

	while (wait_in(fd, o->busy)) {
		struct sockaddr_in from;
		socklen_t flen = sizeof(from);
		ssize_t len = recvfrom(fd, buf, sizeof(buf), MSG_DONTWAIT,
				       (struct sockaddr *)&from, &flen);

		if (len < (ssize_t)o->qpn_off + 3)
			continue;
		reflect_body(out, buf + o->qpn_off);
		from.sin_port = htons(REFLECT_ROCE_PORT);
		if (sendto(fd, out, sizeof(out), 0, (struct sockaddr *)&from, sizeof(from)) > 0)
			n++;
	}
	return n;
}

static uint64_t run_mmsg(const struct opts *o)
{
	static uint8_t buf[BATCH][UDP_PAYLOAD], out[BATCH][REFLECT_BODY_LEN];
	struct sockaddr_in from[BATCH];
	struct mmsghdr in[BATCH], rep[BATCH];
	struct iovec iov[BATCH], oiov[BATCH];
	int fd = udp_socket(o);
	uint64_t n = 0;

	while (wait_in(fd, o->busy)) {
		int got, k = 0, sent;

		memset(in, 0, sizeof(in));
		memset(rep, 0, sizeof(rep));
		for (int i = 0; i < BATCH; i++) {
			iov[i] = (struct iovec){ buf[i], UDP_PAYLOAD };
			in[i].msg_hdr = (struct msghdr){ .msg_name = &from[i],
							 .msg_namelen = sizeof(from[i]),
							 .msg_iov = &iov[i],
							 .msg_iovlen = 1 };
		}
		got = recvmmsg(fd, in, BATCH, MSG_DONTWAIT, NULL);
		for (int i = 0; i < got; i++) {
			if (in[i].msg_len < o->qpn_off + 3)
				continue;
			reflect_body(out[k], buf[i] + o->qpn_off);
			from[i].sin_port = htons(REFLECT_ROCE_PORT);
			oiov[k] = (struct iovec){ out[k], REFLECT_BODY_LEN };
			rep[k].msg_hdr = (struct msghdr){ .msg_name = &from[i],
							  .msg_namelen = sizeof(from[i]),
							  .msg_iov = &oiov[k],
							  .msg_iovlen = 1 };
			k++;
		}
		sent = k ? sendmmsg(fd, rep, (unsigned int)k, 0) : 0;
		if (sent > 0)
			n += (uint64_t)sent;
	}
	return n;
}

/* ---- XDP ------------------------------------------------------------- */

static struct pnc_reflect *load(const struct opts *o)
{
	struct pnc_reflect *skel = pnc_reflect__open();

	if (!skel) {
		perror("pnc-reflect: open");
		exit(1);
	}
	skel->rodata->reflect_port = (uint16_t)o->port;
	skel->rodata->reflect_qpn_off = o->qpn_off;
	skel->rodata->reflect_sink_pass = o->pass;
	if (pnc_reflect__load(skel)) {
		fprintf(stderr, "pnc-reflect: cannot load the XDP programs\n");
		exit(1);
	}
	return skel;
}

/*
 * Attached through a BPF link, in driver mode: closing the link's file
 * detaches it, and so does the process's end, however it ends, so that
 * a killed reflector leaves no program behind.
 */
static int attach(const struct opts *o, struct bpf_program *prog)
{
	LIBBPF_OPTS(bpf_link_create_opts, lo, .flags = XDP_FLAGS_DRV_MODE);
	int link = bpf_link_create(bpf_program__fd(prog), (int)o->ifindex, BPF_XDP, &lo);

	if (link < 0) {
		fprintf(stderr, "pnc-reflect: cannot attach to %s: %s\n", o->dev, strerror(-link));
		exit(1);
	}
	return link;
}

static uint64_t counter(struct pnc_reflect *skel, enum reflect_counter c)
{
	uint64_t v[REFLECT_C_MAX];

	if (pnc_bpf_percpu_counters(bpf_map__fd(skel->maps.counters), REFLECT_C_MAX, v))
		return 0;
	return v[c];
}

static void wait_stop(void)
{
	while (!pnc_tool_stop)
		pause();
}

/* ---- AF_XDP ---------------------------------------------------------- */

struct xsk {
	struct xsk_umem *umem;
	struct xsk_socket *sock;
	struct xsk_ring_prod fq, tx;
	struct xsk_ring_cons cq, rx;
	void *area;
};

/* The frame at f, rewritten in place into the reply; its length or 0. */
static uint32_t xsk_reply(uint8_t *f, uint32_t len, unsigned int qpn_off)
{
	uint8_t qpn[3];

	if (len < REFLECT_FRAME_LEN ||
	    len < REFLECT_ETH_LEN + REFLECT_IP_LEN + REFLECT_UDP_LEN + qpn_off + 3)
		return 0;
	memcpy(qpn, f + REFLECT_ETH_LEN + REFLECT_IP_LEN + REFLECT_UDP_LEN + qpn_off, 3);
	reflect_rewrite(f, qpn);
	return REFLECT_FRAME_LEN;
}

static void xsk_open(const struct opts *o, struct pnc_reflect *skel, struct xsk *x)
{
	const struct xsk_umem_config ucfg = {
		.fill_size = XSK_RING,
		.comp_size = XSK_RING,
		.frame_size = XSK_UMEM__DEFAULT_FRAME_SIZE,
	};
	const struct xsk_socket_config scfg = {
		.rx_size = XSK_RING,
		.tx_size = XSK_RING,
		.libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD,
		.xdp_flags = XDP_FLAGS_DRV_MODE,
		.bind_flags = XDP_COPY | XDP_USE_NEED_WAKEUP,
	};
	size_t size = (size_t)XSK_FRAMES * XSK_UMEM__DEFAULT_FRAME_SIZE;
	uint32_t idx;
	int err;

	x->area = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (x->area == MAP_FAILED) {
		perror("pnc-reflect: UMEM");
		exit(1);
	}
	err = xsk_umem__create(&x->umem, x->area, size, &x->fq, &x->cq, &ucfg);
	if (!err)
		err = xsk_socket__create(&x->sock, o->dev, o->queue, x->umem, &x->rx, &x->tx,
					 &scfg);
	if (!err && skel)
		err = xsk_socket__update_xskmap(x->sock, bpf_map__fd(skel->maps.xsks));
	if (err) {
		fprintf(stderr, "pnc-reflect: AF_XDP socket on %s: %s\n", o->dev, strerror(-err));
		exit(1);
	}
	/* Half the frames wait in the fill ring; a sent one comes back there. */
	if (xsk_ring_prod__reserve(&x->fq, XSK_RING, &idx) != XSK_RING)
		exit(1);
	for (uint32_t i = 0; i < XSK_RING; i++)
		*xsk_ring_prod__fill_addr(&x->fq, idx + i) = (uint64_t)i *
							     XSK_UMEM__DEFAULT_FRAME_SIZE;
	xsk_ring_prod__submit(&x->fq, XSK_RING);
}

/* Frames the kernel has sent go back to the fill ring. */
static void xsk_recycle(struct xsk *x)
{
	uint32_t n, ci, fi;

	n = xsk_ring_cons__peek(&x->cq, XSK_RING, &ci);
	if (!n)
		return;
	while (xsk_ring_prod__reserve(&x->fq, n, &fi) != n)
		;
	for (uint32_t i = 0; i < n; i++)
		*xsk_ring_prod__fill_addr(&x->fq, fi + i) = *xsk_ring_cons__comp_addr(&x->cq,
										      ci + i);
	xsk_ring_prod__submit(&x->fq, n);
	xsk_ring_cons__release(&x->cq, n);
}

/*
 * In copy mode only a system call transmits: the kernel has no one else
 * to drain the ring, whatever the need-wakeup flag says.
 */
static void xsk_kick(struct xsk *x)
{
	sendto(xsk_socket__fd(x->sock), NULL, 0, MSG_DONTWAIT, NULL, 0);
}

static uint64_t run_xsk(const struct opts *o, struct pnc_reflect *skel)
{
	struct xsk x = {};
	uint64_t n = 0;
	int link;

	xsk_open(o, skel, &x);
	link = attach(o, skel->progs.reflect_xsk);
	while (wait_in(xsk_socket__fd(x.sock), o->busy)) {
		uint32_t got, ri, ti, k = 0;

		got = xsk_ring_cons__peek(&x.rx, BATCH, &ri);
		if (!got) {
			if (xsk_ring_prod__needs_wakeup(&x.fq))
				recvfrom(xsk_socket__fd(x.sock), NULL, 0, MSG_DONTWAIT, NULL, NULL);
			xsk_recycle(&x);
			continue;
		}
		while (xsk_ring_prod__reserve(&x.tx, got, &ti) != got) {
			xsk_kick(&x);
			xsk_recycle(&x);
		}
		for (uint32_t i = 0; i < got; i++) {
			const struct xdp_desc *d = xsk_ring_cons__rx_desc(&x.rx, ri + i);
			uint32_t len = xsk_reply(xsk_umem__get_data(x.area, d->addr), d->len,
						 o->qpn_off);
			struct xdp_desc *t = xsk_ring_prod__tx_desc(&x.tx, ti + i);

			/* A frame too short goes back out as it came: never lost. */
			t->addr = d->addr;
			t->len = len ? len : d->len;
			k += len != 0;
		}
		xsk_ring_cons__release(&x.rx, got);
		xsk_ring_prod__submit(&x.tx, got);
		xsk_kick(&x);
		xsk_recycle(&x);
		n += k;
	}
	close(link);
	xsk_socket__delete(x.sock);
	xsk_umem__delete(x.umem);
	return n;
}

/* A queue taken, for tests of what another AF_XDP user finds. */
static void run_hold(const struct opts *o)
{
	struct xsk x = {};

	xsk_open(o, NULL, &x);
	printf("bound\n");
	fflush(stdout);
	wait_stop();
	xsk_socket__delete(x.sock);
	xsk_umem__delete(x.umem);
}

/* ---- main ------------------------------------------------------------ */

static void usage(FILE *f)
{
	fputs("usage: pnc-reflect sendto|mmsg|xsk|xdp|sink|pass|hold --dev IF [--port N]\n"
	      "                   [--qpn-off N] [--seconds S] [--busy] [--pass] [--queue N]\n",
	      f);
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "dev", required_argument, NULL, 'd' },
		{ "port", required_argument, NULL, 'p' },
		{ "qpn-off", required_argument, NULL, 'q' },
		{ "seconds", required_argument, NULL, 't' },
		{ "busy", no_argument, NULL, 'b' },
		{ "pass", no_argument, NULL, 'P' },
		{ "queue", required_argument, NULL, 'Q' },
		{ "help", no_argument, NULL, 'h' },
		{},
	};
	struct opts o = { .port = REFLECT_ROCE_PORT };
	struct pnc_reflect *skel = NULL;
	uint64_t v, seconds = 0;
	uint64_t n = 0, matched = 0;
	bool ok = true;
	int c;

	while ((c = getopt_long(argc, argv, "h", lopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			o.dev = optarg;
			break;
		case 'p':
			ok &= parse_u64(optarg, 65535, &v) == 0 && v;
			o.port = (unsigned int)v;
			break;
		case 'q':
			ok &= parse_u64(optarg, REFLECT_QPN_MAX - 4, &v) == 0;
			o.qpn_off = (unsigned int)v;
			break;
		case 't':
			ok &= parse_u64(optarg, 86400, &seconds) == 0;
			break;
		case 'b':
			o.busy = true;
			break;
		case 'P':
			o.pass = true;
			break;
		case 'Q':
			ok &= parse_u64(optarg, 4095, &v) == 0;
			o.queue = (unsigned int)v;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	o.mode = optind < argc ? argv[optind] : NULL;
	if (!ok || !o.mode || optind + 1 != argc || !o.dev ||
	    !(o.ifindex = if_nametoindex(o.dev))) {
		usage(stderr);
		return 2;
	}
	/* Not restarted: a blocking call returns when it is time to stop. */
	pnc_tool_stop_on(SIGINT, false);
	pnc_tool_stop_on(SIGTERM, false);
	pnc_tool_stop_on(SIGALRM, false);
	alarm((unsigned int)seconds);

	if (!strcmp(o.mode, "sendto"))
		n = run_sendto(&o);
	else if (!strcmp(o.mode, "mmsg"))
		n = run_mmsg(&o);
	else if (!strcmp(o.mode, "hold"))
		run_hold(&o);
	else if (!strcmp(o.mode, "xsk") || !strcmp(o.mode, "xdp") || !strcmp(o.mode, "sink") ||
		 !strcmp(o.mode, "pass")) {
		skel = load(&o);
		if (!strcmp(o.mode, "xsk")) {
			n = run_xsk(&o, skel);
		} else {
			int link = attach(&o, !strcmp(o.mode, "xdp")	? skel->progs.reflect_tx
					      : !strcmp(o.mode, "sink") ? skel->progs.reflect_sink
									: skel->progs.reflect_pass);

			wait_stop();
			close(link);
			n = counter(skel, REFLECT_C_DONE);
		}
		matched = counter(skel, REFLECT_C_MATCHED);
		pnc_reflect__destroy(skel);
	} else {
		usage(stderr);
		return 2;
	}
	printf("{\"mode\": \"%s\", \"packets\": %llu, \"matched\": %llu}\n", o.mode,
	       (unsigned long long)n, (unsigned long long)matched);
	return 0;
}
