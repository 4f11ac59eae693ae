"""Text the GaussDB target writes with no IR to print it from is exactly one statement (issue 20, item 3).

A tree of no known shape (no builder or template takes its fmt: ``Opaque`` with ``NO_SHAPE``) has no slot
class to check its values by (``ddlc/frontend/slots.py`` knows the known shapes only), and the GaussDB
target writes its expansion as it came. So does it for a statement holding a subcommand of no known shape,
and for a ``{"TDDL": ...}`` text. Each is written only when ddlc's own lexer (``ddlc/frontend/sql``) reads
exactly one statement whose tokens are all there is (``fragment.statement_problem``); otherwise the
document fails with ``DDLC-E011`` on the GaussDB target. PostgreSQL and Spark read such a text back with
the TDDL text frontend and translate it from the IR, or refuse it.

* the reproductions (``CREATE FOO %{x}s`` with ``x = 'a; DROP TABLE victim'`` and its relatives);
* hypothesis over hostile values in the slots of unknown-shape trees: every result is refused (E011 on
  GaussDB) or exactly one statement per document, as ddlc's lexer and as pglast's scanner and ``split``
  (PostgreSQL's lexer) read it;
* every fixture tree of unknown shape (and every fixture TDDL text) translates as before.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pglast import parser as pgparser

import ddlc
from conftest import CASES, FIXTURES, case_dirs, case_id
from ddlc.api import Options, translate_document
from ddlc.compiler import front
from ddlc.frontend.documents import read_documents
from ddlc.frontend.sql.fragment import statement_problem
from ddlc.ir.statement import Opaque, OpaqueReason
from ddlc.quoting import canonicalize

TARGETS = ("gaussdb", "postgres", "spark")
E011 = "DDLC-E011"
WHY = "is not exactly one statement"


def result(doc, target: str, **opts) -> ddlc.Translation:
    """The translation, its error captured (never raised)."""
    docs = list(read_documents(json.dumps(doc).encode()))
    return translate_document(docs[0], target, Options.of(**opts))


def is_unknown_shape(tree: dict) -> bool:
    doc = list(read_documents(json.dumps(tree).encode()))[0]
    stmt = front(doc, Options()).stmt
    return isinstance(stmt, Opaque) and stmt.reason is OpaqueReason.NO_SHAPE


# ---- the reproductions ---------------------------------------------------------------------------------------
REFUSED = {  # a tree of no known shape -> what the refusal names
    "two statements": ({"fmt": "CREATE FOO %{x}s", "x": "a; DROP TABLE victim"}, "more after the ';'"),
    "two statements, the second terminated": ({"fmt": "CREATE FOO %{x}s", "x": "a; DROP TABLE victim;"},
                                               "more after the ';'"),
    "an empty statement after the end": ({"fmt": "CREATE FOO %{x}s", "x": "a;;"}, "more after the ';'"),
    "a meta-command at a line start": ({"fmt": "CREATE FOO %{x}s", "x": "a\n\\! touch marker"}, "backslash"),
    "a meta-command in mid-line": ({"fmt": "CREATE FOO %{x}s", "x": "a \\! touch marker"}, "backslash"),
    "a meta-command in the fmt": ({"fmt": "CREATE FOO a \\! touch marker"}, "backslash"),
    "a / line": ({"fmt": "CREATE FOO %{x}s", "x": "a\n/\nDROP TABLE victim"}, "a line holding only /"),
    "a / line at the end": ({"fmt": "CREATE FOO %{x}s", "x": "a\n /"}, "a line holding only /"),
    "a comment swallowing the template's words": ({"fmt": "CREATE FOO %{x}s RESTRICT", "x": "a -- c"}, "a comment"),
    "a comment swallowing the terminator": ({"fmt": "CREATE FOO %{x}s", "x": "a -- c"}, "a comment"),
    "a block comment across slots": ({"fmt": "CREATE FOO %{x}s RESTRICT %{y}s", "x": "a /*", "y": "*/"}, "a comment"),
    "an unterminated quote": ({"fmt": "CREATE FOO %{x}s", "x": "'a"}, "an unterminated ' quote"),
    "an unterminated quoted name": ({"fmt": "CREATE FOO %{x}s", "x": '"a'}, 'an unterminated " quote'),
    "an unterminated dollar quote": ({"fmt": "CREATE FOO %{x}s", "x": "$q$ a"}, "an unterminated dollar quote $q$"),
    "an unterminated comment": ({"fmt": "CREATE FOO %{x}s", "x": "a /* b"}, "an unterminated /* comment"),
    "a string scs=off ends elsewhere": ({"fmt": "COMMENT ON TABLE t IS %{x}s", "x": "'C:\\'; DROP TABLE victim; --'"},
                                        "standard_conforming_strings"),
    "nothing": ({"fmt": "%{x}s", "x": "  "}, "no statement"),
    "only a terminator": ({"fmt": "%{x}s", "x": ";"}, "a ';' before any word"),
    "an inner object's value": ({"fmt": "CREATE FOO %{x}s", "x": {"fmt": "BAR %{y}s", "y": "b; DROP TABLE victim"}},
                                "more after the ';'"),
    "a known statement's words": ({"fmt": "DROP TABLE %{x}s", "x": "a; DROP TABLE victim"}, "more after the ';'"),
}


@pytest.mark.parametrize("name", sorted(REFUSED))
@pytest.mark.parametrize("mode", ["canonical", "raw"])
def test_a_tree_of_no_known_shape_that_is_not_one_statement_is_refused_on_gaussdb(name, mode):
    tree, why = REFUSED[name]
    assert is_unknown_shape(tree)
    t = result(tree, "gaussdb", mode=mode)
    assert t.error is not None and t.error.code == E011, t.statements
    assert "a statement of no known shape" in t.error.message and WHY in t.error.message
    assert "GaussDB target" in t.error.message
    assert why in t.error.message, t.error.message
    assert t.statements == () and t.sql == ""


@pytest.mark.parametrize("name", sorted(REFUSED))
@pytest.mark.parametrize("target", ["postgres", "spark"])
def test_the_other_targets_refuse_them_or_translate_one_statement(name, target):
    """PostgreSQL and Spark read the expansion back with the TDDL text frontend: here it never reads
    (the frontend refuses several statements and the slots' values), so the document fails; never E900."""
    tree, _ = REFUSED[name]
    t = result(tree, target)
    assert t.error is not None and t.error.code != "DDLC-E900", t.statements
    assert t.statements == ()


def test_the_reproduction():
    """The issue's example: two statements where ddlc reported one; now refused with the reason."""
    with pytest.raises(ddlc.DdlcError) as info:
        ddlc.translate({"fmt": "CREATE FOO %{x}s", "x": "a; DROP TABLE victim"}, "gaussdb")
    assert info.value.code == E011
    assert info.value.message == (
        "the text of a statement of no known shape (written as it came on the GaussDB target, with no IR to print "
        "it from) is not exactly one statement: more after the ';' that ends it (another statement at offset 14)")
    # the same tree with a value that is one statement is written as it came
    assert ddlc.translate({"fmt": "CREATE FOO %{x}s", "x": "a"}, target="gaussdb").sql == "CREATE FOO a;\n"


ACCEPTED = {  # one statement: written as it came
    "a trailing terminator": ({"fmt": "SELECT %{x}s", "x": "1;  \n"}, "SELECT 1;\n"),
    "quotes holding everything": ({"fmt": "COMMENT ON TABLE t IS %{x}s", "x": "$$a; \\! b -- c\n/\n$$"},
                                  "COMMENT ON TABLE t IS $$a; \\! b -- c\n/\n$$;\n"),
    "an E string with an escaped quote": ({"fmt": "SELECT %{x}s", "x": "E'a\\'; b'"}, "SELECT E'a\\'; b';\n"),
    "a string with an escaped backslash": ({"fmt": "SELECT %{x}s", "x": "'C:\\\\'"}, "SELECT 'C:\\\\';\n"),
    "a quoted name": ({"fmt": "DROP TABLE %{x}s", "x": '"a;--\\"'}, 'DROP TABLE "a;--\\";\n'),
    "a slash in an expression": ({"fmt": "SELECT %{x}s", "x": "4\n/ 2"}, "SELECT 4 / 2;\n"),
}


@pytest.mark.parametrize("name", sorted(ACCEPTED))
def test_a_tree_of_no_known_shape_that_is_one_statement_is_written_as_it_came(name):
    tree, sql = ACCEPTED[name]
    assert is_unknown_shape(tree)
    assert ddlc.translate(tree, "gaussdb").sql == sql


def test_the_check_reads_the_text_as_written():
    """Canonical mode writes the canonical text: the check reads that, so a line break that canonical
    mode would fold cannot hide anything (blanks inside quotes are kept, so nothing moves across)."""
    tree = {"fmt": "SELECT %{x}s", "x": "'a\n;' \n , 2"}
    assert ddlc.translate(tree, target="gaussdb").sql == "SELECT 'a\n;' , 2;\n"
    assert ddlc.translate(tree, mode="raw", target="gaussdb").sql == "SELECT 'a\n;' \n , 2;\n"


# ---- subcommands of no known shape, TDDL texts ----------------------------------------------------------------
ALTER = {"fmt": "ALTER %{objtype}s %{only}s %{identity}D %{subcmds:, }s", "objtype": "TABLE", "only": "",
         "identity": {"schemaname": "public", "objname": "t"}}


@pytest.mark.parametrize("sub", [
    "ADD COLUMN b int \\! touch marker",
    {"fmt": "FROB %{x}s", "type": "frob", "x": "a \\! touch marker"},
    "ADD COLUMN b text DEFAULT 'C:\\'",
])
def test_a_subcommand_of_no_known_shape_is_written_only_in_one_statement(sub):
    """An unmodelled subcommand is pasted into its ALTER as the server's text: its values are lexed as
    fragments (an unquoted backslash anywhere is refused there); the whole statement is then lexed as
    one statement."""
    t = result(dict(ALTER, subcmds=[sub]), "gaussdb")
    assert t.error is not None and t.error.code == E011, t.statements
    if "\\!" in str(sub):  # the slot check refuses an unquoted backslash anywhere in a fragment, before this one
        assert "a backslash outside quotes" in t.error.message
    else:
        assert "a subcommand of no known shape" in t.error.message and "one part of its statement" in t.error.message
        assert t.error.jsonpath == "$.subcmds[0]"
    ok = ddlc.translate(dict(ALTER, subcmds=["ADD COLUMN b int"]), "gaussdb")
    assert ok.sql == "ALTER TABLE public.t ADD COLUMN b int;\n"


@pytest.mark.parametrize("text,why", [
    ("DROP TABLE a; DROP TABLE victim", "more after the ';'"),
    ("DROP TABLE a -- c", "a comment"),
    ("DROP TABLE a \\! touch marker", "backslash"),
    ("DROP TABLE a\n/\nDROP TABLE victim", "a line holding only /"),
    ("COMMENT ON TABLE t IS 'C:\\'; DROP TABLE victim; --'", "standard_conforming_strings"),
    ("GRANT SELECT ON t TO u; GRANT ALL ON victim TO PUBLIC", "more after the ';'"),
    # user code outside quotes: ';' and comments are the user's, but nothing may follow the block's end
    ("BEGIN NULL; END;\n/\nDROP TABLE victim;\n/", "more after the / line"),
    ("CREATE PROCEDURE p AS BEGIN NULL; END; \\! touch marker", "backslash"),
    ("CREATE PROCEDURE p AS BEGIN NULL; END; -- c", "runs to its end"),
    ("CREATE OR REPLACE PACKAGE p IS x int; 'a", "an unterminated ' quote"),
])
def test_a_tddl_text_that_is_not_one_statement_is_refused_on_gaussdb(text, why):
    t = result({"TDDL": text}, "gaussdb")
    assert t.error is not None and t.error.code == E011, t.statements
    assert "the TDDL text of" in t.error.message and why in t.error.message, t.error.message


@pytest.mark.parametrize("text", [
    "CREATE OR REPLACE PACKAGE public.p AUTHID CURRENT_USER IS v int:=1; -- note\n PROCEDURE q(a int);\nEND p; \n /",
    "CREATE OR REPLACE PROCEDURE public.p(d integer) AS BEGIN DELETE FROM public.t WHERE a < d; END;",
    "DECLARE n int; BEGIN n := 1; END;\n/",
    "DROP TABLE public.t;",
    "COMMENT ON TABLE t IS $$a; b -- c$$",
])
def test_a_tddl_text_of_one_statement_passes_through(text):
    t = ddlc.translate({"TDDL": text}, "gaussdb")
    assert len(t.statements) == 1


# ---- hostile values, every target ----------------------------------------------------------------------------
TEMPLATES = (  # trees of no known shape
    "CREATE FOO %{x}s",
    "CREATE FOO %{x}s RESTRICT %{y}s",
    "%{x}s",
    "DROP TABLE %{x}s",
    "COMMENT ON TABLE t IS %{x}s",
    "ALTER TABLE public.t FROB %{x}s, %{y}s",
    "CREATE TABLE %{x}s (%{y}s)",
    "GRANT %{x}s ON TABLE t TO %{y}s",
)

PIECES = (";", "; ", ";\n", "\\", "\\!", "\\! touch marker", "\n\\! x\n", "--", "-- c", "/*", "*/", "/* c */", "'",
          "''", '"', '""', "$$", "$a$", "$1", "E'", "N'", "X'", "\n", "\r", "\r\n", "\n/\n", "/", " / ", "(", ")",
          "DROP TABLE victim", "a", "b int", "1", "  ", "\t", "\u2028", "\x0b", "\x0c", "::", ",", ".", "U&'",
          "BEGIN", "END", "$$ x $$", "'a''b'", "E'\\''", "'C:\\'")
HOSTILE = st.lists(st.one_of(st.sampled_from(PIECES), st.text(alphabet="ab;'\"$\\-/*\n\r ()E", max_size=4)),
                   max_size=8).map("".join)


def _value(v: str, nested: bool) -> object:
    return {"fmt": "V %{z}s", "z": v} if nested else v


def pg_checks(statement: str) -> None:
    """PostgreSQL's lexer (pglast's scanner) reads ``statement`` whole, with no ';' before its end and no
    backslash token, and ``split`` finds at most one statement in it. A text PostgreSQL's lexer refuses
    for another reason (``1abc``: trailing junk) is not PostgreSQL text: ddlc's lexer decided alone."""
    toks = _pg_scan(statement)
    if toks is None:
        return
    names = [t.name for t in toks if t.name not in ("SQL_COMMENT", "C_COMMENT")]
    assert "ASCII_92" not in names, statement  # a backslash outside quotes
    assert ";" not in [statement[t.start:t.end + 1] for t in toks[:-1]], statement
    assert len(pgparser.split(statement, with_parser=False)) <= 1, statement


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(fmt=st.sampled_from(TEMPLATES), x=HOSTILE, y=HOSTILE, nested=st.booleans(),
       mode=st.sampled_from(["canonical", "raw"]))
def test_hostile_values_in_a_tree_of_no_known_shape(fmt, x, y, nested, mode):
    tree = {"fmt": fmt, "x": _value(x, nested), "y": y}
    for target in TARGETS:
        t = result(tree, target, mode=mode) if target == "gaussdb" else result(tree, target)
        if t.error is not None:
            assert t.error.code != "DDLC-E900", t.error
            if target == "gaussdb" and t.error.code == E011:
                assert WHY in t.error.message or "raw %s slot" in t.error.message, t.error.message
            assert t.statements == ()
            continue
        if target != "gaussdb":  # translated from the IR the text frontend read: one statement each
            assert len(t.statements) == 1, t.statements
            if target == "postgres":
                assert len(pgparser.parse_sql(t.statements[0])) == 1
            continue
        assert len(t.statements) == 1, t.statements
        (s,) = t.statements
        assert statement_problem(s) is None, s  # ddlc's lexer: one statement, all tokens
        pg_checks(s)
        script = t.sql  # the statement and the ';' ddlc writes: that ';' is the script's only one
        toks = _pg_scan(script)
        if toks is not None:
            assert [tok.start for tok in toks if tok.name == "ASCII_59"] == [len(s)], script
        if mode == "raw":
            assert s == tree_expansion(tree)  # written as it came


def _pg_scan(text: str) -> list | None:
    """pglast's tokens of ``text``; None when PostgreSQL's lexer refuses it for a reason other than an
    unterminated token (``1abc``: not PostgreSQL text)."""
    try:
        return list(pgparser.scan(text))
    except pgparser.ParseError as e:
        assert "unterminated" not in str(e), (text, e)
        return None


def tree_expansion(tree: dict) -> str:
    from ddlc.compiler import _strip_terminator
    from ddlc.jddl.expand import expand

    return _strip_terminator(expand(tree))


# ---- every fixture tree of unknown shape, every fixture TDDL text: as before -----------------------------------
def _fixture_documents() -> list[tuple[str, object]]:
    out = []
    for case in case_dirs():
        for doc in read_documents((case / "input.json").read_bytes()):
            out.append((case_id(case), doc))
    for path in [FIXTURES / "sample" / "ddl.jsonl", *sorted((FIXTURES / "streams").glob("*.*"))]:
        if path.suffix == ".md":
            continue
        for doc in read_documents(path.read_bytes()):
            out.append((f"{path.relative_to(FIXTURES)}#{doc.index}", doc))
    return out


DOCS = _fixture_documents()


def _is_unknown(doc) -> bool:
    try:
        stmt = front(doc, Options()).stmt
    except ddlc.DdlcError:
        return False
    return isinstance(stmt, Opaque) and stmt.reason is OpaqueReason.NO_SHAPE


UNKNOWN = [(name, doc) for name, doc in DOCS if doc.tree is not None and doc.error is None and _is_unknown(doc)]
TDDL = [(name, doc) for name, doc in DOCS if doc.tddl is not None and doc.error is None]


def test_the_fixtures_hold_trees_of_unknown_shape_and_tddl_texts():
    assert len(UNKNOWN) >= 60 and len(TDDL) >= 15, (len(UNKNOWN), len(TDDL))


@pytest.mark.parametrize("name,doc", UNKNOWN, ids=[n for n, _ in UNKNOWN])
def test_every_fixture_tree_of_unknown_shape_translates_as_before(name, doc):
    """The golden bytes where the case has them (tests/test_golden.py checks them too), and on every target
    no refusal of this check: the server's own expansions are one statement."""
    case = CASES / name
    for file, mode in (("expected.gaussdb.sql", "canonical"), ("expected.gaussdb-raw.sql", "raw")):
        t = translate_document(doc, "gaussdb", Options.of(mode=mode))
        assert t.error is None, t.error
        if (case / file).exists():
            assert t.sql.encode() == (case / file).read_bytes()
    for target in ("postgres", "spark"):
        t = translate_document(doc, target, Options())
        assert t.error is None or WHY not in t.error.message


@pytest.mark.parametrize("name,doc", TDDL, ids=[n for n, _ in TDDL])
def test_every_fixture_tddl_text_passes_through_as_before(name, doc):
    t = translate_document(doc, "gaussdb", Options())
    assert t.error is None, t.error
    assert len(t.statements) == 1
    case = CASES / name
    if (case / "expected.gaussdb.sql").exists():
        assert t.sql.encode() == (case / "expected.gaussdb.sql").read_bytes()


def test_the_comment_rule_of_canonical_text_is_kept_for_known_shapes():
    """fixtures/cases/expander/canon-line-comment-keeps-newline pinned canonical mode's comment rule with a
    tree of no known shape (``%{f}s``): that tree is now refused (a comment, a ';' before its end); the case
    is the server's CREATE FUNCTION shape (``%{function}s``, a routine text whose comments are the user's)
    and keeps its bytes, and the text of no known shape is refused."""
    case = CASES / "expander" / "canon-line-comment-keeps-newline"
    tree = json.loads((case / "input.json").read_text("utf-8"))
    text = tree["function"]
    assert ddlc.translate(tree, target="gaussdb").sql.encode() == (case / "expected.gaussdb.sql").read_bytes()
    assert ddlc.translate(tree, mode="raw", target="gaussdb").sql.encode() == (case / "expected.gaussdb-raw.sql").read_bytes()
    assert (canonicalize(text) + ";\n").encode() == (case / "expected.gaussdb.sql").read_bytes()
    t = result({"fmt": "%{f}s", "f": text}, "gaussdb")
    assert t.error is not None and t.error.code == E011 and "a comment" in t.error.message


# ---- why any backslash, not only one at a line start --------------------------------------------------------
MARKER = Path(tempfile.gettempdir()) / f"ddlc-opaque-marker-{os.getpid()}"


def test_psql_runs_a_meta_command_from_a_backslash_in_mid_line(pg_server, tmp_path):
    """psql (and gsql, its fork) reads an unquoted backslash anywhere in a line as the start of a
    meta-command: ``CREATE TABLE ... \\! cmd`` runs ``cmd``. So the check refuses a backslash outside
    quotes wherever it is, and ddlc's GaussDB output of such a tree is refused."""
    MARKER.unlink(missing_ok=True)
    script = tmp_path / "mid-line.sql"
    script.write_text(f"CREATE TABLE t (a int) \\! touch {MARKER}\n;\n", encoding="utf-8")
    db = pg_server.fresh_database()
    try:
        p = pg_server.psql_file(db, str(script))
        assert MARKER.exists(), (p.stdout, p.stderr)  # the premise: the shell command ran
    finally:
        MARKER.unlink(missing_ok=True)
    t = result({"fmt": "CREATE TABLE %{x}s", "x": f"t (a int) \\! touch {MARKER}"}, "gaussdb")
    assert t.error is not None and t.error.code == E011 and "backslash" in t.error.message
