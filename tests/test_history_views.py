"""The stream history's views (issue 25.1, history side): which table and view columns each view reads (from
the parsed query the IR holds), the dependent views of a column in dependency order with what recreates
them, renames followed into the stored statements, the state file, and on the real server: dropping the
dependents in reverse order, changing the column's type and creating them again from the history builds
the catalog GaussDB's recompiled views leave (the replay script's)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import FIXTURES
from ddlc.api import Options
from ddlc.backends import get_backend
from ddlc.compiler import compile_statement
from ddlc.frontend.documents import read_documents, read_inputs
from ddlc.history import Catalog
from ddlc.session import Session
from ddlc.state_file import VERSION, History

HISTORY = FIXTURES / "histories" / "alter-type-under-views.jddl.jsonl"


def catalog_of(lines: list[str], target: str = "postgres") -> Catalog:
    """The history a run over ``lines`` (TDDL texts or JDDL trees as JSON lines) leaves for ``target``."""
    s = Session([target], Options.of())
    for doc in read_documents(("\n".join(lines) + "\n").encode()):
        s.translate(doc)
    return s.catalogs[0]


def tddl(*texts: str) -> list[str]:
    return [json.dumps({"TDDL": t}) for t in texts]


BASE = tddl(
    "CREATE SCHEMA s;",
    "CREATE TABLE s.t (a pg_catalog.int4, b pg_catalog.int4, c pg_catalog.text) WITH (orientation = 'row', compression = 'no');",
    "CREATE TABLE s.u (a pg_catalog.int4, d pg_catalog.int4) WITH (orientation = 'row', compression = 'no');",
)


def test_what_a_view_reads():
    cat = catalog_of(BASE + tddl(
        "CREATE VIEW s.v1 AS SELECT t.a, t.b AS bee FROM s.t;",
        "CREATE VIEW s.v2 AS SELECT x.c, y.d FROM (s.t x JOIN s.u y ON ((x.a = y.a)));",
        "CREATE VIEW s.v3 AS SELECT v1.bee FROM s.v1 WHERE (v1.a > 0);",
        "CREATE VIEW s.v4 AS SELECT sub.b FROM (SELECT t.b FROM s.t) sub;",
    ))
    reads = {k[1]: set(v.reads) for k, v in cat.views.views.items()}
    t, u, v1 = ("s", "t"), ("s", "u"), ("s", "v1")
    assert reads["v1"] == {(t, "a"), (t, "b")}
    assert reads["v2"] == {(t, "c"), (u, "d"), (t, "a"), (u, "a")}
    assert reads["v3"] == {(v1, "bee"), (v1, "a")}
    assert reads["v4"] == {(t, "b")}  # a subquery's column: counted against every relation it might be


def test_dependent_views_in_dependency_order_with_views_on_views():
    cat = catalog_of(BASE + tddl(
        "CREATE VIEW s.v1 AS SELECT t.a, t.b AS bee FROM s.t;",
        "CREATE VIEW s.v2 AS SELECT t.c FROM s.t;",
        "CREATE VIEW s.v3 AS SELECT v1.bee FROM s.v1;",
        "CREATE OR REPLACE VIEW s.v1 AS SELECT t.a, t.b AS bee, v2.c FROM s.t, s.v2;",
        "CREATE VIEW s.v4 AS SELECT v3.bee FROM s.v3;",
        "CREATE VIEW s.other AS SELECT u.d FROM s.u;",
    ))
    names = lambda vs: [v.key[1] for v in vs]  # noqa: E731
    assert names(cat.dependent_views(("s", "t"), "b")) == ["v1", "v3", "v4"]
    # v1 was replaced after v3 and now reads v2: v2 first, v1 before v3 (it reads it), v4 last
    assert names(cat.dependent_views(("s", "t"), "c")) == ["v2", "v1", "v3", "v4"]
    assert names(cat.dependent_views(("s", "u"), "d")) == ["other"]
    assert cat.dependent_views(("s", "u"), "a") == []
    assert names(cat.dependent_views(("s", "t"))) == ["v2", "v1", "v3", "v4"]  # any column
    assert cat.knows_views_of(("s", "t")) and not cat.knows_views_of(("s", "nowhere"))


def test_everything_that_recreates_a_view_is_kept():
    cat = catalog_of(BASE + tddl(
        "CREATE VIEW s.v AS SELECT t.a, t.b FROM s.t;",
        "COMMENT ON VIEW s.v IS 'the view';",
        "COMMENT ON COLUMN s.v.b IS 'bee';",
        "COMMENT ON COLUMN s.v.a IS 'gone';",
        "COMMENT ON COLUMN s.v.a IS NULL;",
        "GRANT SELECT ON TABLE s.v, s.t TO alice;",
        "REVOKE SELECT ON TABLE s.v FROM alice;",
        "ALTER VIEW s.v OWNER TO bob;",
    ) + [json.dumps({"fmt": "ALTER %{objtype}s %{only}s %{identity}D %{subcmds:, }s", "only": "", "objtype": "VIEW",
                     "identity": {"objname": "v", "schemaname": "s"},
                     "subcmds": [{"fmt": "%{set_reset}s (%{options:, }s)", "set_reset": "SET",
                                  "options": [{"fmt": "%{label}s = %{value}s", "label": {"fmt": "%{label}I",
                                                                                        "label": "security_barrier"},
                                               "value": "true"}]}]})])
    v = cat.view(("s", "v"))
    assert v.comment == "the view" and v.column_comments == {"b": "bee"}
    assert [(g.revoke, g.privileges, [r.dotted() for r in g.relations], g.grantees) for g in v.grants] == [
        (False, ("SELECT",), ["s.v"], ("alice",)), (True, ("SELECT",), ["s.v"], ("alice",))]  # narrowed to the view
    stmts = v.create_statements()
    kinds = [type(s).__name__ for s in stmts]
    assert kinds[0] == "CreateView" and kinds.count("Comment") == 2 and kinds.count("Grant") == 2
    backend = get_backend("postgres")
    sql = [x for s in stmts for x in compile_statement(s, backend, Options.of(), None).statements]
    assert sql[0] == "CREATE VIEW s.v AS SELECT t.a, t.b FROM s.t"
    assert "COMMENT ON VIEW s.v IS 'the view'" in sql and "COMMENT ON COLUMN s.v.b IS 'bee'" in sql
    assert "GRANT SELECT ON TABLE s.v TO alice" in sql and "REVOKE SELECT ON TABLE s.v FROM alice" in sql
    assert any(x.startswith("ALTER VIEW s.v OWNER TO bob") for x in sql), sql
    assert compile_statement(v.drop_statement(), backend, Options.of(), None).statements == ("DROP VIEW s.v",)
    assert list(v.options) == ["security_barrier"]
    assert any("security_barrier" in x for x in sql), sql


def test_renames_follow_into_the_stored_views():
    cat = catalog_of(BASE + tddl(
        "CREATE VIEW s.v1 AS SELECT t.a, t.b AS bee FROM s.t;",
        "CREATE VIEW s.v2 AS SELECT v1.bee FROM s.v1;",
        "COMMENT ON COLUMN s.v1.bee IS 'b';",
        "ALTER TABLE s.t RENAME COLUMN a TO a2;",
        "ALTER TABLE s.t RENAME TO t2;",
        "ALTER VIEW s.v1 RENAME COLUMN bee TO b2;",
        "ALTER VIEW s.v1 RENAME TO w1;",
        "ALTER SCHEMA s RENAME TO r;",
    ))
    w1, v2 = cat.view(("r", "w1")), cat.view(("r", "v2"))
    assert w1.node.query.text == "SELECT t2.a2 AS a, t2.b AS b2 FROM r.t2;"
    assert v2.node.query.text == "SELECT w1.b2 AS bee FROM r.w1;"
    assert w1.column_comments == {"b2": "b"}
    assert set(w1.reads) == {(("r", "t2"), "a2"), (("r", "t2"), "b")}
    assert [v.key for v in cat.dependent_views(("r", "t2"), "b")] == [("r", "w1"), ("r", "v2")]
    assert cat.dependent_views(("s", "t"), "a") == []


def test_drops_take_the_views_with_them():
    cat = catalog_of(BASE + tddl(
        "CREATE VIEW s.v1 AS SELECT t.a, t.b FROM s.t;",
        "CREATE VIEW s.v2 AS SELECT v1.a FROM s.v1;",
        "CREATE VIEW s.v3 AS SELECT u.d FROM s.u;",
        "CREATE VIEW s.v4 AS SELECT t.c FROM s.t;",
        "ALTER TABLE s.t DROP COLUMN b CASCADE;",
        "DROP table s.u CASCADE;",
    ))
    assert sorted(k[1] for k in cat.views.views) == ["v4"]


def test_the_state_file_keeps_the_views(tmp_path):
    lines = BASE + tddl(
        "CREATE VIEW s.v1 AS SELECT t.a, t.b AS bee FROM s.t;",
        "CREATE VIEW s.v2 AS SELECT v1.bee FROM s.v1;",
        "COMMENT ON COLUMN s.v1.bee IS 'b';",
        "GRANT SELECT ON TABLE s.v1 TO alice;",
        "ALTER VIEW s.v1 OWNER TO bob;",
    )
    cat = catalog_of(lines)
    path = tmp_path / "state.json"
    History(cat).save(path)
    saved = json.loads(path.read_text())
    assert saved["version"] == VERSION == 3
    assert [v["name"] for v in saved["catalog"]["views"]] == ["v1", "v2"]
    back = History.load(path).catalog
    for key in cat.views.views:
        a, b = cat.view(key), back.view(key)
        assert (a.node.query.text, set(a.reads), a.comment, a.column_comments, a.owner) == \
            (b.node.query.text, set(b.reads), b.comment, b.column_comments, b.owner)
        assert [(g.revoke, g.privileges, g.grantees) for g in a.grants] == \
            [(g.revoke, g.privileges, g.grantees) for g in b.grants]
        assert b.node.query.tree is not None  # read again, as a document's query is
    assert [v.key for v in back.dependent_views(("s", "t"), "b")] == [("s", "v1"), ("s", "v2")]
    assert back.knows_views_of(("s", "t"))


def test_a_format_2_state_is_migrated(tmp_path):
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"format": "ddlc-state", "version": 2, "ddlc": "0.1.0", "last": None, "held": None,
                                "catalog": {"tables": [], "relations": [
                                    {"schema": "s", "name": "t", "identity_column": None, "primary_key": None,
                                     "columns": []}]}}))
    h = History.load(path)
    assert h.migrated is not None and "format 2" in h.migrated
    assert h.catalog.views.views == {} and not h.catalog.knows_views_of(("s", "t"))
    h.save(path)
    assert json.loads(path.read_text())["version"] == 3


def _script(stmts) -> list[str]:
    backend = get_backend("postgres")
    return [x for s in stmts for x in compile_statement(s, backend, Options.of(), None).statements]


def test_on_the_server_views_recreated_around_alter_type(pg_server, tmp_path):
    """The emission this API is for, done by hand: each ALTER COLUMN TYPE of the history wrapped in DROP VIEW
    (reverse dependency order) and the views' create statements (dependency order), in one transaction; the
    catalog is the one the replay script builds (GaussDB recompiled the views in place)."""
    from test_replay_histories import catalog

    s = Session(["postgres"], Options.of())
    cat = s.catalogs[0]
    db = pg_server.fresh_database()
    with pg_server.connect(db) as conn:
        for doc in read_inputs([str(HISTORY)]):
            alter = '"alter column type"' in json.dumps(doc.tree)
            if alter:
                tree = doc.tree
                table = (tree["identity"]["schemaname"], tree["identity"]["objname"])
                column = tree["subcmds"][0]["column"]
                deps = cat.dependent_views(table, column)
                assert deps, column
                drops = _script([v.drop_statement() for v in reversed(deps)])
                creates = _script([x for v in deps for x in v.create_statements()])
            results = s.translate(doc)
            with conn.transaction():
                if alter:
                    for sql in drops:
                        conn.execute(sql)
                for r in results:
                    stmts = list(r.statements)
                    if alter:  # the target writes the same drops and creates itself (issue 25.1): the ALTER alone
                        assert stmts[:len(drops)] == drops and stmts[len(stmts) - len(creates):] == creates, stmts
                        stmts = stmts[len(drops):len(stmts) - len(creates)]
                    for sql in stmts:
                        conn.execute(sql)
                if alter:
                    for sql in creates:
                        conn.execute(sql)
    got = catalog(pg_server, db)
    import subprocess

    from conftest import ddlc_command

    replayed = subprocess.run([*ddlc_command(), "replay", "--to", "postgres", str(HISTORY)], capture_output=True,
                              text=True)
    assert replayed.returncode == 0, replayed.stderr
    want_db = pg_server.fresh_database()
    with pg_server.connect(want_db) as conn:
        conn.execute(replayed.stdout)
    assert got == catalog(pg_server, want_db)
    # the renames before the last changes followed into the stored views
    assert "column: people.employees.salary numeric(12,2)" in got
    assert "column: people.v_pay.name character varying(60)" in got
    assert "comment: people.v_pay.monthly_pay monthly" in got and "comment: people.v_rich.name rich" in got
    assert "view: people.v_rich  SELECT v_pay.name FROM people.v_pay WHERE (v_pay.monthly_pay > (5000)::numeric);" \
        in got
    with pg_server.connect(db) as conn:  # the grant, recreated with the view (not in the replay script)
        acl = conn.execute("SELECT relacl::text FROM pg_class WHERE oid = 'people.v_pay'::regclass").fetchone()[0]
    assert "=r/" in acl, acl


@pytest.mark.parametrize("target", ["spark"])
def test_every_target_records_the_same_views(target):
    lines = BASE + tddl("CREATE VIEW s.v1 AS SELECT t.a FROM s.t;")
    assert [v.key for v in catalog_of(lines, target).dependent_views(("s", "t"), "a")] == [("s", "v1")]


# ---- never a dependency too few: the history's reads hold every column PostgreSQL says a view depends on ----
PG_DEPENDS = """
    SELECT vn.nspname, v.relname, tn.nspname, t.relname, a.attname
      FROM pg_rewrite r JOIN pg_class v ON v.oid = r.ev_class JOIN pg_namespace vn ON vn.oid = v.relnamespace
      JOIN pg_depend d ON d.classid = 'pg_rewrite'::regclass AND d.objid = r.oid AND d.refclassid = 'pg_class'::regclass
      JOIN pg_class t ON t.oid = d.refobjid JOIN pg_namespace tn ON tn.oid = t.relnamespace
      JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid
     WHERE d.refobjsubid > 0 AND t.oid <> v.oid AND vn.nspname NOT IN ('pg_catalog', 'information_schema')"""


def _missing(conn, cat: Catalog) -> list[str]:
    out = []
    for vs, vn, ts, tn, col in conn.execute(PG_DEPENDS).fetchall():
        v = cat.view((vs, vn))
        if v is None or not v.reads_column((ts, tn), col):
            out.append(f"{vs}.{vn} reads {ts}.{tn}.{col}: {None if v is None else v.reads}")
    return out


def _run_and_apply(conn, lines: list[str]) -> Catalog:
    import psycopg

    s = Session(["postgres"], Options.of())
    for doc in read_documents(("\n".join(lines) + "\n").encode()):
        for r in s.translate(doc) or ():
            for sql in r.statements:
                try:
                    conn.execute(sql)
                except psycopg.Error:
                    return s.catalogs[0]  # the history up to what the server took
    return s.catalogs[0]


@pytest.mark.parametrize("log", sorted((FIXTURES / "histories").glob("*.jsonl")), ids=lambda p: p.name)
def test_reads_hold_what_postgres_depends_on_in_every_history(pg_server, log):
    db = pg_server.fresh_database()
    with pg_server.connect(db) as conn:
        conn.autocommit = True
        cat = _run_and_apply(conn, [x for x in log.read_text().splitlines() if x.strip()])
        assert _missing(conn, cat) == []


_T = {"t": ("a", "b", "c"), "u": ("a", "d", "e")}


@st.composite
def view_queries(draw):
    """A query over s.t (a, b, c) and s.u (a, d, e): aliases or bare names, qualified or unique unqualified
    columns, in the target list, WHERE, GROUP BY, a subquery in FROM, expressions and functions."""
    alias = draw(st.booleans())
    tq, uq = ("x", "y") if alias else ("t", "u")
    join = draw(st.booleans())
    rels = [("t", tq)] + ([("u", uq)] if join else [])

    def col() -> str:
        rel, q = draw(st.sampled_from(rels))
        c = draw(st.sampled_from(_T[rel]))
        unique = sum(c in _T[r] for r, _ in rels) == 1
        return c if unique and draw(st.booleans()) else f"{q}.{c}"

    targets = [col() for _ in range(draw(st.integers(1, 3)))]
    targets = [f"{c} AS o{i}" if draw(st.booleans()) else f"({c} + 1) AS o{i}" if c.split(".")[-1] in "abd"
               else f"{c} AS o{i}" for i, c in enumerate(targets)]
    from_ = f"s.t {tq}" if alias else "s.t"
    if join:
        from_ += f" JOIN s.u {uq} ON {tq}.a = {uq}.a" if alias else " JOIN s.u ON t.a = u.a"
    if draw(st.booleans()):
        from_ += " JOIN (SELECT u.d AS sd FROM s.u) sub ON true" if not join else ""
    where = f" WHERE {col()} IS NOT NULL" if draw(st.booleans()) else ""
    return f"SELECT {', '.join(targets)} FROM {from_}{where}"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(st.lists(view_queries(), min_size=1, max_size=3))
def test_reads_hold_what_postgres_depends_on(pg_server, queries):
    with pg_server.database() as db, pg_server.connect(db) as conn:  # (one per example: dropped at once)
        conn.autocommit = True
        conn.execute("CREATE SCHEMA s")
        conn.execute("CREATE TABLE s.t (a int, b int, c text)")
        conn.execute("CREATE TABLE s.u (a int, d int, e text)")
        lines = []
        for i, q in enumerate(queries):  # the server's own text of the view, as GaussDB's deparser sends it
            conn.execute(f"CREATE VIEW s.v{i} AS {q}")
            text = conn.execute(f"SELECT pg_get_viewdef('s.v{i}'::regclass)").fetchone()[0]
            lines.append(json.dumps({"TDDL": f"CREATE VIEW s.v{i} AS {' '.join(text.split())}"}))
        cat = catalog_of(BASE + lines)
        assert len(cat.views.views) == len(queries), lines
        assert _missing(conn, cat) == []


def test_dependents_after_a_column_rename_are_copies():
    cat = catalog_of(BASE + tddl(
        "CREATE VIEW s.v1 AS SELECT t.a, t.b AS bee FROM s.t;",
        "CREATE VIEW s.v2 AS SELECT t.b FROM s.t;",
    ))
    deps = cat.dependent_views(("s", "t"), "b", renamed_to="b2")
    assert [v.node.query.text for v in deps] == ["SELECT t.a, t.b2 AS bee FROM s.t;",
                                                 "SELECT t.b2 AS b FROM s.t;"]
    assert [v.node.query.text for v in cat.dependent_views(("s", "t"), "b")] == [
        "SELECT t.a, t.b AS bee FROM s.t;", "SELECT t.b FROM s.t;"]  # the history itself unchanged


def test_dependents_of_several_columns():
    cat = catalog_of(BASE + tddl(
        "CREATE VIEW s.v1 AS SELECT t.a FROM s.t;",
        "CREATE VIEW s.v2 AS SELECT t.c FROM s.t;",
        "CREATE VIEW s.v3 AS SELECT v2.c, v1.a FROM s.v1, s.v2;",
        "CREATE VIEW s.v4 AS SELECT t.b FROM s.t;",
    ))
    assert [v.key[1] for v in cat.dependent_views(("s", "t"), ["c", "a"])] == ["v1", "v2", "v3"]
    assert [v.key[1] for v in cat.dependent_views(("s", "t"), ("b",))] == ["v4"]


def test_a_statement_the_views_cannot_follow_makes_the_history_say_it_does_not_know(monkeypatch):
    from ddlc.history import views

    lines = BASE + tddl("CREATE VIEW s.v1 AS SELECT t.a FROM s.t;")
    monkeypatch.setattr(views, "columns_read", lambda node: 1 / 0)
    cat = catalog_of(lines)
    assert not cat.knows_views_of(("s", "t")) and cat.knows_views_of(("s", "u"))


def test_renames_are_applied_to_the_stored_text_once_when_asked():
    """A rename costs the history no printing: the stored query is rewritten when the statement is asked
    for (or saved), and renames that come back to the old name cost nothing at all."""
    cat = catalog_of(BASE + tddl(
        "CREATE VIEW s.v1 AS SELECT t.a FROM s.t;",
        *["ALTER TABLE s.t RENAME TO t2;", "ALTER TABLE s.t2 RENAME TO t;"] * 5,
        "ALTER TABLE s.t RENAME TO t3;", "ALTER TABLE s.t3 RENAME TO t4;",
    ))
    v = cat.view(("s", "v1"))
    assert v.pending == [("relation", ("s", "t"), ("s", "t4"))]
    assert v.node.query.text == "SELECT t4.a FROM s.t4;" and v.pending == []
