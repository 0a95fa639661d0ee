# SPDX-License-Identifier: GPL-2.0-or-later
"""The congestion point example of doc/cnpproxyd.md is the demo's.

`make demo-check` (the last step of `make check`) fails unless the proxy
path holds the demo's queue without a drop; the user guide's example is
only worth copying if it is that configuration.  The block after the
`<!-- demo-config: p -->` marker must equal the `router cnpproxy` block
that `tools/demo.py --print-config p` prints for the demo's defaults.

Runs under automake's test driver (exit status) and under pytest.
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
GUIDE = os.path.join(TOP, "doc", "cnpproxyd.md")
DEMO = os.path.join(TOP, "tools", "demo.py")


def cnpproxy_block(text):
    """Lines from 'router cnpproxy' to its 'exit'."""
    m = re.search(r"^router cnpproxy\n.*?^exit$", text, re.M | re.S)
    assert m, "no router cnpproxy block in:\n" + text
    return m.group(0).splitlines()


def doc_example(router):
    with open(GUIDE, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"<!--\s*demo-config:\s*%s\s*-->\s*\n```\n(.*?)^```" % router, text,
                  re.S | re.M)
    assert m, "doc/cnpproxyd.md has no demo-config example for " + router
    return cnpproxy_block(m.group(1))


def demo_config(router):
    out = subprocess.run([sys.executable, DEMO, "/nonexistent", "--print-config", router],
                         check=True, capture_output=True, text=True).stdout
    return cnpproxy_block(out)


def test_congestion_point_example_is_the_demos():
    doc, demo = doc_example("p"), demo_config("p")
    assert any("congestion-point interface" in line for line in demo), demo
    assert doc == demo, "doc/cnpproxyd.md:\n%s\ntools/demo.py --print-config p:\n%s" % (
        "\n".join(doc), "\n".join(demo))


if __name__ == "__main__":
    try:
        test_congestion_point_example_is_the_demos()
    except AssertionError as e:
        print("FAIL: %s" % e)
        sys.exit(1)
    print("PASS: the congestion point example of doc/cnpproxyd.md is the demo's")
