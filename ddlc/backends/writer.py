"""SqlWriter: the one place where spacing and quoting of emitted SQL is decided.

Emitters hand it tokens (keywords, names, literals, punctuation); it joins them with single spaces,
except after ``(`` and before ``)`` / ``,``, and quotes identifiers by the target's keyword table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .. import lazyre
from .pg_keywords import FORCED

_SAFE = lazyre.compile(r"[a-z_][a-z0-9_]*\Z")


def pg_ident(name: str) -> str:
    """PostgreSQL's quote_ident: bare only for [a-z_][a-z0-9_]* that is not a non-unreserved keyword."""
    # The common name first, by three string tests instead of the regex (a third of the cost): for an ASCII
    # name, isidentifier is [A-Za-z_][A-Za-z0-9_]* and islower "a letter, none upper-case", so together they
    # are _SAFE's form with a letter in it. A name of only "_" and digits is left to the regex.
    if name.isascii() and name.islower() and name.isidentifier():
        return name if name not in FORCED else '"' + name + '"'  # (no quote in it to double)
    if _SAFE.match(name) is not None and name not in FORCED:
        return name
    if not name or "\x00" in name:
        from ..errors import DdlcError

        raise DdlcError(f"the name {name!r} cannot be written as a PostgreSQL identifier", code="DDLC-E007")
    return '"' + name.replace('"', '""') + '"'


def pg_literal(value: str) -> str:
    """A string literal whose meaning does not depend on ``standard_conforming_strings``.

    Quotes are doubled; a value with a backslash is written as an escape string (``E'C:\\x'``,
    backslashes doubled), which every server reads the same way whatever the setting. Without
    backslashes a plain ``'...'`` means the same under both settings.
    """
    if "\x00" in value:
        from ..errors import DdlcError

        raise DdlcError("a string with a NUL character cannot be written as a PostgreSQL literal", code="DDLC-E007")
    if "\\" in value:
        return "E'" + value.replace("\\", "\\\\").replace("'", "''") + "'"
    return "'" + value.replace("'", "''") + "'"


_BARE_VALUE = lazyre.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[A-Za-z_][A-Za-z0-9_]*\Z")


def pg_option_value(value: str) -> str:
    """A storage option's value (``WITH (k = v)``): a number or a plain word as it is, anything else as a
    literal. The frontend refuses other bare values (DDLC-E011); this keeps the writer safe on its own."""
    return value if _BARE_VALUE.fullmatch(value) else pg_literal(value)


_SAME_BARE = lazyre.compile(r"0|-?(?:[1-9][0-9]*|[0-9]*\.[0-9]+|[0-9]+\.)|true|false")


def pg_option_string(value: str) -> str:
    """A storage option's value that the source gave as a string: bare only where PostgreSQL reads the bare
    form back as this very string (a number as it would print it, ``true``, ``false``), else a literal. Bare,
    ``Abc`` would be read as ``abc``, ``int`` as ``pg_catalog.int4``, ``007`` as ``7``, and ``row`` not at all."""
    if _SAME_BARE.fullmatch(value):
        return value
    return pg_literal(value)


def pg_pastable(text: str) -> bool:
    """Whether a fragment that parsed as PostgreSQL SQL may be written as it came: only when it holds
    no backslash (a backslash's meaning in ``'...'`` depends on ``standard_conforming_strings``, and
    a line starting with one is a psql meta-command). Otherwise it is printed from its parse
    (:func:`pg_deparse`)."""
    return "\\" not in text


_STREAM: Any = None  # pglast's RawStream with the literal rule, once pglast is imported (_streams)
_FAST_STREAM: Any = None  # the stream pg_deparse prints with (its ``direct``: pgdirect.deparse to try first, or False)
_AST: Any = None  # pglast.ast
_POPULATE: Any = None  # ir.sqltree.populate_ancestors


