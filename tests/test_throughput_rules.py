"""Issue 26, round 8: the costliest PostgreSQL rule predicates answer the common case with less work.

* DDLC-W735 (``routines._problem``): the types of a routine header are judged as they come, no list of them
  made; a plain lower-case type name (``pg_catalog.`` or not) is decided without the patterns, a TYPE_MAP
  name's verdict kept per name. Checked here against the former ``_problem``/``_header_problem`` on every
  CREATE FUNCTION/PROCEDURE of the fixtures and by hypothesis on type texts.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import ddlc
from ddlc.backends.postgres import routines as R
from ddlc.backends.postgres.types import QUIET, TYPE_MAP
from ddlc.ir.routine import ArgMode

ROOT = Path(__file__).resolve().parents[1]


# ---- the former predicate, as it was -----------------------------------------------------------------
def _former_header_problem(n: Any, types: list[str], returns: str | None, table: list[str]) -> str | None:
    if n.returns is not None and n.returns.table and any(
            a.mode in (ArgMode.OUT, ArgMode.INOUT) for a in n.arguments):
        return "OUT/INOUT arguments with RETURNS TABLE"
    for t in (*types, *table, *(() if returns is None else (returns,))):
        if R._pg_type().match(t) is None:
            return f"type {t!r} is not PostgreSQL syntax"
    for a in n.arguments:
        if a.default is not None and R._default(a).tree is None:
            return f"default {a.default!r} is not a PostgreSQL expression"
    return None


def _former_problem(n: Any) -> str | None:
    q = QUIET
    types = [R.type_text(a.type, q, a.origin) for a in n.arguments]
    returns: str | None = None
    table: list[str] = []
    if n.returns is not None and not n.is_procedure:
        if n.returns.table:
            table = [R.type_text(a.type, q, a.origin) for a in n.returns.table]
        else:
            returns = R.type_text(n.returns.type, q, n.returns.origin)
    return _former_header_problem(n, types, returns, table)


def _outcome(f: Any, *args: Any) -> Any:
    try:
        return ("value", f(*args))
    except Exception as exc:  # noqa: BLE001 - the same error either way
        return ("error", type(exc), str(exc))


def _routines() -> list[Any]:
    """Every CreateFunction the W735 rule judges on the fixtures corpus (as the PostgreSQL target meets it)."""
    sys.path.insert(0, str(ROOT / "bench"))
    import corpus

    met: dict[int, Any] = {}
    real = R._problem

    def spy(n: Any) -> str | None:
        met[id(n)] = n
        return real(n)

    R._problem = spy
    try:
        for _, doc in corpus.fixtures_corpus():
            list(ddlc.translate_many([doc], target="postgres"))
    finally:
        R._problem = real
    return list(met.values())


def test_w735_problem_as_before_on_every_fixture_routine() -> None:
    nodes = _routines()
    assert len(nodes) >= 5
    for n in nodes:
        assert _outcome(R._problem, n) == _outcome(_former_problem, n), n


def _former_bad_type(text: str) -> str | None:
    t = R.type_text(text, QUIET, ())
    return None if R._pg_type().match(t) is not None else f"type {t!r} is not PostgreSQL syntax"


_NAMES = st.sampled_from(sorted(TYPE_MAP) + ["integer", "foo", "my_type", "setof", "interval", "Int4", "x$y"])
_TEXTS = st.one_of(
    st.builds(lambda p, n, m, a, sp: sp + p + n + m + a + sp,
              st.sampled_from(["", "pg_catalog.", "public.", "PG_CATALOG.", "pg_catalog .", '"s".']), _NAMES,
              st.sampled_from(["", "(10)", "(3, 2)", "(0)", " (5)", "(100000000)"]),
              st.sampled_from(["", "[]", " [ ]", "[][]", "[3]", " array"]), st.sampled_from(["", " ", "\n"])),
    st.text(alphabet="abcdefgint_ .()[]%,0123\"$", max_size=20),
)


@settings(max_examples=400, deadline=None)
@given(_TEXTS)
def test_bad_type_as_before(text: str) -> None:
    assert _outcome(R._bad_type, text, ()) == _outcome(_former_bad_type, text)
