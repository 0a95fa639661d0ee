// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd proxy role: the ingress PE's local rate adjustment (seed 003
 * 3.2.2.1).  A light notification of a flow this PE tunnels slows that
 * flow into the tunnel, by a per-flow HTB class on the tunnel interface
 * (tunnel/htb.c) that the encapsulation program steers its packets to, and
 * the sender is not told; the class goes once no light notification came
 * for the hold time.  Severe notifications reach the sender as before.
 */
#ifndef _CNPPROXY_TUNNEL_SHAPE_H
#define _CNPPROXY_TUNNEL_SHAPE_H

#include <stdbool.h>
#include <stdint.h>

/* The settings, as the proxy's configuration has them. */
struct cnpproxy_shape_config {
	uint8_t step;	     /* percent cut per light notification */
	uint32_t floor_mbps; /* never below */
	uint32_t hold_us;    /* released this long after the last one */
};

/*
 * The rate a light notification leaves a flow at: step percent below
 * rate_bps (its shaper's, or the rate measured before it had one), and
 * not below floor_bps.  Pure, for tests.
 */
static inline uint64_t cnpproxy_shape_next_rate(uint64_t rate_bps, uint8_t step, uint64_t floor_bps)
{
	uint64_t keep = 100u - (step > 100 ? 100 : step);
	uint64_t r = rate_bps / 100u * keep + rate_bps % 100u * keep / 100u;

	return r < floor_bps ? floor_bps : r;
}

/* A flow's average rate from its first to its last packet; 0 if unknown. */
static inline uint64_t cnpproxy_shape_measured(uint64_t bytes, uint64_t first_ns, uint64_t last_ns)
{
	if (last_ns <= first_ns || bytes > UINT64_MAX / 8000000000u)
		return 0;
	return bytes * 8000000000u / (last_ns - first_ns);
}

struct json_object;
struct pnc_tunnel_tc;
struct pnc_flow;
struct vty;

/*
 * The tunnel runs on ifindex with program fe: shaping may start (cfg
 * NULL: it is off).  Called again for a new setting or interface.
 */
extern void cnpproxy_shape_start(struct pnc_tunnel_tc *fe, int ifindex,
				 const struct cnpproxy_shape_config *cfg);
/* Every shaper removed, the interface's qdisc as it was. */
extern void cnpproxy_shape_stop(void);
/*
 * A light notification for learned flow f: true when f is tunnelled
 * here and local shaping runs, so that the PE slows it (on the main
 * thread, soon) and the sender is left alone.  Any thread.
 */
extern bool cnpproxy_shape_light(const struct pnc_flow *f);
/* show cnpproxy flow-labels: the shaped flows and counters. */
extern void cnpproxy_shape_show(struct vty *vty, struct json_object *json);
extern void cnpproxy_shape_counters_clear(void);

#endif /* _CNPPROXY_TUNNEL_SHAPE_H */
