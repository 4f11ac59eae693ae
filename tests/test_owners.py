"""Owners and roles (README "Owners"): AUTHORIZATION kept, --owners, --no-owner, --role-map.

Library and CLI rows (statements and codes, every statement parsed by PostgreSQL's grammar), the
options' checks, the other targets' notes, and a hypothesis property: any role name, however hostile,
is written as exactly the role PostgreSQL's parser reads back. The real server: tests/test_postgres_owners.py.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess

import pglast
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ddlc
from conftest import CASES, ddlc_command
from ddlc.api import Options, translate_document
from ddlc.frontend.documents import as_document
from test_postgres_alter import alter, sub
from test_postgres_routines import fn, schema, trigger


def case(name: str, owner: str | None = "alice") -> dict:
    doc = json.loads((CASES / name / "input.json").read_text("utf-8"))
    doc = doc.get("JDDL", doc)
    if owner is not None:
        doc["myowner"] = owner
    else:
        doc.pop("myowner", None)
    return doc


def table(name: str = "Orders", schema_: str = "sales", owner: str | None = "alice") -> dict:
    doc = {"fmt": "CREATE %{persistence}s TABLE %{if_not_exists}s %{identity}D (%{table_elements:, }s)",
           "persistence": "", "if_not_exists": "", "identity": {"object_name": name, "schema_name": schema_},
           "table_elements": [{"fmt": "%{name}I %{column_type}T", "name": "id",
                               "column_type": {"typmod": "", "typarray": False, "type_name": "int4",
                                               "schema_name": "pg_catalog"}}]}
    if owner is not None:
        doc["myowner"] = owner
    return doc


def pg(doc, **options):
    r = ddlc.translate(doc, target="postgres", **options)
    for s in r.statements:
        pglast.parse_sql(s)
    return r


def codes(r) -> list[str]:
    return sorted(d.code for d in r.diagnostics)


def tddl(text: str, owner: str | None = "alice"):
    doc = as_document({"TDDL": text})
    return dataclasses.replace(doc, meta={"owner": owner}) if owner is not None else doc


# ---- the default: what the statement says is kept, nothing is added -------------------------------------------
def test_authorization_kept_by_default():
    r = pg(schema("hr", authorization="hr_admin"))
    assert r.statements == ("CREATE SCHEMA hr AUTHORIZATION hr_admin",) and codes(r) == []
    r = pg(schema("", authorization="Bob"))  # named after the role, as PostgreSQL does too
    assert r.statements == ('CREATE SCHEMA AUTHORIZATION "Bob"',)


def test_owner_to_kept_and_no_owner_written_by_default():
    r = pg(alter(sub("OWNER TO %{owner}I", "change owner", owner="Alice")))
    assert r.statements == ('ALTER TABLE public.t OWNER TO "Alice"',)
    assert pg(table()).statements == ('CREATE TABLE sales."Orders" (id integer)',)


# ---- --owners: ALTER <kind> <name> OWNER TO <myowner> after each CREATE ---------------------------------------
OWNED = [
    ("table", table(), ['CREATE TABLE sales."Orders" (id integer)', 'ALTER TABLE sales."Orders" OWNER TO alice']),
    ("view", case("view/create-or-replace"),
     ["CREATE OR REPLACE VIEW public.v_orders AS SELECT orders.id, orders.amount AS amt FROM public.orders WHERE "
      "orders.amount > CAST(0 AS numeric)", "ALTER VIEW public.v_orders OWNER TO alice"]),
    ("sequence", case("sequence/create"),
     ["CREATE SEQUENCE public.s1 CACHE 5 NO CYCLE INCREMENT BY 2 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 10",
      "ALTER SEQUENCE public.s1 OWNER TO alice"]),
    ("function", case("function/create-function"),
     ["CREATE OR REPLACE FUNCTION public.add1(a integer) RETURNS integer LANGUAGE plpgsql AS $function$ begin "
      "return a + 1; end $function$", "ALTER FUNCTION public.add1(integer) OWNER TO alice"]),
    ("composite-type", case("type/composite"),
     ["CREATE TYPE public.pt AS (x integer, label text)", "ALTER TYPE public.pt OWNER TO alice"]),
    ("enum-type", case("type/enum"),
     ["CREATE TYPE public.color AS ENUM ('red', 'it''s green')", "ALTER TYPE public.color OWNER TO alice"]),
    ("schema", schema("hr") | {"myowner": "alice"}, ["CREATE SCHEMA hr", "ALTER SCHEMA hr OWNER TO alice"]),
    # AUTHORIZATION names the owner already: nothing added
    ("schema-authorization", schema("hr", authorization="hr_admin") | {"myowner": "alice"},
     ["CREATE SCHEMA hr AUTHORIZATION hr_admin"]),
    # an index has no owner of its own (it follows its table)
    ("index", case("create_index/concurrently"), None),
]


@pytest.mark.parametrize("doc,expected", [r[1:] for r in OWNED], ids=[r[0] for r in OWNED])
def test_owners_written_after_each_create(doc, expected):
    r = pg(doc, owners=True)
    if expected is None:
        assert not any("OWNER TO" in s for s in r.statements) and "DDLC-I746" not in codes(r)
        return
    assert list(r.statements) == expected
    assert ("DDLC-I746" in codes(r)) == (len(expected) > 1)


def test_owners_partitions_each_get_the_owner():
    r = pg(case("create_table/range-list-subpartitions"), owners=True)
    creates = [s.split(" PARTITION OF ")[0].split()[-1] if " PARTITION OF " in s else s.split()[2]
               for s in r.statements if s.startswith("CREATE TABLE")]
    owners = [s for s in r.statements if s.startswith("ALTER TABLE")]
    assert len(creates) == 8
    assert owners == [f"ALTER TABLE {t} OWNER TO alice" for t in creates]
    assert r.statements[:8] == tuple(s for s in r.statements if s.startswith("CREATE TABLE"))  # after the CREATEs


def test_owners_of_recovered_statements():
    opts = Options.of(owners=True)
    for text, want in [
        ("CREATE MATERIALIZED VIEW public.v46_4 AS SELECT a, b FROM public.t46;",
         "ALTER MATERIALIZED VIEW public.v46_4 OWNER TO alice"),
        ("CREATE TABLE public.t_ctas AS SELECT a, b FROM public.t_src;", "ALTER TABLE public.t_ctas OWNER TO alice"),
        ("CREATE PROCEDURE public.p_log ( IN a pg_catalog.int4, OUT note pg_catalog.varchar ) LANGUAGE plpgsql "
         "AS ' BEGIN note := 1; END; ';", "ALTER PROCEDURE public.p_log(IN integer, OUT varchar) OWNER TO alice"),
    ]:
        r = translate_document(tddl(text), "postgres", opts)
        assert r.error is None and r.statements[-1] == want, r.statements
        for s in r.statements:
            pglast.parse_sql(s)


def test_owners_unknown_owner_is_a_warning():
    r = pg(table(owner=None), owners=True)
    assert r.statements == ('CREATE TABLE sales."Orders" (id integer)',) and codes(r) == ["DDLC-W749"]
    with pytest.raises(ddlc.DdlcError):  # --on-unsupported error: nothing lost silently
        pg(table(owner=None), owners=True, on_unsupported="error")
    assert pg(alter(sub("OWNER TO %{owner}I", "change owner", owner="x")), owners=True).diagnostics == ()


def test_owners_on_other_targets_say_they_write_none():
    r = ddlc.translate(table(), "spark", owners=True)
    assert "OWNER" not in r.sql and codes(r) == ["DDLC-W834"]
    r = ddlc.translate(table(), "gaussdb", owners=True)
    assert r.sql == 'CREATE TABLE sales."Orders" (id pg_catalog.int4);\n' and codes(r) == ["DDLC-N002"]
    # spark: AUTHORIZATION is dropped with its warning, as before (Spark 4's grammar has none)
    r = ddlc.translate(schema("hr", authorization="hr_admin"), "spark")
    assert r.statements == ("CREATE SCHEMA hr",) and codes(r) == ["DDLC-W832"]


# ---- --no-owner: neither AUTHORIZATION nor OWNER TO nor DEFINER ---------------------------------------------------
def test_no_owner_drops_authorization():
    r = pg(schema("hr", authorization="hr_admin"), no_owner=True)
    assert r.statements == ("CREATE SCHEMA hr",) and codes(r) == ["DDLC-I502"]
    r = pg(schema("", authorization="Bob"), no_owner=True)
    assert r.statements == ('CREATE SCHEMA "Bob"',)
    for target in ("gaussdb", "spark"):
        r = ddlc.translate(schema("hr", authorization="hr_admin"), target, no_owner=True)
        assert r.statements == ("CREATE SCHEMA hr",) and codes(r) == ["DDLC-I502"]


def test_no_owner_drops_owner_to():
    only = alter(sub("OWNER TO %{owner}I", "change owner", owner="alice"))
    for target in ("postgres", "gaussdb", "spark"):
        r = ddlc.translate(only, target, no_owner=True)  # nothing left: written as nothing, not an error
        assert r.statements == () and codes(r) == ["DDLC-I502"], target
    r = pg(alter(sub("ENABLE ROW LEVEL SECURITY", "enable row security"),
                 sub("OWNER TO %{owner}I", "change owner", owner="alice")), no_owner=True)
    assert r.statements == ("ALTER TABLE public.t ENABLE ROW LEVEL SECURITY",) and "DDLC-I502" in codes(r)
    r = ddlc.translate(alter(sub("ENABLE ROW LEVEL SECURITY", "enable row security"),
                             sub("OWNER TO %{owner}I", "change owner", owner="alice")), "gaussdb", no_owner=True)
    assert r.statements == ("ALTER TABLE public.t ENABLE ROW LEVEL SECURITY",)


def test_no_owner_drops_definer_and_keeps_grants():
    f = fn("CREATE DEFINER = bob FUNCTION public.f()\n RETURNS integer\n LANGUAGE sql\n NOT FENCED NOT SHIPPABLE\n"
           "AS $function$select 1$function$;")
    r = ddlc.translate(f, "gaussdb", no_owner=True)
    assert "DEFINER" not in r.sql and "DDLC-I502" in codes(r)
    r = pg(f, no_owner=True)
    assert "DDLC-W731" not in codes(r) and "DDLC-I502" in codes(r)
    r = pg(trigger(definer="bob"), no_owner=True)
    assert "DDLC-W731" not in codes(r)
    r = translate_document(tddl("GRANT SELECT ON TABLE public.t TO alice;"), "postgres", Options.of(no_owner=True))
    assert r.statements == ("GRANT SELECT ON TABLE public.t TO alice",)


def test_owners_and_no_owner_exclude_each_other():
    with pytest.raises(ValueError, match="no_owner"):
        ddlc.translate(table(), "postgres", owners=True, no_owner=True)
    with pytest.raises(TypeError):
        ddlc.translate(table(), "postgres", owners="yes")


# ---- --role-map ------------------------------------------------------------------------------------------------
ROLES = {"alice": "Alice Q", "hr_admin": "hr_owner", "bob": "carol", "admin_role": "adm"}


def test_role_map_everywhere():
    assert pg(schema("hr", authorization="hr_admin"), role_map=ROLES).statements == \
        ("CREATE SCHEMA hr AUTHORIZATION hr_owner",)
    assert pg(alter(sub("OWNER TO %{owner}I", "change owner", owner="alice")), role_map=ROLES).statements == \
        ('ALTER TABLE public.t OWNER TO "Alice Q"',)
    assert pg(table(), owners=True, role_map=ROLES).statements[-1] == 'ALTER TABLE sales."Orders" OWNER TO "Alice Q"'
    opts = Options.of(role_map=ROLES)
    r = translate_document(tddl("GRANT SELECT ON TABLE public.t TO alice, PUBLIC;"), "postgres", opts)
    assert r.statements == ('GRANT SELECT ON TABLE public.t TO "Alice Q", PUBLIC',)
    r = translate_document(tddl("GRANT admin_role TO bob WITH ADMIN OPTION;"), "postgres", opts)
    assert r.statements == ("GRANT adm TO carol WITH ADMIN OPTION",)
    f = fn("CREATE DEFINER = bob FUNCTION public.f()\n RETURNS integer\n LANGUAGE sql\n NOT FENCED NOT SHIPPABLE\n"
           "AS $function$select 1$function$;")
    assert "DEFINER = carol" in ddlc.translate(f, "gaussdb", role_map=ROLES).sql
    # the source's own spelling is matched exactly; role words are never mapped
    assert pg(schema("hr", authorization="HR_ADMIN"), role_map=ROLES).statements == \
        ('CREATE SCHEMA hr AUTHORIZATION "HR_ADMIN"',)
    r = translate_document(tddl("GRANT SELECT ON TABLE public.t TO PUBLIC;"), "postgres",
                           Options.of(role_map={"PUBLIC": "x"}))
    assert r.statements == ("GRANT SELECT ON TABLE public.t TO PUBLIC",)


def test_role_map_on_gaussdb_text_is_said():
    r = translate_document(tddl("GRANT SELECT ON TABLE public.t TO alice;"), "gaussdb", Options.of(role_map=ROLES))
    assert r.statements == ("GRANT SELECT ON TABLE public.t TO alice",) and "DDLC-W004" in codes(r)


def test_role_map_checks():
    assert Options.of(role_map=[("a", "b")]).role_map == (("a", "b"),)
    with pytest.raises(TypeError, match="--role-map"):
        Options.of(role_map="a=b")
    with pytest.raises(ValueError, match="more than one"):
        Options.of(role_map=["a=b=c"])
    with pytest.raises(ValueError):
        Options.of(role_map={"a": ""})
    with pytest.raises(ValueError):
        Options.of(role_map={"a": "b\x00"})


# ---- the command line -----------------------------------------------------------------------------------------
def run(*args, stdin=None):
    return subprocess.run([*ddlc_command(), *args], input=stdin, capture_output=True, text=True, timeout=120)


def test_cli_owners_role_map_no_owner():
    log = "\n".join(json.dumps(d) for d in (schema("hr", authorization="hr_admin") | {"myowner": "alice"},
                                            table("emp", "hr"))) + "\n"
    p = run("translate", "--to", "postgres", "--owners", "--role-map", "alice=app,hr_admin=hr_owner", "-", stdin=log)
    assert p.returncode == 0, p.stderr
    assert p.stdout == ("CREATE SCHEMA hr AUTHORIZATION hr_owner;\nCREATE TABLE hr.emp (id integer);\n"
                        "ALTER TABLE hr.emp OWNER TO app;\n")
    p = run("translate", "--to", "postgres", "--role-map", "alice=app", "--role-map", "hr_admin=x", "-", stdin=log)
    assert p.stdout == "CREATE SCHEMA hr AUTHORIZATION x;\nCREATE TABLE hr.emp (id integer);\n"
    p = run("translate", "--to", "postgres", "--no-owner", "-", stdin=log)
    assert p.returncode == 0 and p.stdout == "CREATE SCHEMA hr;\nCREATE TABLE hr.emp (id integer);\n"
    p = run("translate", "--to", "postgres", "--owners", "--no-owner", "-", stdin=log)
    assert p.returncode == 2 and "no_owner" in p.stderr
    p = run("translate", "--role-map", "alice", "-", stdin=log)
    assert p.returncode == 2 and "SRC=DST" in p.stderr


def test_cli_replay_no_owner_and_role_map():
    log = "\n".join(json.dumps(d) for d in (schema("hr", authorization="hr_admin"), table("emp", "hr"))) + "\n"
    p = run("replay", "--to", "postgres", "--role-map", "hr_admin=hr_owner", "-", stdin=log)
    assert p.returncode == 0 and p.stdout.startswith("CREATE SCHEMA hr AUTHORIZATION hr_owner;\n"), p.stderr
    p = run("replay", "--to", "postgres", "--no-owner", "-", stdin=log)
    assert p.returncode == 0 and p.stdout.startswith("CREATE SCHEMA hr;\n"), p.stderr


def test_cli_help_says_the_default():
    for cmd in (("translate",), ("pipeline", "run")):
        out = run(*cmd, "--help").stdout
        assert "--owners" in out and "--no-owner" in out and "--role-map" in out, cmd
        assert "Off by default" in " ".join(out.split()), cmd
    out = run("replay", "--help").stdout
    assert "--no-owner" in out and "--role-map" in out


# ---- hostile role names: written as exactly the role PostgreSQL reads back -------------------------------------
def _role_names(tree) -> list[str]:
    """Every role name in a parsed statement (RoleSpec nodes), in order."""
    out: list[str] = []

    def walk(v):
        if isinstance(v, dict):
            if "roletype" in v:
                out.append(v.get("rolename", v["roletype"]))
            for x in v.values():
                walk(x)
        elif isinstance(v, list | tuple):
            for x in v:
                walk(x)

    walk(tree)
    return out


RESERVED = ("public", "none")  # PostgreSQL's grammar reads these as keywords, even quoted
HOSTILE = ["x'; DROP TABLE public.sentinel; --", 'x"; DROP TABLE public.sentinel; --', "a\\", "$$", "-- c", "/* c",
           "a\nb", "\n\\! id\n", "\u202eevil", "zero\u200bwidth", "é", "select", "user", "Order", "a.b", " ", "PUBLIC",
           "current_user", "none", "public"]
role = st.one_of(st.sampled_from(HOSTILE),
                 st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), min_size=1,
                         max_size=20).filter(lambda s: len(s.encode()) <= 63))  # longer names: PostgreSQL truncates


@settings(max_examples=200, deadline=None)
@given(src=role, dst=role, auth=role)
def test_hostile_role_names_round_trip(src, dst, auth):
    from pglast.parser import parse_sql_json

    docs = [schema("hr", authorization=auth) | {"myowner": src}, table("emp", "hr", owner=src),
            alter(sub("OWNER TO %{owner}I", "change owner", owner=src))]
    if dst in RESERVED:  # no role can have these names on PostgreSQL: refused up front
        with pytest.raises(ValueError, match="reserves"):
            Options.of(role_map={src: dst})
        return
    for i, doc in enumerate(docs):
        r = ddlc.translate(doc, "postgres", owners=True, role_map={src: dst}, on_unsupported="skip")
        assert len(pglast.split(r.sql)) == len(r.statements)
        roles = [n for s in r.statements for n in _role_names(json.loads(parse_sql_json(s)))]
        want_auth = dst if auth == src else auth
        expected = [[want_auth], [dst], [dst]][i]
        if expected[0] in RESERVED:  # written nowhere, with its warning (the schema then goes to the --owners owner)
            assert roles == ([dst] if i == 0 else []) and "DDLC-W744" in codes(r), r.sql
        else:
            assert roles == expected, (r.sql, expected)


# ---- the Spark pipeline takes the same options: its postgres.sql is what the CLI prints ---------------------------
def test_pipeline_owners_equal_the_cli(spark, tmp_path):
    from ddlc.pipeline.run import run as pipeline_run

    log = CASES.parent / "streams" / "test_decoding.txt"
    out = tmp_path / "out"
    options = Options.of(owners=True, role_map={"alice": "app owner"})
    pipeline_run([str(log)], str(out), ["postgres"], spark=spark.session, options=options, report=lambda s: None)
    p = run("translate", "--to", "postgres", "--owners", "--role-map", "alice=app owner", str(log))
    assert p.returncode == 0, p.stderr
    assert (out / "postgres.sql").read_text("utf-8") == p.stdout
    assert 'ALTER TABLE public.orders OWNER TO "app owner";\n' in p.stdout
