#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# pnc demo: the closed-loop congestion demo (tools/demo.py) with Debian's
# Python, which has matplotlib; see demo.py for what it does.
#
# Usage: tools/demo.sh FRR_ROOT [--short] [--out DIR] [demo.py options]

set -euo pipefail

[ $# -ge 1 ] || { echo "usage: demo.sh FRR_ROOT [demo.py options]" >&2; exit 2; }

if [ "$(id -u)" != 0 ]; then
	echo "demo: needs root (network namespaces): sudo make demo" >&2
	exit 1
fi

exec /usr/bin/python3 "$(dirname "$0")/demo.py" "$@"
