#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make check on a busy machine: one process keeps one core busy for the
# whole run, as a newcomer's desktop or a shared CI runner would.  The
# tests must wait for what they need, not for a machine's speed; this
# is how that is checked.  Not part of make check or CI.
#
# Usage: tools/check-under-load.sh BUILDDIR [RUNS]
#   RUNS (default 3) runs of make check in a row; stops at the first
#   failure.  Each run's log is BUILDDIR/check-under-load-N.log.

set -eu

build=$1
runs=${2:-3}

# A plain shell loop: busy on one core, at normal priority, for as long
# as it is not killed.
sh -c 'while :; do :; done' &
hog=$!
trap 'kill $hog 2>/dev/null' EXIT INT TERM

echo "check-under-load: pid $hog keeps one core busy; $runs runs of make check"
i=1
while [ "$i" -le "$runs" ]; do
	log=$build/check-under-load-$i.log
	start=$(date +%s)
	# what the top-level `make check` runs
	if { make -C "$build" check-build && make -C "$build" check; } >"$log" 2>&1; then
		echo "check-under-load: run $i of $runs PASS in $(($(date +%s) - start)) s:" \
			"$(grep -c '^PASS' "$log") PASS lines;" \
			"topotests: $(grep -E '^=+ .*passed' "$log" | tail -1 | tr -d '=')"
	else
		echo "check-under-load: run $i of $runs FAIL after $(($(date +%s) - start)) s (log $log):"
		grep -E '^(FAIL|ERROR)|FAILED|failed' "$log" | tail -20
		exit 1
	fi
	i=$((i + 1))
done
echo "check-under-load: $runs runs in a row passed with one core busy"
