"""A column type change under views (issue 25.1, the targets' side).

PostgreSQL refuses ``ALTER TABLE ... ALTER COLUMN ... TYPE`` (and MODIFY / CHANGE, written as SET DATA TYPE) on
a column a view reads; GaussDB recompiles the views. When the stream's history knows the table's views, the
PostgreSQL output drops the dependent views (views on views included) in reverse dependency order, alters
the column and creates them again from the history with their options, owner, comments and grants
(DDLC-I701); when it cannot know them, the ALTER is written with DDLC-W713. On Spark, where a view keeps the
column types it was created with, the views on a widened column are created again (DDLC-I843; DDLC-W842
without the history). On the server: the translated log applied statement by statement with ON_ERROR_STOP,
and inside one BEGIN ... COMMIT, builds the catalog of the same drop -> ALTER -> create done by hand
(tests/test_history_views.py), owners, options and privileges included.
"""

from __future__ import annotations

import json
import subprocess

import pytest
from psycopg import sql as pgsql

import ddlc
from conftest import FIXTURES, ddlc_command
from ddlc.diagnostics import Severity

HISTORY = FIXTURES / "histories" / "alter-type-under-views"
ROLE = "ddlc_dep_views_r1"


def tddl(*texts: str) -> bytes:
    return "".join(json.dumps({"TDDL": t}) + "\n" for t in texts).encode()


BASE = (
    "CREATE SCHEMA s;",
    "CREATE TABLE s.t (a pg_catalog.int4, b pg_catalog.int4, c pg_catalog.text) WITH (orientation = 'row', compression = 'no');",
    "CREATE VIEW s.v1 AS SELECT t.a, t.b AS bee FROM s.t;",
    "CREATE VIEW s.v2 AS SELECT v1.bee FROM s.v1 WHERE (v1.a > 0);",
    "CREATE VIEW s.v3 AS SELECT t.c FROM s.t;",
    "ALTER VIEW s.v1 SET (security_barrier = true);",
    f"ALTER VIEW s.v1 OWNER TO {ROLE};",
    "COMMENT ON VIEW s.v2 IS 'two';",
    "COMMENT ON COLUMN s.v2.bee IS 'a bee';",
    f"GRANT SELECT ON TABLE s.v2 TO {ROLE};",
    f"GRANT INSERT ON TABLE s.v2 TO {ROLE};",
    f"REVOKE INSERT ON TABLE s.v2 FROM {ROLE};",
)
CHANGES = (  # each changes a column views read; the last one reads none
    "ALTER TABLE s.t CHANGE b b2 pg_catalog.int8;",
    "ALTER TABLE s.t MODIFY COLUMN a pg_catalog.int8 NOT NULL;",
    "ALTER TABLE s.t ALTER COLUMN c SET DATA TYPE pg_catalog.\"varchar\"(30) ;",
    "ALTER TABLE s.t ALTER COLUMN a SET DATA TYPE pg_catalog.int8 ;",
)


def _translate(data: bytes, target: str = "postgres") -> list:
    out = list(ddlc.translate_many(data, target=target))
    if target == "postgres":
        assert all(t.error is None for t in out), [t.error for t in out if t.error is not None]
    return out


def _codes(t) -> list[str]:
    return [d.code for d in t.diagnostics]


