"""Constraint definition text (the server's ``pg_get_constraintdef`` output) -> ConstraintInfo, once,
at build time.

The text is parsed with pglast as ``ALTER TABLE x ADD CONSTRAINT c <definition>``. openGauss
spellings PostgreSQL lacks are handled around the parser: the informational-constraint prefix
(``enable optimization Informational Constraint ...``), a trailing ``DISABLE`` on CHECK, and
``ASC``/``DESC`` in PRIMARY KEY / UNIQUE column lists. Anything else that does not parse gives
None (the CREATE TABLE builder reports DDLC-N101 and keeps the text). pglast is imported lazily.

:func:`read_definition` is what the builders call: the parsed form plus the facts about the text
that hold whether or not it parsed (:class:`Definition`); the builders store them in the IR
(:class:`ddlc.ir.table.TableConstraint`, :class:`ddlc.ir.alter.AddConstraint`), so no target parses.
"""

from __future__ import annotations

import re

from ...records import record
from ... import lazyre
from functools import lru_cache
from typing import Any

from ...diagnostics import Severity, register
from ...errors import Path
from ...ir.names import Expr, ParsedSql, QualifiedName, refs_later
from ...ir.table import ConstraintInfo, ConstraintKind, FkAction, FkMatch, OptionValueKind, WithOption
from .check_text import check_expr_text
from .constraint_keys import key_list_json, unparsable
from .expr import expr_parts, expr_tree, make_expr
from .lexer import BLANK, closing_paren, split_commas
from .fragment import check_fragment, has_comment
from .pgparse import parse_json, parse_statements, pglast_ast
from .pgwords import requote, words
from .refs import CONSTRAINT_START, name_refs

# (enum members read once: on Python 3.11 a read through an Enum class goes through a hook, ~800 instructions)
_EXCLUSION, _PRIMARY_KEY, _UNIQUE, _FOREIGN_KEY = (ConstraintKind.EXCLUSION, ConstraintKind.PRIMARY_KEY,
                                                ConstraintKind.UNIQUE, ConstraintKind.FOREIGN_KEY)
_SIMPLE, _NO_ACTION = FkMatch.SIMPLE, FkAction.NO_ACTION

N_CONSTRAINT_UNPARSED = register(
    "DDLC-N101", Severity.NOTE, "Constraint text not parsed",
    "The definition text of a table constraint could not be parsed (GaussDB-only syntax that pglast "
    "does not know). The text is kept as it is: the GaussDB target prints it unchanged, but passes and "
    "other targets cannot see its columns, references or options.",
    '{"fmt": "CONSTRAINT %{name}I %{definition}s", "definition": "PARTIAL CLUSTER KEY (a)", ...}',
)

_INFORMATIONAL = lazyre.compile(r"\s*(enable|disable)\s+optimization\s+informational\s+constraint\b\s*", re.I)
_DISABLE_TAIL = lazyre.compile(r"\s+DISABLE\s*$", re.I)
_CHECK_DISABLE = lazyre.compile(r"(?is)\s*CHECK\b.*\)\s*DISABLE\s*\Z")
_MATCH_PARTIAL = lazyre.compile(r"(?i)\bMATCH\s+PARTIAL\b")
_KEY_LIST = lazyre.compile(r"\s*(PRIMARY\s+KEY|UNIQUE)\s*\(", re.I)
# (the server's blanks only: Python's \s also takes \x1c-\x1f, which PostgreSQL reads as part of a token)
_SORTED_ITEM = lazyre.compile(r"[ \t\n\r\f\v]*(.*?[^ \t\n\r\f\v])[ \t\n\r\f\v]+(ASC|DESC)[ \t\n\r\f\v]*", re.I | re.S)
_PREFIXES = (
    (lazyre.compile(r"CHECK\b", re.I), ConstraintKind.CHECK),
    (lazyre.compile(r"PRIMARY\s+KEY\b", re.I), ConstraintKind.PRIMARY_KEY),
    (lazyre.compile(r"UNIQUE\b", re.I), ConstraintKind.UNIQUE),
    (lazyre.compile(r"EXCLUDE\b", re.I), ConstraintKind.EXCLUSION),
    (lazyre.compile(r"FOREIGN\s+KEY\b", re.I), ConstraintKind.FOREIGN_KEY),
    (lazyre.compile(r"TRIGGER\b", re.I), ConstraintKind.TRIGGER),
)
_DUMMY = "ALTER TABLE x ADD CONSTRAINT c "
_MATCH = {"f": FkMatch.FULL, "p": FkMatch.PARTIAL, "s": FkMatch.SIMPLE}
_ACTION = {"a": FkAction.NO_ACTION, "r": FkAction.RESTRICT, "c": FkAction.CASCADE,
           "n": FkAction.SET_NULL, "d": FkAction.SET_DEFAULT}


