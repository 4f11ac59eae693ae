"""Builders: ALTER TABLE / INDEX / VIEW / SEQUENCE (owner) / TYPE (attributes), reference §5.2.

``ALTER %{objtype}s %{only}s %{identity}D %{subcmds:, }s``; every subcommand is read by the reader
registered for its ``type`` metadata (untyped ones — SET/RESET options and the follow-up forms of
§5.3 — by their ``fmt``). Partition readers and the shared helpers are in :mod:`.alter_partitions`.
Subcommands that are not modelled exactly are kept as opaque text with DDLC-N201 (never dropped).
"""

from __future__ import annotations

from typing import Any

from ...diagnostics import Severity, register
from ...ir.alter import (
    AddConstraint, AddConstraintUsingIndex, AddOf, AlterObjType, AlterRelation, AlterSubcommand,
    AutoIncrement, ChangeOwner, ClusterOn, Collate, Compression, ConvertCharset, DefaultCharset, DropConstraint,
    DropForeignKey, DropIndex, DropPrimaryKey, FireMode, IndexConstraintType, IndexVisibility, Inherit, NoInherit,
    NotOf, OpaqueSubcommand, Rebuild, RebuildPartition, RebuildPartitionAllIndex, RelOption, ReplicaIdentity,
    ReplicaIdentityKind, ResetRelOptions, RowMovement, RowSecurity, RowSecurityAction, RuleState, SetCompression,
    SetRelOptions, SetTablespace, SetWithoutCluster, SetWithoutOids, TableComment, TriggerState, TriggerTarget,
    Unusable, UnusablePartition, ValidateConstraint,
)
from ...ir.alter_columns import (
    AddColumn, AlterColumnType, ChangeColumn, ColumnKind, DropColumn, DropDefault, DropNotNull, ModifyColumn,
    Nullability, ResetColumnOptions, SetColumnOptions, SetDefault, SetNotNull, SetStatistics, SetStorage,
    StorageMode,
)
from ...jddl.keys import canonical_fmt
from ...ir.base import replace
from ...ir.columns import GeneratedKind
from ...ir.followup import ModifyColumnAutoIncrement
from ...ir.statement import Opaque, OpaqueReason, Statement
from ..sql.constraints import read_definition
from . import shape
from ._columns import read_column
from ._read import Obj, member
from .alter_partitions import (
    READERS, UNTYPED, Unmodelled, clause, compile_fmts, flag, number, objects, placeholders, reader, text, word,
)

N_SUBCMD = register(
    "DDLC-N201", Severity.NOTE, "ALTER subcommand not modelled",
    "An ALTER subcommand with an unknown `type`, or a `fmt`/keyword the deparser is not known to "
    "produce for its type, is kept as the server's text (an opaque subcommand): the GaussDB target "
    "prints it unchanged, other targets report it instead of translating it.",
    '{"fmt": "FROBNICATE %{x}I", "type": "frobnicate", "x": "y"}',
)
N_ALTER_SHAPE = register(
    "DDLC-N202", Severity.NOTE, "ALTER statement fmt not modelled",
    "An ALTER TABLE (or follow-up) tree whose top-level `fmt` names members the deparser never writes "
    "there is kept as canonical text.",
)
W_OWNER = register(
    "DDLC-W201", Severity.WARNING, "OWNER TO names no role",
    "The deparser writes the literal string `subcmd->newowner` instead of the new owner "
    "(jddl-shapes.md §10.1), so the text `OWNER TO \"subcmd->newowner\"` names a role that does not "
    "exist. The owner is unknown; the subcommand is kept with no owner.",
    '{"fmt": "OWNER TO %{owner}I", "type": "change owner", "owner": "subcmd->newowner"}',
)
W_REBUILD_ALL = register(
    "DDLC-W202", Severity.WARNING, "MODIFY PARTITION ... REBUILD ALL INDEX is not grammar",
    "`MODIFY PARTITION p REBUILD UNUSABLE LOCAL INDEXES` is written by the deparser as "
    "`MODIFY PARTITION p REBUILD ALL INDEX` (jddl-shapes.md §10.6), which openGauss does not parse.",
)

