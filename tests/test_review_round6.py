"""Review round 6 (450bbe4..e98dbc2: the CREATE/DROP DATABASE IF refusal, the CTAS / materialized view WITH option's
value and kind, recover.py split into recover_nodes.py, the suite on xdist workers).

Bugs found (both older than the round; fixed):

* a namespaced option (``WITH (toast.autovacuum_enabled = false)``) lost its namespace: PostgreSQL and GaussDB got
  ``autovacuum_enabled = false``, an option of the table itself;
* an option whose value is a type name that does not print back as one plain word (``"Foo"``, ``varchar(3)``,
  ``a.b``, ``é``) reached PostgreSQL as another string (``'"Foo"'``, the printed SQL quoted as a literal).

The outputs are read back with pglast and compared with the source as the server reads an option's value
(``defGetString``: a number as it prints, a string's contents, a type name's ``TypeNameToString``).
"""

from __future__ import annotations

import orjson
import pytest
from pglast.parser import parse_sql_json

import ddlc
from ddlc.frontend import recover, recover_json
from ddlc.frontend.recover import recover_tddl
from ddlc.ir.misc import WithOption
from ddlc.ir.table import OptionValueKind


def _server_string(arg: dict | None) -> str | None:
    """``defGetString`` of an option's value (pglast's JSON node)."""
    if arg is None:
        return None
    ((kind, f),) = arg.items()
    if kind == "Integer":
        return str(f.get("ival", 0))
    if kind == "Float":
        return f["fval"]
    if kind == "String":
        return f.get("sval", "")
    if kind == "TypeName":
        return (".".join(n["String"]["sval"] for n in f["names"]) + ("%TYPE" if f.get("pct_type") else "")
                + ("[]" if f.get("arrayBounds") else ""))
    if kind == "List":
        return ".".join(i["String"]["sval"] for i in f["items"])
    raise AssertionError(f"unexpected option value {arg!r}")


def _options(sql: str) -> list[tuple[str | None, str, str | None]]:
    """(namespace, name, value as the server reads it) of the one CREATE TABLE AS / materialized view of ``sql``."""
    (stmt,) = orjson.loads(parse_sql_json(sql))["stmts"]
    into = stmt["stmt"]["CreateTableAsStmt"]["into"]
    return [(d.get("defnamespace"), d["defname"], _server_string(d.get("arg")))
            for d in (o["DefElem"] for o in into.get("options", ()))]


_NODE_PATH = ', zz = "Q"'  # (a value the JSON reading leaves to the nodes' one)

OPTIONS = [
    "toast.autovacuum_enabled = false", "toast.autovacuum_enabled = 'false'", "toast.autovacuum_vacuum_threshold = 50",
    "toast.zork = 1", "toast.zork", "fillfactor = 70", "fillfactor = '70'", "fillfactor = 007", "fillfactor = -0",
    "fillfactor = 1e5", "fillfactor = .5", "fillfactor = 5.", "fillfactor = +5", "fillfactor = 1_000",
    "fillfactor = 0x1F",
    "autovacuum_enabled = TRUE", "autovacuum_enabled = on", "vacuum_index_cleanup = auto", "fillfactor = default",
    "fillfactor = none", "fillfactor = null", 'fillfactor = "Foo"', 'fillfactor = "fo""o"', "fillfactor = varchar(3)",
    "fillfactor = int", "fillfactor = int[]", "fillfactor = double precision", "fillfactor = a.b", "fillfactor = é",
    'fillfactor = "客"', "fillfactor = =", "fillfactor = 'it''s'", "fillfactor = '$$'", "fillfactor = E'a\\\\b'",
    "fillfactor = 'a\n-- b; c'", "fillfactor",
]


@pytest.mark.parametrize("path", ["json", "nodes"])
@pytest.mark.parametrize("option", OPTIONS)
@pytest.mark.parametrize("target", ["postgres", "gaussdb"])
def test_option_reaches_the_server_as_the_source_gave_it(option: str, path: str, target: str) -> None:
    text = f"CREATE TABLE s.t WITH ({option}{_NODE_PATH if path == 'nodes' else ''}) AS SELECT 1 AS a;"
    source = {(ns, n): v for ns, n, v in _options(text)}
    got = _options(ddlc.translate({"TDDL": text}, target=target).sql)
    for ns, n, v in got:
        assert source[(ns, n)] == v, (text, got)
    if target == "gaussdb":
        assert len(got) == len(source)  # (GaussDB keeps them all)


@pytest.mark.parametrize("path", ["json", "nodes"])
def test_namespace_read_on_both_paths(path: str) -> None:
    tail = _NODE_PATH if path == "nodes" else ""
    text = f"CREATE TABLE t WITH (toast.autovacuum_enabled = false, toast.x{tail}) AS SELECT 1;"
    stmt, _ = recover_tddl(text)
    assert stmt.options[:2] == (WithOption("autovacuum_enabled", "false", OptionValueKind.LITERAL, "toast"),
                                WithOption("x", namespace="toast"))


