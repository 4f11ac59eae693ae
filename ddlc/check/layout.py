"""``ddlc format``: JDDL files in one canonical, stable JSON layout, so that diffs stay small.

The layout: two-space indentation, one member or element per line; in every object ``fmt`` first
and the other keys in code-point order (so a key added or changed is a one-line diff); strings as
they are (no ``\\u`` escapes for non-ASCII); numbers exactly as written; one newline at the end. A
file of JSON lines stays JSON lines (one document per line, keys in the same order, compact), and a
file holding several documents as a JSON array stays an array. Formatting is idempotent, and the
document read back is the document written (the test proves both). A file that is not JSON is left
untouched and reported.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["format_text", "LayoutError"]


class LayoutError(ValueError):
    """The text is not JSON (or not one of the layouts ddlc writes): nothing is rewritten."""


def _keys(d: dict[str, Any]) -> list[str]:
    return sorted(d, key=lambda k: (k != "fmt", k))


def _dump(v: Any, indent: str, out: list[str], compact: bool) -> None:
    if isinstance(v, dict):
        if not v:
            out.append("{}")
            return
        if compact:
            out.append("{")
            for n, k in enumerate(_keys(v)):
                if n:
                    out.append(", ")
                out.append(_string(k) + ": ")
                _dump(v[k], indent, out, True)
            out.append("}")
            return
        inner = indent + "  "
        out.append("{\n")
        keys = _keys(v)
        for n, k in enumerate(keys):
            out.append(inner + _string(k) + ": ")
            _dump(v[k], inner, out, False)
            out.append(",\n" if n < len(keys) - 1 else "\n")
        out.append(indent + "}")
    elif isinstance(v, list):
        if not v:
            out.append("[]")
            return
        if compact:
            out.append("[")
            for n, x in enumerate(v):
                if n:
                    out.append(", ")
                _dump(x, indent, out, True)
            out.append("]")
            return
        inner = indent + "  "
        out.append("[\n")
        for n, x in enumerate(v):
            out.append(inner)
            _dump(x, inner, out, False)
            out.append(",\n" if n < len(v) - 1 else "\n")
        out.append(indent + "]")
    elif isinstance(v, _Number):
        out.append(v.text)
    elif isinstance(v, str):
        out.append(_string(v))
    else:
        out.append(json.dumps(v))


def _string(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


class _Number(str):
    """A number kept exactly as the file wrote it (1.50 stays 1.50, 1e400 stays 1e400)."""

    @property
    def text(self) -> str:
        return str.__str__(self)


def _loads(text: str) -> Any:
    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in pairs:
            if k in out:
                raise LayoutError(f"key {k!r} appears twice in one object: which one is meant is not clear")
            out[k] = v
        return out

    return json.loads(text, object_pairs_hook=no_duplicates, parse_float=_Number, parse_int=_Number,
                      parse_constant=lambda c: (_ for _ in ()).throw(LayoutError(f"{c} is not JSON")))


def format_text(text: str, *, lines: bool = False) -> str:
    """``text`` (a JDDL file) in the canonical layout; ``lines``: the file is JSON lines (``.jsonl``),
    which it also is when it holds several values one per line. Raises :class:`LayoutError`."""
    stripped = text.strip()
    if not stripped:
        raise LayoutError("the file is empty")
    try:
        value = None if lines else _loads(stripped)
    except LayoutError:
        raise
    except ValueError as whole:  # not one value: JSON lines?
        if len([ln for ln in stripped.splitlines() if ln.strip()]) < 2:
            raise LayoutError(f"not JSON: {whole}") from None
        lines = True
    if lines:
        out = []
        for n, ln in enumerate(stripped.splitlines(), 1):
            if not ln.strip():
                continue
            try:
                v = _loads(ln)
            except ValueError as exc:
                raise LayoutError(f"line {n}: not JSON: {exc}") from None
            parts: list[str] = []
            _dump(v, "", parts, True)
            out.append("".join(parts))
        return "\n".join(out) + "\n"
    parts = []
    _dump(value, "", parts, False)
    return "".join(parts) + "\n"
