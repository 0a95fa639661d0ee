// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * show cnpproxy congestion [json]: the congestion point's interfaces,
 * what their queues hold, the thresholds in force and how they were
 * computed, the state, the marking, and the counters.
 */
#include <zebra.h>

#include "lib/command.h"
#include "lib/json.h"
#include "lib/plist.h"
#include "lib/vty.h"

#include "cnpproxyd.h"
#include "cp/cp.h"
#include "proxy/proxy.h"
#include "cnpproxy_vty.h"

#include "cnpproxyd/cp/vty_clippy.c"

#define CNPPROXY_STR "Congestion notification proxy (cnpproxyd)\n"

/* Milliseconds since a monotonic time. */
static int64_t ms_ago(uint64_t t_us)
{
	return (int64_t)(cnpproxy_now_us() - t_us) / 1000;
}

/* "N ms ago", or "never" for a time that has not come (0). */
static const char *ago_str(uint64_t t_us, char *buf, size_t len)
{
	if (!t_us)
		return "never";
	snprintf(buf, len, "%" PRId64 " ms ago", ms_ago(t_us));
	return buf;
}

static json_object *thresholds_json(const struct cnpproxy_cp_if_view *v)
{
	const struct pnc_cp_policy_config *pc = &v->cfg->policy;
	json_object *j = json_object_new_object();

	json_object_string_add(j, "mode",
			       pc->mode == PNC_CP_THR_STATIC ? "static" : "bdp-adaptive");
	json_object_int_add(j, "kMin", v->thr->k_min);
	json_object_int_add(j, "kMax", v->thr->k_max);
	json_object_int_add(j, "rttUs", pc->rtt_us);
	if (pc->mode == PNC_CP_THR_BDP) {
		json_object_int_add(j, "kBase", pc->k_base);
		json_object_double_add(j, "alpha", pc->alpha_milli / 1000.0);
		json_object_int_add(j, "rateBps", v->thr->rate_bps);
		json_object_string_add(j, "rateSource",
				       pnc_cp_rate_source_name(v->thr->rate_source));
		json_object_int_add(j, "bdp", v->thr->bdp);
		json_object_boolean_add(j, "kBaseApplied", v->thr->from_base);
	}
	json_object_int_add(j, "kMinPercent", pc->k_min_percent);
	if (pc->ecn_permille)
		json_object_int_add(j, "ecnRatePermille", pc->ecn_permille);
	if (pc->growth_bps)
		json_object_int_add(j, "growthRateBytesPerSec", pc->growth_bps);
	return j;
}

static json_object *if_json(const struct cnpproxy_cp_if_view *v)
{
	json_object *j = json_object_new_object(), *jq, *jm, *jc;

	json_object_int_add(j, "ifindex", v->ifindex);
	json_object_boolean_add(j, "operational", !v->not_operational);
	if (v->not_operational)
		json_object_string_add(j, "reason", v->not_operational);
	if (v->attach)
		json_object_string_add(j, "attach", v->attach);
	json_object_string_add(j, "state", pnc_cp_state_name(v->machine->state));
	json_object_string_add(j, "trigger", pnc_cp_trigger_name(v->machine->trigger));
	json_object_int_add(j, "stateSinceUs", v->machine->since_us);
	if (v->qdisc) {
		jq = json_object_new_object();
		json_object_string_add(jq, "kind", v->qdisc->kind);
		json_object_int_add(jq, "rateBps", v->qdisc->rate_bps);
		json_object_int_add(jq, "backlogBytes", v->qdisc->backlog_bytes);
		json_object_int_add(jq, "backlogPackets", v->qdisc->backlog_pkts);
		json_object_int_add(jq, "drops", v->qdisc->drops);
		json_object_int_add(jq, "bytes", v->qdisc->bytes);
		json_object_int_add(jq, "packets", v->qdisc->packets);
		if (v->rates->valid) {
			json_object_int_add(jq, "txBps", v->rates->tx_bps);
			json_object_int_add(jq, "growthBytesPerSec", v->rates->growth_Bps);
			json_object_int_add(jq, "dropsPerSec", v->rates->drop_pps);
		}
		json_object_int_add(jq, "ecnMarkedPermille", v->ecn_permille);
		json_object_object_add(j, "queue", jq);
	}
	json_object_int_add(j, "linkBps", v->link_bps);
	json_object_object_add(j, "thresholds", thresholds_json(v));
	jm = json_object_new_object();
	json_object_string_add(jm, "mode", pnc_cp_marking_name(v->cfg->policy.marking));
	json_object_int_add(jm, "ect1Probability", v->ect1_prob);
	json_object_int_add(jm, "ceProbability", v->ce_prob);
	json_object_object_add(j, "marking", jm);
	json_object_boolean_add(j, "sampling", v->sampling);
	json_object_int_add(j, "level", v->level);
	if (v->cfg->collab_fall_percent) {
		jc = json_object_new_object();
		json_object_int_add(jc, "fallPercent", v->cfg->collab_fall_percent);
		json_object_string_add(jc, "state", pnc_cp_collab_state_name(v->collab->state));
		json_object_int_add(jc, "arrivalBytesPerSec", v->collab->rate_ewma);
		json_object_int_add(jc, "onsetArrivalBytesPerSec", v->collab->onset_rate);
		json_object_object_add(j, "collaborativeSuppression", jc);
	}
	json_object_int_add(j, "peakBacklogBytes", v->peak_backlog);
	json_object_int_add(j, "averageBacklogBytes", v->avg_backlog);
	json_object_int_add(j, "lastOnsetUs", v->last_onset_us);
	json_object_int_add(j, "lastResumeUs", v->last_resume_us);
	json_object_int_add(j, "lastNotificationUs", v->last_notify_us);
	jc = json_object_new_object();
	for (int c = 0; c < CNPPROXY_CP_COUNTER_MAX; c++)
		json_object_int_add(jc, cnpproxy_cp_counter_name(c), v->counters[c]);
	json_object_object_add(j, "counters", jc);
	return j;
}

