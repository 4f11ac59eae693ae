"""GaussDB emitters: ALTER TABLE / INDEX / VIEW / SEQUENCE / TYPE (reference §5.2).

Each subcommand is written back in the deparser's shape: its layout (or the fmt the deparser
writes for it), its ``type`` metadata and its members. Column subcommands are in
:mod:`.alter_columns`, partition subcommands in :mod:`.alter_partitions`.
"""

from __future__ import annotations

from typing import Any

from ...ir.alter import (
    AddConstraint, AddConstraintUsingIndex, AddOf, AlterRelation, AutoIncrement, ChangeOwner, ClusterOn, Collate,
    ConvertCharset, DefaultCharset, DropConstraint, DropForeignKey, DropIndex, DropPrimaryKey, IndexVisibility,
    Inherit, NoInherit, NotOf, OpaqueSubcommand, Rebuild, RebuildPartition, RebuildPartitionAllIndex, RelOption,
    ReplicaIdentity, ReplicaIdentityKind, ResetRelOptions, RowMovement, RowSecurity, RowSecurityAction, RuleState,
    SetCompression, SetRelOptions, SetTablespace, SetWithoutCluster, SetWithoutOids, TableComment, TriggerState,
    TriggerTarget, Unusable, UnusablePartition, ValidateConstraint,
)
from .writer import Writer, emits

from ._common import OWNER_DEFECT, obj, word  # noqa: F401  (shared with the ALTER family)


@emits(AlterRelation)
def alter_relation(n: AlterRelation, w: Writer) -> dict[str, Any]:
    fmt = n.layout or "ALTER %{objtype}s %{only}s %{identity}D %{subcmds:, }s"
    d = {"only": word(n.only, "ONLY"), "objtype": n.objtype.value, "identity": w.qname(n.identity),
         "subcmds": [w.tree(s) for s in n.subcommands]}
    if n.if_exists and "%{if_exists}s" not in fmt:  # GaussDB's form of ALTER TABLE IF EXISTS
        fmt = fmt.replace("ALTER %{objtype}s ", "ALTER %{objtype}s %{if_exists}s ", 1)
    if "%{if_exists}s" in fmt:
        d["if_exists"] = word(n.if_exists, "IF EXISTS")
    return {"fmt": fmt, **d}


@emits(OpaqueSubcommand)
def opaque_subcommand(n: OpaqueSubcommand, w: Writer) -> dict[str, Any]:
    d: dict[str, Any] = {"fmt": "%{text}s", "text": n.text}
    if n.type is not None:
        d["type"] = n.type
    return d


# ---- options (§3.5) -----------------------------------------------------------------------------
@emits(RelOption)
def rel_option(n: RelOption, w: Writer) -> dict[str, Any]:
    label: dict[str, Any] = {"fmt": n.label_layout or ("%{label}I" if n.namespace is None else "%{schema}I. %{label}I"),
                             "label": n.name}
    if n.namespace is not None:
        label["schema"] = n.namespace
    if n.value is None:
        default = "%{label}s"
    else:
        default = "%{label}s = %{value}L" if n.quoted else "%{label}s = %{value}s"
    d: dict[str, Any] = {"fmt": n.layout or default, "label": label}
    if n.value is not None:
        d["value"] = n.value
    return d


@emits(SetRelOptions, ResetRelOptions)
def rel_options(n: SetRelOptions | ResetRelOptions, w: Writer) -> dict[str, Any]:
    return obj(n, "%{set_reset}s (%{options:, }s)", None, options=[w.tree(o) for o in n.options],
               set_reset="RESET" if isinstance(n, ResetRelOptions) else "SET")


# ---- constraints ----------------------------------------------------------------------------------
@emits(AddConstraint)
def add_constraint(n: AddConstraint, w: Writer) -> dict[str, Any]:
    return obj(n, "ADD CONSTRAINT %{name}I %{definition}s", "add constraint", name=n.name,
               definition=n.definition.text)


@emits(AddConstraintUsingIndex)
def add_constraint_using_index(n: AddConstraintUsingIndex, w: Writer) -> dict[str, Any]:
    return obj(n, "ADD CONSTRAINT %{name}I %{constraint_type}s USING INDEX %{index_name}I %{deferrable}s "
               "%{init_deferred}s", "add constraint using index", name=n.name,
               constraint_type=n.constraint_type.value, index_name=n.index,
               deferrable="DEFERRABLE" if n.deferrable else "NOT DEFERRABLE",
               init_deferred="INITIALLY DEFERRED" if n.initially_deferred else "INITIALLY IMMEDIATE")


@emits(ValidateConstraint)
def validate_constraint(n: ValidateConstraint, w: Writer) -> dict[str, Any]:
    return obj(n, "VALIDATE CONSTRAINT %{constraint}I", "validate constraint", constraint=n.name)


@emits(DropConstraint)
def drop_constraint(n: DropConstraint, w: Writer) -> dict[str, Any]:
    return obj(n, "DROP CONSTRAINT %{if_exists}s %{constraint}I %{cascade}s", "drop constraint",
               if_exists=word(n.if_exists, "IF EXISTS"), constraint=n.name, cascade=word(n.cascade, "CASCADE"))


# ---- fixed words ------------------------------------------------------------------------------------
_FIXED: dict[type, tuple[str, str]] = {
    DropPrimaryKey: ("DROP PRIMARY KEY", "drop primary key"),
    SetWithoutCluster: ("SET WITHOUT CLUSTER", "set without cluster"),
    SetWithoutOids: ("SET WITHOUT OIDS", "set without oids"),
    NotOf: ("NOT OF", "not of"),
    Unusable: ("UNUSABLE", "unusable index"),
    Rebuild: ("REBUILD", "rebuild index"),
}


