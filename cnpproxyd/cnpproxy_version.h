// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd version.  The single place the pnc version is defined; the
 * top-level configure.ac reads it from here.
 */
#ifndef _CNPPROXY_VERSION_H
#define _CNPPROXY_VERSION_H

#define CNPPROXYD_VERSION "0.1.0"

#endif /* _CNPPROXY_VERSION_H */
