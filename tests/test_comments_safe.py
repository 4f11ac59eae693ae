"""Comments ddlc writes end where they seem to, on every target's real readers (issue 20, item 4).

Every comment ddlc writes into a script (``--on-unsupported comment``, in ``ddlc translate``,
:func:`ddlc.translate_many` and ``ddlc replay``) goes through its target's ``Dialect.comment``. Whatever
the commented text holds (line breaks of every kind, a backslash at the end of a line, ``*/``,
quotes, ``--``, psql's ``\\!``), the script must be exactly the statements ddlc reports:

* Spark: Spark 4's own lexer (``SqlBaseLexer``) reads the script as exactly those statements' tokens;
  each statement, and each statement with the comments before it (what an applier that cuts at ``;``
  hands ``spark.sql``), gives the same plan with ``parsePlan``; spark-sql's file splitting (Hive's
  ``processReader``, then ``SparkSQLCLIDriver.splitSemiColon`` and ``processLine``, re-implemented below)
  gives exactly those statements; and the pieces run in a real SparkSession leave the sentinel table.
* PostgreSQL: pglast's scanner reads exactly those statements' tokens and its splitter exactly those
  statements; ``psql -f`` runs the script and the sentinel table survives, no psql meta-command ran.

The next statement is the issue's ``COMMENT ON TABLE t IS 'x`` + newline + ``DROP TABLE ...victim --'``:
a comment that swallowed its first line would leave a DROP of the sentinel.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pglast import parser as pgparser

import ddlc
from conftest import ddlc_command
from ddlc.backends import BACKENDS, get_backend
from ddlc.backends.base import line_comment

MARKER = Path(tempfile.gettempdir()) / f"ddlc-comments-safe-marker-{os.getpid()}"

# what each target's or tool's reader might take as the end of a line, or as something else than text
NASTY = [
    "\n", "\r", "\r\n", "\n\r", "\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f",
    "\\", "\\\\", "\\\n", "\\\r\n", "\\ \n", "\\\t\n", "\\\u3000", "\\\u2028", "*/", "/*", "/* x */", "'", '"',
    "`", "--", ";", "$$", "\\!", f"\n\\! touch {MARKER}\n", f"\\! touch {MARKER}", "\n/\n", "\t", " ", "\x1b[2J",
    "\u202e", "\u2066", "\x7f", "\x9b", "${x}", "x", "END p;",
    "\nDROP TABLE default.victim; --", "\nDROP TABLE public.victim; --",
]
CHARS = st.characters(codec="utf-8", exclude_characters="\x00")  # a NUL is refused (DDLC-E006), never written
PIECE = st.sampled_from(NASTY) | st.text(CHARS, max_size=6)
TEXT = st.lists(PIECE, max_size=10).map("".join)
TEXTS = st.lists(TEXT, min_size=1, max_size=6)

VICTIM = {"postgres": "public.victim", "spark": "default.victim"}


def victim_comment(target: str) -> str:
    return f"x\nDROP TABLE {VICTIM[target]} --"


def documents(texts: list[str], target: str) -> list[dict]:
    """For each text: a package (kept only as a comment: the text is its own), the issue's next statement,
    and a table whose dropped TABLESPACE clause (a comment written before its CREATE TABLE) names the text."""
    docs = []
    for i, text in enumerate(texts):
        docs.append({"TDDL": "CREATE PACKAGE public.p IS " + text})
        docs.append({"TDDL": f"COMMENT ON TABLE public.t IS '{victim_comment(target)}'"})
        docs.append({"TDDL": f'CREATE TABLE public.c{i} (a int) TABLESPACE "{text.replace(chr(34), chr(34) * 2)}"'})
    return docs


# ---- spark-sql's file splitting, re-implemented from Spark 4's sources ---------------------------------------
# spark-sql -f FILE: SparkSQLCLIDriver inherits processFile/processReader from Hive 2.3's CliDriver, and
# overrides processLine (with its own splitSemiColon) and processCmd.
_JAVA_WS = set("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f")


def _java_whitespace(c: str) -> bool:
    """java.lang.Character.isWhitespace."""
    import unicodedata

    if c in _JAVA_WS:
        return True
    return unicodedata.category(c) in ("Zs", "Zl", "Zp") and c not in "\u00a0\u2007\u202f"


def _java_trim(s: str) -> str:
    """java.lang.String.trim: strips the characters <= U+0020 at both ends."""
    i, j = 0, len(s)
    while i < j and s[i] <= " ":
        i += 1
    while j > i and s[j - 1] <= " ":
        j -= 1
    return s[i:j]


def hive_process_reader(script: str) -> str:
    """Hive's ``CliDriver.processReader``: ``BufferedReader.readLine`` (a line ends at LF, CR or CR LF), the
    lines starting with ``--`` skipped, each other line appended with a LF."""
    lines = re.split(r"\r\n|\r|\n", script)
    if lines[-1] == "":  # readLine gives no empty line after the last terminator (nor for an empty file)
        lines.pop()
    return "".join(line + "\n" for line in lines if not line.startswith("--"))


def split_semicolon(line: str) -> list[str]:
    """``SparkSQLCLIDriver.splitSemiColon`` (Spark 4), statement for statement."""
    inside_single = inside_double = inside_simple = False
    bracketed = 0
    escape = False
    begin = 0
    leaving = False
    is_statement = False
    ret: list[str] = []
    for index, ch in enumerate(line):
        if leaving:
            bracketed -= 1
            leaving = False
        inside_comment = inside_simple or bracketed > 0
        if ch == "'" and not inside_comment:
            if not escape and not inside_double:
                inside_single = not inside_single
        elif ch == '"' and not inside_comment:
            if not escape and not inside_single:
                inside_double = not inside_double
        elif ch == "-":
            has_next = index + 1 < len(line)
            if inside_double or inside_single or inside_comment:
                pass
            elif has_next and line[index + 1] == "-":
                inside_simple = True
        elif ch == ";":
            if inside_single or inside_double or inside_comment:
                pass
            else:
                if is_statement:
                    ret.append(line[begin:index])
                begin = index + 1
                is_statement = False
        elif ch == "\n":
            if not escape:
                inside_simple = False
        elif ch == "/" and not inside_simple:
            has_next = index + 1 < len(line)
            if inside_single or inside_double:
                pass
            elif bracketed > 0 and line[index - 1] == "*":
                leaving = True
            elif has_next and line[index + 1] == "*":
                bracketed += 1
        if escape:
            escape = False
        elif ch == "\\":
            escape = True
        inside_comment = inside_simple or bracketed > 0
        is_statement = is_statement or (not inside_comment and index > begin and not ch <= " ")
    end_of_bracketed = leaving and bracketed == 1
    if not end_of_bracketed and (is_statement or bracketed > 0):
        ret.append(line[begin:])
    return ret


def spark_sql_commands(script: str) -> list[str]:
    """The commands ``spark-sql -f`` runs for ``script`` (``SparkSQLCLIDriver.processLine``: a piece ending
    with a backslash is joined to the next with ``;``; blank ones are not run; ``processCmd`` trims)."""
    out: list[str] = []
    command = ""
    for one in split_semicolon(hive_process_reader(script)):
        if one.endswith("\\"):
            command += one[:-1] + ";"
        else:
            command += one
            if not all(_java_whitespace(c) for c in command):
                out.append(_java_trim(command))
                command = ""
    return out


def test_spark_sql_splitting_as_spark_does():
    """The re-implementation on the cases Spark's CliSuite pins down, and Hive's comment-line skipping."""
    assert split_semicolon("select 1; select 2;") == ["select 1", " select 2"]
    assert split_semicolon("select 'a;b'; select \"c;d\"") == ["select 'a;b'", ' select "c;d"']
    assert split_semicolon("/* a; b */ select 1; -- c; d\n") == ["/* a; b */ select 1"]
    assert split_semicolon("select 1 /* x /* y; */ z; */;") == ["select 1 /* x /* y; */ z; */"]
    assert split_semicolon("-- x \\\n select 1;") == []  # the backslash carries the comment on
    assert spark_sql_commands("-- x \\\nselect 1;\n") == ["select 1"]  # ...but Hive drops the "--" line first
    assert spark_sql_commands("select 1 \\;\nselect 2;") == ["select 1 ;\nselect 2"]
    assert spark_sql_commands("--a\rselect 1;\r\n-- b;\nselect 2;") == ["select 1", "select 2"]


# ---- Spark -------------------------------------------------------------------------------------------------
def spark_tokens(spark, text: str) -> list[tuple[int, str]]:
    """The (type, text) of the tokens Spark 4's own lexer gives ``text`` on the parser's channel (comments and
    blanks are on the hidden one)."""
    jvm = spark.session._jvm
    lexer = jvm.org.apache.spark.sql.catalyst.parser.SqlBaseLexer(jvm.org.antlr.v4.runtime.CharStreams.fromString(text))
    return [(t.getType(), t.getText()) for t in lexer.getAllTokens() if t.getChannel() == 0]


def _plan(spark, sql: str) -> str:
    return spark.parse(sql).toString()


def check_spark(spark, script: str, units: list[tuple[tuple[str, ...], tuple[str, ...]]], target_victim: str) -> None:
    """``script`` (what a tool wrote) is exactly the statements of ``units`` ((comments, statements) per
    document, in order) for Spark's lexer, parser and spark-sql; applied piece by piece, the victim stays."""
    statements = [s for _, ss in units for s in ss]
    semi = spark_tokens(spark, ";")
    expected: list[tuple[int, str]] = []
    for s in statements:
        expected += spark_tokens(spark, s) + semi
    assert spark_tokens(spark, script) == expected, script
    assert spark_sql_commands(script) == [_java_trim(s) for s in statements], script
    # what an applier cutting at ";" hands spark.sql: the comments before a statement, then the statement
    pieces, pending = [], []
    for comments, ss in units:
        pending += comments
        for s in ss:
            pieces.append(("\n".join([*pending, s]), s))
            pending = []
    if pending:  # comments last in the script: nothing after them is theirs
        pieces.append(("\n".join([*pending, "SELECT 1"]), "SELECT 1"))
    for piece, s in pieces:
        assert _plan(spark, piece) == _plan(spark, s), piece
    session = spark.session
    session.sql("CREATE SCHEMA IF NOT EXISTS public")
    session.sql("CREATE TABLE IF NOT EXISTS public.t (a INT) USING parquet")
    session.sql(f"CREATE TABLE IF NOT EXISTS {target_victim} (a INT) USING parquet")
    for piece, s in pieces:
        if s.startswith("COMMENT ON TABLE"):
            session.sql(piece).collect()
    assert session.catalog.tableExists(target_victim), "the sentinel table was dropped"
    rows = session.sql("DESCRIBE TABLE EXTENDED public.t").collect()
    assert [r[1] for r in rows if r[0] == "Comment"] == [victim_comment("spark")]


