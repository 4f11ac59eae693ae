"""Views after a rename on Spark (issue 25.4).

A Spark view is its query's text, bound by name when it is read; PostgreSQL (and GaussDB) bind a view to the
relation's identity, so their views follow ``RENAME COLUMN`` / ``RENAME TO`` and keep their column names. After
a rename ddlc writes ``CREATE OR REPLACE VIEW`` for each view the history holds whose query names what was
renamed (DDLC-I844): the new name, a renamed column as ``new AS old``. These tests run the translated stream on
Spark 4 (the stand-in ``delta`` source) and read the views back: their columns, that a SELECT from each is
analysed (Spark resolves the names; the stand-in has no rows to read), that a view on them can be renamed, and
that the columns are the ones PostgreSQL's views have after the same stream.
"""

from __future__ import annotations

import json

import pytest

import ddlc

BASE = (
    "CREATE SCHEMA s;",
    "CREATE TABLE s.t (id pg_catalog.int4 NOT NULL, amount pg_catalog.\"numeric\"(10,2), note pg_catalog.text) "
    "WITH (orientation = 'row', compression = 'no');",
    "CREATE TABLE s.u (id pg_catalog.int4, label pg_catalog.text) WITH (orientation = 'row', compression = 'no');",
    "CREATE VIEW s.v AS SELECT t.id, t.amount FROM s.t;",  # output column named after the renamed column
    "CREATE VIEW s.va AS SELECT t.id, t.amount AS amt FROM s.t WHERE (t.amount > (0)::numeric);",
    "CREATE VIEW s.w AS SELECT v.amount FROM s.v WHERE (v.id > 0);",  # on a view: names nothing renamed
    "CREATE VIEW s.j AS SELECT u.label, t.amount FROM (s.t JOIN s.u ON ((u.id = t.id)));",
    "CREATE VIEW s.x AS SELECT w.amount FROM s.w;",  # two views deep
    "COMMENT ON VIEW s.v IS 'vee';",
)


def tddl(*texts: str) -> bytes:
    return "".join(json.dumps({"TDDL": t}) + "\n" for t in texts).encode()


def translate(texts: tuple[str, ...], target: str = "spark") -> list:
    out = list(ddlc.translate_many(tddl(*texts), target=target))
    assert all(t.error is None for t in out), [t.error for t in out if t.error is not None]
    return out


def codes(result) -> list[str]:
    return [d.code for d in result.diagnostics]


def run_spark(spark, results) -> None:
    spark.reset()
    for t in results:
        for s in t.statements:
            spark.run(s)


def spark_columns(spark, view: str) -> list[str]:
    """The view's columns as Spark's catalog holds them, after checking that a SELECT from it is analysed."""
    assert spark.session.sql(f"SELECT * FROM {view}").columns is not None  # raises when a name does not resolve
    return [f.name for f in spark.session.table(view).schema.fields]


def spark_comment(spark, view: str) -> str | None:
    from engines.spark_meaning import catalog_rel

    rel = catalog_rel(spark, tuple(view.split(".")))
    assert rel is not None and rel.kind == "view"
    return rel.comment


def pg_columns(pg_db, texts: tuple[str, ...], views: list[str]) -> dict[str, list[str]]:
    """PostgreSQL's view columns after the same stream (translated for PostgreSQL, run statement by statement)."""
    for t in translate(texts, "postgres"):
        for s in t.statements:
            pg_db.execute(s)
    out = {}
    for v in views:
        schema, name = v.split(".")
        rows = pg_db.execute("SELECT column_name FROM information_schema.columns WHERE table_schema = %s AND "
                             "table_name = %s ORDER BY ordinal_position", (schema, name)).fetchall()
        out[v] = [r[0] for r in rows]
        pg_db.execute(f"SELECT * FROM {v}")  # and it reads
    return out


VIEWS = ["s.v", "s.va", "s.w", "s.j", "s.x"]


