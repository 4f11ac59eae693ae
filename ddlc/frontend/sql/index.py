"""Index definitions (the ``definition`` member of CREATE INDEX, reference §5.5) -> IndexDefinition, once,
at build time.

The server pre-renders the column list with ``pg_get_indexdef_detailed``: keys (a column or an
expression, ``COLLATE``, the operator class, the ordering), ``INCLUDE``, ``GLOBAL`` and the
``LOCAL(PARTITION ...)`` list, the subpartitioned form on several lines. The layout's spacing is
fixed and matched exactly; names, words and parenthesized expressions are tokens of the SQL layer's
lexer (:class:`ddlc.frontend.sql.lexer.Cursor`). Expression keys are parsed by the SQL layer too
(:func:`~ddlc.frontend.sql.expr.make_expr`).
"""

from __future__ import annotations

import re

from ... import lazyre
from ...errors import Path
from ...ir.index import IndexDefinition, IndexKey, IndexPartition, NullsOrder, PartitionScope, SortOrder
from ...ir.names import Expr, QualifiedName
from .expr import make_expr
from .fragment import check_fragment
from .lexer import Cursor, ScanFail

_KEYWORDS = frozenset({"asc", "desc", "nulls", "collate"})
# (enum members read once: on Python 3.11 a read through the class goes through the enum metaclass's __getattr__ hook)
_NONE, _GLOBAL, _LOCAL = PartitionScope.NONE, PartitionScope.GLOBAL, PartitionScope.LOCAL


class _P(Cursor):
    __slots__ = ("origin",)

    def __init__(self, s: str, origin: Path) -> None:
        super().__init__(s)
        self.origin = origin

    def ident(self) -> str:
        return self.ident_token()[0]

    def qname(self) -> QualifiedName:
        a = self.ident()
        if self.eat("."):
            return QualifiedName(self.ident(), a, origin=self.origin)
        return QualifiedName(a, origin=self.origin)

    # -- grammar ---------------------------------------------------------------------------
    def key(self) -> IndexKey:
        start = self.i
        column: str | None = None
        expression: Expr | None = None
        if self.at("("):
            self.balanced()
        else:
            name = self.ident()
            dotted = False
            while self.eat("."):  # a qualified function name
                self.ident()
                dotted = True
            if self.at("("):
                self.balanced()
            elif dotted:
                raise self.fail("qualified column")
            else:
                column = name
        if column is None:
            expression = make_expr(self.s[start:self.i], self.origin)
        collation = opclass = None
        ordering = nulls = None
        while True:
            save = self.i
            self.blanks()
            if self.i == save or self.at(")") or self.at(","):
                self.i = save
                break
            w = self.peek_word()
            if w == "collate" and collation is None and opclass is None and ordering is None:
                self.word("COLLATE")
                self.blanks()
                collation = self.qname()
            elif w in ("asc", "desc") and ordering is None and nulls is None:
                ordering = SortOrder(w.upper())
                self.word(w)
            elif w == "nulls" and nulls is None:
                self.word(w)
                self.blanks()
                w2 = self.peek_word()
                if w2 not in ("first", "last"):
                    raise self.fail("FIRST or LAST expected")
                nulls = NullsOrder(w2.upper())
                self.word(w2)
            elif opclass is None and ordering is None and nulls is None and w not in _KEYWORDS:
                opclass = self.qname()
            else:
                raise self.fail("unexpected key option")
        return IndexKey(column, expression, collation, opclass, ordering, nulls, origin=self.origin)

    def partition(self, sub: bool) -> IndexPartition:
        if not self.word("SUBPARTITION" if sub else "PARTITION"):
            raise self.fail("PARTITION expected")
        self.need(" ")
        name = self.ident()
        tablespace = None
        if self.at(" TABLESPACE "):
            self.i += len(" TABLESPACE ")
            tablespace = self.ident()
        return IndexPartition(name, tablespace, origin=self.origin)

    def local(self) -> tuple[tuple[IndexPartition, ...], bool]:
        self.need("(")
        parts: list[IndexPartition] = []
        if self.eat("\n"):  # subpartitioned: groups of SUBPARTITION lists
            while True:
                self.need("    ")
                group = self.partition(False)
                if group.tablespace is not None:
                    raise self.fail("TABLESPACE on a partition group")
                self.need("(")
                subs = []
                while True:
                    self.need("\n        ")
                    subs.append(self.partition(True))
                    if not self.eat(", "):
                        break
                self.need("\n    )")
                parts.append(IndexPartition(group.name, None, tuple(subs), origin=self.origin))
                if not self.eat(",\n"):
                    break
            self.need("\n")
            self.need(") ")
            return tuple(parts), True
        if not self.at(")"):
            while True:
                parts.append(self.partition(False))
                if not self.eat(", "):
                    break
        self.need(") ")
        return tuple(parts), False

    def definition(self) -> IndexDefinition:
        self.need("(")
        keys = [self.key()]
        while self.eat(", "):
            keys.append(self.key())
        include: list[str] = []
        scope = _NONE
        if self.at(") GLOBAL INCLUDE (") or self.at(") INCLUDE ("):
            if self.at(") GLOBAL"):
                scope = _GLOBAL
                self.i += len(") GLOBAL")
            else:
                self.i += 1
            self.need(" INCLUDE (")
            include.append(self.ident())
            while self.eat(", "):
                include.append(self.ident())
        self.need(")")
        partitions: tuple[IndexPartition, ...] = ()
        sub = False
        if scope is _NONE and self.eat("GLOBAL"):
            scope = _GLOBAL
        elif scope is _NONE and self.eat(" LOCAL"):
            scope = _LOCAL
            if not self.at("("):  # \d-style LOCAL without its list
                raise self.fail("LOCAL without a partition list")
            partitions, sub = self.local()
        if self.i != len(self.s):
            raise self.fail("trailing text")
        return IndexDefinition(tuple(keys), tuple(include), scope, partitions, sub, origin=self.origin)