# ---- what is written ---------------------------------------------------------------------------------------------
def test_views_dropped_in_reverse_and_created_again_in_dependency_order():
    out = _translate(tddl(*BASE, *CHANGES))
    change = out[len(BASE)]
    assert change.statements == (
        "DROP VIEW s.v2",
        "DROP VIEW s.v1",
        "ALTER TABLE s.t RENAME COLUMN b TO b2",
        "ALTER TABLE s.t ALTER COLUMN b2 SET DATA TYPE bigint, ALTER COLUMN b2 DROP DEFAULT",
        "CREATE VIEW s.v1 AS SELECT t.a, t.b2 AS bee FROM s.t",  # CHANGE renames: the view reads the new column
        "ALTER VIEW s.v1 SET (security_barrier = true)",
        f"ALTER VIEW s.v1 OWNER TO {ROLE}",
        "CREATE VIEW s.v2 AS SELECT v1.bee FROM s.v1 WHERE v1.a > 0",
        "COMMENT ON VIEW s.v2 IS 'two'",
        "COMMENT ON COLUMN s.v2.bee IS 'a bee'",
        f"GRANT SELECT ON TABLE s.v2 TO {ROLE}",
        f"GRANT INSERT ON TABLE s.v2 TO {ROLE}",
        f"REVOKE INSERT ON TABLE s.v2 FROM {ROLE}",
    )
    info = [d for d in change.diagnostics if d.code == "DDLC-I701"]
    assert [d.message for d in info] == ["views s.v1, s.v2 dropped before the type change of s.t.b and created "
                                         "again after it"]
    assert info[0].severity is Severity.INFO and info[0].path == ()
    assert not any(d.severity is Severity.WARNING for d in change.diagnostics)
    modify, alter_c, alter_a = out[len(BASE) + 1:]
    assert modify.statements[:2] == ("DROP VIEW s.v2", "DROP VIEW s.v1")
    assert modify.statements[3] == "CREATE VIEW s.v1 AS SELECT t.a, t.b2 AS bee FROM s.t"  # the rename kept
    assert alter_c.statements == ("DROP VIEW s.v3", "ALTER TABLE s.t ALTER COLUMN c SET DATA TYPE varchar(30)",
                                  "CREATE VIEW s.v3 AS SELECT t.c FROM s.t")
    assert "DDLC-I701" in _codes(alter_c)
    assert alter_a.statements[0] == "DROP VIEW s.v2"


def test_a_column_no_view_reads_is_altered_bare():
    out = _translate(tddl(*BASE[:3], "ALTER TABLE s.t ALTER COLUMN c SET DATA TYPE pg_catalog.int8 ;"))
    assert out[-1].statements == ("ALTER TABLE s.t ALTER COLUMN c SET DATA TYPE bigint",)
    assert out[-1].diagnostics == ()


def test_several_columns_of_one_alter_are_one_union():
    from ddlc.api import Options
    from ddlc.frontend.documents import read_documents
    from ddlc.session import Session

    s = Session(["postgres"], Options.of())
    for doc in read_documents(tddl(*BASE)):
        s.translate(doc)
    from ddlc.backends.postgres.dependent_views import views_after
    from ddlc.ir.names import QualifiedName

    t = QualifiedName("t", "s")
    got = views_after(s.catalogs[0], t, [("c", "c"), ("b", "b2")])
    assert [v.key[1] for v in got] == ["v1", "v2", "v3"]
    assert got[0].node.query.text.startswith("SELECT t.a, t.b2 AS bee")
    assert s.catalogs[0].view(("s", "v1")).node.query.text.startswith("SELECT t.a, t.b AS bee")  # copies only


@pytest.mark.parametrize("stmt", [
    "ALTER TABLE s.t ALTER COLUMN a SET DATA TYPE pg_catalog.int8 ;",
    "ALTER TABLE s.t MODIFY COLUMN a pg_catalog.int8 NOT NULL;",
    "ALTER TABLE s.t CHANGE a a2 pg_catalog.int8;",
])
def test_without_the_history_the_alter_is_written_with_a_warning(stmt):
    t = ddlc.translate({"TDDL": stmt}, target="postgres")
    assert t.error is None and t.statements and not any(s.startswith("DROP") for s in t.statements)
    w = [d for d in t.diagnostics if d.code == "DDLC-W713"]
    assert len(w) == 1 and w[0].severity is Severity.WARNING
    assert "the history does not know the views of the table" in w[0].message
    assert w[0].message.startswith("type change of s.t.a:")
    # the table seen only through an ALTER (the log starts later): the same
    out = _translate(tddl("ALTER TABLE s.t ADD COLUMN z pg_catalog.int4;", stmt))
    assert "DDLC-W713" in _codes(out[-1])


