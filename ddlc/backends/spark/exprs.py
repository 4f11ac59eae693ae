"""Expressions and queries for Spark: from the parsed form, through sqlglot, never from text.

The frontend's SQL layer parsed every fragment once, at build time (``Expr.tree``, a pglast node).
:class:`ToSpark` walks that tree and builds the equivalent sqlglot tree (node by node: nothing is
parsed, by pglast or by sqlglot), rewriting GaussDB-only functions on the way; sqlglot's Spark
generator then writes it, with ``unsupported_level=RAISE``. What has no exact Spark form (an unknown
function, PostgreSQL integer division, a window, a collation, ...) raises :class:`Untranslatable`:
the caller reports it (DDLC-W810) and leaves the clause out, never a guess.

Functions: a call is written only when :mod:`.functions` (the Spark function table) has a form for it,
exact on Spark (each evaluated on a real Spark session by tests/test_spark_functions.py); a name alone is
never trusted (GaussDB's ``log`` is base 10, Spark's natural...). Any other call is untranslatable.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...diagnostics import Severity, register
from ...errors import InternalError
from ...ir.names import Expr, TypeName
from ... import lazyre

W_EXPR = register(
    "DDLC-W810", Severity.WARNING, "Expression with no exact Spark form: clause not translated",
    "A default, CHECK body, generated column or view query uses something Spark SQL has no exact form "
    "for (a GaussDB function without an exact Spark form in ddlc's table, docs/functions.md; integer "
    "division of operands whose types are unknown, a window, a collation, a sequence...). The clause (or the "
    "view) is left out rather than guessed; with --on-unsupported comment its GaussDB text is kept as a comment.",
    "DEFAULT sys_guid()",
)
I_EXPR = register(
    "DDLC-I810", Severity.INFO, "GaussDB function rewritten for Spark",
    "A GaussDB function was rewritten to its exact Spark form (the same value and type): pg_systimestamp() -> "
    "current_timestamp(), sysdate -> the statement's local time rounded to the second, nvl(a, b) -> "
    "COALESCE(a, b), decode(...) -> CASE ..., lengthb(s) -> octet_length(s) (docs/functions.md lists them all).",
)

NONDETERMINISTIC = ("Rand", "Uuid", "CurrentTimestamp", "CurrentDate", "Localtimestamp", "CurrentUser",
                    "CurrentTime", "Localtime", "Random")
NONDETERMINISTIC_NAMES = frozenset({"localtimestamp"})
# what Spark itself calls non-deterministic: refused in a DEFAULT (INVALID_DEFAULT_VALUE.NON_DETERMINISTIC),
# a CHECK constraint and a generated column; only a query may use it
RANDOM = ("Rand", "Uuid", "Random")


class Untranslatable(Exception):
    """Raised inside the walk: the fragment has no exact Spark form (the message says why)."""


def tree_of(e: Expr) -> Any:
    """The parsed form the frontend stored; an Expr without one reaching an emitter is a bug."""
    if not e.parsed:
        raise InternalError(f"SQL fragment {e.text[:40]!r} reached the emitter unparsed", path=e.origin)
    if e.tree is None:
        raise Untranslatable("the fragment is not PostgreSQL syntax (GaussDB-only)")
    return e.tree


class ToSpark:
    """pglast tree -> sqlglot tree, for one fragment. ``ident`` makes an identifier node; ``table``
    a table node from (schema, name); ``cast_type`` a Spark type node from an IR :class:`TypeName`."""

    def __init__(self, ident: Callable[[str], Any], table: Callable[[str | None, str], Any],
                 cast_type: Callable[[TypeName], Any]) -> None:
        from pglast import ast
        from sqlglot import exp

        self.ast, self.exp = ast, exp
        self.ident, self.table, self.cast_type = ident, table, cast_type
        self.rewritten: list[str] = []
        # the fragment writes "sysdate" quoted: a column of that name, never the keyword (set by the caller)
        self.quoted_sysdate = False

    # -- entry points ---------------------------------------------------------------------------
    def expr(self, node: Any) -> Any:
        fn = getattr(self, "_" + type(node).__name__, None)
        if fn is None:
            raise Untranslatable(f"{type(node).__name__} has no Spark form here")
        return fn(node)

    def query(self, node: Any, *, into: bool = False) -> Any:
        """A query; ``into``: a SELECT INTO, whose (top-level) INTO clause the caller has read."""
        if not isinstance(node, self.ast.SelectStmt):
            raise Untranslatable(f"{type(node).__name__} is not a query")
        return self._SelectStmt(node, into)

    # -- leaves ---------------------------------------------------------------------------------
    def _A_Const(self, n: Any) -> Any:  # noqa: N802
        exp, ast = self.exp, self.ast
        if n.isnull:
            return exp.Null()
        v = n.val
        if isinstance(v, ast.Integer):
            return exp.Literal.number(str(v.ival))
        if isinstance(v, ast.Float):
            return exp.Literal.number(v.fval)
        if isinstance(v, ast.String):
            if "${" in v.sval:  # Spark would substitute it as a variable
                raise Untranslatable("a string holding ${, which Spark's variable substitution would change")
            return exp.Literal.string(v.sval)
        if isinstance(v, ast.Boolean):
            return exp.Boolean(this=bool(v.boolval))
        raise Untranslatable(f"constant {type(v).__name__}")

    def _ColumnRef(self, n: Any) -> Any:  # noqa: N802
        exp, ast = self.exp, self.ast
        parts = list(n.fields)
        if (len(parts) == 1 and isinstance(parts[0], ast.String) and parts[0].sval.lower() == "sysdate"
                and not self.quoted_sysdate):
            return self._call("sysdate", [], n)
        if len(parts) == 1 and isinstance(parts[0], ast.String) and parts[0].sval.lower() == "rownum":
            raise Untranslatable("ROWNUM (GaussDB-only)")
        last = parts.pop()
        this = exp.Star() if isinstance(last, ast.A_Star) else self.ident(last.sval)
        names = [p.sval for p in parts]
        if len(names) > 3:
            raise Untranslatable("a column name with more than four parts")
        kw = dict(zip(("table", "db", "catalog"), (self.ident(x) for x in reversed(names)), strict=False))
        return exp.Column(this=this, **kw)

    def _TypeCast(self, n: Any) -> Any:  # noqa: N802
        exp, ast = self.exp, self.ast
        t = self._type_name(n.typeName)
        arg = n.arg
        if isinstance(arg, ast.A_Const) and not arg.isnull and not t.array and not t.typmod:
            # a literal cast to its own kind of type is the literal (exact, and no DECIMAL(38,18) cast)
            name = t.name
            if isinstance(arg.val, ast.String) and name in ("text", "varchar", "bpchar", "varchar2", "nvarchar2"):
                return self.expr(arg)
            if isinstance(arg.val, ast.Integer | ast.Float) and name in ("numeric", "int4", "int8", "float8"):
                return self.expr(arg)
        if t.schema in (None, "pg_catalog") and t.name in ("regclass", "regproc", "regtype", "oid"):
            raise Untranslatable(f"cast to {t.name}")
        return exp.Cast(this=self._operand(self.expr(arg)), to=self.cast_type(t))

    def _type_name(self, tn: Any) -> TypeName:
        names = [s.sval for s in tn.names]
        mods = []
        for m in tn.typmods or ():
            if not (isinstance(m, self.ast.A_Const) and isinstance(m.val, self.ast.Integer)):
                raise Untranslatable("a type modifier that is not a number")
            mods.append(str(m.val.ival))
        typmod = "(" + ",".join(mods) + ")" if mods else ""
        schema = names[0] if len(names) == 2 else None
        return TypeName(names[-1], schema, typmod, bool(tn.arrayBounds))

    def _SQLValueFunction(self, n: Any) -> Any:  # noqa: N802
        exp = self.exp
        op = n.op.name if hasattr(n.op, "name") else str(n.op)
        if op in ("SVFOP_CURRENT_DATE",):
            return exp.CurrentDate()
        p = getattr(n, "typmod", -1)
        if op in ("SVFOP_CURRENT_TIMESTAMP_N", "SVFOP_LOCALTIMESTAMP_N") and 0 <= p < 6:
            # Spark keeps microseconds: the value rounded to p digits, as GaussDB rounds it
            from .functions import cast, rounded_clock

            word = "CURRENT_TIMESTAMP" if op.startswith("SVFOP_CURRENT") else "LOCALTIMESTAMP"
            self.rewritten.append(f"{word}({p})")
            return rounded_clock(p) if word == "CURRENT_TIMESTAMP" else cast(rounded_clock(p), "TIMESTAMPNTZ")
        if op.startswith("SVFOP_CURRENT_TIMESTAMP"):
            return exp.CurrentTimestamp()
        if op.startswith("SVFOP_LOCALTIMESTAMP"):
            return exp.Anonymous(this="localtimestamp", expressions=[])  # Spark's localtimestamp()
        if op in ("SVFOP_CURRENT_USER", "SVFOP_USER", "SVFOP_SESSION_USER", "SVFOP_CURRENT_ROLE"):
            return exp.CurrentUser()
        raise Untranslatable(f"{op.removeprefix('SVFOP_')} has no Spark form")

    # -- operators ------------------------------------------------------------------------------
    _BINARY = {"=": "EQ", "<>": "NEQ", "!=": "NEQ", "<": "LT", "<=": "LTE", ">": "GT", ">=": "GTE", "+": "Add",
               "-": "Sub", "*": "Mul", "%": "Mod", "||": "DPipe"}

    def _operand(self, node: Any) -> Any:
        exp = self.exp
        if isinstance(node, exp.Binary | exp.Not | exp.Neg | exp.Is | exp.In | exp.Between | exp.Connector):
            return exp.Paren(this=node)
        return node

    def _A_Expr(self, n: Any) -> Any:  # noqa: N802
        exp = self.exp
        kind = n.kind.name if hasattr(n.kind, "name") else str(n.kind)
        names = [s.sval for s in n.name]
        if len(names) == 2 and names[0] == "pg_catalog":  # OPERATOR(pg_catalog.<)
            names = names[1:]
        if len(names) != 1:
            raise Untranslatable("an operator of a user schema")
        op = names[0]
        left = self._operand(self.expr(n.lexpr)) if n.lexpr is not None else None
        if kind == "AEXPR_OP":
            right = self._operand(self.expr(n.rexpr))
            if left is None:
                if op == "-":
                    return exp.Neg(this=right)
                if op == "+":
                    return right
                raise Untranslatable(f"prefix operator {op}")
            if op in self._BINARY:
                return getattr(exp, self._BINARY[op])(this=left, expression=right)
            if op == "/":
                if self._non_integer(n.lexpr) or self._non_integer(n.rexpr):
                    return exp.Div(this=left, expression=right)
                raise Untranslatable("division: PostgreSQL divides integers as integers, Spark does not")
            if op in ("~~", "!~~", "~~*", "!~~*"):
                cls = exp.ILike if "*" in op else exp.Like
                node = cls(this=left, expression=right)
                return exp.Not(this=node) if op.startswith("!") else node
            raise Untranslatable(f"operator {op}")
        if kind in ("AEXPR_IN", "AEXPR_OP_ANY", "AEXPR_OP_ALL"):
            items = self._list(n.rexpr)
            if (kind, op) in (("AEXPR_IN", "="), ("AEXPR_OP_ANY", "=")):
                return exp.In(this=left, expressions=items)
            if (kind, op) in (("AEXPR_IN", "<>"), ("AEXPR_OP_ALL", "<>")):
                return exp.Not(this=exp.In(this=left, expressions=items))
            raise Untranslatable(f"{op} {kind.removeprefix('AEXPR_OP_')}")
        if kind in ("AEXPR_BETWEEN", "AEXPR_NOT_BETWEEN"):
            low, high = (self._operand(self.expr(x)) for x in n.rexpr)
            node = exp.Between(this=left, low=low, high=high)
            return exp.Not(this=node) if kind == "AEXPR_NOT_BETWEEN" else node
        if kind in ("AEXPR_LIKE", "AEXPR_ILIKE"):
            cls = exp.ILike if kind == "AEXPR_ILIKE" else exp.Like
            node = cls(this=left, expression=self._operand(self.expr(n.rexpr)))
            return exp.Not(this=node) if op.startswith("!") else node
        if kind == "AEXPR_DISTINCT":
            return exp.Not(this=exp.NullSafeEQ(this=left, expression=self._operand(self.expr(n.rexpr))))
        if kind == "AEXPR_NOT_DISTINCT":
            return exp.NullSafeEQ(this=left, expression=self._operand(self.expr(n.rexpr)))
        if kind == "AEXPR_NULLIF":
            return exp.Nullif(this=left, expression=self.expr(n.rexpr))
        raise Untranslatable(kind.removeprefix("AEXPR_"))

    def _non_integer(self, node: Any) -> bool:
        """Whether an operand is known not to be an integer (a decimal literal or a non-integer cast)."""
        ast = self.ast
        if isinstance(node, ast.A_Const):
            return isinstance(node.val, ast.Float)
        if isinstance(node, ast.TypeCast):
            name = node.typeName.names[-1].sval
            return name in ("numeric", "float4", "float8", "decimal")
        return False

    def _list(self, node: Any) -> list[Any]:
        if isinstance(node, self.ast.A_ArrayExpr):
            node = node.elements or ()
        if not isinstance(node, list | tuple):
            raise Untranslatable("IN / ANY over something that is not a list")
        return [self.expr(x) for x in node]

    def _BoolExpr(self, n: Any) -> Any:  # noqa: N802
        exp = self.exp
        op = n.boolop.name if hasattr(n.boolop, "name") else str(n.boolop)
        args = [self._operand(self.expr(a)) for a in n.args]
        if op == "NOT_EXPR":
            return exp.Not(this=args[0])
        cls = exp.And if op == "AND_EXPR" else exp.Or
        node = args[0]
        for a in args[1:]:
            node = cls(this=node, expression=a)
        return node

    def _NullTest(self, n: Any) -> Any:  # noqa: N802
        exp = self.exp
        node = exp.Is(this=self._operand(self.expr(n.arg)), expression=exp.Null())
        t = n.nulltesttype.name if hasattr(n.nulltesttype, "name") else str(n.nulltesttype)
        return exp.Not(this=node) if t == "IS_NOT_NULL" else node

    def _BooleanTest(self, n: Any) -> Any:  # noqa: N802
        exp = self.exp
        t = n.booltesttype.name if hasattr(n.booltesttype, "name") else str(n.booltesttype)
        value = {"TRUE": exp.Boolean(this=True), "FALSE": exp.Boolean(this=False), "UNKNOWN": exp.Null()}
        node = exp.Is(this=self._operand(self.expr(n.arg)), expression=value[t.split("_")[-1]])
        return exp.Not(this=node) if "_NOT_" in t else node

    # -- functions and conditionals -------------------------------------------------------------
    def _FuncCall(self, n: Any) -> Any:  # noqa: N802
        exp = self.exp
        names = [s.sval for s in n.funcname]
        if len(names) == 2 and names[0] == "pg_catalog":
            names = names[1:]
        if len(names) != 1:
            raise Untranslatable(f"function {'.'.join(names)} of a user schema")
        name = names[0].lower()
        if n.over is not None or n.agg_filter is not None or n.agg_order or n.func_variadic:
            raise Untranslatable(f"{name}(): a window, FILTER, ordered or VARIADIC call")
        if n.agg_star:
            if name != "count":
                raise Untranslatable(f"{name}(*)")
            return exp.Count(this=exp.Star())
        args = [self.expr(a) for a in n.args or ()]
        if n.agg_distinct:
            if name != "count" or len(args) != 1:
                raise Untranslatable(f"{name}(DISTINCT ...)")
            return exp.Count(this=exp.Distinct(expressions=args))
        return self._call(name, args, n)

    def _call(self, name: str, args: list[Any], node: Any) -> Any:
        """The Spark form of a call (:mod:`.functions`), or Untranslatable."""
        from .functions import form_for, why_none

        form = form_for(name, args, node)
        if form is None:
            raise Untranslatable(why_none(name, len(args)))
        if form.rewrite:
            self.rewritten.append(form.gauss.split("(")[0])
        return form.build(args, node)

    def _CoalesceExpr(self, n: Any) -> Any:  # noqa: N802
        args = [self.expr(a) for a in n.args]
        return self.exp.Coalesce(this=args[0], expressions=args[1:])

    def _MinMaxExpr(self, n: Any) -> Any:  # noqa: N802
        args = [self.expr(a) for a in n.args]
        op = n.op.name if hasattr(n.op, "name") else str(n.op)
        cls = self.exp.Greatest if op == "IS_GREATEST" else self.exp.Least
        return cls(this=args[0], expressions=args[1:])

    def _CaseExpr(self, n: Any) -> Any:  # noqa: N802
        exp = self.exp
        ifs = [exp.If(this=self.expr(w.expr), true=self.expr(w.result)) for w in n.args]
        return exp.Case(this=self.expr(n.arg) if n.arg is not None else None, ifs=ifs,
                        default=self.expr(n.defresult) if n.defresult is not None else None)

    def _A_ArrayExpr(self, n: Any) -> Any:  # noqa: N802
        return self.exp.Array(expressions=[self.expr(x) for x in n.elements or ()])

    def _SubLink(self, n: Any) -> Any:  # noqa: N802
        exp = self.exp
        t = n.subLinkType.name if hasattr(n.subLinkType, "name") else str(n.subLinkType)
        q = self.query(n.subselect)
        if t == "EXISTS_SUBLINK":
            return exp.Exists(this=q)
        if t == "EXPR_SUBLINK":
            return exp.Subquery(this=q)
        if t == "ANY_SUBLINK" and not n.operName:
            return exp.In(this=self._operand(self.expr(n.testexpr)), query=exp.Subquery(this=q))
        raise Untranslatable(f"subquery {t.removesuffix('_SUBLINK')}")

    # -- queries --------------------------------------------------------------------------------
    def _SelectStmt(self, n: Any, into: bool = False) -> Any:  # noqa: N802
        exp = self.exp
        op = n.op.name if hasattr(n.op, "name") else str(n.op)
        if (n.intoClause is not None and not into) or n.lockingClause or n.windowClause or n.valuesLists:
            raise Untranslatable("SELECT INTO, FOR UPDATE, WINDOW or VALUES")
        if op != "SETOP_NONE":
            cls = {"SETOP_UNION": exp.Union, "SETOP_INTERSECT": exp.Intersect, "SETOP_EXCEPT": exp.Except}[op]
            node = cls(this=self._SelectStmt(n.larg), expression=self._SelectStmt(n.rarg), distinct=not n.all)
        else:
            node = exp.Select(expressions=[self._target(t) for t in n.targetList or ()])
            if n.distinctClause:
                if any(d is not None for d in n.distinctClause):
                    raise Untranslatable("DISTINCT ON")
                node.set("distinct", exp.Distinct())
            if n.fromClause:
                base, joins = self._from(n.fromClause[0])
                for f in n.fromClause[1:]:  # comma joins
                    b, js = self._from(f)
                    joins += [exp.Join(this=b), *js]
                node.set("from_", exp.From(this=base))
                if joins:
                    node.set("joins", joins)
            if n.whereClause is not None:
                node.set("where", exp.Where(this=self.expr(n.whereClause)))
            if n.groupClause:
                node.set("group", exp.Group(expressions=[self.expr(g) for g in n.groupClause]))
            if n.havingClause is not None:
                node.set("having", exp.Having(this=self.expr(n.havingClause)))
        if n.sortClause:
            node.set("order", exp.Order(expressions=[self._sort(s) for s in n.sortClause]))
        if n.limitCount is not None:
            node.set("limit", exp.Limit(expression=self.expr(n.limitCount)))
        if n.limitOffset is not None:
            node.set("offset", exp.Offset(expression=self.expr(n.limitOffset)))
        if n.withClause is not None:
            w = n.withClause
            ctes = [exp.CTE(this=self.query(c.ctequery),
                            alias=exp.TableAlias(this=self.ident(c.ctename),
                                                 columns=[self.ident(x.sval) for x in c.aliascolnames or ()] or None))
                    for c in w.ctes]
            node.set("with_", exp.With(expressions=ctes, recursive=bool(w.recursive)))
        return node

    def _target(self, t: Any) -> Any:
        val = self.expr(t.val)
        name = t.name or _implicit_name(t.val)  # Spark names an expression by its text; GaussDB as below
        return self.exp.Alias(this=val, alias=self.ident(name)) if name else val

    def _sort(self, s: Any) -> Any:
        d = s.sortby_dir.name if hasattr(s.sortby_dir, "name") else str(s.sortby_dir)
        nulls = s.sortby_nulls.name if hasattr(s.sortby_nulls, "name") else str(s.sortby_nulls)
        if d == "SORTBY_USING":
            raise Untranslatable("ORDER BY ... USING")
        desc = d == "SORTBY_DESC"
        # PostgreSQL puts NULLs last ascending and first descending; Spark the other way round
        first = {"SORTBY_NULLS_FIRST": True, "SORTBY_NULLS_LAST": False}.get(nulls, desc)
        return self.exp.Ordered(this=self.expr(s.node), desc=desc, nulls_first=first)

    def _alias(self, a: Any) -> Any:
        if a is None:
            return None
        cols = [self.ident(c.sval) for c in a.colnames or ()]
        return self.exp.TableAlias(this=self.ident(a.aliasname), columns=cols or None)

    def _from(self, f: Any) -> tuple[Any, list[Any]]:
        """A FROM item: its first table or subquery, and the joins that follow it (left-deep)."""
        exp, ast = self.exp, self.ast
        if isinstance(f, ast.RangeVar):
            a = f.alias
            if a is not None and a.aliasname.lower() in ("partition", "subpartition") and a.colnames:
                # ``t PARTITION (p)`` (GaussDB) parses as the alias "partition" with a column list
                raise Untranslatable(f"{a.aliasname.upper()} (...) table reference (GaussDB-only)")
            node = self.table(f.schemaname, f.relname)
            if f.alias is not None:
                node.set("alias", self._alias(f.alias))
            return node, []
        if isinstance(f, ast.RangeSubselect):
            if f.lateral:
                raise Untranslatable("LATERAL")
            return exp.Subquery(this=self.query(f.subquery), alias=self._alias(f.alias)), []
        if isinstance(f, ast.JoinExpr):
            if f.isNatural or f.alias is not None:
                raise Untranslatable("NATURAL JOIN or an aliased join")
            jt = f.jointype.name if hasattr(f.jointype, "name") else str(f.jointype)
            base, joins = self._from(f.larg)
            right, nested = self._from(f.rarg)
            if nested:
                raise Untranslatable("a join nested on the right of a join")
            side = {"JOIN_LEFT": "LEFT", "JOIN_RIGHT": "RIGHT", "JOIN_FULL": "FULL"}.get(jt)
            if side is None and jt != "JOIN_INNER":
                raise Untranslatable(jt)
            kw: dict[str, Any] = {"side": side} if side else {}
            if f.usingClause:
                kw["using"] = [self.ident(u.sval) for u in f.usingClause]
            elif f.quals is not None:
                kw["on"] = self.expr(f.quals)
            elif side is None:
                kw["kind"] = "CROSS"
            return base, [*joins, exp.Join(this=right, **kw)]
        raise Untranslatable(f"{type(f).__name__} in FROM")


_DIALECT: Any = None


_SVF_NAMES = {"SVFOP_CURRENT_DATE": "current_date", "SVFOP_CURRENT_TIME": "current_time",
              "SVFOP_CURRENT_TIME_N": "current_time", "SVFOP_CURRENT_TIMESTAMP": "current_timestamp",
              "SVFOP_CURRENT_TIMESTAMP_N": "current_timestamp", "SVFOP_LOCALTIME": "localtime",
              "SVFOP_LOCALTIME_N": "localtime", "SVFOP_LOCALTIMESTAMP": "localtimestamp",
              "SVFOP_LOCALTIMESTAMP_N": "localtimestamp", "SVFOP_CURRENT_ROLE": "current_role",
              "SVFOP_CURRENT_USER": "current_user", "SVFOP_USER": "user", "SVFOP_SESSION_USER": "session_user",
              "SVFOP_CURRENT_CATALOG": "current_catalog", "SVFOP_CURRENT_SCHEMA": "current_schema"}


def _implicit_name(node: Any) -> str | None:
    """The name PostgreSQL's ``FigureColname`` gives a query's output column written without ``AS`` (GaussDB's
    is the same function; its grammar turns the SQL clock and user keywords into calls, whose names may
    differ there), when it is not the column Spark would name alike: ``?column?`` for an operator, ``count`` for a
    call, the type for a cast of a constant, ``case``, ``coalesce``... Spark names such a column by the
    expression's text (and refuses it in a permanent view), so the query says it. None for a column
    reference (named after the column by both) and for ``*``."""
    if type(node).__name__ == "ColumnRef":
        return None
    name, strength = _figure(node)
    return name if strength else "?column?"


def _figure(node: Any) -> tuple[str | None, int]:
    """PostgreSQL's FigureColnameInternal: (name, strength) - 2 a sure name, 1 a fallback, 0 none."""
    kind = type(node).__name__
    if kind == "ColumnRef":
        last = (node.fields or ())[-1:]
        if last and type(last[0]).__name__ == "String":
            return last[0].sval, 2
    elif kind == "A_Indirection":
        last = (node.indirection or ())[-1:]
        if last and type(last[0]).__name__ == "String":
            return last[0].sval, 2
        return _figure(node.arg)
    elif kind == "FuncCall":
        return node.funcname[-1].sval, 2
    elif kind == "A_Expr":
        if getattr(node.kind, "name", "") == "AEXPR_NULLIF":
            return "nullif", 2
    elif kind == "TypeCast":
        name, strength = _figure(node.arg)
        if strength <= 1 and node.typeName is not None and node.typeName.names:
            return node.typeName.names[-1].sval, 1
        return name, strength
    elif kind == "CollateClause":
        return _figure(node.arg)
    elif kind == "GroupingFunc":
        return "grouping", 2
    elif kind == "SubLink":
        t = getattr(node.subLinkType, "name", "")
        if t == "EXISTS_SUBLINK":
            return "exists", 2
        if t == "ARRAY_SUBLINK":
            return "array", 2
        if t == "EXPR_SUBLINK":  # the subquery's first output column, named as any (a set operation's by its left arm)
            sub = node.subselect
            while getattr(sub, "larg", None) is not None:
                sub = sub.larg
            targets = getattr(sub, "targetList", None) or ()
            if targets:
                return (targets[0].name, 2) if targets[0].name else _figure(targets[0].val)
    elif kind == "CaseExpr":
        name, strength = _figure(node.defresult) if node.defresult is not None else (None, 0)
        if strength <= 1:
            return "case", 1
        return name, strength
    elif kind == "A_ArrayExpr":
        return "array", 2
    elif kind == "RowExpr":
        return "row", 2
    elif kind == "CoalesceExpr":
        return "coalesce", 2
    elif kind == "MinMaxExpr":
        return ("greatest" if getattr(node.op, "name", "") == "IS_GREATEST" else "least"), 2
    elif kind == "SQLValueFunction":
        got = _SVF_NAMES.get(getattr(node.op, "name", ""))
        if got is not None:
            return got, 2
    elif kind == "BooleanTest" or kind == "NullTest" or kind == "BoolExpr" or kind == "A_Const":
        pass
    return None, 0


