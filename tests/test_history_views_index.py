"""The history's index of views by the relations they read (throughput: a DROP, rename or column change visits
the views that read what it names, not every view held). After every statement of a random stream of
tables, views on tables and on views, drops, renames, moves and column changes, the index is the one made
from scratch from the views, and ``dependents`` gives what a scan of every view gives: the answers are
those of the scanning history, only cheaper."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddlc.api import Options
from ddlc.frontend.documents import read_documents
from ddlc.history.views import Views
from ddlc.session import Session

SCHEMAS = ("s", "r")
TABLES = ("t", "u")
VIEWS = ("v1", "v2", "v3")
COLUMNS = ("a", "b", "a2")
WITH = " WITH (orientation = 'row', compression = 'no')"


def _rel(draw, names):
    return f"{draw(st.sampled_from(SCHEMAS))}.{draw(st.sampled_from(names))}"


@st.composite
def statement(draw):
    kind = draw(st.sampled_from(("table", "view", "view", "view", "replace", "drop_table", "drop_view", "rename",
                                 "rename_view", "column", "drop_column", "set_schema", "schema", "view_column")))
    t, v = _rel(draw, TABLES), _rel(draw, VIEWS)
    src = _rel(draw, TABLES + VIEWS)
    col, col2 = draw(st.sampled_from(COLUMNS)), draw(st.sampled_from(COLUMNS))
    if kind == "table":
        return f"CREATE TABLE {t} (a pg_catalog.int4, b pg_catalog.int4, a2 pg_catalog.int4){WITH};"
    if kind in ("view", "replace"):
        how = "CREATE OR REPLACE VIEW" if kind == "replace" else "CREATE VIEW"
        other = _rel(draw, TABLES + VIEWS)
        if draw(st.booleans()):
            return f"{how} {v} AS SELECT x.a, x.b FROM {src} x;"
        return f"{how} {v} AS SELECT x.a, y.b FROM ({src} x JOIN {other} y ON ((x.a = y.a)));"
    if kind == "drop_table":
        return f"DROP TABLE {t} CASCADE;"
    if kind == "drop_view":
        return f"DROP VIEW {v} CASCADE;"
    if kind == "rename":
        return f"ALTER TABLE {t} RENAME TO {draw(st.sampled_from(TABLES))};"
    if kind == "rename_view":
        return f"ALTER VIEW {v} RENAME TO {draw(st.sampled_from(VIEWS))};"
    if kind == "column":
        return f"ALTER TABLE {t} RENAME COLUMN {col} TO {col2};"
    if kind == "drop_column":
        return f"ALTER TABLE {t} DROP COLUMN {col};"
    if kind == "set_schema":
        return f"ALTER TABLE {t} SET SCHEMA {draw(st.sampled_from(SCHEMAS))};"
    if kind == "view_column":
        return f"ALTER VIEW {v} RENAME COLUMN {col} TO {col2};"
    return f"ALTER SCHEMA {draw(st.sampled_from(SCHEMAS))} RENAME TO {draw(st.sampled_from(SCHEMAS))};"


def _scan_dependents(vs: Views, relation, column):
    """What the history answered before the index: every view scanned."""
    found = {v.key: v for v in vs.views.values()
             if any(k == relation and (column is None or c == column or c == "*") for k, c in v.reads)}
    todo = list(found)
    while todo:
        k = todo.pop()
        for v in vs.views.values():
            if v.key not in found and k in v.relations:
                found[v.key] = v
                todo.append(v.key)
    return vs.in_order(found.values())


def _check(vs: Views) -> None:
    fresh = Views()
    fresh.views = dict(vs.views)
    assert vs._readers == fresh._readers
    assert all(key == v.key for key, v in vs.views.items())
    for s in SCHEMAS:
        for name in TABLES + VIEWS:
            for column in (None, *COLUMNS):
                got = [v.key for v in vs.dependents((s, name), column)]
                assert got == [v.key for v in _scan_dependents(vs, (s, name), column)]


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(statement(), min_size=1, max_size=30))
def test_the_index_is_the_scan(texts):
    s = Session(["postgres"], Options.of())
    lines = ["CREATE SCHEMA s;", "CREATE SCHEMA r;",
             *(f"CREATE TABLE {sc}.{t} (a pg_catalog.int4, b pg_catalog.int4, a2 pg_catalog.int4){WITH};"
               for sc in SCHEMAS for t in TABLES), *texts]
    docs = read_documents(("\n".join(json.dumps({"TDDL": t}) for t in lines) + "\n").encode())
    for doc in docs:
        s.translate(doc)
        _check(s.catalogs[0].views)


def test_views_is_read_only_and_put_keeps_the_index():
    s = Session(["postgres"], Options.of())
    lines = ["CREATE SCHEMA s;", f"CREATE TABLE s.t (a pg_catalog.int4, b pg_catalog.int4){WITH};",
             "CREATE VIEW s.v1 AS SELECT x.a, x.b FROM s.t x;", "CREATE VIEW s.v2 AS SELECT x.a FROM s.v1 x;"]
    for doc in read_documents(("\n".join(json.dumps({"TDDL": t}) for t in lines) + "\n").encode()):
        s.translate(doc)
    vs = s.catalogs[0].views
    try:
        vs.views[("s", "x")] = None  # type: ignore[index]
    except TypeError:
        pass
    else:
        raise AssertionError("the views mapping took an assignment past the index")
    moved = Views()
    for v in vs.views.values():
        moved.put(v)
    assert [v.key for v in moved.dependents(("s", "t"), "a")] == [("s", "v1"), ("s", "v2")]
    _check(moved)
