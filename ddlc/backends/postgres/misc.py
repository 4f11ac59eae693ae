"""PostgreSQL emitters: schemas, events, NEWPUB, the statements recovered from GaussDB TDDL text
(:mod:`ddlc.ir.misc`: CREATE TABLE AS, materialized views, TRUNCATE, REINDEX, DROP FUNCTION /
PROCEDURE, packages, databases, GRANT/REVOKE) and statements kept as text (``Opaque``).

Decisions (see also the diagnostics' explanations):

* ``CREATE SCHEMA ... AUTHORIZATION r`` is kept: it is what the statement says about the owner (the
  role must exist on the target; ``--role-map`` renames it, ``--no-owner`` removes it, README "Owners").
* Ledger schemas: ``WITH BLOCKCHAIN`` is dropped (warning) and ``ALTER SCHEMA s WITH BLOCKCHAIN`` is
  refused; ``ALTER SCHEMA s WITHOUT BLOCKCHAIN`` emits nothing with an information code, because the
  PostgreSQL schema never became a ledger schema. ``ALTER SCHEMA ... CHARACTER SET / COLLATE`` is
  refused (PostgreSQL schemas have neither).
* Events (B-compatible scheduler) and packages have no PostgreSQL form: refused.
* Database statements are decoded only in M-compatible GaussDB databases, where a database *is* a
  schema: ``CREATE DATABASE d`` is written ``CREATE SCHEMA d`` (its CHARACTER SET / COLLATE options
  dropped with a warning) and ``DROP DATABASE d`` is written ``DROP SCHEMA d CASCADE`` (dropping a
  database drops what is in it). ``ALTER DATABASE`` (options only) is refused.
* GRANT/REVOKE are written from their parsed fields (names qualified and mapped like everything
  else); privileges PostgreSQL does not have (GaussDB's ALTER, DROP, COMMENT, INDEX, VACUUM) are
  dropped with a warning, and a GRANT left with none is refused. Roles must exist on the target.
* ``CREATE TABLE AS`` and ``SELECT INTO`` create the table only (``... AS query WITH NO DATA``, SELECT INTO
  written as CREATE TABLE AS without its INTO clause; DDLC-I003): GaussDB decodes them as the new table's
  CREATE TABLE, and the rows the statement inserted are DML of the log, never copied again on the target.
  Column lists, UNLOGGED / TEMPORARY, IF NOT EXISTS and storage options are kept.
* Storage options and TABLESPACE of CREATE TABLE AS / MATERIALIZED VIEW are treated as CREATE
  TABLE's (the table family's codes): PostgreSQL's own reloptions are kept, GaussDB's defaults
  (``orientation = row``, ``compression = no``...) dropped with an information code, anything else
  and tablespaces (which do not exist on the target) with a warning.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec.structs

from ...diagnostics import I_CTAS_NO_DATA, Severity, register
from ...ir.event import AlterEvent, CreateEvent, DropEvent, NewPub
from ...ir.misc import (
    AlterDatabase, AlterMatView, CreateDatabase, CreateMatView, CreateTableAs, DropDatabase, DropMatView, DropRoutine,
    Grant, GrantRole, Package, RefreshMatView, Reindex, ReindexKind, Truncate, WithOption,
)
from ...ir.names import Expr, QualifiedName
from ...ir.rules import Refusal, Rule
from ...ir.schema import AlterSchemaBlockchain, AlterSchemaCharset, CreateSchema
from ...ir.statement import Opaque
from ...ir.table import OptionValueKind
from ...ir.sqltree import copied_with
from ..writer import SqlWriter, pg_deparse, pg_ident, pg_literal, pg_option_string, pg_option_value, pg_pastable
from .context import Emit, emits
from .exprs import query_tree, rewrite_tree, wants_rewrite
from .rewrites import REWRITES
from .owners import RESERVED_ROLES, W_RESERVED_ROLE
from .routines import signature
from .table import DEFAULT_OPTIONS, HEAP_OPTIONS, TOAST_OPTIONS
from .table import I_DEFAULT_OPTIONS as I_STORAGE_DEFAULT
from .table import W_OPTION as W_STORAGE
from .table import W_TABLESPACE
from ... import lazyre

S = Severity
W_BLOCKCHAIN = register(
    "DDLC-W746", S.WARNING, "WITH BLOCKCHAIN dropped",
    "A ledger (tamper-proof) schema is openGauss-only; the schema is created as a plain schema. Tables "
    "created in it on GaussDB carry a hidden hash column (type hash16), which the table translation maps.",
    "CREATE SCHEMA ledger WITH BLOCKCHAIN",
)
W_SCHEMA_ALTER = register(
    "DDLC-W747", S.WARNING, "ALTER SCHEMA form with no PostgreSQL counterpart",
    "`ALTER SCHEMA s WITH BLOCKCHAIN` (make a ledger schema) and B-compatibility `ALTER SCHEMA s CHARACTER "
    "SET = cs COLLATE = c` have no PostgreSQL form (schemas have no ledger mode, character set or "
    "collation). Nothing is emitted.",
    "ALTER SCHEMA db1 CHARACTER SET = UTF8 COLLATE = utf8mb4_bin",
)
W_EVENT = register(
    "DDLC-W748", S.WARNING, "Event has no PostgreSQL form",
    "CREATE/ALTER/DROP EVENT (the B-compatibility scheduler) has no PostgreSQL counterpart (scheduling "
    "needs an extension such as pg_cron). Nothing is emitted.",
    "CREATE EVENT db1.ev ON SCHEDULE EVERY '1' day ... DO ...",
)
W_INCREMENTAL = register(
    "DDLC-W750", S.WARNING, "INCREMENTAL materialized view created as a plain one",
    "PostgreSQL has no incremental materialized views: `CREATE INCREMENTAL MATERIALIZED VIEW` is written "
    "`CREATE MATERIALIZED VIEW` (same query, same contents), refreshed in full.",
    "CREATE INCREMENTAL MATERIALIZED VIEW public.mv AS SELECT ...",
)
W_REFRESH_INCREMENTAL = register(
    "DDLC-W751", S.WARNING, "REFRESH INCREMENTAL written as a full REFRESH",
    "PostgreSQL has no incremental refresh: `REFRESH INCREMENTAL MATERIALIZED VIEW v` is written "
    "`REFRESH MATERIALIZED VIEW v`, which recomputes the whole view (same contents, more work).",
    "REFRESH INCREMENTAL MATERIALIZED VIEW public.mv",
)
W_REINDEX_PARTITION = register(
    "DDLC-W752", S.WARNING, "REINDEX of one partition widened",
    "GaussDB's `REINDEX INDEX i PARTITION p` (its form of ALTER INDEX i REBUILD PARTITION p) rebuilds one "
    "index partition; PostgreSQL names partitions of an index as indexes of their own, which ddlc cannot "
    "name. The whole index (or table) is reindexed instead: same result, more work.",
    'REINDEX INDEX public."Alter_Index_Index" PARTITION "CA_ADDRESS_SK_index2"',
)
W_PACKAGE = register(
    "DDLC-W753", S.WARNING, "Package has no PostgreSQL form",
    "CREATE/ALTER/DROP PACKAGE [BODY]: PostgreSQL has no packages and ddlc does not rewrite PL/SQL. "
    "Nothing is emitted; with --on-unsupported comment the GaussDB text is kept as an SQL comment.",
    "CREATE OR REPLACE PACKAGE public.pkg IS ... END pkg;",
)
W_DATABASE = register(
    "DDLC-W754", S.WARNING, "Database option has no PostgreSQL form",
    "In an M-compatible GaussDB database a database is a schema, and ddlc writes CREATE DATABASE as CREATE "
    "SCHEMA. Its CHARACTER SET / COLLATE options and ALTER DATABASE (which only changes such options) have "
    "no PostgreSQL counterpart for a schema: the options are dropped, ALTER DATABASE emits nothing (with "
    "--on-unsupported comment its text is kept as a comment).",
    "CREATE DATABASE db1 CHARACTER SET = utf8mb4",
)
W_PRIVILEGE = register(
    "DDLC-W755", S.WARNING, "Privilege PostgreSQL does not have dropped",
    "GaussDB has privileges PostgreSQL lacks (ALTER, DROP, COMMENT, INDEX, VACUUM...). They are removed "
    "from the GRANT/REVOKE; a statement left with no privilege emits nothing.",
    "GRANT ALTER, SELECT ON TABLE public.t TO u1",
)
W_OPAQUE = register(
    "DDLC-W756", S.WARNING, "Statement kept as GaussDB text not translated",
    "ddlc could not read this statement into its typed form (text with GaussDB-only syntax, or a statement "
    "kind it does not recover; see the note reported with it), so it cannot translate it. Nothing is "
    "emitted; with --on-unsupported comment the GaussDB text is kept as an SQL comment.",
    '{"TDDL": "CREATE TABLE public.t (a int) WITH (orientation = row)"}',
)
W_NOT_PG = register(
    "DDLC-W757", S.WARNING, "Translated statement does not parse as PostgreSQL",
    "The translated statement (a CREATE TABLE AS / materialized view query, an ALTER MATERIALIZED VIEW "
    "action, a GRANT object) does not parse with PostgreSQL's grammar (pglast): it uses GaussDB-only "
    "syntax. Nothing is emitted; with --on-unsupported comment the GaussDB text is kept as a comment.",
    "ALTER MATERIALIZED VIEW public.mv ENABLE QUERY REWRITE",
)
I_WITHOUT_BLOCKCHAIN = register(
    "DDLC-I740", S.INFO, "ALTER SCHEMA WITHOUT BLOCKCHAIN has nothing to do",
    "WITH BLOCKCHAIN is never replayed on PostgreSQL (DDLC-W746), so the schema already is a plain schema; "
    "`ALTER SCHEMA s WITHOUT BLOCKCHAIN` emits nothing.",
)
I_REINDEX_FORCE = register(
    "DDLC-I742", S.INFO, "REINDEX FORCE dropped",
    "FORCE is an obsolete, ignored REINDEX option; PostgreSQL does not accept it.",
)
I_DATABASE_SCHEMA = register(
    "DDLC-I743", S.INFO, "M-compatible database written as a schema",
    "GaussDB decodes database statements only in M-compatible databases, where a database is a schema: "
    "`CREATE DATABASE d` is written `CREATE SCHEMA d` and `DROP DATABASE d` is written `DROP SCHEMA d "
    "CASCADE` (like the source, it drops what the schema holds, and on PostgreSQL also objects elsewhere "
    "that depend on them).",
)
I_TRUNCATE_ONLY = register(
    "DDLC-I744", S.INFO, "TRUNCATE ONLY of a partitioned table written without ONLY",
    "A GaussDB partitioned table holds its partitions; on PostgreSQL they are tables of their own, and "
    "TRUNCATE ONLY of a partitioned table is an error. The table is known to be partitioned from earlier "
    "in the stream, so ONLY is dropped (all partitions are emptied, as on the source).",
)
I_SELECT_INTO = register(
    "DDLC-I745", S.INFO, "SELECT INTO written as CREATE TABLE AS",
    "`SELECT ... INTO t FROM ...` is written `CREATE TABLE t AS SELECT ... FROM ...` (same meaning; the "
    "table name is then qualified and mapped like any other).",
)

PG_PRIVILEGES = frozenset({"SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER", "CREATE",
                           "CONNECT", "TEMPORARY", "TEMP", "EXECUTE", "USAGE", "ALL", "SET", "ALTER SYSTEM"})
_ROLE_WORDS = frozenset({"PUBLIC", "CURRENT_USER", "CURRENT_ROLE", "SESSION_USER"})
_ALL_IN = {"TABLE": "TABLES", "SEQUENCE": "SEQUENCES", "FUNCTION": "FUNCTIONS", "PROCEDURE": "PROCEDURES",
           "ROUTINE": "ROUTINES"}


def _gauss_default(o: WithOption) -> bool:
    return o.namespace is None and (o.name.lower(), (o.value or "").lower()) in DEFAULT_OPTIONS


def _storage_option(o: WithOption) -> bool:
    """A storage parameter PostgreSQL knows: a heap one, or ``toast.`` one of the TOAST table's."""
    if o.namespace is None:
        return o.name.lower() in HEAP_OPTIONS
    return o.namespace.lower() == "toast" and o.name.lower() in TOAST_OPTIONS