def _streams() -> tuple[Any, Any]:
    """(pglast's ``RawStream`` with this module's literal rule, the stream :func:`pg_deparse` prints with: the
    same made faster (:mod:`.pgprint`) for a pglast release it was compared with, else that one). For that
    release, :mod:`.pgdirect` prints first what it covers (the class's ``direct``)."""
    global _STREAM, _FAST_STREAM, _AST, _POPULATE
    if _STREAM is None:
        from pglast import ast
        from pglast.stream import RawStream

        from ..ir.sqltree import populate_ancestors

        _AST, _POPULATE = ast, populate_ancestors

        class _PgStream(RawStream):
            direct: Any = False

            def write_quoted_string(self, s: str) -> None:
                self.write(pg_literal(s))

        _FAST_STREAM = _PgStream
        try:  # another pglast release may lack what pgprint takes from pglast's printers: its own stream then
            from . import pgprint

            fast = pgprint.supported()
        except (ImportError, AttributeError):
            fast = False
        if fast:
            try:
                from . import pgdirect

                direct = pgdirect.deparse if pgdirect.ready() else False
            except (ImportError, AttributeError):
                direct = False

            class _PgFastStream(pgprint.FastRawStream):
                def write_quoted_string(self, s: str) -> None:
                    self.write(pg_literal(s))

            _PgFastStream.direct = direct
            _FAST_STREAM = _PgFastStream
        _STREAM = _PgStream
    return _STREAM, _FAST_STREAM


def pg_deparse(node: Any) -> str:
    """PostgreSQL text of a parsed (pglast) node, with this module's literal rule.

    pglast's own stream writes ``'a\\b'`` for a string holding a backslash, which a server running
    with ``standard_conforming_strings = off`` reads differently; every expression, query and
    fragment the PostgreSQL target writes from a parse goes through here instead. A node
    :mod:`.pgdirect` covers whole is printed there (the same text, issue 26); anything else, and any
    error, by pglast's printers (:class:`~.pgprint.FastRawStream`).
    """
    direct = (_FAST_STREAM if _FAST_STREAM is not None else _streams()[1]).direct
    if direct and isinstance(node, _AST.Node):
        try:
            return direct(node, pg_literal)
        except Exception:  # noqa: BLE001 (not covered, or an error: pglast's printers print it, or raise, as ever)
            pass
    return _stream_deparse(node)


def pg_deparse_typed(node: Any, types: Mapping[int, Any], rebuilt: Callable[[], Any]) -> str:
    """``pg_deparse(rebuilt())``, where ``rebuilt()`` gives ``node`` with each of its ``TypeName`` nodes ``t``
    whose ``id`` is in ``types`` replaced by ``types[id(t)]`` (made bottom-up, a replacement holding no node it
    replaces): :mod:`.pgdirect` prints ``node`` through the map without the copy; the copy is made only for
    pglast's printers."""
    direct = (_FAST_STREAM if _FAST_STREAM is not None else _streams()[1]).direct
    if direct and isinstance(node, _AST.Node):
        try:
            return direct(node, pg_literal, types)
        except Exception:  # noqa: BLE001 (as in pg_deparse)
            pass
    return _stream_deparse(rebuilt())


def _stream_deparse(node: Any) -> str:
    """:func:`pg_deparse` by :data:`_FAST_STREAM` (pglast's printers)."""
    stream_class = _FAST_STREAM if _FAST_STREAM is not None else _streams()[1]
    node_class = _AST.Node
    # RawStream.__call__ for a node or a tuple of them, with ddlc's populate_ancestors (the same chains)
    statements = (node,) if isinstance(node, node_class) else node
    if type(statements) is not tuple or not statements or not isinstance(statements[0], node_class):
        return _streams()[0]()(node)  # (anything else: pglast's own entry point, its own errors)
    stream = stream_class()
    _POPULATE(statements)
    first = True
    for statement in statements:
        if isinstance(statement, _AST.RawStmt) and statement.stmt is None:
            continue
        if first:
            first = False
        else:
            stream.write(";")
            stream.newline()
            for _ in range(stream.separate_statements):
                stream.newline()
        stream.print_node(statement)
    if stream.semicolon_after_last_statement and not first:
        stream.write(";")
    return stream.getvalue()


