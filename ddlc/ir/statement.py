"""The statement base class and the statements every family may fall back to."""

from __future__ import annotations

import enum

from ..errors import Path
from .base import Node, layout_field, node


@node
class Statement(Node, kw_only=True):
    """Base of every top-level statement.

    ``layout`` is the ``fmt`` of the JDDL object the node was built from (formatting only: it
    records which optional slots the server left blank, so canonical GaussDB text is lossless).
    A statement made by a pass has ``layout=None`` and is written in the deparser's default form.

    ``unpastable``: the JSON paths of server fragments the frontend's slot check found that a target
    must not write as they came (a fragment holding an SQL comment, which the server never renders; a
    bound with the server's unescaped quote). The targets that print fragments from their parse ignore
    it; the GaussDB target, which writes fragments as they came, refuses the statement (DDLC-E011).
    Not compared, not in the JSON form: it says how the input was spelled, not what it means.
    """

    layout: str | None = layout_field()
    unpastable: tuple[Path, ...] = ()

    _not_compared = ("unpastable",)
    _hidden = ("unpastable",)


class OpaqueReason(str, enum.Enum):
    NO_SHAPE = "no-shape"  # a statement kind GaussDB decodes but with no known JDDL tree shape
    UNPARSED = "unparsed"  # TDDL text that pglast cannot parse (GaussDB-only syntax)


@node
class Opaque(Statement):
    """A statement kept as canonical GaussDB text (with a diagnostic); never dropped silently."""

    text: str
    kind: str = ""  # best guess at the statement kind ("CREATE PACKAGE", "REINDEX"...)
    reason: OpaqueReason = OpaqueReason.UNPARSED