@pytest.fixture()
def spark_tables(spark):
    yield spark
    for name in ("public.t", VICTIM["spark"]):
        spark.session.sql(f"DROP TABLE IF EXISTS {name}")


# ---- PostgreSQL --------------------------------------------------------------------------------------------
def pg_tokens(text: str) -> list[tuple[str, str]]:
    """The (token, text) pglast's scanner (PostgreSQL's own lexer) gives ``text``, comments left out."""
    return [(t.name, text[t.start:t.end + 1]) for t in pgparser.scan(text) if t.name not in ("SQL_COMMENT", "C_COMMENT")]


def check_postgres(pg_server, script: str, units: list[tuple[tuple[str, ...], tuple[str, ...]]],
                   tables: list[str]) -> None:
    """``script`` is exactly the statements of ``units`` for PostgreSQL's lexer and parser, and ``psql -f``
    runs it: every statement, no meta-command, and the sentinel table survives."""
    statements = [s for _, ss in units for s in ss]
    expected: list[tuple[str, str]] = []
    for s in statements:
        expected += pg_tokens(s) + [("ASCII_59", ";")]
    assert pg_tokens(script) == expected, script
    assert list(pgparser.split(script)) == [s.strip() for s in statements], script
    with pg_server.database() as db:  # (one per hypothesis example: dropped at once)
        with pg_server.connect(db) as conn:
            conn.execute("CREATE TABLE public.t (id int)")
            conn.execute("CREATE TABLE public.victim (id int)")
        MARKER.unlink(missing_ok=True)
        with tempfile.NamedTemporaryFile("w", suffix=".sql", encoding="utf-8", newline="", delete=False) as fh:
            fh.write(script)
        try:
            p = pg_server.psql_file(db, fh.name)
        finally:
            os.unlink(fh.name)
        assert p.returncode == 0, (p.stderr, script)
        assert not MARKER.exists(), "a psql meta-command ran"
        with pg_server.connect(db) as conn:
            assert conn.execute("SELECT to_regclass('public.victim') IS NOT NULL").fetchone() == (True,), \
                "the sentinel table was dropped"
            row = conn.execute("SELECT obj_description('public.t'::regclass, 'pg_class')").fetchone()
            assert row == (victim_comment("postgres"),)
            for name in tables:
                assert conn.execute("SELECT to_regclass(%s) IS NOT NULL", (name,)).fetchone() == (True,), name


