#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Sanity checks on the FRR installation in build/root:
#  - every daemon the project and FRR's topotest harness need is there;
#  - nothing links a libyang other than the private one (Debian's
#    libyang.so.2 next to our libyang.so.3 would mix two ABIs in one
#    process).
# Usage: tools/check-frr-install.sh FRR_ROOT YANG_PREFIX

set -eu
root=$1
yang=$2
fail=0

for d in zebra mgmtd staticd isisd ospfd ospf6d bgpd sharpd cnpproxyd \
	watchfrr ripd ripngd pimd pim6d pbrd; do
	if [ ! -x "$root/lib/frr/$d" ]; then
		echo "check-frr-install: missing $root/lib/frr/$d" >&2
		fail=1
	fi
done
[ -x "$root/bin/vtysh" ] || { echo "check-frr-install: missing vtysh" >&2; fail=1; }

for f in "$root"/lib/frr/* "$root"/bin/vtysh "$root"/lib/*.so; do
	[ -f "$f" ] && [ -x "$f" ] || continue
	bad=$(ldd "$f" 2>/dev/null | grep 'libyang\.so' | grep -v "$yang/lib/" || true)
	if [ -n "$bad" ]; then
		echo "check-frr-install: $f links a libyang outside $yang: $bad" >&2
		fail=1
	fi
done

[ $fail = 0 ] && echo "  FRR    installed in $root (daemons in $root/lib/frr)"
exit $fail
