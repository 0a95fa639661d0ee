// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An AF_XDP socket (see xsk.h), on libxdp's ring helpers.
 *
 * Buffers: `frames` UMEM frames for receiving, all of them handed to
 * the kernel through a fill ring twice as large, so that giving back
 * what was received never waits for room.  The receive ring holds
 * `frames` descriptors: the kernel can never have more.  Behind them,
 * `tx_frames` frames for transmitting, on a stack of free ones; the
 * completion ring returns them.
 */
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/if_xdp.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <xdp/xsk.h>

#include "proxy/xdp/xsk_sock.h"

#ifndef SO_PREFER_BUSY_POLL
#define SO_PREFER_BUSY_POLL 69
#endif
#ifndef SO_BUSY_POLL_BUDGET
#define SO_BUSY_POLL_BUDGET 70
#endif

struct pnc_xsk {
	struct xsk_umem *umem;
	struct xsk_socket *sock;
	struct xsk_ring_prod fq, tx;
	struct xsk_ring_cons cq, rx;
	void *area;
	size_t size;
	bool busy_poll;
	bool zero_copy;
	/* Transmit frames not in the kernel's hands, and those queued. */
	uint64_t *tx_free;
	uint32_t n_free, tx_queued;
	uint32_t tx_frames;
};

static int busy_poll_on(int fd, const struct pnc_xsk_cfg *cfg)
{
	int on = 1, us = (int)cfg->busy_poll_us, budget = (int)cfg->busy_poll_budget;

	if (setsockopt(fd, SOL_SOCKET, SO_PREFER_BUSY_POLL, &on, sizeof(on)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL, &us, sizeof(us)) < 0 ||
	    (budget &&
	     setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL_BUDGET, &budget, sizeof(budget)) < 0))
		return -errno;
	return 0;
}