OWNER_DEFECT = "subcmd->newowner"


def _kw(o: Obj) -> dict[str, Any]:
    return {"layout": o.fmt, "origin": o.path}


# ---- columns -------------------------------------------------------------------------------------
_COLUMN_KEYS = {"name", "coltype", "column_type", "collation", "auto_increment", "default", "on_update", "not_null",
                "generated_column", "collate"}
_DEFAULT = "DEFAULT %{default}s"
_COLLATE = "COLLATE %{name}D"
_GENERATED = {"GENERATED ALWAYS AS (%{generation_expr}s) STORED": GeneratedKind.STORED,
              "AS (%{generation_expr}s) PERSISTED": GeneratedKind.PERSISTED}


def _kind(o: Obj) -> ColumnKind:
    return member(ColumnKind, word(o, "objtype", "COLUMN", "ATTRIBUTE"))


def _cascade_clause(o: Obj) -> bool:
    """``cascade`` as an object ``{"fmt": "CASCADE", "present": bool}`` (or a plain word)."""
    if isinstance(o.raw("cascade", None), str):
        return flag(o, "cascade", "CASCADE")
    return clause(o, "cascade", "CASCADE") is not None


def _collation(o: Obj) -> Any:
    c = clause(o, "collation", _COLLATE)
    return None if c is None else c.qname("name")


@reader("add column", fmt="ADD %{objtype}s %{if_not_exists}s %{definition}s %{cascade}s"
                          "[ %{add_first}s| %{add_after_name}s]")
def _add_column(o: Obj, t: str) -> AddColumn:
    d = o.obj("definition")
    extra = placeholders(d.fmt) - _COLUMN_KEYS
    if extra:
        raise Unmodelled(f"column definition names {sorted(extra)}", d.at("fmt"))
    clause(d, "default", _DEFAULT)
    clause(d, "collation", _COLLATE)
    clause(d, "generated_column", *_GENERATED)
    after = clause(o, "add_after_name", "AFTER %{name}I")
    col = read_column(d)
    if "%{default}s" not in d.fmt and "%{generated_column}s" not in d.fmt:
        col = replace(col, auto_increment=True)  # the ALTER form stops after the collation (§3.3)
    return AddColumn(col, _kind(o), flag(o, "if_not_exists", "IF NOT EXISTS"), flag(o, "cascade", "CASCADE"),
                     clause(o, "add_first", "FIRST") is not None, None if after is None else after.str("name"),
                     **_kw(o))


@reader("drop column", fmt="DROP %{objtype}s %{if_exists}s %{column}I %{cascade}s")
def _drop_column(o: Obj, t: str) -> DropColumn:
    return DropColumn(o.str("column"), _kind(o), flag(o, "if_exists", "IF EXISTS"), _cascade_clause(o), **_kw(o))


@reader("alter column type", fmt="ALTER %{objtype}s %{column}I SET DATA TYPE %{datatype}T %{collation}s"
                                 "[ %{using}s| %{cascade}s]")
def _alter_column_type(o: Obj, t: str) -> AlterColumnType:
    using = clause(o, "using", "USING %{expression}s")
    return AlterColumnType(o.str("column"), o.typename("datatype"), _kind(o), _collation(o),
                           None if using is None else using.expr("expression"), _cascade_clause(o), **_kw(o))


@reader("set default", fmt="ALTER COLUMN %{column}I SET DEFAULT[ %{definition}s]")
def _set_default(o: Obj, t: str) -> SetDefault:
    default = o.expr("definition") if o.has("definition") else None
    return SetDefault(o.str("column"), default, **_kw(o))


@reader(fmt="ALTER COLUMN %{name}I SET DEFAULT %{default}s")  # follow-up form (§5.3), no type
def _set_default_followup(o: Obj, t: str) -> SetDefault:
    return SetDefault(o.str("name"), o.expr("default"), **_kw(o))


