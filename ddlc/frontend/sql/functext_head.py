"""The CREATE FUNCTION text reader's pieces (:mod:`.functext`): its tokens, errors and spans, an argument's and a
return type's reading, and the common header read at once (:func:`read_common`).

:func:`read_common` reads the header every ``pg_get_functiondef`` output and most GaussDB TDDL texts have (ASCII
words, numbers, ``( ) , .`` and blanks up to the body's ``AS``, then a quoted or dollar-quoted body and at most
a ``;`` and a ``/``, or an Oracle-style body) in one frame, from pieces cut by str methods, without the
cursor's calls a token (issue 26: ~300k instructions a pg_get_functiondef text, most of it calls; ~190k here, a
third of it finding each piece's offset: a loop's turn of a few steps costs ~2k instructions on this
interpreter). It reads those pieces as
:func:`~.functext.parse_function_text`'s cursor reads the lexer's tokens, step for step, and gives None (the
cursor reads the text then, its errors included) wherever it is not sure of that: any other character before
the body, a form it does not read (DEFINER, SET, COMMENT, PARALLEL_ENABLE, a second AS literal, options after
the body...), a token it would have to look past its pieces for, or an error.
"""

from __future__ import annotations

from dataclasses import field
from typing import NamedTuple

from ... import lazyre
from ...errors import Path
from ...ir.names import QualifiedName
from ...ir.routine import (
    ArgMode, CreateFunction, FunctionArg, FunctionOptions, FunctionReturn, FunctionStyle, NullInput, Security,
    Volatility,
)
from ...records import record
from .expr import make_expr
from .lexer import Tok, dollar_tag_at, ident_value, is_ident, split_top, string_value, token_at

_tok = tuple.__new__  # a token without NamedTuple's Python frame (as the lexer makes them)


class _Tok(NamedTuple):
    """A :class:`~.lexer.Tok` as the cursor reads it, its keyword spelling worked out once (``upper``)."""

    kind: str
    text: str
    start: int
    end: int
    upper: str


class FunctionTextError(ValueError):
    def __init__(self, message: str, pos: int) -> None:
        super().__init__(f"{message} (at offset {pos})")
        self.pos = pos


@record(slots=True)
class FunctionTextSpans:
    """Where things are in the text: the name (for renames) and openGauss-only words."""

    name: tuple[int, int] = (0, 0)
    og_only: list[tuple[int, int]] = field(default_factory=list)


_CLAUSE_WORDS = frozenset(
    "LANGUAGE WINDOW IMMUTABLE STABLE VOLATILE STRICT CALLED RETURNS SECURITY EXTERNAL AUTHID LEAKPROOF NOT "
    "FENCED SHIPPABLE PACKAGE COST ROWS SET PARALLEL_ENABLE PARALLEL PIPELINED DETERMINISTIC COMMENT AS IS "
    "TRANSFORM SUPPORT".split()
)
_MULTIWORD_TYPES = frozenset("DOUBLE CHARACTER CHAR NATIONAL NCHAR BIT TIME TIMESTAMP INTERVAL".split())
_TYPE_CONT = frozenset("PRECISION VARYING WITH WITHOUT CHARACTER CHAR DAY HOUR MINUTE SECOND YEAR MONTH TO".split())
_INOUT = ArgMode.INOUT
_MODES = {"IN": ArgMode.IN, "OUT": ArgMode.OUT, "INOUT": ArgMode.INOUT, "VARIADIC": ArgMode.VARIADIC}


def _span_text(text: str, toks: list[Tok]) -> str:
    return text[toks[0].start:toks[-1].end] if toks else ""


def _mode_at(toks: list[Tok], k: int) -> tuple[ArgMode | None, int]:
    """The argument mode at ``toks[k]`` (a type must follow it) and the index after it; (None, k) when none."""
    if k < len(toks) and toks[k].upper in _MODES and k + 1 < len(toks):
        if toks[k].upper == "IN" and toks[k + 1].upper == "OUT" and k + 2 < len(toks):
            return _INOUT, k + 2
        return _MODES[toks[k].upper], k + 1
    return None, k


def _parse_arg(text: str, toks: list[Tok]) -> FunctionArg:
    if not toks:
        raise FunctionTextError("empty argument", 0)
    default = None
    for j, t in enumerate(toks):
        if t.upper == "DEFAULT" or (t.kind == "op" and t.text in (":=", "=")):
            if j + 1 >= len(toks):
                raise FunctionTextError("DEFAULT without a value", t.start)
            default = _span_text(text, toks[j + 1:])
            toks = toks[:j]
            break
    mode, i = _mode_at(toks, 0)
    name = None
    if i + 1 < len(toks) and is_ident(toks[i]) and is_ident(toks[i + 1]):
        multi = toks[i].kind == "word" and toks[i].upper in _MULTIWORD_TYPES and toks[i + 1].upper in _TYPE_CONT
        if not multi:
            name = ident_value(toks[i])
            i += 1
            if mode is None:
                mode, i = _mode_at(toks, i)  # Oracle order: name [IN|OUT|IN OUT] type
    if i >= len(toks):
        raise FunctionTextError("argument without a type", toks[0].start)
    return FunctionArg(_span_text(text, toks[i:]), name, mode, default,
                       default_expr=None if default is None else make_expr(default))