int pnc_xsk_open(struct pnc_xsk **out, const char *ifname, uint32_t queue,
		 const struct pnc_xsk_cfg *cfg, const char **what)
{
	struct xsk_umem_config ucfg = {
		/* A transmit-only socket's fill ring stays empty; it must exist. */
		.fill_size = cfg->frames ? cfg->frames * 2 : XSK_RING_PROD__DEFAULT_NUM_DESCS,
		.comp_size = cfg->tx_frames ? cfg->tx_frames : XSK_RING_CONS__DEFAULT_NUM_DESCS,
		.frame_size = PNC_XSK_FRAME_SIZE,
	};
	struct xsk_socket_config scfg = {
		.rx_size = cfg->frames ? cfg->frames : XSK_RING_CONS__DEFAULT_NUM_DESCS,
		.tx_size = cfg->tx_frames ? cfg->tx_frames : XSK_RING_PROD__DEFAULT_NUM_DESCS,
		.libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD,
		.bind_flags = XDP_USE_NEED_WAKEUP,
	};
	struct xdp_options opts = {};
	socklen_t optlen = sizeof(opts);
	struct pnc_xsk *x;
	uint32_t idx;
	int err;

	*out = NULL;
	if ((cfg->frames & (cfg->frames - 1)) || (cfg->tx_frames & (cfg->tx_frames - 1)) ||
	    !(cfg->frames | cfg->tx_frames)) {
		*what = "ring size";
		return -EINVAL;
	}
	x = calloc(1, sizeof(*x));
	if (!x) {
		*what = "memory";
		return -ENOMEM;
	}
	x->size = (size_t)(cfg->frames + cfg->tx_frames) * PNC_XSK_FRAME_SIZE;
	x->tx_frames = cfg->tx_frames;
	if (cfg->tx_frames) {
		x->tx_free = calloc(cfg->tx_frames, sizeof(*x->tx_free));
		if (!x->tx_free) {
			free(x);
			*what = "memory";
			return -ENOMEM;
		}
		for (uint32_t i = 0; i < cfg->tx_frames; i++)
			x->tx_free[x->n_free++] = (uint64_t)(cfg->frames + i) * PNC_XSK_FRAME_SIZE;
	}
	x->area = mmap(NULL, x->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (x->area == MAP_FAILED) {
		err = -errno;
		*what = "UMEM memory";
		free(x->tx_free);
		free(x);
		return err;
	}
	err = xsk_umem__create(&x->umem, x->area, x->size, &x->fq, &x->cq, &ucfg);
	if (err) {
		*what = "UMEM registration";
		goto fail;
	}
	err = xsk_socket__create(&x->sock, ifname, queue, x->umem, cfg->frames ? &x->rx : NULL,
				 cfg->tx_frames ? &x->tx : NULL, &scfg);
	if (err) {
		*what = "socket bind";
		goto fail;
	}
	if (cfg->busy_poll_us) {
		err = busy_poll_on(xsk_socket__fd(x->sock), cfg);
		if (err) {
			*what = "busy polling";
			goto fail;
		}
		x->busy_poll = true;
	}
	if (!getsockopt(xsk_socket__fd(x->sock), SOL_XDP, XDP_OPTIONS, &opts, &optlen))
		x->zero_copy = opts.flags & XDP_OPTIONS_ZEROCOPY;
	if (!cfg->frames)
		goto done;
	if (xsk_ring_prod__reserve(&x->fq, cfg->frames, &idx) != cfg->frames) {
		err = -ENOSPC;
		*what = "fill ring";
		goto fail;
	}
	for (uint32_t i = 0; i < cfg->frames; i++)
		*xsk_ring_prod__fill_addr(&x->fq, idx + i) = (uint64_t)i * PNC_XSK_FRAME_SIZE;
	xsk_ring_prod__submit(&x->fq, cfg->frames);
done:
	*out = x;
	return 0;
fail:
	pnc_xsk_close(x);
	return err;
}

void pnc_xsk_close(struct pnc_xsk *x)
{
	if (!x)
		return;
	if (x->sock)
		xsk_socket__delete(x->sock);
	if (x->umem)
		xsk_umem__delete(x->umem);
	munmap(x->area, x->size);
	free(x->tx_free);
	free(x);
}

int pnc_xsk_fd(const struct pnc_xsk *x)
{
	return xsk_socket__fd(x->sock);
}

bool pnc_xsk_zero_copy(const struct pnc_xsk *x)
{
	return x->zero_copy;
}

size_t pnc_xsk_umem_bytes(const struct pnc_xsk *x)
{
	return x->size;
}

/* Frames the kernel has sent are free again. */
static void tx_reclaim(struct pnc_xsk *x)
{
	uint32_t n, ci;

	n = xsk_ring_cons__peek(&x->cq, x->tx_frames, &ci);
	for (uint32_t i = 0; i < n; i++)
		x->tx_free[x->n_free++] = *xsk_ring_cons__comp_addr(&x->cq, ci + i);
	if (n)
		xsk_ring_cons__release(&x->cq, n);
}

bool pnc_xsk_tx_queue(struct pnc_xsk *x, const void *l2, size_t l2_len, const void *l3,
		      size_t l3_len)
{
	uint32_t idx;
	uint64_t addr;
	uint8_t *frame;
	struct xdp_desc *d;

	if (!x->tx_frames || l2_len + l3_len > PNC_XSK_FRAME_SIZE)
		return false;
	if (!x->n_free)
		tx_reclaim(x);
	if (!x->n_free || xsk_ring_prod__reserve(&x->tx, 1, &idx) != 1)
		return false;
	addr = x->tx_free[--x->n_free];
	frame = xsk_umem__get_data(x->area, addr);
	memcpy(frame, l2, l2_len);
	memcpy(frame + l2_len, l3, l3_len);
	d = xsk_ring_prod__tx_desc(&x->tx, idx);
	d->addr = addr;
	d->len = (uint32_t)(l2_len + l3_len);
	x->tx_queued++;
	return true;
}

unsigned int pnc_xsk_tx_waiting(struct pnc_xsk *x)
{
	if (!x->tx_frames)
		return 0;
	/* Reserved entries count as used: those queued are not handed over yet. */
	return x->tx_frames - xsk_prod_nb_free(&x->tx, x->tx_frames) - x->tx_queued;
}

/*
 * In copy mode only a system call transmits, whatever the need-wakeup
 * flag says, and one call takes a bounded number of frames (-EAGAIN
 * while more are left): kick while frames wait, a few times.  In
 * zero-copy mode the driver takes them on its own once woken.
 */
#define TX_KICKS 8

int pnc_xsk_tx_kick(struct pnc_xsk *x)
{
	int err = 0;

	for (int k = 0; k < TX_KICKS && pnc_xsk_tx_waiting(x); k++) {
		if (x->zero_copy && !xsk_ring_prod__needs_wakeup(&x->tx))
			break;
		if (sendto(pnc_xsk_fd(x), NULL, 0, MSG_DONTWAIT, NULL, 0) >= 0) {
			err = 0;
			if (x->zero_copy)
				break;
			continue;
		}
		err = -errno;
		if (errno != EAGAIN && errno != EBUSY && errno != ENOBUFS)
			break;
	}
	tx_reclaim(x);
	/* A busy device is no error: what it left is kicked again later. */
	return err == -EAGAIN || err == -EBUSY || err == -ENOBUFS ? 0 : err;
}

int pnc_xsk_tx_flush(struct pnc_xsk *x)
{
	if (!x->tx_queued)
		return 0;
	xsk_ring_prod__submit(&x->tx, x->tx_queued);
	x->tx_queued = 0;
	return pnc_xsk_tx_kick(x);
}

unsigned int pnc_xsk_pending(struct pnc_xsk *x)
{
	/* A receive call is what makes the kernel poll the driver. */
	if (x->busy_poll)
		recvfrom(pnc_xsk_fd(x), NULL, 0, MSG_DONTWAIT, NULL, NULL);
	return xsk_cons_nb_avail(&x->rx, 1);
}

unsigned int pnc_xsk_receive(struct pnc_xsk *x, unsigned int max, pnc_xsk_frame_cb cb, void *arg)
{
	uint32_t n, ri, fi;

	n = xsk_ring_cons__peek(&x->rx, max, &ri);
	if (n) {
		/* The fill ring has room for every frame: this never waits. */
		if (xsk_ring_prod__reserve(&x->fq, n, &fi) != n) {
			/* Cannot happen; leave them for the next call. */
			xsk_ring_cons__cancel(&x->rx, n);
			return 0;
		}
		for (uint32_t i = 0; i < n; i++) {
			const struct xdp_desc *d = xsk_ring_cons__rx_desc(&x->rx, ri + i);
			uint64_t addr = xsk_umem__extract_addr(d->addr);

			cb(arg, xsk_umem__get_data(x->area, xsk_umem__add_offset_to_addr(d->addr)),
			   d->len);
			*xsk_ring_prod__fill_addr(&x->fq, fi + i) = addr;
		}
		xsk_ring_prod__submit(&x->fq, n);
		xsk_ring_cons__release(&x->rx, n);
	}
	if (xsk_ring_prod__needs_wakeup(&x->fq))
		recvfrom(pnc_xsk_fd(x), NULL, 0, MSG_DONTWAIT, NULL, NULL);
	return n;
}

int pnc_xsk_stats(const struct pnc_xsk *x, struct pnc_xsk_stats *st)
{
	struct xdp_statistics s = {};
	socklen_t len = sizeof(s);

	memset(st, 0, sizeof(*st));
	if (getsockopt(pnc_xsk_fd(x), SOL_XDP, XDP_STATISTICS, &s, &len) < 0)
		return -errno;
	st->dropped = s.rx_dropped + s.rx_ring_full;
	st->ring_full = s.rx_ring_full;
	st->invalid = s.rx_invalid_descs;
	st->fill_empty = s.rx_fill_ring_empty_descs;
	return 0;
}

int pnc_xsk_rx_queues(const char *ifname)
{
	struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };
	struct ifreq ifr = {};
	int fd, n;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	strncpy(ifr.ifr_name, ifname, IFNAMSIZ - 1);
	ifr.ifr_data = (void *)&ch;
	/* A driver that does not say has one queue. */
	n = ioctl(fd, SIOCETHTOOL, &ifr) < 0 ? 1 : (int)(ch.combined_count + ch.rx_count);
	close(fd);
	return n > 0 ? n : 1;
}
