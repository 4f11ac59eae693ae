"""Issue 26, round 5 (text side): the TDDL recovery's readings from pglast's JSON parse (:mod:`ddlc.frontend.recover_json`)
give what the former readings of its Python nodes give, statement and diagnostics, on every fixture text, on texts
made from the grammar of each statement (names quoted or not, three-part names, option values of every form,
flags) and on mutated fixture texts. The former reading is the same handler with the JSON reading switched off."""

from __future__ import annotations

import glob

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ddlc.frontend import recover, recover_json
from ddlc.frontend.recover import recover_tddl


def _former(text: str):
    real = recover_json.statement
    recover_json.statement = lambda _text: None  # every handler then reads pglast's nodes, as before
    try:
        return recover_tddl(text)
    finally:
        recover_json.statement = real


def _same(text: str) -> None:
    new = recover_tddl(text)
    old = _former(text)
    assert new == old, text


def _fixture_texts() -> list[str]:
    out = []
    for p in sorted(glob.glob("fixtures/**/*.json", recursive=True)):
        try:
            tree = orjson.loads(open(p, "rb").read())
        except orjson.JSONDecodeError:
            continue
        if isinstance(tree, dict) and isinstance(tree.get("TDDL"), str):
            out.append(tree["TDDL"])
    return out


FIXTURES = _fixture_texts()


def test_fixture_texts_read_as_before():
    assert len(FIXTURES) >= 14
    for text in FIXTURES:
        _same(text)


def test_the_json_reading_is_taken():
    """The common forms are read from the JSON parse (the lever measured), not from the nodes."""
    calls = []
    real = recover._parse
    recover._parse = lambda text: calls.append(text) or real(text)  # type: ignore[assignment]
    try:
        for text in ("CREATE TABLE public.t WITH (orientation = 'row', compression = 'no') AS SELECT a FROM s;",
                     "DROP PROCEDURE IF EXISTS public.p_log(integer, character varying);", "DROP FUNCTION f, g(int[]);",
                     "CREATE INCREMENTAL MATERIALIZED VIEW m AS SELECT 1", "REFRESH MATERIALIZED VIEW m;",
                     "TRUNCATE TABLE a, ONLY b RESTART IDENTITY CASCADE;", "SELECT a INTO TEMP t FROM s;"):
            recover_tddl(text)
    finally:
        recover._parse = real
    assert calls == []


_names = st.sampled_from(["t", "public.t", "s.t", "c.s.t", '"Odd ""name"""', '"ü x".t', "PUBLIC.T_1", "x$1", '"select"'])
_values = st.sampled_from(["'row'", "'it''s'", "'a\\b'", "E'a\\'b'", "12", "-5", "0", "1.5", "-2.5e3", "true", "on", "no",
                           "name", "pg_catalog.int4", "int4(3)", "NULL", "'ü'", "$$x$$", "ARRAY[1]", "(1)"])
_opts = st.lists(st.tuples(st.sampled_from(["orientation", "fillfactor", "compression", "x", '"Odd"']),
                           st.one_of(st.none(), _values)), max_size=3)
_cols = st.lists(st.sampled_from(["a", "b", '"C d"', "e1"]), max_size=3)
_queries = st.sampled_from(["SELECT a, b FROM s WHERE a > 1", "SELECT 1", "VALUES (1)", "TABLE s",
                            "SELECT * FROM s ORDER BY a OFFSET 2 LIMIT 3", "(SELECT 'it''s')", "SELECT a AS x FROM s",
                            "SELECT a FROM s UNION SELECT b FROM t", "EXECUTE p", "SELECT $1", "SELECT"])


def _with(opts) -> str:
    if not opts:
        return ""
    return " WITH (" + ", ".join(k if v is None else f"{k} = {v}" for k, v in opts) + ")"


_arg_types = st.sampled_from(["integer", "character varying", "varchar(3)", "int[]", "int[3][]", "pg_catalog.int4", "x.y.z",
                              "setof int", "s.t.c%TYPE", "t.c%TYPE", "IN a int", "OUT b text", "VARIADIC int[]",
                              "double precision", "timestamp(3) with time zone", '"Odd"', '"s".t', "numeric(10, 2)",
                              "bit varying", "interval day to second"])


