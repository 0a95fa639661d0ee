// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * roce-emu command line.
 */
#include <arpa/inet.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "roce_emu.h"

volatile sig_atomic_t emu_stop;

static void on_signal(int sig)
{
	(void)sig;
	emu_stop = 1;
}

/* ADDR or ADDR/LEN; a bare address is a host prefix. */
static int parse_prefix(const char *str, struct emu_prefix *p)
{
	char buf[INET6_ADDRSTRLEN + 8];
	char *slash, *end;
	unsigned long plen;

	if (strlen(str) >= sizeof(buf))
		return -1;
	strcpy(buf, str);
	slash = strchr(buf, '/');
	if (slash)
		*slash = '\0';
	if (emu_parse_addr(buf, &p->version, p->addr))
		return -1;
	p->plen = p->version == 4 ? 32 : 128;
	if (!slash)
		return 0;
	plen = strtoul(slash + 1, &end, 10);
	if (!slash[1] || *end || plen > p->plen)
		return -1;
	p->plen = (unsigned int)plen;
	return 0;
}

static void usage(FILE *f)
{
	fputs("usage: roce-emu requester --local ADDR --remote ADDR [options]\n"
	      "       roce-emu responder --local ADDR [options]\n"
	      "\n"
	      "Software RoCEv2 endpoints: RC RDMA WRITE stream, ACKs, CNP reaction.\n"
	      "\n"
	      "  --local ADDR         our IPv4/IPv6 address (packets to it are ours)\n"
	      "  --remote ADDR        the peer (requester; responder learns it)\n"
	      "  --qpn N              local QPN (default 0x11 requester, 0x22 responder)\n"
	      "  --no-cm --peer-qpn N QPNs exchanged out of band instead of CM\n"
	      "  --psn N              starting PSN (default 0x1000)\n"
	      "  --pkey N             P_Key (default 0xffff)\n"
	      "  --dscp N --ecn N     of data packets (default 26, ECT(0) = 2)\n"
	      "  --rate MBPS          requester rate at start and maximum (default 100)\n"
	      "  --min-rate MBPS      floor of the rate cuts (default 1)\n"
	      "  --mtu N              payload octets per packet (default 1024)\n"
	      "  --ack-every N        request an ACK every N packets (default 8)\n"
	      "  --g F                alpha gain (default 0.0625)\n"
	      "  --ai MBPS            increase per recovery period (default 5)\n"
	      "  --recovery-us N      recovery period (default 1000; 0 = never)\n"
	      "  --long-haul          requester: act on Long-haul CNPs (RoCEv2 E-bit form\n"
	      "                       and ICMPv6 form); without it the E-bit form is a CNP\n"
	      "  --lh-known A[/LEN]   act only on Long-haul CNPs from here (repeatable,\n"
	      "                       needed with --long-haul; ::/0 accepts any IPv6)\n"
	      "  --lh-icmp6-type N    ICMPv6 type of the Long-haul CNP (default 200)\n"
	      "  --lh-class-num N     RFC 4884 Class-Num of its objects (default 0xf7)\n"
	      "  --lh-recovery-us N   a Long-haul reduction holds until this long without\n"
	      "                       Long-haul messages (default 100000; 0 = until Resume)\n"
	      "  --rate-advice[=OP]   requester: act on SCONE rate advice, BTH opcode OP\n"
	      "                       (default 0xc0)\n"
	      "  --cnp-on-ce          responder: CNP for CE-marked packets\n"
	      "  --cnp-interval-us N  responder: minimum CNP interval (default 50)\n"
	      "  --duration S         seconds to run (default 5)\n"
	      "  --bytes N            requester: send N payload octets (the last packet\n"
	      "                       short), log \"complete\" and stop; --duration still\n"
	      "                       caps the run (then summary completion_ms is null)\n"
	      "  --log-ms N           stats interval (default 10)\n"
	      "  --log FILE           JSON lines here instead of stdout\n",
	      f);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = { { "local", required_argument, NULL, 'l' },
					      { "remote", required_argument, NULL, 'r' },
					      { "qpn", required_argument, NULL, 'q' },
					      { "no-cm", no_argument, NULL, 'n' },
					      { "peer-qpn", required_argument, NULL, 'Q' },
					      { "psn", required_argument, NULL, 'p' },
					      { "pkey", required_argument, NULL, 'k' },
					      { "dscp", required_argument, NULL, 'd' },
					      { "ecn", required_argument, NULL, 'e' },
					      { "rate", required_argument, NULL, 'R' },
					      { "min-rate", required_argument, NULL, 'm' },
					      { "mtu", required_argument, NULL, 'M' },
					      { "ack-every", required_argument, NULL, 'a' },
					      { "g", required_argument, NULL, 'g' },
					      { "ai", required_argument, NULL, 'i' },
					      { "recovery-us", required_argument, NULL, 'u' },
					      { "long-haul", no_argument, NULL, 'H' },
					      { "lh-known", required_argument, NULL, 'K' },
					      { "lh-icmp6-type", required_argument, NULL, 'T' },
					      { "lh-class-num", required_argument, NULL, 'N' },
					      { "lh-recovery-us", required_argument, NULL, 'U' },
					      { "rate-advice", optional_argument, NULL, 'A' },
					      { "cnp-on-ce", no_argument, NULL, 'c' },
					      { "cnp-interval-us", required_argument, NULL, 'C' },
					      { "duration", required_argument, NULL, 't' },
					      { "bytes", required_argument, NULL, 'b' },
					      { "log-ms", required_argument, NULL, 'L' },
					      { "log", required_argument, NULL, 'o' },
					      { "help", no_argument, NULL, 'h' },
					      {} };
	struct emu_cfg cfg;
	const char *local = NULL, *remote = NULL;
	uint8_t local_addr[16];
	int version, rversion, c, rv;
	long qpn = -1;

	if (argc < 2 || (strcmp(argv[1], "requester") && strcmp(argv[1], "responder"))) {
		usage(argc >= 2 && !strcmp(argv[1], "--help") ? stdout : stderr);
		return argc >= 2 && !strcmp(argv[1], "--help") ? 0 : 2;
	}
	emu_cfg_defaults(&cfg);
	cfg.requester = !strcmp(argv[1], "requester");
	optind = 2;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'l':
			local = optarg;
			break;
		case 'r':
			remote = optarg;
			break;
		case 'q':
			qpn = strtol(optarg, NULL, 0);
			break;
		case 'n':
			cfg.use_cm = false;
			break;
		case 'Q':
			cfg.remote_qpn = (uint32_t)strtoul(optarg, NULL, 0) & 0xffffff;
			break;
		case 'p':
			cfg.start_psn = (uint32_t)strtoul(optarg, NULL, 0) & 0xffffff;
			break;
		case 'k':
			cfg.pkey = (uint16_t)strtoul(optarg, NULL, 0);
			break;
		case 'd':
			cfg.dscp = (uint8_t)(strtoul(optarg, NULL, 0) & 0x3f);
			break;
		case 'e':
			cfg.ecn = (uint8_t)(strtoul(optarg, NULL, 0) & 3);
			break;
		case 'R':
			cfg.rate.line_mbps = atof(optarg);
			break;
		case 'm':
			cfg.rate.min_mbps = atof(optarg);
			break;
		case 'M':
			cfg.mtu = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'a':
			cfg.ack_every = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'g':
			cfg.rate.g = atof(optarg);
			break;
		case 'i':
			cfg.rate.ai_mbps = atof(optarg);
			break;
		case 'u':
			cfg.rate.recovery_us = strtoull(optarg, NULL, 0);
			break;
		case 'H':
			cfg.long_haul = true;
			break;
		case 'K':
			if (cfg.n_lh_known == EMU_LH_KNOWN_MAX ||
			    parse_prefix(optarg, &cfg.lh_known[cfg.n_lh_known])) {
				fprintf(stderr,
					"roce-emu: --lh-known: bad prefix or too many: %s\n",
					optarg);
				return 2;
			}
			cfg.n_lh_known++;
			break;
		case 'T':
			cfg.lh_icmp6_type = (uint8_t)strtoul(optarg, NULL, 0);
			break;
		case 'N':
			cfg.lh_class_num = (uint8_t)strtoul(optarg, NULL, 0);
			break;
		case 'U':
			cfg.rate.lh_recovery_us = strtoull(optarg, NULL, 0);
			break;
		case 'A':
			cfg.rate_advice = true;
			if (optarg)
				cfg.ra_opcode = (uint8_t)strtoul(optarg, NULL, 0);
			break;
		case 'c':
			cfg.cnp_on_ce = true;
			break;
		case 'C':
			cfg.cnp_interval_us = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 't':
			cfg.duration_s = atof(optarg);
			break;
		case 'b': {
			char *end;

			/* strtoull takes "-1" for a huge count: digits only. */
			cfg.transfer_bytes = strtoull(optarg, &end, 0);
			if (optarg[0] < '0' || optarg[0] > '9' || *end || !cfg.transfer_bytes) {
				fprintf(stderr, "roce-emu: --bytes needs a positive count: %s\n",
					optarg);
				return 2;
			}
			break;
		}
		case 'L':
			cfg.log_ms = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'o':
			cfg.log = fopen(optarg, "w");
			if (!cfg.log) {
				perror(optarg);
				return 1;
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

	if (!local || emu_parse_addr(local, &version, local_addr)) {
		fprintf(stderr, "roce-emu: --local needs an IPv4 or IPv6 address\n");
		return 2;
	}
	if (remote && (emu_parse_addr(remote, &rversion, cfg.remote) || rversion != version)) {
		fprintf(stderr, "roce-emu: --remote must be an address of the --local family\n");
		return 2;
	}
	if (cfg.requester && !remote) {
		fprintf(stderr, "roce-emu: the requester needs --remote\n");
		return 2;
	}
	if (!cfg.use_cm && !cfg.remote_qpn) {
		fprintf(stderr, "roce-emu: --no-cm needs --peer-qpn\n");
		return 2;
	}
	if (cfg.rate.line_mbps <= 0 || cfg.rate.min_mbps <= 0 || !cfg.mtu || cfg.mtu > 4096 ||
	    !cfg.ack_every || !cfg.log_ms) {
		fprintf(stderr,
			"roce-emu: rates, --mtu (1-4096), --ack-every, --log-ms must be positive\n");
		return 2;
	}
	/* The draft asks endpoints to validate where Long-haul CNPs come from. */
	if (cfg.long_haul && !cfg.n_lh_known) {
		fprintf(stderr, "roce-emu: --long-haul needs at least one --lh-known\n");
		return 2;
	}
	/* Types 0-127 are ICMPv6 errors, which the Long-haul CNP is not. */
	if (cfg.lh_icmp6_type < 128) {
		fprintf(stderr, "roce-emu: --lh-icmp6-type must be informational (128-255)\n");
		return 2;
	}
	cfg.local_qpn = qpn >= 0 ? (uint32_t)qpn & 0xffffff : (cfg.requester ? 0x11 : 0x22);

	if (emu_net_open(&cfg.net, version, local_addr)) {
		perror("roce-emu: sockets (needs CAP_NET_RAW and the local address configured)");
		return 1;
	}
	if (cfg.requester && cfg.long_haul && emu_net_open_icmp6(&cfg.net, cfg.lh_icmp6_type)) {
		perror("roce-emu: ICMPv6 socket for Long-haul CNPs");
		emu_net_close(&cfg.net);
		return 1;
	}
	srandom((unsigned int)(time(NULL) ^ getpid()));
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	rv = cfg.requester ? emu_run_requester(&cfg) : emu_run_responder(&cfg);
	emu_net_close(&cfg.net);
	if (cfg.log != stdout)
		fclose(cfg.log);
	return rv;
}
