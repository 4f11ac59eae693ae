"""Where the query of a TDDL ``CREATE TABLE ... AS query`` / ``CREATE MATERIALIZED VIEW ... AS query`` is in its
text (:func:`query_span`): the TDDL recovery's (:mod:`ddlc.frontend.recover`) and the text frontend's choice of
it (:mod:`ddlc.frontend.text`)."""

from __future__ import annotations

from .sql.lexer import Lexed, ScanError


def query_span(text: Lexed) -> tuple[int, int] | None:
    """The query of ``... AS query [WITH [NO] DATA][;]``: (start, end) in the text, or None (worked out once
    per text, for its readers: the choice of the recovery, then the recovery)."""
    notes = text.notes
    got = notes.get("query", notes)
    if got is notes:
        got = notes["query"] = _query_span(text)
    return got  # type: ignore[return-value]


_AS = frozenset({"AS", "As", "aS", "as"})


def _query_span(text: Lexed) -> tuple[int, int] | None:
    got = _plain_query_span(text)
    if got is not _UNSURE:
        return got  # type: ignore[return-value]
    try:
        toks = text.upto()
    except ScanError:
        return None
    depth, start = 0, None
    for i, t in enumerate(toks):
        if t.kind == "punct" and t.text in "([":
            depth += 1
        elif t.kind == "punct" and t.text in ")]":
            depth -= 1
        elif depth == 0 and t.text in _AS and i + 1 < len(toks):  # (the word AS: only a word is spelt so)
            start = i + 1
            break
    if start is None:
        return None
    end = len(toks)
    if toks[end - 1].text == ";":
        end -= 1
    if end - start > 2 and toks[end - 1].upper == "DATA" and toks[end - 2].upper in ("WITH", "NO"):
        end -= 3 if toks[end - 2].upper == "NO" else 2
        if toks[end].upper != "WITH":
            return None
    return (toks[start].start, toks[end - 1].end) if end > start else None


_UNSURE = object()
_BLANKS = " \t\n\r\f\v"  # the lexer's
# what may start a token that can be unterminated or hold a blank (a string, a quoted name, a dollar quote, a
# comment), or escape in one (a backslash)
_UNPLAIN = ("'", '"', "$", "\\", "--", "/*")


def _plain_query_span(lexed: Lexed) -> tuple[int, int] | None | object:
    """:func:`_query_span`'s answer from the tokens up to the ``AS`` and the text's characters after it, when those
    hold no quote, dollar sign, backslash or comment (issue 26: the whole text was lexed for the query's two ends,
    ~8k instructions a token). The tokens after the ``AS`` are then words, numbers, marks and operators, none
    unterminated (the whole text scans), each ending at a character that is not a blank, with only blanks
    between them: the query's first token starts at the first character that is not a blank, the last token
    ends at the text's end but its blanks, and a final ``;`` is a token of its own. ``_UNSURE`` (the tokens
    decide, as before) when the ``AS`` is not found among the tokens before the end or an unterminated one,
    when the text after it is not plain, or when what is left of it ends in ``DATA`` (any case)."""
    s = lexed.text
    depth, n, k = 0, 6, 0
    while True:
        toks = lexed.head(n)
        while k < len(toks):
            t = toks[k]
            if t.kind == "punct" and t.text in "([":
                depth += 1
            elif t.kind == "punct" and t.text in ")]":
                depth -= 1
            elif depth == 0 and t.text in _AS:  # (the word AS: only a word is spelt so)
                break
            k += 1
        else:
            if len(toks) < n:  # the end, or an unterminated token: the lexer decides
                return _UNSURE
            n += 2  # (a few tokens at a time: the query's are not lexed)
            continue
        break
    after = toks[k].end
    for mark in _UNPLAIN:
        if s.find(mark, after) >= 0:
            return _UNSURE
    end = len(s.rstrip(_BLANKS))
    start = len(s) - len(s[after:].lstrip(_BLANKS))  # (the query's first token)
    if start >= end:  # AS is the last token: no query
        return None
    if s[end - 1] == ";":
        end = len(s[:end - 1].rstrip(_BLANKS))
        if end <= start:  # a ';' alone after the AS
            return None
    if s[end - 4:end].upper() == "DATA":  # (maybe WITH [NO] DATA)
        return _UNSURE
    return start, end


__all__ = ["query_span"]