def test_namespaced_options_on_each_target() -> None:
    text = ("CREATE TABLE t WITH (toast.autovacuum_enabled = false, toast.orientation = 'row', orientation = 'row') "
            "AS SELECT 1 AS a;")
    pg = ddlc.translate({"TDDL": text}, target="postgres")
    assert pg.sql == "CREATE TABLE public.t WITH (toast.autovacuum_enabled = false) AS SELECT 1 AS a WITH NO DATA;\n"
    assert "storage option toast.orientation dropped" in " ".join(d.message for d in pg.diagnostics)
    gs = ddlc.translate({"TDDL": text}, target="gaussdb").sql
    assert gs == ("CREATE TABLE public.t WITH (toast.autovacuum_enabled = 'false', toast.orientation = 'row', "
                  "orientation = 'row') AS SELECT 1 AS a WITH NO DATA;\n")
    sp = ddlc.translate({"TDDL": text}, target="spark")
    messages = " ".join(d.message for d in sp.diagnostics)
    assert "storage option toast.orientation = 'row' dropped" in messages  # not a GaussDB default: a table's option
    assert sp.sql.count(";") == 1


def test_matview_namespaced_option_on_postgres() -> None:
    text = "CREATE MATERIALIZED VIEW v WITH (toast.autovacuum_enabled = 'false') AS SELECT 1 AS a;"
    sql = ddlc.translate({"TDDL": text}, target="postgres").sql
    assert sql == "CREATE MATERIALIZED VIEW public.v WITH (toast.autovacuum_enabled = false) AS SELECT 1 AS a;\n"


def test_namespaced_options_applied_to_postgres(pg_db) -> None:
    texts = ["CREATE TABLE t6 WITH (toast.autovacuum_enabled = false, fillfactor = 70) AS SELECT 'x'::text AS a;",
             "CREATE MATERIALIZED VIEW v6 WITH (toast.autovacuum_enabled = 'false') AS SELECT 'x'::text AS a;"]
    with pg_db.cursor() as cur:
        for text in texts:
            for s in ddlc.translate({"TDDL": text}, target="postgres").statements:
                cur.execute(s)
        for rel, own in (("t6", ["fillfactor=70"]), ("v6", None)):
            cur.execute("SELECT c.reloptions, t.reloptions FROM pg_class c JOIN pg_class t ON t.oid = c.reltoastrelid "
                        "WHERE c.relname = %s", (rel,))
            assert cur.fetchone() == (own, ["autovacuum_enabled=false"])


def test_type_name_values_applied_to_postgres(pg_db) -> None:
    """A value PostgreSQL checks as a string (vacuum_index_cleanup: auto, on, off...): ``"AUTO"`` is read by both
    servers as the string AUTO, which the option takes (its spelling is not ``'"AUTO"'``)."""
    text = 'CREATE TABLE t7 WITH (vacuum_index_cleanup = "AUTO") AS SELECT 1 AS a;'
    with pg_db.cursor() as cur:
        for s in ddlc.translate({"TDDL": text}, target="postgres").statements:
            cur.execute(s)
        cur.execute("SELECT reloptions FROM pg_class WHERE relname = 't7'")
        assert cur.fetchone() == (["vacuum_index_cleanup=AUTO"],)


def test_json_and_node_readings_agree() -> None:
    """recover_json.options and recover_nodes.options give the same options wherever the JSON one answers."""
    from pglast import parse_sql

    for option in OPTIONS:
        text = f"CREATE TABLE t WITH ({option}) AS SELECT 1;"
        defs = orjson.loads(parse_sql_json(text))["stmts"][0]["stmt"]["CreateTableAsStmt"]["into"]["options"]
        from_json = recover_json.options(defs)
        if from_json is not None:
            assert from_json == recover._options(parse_sql(text)[0].stmt.into.options), option


def test_parse_counting_still_sees_the_node_reading() -> None:
    """tests/test_throughput_text4 counts parses through ``recover._parse`` (now recover_nodes.parse_one imported
    under that name): a text the JSON reading leaves to the nodes is counted, so the zero it asserts means something."""
    calls: list[str] = []
    real = recover._parse
    recover._parse = lambda text: calls.append(text) or real(text)  # type: ignore[assignment]
    try:
        recover_tddl('CREATE TABLE t WITH (fillfactor = "Foo") AS SELECT 1;')
        recover_tddl("CREATE TABLE t WITH (fillfactor = 70) AS SELECT 1;")
    finally:
        recover._parse = real
    assert len(calls) == 1


# ---- CREATE / DROP DATABASE: IF [NOT] EXISTS misread --------------------------------------------------------------
# Found: the text after a CREATE DATABASE's name was taken as options whatever it was, so a flag split by a character
# no grammar takes for a blank (\x1c: an operator character to the lexers; PostgreSQL and GaussDB refuse the text),
# or glued to ``IF`` by a Unicode blank (``IF\u3000NOT``: one identifier), was read as a database ``if`` (or
# ``"if\u3000not"``) whose options, ``NOT EXISTS db1``, were dropped with a warning. Fixed: refused.
_BLANKS = ["\xa0", "\u2028", "\u2029", "\x85", "\u3000", "\u1680", "\u2000", "\u202f", "\ufeff", "\u200b", "\x1c", "\x1d",
           "\x1e", "\x1f"]


