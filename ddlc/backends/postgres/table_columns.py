"""A column definition as PostgreSQL text (CREATE TABLE, CREATE TYPE ... AS (...), ALTER TABLE ... ADD COLUMN):
``table.column_sql``, kept in a module of its own so that ``table.py`` stays small."""

from __future__ import annotations

from ...diagnostics import Severity, register
from ...ir.columns import ColumnDef, GeneratedKind
from ..pg_keywords import FORCED
from ..writer import joined, pg_ident
from .context import Emit
from .types import _MAPPED, map_type

I_PERSISTED = register(
    "DDLC-I618", Severity.INFO, "PERSISTED generated column written as STORED",
    "The D-compatibility form AS (expr) PERSISTED is PostgreSQL's GENERATED ALWAYS AS (expr) STORED.",
)


def column_sql(c: ColumnDef, e: Emit, identity: str | None = None) -> str:
    """``name type [COLLATE c] [identity] [DEFAULT e] [NOT NULL] [GENERATED ALWAYS AS (e) STORED]``: its tokens
    spaced by the writer's rule (:func:`~ddlc.backends.writer.joined`; the empty ones left out, as the writer's
    ``raw`` does; ``(e)`` is one token: the rule puts no space inside parentheses)."""
    name = c.name  # (pg_ident's first test inline: no call for the common bare name)
    toks = [name if name.isascii() and name.islower() and name.isidentifier() and name not in FORCED
            else pg_ident(name)]
    t = c.type
    if t is not None:
        if type(e) is Emit:  # (Emit.type is map_type: its memo read inline, a type seen without a diagnostic)
            hit = _MAPPED.get((t.name, t.schema, t.typmod, t.array))
            text = hit[0] if hit is not None and hit[1] is None else map_type(t, e)
        else:
            text = e.type(t)
        if text:
            toks.append(text)
    q = c.collation
    if q is not None and not (q.name == "default" and q.schema in (None, "pg_catalog")):  # (is_default_collation)
        toks.append("COLLATE")
        text = e.qname(q)
        if text:
            toks.append(text)
    if identity:
        toks.append(identity)
    if c.default is not None:
        text = e.expr(c.default)
        if _not_b_expr(c.default.tree):
            toks += ("DEFAULT", "(" + text + ")")
        elif text:
            toks += ("DEFAULT", text)
        else:
            toks.append("DEFAULT")
    if c.not_null:
        toks += ("NOT", "NULL")
    if c.generated is not None:
        if c.generated_kind is _PERSISTED:
            e.diag(I_PERSISTED, f"column {c.name}: PERSISTED written as STORED", c.origin)
        toks.append("GENERATED ALWAYS AS (" + e.expr(c.generated) + ") STORED")
    return joined(toks)


_A_EXPR_ONLY = frozenset({"BoolExpr", "NullTest", "BooleanTest", "CollateClause"})


def _not_b_expr(node: object) -> bool:
    """Whether a column DEFAULT's parsed expression is one PostgreSQL reads there only in parentheses (the
    DEFAULT of a column definition is a ``b_expr``: no top-level NOT, AND/OR, IS [NOT] NULL, IN, LIKE,
    BETWEEN, ANY/ALL, COLLATE). The server writes such defaults in parentheses; a forged one without them
    would make the statement fail."""
    name = type(node).__name__
    if name in _A_EXPR_ONLY:
        return True
    if name == "A_Expr":
        return getattr(getattr(node, "kind", None), "name", "") not in ("AEXPR_OP", "AEXPR_DISTINCT",
                                                                          "AEXPR_NOT_DISTINCT", "AEXPR_NULLIF")
    if name == "SubLink":
        return getattr(getattr(node, "subLinkType", None), "name", "") in ("ANY_SUBLINK", "ALL_SUBLINK")
    return False


_PERSISTED = GeneratedKind.PERSISTED  # (read from a module name: an enum class's attribute is a Python call in 3.11)

__all__ = ["I_PERSISTED", "column_sql"]