static void if_text(struct vty *vty, const struct cnpproxy_cp_if_view *v)
{
	const struct pnc_cp_policy_config *pc = &v->cfg->policy;
	char onset[32], resume[32], notified[32];

	vty_out(vty, "Interface %s (ifindex %d): %s, %s for %" PRId64 " ms", v->cfg->name,
		v->ifindex, v->not_operational ? v->not_operational : "running",
		pnc_cp_state_name(v->machine->state), ms_ago(v->machine->since_us));
	if (v->machine->state == PNC_CP_ST_CONGESTED)
		vty_out(vty, " (trigger %s)", pnc_cp_trigger_name(v->machine->trigger));
	vty_out(vty, "\n");
	if (v->attach)
		vty_out(vty, "  Egress program: %s\n", v->attach);
	if (v->qdisc) {
		vty_out(vty,
			"  Queue: %s, rate %" PRIu64
			" bit/s, backlog %u octets / %u packets, drops %u\n",
			v->qdisc->kind, v->qdisc->rate_bps, v->qdisc->backlog_bytes,
			v->qdisc->backlog_pkts, v->qdisc->drops);
		if (v->rates->valid)
			vty_out(vty,
				"  Rates: dequeue %" PRIu64 " bit/s, growth %" PRId64
				" octets/s, ECN marked %u permille\n",
				v->rates->tx_bps, v->rates->growth_Bps, v->ecn_permille);
	}
	if (pc->mode == PNC_CP_THR_STATIC)
		vty_out(vty, "  Thresholds: K_min %" PRIu64 ", K_max %" PRIu64 " octets (static)\n",
			v->thr->k_min, v->thr->k_max);
	else
		vty_out(vty,
			"  Thresholds: K_min %" PRIu64 ", K_max %" PRIu64
			" octets (bdp-adaptive: max(K_base %" PRIu64 ", %.3f x %" PRIu64
			" bit/s (%s) x %u us / 8 = %" PRIu64 "), K_min %u%%)\n",
			v->thr->k_min, v->thr->k_max, pc->k_base, pc->alpha_milli / 1000.0,
			v->thr->rate_bps, pnc_cp_rate_source_name(v->thr->rate_source), pc->rtt_us,
			v->thr->bdp, pc->k_min_percent);
	vty_out(vty, "  Marking: %s (ECT(1) %u/65536, CE %u/65536), sampling %s, level %u\n",
		pnc_cp_marking_name(pc->marking), v->ect1_prob, v->ce_prob,
		v->sampling ? "on" : "off", v->level);
	if (v->cfg->collab_fall_percent)
		vty_out(vty,
			"  Collaborative suppression: %s (fall %u%%; arrival %" PRIu64
			" octets/s, %" PRIu64 " at onset)\n",
			pnc_cp_collab_state_name(v->collab->state), v->cfg->collab_fall_percent,
			v->collab->rate_ewma, v->collab->onset_rate);
	vty_out(vty,
		"  Peak backlog %" PRIu64 " octets, average %" PRIu64
		" octets; last onset %s, last resume %s, last notification %s\n",
		v->peak_backlog, v->avg_backlog, ago_str(v->last_onset_us, onset, sizeof(onset)),
		ago_str(v->last_resume_us, resume, sizeof(resume)),
		ago_str(v->last_notify_us, notified, sizeof(notified)));
	for (int c = 0; c < CNPPROXY_CP_COUNTER_MAX; c++)
		vty_out(vty, "    %-26s %" PRIu64 "\n", cnpproxy_cp_counter_name(c),
			v->counters[c]);
}