# The common definition, read by one pattern (issue 26): ASCII, column keys only, each written as the server
# writes it (``name[ COLLATE qname][ opclass][ ASC|DESC][ NULLS FIRST|LAST]``, single blanks, keywords in capitals),
# ``, `` between keys, an INCLUDE list and GLOBAL, no LOCAL list. A name is a bare word the lexer cuts there (not
# run on by an identifier character or a quote) or a quoted one; an operator class does not start with a word
# the key's options read (ASC, DESC, NULLS, COLLATE in any case). Any other text: the cursor (_P), whose reading
# these texts have too (tests/test_throughput_text4.py compares them).
_ID = r'(?:[A-Za-z_][A-Za-z0-9_$]*(?![A-Za-z0-9_$\'"])|"(?:[^"]|"")*"(?!"))'
_QN = rf"{_ID}(?:\.{_ID})?"
_NOT_OPTION = r"(?!(?i:asc|desc|nulls|collate)(?![A-Za-z0-9_$]))"  # an operator class's first word: not an option's
_KEY_NC = rf"{_ID}(?: COLLATE {_QN})?(?: {_NOT_OPTION}{_QN})?(?: (?:ASC|DESC))?(?: NULLS (?:FIRST|LAST))?"
# a key's parts: the column, the collation's and the operator class's (schema or name, name or None), ordering, nulls
_KEY = rf"({_ID})(?: COLLATE ({_ID})(?:\.({_ID}))?)?(?: {_NOT_OPTION}({_ID})(?:\.({_ID}))?)?(?: (ASC|DESC))?(?: NULLS (FIRST|LAST))?"
_KEY_RX = lazyre.compile(_KEY)
_ID_RX = lazyre.compile(_ID)
_SIMPLE = lazyre.compile(rf"\({_KEY}(?P<more>(?:, {_KEY_NC})*)\)"
                     rf"(?:(?P<global_include> GLOBAL)? INCLUDE \((?P<include>{_ID}(?:, {_ID})*)\))?(?P<global>GLOBAL)?")


# a key's ordering and nulls words (the patterns' groups: exactly a value) -> the member, by one lookup: calling the
# enum class costs EnumType.__call__'s frames
_SORT: dict[str, SortOrder] = dict(SortOrder._value2member_map_)  # type: ignore[arg-type]
_NULLS: dict[str, NullsOrder] = dict(NullsOrder._value2member_map_)  # type: ignore[arg-type]


def _name(t: str) -> str:
    return t[1:-1].replace('""', '"') if t[0] == '"' else t


def _qname(a: str | None, b: str | None, origin: Path) -> QualifiedName | None:
    if a is None:
        return None
    return QualifiedName(_name(a), origin=origin) if b is None else QualifiedName(_name(b), _name(a), origin=origin)


def _key(k: re.Match[str], origin: Path) -> IndexKey:
    """The key of a match of :data:`_KEY` (its groups the first seven of the match)."""
    col, c1, c2, o1, o2, order, nulls = k.group(1, 2, 3, 4, 5, 6, 7)
    return IndexKey(_name(col), None, _qname(c1, c2, origin), _qname(o1, o2, origin),
                    _SORT[order] if order else None, _NULLS[nulls] if nulls else None, origin=origin)


def _simple(text: str, origin: Path) -> IndexDefinition | None:
    """:meth:`_P.definition` of a text of the common form (:data:`_SIMPLE`), or None for any other text."""
    m = _SIMPLE.fullmatch(text) if text.endswith((")", ")GLOBAL")) and text.isascii() else None  # (no LOCAL list)
    if m is None or (m["global_include"] and m["global"]):  # GLOBAL twice: the cursor's error
        return None
    keys = [_key(m, origin)]
    if m["more"]:  # the others one after another (", " ends none: each key's longest match is the one the pattern took)
        keys += [_key(k, origin) for k in _KEY_RX.finditer(text, m.start("more"), m.end("more"))]
    include = tuple(_name(i[0]) for i in _ID_RX.finditer(m["include"])) if m["include"] else ()
    scope = _GLOBAL if m["global_include"] or m["global"] else _NONE
    return IndexDefinition(tuple(keys), include, scope, (), False, origin=origin)