def _option_value(o: WithOption) -> str | None:
    """The option's value: a string bare only where PostgreSQL reads it back as the same string
    (``pg_option_string``: ``70``, ``true``), else a literal; a number or a word as the source wrote it
    (``pg_option_value``); None without one."""
    if o.value is None or o.value_kind is OptionValueKind.NONE:
        return None
    return pg_option_string(o.value) if o.value_kind is OptionValueKind.LITERAL else pg_option_value(o.value)


def _dropped_option(o: WithOption) -> str:
    """A dropped option as the statement had it, for a comment (a string a literal, a number or a word as written)."""
    label = pg_ident(o.name) if o.namespace is None else f"{pg_ident(o.namespace)}.{pg_ident(o.name)}"
    if o.value is None or o.value_kind is OptionValueKind.NONE:
        return label
    return f"{label} = " + (pg_literal(o.value) if o.value_kind is OptionValueKind.LITERAL else o.value)


def _priv_word(p: str) -> str:
    return p.split(" (", 1)[0].upper()


def _pg_privs(n: Grant | Any) -> tuple[str, ...]:
    return tuple(p for p in n.privileges if _priv_word(p) in PG_PRIVILEGES)


# A rule that removes a clause from a statement GaussDB writes from its own text (ir.misc.TEXT_NODES: CREATE /
# REFRESH MATERIALIZED VIEW, REINDEX, CREATE DATABASE, GRANT) keeps a hand-written text: the GaussDB text of the
# statement is the same before and after the rule, so no difference can show the clause.
def _reserved_authorization(n: CreateSchema) -> bool:
    return n.authorization in RESERVED_ROLES