def _postgres(text: str) -> str | None:
    try:
        return ddlc.translate({"TDDL": text}, target="postgres").sql
    except ddlc.DdlcError:
        return None


@pytest.mark.parametrize("blank", _BLANKS)
@pytest.mark.parametrize("form", ["CREATE DATABASE IF{b}NOT EXISTS db1;", "CREATE DATABASE IF NOT{b}EXISTS db1;",
                                  "CREATE DATABASE IF NOT EXISTS{b}db1;", "DROP DATABASE IF{b}EXISTS db1;",
                                  "DROP DATABASE IF EXISTS{b}db1;"])
def test_a_misread_flag_is_refused(form: str, blank: str) -> None:
    text = form.format(b=blank)
    assert _postgres(text) is None, text
    assert ddlc.translate({"TDDL": text}, target="gaussdb").sql == text + "\n"  # (the text, as it came)


@pytest.mark.parametrize("blank", ["\x1c", "\x1d", "\x1e", "\x1f"])
def test_an_operator_character_after_the_name_is_refused(blank: str) -> None:
    assert _postgres(f"CREATE DATABASE if{blank}WITH OWNER x;") is None
    # (a Unicode blank is a letter of the name: database "if\u3000with", owner x)
    assert _postgres("CREATE DATABASE if\u3000WITH OWNER x;") == 'CREATE SCHEMA "if\u3000with";\n'


@pytest.mark.parametrize("text", ['CREATE DATABASE "IF" NOT EXISTS db1;', "CREATE DATABASE foo EXISTS db1;",
                                  'CREATE DATABASE "if\xa0not" EXISTS db1;', "CREATE DATABASE if = x;"])
def test_options_that_start_with_the_flag_or_an_operator_are_refused(text: str) -> None:
    assert _postgres(text) is None


@pytest.mark.parametrize(("text", "want"), [
    ("CREATE DATABASE if;", "CREATE SCHEMA if;\n"),
    ("CREATE DATABASE IF;", "CREATE SCHEMA if;\n"),
    ('CREATE DATABASE "if";', "CREATE SCHEMA if;\n"),
    ('CREATE DATABASE "IF";', 'CREATE SCHEMA "IF";\n'),
    ("CREATE DATABASE if WITH OWNER x;", "CREATE SCHEMA if;\n"),
    ("CREATE DATABASE if\tENCODING 'utf8';", "CREATE SCHEMA if;\n"),
    ('CREATE DATABASE "if" ENCODING \'utf8\';', "CREATE SCHEMA if;\n"),
    ("CREATE DATABASE IF NOT EXISTS if WITH OWNER = x;", "CREATE SCHEMA IF NOT EXISTS if;\n"),
    ('CREATE DATABASE IF NOT EXISTS "IF";', 'CREATE SCHEMA IF NOT EXISTS "IF";\n'),
    ("CREATE DATABASE db1 WITH ENCODING = 'utf8' LC_COLLATE = 'C';", "CREATE SCHEMA db1;\n"),
    ("CREATE DATABASE db1 OWNER = x;", "CREATE SCHEMA db1;\n"),
    ("CREATE\nDATABASE\nIF\nNOT\nEXISTS\ndb1;", "CREATE SCHEMA IF NOT EXISTS db1;\n"),
    ("DROP DATABASE if;", "DROP SCHEMA if CASCADE;\n"),
    ('DROP DATABASE "IF";', 'DROP SCHEMA "IF" CASCADE;\n'),
    ("DROP DATABASE IF EXISTS if;", "DROP SCHEMA IF EXISTS if CASCADE;\n"),
    ("DROP DATABASE IF\x0bEXISTS\x0cdb1;", "DROP SCHEMA IF EXISTS db1 CASCADE;\n"),
    # a Unicode blank is a letter of an identifier to both grammars: one name, read as such
    ("CREATE DATABASE IF\u3000NOT\u3000EXISTS\u3000db1;", 'CREATE SCHEMA "if\u3000not\u3000exists\u3000db1";\n'),
])
def test_databases_called_if_and_the_flag_still_read(text: str, want: str) -> None:
    assert _postgres(text) == want


@pytest.mark.parametrize("text", ["CREATE DATABASE if;", "DROP DATABASE if;", "ALTER DATABASE if RENAME TO x;",
                                  "CREATE DATABASE IF\x1cNOT EXISTS db1;"])
def test_databases_on_spark_are_refused(text: str) -> None:
    with pytest.raises(ddlc.DdlcError, match="DDLC-E010"):
        ddlc.translate({"TDDL": text}, target="spark")
