"""The tokens of a partition clause (:mod:`ddlc.frontend.sql.partition`'s parser reads them): the common
clause by one pattern (:func:`tokens`), any other through the SQL layer's lexer (:func:`scanned_tokens`).
The server's common clause and a common bound value are also read whole by patterns (:func:`common_clause`,
:func:`common_value`), without the tokens or the parser."""

from __future__ import annotations

from collections.abc import Callable
import re
from typing import Any, NamedTuple, NoReturn

from ... import lazyre
from .lexer import fold, scan, unescape_e

__all__ = ["Tok", "common_clause", "common_value", "tokens", "scanned_tokens"]


class Tok(NamedTuple):
    """A token of a partition clause."""

    kind: str  # "ident", "qident", "number", "string", "punct", "eof"
    text: str  # exact source text
    pos: int  # 0-based offset of the first character
    value: str = ""  # ident: folded name; qident/string: unescaped body; punct: the operator

    @property
    def end(self) -> int:
        return self.pos + len(self.text)


_PUNCT_CHARS = frozenset("(),;.+-*/%[]<>=")


# The common clause (ASCII, no comment, no escape, no doubled or glued quote, no prefixed string) in one
# regex, a match a token with the blanks before it: each alternative is exactly the token scan() gives there
# and scanned_tokens keeps (the word's lookahead leaves a prefixed string E'..', X'..' to scan; a string
# followed by an identifier character, which glued quotes may continue, and a zero-length quoted name do not
# match). A text the matches do not cover (but its trailing blanks) is read by scanned_tokens.
_SIMPLE = lazyre.compile(
    r"((?>[ \t\n\r\f\v]*))(?:"
    r"(?![eEnNxXbB]')([A-Za-z_][A-Za-z0-9_$]*)"
    r"|((?:[0-9]+(?:\.(?!\.)[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)"
    r"|('[^']*'(?![A-Za-z0-9_$']))"
    r"|(\"[^\"]+\"(?!\"))"
    r"|(::|\|\||[()\[\],;.+*%<>=]|-(?!-)|/(?!\*)))"
)
_BLANKS = " \t\n\r\f\v"
_new = tuple.__new__


def tokens(text: str, fail: Callable[[str, int], NoReturn]) -> list[Tok]:
    """The clause's tokens (blanks and comments skipped) and a final ``eof``; the punctuation of a
    partition clause only: ``::``, ``||`` and ``( ) , ; . + - * / % [ ] < > =``."""
    out: list[Tok] = []
    append = out.append
    pos = 0  # where the next match starts, when the matches are contiguous (checked at the end)
    for blanks, word, number, string, qident, punct in _SIMPLE.findall(text):
        pos += len(blanks)
        if word:
            append(_new(Tok, ("ident", word, pos, word.lower())))
            pos += len(word)
        elif punct:
            append(_new(Tok, ("punct", punct, pos, punct)))
            pos += len(punct)
        elif number:
            append(_new(Tok, ("number", number, pos, number)))
            pos += len(number)
        elif string:
            append(_new(Tok, ("string", string, pos, string[1:-1])))
            pos += len(string)
        else:
            append(_new(Tok, ("qident", qident, pos, qident[1:-1])))
            pos += len(qident)
    if pos != len(text.rstrip(_BLANKS)):  # a gap between two matches (no token ends with a blank)
        return scanned_tokens(text, fail)
    append(_new(Tok, ("eof", "", len(text), "")))
    return out


