"""qualify_names: every object gets a schema.

From the tree when it has one, else ``--default-schema`` (default ``public``). Covers the names in
the IR (``QualifiedName``: tables, FK targets, index and trigger tables, OWNED BY, DROP/COMMENT
identities, which the builders parsed from their text) and the object references inside
pre-rendered SQL (relations in view queries and FK definitions, ``nextval('seq')`` literals),
rewritten at the positions the SQL layer found at build time (:meth:`ddlc.ir.names.Expr.renamed_text`,
the tree alike with :meth:`~ddlc.ir.names.Expr.renamed`) only when something is unqualified.

Parse once: nodes are rebuilt with :func:`ddlc.ir.base.replace` / :func:`~ddlc.ir.base.transform`,
which clear the source text a changed name was parsed from (identity texts of DROP/COMMENT/SET
SCHEMA, an index definition, a function's name as written; :func:`ddlc.ir.base.source_text`), so
the GaussDB target renders the new names instead of the old text without re-parsing anything.
"""

from __future__ import annotations

import re
import threading
from typing import Any

from ..diagnostics import Diagnostic, Severity, register
from ..ir.base import replace, transform
from ..ir.partition import BoundValue
from ..ir.routine import FunctionArg
from ._sync import synced
from ..ir.names import Expr, QualifiedName
from ..ir.reach import Reach
from .. import lazyre

N_UNPARSED_REF = register(
    "DDLC-N501", Severity.NOTE, "References inside SQL text not checked",
    "A pre-rendered SQL fragment (query, default, constraint) that may reference objects could not be "
    "parsed by pglast, so unqualified references inside it were not qualified or mapped. The text is "
    "kept as it is.",
)

# Catalog objects the server always qualifies and that are not user objects: never defaulted.
NOT_USER_OBJECTS = frozenset({("IndexKey", "opclass"), ("IndexKey", "collation"), ("ColumnDef", "collation"),
                              ("AlterColumnType", "collation"), ("ModifyColumn", "collation"),
                              ("ChangeColumn", "collation")})

# the classes fn below changes (it returns every other node as given): the walk enters only what can hold them
_REACH = Reach({FunctionArg, BoundValue, QualifiedName, Expr}, NOT_USER_OBJECTS)

_MAY_REFERENCE = lazyre.compile(r"\b(nextval|currval|setval|REFERENCES|SELECT|FROM|JOIN)\b", re.I)


def qualify_names(stmt, ctx):
    fn = _QUALIFY.get(ctx.default_schema)
    if fn is None:
        fn = _qualifier(ctx.default_schema)
    _UNPARSED.found = None  # (a walk that raised may have left some)
    out = transform(stmt, fn, NOT_USER_OBJECTS, _REACH)
    unparsed = _UNPARSED.found
    if unparsed is None:
        return out, []
    _UNPARSED.found = None
    return out, [Diagnostic(N_UNPARSED_REF, "SQL text not parsed; references inside it left as written", e.origin,
                            document=ctx.document, pass_name="qualify_names") for e in unparsed]


def _may_change(cls: type, ctx: Any) -> bool:
    """Whether a statement of class ``cls`` can hold a node ``fn`` changes (else the walk returns it as given)."""
    return _REACH.current().enters(cls)


qualify_names.may_change = _may_change  # type: ignore[attr-defined]


_QUALIFY: dict[str, Any] = {}  # default schema -> the walk's function (made once per schema)
_UNPARSED = threading.local()  # (found) the fragments of the statement walked that did not parse, in walk order


def _qualifier(default: str) -> Any:
    def unqualified(schema: str | None, name: str) -> str | None:
        return default if schema is None else None

    def fn(node):
        t = type(node)
        if t is QualifiedName:
            return node if node.schema is not None else replace(node, schema=default)
        if t is FunctionArg or t is BoundValue:
            return synced(node)  # its parsed Expr (a child) was rewritten already: the text follows
        if t is Expr and _MAY_REFERENCE.search(node.text):
            new = node.renamed_text(unqualified)
            if new is None:
                found = getattr(_UNPARSED, "found", None)
                if found is None:
                    found = _UNPARSED.found = []
                found.append(node)
            elif new is not node.text:
                return node.renamed(new, unqualified)
        return node

    if len(_QUALIFY) > 64:
        _QUALIFY.clear()
    _QUALIFY[default] = fn
    return fn
