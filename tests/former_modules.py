"""A module of an earlier commit, read from git and run beside today's (:func:`former_module`), its possessive
regex quantifiers written as the atomic groups they mean (:func:`atomic_source`).

Equivalence tests run a module of an earlier commit beside today's. Before 7b04c59 the lexer's
patterns used possessive quantifiers (``x*+``), which Python 3.11.0-3.11.4 match wrongly (CPython gh-106052,
gh-100061); run there, the former module would be the wrong reference. :func:`atomic_source` rewrites each raw
string literal's ``x*+``, ``x++``, ``x?+`` and ``x{m,n}+`` as ``(?>x*)`` ... (their documented meaning), so that
the reference reads as it did on a Python that matches them right; on 3.11.5 and newer the two forms match the
same. Only raw literals are rewritten (the package writes its patterns as raw strings); an f-string's
``{name}`` is one atom."""

from __future__ import annotations

import importlib.util
import io
import re
import subprocess
import sys
import tokenize
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]

_REPEAT = re.compile(r"\{\d*(?:,\d*)?\}")
_PLACE = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")
_LITERAL = re.compile(r"([rRbBfF]*)('''|\"\"\"|'|\")")


def atomic_pattern(s: str, fstring: bool = False) -> str:
    """``s`` (a regex's text) with every possessive repeat made an atomic group."""
    out: list[str] = []
    groups: list[int] = []  # where each open group starts in ``out``
    last: int | None = None  # where the last atom starts in ``out``
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c == "\\":
            last = len(out)
            out.append(s[i:i + 2])
            i += 2
            continue
        if c == "[":
            j = i + 1
            if j < n and s[j] == "^":
                j += 1
            if j < n and s[j] == "]":
                j += 1
            while j < n and s[j] != "]":
                j += 2 if s[j] == "\\" else 1
            last = len(out)
            out.append(s[i:j + 1])
            i = j + 1
            continue
        if c == "(":
            groups.append(len(out))
            out.append("(?" if s.startswith("(?", i) else "(")
            i += len(out[-1])
            last = None
            continue
        if c == ")":
            last = groups.pop() if groups else None
            out.append(")")
            i += 1
            continue
        place = _PLACE.match(s, i) if fstring and c == "{" else None
        if place:
            last = len(out)
            out.append(place.group(0))
            i = place.end()
            continue
        repeat = _REPEAT.match(s, i) if c == "{" else None
        if c in "*+?" or repeat:
            q = repeat.group(0) if repeat else c
            i += len(q)
            if i < n and s[i] == "+" and last is not None:  # possessive: (?>atom q)
                out.insert(last, "(?>")
                out.append(q + ")")
                i += 1
            elif i < n and s[i] == "?":  # lazy
                out.append(q + "?")
                i += 1
            else:
                out.append(q)
            last = None
            continue
        last = None if c == "|" else len(out)
        out.append(c)
        i += 1
    return "".join(out)


def atomic_source(src: str) -> str:
    """``src`` (a module's source) with :func:`atomic_pattern` applied to each raw string literal."""
    edits = []
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type != tokenize.STRING:
            continue
        m = _LITERAL.match(tok.string)
        if m is None or "r" not in m.group(1).lower():
            continue
        prefix, quote = m.group(1), m.group(2)
        body = tok.string[len(prefix) + len(quote):-len(quote)]
        new = atomic_pattern(body, fstring="f" in prefix.lower())
        if new != body:
            edits.append((tok.start, tok.end, prefix + quote + new + quote))
    lines = src.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    for (sr, sc), (er, ec), new in reversed(edits):
        src = src[:starts[sr - 1] + sc] + new + src[starts[er - 1] + ec:]
    return src


def former_module(base: str, path: str, name: str) -> ModuleType | None:
    """The module at ``path`` as commit ``base`` had it, run as ``ddlc.frontend.sql.<name>`` (its relative
    imports read today's package), with :func:`atomic_source` applied; None without the git history."""
    try:
        src = subprocess.run(["git", "show", f"{base}:{path}"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    full = f"ddlc.frontend.sql.{name}"
    spec = importlib.util.spec_from_loader(full, loader=None)
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    mod.__package__ = "ddlc.frontend.sql"
    sys.modules[full] = mod
    exec(compile(atomic_source(src), f"<{base}:{path}>", "exec"), mod.__dict__)
    return mod