# Expression keys and a LOCAL list, read without the cursor (issue 26): the cursor reads a key a token at a time
# (~15 calls a key). In a text of ASCII without a dollar quote, a backslash or a comment, every parenthesis outside
# strings and quoted names is a token, and a string is a run of ``'...'`` (``''`` inside it ends one and starts the
# next); an expression key whose parentheses enclose no quoted name then ends at the parenthesis that closes its
# first one, strings skipped, as the cursor's ``balanced`` finds it. Each key is a column key
# (:data:`_KEY`) or ``[name[.name...]](...)`` followed by :data:`_KEY`'s options, in the server's layout; the
# keys, INCLUDE, GLOBAL and a one-line LOCAL list are matched exactly as the cursor's ``at``/``eat``/``need``
# take them. Anything else (None): the cursor (tests/test_throughput_round13_front.py compares them).
_EXPR_HEAD = lazyre.compile(rf"(?:{_ID}(?:\.{_ID})*)?\(")
_OPTIONS = lazyre.compile(rf"(?: COLLATE ({_ID})(?:\.({_ID}))?)?(?: {_NOT_OPTION}({_ID})(?:\.({_ID}))?)?"
                          rf"(?: (ASC|DESC))?(?: NULLS (FIRST|LAST))?")
_PARENS = lazyre.compile(r"'[^']*'|['\"()]")  # a string, or a quote that does not close, or a parenthesis
_INCLUDE = lazyre.compile(rf"(?P<global> GLOBAL)? INCLUDE \((?P<names>{_ID}(?:, {_ID})*)\)")
_PART = rf"PARTITION ({_ID})(?: TABLESPACE ({_ID}))?"
_LOCAL_LIST = lazyre.compile(rf" LOCAL\((?:{_PART}(?:, {_PART})*)?\) \Z")
_PART_RX = lazyre.compile(_PART)
_UNLEXED = ("$", "\\", "--", "/*")  # what the fast reading leaves to the cursor's tokens


def _expression_end(text: str, open_at: int) -> int | None:
    """The end of the parenthesized group at ``open_at`` (after its ``)``), its strings skipped; None when it is
    not closed or holds a quoted name or a quote that does not close."""
    depth = 0
    for m in _PARENS.finditer(text, open_at):
        c = text[m.start()]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return m.end()
        elif m.end() - m.start() == 1:  # a quoted name, or a string that does not close
            return None
    return None


def _keyed(text: str, origin: Path) -> IndexDefinition | None:
    """:meth:`_P.definition` of a text with expression keys or a one-line LOCAL list (see above), or None."""
    if not text.isascii() or not text.startswith("(") or any(u in text for u in _UNLEXED):
        return None
    keys: list[IndexKey] = []
    i = 1
    while True:
        h = _EXPR_HEAD.match(text, i)
        if h is not None:
            end = _expression_end(text, h.end() - 1)
            if end is None:
                return None
            expression = make_expr(text[i:end], origin)
            o = _OPTIONS.match(text, end)
            c1, c2, o1, o2, order, nulls = o.group(1, 2, 3, 4, 5, 6)  # type: ignore[union-attr]
            keys.append(IndexKey(None, expression, _qname(c1, c2, origin), _qname(o1, o2, origin),
                                 _SORT[order] if order else None, _NULLS[nulls] if nulls else None,
                                 origin=origin))
            i = o.end()  # type: ignore[union-attr]
        else:
            k = _KEY_RX.match(text, i)
            if k is None:
                return None
            keys.append(_key(k, origin))
            i = k.end()
        if text.startswith(", ", i):
            i += 2
        elif text.startswith(")", i):
            break
        else:
            return None
    include: tuple[str, ...] = ()
    scope = _NONE
    inc = _INCLUDE.match(text, i + 1)
    if inc is not None:
        include = tuple(_name(n[0]) for n in _ID_RX.finditer(inc["names"]))
        if inc["global"]:
            scope = _GLOBAL
        i = inc.end()
    else:
        i += 1  # the keys' ")"
    partitions: tuple[IndexPartition, ...] = ()
    if scope is _NONE and text.startswith("GLOBAL", i):
        scope = _GLOBAL
        i += 6
    elif scope is _NONE and text.startswith(" LOCAL", i):
        loc = _LOCAL_LIST.match(text, i)
        if loc is None:
            return None
        scope = _LOCAL
        partitions = tuple(IndexPartition(_name(p[1]), _name(p[2]) if p[2] is not None else None, origin=origin)
                           for p in _PART_RX.finditer(text, i, loc.end()))
        i = loc.end()
    if i != len(text):
        return None
    return IndexDefinition(tuple(keys), include, scope, partitions, False, origin=origin)


def parse_definition(text: str, origin: Path = ()) -> IndexDefinition | str:
    """The parsed ``definition`` (expression keys parsed too), or a message saying where it stops making sense.
    ``DDLC-E011`` when the text is not one fragment (:mod:`.fragment`), whether or not it parses."""
    check_fragment(text, origin, "index definition")
    got = _simple(text, origin)
    if got is None:
        got = _keyed(text, origin)
    if got is not None:
        return got
    try:
        return _P(text, origin).definition()
    except ScanFail as e:
        return str(e)


__all__ = ["parse_definition"]
