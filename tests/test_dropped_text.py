"""The text of a dropped clause (``--on-unsupported comment``) is the GaussDB backend's own (issue 21.3).

A rule that removes a field or rewrites a node records the node before and after it
(``Diagnostic.dropped_node`` / ``dropped_after``); the compiler renders both through the GaussDB backend and
the comment shows what the first text has that the second has not. A hand-written ``Rule.text`` remains
only where no such difference can exist (the GaussDB text of the node does not change with the rule); the
count of those is pinned below.
"""

from __future__ import annotations

import collections
import json
import re
from pathlib import Path

import pytest

import ddlc
from ddlc.backends import get_backend
from ddlc.dropped import _removed, dropped_text
from ddlc.diagnostics import Diagnostic

ROOT = Path(__file__).resolve().parent.parent


def comments(sql: str, target: str = "postgres") -> list[str]:
    t = ddlc.translate(json.dumps({"TDDL": sql}), target, on_unsupported="comment")
    return [c.split("not translated: ", 1)[1] for c in t.comments]


@pytest.mark.parametrize(("sql", "expected"), [
    # a field set to its absent value: the clause
    ("CREATE TABLE s.t (a int) TABLESPACE ts1", ["TABLESPACE ts1"]),
    ("DROP INDEX CONCURRENTLY s.i CASCADE", ["CONCURRENTLY"]),
    ("CREATE TABLE public.t (a pg_catalog.int4, b pg_catalog.text) DISTRIBUTE BY HASH (a, b)",
     ["DISTRIBUTE BY HASH (a, b)"]),
    # a node with no GaussDB text of its own (a column, an index key) is written in its statement
    ("CREATE TABLE s.t (a int, b varchar(10) COLLATE utf8mb4_bin, c int)", ["COLLATE utf8mb4_bin"]),
    ("CREATE INDEX i ON s.t USING btree (a COLLATE utf8mb4_bin)", ["COLLATE utf8mb4_bin"]),
    # brackets stay balanced: the whole default, not up to the first closing parenthesis
    ("CREATE TABLE s.t (a int, b date DEFAULT months_between(sysdate, sysdate))",
     ["DEFAULT months_between(sysdate, sysdate)"]),
    # one option of a list: without its separator
    ("CREATE TABLE public.t (a pg_catalog.int4) WITH (storage_type = ustore, segment = on)",
     ["storage_type = ustore", "segment = on"]),
    ("CREATE INDEX i ON s.t USING btree (a) WITH (fillfactor=90, storage_type=ustore)", ["storage_type=ustore"]),
    # a value replaced: with the keyword that introduces it (and its sign); several spans joined by " ... "
    ("CREATE LARGE SEQUENCE s.q MAXVALUE 170141183460469231731687303715884105727 "
     "MINVALUE -170141183460469231731687303715884105728",
     ["LARGE", "MAXVALUE 170141183460469231731687303715884105727 ... "
      "MINVALUE -170141183460469231731687303715884105728"]),
    # quoted as GaussDB quotes it
    ('CREATE SEQUENCE s.q AS "Int16"', ['AS public."Int16"']),
    # a node dropped from a field of its own takes its parent: the subcommand
    ("ALTER TABLE public.t ADD COLUMN hash_a1 pg_catalog.hash16, ADD COLUMN b int",
     ["ADD COLUMN hash_a1 pg_catalog.hash16"]),
    # a rewrite that does not show in the GaussDB text of a part of the statement: the part, as before
    ("ALTER TABLE s.t ADD CONSTRAINT pk PRIMARY KEY (a) USING INDEX TABLESPACE ts1",
     ["ADD CONSTRAINT pk PRIMARY KEY (a) USING INDEX TABLESPACE ts1"]),
    # a statement dropped whole: its GaussDB text
    ("GRANT ALTER ON TABLE s.t TO u1", ["GRANT ALTER ON TABLE s.t TO u1"]),
])
def test_the_comment_shows_the_clause_as_gaussdb_writes_it(sql, expected):
    assert comments(sql) == expected


def test_a_clause_inside_text_gaussdb_writes_as_is_keeps_its_hand_written_text():
    """GaussDB writes a materialized view from its text: the clause cannot be told by a difference."""
    assert comments("CREATE INCREMENTAL MATERIALIZED VIEW s.mv AS SELECT 1 AS a") == ["INCREMENTAL"]


def _diag(before, after=None, within=()):
    return Diagnostic("DDLC-W611", "m", dropped_node=before, dropped_after=after, dropped_within=within)


def test_no_difference_or_no_rendering_gives_no_text_never_the_statement():
    from ddlc.ir.names import QualifiedName
    from ddlc.ir.table import ColumnDef, CreateTable

    table = CreateTable(identity=QualifiedName("t", "s"), elements=())
    assert dropped_text(_diag(table, table)) is None  # nothing removed
    column = ColumnDef(name="a", type=None)
    assert dropped_text(_diag(column, column)) is None  # no GaussDB text alone, and nothing encloses it
    assert dropped_text(_diag(column)) is None