# ---- the dialects' comment function ------------------------------------------------------------------------
def test_every_target_writes_comments_through_its_dialect():
    for name in BACKENDS:
        assert get_backend(name).dialect.comment is line_comment, name


_UNSAFE = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


@settings(max_examples=400)
@given(st.text(st.characters(), max_size=30) | TEXT)
def test_comment_lines_have_nothing_that_ends_or_extends_them(text):
    out = line_comment(text)
    lines = out.split("\n")
    assert out.splitlines() == lines  # no other line break of any kind: LF only, between lines
    for line in lines:
        assert line.startswith("-- ")
        assert not line.rstrip().endswith("\\")  # not even once an editor trims trailing blanks
        assert not _UNSAFE.search(line)
    assert len(lines) == max(1, len(text.splitlines()))


def test_comment_encoding_examples():
    assert line_comment("CREATE PACKAGE p IS -- note \\") == "-- CREATE PACKAGE p IS -- note \\x5c"
    assert line_comment("a\\ \r\nb\u2028c\x0bd\x1be\u202ef\\\\") == "-- a\\x5c \n-- b\n-- c\n-- d\\x1be\\u202ef\\\\x5c"
    assert line_comment("x */ /* y -- z \\! w") == "-- x */ /* y -- z \\! w"
    assert line_comment("") == "-- "
    assert line_comment("\x00\ud800") == "-- \\x00\\ud800"
    # unchanged where nothing was unsafe (the goldens' comments)
    assert line_comment("a\n  b \n\tc") == "-- a\n--   b \n-- \tc"


