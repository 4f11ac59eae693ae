"""GaussDB emitters: the TDDL-only statements of :mod:`ddlc.ir.misc` (reference §5.18).

Their TDDL text is the source of truth: the GaussDB target prints it as it came, except CREATE TABLE AS /
SELECT INTO. GaussDB's logical decoding turns those into the plain CREATE TABLE of the new table (the rows
are never DDL), so their text, which would copy rows again on the replica, is not passed through
(``GaussDBBackend.source_text_unless``): the rule below makes the statement create the table only
(DDLC-I003) and :func:`create_table_as` writes it from the IR, ``CREATE TABLE ... AS query WITH NO DATA``,
a SELECT INTO as the same CREATE TABLE AS without its INTO clause.
"""

from __future__ import annotations

from typing import Any

from ...diagnostics import I_CTAS_NO_DATA
from ...ir.misc import TEXT_NODES, CreateTableAs, WithOption
from ...ir.rules import Rule
from ...ir.sqltree import copied_with
from ...ir.table import OptionValueKind
from ..writer import pg_deparse
from .drop import word
from .writer import Writer, emits


def _no_data_message(n: CreateTableAs) -> str:
    name = n.identity.name if n.persistence == "TEMPORARY" else n.identity.dotted()
    return (f"{'SELECT INTO' if n.select_into else 'CREATE TABLE AS'} {name} written WITH NO DATA: only the table "
            "is created, its rows are expected as DML")


UNSUPPORTED = (
    Rule(CreateTableAs, I_CTAS_NO_DATA, _no_data_message, applies=lambda n: n.with_data, field="with_data",
         absent=False, comment=False),
)

CTAS_FMT = ("CREATE %{persistence}s TABLE %{if_not_exists}s %{identity}D %{columns}s %{with}s %{tablespace}s "
            "AS %{query}s %{data}s")


@emits(*(c for c in TEXT_NODES if c is not CreateTableAs))
def tddl_text(n: Any, w: Writer) -> dict[str, Any]:
    return {"fmt": "%{text}s", "text": n.text}


def _query(n: CreateTableAs, w: Writer) -> str:
    """The query's text; SELECT INTO's printed from its parse without the INTO clause."""
    if not n.select_into:
        return w.text(n.query)
    tree = n.query.tree if n.query.parsed else None
    if tree is None:  # recovery parsed the whole SELECT INTO, so its query has a tree
        from ...errors import InternalError

        raise InternalError("SELECT INTO without a parsed query", path=n.origin)
    return pg_deparse(copied_with(tree, {"intoClause": None}))  # (the parse itself is left as it was)


# a string through the expander's %L (quoted, or dollar-quoted when it holds a quote or a backslash)
_OPTION_FMT = {OptionValueKind.LITERAL: "%{name}I = %{value}L", OptionValueKind.BARE: "%{name}I = %{value}s"}


def _option(o: WithOption) -> dict[str, Any]:
    name: dict[str, Any] = {"fmt": "%{name}I", "name": o.name} if o.namespace is None else {
        "fmt": "%{namespace}I.%{name}I", "namespace": o.namespace, "name": o.name}  # (toast.autovacuum_enabled)
    if o.value is None or o.value_kind is OptionValueKind.NONE:
        return {"fmt": "%{name}s", "name": name}
    return {"fmt": _OPTION_FMT[o.value_kind].replace("%{name}I", "%{name}s"), "name": name, "value": o.value}


@emits(CreateTableAs)
def create_table_as(n: CreateTableAs, w: Writer) -> dict[str, Any]:
    # a temporary table lives in the session's own schema: it cannot be qualified
    ident = {"objname": n.identity.name} if n.persistence == "TEMPORARY" else w.qname(n.identity)
    options = [_option(o) for o in n.options]
    return {
        "fmt": CTAS_FMT,
        "persistence": n.persistence,
        "if_not_exists": word(n.if_not_exists, "IF NOT EXISTS"),
        "identity": ident,
        "columns": {"fmt": "(%{names:, }I)", "names": list(n.columns), "present": bool(n.columns)},
        "with": {"fmt": "WITH (%{options:, }s)", "options": options, "present": bool(options)},
        "tablespace": {"fmt": "TABLESPACE %{name}I", "name": n.tablespace or "", "present": n.tablespace is not None},
        "query": _query(n, w),
        "data": "" if n.with_data else "WITH NO DATA",
    }