def scanned_tokens(text: str, fail: Callable[[str, int], NoReturn]) -> list[Tok]:
    """:func:`tokens` of any text, through the SQL layer's lexer."""
    out: list[Tok] = []
    append = out.append
    for kind, s, e in scan(text, glued_quotes=True):
        if kind == "space" or kind == "comment":
            continue
        t = text[s:e]
        if kind == "word":
            append(Tok("ident", t, s, fold(t)))
        elif kind == "punct":
            append(Tok("punct", t, s, t))
        elif kind == "number":
            append(Tok("number", t, s, t))
        elif kind == "string":
            c = t[0]
            if c in "xXbB":  # no bit strings here: the letter is a name, then a string
                append(Tok("ident", c, s, fold(c)))
                t, s = t[1:], s + 1
            elif c in "eE":
                append(Tok("string", t, s, unescape_e(t[2:-1])))
                continue
            append(Tok("string", t, s, (t if t[0] == "'" else t[1:])[1:-1].replace("''", "'")))
        elif kind == "qident":
            if e - s == 2:
                fail("zero-length delimited identifier", s)
            append(Tok("qident", t, s, t[1:-1].replace('""', '"')))
        elif kind == "op":
            i = s
            while i < e:
                two = text[i:i + 2]
                if two == "::" or two == "||":
                    append(Tok("punct", two, i, two))
                    i += 2
                elif text[i] in _PUNCT_CHARS:
                    append(Tok("punct", text[i], i, text[i]))
                    i += 1
                else:
                    fail(f"unexpected character {text[i]!r}", i)
        elif kind == "error":
            c = text[s]
            if c == "/":
                fail("unterminated comment", s)
            if c == '"':
                fail("unterminated quoted identifier", s)
            if c == "$":
                fail("unexpected character '$'", s)
            fail("unterminated quoted string", s + 1 if c in "xXbB" else s)
        else:  # dollar, param
            fail("unexpected character '$'", s)
    append(Tok("eof", "", len(text)))
    return out


# --- the server's common clause, read by patterns ----------------------------------------------------
# ``PARTITION BY RANGE|LIST|HASH (a[, b]) [SUBPARTITION BY ... (c)] (PARTITION p [VALUES LESS THAN (..) |
# VALUES (..)] [TABLESPACE t] [(SUBPARTITION ...)], ...) [ENABLE|DISABLE ROW MOVEMENT]`` with names, numbers,
# plain strings, MAXVALUE, NULL and DEFAULT only: what pg_get_partkeydef writes for most tables. Each pattern
# takes whole tokens exactly as :func:`tokens` cuts them (a word or a number is taken whole, in an atomic group, and
# a keyword must end there); :func:`common_clause` gives None for any other text, which the parser reads.

_W = r"(?>[ \t\n\r\f\v]*)"
_END = r"(?![A-Za-z0-9_$])"
_NAME = r"(?:([A-Za-z_](?>[A-Za-z0-9_$]*))|\"((?>[^\"]+))\"(?!\"))"
_NUM = r"(?:(?>[0-9]+)(?:\.(?!\.)(?>[0-9]*))?|\.(?>[0-9]+))(?:[eE][+-]?(?>[0-9]+))?"
_HEAD = lazyre.compile(rf"{_W}PARTITION{_END}{_W}BY{_END}{_W}(RANGE|LIST|HASH){_END}{_W}\(", re.I | re.A)
_SUB = lazyre.compile(rf"{_W}SUBPARTITION{_END}{_W}BY{_END}{_W}(RANGE|LIST|HASH){_END}{_W}\(", re.I | re.A)
_KEY = lazyre.compile(rf"{_W}{_NAME}{_W}([,)])", re.A)
_OPEN = lazyre.compile(rf"{_W}\(")
_INTERVAL = lazyre.compile(rf"{_W}INTERVAL{_END}{_W}\(", re.I | re.A)
_ITEM = lazyre.compile(rf"{_W}(PARTITION|SUBPARTITION){_END}{_W}{_NAME}{_W}"
                       rf"(?:VALUES{_END}{_W}(?:(LESS){_END}{_W}THAN{_END}{_W})?\()?", re.I | re.A)
_VALUE = lazyre.compile(rf"{_W}(?:([+-]){_W}({_NUM})|({_NUM})|('(?>[^']*)')|(MAXVALUE|NULL|DEFAULT){_END}){_W}([,)])",
                        re.I | re.A)