@record(frozen=True, slots=True)
class Definition:
    """What the SQL layer reads from one constraint definition text.

    * ``parsed``: the parsed form, None when the text does not parse;
    * ``kind``: the kind the text starts with (after an informational prefix), None when unknown;
    * ``informational`` / ``optimization``: the openGauss informational-constraint prefix and its
      enable/disable word; ``disabled``: ``CHECK (...) DISABLE``; ``match_partial``: ``FOREIGN KEY ...
      MATCH PARTIAL`` (which PostgreSQL's grammar refuses, so such a text never parses). These hold
      whether or not the text parsed;
    * ``verbatim``: the text, as written, is PostgreSQL syntax (it parsed without removing any openGauss
      spelling), so ``parsed`` says exactly what the text says.
    """

    parsed: ConstraintInfo | None
    kind: ConstraintKind | None
    informational: bool = False
    optimization: bool = False
    disabled: bool = False
    match_partial: bool = False
    verbatim: bool = False


def read_definition(text: str, origin: Path = ()) -> Definition:
    """Parse a constraint definition and read the facts the targets need (see :class:`Definition`)."""
    check_fragment(text, origin, "constraint definition")
    informational, optimization = split_informational(text)[1:]
    parsed, verbatim = None, False
    hit = _parse(text)
    if hit is not None:
        body, node, descending, disabled, _, _, first = hit
        parsed = _info(node, body, origin, descending, disabled, informational, optimization)
        # as written, PostgreSQL reads the same thing whatever its settings (no backslash) and without
        # quoting openGauss's bare names that are PostgreSQL keywords
        verbatim = (parsed is not None and first and not informational and "\\" not in text and not requote(text)[1]
                    and not has_comment(text))
    return Definition(
        parsed, parsed.kind if parsed is not None else kind_of_text(text),
        informational=informational, optimization=optimization,
        disabled=not informational and _CHECK_DISABLE.match(text) is not None,
        match_partial=_MATCH_PARTIAL.search(text) is not None,
        verbatim=verbatim,
    )


def table_reading(text: str, origin: Path = ()) -> tuple[ConstraintInfo | None, bool, bool, ParsedSql]:
    """What CREATE TABLE's constraint element keeps of a definition text that passed :func:`make_definition`'s
    fragment check: ``(parsed, informational, verbatim)`` of :func:`read_definition` and the parsed form of
    :func:`make_definition`'s :class:`Expr`, read together (issue 26). A plain key list (:func:`_key_list_json`'s)
    is read from the pattern's groups, without the JSON node; any other text as :func:`read_definition` reads
    it. The Expr's tree is known already when the text starts with a constraint's word: it is no expression
    (:func:`~.expr.parse_expr` gives None untried) and the verbatim test is the one just made; its references
    are still worked out only when read (tests/test_throughput_round14_front.py compares both with the former
    functions)."""
    m = _KEY_LIST_TEXT.match(text)
    if m is not None:
        parsed = _key_list_info(m, origin)
        if parsed is not None:  # (no blank around it, no comment, no word requote quotes: _key_list_plain)
            plain = _KEY_LIST_PLAIN[0] if _KEY_LIST_PLAIN else _key_list_plain()
            return parsed, False, plain, ParsedSql("expr", None, (), plain)
    informational, optimization = split_informational(text)[1:]
    parsed, verbatim, plain = None, False, None
    hit = _parse(text)
    if hit is not None:
        body, node, descending, disabled, _, _, first = hit
        parsed = _info(node, body, origin, descending, disabled, informational, optimization)
        if parsed is not None and first and not informational and "\\" not in text:
            verbatim = plain = not requote(text)[1] and not has_comment(text)
    if plain is not None and CONSTRAINT_START.match(text.strip(BLANK)) is not None:
        return parsed, informational, verbatim, refs_later("expr", None, plain, definition_refs, text)
    return parsed, informational, verbatim, ParsedSql.later("expr", text, definition_tree, definition_refs)


