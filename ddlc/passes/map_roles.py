"""map_roles: ``--role-map src=dst`` renames roles everywhere; ``--no-owner`` removes ownership.

Role names sit in plain fields of the IR: ``CREATE SCHEMA ... AUTHORIZATION r``, ``ALTER ... OWNER TO r``,
the B-compatibility ``DEFINER = r`` of functions, triggers and events, and the roles and grantees of
GRANT / REVOKE. With ``role_map`` each one that names a mapped role is renamed (a grantee ``PUBLIC``,
``CURRENT_USER`` and the other role words are keywords, not role names, and are never mapped). The owner
``--owners`` writes after a CREATE (the document's ``myowner``) is mapped by :func:`map_role`, the
same mapping, called by the compiler.

With ``no_owner`` (pg_dump's ``--no-owner``), whatever says who owns an object is removed, with
DDLC-I502: AUTHORIZATION (``CREATE SCHEMA AUTHORIZATION r``, which names the schema after the role,
keeps that name), ``OWNER TO`` subcommands (an ALTER left with none writes nothing) and DEFINER.
Privileges (GRANT / REVOKE) are not ownership and are kept.

Nodes are rebuilt with :func:`ddlc.ir.base.replace`, which clears the source text a changed field
was parsed from (a function's text is then written from its fields on the GaussDB target).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..diagnostics import Diagnostic, Severity, register
from ..ir.alter import AlterRelation, ChangeOwner
from ..ir.base import replace, transform
from ..ir.statement import Opaque, OpaqueReason, Statement

I_NO_OWNER = register(
    "DDLC-I502", Severity.INFO, "Ownership dropped (--no-owner)",
    "With `--no-owner` (pg_dump's flag of that name) nothing that says who owns an object is written: "
    "`CREATE SCHEMA s AUTHORIZATION r` becomes `CREATE SCHEMA s` (`CREATE SCHEMA AUTHORIZATION r` becomes "
    "`CREATE SCHEMA r`, the name it stands for), `OWNER TO r` subcommands are removed (an ALTER that held "
    "nothing else writes nothing) and `DEFINER = r` is removed. The objects belong to the role that "
    "applies the DDL. GRANT / REVOKE are kept.",
    "CREATE SCHEMA hr AUTHORIZATION hr_admin with --no-owner",
)

# fields holding one role name / a tuple of role names, by IR class name (classes live in their families)
ROLE_FIELDS: dict[str, tuple[str, ...]] = {
    "CreateSchema": ("authorization",),
    "ChangeOwner": ("owner",),
    "CreateFunction": ("definer",),
    "CreateTrigger": ("definer",),
    "CreateEvent": ("definer",),
    "AlterEvent": ("definer",),
}
ROLE_TUPLES: dict[str, tuple[str, ...]] = {
    "Grant": ("grantees",),
    "GrantRole": ("roles", "grantees"),
}
# spellings that are not role names (GRANT ... TO PUBLIC, OWNER TO CURRENT_USER...): never mapped
ROLE_WORDS = frozenset({"PUBLIC", "CURRENT_USER", "CURRENT_ROLE", "SESSION_USER"})
_DEFINERS = frozenset({"CreateFunction", "CreateTrigger", "CreateEvent", "AlterEvent"})


def map_role(name: str | None, mapping: Mapping[str, str], words: bool = False) -> str | None:
    """``name`` through ``--role-map`` (unchanged when not mapped). ``words``: ``name`` is a grantee, where
    ``PUBLIC``, ``CURRENT_USER``... are keywords, not role names, and are never mapped."""
    if name is None or (words and name in ROLE_WORDS):
        return name
    return mapping.get(name, name)


def map_roles(stmt: Statement, ctx) -> tuple[Statement, list[Diagnostic]]:
    mapping = ctx.role_map
    no_owner = ctx.no_owner
    if not mapping and not no_owner:
        return stmt, []
    diags: list[Diagnostic] = []

    def note(message: str, node) -> None:
        diags.append(Diagnostic(I_NO_OWNER, message, node.origin, document=ctx.document, pass_name="map_roles"))

    def fn(node):
        name = type(node).__name__
        if mapping:
            fields = ROLE_FIELDS.get(name)
            if fields:
                changes = {f: new for f in fields
                           if isinstance(old := getattr(node, f), str) and (new := map_role(old, mapping)) != old}
                if changes:
                    node = replace(node, **changes)
            tuples = ROLE_TUPLES.get(name)
            if tuples:
                changes = {}
                for f in tuples:
                    old_t = getattr(node, f)
                    new_t = tuple(map_role(r, mapping, words=f == "grantees") for r in old_t)
                    if new_t != old_t:
                        changes[f] = new_t
                if changes:
                    node = replace(node, **changes)
        if no_owner:
            if name == "CreateSchema" and node.authorization is not None:
                note(f"AUTHORIZATION {node.authorization} dropped (--no-owner)", node)
                node = replace(node, name=node.name or node.authorization, authorization=None, layout=None)
            elif name in _DEFINERS and getattr(node, "definer", None) is not None:
                note(f"DEFINER {node.definer} dropped (--no-owner)", node)
                node = replace(node, definer=None)
            elif isinstance(node, AlterRelation) and any(type(s) is ChangeOwner for s in node.subcommands):
                for s in node.subcommands:
                    if type(s) is ChangeOwner:
                        note(f"OWNER TO {s.owner or '(unknown)'} dropped (--no-owner)", s)
                kept = tuple(s for s in node.subcommands if type(s) is not ChangeOwner)
                if not kept:  # nothing else to do: the statement writes nothing (said by the notes above)
                    return Opaque("", kind="dropped", reason=OpaqueReason.UNPARSED, origin=node.origin)
                node = replace(node, subcommands=kept, layout=None)
        return node

    return transform(stmt, fn), diags


def _may_change(cls: type, ctx) -> bool:
    return bool(ctx.role_map) or ctx.no_owner


map_roles.may_change = _may_change  # type: ignore[attr-defined]


__all__ = ["I_NO_OWNER", "ROLE_FIELDS", "ROLE_TUPLES", "ROLE_WORDS", "map_role", "map_roles"]
