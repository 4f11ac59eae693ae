"""Replay safety (issue 8): what a database user can put in names and literals never changes what the
PostgreSQL output does, whatever the server's settings, and a fragment the server would never write is
refused for its document only. Proven on the real server, through psql -f as DBAs replay scripts."""

from __future__ import annotations

import json

import pglast
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ddlc
from ddlc.api import Translation

SENTINEL = "CREATE TABLE public.sentinel (id int)"


def comment_doc(value: str, table: str = "t") -> dict:
    return {"fmt": "COMMENT ON %{objtype}s %{identity}s IS %{comment}s", "objtype": "TABLE",
            "identity": f"public.{table}",
            "comment": {"fmt": "%{null}s %{literal}s", "null": {"fmt": "NULL", "present": False},
                        "literal": {"fmt": "%{value}L", "value": value, "present": True}}}


def replay(pg_server, tmp_path, sql: str, options: str = "") -> str:
    """Apply ``sql`` with psql -f in a fresh database holding public.t and the sentinel; the database name."""
    db = pg_server.fresh_database()
    with pg_server.connect(db) as conn:
        conn.execute("CREATE TABLE public.t (id int)")
        conn.execute(SENTINEL)
    script = tmp_path / "replay.sql"
    script.write_text(sql, "utf-8")
    p = pg_server.psql_file(db, str(script), options=options)
    assert p.returncode == 0, p.stderr
    return db


def comment_of(pg_server, db: str, table: str = "t") -> str | None:
    with pg_server.connect(db) as conn:
        row = conn.execute("SELECT obj_description(%s::regclass, 'pg_class')", (f"public.{table}",)).fetchone()
        survived = conn.execute("SELECT to_regclass('public.sentinel') IS NOT NULL").fetchone()
    assert survived == (True,), "the sentinel table was dropped"
    return row[0]


HOSTILE = [
    "C:\\'; DROP TABLE public.sentinel; --",
    "it's \\\\ a \\ path\\",
    "a\\'; DROP TABLE public.sentinel; --",
    "$$; DROP TABLE public.sentinel; $$",
    "line1\n\\! echo pwned\nline3",
    "/* open comment",
    "-- not a comment",
]


def test_literals_mean_the_same_whatever_standard_conforming_strings(pg_server, tmp_path):
    for value in HOSTILE:
        [t] = ddlc.translate_many([json.dumps(comment_doc(value))], target="postgres")
        assert t.ok and len(t.statements) == 1, t.error
        assert len(pglast.split(t.sql)) == 1
        for options in ("-c standard_conforming_strings=on", "-c standard_conforming_strings=off"):
            db = replay(pg_server, tmp_path, t.sql, options)
            assert comment_of(pg_server, db) == value, (value, options, t.sql)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=40)
       | st.sampled_from(HOSTILE))
def test_any_comment_round_trips_through_psql_with_scs_off(pg_server, tmp_path, value):
    [t] = ddlc.translate_many([json.dumps(comment_doc(value))], target="postgres")
    assert t.ok, t.error
    with pg_server.databases_dropped():  # (the example's database)
        db = replay(pg_server, tmp_path, t.sql, "-c standard_conforming_strings=off")
        assert comment_of(pg_server, db) == (value or None)  # an empty comment removes it


def _table(typmod: str, typename: str = "varchar", schema: str = "pg_catalog") -> dict:
    col = {"fmt": "%{name}I %{coltype}T %{collation}s %{default}s %{generated_column}s", "name": "c", "type": "column",
           "coltype": {"typename": typename, "schemaname": schema, "typmod": typmod, "typarray": False},
           "default": {"fmt": "DEFAULT %{default}s", "present": False},
           "collation": {"fmt": "COLLATE %{name}D", "present": False},
           "generated_column": {"fmt": "GENERATED ALWAYS AS (%{generation_expr}s) STORED", "present": False}}
    return {"fmt": "CREATE %{persistence}s TABLE %{if_not_exists}s %{identity}D %{table_elements}s %{inherits}s",
            "identity": {"objname": "t2", "schemaname": "public"}, "persistence": "", "if_not_exists": "",
            "inherits": {"fmt": "INHERITS (%{parents:, }D)", "present": False},
            "table_elements": {"fmt": "(%{elements:, }s)", "elements": [col]}}


def test_a_type_modifier_that_is_not_one_fails_its_document_only():
    bad = _table("(10)); DROP TABLE victim; --")
    good = comment_doc("fine")
    for target in ("postgres", "gaussdb"):
        out = list(ddlc.translate_many([json.dumps(bad), json.dumps(good)], target=target))
        assert out[0].error is not None and out[0].error.code == "DDLC-E011"
        assert out[0].error.path == ("table_elements", "elements", 0, "coltype", "typmod")
        assert out[1].ok and out[1].statements


