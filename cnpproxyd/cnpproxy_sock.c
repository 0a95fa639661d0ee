// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd's raw ICMP sockets: see cnpproxy_sock.h.
 */
#include <zebra.h>

#include <linux/filter.h>
#include <netinet/icmp6.h>

#include "lib/privs.h"

#include "cnpproxyd.h"
#include "cnpproxy_sock.h"

int cnpproxy_icmp_socket(int family, int type)
{
	/* An IPv4 raw socket reads the IP header first: the type is behind it. */
	struct sock_filter one[] = {
		BPF_STMT(BPF_LDX | BPF_B | BPF_MSH, 0),
		BPF_STMT(BPF_LD | BPF_B | BPF_IND, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned int)type, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, 0xffff),
		BPF_STMT(BPF_RET | BPF_K, 0),
	};
	struct sock_filter none[] = { BPF_STMT(BPF_RET | BPF_K, 0) };
	struct sock_fprog prog = type < 0 ? (struct sock_fprog){ .len = 1, .filter = none }
					  : (struct sock_fprog){ .len = array_size(one), .filter = one };
	struct icmp6_filter f6;
	int fd = -1, ret, err;

	frr_with_privs (&cnpproxy_privs) {
		fd = socket(family, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
			    family == AF_INET ? IPPROTO_ICMP : IPPROTO_ICMPV6);
	}
	if (fd < 0)
		return -1;
	if (family == AF_INET) {
		ret = setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog));
	} else {
		ICMP6_FILTER_SETBLOCKALL(&f6);
		if (type >= 0)
			ICMP6_FILTER_SETPASS(type, &f6);
		ret = setsockopt(fd, IPPROTO_ICMPV6, ICMP6_FILTER, &f6, sizeof(f6));
	}
	if (ret < 0) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}