def joined(toks: list[str]) -> str:
    """Tokens joined with canonical spacing: one space between two, none after ``(`` nor before ``)`` or
    ``,`` (a token starting with ``)`` included)."""
    text = " ".join(toks)
    if "( " not in text and " )" not in text and " ," not in text:
        return text  # (no gap the rule names: one would show as one of these three, a token's own text may too)
    out: list[str] = []
    glue = False  # a space before the next token (none before the first, none after "(")
    for t in toks:
        if glue and t != "," and t[:1] != ")":
            out.append(" ")
        out.append(t)
        glue = t[-1:] != "("
    return "".join(out)


def paren_items(items: Iterable[str]) -> str:
    """``(a, b)``: ``SqlWriter().paren_list(items, SqlWriter.raw).text()`` without the writer object (its one
    implementation, for the emitters that write a list at once). An empty item is left out (its comma kept);
    the rule puts a space after each comma unless the item after it is empty, a comma or starts with ``)``; no
    space after ``(`` nor before ``)`` (an item's own text is never looked inside)."""
    if type(items) is not list:
        items = list(items)
    for v in items:  # (the common case first: no item the rule spaces otherwise than ", ")
        if not v or v == "," or v[0] == ")":
            break
    else:
        return "(" + ", ".join(items) + ")"
    out = "("
    for i, v in enumerate(items):
        if i:
            out += ","
            if v and v != "," and v[0] != ")":
                out += " "
        out += v
    return out + ")"


def words(*tokens: str | None) -> str:
    """One statement written straight from its tokens (keywords, names and literals already quoted by the
    dialect's functions; None and empty ones left out), spaced as :class:`SqlWriter` spaces them: what an
    emitter of a short fixed shape writes without a writer's token list."""
    return joined([t for t in tokens if t])


class SqlWriter:
    """Collects tokens of one statement and renders them with canonical spacing.

    Quoting is the target dialect's: ``dialect`` is a :class:`~ddlc.backends.base.Dialect` (its
    ``ident`` and ``literal`` functions); a bare identifier-quoting function is accepted too.
    """

    __slots__ = ("_toks", "_ident", "_literal")

    def __init__(self, dialect: Any = pg_ident) -> None:
        self._toks: list[str] = []
        if callable(dialect):
            self._ident, self._literal = dialect, pg_literal
        else:
            self._ident, self._literal = dialect.ident, dialect.literal

    # tokens ------------------------------------------------------------------------------
    def kw(self, *words: str) -> SqlWriter:
        self._toks.extend(words)
        return self

    def raw(self, text: str) -> SqlWriter:
        if text:
            self._toks.append(text)
        return self

    def ident(self, name: str) -> SqlWriter:
        quote = self._ident
        if quote is pg_ident and name.isascii() and name.islower() and name.isidentifier() and name not in FORCED:
            self._toks.append(name)  # (pg_ident's first test inline: no call for the common bare name)
        else:
            self._toks.append(quote(name))
        return self

    def name(self, *parts: str | None) -> SqlWriter:
        """A dotted name; None parts are skipped."""
        self._toks.append(".".join(self._ident(p) for p in parts if p is not None))
        return self

    def lit(self, value: str) -> SqlWriter:
        self._toks.append(self._literal(value))
        return self

    def open(self) -> SqlWriter:
        self._toks.append("(")
        return self

    def close(self) -> SqlWriter:
        self._toks.append(")")
        return self

    def comma(self) -> SqlWriter:
        self._toks.append(",")
        return self

    def each(self, items: Iterable, fn: Callable[[SqlWriter, object], object], sep: str = ",") -> SqlWriter:
        first = True
        for item in items:
            if not first:
                self._toks.append(sep)
            first = False
            fn(self, item)
        return self

    def paren_list(self, items: Iterable, fn: Callable[[SqlWriter, object], object]) -> SqlWriter:
        return self.open().each(items, fn).close()

    # output ------------------------------------------------------------------------------
    def text(self) -> str:
        return joined(self._toks)

    def __str__(self) -> str:
        return self.text()