def _blockchain(n: CreateSchema) -> bool:
    return n.blockchain


def _with_blockchain(n: AlterSchemaBlockchain) -> bool:
    return n.with_


# (the fields without which each is false, tested by the drop_unsupported pass before the call: most schemas have
# no AUTHORIZATION that is not None and no BLOCKCHAIN; a role name "" is not reserved)
_reserved_authorization.needs = ("authorization",)  # type: ignore[attr-defined]
_blockchain.needs = ("blockchain",)  # type: ignore[attr-defined]
_with_blockchain.needs = ("with_",)  # type: ignore[attr-defined]

UNSUPPORTED = (
    Rule(CreateSchema, W_RESERVED_ROLE, lambda n: f"AUTHORIZATION {n.authorization}: a role name PostgreSQL reserves; "
         "dropped", applies=_reserved_authorization,
         rewrite=lambda n: msgspec.structs.replace(n, name=n.name or n.authorization, authorization=None, layout=None)),
    Rule(CreateSchema, W_BLOCKCHAIN, "WITH BLOCKCHAIN dropped (no ledger schemas in PostgreSQL)", field="blockchain",
         absent=False, applies=_blockchain),
    Rule(AlterSchemaBlockchain, W_SCHEMA_ALTER, "ALTER SCHEMA ... WITH BLOCKCHAIN: no ledger schemas in PostgreSQL",
         applies=_with_blockchain),
    # (a text: the options of a CREATE MATERIALIZED VIEW, a statement written from its text; those of a CREATE
    # TABLE AS alone would not need it)
    Rule(WithOption, W_STORAGE,
         lambda o: f"storage option {o.label()} dropped (PostgreSQL has no such storage parameter)",
         applies=lambda o: not _storage_option(o) and not _gauss_default(o),
         text=_dropped_option),
    Rule(CreateTableAs, W_TABLESPACE, "tablespace dropped", field="tablespace",
         applies=lambda n: n.tablespace is not None),
    Rule(CreateMatView, W_TABLESPACE, "tablespace dropped", field="tablespace",
         applies=lambda n: n.tablespace is not None, text=lambda n: f"TABLESPACE {pg_ident(n.tablespace)}"),
    Rule(CreateMatView, W_INCREMENTAL, "INCREMENTAL dropped: created as a plain materialized view",
         field="incremental", absent=False, applies=lambda n: n.incremental, text=lambda n: "INCREMENTAL"),
    Rule(RefreshMatView, W_REFRESH_INCREMENTAL, "REFRESH INCREMENTAL written as a full REFRESH",
         field="incremental", absent=False, applies=lambda n: n.incremental, text=lambda n: "INCREMENTAL"),
    Rule(Reindex, W_REINDEX_PARTITION, "REINDEX ... PARTITION: the whole index is reindexed", field="partition",
         applies=lambda n: n.partition is not None, text=lambda n: f"PARTITION {pg_ident(n.partition)}"),
    Rule(CreateDatabase, W_DATABASE, "database options dropped", field="options", absent="",
         applies=lambda n: bool(n.options.strip()), text=lambda n: n.options),
    Rule(Grant, W_PRIVILEGE, "no privilege PostgreSQL has: nothing granted or revoked",
         applies=lambda n: bool(n.privileges) and not _pg_privs(n)),
    Rule(Grant, W_PRIVILEGE, "privileges PostgreSQL does not have dropped",
         applies=lambda n: bool(_pg_privs(n)) and _pg_privs(n) != n.privileges,
         rewrite=lambda n: msgspec.structs.replace(n, privileges=_pg_privs(n)),
         text=lambda n: ", ".join(p for p in n.privileges if _priv_word(p) not in PG_PRIVILEGES)),
)

