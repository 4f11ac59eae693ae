"""The statement base class and the statements every family may fall back to."""

from __future__ import annotations

import enum

from .base import Node, layout_field, node


@node
class Statement(Node):
    """Base of every top-level statement.

    ``layout`` is the ``fmt`` of the JDDL object the node was built from (formatting only: it
    records which optional slots the server left blank, so canonical GaussDB text is lossless).
    A statement made by a pass has ``layout=None`` and is written in the deparser's default form.
    """

    layout: str | None = layout_field()


class OpaqueReason(str, enum.Enum):
    NO_SHAPE = "no-shape"  # a statement kind GaussDB decodes but with no known JDDL tree shape
    UNPARSED = "unparsed"  # TDDL text that pglast cannot parse (GaussDB-only syntax)


@node
class Opaque(Statement):
    """A statement kept as canonical GaussDB text (with a diagnostic); never dropped silently."""

    text: str
    kind: str = ""  # best guess at the statement kind ("CREATE PACKAGE", "REINDEX"...)
    reason: OpaqueReason = OpaqueReason.UNPARSED
