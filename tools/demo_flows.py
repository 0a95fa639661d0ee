# SPDX-License-Identifier: GPL-2.0-or-later
"""The closed-loop demo with many flows (tools/demo.py --flows N): the
figures of one run from its series, and the side-by-side rows.  Pure
functions of what the run logged: no I/O, no namespaces."""

import statistics


def jain_index(rates):
    """Jain's fairness index of the rates: 1 when all are equal, 1/n when
    one flow has everything; None without traffic."""
    total = sum(rates)
    squares = sum(r * r for r in rates)
    if not rates or squares == 0:
        return None
    return total * total / (len(rates) * squares)


def mean_in(samples, start, end):
    """Mean of the values of (time, value) samples with start <= time <= end."""
    inside = [v for t, v in samples if start <= t <= end]
    return sum(inside) / len(inside) if inside else 0.0


def contended_until(done_at, run_end):
    """Until when every flow still sends: the first to finish its transfer,
    else the end of the run (ms)."""
    done = [c for c in done_at if c is not None]
    return min(done) if done else run_end


def flow_figures(flows, queue, tbf_mbit, k_min):
    """The run's figures.  flows: per flow a dict with "rx" [(ms, Mb/s)] at
    the receiver, "cuts" [ms] of the messages that cut its rate,
    "completion" (its transfer's duration in ms, None when it did not finish)
    and "done_at" (when it finished, ms), "messages"; queue: [(ms, backlog
    octets)] at the bottleneck.  Times are ms since the first flow's first
    packet."""
    completions = [f["completion"] for f in flows]
    run_end = max((t for f in flows for t, _ in f["rx"]), default=0.0)
    until = contended_until([f["done_at"] for f in flows], run_end)
    rates = [mean_in(f["rx"], 0.0, until) for f in flows]
    during = [b for t, b in queue if 0.0 <= t <= until]
    onset = next((t for t, b in queue if t >= 0.0 and b > k_min), None)
    first_cut = min((c for f in flows for c in f["cuts"][:1]), default=None)
    done = sorted(c for c in completions if c is not None)
    return {
        "contended_ms": until,
        "flow_rates": rates,
        "utilisation": sum(rates) / tbf_mbit if tbf_mbit else 0.0,
        "jain": jain_index(rates),
        "peak_queue": max(during, default=0),
        "mean_queue": sum(during) / len(during) if during else 0.0,
        "onset_ms": onset,
        "first_cut_ms": first_cut,
        "reaction_ms": (first_cut - onset if None not in (onset, first_cut) and
                        first_cut >= onset else None),
        "completed": len(done),
        "completion_ms": done,
        "completion_median_ms": statistics.median(done) if done else None,
        "messages": sum(f["messages"] for f in flows),
        "flows_cut": sum(1 for f in flows if f["cuts"]),
    }


def fmt_ms(value):
    """A time cell of the table."""
    return "   --    " if value is None else "{:8.1f} ms".format(value)


def comparison_rows(figures, nflows):
    """(label, [cell per run]) of the side-by-side table."""
    def each(fmt, key):
        return [fmt(f[key]) for f in figures]

    def completion(f, pick):
        done = f["completion_ms"]
        return fmt_ms(pick(done)) if done else fmt_ms(None)

    return [
        ("congestion onset (> K_min)", each(fmt_ms, "onset_ms")),
        ("first rate cut, any sender", each(fmt_ms, "first_cut_ms")),
        ("reaction (onset -> cut)", each(fmt_ms, "reaction_ms")),
        ("all flows sending until", each(fmt_ms, "contended_ms")),
        ("bottleneck utilisation", each("{:8.1%}   ".format, "utilisation")),
        ("Jain's index over the flows", [("{:8.3f}   ".format(f["jain"]) if f["jain"] is not None
                                          else "   --    ") for f in figures]),
        ("peak queue", each("{:8.0f} B ".format, "peak_queue")),
        ("mean queue", each("{:8.0f} B ".format, "mean_queue")),
        ("transfers completed", ["{:5d} of {}".format(f["completed"], nflows)
                                 for f in figures]),
        ("completion, first", [completion(f, min) for f in figures]),
        ("completion, median", each(fmt_ms, "completion_median_ms")),
        ("completion, last", [completion(f, max) for f in figures]),
        ("flows cut at least once", ["{:5d} of {}".format(f["flows_cut"], nflows)
                                     for f in figures]),
        ("messages at the senders", each("{:8d}   ".format, "messages")),
    ]
