"""map_schemas: ``--schema-map src=dst`` renames schemas everywhere.

Qualified names and types in the IR, schema-name fields of schema statements, and names inside
pre-rendered SQL (view queries, defaults, constraint text), rewritten at the positions the SQL layer
found at build time (:meth:`ddlc.ir.names.Expr.renamed_text`; the tree alike with
:meth:`~ddlc.ir.names.Expr.renamed`). Text that mentions a mapped schema but does not parse is left
as written, with a diagnostic.

Parse once: nodes are rebuilt with :func:`ddlc.ir.base.replace` / :func:`~ddlc.ir.base.transform`,
which clear the source text a changed name was parsed from (identity texts of DROP/COMMENT/SET
SCHEMA, an index definition, a function's name as written; :func:`ddlc.ir.base.source_text`), so
the GaussDB target renders the new names instead of the old text without re-parsing anything.
"""

from __future__ import annotations

from ..diagnostics import Diagnostic, Severity, register
from ..ir.base import fields, replace, transform
from ..ir.partition import BoundValue
from ..ir.routine import FunctionArg
from ._sync import synced
from ..ir.names import Expr, QualifiedName, TypeName

W_UNMAPPED_TEXT = register(
    "DDLC-W502", Severity.WARNING, "Schema not mapped inside SQL text",
    "A pre-rendered SQL fragment mentions a schema of --schema-map but could not be parsed, so the "
    "schema inside it was not renamed. Review the statement by hand.",
    "--schema-map src=dst with a view query pglast cannot parse",
)

# Plain ``str`` fields that hold a schema name, by IR class name (classes live in their families).
SCHEMA_FIELDS: dict[str, tuple[str, ...]] = {
    "CreateSchema": ("name",),
    "SchemaName": ("name",),
    "AlterSchemaBlockchain": ("name",),
    "AlterSchemaCharset": ("name",),
    "RenameSchema": ("identity", "new_name", "newname"),
    "SetSchema": ("new_schema",),
    "CreateEvent": ("schema",),
    "AlterEvent": ("schema",),
    "DropEvent": ("schema",),
}


def map_schemas(stmt, ctx):
    mapping = ctx.schema_map
    if not mapping:
        return stmt, []
    diags: list[Diagnostic] = []

    def relation(schema: str | None, name: str) -> str | None:
        return mapping.get(schema) if schema is not None else None

    def fn(node):
        t = type(node)
        if t is FunctionArg or t is BoundValue:
            return synced(node)  # its parsed Expr (a child) was rewritten already: the text follows
        if t is QualifiedName or t is TypeName:
            if node.schema in mapping:
                return replace(node, schema=mapping[node.schema])
            return node
        if t is Expr:
            text = node.text
            if not any(src in text for src in mapping):
                return node
            new = node.renamed_text(relation)
            if new is None:
                diags.append(Diagnostic(W_UNMAPPED_TEXT, "SQL text mentions a mapped schema but does not parse",
                                        node.origin, document=ctx.document, pass_name="map_schemas"))
                return node
            return node if new is text else node.renamed(new, relation)
        fields = SCHEMA_FIELDS.get(t.__name__)
        if fields:
            changes = {f: mapping[getattr(node, f)] for f in fields
                       if f in _field_names(t) and isinstance(getattr(node, f), str) and getattr(node, f) in mapping}
            if changes:
                return replace(node, **changes)
        return node

    return transform(stmt, fn), diags


def _may_change(cls: type, ctx) -> bool:
    return bool(ctx.schema_map)


map_schemas.may_change = _may_change  # type: ignore[attr-defined]


def _field_names(cls: type) -> frozenset[str]:
    return frozenset(fields(cls))