def test_column_rename_views_keep_their_columns(spark, pg_db):
    texts = (*BASE, "ALTER TABLE s.t RENAME COLUMN amount TO gross;")
    out = translate(texts)
    last = out[-1]
    assert last.statements == (
        "ALTER TABLE s.t RENAME COLUMN amount TO gross",
        "CREATE OR REPLACE VIEW s.v AS SELECT t.id, t.gross AS amount FROM s.t",
        "ALTER VIEW s.v SET TBLPROPERTIES ('comment' = 'vee')",
        "CREATE OR REPLACE VIEW s.va AS SELECT t.id, t.gross AS amt FROM s.t WHERE t.gross > 0",
        "CREATE OR REPLACE VIEW s.j AS SELECT u.label, t.gross AS amount FROM s.t JOIN s.u ON u.id = t.id",
    )
    assert codes(last) == ["DDLC-I844"]
    assert "s.v, s.va, s.j" in last.diagnostics[0].message
    run_spark(spark, out)
    got = {v: spark_columns(spark, v) for v in VIEWS}
    assert got == {"s.v": ["id", "amount"], "s.va": ["id", "amt"], "s.w": ["amount"], "s.j": ["label", "amount"],
                   "s.x": ["amount"]}
    assert got == pg_columns(pg_db, texts, VIEWS)  # as PostgreSQL's views: the output names kept
    assert spark_comment(spark, "s.v") == "vee"  # CREATE OR REPLACE VIEW drops it: written again
    spark.run("ALTER VIEW s.x RENAME TO s.x2")  # Spark analyses a view it renames: the chain resolves
    assert spark_columns(spark, "s.x2") == ["amount"]


def test_without_the_views_spark_fails_as_the_bug_did(spark):
    """The statements ddlc wrote before issue 25.4 (the rename alone) leave the views unresolvable on Spark."""
    out = translate((*BASE, "ALTER TABLE s.t RENAME COLUMN amount TO gross;", "ALTER TABLE s.t RENAME TO t2;"))
    spark.reset()
    for t in out:
        for s in t.statements:
            if not s.startswith(("CREATE OR REPLACE VIEW", "ALTER VIEW")):
                spark.run(s)
    for v in ("s.v", "s.x"):
        with pytest.raises(Exception, match="UNRESOLVED_COLUMN|TABLE_OR_VIEW_NOT_FOUND"):
            spark.session.sql(f"SELECT * FROM {v}")
    with pytest.raises(Exception, match="UNRESOLVED_COLUMN|TABLE_OR_VIEW_NOT_FOUND"):
        spark.run("ALTER VIEW s.x RENAME TO s.x2")


def test_table_and_view_renames_follow_through_views_on_views(spark, pg_db):
    texts = (*BASE, "ALTER TABLE s.t RENAME COLUMN amount TO gross;", "ALTER TABLE s.t RENAME TO t2;",
             "ALTER VIEW s.v RENAME TO v2;", "ALTER VIEW s.x RENAME TO x2;")
    out = translate(texts)
    table, view, last = out[-3], out[-2], out[-1]
    assert table.statements == (
        "ALTER TABLE s.t RENAME TO s.t2",
        "CREATE OR REPLACE VIEW s.v AS SELECT t2.id, t2.gross AS amount FROM s.t2",
        "ALTER VIEW s.v SET TBLPROPERTIES ('comment' = 'vee')",
        "CREATE OR REPLACE VIEW s.va AS SELECT t2.id, t2.gross AS amt FROM s.t2 WHERE t2.gross > 0",
        "CREATE OR REPLACE VIEW s.j AS SELECT u.label, t2.gross AS amount FROM s.t2 JOIN s.u ON u.id = t2.id",
    )
    assert view.statements == (  # the view on the renamed view (s.x, on s.w, names nothing renamed)
        "ALTER VIEW s.v RENAME TO s.v2",
        "CREATE OR REPLACE VIEW s.w AS SELECT v2.amount FROM s.v2 WHERE v2.id > 0",
    )
    assert codes(table) == codes(view) == ["DDLC-I844"]
    assert last.statements == ("ALTER VIEW s.x RENAME TO s.x2",) and codes(last) == []
    run_spark(spark, out)
    views = ["s.v2", "s.va", "s.w", "s.j", "s.x2"]
    got = {v: spark_columns(spark, v) for v in views}
    assert got == pg_columns(pg_db, texts, views)
    assert spark_comment(spark, "s.v2") == "vee"


def test_change_that_renames_without_widening(spark, pg_db):
    """B-compatibility CHANGE old new <same type>: the rename alone (no widening, so no DDLC-I843)."""
    texts = (*BASE, "ALTER TABLE s.t CHANGE amount gross pg_catalog.\"numeric\"(10,2);")
    out = translate(texts)
    last = out[-1]
    assert "ALTER TABLE s.t RENAME COLUMN amount TO gross" in last.statements
    assert "CREATE OR REPLACE VIEW s.v AS SELECT t.id, t.gross AS amount FROM s.t" in last.statements
    assert "DDLC-I844" in codes(last) and "DDLC-I843" not in codes(last)
    run_spark(spark, out)
    assert {v: spark_columns(spark, v) for v in VIEWS} == pg_columns(pg_db, texts, VIEWS)


