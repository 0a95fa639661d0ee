// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the test tools' main()s share: see tool.h.
 */
#include <string.h>
#include <time.h>

#include "common/tool.h"

volatile sig_atomic_t pnc_tool_stop;

static void on_signal(int sig)
{
	(void)sig;
	pnc_tool_stop = 1;
}

void pnc_tool_stop_on(int sig, bool restart)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = restart ? SA_RESTART : 0;
	sigaction(sig, &sa, NULL);
}

double pnc_tool_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
