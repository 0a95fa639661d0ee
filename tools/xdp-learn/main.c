// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pnc-xdp-learn: attach the flow-learning XDP program to interfaces for
 * a while and print what it reports, one JSON object per line: CM MADs
 * decoded with the CM codec, RoCE samples as the program gives them, and
 * the program's counters at the end.  A test and debugging aid; the
 * loader itself (cnpproxyd/proxy/xdp/learn_xdp.c) is what cnpproxyd uses.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <net/if.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/tool.h"
#include "codec/cm.h"
#include "proxy/xdp/learn_xdp.h"

#define MAX_IFS 16

static void usage(FILE *f)
{
	fputs("usage: pnc-xdp-learn [options] IFNAME...\n"
	      "\n"
	      "Attach the XDP flow-learning program and print its events as JSON lines.\n"
	      "\n"
	      "  --duration S          seconds to run (default 5; 0 = until SIGINT/SIGTERM)\n"
	      "  --interval-us N       min interval of data-with-AckReq / ACK / NAK samples\n"
	      "                        per (src, dst, dest_qp) (default 1000; 0 = all)\n"
	      "  --plain-interval-us N same for data without AckReq (default 100000;\n"
	      "                        'never' = none)\n"
	      "  --mode M              auto (default), native or generic XDP\n",
	      f);
}

static const char *mode_name(enum pnc_learn_xdp_mode m)
{
	switch (m) {
	case PNC_LEARN_XDP_NATIVE:
		return "native";
	case PNC_LEARN_XDP_GENERIC:
		return "generic";
	case PNC_LEARN_XDP_AUTO:
		break;
	}
	return "auto";
}

static const char *kind_name(uint8_t kind)
{
	switch (kind) {
	case PNC_LEARN_K_DATA_ACKREQ:
		return "data-ackreq";
	case PNC_LEARN_K_DATA_PLAIN:
		return "data";
	case PNC_LEARN_K_ACK:
		return "ack";
	case PNC_LEARN_K_NAK:
		return "nak";
	}
	return "?";
}

static const char *attr_name(uint16_t attr)
{
	switch (attr) {
	case PNC_CM_ATTR_REQ:
		return "REQ";
	case PNC_CM_ATTR_REP:
		return "REP";
	case PNC_CM_ATTR_RTU:
		return "RTU";
	case PNC_CM_ATTR_REJ:
		return "REJ";
	case PNC_CM_ATTR_DREQ:
		return "DREQ";
	case PNC_CM_ATTR_DREP:
		return "DREP";
	}
	return "other";
}

static void print_addr(const char *name, uint8_t version, const uint8_t *a)
{
	char buf[INET6_ADDRSTRLEN];

	inet_ntop(version == 4 ? AF_INET : AF_INET6, a, buf, sizeof(buf));
	printf(",\"%s\":\"%s\"", name, buf);
}

static void print_hdr(const char *event, const struct pnc_learn_ev_hdr *h)
{
	printf("{\"event\":\"%s\",\"ts_ns\":%" PRIu64 ",\"ifindex\":%u,\"ip_version\":%u", event,
	       (uint64_t)h->ts_ns, h->ifindex, h->ip_version);
}

static void print_cm(const struct pnc_learn_cm_ev *ev)
{
	static struct pnc_cm_packet p; /* large; one event at a time */
	const struct pnc_cm_msg *m = &p.msg;
	int rv;

	print_hdr("cm", &ev->hdr);
	printf(",\"pkt_len\":%u,\"cap_len\":%u", ev->pkt_len, ev->cap_len);
	rv = pnc_cm_packet_decode(ev->data, ev->cap_len, &p);
	if (rv) {
		printf(",\"error\":\"%s\"}\n", pnc_codec_strerror(rv));
		return;
	}
	print_addr("src", p.ip.version, p.ip.src);
	print_addr("dst", p.ip.version, p.ip.dst);
	printf(",\"sport\":%u,\"bth_pkey\":%u,\"attr\":\"%s\",\"attr_id\":%u,\"tid\":%" PRIu64,
	       p.ip.sport, p.bth.pkey, attr_name(m->mad.attr_id), m->mad.attr_id, m->mad.tid);
	switch (m->mad.attr_id) {
	case PNC_CM_ATTR_REQ:
		printf(",\"local_comm_id\":%u,\"service_id\":%" PRIu64
		       ",\"local_qpn\":%u,\"starting_psn\":%u,\"pkey\":%u,\"transport_type\":%u",
		       m->u.req.local_comm_id, m->u.req.service_id, m->u.req.local_qpn,
		       m->u.req.starting_psn, m->u.req.pkey, m->u.req.transport_type);
		break;
	case PNC_CM_ATTR_REP:
		printf(",\"local_comm_id\":%u,\"remote_comm_id\":%u,\"local_qpn\":%u,\"starting_psn\":%u",
		       m->u.rep.local_comm_id, m->u.rep.remote_comm_id, m->u.rep.local_qpn,
		       m->u.rep.starting_psn);
		break;
	case PNC_CM_ATTR_RTU:
	case PNC_CM_ATTR_DREP:
		printf(",\"local_comm_id\":%u,\"remote_comm_id\":%u", m->u.rtu.local_comm_id,
		       m->u.rtu.remote_comm_id);
		break;
	case PNC_CM_ATTR_REJ:
		printf(",\"local_comm_id\":%u,\"remote_comm_id\":%u,\"msg_rejected\":%u,\"reason\":%u",
		       m->u.rej.local_comm_id, m->u.rej.remote_comm_id, m->u.rej.msg_rejected,
		       m->u.rej.reason);
		break;
	case PNC_CM_ATTR_DREQ:
		printf(",\"local_comm_id\":%u,\"remote_comm_id\":%u,\"remote_qpn\":%u",
		       m->u.dreq.local_comm_id, m->u.dreq.remote_comm_id,
		       m->u.dreq.remote_qpn_eecn);
		break;
	}
	printf("}\n");
}

