#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-vtysh-variant.sh BUILD_DIR
#
# BUILD_DIR is an FRR build configured without pim6d (the sanitizer
# build); its vtysh must check (--dryrun) a configuration with cnpproxyd's
# node.  vtysh's cnpproxyd commands were once installed inside #ifdef
# HAVE_PIM6D and vanished without pim6d; this proves they do not depend
# on another daemon being built.

set -euo pipefail

dir=$1
cd "$dir"
if grep -q '^#define HAVE_PIM6D' config.h; then
	echo "check-vtysh-variant: $dir is configured with pim6d" >&2
	exit 1
fi

cat >cnpproxy.conf <<'CONF'
router cnpproxy
 proxy
 proxy source-address 192.0.2.1
 congestion-point
exit
CONF
if ! out=$(./vtysh/vtysh --dryrun --inputfile cnpproxy.conf 2>&1); then
	echo "FAIL: vtysh without pim6d refuses cnpproxyd's configuration:" >&2
	echo "$out" >&2
	exit 1
fi
# The same vtysh must refuse what it does not know, or the check above
# proves nothing.
printf 'router no-such-daemon\n' >unknown.conf
if ./vtysh/vtysh --dryrun --inputfile unknown.conf >/dev/null 2>&1; then
	echo "FAIL: vtysh --dryrun accepts an unknown command" >&2
	exit 1
fi
echo "PASS: vtysh built without pim6d knows router cnpproxy"
