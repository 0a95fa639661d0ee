#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The sanitizer stage: pnc's topotests against the FRR + cnpproxyd build
# made with AddressSanitizer (leaks included) and UndefinedBehaviorSanitizer;
# any report fails the stage, whether or not the test that provoked it
# passed.
#
# Usage: tools/check-sanitizers.sh SRCDIR BUILDDIR FRR_TREE FRR_SAN_ROOT PYTHON [TEST...]
#
# Where the reports go: FRR's harness starts every daemon with
# ASAN_OPTIONS=log_path=<log dir>/<router>.asan.<daemon>, which the
# combined runtime uses for UBSan's reports too; the processes the tests
# start themselves (vtysh) log under $reports/other.  Environment:
# PNC_FRR_UNBUILT, the daemons the build left out (frr_sandbox_compat.py).

set -u

src=$1
build=$2
tree=$3
root=$4
python=$5
shift 5

logs=/tmp/topotests
reports=$build/sanitizer-reports

rm -rf "$reports"
mkdir -p "$reports/other"
find "$logs" -name '*.asan.*' -delete 2>/dev/null

export ASAN_OPTIONS="log_path=$reports/other/report"
export UBSAN_OPTIONS="print_stacktrace=1"

"$src/tools/run-topotests.sh" "$src" "$build" "$tree" "$root" "$python" "$@"
rc=$?

# Every report, daemon's or not, kept with the build.
find "$logs" -name '*.asan.*' -size +0 2>/dev/null | while read -r f; do
	cp "$f" "$reports/$(basename "$(dirname "$f")")--$(basename "$f")"
done
found=$(find "$reports" -type f -size +0 | sort)
if [ -n "$found" ]; then
	echo "sanitizers: $(echo "$found" | wc -l) report(s):" >&2
	for f in $found; do
		echo "--- $f" >&2
		grep -E 'ERROR: |runtime error:|SUMMARY:' "$f" | head -5 >&2
	done
	echo "sanitizers: FAIL (the reports are in $reports)" >&2
	exit 1
fi
if [ $rc != 0 ]; then
	echo "sanitizers: no sanitizer report, but the topotests failed (exit $rc)" >&2
	exit $rc
fi
echo "PASS: sanitizers: topotests under ASan + UBSan, no report"
