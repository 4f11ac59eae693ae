"""Spark emitter: CREATE TABLE AS / SELECT INTO as a Delta table with the query's columns and no rows.

``CREATE TABLE [IF NOT EXISTS] name USING DELTA TBLPROPERTIES (...) AS <query> LIMIT 0``. Decisions
(reasons in docs/spark-mapping.md):

* Only the table is created (DDLC-I003, the rule below): GaussDB's logical decoding turns a CTAS or a
  SELECT INTO into the CREATE TABLE of the new table, and the rows the statement inserted are DML of the
  log. The query still gives the table its column names and types, so it is written, with ``LIMIT 0``.
* The query is built as a sqlglot tree from its parse, like a view's (``Emit.query``); a SELECT INTO's
  INTO clause is not part of it. A column list ``t (x, y)`` renames the query's columns: Spark's CTAS
  takes no column list, so the query becomes ``SELECT * FROM (query) AS q(x, y) LIMIT 0``.
* The table gets the TBLPROPERTIES of every table ddlc creates (column mapping). UNLOGGED and
  TEMPORARY are dropped (DDLC-W821), TABLESPACE and storage options other than GaussDB's defaults too
  (DDLC-W820); the defaults are dropped with DDLC-I811, as for CREATE TABLE.
"""

from __future__ import annotations

from typing import Any

from ...diagnostics import I_CTAS_NO_DATA
from ...ir.misc import CreateTableAs, WithOption
from ...ir.rules import Rule
from .context import Emit, emits
from .table import DEFAULT_OPTIONS, I_DEFAULT_OPTIONS, W_PERSISTENCE, W_TABLE_OPTION, properties_sql, table_properties


def _is_default(o: WithOption) -> bool:
    return o.namespace is None and (o.name.lower(), (o.value or "").lower()) in DEFAULT_OPTIONS


def _no_data_message(n: CreateTableAs) -> str:
    what = "SELECT INTO" if n.select_into else "CREATE TABLE AS"
    return f"{what} {n.identity.dotted()} written with LIMIT 0: only the table is created, its rows are expected as DML"


UNSUPPORTED: tuple[Rule, ...] = (
    Rule(CreateTableAs, W_PERSISTENCE, "temporary or unlogged table created as a Delta table",
         applies=lambda n: bool(n.persistence), field="persistence", absent=""),
    Rule(CreateTableAs, W_TABLE_OPTION, "table tablespace dropped", applies=lambda n: n.tablespace is not None,
         field="tablespace"),
    Rule(WithOption, W_TABLE_OPTION, lambda o: f"storage option {o.shown()} dropped (no Delta meaning)", applies=lambda o: not _is_default(o)),
    Rule(CreateTableAs, I_CTAS_NO_DATA, _no_data_message, applies=lambda n: n.with_data, field="with_data",
         absent=False, comment=False),
)


def _shaped(columns: tuple[str, ...], rows: bool) -> Any:
    """The shape of the query written: its columns renamed by ``columns``, its rows cut to none (``LIMIT 0``)
    unless ``rows``."""

    def shape(node: Any) -> Any:
        from sqlglot import exp

        from .exprs import Untranslatable
        from .quoting import needs_quotes

        if columns:
            if any("${" in c for c in columns):
                raise Untranslatable("a column name holds ${, which Spark's variable substitution would change")
            alias = exp.TableAlias(this=exp.Identifier(this="q", quoted=False),
                                   columns=[exp.Identifier(this=c, quoted=needs_quotes(c)) for c in columns])
            outer = exp.Select(expressions=[exp.Star()])
            outer.set("from_", exp.From(this=exp.Subquery(this=node, alias=alias)))
            node = outer
        if not rows:
            node.set("limit", exp.Limit(expression=exp.Literal.number(0)))
        return node

    return shape


@emits(CreateTableAs)
def create_table_as(n: CreateTableAs, e: Emit) -> list[str]:
    defaults = [o.shown() for o in n.options]  # what the rules left: GaussDB's defaults
    if defaults:
        e.diag(I_DEFAULT_OPTIONS, "GaussDB defaults dropped: " + ", ".join(defaults), n.origin)
    what = f"{'SELECT INTO' if n.select_into else 'CREATE TABLE AS'} {n.identity.dotted()}"
    query = e.query(n.query, what, dropped=n.text, into=n.select_into,
                    shape=_shaped(n.columns, n.with_data))
    if query is None:
        return []
    w = e.w().kw("CREATE", "TABLE")
    if n.if_not_exists:
        w.kw("IF", "NOT", "EXISTS")
    w.raw(e.qname(n.identity)).kw("USING", "DELTA")
    props = table_properties(e, False)
    if props:
        w.raw(properties_sql(e, props))
    return [w.kw("AS").raw(query).text()]


__all__ = ["UNSUPPORTED"]