def _ctas_word(n: CreateTableAs) -> str:
    return "SELECT INTO" if n.select_into else "CREATE TABLE AS"


def _ctas_name(n: CreateTableAs) -> str:
    return n.identity.name if n.persistence == "TEMPORARY" else n.identity.dotted()


def _no_query(n: CreateTableAs | CreateMatView) -> bool:
    return query_tree(n.query) is None


def _not_pg(cls: type, applies: Any) -> Rule:
    """The statement does not parse as PostgreSQL (decided at build time: the query has no parsed form, or the
    recovered text did not parse): dropped, with its GaussDB text for a comment."""
    return Rule(cls, W_NOT_PG, f"translated {cls.__name__} does not parse as PostgreSQL; not emitted",
                applies=applies, last=True)


# GaussDB decodes a CTAS / SELECT INTO as the CREATE TABLE alone (its rows, if any, come as DML): only the
# table is written, whatever the text says
UNSUPPORTED += (
    Rule(CreateTableAs, I_CTAS_NO_DATA, lambda n: f"{_ctas_word(n)} {_ctas_name(n)} written WITH NO DATA: "
         "only the table is created, its rows are expected as DML",
         applies=lambda n: n.with_data and not _no_query(n),
         field="with_data", absent=False, comment=False),
)

# after the clause rules of the same classes: a statement dropped by one reports only what came before
UNSUPPORTED += (
    _not_pg(CreateTableAs, _no_query),
    _not_pg(CreateMatView, _no_query),
    _not_pg(AlterMatView, lambda n: not n.pg_grammar),
    _not_pg(Grant, lambda n: not n.pg_grammar),
    Rule(Opaque, W_OPAQUE, lambda n: f"{n.kind or 'statement'} kept as GaussDB text; not translated",
         applies=lambda n: not (n.kind == "dropped" and not n.text), last=True),
)

