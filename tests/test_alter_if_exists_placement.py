"""Issue 23.11: GaussDB's ``ALTER TABLE IF EXISTS t ADD COLUMN IF NOT EXISTS c int AFTER c1`` in every
combination the deparser can print, from the tree and from its GaussDB text (TDDL).

The table-level ``if_exists`` member (GaussDB's ``ALTER %{objtype}s %{if_exists}s %{only}s ...``), ``ONLY``,
the column's ``IF NOT EXISTS`` and its placement (none, ``FIRST``, ``AFTER c``): the text gives the tree's
IR; PostgreSQL keeps IF EXISTS / IF NOT EXISTS and drops the placement (DDLC-W698), and what it writes runs
on a real server (on the table, and on a missing table: nothing happens); Spark drops IF EXISTS (DDLC-W832)
and IF NOT EXISTS (DDLC-W840), keeps the placement in ``ADD COLUMNS (c INT AFTER c1)``, and Spark 4 parses
and runs it (the column lands where GaussDB puts it).
"""

from __future__ import annotations

import itertools
import json

import pytest

import ddlc
from ddlc.compiler import front
from ddlc.frontend.documents import read_documents
from ddlc.frontend.text import read_tddl

from tddl_pairs import comparable, first_difference

_ABSENT = {"fmt": "DEFAULT %{default}s", "present": False}


def _column(name: str, typename: str, typmod: str = "") -> dict:
    return {"fmt": "%{name}I %{coltype}T %{collation}s %{default}s %{generated_column}s", "name": name,
            "type": "column", "coltype": {"typmod": typmod, "typarray": False, "typename": typename,
                                          "schemaname": "pg_catalog"},
            "default": _ABSENT, "collation": {"fmt": "COLLATE %{name}D", "present": False},
            "generated_column": {"fmt": "GENERATED ALWAYS AS (%{generation_expr}s) STORED", "present": False}}


def _add(name: str, typename: str, if_not_exists: bool, place: str | None) -> dict:
    fmt = "ADD %{objtype}s %{if_not_exists}s %{definition}s %{cascade}s"
    d = {"type": "add column", "cascade": "", "objtype": "COLUMN", "definition": _column(name, typename),
         "if_not_exists": "IF NOT EXISTS" if if_not_exists else ""}
    if place == "FIRST":
        fmt += " %{add_first}s"
        d["add_first"] = {"fmt": "FIRST"}
    elif place is not None:
        fmt += " %{add_after_name}s"
        d["add_after_name"] = {"fmt": "AFTER %{name}I", "name": place}
    return {"fmt": fmt, **d}


def tree(if_exists: bool, only: bool, subcmds: list[dict], table: str = "t") -> dict:
    fmt = "ALTER %{objtype}s %{if_exists}s %{only}s %{identity}D %{subcmds:, }s" if if_exists else \
        "ALTER %{objtype}s %{only}s %{identity}D %{subcmds:, }s"
    d = {"fmt": fmt, "only": "ONLY" if only else "", "objtype": "TABLE", "subcmds": subcmds,
         "identity": {"objname": table, "schemaname": "public"}}
    if if_exists:
        d["if_exists"] = "IF EXISTS"
    return d


PLACES = (None, "FIRST", "c1")
COMBOS = list(itertools.product((False, True), (False, True), (False, True), PLACES))


def _id(c) -> str:
    ie, only, ine, place = c
    return "-".join(filter(None, ("if_exists" if ie else "", "only" if only else "", "if_not_exists" if ine else "",
                                  {None: "end", "FIRST": "first"}.get(place, "after")))) or "plain"


def _gaussdb_text(ie: bool, only: bool, ine: bool, place: str | None) -> str:
    words = ["ALTER TABLE", "IF EXISTS" if ie else "", "ONLY" if only else "", "public.t ADD COLUMN",
             "IF NOT EXISTS" if ine else "", "c pg_catalog.int4", {None: "", "FIRST": "FIRST"}.get(place, f"AFTER {place}")]
    return " ".join(w for w in words if w) + ";"