@settings(max_examples=25, deadline=None)
@given(st.lists(st.text(st.characters(), max_size=30) | TEXT, min_size=1, max_size=12))
def test_spark_lexer_ends_every_comment_where_it_ends(spark, texts):
    """Many comments, each followed by a statement, in one script: Spark's lexer sees only the statements."""
    statement = "COMMENT ON TABLE t IS 'x\nDROP TABLE default.victim --'"
    script = "".join(line_comment(t) + "\n" + statement + ";\n" for t in texts)
    expected = (spark_tokens(spark, statement) + spark_tokens(spark, ";")) * len(texts)
    assert spark_tokens(spark, script) == expected
    assert spark_sql_commands(script) == [statement] * len(texts)
    for t in texts[:3]:
        assert _plan(spark, line_comment(t) + "\n" + statement) == _plan(spark, statement)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(st.characters(), max_size=30) | TEXT, min_size=1, max_size=12))
def test_pg_lexer_ends_every_comment_where_it_ends(texts):
    statement = "COMMENT ON TABLE t IS 'x\nDROP TABLE public.victim --'"
    script = "".join(line_comment(t) + "\n" + statement + ";\n" for t in texts)
    assert pg_tokens(script) == (pg_tokens(statement) + [("ASCII_59", ";")]) * len(texts)
    assert list(pgparser.split(script)) == [statement] * len(texts)


# ---- the issue's example, then every place that writes a comment ------------------------------------------
def _units(results) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    return [(tuple(r.comments), tuple(r.statements)) for r in results]


def _translate(texts: list[str], target: str) -> tuple[str, list]:
    results = list(ddlc.translate_many([json.dumps(d) for d in documents(texts, target)], target=target,
                                       on_unsupported="comment"))
    return "".join(r.sql for r in results), results


def _kept(results, texts) -> None:
    """The generated texts did reach comments (the test is not vacuous)."""
    assert sum(bool(r.comments) for r in results) >= len(texts)


ISSUE = ["CREATE PACKAGE p IS\n  x int; -- note \\", "a \\", "a\\\\", "a \\ ", "a\\\t", "\\\r", "*/ DROP", "\\!"]


def test_issue_example_on_spark(spark_tables):
    script, results = _translate(ISSUE, "spark")
    assert "\\x5c\n" in script  # the package's last line ended with a backslash
    _kept(results, ISSUE)
    check_spark(spark_tables, script, _units(results), VICTIM["spark"])


def test_issue_example_on_postgres(pg_server):
    script, results = _translate(ISSUE, "postgres")
    _kept(results, ISSUE)
    check_postgres(pg_server, script, _units(results), [f"public.c{i}" for i in range(len(ISSUE))])


