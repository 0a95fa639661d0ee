#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes the inputs of FRR's own IS-IS TLV corpus (the generated header
tests/isisd/test_fuzz_isis_tlv_tests.h.gz of the FRR tree, inputs with
their expected outputs) as seed files for pnc's isis_tlvs fuzz target.

Usage: isis_seeds_from_frr.py HEADER.h.gz OUTDIR
"""

import gzip
import os
import re
import sys

INPUT = re.compile(rb'\.input = "((?:[^"\\]|\\.)*)",\s*\.input_len = (\d+),')
ESCAPE = re.compile(rb"\\(x[0-9a-fA-F]{2}|[0-7]{1,3}|.)")
NAMED = {b"n": b"\n", b"t": b"\t", b"r": b"\r", b"0": b"\0", b"\\": b"\\", b'"': b'"'}


def unescape(literal):
    def one(m):
        e = m.group(1)
        if e[:1] == b"x":
            return bytes([int(e[1:], 16)])
        if e[:1].isdigit():
            return bytes([int(e, 8)])
        return NAMED.get(e, e)

    return ESCAPE.sub(one, literal)


def main(header, outdir):
    with gzip.open(header) as f:
        text = f.read()
    os.makedirs(outdir, exist_ok=True)
    n = 0
    for literal, length in INPUT.findall(text):
        data = unescape(literal)
        if len(data) != int(length):
            sys.exit("{}: input {} is {} octets, its length says {}".format(
                header, n, len(data), int(length)))
        with open(os.path.join(outdir, "frr-{:04d}".format(n)), "wb") as out:
            out.write(data)
        n += 1
    if n == 0:
        sys.exit("{}: no input found".format(header))
    print("{} seeds from {}".format(n, header))


if __name__ == "__main__":
    main(*sys.argv[1:])