def test_change_that_renames_and_widens():
    """CHANGE old new <wider type>: the views on the column (and on those) again, once, naming the new column."""
    texts = (*BASE, "ALTER TABLE s.t CHANGE amount gross pg_catalog.\"numeric\"(12,2);")
    last = translate(texts)[-1]
    views = [s for s in last.statements if s.startswith("CREATE OR REPLACE VIEW")]
    assert [s.split()[4] for s in views] == ["s.v", "s.va", "s.w", "s.j", "s.x"]
    assert "CREATE OR REPLACE VIEW s.v AS SELECT t.id, t.gross AS amount FROM s.t" in views
    assert "DDLC-I843" in codes(last)


def test_rename_table_pairs(spark):
    pairs = {"fmt": "RENAME TABLE %{renamelist:, }s", "renamelist": [
        {"fmt": "%{ori}D TO %{modify}D", "ori": {"objname": "t", "schemaname": "s"},
         "modify": {"objname": "t_old", "schemaname": "s"}},
        {"fmt": "%{ori}D TO %{modify}D", "ori": {"objname": "u", "schemaname": "s"},
         "modify": {"objname": "u_old", "schemaname": "s"}}]}
    data = tddl(*BASE) + (json.dumps(pairs) + "\n").encode()
    out = list(ddlc.translate_many(data, target="spark"))
    last = out[-1]
    assert last.statements[:2] == ("ALTER TABLE s.t RENAME TO s.t_old", "ALTER TABLE s.u RENAME TO s.u_old")
    assert ("CREATE OR REPLACE VIEW s.j AS SELECT u_old.label, t_old.amount FROM s.t_old AS t_old JOIN s.u_old AS "
            "u_old ON u_old.id = t_old.id") in last.statements or any(
        s.startswith("CREATE OR REPLACE VIEW s.j") and "s.t_old" in s and "s.u_old" in s for s in last.statements)
    assert codes(last) == ["DDLC-I844"]
    run_spark(spark, out)
    assert spark_columns(spark, "s.j") == ["label", "amount"]
    assert spark_columns(spark, "s.x") == ["amount"]


def test_rename_of_a_table_the_history_does_not_know():
    last = translate(("ALTER TABLE s.t RENAME COLUMN amount TO gross;",))[-1]
    assert last.statements == ("ALTER TABLE s.t RENAME COLUMN amount TO gross",)
    assert codes(last) == ["DDLC-W843"]
    assert "does not know the views on s.t" in last.diagnostics[0].message
    last = translate(("ALTER TABLE s.t RENAME TO t2;",))[-1]
    assert last.statements == ("ALTER TABLE s.t RENAME TO s.t2",) and codes(last) == ["DDLC-W843"]
    refused = list(ddlc.translate_many(tddl("ALTER TABLE s.t RENAME TO t2;"), target="spark",
                                       on_unsupported="error"))[-1]
    assert refused.error is not None and "DDLC-W843" in str(refused.error)  # a warning: refused under "error"


def test_a_view_selecting_star_is_reported(spark):
    """A query the history cannot follow for a column (``*``): written with DDLC-W843, as Spark fails on it."""
    texts = (*BASE[:3], "CREATE VIEW s.vs AS SELECT * FROM s.t;", "ALTER TABLE s.t RENAME COLUMN amount TO gross;")
    out = translate(texts)
    last = out[-1]
    assert last.statements == ("ALTER TABLE s.t RENAME COLUMN amount TO gross",)
    assert codes(last) == ["DDLC-W843"] and "view s.vs" in last.diagnostics[0].message
    run_spark(spark, out)
    with pytest.raises(Exception):  # noqa: B017 - Spark's view kept the old output column: it no longer resolves
        spark.session.sql("SELECT * FROM s.vs")


def test_a_rename_under_no_view_writes_nothing_more():
    last = translate((*BASE, "ALTER TABLE s.t RENAME COLUMN note TO remark;", "ALTER TABLE s.u RENAME COLUMN id TO "
                      "uid;"))
    assert last[-2].statements == ("ALTER TABLE s.t RENAME COLUMN note TO remark",) and codes(last[-2]) == []
    assert last[-1].statements[0] == "ALTER TABLE s.u RENAME COLUMN id TO uid"
    assert "CREATE OR REPLACE VIEW s.j AS SELECT u.label, t.amount FROM s.t JOIN s.u ON u.uid = t.id" in \
        last[-1].statements



