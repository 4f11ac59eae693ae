"""Trees from other GaussDB/openGauss versions (ddlc/frontend/build/variants.py).

A statement is recognised by its leading keywords and the keys it carries, not by the exact `fmt`:
an optional specifier added with an empty value, an optional part moved where it prints nothing,
GaussDB's key spellings, or a slot left out all build the same IR (origin, layout and source-text
fields aside) and the same PostgreSQL text. An unknown key with a value is named (DDLC-N003) and
the statement kept as text. GaussDB's own CREATE FUNCTION tree builds the IR of openGauss's.
"""

from __future__ import annotations

import copy
import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ddlc
from conftest import CASES
from ddlc.errors import DdlcError
from ddlc.frontend.build import build
from ddlc.ir.base import to_json
from ddlc.ir.routine import CreateFunction, NullInput, Security, Volatility
from ddlc.ir.statement import Opaque
from ddlc.jddl.expand import expand
from ddlc.quoting import canonicalize

# fields that keep how the source was written, not what it means
_FORM_FIELDS = {"layout", "text", "name_span", "name_text", "identity_text", "parent_text", "definition_text",
                "body_tag"}


def meaning(stmt):
    """The IR as JSON without origins, layouts and source texts."""

    def strip(v):
        if isinstance(v, dict):
            return {k: strip(x) for k, x in v.items() if k not in _FORM_FIELDS and not k.endswith("_layout")}
        if isinstance(v, list):
            return [strip(x) for x in v]
        return v

    return strip(to_json(stmt))


def _tree(path):
    d = json.loads(path.read_text("utf-8"))
    return d["JDDL"] if isinstance(d, dict) and "JDDL" in d else d


def _builds(tree):
    if not isinstance(tree, dict) or not isinstance(tree.get("fmt"), str):
        return False
    try:
        expand(tree)
        stmt, _ = build(tree)
    except DdlcError:
        return False
    return not isinstance(stmt, Opaque)


BUILDING = [p for p in sorted(CASES.glob("*/*/input.json")) if _builds(_tree(p))]


def test_most_fixtures_build():
    assert len(BUILDING) > 100


# ---- variants of a fmt -----------------------------------------------------------------------
_SPEC = re.compile(r"%\{[^}]*\}[A-Za-z]")
_POOL = ("if_exists", "only", "concurrently", "or_replace", "definer_opt", "large", "zz_newer_clause", "purge",
         "cascade", "persistence", "if_not_exists", "unique", "constraint")
_GAUSS = {"objname": "object_name", "schemaname": "schema_name", "typename": "type_name", "coltype": "column_type"}
_GAUSS_TOP = {**_GAUSS, "objtype": "object_type", "objidentity": "object_identity", "newname": "new_name"}


def gaps(fmt):
    """Blank positions outside specifiers and quotes: where a specifier may stand."""
    out, quote, i = [], None, 0
    while i < len(fmt):
        m = _SPEC.match(fmt, i)
        if m:
            i = m.end()
            continue
        c = fmt[i]
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c.isspace():
            out.append(i)
        i += 1
    return out + [len(fmt)]


def _empty(v):
    return v == "" or (isinstance(v, dict) and v.get("present", True) is False)


def insert_empty(tree, name, value, at):
    t = copy.deepcopy(tree)
    fmt = t["fmt"]
    pos = gaps(fmt)[at % len(gaps(fmt))]
    t["fmt"] = fmt[:pos] + f" %{{{name}}}s" + fmt[pos:]
    t[name] = value
    return t


def move_or_drop_empty(tree, which, at, drop):
    """Move an empty ``%s`` specifier elsewhere (or leave it out with its key): it prints nothing."""
    empties = [m for m in _SPEC.finditer(tree["fmt"])
               if m.group().endswith("s") and ":" not in m.group() and _empty(tree.get(m.group()[2:-2], None))
               and not _quoted(tree["fmt"], m.start())]
    if not empties:
        return tree
    m = empties[which % len(empties)]
    t = copy.deepcopy(tree)
    fmt = t["fmt"][: m.start()] + t["fmt"][m.end():]
    if drop:
        del t[m.group()[2:-2]]
    else:
        pos = gaps(fmt)[at % len(gaps(fmt))]
        fmt = fmt[:pos] + " " + m.group() + fmt[pos:]
    t["fmt"] = fmt
    return t


