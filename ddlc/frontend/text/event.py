"""CREATE / ALTER / DROP EVENT (reference §5.16) and NEWPUB (§5.17) read from GaussDB text.

An event's schema and name, its definer and the values the deparser puts between its own quotes
(``STARTS '%{start_expr}s'``, ``COMMENT '%{comment}s'``) are raw strings, printed without quoting or
escaping: they are read as the tokens the text holds (a name as written, a quoted value as what stands
between its quotes), so the tree read expands to the text again. NEWPUB is the cascading subscriber's
notice (``NEWPUB table schema.name``).
"""

from __future__ import annotations

from typing import Any

from ._common import RAW_NAME
from ._match import Custom, Frag, Matcher, Results, Shape, Words


def _quoted(m: Matcher, i: int) -> Results:
    """A value the fmt puts between its own quotes: one string token, its text between the quotes as it is."""
    t = m.tok(i)
    if t is None or t.kind != "string" or not t.text.startswith("'"):
        return {}
    return {i + 1: t.text[1:-1]}


def _definer(m: Matcher, i: int) -> Results:
    """``definer_opt``: ``DEFINER = user`` (a raw string; the user as written), or nothing."""
    out: Results = {i: ""}
    a, b, c = m.tok(i), m.tok(i + 1), m.tok(i + 2)
    if a is not None and a.text.upper() == "DEFINER" and b is not None and b.text == "=" and c is not None \
            and c.kind in ("word", "qident"):
        out[i + 3] = f"DEFINER = {c.text}"
    return out


def _interval(m: Matcher, i: int) -> Results:
    """``every_interval``: the deparser's `` '<n>'  <unit>`` (a leading blank, a doubled one before the unit,
    reference §5.16), which the canonical text folds to ``'<n>' <unit>``."""
    value, unit = m.tok(i), m.tok(i + 1)
    if value is None or value.kind != "string" or unit is None or unit.kind != "word":
        return {}
    return {i + 2: f" {value.text}  {unit.text}"}


QUOTED = Custom(_quoted)
_INTERVAL = Custom(_interval)


def _quotes(fmt: str) -> str:
    """The fmt with the deparser's own quotes around the values read by :data:`QUOTED`."""
    for key in ("start_expr", "end_expr", "comment", "comment_opt"):
        fmt = fmt.replace(f" %{{{key}}}s", f" '%{{{key}}}s'")
    return fmt


def _quoting(tree: dict[str, Any]) -> dict[str, Any]:
    tree["fmt"] = _quotes(tree["fmt"])
    body = tree.get("event_body")
    if isinstance(body, dict):
        body["fmt"] = _quotes(body["fmt"])
    return tree


CREATE_EVENT = Shape(
    "CREATE %{definer_opt}s EVENT %{if_not_exits}s %{schema}s.%{eventname}s ON SCHEDULE[ EVERY %{every_interval}s]"
    " STARTS %{start_expr}s[ ENDS %{end_expr}s] %{event_body}s",
    {"definer_opt": Custom(_definer), "if_not_exits": Words(("IF NOT EXISTS", "")), "schema": RAW_NAME,
     "eventname": RAW_NAME, "every_interval": _INTERVAL, "start_expr": QUOTED, "end_expr": QUOTED,
     "event_body": Shape("%{opt_ev_on_completion}s %{opt_ev_status}s COMMENT %{comment_opt}s DO %{ev_body}s",
                         {"opt_ev_on_completion": Words(("ON COMPLETION NOT PRESERVE", "ON COMPLETION PRESERVE")),
                          "opt_ev_status": Words(("DISABLE ON SLAVE", "DISABLE", "")), "comment_opt": QUOTED,
                          "ev_body": Frag()})},
    post=_quoting,
)

# every clause of ALTER EVENT ends with a blank in the deparser's fmt (the builder reads those blanks)
ALTER_EVENT = Shape(
    "ALTER %{definer_opt}s EVENT %{schema}s.%{eventname}s "
    "[ON SCHEDULE [EVERY %{every_interval}s ][STARTS %{start_expr}s |AT %{start_expr}s ][ENDS %{end_expr}s ]]"
    "[ON COMPLETION PRESERVE |ON COMPLETION NOT PRESERVE ][RENAME TO %{new_name}s ]"
    "[ENABLE |DISABLE ON SLAVE |DISABLE ][COMMENT %{comment}s ][DO %{action}s ]",
    {"definer_opt": Custom(_definer), "schema": RAW_NAME, "eventname": RAW_NAME, "every_interval": _INTERVAL,
     "start_expr": QUOTED, "end_expr": QUOTED, "new_name": RAW_NAME, "comment": QUOTED, "action": Frag()},
    post=_quoting,
)

DROP_EVENT = Shape("DROP EVENT %{if_exists}s %{schema}s.%{eventname}s",
                   {"if_exists": Words(("IF EXISTS", "")), "schema": RAW_NAME, "eventname": RAW_NAME})

NEWPUB = Shape("NEWPUB %{objtype}s %{identity}D", {"objtype": Words(("table",))})

SHAPES = {r"CREATE (?:DEFINER = \S+ )?EVENT ": CREATE_EVENT, r"ALTER (?:DEFINER = \S+ )?EVENT ": ALTER_EVENT,
          r"DROP EVENT ": DROP_EVENT, r"NEWPUB ": NEWPUB}
