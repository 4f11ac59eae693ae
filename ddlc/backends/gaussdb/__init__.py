"""GaussDB target: the exact text the database itself prints.

The IR is written back as a JDDL tree in the deparser's own shape (``to_jddl``: one emitter per IR
node class, collected from the family modules into :attr:`GaussDBBackend.emitters`), and that tree
is expanded exactly as openGauss does. ``raw`` mode is the expansion byte for byte; ``canonical``
(the default) is GaussDB's TDDL form. Lossless invariant: for every shape the builder knows,
``expand(to_jddl(build(tree)))`` equals the expansion of ``tree`` (tests/test_lossless.py).
"""

from __future__ import annotations

import sys
from typing import Any

from ...ir.base import Node
from ...diagnostics import Diagnostic, Severity, register
from ...ir.owners import creates_owned
from ...ir.statement import Opaque
from ...jddl.expand import expand
from ...quoting import canonicalize, quote_ident, quote_literal
from ...ir.misc import CreateTableAs
from ..base import Backend, Dialect, EmitContext, Emitted, gather, line_comment, table_of
from . import (
    alter, alter_columns, alter_partitions, comment, drop, event, followup, index, misc, rename, routine, schema,
    sequence, set_schema, table, trigger, typedef, view,
)
from .writer import Writer, emits

TARGET = "gaussdb"
N_OWNERS = register(
    "DDLC-N002", Severity.NOTE, "Owner not written on the GaussDB target (--owners)",
    "`--owners` writes `ALTER ... OWNER TO <myowner>` after each CREATE on the PostgreSQL target; ddlc does "
    "not write it on the GaussDB target yet. The statement itself (with its AUTHORIZATION, OWNER TO and "
    "DEFINER) is written as the source has it.",
    "CREATE TABLE public.t (a int) with myowner alice and --owners --to gaussdb",
)


@emits(Opaque)
def opaque(n: Opaque, w: Writer) -> dict[str, Any]:
    return {"fmt": "%{text}s", "text": n.text}


class GaussDBBackend(Backend):
    """GaussDB/openGauss: every statement is written back in the deparser's shape and expanded."""

    name = TARGET
    title = "GaussDB / openGauss (canonical TDDL text)"
    dialect = Dialect("gaussdb", quote_ident, quote_literal, line_comment)
    passes_source_text = True  # GaussDB's own TDDL text is its exact output...
    # ...except where the text would not do what the decoded log means: a CTAS / SELECT INTO would copy rows
    # (GaussDB decodes it as the table's CREATE TABLE alone), so it is recovered and written from the IR
    source_text_unless = (CreateTableAs,)
    gsql_blocks = True  # packages and anonymous blocks end with a "/" line
    emitters = table_of(
        alter, alter_columns, alter_partitions, comment, drop, event, followup, index, misc, rename, routine,
        schema, sequence, set_schema, table, trigger, typedef, view, sys.modules[__name__],
    )
    rules = gather(misc, name="UNSUPPORTED")

    def emit(self, stmt: Node, ctx: EmitContext) -> Emitted:
        mode = ctx.options.mode if ctx.options is not None else "canonical"
        if type(stmt) is Opaque and stmt.kind == "dropped":  # removed whole by a pass (--no-owner), which said so
            return Emitted([])
        if getattr(stmt, "unpastable", ()):  # the frontend's slot check: a fragment the server never writes so
            from ...diagnostics import E_FRAGMENT
            from ...errors import DdlcError

            raise DdlcError("a server fragment holds what the server never writes there (an SQL comment, or an "
                            "unescaped quote): the GaussDB target writes fragments as they came, so it refuses "
                            "the statement (the other targets print the fragment from its parse)",
                            code=E_FRAGMENT, path=stmt.unpastable[0], document=ctx.document)
        notes = []
        if ctx.owner is not None and creates_owned(stmt):
            notes.append(Diagnostic(N_OWNERS, f"--owners: OWNER TO {ctx.owner} not written on the GaussDB target",
                                    stmt.origin, target=TARGET, document=ctx.document))
        if ctx.source is not None:  # no pass changed the statement: the input's own expansion is exact
            return Emitted([ctx.source if mode == "raw" else canonicalize(ctx.source)], notes)
        return Emitted([emit(stmt, mode=mode)], notes)


def to_jddl(stmt: Node) -> dict[str, Any]:
    return Writer(GaussDBBackend.emitters).tree(stmt)


def emit(stmt: Node, *, mode: str = "canonical") -> str:
    text = expand(to_jddl(stmt))
    return text if mode == "raw" else canonicalize(text)


__all__ = ["GaussDBBackend", "Writer", "emit", "emits", "to_jddl"]