def _key_list_info(m: Any, origin: Path) -> ConstraintInfo | None:
    """:func:`_info` of the node :func:`_key_list_json` makes of the body ``m`` matched (None where it makes none)."""
    unique, keys, including, space = m.groups()
    names = _COMMA.split(keys)
    more = _COMMA.split(including) if including is not None else ()
    table = _KEYWORDS[0] if _KEYWORDS else _load_keywords()
    for name in names:
        if len(name) > 63 or name.lower() in table:
            return None
    for name in more:
        if len(name) > 63 or name.lower() in table:
            return None
    if space is not None and (len(space) > 63 or space.lower() in table):
        return None
    return ConstraintInfo(
        _UNIQUE if unique is not None else _PRIMARY_KEY,
        columns=tuple([n.lower() for n in names]),
        include=tuple([n.lower() for n in more]),
        index_tablespace=None if space is None else space.lower(),
        origin=origin,
    )


_KEYWORDS: list[frozenset[str]] = []
_KEY_LIST_PLAIN: list[bool] = []
# the words of a key list that are not names (the names are no keyword: _key_list_json), as requote meets them
_KEY_LIST_WORDS = frozenset({"primary", "key", "unique", "include", "using", "index", "tablespace"})


def _load_keywords() -> frozenset[str]:
    _KEYWORDS.append(_keywords())
    return _KEYWORDS[0]


def _key_list_plain() -> bool:
    """Whether a key list :func:`_key_list_json` reads is verbatim (``not requote(t)[1] and not has_comment(t)``):
    it holds no comment (none of its characters starts one), and requote quotes none of its words when none
    of its fixed words is one of :func:`~.pgwords.words` (each a lower-case keyword; its names are none)."""
    _KEY_LIST_PLAIN.append(not (_KEY_LIST_WORDS & words()))
    return _KEY_LIST_PLAIN[0]


def make_definition(text: str, origin: Path = ()) -> Expr:
    """The :class:`Expr` of a table constraint's definition: :func:`~.expr.make_expr`'s, whose parsed form
    (read when a pass first asks for it) a plain key list gives without PostgreSQL's grammar
    (:func:`definition_parts`)."""
    check_fragment(text, origin, "expression")
    return Expr(text, origin=origin, sql=ParsedSql.later("expr", text, definition_tree, definition_refs))


def definition_parts(text: str) -> tuple[Any, Any, bool]:
    """:func:`~.expr.expr_parts` of a constraint definition: for a key list :func:`_key_list_json` takes (no
    expression, no object reference in it), ``(None, (), verbatim)`` without parsing it again."""
    if _key_list_json(text.strip(BLANK)) is not None:
        return None, (), not requote(text)[1] and not has_comment(text)
    return expr_parts(text)


def definition_tree(text: str) -> tuple[Any, bool]:
    """``(tree, verbatim)`` of :func:`definition_parts` (its references: :func:`definition_refs`, when read)."""
    if _key_list_json(text.strip(BLANK)) is not None:
        return None, not requote(text)[1] and not has_comment(text)
    return expr_tree(text)


def definition_refs(text: str) -> tuple[Any, ...] | None:
    """The references of :func:`definition_parts`."""
    if _key_list_json(text.strip(BLANK)) is not None:
        return ()
    return name_refs(text)