@st.composite
def _texts(draw) -> str:
    kind = draw(st.sampled_from(["ctas", "matview", "refresh", "truncate", "select", "drop"]))
    if kind == "drop":
        routines = []
        for _ in range(draw(st.integers(1, 3))):
            args = draw(st.one_of(st.none(), st.lists(_arg_types, max_size=3)))
            routines.append(draw(_names) + ("" if args is None else "(" + ", ".join(args) + ")"))
        return f"DROP {draw(st.sampled_from(['FUNCTION', 'PROCEDURE']))} {draw(st.sampled_from(['', 'IF EXISTS ']))}" + \
            ", ".join(routines) + draw(st.sampled_from(["", " CASCADE", " RESTRICT"])) + draw(st.sampled_from(["", ";"]))
    name, tail = draw(_names), draw(st.sampled_from(["", ";", " ;", "; ", " WITH DATA", " WITH NO DATA;", " WITH DATA;"]))
    cols = draw(_cols)
    collist = " (" + ", ".join(cols) + ")" if cols and draw(st.booleans()) else ""
    space = " TABLESPACE " + draw(st.sampled_from(["ts", '"T s"'])) if draw(st.booleans()) else ""
    if kind == "ctas":
        pers = draw(st.sampled_from(["", "UNLOGGED ", "TEMPORARY ", "TEMP ", "GLOBAL TEMPORARY "]))
        ine = draw(st.sampled_from(["", "IF NOT EXISTS "]))
        return f"CREATE {pers}TABLE {ine}{name}{collist}{_with(draw(_opts))}{space} AS {draw(_queries)}{tail}"
    if kind == "matview":
        inc = draw(st.sampled_from(["", "INCREMENTAL "]))
        return f"CREATE {inc}MATERIALIZED VIEW {name}{collist}{_with(draw(_opts))}{space} AS {draw(_queries)}{tail}"
    if kind == "refresh":
        inc = draw(st.sampled_from(["", "INCREMENTAL "]))
        conc = draw(st.sampled_from(["", "CONCURRENTLY "]))
        return f"REFRESH {inc}MATERIALIZED VIEW {conc}{name}{tail}"
    if kind == "truncate":
        rels = draw(st.lists(st.tuples(st.sampled_from(["", "ONLY "]), _names, st.sampled_from(["", " *"])),
                             min_size=1, max_size=3))
        opts = draw(st.sampled_from(["", " RESTART IDENTITY", " CONTINUE IDENTITY"])) + \
            draw(st.sampled_from(["", " CASCADE", " RESTRICT"]))
        table = draw(st.sampled_from(["", "TABLE "]))
        return f"TRUNCATE {table}" + ", ".join(a + b + c for a, b, c in rels) + opts + draw(st.sampled_from(["", ";"]))
    pers = draw(st.sampled_from(["", "UNLOGGED ", "TEMP ", "TEMPORARY "]))
    table = draw(st.sampled_from(["", "TABLE "]))
    return f"SELECT a, b INTO {pers}{table}{name} FROM s WHERE a > 1" + draw(st.sampled_from(["", ";", " ;"]))


@settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck))
@given(_texts())
def test_grammar_texts_read_as_before(text):
    _same(text)


_RECOVERED = [t for t in FIXTURES if t.lstrip().upper().startswith(("CREATE", "REFRESH", "TRUNCATE", "SELECT", "DROP"))]


@settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(_RECOVERED or ["SELECT 1"]), st.integers(0, 400), st.integers(0, 6),
       st.sampled_from(["", " ", ";", "'", '"', "(", ")", ",", "x", "ü", "--", "/*", "$$", "\\", "AS ", " WITH (a = 1)",
                        " CASCADE", "ONLY ", ".", "*"]))
def test_mutated_fixture_texts_read_as_before(text, at, cut, insert):
    at = min(at, len(text))
    _same(text[:at] + insert + text[at + cut:])


@pytest.mark.parametrize("value", ["'row'", "'it''s'", "'a\\b'", "12", "-5", "0", "1.5", "-2.5e3", "'ü'", "''"])
def test_scalar_options_print_as_pglast(value):
    from ddlc.frontend.recover import _options, _parse

    text = f"CREATE TABLE t WITH (x = {value}) AS SELECT 1"
    got = recover_json.statement(text)
    assert got is not None
    assert recover_json.options(got[1]["into"]["options"]) == _options(_parse(text).into.options)