def _parse_args(text: str, toks: list[Tok]) -> tuple[FunctionArg, ...]:
    if not toks:
        return ()
    return tuple(_parse_arg(text, part) for part in split_top(toks))


def _parse_return(text: str, toks: list[Tok]) -> FunctionReturn:
    if not toks:
        raise FunctionTextError("missing return type", 0)
    if toks[0].upper == "SETOF" and len(toks) > 1:
        return FunctionReturn(_span_text(text, toks[1:]), setof=True)
    if toks[0].upper == "TABLE" and len(toks) > 2 and toks[1].text == "(" and toks[-1].text == ")":
        return FunctionReturn("", setof=True, table=_parse_args(text, toks[2:-1]))
    return FunctionReturn(_span_text(text, toks))


def _oracle_body_end(text: str, start: int) -> int:
    end = len(text.rstrip())
    if end > start and text[end - 1] == "/":
        end = len(text[:end - 1].rstrip())
    if end > start and text[end - 1] == ";":
        end -= 1
    return max(end, start)


# ---- the common header at once ------------------------------------------------------------------
# The characters of a header read_common reads: within them the lexer's tokens are these pieces exactly (a word
# is ASCII letters, digits and "_" from a letter or "_": no "$", quote or non-ASCII character can continue it; no
# comment, string, quoted name or operator can start; each of ( ) , . is a token), but for a digit run, which is
# a number token only when no letter, "_" or "." touches it ("1e5", "1.5", ".5", "1abc": refused, _number), and for the
# last piece, which the character after the run may continue ("x$y", "é", "E'...'": left out). The pieces are
# cut by str methods (the marks spaced out by replace, then split at the blanks: a regex's matches, or translate,
# cost several times more), and each one's offset found from the end of the one before (only blanks lie between)
_HEADER = lazyre.compile(r"[A-Za-z0-9_ \t\n\r(),.]*")
_BLANK_OR_MARK = frozenset(" \t\n\r(),.")
# what may follow the body's literal: what the cursor reads as the end (nothing, a ";" with nothing or "/" after
# it, or a "/" ending the text), in the lexer's blanks
_TAIL = lazyre.compile(r"[ \t\n\r]*(?:;[ \t\n\r]*)?(?:/[ \t\n\r]*)?\Z")
_VOLATILITY = {v.name: v for v in Volatility}  # (members read once: an Enum class's attribute is a slow read)
_RETURNS_NULL, _CALLED, _STRICT = NullInput.RETURNS_NULL, NullInput.CALLED, NullInput.STRICT
_DEFINER, _INVOKER = Security.DEFINER, Security.INVOKER
_AUTHID_DEFINER, _AUTHID_CURRENT_USER = Security.AUTHID_DEFINER, Security.AUTHID_CURRENT_USER
_ORACLE, _POSTGRES = FunctionStyle.ORACLE, FunctionStyle.POSTGRES
_FLAGS = frozenset({"PACKAGE", "PIPELINED", "DETERMINISTIC"})
_RNOI = ("RETURNS", "NULL", "ON", "NULL", "INPUT")
_CONI = ("CALLED", "ON", "NULL", "INPUT")


def _words(ups: list[str], i: int, words: tuple[str, ...]) -> bool | None:
    """Whether the keywords ``words`` come at piece ``i`` (the cursor's ``words``, which stops at the first that
    differs); None when it would read past the pieces."""
    k = len(ups)
    for w in words:
        if i >= k:
            return None
        if ups[i] != w:
            return False
        i += 1
    return True


def _toks(text: str, ws: list[str], ups: list[str], starts: list[int], a: int, b: int) -> list[_Tok] | None:
    """The cursor's tokens of pieces ``a`` to ``b``, or None when a digit run among them is not a number token."""
    out = []
    for j in range(a, b):
        w = ws[j]
        s = starts[j]
        c = w[0]
        if c >= "A":
            out.append(_tok(_Tok, ("word", w, s, s + len(w), ups[j])))
        elif c >= "0":
            if not _number(text, w, s):
                return None
            out.append(_tok(_Tok, ("number", w, s, s + len(w), "")))
        else:
            out.append(_tok(_Tok, ("punct", w, s, s + len(w), "")))
    return out


