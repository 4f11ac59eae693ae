"""PostgreSQL: the owners ``--owners`` writes, as pg_dump does: ``ALTER <kind> <name> OWNER TO <role>``
after the statements that create an object with an owner.

The emitters say what they create (``e.own(kind, name)``: tables, each partition table, views,
materialized views, sequences, functions and procedures with their argument types, types, schemas;
indexes and triggers have no owner of their own); the role is the document's ``myowner`` through
``--role-map`` (``EmitContext.owner``, set by the compiler only with ``--owners``). A schema created
with AUTHORIZATION already names its owner and is not altered. Every statement is written through the
:class:`~ddlc.backends.writer.SqlWriter` (the role is an identifier, quoted there).
"""

from __future__ import annotations

from ...diagnostics import Severity, register
from .context import Emit

I_OWNER_WRITTEN = register(
    "DDLC-I746", Severity.INFO, "Owner written (--owners)",
    "With `--owners`, each object a statement creates that has an owner (a table and each of its partition "
    "tables, a view, a materialized view, a sequence, a function or procedure, a type, a schema without "
    "AUTHORIZATION) is given the role that ran the statement (JDDL `myowner`, through `--role-map`) by "
    "`ALTER <kind> <name> OWNER TO <role>` after the statement, as pg_dump writes owners. The role must "
    "exist on the target, and the role applying the DDL must be allowed to give the object to it.",
    "CREATE TABLE public.t (a int) with myowner alice: ALTER TABLE public.t OWNER TO alice",
)
W_RESERVED_ROLE = register(
    "DDLC-W744", Severity.WARNING, "Role name PostgreSQL reserves",
    "PostgreSQL reads the role names `public` and `none` as keywords even when quoted (`\"public\"` is PUBLIC, "
    "`\"none\"` an error), so no role can have them: an AUTHORIZATION, an OWNER TO or an `--owners` owner "
    "naming one is not written (`CREATE SCHEMA AUTHORIZATION none` still creates schema `none`).",
    'CREATE SCHEMA s AUTHORIZATION "none"',
)
# role names PostgreSQL's grammar turns into keywords, quoted or not (gram.y, RoleSpec)
RESERVED_ROLES = frozenset({"public", "none"})
W_OWNER_UNKNOWN = register(
    "DDLC-W749", Severity.WARNING, "Owner unknown (--owners)",
    "`--owners` was asked for, but the document names no owner (a TDDL text, or a tree without `myowner`): "
    "the objects it creates are left to the role that applies the DDL.",
    '{"TDDL": "CREATE TABLE t (a int);"} with --owners',
)


def owner_statements(e: Emit, role: str | None) -> list[str]:
    """``ALTER <kind> <name> OWNER TO <role>`` for each object the statement created (``e.owned``)."""
    if not e.owned:
        return []
    names = ", ".join(f"{' '.join(kind).lower()} {name}" for kind, name in e.owned)
    origin = ()
    if role is None:
        e.diag(W_OWNER_UNKNOWN, f"no owner known for {names} (the document names none): OWNER TO not written",
               origin)
        return []
    if role in RESERVED_ROLES:
        e.diag(W_RESERVED_ROLE, f"owner {role} of {names}: a role name PostgreSQL reserves; OWNER TO not written",
               origin)
        return []
    e.diag(I_OWNER_WRITTEN, f"{names} given to {role} (--owners)", origin)
    return [e.w().kw("ALTER", *kind).raw(name).kw("OWNER", "TO").ident(role).text() for kind, name in e.owned]


__all__ = ["I_OWNER_WRITTEN", "RESERVED_ROLES", "W_OWNER_UNKNOWN", "W_RESERVED_ROLE", "owner_statements"]