_EVENT = Refusal(W_EVENT, "events (B-compatibility scheduler) have no PostgreSQL form")
REFUSED = {
    AlterSchemaCharset: Refusal(W_SCHEMA_ALTER, "ALTER SCHEMA ... CHARACTER SET / COLLATE: PostgreSQL schemas have neither"),
    CreateEvent: _EVENT, AlterEvent: _EVENT, DropEvent: _EVENT,
    Package: Refusal(W_PACKAGE, "packages have no PostgreSQL form"),
    AlterDatabase: Refusal(W_DATABASE, "ALTER DATABASE (a schema's options in M-compatibility) has no PostgreSQL form"),
}


# ---- helpers -------------------------------------------------------------------------------------------
def _schema(name: str, e: Emit) -> str:
    return dict(getattr(e.ctx, "schema_map", {}) or {}).get(name, name)


def _query(q: Expr, e: Emit, *, drop_into: bool = False) -> str:
    """A query for PostgreSQL from its parsed form: its own text when nothing changes, else re-printed with
    GaussDB-only functions rewritten (and, ``drop_into``, without SELECT's INTO clause). A query with no
    parsed form (it does not parse with PostgreSQL's grammar) was refused by a rule (W_NOT_PG)."""
    tree = query_tree(q)
    assert tree is not None
    changed = False
    if _wants_rewrite(q.text):
        tree, changed = rewrite_tree(tree, e, q.origin, q.text)
    if drop_into:
        return pg_deparse(copied_with(tree, {"intoClause": None}))  # (the IR's tree is never modified)
    verbatim = q.sql is not None and q.sql.verbatim  # PostgreSQL's grammar read the text as it is, no comment
    return q.text if not changed and verbatim and pg_pastable(q.text) else pg_deparse(tree)


