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

#include "cp/policy.h"

/*
 * The settings as the daemon uses them.  Their defaults are written down
 * once, in yang/frr-cnpproxyd.yang: the northbound reads every value,
 * defaults included, from the committed configuration tree.
 */

enum pnc_role {
	PNC_ROLE_PROXY = 0,
	PNC_ROLE_CONGESTION_POINT,
	PNC_ROLE_MAX,
};

/* Sender-native message formats (YANG enumeration "format"). */
enum pnc_sender_format {
	PNC_FMT_ROCEV2_CNP = 0,
	PNC_FMT_LONG_HAUL_ICMPV6,
	PNC_FMT_LONG_HAUL_ROCEV2,
	PNC_FMT_RATE_ADVICE,
	PNC_FMT_MAX,
};

#define PNC_PLIST_NAME_MAX 64
#define PNC_LEARN_IF_MAX   16
#define PNC_IFNAME_MAX	   16 /* IFNAMSIZ */

#define PNC_TUNNEL_PREFIX_MAX 16
#define PNC_SENDER_MAX	  64
#define PNC_DEVICE_ID_MAX 64

/* Senders in a prefix and the message they understand. */
struct pnc_sender {
	uint8_t family; /* 4 or 6 */
	uint8_t prefix[16];
	uint8_t plen;
	enum pnc_sender_format format;
	/* long-haul-rocev2: pad to a CNP's length (YANG "cnp-sized") */
	bool cnp_sized;
};

/* Long-haul light-notification actions (YANG "light-action"). */
enum pnc_lh_light_action {
	PNC_LH_LIGHT_NOTIFY = 0,
	PNC_LH_LIGHT_RATE_REDUCE,
};

/*
 * How a notification's Congestion Level (0-7) becomes the sender's
 * message: levels from severe_level up are severe, the others light.
 */
struct pnc_level_policy {
	uint8_t severe_level;	  /* 1-7 */
	bool light_to_sender;	  /* false: light ones reach no sender (seed 003) */
	uint8_t light_cnp_pacing; /* light: one CNP per N minimum intervals; 0: none */
	uint8_t lh_light_action;  /* enum pnc_lh_light_action */
	uint8_t lh_light_reduce;  /* percent */
	uint8_t lh_severe_reduce; /* percent, at severe_level */
	uint8_t lh_reduce_step;	  /* percent more per level above severe_level */
	uint8_t lh_resume_share;  /* Resume: percent of the cut given back; 0 all */
	uint16_t lh_pause_us;	  /* CL 7 pauses this long; 0: it reduces */
	uint32_t ra_max_rate;	  /* Mb/s: advice = max * (8 - CL) / 8 */
};

/* A prefix whose traffic enters the flow-label tunnel, and its egress PE. */
struct pnc_tunnel_prefix {
	uint8_t family; /* 4 or 6 */
	uint8_t prefix[16];
	uint8_t plen;
	uint8_t endpoint[16]; /* IPv6 */
	uint32_t vni;	      /* 0: IPv6-in-IPv6; else VXLAN over IPv6 */
	uint8_t router_mac[6]; /* VXLAN: the inner destination MAC */
};

/* Where the proxy's data path runs (`proxy fast-path`). */
enum pnc_fast_path {
	PNC_FAST_PATH_SOCKET = 0, /* the daemon's sockets */
	PNC_FAST_PATH_XDP,	  /* the filter interfaces' XDP program */
	PNC_FAST_PATH_AF_XDP,	  /* AF_XDP sockets the XDP program steers to */
};

/* The proxy role's settings. */
struct pnc_proxy_config {
	bool src4_set, src6_set;
	uint8_t src4[4];  /* IP source of CNPs to IPv4 senders */
	uint8_t src6[16]; /* ... and to IPv6 senders */
	/* Accepted notification sources; empty: accept nothing. */
	char accept_plist[PNC_PLIST_NAME_MAX];
	uint32_t cnp_min_interval_us;
	/* Resume a cut sender after this long without notifications; 0 never. */
	uint32_t resume_after_us;
	uint8_t cnp_dscp;
	uint32_t rl_per_source; /* notifications per second */
	uint32_t rl_global;
	uint32_t flow_table_size; /* most flows learned */
	/* Interfaces where queue pairs are learned. */
	char learn_if[PNC_LEARN_IF_MAX][PNC_IFNAME_MAX];
	unsigned int n_learn_if;
	/* Interfaces whose XDP program drops what the accept list refuses. */
	char filter_if[PNC_LEARN_IF_MAX][PNC_IFNAME_MAX];
	unsigned int n_filter_if;
	uint8_t fast_path; /* enum pnc_fast_path */
	bool fast_path_busy_poll;
	/*
	 * Seed 001 ingress PE: flows to the tunnel prefixes leave tunnel_if in
	 * an outer IPv6 header from tunnel_src with a per-flow flow label.
	 */
	bool tunnel_enabled;
	char tunnel_if[PNC_IFNAME_MAX];
	uint8_t tunnel_src[16];
	struct pnc_tunnel_prefix tunnel_prefixes[PNC_TUNNEL_PREFIX_MAX];
	unsigned int n_tunnel_prefixes;
	/*
	 * Seed 003 3.2.2.1: a light notification of a tunnelled flow slows
	 * the flow here, into the tunnel, and the sender hears nothing.
	 */
	bool tunnel_shape;
	uint8_t tunnel_shape_step;	  /* percent cut per light notification */
	uint32_t tunnel_shape_floor_mbps; /* never below */
	uint32_t tunnel_shape_hold_us;	  /* released this long after the last one */
	/* Sender-native formats; senders outside every prefix get CNPs. */
	struct pnc_sender senders[PNC_SENDER_MAX];
	unsigned int n_senders;
	struct pnc_level_policy level;
	uint8_t lh_icmp6_type;
	uint8_t lh_class_num;
	/* Non-empty: Long-haul messages carry the RFC 4884 extension. */
	char lh_device_id[PNC_DEVICE_ID_MAX + 1];
	uint8_t ra_opcode;
};

