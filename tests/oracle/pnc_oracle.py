# SPDX-License-Identifier: GPL-2.0-or-later
"""Helpers shared by the pnc-pkt oracle tests (tests/oracle/test_*.py).

The tests run under automake's test driver with Debian's /usr/bin/python3.
They never skip: a missing pnc-pkt, scapy or tshark is a failure.
"""
import json
import os
import subprocess
import sys

_failures = []
_checks = [0]


def pnc_pkt():
    """Path of the pnc-pkt binary (PNC_PKT from make check, or build/)."""
    path = os.environ.get("PNC_PKT")
    if not path:
        here = os.path.dirname(os.path.abspath(__file__))
        path = os.path.join(here, "..", "..", "build", "tools", "pnc-pkt", "pnc-pkt")
    if not os.access(path, os.X_OK):
        die("pnc-pkt not found or not executable: %s" % path)
    return path


def run_full(args, data=None):
    """Run pnc-pkt; return (exit status, stdout, stderr)."""
    p = subprocess.run([pnc_pkt()] + list(args), input=data,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout, p.stderr


def run(args, data=None, expect_rc=0):
    """Run pnc-pkt with args; check the exit status; return stdout bytes."""
    p = subprocess.run([pnc_pkt()] + list(args), input=data,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if expect_rc is not None and p.returncode != expect_rc:
        die("pnc-pkt %s: exit %d, expected %d\nstderr: %s" %
            (" ".join(args), p.returncode, expect_rc, p.stderr.decode(errors="replace")))
    return p.stdout


def run_json(args, data=None, expect_rc=0):
    """pnc-pkt output as a list of JSON objects (one per line)."""
    out = run(args, data, expect_rc).decode()
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def build_hex(args):
    return run(["build"] + list(args) + ["--out", "hex"]).decode().split()


def die(msg):
    print("FATAL: " + msg)
    sys.exit(1)


def check(cond, msg):
    """Record a failure (the test goes on, to show all of them)."""
    _checks[0] += 1
    if not cond:
        _failures.append(msg)
        if len(_failures) <= 30:
            print("FAIL: " + msg)
    return cond


def finish(name):
    checks_done = _checks[0]
    if _failures:
        print("%s: %d failure(s) in %d checks" % (name, len(_failures), checks_done))
        sys.exit(1)
    if checks_done == 0:
        die("%s: nothing was checked" % name)
    print("%s: %d checks passed" % (name, checks_done))
    sys.exit(0)