@reader(fmt="MODIFY COLUMN %{colname}I %{coltype}T AUTO_INCREMENT[ NULL]")  # follow-up form, no type
def _modify_auto_increment(o: Obj, t: str) -> ModifyColumnAutoIncrement:
    return ModifyColumnAutoIncrement(o.str("colname"), o.typename("coltype"), o.fmt.endswith(" NULL"), **_kw(o))


def _column_only(cls: type) -> Any:
    def read(o: Obj, t: str) -> AlterSubcommand:
        return cls(o.str("column"), **_kw(o))
    return read


reader("drop default", fmt="ALTER COLUMN %{column}I DROP DEFAULT")(_column_only(DropDefault))
reader("set not null", fmt="ALTER COLUMN %{column}I SET NOT NULL")(_column_only(SetNotNull))
reader("drop not null", fmt="ALTER COLUMN %{column}I DROP NOT NULL")(_column_only(DropNotNull))


@reader("set statistics", fmt="ALTER COLUMN %{column}I SET STATISTICS %{statistics}n"
                              "|ALTER COLUMN %{column}n SET STATISTICS PERCENT %{statistics}n")
def _set_statistics(o: Obj, t: str) -> SetStatistics:
    return SetStatistics(o.str("column"), number(o, "statistics"), " PERCENT " in o.fmt, **_kw(o))


@reader("set storage", fmt="ALTER COLUMN %{column}I SET STORAGE %{storage}s")
def _set_storage(o: Obj, t: str) -> SetStorage:
    return SetStorage(o.str("column"), StorageMode(word(o, "storage", *_STORAGE_MODES)), **_kw(o))


def _options(o: Obj) -> tuple[RelOption, ...]:
    out = []
    for e in objects(o, "options"):
        if e.fmt not in ("%{label}s", "%{label}s = %{value}s", "%{label}s = %{value}L"):
            raise Unmodelled(f"option fmt {e.fmt!r}", e.at("fmt"))
        label = e.obj("label")
        if label.fmt not in ("%{label}I", "%{schema}I. %{label}I"):
            raise Unmodelled(f"option label fmt {label.fmt!r}", label.at("fmt"))
        namespace = label.str("schema") if "%{schema}I" in label.fmt else None
        value = e.str("value") if "%{value}" in e.fmt else None
        out.append(RelOption(label.str("label"), value, namespace, e.fmt.endswith("%{value}L"), layout=e.fmt,
                             label_layout=label.fmt, origin=e.path))
    return tuple(out)


@reader(fmt="ALTER COLUMN %{column}I %{option}s (%{options:, }s)")
def _column_options(o: Obj, t: str) -> AlterSubcommand:
    cls = ResetColumnOptions if word(o, "option", "SET", "RESET") == "RESET" else SetColumnOptions
    return cls(o.str("column"), _options(o), **_kw(o))


@reader(fmt="%{set_reset}s (%{options:, }s)")
def _rel_options(o: Obj, t: str) -> AlterSubcommand:
    cls = ResetRelOptions if word(o, "set_reset", "SET", "RESET") == "RESET" else SetRelOptions
    return cls(_options(o), **_kw(o))


_REDEFINE = ("%{datatype}T[ CHARACTER SET %{charset}s][ ON UPDATE %{on_update}s][ %{not_null}s]"
             "[ %{generated_column}s][ %{default}s][ COLLATE %{name}D][ FIRST| AFTER %{col}I]")


def _redefinition(o: Obj) -> dict[str, Any]:
    """The optional parts MODIFY and CHANGE share (§5.2, ``deparse_ColumnDef_constraints``)."""
    gen = clause(o, "generated_column", *_GENERATED)
    default = clause(o, "default", _DEFAULT)
    not_null = word(o, "not_null", "NOT NULL", "NULL") if o.has("not_null") else None
    on_update = text(o, "on_update")
    return dict(
        type=o.typename("datatype"), charset=text(o, "charset"),
        on_update=None if on_update is None else o.expr("on_update"),
        nullability=None if not_null is None else Nullability(not_null),
        default=None if default is None else default.expr("default"),
        generated=None if gen is None else gen.expr("generation_expr"),
        generated_kind=_GENERATED[gen.fmt] if gen is not None else GeneratedKind.STORED,
        auto_increment="%{default}s" not in o.fmt and "%{generated_column}s" not in o.fmt,
        collation=o.qname("name") if "%{name}D" in o.fmt else None,
        first=o.fmt.endswith(" FIRST"), after=o.str("col") if "%{col}I" in o.fmt else None, **_kw(o))


