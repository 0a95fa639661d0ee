#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Run pnc's libFuzzer targets (make fuzz) and write one report.
#
# Usage: tools/run-fuzz.sh FUZZDIR SRCDIR SECONDS RUNS JOBS TARGET...
#
#   FUZZDIR  where the fuzz_<target> binaries are; each target's working
#            corpus (FUZZDIR/corpus-<target>), log and crash artifacts go
#            there too, never into the sources
#   SRCDIR   pnc's source tree: seeds from tests/fuzz/corpus/<target>/
#            and tests/fuzz/regress/<target>/ (and FUZZDIR/seeds-<target>/,
#            made at build time), extra libFuzzer flags from
#            tests/fuzz/options/<target> if present
#   SECONDS  time per target (0: no limit)
#   RUNS     executions per target (0 or empty: no limit)
#   JOBS     targets run at once, each on one core
#
# The working corpus is kept between runs, so a later run goes on from
# what an earlier one found.  Report: FUZZDIR/report.txt (a line per
# target: executions, time, rate, coverage, corpus, result) and
# report.json.  Exits 1 if any target crashed, broke a property, leaked
# or ran out of memory; the input that did it is named in the report.

set -u

fuzzdir=$1
src=$2
seconds=$3
runs=$4
jobs=$5
shift 5

if [ "$seconds" = 0 ] && { [ -z "$runs" ] || [ "$runs" = 0 ]; }; then
	echo "run-fuzz: give FUZZ_SECONDS or FUZZ_RUNS" >&2
	exit 2
fi

run_one() {
	t=$1
	corpus=$fuzzdir/corpus-$t
	log=$fuzzdir/$t.log
	mkdir -p "$corpus"
	for d in "$src/tests/fuzz/corpus/$t" "$src/tests/fuzz/regress/$t" "$fuzzdir/seeds-$t"; do
		[ -d "$d" ] && cp -n "$d"/* "$corpus"/ 2>/dev/null
	done
	opts=()
	[ "$seconds" != 0 ] && opts+=("-max_total_time=$seconds")
	[ -n "$runs" ] && [ "$runs" != 0 ] && opts+=("-runs=$runs")
	if [ -f "$src/tests/fuzz/options/$t" ]; then
		# shellcheck disable=SC2207
		opts+=($(grep -v '^#' "$src/tests/fuzz/options/$t"))
	fi
	rm -f "$fuzzdir/$t"-crash-* "$fuzzdir/$t"-leak-* "$fuzzdir/$t"-oom-* \
		"$fuzzdir/$t"-timeout-*
	start=$(date +%s)
	"$fuzzdir/fuzz_$t" "${opts[@]}" -print_final_stats=1 \
		-artifact_prefix="$fuzzdir/$t-" "$corpus" >"$log" 2>&1
	rc=$?
	echo "$rc $(($(date +%s) - start))" >"$fuzzdir/$t.rc"
}

summary() {
	t=$1
	log=$fuzzdir/$t.log
	read -r rc secs <"$fuzzdir/$t.rc"
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
	rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
	last=$(grep -E '^#[0-9]+' "$log" | tail -1)
	cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	corp=$(echo "$last" | sed -n 's/.* corp: \([0-9]*\).*/\1/p')
	artifact=$(ls "$fuzzdir/$t"-crash-* "$fuzzdir/$t"-leak-* "$fuzzdir/$t"-oom-* \
		"$fuzzdir/$t"-timeout-* 2>/dev/null | head -1)
	if [ "$rc" = 0 ] && [ -z "$artifact" ]; then
		result=ok
	else
		result="FAILED (exit $rc${artifact:+, input $artifact})"
	fi
	printf '%-18s %12s %6s s %9s/s  cov %6s  ft %7s  corpus %6s  rss %5s MB  %s\n' \
		"$t" "${execs:-?}" "$secs" "${rate:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" \
		"${rss:-?}" "$result" >>"$fuzzdir/report.txt"
	printf '  {"target": "%s", "executions": %s, "seconds": %s, "execPerSec": %s, "coverage": %s, "features": %s, "corpus": %s, "peakRssMb": %s, "ok": %s}' \
		"$t" "${execs:-null}" "$secs" "${rate:-null}" "${cov:-null}" "${ft:-null}" \
		"${corp:-null}" "${rss:-null}" "$([ "$result" = ok ] && echo true || echo false)" \
		>>"$fuzzdir/report.json"
	[ "$result" = ok ] || { echo "run-fuzz: $t: $result; log: $log" >&2; tail -30 "$log" >&2; }
	[ "$result" = ok ]
}

for t in "$@"; do
	[ -x "$fuzzdir/fuzz_$t" ] || { echo "run-fuzz: $fuzzdir/fuzz_$t not built" >&2; exit 2; }
done

limits=""
[ "$seconds" != 0 ] && limits="$seconds s"
[ -n "$runs" ] && [ "$runs" != 0 ] && limits="${limits:+$limits or }$runs executions"
echo "run-fuzz: $# targets, $jobs at a time, each for $limits"
running=0
for t in "$@"; do
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
	echo "  FUZZ   $t"
	run_one "$t" &
	running=$((running + 1))
done
wait

{
	echo "# make fuzz, $(date -u +%Y-%m-%dT%H:%M:%SZ): target, executions, time, rate, coverage"
	echo "# (edges), features, corpus entries, peak RSS, result"
} >"$fuzzdir/report.txt"
echo "[" >"$fuzzdir/report.json"
status=0
first=1
for t in "$@"; do
	[ $first = 1 ] || echo "," >>"$fuzzdir/report.json"
	first=0
	summary "$t" || status=1
done
printf '\n]\n' >>"$fuzzdir/report.json"
cat "$fuzzdir/report.txt"
exit $status