def _name_type(w: str, t: str, uw: str, ut: str) -> FunctionArg | None:
    """_parse_arg of two words ``w t`` when it reads them as a name and a type (neither a DEFAULT, ``w`` no mode,
    the two no multi-word type), or None."""
    if uw in _MODES or uw == "DEFAULT" or ut == "DEFAULT" or (uw in _MULTIWORD_TYPES and ut in _TYPE_CONT):
        return None
    return FunctionArg(t, w.lower(), None, None, default_expr=None)


def _number(text: str, w: str, s: int) -> bool:
    """Whether the digit run ``w`` at ``s`` is a number token (no letter, "_" or "." touches it). A digit run is
    read only here, where it becomes a token or a value: everywhere else a piece must be a word or a mark, which
    no digit run is, so the reader gives up there."""
    return w.isdigit() and text[s - 1:s] != "." and text[s + len(w):s + len(w) + 1] != "."


def read_common(text: str, origin: Path) -> tuple[CreateFunction, FunctionTextSpans] | None:
    """:func:`~.functext.parse_function_text` of a common header (the module docstring), or None: then the
    cursor reads the text (never an error here)."""
    try:
        return _read_common(text, origin)
    except Exception:  # noqa: BLE001 - a scan error, an argument refused...: the cursor's reading says it, as it would
        return None