def test_no_warning_for_what_does_not_change_a_column_type():
    out = _translate(tddl("ALTER TABLE s.t ALTER COLUMN a SET NOT NULL, ALTER COLUMN a SET DEFAULT 1;"))
    assert "DDLC-W713" not in _codes(out[-1])


def test_a_schema_map_applies_once():
    from ddlc.api import Options

    opts = Options.of(schema_map={"s": "s2"})
    out = list(ddlc.translate_many(tddl(*BASE[:4], CHANGES[2].replace("c SET", "b SET")), target="postgres",
                                   options=opts))
    assert out[-1].statements[0] == "DROP VIEW s2.v2"
    assert "CREATE VIEW s2.v1 AS SELECT t.a, t.b AS bee FROM s2.t" in out[-1].statements


def test_on_unsupported_error_fails_only_for_the_missing_history():
    ok = list(ddlc.translate_many(tddl(*BASE[:4], CHANGES[3]), target="postgres", on_unsupported="error"))
    assert ok[-1].error is None and "DDLC-I701" in _codes(ok[-1])
    with pytest.raises(ddlc.DdlcError, match="DDLC-W713"):
        ddlc.translate({"TDDL": CHANGES[3]}, target="postgres", on_unsupported="error")


# ---- on the server -----------------------------------------------------------------------------------------------
@pytest.fixture()
def role(pg_server):
    with pg_server.connect() as admin:
        admin.execute(pgsql.SQL("DROP ROLE IF EXISTS {}").format(pgsql.Identifier(ROLE)))
        admin.execute(pgsql.SQL("CREATE ROLE {}").format(pgsql.Identifier(ROLE)))
    with pg_server.databases_dropped():  # the test's databases go first: the role holds privileges there
        yield ROLE
    with pg_server.connect() as admin:
        admin.execute(pgsql.SQL("DROP ROLE IF EXISTS {}").format(pgsql.Identifier(ROLE)))


ACL = """
    SELECT n.nspname || '.' || c.relname || ' owner ' || (c.relowner = (SELECT oid FROM pg_roles
                                                              WHERE rolname = current_user))::text
           || ' ' || coalesce(array_to_string(c.reloptions, ','), '') || ' ' || coalesce(c.relacl::text, '')
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'v') AND n.nspname NOT IN ('pg_catalog', 'information_schema')"""


def catalog(pg_server, db: str) -> str:
    from test_replay_histories import catalog as objects

    with pg_server.connect(db) as conn:
        acl = sorted(r[0] for r in conn.execute(ACL).fetchall())
    return objects(pg_server, db) + "\n".join(acl) + "\n"


def apply(pg_server, tmp_path, script: str, *, single: bool = False) -> str:
    """``script`` applied with psql -f and ON_ERROR_STOP, statement by statement (``single``: inside one
    BEGIN ... COMMIT written around it, as a user would)."""
    db = pg_server.fresh_database()
    path = tmp_path / f"{db}.sql"
    path.write_text(f"BEGIN;\n{script}\nCOMMIT;\n" if single else script, "utf-8")
    p = pg_server.psql_file(db, str(path))
    assert p.returncode == 0, p.stderr
    assert "WARNING" not in p.stderr, p.stderr  # e.g. "there is already a transaction in progress"
    return db


