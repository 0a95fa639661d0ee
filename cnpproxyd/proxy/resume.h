// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd proxy role: Resume through the proxy (seed 000 5.5.1).  A
 * remote congestion point has no message that says "drained" (seed 002
 * carries congestion only), so the proxy itself tells a Long-haul or
 * rate-advice sender it cut that the congestion is over once no
 * notification for the flow came for the configured quiet time.
 */
#ifndef _CNPPROXY_PROXY_RESUME_H
#define _CNPPROXY_PROXY_RESUME_H

#include <stdbool.h>
#include <stdint.h>

/* A flow as the invoking packet names it: enough to find it again. */
struct cnpproxy_resume_flow_ref {
	uint8_t ip_version;
	uint8_t sender[16];
	uint8_t receiver[16];
	uint32_t receiver_qpn;
};

/* Sends ref's sender its Resume; false if nothing was sent. */
typedef bool (*cnpproxy_resume_fn)(const struct cnpproxy_resume_flow_ref *ref);

/* Most flows waiting for a Resume at once; beyond, the sender's own timer. */
#define CNPPROXY_RESUME_MAX 1024

/*
 * A remote notification cut flow ref's sender at now_us: its Resume is
 * due quiet_us later unless another comes.  Under cnpproxy_fp_mtx.
 */
extern void cnpproxy_resume_note(const struct cnpproxy_resume_flow_ref *ref, uint64_t now_us);
/* Follow the configuration: quiet_us 0 stops and forgets; resume sends. */
extern void cnpproxy_resume_apply(uint32_t quiet_us, cnpproxy_resume_fn resume);
extern void cnpproxy_resume_fini(void);

#endif /* _CNPPROXY_PROXY_RESUME_H */