_NAMES = tuple(sorted(REWRITES))  # (exprs' pattern's words: \b(?:name|...)\b|u&, case-insensitive)
_WORD = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")  # an ASCII \w once lowered


def _wants_rewrite(text: str) -> bool:
    """``exprs.wants_rewrite(text)``: for an ASCII text, its pattern's answer found by ``str.find`` on the
    lowered text, each word's boundaries tested as ``\b`` tests them (the pattern, case-insensitive, with ~30
    alternatives tried at every position, cost ~100k instructions a query: issue 26); any other by the pattern."""
    if not text.isascii():  # (re.I folds a few non-ASCII letters to ASCII ones: K, the long s)
        return wants_rewrite(text)
    low = text.lower()
    if "u&" in low:
        return True
    end = len(low)
    for name in _NAMES:
        i = low.find(name)
        while i >= 0:
            j = i + len(name)
            if (i == 0 or low[i - 1] not in _WORD) and (j == end or low[j] not in _WORD):
                return True
            i = low.find(name, i + 1)
    return False


def _with(options: tuple[WithOption, ...], e: Emit, origin: Any) -> str:
    kept, dropped = [], []
    for o in options:
        if _gauss_default(o):
            dropped.append(o.name)
        else:
            w, value = e.w().name(o.namespace, o.name), _option_value(o)
            kept.append((w if value is None else w.kw("=").raw(value)).text())
    if dropped:
        e.diag(I_STORAGE_DEFAULT, "GaussDB default storage options dropped: " + ", ".join(dropped), origin)
    return e.w().kw("WITH").paren_list(kept, SqlWriter.raw).text() if kept else ""


def _relation_head(w: Any, n: Any, e: Emit) -> None:
    if n.columns:
        w.paren_list(n.columns, SqlWriter.ident)
    w.raw(_with(n.options, e, n.origin))
    if n.tablespace:
        w.kw("TABLESPACE").ident(n.tablespace)


# ---- schemas, events, NEWPUB, Opaque --------------------------------------------------------------------
@emits(CreateSchema)
def create_schema(n: CreateSchema, e: Emit) -> list[str]:
    # written at once, as the writer spaces these tokens: keywords and quoted names (a quoted name is never empty,
    # never "," nor starting with ")", never ending with "("); the name quoted once, for the text and the owner
    head = "CREATE SCHEMA IF NOT EXISTS" if n.if_not_exists else "CREATE SCHEMA"
    if not n.name and n.authorization is None:  # the server writes "" only with AUTHORIZATION
        from ...errors import DdlcError

        raise DdlcError("CREATE SCHEMA without a name and without AUTHORIZATION", code="DDLC-E007",
                        path=n.origin + ("name",), document=e.ctx.document)
    if not n.name:
        return [head + " AUTHORIZATION " + pg_ident(n.authorization)]
    name = pg_ident(n.name)
    if n.authorization is not None:  # the owner the statement names (--no-owner removed it, --role-map mapped it)
        return [head + " " + name + " AUTHORIZATION " + pg_ident(n.authorization)]
    e.own(_SCHEMA, name)
    return [head + " " + name]


_SCHEMA = ("SCHEMA",)


@emits(AlterSchemaBlockchain)
def alter_schema_blockchain(n: AlterSchemaBlockchain, e: Emit) -> list[str]:
    e.diag(I_WITHOUT_BLOCKCHAIN, f"schema {n.name} is already a plain schema on PostgreSQL; nothing to do", n.origin)
    return []


