#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check-vtysh-variant.sh FRR_TREE BUILD_DIR -- CONFIGURE_ARGS...
#
# Configures the FRR tree once more, into BUILD_DIR, with --disable-pim6d
# added, builds only vtysh, and has that vtysh check (--dryrun) a
# configuration with cnpproxyd's node.  vtysh's cnpproxyd commands were
# once installed inside #ifdef HAVE_PIM6D and vanished without pim6d;
# this proves they do not depend on another daemon being built.
# Environment: what FRR's configure needs (PKG_CONFIG_PATH, LDFLAGS, PYTHON).

set -euo pipefail

tree=$1
dir=$2
shift 3

rm -rf "$dir"
mkdir -p "$dir"
cd "$dir"
echo "  VTYSH  configure without pim6d (log: $dir/configure.log)"
"$tree/configure" "$@" --disable-pim6d >configure.log 2>&1 || {
	tail -30 configure.log
	exit 1
}
if grep -q '^#define HAVE_PIM6D' config.h; then
	echo "check-vtysh-variant: HAVE_PIM6D is still defined" >&2
	exit 1
fi
echo "  VTYSH  build vtysh (log: $dir/make.log)"
make -j"$(nproc)" vtysh/vtysh >make.log 2>&1 || {
	grep -E 'error|Error' make.log | head -20
	exit 1
}

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
