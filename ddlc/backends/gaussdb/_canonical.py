"""Canonical GaussDB text (:func:`ddlc.quoting.canonicalize`) for the texts the target writes most.

Nearly every document on the GaussDB target is written as its own expansion, made canonical: blank runs
outside quotes and dollar-quoted bodies become one space, the ends are trimmed. ``canonicalize`` finds the quotes
and the runs with regular expressions, which stop at every character (~58k instructions for a 140-character
statement). The expansions the server prints are ASCII with no comment, mostly without a line break or a dollar
quote; for those the runs are found by ``str.replace`` (the space the only blank) or ``str.split`` (a line break
too), the quotes by ``str.split``/``str.find``, all C passes. Anything else (a comment, a non-ASCII character,
a control ``str.split`` reads as a blank and canonicalize does not, a quote that does not close, a second dollar
quote) is handed to ``canonicalize`` as it is, so the result is always its result
(tests/test_throughput_round10_glue.py compares both).
"""

from __future__ import annotations

from ...quoting import _DOLLAR_TAG, canonicalize

__all__ = ["canonical"]

# canonicalize's blanks are " \t\r\n\f\v"; in ASCII, str.split's are those and these four: a text holding one is
# left to canonicalize
_SPLIT_ONLY = ("\x1c", "\x1d", "\x1e", "\x1f")


def canonical(text: str) -> str:
    """``canonicalize(text)``."""
    if not text.isascii():
        return canonicalize(text)
    # printable ASCII: no blank but the space; otherwise the runs are str.split's, once the four it alone
    # reads as blanks are known to be absent
    printable = text.isprintable()
    if not printable and ("\x1c" in text or "\x1d" in text or "\x1e" in text or "\x1f" in text):
        return canonicalize(text)
    if "$" in text:  # (a comment inside the body is the body's)
        got = _one_dollar_quote(text, printable)
    elif "--" in text or "/*" in text:
        return canonicalize(text)
    else:
        got = _plain(text, printable)
    return canonicalize(text) if got is None else got.strip(" ")


def _plain(text: str, printable: bool) -> str | None:
    """``text`` (ASCII, no ``$``, ``--`` or ``/*``) with each blank run outside quotes made one space, its ends
    not trimmed; None when a quote does not close."""
    if "'" in text:
        if '"' in text:
            return _mixed(text, printable)
        q = "'"
    elif '"' in text:
        q = '"'
    else:
        return _one_space(text) if printable else _blanks(text)
    # one kind of quote: each one opens or closes a quoted run (a doubled one closes and opens again), so the
    # pieces between them are outside, inside, outside...; an even count of pieces is a quote left open
    parts = text.split(q)
    if not len(parts) & 1:
        return None
    inside = q.join(parts[1::2])
    if "  " in inside or not (printable or inside.isprintable()):  # a run inside quotes, kept: found one by one
        return _mixed(text, printable)
    return _one_space(text) if printable else _blanks(text)  # (every run is outside quotes: none holds a quote)


def _one_space(text: str) -> str:
    """``text`` (no blank but the space) with each run of spaces made one."""
    while "  " in text:
        text = text.replace("  ", " ")
    return text


def _blanks(text: str) -> str:
    """``text`` (ASCII, none of ``_SPLIT_ONLY``) with each blank run made one space, its ends too."""
    core = " ".join(text.split())
    if core == text:
        return text
    if not core:
        return " " if text else text
    if text[0].isspace():
        core = " " + core
    if text[-1].isspace():
        core += " "
    return core


def _mixed(text: str, printable: bool) -> str | None:
    """:func:`_plain` of a ``text`` that holds quotes: each quoted run kept (a doubled quote inside it is one
    character), the blank runs between them made one space."""
    runs = _one_space if printable else _blanks
    sq = text.find("'")
    dq = text.find('"')
    out = []
    pos = 0
    while True:
        if sq < 0:
            if dq < 0:
                out.append(runs(text[pos:]))
                break
            k = dq
        elif dq < 0 or sq < dq:
            k = sq
        else:
            k = dq
        q = text[k]
        out.append(runs(text[pos:k]))
        j = k + 1
        while True:
            e = text.find(q, j)
            if e < 0:  # a quote that does not close: canonicalize keeps the rest as it is
                return None
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
    return "".join(out)


def _one_dollar_quote(text: str, printable: bool) -> str | None:
    """As ``quoting._one_dollar_quote``: a text whose one dollar quote (a routine's body) has plain text on each
    side, the sides by :func:`_plain` and the body as it is, the ends not trimmed; None for any other text."""
    i = text.find("$")
    if i > 0 and (text[i - 1].isalnum() or text[i - 1] in "_$"):  # (inside a name: not a quote)
        return None
    m = _DOLLAR_TAG.match(text, i)
    if m is None:
        return None
    tag = m.group(0)
    k = text.find(tag, m.end())
    if k < 0:
        return None
    j = k + len(tag)
    before, after = text[:i], text[j:]
    if "$" in after or "--" in before or "/*" in before or "--" in after or "/*" in after:
        return None
    head = _plain(before, printable)
    if head is None:
        return None
    tail = _plain(after, printable)
    if tail is None:
        return None
    return head + text[i:j] + tail