_ONE_VALUE = lazyre.compile(rf"{_W}(?:([+-]){_W}({_NUM})|({_NUM})|('(?>[^']*)')|(MAXVALUE|NULL){_END}){_W}\Z", re.I | re.A)
_STORE_IN = lazyre.compile(rf"{_W}STORE{_END}", re.I | re.A)
_AFTER = lazyre.compile(rf"{_W}(?:TABLESPACE{_END}{_W}{_NAME}{_W})?([,()])", re.I | re.A)  # [TABLESPACE t] and , ( )
_NEXT = lazyre.compile(rf"{_W}([,)])")
# a range item's words (``START (s) [END (e) [EVERY (d)]]``, ``END (e)``), each taken only before its parenthesis,
# as the parser's bound() takes them
_START = lazyre.compile(rf"{_W}START{_END}{_W}\(", re.I | re.A)
_END_OF = lazyre.compile(rf"{_W}END{_END}{_W}\(", re.I | re.A)
_EVERY = lazyre.compile(rf"{_W}EVERY{_END}{_W}\(", re.I | re.A)
_TAIL = lazyre.compile(rf"{_W}(?:(ENABLE|DISABLE){_END}{_W}ROW{_END}{_W}MOVEMENT{_END}{_W})?\Z", re.I | re.A)

Value = tuple[str, str, str]  # (kind: number, string, maxvalue, null, default; text; value)
Item = tuple[str, str, str, "tuple[Value, ...] | None", "str | None", str, "list[Any] | None"]
# (name as written, name as read, bound: "" / "less" / "list", values, tablespace as written or None, as read,
#  subpartitions)


def _name(m: Any, at: int) -> tuple[str, str]:
    """(as written, as read (folded or unquoted, not cut)) of the name :data:`_NAME` matched at group ``at``."""
    word = m.group(at)
    if word is not None:
        return word, word.lower()
    inner = m.group(at + 1)
    return '"' + inner + '"', inner


def _values(text: str, pos: int) -> tuple[tuple[Value, ...], int] | None:
    """The values after an opening parenthesis at ``pos`` and the position after the closing one."""
    out: list[Value] = []
    while True:
        m = _VALUE.match(text, pos)
        if m is None:
            return None
        sign, signed, number, string, word, stop = m.groups()
        if signed is not None:
            out.append(("number", text[m.start(1):m.end(2)], (sign if sign == "-" else "") + signed))
        elif number is not None:
            out.append(("number", number, number))
        elif string is not None:
            out.append(("string", string, string[1:-1]))
        else:
            out.append((word.lower(), word, ""))
        pos = m.end()
        if stop == ")":
            return tuple(out), pos


def common_value(text: str) -> Value | None:
    """The one bound value ``text`` is, when it is a number, a plain string, MAXVALUE or NULL (as :func:`_values`
    reads one); None for any other text."""
    m = _ONE_VALUE.match(text)
    if m is None:
        return None
    sign, signed, number, string, word = m.groups()
    if signed is not None:
        return "number", text[m.start(1):m.end(2)], (sign if sign == "-" else "") + signed
    if number is not None:
        return "number", number, number
    if string is not None:
        return "string", string, string[1:-1]
    return word.lower(), word, ""


def _range_item(text: str, pos: int) -> tuple[Any, int] | None:
    """``((start, end, every), position after it)`` of a range item at ``pos`` (each a value list or None), as the
    parser's bound() reads one: None when no ``START (`` or ``END (`` is there; ``(None, pos)`` for one the
    patterns do not read or the parser refuses (an EVERY without both START and END)."""
    start = end = every = None
    m = _START.match(text, pos)
    if m is not None:
        got = _values(text, m.end())
        if got is None:
            return None, pos
        start, pos = got
    m = _END_OF.match(text, pos)
    if m is not None:
        got = _values(text, m.end())
        if got is None:
            return None, pos
        end, pos = got
    elif start is None:
        return None
    m = _EVERY.match(text, pos)
    if m is not None:
        if start is None or end is None:
            return None, pos
        got = _values(text, m.end())
        if got is None:
            return None, pos
        every, pos = got
    return (start, end, every), pos