@reader("modify column", fmt="MODIFY COLUMN %{column}I " + _REDEFINE)
def _modify_column(o: Obj, t: str) -> ModifyColumn:
    return ModifyColumn(o.str("column"), **_redefinition(o))


@reader("change coulumn", "change column", fmt="CHANGE %{ori_column}I %{column}I " + _REDEFINE)
def _change_column(o: Obj, t: str) -> ChangeColumn:
    return ChangeColumn(o.str("ori_column"), o.str("column"), **_redefinition(o))


# ---- constraints -----------------------------------------------------------------------------------
@reader("add constraint", fmt="ADD CONSTRAINT %{name}I %{definition}s")
def _add_constraint(o: Obj, t: str) -> AddConstraint:
    definition = o.expr("definition")
    read = read_definition(definition.text, definition.origin)
    return AddConstraint(o.str("name"), definition, read.parsed, read.kind, read.informational, read.disabled,
                         read.match_partial, read.verbatim, **_kw(o))


@reader("add constraint using index", fmt="ADD CONSTRAINT %{name}I %{constraint_type}s USING INDEX "
                                          "%{index_name}I %{deferrable}s %{init_deferred}s")
def _add_constraint_using_index(o: Obj, t: str) -> AddConstraintUsingIndex:
    ctype = IndexConstraintType(word(o, "constraint_type", "PRIMARY KEY", "UNIQUE"))
    deferrable = word(o, "deferrable", "DEFERRABLE", "NOT DEFERRABLE") == "DEFERRABLE"
    deferred = word(o, "init_deferred", "INITIALLY DEFERRED", "INITIALLY IMMEDIATE") == "INITIALLY DEFERRED"
    return AddConstraintUsingIndex(o.str("name"), ctype, o.str("index_name"), deferrable, deferred, **_kw(o))


@reader("validate constraint", fmt="VALIDATE CONSTRAINT %{constraint}I")
def _validate_constraint(o: Obj, t: str) -> ValidateConstraint:
    return ValidateConstraint(o.str("constraint"), **_kw(o))


@reader("drop constraint", fmt="DROP CONSTRAINT %{if_exists}s %{constraint}I %{cascade}s")
def _drop_constraint(o: Obj, t: str) -> DropConstraint:
    return DropConstraint(o.str("constraint"), flag(o, "if_exists", "IF EXISTS"), flag(o, "cascade", "CASCADE"),
                          **_kw(o))


# ---- fixed words -------------------------------------------------------------------------------------
def _fixed(node: Any) -> Any:
    def read(o: Obj, t: str) -> AlterSubcommand:
        return node(**_kw(o))
    return read


for _t, _fmt, _node in (
    ("drop primary key", "DROP PRIMARY KEY", DropPrimaryKey),
    ("set without cluster", "SET WITHOUT CLUSTER", SetWithoutCluster),
    ("set without oids", "SET WITHOUT OIDS", SetWithoutOids),
    ("not of", "NOT OF", NotOf),
    ("unusable index", "UNUSABLE", Unusable),
    ("rebuild index", "REBUILD", Rebuild),
    ("enable row movement", "ENABLE ROW MOVEMENT", lambda **kw: RowMovement(True, **kw)),
    ("disable row movement", "DISABLE ROW MOVEMENT", lambda **kw: RowMovement(False, **kw)),
    ("enable row security", "ENABLE ROW LEVEL SECURITY", lambda **kw: RowSecurity(RowSecurityAction.ENABLE, **kw)),
):
    reader(_t, fmt=_fmt)(_fixed(_node))


@reader("disable row security", fmt="DISABLE ROW LEVEL SECURITY|FORCE ROW LEVEL SECURITY"
                                    "|NO FORCE ROW LEVEL SECURITY")