def _cli(*args: str) -> str:
    p = subprocess.run([*ddlc_command(), *args], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return p.stdout


def replayed(pg_server, tmp_path, log) -> str:
    """The catalog of ``ddlc replay``'s script of ``log``: the schema the log leaves, written once (what GaussDB's
    recompiled views are), with no ALTER at all."""
    return apply(pg_server, tmp_path, _cli("replay", "--to", "postgres", str(log)))


@pytest.mark.parametrize("form", ["jddl", "tddl"])
def test_the_fixture_history_on_the_server(pg_server, tmp_path, form):
    log = HISTORY.with_name(f"{HISTORY.name}.{form}.jsonl")
    script = _cli("translate", "--to", "postgres", str(log))
    assert script.count("DROP VIEW") == 7, script
    one = apply(pg_server, tmp_path, script)
    got = catalog(pg_server, one)
    assert got == catalog(pg_server, apply(pg_server, tmp_path, script, single=True))
    from test_replay_histories import catalog as objects

    assert objects(pg_server, one) == objects(pg_server, replayed(pg_server, tmp_path, log))  # grants: not replayed
    assert "column: people.employees.salary numeric(12,2)" in got
    assert "column: people.v_pay.name character varying(60)" in got and "column: people.v_depts.dept bigint" in got
    assert "comment: people.v_pay.monthly_pay monthly" in got and "comment: people.v_rich.name rich" in got
    assert any(x.startswith("people.v_pay owner true  ") and "=r/" in x for x in got.splitlines()), got


HAND_WRITTEN = f"""
CREATE SCHEMA s;
CREATE TABLE s.t (a bigint NOT NULL, b2 bigint, c varchar(30));
CREATE VIEW s.v1 WITH (security_barrier = true) AS SELECT t.a, t.b2 AS bee FROM s.t;
ALTER VIEW s.v1 OWNER TO {ROLE};
CREATE VIEW s.v2 AS SELECT v1.bee FROM s.v1 WHERE v1.a > 0;
COMMENT ON VIEW s.v2 IS 'two';
COMMENT ON COLUMN s.v2.bee IS 'a bee';
GRANT SELECT ON s.v2 TO {ROLE};
CREATE VIEW s.v3 AS SELECT t.c FROM s.t;
"""


def test_options_owner_comments_and_grants_on_the_server(pg_server, tmp_path, role):
    """The translated history, applied statement by statement and in one transaction, builds the catalog of a
    hand-written PostgreSQL migration to the same end: columns, views, options, owners, comments, privileges."""
    script = "".join(t.sql for t in _translate(tddl(*BASE, *CHANGES)))
    got = catalog(pg_server, apply(pg_server, tmp_path, script))
    assert got == catalog(pg_server, apply(pg_server, tmp_path, script, single=True))
    assert got == catalog(pg_server, apply(pg_server, tmp_path, HAND_WRITTEN))
    lines = got.splitlines()
    assert "column: s.t.a bigint not null" in lines and "column: s.v1.bee bigint" in lines
    assert "column: s.v3.c character varying(30)" in lines
    assert any(x.startswith("s.v1 owner false security_barrier=true") for x in lines), got
    assert any(x.startswith("s.v2 owner true") and f"{ROLE}=r/" in x for x in lines), got


def test_every_statement_is_transactional(pg_server, tmp_path, role):
    """Inside a transaction block the whole sequence rolls back: nothing of it runs outside the transaction."""
    out = _translate(tddl(*BASE, *CHANGES))
    db = pg_server.fresh_database()
    with pg_server.connect(db) as conn:
        for t in out[:len(BASE)]:
            for q in t.statements:
                conn.execute(q)
        before = catalog(pg_server, db)
        conn.execute("BEGIN")
        for t in out[len(BASE):]:
            for q in t.statements:
                conn.execute(q)
        conn.execute("ROLLBACK")
    assert catalog(pg_server, db) == before


# ---- Spark -------------------------------------------------------------------------------------------------------
def test_spark_recreates_the_views_of_a_widened_column():
    out = _translate(tddl(*BASE[:5], "COMMENT ON VIEW s.v2 IS 'two';", "COMMENT ON COLUMN s.v2.bee IS 'a bee';",
                          "ALTER TABLE s.t ALTER COLUMN a SET DATA TYPE pg_catalog.int8 ;",
                          "ALTER TABLE s.t CHANGE b b2 pg_catalog.int8;",
                          "ALTER TABLE s.t ALTER COLUMN c SET DATA TYPE pg_catalog.int8 ;"), "spark")
    widen, change, narrow = out[-3:]
    assert widen.statements == (
        "ALTER TABLE s.t SET TBLPROPERTIES ('delta.enableTypeWidening' = 'true')",
        "ALTER TABLE s.t ALTER COLUMN a TYPE BIGINT",
        "CREATE OR REPLACE VIEW s.v1 AS SELECT t.a, t.b AS bee FROM s.t",
        "CREATE OR REPLACE VIEW s.v2 AS SELECT v1.bee FROM s.v1 WHERE v1.a > 0",
        "ALTER VIEW s.v2 SET TBLPROPERTIES ('comment' = 'two')",
    )  # no COMMENT ON COLUMN of a view: Spark refuses it (EXPECT_TABLE_NOT_VIEW)
    assert [d.message for d in widen.diagnostics if d.code == "DDLC-I843"] == [
        "views s.v1, s.v2 created again after column a of s.t was widened"]
    assert change.statements[0] == "ALTER TABLE s.t RENAME COLUMN b TO b2"
    assert "CREATE OR REPLACE VIEW s.v1 AS SELECT t.a, t.b2 AS bee FROM s.t" in change.statements
    assert "DDLC-W841" not in _codes(change)  # the current type is the history's, under the old name
    assert narrow.statements == () or not any("VIEW" in q for q in narrow.statements)
    assert "DDLC-W841" in _codes(narrow) and "DDLC-I843" not in _codes(narrow)


def test_spark_without_the_history_warns():
    from ddlc.api import Options
    from ddlc.frontend.documents import read_documents
    from ddlc.session import Session

    s = Session(["spark"], Options.of())
    docs = list(read_documents(tddl(*BASE[:3], "ALTER TABLE s.t ALTER COLUMN a SET DATA TYPE pg_catalog.int8 ;")))
    for doc in docs[:-1]:
        s.translate(doc)
    s.catalogs[0].relations[("s", "t")].created = False  # as after a statement the view bookkeeping cannot follow
    t = s.translate(docs[-1])[0]
    assert t.statements[-1] == "ALTER TABLE s.t ALTER COLUMN a TYPE BIGINT"
    assert [d.message for d in t.diagnostics if d.code == "DDLC-W842"] == [
        "column a of s.t widened: the history does not know the views of the table; a view that reads it keeps "
        "the old type"]


def test_spark_views_keep_their_old_types_until_created_again(spark):
    """Delta cannot run here: the widening is made by creating the table again wider (parquet), which is what a
    view sees after Delta's ALTER. The views as ddlc first wrote them fail to read a value only the new type
    holds; after the statements ddlc writes after the ALTER they return the new types."""
    import re

    lines = [re.sub(r"\bs\.", "dv.", x) for x in (*BASE[:5], "ALTER TABLE s.t ALTER COLUMN a SET DATA TYPE pg_catalog.int8 ;")]
    out = _translate(tddl(*lines), "spark")
    views = [q for t in out[2:5] for q in t.statements]
    after = [q for q in out[-1].statements if "VIEW" in q]
    assert len(views) == 3 and len(after) == 2, (views, after)

    def run(q: str) -> list:
        return spark.session.sql(q).collect()

    run("CREATE SCHEMA dv")
    try:
        run("CREATE TABLE dv.t (a INT, b INT, c STRING) USING parquet")
        for q in views:
            run(q)
        run("DROP TABLE dv.t")
        run("CREATE TABLE dv.t (a BIGINT, b INT, c STRING) USING parquet")
        run("INSERT INTO dv.t VALUES (3000000000, 1, 'x')")
        with pytest.raises(Exception, match="CAST_OVERFLOW"):
            run("SELECT * FROM dv.v2")
        for q in after:
            run(q)
        assert [tuple(r) for r in run("SELECT * FROM dv.v2")] == [(1,)]
        assert [tuple(r) for r in run("SELECT a FROM dv.v1")] == [(3000000000,)]
        assert [(r.col_name, r.data_type) for r in run("DESCRIBE dv.v1")] == [("a", "bigint"), ("bee", "int")]
    finally:
        run("DROP SCHEMA dv CASCADE")
