// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * roce-emu sockets.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <netinet/in.h>
#include <netinet/icmp6.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#include "emu_net.h"

#define ROCE_PORT 4791

/* Receive buffer of the packet socket (see emu_net_open()). */
#define EMU_RCVBUF (4 << 20)

int emu_parse_addr(const char *str, int *version, uint8_t addr[16])
{
	memset(addr, 0, 16);
	if (inet_pton(AF_INET, str, addr) == 1) {
		*version = 4;
		return 0;
	}
	if (inet_pton(AF_INET6, str, addr) == 1) {
		*version = 6;
		return 0;
	}
	return -1;
}

static int open_sink(int version, const uint8_t local[16])
{
	int fd = socket(version == 4 ? AF_INET : AF_INET6, SOCK_DGRAM | SOCK_NONBLOCK, 0);
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6, .sin6_port = htons(ROCE_PORT) };
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(ROCE_PORT) };
	int one = 1;
	int rv;

	if (fd < 0)
		return -1;
	/*
	 * Several endpoints may share an address (one per QP, the demo's
	 * --flows): any of them keeps the kernel quiet.
	 */
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one)) < 0) {
		close(fd);
		return -1;
	}
	if (version == 4) {
		memcpy(&sin.sin_addr, local, 4);
		rv = bind(fd, (struct sockaddr *)&sin, sizeof(sin));
	} else {
		memcpy(&sin6.sin6_addr, local, 16);
		rv = bind(fd, (struct sockaddr *)&sin6, sizeof(sin6));
	}
	if (rv < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

int emu_net_open(struct emu_net *net, int version, const uint8_t local[16])
{
	int rcvbuf = EMU_RCVBUF;

	memset(net, 0, sizeof(*net));
	net->version = version;
	memcpy(net->local, local, 16);
	net->send_fd = net->recv_fd = net->sink_fd = net->icmp6_fd = -1;

	/* IPPROTO_RAW implies that we write the IP header (v4 and v6). */
	net->send_fd = socket(version == 4 ? AF_INET : AF_INET6, SOCK_RAW, IPPROTO_RAW);
	net->recv_fd = socket(AF_PACKET, SOCK_DGRAM | SOCK_NONBLOCK,
			      htons(version == 4 ? ETH_P_IP : ETH_P_IPV6));
	net->sink_fd = open_sink(version, local);
	if (net->send_fd < 0 || net->recv_fd < 0 || net->sink_fd < 0) {
		emu_net_close(net);
		return -1;
	}
	/*
	 * Room for a second or so of traffic: a busy machine that leaves the
	 * emulator unscheduled for a while must not cost packets.  FORCE
	 * needs CAP_NET_ADMIN; without it the kernel's maximum applies.
	 */
	if (setsockopt(net->recv_fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)) < 0)
		(void)setsockopt(net->recv_fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	return 0;
}

void emu_net_close(struct emu_net *net)
{
	if (net->send_fd >= 0)
		close(net->send_fd);
	if (net->recv_fd >= 0)
		close(net->recv_fd);
	if (net->sink_fd >= 0)
		close(net->sink_fd);
	if (net->icmp6_fd >= 0)
		close(net->icmp6_fd);
	net->send_fd = net->recv_fd = net->sink_fd = net->icmp6_fd = -1;
}

int emu_net_send(struct emu_net *net, const uint8_t *pkt, size_t len)
{
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };
	struct sockaddr_in sin = { .sin_family = AF_INET };
	ssize_t n;

	if (net->version == 4) {
		memcpy(&sin.sin_addr, pkt + 16, 4);
		n = sendto(net->send_fd, pkt, len, 0, (struct sockaddr *)&sin, sizeof(sin));
	} else {
		memcpy(&sin6.sin6_addr, pkt + 24, 16);
		n = sendto(net->send_fd, pkt, len, 0, (struct sockaddr *)&sin6, sizeof(sin6));
	}
	return n == (ssize_t)len ? 0 : -1;
}

/* UDP to 4791 for our address; the IP header is at pkt. */
static bool for_us(const struct emu_net *net, const uint8_t *pkt, size_t len)
{
	size_t hlen;

	if (net->version == 4) {
		if (len < 28 || (pkt[0] >> 4) != 4 || pkt[9] != IPPROTO_UDP ||
		    memcmp(pkt + 16, net->local, 4))
			return false;
		hlen = (size_t)(pkt[0] & 0x0f) * 4;
	} else {
		if (len < 48 || (pkt[0] >> 4) != 6 || pkt[6] != IPPROTO_UDP ||
		    memcmp(pkt + 24, net->local, 16))
			return false;
		hlen = 40;
	}
	return len >= hlen + 8 && ((pkt[hlen + 2] << 8) | pkt[hlen + 3]) == ROCE_PORT;
}

ssize_t emu_net_recv(struct emu_net *net, uint8_t *buf, size_t buflen)
{
	struct sockaddr_ll sll;
	socklen_t slen;
	ssize_t n;

	for (;;) {
		slen = sizeof(sll);
		n = recvfrom(net->recv_fd, buf, buflen, 0, (struct sockaddr *)&sll, &slen);
		if (n < 0)
			return (errno == EAGAIN || errno == EWOULDBLOCK) ? 0 : -1;
		/* Our own transmissions are seen here too. */
		if (sll.sll_pkttype == PACKET_OUTGOING)
			continue;
		if (for_us(net, buf, (size_t)n))
			return n;
	}
}

int emu_net_open_icmp6(struct emu_net *net, uint8_t type)
{
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };
	struct icmp6_filter filt;
	int fd = socket(AF_INET6, SOCK_RAW | SOCK_NONBLOCK, IPPROTO_ICMPV6);

	if (fd < 0)
		return -1;
	/* Only our type: neighbour discovery and echo stay out of our way. */
	ICMP6_FILTER_SETBLOCKALL(&filt);
	ICMP6_FILTER_SETPASS(type, &filt);
	if (setsockopt(fd, IPPROTO_ICMPV6, ICMP6_FILTER, &filt, sizeof(filt)) < 0)
		goto fail;
	/* With an IPv6 local address, only messages sent to it are ours. */
	if (net->version == 6) {
		memcpy(&sin6.sin6_addr, net->local, 16);
		if (bind(fd, (struct sockaddr *)&sin6, sizeof(sin6)) < 0)
			goto fail;
	}
	net->icmp6_fd = fd;
	return 0;
fail:
	close(fd);
	return -1;
}

ssize_t emu_net_recv_icmp6(struct emu_net *net, uint8_t *buf, size_t buflen, uint8_t src[16])
{
	struct sockaddr_in6 sin6;
	socklen_t slen = sizeof(sin6);
	ssize_t n;

	if (net->icmp6_fd < 0)
		return 0;
	n = recvfrom(net->icmp6_fd, buf, buflen, 0, (struct sockaddr *)&sin6, &slen);
	if (n < 0)
		return (errno == EAGAIN || errno == EWOULDBLOCK) ? 0 : -1;
	memcpy(src, &sin6.sin6_addr, 16);
	return n;
}
