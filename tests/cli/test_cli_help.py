# SPDX-License-Identifier: GPL-2.0-or-later
"""cnpproxyd's command help, as vtysh shows it on "?".

FRR's build collects every command's definition string and help lines
into frr.xref (the file vtysh's command table is generated from).  For
cnpproxyd's commands this checks that each token has its help line, that
help never says something is not implemented (everything the commands
offer runs), and that help states no default: the defaults live in the
YANG module alone, where `show running-config` and the northbound read
them, so help cannot drift from them.

Runs under automake's test driver (exit status) and under pytest.
"""
import json
import os
import re
import sys

BUILD = os.environ.get("PNC_BUILDDIR") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "build")
XREF = os.path.join(BUILD, "frr-build", "frr.xref")
# Tokens whose help may say "not implemented": none any more.
REFUSED_TOKENS = set()


def tokens(string):
    """The words of an FRR command definition, in order, as help lines follow them."""
    string = re.sub(r"\$\w+", "", string)
    # "![...]" is "[...]" that only the "no" form may leave out.
    return re.findall(r"\(\d+-\d+\)|[^\s<>\[\]{}|()!]+", string)


def commands():
    with open(XREF, encoding="utf-8") as f:
        cli = json.load(f)["cli"]
    found = []
    for name, per_binary in cli.items():
        for binary, info in per_binary.items():
            if binary.endswith("cnpproxyd/cnpproxyd"):
                found.append((name, info["string"], info["doc"].split("\n")[:-1]))
    return found


def test_every_token_has_help():
    cmds = commands()
    assert len(cmds) > 40, "too few cnpproxyd commands in %s: %d" % (XREF, len(cmds))
    bad = ["%s: %d tokens, %d help lines" % (s, len(tokens(s)), len(d))
           for _, s, d in cmds if len(tokens(s)) != len(d)]
    assert not bad, "\n".join(bad)


def test_help_claims_only_what_is_refused():
    bad = []
    for _, string, doc in commands():
        for tok, line in zip(tokens(string), doc):
            if "not implemented" in line and tok not in REFUSED_TOKENS:
                bad.append("%s: %s: %s" % (string, tok, line))
    assert not bad, "help says 'not implemented' for what runs:\n" + "\n".join(bad)


def test_help_states_no_default():
    bad = ["%s: %s" % (string, line) for _, string, doc in commands() for line in doc
           if re.search(r"\bdefault\b", line, re.I)]
    assert not bad, "help states a default (the YANG module holds it):\n" + "\n".join(bad)


def test_roles_say_what_they_do():
    roles = [dict(zip(tokens(s), d)) for _, s, d in commands()
             if re.sub(r"\$\w+", "", s) == "[no] <proxy|congestion-point>"]
    assert len(roles) == 1, "one command for both roles: %d" % len(roles)
    assert roles[0]["proxy"].startswith("Proxy role: "), roles[0]
    assert roles[0]["congestion-point"].startswith("Congestion point role: "), roles[0]


if __name__ == "__main__":
    failed = 0
    for name, fn in sorted(globals().items()):
        if name.startswith("test_") and callable(fn):
            try:
                fn()
                print("PASS: " + name)
            except AssertionError as e:
                failed += 1
                print("FAIL: %s: %s" % (name, e))
    sys.exit(1 if failed else 0)