def _row_security(o: Obj, t: str) -> RowSecurity:
    return RowSecurity(RowSecurityAction(o.fmt[: -len(" ROW LEVEL SECURITY")]), **_kw(o))


# ---- triggers and rules -------------------------------------------------------------------------------
def _trigger(mode: FireMode, target: TriggerTarget) -> Any:
    def read(o: Obj, t: str) -> TriggerState:
        name = o.str("trigger") if target is TriggerTarget.NAMED else None
        return TriggerState(mode, name, target, **_kw(o))
    return read


def _rule(mode: FireMode) -> Any:
    def read(o: Obj, t: str) -> RuleState:
        return RuleState(mode, o.str("rule"), **_kw(o))
    return read


for _mode in FireMode:
    _words = _mode.value.lower()
    reader(f"{_words} trigger", fmt=f"{_mode.value} TRIGGER %{{trigger}}I")(_trigger(_mode, TriggerTarget.NAMED))
    reader(f"{_words} rule", fmt=f"{_mode.value} RULE %{{rule}}I")(_rule(_mode))
for _mode in (FireMode.ENABLE, FireMode.DISABLE):
    for _target in (TriggerTarget.ALL, TriggerTarget.USER):
        reader(f"{_mode.value.lower()} trigger {_target.value.lower()}",
               fmt=f"{_mode.value} TRIGGER {_target.value}")(_trigger(_mode, _target))


# ---- relation settings ---------------------------------------------------------------------------------
@reader("set compression", fmt="SET %{compression}s")
def _set_compression(o: Obj, t: str) -> SetCompression:
    return SetCompression(Compression(word(o, "compression", "COMPRESS", "NOCOMPRESS")), **_kw(o))


@reader("auto_increment", fmt="AUTO_INCREMENT %{autoincstart}n|AUTO_INCREMENT %{autoincstart}s")
def _auto_increment(o: Obj, t: str) -> AutoIncrement:
    start = o.str("autoincstart") if o.fmt.endswith("s") else number(o, "autoincstart")
    return AutoIncrement(start, **_kw(o))


@reader("comment", fmt="COMMENT=%{comment}L")
def _comment(o: Obj, t: str) -> TableComment:
    return TableComment(o.str("comment"), **_kw(o))


@reader("change owner", fmt="OWNER TO %{owner}I")
def _change_owner(o: Obj, t: str) -> ChangeOwner:
    owner: str | None = o.str("owner")
    if owner == OWNER_DEFECT:
        o.ctx.diag(W_OWNER, 'OWNER TO "subcmd->newowner": the new owner is unknown', o.at("owner"))
        owner = None
    return ChangeOwner(owner, **_kw(o))


def _one(cls: type, key: str) -> Any:
    def read(o: Obj, t: str) -> AlterSubcommand:
        return cls(o.str(key), **_kw(o))
    return read


reader("cluster on", fmt="CLUSTER ON %{index}I")(_one(ClusterOn, "index"))
reader("set tablespace", fmt="SET TABLESPACE %{tablespace}I")(_one(SetTablespace, "tablespace"))
reader("default character set", fmt="DEFAULT CHARACTER SET = %{charset}s")(_one(DefaultCharset, "charset"))
reader("convert charset", fmt="CONVERT TO CHARACTER SET %{charset}s")(_one(ConvertCharset, "charset"))
reader("collate", fmt="COLLATE = %{collate}s")(_one(Collate, "collate"))
reader("unusable partition index",
       fmt="MODIFY PARTITION %{partition_identity}I UNUSABLE ")(_one(UnusablePartition, "partition_identity"))
reader("rebuild partition index",
       fmt="REBUILD PARTITION %{partition_identity}I")(_one(RebuildPartition, "partition_identity"))


@reader("rebuild partition all index", fmt="MODIFY PARTITION %{partition_identity}I REBUILD ALL INDEX")
def _rebuild_all_index(o: Obj, t: str) -> RebuildPartitionAllIndex:
    o.ctx.diag(W_REBUILD_ALL, "MODIFY PARTITION ... REBUILD ALL INDEX is not openGauss grammar "
               "(was REBUILD UNUSABLE LOCAL INDEXES)", o.at("fmt"))
    return RebuildPartitionAllIndex(o.str("partition_identity"), **_kw(o))


