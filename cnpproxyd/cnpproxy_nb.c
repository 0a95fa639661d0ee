// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd northbound: the callback table of module frr-cnpproxyd.
 */
#include <zebra.h>

#include "lib/northbound.h"

#include "cnpproxy_nb.h"

/* clang-format off */
const struct frr_yang_module_info frr_cnpproxyd_info = {
	.name = "frr-cnpproxyd",
	.nodes = {
		{
			.xpath = CNPPROXY_XPATH,
			.cbs = {
				.create = cnpproxy_nb_create,
				.destroy = cnpproxy_destroy,
				.cli_show = cli_show_cnpproxy,
				.cli_show_end = cli_show_cnpproxy_end,
				.apply_finish = cnpproxy_apply_finish,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy",
			.cbs = {
				.create = cnpproxy_nb_create,
				.destroy = cnpproxy_nb_destroy,
				.cli_show = cli_show_cnpproxy_role,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/source-ipv4",
			.cbs = {
				.modify = cnpproxy_proxy_source_modify,
				.destroy = cnpproxy_nb_destroy,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/source-ipv6",
			.cbs = {
				.modify = cnpproxy_proxy_source_modify,
				.destroy = cnpproxy_nb_destroy,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/accept-prefix-list",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.destroy = cnpproxy_nb_destroy,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/cnp-min-interval",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/cnp-dscp",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/rate-limit-per-source",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/rate-limit-global",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/learn-interface",
			.cbs = {
				.create = cnpproxy_nb_create,
				.destroy = cnpproxy_nb_destroy,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/filter-interface",
			.cbs = {
				.create = cnpproxy_nb_create,
				.destroy = cnpproxy_nb_destroy,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/fast-path",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/fast-path-busy-poll",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/flow-table-size",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/sender",
			.cbs = {
				.create = cnpproxy_nb_create,
				.destroy = cnpproxy_nb_destroy,
				.cli_show = cli_show_cnpproxy_proxy_sender,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/sender/format",
			.cbs = {
				.modify = cnpproxy_proxy_sender_format_modify,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/sender/cnp-sized",
			.cbs = {
				.modify = cnpproxy_proxy_sender_cnp_sized_modify,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/severe-level",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/light-to-sender",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/light-cnp-pacing",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/long-haul/icmpv6-type",
			.cbs = {
				.modify = cnpproxy_icmp6_type_modify,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/long-haul/class-num",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/long-haul/light-action",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/long-haul/light-reduce",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/long-haul/severe-reduce",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/long-haul/severe-reduce-step",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/long-haul/resume-share",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/long-haul/pause-time",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/rate-advice/opcode",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/rate-advice/max-rate",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/long-haul/device-id",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.destroy = cnpproxy_nb_destroy,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/resume-after",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/flow-label-tunnel",
			.cbs = {
				.create = cnpproxy_nb_create,
				.destroy = cnpproxy_nb_destroy,
				.cli_show = cli_show_cnpproxy_tunnel,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/flow-label-tunnel/interface",
			.cbs = {
				.modify = cnpproxy_nb_modify,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/flow-label-tunnel/source",
			.cbs = {
				.modify = cnpproxy_tunnel_address_modify,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/flow-label-tunnel/local-shaping",
			.cbs = {
				.create = cnpproxy_nb_create,
				.destroy = cnpproxy_nb_destroy,
				.cli_show = cli_show_cnpproxy_tunnel_shaping,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/flow-label-tunnel/local-shaping/step",
			.cbs = {
				.modify = cnpproxy_nb_modify,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/flow-label-tunnel/local-shaping/floor",
			.cbs = {
				.modify = cnpproxy_nb_modify,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/flow-label-tunnel/local-shaping/hold-time",
			.cbs = {
				.modify = cnpproxy_nb_modify,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/flow-label-tunnel/tunnel",
			.cbs = {
				.create = cnpproxy_nb_create,
				.destroy = cnpproxy_nb_destroy,
				.cli_show = cli_show_cnpproxy_tunnel_prefix,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/flow-label-tunnel/tunnel/endpoint",
			.cbs = {
				.modify = cnpproxy_tunnel_address_modify,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/flow-label-tunnel/tunnel/vxlan",
			.cbs = {
				.create = cnpproxy_nb_create,
				.destroy = cnpproxy_nb_destroy,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/flow-label-tunnel/tunnel/vxlan/vni",
			.cbs = {
				.modify = cnpproxy_nb_modify,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/flow-label-tunnel/tunnel/vxlan/router-mac",
			.cbs = {
				.modify = cnpproxy_tunnel_mac_modify,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point",
			.cbs = {
				.create = cnpproxy_nb_create,
				.destroy = cnpproxy_nb_destroy,
				.cli_show = cli_show_cnpproxy_role,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/source-ipv4",
			.cbs = {
				.modify = cnpproxy_cp_source_modify,
				.destroy = cnpproxy_nb_destroy,
				.cli_show = cli_show_cnpproxy_cp_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/source-ipv6",
			.cbs = {
				.modify = cnpproxy_cp_source_modify,
				.destroy = cnpproxy_nb_destroy,
				.cli_show = cli_show_cnpproxy_cp_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/tunnel-heads-prefix-list",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.destroy = cnpproxy_nb_destroy,
				.cli_show = cli_show_cnpproxy_cp_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/direct-to-source-prefix-list",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.destroy = cnpproxy_nb_destroy,
				.cli_show = cli_show_cnpproxy_cp_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/hide-queue-state",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.cli_show = cli_show_cnpproxy_cp_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/notification-form",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.cli_show = cli_show_cnpproxy_cp_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/fcn-copy-flow-label",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.cli_show = cli_show_cnpproxy_cp_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/fallback-proxy",
			.cbs = {
				.modify = cnpproxy_cp_fallback_modify,
				.destroy = cnpproxy_nb_destroy,
				.cli_show = cli_show_cnpproxy_cp_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface",
			.cbs = {
				.create = cnpproxy_nb_create,
				.destroy = cnpproxy_nb_destroy,
				.cli_show = cli_show_cnpproxy_cp_if,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/poll-interval",
			.cbs = {
				.modify = cnpproxy_nb_modify,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/threshold-mode",
			.cbs = {
				.modify = cnpproxy_nb_modify,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/k-min",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.destroy = cnpproxy_nb_destroy,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/k-max",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.destroy = cnpproxy_nb_destroy,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/k-base",
			.cbs = {
				.modify = cnpproxy_nb_modify,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/alpha",
			.cbs = {
				.modify = cnpproxy_nb_modify,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/rate",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.destroy = cnpproxy_nb_destroy,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/rtt",
			.cbs = {
				.modify = cnpproxy_nb_modify,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/k-min-percent",
			.cbs = {
				.modify = cnpproxy_nb_modify,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/ecn-rate-threshold",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.destroy = cnpproxy_nb_destroy,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/growth-rate-threshold",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.destroy = cnpproxy_nb_destroy,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/marking",
			.cbs = {
				.modify = cnpproxy_nb_modify,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/notify-min-interval",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.destroy = cnpproxy_nb_destroy,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/notify-min-share",
			.cbs = {
				.modify = cnpproxy_nb_modify,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/collaborative-suppression",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.destroy = cnpproxy_nb_destroy,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/notify-rate-limit",
			.cbs = {
				.modify = cnpproxy_nb_modify,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy-for",
			.cbs = {
				.create = cnpproxy_nb_create,
				.destroy = cnpproxy_nb_destroy,
				.cli_show = cli_show_cnpproxy_proxy_for,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy-for/via",
			.cbs = {
				.modify = cnpproxy_proxy_for_via_modify,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/notification-port",
			.cbs = {
				.modify = cnpproxy_port_modify,
				.cli_show = cli_show_cnpproxy_port,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/flow-label-port",
			.cbs = {
				.modify = cnpproxy_port_modify,
				.cli_show = cli_show_cnpproxy_port,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/notification-icmp-type",
			.cbs = {
				.modify = cnpproxy_nb_modify,
				.cli_show = cli_show_cnpproxy_port,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/notification-icmpv6-type",
			.cbs = {
				.modify = cnpproxy_icmp6_type_modify,
				.cli_show = cli_show_cnpproxy_port,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/tunnel-egress/interface",
			.cbs = {
				.create = cnpproxy_nb_create,
				.destroy = cnpproxy_nb_destroy,
				.cli_show = cli_show_cnpproxy_tunnel_egress,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/tunnel-egress/sid",
			.cbs = {
				.create = cnpproxy_tunnel_egress_sid_create,
				.destroy = cnpproxy_nb_destroy,
				.cli_show = cli_show_cnpproxy_tunnel_egress,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/border-interface",
			.cbs = {
				.create = cnpproxy_nb_create,
				.destroy = cnpproxy_nb_destroy,
				.cli_show = cli_show_cnpproxy_border_if,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/received",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/received-flow-label",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/received-icmp",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/received-local",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/dropped-socket-overflow",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/received-af-xdp",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/dropped-af-xdp-ring",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/dropped-at-driver-source-denied",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/dropped-at-driver-rate-limit-source",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/dropped-at-driver-header-chain",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/dropped-no-accept-list",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/dropped-source-denied",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/dropped-rate-limit-source",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/dropped-rate-limit-global",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/dropped-malformed",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/dropped-no-invoking-packet",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/dropped-unknown-flow",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/dropped-flow-label-unresolved",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/dropped-no-cnp-source",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/suppressed-min-interval",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/resumes-sent",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/shaped-locally",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/suppressed-light",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/cnp-sent",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/cnp-sent-at-driver",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/passed-to-socket-path",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/long-haul-icmpv6-sent",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/long-haul-rocev2-sent",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/rate-advice-sent",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/sent-af-xdp",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/cnp-send-error",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy/flows",
			.cbs = {
				.get_elem = cnpproxy_state_proxy_flows_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy-table",
			.cbs = {
				.get_next = cnpproxy_state_pt_get_next,
				.get_keys = cnpproxy_state_pt_get_keys,
				.lookup_entry = cnpproxy_state_pt_lookup_entry,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy-table/prefix",
			.cbs = {
				.get_elem = cnpproxy_state_pt_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy-table/proxy",
			.cbs = {
				.get_elem = cnpproxy_state_pt_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy-table/source",
			.cbs = {
				.get_elem = cnpproxy_state_pt_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/proxy-table/protocol",
			.cbs = {
				.get_elem = cnpproxy_state_pt_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/attachment",
			.cbs = {
				.get_next = cnpproxy_state_attach_get_next,
				.get_keys = cnpproxy_state_attach_get_keys,
				.lookup_entry = cnpproxy_state_attach_lookup_entry,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/attachment/program",
			.cbs = {
				.get_elem = cnpproxy_state_attach_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/attachment/interface",
			.cbs = {
				.get_elem = cnpproxy_state_attach_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/attachment/attached",
			.cbs = {
				.get_elem = cnpproxy_state_attach_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/attachment/ifindex",
			.cbs = {
				.get_elem = cnpproxy_state_attach_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/attachment/reason",
			.cbs = {
				.get_elem = cnpproxy_state_attach_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/flow",
			.cbs = {
				.get_next = cnpproxy_state_flow_get_next,
				.get_keys = cnpproxy_state_flow_get_keys,
				.lookup_entry = cnpproxy_state_flow_lookup_entry,
				.lookup_next = cnpproxy_state_flow_lookup_next,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/flow/sender",
			.cbs = {
				.get_elem = cnpproxy_state_flow_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/flow/receiver",
			.cbs = {
				.get_elem = cnpproxy_state_flow_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/flow/receiver-qpn",
			.cbs = {
				.get_elem = cnpproxy_state_flow_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/flow/sender-qpn",
			.cbs = {
				.get_elem = cnpproxy_state_flow_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/flow/pkey",
			.cbs = {
				.get_elem = cnpproxy_state_flow_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/flow/learned-by",
			.cbs = {
				.get_elem = cnpproxy_state_flow_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/flow/packets",
			.cbs = {
				.get_elem = cnpproxy_state_flow_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/congestion-interface",
			.cbs = {
				.get_next = cnpproxy_state_cp_if_get_next,
				.get_keys = cnpproxy_state_cp_if_get_keys,
				.lookup_entry = cnpproxy_state_cp_if_lookup_entry,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/congestion-interface/name",
			.cbs = {
				.get_elem = cnpproxy_state_cp_if_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/congestion-interface/state",
			.cbs = {
				.get_elem = cnpproxy_state_cp_if_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/congestion-interface/backlog",
			.cbs = {
				.get_elem = cnpproxy_state_cp_if_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/congestion-interface/average-backlog",
			.cbs = {
				.get_elem = cnpproxy_state_cp_if_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/congestion-interface/k-min",
			.cbs = {
				.get_elem = cnpproxy_state_cp_if_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/congestion-interface/k-max",
			.cbs = {
				.get_elem = cnpproxy_state_cp_if_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/congestion-interface/polls",
			.cbs = {
				.get_elem = cnpproxy_state_cp_if_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/congestion-interface/poll-errors",
			.cbs = {
				.get_elem = cnpproxy_state_cp_if_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/congestion-interface/onsets",
			.cbs = {
				.get_elem = cnpproxy_state_cp_if_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/congestion-interface/congested",
			.cbs = {
				.get_elem = cnpproxy_state_cp_if_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/congestion-interface/resumes",
			.cbs = {
				.get_elem = cnpproxy_state_cp_if_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/congestion-interface/samples",
			.cbs = {
				.get_elem = cnpproxy_state_cp_if_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/congestion-interface/samples-malformed",
			.cbs = {
				.get_elem = cnpproxy_state_cp_if_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/congestion-interface/notifications-sent",
			.cbs = {
				.get_elem = cnpproxy_state_cp_if_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/congestion-interface/flow-label-sent",
			.cbs = {
				.get_elem = cnpproxy_state_cp_if_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/congestion-interface/fallback-sent",
			.cbs = {
				.get_elem = cnpproxy_state_cp_if_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/congestion-interface/no-proxy",
			.cbs = {
				.get_elem = cnpproxy_state_cp_if_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/congestion-interface/suppressed-flow-interval",
			.cbs = {
				.get_elem = cnpproxy_state_cp_if_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/congestion-interface/suppressed-small-flow",
			.cbs = {
				.get_elem = cnpproxy_state_cp_if_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/congestion-interface/suppressed-rate-limit",
			.cbs = {
				.get_elem = cnpproxy_state_cp_if_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/congestion-interface/suppressed-collaborative",
			.cbs = {
				.get_elem = cnpproxy_state_cp_if_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/congestion-interface/deferred",
			.cbs = {
				.get_elem = cnpproxy_state_cp_if_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/congestion-interface/escalated",
			.cbs = {
				.get_elem = cnpproxy_state_cp_if_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/congestion-interface/direct-sent",
			.cbs = {
				.get_elem = cnpproxy_state_cp_if_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/congestion-interface/direct-suppressed",
			.cbs = {
				.get_elem = cnpproxy_state_cp_if_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/congestion-interface/direct-unknown-flow",
			.cbs = {
				.get_elem = cnpproxy_state_cp_if_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/congestion-interface/direct-resumes",
			.cbs = {
				.get_elem = cnpproxy_state_cp_if_get_elem,
			},
		},
		{
			.xpath = "/frr-cnpproxyd:cnpproxyd/state/congestion-interface/send-errors",
			.cbs = {
				.get_elem = cnpproxy_state_cp_if_get_elem,
			},
		},
		{
			.xpath = NULL,
		},
	}
};
/* clang-format on */