def _read_common(text: str, origin: Path) -> tuple[CreateFunction, FunctionTextSpans] | None:
    n = len(text)
    end = _HEADER.match(text).end()  # type: ignore[union-attr]
    header = text[:end]
    spaced = header.replace("(", " ( ").replace(")", " ) ").replace(",", " , ").replace(".", " . ")
    ws = spaced.split()
    ups = spaced.upper().split()
    if end < n and ws and header[-1] not in _BLANK_OR_MARK:
        ws.pop()  # (maybe cut short: its token may run on)
        ups.pop()
    # the pieces up to the first AS or IS (the body's, or a form the cursor reads: the pieces after it unread)
    k = len(ups)
    for word in ("AS", "IS"):
        if word in ups:
            k = min(k, ups.index(word) + 1)
    if k < 4 or ups[0] != "CREATE":
        return None
    starts = []
    p = 0
    for j in range(k):
        w = ws[j]
        p = text.find(w, p)
        starts.append(p)
        p += len(w)
    i = 1
    or_replace = False
    if ups[1] == "OR":
        if ups[2] == "REPLACE":
            or_replace, i = True, 3
    u = ups[i]
    if u == "FUNCTION":
        is_procedure = False
    elif u == "PROCEDURE":
        is_procedure = True
    else:  # (DEFINER = user..., or an error)
        return None
    i += 1
    if i + 1 >= k or ws[i][0] < "A":
        return None
    first = i
    parts = [ws[i].lower()]  # (ident_value of an ASCII word)
    last = i
    i += 1
    while ws[i] == ".":
        if i + 2 >= k or ws[i + 1][0] < "A":
            return None
        last = i + 1
        parts.append(ws[last].lower())
        i += 2
    if len(parts) > 3:
        return None
    name_span = (starts[first], starts[last] + len(ws[last]))
    if ws[i] == "(":
        i += 1
        j, depth = i, 1
        while True:
            if j >= k:
                return None
            w = ws[j]
            j += 1
            if w == "(":
                depth += 1
            elif w == ")":
                depth -= 1
                if not depth:
                    break
        if j - i == 3 and ws[i][0] >= "A" and ws[i + 1][0] >= "A" \
                and (arg := _name_type(ws[i], ws[i + 1], ups[i], ups[i + 1])) is not None:
            arguments = (arg,)
        elif (toks := _toks(text, ws, ups, starts, i, j - 1)) is None:
            return None
        else:
            arguments = _parse_args(text, toks)
        i = j
    elif is_procedure:
        arguments = ()  # TDDL may write ``CREATE PROCEDURE p AS ...`` without a list
    else:
        return None
    returns: FunctionReturn | None = None
    oracle_return = False
    language = None
    opts: dict[str, object] = {}
    og: list[tuple[int, int]] = []
    while True:
        if i >= k:
            return None
        u, start = ups[i], starts[i]
        # (RETURNS NULL ON NULL INPUT only where NULL follows: the cursor's words are False at any other word)
        if u == "RETURNS" and (i + 1 >= k or ups[i + 1] == "NULL") \
                and (got := _words(ups[:k], i, _RNOI)) is not False:
            if got is None:
                return None
            opts["null_input"] = _RETURNS_NULL
            i += 5
        elif (u == "RETURNS" or u == "RETURN") and returns is None:
            i += 1
            j, depth = i, 0  # the cursor's until_clause
            while True:
                if j >= k:
                    return None
                w = ups[j]
                if not depth and w in _CLAUSE_WORDS:  # (no ";" among the pieces)
                    break
                if w == "(":
                    depth += 1
                elif w == ")":
                    depth -= 1
                j += 1
            oracle_return = u == "RETURN"
            if j == i + 1 and ws[i][0] >= "A":  # (one word: _parse_return's type as written)
                returns = FunctionReturn(ws[i])
            elif (toks := _toks(text, ws, ups, starts, i, j)) is None:
                return None
            else:
                returns = _parse_return(text, toks)
            i = j
        elif u == "LANGUAGE":
            if i + 1 >= k or ws[i + 1][0] < "A":
                return None
            language = ws[i + 1].lower()
            i += 2
        elif u == "WINDOW":
            opts["window"] = True
            i += 1
        elif u in _VOLATILITY:
            opts["volatility"] = _VOLATILITY[u]
            i += 1
        elif u == "STRICT":
            opts["null_input"] = _STRICT
            i += 1
        elif u == "CALLED":
            if not _words(ups[:k], i, _CONI):
                return None
            opts["null_input"] = _CALLED
            i += 4
        elif u == "SECURITY" or u == "EXTERNAL":
            if u == "EXTERNAL":
                i += 1
            if i + 1 >= k or ups[i] != "SECURITY":
                return None
            w = ups[i + 1]
            if w == "DEFINER":
                opts["security"] = _DEFINER
            elif w == "INVOKER":
                opts["security"] = _INVOKER
            else:
                return None
            i += 2
        elif u == "AUTHID":
            w = ups[i + 1] if i + 1 < k else ""
            if w == "DEFINER":
                opts["security"] = _AUTHID_DEFINER
            elif w == "CURRENT_USER":
                opts["security"] = _AUTHID_CURRENT_USER
            else:
                return None
            og.append((start, starts[i + 1] + len(w)))
            i += 2
        elif u == "LEAKPROOF":
            opts["leakproof"] = True
            i += 1
        elif u == "FENCED" or u == "SHIPPABLE":
            opts["fenced" if u == "FENCED" else "shippable"] = True
            og.append((start, start + len(u)))
            i += 1
        elif u == "NOT":
            w = ups[i + 1] if i + 1 < k else ""
            if w == "LEAKPROOF":
                opts["leakproof"] = False
            elif w == "FENCED" or w == "SHIPPABLE":
                opts["fenced" if w == "FENCED" else "shippable"] = False
                og.append((start, starts[i + 1] + len(w)))
            else:
                return None
            i += 2
        elif u in _FLAGS:
            opts[u.lower()] = True
            og.append((start, start + len(u)))
            i += 1
        elif u == "COST" or u == "ROWS":
            if i + 1 >= k or not "0" <= ws[i + 1][0] <= "9" or not _number(text, ws[i + 1], starts[i + 1]):
                return None
            opts["cost" if u == "COST" else "rows"] = ws[i + 1]
            i += 2
        elif u == "PARALLEL":
            if i + 1 >= k or ws[i + 1][0] < "A":
                return None
            opts["parallel"] = ws[i + 1].lower()
            i += 2
        elif u == "AS" or u == "IS":
            p = after = start + 2
            while p < n and text[p].isspace():
                p += 1
            if p < n and (tag := dollar_tag_at(text, p)) is not None:
                # (the lexer's dollar token ends at the first ``$tag$`` after its opening one: its body and end
                # read by find, without token_at and string_value's matches)
                close = text.find(tag, p + len(tag))
                if close < 0 or _TAIL.match(text, close + len(tag)) is None:
                    return None
                body = text[p + len(tag):close]
                body_tag = tag
            elif p < n and (text[p] == "'" or (text[p] in "eE" and text.startswith("'", p + 1))):
                lit = token_at(text, p)
                if _TAIL.match(text, lit.end) is None:
                    return None
                body = string_value(lit)
                body_tag = "'"
            else:
                start_body = after + 1 if after < n and text[after].isspace() else after
                body = text[start_body:_oracle_body_end(text, start_body)]
                body_tag = None
            break
        else:  # (DEFINER, SET, COMMENT, PARALLEL_ENABLE, TRANSFORM..., or an error)
            return None
    if is_procedure and returns is not None:
        return None
    spans = FunctionTextSpans(name=name_span, og_only=og)
    stmt = CreateFunction(
        text, QualifiedName(parts[-1], parts[0] if len(parts) > 1 else None, origin=origin),
        package=parts[1] if len(parts) == 3 else None, or_replace=or_replace, definer=None,
        is_procedure=is_procedure, arguments=arguments, returns=returns,
        style=_ORACLE if oracle_return or body_tag is None else _POSTGRES, language=language,
        options=FunctionOptions(**opts), set_options=(), probin=None, body=body, body_tag=body_tag,
        name_span=name_span, name_text=text[name_span[0]:name_span[1]], origin=origin,
    )
    return stmt, spans


__all__ = ["FunctionTextError", "FunctionTextSpans", "read_common"]