def _quoted(fmt, pos):
    return fmt[:pos].count("'") % 2 == 1


def gauss_keys(v, top=True):
    """GaussDB's spellings of the keys (and of the specifiers naming them)."""
    if isinstance(v, list):
        return [gauss_keys(x, False) for x in v]
    if not isinstance(v, dict):
        return v
    names = _GAUSS_TOP if top else _GAUSS
    out = {}
    for k, x in v.items():
        out[names.get(k, k)] = gauss_keys(x, False)
    if isinstance(out.get("fmt"), str):
        out["fmt"] = re.sub(r"%\{(\w+)", lambda m: "%{" + names.get(m.group(1), m.group(1)), out["fmt"])
    return out


@st.composite
def variants(draw, tree):
    t = tree
    for _ in range(draw(st.integers(0, 3))):
        name = draw(st.sampled_from([n for n in _POOL if n not in t]))
        value = draw(st.sampled_from(["", {"present": False}, {"fmt": "PURGE", "present": False}]))
        t = insert_empty(t, name, value, draw(st.integers(0, 1000)))
    for _ in range(draw(st.integers(0, 2))):
        t = move_or_drop_empty(t, draw(st.integers(0, 100)), draw(st.integers(0, 1000)), draw(st.booleans()))
    if draw(st.booleans()):
        t = gauss_keys(t)
    return t


def postgres_of(tree):
    try:
        return ddlc.translate(tree, target="postgres", on_unsupported="comment").sql
    except DdlcError as e:
        return f"error {e.code}"


