#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check-layout: cnpproxyd's modules must not include each other in a circle.

A module is a source file and its header (x.c and x.h are one).  The
include graph is read from the quoted #include lines; a strongly
connected component of more than one module is a circle, reported with
the includes that close it.  With --roles, also lists which role folder
includes which (a map for doc/design.md).  Exit status 1 on a circle.
"""

import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def module(root, path):
    rel = os.path.relpath(path, root)
    rel = re.sub(r'\.bpf\.[ch]$', '.bpf', rel)
    return re.sub(r'\.[ch]$', '', rel)


def read_graph(root):
    edges = {}
    for d, _, files in os.walk(root):
        for f in files:
            if not f.endswith(('.c', '.h')):
                continue
            path = os.path.join(d, f)
            a = module(root, path)
            edges.setdefault(a, set())
            with open(path, encoding='utf-8', errors='replace') as fh:
                text = fh.read()
            for inc in INCLUDE.findall(text):
                for cand in (os.path.join(d, inc), os.path.join(root, inc)):
                    if os.path.isfile(cand):
                        b = module(root, os.path.normpath(cand))
                        if b != a:
                            edges[a].add(b)
                        break
    return edges


def circles(edges):
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def role(mod):
    parts = mod.split('/')
    return '/'.join(parts[:-1]) if len(parts) > 1 else 'core'


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    args = [a for a in argv[1:] if not a.startswith('-')]
    root = args[0] if args else os.path.join(here, '..', 'cnpproxyd')
    edges = read_graph(root)
    found = circles(edges)
    for comp in found:
        print('check-layout: circle of %d modules:' % len(comp))
        for a in comp:
            print('  %s -> %s' % (a, ', '.join(sorted(edges[a] & set(comp)))))
    if '--roles' in argv:
        pairs = {}
        for a, bs in edges.items():
            for b in bs:
                if role(a) != role(b):
                    pairs.setdefault(role(a), set()).add(role(b))
        for a in sorted(pairs):
            print('%s -> %s' % (a, ', '.join(sorted(pairs[a]))))
    n = sum(len(b) for b in edges.values())
    print('check-layout: %d modules, %d includes, %d circles' % (len(edges), n, len(found)))
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
