// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd proxy role: the XDP-native translator's tables
 * (`proxy fast-path xdp`): the flows, the interfaces a CNP may leave
 * by, and the settings, published to the proxy's XDP program.
 */
#ifndef _CNPPROXY_XLATE_H
#define _CNPPROXY_XLATE_H

struct pnc_learn_xdp;
struct vty;
struct json_object;

/* Where the proxy's data path runs (`proxy fast-path`). */
enum cnp_fast_path {
	CNP_FAST_PATH_SOCKET = 0, /* the daemon's sockets */
	CNP_FAST_PATH_XDP,	  /* the filter interfaces' XDP program */
	CNP_FAST_PATH_AF_XDP,	  /* AF_XDP sockets the XDP program steers to */
};

/* Publish all of it now (configuration applied, program (re)loaded). */
extern void cnpproxy_xlate_sync_now(struct pnc_learn_xdp *lx);
/* Flows may have changed: publish soon, once for many calls. */
extern void cnpproxy_xlate_flows_changed(void);
/* Why the translator asked for does not run, or NULL. */
extern const char *cnpproxy_xlate_not_operational(void);
extern void cnpproxy_xlate_show(struct vty *vty, struct json_object *json);
extern const char *cnp_fast_path_name(enum cnp_fast_path p);
extern void cnpproxy_xlate_init(void);
extern void cnpproxy_xlate_fini(void);

#endif /* _CNPPROXY_XLATE_H */