#define PNC_CP_IF_MAX	  16
#define PNC_BORDER_IF_MAX 16
#define PNC_EGRESS_IF_MAX  16
#define PNC_EGRESS_SID_MAX 16

/* A watched egress interface of the congestion point role. */
struct pnc_cp_if_config {
	char name[PNC_IFNAME_MAX];
	uint16_t poll_ms;
	struct pnc_cp_policy_config policy;
	uint32_t notify_min_interval_us; /* 0: the policy's RTT_est */
	uint8_t notify_min_share;	 /* percent of the largest flow; 0: every flow */
	uint32_t notify_rate;		 /* per second, all flows */
	/* Collaborative suppression: the arrival-rate fall, percent; 0: off. */
	uint8_t collab_fall_percent;
};

/* The congestion point role's settings. */
struct pnc_cp_config {
	bool src4_set, src6_set;
	uint8_t src4[4];
	uint8_t src6[16];
	/* Proxy for senders the proxy table does not know; family 0: none. */
	uint8_t fallback_family; /* 4 or 6 */
	uint8_t fallback[16];
	/* Outer sources that get flow-label notifications without PNC; "": none. */
	char tunnel_heads_plist[PNC_PLIST_NAME_MAX];
	/*
	 * Senders this router sends to itself, as their proxy, through its
	 * proxy role (seed 000); "": those whose proxy it is only.
	 */
	char direct_plist[PNC_PLIST_NAME_MAX];
	/* Long-haul CNPs sent from here carry no queue depth. */
	bool hide_queue_state;
	/* FCNs carry the label they name in their own IPv6 header (seed 001). */
	bool fcn_copy_flow_label;
	/* Five-tuple notifications go out in their ICMP form, not as UDP. */
	bool notify_icmp;
	struct pnc_cp_if_config ifs[PNC_CP_IF_MAX];
	unsigned int n_if;
};

struct pnc_config {
	/* "router cnpproxy" exists */
	bool present;
	/* Roles enabled by configuration (all off by default). */
	bool role[PNC_ROLE_MAX];
	uint16_t notification_port;
	uint16_t flow_label_port;
	/* Types of the notification's ICMP form (doc/wire-formats.md 6.5). */
	uint8_t notification_icmp_type;
	uint8_t notification_icmp6_type;
	struct pnc_proxy_config proxy;
	struct pnc_cp_config cp;
	/* Where the domain ends: both notification ports dropped on ingress. */
	char border_if[PNC_BORDER_IF_MAX][PNC_IFNAME_MAX];
	unsigned int n_border_if;
	/* Egress PE of the flow-label tunnel: where, and for which outer destinations. */
	char egress_if[PNC_EGRESS_IF_MAX][PNC_IFNAME_MAX];
	unsigned int n_egress_if;
	uint8_t egress_sid[PNC_EGRESS_SID_MAX][16];
	unsigned int n_egress_sid;
};

/* Nothing configured: every role off, every value zero. */
extern void pnc_config_init(struct pnc_config *cfg);
/* No "router cnpproxy": what a role holds before its first apply. */
extern const struct pnc_config pnc_config_off;

/*
 * Check a pair of notification ports.  Returns true when acceptable;
 * otherwise false with a one-line reason for the operator in err.
 */
extern bool pnc_config_ports_valid(uint16_t notification_port, uint16_t flow_label_port, char *err,
				   size_t errlen);

/*
 * Check the notification's ICMPv6 type against the Long-haul CNP's: a
 * router must be able to tell the two apart.  As pnc_config_ports_valid().
 */
extern bool pnc_config_icmp6_types_valid(uint8_t notification_type, uint8_t long_haul_type,
					 char *err, size_t errlen);

/* A congestion point interface named name, every value zero. */
extern void pnc_cp_if_config_init(struct pnc_cp_if_config *ic, const char *name);

/* The YANG/CLI name of a format, and back (false if unknown). */
extern const char *pnc_sender_format_name(enum pnc_sender_format fmt);
extern bool pnc_sender_format_parse(const char *name, enum pnc_sender_format *fmt);
/*
 * Whether senders of an address family (4 or 6) can be sent the format:
 * the ICMPv6 form exists for IPv6 only.  A refusal says why in err.
 */
extern bool pnc_sender_format_valid(enum pnc_sender_format fmt, uint8_t family, char *err,
				    size_t errlen);

/* "proxy" / "congestion-point": the CLI keyword of a role. */
extern const char *pnc_role_name(enum pnc_role role);
/* "proxy" / "congestionPoint": the JSON key of a role. */
extern const char *pnc_role_json_key(enum pnc_role role);

#endif /* _CNPPROXY_CONFIG_H */