/*
 * Sending to senders directly needs the proxy role's flow table and
 * sockets; say why it cannot, or NULL.
 */
static const char *direct_not_operational(void)
{
	const char *name = cnpproxy_cp_config()->cp.direct_plist;

	if (!cnpproxy_proxy_local_ready())
		return "the proxy role does not run";
	if (name[0] && !prefix_list_lookup(AFI_IP, name) && !prefix_list_lookup(AFI_IP6, name))
		return "the direct-to-source prefix-list does not exist";
	return NULL;
}

static void direct_show(struct vty *vty, json_object *json)
{
	const char *name = cnpproxy_cp_config()->cp.direct_plist, *why = direct_not_operational();
	json_object *jd;

	if (!json) {
		vty_out(vty, "Direct to senders%s%s: %s\n", name[0] ? ", prefix-list " : "", name,
			why ? why : "running");
		return;
	}
	jd = json_object_new_object();
	if (name[0])
		json_object_string_add(jd, "prefixList", name);
	json_object_boolean_add(jd, "operational", !why);
	if (why)
		json_object_string_add(jd, "reason", why);
	json_object_boolean_add(jd, "hideQueueState", cnpproxy_cp_config()->cp.hide_queue_state);
	json_object_object_add(json, "directToSource", jd);
}

DEFPY(show_cnpproxy_congestion, show_cnpproxy_congestion_cmd,
      "show cnpproxy congestion [json$uj]",
      SHOW_STR
      CNPPROXY_STR
      "Congestion point: watched queues, thresholds, state, counters\n"
      JSON_STR)
{
	const struct pnc_config *cfg = cnpproxy_cp_config();
	json_object *json = NULL, *jifs = NULL, *jp;
	struct pnc_mark_counters pc;
	struct cnpproxy_cp_if_view v;
	const char *why = cnpproxy_cp_not_operational();

	if (uj) {
		json = json_object_new_object();
		jifs = json_object_new_object();
		json_object_boolean_add(json, "operational", !why);
		if (why)
			json_object_string_add(json, "reason", why);
		json_object_boolean_add(json, "fcnCopyFlowLabel", cfg->cp.fcn_copy_flow_label);
		json_object_string_add(json, "notificationForm",
				       cfg->cp.notify_icmp ? "icmp" : "udp");
	} else {
		vty_out(vty, "Congestion point: %s\n", why ? why : "running");
		if (cfg->cp.notify_icmp)
			vty_out(vty,
				"Five-tuple notifications are sent as ICMP (type %u) / ICMPv6 (type %u)\n",
				cfg->notification_icmp_type, cfg->notification_icmp6_type);
		if (cfg->cp.fcn_copy_flow_label)
			vty_out(vty, "Flow-label FCNs carry the label in their IPv6 header too\n");
	}
	direct_show(vty, json);
	for (unsigned int i = 0; cnpproxy_cp_if_view(i, &v); i++) {
		if (json)
			json_object_object_add(jifs, v.cfg->name, if_json(&v));
		else
			if_text(vty, &v);
	}
	if (cnpproxy_cp_prog_counters(&pc)) {
		if (json)
			jp = json_object_new_object();
		else
			vty_out(vty, "Egress program:\n");
		for (int c = 0; c < PNC_MARK_C_MAX; c++) {
			if (json)
				json_object_int_add(jp, pnc_mark_counter_name(c), pc.v[c]);
			else
				vty_out(vty, "    %-26s %" PRIu64 "\n", pnc_mark_counter_name(c),
					pc.v[c]);
		}
		if (json) {
			json_object_int_add(jp, "id", cnpproxy_cp_prog_id());
			json_object_object_add(json, "program", jp);
		}
	}
	if (json) {
		json_object_object_add(json, "interfaces", jifs);
		vty_json(vty, json);
	}
	return CMD_SUCCESS;
}

void cnpproxy_cp_vty_init(void)
{
	install_element(VIEW_NODE, &show_cnpproxy_congestion_cmd);
}
