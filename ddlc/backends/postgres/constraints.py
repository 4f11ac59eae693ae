"""PostgreSQL constraint definitions rebuilt from their parsed form, and the WITH options of a table and
of a constraint's index.

``table.constraint_sql`` writes a constraint element as the server's text when the frontend's SQL layer
found it to be PostgreSQL syntax as written and no rule changed its parsed form (``verbatim``); otherwise
:func:`rebuild_constraint` writes it from the parsed :class:`ConstraintInfo`. Nothing here parses SQL.

Each text is a token list spaced by :func:`~ddlc.backends.writer.joined` (the writer's rule, without a writer
object: issue 26); a parenthesized list of names or options is one token ``(a, b)``, which that rule spaces as it
spaces its parts (no name or option text is empty, is ``,``, starts with ``)`` or ends with ``(``).
"""

from __future__ import annotations

import re

from ...ir.table import ConstraintInfo, ConstraintKind, FkAction, FkMatch, OptionValueKind, WithOption
from ..pg_keywords import FORCED
from ..writer import joined, pg_ident, pg_literal, pg_option_value
from .context import Emit

_LITERAL = OptionValueKind.LITERAL
_NONE = OptionValueKind.NONE


def option_sql(o: WithOption, e: Emit) -> str:
    """``namespace.label = value`` (``label`` alone without a value), quoted by the dialect's functions, in the
    writer's order (the namespace, the label, the value: the first bad one is the error)."""
    label = o.label
    if o.namespace is not None:
        label = pg_ident(o.namespace) + "." + pg_ident(label)
    elif not (label.isascii() and label.islower() and label.isidentifier()) or label in FORCED:
        label = pg_ident(label)  # (pg_ident's first test inline)
    if o.value_kind is _NONE or o.value is None:
        return label
    return label + " = " + (pg_literal(o.value) if o.value_kind is _LITERAL else pg_option_value(o.value))


def options_sql(e: Emit, opts: tuple[WithOption, ...]) -> str:
    return "WITH (" + ", ".join([option_sql(o, e) for o in opts]) + ")"


_PLAIN_ELEMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*")


def _element(e: Emit, text: str) -> str:
    if _PLAIN_ELEMENT.fullmatch(text):
        return e.ident(text)
    return "(" + text + ")"  # an expression element, as parsed (the writer's "(", text, ")")


def _operator(e: Emit, op: str) -> str:
    return "OPERATOR(" + op + ")" if "." in op else op  # OPERATOR(s.op): no space


_ACTION_SQL = {FkAction.RESTRICT: ("RESTRICT",), FkAction.CASCADE: ("CASCADE",),
               FkAction.SET_NULL: ("SET", "NULL"), FkAction.SET_DEFAULT: ("SET", "DEFAULT")}
_CHECK, _PRIMARY_KEY, _UNIQUE, _FOREIGN_KEY = (ConstraintKind.CHECK, ConstraintKind.PRIMARY_KEY, ConstraintKind.UNIQUE,
                                              ConstraintKind.FOREIGN_KEY)
_SIMPLE, _NO_ACTION = FkMatch.SIMPLE, FkAction.NO_ACTION


def _names(names: tuple[str, ...]) -> str:
    """``(a, b)``: the names quoted (the writer's ``paren_list`` of ``ident``)."""
    return "(" + ", ".join([n if n.isascii() and n.islower() and n.isidentifier() and n not in FORCED
                            else pg_ident(n) for n in names]) + ")"


def rebuild_constraint(info: ConstraintInfo, e: Emit) -> str:
    """The definition written from its parsed form (PostgreSQL syntax)."""
    k = info.kind
    if k is _CHECK:
        text = e.expr(info.check) if info.check is not None else "true"
        toks = ["CHECK", "(", text, ")"] if text else ["CHECK", "(", ")"]  # (the writer's raw leaves "" out)
    elif k is _PRIMARY_KEY:
        toks = ["PRIMARY", "KEY", _names(info.columns)]
    elif k is _UNIQUE:
        toks = ["UNIQUE", _names(info.columns)]
    elif k is _FOREIGN_KEY:
        toks = ["FOREIGN", "KEY", _names(info.columns), "REFERENCES"]
        ref = e.qname(info.references)
        if ref:
            toks.append(ref)
        if info.ref_columns:
            toks.append(_names(info.ref_columns))
        if info.match is not _SIMPLE:
            toks += ("MATCH", info.match.value.upper())
        if info.on_update is not _NO_ACTION:
            toks += ("ON", "UPDATE", *_ACTION_SQL[info.on_update])
        if info.on_delete is not _NO_ACTION:
            toks += ("ON", "DELETE", *_ACTION_SQL[info.on_delete])
    else:  # EXCLUSION
        toks = ["EXCLUDE"]
        if info.access_method:
            toks += ("USING", pg_ident(info.access_method))
        items = []
        for column, op in zip(info.columns, info.exclusion_operators, strict=False):
            items += (",", _element(e, column), "WITH")
            op = _operator(e, op)
            if op:  # (the writer's raw leaves "" out)
                items.append(op)
        toks += ("(", *items[1:], ")")
    if info.include:
        toks += ("INCLUDE", _names(info.include))
    if info.index_options:
        toks.append(options_sql(e, info.index_options))
    if info.index_tablespace:
        toks += ("USING", "INDEX", "TABLESPACE", pg_ident(info.index_tablespace))
    if info.where is not None:
        text = e.expr(info.where)
        toks += ("WHERE", "(", text, ")") if text else ("WHERE", "(", ")")
    if info.deferrable:
        toks.append("DEFERRABLE")
    if info.initially_deferred:
        toks += ("INITIALLY", "DEFERRED")
    if info.not_valid:
        toks += ("NOT", "VALID")
    if info.no_inherit:
        toks += ("NO", "INHERIT")
    return joined(toks)
