"""What a Spark emitter may use: writers, names, types, expressions, options, diagnostics, the history."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...diagnostics import Severity, register
from ...errors import Path
from ...ir.names import Expr, QualifiedName, TypeName
from ..base import Dialect, EmitBase, OptionKind, TargetOption, emits, line_comment, settings_of
from .exprs import I_EXPR, W_EXPR, ToSpark, Untranslatable, deterministic, generate, random_free, tree_of
from .quoting import needs_quotes, spark_ident, spark_literal
from .types import SparkType, spark_type
from ... import lazyre

W_NAME = register(
    "DDLC-W803", Severity.WARNING, "Name Spark's catalogs refuse",
    "Spark's session catalog (the Hive metastore) accepts table, view and schema names made of ASCII "
    "letters, digits and _ only, and Unity Catalog refuses names holding a space, '.', '/' or a control "
    "character. The name is written as it is (quoted), so the statement fails on such a catalog; create "
    "the object under another name (--schema-map renames schemas). Column names are not concerned: with "
    "column mapping Delta accepts any column name.",
    "CREATE TABLE public.`Order Items` (...)",
)
_CATALOG_NAME = lazyre.compile(r"[A-Za-z0-9_]+\Z")
# What a comment shows for an expression not translated: what makes ``diag``'s dropped_* keywords (called only
# then), a text, or None (the expression's own text)
Dropped = Callable[[], dict[str, Any]] | str | None

TARGET = "spark"
DIALECT = Dialect("spark", spark_ident, spark_literal, line_comment)
# The target's own options (SparkBackend.options): library keywords spark_<name>, flags --spark-<name>;
# the emitters read them typed from EmitContext.settings (Emit below).
OPTIONS = (
    TargetOption("catalog", OptionKind.NAME, None, metavar="NAME",
                 help="The catalog of every table, view and schema (three-part names, e.g. main)."),
    TargetOption("partitioning", OptionKind.CHOICE, "auto", ("auto", "cluster", "partition", "none"),
                 help="auto writes LIST partitioning as PARTITIONED BY and RANGE/HASH/INTERVAL as CLUSTER BY "
                      "(liquid clustering); cluster and partition force one form; none writes neither."),
    TargetOption("column_mapping", OptionKind.CHOICE, "name", ("name", "id", "none"),
                 help="'delta.columnMapping.mode' of new tables (name makes later RENAME/DROP COLUMN legal)."),
    TargetOption("varchar", OptionKind.CHOICE, "keep", ("keep", "string"),
                 help="Keep VARCHAR(n)/CHAR(n), or write them as STRING."),
    TargetOption("constraints", OptionKind.CHOICE, "informational", ("informational", "drop"),
                 help="PRIMARY KEY/UNIQUE/FOREIGN KEY as informational constraints (Databricks Unity Catalog "
                      "keeps them; open-source Delta refuses them), or drop them (DDLC-I815)."),
)


class Emit(EmitBase):
    """The Spark emit context of one statement (see :class:`~ddlc.backends.base.EmitBase`), with the
    target's options (``--spark-*``, declared on :class:`SparkBackend`) from ``EmitContext.settings``."""

    __slots__ = ("spark_catalog", "partitioning", "column_mapping", "varchar_as_string")
    TARGET = TARGET
    DIALECT = DIALECT

    def __init__(self, ctx: Any, catalog: Any = None, emitters: Any = None) -> None:
        super().__init__(ctx, catalog, emitters)
        st = ctx.settings  # SparkBackend's settings (its declared options), made by the orchestration
        if st is None:  # an EmitContext made by hand (tests): from its options, else the declared defaults
            st = settings_of(TARGET, OPTIONS, ctx.options)
        self.spark_catalog: str | None = st.catalog
        self.partitioning: str = st.partitioning
        self.column_mapping: str = st.column_mapping
        self.varchar_as_string: bool = st.varchar == "string"

    # names -------------------------------------------------------------------------------
    @staticmethod
    def ident(name: str) -> str:
        return spark_ident(name)

    def check_name(self, name: str | None, what: str, path: Path) -> None:
        """DDLC-W803 when a catalog object's name is one Spark's catalogs refuse."""
        if name is not None and _CATALOG_NAME.match(name) is None:
            self.diag(W_NAME, f"{what} name {name!r} is refused by Spark's session catalog "
                      "(letters, digits and _ only)", path)

    def qname(self, q: QualifiedName) -> str:
        """``[catalog.]schema.name``: the catalog of ``--spark-catalog`` before every qualified name."""
        parts = [q.schema, q.name] if q.attr is None else [q.schema, q.name, q.attr]
        if self.spark_catalog and q.schema is not None:
            parts.insert(0, self.spark_catalog)
        text = ".".join(spark_ident(p) for p in parts if p is not None)  # first: a name it refuses (W804) wins
        self.check_name(q.schema, "schema", q.origin)
        self.check_name(q.name, "table or view", q.origin)
        return text

    def schema_name(self, name: str, path: Path = ()) -> str:
        text = ".".join(spark_ident(p) for p in (self.spark_catalog, name) if p)
        self.check_name(name, "schema", path)
        return text

    @staticmethod
    def literal(s: str) -> str:
        return spark_literal(s)

    def type(self, t: TypeName) -> SparkType:
        return spark_type(t, self)

    # expressions -------------------------------------------------------------------------
    def _converter(self) -> ToSpark:
        from sqlglot import exp

        def ident(name: str) -> Any:
            if "${" in name:  # Spark would substitute it as a variable
                raise Untranslatable(f"the name {name!r} holds ${{, which Spark's variable substitution would change")
            return exp.Identifier(this=name, quoted=needs_quotes(name))

        def table(schema: str | None, name: str) -> Any:
            kw: dict[str, Any] = {}
            if schema is not None:
                kw["db"] = ident(schema)
                if self.spark_catalog:
                    kw["catalog"] = ident(self.spark_catalog)
            return exp.Table(this=ident(name), **kw)

        return ToSpark(ident, table, lambda t: self.type(t).node())

    def expr(self, x: Expr, what: str, *, deterministic_only: bool = False, dropped: Dropped = None) -> str | None:
        """Spark SQL for an expression (a default, a CHECK body, a generation expression), or None
        after a DDLC-W810 diagnostic when it has no exact Spark form. ``dropped``: what a comment shows then,
        a function giving ``diag``'s ``dropped_*`` keywords (the node holding the expression, before and
        after), a text, or None (the expression's own text)."""
        return self._translate(x, what, query=False, deterministic_only=deterministic_only, dropped=dropped)

    def query(self, x: Expr, what: str, dropped: Dropped = None, *, into: bool = False,
              shape: Callable[[Any], Any] | None = None) -> str | None:
        """Spark SQL for a query (a view's, a CREATE TABLE AS's), or None after a DDLC-W810 diagnostic.
        ``into``: a SELECT INTO (its INTO clause is not part of the query); ``shape`` takes the query's sqlglot
        tree and returns the tree to write (e.g. the query with no rows)."""
        return self._translate(x, what, query=True, dropped=dropped, into=into, shape=shape)

    def _translate(self, x: Expr, what: str, *, query: bool, deterministic_only: bool = False,
                   dropped: Dropped = None, into: bool = False,
                   shape: Callable[[Any], Any] | None = None) -> str | None:
        conv = self._converter()
        conv.quoted_sysdate = '"sysdate"' in x.text.lower()
        try:
            tree = tree_of(x)
            node = conv.query(tree, into=into) if query else conv.expr(tree)
            if shape is not None:
                node = shape(node)
            if deterministic_only and not deterministic(node):
                raise Untranslatable("the expression is not deterministic")
            if not query and not random_free(node):
                raise Untranslatable("a random value: Spark takes none in a default, a CHECK constraint or a "
                                     "generated column")
            text = generate(node)
        except Untranslatable as why:
            shown = dropped() if callable(dropped) else {"dropped_text": x.text if dropped is None else dropped}
            self.diag(W_EXPR, f"{what}: {why}; not translated", x.origin, **shown)
            return None
        if conv.rewritten:
            self.diag(I_EXPR, f"{what}: rewritten " + ", ".join(sorted(set(conv.rewritten))), x.origin)
        return text


__all__ = ["DIALECT", "TARGET", "Emit", "emits"]