def test_a_type_spelling_that_is_not_one_fails():
    bad = _table("", typename="integer); DROP TABLE victim; --", schema="")
    for target in ("postgres", "gaussdb"):
        [t] = ddlc.translate_many([json.dumps(bad)], target=target)
        assert t.error is not None and t.error.code == "DDLC-E011"


def test_real_type_modifiers_still_pass():
    for typmod, typename, schema in [("(10,2)", "numeric", "pg_catalog"), ("(3) with time zone", "TIMESTAMP", ""),
                                     ("(0) without time zone", "TIMESTAMP", ""), (" day to second(3)", "interval",
                                                                                  "pg_catalog")]:
        [t] = ddlc.translate_many([json.dumps(_table(typmod, typename, schema))], target="postgres")
        assert t.ok, (typmod, t.error)


def test_only_gsql_blocks_end_with_a_slash():
    t = Translation(index=0, document="d", target="postgres", statements=("CREATE INDEX i ON t (a) WHERE (a > 1) /",))
    assert t.sql.endswith("/;\n")
    package = "CREATE PACKAGE p IS\n  x int;\nEND p;\n/"
    [g] = ddlc.translate_many([json.dumps({"TDDL": package})], target="gaussdb")
    assert g.ok and g.sql.endswith("\n/\n") and not g.sql.endswith(";\n")
    [g2] = ddlc.translate_many([json.dumps({"TDDL": "DROP TABLE x /"})], target="gaussdb")
    assert g2.sql.endswith("/;\n")


# ---- library options are checked up front ---------------------------------------------------------------
import pytest  # noqa: E402


@pytest.mark.parametrize("options, error", [
    ({"schema_map": "a=b"}, TypeError),
    ({"schema_map": [("a",)]}, TypeError),
    ({"schema_map": {"a": 5}}, TypeError),
    ({"schema_map": {"a": ""}}, ValueError),
    ({"default_schema": 5}, TypeError),
    ({"default_schema": ""}, ValueError),
    ({"default_schema": "bad\x00"}, ValueError),
    ({"validate": "yes"}, TypeError),
    ({"on_unsupported": "explode"}, ValueError),
    ({"colour": True}, TypeError),
])
def test_bad_options_fail_at_the_call(options, error):
    with pytest.raises(error):
        ddlc.translate(json.dumps(comment_doc("x")), target="postgres", **options)
    with pytest.raises(error):
        ddlc.translate_many([json.dumps(comment_doc("x"))], target="postgres", **options)  # not iterated


def test_unknown_target_fails_at_the_call():
    with pytest.raises(ValueError):
        ddlc.translate_many([], target="nosuchdb")  # (spark was the example of an unknown target before it existed)


def test_good_schema_map_spellings():
    for sm in ({"public": "app"}, [("public", "app")], (["public", "app"],)):
        [t] = ddlc.translate_many([json.dumps(comment_doc("x"))], target="postgres", schema_map=sm)
        assert t.ok and "app.t" in t.statements[0], t


def test_the_bundled_sample_replays_with_psql(pg_server, tmp_path):
    from conftest import FIXTURES

    out = list(ddlc.translate_many((FIXTURES / "sample" / "ddl.jsonl").read_bytes(), target="postgres"))
    assert all(t.ok for t in out), [t.error for t in out if not t.ok]
    db = replay(pg_server, tmp_path, "".join(t.sql for t in out))  # every statement, in order, ON_ERROR_STOP
    with pg_server.connect(db) as conn:
        assert conn.execute("SELECT to_regclass('sales.sales') IS NOT NULL").fetchone() == (True,)
        assert conn.execute("SELECT count(*) FROM pg_trigger WHERE tgname = 'trg_orders'").fetchone() == (0,)  # dropped last


# ---- PostgreSQL keywords openGauss writes bare inside fragments (issue 8, item 6) ----------------------------
def _with_elements(*elements: dict) -> dict:
    tree = _table("")
    tree["table_elements"]["elements"] = list(elements)
    return tree


def _col(name: str, typename: str = "int4") -> dict:
    col = _table("")["table_elements"]["elements"][0]
    return dict(col, name=name, coltype=dict(col["coltype"], typename=typename))


def _constraint(name: str, definition: str, contype: str) -> dict:
    return {"fmt": "CONSTRAINT %{name}I %{definition}s", "name": name, "type": "constraint", "contype": contype,
            "definition": definition}


