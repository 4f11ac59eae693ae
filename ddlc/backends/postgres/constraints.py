"""PostgreSQL constraint definitions rebuilt from their parsed form, and the WITH options of a table and
of a constraint's index.

``table.constraint_sql`` writes a constraint element as the server's text when the frontend's SQL layer
found it to be PostgreSQL syntax as written and no rule changed its parsed form (``verbatim``); otherwise
:func:`rebuild_constraint` writes it from the parsed :class:`ConstraintInfo`. Nothing here parses SQL.
"""

from __future__ import annotations

import re
from typing import Any

from ...ir.table import ConstraintInfo, ConstraintKind, FkAction, FkMatch, OptionValueKind, WithOption
from ..writer import SqlWriter, pg_option_value
from .context import Emit

def option_sql(o: WithOption, e: Emit) -> str:
    w = e.w().name(o.namespace, o.label)  # namespace.label; no namespace: label
    if o.value_kind is OptionValueKind.NONE or o.value is None:
        return w.text()
    w.kw("=")
    return (w.lit(o.value) if o.value_kind is OptionValueKind.LITERAL else w.raw(pg_option_value(o.value))).text()


def options_sql(e: Emit, opts: tuple[WithOption, ...]) -> str:
    return e.w().kw("WITH").paren_list((option_sql(o, e) for o in opts), SqlWriter.raw).text()


def _element(e: Emit, text: str) -> str:
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$]*", text):
        return e.ident(text)
    return e.w().open().raw(text).close().text()  # an expression element, as parsed


def _operator(e: Emit, op: str) -> str:
    return "OPERATOR" + e.w().open().raw(op).close().text() if "." in op else op  # OPERATOR(s.op): no space


_ACTION_SQL = {FkAction.RESTRICT: ("RESTRICT",), FkAction.CASCADE: ("CASCADE",),
               FkAction.SET_NULL: ("SET", "NULL"), FkAction.SET_DEFAULT: ("SET", "DEFAULT")}


def _exclusion_element(e: Emit, w: SqlWriter, item: Any) -> None:
    column, op = item
    w.raw(_element(e, column)).kw("WITH").raw(_operator(e, op))


def rebuild_constraint(info: ConstraintInfo, e: Emit) -> str:
    """The definition written from its parsed form (PostgreSQL syntax)."""
    k = info.kind
    w = e.w()
    if k is ConstraintKind.CHECK:
        w.kw("CHECK").open()
        (w.raw(e.expr(info.check)) if info.check is not None else w.kw("true")).close()
    elif k in (ConstraintKind.PRIMARY_KEY, ConstraintKind.UNIQUE):
        w.kw(*(("PRIMARY", "KEY") if k is ConstraintKind.PRIMARY_KEY else ("UNIQUE",)))
        w.paren_list(info.columns, SqlWriter.ident)
    elif k is ConstraintKind.FOREIGN_KEY:
        w.kw("FOREIGN", "KEY").paren_list(info.columns, SqlWriter.ident)
        w.kw("REFERENCES").raw(e.qname(info.references))
        if info.ref_columns:
            w.paren_list(info.ref_columns, SqlWriter.ident)
        if info.match is not FkMatch.SIMPLE:
            w.kw("MATCH", info.match.value.upper())
        if info.on_update is not FkAction.NO_ACTION:
            w.kw("ON", "UPDATE", *_ACTION_SQL[info.on_update])
        if info.on_delete is not FkAction.NO_ACTION:
            w.kw("ON", "DELETE", *_ACTION_SQL[info.on_delete])
    else:  # EXCLUSION
        w.kw("EXCLUDE")
        if info.access_method:
            w.kw("USING").ident(info.access_method)
        w.paren_list(zip(info.columns, info.exclusion_operators, strict=False),
                     lambda w_, item: _exclusion_element(e, w_, item))
    if info.include:
        w.kw("INCLUDE").paren_list(info.include, SqlWriter.ident)
    if info.index_options:
        w.raw(options_sql(e, info.index_options))
    if info.index_tablespace:
        w.kw("USING", "INDEX", "TABLESPACE").ident(info.index_tablespace)
    if info.where is not None:
        w.kw("WHERE").open().raw(e.expr(info.where)).close()
    if info.deferrable:
        w.kw("DEFERRABLE")
    if info.initially_deferred:
        w.kw("INITIALLY", "DEFERRED")
    if info.not_valid:
        w.kw("NOT", "VALID")
    if info.no_inherit:
        w.kw("NO", "INHERIT")
    return w.text()
