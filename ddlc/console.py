"""The ``ddlc`` console script (and ``python -m ddlc``): :func:`ddlc.cli.main` in a process tuned for
a short life.

A short run (a pre-commit hook checking one file) creates some 200,000 objects while it imports, all
of which live until the process ends and none of which is garbage: the collector's passes over them
cost ~9 ms, and its final collection at exit another ~14 ms, of a run of ~130 ms
(docs/performance.md). So the console script lets the first 50,000 net allocations pass before the
collector's first pass, after which the usual thresholds apply again (a long translation keeps the
memory profile it had: its peak grows by ~1 MiB), and freezes what is alive when the command ends, which the interpreter's exit
then does not walk again. Objects are still finalised as usual. Library callers (``import ddlc``)
keep their own collector settings: nothing here runs on import.
"""

from __future__ import annotations

import gc

_START_UP = 50_000  # net allocations of tracked objects before the first collection


def main() -> None:
    usual = gc.get_threshold()

    def first_pass(phase: str, info: dict) -> None:
        if phase == "stop":
            gc.set_threshold(*usual)
            gc.callbacks.remove(first_pass)

    gc.set_threshold(_START_UP, *usual[1:])
    gc.callbacks.append(first_pass)
    try:
        from .cli import main as cli_main

        cli_main()
    finally:
        gc.freeze()
