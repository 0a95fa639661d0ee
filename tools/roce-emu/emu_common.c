// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * roce-emu: defaults, clock and JSON-lines log.
 */
#include <stdarg.h>
#include <time.h>

#include <string.h>

#include "codec/lhcnp.h"
#include "codec/ratead.h"
#include "codec/roce.h"

#include "roce_emu.h"

void emu_cfg_defaults(struct emu_cfg *cfg)
{
	*cfg = (struct emu_cfg){
		.use_cm = true,
		.start_psn = 0x1000,
		.pkey = 0xffff,
		.dscp = 26,
		.ecn = 2,
		.mtu = 1024,
		.ack_every = 8,
		.duration_s = 5,
		.log_ms = 10,
		.rate = { .line_mbps = 100,
			  .min_mbps = 1,
			  .g = 1.0 / 16,
			  .ai_mbps = 5,
			  .recovery_us = 1000,
			  /* Ten round trips of a 10 ms long-haul link without news. */
			  .lh_recovery_us = 100000 },
		.lh_icmp6_type = PNC_LH_ICMP6_TYPE,
		.lh_class_num = PNC_LH_EXT_CLASS_NUM,
		.ra_opcode = PNC_RA_OPCODE,
		.cnp_interval_us = 50,
		.log = stdout,
	};
}

uint64_t emu_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* One JSON object per line, time-stamped in wall-clock seconds. */
void emu_log(const struct emu_cfg *cfg, const char *fmt, ...)
{
	struct timespec ts;
	va_list ap;

	clock_gettime(CLOCK_REALTIME, &ts);
	fprintf(cfg->log, "{\"time\":%lld.%06ld,\"role\":\"%s\",", (long long)ts.tv_sec,
		ts.tv_nsec / 1000, cfg->requester ? "requester" : "responder");
	va_start(ap, fmt);
	vfprintf(cfg->log, fmt, ap);
	va_end(ap);
	fputs("}\n", cfg->log);
	fflush(cfg->log);
}

void emu_ip_fill(struct emu_cfg *cfg, struct pnc_ip_udp *ip, uint8_t tos)
{
	pnc_ip_udp_init(ip, (uint8_t)cfg->net.version);
	memcpy(ip->src, cfg->net.local, 16);
	memcpy(ip->dst, cfg->remote, 16);
	ip->tos = tos;
	/* The ICRC covers the IPv4 ID, so the kernel must not pick one. */
	ip->ip_id = ++cfg->ip_id ? cfg->ip_id : ++cfg->ip_id;
	ip->sport = (uint16_t)(0xc000 | (cfg->local_qpn & 0x3fff));
}
