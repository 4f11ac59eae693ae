"""CREATE TRIGGER read from GaussDB text (reference §5.10), the B-compatible inline body included."""

from __future__ import annotations

from ._common import RAW_NAME
from ._match import Either, Frag, Shape, Words  # noqa: F401

CREATE_TRIGGER = Shape(
    "CREATE %{definer}s %{constraint}s TRIGGER %{if_not_exists}s %{name}I %{time}s %{events: OR }s ON %{relation}D "
    "%{from_table}s[ %{constraint_attrs: }s] FOR EACH %{for_each}s %{when}s[ EXECUTE PROCEDURE %{function}s] "
    "%{bodysrc}s",
    {"definer": Shape("DEFINER =%{definer}s", {"definer": RAW_NAME}, absent=True),
     "constraint": Words(("CONSTRAINT", "")), "if_not_exists": Words(("IF NOT EXISTS", "")),
     "time": Words(("BEFORE", "AFTER", "INSTEAD OF")),
     "events": Either((Shape("UPDATE OF %{columns:, }I"), Words(("INSERT", "UPDATE", "DELETE", "TRUNCATE")))),
     "from_table": Shape("FROM %{relation}D", absent=True),
     # the deparser's elements (reference §5.10): ["NOT",] "DEFERRABLE INITIALLY", "IMMEDIATE" | "DEFERRED"
     "constraint_attrs": Words(("NOT", "DEFERRABLE INITIALLY", "IMMEDIATE", "DEFERRED")),
     "for_each": Words(("ROW", "STATEMENT")),
     "when": Shape("WHEN (%{clause}s)|WHEN %{clause}s", {"clause": Frag()}, absent=True),
     "function": Shape("%{funcname}D ( %{args:, }L )|%{funcname}D ( )"),
     "bodysrc": Shape("%{bodysrc}s", {"bodysrc": Frag()}, absent=True)},
)

SHAPES = {r"CREATE (?:DEFINER = \S+ )?(?:CONSTRAINT )?TRIGGER ": CREATE_TRIGGER}