static void print_roce(const struct pnc_learn_roce_ev *ev)
{
	print_hdr("roce", &ev->hdr);
	print_addr("src", ev->hdr.ip_version, ev->src);
	print_addr("dst", ev->hdr.ip_version, ev->dst);
	printf(",\"sport\":%u,\"flow_label\":%u,\"tos\":%u,\"kind\":\"%s\",\"opcode\":%u"
	       ",\"pkey\":%u,\"dest_qp\":%u,\"psn\":%u,\"ack_req\":%u",
	       ev->sport, ev->flow_label, ev->tos, kind_name(ev->kind), ev->opcode, ev->pkey,
	       ev->dest_qp, ev->psn, ev->ack_req);
	if (ev->kind == PNC_LEARN_K_ACK || ev->kind == PNC_LEARN_K_NAK)
		printf(",\"syndrome\":%u,\"msn\":%u", ev->syndrome, ev->msn);
	if (ev->echo)
		printf(",\"echo_qp\":%u", ev->echo_qp);
	printf("}\n");
}

static void on_event(void *arg, const struct pnc_learn_event *ev)
{
	(void)arg;
	if (ev->cm)
		print_cm(ev->cm);
	else
		print_roce(ev->roce);
}

static int parse_us(const char *s, bool never_ok, __u64 *ns)
{
	char *end;
	unsigned long long v;

	if (never_ok && !strcmp(s, "never")) {
		*ns = PNC_LEARN_NEVER;
		return 0;
	}
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v > UINT64_MAX / 1000)
		return -1;
	*ns = v * 1000;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ "interval-us", required_argument, NULL, 'i' },
		{ "plain-interval-us", required_argument, NULL, 'p' },
		{ "mode", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pnc_learn_cfg cfg = {
		.sample_ns = PNC_LEARN_SAMPLE_NS_DEFAULT,
		.plain_ns = PNC_LEARN_PLAIN_NS_DEFAULT,
	};
	enum pnc_learn_xdp_mode mode = PNC_LEARN_XDP_AUTO, used;
	struct pnc_learn_counters c;
	struct pnc_learn_xdp *lx;
	int ifindex[MAX_IFS], nifs = 0, rv = 0, opt, i;
	double duration = 5, end;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			duration = strtod(optarg, NULL);
			break;
		case 'i':
			if (parse_us(optarg, false, &cfg.sample_ns)) {
				usage(stderr);
				return 2;
			}
			break;
		case 'p':
			if (parse_us(optarg, true, &cfg.plain_ns)) {
				usage(stderr);
				return 2;
			}
			break;
		case 'm':
			if (!strcmp(optarg, "native"))
				mode = PNC_LEARN_XDP_NATIVE;
			else if (!strcmp(optarg, "generic"))
				mode = PNC_LEARN_XDP_GENERIC;
			else if (!strcmp(optarg, "auto"))
				mode = PNC_LEARN_XDP_AUTO;
			else {
				usage(stderr);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind == argc || argc - optind > MAX_IFS || duration < 0) {
		usage(stderr);
		return 2;
	}
	for (i = optind; i < argc; i++) {
		ifindex[nifs] = (int)if_nametoindex(argv[i]);
		if (!ifindex[nifs]) {
			fprintf(stderr, "pnc-xdp-learn: %s: no such interface\n", argv[i]);
			return 1;
		}
		nifs++;
	}

	/* The test reads our output through a pipe while we run. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	pnc_tool_stop_on(SIGINT, true);
	pnc_tool_stop_on(SIGTERM, true);

	lx = pnc_learn_xdp_open(&cfg, on_event, NULL);
	if (!lx) {
		fprintf(stderr, "pnc-xdp-learn: loading the XDP program: %s\n", strerror(errno));
		return 1;
	}
	for (i = 0; i < nifs; i++) {
		int err = pnc_learn_xdp_attach(lx, ifindex[i], mode, &used);

		if (err) {
			fprintf(stderr, "pnc-xdp-learn: attaching to %s: %s\n", argv[optind + i],
				strerror(-err));
			pnc_learn_xdp_close(lx);
			return 1;
		}
		printf("{\"event\":\"attached\",\"ifname\":\"%s\",\"ifindex\":%d,\"mode\":\"%s\"}\n",
		       argv[optind + i], ifindex[i], mode_name(used));
	}

	end = pnc_tool_now_s() + duration;
	while (!pnc_tool_stop && (duration == 0 || pnc_tool_now_s() < end)) {
		int n = pnc_learn_xdp_poll(lx, 100);

		if (n < 0 && n != -EINTR) {
			fprintf(stderr, "pnc-xdp-learn: ring buffer: %s\n", strerror(-n));
			rv = 1;
			break;
		}
	}

	/* Detach first so that the counters match the events drained below. */
	for (i = 0; i < nifs; i++)
		pnc_learn_xdp_detach(lx, ifindex[i]);
	pnc_learn_xdp_poll(lx, 0);
	if (pnc_learn_xdp_counters(lx, &c) == 0) {
		printf("{\"event\":\"counters\"");
		for (i = 0; i < PNC_LEARN_C_MAX; i++)
			printf(",\"%s\":%" PRIu64, pnc_learn_counter_name(i), c.v[i]);
		printf(",\"bad_records\":%" PRIu64 "}\n", pnc_learn_xdp_bad_records(lx));
	} else {
		rv = 1;
	}
	pnc_learn_xdp_close(lx);
	return rv;
}
