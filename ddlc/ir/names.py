"""Names, types and pre-rendered SQL fragments: the leaves every statement family shares.

An SQL fragment (:class:`Expr`) keeps its text and carries the parsed form the frontend's SQL layer
(:mod:`ddlc.frontend.sql`) made of it at build time (:class:`ParsedSql`: the pglast tree and the
object references in the text): backends write from that form, passes rename schemas with it, and
neither parses.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from ..errors import Path
from .base import Node, node


@node
class QualifiedName(Node):
    """``schema.name[.attr]`` (a ``%D`` object). ``schema`` None = not qualified in the input."""

    name: str
    schema: str | None = None
    attr: str | None = None

    def dotted(self) -> str:  # for messages only; emitters quote through their writer
        parts = [p for p in (self.schema, self.name, self.attr) if p is not None]
        return ".".join(parts)


@node
class TypeName(Node):
    """A ``%T`` type. ``schema``: None = absent (name is quoted, unqualified); ``""`` = an
    SQL-standard spelling written verbatim (``TIMESTAMP`` + typmod ``(3) with time zone``)."""

    name: str
    schema: str | None = None
    typmod: str = ""
    array: bool = False


class RefKind(str, enum.Enum):
    """What an object reference inside an SQL fragment names (:class:`NameRef`)."""

    RELATION = "relation"  # a table or view (``FROM s.t``, ``REFERENCES t``): the schema may be absent
    FUNCTION = "function"  # a schema-qualified function call (``s.f(x)``)
    TYPE = "type"  # a schema-qualified type name (``x::s.ty``)
    REGCLASS = "regclass"  # the string literal naming a sequence in ``nextval('s.seq')`` (also currval, setval)


class NameRef(NamedTuple):
    """One object reference inside an :class:`Expr`'s text, found by the frontend's SQL layer at build
    time (:func:`ddlc.frontend.sql.refs.name_refs`), where a pass may change its schema.

    ``start``/``end`` (offsets in the text) is what a new schema replaces: the schema identifier as
    written; for an unqualified ``RELATION``, the insertion point (``start == end``) before the name;
    for ``REGCLASS``, the whole literal (-1, -1 when its position is unknown: only the tree is
    rewritten then), whose value in the tree is ``value``.
    """

    kind: RefKind
    schema: str | None
    name: str
    start: int
    end: int
    value: str | None = None


class ParsedSql:
    """The parsed form of an :class:`Expr`, made by the frontend's SQL layer (:mod:`ddlc.frontend.sql`).

    ``form``: ``"expr"`` (a scalar expression: ``node`` is the pglast expression node, as in
    ``SELECT <expr>``) or ``"query"`` (``node`` is the pglast statement node, a ``SelectStmt``).
    ``node`` None: the text does not parse with PostgreSQL's grammar (GaussDB-only syntax).
    Trees may be shared between Exprs: never mutate one, copy it (``copy.deepcopy``) first.
    ``refs``: the object references in the text (:class:`NameRef`), None when the text does not parse
    as a query, an expression or a table constraint, so that its references are unknown.
    ``verbatim`` False: PostgreSQL's grammar read the text with names quoted (openGauss writes some
    PostgreSQL keywords bare, e.g. ``isnull``): a target other than GaussDB must print ``node``, never the text.

    Frozen, compared and hashed by its four values. :meth:`later` makes one whose ``node``, ``refs`` and
    ``verbatim`` are worked out on first use, by a pure function of the text (issue 26: the GaussDB target
    prints most fragments as they came and never needs their parse); no reader can tell the difference.
    A pickle keeps it unresolved (the function is pickled by its name).
    """

    __slots__ = ("form", "_node", "_refs", "_verbatim", "_later", "_refs_later")

    form: str

    def __init__(self, form: str, node: Any, refs: tuple[NameRef, ...] | None = None, verbatim: bool = True) -> None:
        _set(self, "form", form)
        _set(self, "_node", node)
        _set(self, "_refs", refs)
        _set(self, "_verbatim", verbatim)
        _set(self, "_later", None)
        _set(self, "_refs_later", None)

    @classmethod
    def later(cls, form: str, text: str, load: Callable[[str], Any],
              refs: Callable[[str], tuple[NameRef, ...] | None] | None = None) -> ParsedSql:
        """A parsed form whose ``(node, refs, verbatim)`` is ``load(text)``, called on first use (``load``: a
        pure function of the text, defined at module level). With ``refs`` (such a function too), ``load``
        gives ``(node, verbatim)`` and the references are ``refs(text)``, worked out when first read: a
        target prints every fragment from its tree, but only a pass that may rename a schema in it reads
        its references (issue 26)."""
        out = cls.__new__(cls)
        _set(out, "form", form)
        _set(out, "_later", (load, text, refs))
        _set(out, "_refs_later", None if refs is None else (refs, text))
        return out

    def resolve(self) -> None:
        """Work the tree out now (nothing when it is already; the references may still wait)."""
        if self._later is not None:
            self._resolve()

    def _resolve(self) -> None:
        load, text, refs = self._later
        if refs is None:
            node, refs, verbatim = load(text)
            _set(self, "_refs", refs)
        else:
            node, verbatim = load(text)
        _set(self, "_node", node)
        _set(self, "_verbatim", verbatim)
        _set(self, "_later", None)

    @property
    def node(self) -> Any:
        if self._later is not None:
            self._resolve()
        return self._node

    @property
    def refs(self) -> tuple[NameRef, ...] | None:
        later = self._refs_later
        if later is not None:  # (no tree needed: a target that prints the text may never make one)
            _set(self, "_refs", later[0](later[1]))
            _set(self, "_refs_later", None)
        elif self._later is not None:
            self._resolve()
        return self._refs

    @property
    def verbatim(self) -> bool:
        if self._later is not None:
            self._resolve()
        return self._verbatim

    def _values(self) -> tuple[Any, ...]:
        return self.form, self.node, self.refs, self.verbatim

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self is other or self._values() == other._values()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.form, self.refs, self.verbatim))

    def __repr__(self) -> str:
        return f"ParsedSql(form={self.form!r}, node={self.node!r}, refs={self.refs!r}, verbatim={self.verbatim!r})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r} (ParsedSql is frozen)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} (ParsedSql is frozen)")

    def __reduce__(self) -> Any:
        if self._later is not None:
            load, text, refs = self._later
            return ParsedSql.later, (self.form, text, load, refs)
        later = self._refs_later
        if later is not None:  # (the references still to be worked out: the copy works them out when read)
            return refs_later, (self.form, self._node, self._verbatim, *later)
        return ParsedSql, (self.form, self._node, self._refs, self._verbatim)


_set = object.__setattr__


def refs_later(form: str, node: Any, verbatim: bool, refs: Callable[[str], Any], text: str) -> ParsedSql:
    """A :class:`ParsedSql` of a tree whose references are ``refs(text)``, worked out when first read (what a
    copy or a pickle of one is made from, and what a builder that already holds the tree makes)."""
    out = ParsedSql(form, node, None, verbatim)
    _set(out, "_refs_later", (refs, text))
    return out


_refs_later = refs_later  # (the name pickles made before it was public refer to)


@node
class _ExprText(Node):
    text: str


@node
class Expr(_ExprText, kw_only=True):
    """A pre-rendered SQL fragment exactly as the server wrote it (default, CHECK body, query...),
    with its parsed form when the frontend's SQL layer made it (:mod:`ddlc.frontend.sql`).

    ``text`` is the IR value (equality, hashing, JSON, the GaussDB target's output); the parsed form
    (:attr:`sql`, :attr:`tree`) is carried beside it: a field, but not compared, hashed, written to
    JSON or visited by passes. Any rebuilt Expr (``replace(e, text=...)``) has no parsed form: the
    tree always matches the text. A pass that renames schemas gets the new text from
    :meth:`renamed_text` and the Expr from :meth:`renamed`, the tree rewritten alike; both work from
    the references the SQL layer found (no parsing).
    """

    # what the SQL layer made of the text; None when it never saw it (built elsewhere)
    sql: ParsedSql | None = None

    _not_compared = ("sql",)
    _hidden = ("sql",)
    _reset_on_replace = ("sql",)

    @property
    def parsed(self) -> bool:
        """Whether the SQL layer looked at the text (its tree may still be None: it does not parse)."""
        return self.sql is not None

    @property
    def tree(self) -> Any:
        """The pglast node of the text (see :class:`ParsedSql`), or None."""
        s = self.sql
        return None if s is None else s.node

    def __repr__(self) -> str:  # the parsed form left out (a pglast tree)
        return f"Expr(text={self.text!r}, origin={self.origin!r})"

    def renamed_text(self, relation: Callable[[str | None, str], str | None], *,
                     literal_regclass: bool = True) -> str | None:
        """The text with ``relation`` ((schema or None, name) -> new schema, or None to keep it) applied to
        every object reference the SQL layer found in it (:attr:`ParsedSql.refs`): relations (CTE names
        excluded), qualified function and type names and, with ``literal_regclass``, the sequence named
        by a ``nextval('x')``-style literal. Edits are made at the references' positions, so everything
        else keeps its exact spelling. The very same ``str`` when nothing changes; None when the
        references are unknown (the text does not parse, or the SQL layer never saw it)."""
        s = self.sql
        if s is None or s.refs is None:
            return None
        return _rename_refs(self.text, s.refs, relation, literal_regclass)[0]

    def renamed(self, text: str, relation: Callable[[str | None, str], str | None], *,
                literal_regclass: bool = True) -> Expr:
        """This Expr with ``text`` (normally :meth:`renamed_text` with the same ``relation``) and its tree
        rewritten the same way, on a copy. Nothing is parsed: the references of the new text are the old
        ones moved (when ``text`` is what :meth:`renamed_text` gives; else they are unknown)."""
        s = self.sql
        if s is None:
            return Expr(text, origin=self.origin)
        refs = None
        if s.refs is not None:
            new_text, new_refs = _rename_refs(self.text, s.refs, relation, literal_regclass)
            refs = new_refs if new_text == text else None
        # the new names in the text are quoted for GaussDB: other targets print the renamed tree instead
        verbatim = s.verbatim and text == self.text
        if s.node is None:
            return Expr(text, origin=self.origin, sql=ParsedSql(s.form, None, refs, verbatim))
        import copy

        regclass = {r.value: (r.schema, r.name) for r in s.refs or () if r.kind is RefKind.REGCLASS}
        tree = rename_schemas(copy.deepcopy(s.node), relation, regclass if literal_regclass else {})
        return Expr(text, origin=self.origin, sql=ParsedSql(s.form, tree, refs, verbatim))


def _rename_refs(text: str, refs: tuple[NameRef, ...], relation: Callable[[str | None, str], str | None],
                 literal_regclass: bool) -> tuple[str, tuple[NameRef, ...]]:
    """``text`` with the references renamed (the same object when no edit is made), and the references
    of the new text."""
    changes: dict[int, str] = {}  # index of a reference -> its new schema
    for i, r in enumerate(refs):
        if r.kind is RefKind.REGCLASS and not literal_regclass:
            continue
        new = relation(r.schema, r.name)
        if new is not None and new != r.schema:
            changes[i] = new
    if not changes:
        return text, refs
    from ..quoting import quote_ident

    edits: list[tuple[int, int, str]] = []  # (start, length, replacement)
    spans: dict[int, int] = {}  # index of an edited reference -> length of its new span
    for i, new in changes.items():
        r = refs[i]
        if r.start < 0:
            continue
        if r.kind is RefKind.REGCLASS:
            rep = "'" + (quote_ident(new) + "." + quote_ident(r.name)).replace("'", "''") + "'"
            spans[i] = len(rep)
        else:
            rep = quote_ident(new) + ("." if r.start == r.end else "")
            spans[i] = len(quote_ident(new))
        edits.append((r.start, r.end - r.start, rep))
    out = text
    for start, length, rep in sorted(edits, reverse=True):
        out = out[:start] + rep + out[start + length:]

    def moved(p: int) -> int:
        return p + sum(len(rep) - length for start, length, rep in edits if start < p)

    new_refs: list[NameRef] = []
    for i, r in enumerate(refs):
        start = moved(r.start) if r.start >= 0 else -1
        end = start + spans.get(i, r.end - r.start) if r.start >= 0 else -1
        new = changes.get(i)
        if new is None:
            new_refs.append(NameRef(r.kind, r.schema, r.name, start, end, r.value))
        elif r.kind is RefKind.REGCLASS:
            new_refs.append(NameRef(r.kind, new, r.name, start, end, quote_ident(new) + "." + quote_ident(r.name)))
        else:
            new_refs.append(NameRef(r.kind, new, r.name, start, end, r.value))
    return (text if not edits else out), tuple(new_refs)


def rename_schemas(tree: Any, relation: Callable[[str | None, str], str | None],
                   regclass: Mapping[str, tuple[str | None, str]]) -> Any:
    """Apply ``relation`` (schema or None, name) -> new schema or None (keep) to the object references in
    a pglast tree, in place: relations (CTE names excluded), qualified function and type names, and the
    sequence of a ``nextval('x')``-style literal whose value ``regclass`` maps to (schema, name) (the
    tree-side twin of :meth:`Expr.renamed_text`)."""
    from pglast import ast

    from ..quoting import quote_ident
    from .sqltree import visit

    ctes: set[str] = set()
    visit(tree, {ast.CommonTableExpr: lambda node: ctes.add(node.ctename)})

    def range_var(node: Any) -> None:
        if node.schemaname is None and node.relname in ctes:
            return
        new = relation(node.schemaname, node.relname)
        if new is not None and new != node.schemaname:
            node.schemaname = new

    def func_call(node: Any) -> None:
        names = [n.sval for n in node.funcname]
        if len(names) == 2:
            new = relation(names[0], names[1])
            if new is not None and new != names[0]:
                node.funcname = (ast.String(sval=new), *node.funcname[1:])
        if regclass and names[-1] in ("nextval", "currval", "setval") and node.args:
            arg = node.args[0]
            const = arg.arg if isinstance(arg, ast.TypeCast) else arg
            if isinstance(const, ast.A_Const) and isinstance(const.val, ast.String):
                qual = regclass.get(const.val.sval)
                if qual is not None:
                    new = relation(*qual)
                    if new is not None and new != qual[0]:
                        const.val = ast.String(sval=quote_ident(new) + "." + quote_ident(qual[1]))

    def type_name(node: Any) -> None:
        names = [n.sval for n in node.names or ()]
        if len(names) == 2 and names[0] != "pg_catalog":
            new = relation(names[0], names[1])
            if new is not None and new != names[0]:
                node.names = (ast.String(sval=new), *node.names[1:])

    visit(tree, {ast.RangeVar: range_var, ast.FuncCall: func_call, ast.TypeName: type_name})
    return tree