def split_informational(text: str) -> tuple[str, bool, bool]:
    """``(rest, informational, optimization)`` of a definition text."""
    m = _INFORMATIONAL.match(text)
    if m is None:
        return text, False, False
    return text[m.end():], True, m.group(1).lower() == "enable"


def kind_of_text(text: str) -> ConstraintKind | None:
    """The constraint kind a definition text starts with (for trees without ``contype``)."""
    body = split_informational(text)[0].lstrip(BLANK)
    for rx, kind in _PREFIXES:
        if rx.match(body):
            return kind
    return None


def parse_constraint(text: str, origin: Path = ()) -> ConstraintInfo | None:
    """Parse a constraint definition; None when it does not parse."""
    hit = _parse(text)
    if hit is None:
        return None
    body, node, descending, disabled, informational, optimization, _ = hit
    return _info(node, body, origin, descending, disabled, informational, optimization)


@lru_cache(maxsize=1024)
def _parse(text: str) -> tuple[str, Any, tuple[int, ...], bool, bool, bool, bool] | None:
    """``(body, node, DESC items, disabled, informational, optimization, parsed as written)``; ``node`` is
    the ``Constraint`` of the JSON form of pglast's parse (:func:`_constraint_json`), the text it was read
    from as its ``"_sql"``."""
    body, informational, optimization = split_informational(text)
    body = body.strip(BLANK)
    if not body:
        return None
    node = None if unparsable(body) else _constraint_json(body)  # (an ASC / DESC key, a DISABLE: the parse fails)
    if node is not None:
        return body, node, (), False, informational, optimization, True
    # the openGauss spellings PostgreSQL lacks, taken off only when the text as written does not parse
    alt, disabled = body, False
    m = _DISABLE_TAIL.search(alt)
    if m is not None:
        alt, disabled = alt[: m.start()], True
    alt, desc = _strip_sort_orders(alt)
    if alt != body:
        node = _constraint_json(alt)
        if node is not None:
            return body, node, desc, disabled, informational, optimization, False
    return None


def _constraint_json(body: str) -> dict[str, Any] | None:
    """The ``Constraint`` node of ``ALTER TABLE x ADD CONSTRAINT c <body>`` in the JSON form of pglast's
    parse (the same C parser as :func:`_constraint_node`, without building pglast's Python nodes: 3-4x
    cheaper), with ``"_sql"``: the body it was read from (on a copy); None when it is not one constraint.
    A plain key list is read by a pattern (:func:`_key_list_json`), one with options or DEFERRABLE by another
    (:func:`~.constraint_keys.key_list_json`), any other text by the parser."""
    node = _key_list_json(body)
    if node is None:
        node = key_list_json(body)
    return node if node is not None else _parsed_json(body)


_W = r"[ \t\n\r\f\v]"  # the server's blanks
_COLS = rf"[A-Za-z_][A-Za-z0-9_$]*(?:{_W}*,{_W}*[A-Za-z_][A-Za-z0-9_$]*)*"
# ``PRIMARY KEY (a, b)`` / ``UNIQUE (a)``, ``INCLUDE (c)``, ``USING INDEX TABLESPACE t``: bare ASCII names only
_KEY_LIST_TEXT = lazyre.compile(
    rf"(?:PRIMARY{_W}+KEY|(UNIQUE)){_W}*\({_W}*({_COLS}){_W}*\)"
    rf"(?:{_W}*INCLUDE{_W}*\({_W}*({_COLS}){_W}*\))?"
    rf"(?:{_W}+USING{_W}+INDEX{_W}+TABLESPACE{_W}+([A-Za-z_][A-Za-z0-9_$]*))?\Z", re.I | re.A)
_COMMA = lazyre.compile(rf"{_W}*,{_W}*")


@lru_cache(maxsize=1)
def _keywords() -> frozenset[str]:
    from pglast import keywords as pg

    return frozenset((*pg.RESERVED_KEYWORDS, *pg.COL_NAME_KEYWORDS, *pg.TYPE_FUNC_NAME_KEYWORDS,
                      *pg.UNRESERVED_KEYWORDS))