def test_an_unnamed_expression_column_cannot_be_on_spark(spark):
    """An output column that is an expression without AS, whose name would change with the column's: Spark
    refuses such a permanent view in the first place (so no view created again has one)."""
    spark.reset()
    spark.run("CREATE SCHEMA s")
    spark.run("CREATE TABLE s.t (id INT, amount DECIMAL(10,2)) USING DELTA")
    with pytest.raises(Exception, match="CREATE_PERMANENT_VIEW_WITHOUT_ALIAS"):
        spark.run("CREATE VIEW s.ve AS SELECT t.amount + 1 FROM s.t")


def test_a_view_column_rename_creates_the_view_again(spark, pg_db):
    """Spark has no ALTER VIEW ... RENAME COLUMN: the view the history holds is created again with the column
    named anew, then each view that names the column, naming it anew; the columns end as PostgreSQL's."""
    texts = (*BASE, "ALTER VIEW s.v RENAME COLUMN amount TO total;", "ALTER VIEW s.x RENAME TO x2;")
    out = translate(texts)
    last = out[-2]
    assert last.statements == (
        "CREATE OR REPLACE VIEW s.v AS SELECT t.id, t.amount AS total FROM s.t",
        "ALTER VIEW s.v SET TBLPROPERTIES ('comment' = 'vee')",
        "CREATE OR REPLACE VIEW s.w AS SELECT v.total AS amount FROM s.v WHERE v.id > 0",
    )
    assert codes(last) == ["DDLC-I844"]
    run_spark(spark, out)
    views = ["s.v", "s.va", "s.w", "s.j", "s.x2"]
    got = {v: spark_columns(spark, v) for v in views}
    assert got["s.v"] == ["id", "total"] and got["s.w"] == ["amount"]
    assert got == pg_columns(pg_db, texts, views)
    assert spark_comment(spark, "s.v") == "vee"


def test_a_view_column_rename_without_the_view_is_not_written():
    last = list(ddlc.translate_many(tddl("ALTER VIEW s.v RENAME COLUMN amount TO total;"), target="spark",
                                    on_unsupported="comment"))[-1]
    assert last.statements == () and codes(last) == ["DDLC-W831"]
    assert last.comments == ("-- ddlc DDLC-W831: not translated: ALTER VIEW s.v RENAME COLUMN amount TO total",)


def test_the_views_come_from_a_saved_state(tmp_path):
    """A later run with --state: the history it saved knows the views, and the renames follow them."""
    state = tmp_path / "state.json"
    list(ddlc.translate_many(tddl(*BASE), target="spark", state=str(state)))
    col, view = ddlc.translate_many(tddl("ALTER TABLE s.t RENAME COLUMN amount TO gross;",
                                         "ALTER VIEW s.v RENAME COLUMN amount TO total;"), target="spark",
                                    state=str(state))
    assert codes(col) == codes(view) == ["DDLC-I844"]
    assert "CREATE OR REPLACE VIEW s.v AS SELECT t.id, t.gross AS amount FROM s.t" in col.statements
    assert view.statements[0] == "CREATE OR REPLACE VIEW s.v AS SELECT t.id, t.gross AS total FROM s.t"
    assert "CREATE OR REPLACE VIEW s.w AS SELECT v.total AS amount FROM s.v WHERE v.id > 0" in view.statements


def test_an_unqualified_column_beside_other_relations_is_reported():
    """The history cannot tell whose column an unqualified name beside other relations is: DDLC-W843."""
    texts = (*BASE[:3], "CREATE VIEW s.vq AS SELECT amount, label FROM (s.t JOIN s.u ON ((u.id = t.id)));",
             "ALTER TABLE s.t RENAME COLUMN amount TO gross;")
    last = translate(texts)[-1]
    assert last.statements == ("ALTER TABLE s.t RENAME COLUMN amount TO gross",)
    assert codes(last) == ["DDLC-W843"] and "view s.vq" in last.diagnostics[0].message


def test_rename_table_swap(spark):
    """RENAME TABLE a TO tmp, b TO a, tmp TO b: each view ends naming the table it read."""
    def pair(old: str, new: str) -> dict:
        return {"fmt": "%{ori}D TO %{modify}D", "ori": {"objname": old, "schemaname": "s"},
                "modify": {"objname": new, "schemaname": "s"}}

    swap = {"fmt": "RENAME TABLE %{renamelist:, }s", "renamelist": [pair("t", "tmp"), pair("u", "t"), pair("tmp", "u")]}
    data = tddl(*BASE) + (json.dumps(swap) + "\n").encode()
    out = list(ddlc.translate_many(data, target="spark"))
    last = out[-1]
    assert "CREATE OR REPLACE VIEW s.v AS SELECT u.id, u.amount FROM s.u" in last.statements
    run_spark(spark, out)
    assert spark_columns(spark, "s.j") == ["label", "amount"] and spark_columns(spark, "s.x") == ["amount"]