def _translate(doc: dict | str, target: str):
    data = json.dumps({"TDDL": doc} if isinstance(doc, str) else doc).encode()
    (result,) = ddlc.translate_many(data, target=target)
    assert result.error is None, result.error
    return result


@pytest.mark.parametrize("combo", COMBOS, ids=_id)
def test_every_combination_reads_and_translates(combo):
    ie, only, ine, place = combo
    t = tree(ie, only, [_add("c", "int4", ine, place)])
    text = _translate(t, "gaussdb").statements[0] + ";"
    assert text == _gaussdb_text(*combo)  # what GaussDB prints for it (its documented form, seeds/000)
    # the text gives the tree's IR
    (doc,) = read_documents(json.dumps(t).encode(), source="t")
    stmt, diags = read_tddl(text)
    assert not [d for d in diags if d.code in ("DDLC-N404", "DDLC-N003")], diags
    a, b = comparable(front(doc, None).stmt), comparable(stmt)
    assert a == b, first_difference(a, b)
    assert a["if_exists"] is ie and a["only"] is only
    for source in (t, text):
        pg = _translate(source, "postgres")
        head = "ALTER TABLE" + " IF EXISTS" * ie + " ONLY" * only + " public.t ADD COLUMN" + " IF NOT EXISTS" * ine
        assert pg.statements == (f"{head} c integer",)
        assert [d.code for d in pg.diagnostics if d.code.startswith("DDLC-W")] == ["DDLC-W698"] * (place is not None)
        spark = _translate(source, "spark")
        pos = {None: "", "FIRST": " FIRST"}.get(place, f" AFTER {place}")
        assert spark.statements == (f"ALTER TABLE public.t ADD COLUMNS (c INT{pos})",)
        codes = sorted(d.code for d in spark.diagnostics if d.code.startswith("DDLC-W"))
        assert codes == sorted(["DDLC-W832"] * ie + ["DDLC-W840"] * ine)


def test_two_columns_placed_differently_from_text():
    """The deparser's two ADD COLUMN elements of one statement, one FIRST and one AFTER, each with its own IF NOT
    EXISTS, read from the text as from the tree."""
    t = tree(True, False, [_add("z", "int4", False, "FIRST"), _add("k", "int2", True, "c1")])
    text = _translate(t, "gaussdb").statements[0]
    assert text == ("ALTER TABLE IF EXISTS public.t ADD COLUMN z pg_catalog.int4 FIRST, "
                    "ADD COLUMN IF NOT EXISTS k pg_catalog.int2 AFTER c1")
    for source in (t, text):
        assert _translate(source, "postgres").statements == (
            "ALTER TABLE IF EXISTS public.t ADD COLUMN z integer, ADD COLUMN IF NOT EXISTS k smallint",)
        assert _translate(source, "spark").statements == (
            "ALTER TABLE public.t ADD COLUMNS (z INT FIRST)", "ALTER TABLE public.t ADD COLUMNS (k SMALLINT AFTER c1)")


def test_if_exists_on_alter_type_is_removed_on_postgres():
    """PostgreSQL's ALTER TYPE has no IF EXISTS: removed with DDLC-W708 (a GaussDB tree would not carry it; a
    hand-written one may)."""
    t = tree(True, False, [{**_add("a", "int4", False, None), "objtype": "ATTRIBUTE"}])
    t["objtype"] = "TYPE"
    pg = _translate(t, "postgres")
    assert pg.statements == ("ALTER TYPE public.t ADD ATTRIBUTE a integer",)
    assert "DDLC-W708" in {d.code for d in pg.diagnostics}


def test_if_exists_with_a_statement_of_its_own_is_reported():
    """A subcommand PostgreSQL writes as a statement of its own (COMMENT = -> COMMENT ON TABLE) has no IF EXISTS."""
    t = tree(True, False, [_add("c", "int4", False, None),
                           {"fmt": "COMMENT=%{comment}L", "type": "comment", "comment": "x"}])
    pg = _translate(t, "postgres")
    assert pg.statements == ("ALTER TABLE IF EXISTS public.t ADD COLUMN c integer", "COMMENT ON TABLE public.t IS 'x'")
    assert "DDLC-W708" in {d.code for d in pg.diagnostics}