@emits(NewPub)
def newpub(n: NewPub, e: Emit) -> list[str]:
    return []  # a cascading-replication notice, never executed (the builder reported DDLC-I401)


@emits(Opaque)
def opaque(n: Opaque, e: Emit) -> list[str]:
    return []  # removed by a capability rule, which reported it (statements kept as text: W_OPAQUE)


# ---- tables and materialized views -----------------------------------------------------------------------
@emits(CreateTableAs)
def create_table_as(n: CreateTableAs, e: Emit) -> list[str]:
    query = _query(n.query, e, drop_into=n.select_into)
    if n.select_into:
        e.diag(I_SELECT_INTO, "SELECT INTO written as CREATE TABLE AS", n.origin)
    w = e.w().kw("CREATE")
    if n.persistence:
        w.kw(n.persistence)
    w.kw("TABLE")
    if n.if_not_exists:
        w.kw("IF", "NOT", "EXISTS")
    # a temporary table lives in the session's own schema: it cannot be qualified
    w.raw(pg_ident(n.identity.name) if n.persistence == "TEMPORARY" else e.qname(n.identity))
    e.own(("TABLE",), pg_ident(n.identity.name) if n.persistence == "TEMPORARY" else e.qname(n.identity))
    _relation_head(w, n, e)
    w.kw("AS").raw(query)
    if not n.with_data:
        w.kw("WITH", "NO", "DATA")
    return [w.text()]


@emits(CreateMatView)
def create_matview(n: CreateMatView, e: Emit) -> list[str]:
    query = _query(n.query, e)
    w = e.w().kw("CREATE", "MATERIALIZED", "VIEW").raw(e.qname(n.identity))
    e.own(("MATERIALIZED", "VIEW"), e.qname(n.identity))
    _relation_head(w, n, e)
    w.kw("AS").raw(query)
    if not n.with_data:
        w.kw("WITH", "NO", "DATA")
    return [w.text()]


@emits(RefreshMatView)
def refresh_matview(n: RefreshMatView, e: Emit) -> list[str]:
    w = e.w().kw("REFRESH", "MATERIALIZED", "VIEW")
    if n.concurrently:
        w.kw("CONCURRENTLY")
    w.raw(e.qname(n.identity))
    if not n.with_data:
        w.kw("WITH", "NO", "DATA")
    return [w.text()]


@emits(AlterMatView)
def alter_matview(n: AlterMatView, e: Emit) -> list[str]:
    w = e.w().kw("ALTER", "MATERIALIZED", "VIEW")
    if n.if_exists:
        w.kw("IF", "EXISTS")
    return [w.raw(e.qname(n.identity)).raw(n.action).text()]


@emits(DropMatView)
def drop_matview(n: DropMatView, e: Emit) -> list[str]:
    w = e.w().kw("DROP", "MATERIALIZED", "VIEW")
    if n.if_exists:
        w.kw("IF", "EXISTS")
    w.each((e.qname(q) for q in n.names), SqlWriter.raw)
    if n.cascade:
        w.kw("CASCADE")
    return [w.text()]


# ---- maintenance -----------------------------------------------------------------------------------------
@emits(Truncate)
def truncate(n: Truncate, e: Emit) -> list[str]:
    names = []
    for t in n.relations:
        only = t.only
        if only and e.catalog is not None and e.catalog.table(t.name) is not None:
            e.diag(I_TRUNCATE_ONLY, f"{t.name.dotted()} is partitioned: TRUNCATE without ONLY", t.origin)
            only = False
        names.append(e.w().kw("ONLY").raw(e.qname(t.name)).text() if only else e.qname(t.name))
    w = e.w().kw("TRUNCATE", "TABLE").each(names, SqlWriter.raw)
    if n.restart_identity:
        w.kw("RESTART", "IDENTITY")
    if n.cascade:
        w.kw("CASCADE")
    return [w.text()]


@emits(Reindex)
def reindex(n: Reindex, e: Emit) -> list[str]:
    w = e.w().kw("REINDEX")
    if n.verbose:
        w.raw("(VERBOSE)")
    w.kw(n.kind.value)
    if n.concurrently:
        w.kw("CONCURRENTLY")
    if isinstance(n.name, QualifiedName):
        w.raw(e.qname(n.name))
    else:
        w.ident(_schema(n.name, e) if n.kind is ReindexKind.SCHEMA else n.name)
    if n.force:
        e.diag(I_REINDEX_FORCE, "FORCE dropped (obsolete, ignored)", n.origin)
    return [w.text()]


