"""CREATE / ALTER SEQUENCE read from GaussDB text (reference §3.7, §5.6), LARGE included."""

from __future__ import annotations

from ._match import Frag, Shape, Words

# a value: a number, signed or after WITH (at most two tokens), never the next option's keyword
# ("CACHE 20 CYCLE" is CACHE 20, then CYCLE)
_WORDS = ("CACHE", "CYCLE", "NO", "INCREMENT", "MINVALUE", "MAXVALUE", "START", "RESTART", "OWNED", "ORDER",
          "NOORDER", "AS", "NOCYCLE")
_VALUE = Frag(max_tokens=2, stop=_WORDS)
_OPTIONS = tuple(
    Shape(fmt, {"value": _VALUE, "no": Words(("NO", "")), "order": Words(("ORDER", "NOORDER"))},
          extra={} if clause is None else {"clause": clause})
    for clause, fmt in (
        ("cache", "CACHE %{value}s"), ("cycle", "%{no}s CYCLE"), ("seqincrement", "INCREMENT BY %{value}s"),
        ("minvalue", "MINVALUE %{value}s"), ("maxvalue", "MAXVALUE %{value}s"), ("start", "START WITH %{value}s"),
        ("restart", "RESTART %{value}s"), ("owned", "OWNED BY %{owner}D"), ("order", "%{order}s"),
        (None, "AS %{identity}D"),
    )
)


def _option_spec():
    from ._match import Either

    return Either(_OPTIONS)


_KEYS = {"persistence": Words(("UNLOGGED", "")), "large": Words(("LARGE", "")), "definition": _option_spec()}
CREATE_SEQUENCE = Shape("CREATE %{persistence}s %{large}s SEQUENCE %{identity}D[ %{definition: }s]", _KEYS)
ALTER_SEQUENCE = Shape("ALTER %{large}s SEQUENCE %{identity}D[ %{definition: }s]", _KEYS)

SHAPES = {r"CREATE (?:UNLOGGED )?(?:LARGE )?SEQUENCE ": CREATE_SEQUENCE, r"ALTER (?:LARGE )?SEQUENCE ": ALTER_SEQUENCE}
