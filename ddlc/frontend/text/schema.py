"""CREATE / ALTER SCHEMA read from GaussDB text (reference §5.11)."""

from __future__ import annotations

from ._match import Frag, Shape, Words

CREATE_SCHEMA = Shape(
    "CREATE SCHEMA %{if_not_exists}s %{name}I %{authorization}s %{blockchain}s",
    {"if_not_exists": Words(("IF NOT EXISTS", "")),
     "authorization": Shape("AUTHORIZATION %{authorization_role}I", absent=True),
     "blockchain": Shape("WITH BLOCKCHAIN", absent=True)},
)
ALTER_SCHEMA = Shape(
    "ALTER SCHEMA %{schemaname}I %{with}s BLOCKCHAIN"
    "|ALTER SCHEMA %{schemaname}I[ CHARACTER SET = %{charset}s][ COLLATE = %{collate}s]",
    {"with": Words(("WITH", "WITHOUT")), "charset": Frag(words=True, max_tokens=1),
     "collate": Frag(words=True, max_tokens=1)},
)

SHAPES = {r"CREATE SCHEMA ": CREATE_SCHEMA, r"ALTER SCHEMA ": ALTER_SCHEMA}