def test_bare_postgres_keywords_in_fragments_are_quoted(pg_server):
    tree = _with_elements(_col("isnull"), _col("lateral"), _col("system_user", "text"),
                          _constraint("k_pk", "PRIMARY KEY (lateral)", "primary key"),
                          _constraint("k_check", "CHECK ((isnull > 0))", "check"),
                          _constraint("k_su", "CHECK ((system_user <> ''::text))", "check"))
    [t] = ddlc.translate_many([json.dumps(tree)], target="postgres")
    assert t.ok, t.error
    sql = t.statements[0]
    assert 'PRIMARY KEY ("lateral")' in sql and '"isnull" > 0' in sql and '"system_user" <>' in sql, sql
    [g] = ddlc.translate_many([json.dumps(tree)], target="gaussdb")  # GaussDB keeps its exact text
    assert "PRIMARY KEY (lateral)" in g.statements[0] and "CHECK ((isnull > 0))" in g.statements[0]
    db = pg_server.fresh_database()
    with pg_server.connect(db) as conn:
        conn.execute(t.sql)
        cons = conn.execute("SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
                            "WHERE conrelid = 'public.t2'::regclass ORDER BY conname").fetchall()
    assert cons == [("k_check", "CHECK ((\"isnull\" > 0))"), ("k_pk", 'PRIMARY KEY ("lateral")'),
                    ("k_su", "CHECK ((system_user <> ''::text))")]  # not a keyword on PostgreSQL 15


def test_index_where_with_a_bare_keyword(pg_server):
    from conftest import CASES

    idx = json.loads((CASES / "create_index" / "unique-opts-tablespace-where" / "input.json").read_text("utf-8"))
    idx.update(table={"objname": "t2", "schemaname": "public"}, where="(isnull > 0)",
               definition="(lateral pg_catalog.int4_ops)")
    tree = _with_elements(_col("isnull"), _col("lateral"))
    out = list(ddlc.translate_many([json.dumps(tree), json.dumps(idx)], target="postgres"))
    assert all(t.ok for t in out), [t.error for t in out]
    assert 'WHERE "isnull" > 0' in out[1].statements[0] and '("lateral" ' in out[1].statements[0], out[1].statements
    db = pg_server.fresh_database()
    with pg_server.connect(db) as conn:
        conn.execute("".join(t.sql for t in out))
        assert conn.execute("SELECT pg_get_expr(indpred, indrelid) FROM pg_index "
                            "WHERE indexrelid = 'public.orders_note_idx'::regclass").fetchone() == ('("isnull" > 0)',)


def test_schema_map_to_a_postgres_keyword_keeps_the_view():
    from conftest import CASES

    doc = (CASES / "view" / "create-or-replace" / "input.json").read_bytes()
    [t] = ddlc.translate_many(doc, target="postgres", schema_map={"public": "lateral"})
    assert t.ok and t.statements, t.error
    assert '"lateral".orders' in t.statements[0] and 'VIEW "lateral".v_orders' in t.statements[0], t.statements
    assert len(pglast.parse_sql(t.statements[0])) == 1


# ---- server-rendered fragments are checked at the token level, on every target --------------------------------
def _with_default(text: str) -> dict:
    tree = _table("")
    col = tree["table_elements"]["elements"][0]
    col["default"] = {"fmt": "DEFAULT %{default}s", "default": text}
    return tree


def test_a_default_that_is_not_one_fragment_fails_its_document_on_every_target():
    for text in ["'x'\n\\! id\n", "1); DROP TABLE victim; --", "1; DROP TABLE victim", "'open", "(1", "1 /* x",
                 "1\n/\nDROP TABLE victim"]:
        for target in ("postgres", "gaussdb"):
            out = list(ddlc.translate_many([json.dumps(_with_default(text)), json.dumps(comment_doc("ok"))],
                                           target=target))
            assert out[0].error is not None and out[0].error.code == "DDLC-E011", (text, target, out[0])
            assert out[1].ok


def test_legitimate_fragments_still_pass():
    for text in ["'a;b'::text", "'x\\y'::text", "$$;$$::text", "(1 + 2) / 3", "'--'::text", "nextval('s'::regclass)"]:
        [t] = ddlc.translate_many([json.dumps(_with_default(text))], target="postgres")
        assert t.ok, (text, t.error)
        assert len(pglast.parse_sql(t.statements[0])) == 1


def test_a_result_that_cannot_be_written_costs_only_its_document(monkeypatch):
    from click.testing import CliRunner

    from ddlc import api
    from ddlc.cli import cli

    real = api.Translation.to_dict

    def to_dict(self):
        if "boom" in "".join(self.statements):
            raise RuntimeError("cannot render")
        return real(self)

    monkeypatch.setattr(api.Translation, "to_dict", to_dict)
    docs = "\n".join(json.dumps(comment_doc(v)) for v in ("ok", "boom", "fine")) + "\n"
    r = CliRunner().invoke(cli, ["translate", "--to", "postgres", "--format", "json", "-"], input=docs)
    lines = [json.loads(x) for x in r.stdout_bytes.decode().splitlines() if x.strip()]
    assert [bool(x["sql"]) for x in lines] == [True, False, True]
    assert lines[1]["error"]["code"] == "DDLC-E900"
    assert r.exit_code == 1
