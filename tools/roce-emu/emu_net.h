// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * roce-emu sockets: RoCEv2 packets are built whole (IP header first) and
 * sent through a raw IP socket; they are received whole from a packet
 * socket, since a UDP socket hides the IP header fields the ICRC covers.
 */
#ifndef ROCE_EMU_NET_H
#define ROCE_EMU_NET_H

#include <stddef.h>
#include <stdint.h>

struct emu_net {
	int version;	   /* 4 or 6 */
	uint8_t local[16]; /* our address (IPv4: first 4 octets) */
	int send_fd;	   /* raw IP, header included */
	int recv_fd;	   /* AF_PACKET, cooked, all interfaces */
	int sink_fd;	   /* UDP 4791 bound, so the kernel sends no ICMP */
	int icmp6_fd;	   /* raw ICMPv6, Long-haul CNPs only (-1: not open) */
};

/* Parse an IPv4 or IPv6 address into version and 16 octets. */
int emu_parse_addr(const char *str, int *version, uint8_t addr[16]);

int emu_net_open(struct emu_net *net, int version, const uint8_t local[16]);
void emu_net_close(struct emu_net *net);

/* Send a packet that starts at its IP header. */
int emu_net_send(struct emu_net *net, const uint8_t *pkt, size_t len);

/*
 * Next RoCEv2 packet (UDP destination 4791) addressed to us, IP header
 * first; 0 if none is waiting, -1 on error.
 */
ssize_t emu_net_recv(struct emu_net *net, uint8_t *buf, size_t buflen);

/*
 * Raw ICMPv6 socket that passes only the given type (the ICMPv6 form of
 * the Long-haul CNP); the kernel verifies the checksum.
 */
int emu_net_open_icmp6(struct emu_net *net, uint8_t type);
/*
 * Next ICMPv6 message (from its type octet, no IP header) and its IPv6
 * source; 0 if none is waiting, -1 on error.
 */
ssize_t emu_net_recv_icmp6(struct emu_net *net, uint8_t *buf, size_t buflen, uint8_t src[16]);

#endif /* ROCE_EMU_NET_H */