def _key_list_json(body: str) -> dict[str, Any] | None:
    """:func:`_parsed_json` of a PRIMARY KEY / UNIQUE body whose names are bare ASCII ones, none a keyword
    and none cut by the server (63 bytes): what the parser gives for it (the members :func:`_json_info`
    reads), without it; None for any other body."""
    m = _KEY_LIST_TEXT.match(body)
    if m is None:
        return None
    unique, keys, including, space = m.groups()
    names = _COMMA.split(keys)
    more = _COMMA.split(including) if including is not None else []
    table = _keywords()
    for name in (*names, *more, *((space,) if space is not None else ())):
        if len(name) > 63 or name.lower() in table:
            return None
    node: dict[str, Any] = {"contype": "CONSTR_UNIQUE" if unique is not None else "CONSTR_PRIMARY",
                            "keys": [{"String": {"sval": n.lower()}} for n in names]}
    if more:
        node["including"] = [{"String": {"sval": n.lower()}} for n in more]
    if space is not None:
        node["indexspace"] = space.lower()
    node["_sql"] = body
    return node


def _parsed_json(body: str) -> dict[str, Any] | None:
    """:func:`_constraint_json` by pglast's parser."""
    doc = parse_json(_DUMMY + body)
    if doc is None:
        return None
    stmts = doc.get("stmts") or ()
    if len(stmts) != 1:
        return None
    alter = (stmts[0].get("stmt") or {}).get("AlterTableStmt")
    if alter is None:
        return None
    cmds = alter.get("cmds") or ()
    if len(cmds) != 1:
        return None
    node = ((cmds[0].get("AlterTableCmd") or {}).get("def") or {}).get("Constraint")
    if node is None:
        return None
    return {**node, "_sql": body}


def _constraint_node(body: str) -> Any:
    """The pglast ``Constraint`` node of ``body`` (its Python form), or None."""
    ast = pglast_ast()

    stmts = parse_statements(_DUMMY + body)
    if stmts is None or len(stmts) != 1 or not isinstance(stmts[0].stmt, ast.AlterTableStmt):
        return None
    cmds = stmts[0].stmt.cmds or ()
    if len(cmds) != 1 or not isinstance(cmds[0].def_, ast.Constraint):
        return None
    return cmds[0].def_


def _strip_sort_orders(body: str) -> tuple[str, tuple[int, ...]]:
    """Remove ASC/DESC from a PRIMARY KEY / UNIQUE column list: (text, indexes of DESC items)."""
    m = _KEY_LIST.match(body)
    if m is None:
        return body, ()
    open_at = m.end() - 1
    close_at = closing_paren(body, open_at)
    if close_at is None:
        return body, ()
    items = split_commas(body[open_at + 1 : close_at])
    desc: list[int] = []
    out: list[str] = []
    for i, item in enumerate(items):
        sm = _SORTED_ITEM.fullmatch(item)
        if sm is None:
            out.append(item.strip(BLANK))
            continue
        out.append(sm.group(1))
        if sm.group(2).upper() == "DESC":
            desc.append(i)
    return body[: open_at + 1] + ", ".join(out) + body[close_at:], tuple(desc)


def _names(seq: Any) -> tuple[str, ...]:
    return tuple(s.sval for s in seq or ())


_JSON_KINDS = {"CONSTR_PRIMARY": ConstraintKind.PRIMARY_KEY, "CONSTR_UNIQUE": ConstraintKind.UNIQUE,
               "CONSTR_CHECK": ConstraintKind.CHECK, "CONSTR_FOREIGN": ConstraintKind.FOREIGN_KEY,
               "CONSTR_EXCLUSION": ConstraintKind.EXCLUSION}


class _Unread(Exception):
    """A JSON node :func:`_info` does not read itself (its Python form is read instead)."""


def _sval(item: Any) -> str:
    s = item.get("String") if isinstance(item, dict) else None
    if s is None:
        raise _Unread
    return s.get("sval", "")


def _svals(seq: Any) -> tuple[str, ...]:
    if not seq:  # (most lists a constraint may have are absent: no generator made for them)
        return ()
    return tuple(_sval(s) for s in seq)