def test_the_old_comment_form_was_the_hole(spark):
    """What ddlc wrote before (``-- `` + the line): Spark's lexer runs the next statement's second line."""
    old = "-- ddlc DDLC-W830: not translated: CREATE PACKAGE p IS -- note \\"
    nxt = f"COMMENT ON TABLE public.t IS '{victim_comment('spark')}'"
    assert "DropTable" in _plan(spark, old + "\n" + nxt)
    assert "DropTable" not in _plan(spark, line_comment(old[3:]) + "\n" + nxt)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(TEXTS)
def test_translate_comments_on_spark(spark_tables, texts):  # check_spark recreates what each example needs
    script, results = _translate(texts, "spark")
    _kept(results, texts)
    check_spark(spark_tables, script, _units(results), VICTIM["spark"])


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXTS)
def test_translate_comments_on_postgres(pg_server, texts):
    script, results = _translate(texts, "postgres")
    _kept(results, texts)
    tables = [f"public.c{i}" for i, r in enumerate(results[2::3]) if r.statements]
    check_postgres(pg_server, script, _units(results), tables)


def _cli(args: list[str], docs: list[dict]) -> subprocess.CompletedProcess:
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", encoding="utf-8", delete=False) as fh:
        fh.write("".join(json.dumps(d) + "\n" for d in docs))
    try:
        return subprocess.run([*ddlc_command(), *args, fh.name], capture_output=True, text=True, timeout=120)
    finally:
        os.unlink(fh.name)


@pytest.mark.parametrize("target", ["postgres", pytest.param("spark", marks=pytest.mark.spark_session)])
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(texts=TEXTS)
def test_cli_translate_writes_the_same_comments(request, target, texts):
    """``ddlc translate --on-unsupported comment`` prints the script the API reports, checked on the engine."""
    docs = documents(texts, target)
    p = _cli(["translate", "--to", target, "--on-unsupported", "comment"], docs)
    script, results = _translate(texts, target)
    assert p.stdout == script, p.stderr
    if target == "spark":
        check_spark(request.getfixturevalue("spark_tables"), p.stdout, _units(results), VICTIM["spark"])
    else:
        tables = [f"public.c{i}" for i, r in enumerate(results[2::3]) if r.statements]
        check_postgres(request.getfixturevalue("pg_server"), p.stdout, _units(results), tables)


@pytest.mark.parametrize("target", ["postgres", pytest.param("spark", marks=pytest.mark.spark_session)])
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(texts=TEXTS)
def test_cli_replay_writes_safe_comments(request, target, texts):
    """``ddlc replay --on-unsupported comment``: its comments (the tables' dropped TABLESPACE) too."""
    from ddlc.api import Options
    from ddlc.frontend.documents import read_documents
    from ddlc.replay import fold_log, script as replay_script

    texts = ["CREATE PACKAGE p IS -- note \\", *texts]  # one that is a table whatever the others are
    docs = [{"TDDL": f'CREATE TABLE public.c{i} (a int) TABLESPACE "{t.replace(chr(34), chr(34) * 2)}"'}
            for i, t in enumerate(texts)]
    p = _cli(["replay", "--to", target, "--on-unsupported", "comment"], docs)
    options = Options.of(on_unsupported="comment")
    parts = replay_script(fold_log(read_documents("".join(json.dumps(d) + "\n" for d in docs)), options),
                          target, options)
    units = [(tuple(x.result.comments), tuple(x.result.statements)) for x in parts]
    expected = "".join("".join(c + "\n" for c in cs) + "".join(s + ";\n" for s in ss) for cs, ss in units)
    assert p.stdout == expected, p.stderr
    # the name's last backslash: escaped where it ends the comment (a text written by hand), or inside the quotes
    # of the name where the comment shows the clause as GaussDB writes it (TABLESPACE "... note \")
    assert units[0][0] and units[0][0][0].endswith(("\\x5c", 'note \\"'))
    # then the issue's next statement, as ddlc writes it
    victim = ddlc.translate({"TDDL": f"COMMENT ON TABLE public.t IS '{victim_comment(target)}'"}, target).statements
    units.append(((), victim))
    script = p.stdout + "".join(s + ";\n" for s in victim)
    if target == "spark":
        check_spark(request.getfixturevalue("spark_tables"), script, units, VICTIM["spark"])
    else:
        check_postgres(request.getfixturevalue("pg_server"), script, units, [])
