#!/usr/bin/env python
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Benchmark (make bench, not make check): the proxy table's lookup and
# the flow table's memory, measured by pnc-bench-tables in one process
# (no topology).  Prints a table of min/median/max and writes
# $PNC_BENCH_OUT_DIR/bench-tables.json.  Only correctness is asserted
# (every figure present, the compiled and the sorted tables agree, which
# the program checks itself); the targets are read from the table.

import json
import os
import subprocess
import sys

import pytest

from pnc_topo import built

BENCH = built("tests/bench/pnc-bench-tables")
RUNS = int(os.environ.get("PNC_BENCH_ROUNDS", "3"))

pytestmark = [pytest.mark.cnpproxyd]


def row(name, stat, scale=1.0, fmt="{:.1f}"):
    return "{:<34} {:>10} {:>10} {:>10}".format(
        name, *(fmt.format(stat[k] / scale) for k in ("min", "median", "max")))


def test_tables():
    out = subprocess.run([BENCH, str(RUNS)], check=True, capture_output=True, text=True,
                         timeout=900).stdout
    report = json.loads(out)
    lines = ["{:<34} {:>10} {:>10} {:>10}".format("", "min", "median", "max")]
    for name in ("ipv4_1k", "ipv4_1M", "ipv6_1k", "ipv6_1M"):
        r = report[name]
        assert r["prefixes"] > 0 and r["bytes"] > 0, r
        lines.append("{}: {} prefixes, {:.1f} MiB, first table {} bits, "
                     "at most {} reads".format(name, r["prefixes"], r["bytes"] / 2**20,
                                               r["firstTableBits"], r["maxReads"]))
        lines.append(row("  compiled, M lookups/s", r["compiledLookupsPerS"], 1e6))
        lines.append(row("  compiled bulk, M lookups/s", r["compiledBulkLookupsPerS"], 1e6))
        lines.append(row("  sorted table, M lookups/s", r["sortedLookupsPerS"], 1e6, "{:.2f}"))
        lines.append(row("  build, ms", r["buildMs"]))
    f = report["flows1M"]
    assert f["flows"] == f["capacity"] == 1000000, f
    lines.append("flows1M: {} flows in {:.1f} MiB ({:.0f} bytes a flow)".format(
        f["flows"], f["bytes"] / 2**20, f["bytesPerFlow"]))
    lines.append(row("  fill, ns a flow", f["fillNsPerFlow"]))
    lines.append(row("  lookup, ns", f["lookupNs"]))
    print("\nbench tables ({} runs):\n{}".format(report["runs"], "\n".join(lines)))
    if os.environ.get("PNC_BENCH_OUT_DIR"):
        with open(os.path.join(os.environ["PNC_BENCH_OUT_DIR"], "bench-tables.json"),
                  "w") as fh:
            json.dump(report, fh, indent=1)


if __name__ == "__main__":
    sys.exit(pytest.main(["-s"] + sys.argv[1:]))
