// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cnpproxyd's fast-path thread (see cnpproxy_fp.h).
 */
#include <zebra.h>

#include "lib/frr_pthread.h"
#include "lib/frrevent.h"
#include "lib/log.h"

#include "cnpproxy_fp.h"

/* Shown by `show event cpu`, and the thread's name in ps/top. */
#define FP_NAME	   "cnpproxyd fast path"
#define FP_OS_NAME "cnpproxyd_fp"

/*
 * Recursive: the main thread's ways into the state nest (a configuration
 * change re-learns and re-publishes flows, which also happen on their
 * own), and each takes the mutex where it touches the state.  The fast
 * path never nests.
 */
pthread_mutex_t cnpproxy_fp_mtx;

static struct frr_pthread *fp;

struct event_loop *cnpproxy_fp_loop(void)
{
	return fp->master;
}

bool cnpproxy_fp_running(void)
{
	return fp && atomic_load_explicit(&fp->running, memory_order_acquire);
}

const char *cnpproxy_fp_name(void)
{
	return FP_NAME;
}

void cnpproxy_fp_init(void)
{
	struct frr_pthread_attr attr = {
		.start = frr_pthread_attr_default.start,
		.stop = frr_pthread_attr_default.stop,
	};
	pthread_mutexattr_t ma;

	pthread_mutexattr_init(&ma);
	pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&cnpproxy_fp_mtx, &ma);
	pthread_mutexattr_destroy(&ma);
	fp = frr_pthread_new(&attr, FP_NAME, FP_OS_NAME);
}

void cnpproxy_fp_start(void)
{
	int err = frr_pthread_run(fp, NULL);

	/*
	 * pthread_create()'s error number, passed through.  Then the proxy
	 * role says it is not operational, and why.
	 */
	if (err) {
		zlog_err("cnpproxyd: cannot start the fast-path thread: %s",
			 safe_strerror(err < 0 ? errno : err));
		return;
	}
	frr_pthread_wait_running(fp);
}

void cnpproxy_fp_stop(void)
{
	if (!fp)
		return;
	if (cnpproxy_fp_running())
		frr_pthread_stop(fp, NULL);
}
