"""Issue 26 (throughput), the builders: each cheaper way of building the IR gives what the former one gave.

* Constraint definitions are read from the JSON form of pglast's parse (``constraints._constraint_json``)
  instead of its Python nodes: the same :class:`ConstraintInfo` as the Python nodes' reading
  (``constraints._info_node``, the former path, kept for exclusion constraints and option values only
  pglast's printer writes) for every constraint text of the fixtures and for generated ones.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc.frontend.sql import constraints as C

ROOT = Path(__file__).resolve().parents[1]


def _texts(keys: tuple[str, ...] = ("definition", "constraint_definition", "condef")) -> list[str]:
    out: set[str] = set()

    def walk(n: Any) -> None:
        if isinstance(n, dict):
            for k, v in n.items():
                if k in keys and isinstance(v, str):
                    out.add(v)
                walk(v)
        elif isinstance(n, list):
            for v in n:
                walk(v)

    for p in sorted((ROOT / "fixtures").rglob("*.json*")):
        try:
            text = p.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for doc in [text] if p.suffix == ".json" else text.splitlines():
            try:
                walk(json.loads(doc))
            except ValueError:
                continue
    return sorted(out)


TEXTS = _texts()


def _former(text: str) -> Any:
    """The former reading: pglast's Python nodes, every attempt made in turn."""
    body, informational, optimization = C.split_informational(text)
    body = body.strip(C.BLANK)
    if not body:
        return None
    attempts: list[tuple[str, tuple[int, ...], bool]] = [(body, (), False)]
    alt, disabled = body, False
    m = C._DISABLE_TAIL.search(alt)
    if m is not None:
        alt, disabled = alt[: m.start()], True
    alt, desc = C._strip_sort_orders(alt)
    if alt != body:
        attempts.append((alt, desc, disabled))
    for i, (sql, desc, dis) in enumerate(attempts):
        node = C._constraint_node(sql)
        if node is not None:
            return (C._info_node(node, body, (), desc, dis, informational, optimization), i == 0)
    return None


def _now(text: str) -> Any:
    hit = C._parse.__wrapped__(text)
    if hit is None:
        return None
    body, node, desc, dis, informational, optimization, first = hit
    return (C._info(node, body, (), desc, dis, informational, optimization), first)


def test_fixture_texts_found() -> None:
    assert len(TEXTS) > 15


@pytest.mark.parametrize("text", TEXTS)
def test_constraint_json_reading_equals_nodes(text: str) -> None:
    assert _now(text) == _former(text)


_NAME = st.sampled_from(["a", "b", "id", '"Odd Name"', "user", "c1", "x_y"])
_NAMES = st.lists(_NAME, min_size=1, max_size=3).map(", ".join)
_SORTED = st.lists(st.tuples(_NAME, st.sampled_from(["", " ASC", " DESC", " desc"])), min_size=1, max_size=3).map(
    lambda xs: ", ".join(n + o for n, o in xs))
_VALUE = st.sampled_from(["80", "0", "-3", "1.5", "'x'", "''", "true", "off", "foo", "1e3", "2147483648"])
_OPTIONS = st.lists(st.tuples(st.sampled_from(["fillfactor", "a", "ns.b"]), st.one_of(st.none(), _VALUE)),
                    min_size=1, max_size=3).map(lambda xs: " WITH (" + ", ".join(k if v is None else f"{k}={v}" for k, v in xs) + ")")
_TAIL = st.lists(st.sampled_from([" DEFERRABLE", " NOT DEFERRABLE", " INITIALLY DEFERRED", " INITIALLY IMMEDIATE",
                                  " NOT VALID", " NO INHERIT", " DISABLE", " USING INDEX TABLESPACE ts"]),
                 max_size=2).map("".join)
_FK_TAIL = st.lists(st.sampled_from([" MATCH FULL", " MATCH SIMPLE", " MATCH PARTIAL", " ON DELETE CASCADE",
                                     " ON UPDATE SET NULL", " ON DELETE SET DEFAULT", " ON UPDATE RESTRICT",
                                     " ON DELETE NO ACTION"]), max_size=3).map("".join)
_DEF = st.one_of(
    st.builds(lambda k, c, inc, o, t: f"{k} ({c}){inc}{o}{t}", st.sampled_from(["PRIMARY KEY", "UNIQUE", "unique"]),
              _SORTED, st.sampled_from(["", " INCLUDE (b)"]), st.one_of(st.just(""), _OPTIONS), _TAIL),
    st.builds(lambda c, s, r, t, t2: f"FOREIGN KEY ({c}) REFERENCES {s}t({r}){t}{t2}", _NAMES,
              st.sampled_from(["", "s.", '"S".']), _NAMES, _FK_TAIL, _TAIL),
    st.builds(lambda e, t: f"CHECK ({e}){t}", st.sampled_from(["a > 0", "(a)::text <> ''", "a IN (1, 2)", "f(a)"]), _TAIL),
    st.builds(lambda c, w: f"EXCLUDE USING gist ({c} WITH &&){w}", _NAME, st.sampled_from(["", " WHERE (a > 0)"])),
    st.sampled_from(["PARTIAL CLUSTER KEY (a)", "NOT NULL a", "", "CHECK", "PRIMARY KEY (a) (", "UNIQUE (a);"]),
)
_PREFIX = st.sampled_from(["", " ", "enable optimization Informational Constraint ",
                           "DISABLE OPTIMIZATION INFORMATIONAL CONSTRAINT "])


@settings(max_examples=400, deadline=None)
@given(_PREFIX, _DEF)
def test_constraint_json_reading_equals_nodes_generated(prefix: str, body: str) -> None:
    assert _now(prefix + body) == _former(prefix + body)



# -- fragments with strings and quoted names, a query's final ';': checked without the lexer -------------------

from ddlc.frontend.sql import fragment as F  # noqa: E402

_PIECES = st.sampled_from([
    "a", "b1", "E", "N", "X", "U&", " ", "\n", "\t", "(", ")", ",", ".", "::", "-", "--", "/", "/*", "*/", ";", "; ",
    "'", "''", "'x'", "'it''s'", "'a\\b'", "\\", '"', '""', '"N"', '"a""b"', "$", "$$", "$t$", "+", "=", "\r",
    "\f", "\x0b", "é", "\x00",
])


def _fragment_texts() -> list[str]:
    return sorted(set(_texts(("definition", "default", "expr", "query", "generation_expr", "where_clause",
                               "partition_by", "using", "check"))))


@pytest.mark.parametrize("query", [False, True])
def test_fragment_check_without_lexer_equals_scan_fixtures(query: bool) -> None:
    for text in _fragment_texts():
        assert F.fragment_problem.__wrapped__(text, query=query) == F._scanned_problem(text, query, False), text


@settings(max_examples=3000, deadline=None)
@given(st.lists(_PIECES, max_size=14).map("".join), st.booleans())
def test_fragment_check_without_lexer_equals_scan_generated(text: str, query: bool) -> None:
    assert F.fragment_problem.__wrapped__(text, query=query) == F._scanned_problem(text, query, False)
