#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# ExaBGP API process: append every message ExaBGP hands us (one JSON
# object a line, "encoder json") to /tmp/gearlogdir/received.json, which
# the topotest harness bind-mounts from the peer's log directory.

import sys

OUT = "/tmp/gearlogdir/received.json"


def main():
    with open(OUT, "w", encoding="utf-8") as out:
        for line in sys.stdin:
            line = line.strip()
            if line:
                out.write(line + "\n")
                out.flush()


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        pass