@pytest.mark.parametrize("path", BUILDING, ids=lambda p: str(p.parent.relative_to(CASES)))
@settings(max_examples=25, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_fmt_variants_build_the_same_ir(path, data):
    tree = _tree(path)
    variant = data.draw(variants(tree))
    expand(variant)  # still a tree the server could have sent
    want, _ = build(tree)
    got, diags = build(variant)
    assert not isinstance(got, Opaque), (variant["fmt"], [d.message for d in diags])
    assert meaning(got) == meaning(want)
    assert postgres_of(variant) == postgres_of(tree)


# ---- examples ---------------------------------------------------------------------------------
DROP = {"fmt": "DROP %{objtype}s %{concurrently}s %{if_exists}s %{objidentity}s %{cascade}s", "objtype": "table",
        "concurrently": "", "if_exists": "IF EXISTS", "objidentity": "public.t", "cascade": "CASCADE"}


def test_an_optional_specifier_added_by_another_version():
    t = dict(DROP, fmt="DROP %{objtype}s %{concurrently}s %{if_exists}s %{objidentity}s %{cascade}s %{purge}s",
             purge={"fmt": "PURGE", "present": False})
    stmt, diags = build(t)
    assert meaning(stmt) == meaning(build(DROP)[0]) and diags == []


def test_an_absent_slot_and_gaussdb_spellings():
    t = {"fmt": "DROP %{object_type}s %{if_exists}s %{object_identity}s", "object_type": "table",
         "if_exists": "IF EXISTS", "object_identity": "public.t"}
    stmt, _ = build(t)
    want, _ = build(dict(DROP, cascade=""))
    assert meaning(stmt) == meaning(want)
    assert ddlc.translate(t, target="postgres").sql == "DROP TABLE IF EXISTS public.t;\n"


def test_an_unknown_key_with_a_value_is_named_and_kept_as_text():
    t = dict(DROP, fmt=DROP["fmt"] + " %{purge}s", purge="PURGE")
    stmt, diags = build(t)
    assert isinstance(stmt, Opaque)
    assert [d.code for d in diags] == ["DDLC-N003"] and "'purge'" in diags[0].message
    assert ddlc.translate(t, target="gaussdb").sql == "DROP table IF EXISTS public.t CASCADE PURGE;\n"
    with pytest.raises(DdlcError) as e:
        ddlc.translate(t, target="postgres")
    assert e.value.code == "DDLC-E010"


def test_an_unknown_key_is_named_even_when_a_builder_would_ignore_it():
    view = json.loads((CASES / "view/create-or-replace/input.json").read_text("utf-8"))
    t = dict(view, fmt=view["fmt"].replace("VIEW", "VIEW %{algorithm}s"), algorithm="ALGORITHM = MERGE")
    stmt, diags = build(t)
    assert isinstance(stmt, Opaque) and "DDLC-N003" in [d.code for d in diags]
    assert "'algorithm'" in " ".join(d.message for d in diags)


def test_an_unrecognised_tree_still_falls_back_to_text():
    t = {"fmt": "CREATE FOO %{x}s", "x": "bar"}
    stmt, diags = build(t)
    assert isinstance(stmt, Opaque) and [d.code for d in diags] == ["DDLC-N001"]


# ---- GaussDB's CREATE FUNCTION ----------------------------------------------------------------
GAUSS_FMT = ("CREATE %{or_replace}s FUNCTION %{signature}s RETURNS %{return_type}T LANGUAGE %{language}I "
             "%{volatility}s %{strict}s %{security_definer}s %{cost}s AS %{definition}L")
INT4 = {"typmod": "", "typarray": False, "type_name": "int4", "schema_name": "pg_catalog"}


def gauss_function(**kw):
    t = {"fmt": GAUSS_FMT, "or_replace": "OR REPLACE", "myowner": "alice",
         "signature": {"fmt": "%{identity}D(%{arguments:, }s)", "identity": {"object_name": "add1", "schema_name": "public"},
                       "arguments": [{"fmt": "%{name}I %{type}T", "name": "a", "type": INT4}]},
         "return_type": INT4, "language": "plpgsql", "volatility": "IMMUTABLE", "strict": "STRICT",
         "security_definer": "SECURITY DEFINER", "cost": "COST 100", "definition": " begin return a + 1; end "}
    t.update(kw)
    return t


OPENGAUSS = {"fmt": "%{function}s", "myowner": "alice", "function":
             "CREATE OR REPLACE FUNCTION public.add1(a pg_catalog.int4)\n RETURNS pg_catalog.int4\n LANGUAGE plpgsql\n"
             " IMMUTABLE STRICT SECURITY DEFINER COST 100\nAS $function$ begin return a + 1; end $function$;\n"}


def test_gaussdb_create_function_builds_the_opengauss_ir():
    stmt, diags = build(gauss_function())
    assert isinstance(stmt, CreateFunction) and diags == []
    assert (stmt.name.schema, stmt.name.name, stmt.or_replace, stmt.language) == ("public", "add1", True, "plpgsql")
    assert [(a.name, a.type) for a in stmt.arguments] == [("a", "pg_catalog.int4")]
    assert stmt.returns.type == "pg_catalog.int4"
    o = stmt.options
    assert (o.volatility, o.null_input, o.security, o.cost) == (
        Volatility.IMMUTABLE, NullInput.STRICT, Security.DEFINER, "100")
    assert stmt.body == " begin return a + 1; end "
    assert meaning(stmt) == meaning(build(OPENGAUSS)[0])
    pg = ddlc.translate(gauss_function(), target="postgres").sql
    assert pg == ddlc.translate(OPENGAUSS, target="postgres").sql
    assert pg == ("CREATE OR REPLACE FUNCTION public.add1(a integer) RETURNS integer LANGUAGE plpgsql IMMUTABLE STRICT "
                  "COST 100 SECURITY DEFINER AS $function$ begin return a + 1; end $function$;\n")
    assert ddlc.translate(gauss_function(), target="gaussdb").sql == (
        "CREATE OR REPLACE FUNCTION public.add1(a pg_catalog.int4) RETURNS pg_catalog.int4 LANGUAGE plpgsql "
        "IMMUTABLE STRICT SECURITY DEFINER COST 100 AS ' begin return a + 1; end ';\n")


_OPTIONS = ("volatility", "strict", "security_definer", "cost")
_VALUES = {"volatility": ["IMMUTABLE", "stable", "VOLATILE"], "strict": ["STRICT", "CALLED ON NULL INPUT"],
           "security_definer": ["SECURITY DEFINER", "SECURITY INVOKER"],
           "cost": ["COST 7", {"fmt": "COST %{cost}n", "cost": 7}]}


@st.composite
def gauss_functions(draw):
    """GaussDB CREATE FUNCTION trees: options in any order, given, empty, not present or left out."""
    order = draw(st.permutations(_OPTIONS))
    t = gauss_function()
    parts, words = [], []
    for key in order:
        how = draw(st.sampled_from(["value", "empty", "not-present", "absent"]))
        if how == "absent":
            del t[key]
            continue
        parts.append(f"%{{{key}}}s")
        if how == "value":
            t[key] = draw(st.sampled_from(_VALUES[key]))
            words.append(t[key])
        else:
            t[key] = "" if how == "empty" else {"fmt": "", "present": False}
    t["fmt"] = ("CREATE %{or_replace}s FUNCTION %{signature}s RETURNS %{return_type}T LANGUAGE %{language}I "
                + " ".join(parts) + " AS %{definition}L")
    if draw(st.booleans()):  # an optional slot of a newer version, empty
        t["fmt"] = t["fmt"].replace(" AS ", " %{leakproof}s AS ")
        t["leakproof"] = ""
    return t


def _as_opengauss(t):
    """The same function as openGauss's pg_get_functiondef text (options in the tree's order)."""
    opts = []
    for m in re.finditer(r"%\{(\w+)\}s", t["fmt"].split("LANGUAGE", 1)[1]):
        v = t.get(m.group(1))
        if isinstance(v, dict):
            v = "" if v.get("present", True) is False else f"COST {v['cost']}"
        if v:
            opts.append(v)
    text = ("CREATE OR REPLACE FUNCTION public.add1(a pg_catalog.int4)\n RETURNS pg_catalog.int4\n LANGUAGE plpgsql\n "
            + " ".join(opts) + "\nAS $function$ begin return a + 1; end $function$;\n")
    return {"fmt": "%{function}s", "function": text}


@settings(max_examples=60)
@given(t=gauss_functions())
def test_gaussdb_create_function_variants(t):
    stmt, diags = build(t)
    assert isinstance(stmt, CreateFunction), [d.message for d in diags]
    want = build(_as_opengauss(t))[0]
    assert meaning(stmt) == meaning(want)
    assert ddlc.translate(t, target="postgres").sql == ddlc.translate(_as_opengauss(t), target="postgres").sql


@pytest.mark.parametrize("key, value", [("volatility", "SOMETIMES"), ("strict", "MAYBE"), ("cost", "COST lots"),
                                        ("security_definer", 1)])
def test_gaussdb_create_function_outside_the_vocabulary_fails(key, value):
    """A keyword or number slot holding a value outside its class (issue 20.3: its closed set) fails its
    document on every target (it was kept as text for the GaussDB target before)."""
    t = gauss_function(**{key: value})
    if not isinstance(value, str):
        with pytest.raises(DdlcError):
            expand(t)
        return
    with pytest.raises(DdlcError) as e:
        build(t)
    assert e.value.code == "DDLC-E011" and e.value.path == (key,)
    for target in ("gaussdb", "postgres", "spark"):
        [r] = ddlc.translate_many([json.dumps(t)], target=target)
        assert r.error is not None and r.error.code == "DDLC-E011"


def test_gaussdb_create_function_of_another_form_is_kept_as_text():
    t = gauss_function(volatility="IMMUTABLE")
    t["fmt"] = t["fmt"].replace(" AS %{definition}L", " PARALLEL AS %{definition}L")
    stmt, diags = build(t)
    assert isinstance(stmt, Opaque) and [d.code for d in diags] == ["DDLC-N403"]
    assert ddlc.translate(t, target="gaussdb").sql == canonicalize(expand(t)) + ";\n"


def test_gaussdb_create_function_on_the_server(pg_db):
    t = gauss_function()
    sql = ddlc.translate(t, target="postgres").sql
    with pg_db.cursor() as cur:
        cur.execute(sql)
    row = pg_db.execute("SELECT provolatile, proisstrict, prosecdef, procost, pg_get_function_arguments(oid), "
                        "prorettype::regtype::text FROM pg_proc WHERE proname = 'add1'").fetchone()
    assert row == ("i", True, True, 100.0, "a integer", "integer")
    assert pg_db.execute("SELECT public.add1(41), public.add1(NULL)").fetchone() == (42, None)
    # a variant of another version: options reordered, an empty slot added, GaussDB keys
    v = gauss_function(fmt=GAUSS_FMT.replace("%{volatility}s %{strict}s", "%{strict}s %{if_exists}s %{volatility}s"),
                       if_exists="", volatility="STABLE", strict="CALLED ON NULL INPUT", cost="")
    with pg_db.cursor() as cur:
        cur.execute(ddlc.translate(v, target="postgres").sql)
    row = pg_db.execute("SELECT provolatile, proisstrict, procost FROM pg_proc WHERE proname = 'add1'").fetchone()
    assert row == ("s", False, 100.0)