@pytest.mark.parametrize(("before", "after", "expected"), [
    ("CREATE TABLE t (a int, b text DEFAULT f(a, 1), c int)", "CREATE TABLE t (a int, b text, c int)",
     "DEFAULT f(a, 1)"),
    ("CREATE TABLE t (a int, b text) WITH (x = 1)", "CREATE TABLE t (a int, b text)", "WITH (x = 1)"),
    ("f(a, b, c)", "f(a, c)", "b"),
    ("CREATE INDEX i ON t USING cgin (a)", "CREATE INDEX i ON t USING gin (a)", "USING cgin"),
    ("CREATE SEQUENCE q START WITH 9 CACHE 1", "CREATE SEQUENCE q START WITH 1 CACHE 1", "START WITH 9"),
    ("CREATE SEQUENCE q NOORDER MAXVALUE 9", "CREATE SEQUENCE q NOORDER MAXVALUE 1", "MAXVALUE 9"),
    # a list item whose neighbour starts the same: the item, not the span between the two first words
    ("CREATE TABLE t (a int, CONSTRAINT c1 CHECK (a > 0), CONSTRAINT c2 CHECK (a < 9))",
     "CREATE TABLE t (a int, CONSTRAINT c2 CHECK (a < 9))", "CONSTRAINT c1 CHECK (a > 0)"),
    ("CREATE TABLE t (a int, CONSTRAINT c1 CHECK (a > 0), CONSTRAINT c2 CHECK (a < 9))",
     "CREATE TABLE t (a int, CONSTRAINT c1 CHECK (a > 0))", "CONSTRAINT c2 CHECK (a < 9)"),
    ("CREATE TABLE t (a int)", "CREATE TABLE t (a int)", None),
    ("CREATE TABLE t (a int)", "CREATE TABLE t (a int) TABLESPACE x", None),  # nothing of the first is missing
])
def test_removed_spans(before, after, expected):
    assert _removed(before, after) == expected


def test_a_node_a_rule_left_with_a_layout_it_no_longer_fits_is_written_without_it():
    """A rewrite that kept the deparser's fmt of a node whose clause it removed: both texts written without it."""
    from ddlc.ir.base import replace

    tree = {"fmt": "ALTER %{objtype}s %{only}s %{identity}D %{subcmds:, }s", "only": "", "objtype": "TABLE",
            "identity": {"objname": "t", "schemaname": "public"}, "subcmds": [{
                "fmt": "MODIFY COLUMN %{column}I %{datatype}T CHARACTER SET %{charset}s %{not_null}s",
                "type": "modify column", "column": "c", "charset": "utf8mb4", "not_null": "NULL",
                "datatype": {"typmod": "(20)", "typarray": False, "typename": "varchar", "schemaname": "pg_catalog"}}]}
    t = ddlc.translate(json.dumps(tree), "spark", on_unsupported="comment")
    d = next(d for d in t.diagnostics if d.dropped_within)
    modify = d.dropped_within[-1]  # as the statement holds it: with its fmt
    assert modify.layout is not None
    assert dropped_text(_diag(modify, replace(modify, charset=None), d.dropped_within)) == "CHARACTER SET utf8mb4"


def _norm(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def test_every_derived_clause_of_the_fixtures_is_in_the_gaussdb_target_output():
    """Each span a comment shows for a removed clause is text the GaussDB target writes for the same input."""
    checked = 0
    for case in sorted((ROOT / "fixtures" / "cases").glob("*/*")):
        expected = case / "expected.gaussdb.sql"
        if not expected.exists():
            continue
        gauss = _norm(expected.read_text("utf-8"))
        for target in ("postgres", "spark"):
            for t in ddlc.translate_many((case / "input.json").read_bytes(), target, on_unsupported="comment"):
                for d in t.diagnostics:
                    if d.dropped_after is None or (text := dropped_text(d)) is None:
                        continue
                    checked += 1
                    assert all(_norm(part) in gauss for part in text.split(" ... ")), (case.name, d.code, text)
    assert checked >= 15


# Rules that still carry a hand-written text, by the module that writes it. Each says why where it is declared:
# the clause sits in text the GaussDB backend writes as it is (a statement of ir.misc.TEXT_NODES, a
# constraint's definition, a function's body and options), so the GaussDB text does not change with the rule;
# or the GaussDB text never had it (an added column's AUTO_INCREMENT: the server's ALTER form of the column
# stops after its collation).
HAND_WRITTEN = {
    "ddlc.backends.postgres.alter_columns": 1,
    "ddlc.backends.postgres.misc": 7,
    "ddlc.backends.postgres.routines": 5,
    "ddlc.backends.postgres.table": 3,
    "ddlc.backends.spark.alter": 3,  # AUTO_INCREMENT of ADD COLUMN, MODIFY and CHANGE (not in the GaussDB text)
    "ddlc.backends.spark.objects": 3,  # TRUNCATE's RESTART IDENTITY and CASCADE; a statement kept as text
}


def test_hand_written_texts_are_pinned():
    found: collections.Counter[str] = collections.Counter()
    for target in ("gaussdb", "postgres", "spark"):
        for r in get_backend(target).rules:
            if r.text is not None:
                found[r.text.__module__] += 1
    assert dict(found) == HAND_WRITTEN


def test_no_emitter_writes_a_dropped_text_of_its_own():
    """An emitter that drops a clause gives ``diag`` the node (before and after, or the node whole), never a
    GaussDB text it wrote (Spark's untranslatable expression passes the expression's own text, or a CREATE TABLE
    AS's, through ``Emit.expr``/``query``)."""
    import ast

    found = []
    for target in ("postgres", "spark"):
        for path in sorted((ROOT / "ddlc" / "backends" / target).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if isinstance(node, ast.Call) and any(k.arg == "dropped_text" for k in node.keywords):
                    found.append(f"{target}/{path.name}:{node.lineno}")
    assert found == []
