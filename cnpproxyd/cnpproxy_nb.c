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
				.create = cnpproxy_create,
				.destroy = cnpproxy_destroy,
				.cli_show = cli_show_cnpproxy,
				.cli_show_end = cli_show_cnpproxy_end,
				.apply_finish = cnpproxy_apply_finish,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy",
			.cbs = {
				.create = cnpproxy_proxy_create,
				.destroy = cnpproxy_proxy_destroy,
				.cli_show = cli_show_cnpproxy_proxy,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/source-ipv4",
			.cbs = {
				.modify = cnpproxy_proxy_setting_modify,
				.destroy = cnpproxy_proxy_setting_destroy,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/source-ipv6",
			.cbs = {
				.modify = cnpproxy_proxy_setting_modify,
				.destroy = cnpproxy_proxy_setting_destroy,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/accept-prefix-list",
			.cbs = {
				.modify = cnpproxy_proxy_setting_modify,
				.destroy = cnpproxy_proxy_setting_destroy,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/cnp-min-interval",
			.cbs = {
				.modify = cnpproxy_proxy_setting_modify,
				.destroy = cnpproxy_proxy_setting_destroy,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/cnp-dscp",
			.cbs = {
				.modify = cnpproxy_proxy_setting_modify,
				.destroy = cnpproxy_proxy_setting_destroy,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/rate-limit-per-source",
			.cbs = {
				.modify = cnpproxy_proxy_setting_modify,
				.destroy = cnpproxy_proxy_setting_destroy,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/rate-limit-global",
			.cbs = {
				.modify = cnpproxy_proxy_setting_modify,
				.destroy = cnpproxy_proxy_setting_destroy,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/learn-interface",
			.cbs = {
				.create = cnpproxy_proxy_learn_if_create,
				.destroy = cnpproxy_proxy_learn_if_destroy,
				.cli_show = cli_show_cnpproxy_proxy_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/sender",
			.cbs = {
				.create = cnpproxy_proxy_sender_create,
				.destroy = cnpproxy_proxy_sender_destroy,
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
			.xpath = CNPPROXY_XPATH "/proxy/flow-label-tunnel",
			.cbs = {
				.create = cnpproxy_fl_create,
				.destroy = cnpproxy_fl_destroy,
				.cli_show = cli_show_cnpproxy_fl,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/flow-label-tunnel/interface",
			.cbs = {
				.modify = cnpproxy_fl_modify,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/flow-label-tunnel/source",
			.cbs = {
				.modify = cnpproxy_fl_modify,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/flow-label-tunnel/tunnel",
			.cbs = {
				.create = cnpproxy_fl_create,
				.destroy = cnpproxy_fl_destroy,
				.cli_show = cli_show_cnpproxy_fl_tunnel,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy/flow-label-tunnel/tunnel/endpoint",
			.cbs = {
				.modify = cnpproxy_fl_modify,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point",
			.cbs = {
				.create = cnpproxy_congestion_point_create,
				.destroy = cnpproxy_congestion_point_destroy,
				.cli_show = cli_show_cnpproxy_congestion_point,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/source-ipv4",
			.cbs = {
				.modify = cnpproxy_cp_leaf_modify,
				.destroy = cnpproxy_cp_leaf_destroy,
				.cli_show = cli_show_cnpproxy_cp_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/source-ipv6",
			.cbs = {
				.modify = cnpproxy_cp_leaf_modify,
				.destroy = cnpproxy_cp_leaf_destroy,
				.cli_show = cli_show_cnpproxy_cp_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/fallback-proxy",
			.cbs = {
				.modify = cnpproxy_cp_fallback_modify,
				.destroy = cnpproxy_cp_leaf_destroy,
				.cli_show = cli_show_cnpproxy_cp_setting,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface",
			.cbs = {
				.create = cnpproxy_cp_if_create,
				.destroy = cnpproxy_cp_if_destroy,
				.cli_show = cli_show_cnpproxy_cp_if,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/poll-interval",
			.cbs = {
				.modify = cnpproxy_cp_leaf_modify,
				.destroy = cnpproxy_cp_leaf_destroy,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/threshold-mode",
			.cbs = {
				.modify = cnpproxy_cp_leaf_modify,
				.destroy = cnpproxy_cp_leaf_destroy,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/k-min",
			.cbs = {
				.modify = cnpproxy_cp_leaf_modify,
				.destroy = cnpproxy_cp_leaf_destroy,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/k-max",
			.cbs = {
				.modify = cnpproxy_cp_leaf_modify,
				.destroy = cnpproxy_cp_leaf_destroy,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/k-base",
			.cbs = {
				.modify = cnpproxy_cp_leaf_modify,
				.destroy = cnpproxy_cp_leaf_destroy,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/alpha",
			.cbs = {
				.modify = cnpproxy_cp_leaf_modify,
				.destroy = cnpproxy_cp_leaf_destroy,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/rate",
			.cbs = {
				.modify = cnpproxy_cp_leaf_modify,
				.destroy = cnpproxy_cp_leaf_destroy,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/rtt",
			.cbs = {
				.modify = cnpproxy_cp_leaf_modify,
				.destroy = cnpproxy_cp_leaf_destroy,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/k-min-percent",
			.cbs = {
				.modify = cnpproxy_cp_leaf_modify,
				.destroy = cnpproxy_cp_leaf_destroy,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/ecn-rate-threshold",
			.cbs = {
				.modify = cnpproxy_cp_leaf_modify,
				.destroy = cnpproxy_cp_leaf_destroy,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/growth-rate-threshold",
			.cbs = {
				.modify = cnpproxy_cp_leaf_modify,
				.destroy = cnpproxy_cp_leaf_destroy,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/marking",
			.cbs = {
				.modify = cnpproxy_cp_leaf_modify,
				.destroy = cnpproxy_cp_leaf_destroy,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/notify-min-interval",
			.cbs = {
				.modify = cnpproxy_cp_leaf_modify,
				.destroy = cnpproxy_cp_leaf_destroy,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/congestion-point/interface/notify-rate-limit",
			.cbs = {
				.modify = cnpproxy_cp_leaf_modify,
				.destroy = cnpproxy_cp_leaf_destroy,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/proxy-for",
			.cbs = {
				.create = cnpproxy_proxy_for_create,
				.destroy = cnpproxy_proxy_for_destroy,
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
				.modify = cnpproxy_notification_port_modify,
				.cli_show = cli_show_cnpproxy_port,
			},
		},
		{
			.xpath = CNPPROXY_XPATH "/flow-label-port",
			.cbs = {
				.modify = cnpproxy_flow_label_port_modify,
				.cli_show = cli_show_cnpproxy_port,
			},
		},
		{
			.xpath = NULL,
		},
	}
};
/* clang-format on */
