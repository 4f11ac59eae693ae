"""spark-sql runs exactly the statements ddlc reports, whatever the strings and names hold (issue 20, trust round 2).

``spark-sql -f`` reads a script line by line (a line ends at LF, CR or CR LF), drops the lines that start
with ``--`` (Spark 4.3 once the line is trimmed), joins the others and cuts the text into statements:

* up to Spark 4.2 with ``SparkSQLCLIDriver.splitSemiColon``, which knows ``'...'``, ``"..."``, comments and
  backslash escapes but not backticks (re-implemented in ``tests/test_comments_safe.py``, with Hive 2.3's
  ``processReader``);
* since Spark 4.3 with the parser's own ``splitStatements`` (called here in the test session's JVM), after
  its own ``processReader`` (re-implemented below: ``line.trim().startsWith("--")`` lines dropped).

Two holes closed here:

1. a string literal holding a line break followed by ``--`` lost that line to the reader, and the next
   statement's quote then left the splitter outside a string: ``COMMENT ON TABLE public.t IS 'a⏎--x'``
   followed by a literal ``b'; DROP TABLE default.victim; SELECT 'c`` (or ``; DROP ...; SELECT``) ran the
   DROP. Every Spark literal is now one line (``\\n``, ``\\r``, ``\\t``, ``\\uXXXX`` escapes, decoded by
   Spark's lexer to the very same string);
2. a name holding ``'``, ``"``, ``;``, ``\\``, ``--``, ``/*`` or a line break desynchronised the splitter or
   the reader (backticks have no escapes): such a name is never written, its statement is refused
   (DDLC-W804; the document fails with DDLC-E010 by default).

Each proof: both splitters give exactly the statements ddlc reports, Spark's lexer reads the script as
exactly their tokens, the split pieces run in the real SparkSession and the sentinel ``default.victim``
survives; the old writers' output, through the same harness, does run the DROP (the test sees the attack).
One test runs the real ``spark-sql -f`` (Spark 4.3's CLI) on ddlc's output and on the old output.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import ddlc
from ddlc.backends.spark.quoting import UnsafeName, script_unsafe, spark_ident, spark_literal
from engines.spark import planned_table
from test_comments_safe import _java_trim, _java_whitespace, spark_sql_commands, spark_tokens

VICTIM = "default.victim"
# what a reader, a splitter or a lexer might take for something else than text
NASTY = [
    "\n", "\r", "\r\n", "\n\r", "\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f", "\t",
    "\x01", "\x1b[2J", "\x7f", "\x9b", "\u202e", "\u2066", "\u200f", "\\", "\\\\", "\\\n", "\\'", "'", "''", '"',
    "`", "``", ";", "--", "\n--x", "\r--x", "\n  --x", "\n\t--x", "/*", "*/", "${x}", "$", "{", "\\u0041", "\\n",
    "\n!touch /tmp/ddlc-marker\n", "!", "é", "😀", "\ufeff", "\u200b", " ",
    "; DROP TABLE default.victim; SELECT ", "b'; DROP TABLE default.victim; SELECT 'c",
    "`; DROP TABLE default.victim; SELECT `", "\nDROP TABLE default.victim; --",
]
CHARS = st.characters(codec="utf-8", exclude_characters="\x00")  # NUL is refused (DDLC-E006), never written
PIECE = st.sampled_from(NASTY) | st.text(CHARS, max_size=5) | st.text(st.characters(max_codepoint=0xA0,
                                                                                   exclude_characters="\x00"),
                                                                      max_size=4)
TEXT = st.lists(PIECE, max_size=8).map("".join)
NAME = (st.lists(PIECE, min_size=1, max_size=4).map("".join) | st.from_regex(r"[A-Za-z_][A-Za-z0-9_ $.-]{0,8}",
                                                                                fullmatch=True))
NAME = NAME.filter(lambda n: n.strip() != "" and len(n.encode()) < 60)
ONE_LINE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")  # a literal or a statement holds none of them


# ---- spark-sql 4.3's reading of a script ---------------------------------------------------------------------
def spark43_reader(script: str) -> str:
    """Spark 4.3's ``SparkSQLCLIDriver.processReader``: ``BufferedReader.readLine``, the lines whose ``trim()``
    starts with ``--`` skipped, each other line appended with a LF."""
    lines = re.split(r"\r\n|\r|\n", script)
    if lines[-1] == "":
        lines.pop()
    return "".join(line + "\n" for line in lines if not _java_trim(line).startswith("--"))


def spark43_split(spark, text: str) -> list[str]:
    """Spark 4.3's ``SparkSQLCLIDriver.splitStatements``: the parser's splitter, its partial statement last."""
    result = spark._parser.splitStatements(text)
    it = result.completeStatements().iterator()
    out = []
    while it.hasNext():
        out.append(it.next().statement())
    if result.partialStatement():
        out.append(result.partialStatement())
    return out


def spark43_commands(spark, script: str) -> list[str]:
    """The commands spark-sql 4.3 runs for ``script`` (``processLine``: a piece ending with a backslash is
    joined to the next with ``;``; blank ones are not run; ``processCmd`` trims)."""
    out, command = [], ""
    for one in spark43_split(spark, spark43_reader(script)):
        if one.endswith("\\"):
            command += one[:-1] + ";"
        else:
            command += one
            if not all(_java_whitespace(c) for c in command):
                out.append(_java_trim(command))
                command = ""
    return out


def test_spark43_reading_as_spark_does(spark):
    assert spark43_commands(spark, "select 1; select 2;") == ["select 1", "select 2"]
    assert spark43_commands(spark, "select `a;b`; select 'c;d';\n") == ["select `a;b`", "select 'c;d'"]
    assert spark43_commands(spark, "  -- x;\nselect 1;\n\t--y\r\nselect 2;") == ["select 1", "select 2"]
    # the hole of item 1 on this reader: the literal's second line is dropped, the next quote closes the string
    old = "COMMENT ON TABLE t IS 'a\n--x';\nCOMMENT ON TABLE t IS '; DROP TABLE default.victim; SELECT ';\n"
    assert "DROP TABLE default.victim" in spark43_commands(spark, old)


# ---- the script checks -------------------------------------------------------------------------------------
def readers(spark, script: str) -> dict[str, list[str]]:
    return {"spark-sql <= 4.2": spark_sql_commands(script), "spark-sql 4.3": spark43_commands(spark, script)}


def run_pieces(spark, commands: list[str]) -> None:
    """Each piece run as spark-sql with ``hive.cli.errors.ignore`` would: failures do not stop the others."""
    for c in commands:
        try:
            spark.session.sql(c).collect()
        except Exception:  # noqa: BLE001 - a statement only Delta runs, or one meant to fail
            pass


def check_script(spark, script: str, statements: list[str]) -> None:
    """``script`` is exactly ``statements`` for both spark-sql readers and Spark's lexer; each statement is one
    line; the pieces run and the sentinel survives."""
    for s in statements:
        assert not ONE_LINE.search(s), s
    for name, commands in readers(spark, script).items():
        assert commands == [_java_trim(s) for s in statements], (name, script)
    semi = spark_tokens(spark, ";")
    expected = []
    for s in statements:
        expected += spark_tokens(spark, s) + semi
    assert spark_tokens(spark, script) == expected, script
    run_pieces(spark, spark_sql_commands(script))
    assert spark.session.catalog.tableExists(VICTIM), "the sentinel table was dropped"


@contextlib.contextmanager
def sandboxed(spark):
    """public.t and the sentinel; afterwards every table and view the pieces made is dropped (used per
    hypothesis example: the pieces of one example must not meet the objects of another)."""
    session = spark.session
    session.sql("CREATE SCHEMA IF NOT EXISTS public")

    def tables() -> set[tuple[str, str]]:
        return {(db, r.tableName) for db in ("public", "default") for r in session.sql(f"SHOW TABLES IN {db}").collect()
                if not r.isTemporary}

    before = tables() - {("public", "t"), ("default", "victim")}
    session.sql("CREATE TABLE IF NOT EXISTS public.t (a INT) USING parquet")
    session.sql(f"CREATE TABLE IF NOT EXISTS {VICTIM} (a INT) USING parquet")
    try:
        yield spark
    finally:
        for db, name in tables() - before:
            q = f"{db}.`{name.replace('`', '``')}`"
            try:
                session.sql(f"DROP VIEW IF EXISTS {q}")
            except Exception:  # noqa: BLE001 - a table
                session.sql(f"DROP TABLE IF EXISTS {q}")


@pytest.fixture()
def sandbox(spark):
    with sandboxed(spark):
        yield spark


def _q(name: str) -> str:
    """A GaussDB quoted identifier."""
    return '"' + name.replace('"', '""') + '"'


def _l(value: str) -> str:
    """A GaussDB string literal (standard_conforming_strings on)."""
    return "'" + value.replace("'", "''") + "'"


def _script(results) -> str:
    return "".join(r.sql for r in results)


def _statements(results) -> list[str]:
    return [s for r in results for s in r.statements]


def _table_comment(spark, table: str) -> str | None:
    rows = spark.session.sql(f"DESCRIBE TABLE EXTENDED {table}").collect()
    return next((r[1] for r in rows if r[0] == "Comment"), None)


# the writers ddlc had before (what the test must see as the attack)
def old_literal(value: str) -> str:
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'").replace("${", "\\u0024{") + "'"


def old_ident(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


# ---- 1. string literals ------------------------------------------------------------------------------------
def test_literal_escapes():
    assert spark_literal("a\n--x") == r"'a\n--x'"
    assert spark_literal("\r\n\t") == r"'\r\n\t'"
    assert spark_literal("\u2028\u2029\x85\x0b\x0c\x1c\x1b\x7f\x9b") == r"'\u2028\u2029\u0085\u000b\u000c\u001c\u001b\u007f\u009b'"
    assert spark_literal("\u202e\u2066\u200f\u061c") == r"'\u202e\u2066\u200f\u061c'"  # what a reader sees is what runs
    assert spark_literal("it's \\ ${x} $ {") == r"'it\'s \\ \u0024{x} $ {'"
    assert spark_literal('"; -- /* */ ` é 😀 \u200b') == '\'"; -- /* */ ` é 😀 \u200b\''  # nothing else changes
    with pytest.raises(ddlc.DdlcError, match="DDLC-E007"):
        spark_literal("a\x00")


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(TEXT | st.text(CHARS, max_size=40), min_size=1, max_size=12))
def test_literals_are_one_line_and_spark_reads_back_the_same_string(spark, values):
    lits = [spark_literal(v) for v in values]
    for lit in lits:
        assert not ONE_LINE.search(lit), lit
        assert len(spark_tokens(spark, lit)) == 1, lit  # one STRING token
    query = "SELECT " + ", ".join(f"{lit} AS c{i}" for i, lit in enumerate(lits))
    script = f"{query};\n{query};\n"
    for name, commands in readers(spark, script).items():
        assert commands == [query, query], name
    assert list(spark.session.sql(query).collect()[0]) == values  # Spark's lexer decodes every escape


def test_issue_literal_example(sandbox):
    """The issue's two statements (and the variant that also beats Spark 4.3's lexer-based splitter)."""
    spark = sandbox
    second = ["b'; DROP TABLE default.victim; SELECT 'c", "; DROP TABLE default.victim; SELECT "]
    for value in second:
        docs = [{"TDDL": f"COMMENT ON TABLE public.t IS {_l('a' + chr(10) + '--x')}"},
                {"TDDL": f"COMMENT ON TABLE public.t IS {_l(value)}"}]
        results = list(ddlc.translate_many([json.dumps(d) for d in docs], target="spark"))
        assert all(r.ok for r in results)
        script = _script(results)
        assert script == ("COMMENT ON TABLE public.t IS 'a\\n--x';\n"
                          f"COMMENT ON TABLE public.t IS {spark_literal(value)};\n")
        check_script(spark, script, _statements(results))
        assert _table_comment(spark, "public.t") == value
        # what ddlc wrote before: some spark-sql runs the DROP
        old = "".join(f"COMMENT ON TABLE public.t IS {old_literal(v)};\n" for v in ("a\n--x", value))
        assert any("DROP TABLE default.victim" in cs for cs in readers(spark, old).values())


def _literal_docs(values: list[str]) -> list[dict]:
    """Every way a string reaches a Spark literal: COMMENT (the writer), a DEFAULT and a view's query (sqlglot),
    each followed by the attack statements."""
    docs = []
    for i, v in enumerate(values):
        docs += [{"TDDL": f"COMMENT ON TABLE public.t IS {_l(v)}"},
                 {"TDDL": f"CREATE TABLE public.d{i} (a int, b text DEFAULT {_l(v)})"},
                 {"TDDL": f"CREATE VIEW public.v{i} AS SELECT {_l(v)}::text AS c"},
                 {"TDDL": f"COMMENT ON TABLE public.t IS {_l('; DROP TABLE default.victim; SELECT ')}"},
                 {"TDDL": f"COMMENT ON TABLE public.t IS {_l(chr(39) + '; DROP TABLE default.victim; SELECT ' + chr(39))}"}]
    return docs


@settings(max_examples=15, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.lists(TEXT, min_size=1, max_size=4), st.sampled_from(["warn", "comment", "skip"]))
def test_hostile_literals_through_translate(spark, values, mode):
    results = list(ddlc.translate_many([json.dumps(d) for d in _literal_docs(values)], target="spark",
                                       on_unsupported=mode))
    with sandboxed(spark):
        check_script(spark, _script(results), _statements(results))
        for i, v in enumerate(values):  # the strings came through unchanged (a ${ is never written: DDLC-W810)
            comment = results[5 * i].statements
            assert spark.parse(comment[0]).comment() == v
            if "${" in v:
                assert not results[5 * i + 2].statements
                continue
            assert spark.session.sql(f"SELECT c FROM public.v{i}").collect()[0][0] == v  # the view ran
            (col,) = [c for c in planned_table(spark.parse(results[5 * i + 1].statements[0])).columns if c.name == "b"]
            assert spark._parser.parseExpression(col.default).value().toString() == v


# ---- 2. names ----------------------------------------------------------------------------------------------
def test_unsafe_names():
    for name in ["x'", 'x"', "a;b", "a\\b", "a--b", "a/*b", "a\nb", "a\rb", "a\tb", "a\x85b", "a\u2028b", "\x1b",
                 "'; DROP TABLE default.victim; SELECT "]:
        assert script_unsafe(name), name
        with pytest.raises(UnsafeName) as info:
            spark_ident(name)
        assert info.value.code == "DDLC-W804" and repr(name) in info.value.message
    for name in ["a-b", "a*/b", "a b", "a`b", "é", "a.b", "a$b", "a/b", "a-", "-b", "😀", "\u202e"]:
        assert script_unsafe(name) is None, name
        assert spark_ident(name).startswith("`")


def test_issue_name_example(sandbox):
    """The issue's tables ``x'`` and ``'; DROP TABLE default.victim; SELECT `` (and the line-break variant that
    beats Spark 4.3's splitter): never written, one clear error each, in every mode."""
    spark = sandbox
    pairs = [("x'", "'; DROP TABLE default.victim; SELECT "), ("a\n--x", "; DROP TABLE default.victim; SELECT ")]
    for first, second in pairs:
        docs = [{"TDDL": f"CREATE TABLE public.{_q(n)} (a int)"} for n in (first, second)]
        lines = [json.dumps(d) for d in docs]
        results = list(ddlc.translate_many(lines, target="spark"))
        for r, name in zip(results, (first, second), strict=True):
            assert r.statements == () and r.error is not None and r.error.code == "DDLC-E010"
            assert "DDLC-W804" in r.error.message and repr(name) in r.error.message
        assert _script(results) == ""
        for mode in ("comment", "skip"):
            results = list(ddlc.translate_many(lines, target="spark", on_unsupported=mode))
            assert all(r.ok and r.statements == () for r in results)
            assert all("DDLC-W804" in {d.code for d in r.diagnostics} for r in results)
            script = _script(results)
            assert bool(script) is (mode == "comment")  # the GaussDB text kept as comment lines
            check_script(spark, script, [])
        results = list(ddlc.translate_many(lines, target="spark", on_unsupported="error"))
        assert [r.error.code for r in results] == ["DDLC-E009", "DDLC-E009"]
        assert all("DDLC-W804" in r.error.message for r in results)
        # what ddlc wrote before: some spark-sql runs the DROP
        old = "".join(f"CREATE TABLE public.{old_ident(n)} (a INT) USING DELTA;\n" for n in (first, second))
        assert any("DROP TABLE default.victim" in cs for cs in readers(spark, old).values())