def _json_option(d: Any, origin: Path) -> WithOption:
    """:func:`_option` of a ``DefElem`` in JSON form (a value only pglast's printer writes: :class:`_Unread`)."""
    d = d.get("DefElem") if isinstance(d, dict) else None
    if d is None:
        raise _Unread
    arg = d.get("arg")
    if arg is None:
        value, kind = None, OptionValueKind.NONE
    elif "String" in arg:
        value, kind = arg["String"].get("sval", ""), OptionValueKind.LITERAL
    elif "Integer" in arg:
        value, kind = str(arg["Integer"].get("ival", 0)), OptionValueKind.BARE
    elif "Float" in arg:
        value, kind = arg["Float"].get("fval", ""), OptionValueKind.BARE
    elif "Boolean" in arg:
        value, kind = "true" if arg["Boolean"].get("boolval", False) else "false", OptionValueKind.BARE
    else:
        raise _Unread
    return WithOption(d.get("defname"), d.get("defnamespace"), value, kind, origin=origin)


def _info(c: dict[str, Any], body: str, origin: Path, descending: tuple[int, ...], disabled: bool,
          informational: bool, optimization: bool) -> ConstraintInfo | None:
    """The :class:`ConstraintInfo` of a ``Constraint`` in JSON form (:func:`_constraint_json`): what
    :func:`_info_node` reads from its Python form. An exclusion constraint, and an option value only
    pglast's printer writes, are read from the Python form (parsed then)."""
    kind = _JSON_KINDS.get(c.get("contype"))
    if kind is None:
        return None
    if kind is not _EXCLUSION:
        try:
            return _json_info(c, kind, body, origin, descending, disabled, informational, optimization)
        except _Unread:
            pass
    node = _constraint_node(c["_sql"])
    if node is None:  # (the same parser: not reached)
        return None
    return _info_node(node, body, origin, descending, disabled, informational, optimization)


def _json_info(c: dict[str, Any], kind: ConstraintKind, body: str, origin: Path, descending: tuple[int, ...],
               disabled: bool, informational: bool, optimization: bool) -> ConstraintInfo | None:
    columns: tuple[str, ...] = ()
    check = references = None
    if kind is _PRIMARY_KEY or kind is _UNIQUE:
        columns = _svals(c.get("keys"))
    elif kind is _FOREIGN_KEY:
        columns = _svals(c.get("fk_attrs"))
        rv = c.get("pktable")
        if rv is None:
            raise _Unread
        references = QualifiedName(rv["relname"], rv.get("schemaname"), origin=origin)
    else:
        check_text = check_expr_text(body)
        if check_text is None:
            return None
        check = make_expr(check_text, origin)
    options = c.get("options")
    # (only the members whose values are not the defaults passed: each keyword a msgspec Struct matches costs)
    kw: dict[str, Any] = {}
    if options:
        kw["index_options"] = tuple([_json_option(d, origin) for d in options])
    if descending:
        kw["descending"] = tuple(columns[i] for i in descending if i < len(columns))
    for member, key in _JSON_NAMES:
        v = c.get(key)
        if v:
            kw[member] = _svals(v)
    for member, key in _JSON_FLAGS:
        if c.get(key):
            kw[member] = True
    for member, key in _JSON_TEXTS:
        v = c.get(key)
        if v:
            kw[member] = v
    v = c.get("fk_matchtype")
    if v is not None:
        kw["match"] = _MATCH.get(v, _SIMPLE)
    v = c.get("fk_del_action")
    if v is not None:
        kw["on_delete"] = _ACTION.get(v, _NO_ACTION)
    v = c.get("fk_upd_action")
    if v is not None:
        kw["on_update"] = _ACTION.get(v, _NO_ACTION)
    return ConstraintInfo(kind, columns=columns, check=check, references=references, disabled=disabled,
                          informational=informational, optimization=optimization, origin=origin, **kw)


_JSON_NAMES = (("include", "including"), ("ref_columns", "pk_attrs"))
_JSON_FLAGS = (("deferrable", "deferrable"), ("initially_deferred", "initdeferred"), ("not_valid", "skip_validation"),
               ("no_inherit", "is_no_inherit"))