@reader("inherit", fmt="INHERIT %{parent}D")
def _inherit(o: Obj, t: str) -> Inherit:
    return Inherit(o.qname("parent"), **_kw(o))


@reader("drop inherit", fmt="NO INHERIT %{parent}D")
def _no_inherit(o: Obj, t: str) -> NoInherit:
    return NoInherit(o.qname("parent"), **_kw(o))


@reader("add of", fmt="OF %{type_of}T")
def _add_of(o: Obj, t: str) -> AddOf:
    return AddOf(o.typename("type_of"), **_kw(o))


@reader("replica identity", fmt="REPLICA IDENTITY %{ident}s")
def _replica_identity(o: Obj, t: str) -> ReplicaIdentity:
    if isinstance(o.raw("ident"), str):
        return ReplicaIdentity(ReplicaIdentityKind(word(o, "ident", "DEFAULT", "FULL", "NOTHING")), **_kw(o))
    ident = clause(o, "ident", "USING INDEX %{index}I")
    if ident is None:
        raise Unmodelled("REPLICA IDENTITY without identity", o.at("ident"))
    return ReplicaIdentity(ReplicaIdentityKind.INDEX, ident.str("index"), **_kw(o))


@reader("alter index invisible", "alter index visible", fmt="ALTER INDEX %{name}I {INVISIBLE|VISIBLE}")
def _index_visibility(o: Obj, t: str) -> IndexVisibility:
    visible = not o.fmt.endswith("INVISIBLE")
    if visible != (t == "alter index visible"):
        raise Unmodelled(f"type {t!r} disagrees with fmt", o.at("fmt"))
    return IndexVisibility(o.str("name"), visible, **_kw(o))


@reader("drop index", fmt="DROP INDEX %{index_identity}I %{cascade}s")
def _drop_index(o: Obj, t: str) -> DropIndex:
    return DropIndex(o.str("index_identity"), flag(o, "cascade", "CASCADE"), **_kw(o))


@reader("drop foreign key", fmt="DROP FOREIGN KEY %{fk_identity}I %{cascade}s")
def _drop_foreign_key(o: Obj, t: str) -> DropForeignKey:
    return DropForeignKey(o.str("fk_identity"), flag(o, "cascade", "CASCADE"), **_kw(o))


# ---- dispatch ---------------------------------------------------------------------------------------------
def _opaque(o: Obj, t: str | None, reason: str, path: Any) -> OpaqueSubcommand:
    from ...jddl.expand import expand

    o.ctx.diag(N_SUBCMD, f"subcommand {t or o.fmt!r} not modelled ({reason}); kept as text", path)
    return OpaqueSubcommand(expand(o.d, document=o.ctx.document, path=o.path), t, origin=o.path)


def read_subcommand(o: Obj) -> AlterSubcommand:
    """One element of ``subcmds`` as its typed IR node (opaque with DDLC-N201 when not modelled)."""
    t = o.d.get("type")
    try:
        if t is not None and not isinstance(t, str):
            t = None
            raise Unmodelled("type metadata is not a string", o.at("type"))
        fn, why = _reader_of(t, o.fmt)
        if fn is None:
            if why == "untyped":
                raise Unmodelled("untyped subcommand with an unknown fmt", o.at("fmt"))
            if why == "type":
                raise Unmodelled("unknown type", o.at("type"))
            raise Unmodelled(f"unexpected fmt {o.fmt!r}", o.at("fmt"))
        return fn(o, "" if t is None else t)
    except Unmodelled as u:
        return _opaque(o, t, u.reason, u.path)