# ---- read_tddl: a CREATE TABLE AS recovered before the templates are tried -----------------------------------
def _table_texts() -> list[str]:
    """CREATE TABLE texts the templates read: the expansion of every table fixture's tree, and the TDDL fixtures."""
    from ddlc.jddl.expand import expand

    out = [t for t in FIXTURES if "TABLE" in t.upper()]
    trees = [orjson.loads(open(p, "rb").read()) for p in sorted(glob.glob("fixtures/cases/*/*/input.json"))]
    trees += [orjson.loads(open(p, "rb").read()).get("input") for p in sorted(glob.glob("fixtures/oracle/*.json"))]
    trees += [orjson.loads(line) for line in open("fixtures/sample/ddl.jsonl", "rb") if line.strip()]
    for tree in trees:
        try:
            text = expand(tree)
        except Exception:  # noqa: BLE001 - a tree that does not expand: no text
            continue
        if text.upper().startswith("CREATE") and " TABLE " in text[:40].upper():
            out.append(text)
    return out


TABLE_TEXTS = _table_texts()


def _read_both(text: str) -> None:
    import ddlc.frontend.text as text_mod

    new = text_mod.read_tddl(text)
    real = text_mod._table_as
    text_mod._table_as = lambda kind, lexed: False  # the former order: the templates first, always
    try:
        old = text_mod.read_tddl(text)
    finally:
        text_mod._table_as = real
    assert new == old, text


def test_table_texts_read_as_before():
    assert len(TABLE_TEXTS) >= 20
    for text in TABLE_TEXTS:
        _read_both(text)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(_texts())
def test_grammar_texts_read_tddl_as_before(text):
    _read_both(text)


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(TABLE_TEXTS), st.integers(0, 600), st.integers(0, 6),
       st.sampled_from(["", " ", " AS SELECT 1", " AS ", "(a, b)", " AS SELECT a FROM s WITH NO DATA", ";", "'", "(",
                        ")", ",", "x", "--", "/*", "$$"]))
def test_mutated_table_texts_read_tddl_as_before(text, at, cut, insert):
    at = min(at, len(text))
    _read_both(text[:at] + insert + text[at + cut:])


# ---- CREATE INDEX: the common definition read by one pattern ------------------------------------------------
def _outcome(fn, *args):
    try:
        return fn(*args)
    except Exception as e:  # noqa: BLE001 - the same error either way
        return ("raised", type(e).__name__, str(e))


def _cursor_reading(text: str):
    from ddlc.frontend.sql.index import _P
    from ddlc.frontend.sql.lexer import ScanFail

    try:
        return _P(text, ("definition",)).definition()
    except ScanFail as e:
        return str(e)


def _same_definition(text: str) -> None:
    from ddlc.frontend.sql import index

    old = _outcome(_cursor_reading, text)
    fast = index._simple(text, ("definition",))
    assert fast is None or fast == old, text
    new = _outcome(index.parse_definition, text, ("definition",))
    real = index._simple
    index._simple = lambda text, origin: None  # the former parse_definition: the cursor for every text
    try:
        assert new == _outcome(index.parse_definition, text, ("definition",)), text
    finally:
        index._simple = real


def _definitions() -> list[str]:
    out = []
    for p in sorted(glob.glob("fixtures/**/*.json*", recursive=True)):
        for line in open(p, "rb").read().splitlines() if p.endswith(".jsonl") else [open(p, "rb").read()]:
            try:
                tree = orjson.loads(line)
            except orjson.JSONDecodeError:
                continue
            stack = [tree]
            while stack:
                node = stack.pop()
                if isinstance(node, dict):
                    if isinstance(node.get("definition"), str) and "INDEX" in str(node.get("fmt", "")):
                        out.append(node["definition"])
                    stack.extend(node.values())
                elif isinstance(node, list):
                    stack.extend(node)
    return out


DEFINITIONS = _definitions()


