// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd's raw ICMP sockets: the notification's ICMP form is sent by
 * the congestion point and received by the proxy on sockets that the
 * kernel filters, so that neither reads the host's other ICMP traffic.
 */
#ifndef _CNPPROXY_SOCK_H
#define _CNPPROXY_SOCK_H

/*
 * A non-blocking raw ICMP (AF_INET) or ICMPv6 (AF_INET6) socket that
 * receives only messages of type, or nothing with type -1 (a socket to
 * send on).  -1 with errno set if it cannot be had.
 */
extern int cnpproxy_icmp_socket(int family, int type);

#endif /* _CNPPROXY_SOCK_H */