def _keys(text: str, pos: int) -> tuple[list[tuple[str, str]], int] | None:
    out: list[tuple[str, str]] = []
    while True:
        m = _KEY.match(text, pos)
        if m is None:
            return None
        out.append(_name(m, 1))
        pos = m.end()
        if m.group(3) == ")":
            return out, pos


def _items(text: str, pos: int, sub: bool, ranges: bool = False) -> tuple[list[Any], int] | None:
    """The (sub)partitions of a list whose opening parenthesis ends before ``pos``, and the position after it.
    ``sub``: the items are SUBPARTITIONs, none with a list of its own. ``ranges``: a partition may be a range
    item (:func:`_range_item`; its bound "range", its values ``(start, end, every)``, none with a list of its own)."""
    out: list[Any] = []
    while True:
        m = _ITEM.match(text, pos)
        if m is None or (m.group(1).lower() == "subpartition") is not sub:
            return None
        written, name = _name(m, 2)
        values: Any = None
        bound = "" if text[m.end() - 1] != "(" else "list" if m.group(4) is None else "less"
        pos = m.end()
        if bound:
            got = _values(text, pos)
            if got is None:
                return None
            values, pos = got
        elif ranges:
            got = _range_item(text, pos)
            if got is not None:
                if got[0] is None:
                    return None
                bound, values, pos = "range", got[0], got[1]
        n = _AFTER.match(text, pos)
        if n is None:
            return None
        space, space_text = None, ""
        if n.start(1) >= 0 or n.start(2) >= 0:
            space_text, space = _name(n, 1)
        stop = n.group(3)
        pos = n.end()
        subs = None
        if stop == "(":
            if sub or bound == "range":  # (the parser takes no list after a range item)
                return None
            got = _items(text, pos, True)
            if got is None:
                return None
            subs, pos = got
            n = _NEXT.match(text, pos)
            if n is None:
                return None
            stop, pos = n.group(1), n.end()
        out.append((written, name, bound, values, space, space_text, subs))
        if stop == ")":
            return out, pos


def common_clause(text: str, ranges: bool = False) -> tuple[str, list[tuple[str, str]], Value | None,
                                       tuple[str, list[tuple[str, str]]] | None, list[Any], str | None] | None:
    """``(strategy, keys, INTERVAL value or None, (sub strategy, sub keys) or None, partitions, ENABLE / DISABLE
    or None)`` of a clause of the common form (above, and ``INTERVAL (v)`` without STORE IN; names as (written,
    read), not cut to 63 bytes; words in lower case), None for any other text. It says nothing of whether the
    items fit the strategies: the parser's checks do. ``ranges``: a partition may also be a range item
    (``START (..) END (..) EVERY (..)``, :func:`_range_item`)."""
    m = _HEAD.match(text)
    if m is None:
        return None
    strategy = m.group(1).lower()
    got = _keys(text, m.end())
    if got is None:
        return None
    keys, pos = got
    interval = None
    i = _INTERVAL.match(text, pos)
    if i is not None:
        got = _values(text, i.end())
        if got is None or len(got[0]) != 1 or _STORE_IN.match(text, got[1]) is not None:
            return None
        interval, pos = got[0][0], got[1]
    sub = None
    s = _SUB.match(text, pos)
    if s is not None:
        got = _keys(text, s.end())
        if got is None:
            return None
        sub = (s.group(1).lower(), got[0])
        pos = got[1]
    o = _OPEN.match(text, pos)
    if o is None:
        return None
    items = _items(text, o.end(), False, ranges)
    if items is None:
        return None
    t = _TAIL.match(text, items[1])
    if t is None:
        return None
    return strategy, keys, interval, sub, items[0], t.group(1) and t.group(1).lower()
