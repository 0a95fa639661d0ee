# SPDX-License-Identifier: GPL-2.0-or-later
"""Helpers shared by pnc's topotests."""

import shlex


def run_rc(router, command):
    """Run a shell command on a router; return (exit code, stdout+stderr)."""
    out = router.cmd("{} 2>&1; echo rc=$?".format(command))
    body, _, rc = out.rpartition("rc=")
    return int(rc.strip()), body


def vtysh_rc(router, *commands):
    """Run vtysh commands; unlike vtysh_cmd(), keep errors and the exit code."""
    return run_rc(router, "vtysh " + " ".join("-c " + shlex.quote(c) for c in commands))