def _reader_of(t: str | None, raw_fmt: str) -> tuple[Any, str | None]:
    """``(reader, None)`` of a subcommand's type and fmt, or ``(None, why)``: "untyped" (no type, no fmt
    matches), "type" (an unknown type), "fmt" (the type's reader does not read that fmt). Remembered per
    (type, fmt): a stream repeats a few hundred."""
    if _SEEN_SIZES[0] != (len(READERS), len(UNTYPED)):  # (a reader registered since: judge again)
        _READER_OF.clear()
        _SEEN_SIZES[0] = (len(READERS), len(UNTYPED))
    key = (t, raw_fmt)
    hit = _READER_OF.get(key)
    if hit is None:
        hit = _judge_reader(t, canonical_fmt(raw_fmt))  # GaussDB's key spellings read as openGauss's
        if len(_READER_OF) >= 4096:
            _READER_OF.clear()
        _READER_OF[key] = hit
    return hit


def _judge_reader(t: str | None, fmt: str) -> tuple[Any, str | None]:
    if t is None:
        for rx, fn in UNTYPED:
            if rx.fullmatch(fmt):
                return fn, None
        return None, "untyped"
    entry = READERS.get(t)
    if entry is None:
        return None, "type"
    rx, fn = entry
    if not rx.fullmatch(fmt):
        return None, "fmt"
    return fn, None


_READER_OF: dict[tuple[str | None, str], tuple[Any, str | None]] = {}
_SEEN_SIZES: list[tuple[int, int]] = [(-1, -1)]


def read_subcommands(o: Obj) -> tuple[AlterSubcommand, ...]:
    v = o.raw("subcmds")
    if not isinstance(v, list):
        raise o.ctx.error('element "subcmds" must be an array', o.at("subcmds"))
    out: list[AlterSubcommand] = []
    for i, e in enumerate(v):
        path = o.at("subcmds") + (i,)
        if isinstance(e, dict):
            if e.get("present", True) is not False:
                out.append(read_subcommand(Obj(e, path, o.ctx)))
        elif isinstance(e, str):  # expands verbatim; nothing to model
            o.ctx.diag(N_SUBCMD, "subcommand given as a plain string; kept as text", path)
            out.append(OpaqueSubcommand(e, origin=path))
        else:
            raise o.ctx.error("subcommands must be objects", path)
    return tuple(out)


def opaque_statement(o: Obj, what: str, kind: str = "ALTER TABLE") -> Statement:
    """A top-level tree of this family whose fmt is not modelled, kept as canonical text (DDLC-N202)."""
    from ...quoting import canonicalize
    from ...jddl.expand import expand

    o.ctx.diag(N_ALTER_SHAPE, f"{what} fmt {o.fmt!r} not modelled; kept as text", o.at("fmt"))
    return Opaque(canonicalize(expand(o.d, document=o.ctx.document)), kind=kind,
                  reason=OpaqueReason.NO_SHAPE, layout=None, origin=o.path)


_OBJTYPES = tuple(t.value for t in AlterObjType)  # (the enum's values once, not per document)
_STORAGE_MODES = tuple(m.value for m in StorageMode)

# GaussDB writes ``ALTER TABLE IF EXISTS t ...`` with an ``if_exists`` member before ``only`` (the
# documented decoding of ``ALTER TABLE IF EXISTS tb5 * ADD COLUMN IF NOT EXISTS c2 ... AFTER c1``)
_STATEMENT = compile_fmts("ALTER %{objtype}s[ %{if_exists}s] %{only}s %{identity}D %{subcmds:, }s")


@shape("alter-relation", r"ALTER %\{objtype\}s (?:%\{if_exists\}s )?%\{only\}s")
def build_alter_relation(o: Obj) -> Statement:
    if not _STATEMENT.fullmatch(o.fmt):
        return opaque_statement(o, "ALTER")
    try:
        objtype = member(AlterObjType, word(o, "objtype", *_OBJTYPES))
        only = word(o, "only", "", "ONLY") == "ONLY"
        if_exists = "%{if_exists}s" in o.fmt and word(o, "if_exists", "", "IF EXISTS") == "IF EXISTS"
    except Unmodelled as u:
        return opaque_statement(o, f"ALTER ({u.reason})")
    return AlterRelation(objtype, o.qname("identity"), read_subcommands(o), only, if_exists, **_kw(o))
