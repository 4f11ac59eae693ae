"""What an emitter prints from a parsed fragment, made once per fragment (issue 26).

The frontend's SQL layer parses each distinct text once (``ddlc.frontend.sql.pgparse``: the trees are shared and
never modified), so a stream that repeats a statement hands the emitter the very same tree again. What the
emitter makes of it (the text, and the diagnostics it reports about the fragment) is a function of that tree and
its text: :func:`printed_once` keeps it and, for the same tree and text, reports the diagnostics again (about the
fragment in hand) and gives the text without working it out again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_KEPT: dict[tuple[int, str], tuple[Any, Any, str, tuple[tuple[str, str], ...]]] = {}
_LIMIT = 1024


class _Said:
    """The emitter ``make`` is given: ``e`` itself for what ``make`` uses of it (``diag``), the codes and
    messages of the diagnostics kept (``pure``: each one about the fragment, ``origin``, with no more detail)."""

    __slots__ = ("e", "origin", "said", "pure")

    def __init__(self, e: Any, origin: Any) -> None:
        self.e, self.origin, self.said, self.pure = e, origin, [], True

    def diag(self, code: str, message: str, path: Any, **more: Any) -> None:
        if path != self.origin or more:
            self.pure = False
        self.said.append((code, message))
        self.e.diag(code, message, path, **more)


def printed_once(tree: Any, text: str, origin: Any, e: Any, make: Callable[[Any], str], printer: Any) -> str:
    """``make(emitter)``, the text an emitter prints with ``printer`` from the parsed fragment ``tree`` (of
    ``text``, at ``origin``), worked out once per tree, text and printer: ``make`` must use nothing of the
    emitter but ``diag`` (about ``origin``) and depend on nothing but the tree, the text and the printer. An
    answer whose diagnostics are about anything else is not kept."""
    key = (id(tree), text)
    hit = _KEPT.get(key)
    if hit is not None and hit[0] is tree and hit[1] is printer:
        for code, message in hit[3]:
            e.diag(code, message, origin)
        return hit[2]
    said = _Said(e, origin)
    out = make(said)
    if said.pure:
        if len(_KEPT) >= _LIMIT:
            _KEPT.clear()
        _KEPT[key] = (tree, printer, out, tuple(said.said))  # (the tree held: its id is not reused while kept)
    return out


__all__ = ["printed_once"]