def test_postgres_runs_every_combination(pg_db):
    """Every PostgreSQL output runs: on an existing table (IF NOT EXISTS on a column it has: skipped), and on a
    missing table (IF EXISTS: nothing happens)."""
    with pg_db.cursor() as cur:
        for i, (ie, only, ine, place) in enumerate(COMBOS):
            table = f"t{i}"
            cur.execute(f"CREATE TABLE public.{table} (c0 integer, c1 integer)")
            t = tree(ie, only, [_add("c", "int4", ine, place)], table)
            (sql,) = _translate(t, "postgres").statements
            cur.execute(sql)
            if ine:
                cur.execute(sql)  # the column exists now: skipped
            cur.execute("SELECT attname FROM pg_attribute WHERE attrelid = %s::regclass AND attnum > 0 "
                        "ORDER BY attnum", (f"public.{table}",))
            assert [r[0] for r in cur.fetchall()] == ["c0", "c1", "c"]
            if ie:
                (sql,) = _translate(tree(ie, only, [_add("c", "int4", ine, place)], f"missing{i}"),
                                    "postgres").statements
                cur.execute(sql)  # no such table: a notice, no error


def test_spark_parses_and_places_every_combination(spark):
    """Spark 4 parses every output and, on the stand-in delta source, puts the column where GaussDB does."""
    spark.reset()
    spark.run("CREATE SCHEMA IF NOT EXISTS `public`")
    for i, (ie, only, ine, place) in enumerate(COMBOS):
        table = f"t{i}"
        spark.run(f"CREATE TABLE public.{table} (c0 INT, c1 INT, c2 INT) USING DELTA")
        for sql in _translate(tree(ie, only, [_add("c", "int4", ine, place)], table), "spark").statements:
            spark.parse(sql)
            spark.run(sql)
        expected = {None: ["c0", "c1", "c2", "c"], "FIRST": ["c", "c0", "c1", "c2"]}.get(place, ["c0", "c1", "c", "c2"])
        assert spark.session.table(f"public.{table}").columns == expected


def test_spark_skips_a_column_the_history_has(spark):
    """The documented example (seeds/000): ``tb5`` has ``c2`` already and GaussDB skips ``ADD COLUMN IF NOT EXISTS
    c2``. Spark's ADD COLUMNS has no IF NOT EXISTS: the stream's history (the table was created in it) says the
    column exists, so nothing is written for it (DDLC-I840) and the absent ``c3`` is added, with no warning."""
    create = {"TDDL": "CREATE TABLE public.tb5 (c1 pg_catalog.int4, c2 pg_catalog.int4) "
                      "WITH (orientation = 'row', compression = 'no');"}
    alter = tree(True, False, [_add("c2", "int4", True, "c1"), _add("c3", "int4", True, "c1")], "tb5")
    text = _translate(alter, "gaussdb").statements[0]
    for second in (alter, {"TDDL": text}):
        data = "\n".join(json.dumps(d) for d in (create, second)).encode()
        first, result = ddlc.translate_many(data, target="spark")
        assert result.statements == ("ALTER TABLE public.tb5 ADD COLUMNS (c3 INT AFTER c1)",)
        assert [d.code for d in result.diagnostics if d.code.startswith(("DDLC-W", "DDLC-I84"))] == [
            "DDLC-W832", "DDLC-I840"]
    spark.reset()
    spark.run("CREATE SCHEMA IF NOT EXISTS `public`")
    for sql in (*first.statements, *result.statements):
        spark.parse(sql)
        spark.run(sql)
    assert spark.session.table("public.tb5").columns == ["c1", "c3", "c2"]
    # without the history (the table was not created in the stream), the clause is dropped with a warning
    (alone,) = ddlc.translate_many(json.dumps(alter).encode(), target="spark")
    assert len(alone.statements) == 2 and [d.code for d in alone.diagnostics if d.code == "DDLC-W840"] == [
        "DDLC-W840"] * 2
