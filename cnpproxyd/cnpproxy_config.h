// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd configuration model and its consistency rules.
 *
 * Pure C, no FRR dependency: the northbound callbacks fill it in and ask
 * it whether a candidate configuration is acceptable, and the unit tests
 * exercise the same rules directly.
 */
#ifndef _CNPPROXY_CONFIG_H
#define _CNPPROXY_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* RoCEv2 data traffic; a notification port must never shadow it. */
#define CNP_ROCEV2_UDP_PORT 4791

/*
 * UDP ports for congestion notifications.  The drafts leave both TBD;
 * these are the defaults chosen in wire-formats.md section 0 (above
 * Linux's ephemeral port range, which ends at 60999).
 */
#define CNP_DEFAULT_NOTIFICATION_PORT 61791 /* seed 002 five-tuple format */
#define CNP_DEFAULT_FLOW_LABEL_PORT   61792 /* seed 001 flow-label format */

enum cnp_role {
	CNP_ROLE_PROXY = 0,
	CNP_ROLE_CONGESTION_POINT,
	CNP_ROLE_MAX,
};

struct cnp_config {
	/* "router cnpproxy" exists */
	bool present;
	/* Roles enabled by configuration (all off by default). */
	bool role[CNP_ROLE_MAX];
	uint16_t notification_port;
	uint16_t flow_label_port;
};

/* Reset to the defaults: nothing enabled, default ports. */
extern void cnp_config_init(struct cnp_config *cfg);

/*
 * Check a pair of notification ports.  Returns true when acceptable;
 * otherwise false with a one-line reason for the operator in err.
 */
extern bool cnp_config_ports_valid(uint16_t notification_port, uint16_t flow_label_port, char *err,
				   size_t errlen);

/* "proxy" / "congestion-point": the CLI keyword of a role. */
extern const char *cnp_role_name(enum cnp_role role);
/* "proxy" / "congestionPoint": the JSON key of a role. */
extern const char *cnp_role_json_key(enum cnp_role role);

#endif /* _CNPPROXY_CONFIG_H */
