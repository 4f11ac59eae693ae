"""What a target cannot take, as data: the backends declare it, the ``drop_unsupported`` pass applies it.

* :class:`Rule` — a clause, a child node or a form of a statement the target cannot express: which
  node class, when it applies, how to remove or rewrite it, the stable code and message of its
  diagnostic. A rule whose node is a statement class and that neither sets a field nor rewrites
  drops the whole statement (this form of it has no target form): see :attr:`Rule.drops_statement`.
* :class:`Refusal` — a whole statement class the target has no form for. ``absent=True`` means
  the target has no such object at all (a GaussDB package, an event); ``absent=False`` means ddlc
  does not translate it yet. The support matrix tells the two apart.

A rule decides from the statement's own content: the node it is declared for and, through
``within``, the nodes that enclose it (the statement first, the node's parent last). Decisions that
need the stream's history stay with the emitters (docs/architecture.md lists them).

Nothing here imports a backend: backends import these classes, the pass receives the tables
through its context.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..records import record
from ..errors import Path
from .base import Node
from .statement import Statement

Ancestors = tuple[Node, ...]  # the nodes enclosing a node: the statement first, the node's parent last


def always(n: Any) -> bool:
    """A rule's default predicate: every node of its class."""
    return True


@record(frozen=True, slots=True)
class Rule:
    node: type[Node]
    code: str
    # the diagnostic's message: fixed, or made from the node (``lambda n: f"DROP {n.objtype.value} ..."``)
    message: str | Callable[[Any], str]
    applies: Callable[[Any], bool] = always
    # How to remove: a field set to its "absent" value, or None = drop the node itself (it must
    # sit in a tuple, e.g. a column or a constraint) or, for a statement, replace it.
    field: str | None = None
    absent: Any = None
    rewrite: Callable[[Any], Any] | None = None  # a lossless-enough rewrite instead of a drop
    # The dropped clause's text for comments, written by hand: only where the GaussDB backend's text of the
    # node does not change with the rule (the clause sits in text it writes as it is). Else derived: the
    # library renders the node (dropped) or the node before and after the rule (a field or a rewrite) through
    # the GaussDB backend, and shows what the first text has that the second has not.
    text: Callable[[Any], str] | None = None
    # A decision that also reads the enclosing nodes (the statement first, the parent last), checked
    # after ``applies``: e.g. a storage option valid for one relation kind and not another.
    within: Callable[[Any, Ancestors], bool] | None = None
    # Where the diagnostic points, when not at the node (or at its scalar ``field``).
    path: Callable[[Any], Path] | None = None
    # Shown before the dropped node's GaussDB text in a comment (e.g. ``ALTER TABLE s.t `` for a
    # subcommand), made from the enclosing nodes.
    prefix: Callable[[Ancestors], str] | None = None
    # False: a comment shows ``text`` or nothing, never the node's GaussDB text (a keyword whose loss only
    # changes how the statement runs, e.g. CONCURRENTLY; a clause whose text was not kept).
    comment: bool = True
    # Applied after the other rules of its class, whichever family declares them: a decision on what
    # those rules leave (a form of the statement refused whole, a clause judged with the rest removed).
    last: bool = False

    def message_for(self, n: Any) -> str:
        m = self.message
        return m if isinstance(m, str) else m(n)

    @property
    def drops(self) -> bool:
        """The rule removes the node it applies to (rather than a field of it, or rewriting it)."""
        return self.field is None and self.rewrite is None

    @property
    def drops_statement(self) -> bool:
        """The rule removes a whole statement: that form of the statement has no target form."""
        return self.drops and issubclass(self.node, Statement)


@record(frozen=True, slots=True)
class Refusal:
    """A statement class with no form on a target."""

    code: str
    message: str
    absent: bool = True  # True: the target has no such object; False: not implemented (yet)
