"""Canonical GaussDB text (:func:`ddlc.quoting.canonicalize`) for the texts the target writes most.

Nearly every document on the GaussDB target is written as its own expansion, made canonical: blank runs
outside quotes become one space, the ends are trimmed. ``canonicalize`` finds the quotes and the runs with
regular expressions, which stop at every character (~58k instructions for a 140-character statement). The
expansions the server prints are mostly printable ASCII with no dollar quote or comment, in which the only
blank is the space; for those a run is found by ``str.replace`` and the quotes by ``str.split``/``str.find``,
all C passes. Anything else (a dollar quote, a comment, a line break, a control or non-ASCII character, a
quote that does not close) is handed to ``canonicalize`` as it is, so the result is always its result
(tests/test_throughput_round10_glue.py compares both).
"""

from __future__ import annotations

from ...quoting import canonicalize

__all__ = ["canonical"]


def canonical(text: str) -> str:
    """``canonicalize(text)``."""
    # printable ASCII: no blank but the space (no tab, line break or other control: canonicalize's blanks and
    # str's whitespace are the same set there); no "$", "--" or "/*": nothing but quotes and runs to read
    if not (text.isascii() and text.isprintable()) or "$" in text or "--" in text or "/*" in text:
        return canonicalize(text)
    if "'" in text:
        if '"' in text:
            return _mixed(text)
        q = "'"
    elif '"' in text:
        q = '"'
    else:
        return _one_space(text).strip(" ")
    # one kind of quote: each one opens or closes a quoted run (a doubled one closes and opens again), so the
    # pieces between them are outside, inside, outside...; an even count of pieces is a quote left open
    parts = text.split(q)
    if not len(parts) & 1:
        return canonicalize(text)
    if "  " in q.join(parts[1::2]):  # a run inside quotes, kept as it is: the runs outside found one by one
        return _mixed(text)
    return _one_space(text).strip(" ")  # (every run is outside quotes: a run never holds a quote)


def _one_space(text: str) -> str:
    """``text`` (no blank but the space) with each run of spaces made one."""
    while "  " in text:
        text = text.replace("  ", " ")
    return text


def _mixed(text: str) -> str:
    """:func:`canonical` of a printable ASCII ``text`` without ``$``, ``--`` or ``/*`` that holds quotes: each
    quoted run kept (a doubled quote inside it is one character), the runs of spaces between them made one."""
    sq = text.find("'")
    dq = text.find('"')
    out = []
    pos = 0
    while True:
        if sq < 0:
            if dq < 0:
                out.append(_one_space(text[pos:]))
                break
            k = dq
        elif dq < 0 or sq < dq:
            k = sq
        else:
            k = dq
        q = text[k]
        out.append(_one_space(text[pos:k]))
        j = k + 1
        while True:
            e = text.find(q, j)
            if e < 0:  # a quote that does not close: canonicalize keeps the rest as it is
                return canonicalize(text)
            j = e + 1
            if text.startswith(q, j):
                j += 1
                continue
            break
        out.append(text[k:j])
        pos = j
        if sq < pos:
            sq = text.find("'", pos)
        if dq < pos:
            dq = text.find('"', pos)
    return "".join(out).strip(" ")