_JSON_TEXTS = (("index_tablespace", "indexspace"), ("using_index", "indexname"), ("access_method", "access_method"))


def _info_node(c: Any, body: str, origin: Path, descending: tuple[int, ...], disabled: bool,
          informational: bool, optimization: bool) -> ConstraintInfo | None:
    from pglast.enums.parsenodes import ConstrType
    from pglast.stream import RawStream

    kinds = {ConstrType.CONSTR_PRIMARY: ConstraintKind.PRIMARY_KEY, ConstrType.CONSTR_UNIQUE: ConstraintKind.UNIQUE,
             ConstrType.CONSTR_CHECK: ConstraintKind.CHECK, ConstrType.CONSTR_FOREIGN: ConstraintKind.FOREIGN_KEY,
             ConstrType.CONSTR_EXCLUSION: ConstraintKind.EXCLUSION}
    kind = kinds.get(c.contype)
    if kind is None:
        return None
    columns: tuple[str, ...] = ()
    operators: tuple[str, ...] = ()
    check = where = references = None
    if kind in (ConstraintKind.PRIMARY_KEY, ConstraintKind.UNIQUE):
        columns = _names(c.keys)
    elif kind is ConstraintKind.FOREIGN_KEY:
        columns = _names(c.fk_attrs)
        rv = c.pktable
        references = QualifiedName(rv.relname, rv.schemaname, origin=origin)
    elif kind is ConstraintKind.EXCLUSION:
        elems = []
        ops = []
        for elem, op in c.exclusions or ():
            elems.append(elem.name if elem.name is not None else RawStream()(elem.expr))
            ops.append(".".join(_names(op)))
        columns, operators = tuple(elems), tuple(ops)
        if c.where_clause is not None:
            where = make_expr(RawStream()(c.where_clause), origin)
    else:
        check_text = check_expr_text(body)
        if check_text is None:
            return None
        check = make_expr(check_text, origin)
    return ConstraintInfo(
        kind,
        columns=columns,
        descending=tuple(columns[i] for i in descending if i < len(columns)),
        include=_names(c.including),
        check=check,
        references=references,
        ref_columns=_names(c.pk_attrs),
        match=_MATCH.get(c.fk_matchtype, FkMatch.SIMPLE),
        on_delete=_ACTION.get(c.fk_del_action, FkAction.NO_ACTION),
        on_update=_ACTION.get(c.fk_upd_action, FkAction.NO_ACTION),
        deferrable=bool(c.deferrable),
        initially_deferred=bool(c.initdeferred),
        not_valid=bool(c.skip_validation),
        no_inherit=bool(c.is_no_inherit),
        disabled=disabled,
        index_options=tuple(_option(d, origin) for d in c.options or ()),
        index_tablespace=c.indexspace or None,
        using_index=c.indexname or None,
        access_method=c.access_method or None,
        exclusion_operators=operators,
        where=where,
        informational=informational,
        optimization=optimization,
        origin=origin,
    )


def _option(d: Any, origin: Path) -> WithOption:
    ast = pglast_ast()
    from pglast.stream import RawStream

    arg = d.arg
    if arg is None:
        value, kind = None, OptionValueKind.NONE
    elif isinstance(arg, ast.String):
        value, kind = arg.sval, OptionValueKind.LITERAL
    elif isinstance(arg, ast.Integer):
        value, kind = str(arg.ival), OptionValueKind.BARE
    elif isinstance(arg, ast.Float):
        value, kind = arg.fval, OptionValueKind.BARE
    elif isinstance(arg, ast.Boolean):
        value, kind = "true" if arg.boolval else "false", OptionValueKind.BARE
    else:
        value, kind = RawStream()(arg), OptionValueKind.BARE
    return WithOption(d.defname, d.defnamespace, value, kind, origin=origin)


__all__ = [
    "Definition", "N_CONSTRAINT_UNPARSED", "definition_parts", "kind_of_text", "make_definition", "parse_constraint",
    "read_definition", "split_informational", "table_reading",
]
