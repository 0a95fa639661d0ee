// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pnc-pkt: the command-line packet tool of pnc (doc/design.md section 3).
 * Dispatches to the build and decode subcommands.
 */
#include <string.h>

#include "pnc_pkt.h"

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage_main(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage_main(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "build"))
		return cmd_build(argc - 1, argv + 1);
	if (!strcmp(argv[1], "decode"))
		return cmd_decode(argc - 1, argv + 1);
	fprintf(stderr, "pnc-pkt: unknown command %s\n", argv[1]);
	usage_main(stderr);
	return 2;
}
