// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the test tools' main()s share: a stop flag that signals set, and
 * a clock in seconds.
 */
#ifndef _PNC_TOOLS_COMMON_TOOL_H
#define _PNC_TOOLS_COMMON_TOOL_H

#include <signal.h>
#include <stdbool.h>

/* Set by the signals pnc_tool_stop_on() names; the tools' loops end on it. */
extern volatile sig_atomic_t pnc_tool_stop;

/*
 * Let sig set pnc_tool_stop (SIGINT, SIGTERM, SIGALRM for a deadline).
 * restart: calls it interrupts go on (as signal() has it); without, they
 * fail with EINTR, so that a blocking loop sees the flag at once.
 */
extern void pnc_tool_stop_on(int sig, bool restart);

/* CLOCK_MONOTONIC, in seconds. */
extern double pnc_tool_now_s(void);

#endif /* _PNC_TOOLS_COMMON_TOOL_H */
