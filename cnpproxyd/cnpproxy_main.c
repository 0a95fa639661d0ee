// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd: congestion notification proxy daemon.
 *
 * Lifecycle, signals and privileges.  The daemon is a ZAPI client of
 * zebra and keeps its configuration in its own northbound (module
 * frr-cnpproxyd), which vtysh reaches through the daemon's vty socket.
 */
#include <zebra.h>

#include <getopt.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "lib/command.h"
#include "lib/filter.h"
#include "lib/if.h"
#include "lib/libfrr.h"
#include "lib/log.h"
#include "lib/memory.h"
#include "lib/plist.h"
#include "lib/privs.h"
#include "lib/sigevent.h"
#include "lib/version.h"
#include "lib/vrf.h"
#include "lib/vty.h"

#include "cnpproxyd.h"
#include "border/border.h"
#include "cp/cp.h"
#include "tunnel/egress.h"
#include "cnpproxy_debug.h"
#include "cnpproxy_fp.h"
#include "cnpproxy_if.h"
#include "cnpproxy_nb.h"
#include "proxy/proxy.h"
#include "rib/rib.h"
#include "cnpproxy_vty.h"
#include "cnpproxy_zebra.h"

struct cnpproxy_globals cnpproxy_g;
DEFINE_MGROUP(CNPPROXYD, "cnpproxyd");

/*
 * NET_RAW for the raw-socket CNP path, NET_ADMIN for tc/XDP attachment and
 * qdisc statistics, SYS_ADMIN for loading BPF programs (kernels without
 * CAP_BPF, and libcap that does not know it, need it for that).
 */
static zebra_capabilities_t cnpproxy_caps_p[] = {
	ZCAP_NET_RAW,
	ZCAP_NET_ADMIN,
	ZCAP_SYS_ADMIN,
	ZCAP_IPC_LOCK, /* the AF_XDP sockets' UMEM is pinned */
};

struct zebra_privs_t cnpproxy_privs = {
#if defined(FRR_USER) && defined(FRR_GROUP)
	.user = FRR_USER,
	.group = FRR_GROUP,
#endif
#if defined(VTY_GROUP)
	.vty_group = VTY_GROUP,
#endif
	.caps_p = cnpproxy_caps_p,
	.cap_num_p = array_size(cnpproxy_caps_p),
	.cap_num_i = 0,
};

static struct option longopts[] = { { 0 } };

struct event_loop *master;

static struct frr_daemon_info cnpproxyd_di;

static void sighup(void)
{
	zlog_info("SIGHUP received, ignored (use vtysh to change configuration)");
}

static void __attribute__((noreturn)) sigint(void)
{
	zlog_notice("Terminating on signal");
	cnpproxy_if_fini();
	cnpproxy_egress_fini();
	cnpproxy_border_fini();
	cnpproxy_cp_fini();
	/* Stops the fast-path thread first. */
	cnpproxy_proxy_fini();
	cnpproxy_zebra_fini();
	cnpproxy_rib_fini();
	prefix_list_reset();
	access_list_reset();
	vrf_terminate();
	frr_fini();
	exit(0);
}

static void sigusr1(void)
{
	zlog_rotate();
}

static struct frr_signal_t cnpproxy_signals[] = {
	{ .signal = SIGHUP, .handler = &sighup },
	{ .signal = SIGUSR1, .handler = &sigusr1 },
	{ .signal = SIGINT, .handler = &sigint },
	{ .signal = SIGTERM, .handler = &sigint },
};

/*
 * Interfaces and VRFs come from zebra as soon as the session is up; their
 * modules must be loaded up front, with all others, before the northbound
 * compiles its schema nodes.
 */
static const struct frr_yang_module_info *const cnpproxy_yang_modules[] = {
	&frr_filter_info,
	&frr_interface_info,
	&frr_vrf_info,
	&frr_cnpproxyd_info,
};

/* clang-format off */
FRR_DAEMON_INFO(cnpproxyd, CNPPROXY,
	.vty_port = CNPPROXYD_VTY_PORT,
	.proghelp = "Congestion notification proxy (PNC) daemon.",

	.signals = cnpproxy_signals,
	.n_signals = array_size(cnpproxy_signals),

	.privs = &cnpproxy_privs,

	.yang_modules = cnpproxy_yang_modules,
	.n_yang_modules = array_size(cnpproxy_yang_modules),
);
/* clang-format on */

int main(int argc, char **argv, char **envp)
{
#ifdef __GLIBC__
	/*
	 * The compiled proxy lookup allocates its first tables (256 KiB) anew
	 * on every change of the proxy table and frees them on the RCU
	 * thread.  After the first such free, glibc raises its mmap threshold
	 * above them and serves the next ones from the heap, which route
	 * churn then fragments for good.  A fixed threshold keeps them mapped,
	 * and returned to the system when freed (make soak measures it).
	 */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
	frr_preinit(&cnpproxyd_di, argc, argv);
	frr_opt_add("", longopts, "");

	while (1) {
		int opt = frr_getopt(argc, argv, NULL);

		if (opt == EOF)
			break;
		switch (opt) {
		case 0:
			break;
		default:
			frr_help_exit(1);
		}
	}

	master = frr_init();

	cnpproxy_nb_config_reset();
	cnpproxy_rib_init();
	vrf_init(NULL, NULL, NULL, NULL);
	access_list_init();
	prefix_list_init();
	cnpproxy_debug_init();
	cnpproxy_cli_init();
	/* The roles' commands, in the node cnpproxy_cli_init() made. */
	cnpproxy_proxy_cli_init();
	cnpproxy_cp_cli_init();
	cnpproxy_tunnel_cli_init();
	cnpproxy_border_cli_init();
	cnpproxy_vty_init();
	cnpproxy_cp_vty_init();
	cnpproxy_if_init();
	cnpproxy_zebra_init();
	cnpproxy_proxy_init();
	cnpproxy_cp_init();
	cnpproxy_border_init();
	cnpproxy_egress_init();

	frr_config_fork();
	/* After the fork, which only the calling thread survives. */
	cnpproxy_fp_start();
	frr_run(master);

	/* Not reached. */
	return 0;
}
