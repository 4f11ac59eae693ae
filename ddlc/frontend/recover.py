"""TDDL recovery: GaussDB's canonical DDL text -> a typed IR statement.

GaussDB sends the statement kinds openGauss has no tree for (reference §5.18, §9) as TDDL text.
:func:`recover_tddl` builds typed nodes (:mod:`ddlc.ir.misc`, :mod:`ddlc.ir.routine`, the
sequence IR for LARGE SEQUENCE) from that text so that other targets can translate them. It
parses with pglast after blanking out the GaussDB-only words it understands (``INCREMENTAL``,
``REINDEX ... PARTITION p``, ``FORCE``, ``LARGE``), keeping positions, so query texts are sliced
out of the original untouched. Packages, database statements and ALTER MATERIALIZED VIEW are
read with the SQL layer's lexer (:mod:`ddlc.frontend.sql.lexer`); function texts with the CREATE
FUNCTION header reader (:mod:`ddlc.frontend.sql.functext`).

Anything else comes back as an :class:`~ddlc.ir.statement.Opaque` with a note (never dropped,
never a crash): ``UNPARSED`` when the text does not parse, ``NO_SHAPE`` for a kind this module
does not recover (a plain CREATE TABLE, for instance, is the table family's).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import msgspec.structs

from ..diagnostics import Diagnostic, Severity, register
from ..ir.misc import (
    AlterDatabase, AlterMatView, CreateDatabase, CreateMatView, CreateTableAs, DdlAction, DropDatabase, DropMatView,
    DropRoutine, Grant, GrantRole, Package, Reindex, ReindexKind, RefreshMatView, RoutineRef, Truncate,
    TruncateTarget, WithOption,
)
from ..ir.names import Expr, QualifiedName
from ..ir.routine import (
    AlterFunction, FunctionAction, FunctionActionKind, NullInput, RoutineKind, RoutineSignature, Security, Volatility,
)
from ..ir.statement import Opaque, OpaqueReason, Statement
from ..quoting import quote_ident
from . import recover_json
from .recover_nodes import NotRecovered as _NotRecovered
from .recover_nodes import Unparsed as _Unparsed
from .recover_nodes import blank as _blank
from .recover_nodes import names as _names
from .recover_nodes import options as _options
from .recover_nodes import parse_one as _parse  # (a module global: tests count the parses through it)
from .recover_nodes import qname as _qname
from .recover_nodes import raw_sql
from .recover_nodes import typename as _typename
from .recover_nodes import value as _value
from .recover_span import _query_span, query_span  # noqa: F401 - (_query_span: its name here before the split)
from .build._read import BuildContext
from .sql.expr import make_query, parses_as_statement
from .sql.lexer import Lexed, ScanError, Tok, is_ident, read_qualified
from .statement_kind import statement_kind
from .tddl_text import MADE_FROM, check_tddl_statement, may_read_as

_sql = raw_sql  # (its name in this module before the split)


N_TDDL_UNPARSED = register(
    "DDLC-N404", Severity.NOTE, "TDDL statement not parsed",
    "A GaussDB TDDL statement of a kind ddlc recovers could not be parsed (GaussDB-only syntax pglast "
    "does not know). It is kept as text: the GaussDB target prints it, other targets report it.",
    '{"TDDL": "TRUNCATE TABLE public.t PARTITION (p1)"}',
)
N_TDDL_KIND = register(
    "DDLC-N405", Severity.NOTE, "TDDL statement kind not recovered",
    "ddlc does not build a typed statement from TDDL text of this kind (see reference §5.18 for the kinds "
    "it does recover). It is kept as text: the GaussDB target prints it, other targets report it.",
    '{"TDDL": "CREATE ROLE r"}',
)


def _query(lexed: Lexed, stmt: Any) -> Expr:
    """The query of a CTAS / materialized view, parsed by the SQL layer (its tree's locations are its own)."""
    span = query_span(lexed)
    return make_query(lexed.text[span[0]:span[1]] if span else _sql(stmt.query))


def _word_span(toks: list[Tok], word: str) -> tuple[int, int] | None:
    for t in toks:
        if t.upper == word:
            return (t.start, t.end)
    return None


# ---- handlers ----------------------------------------------------------------------------------------
def _into_json(text: str, lexed: Lexed) -> tuple[dict[str, Any], dict[str, Any], QualifiedName, Expr, tuple[str, ...],
                                                   tuple[WithOption, ...]] | None:
    """:func:`.recover_json.create_as` of the text, its query where :func:`query_span` finds it (else None)."""
    span = query_span(lexed)
    return None if span is None else recover_json.create_as(text, lexed.text[span[0]:span[1]], span)


def _create_table(text: str, kind: str, lexed: Lexed) -> Statement:
    if (got := _into_json(text, lexed)) is not None:
        s, into, name, query, cols, opts = got
        return CreateTableAs(text, name, query, with_data=not into.get("skipData", False), columns=cols, options=opts,
                             tablespace=into.get("tableSpaceName"), if_not_exists=bool(s.get("if_not_exists")),
                             persistence={"u": "UNLOGGED", "t": "TEMPORARY"}.get(into["rel"].get("relpersistence"), ""))
    try:
        s = _parse(text)
    except _Unparsed:
        if query_span(lexed) is None:
            raise _NotRecovered("a plain CREATE TABLE (the table family's)") from None
        raise
    if type(s).__name__ != "CreateTableAsStmt":
        raise _NotRecovered("a plain CREATE TABLE (the table family's)")
    into = s.into
    persistence = {"u": "UNLOGGED", "t": "TEMPORARY"}.get(into.rel.relpersistence, "")
    return CreateTableAs(
        text, _qname(into.rel), _query(lexed, s), with_data=not into.skipData,
        columns=tuple(c.sval for c in into.colNames or ()), options=_options(into.options),
        tablespace=into.tableSpaceName, if_not_exists=bool(s.if_not_exists), persistence=persistence,
    )


def _select(text: str, kind: str, lexed: Lexed) -> Statement:
    body = text.rstrip()
    body = body[:-1].rstrip() if body.endswith(";") else body
    if (read := recover_json.select_into(text, body)) is not None:
        return CreateTableAs(text, read[0], make_query(body), columns=read[1],
                             persistence={"u": "UNLOGGED", "t": "TEMPORARY"}.get(read[2], ""), select_into=True)
    got = recover_json.statement(text)
    into = got[1].get("intoClause") if got is not None and got[0] == "SelectStmt" else None
    if isinstance(into, dict) and (name := recover_json.qname(into.get("rel"))) is not None and \
            (cols := recover_json.strings(into.get("colNames"))) is not None:  # (pglast's JSON parse: else its nodes)
        body = text.rstrip()
        return CreateTableAs(text, name, make_query(body[:-1].rstrip() if body.endswith(";") else body), columns=cols,
                             persistence={"u": "UNLOGGED", "t": "TEMPORARY"}.get(into["rel"].get("relpersistence"), ""),
                             select_into=True)
    s = _parse(text)
    into = getattr(s, "intoClause", None)
    if into is None:
        raise _NotRecovered("a SELECT without INTO is not DDL")
    persistence = {"u": "UNLOGGED", "t": "TEMPORARY"}.get(into.rel.relpersistence, "")
    body = text.rstrip()
    query = make_query(body[:-1].rstrip() if body.endswith(";") else body)  # INTO included
    return CreateTableAs(text, _qname(into.rel), query,
                         columns=tuple(c.sval for c in into.colNames or ()), persistence=persistence, select_into=True)


def _create_matview(text: str, kind: str, lexed: Lexed) -> Statement:
    span = _word_span(lexed.head(3), "INCREMENTAL")
    if (got := _into_json(_blank(text, [span] if span else []), lexed)) is not None:
        _s, into_, name, query, cols, opts = got
        return CreateMatView(text, name, query, incremental=span is not None, with_data=not into_.get("skipData", False),
                             columns=cols, options=opts, tablespace=into_.get("tableSpaceName"))
    s = _parse(_blank(text, [span] if span else []))
    into = s.into
    return CreateMatView(
        text, _qname(into.rel), _query(lexed, s), incremental=span is not None, with_data=not into.skipData,
        columns=tuple(c.sval for c in into.colNames or ()), options=_options(into.options),
        tablespace=into.tableSpaceName,
    )


def _refresh_matview(text: str, kind: str, lexed: Lexed) -> Statement:
    span = _word_span(lexed.head(3), "INCREMENTAL")
    got = recover_json.statement(_blank(text, [span] if span else []))
    if got is not None and got[0] == "RefreshMatViewStmt" and (name := recover_json.qname(got[1].get("relation"))) is not None:
        return RefreshMatView(text, name, incremental=span is not None, concurrently=bool(got[1].get("concurrent")),
                              with_data=not got[1].get("skipData", False))
    s = _parse(_blank(text, [span] if span else []))
    return RefreshMatView(text, _qname(s.relation), incremental=span is not None,
                          concurrently=bool(s.concurrent), with_data=not s.skipData)


def _after_name(text: Lexed, skip: int, flag: tuple[str, ...]) -> tuple[list[str], bool, int]:
    """Read ``<skip words> [flag words] name``: (name parts, flag seen, end offset of the name)."""
    toks = text.head(skip + len(flag) + 8)
    i, seen = skip, False
    if flag and [t.upper for t in toks[i:i + len(flag)]] == list(flag):
        i, seen = i + len(flag), True
    elif flag and len(toks) > i + 1 and toks[i].upper == flag[0] and toks[i + 1].upper.startswith(flag[1]):
        # ``IF`` and a start of the flag, not all of it (``IF NOT db``; ``EXISTS`` glued to the name by a Unicode
        # blank, one identifier for both grammars): not a name called ``if`` followed by options
        raise _Unparsed(f"{' '.join(flag)} expected")
    try:
        parts, j = read_qualified(toks, i)
    except ValueError:
        raise _Unparsed("name expected") from None
    return parts, seen, toks[j - 1].end


def _qual(parts: list[str]) -> QualifiedName:
    if not 1 <= len(parts) <= 2:
        raise _Unparsed("unsupported name")
    return QualifiedName(parts[-1], parts[0] if len(parts) == 2 else None)


def _rest(text: str, pos: int) -> str:
    rest = text[pos:].strip()
    return rest[:-1].rstrip() if rest.endswith(";") else rest


def _alter_matview(text: str, kind: str, lexed: Lexed) -> Statement:
    parts, if_exists, end = _after_name(lexed, 3, ("IF", "EXISTS"))
    action = _rest(text, end)
    if not action:
        raise _Unparsed("ALTER MATERIALIZED VIEW without an action")
    return AlterMatView(text, _qual(parts), action, if_exists, pg_grammar=parses_as_statement(text))


def _drop_matview(text: str, kind: str, lexed: Lexed) -> Statement:
    s = _parse(text)
    return DropMatView(text, tuple(_names(o) for o in s.objects), bool(s.missing_ok), s.behavior.value == 1)


def _truncate(text: str, kind: str, lexed: Lexed) -> Statement:
    got = recover_json.statement(text)
    if got is not None and got[0] == "TruncateStmt":  # (pglast's JSON parse: its nodes for any other form)
        rvs = [r.get("RangeVar") if isinstance(r, dict) and len(r) == 1 else None for r in got[1].get("relations") or ()]
        names = [recover_json.qname(r) for r in rvs]
        if rvs and None not in names:
            return Truncate(text, tuple(TruncateTarget(q, only=not r.get("inh", False)) for q, r in zip(names, rvs)),
                            restart_identity=bool(got[1].get("restart_seqs")),
                            cascade=got[1].get("behavior") == "DROP_CASCADE")
    s = _parse(text)
    rels = tuple(TruncateTarget(_qname(r), only=not r.inh) for r in s.relations)
    return Truncate(text, rels, restart_identity=bool(s.restart_seqs), cascade=s.behavior.value == 1)


_REINDEX_KINDS = {1: ReindexKind.TABLE, 0: ReindexKind.INDEX, 2: ReindexKind.SCHEMA, 3: ReindexKind.SYSTEM,
                  4: ReindexKind.DATABASE}


def _reindex(text: str, kind: str, lexed: Lexed) -> Statement:
    try:
        toks = lexed.upto()
    except ScanError as e:
        raise _Unparsed(str(e)) from None
    end = len(toks) - (1 if toks and toks[-1].text == ";" else 0)
    spans, partition, force = [], None, False
    if end >= 1 and toks[end - 1].upper == "FORCE":
        spans.append((toks[end - 1].start, toks[end - 1].end))
        force, end = True, end - 1
    if end >= 3 and toks[end - 2].upper == "PARTITION" and is_ident(toks[end - 1]):
        spans.append((toks[end - 2].start, toks[end - 1].end))
        partition = read_qualified(toks, end - 1)[0][0]
    s = _parse(_blank(text, spans))
    rk = _REINDEX_KINDS.get(int(s.kind.value))
    if rk is None:
        raise _Unparsed("unknown REINDEX kind")
    params = {p.defname for p in s.params or ()}
    name: QualifiedName | str = _qname(s.relation) if s.relation is not None else s.name
    return Reindex(text, rk, name, partition=partition, concurrently="concurrently" in params,
                   verbose="verbose" in params, force=force)


def _create_routine(text: str, kind: str, lexed: Lexed) -> Statement:
    from .sql.functext import FunctionTextError, parse_function_text

    try:
        stmt, _ = parse_function_text(text)
    except FunctionTextError as e:
        raise _Unparsed(str(e)) from None
    return stmt


_LIST_GUCS = ("search_path", "datestyle")


def _set_action(v: Any) -> FunctionAction:
    k = v.kind.value
    if k == 0:  # VAR_SET_VALUE
        listy = v.name.lower() in _LIST_GUCS
        vals = [_value(a.val if hasattr(a, "val") else a) for a in v.args or ()]
        value = ", ".join(quote_ident(x) for x in vals) if listy else ", ".join(vals)
        return FunctionAction(FunctionActionKind.SET, name=v.name, value=value, list_form=listy)
    if k == 2:
        return FunctionAction(FunctionActionKind.SET_FROM_CURRENT, name=v.name)
    if k in (1, 4):  # SET x TO DEFAULT is RESET x, as the deparser writes it
        return FunctionAction(FunctionActionKind.RESET, name=v.name)
    if k == 5:
        return FunctionAction(FunctionActionKind.RESET_ALL)
    raise _Unparsed("unsupported SET form")


def _number(v: Any) -> int | float:
    x = getattr(v, "ival", None)
    if x is None:
        x = float(v.fval)
    return x


def _alter_routine(text: str, kind: str, lexed: Lexed) -> Statement:
    s = _parse(text)
    if type(s).__name__ != "AlterFunctionStmt":
        raise _NotRecovered("not an ALTER FUNCTION option change (rename, owner, schema...)")
    f = s.func
    args = None if f.args_unspecified else tuple(_typename(t) for t in f.objargs or ())
    actions = []
    for d in s.actions:
        a = d.arg
        if d.defname == "volatility":
            actions.append(FunctionAction(FunctionActionKind.VOLATILITY, volatility=Volatility(a.sval)))
        elif d.defname == "strict":
            ni = NullInput.RETURNS_NULL if a.boolval else NullInput.CALLED
            actions.append(FunctionAction(FunctionActionKind.NULL_INPUT, null_input=ni))
        elif d.defname == "security":
            actions.append(FunctionAction(FunctionActionKind.SECURITY, security=Security.DEFINER if a.boolval else Security.INVOKER))
        elif d.defname == "leakproof":
            actions.append(FunctionAction(FunctionActionKind.LEAKPROOF, on=bool(a.boolval)))
        elif d.defname == "cost":
            actions.append(FunctionAction(FunctionActionKind.COST, number=_number(a)))
        elif d.defname == "rows":
            n = _number(a)
            actions.append(FunctionAction(FunctionActionKind.ROWS, number=n or None))
        elif d.defname == "set":
            actions.append(_set_action(a))
        elif d.defname == "parallel":
            actions.append(FunctionAction(FunctionActionKind.PARALLEL, value=a.sval))
        else:
            raise _Unparsed(f"unsupported action {d.defname}")
    rk = RoutineKind.PROCEDURE if kind.endswith("PROCEDURE") else RoutineKind.FUNCTION
    return AlterFunction(rk, RoutineSignature(_names(f.objname), args), tuple(actions))


def _drop_routine(text: str, kind: str, lexed: Lexed) -> Statement:
    if (got := recover_json.drop_routines(text)) is not None:  # (pglast's JSON parse: its nodes for other forms)
        return DropRoutine(text, kind.split()[1], *got)
    s = _parse(text)
    refs = tuple(RoutineRef(_names(o.objname), None if o.args_unspecified else tuple(_typename(t) for t in o.objargs or ()))
                 for o in s.objects)
    return DropRoutine(text, kind.split()[1], refs, bool(s.missing_ok), s.behavior.value == 1)


def _package(text: str, kind: str, lexed: Lexed) -> Statement:
    action = DdlAction(kind.split()[0])
    head = [t.upper for t in lexed.head(6)]
    or_replace = head[1:3] == ["OR", "REPLACE"]
    skip = 2 + (2 if or_replace else 0) + (1 if len(head) > 2 + 2 * or_replace and head[2 + 2 * or_replace] in ("EDITIONABLE", "NONEDITIONABLE") else 0)
    is_body = kind.endswith("BODY")
    skip += 1 if is_body else 0
    parts, _, _ = _after_name(lexed, skip, ("IF", "EXISTS") if action is DdlAction.DROP else ())
    return Package(text, _qual(parts), is_body=is_body, action=action, or_replace=or_replace)


def _database(text: str, kind: str, lexed: Lexed) -> Statement:
    verb = kind.split()[0]
    flag = {"CREATE": ("IF", "NOT", "EXISTS"), "DROP": ("IF", "EXISTS")}.get(verb, ())
    parts, seen, end = _after_name(lexed, 2, flag)
    if len(parts) != 1:
        raise _Unparsed("a database name has one part")
    if verb == "CREATE" and (after := next((t for t in lexed.head(16) if t.start >= end), None)) is not None and (
            after.kind == "op" or after.upper in flag):
        # no option starts with an operator or a word of IF NOT EXISTS: the flag misread (``IF\x1cNOT EXISTS db``,
        # ``"IF" NOT EXISTS db``, ``IF\u3000NOT EXISTS db``, one identifier), not a database followed by options
        raise _Unparsed("database options expected after the name")
    rest = _rest(text, end)
    if verb == "CREATE":
        return CreateDatabase(text, parts[0], seen, rest)
    if verb == "DROP":
        if rest:
            raise _Unparsed("text after the database name")
        return DropDatabase(text, parts[0], seen)
    if not rest:
        raise _Unparsed("ALTER DATABASE without an action")
    return AlterDatabase(text, parts[0], rest)


def _role(r: Any) -> str:
    if r.roletype.value == 0:
        return r.rolename
    return {1: "CURRENT_ROLE", 2: "CURRENT_USER", 3: "SESSION_USER", 4: "PUBLIC"}.get(r.roletype.value, "PUBLIC")


_RELATION_OBJTYPES = ("TABLE", "SEQUENCE", "VIEW", "FOREIGN TABLE")


def _grant(text: str, kind: str, lexed: Lexed) -> Statement:
    s = _parse(text)
    if type(s).__name__ == "GrantRoleStmt":
        admin = any(o.defname == "admin" and getattr(o.arg, "boolval", True) for o in s.opt or ())
        return GrantRole(text, not s.is_grant, tuple(r.priv_name for r in s.granted_roles),
                         tuple(_role(r) for r in s.grantee_roles), admin, s.behavior.value == 1)
    if type(s).__name__ != "GrantStmt" or s.targtype.value == 2:
        raise _NotRecovered("not a GRANT/REVOKE on objects (default privileges)")
    objtype = s.objtype.name.removeprefix("OBJECT_").replace("_", " ")
    objtype = {"FDW": "FOREIGN DATA WRAPPER", "LARGEOBJECT": "LARGE OBJECT"}.get(objtype, objtype)
    privs = tuple(
        (p.priv_name or "ALL").upper() + (" (" + ", ".join(quote_ident(c.sval) for c in p.cols) + ")" if p.cols else "")
        for p in s.privileges or ()
    )
    all_in = s.targtype.value == 1
    relations: tuple[QualifiedName, ...] = ()
    objects: tuple[str, ...] = ()
    if not all_in and objtype in _RELATION_OBJTYPES:
        relations = tuple(_qname(o) for o in s.objects)
    else:
        objects = tuple(quote_ident(o.sval) if type(o).__name__ == "String" else _sql(o) for o in s.objects)
    g = Grant(text, not s.is_grant, privs, objtype, relations, objects, all_in,
              tuple(_role(r) for r in s.grantees), bool(s.grant_option), s.behavior.value == 1)
    sql = _grant_sql(g)
    return msgspec.structs.replace(g, pg_grammar=recover_json.is_text(sql, text) or parses_as_statement(sql))


_ALL_IN = {"TABLE": "TABLES", "SEQUENCE": "SEQUENCES", "FUNCTION": "FUNCTIONS", "PROCEDURE": "PROCEDURES",
           "ROUTINE": "ROUTINES"}
_ROLE_WORDS = frozenset({"PUBLIC", "CURRENT_USER", "CURRENT_ROLE", "SESSION_USER"})


def _grant_sql(g: Grant) -> str:
    """The GRANT/REVOKE the fields say, in the form a target writes it (names as recovered)."""
    parts = ["REVOKE" if g.revoke else "GRANT"]
    if g.revoke and g.grant_option:
        parts.append("GRANT OPTION FOR")
    parts += [", ".join(g.privileges) if g.privileges else "ALL", "ON"]
    parts.append(f"ALL {_ALL_IN.get(g.objtype, g.objtype + 'S')} IN SCHEMA" if g.all_in_schema else g.objtype)
    targets = [".".join(quote_ident(p) for p in (q.schema, q.name) if p is not None) for q in g.relations]
    parts += [", ".join(targets + list(g.objects)), "FROM" if g.revoke else "TO",
              ", ".join(r if r in _ROLE_WORDS else quote_ident(r) for r in g.grantees)]
    return " ".join(parts)


def _large_sequence(text: str, kind: str, lexed: Lexed) -> Statement:
    from ..ir.sequence import AlterSequence, CreateSequence, SeqClause, SeqOption

    span = _word_span(lexed.head(3), "LARGE")
    s = _parse(_blank(text, [span] if span else []))
    name = type(s).__name__
    if name == "DropStmt":
        from ..ir.drop import Drop, DropObjectType

        if len(s.objects) != 1:
            raise _Unparsed("a DROP of several sequences")
        q = _names(s.objects[0])
        ident = ".".join(quote_ident(p) for p in (q.schema, q.name) if p is not None)
        return Drop(DropObjectType.LARGE_SEQUENCE, ident, q, if_exists=bool(s.missing_ok),
                    cascade=s.behavior.value == 1, objtype_text="LARGE SEQUENCE")
    if getattr(s, "if_not_exists", False) or getattr(s, "missing_ok", False) or getattr(s, "for_identity", False):
        raise _Unparsed("IF [NOT] EXISTS is not modelled for sequences")
    simple = {"cache": SeqClause.CACHE, "increment": SeqClause.INCREMENT, "minvalue": SeqClause.MINVALUE,
              "maxvalue": SeqClause.MAXVALUE, "start": SeqClause.START, "restart": SeqClause.RESTART}
    opts = []
    for d in s.options or ():
        if d.defname in simple:
            if d.arg is None:
                raise _Unparsed(f"{d.defname} without a value")
            value = _value(d.arg)
            if not re.fullmatch(r"-?[0-9]+", value) or len(value.lstrip("-").lstrip("0")) > 39:
                raise _Unparsed(f"sequence option value {value[:40]!r} is not an int16 (a LARGE SEQUENCE's)")
            opts.append(SeqOption(simple[d.defname], value=value))
        elif d.defname == "cycle":
            opts.append(SeqOption(SeqClause.CYCLE, no=not d.arg.boolval))
        elif d.defname == "owned_by":
            parts = [p.sval for p in d.arg]
            owner = None if parts == ["none"] else QualifiedName(parts[-2], parts[-3] if len(parts) > 2 else None, parts[-1])
            opts.append(SeqOption(SeqClause.OWNED, owner=owner))
        elif d.defname == "as":
            t = _typename(d.arg)
            opts.append(SeqOption(SeqClause.AS, type=QualifiedName(t.name, t.schema)))
        else:
            raise _Unparsed(f"unsupported sequence option {d.defname}")
    if name == "CreateSeqStmt":
        from ..ir.sequence import Persistence

        pers = {"u": Persistence.UNLOGGED, "t": Persistence.TEMPORARY}.get(s.sequence.relpersistence, Persistence.PERMANENT)
        return CreateSequence(_qname(s.sequence), tuple(opts), persistence=pers, large=True)
    return AlterSequence(_qname(s.sequence), tuple(opts), large=True)


_HANDLERS: dict[str, Callable[[str, str, Lexed], Statement]] = {
    "CREATE TABLE": _create_table,
    "SELECT": _select,
    "CREATE MATERIALIZED VIEW": _create_matview,
    "REFRESH MATERIALIZED VIEW": _refresh_matview,
    "ALTER MATERIALIZED VIEW": _alter_matview,
    "DROP MATERIALIZED VIEW": _drop_matview,
    "TRUNCATE": _truncate,
    "REINDEX": _reindex,
    "CREATE FUNCTION": _create_routine,
    "CREATE PROCEDURE": _create_routine,
    "ALTER FUNCTION": _alter_routine,
    "ALTER PROCEDURE": _alter_routine,
    "DROP FUNCTION": _drop_routine,
    "DROP PROCEDURE": _drop_routine,
    **{f"{v} PACKAGE{b}": _package for v in ("CREATE", "ALTER", "DROP") for b in ("", " BODY")},
    **{f"{v} LARGE SEQUENCE": _large_sequence for v in ("CREATE", "ALTER", "DROP")},
    **{f"{v} DATABASE": _database for v in ("CREATE", "ALTER", "DROP")},
    "GRANT": _grant,
    "REVOKE": _grant,
}


def recovers(kind: str | None) -> bool:
    """Whether :func:`recover_tddl` has a handler for statements of ``kind`` (see ``statement_kind``)."""
    return kind in _HANDLERS


def recover_tddl(text: str | Lexed, *, document: str | None = None) -> tuple[Statement, list[Diagnostic]]:
    """Build the IR of one TDDL statement text (see the module docstring), given as text or as its tokens
    read for every reader of it. Never raises on text."""
    ctx = BuildContext(document)
    lexed = text if isinstance(text, Lexed) else Lexed(text)  # (scanned as far as a reader asks, once)
    kind = statement_kind(lexed)
    text = lexed.text
    handler = _HANDLERS.get(kind)
    if handler is None:
        ctx.diag(N_TDDL_KIND, f"TDDL {kind or 'statement'} is not recovered; kept as text", ())
        return Opaque(text, kind=kind, reason=OpaqueReason.NO_SHAPE), ctx.diagnostics
    try:
        return handler(text, kind, lexed), ctx.diagnostics
    except _NotRecovered as e:
        ctx.diag(N_TDDL_KIND, f"TDDL {kind}: {e}; kept as text", ())
        return Opaque(text, kind=kind, reason=OpaqueReason.NO_SHAPE), ctx.diagnostics
    except Exception as e:  # _Unparsed, a scan error, or a parse-tree form not foreseen: keep the text
        ctx.diag(N_TDDL_UNPARSED, f"TDDL {kind} not parsed ({e}); kept as text", ())
        return Opaque(text, kind=kind, reason=OpaqueReason.UNPARSED), ctx.diagnostics


__all__ = ["MADE_FROM", "check_tddl_statement", "may_read_as", "query_span", "recover_tddl", "statement_kind", "N_TDDL_UNPARSED", "N_TDDL_KIND"]
