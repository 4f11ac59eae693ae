"""The pattern language of the text frontend's templates (``_match``), and what their literals mean.

A template's literal text is lexed (the SQL layer's lexer) into the meanings of its tokens (:func:`norm`)
once per literal, for every text and every matcher: the literals are the templates' own (code, never a
text's), so :func:`literal_words` keeps them in a table of bounded size.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ...quoting import ident_is_bare
from ..sql.lexer import Tok, fold, string_value, tokenize


def norm(t: Tok) -> tuple[str, str]:
    """What a token means, for comparing a text with an expansion: bare words folded (keywords and
    unquoted names are case-insensitive), quoted names and strings by their value."""
    if t.kind == "word":  # a keyword written bare is not the name it spells ("int" is not "int")
        f = fold(t.text)
        return ("ident", f) if ident_is_bare(f) else ("word", f)
    if t.kind == "qident":
        v = t.text[1:-1].replace('""', '"')
        return ("ident", v) if ident_is_bare(v) else ("qident", v)
    if t.kind in ("string", "dollar") and t.text[:1] in ("'", "$"):
        return ("string", string_value(t))
    return (t.kind, t.text)


_WORDS: dict[str, tuple[tuple[str, str], ...]] = {}
_WORDS_MAX = 4096  # the templates hold ~260 distinct literals; past this, literals are lexed each time


def literal_words(literal: str) -> tuple[tuple[str, str], ...]:
    """What the tokens of a template literal (a ``fmt`` word run, a separator, a keyword phrase) mean."""
    got = _WORDS.get(literal)
    if got is None:
        got = tuple(norm(t) for t in tokenize(literal))
        if len(_WORDS) < _WORDS_MAX:
            _WORDS[literal] = got
    return got


# ---- the pattern language ------------------------------------------------------------------------
def compile_pattern(spec: str) -> list[list[Any]]:
    """The alternatives of a template pattern, each a list of pieces: literal text (``str``, the
    ``fmt`` text it stands for) or a placeholder ``(name, sep or None, conv)`` or an inner choice
    (``list`` of alternatives)."""
    pos = 0

    def parse_alts(end: str) -> list[list[Any]]:
        nonlocal pos
        alts: list[list[Any]] = [[]]
        while pos < len(spec):
            c = spec[pos]
            if c in end:
                return alts
            if c == "|":
                pos += 1
                alts.append([])
            elif c == "[":
                pos += 1
                inner = parse_alts("]")
                pos += 1
                alts[-1].append(inner + [[]])
            elif c in "{<":  # ``<x>`` (one or more) is read once: its repetitions are a deparser defect
                pos += 1
                inner = parse_alts("}" if c == "{" else ">")
                pos += 1
                alts[-1].append(inner)
            elif c == "%" and spec.startswith("%{", pos):
                close = spec.index("}", pos)
                body = spec[pos + 2:close]
                name, sep = (body.split(":", 1) + [None])[:2] if ":" in body else (body, None)
                alts[-1].append((name, sep, spec[close + 1]))
                pos = close + 2
            elif c == "%" and spec.startswith("%%", pos):
                alts[-1].append("%%")
                pos += 2
            else:
                j = pos
                while j < len(spec) and spec[j] not in "|[]{}<>%" + end:
                    j += 1
                if j == pos:
                    j += 1
                alts[-1].append(spec[pos:j])
                pos = j
        return alts

    return parse_alts("")


def first_fmt(alts: list[list[Any]]) -> str:
    """The ``fmt`` of the first branches of a pattern (an object left out is given that one)."""
    alt = alts[0]

    def text(pieces: Iterable[Any]) -> str:
        out = []
        for p in pieces:
            if isinstance(p, str):
                out.append(p if p != "%%" else "%%")
            elif isinstance(p, list):
                out.append(text(p[0]))
            else:
                name, sep, conv = p
                out.append("%{" + name + (":" + sep if sep is not None else "") + "}" + conv)
        return "".join(out)

    return text(alt)


# ---- plans: patterns made ready to match ---------------------------------------------------------
# The steps of a planned alternative: a literal ``(LIT, fmt text, token meanings)``, a choice ``(CHOICE,
# planned alternatives)``, a placeholder ``(SLOT, name, spec or None, fmt text, the separator's token
# meanings or None for one value, conversion, spec is a Frag, spec reads one end directly)``.
LIT, CHOICE, SLOT = 0, 1, 2

Planned = tuple[tuple[Any, ...], tuple[Any, ...], frozenset[tuple[str, str]] | None]


def plan(alts: list[list[Any]], slot: Callable[[str, str | None, str], tuple[Any, ...]]) -> tuple[Planned, ...]:
    """The alternatives of a pattern (:func:`compile_pattern`), each ``(steps, befores, starts)``: its pieces
    with their literals lexed (``slot`` plans a placeholder); for each step, what the first token of the
    next one means when that is a literal (a fragment need only stop there); and what the first token the
    alternative reads may mean (None: any token, or it may read none)."""

    def alt(pieces: list[Any]) -> Planned:
        steps = tuple(step(p) for p in pieces)
        befores = tuple(first(pieces[k + 1]) if k + 1 < len(pieces) else None for k in range(len(pieces)))
        starts, empty = _starts(steps)
        return steps, befores, None if starts is None or empty else frozenset(starts)

    def step(p: Any) -> tuple[Any, ...]:
        if isinstance(p, str):
            return (LIT, p, literal_words("%" if p == "%%" else p))
        if isinstance(p, list):
            return (CHOICE, tuple(alt(a) for a in p))
        return slot(*p)

    def first(p: Any) -> tuple[str, str] | None:
        if not isinstance(p, str) or p == "%%":
            return None
        words = literal_words(p)
        return words[0] if words else None

    return tuple(alt(a) for a in alts)


def _starts(steps: tuple[Any, ...]) -> tuple[set[tuple[str, str]] | None, bool]:
    """What the first token a run of planned steps reads may mean (None: anything, a placeholder reads it),
    and whether the run may read no token at all."""
    out: set[tuple[str, str]] = set()
    for step in steps:
        if step[0] == LIT:
            if step[2]:
                out.add(step[2][0])
                return out, False
        elif step[0] == CHOICE:
            empty = False
            for a in step[1]:
                got, e = _starts(a[0])
                if got is None:
                    return None, True
                out |= got
                empty = empty or e
            if not empty:
                return out, False
        else:
            return None, True
    return out, True


__all__ = ["norm", "literal_words", "compile_pattern", "first_fmt", "plan", "LIT", "CHOICE", "SLOT"]