@emits(DropRoutine)
def drop_routine(n: DropRoutine, e: Emit) -> list[str]:
    w = e.w().kw("DROP", n.kind)
    if n.if_exists:
        w.kw("IF", "EXISTS")
    w.each((signature(r.name, r.arguments, e) for r in n.routines), SqlWriter.raw)
    if n.cascade:
        w.kw("CASCADE")
    return [w.text()]


# ---- databases (M-compatibility: schemas) -----------------------------------------------------------------
@emits(CreateDatabase)
def create_database(n: CreateDatabase, e: Emit) -> list[str]:
    e.diag(I_DATABASE_SCHEMA, f"database {n.name} written as a schema", n.origin)
    w = e.w().kw("CREATE", "SCHEMA")
    if n.if_not_exists:
        w.kw("IF", "NOT", "EXISTS")
    e.own(("SCHEMA",), pg_ident(_schema(n.name, e)))
    return [w.ident(_schema(n.name, e)).text()]


@emits(DropDatabase)
def drop_database(n: DropDatabase, e: Emit) -> list[str]:
    e.diag(I_DATABASE_SCHEMA, f"database {n.name} written as a schema (DROP SCHEMA ... CASCADE)", n.origin)
    w = e.w().kw("DROP", "SCHEMA")
    if n.if_exists:
        w.kw("IF", "EXISTS")
    return [w.ident(_schema(n.name, e)).kw("CASCADE").text()]


# ---- privileges ------------------------------------------------------------------------------------------
def _grantee(g: str) -> str:
    return g if g in _ROLE_WORDS else pg_ident(g)


@emits(Grant)
def grant(n: Grant, e: Emit) -> list[str]:
    w = e.w().kw("REVOKE" if n.revoke else "GRANT")
    if n.revoke and n.grant_option:
        w.kw("GRANT", "OPTION", "FOR")
    (w.each(n.privileges, SqlWriter.raw) if n.privileges else w.kw("ALL")).kw("ON")
    if n.all_in_schema:
        w.kw("ALL", _ALL_IN.get(n.objtype, n.objtype + "S"), "IN", "SCHEMA")
    else:
        w.kw(n.objtype)
    targets = [e.qname(q) for q in n.relations] + list(n.objects)
    w.each(targets, SqlWriter.raw).kw("FROM" if n.revoke else "TO").each(map(_grantee, n.grantees), SqlWriter.raw)
    if n.grant_option and not n.revoke:
        w.kw("WITH", "GRANT", "OPTION")
    if n.cascade:
        w.kw("CASCADE")
    return [w.text()]


_REVOKE_ADMIN = lazyre.compile(r"\s*REVOKE\s+ADMIN\s+OPTION\s+FOR\b", re.I)


@emits(GrantRole)
def grant_role(n: GrantRole, e: Emit) -> list[str]:
    # recovered trees mark REVOKE ADMIN OPTION FOR with admin = false (PostgreSQL 16+ grammar), which reads
    # as a plain REVOKE: the text decides, so that a membership is never revoked instead of its option
    admin = n.admin_option or (n.revoke and _REVOKE_ADMIN.match(n.text) is not None)
    w = e.w().kw("REVOKE" if n.revoke else "GRANT")
    if n.revoke and admin:
        w.kw("ADMIN", "OPTION", "FOR")
    w.each(n.roles, SqlWriter.ident).kw("FROM" if n.revoke else "TO")
    w.each(map(_grantee, n.grantees), SqlWriter.raw)
    if admin and not n.revoke:
        w.kw("WITH", "ADMIN", "OPTION")
    if n.cascade:
        w.kw("CASCADE")
    return [w.text()]  # roles and grantees come from the statement's PostgreSQL parse (build time)


# ---- catalog history ----------------------------------------------------------------------------------------
__all__ = ["UNSUPPORTED", "REFUSED", "PG_PRIVILEGES"]
