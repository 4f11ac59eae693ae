"""Events (B-compatible databases, reference §5.16) and NEWPUB (§5.17).

Event statements keep their parts as the server's strings. Schema and event names are **raw,
unquoted** in the tree and in the server's text (``%s``, defects §10.11 and §10.21): a name that
needs quoting replays folded or fails on the server too. The schedule values are texts:
``every`` is the server's ``'1'  day`` form (quoted count, doubled blank, unit), ``starts`` and
``ends`` are evaluated timestamps (``2025-01-01 00:00:00``). ``comment`` is raw (never escaped,
§8): a ``'`` inside it breaks the statement on the server too.
"""

from __future__ import annotations

from typing import ClassVar

from .base import node
from .names import QualifiedName
from .statement import Statement


@node
class CreateEvent(Statement):
    """``CREATE [DEFINER = u] EVENT [IF NOT EXISTS] schema.name ON SCHEDULE {EVERY i STARTS s |
    STARTS s} [ENDS e] ON COMPLETION [NOT] PRESERVE [DISABLE [ON SLAVE]] COMMENT 'c' DO body``.

    ``every`` None: a one-time event (``AT s`` in the statement, which the server prints as
    ``STARTS s``). ``on_completion`` and ``status`` are the server's phrases
    (``ON COMPLETION NOT PRESERVE``; ``DISABLE`` / ``DISABLE ON SLAVE`` / None = enabled).
    """

    schema: str
    name: str
    starts: str
    body: str
    every: str | None = None
    ends: str | None = None
    definer: str | None = None
    if_not_exists: bool = False
    on_completion: str = "ON COMPLETION NOT PRESERVE"
    status: str | None = None
    comment: str | None = None


@node
class AlterEvent(Statement):
    """``ALTER [DEFINER = u] EVENT schema.name [ON SCHEDULE [EVERY i] [STARTS|AT s] [ENDS e]]
    [ON COMPLETION [NOT] PRESERVE] [RENAME TO n] [ENABLE|DISABLE|DISABLE ON SLAVE]
    [COMMENT 'c'] [DO body]``; None = clause not given. ``starts`` is printed ``STARTS`` when
    ``every`` is given, else ``AT``. ``new_name`` is raw (unquoted) like the names.
    """

    schema: str
    name: str
    definer: str | None = None
    every: str | None = None
    starts: str | None = None
    ends: str | None = None
    schedule: bool = False  # ON SCHEDULE written (always when every/starts/ends is set)
    on_completion: str | None = None
    new_name: str | None = None
    status: str | None = None  # ENABLE / DISABLE / DISABLE ON SLAVE
    comment: str | None = None
    body: str | None = None


@node
class DropEvent(Statement):
    schema: str
    name: str
    if_exists: bool = False


@node
class NewPub(Statement):
    """``NEWPUB table schema.name``: a cascading-replication notice, **never executed**.

    A subscriber that is itself a publisher logs it after creating a replicated table, so that
    its own subscribers add the table to their subscription. The apply side recognizes the
    ``NEWPUB`` prefix and skips it; backends must not print it as DDL (``replayable`` False).
    """

    replayable: ClassVar[bool] = False

    objtype: str  # "table"
    identity: QualifiedName


__all__ = ["CreateEvent", "AlterEvent", "DropEvent", "NewPub"]