def _dialect() -> Any:
    """sqlglot's Spark dialect writing every string literal with :func:`.quoting.spark_literal` (one line:
    line breaks and controls escaped), so an expression's strings are written as the target's others."""
    global _DIALECT
    if _DIALECT is None:
        from sqlglot import exp
        from sqlglot.dialects.spark import Spark

        from .quoting import spark_literal

        class DdlcSpark(Spark):
            class Generator(Spark.Generator):
                def literal_sql(self, expression: exp.Literal) -> str:
                    if expression.is_string:
                        return spark_literal(expression.this)
                    return super().literal_sql(expression)

        _DIALECT = DdlcSpark()
    return _DIALECT


_SPANS_LINES = lazyre.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def generate(node: Any) -> str:
    """Spark SQL text of a sqlglot tree; sqlglot's own unsupported reports become Untranslatable.
    Every name in it goes through :func:`.quoting.spark_ident`'s check (a name spark-sql cannot read safely
    raises :class:`.quoting.UnsafeName`: the statement is refused), every string through ``spark_literal``."""
    from sqlglot import exp
    from sqlglot.errors import ErrorLevel, UnsupportedError

    from .quoting import UnsafeName, script_unsafe

    for ident in node.find_all(exp.Identifier):
        why = script_unsafe(ident.name)
        if why is not None:
            raise UnsafeName(ident.name, why)
    try:
        text = node.sql(dialect=_dialect(), unsupported_level=ErrorLevel.RAISE)
    except UnsupportedError as exc:
        raise Untranslatable(str(exc).splitlines()[0]) from None
    if _SPANS_LINES.search(text):  # a string sqlglot wrote by itself, not as a literal
        raise Untranslatable("a string sqlglot would write across lines")
    return text


def random_free(node: Any) -> bool:
    """Whether the tree has no call Spark calls non-deterministic (rand(), uuid())."""
    from sqlglot import exp

    bad = tuple(getattr(exp, n) for n in RANDOM if hasattr(exp, n))
    return not any(isinstance(x, bad) for x in node.walk())


def deterministic(node: Any) -> bool:
    from sqlglot import exp

    bad = tuple(getattr(exp, n) for n in NONDETERMINISTIC if hasattr(exp, n))
    return not any(isinstance(x, bad) or (isinstance(x, exp.Anonymous) and str(x.this).lower() in NONDETERMINISTIC_NAMES)
                   for x in node.walk())


__all__ = ["ToSpark", "Untranslatable", "W_EXPR", "I_EXPR", "tree_of", "generate", "deterministic", "random_free"]
