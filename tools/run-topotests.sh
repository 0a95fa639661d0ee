#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Run pnc's topotests with FRR's topotest library against build/root.
#
# Usage: tools/run-topotests.sh SRCDIR BUILDDIR FRR_TREE FRR_ROOT PYTHON [TEST...]
#
# TOPOTEST_JOBS=N (default 2) runs N test modules at once with
# pytest-xdist, one module per worker (--dist=loadfile); 1 runs them one
# after another.  The modules mostly wait on protocol timers, so more
# modules than cores still pays.
#
# Nothing is installed outside the build directory: the daemons come from
# FRR_ROOT/lib/frr and vtysh from FRR_ROOT/bin.  The harness gives every
# router private /etc/frr, /var/run/frr, /var/lib/frr and /var/log mounts;
# its logs go to /tmp/topotests.

set -eu

src=$1
build=$2
tree=$3
root=$4
python=$5
shift 5

if [ "$(id -u)" != 0 ]; then
	echo "topotests: must run as root (network namespaces); try: sudo make check" >&2
	exit 1
fi

stage=$build/topotests
rm -rf "$stage"
mkdir -p "$stage"
for f in conftest.py lib munet; do
	ln -s "$tree/tests/topotests/$f" "$stage/$f"
done
ln -s "$src/topotests/pytest.ini" "$stage/pytest.ini"
for f in frr_sandbox_compat.py pnc_topo.py; do
	ln -s "$src/topotests/$f" "$stage/$f"
done
# PNC_TOPOTEST_SRC: another directory of test directories (make bench),
# whose own helper modules sit beside them
if [ -n "${PNC_TOPOTEST_SRC:-}" ]; then
	for f in "$PNC_TOPOTEST_SRC"/*.py; do
		[ -e "$f" ] && [ ! -e "$stage/$(basename "$f")" ] && ln -s "$f" "$stage/$(basename "$f")"
	done
fi
tests=""
for d in "${PNC_TOPOTEST_SRC:-$src/topotests}"/*/; do
	d=${d%/}
	ls "$d"/test_*.py >/dev/null 2>&1 || continue
	ln -s "$d" "$stage/$(basename "$d")"
	tests="$tests $(basename "$d")"
done
[ $# -gt 0 ] && tests="$*"

echo "topotests: daemons from $root/lib/frr, vtysh from $root/bin;"
echo "topotests: nothing is installed outside the build directory; each router"
echo "topotests: gets private /etc/frr /var/run/frr /var/lib/frr /var/log mounts;"
echo "topotests: logs in /tmp/topotests"
jobs=${TOPOTEST_JOBS:-2}
parallel=""
if [ "$jobs" -gt 1 ] && [ "$(echo $tests | wc -w)" -gt 1 ]; then
	if "$python" -c 'import xdist' 2>/dev/null; then
		parallel="-n $jobs --dist=loadfile"
		echo "topotests: $jobs modules at a time (TOPOTEST_JOBS=1: one at a time)"
	else
		echo "topotests: pytest-xdist is missing; one module at a time" >&2
	fi
fi
cd "$stage"
set +e
# shellcheck disable=SC2086
PATH="$root/bin:$PATH" PNC_FRRDIR="$root/lib/frr" PNC_BUILDDIR="$build" PYTHONPATH="$stage" \
	"$python" -m pytest -v $parallel $tests
rc=$?
set -e
if [ $rc = 5 ]; then
	echo "topotests: no test was collected" >&2
	exit 1
fi
exit $rc