def test_fixture_definitions_read_as_before():
    from ddlc.frontend.sql.index import _simple

    assert len(DEFINITIONS) >= 6
    for text in DEFINITIONS:
        _same_definition(text)
    assert sum(_simple(t, ()) is not None for t in DEFINITIONS) >= 3  # the pattern reads the common ones


_idents = st.sampled_from(["a", "amount", "B_1", "x$", '"Note"', '"a""b"', '"a.b"', '"a, b"', '""', "asc", "ASC", "desc",
                           "nulls", "Nulls", "collate", "COLLATE", "first", "last", "global", "include", "e", "x", "é",
                           "a'b'", "1a", "_", '"x"y', "a b"])
_qnames = st.one_of(_idents, st.tuples(_idents, _idents).map(lambda t: f"{t[0]}.{t[1]}"),
                    st.tuples(_idents, _idents, _idents).map(lambda t: f"{t[0]}.{t[1]}.{t[2]}"))
_sep = st.sampled_from([" ", " ", " ", "  ", "\t", "\n", ""])


@st.composite
def _keys(draw) -> str:
    out = draw(st.one_of(_idents, st.sampled_from(["lower(a)", "((a + 1))", "f.g(a)", "a.b"])))
    for part in draw(st.lists(st.sampled_from(["collate", "opclass", "ord", "nulls"]), max_size=4)):
        sep = draw(_sep)
        if part == "collate":
            out += sep + draw(st.sampled_from(["COLLATE", "collate", "Collate"])) + draw(_sep) + draw(_qnames)
        elif part == "opclass":
            out += sep + draw(_qnames)
        elif part == "ord":
            out += sep + draw(st.sampled_from(["ASC", "DESC", "asc", "Desc"]))
        else:
            out += sep + draw(st.sampled_from(["NULLS", "nulls"])) + draw(_sep) + \
                draw(st.sampled_from(["FIRST", "LAST", "first", "middle"]))
    return out


@st.composite
def _index_definitions(draw) -> str:
    keys = draw(st.lists(_keys(), min_size=1, max_size=3))
    text = "(" + draw(st.sampled_from([", ", ",", " , "])).join(keys) + ")"
    if draw(st.booleans()):
        text += draw(st.sampled_from([" INCLUDE (", " GLOBAL INCLUDE (", " include (", "INCLUDE ("])) + \
            ", ".join(draw(st.lists(_idents, min_size=1, max_size=3))) + ")"
    text += draw(st.sampled_from(["", "", "GLOBAL", " GLOBAL", " LOCAL(PARTITION p1, PARTITION p2) ", " ", "global"]))
    return text


@settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck))
@given(_index_definitions())
def test_grammar_definitions_read_as_before(text):
    _same_definition(text)


@settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(DEFINITIONS or ["(a)"]), st.integers(0, 120), st.integers(0, 4),
       st.sampled_from(["", " ", ",", ", ", "(", ")", '"', "'", ".", "a", "ASC", " DESC", " NULLS FIRST", "é", "--", "$",
                        "GLOBAL", " INCLUDE (x)", "\\"]))
def test_mutated_definitions_read_as_before(text, at, cut, insert):
    at = min(at, len(text))
    _same_definition(text[:at] + insert + text[at + cut:])


@st.composite
def _layout_definitions(draw) -> str:
    """Definitions in the server's layout (single blanks, keywords in capitals), names of every kind."""
    keys = []
    for _ in range(draw(st.integers(1, 3))):
        key = draw(_idents)
        if draw(st.booleans()):
            key += " COLLATE " + draw(_qnames)
        if draw(st.booleans()):
            key += " " + draw(_qnames)
        key += draw(st.sampled_from(["", " ASC", " DESC"])) + draw(st.sampled_from(["", " NULLS FIRST", " NULLS LAST"]))
        keys.append(key)
    text = "(" + ", ".join(keys) + ")"
    if draw(st.booleans()):
        text += draw(st.sampled_from([" INCLUDE (", " GLOBAL INCLUDE ("])) + \
            ", ".join(draw(st.lists(_idents, min_size=1, max_size=3))) + ")"
    return text + draw(st.sampled_from(["", "GLOBAL"]))


@settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck))
@given(_layout_definitions())
def test_layout_definitions_read_as_before(text):
    _same_definition(text)
