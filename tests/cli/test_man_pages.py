# SPDX-License-Identifier: GPL-2.0-or-later
"""The tools' man pages (doc/man/, installed by pnc-tools) against the tools.

Each page is written by hand from the tool's usage text, so it can fall
behind the tool.  This checks that every long option the tool's --help
names is in its page, and that man formats the page without a warning.

Runs under automake's test driver (exit status) and under pytest.
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "..", "..")
BUILD = os.environ.get("PNC_BUILDDIR") or os.path.join(SRC, "build")
TOOLS = {
    "pnc-pkt": ["tools/pnc-pkt/pnc-pkt", "build --help", "decode --help"],
    "roce-emu": ["tools/roce-emu/roce-emu"],
    "pnc-qmon": ["tools/qmon/pnc-qmon"],
    "pnc-tc-mark": ["tools/tc-mark/pnc-tc-mark"],
    "pnc-fl-encap": ["tools/fl-encap/pnc-fl-encap"],
    "pnc-delay-line": ["tools/delay-line/pnc-delay-line"],
}


def help_options(name):
    """Long options named in every --help text of the tool."""
    binary, *subhelps = TOOLS[name]
    text = ""
    for args in ["--help"] + subhelps:
        run = subprocess.run([os.path.join(BUILD, binary)] + args.split(),
                             capture_output=True, text=True, check=False)
        text += run.stdout + run.stderr
    assert text.strip(), f"{name}: no --help output"
    return set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", text)) - {"--help"}


def page_options(name):
    """Long options in the page's roff source (written \\-\\-name there)."""
    with open(os.path.join(SRC, "doc", "man", name + ".1"), encoding="utf-8") as f:
        roff = f.read()
    return set(re.findall(r"--[a-z][a-z0-9-]*", roff.replace("\\-", "-")))


def test_every_option_is_in_the_page():
    for name in TOOLS:
        missing = help_options(name) - page_options(name)
        assert not missing, f"{name}.1 lacks {sorted(missing)}"


def test_pages_format_without_warnings():
    for name in TOOLS:
        page = os.path.join(SRC, "doc", "man", name + ".1")
        run = subprocess.run(["man", "--warnings", "-l", "-E", "UTF-8", page],
                             capture_output=True, text=True, check=False,
                             env=dict(os.environ, MANWIDTH="80", MAN_KEEP_STDERR="1"))
        assert run.returncode == 0 and "NAME" in run.stdout, f"{name}.1: {run.stderr}"
        assert not run.stderr.strip(), f"{name}.1: {run.stderr.strip()}"


if __name__ == "__main__":
    failed = 0
    for t in (test_every_option_is_in_the_page, test_pages_format_without_warnings):
        try:
            t()
            print(f"PASS: {t.__name__}")
        except AssertionError as e:
            print(f"FAIL: {t.__name__}: {e}")
            failed = 1
    sys.exit(failed)
