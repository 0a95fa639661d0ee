// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd configuration model and its consistency rules.
 */
#include <stdio.h>
#include <string.h>

#include "cnpproxy_config.h"
#include "codec/consts.h"

const struct pnc_config pnc_config_off;

void pnc_config_init(struct pnc_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
}

void pnc_cp_if_config_init(struct pnc_cp_if_config *ic, const char *name)
{
	memset(ic, 0, sizeof(*ic));
	snprintf(ic->name, sizeof(ic->name), "%s", name);
	pnc_cp_policy_config_init(&ic->policy);
}

static const char *const format_names[PNC_FMT_MAX] = {
	[PNC_FMT_ROCEV2_CNP] = "rocev2-cnp",
	[PNC_FMT_LONG_HAUL_ICMPV6] = "long-haul-icmpv6",
	[PNC_FMT_LONG_HAUL_ROCEV2] = "long-haul-rocev2",
	[PNC_FMT_RATE_ADVICE] = "rate-advice",
};

const char *pnc_sender_format_name(enum pnc_sender_format fmt)
{
	return fmt < PNC_FMT_MAX ? format_names[fmt] : "unknown";
}

bool pnc_sender_format_parse(const char *name, enum pnc_sender_format *fmt)
{
	for (int i = 0; i < PNC_FMT_MAX; i++) {
		if (!strcmp(name, format_names[i])) {
			*fmt = (enum pnc_sender_format)i;
			return true;
		}
	}
	return false;
}

bool pnc_sender_format_valid(enum pnc_sender_format fmt, uint8_t family, char *err, size_t errlen)
{
	if (fmt >= PNC_FMT_MAX) {
		snprintf(err, errlen, "unknown sender format");
		return false;
	}
	if (fmt == PNC_FMT_LONG_HAUL_ICMPV6 && family != 6) {
		snprintf(err, errlen,
			 "sender format long-haul-icmpv6 needs an IPv6 sender prefix (ICMPv6 reaches IPv6 senders only)");
		return false;
	}
	return true;
}

static bool port_valid(const char *what, uint16_t port, char *err, size_t errlen)
{
	if (port == 0) {
		snprintf(err, errlen, "%s port 0 is not a valid UDP port", what);
		return false;
	}
	/* RoCEv2 data traffic: a notification port must never shadow it. */
	if (port == PNC_ROCE_UDP_PORT) {
		snprintf(err, errlen,
			 "%s port %u is the RoCEv2 data port and cannot carry notifications", what,
			 port);
		return false;
	}
	return true;
}

bool pnc_config_ports_valid(uint16_t notification_port, uint16_t flow_label_port, char *err,
			    size_t errlen)
{
	if (!port_valid("notification", notification_port, err, errlen))
		return false;
	if (!port_valid("flow-label", flow_label_port, err, errlen))
		return false;
	/*
	 * The seed 001 message is four bytes with no type field, so the two
	 * formats can only be told apart by their port.
	 */
	if (notification_port == flow_label_port) {
		snprintf(err, errlen, "notification port and flow-label port must differ (both %u)",
			 notification_port);
		return false;
	}
	return true;
}

bool pnc_config_icmp6_types_valid(uint8_t notification_type, uint8_t long_haul_type, char *err,
				  size_t errlen)
{
	if (notification_type == long_haul_type) {
		snprintf(err, errlen,
			 "notification ICMPv6 type %u is the Long-haul CNP's ICMPv6 type: they must differ",
			 notification_type);
		return false;
	}
	return true;
}

/* Each role as the CLI and as JSON name it. */
static const struct {
	const char *name;
	const char *json;
} role_names[PNC_ROLE_MAX] = {
	[PNC_ROLE_PROXY] = { "proxy", "proxy" },
	[PNC_ROLE_CONGESTION_POINT] = { "congestion-point", "congestionPoint" },
};

const char *pnc_role_name(enum pnc_role role)
{
	return role < PNC_ROLE_MAX ? role_names[role].name : "unknown";
}

const char *pnc_role_json_key(enum pnc_role role)
{
	return role < PNC_ROLE_MAX ? role_names[role].json : "unknown";
}
