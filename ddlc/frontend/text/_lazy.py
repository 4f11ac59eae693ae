"""Values of a reading made only once they are needed (``_match``): a chart parse reaches every end a
fragment or an array may have, and making each end's text or list would cost the square of its length."""

from __future__ import annotations

from typing import Any


class Span:
    """A fragment's text, cut from the statement only once the tree is read (:func:`match`): a
    fragment ends at every token it may stop at, and cutting each of those texts would cost the
    square of the fragment's length (``suffix``: text a ``post`` adds)."""

    __slots__ = ("text", "start", "end", "suffix")

    def __init__(self, text: str, start: int, end: int, suffix: str = "") -> None:
        self.text, self.start, self.end, self.suffix = text, start, end, suffix

    def __str__(self) -> str:
        return self.text[self.start:self.end] + self.suffix

    def __repr__(self) -> str:
        return f"Span({str(self)!r})"


class Chain:
    """The elements of an array placeholder read so far, linked to the shorter reading they extend
    (each end of an array shares its elements with the shorter ones: copying them would cost the
    square of its length); a list once the tree is read (:func:`resolve`)."""

    __slots__ = ("prev", "value")

    def __init__(self, prev: Chain | None, value: Any) -> None:
        self.prev, self.value = prev, value

    def items(self) -> list[Any]:
        out, c = [], self
        while c is not None:
            out.append(c.value)
            c = c.prev
        out.reverse()
        return out


def resolve(v: Any) -> Any:
    """``v`` with every :class:`Span` in it cut into its text and every :class:`Chain` made a list."""
    if isinstance(v, Span):
        return str(v)
    if isinstance(v, Chain):
        return [resolve(x) for x in v.items()]
    if isinstance(v, dict):
        return {k: resolve(x) for k, x in v.items()}
    if isinstance(v, list):
        return [resolve(x) for x in v]
    return v


def reading(link: tuple[Any, dict[str, Any], str] | None) -> tuple[dict[str, Any], str]:
    """The members and the fmt text of a linked reading (a later member of a name wins)."""
    parts = []
    while link is not None:
        parts.append(link)
        link = link[0]
    vals: dict[str, Any] = {}
    fmt = []
    for _prev, v2, f2 in reversed(parts):
        if type(v2) is tuple:  # one member
            vals[v2[0]] = v2[1]
        elif v2:  # the members of a choice
            vals.update(v2)
        fmt.append(f2)
    return vals, "".join(fmt)


__all__ = ["Span", "Chain", "resolve", "reading"]