def _name_docs(schema: str, table: str, column: str, alias: str) -> list[dict]:
    """Every place a name is written: table and column definitions (the writer), COMMENT, RENAME, a view's query
    and its aliases (sqlglot), each followed by the attack statements."""
    t = f"{_q(schema)}.{_q(table)}"
    return [{"TDDL": f"CREATE TABLE {t} ({_q(column)} int DEFAULT 1, b int CHECK ({_q(column)} > 0))"},
            {"TDDL": f"COMMENT ON COLUMN {t}.{_q(column)} IS 'c'"},
            {"TDDL": f"CREATE VIEW public.v AS SELECT {_q(column)} AS {_q(alias)} FROM {t} AS {_q(alias)}"},
            {"TDDL": f"ALTER TABLE {t} RENAME COLUMN {_q(column)} TO {_q(alias)}"},
            {"TDDL": f"COMMENT ON TABLE public.t IS {_l('; DROP TABLE default.victim; SELECT ')}"}]


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(NAME, NAME, NAME, NAME, st.sampled_from(["warn", "comment", "skip"]))
def test_hostile_names_through_translate(spark, schema, table, column, alias, mode):
    assume("${" not in schema + table + column + alias)  # refused with DDLC-E007 (test_spark_properties)
    assume(column.lower() != "b")
    docs = _name_docs(schema, table, column, alias)
    results = list(ddlc.translate_many([json.dumps(d) for d in docs], target="spark", on_unsupported=mode))
    with sandboxed(spark):
        check_script(spark, _script(results), _statements(results))
    create = results[0]
    if any(script_unsafe(n) for n in (schema, table, column)):
        assert create.statements == ()
        if mode == "warn":
            assert create.error.code == "DDLC-E010" and "DDLC-W804" in create.error.message
        else:
            assert "DDLC-W804" in {d.code for d in create.diagnostics}
    else:  # written, and Spark reads the very names back
        plan = planned_table(spark.parse(create.statements[0]))
        assert plan.name == [schema, table] and [c.name for c in plan.columns] == [column, "b"]
    for r in results:  # no written name is one spark-sql could misread
        for s in r.statements:
            for kind, text in spark_tokens(spark, s):
                if text.startswith("`"):
                    assert script_unsafe(text[1:-1].replace("``", "`")) is None, s


