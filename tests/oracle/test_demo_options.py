# SPDX-License-Identifier: GPL-2.0-or-later
"""The demo's figures and options, without a network.

tools/demo_flows.py computes the many-flows demo's figures (Jain's index,
utilisation while every flow sends, completion times): checked here on
series whose answers are known.  tools/demo.py's --flows and --format
pre-ecn change the routers' configuration: checked with --print-config,
and the combinations it cannot run are refused.

Runs under automake's test driver (exit status) and under pytest.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
DEMO = os.path.join(TOP, "tools", "demo.py")
sys.path.insert(0, os.path.join(TOP, "tools"))

import demo_flows  # noqa: E402  pylint: disable=wrong-import-position


def demo(*args):
    return subprocess.run([sys.executable, DEMO, "/nonexistent", *args], check=False,
                          capture_output=True, text=True)


def flow(rx, cuts=(), completion=None, done_at=None, messages=0):
    return {"rx": rx, "cuts": list(cuts), "completion": completion, "done_at": done_at,
            "messages": messages}


def test_jain_index():
    assert demo_flows.jain_index([5.0, 5.0, 5.0, 5.0]) == 1.0
    assert demo_flows.jain_index([8.0, 0.0, 0.0, 0.0]) == 0.25
    # (1 + 3)^2 / (2 * (1 + 9)) = 0.8
    assert abs(demo_flows.jain_index([1.0, 3.0]) - 0.8) < 1e-12
    assert demo_flows.jain_index([]) is None and demo_flows.jain_index([0.0, 0.0]) is None


def test_figures_count_while_every_flow_sends():
    # Two flows on a 20 Mb/s bottleneck; the second finishes at 100 ms, after
    # which the first has the link alone: only [0, 100] counts.
    flows = [flow([(0, 10.0), (50, 10.0), (100, 10.0), (150, 20.0)], cuts=(30, 60),
                  completion=190.0, done_at=200.0, messages=2),
             flow([(0, 10.0), (50, 10.0), (100, 10.0)], cuts=(40,), completion=95.0,
                  done_at=100.0, messages=1)]
    queue = [(-5, 0), (0, 0), (10, 5000), (20, 12000), (30, 30000), (150, 0)]
    got = demo_flows.flow_figures(flows, queue, 20, 10000)
    assert got["contended_ms"] == 100.0
    assert got["flow_rates"] == [10.0, 10.0] and got["jain"] == 1.0
    assert got["utilisation"] == 1.0
    assert got["onset_ms"] == 20 and got["first_cut_ms"] == 30 and got["reaction_ms"] == 10
    assert got["peak_queue"] == 30000 and got["mean_queue"] == 47000 / 4
    assert got["completion_ms"] == [95.0, 190.0] and got["completion_median_ms"] == 142.5
    assert got["messages"] == 3 and got["flows_cut"] == 2 and got["completed"] == 2


def test_figures_without_completion_or_cut():
    flows = [flow([(0, 4.0), (10, 6.0)]), flow([(0, 1.0), (10, 1.0)])]
    got = demo_flows.flow_figures(flows, [(0, 0), (10, 100)], 10, 1000)
    assert got["contended_ms"] == 10 and got["completed"] == 0
    assert got["completion_median_ms"] is None and got["reaction_ms"] is None
    assert got["onset_ms"] is None and got["flows_cut"] == 0
    assert abs(got["utilisation"] - 0.6) < 1e-12
    rows = dict(demo_flows.comparison_rows([got], 2))
    assert rows["transfers completed"] == ["    0 of 2"]
    assert rows["completion, median"] == ["   --    "]


def test_flows_add_the_second_sender():
    out = demo("--flows", "8", "--print-config", "pe1")
    assert out.returncode == 0, out.stderr
    cfg = out.stdout
    assert "ip prefix-list SENDERS seq 10 permit 10.1.1.0/24" in cfg
    assert "interface eth-sender2\n ip router isis wan\n isis passive\n" in cfg
    assert " proxy learn-interface eth-sender2\n" in cfg
    single = demo("--print-config", "pe1").stdout
    assert "sender2" not in single and "10.1.1.0" not in single


def test_pre_ecn_configures_the_tunnel_and_two_thresholds():
    p = demo("--format", "pre-ecn", "--print-config", "p").stdout
    assert " congestion-point interface eth-pe2 marking two-threshold\n" in p
    assert " congestion-point source-address 2001:db8:ff::2\n" in p
    assert "ipv6 route 2001:db8:ee::/64 2001:db8:b::3\n" in p
    pe1 = demo("--format", "pre-ecn", "--print-config", "pe1").stdout
    assert "ipv6 prefix-list ROUTERS seq 5 permit 2001:db8:ff::/64 le 128" in pe1
    assert " ipv6 address 2001:db8:ff::1/128\n" in pe1 and "debug cnpproxy proxy" in pe1
    assert " marking ce\n" in demo("--print-config", "p").stdout


def test_combinations_it_cannot_run_are_refused():
    for args, says in ((("--flows", "0"), "--flows: 1 to 16"),
                       (("--flows", "17"), "--flows: 1 to 16"),
                       (("--flows", "4", "--signalling", "ospf6"), "--flows runs over IPv4"),
                       (("--flows", "4", "--format", "pre-ecn"), "--flows runs over IPv4"),
                       (("--format", "pre-ecn", "--signalling", "bgp"), "runs over IS-IS")):
        out = demo(*args, "--print-config", "p")
        assert out.returncode == 2 and says in out.stderr, (args, out.stderr)


if __name__ == "__main__":
    failed = 0
    for name, fn in sorted(globals().items()):
        if name.startswith("test_") and callable(fn):
            try:
                fn()
                print("PASS: " + name)
            except AssertionError as e:
                failed += 1
                print("FAIL: {}: {}".format(name, e))
    sys.exit(1 if failed else 0)