@emits(*_FIXED)
def fixed_words(n: Any, w: Writer) -> dict[str, Any]:
    fmt, type_ = _FIXED[type(n)]
    return obj(n, fmt, type_)


@emits(RowMovement)
def row_movement(n: RowMovement, w: Writer) -> dict[str, Any]:
    verb = "ENABLE" if n.enable else "DISABLE"
    return obj(n, f"{verb} ROW MOVEMENT", f"{verb.lower()} row movement")


@emits(RowSecurity)
def row_security(n: RowSecurity, w: Writer) -> dict[str, Any]:
    type_ = "enable row security" if n.action is RowSecurityAction.ENABLE else "disable row security"
    return obj(n, f"{n.action.value} ROW LEVEL SECURITY", type_)


# ---- triggers and rules ------------------------------------------------------------------------------
@emits(TriggerState)
def trigger_state(n: TriggerState, w: Writer) -> dict[str, Any]:
    type_ = f"{n.mode.value.lower()} trigger"
    if n.target is TriggerTarget.NAMED:
        return obj(n, f"{n.mode.value} TRIGGER %{{trigger}}I", type_, trigger=n.trigger or "")
    return obj(n, f"{n.mode.value} TRIGGER {n.target.value}", f"{type_} {n.target.value.lower()}")


@emits(RuleState)
def rule_state(n: RuleState, w: Writer) -> dict[str, Any]:
    return obj(n, f"{n.mode.value} RULE %{{rule}}I", f"{n.mode.value.lower()} rule", rule=n.rule)


# ---- relation settings ---------------------------------------------------------------------------------
@emits(SetCompression)
def set_compression(n: SetCompression, w: Writer) -> dict[str, Any]:
    return obj(n, "SET %{compression}s", "set compression", compression=n.compression.value)


@emits(AutoIncrement)
def auto_increment(n: AutoIncrement, w: Writer) -> dict[str, Any]:
    conv = "s" if isinstance(n.start, str) else "n"
    return obj(n, f"AUTO_INCREMENT %{{autoincstart}}{conv}", "auto_increment", autoincstart=n.start)


@emits(TableComment)
def table_comment(n: TableComment, w: Writer) -> dict[str, Any]:
    return obj(n, "COMMENT=%{comment}L", "comment", comment=n.comment)


@emits(ChangeOwner)
def change_owner(n: ChangeOwner, w: Writer) -> dict[str, Any]:
    return obj(n, "OWNER TO %{owner}I", "change owner", owner=OWNER_DEFECT if n.owner is None else n.owner)


_ONE: dict[type, tuple[str, str, str, str]] = {  # class -> (fmt, type, member, attribute)
    ClusterOn: ("CLUSTER ON %{index}I", "cluster on", "index", "index"),
    SetTablespace: ("SET TABLESPACE %{tablespace}I", "set tablespace", "tablespace", "tablespace"),
    DefaultCharset: ("DEFAULT CHARACTER SET = %{charset}s", "default character set", "charset", "charset"),
    ConvertCharset: ("CONVERT TO CHARACTER SET %{charset}s", "convert charset", "charset", "charset"),
    Collate: ("COLLATE = %{collate}s", "collate", "collate", "collation"),
    UnusablePartition: ("MODIFY PARTITION %{partition_identity}I UNUSABLE ", "unusable partition index",
                        "partition_identity", "partition"),
    RebuildPartition: ("REBUILD PARTITION %{partition_identity}I", "rebuild partition index",
                       "partition_identity", "partition"),
    RebuildPartitionAllIndex: ("MODIFY PARTITION %{partition_identity}I REBUILD ALL INDEX",
                               "rebuild partition all index", "partition_identity", "partition"),
}


@emits(*_ONE)
def one_member(n: Any, w: Writer) -> dict[str, Any]:
    fmt, type_, member, attr = _ONE[type(n)]
    return obj(n, fmt, type_, **{member: getattr(n, attr)})


@emits(Inherit, NoInherit)
def inherit(n: Inherit | NoInherit, w: Writer) -> dict[str, Any]:
    if isinstance(n, Inherit):
        return obj(n, "INHERIT %{parent}D", "inherit", parent=w.qname(n.parent))
    return obj(n, "NO INHERIT %{parent}D", "drop inherit", parent=w.qname(n.parent))


@emits(AddOf)
def add_of(n: AddOf, w: Writer) -> dict[str, Any]:
    return obj(n, "OF %{type_of}T", "add of", type_of=w.type(n.type))


@emits(ReplicaIdentity)
def replica_identity(n: ReplicaIdentity, w: Writer) -> dict[str, Any]:
    ident: Any = n.kind.value
    if n.kind is ReplicaIdentityKind.INDEX:
        ident = {"fmt": "USING INDEX %{index}I", "index": n.index or ""}
    return obj(n, "REPLICA IDENTITY %{ident}s", "replica identity", ident=ident)


@emits(IndexVisibility)
def index_visibility(n: IndexVisibility, w: Writer) -> dict[str, Any]:
    state = "VISIBLE" if n.visible else "INVISIBLE"
    return obj(n, f"ALTER INDEX %{{name}}I {state}", f"alter index {state.lower()}", name=n.index)


@emits(DropIndex)
def drop_index(n: DropIndex, w: Writer) -> dict[str, Any]:
    return obj(n, "DROP INDEX %{index_identity}I %{cascade}s", "drop index", index_identity=n.index,
               cascade=word(n.cascade, "CASCADE"))


@emits(DropForeignKey)
def drop_foreign_key(n: DropForeignKey, w: Writer) -> dict[str, Any]:
    return obj(n, "DROP FOREIGN KEY %{fk_identity}I %{cascade}s", "drop foreign key", fk_identity=n.name,
               cascade=word(n.cascade, "CASCADE"))