# ---- the real spark-sql ------------------------------------------------------------------------------------
SPARK_SQL_VALUES = ["a\n--x", "\r--y\r\n-- z", "b'; DROP TABLE default.victim; SELECT 'c",
                    "; DROP TABLE default.victim; SELECT ", "\n!touch {marker}\n", "x\u2028\u2029\x85\x0b\x1b\t\\",
                    "\\'\"`;/* -- */", "é😀\u202e"]


def test_spark_sql_runs_what_ddlc_reports(tmp_path):
    """``spark-sql -f`` (Spark 4.3's CLI, errors ignored so that every command runs) on ddlc's output: the
    sentinel survives, no shell command ran, and every string reads back (as hex) exactly; the old output,
    appended after it, drops two other sentinels and runs a shell command (the harness sees the attack)."""
    import pyspark

    marker, marker_old = tmp_path / "marker", tmp_path / "marker-old"
    values = [v.replace("{marker}", str(marker)) for v in SPARK_SQL_VALUES]
    docs = []
    for i, v in enumerate(values):
        docs += [{"TDDL": f"COMMENT ON TABLE public.t IS {_l(v)}"},
                 {"TDDL": f"CREATE VIEW public.v{i} AS SELECT {_l(v)}::text AS c"}]
    for name in ("x'", "'; DROP TABLE default.victim; SELECT ", "a\n--x", f"; !touch {marker}; SELECT "):
        docs.append({"TDDL": f"CREATE TABLE public.{_q(name)} (a int)"})
    results = list(ddlc.translate_many([json.dumps(d) for d in docs], target="spark", on_unsupported="comment"))
    assert all(r.ok for r in results)
    ours = _script(results)
    assert ours.count("DDLC-W804") == 4
    reads = "".join(f"SELECT 'v{i}', hex(c) FROM public.v{i};\n" for i in range(len(values)))
    old = ("CREATE TABLE public.`a\n--x` (a INT) USING parquet;\n"
           f"CREATE TABLE public.`; DROP TABLE default.victim_old2; !touch {marker_old}; SELECT ` (a INT) USING parquet;\n"
           "COMMENT ON TABLE public.t IS 'a\n--x';\n"
           "COMMENT ON TABLE public.t IS '; DROP TABLE default.victim_old1; SELECT ';\n")
    script = ("CREATE SCHEMA IF NOT EXISTS public;\nCREATE TABLE public.t (a INT) USING parquet;\n"
              + "".join(f"CREATE TABLE default.{t} (a INT) USING parquet;\n" for t in ("victim", "victim_old1", "victim_old2"))
              + ours + reads + old)
    (tmp_path / "script.sql").write_text(script, encoding="utf-8", newline="")
    home = Path(pyspark.__file__).parent
    env = {**os.environ, "SPARK_HOME": str(home), "PYSPARK_PYTHON": sys.executable}
    warehouse = tmp_path / "warehouse"
    p = subprocess.run([str(home / "bin" / "spark-sql"), "--master", "local[1]", "--conf", "spark.ui.enabled=false",
                        "--conf", f"spark.sql.warehouse.dir={warehouse}", "--hiveconf", "hive.cli.errors.ignore=true",
                        "-f", str(tmp_path / "script.sql")],
                       cwd=tmp_path, env=env, capture_output=True, text=True, encoding="utf-8", timeout=600)
    assert (warehouse / "victim").is_dir(), p.stderr[-3000:]
    assert not marker.exists(), "a shell command of ddlc's output ran"
    rows = dict(line.split("\t") for line in p.stdout.splitlines() if re.fullmatch(r"v\d+\t[0-9A-F]*", line))
    assert rows == {f"v{i}": v.encode("utf-8").hex().upper() for i, v in enumerate(values)}, p.stdout
    # the old output did what the issue says
    assert not (warehouse / "victim_old1").exists() and not (warehouse / "victim_old2").exists()
    assert marker_old.exists()
