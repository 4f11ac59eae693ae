"""Issue 26, round 14 (front): CREATE TABLE's constraint and column elements, the former reading kept beside the
new one.

* ``constraints.table_reading`` gives a constraint element's ``(parsed, informational, verbatim)`` and its
  definition's parsed form at once: a plain key list from the pattern's groups (no JSON node), any other text as
  ``read_definition`` reads it; the Expr's tree is known already when the text starts with a constraint's word.
  ``read_constraint`` calls it instead of ``make_definition`` + ``read_definition`` (the fragment check first,
  then the kind, as before);
* ``check_text.check_expr_text`` (``constraints._check_text`` before) finds the common ``CHECK (...)``'s closing parenthesis without a step per
  parenthesis;
* ``read_type`` skips ``check_typmod``'s call when its verdict is remembered good; ``read_column`` reads a
  present collation's name and a string default at once.

The former modules are read from git (the round's base, c1057c7); the former ``read_constraint`` is written out
below as it was. Compared on every fixture constraint and column element and on generated ones with hostile
pieces (quotes, backslashes, ``$$``, ``--``, ``/*``, line breaks, non-ASCII, empty, keywords, 64-character names,
other types): the same element (every field, the parsed forms' trees, references and verbatim flags), the same
diagnostics, or the same error (class, message, path).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ddlc.errors import DdlcError
from ddlc.frontend.build import _columns as NEWCOL
from ddlc.frontend.build import table as NEWTABLE
from ddlc.frontend.build._read import BuildContext, Obj
from ddlc.frontend.sql import check_text as NEWCHECK
from ddlc.frontend.sql import constraints as NEW
from ddlc.ir.table import ConstraintKind, TableConstraint

ROOT = Path(__file__).resolve().parents[1]
BASE = "c1057c7"


def _load(path: str, name: str, package: str, replace: tuple[tuple[str, str], ...] = ()) -> ModuleType | None:
    try:
        src = subprocess.run(["git", "show", f"{BASE}:{path}"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    for a, b in replace:
        assert a in src
        src = src.replace(a, b)
    spec = importlib.util.spec_from_loader(name, loader=None)
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    mod.__package__ = package
    sys.modules[name] = mod
    exec(compile(src, f"<{BASE}:{path}>", "exec"), mod.__dict__)
    return mod


OLD = _load("ddlc/frontend/sql/constraints.py", "ddlc.frontend.sql._constraints_r14base", "ddlc.frontend.sql",
            (("N_CONSTRAINT_UNPARSED = register(", "N_CONSTRAINT_UNPARSED = (lambda *a: a[0])("),))
OLDREAD = _load("ddlc/frontend/build/_read.py", "ddlc.frontend.build._read_r14base", "ddlc.frontend.build")
OLDCOL = _load("ddlc/frontend/build/_columns.py", "ddlc.frontend.build._columns_r14base", "ddlc.frontend.build",
               (("from ._read import", "from ._read_r14base import"),)) if OLDREAD is not None else None
pytestmark = pytest.mark.skipif(OLD is None or OLDCOL is None,
                                reason=f"the former modules are read from git ({BASE}): no history here")


def _old_read_constraint(o: Any) -> TableConstraint:
    """read_constraint as it was at c1057c7 (table.py), on the former constraints module."""
    T = NEWTABLE
    slots = T.check_slots(o, T._CONSTRAINT_SLOTS)
    if "definition" not in slots:
        raise T.Unmodelled("constraint element without %{definition}s", o.path + ("fmt",))
    definition = OLD.make_definition(o.str("definition"), o.at("definition"))
    contype = o.raw("contype", None)
    if contype is None:
        kind = OLD.kind_of_text(definition.text)
        if kind is None:
            raise T.Unmodelled("constraint kind unknown (no contype)", o.at("definition"))
    else:
        if not isinstance(contype, str):
            raise o.ctx.error('element "contype" must be a string', o.at("contype"))
        try:
            kind = T.member(ConstraintKind, contype)
        except ValueError:
            raise T.Unmodelled(f'constraint type "{contype}" not modelled', o.at("contype")) from None
    read = OLD.read_definition(definition.text, o.at("definition"))
    if read.parsed is None:
        o.ctx.diag(OLD.N_CONSTRAINT_UNPARSED, f"constraint definition not parsed: {definition.text!r}",
                   o.at("definition"))
    return TableConstraint(
        o.str("name") if "name" in slots else None, kind, definition, read.parsed,
        o.str("tblspc") if "tblspc" in slots else None, informational=read.informational,
        verbatim=read.verbatim, layout=o.fmt, origin=o.path,
    )


def _sql(e: Any) -> Any:
    s = None if e is None else e.sql
    return None if s is None else (s.form, s.node, s.refs, s.verbatim)


def _outcome(fn: Any, make: Any, el: Any) -> Any:
    ctx = BuildContext("doc")
    try:
        out = fn(make(el, ("e",), ctx))
    except (DdlcError, NEWTABLE.Unmodelled) as e:
        return ("error", type(e).__name__, getattr(e, "message", str(e)), getattr(e, "path", None),
                getattr(e, "code", None))
    parts = [out]
    for name in ("definition", "default", "on_update", "generated"):
        parts.append(_sql(getattr(out, name, None)))
    parsed = getattr(out, "parsed", None)
    parts.append(_sql(getattr(parsed, "check", None)))
    return parts, [(d.code, d.message, d.path) for d in ctx.diagnostics]


def _same_constraint(el: dict[str, Any]) -> None:
    assert _outcome(NEWTABLE.read_constraint, Obj, el) == _outcome(_old_read_constraint, Obj, el), el


def _same_column(el: dict[str, Any]) -> None:
    assert _outcome(NEWCOL.read_column, Obj, el) == _outcome(OLDCOL.read_column, OLDREAD.Obj, el), el


def _fixture_objects(wanted: Any) -> list[dict[str, Any]]:
    """Every JSON object of the fixtures that ``wanted`` accepts (one walk for both readers below)."""
    out: list[dict[str, Any]] = []

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            if wanted(x):
                out.append(x)
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    for p in sorted((ROOT / "fixtures").rglob("*.json")):
        try:
            walk(orjson.loads(p.read_bytes()))
        except orjson.JSONDecodeError:
            continue
    return out


def _elements(kind: str) -> list[dict[str, Any]]:
    return _fixture_objects(lambda x: x.get("type") == kind and "fmt" in x)


CONSTRAINTS = _elements("constraint")
COLUMNS = _elements("column")

HOSTILE = ["", " ", "'", "''", '"', '""', "\\", "$$", "$a$", "--", "/*", "*/", "\n", "\r\n", "é", "ß", "İ", "K",
           ";", "(", ")", ",", "a" * 64, "a" * 63, "x$y", "Ab", "_z9", "primary", "key", "unique", "include",
           "using", "index", "tablespace", "select", "user", "match", "partial", "DESC", "asc", "DISABLE"]
NAME = st.one_of(st.sampled_from(["a", "id", "code_1", "Col", "x$", "_q", "a" * 63, "a" * 64, "select", "user",
                                  "name", "value", "matches", '"Quoted"', '"a""b"', "é", "k1 DESC", "k2 ASC"]),
                 st.text(alphabet="abcXYZ_$09 \t\n'\"\\-/*;(),éİ", min_size=0, max_size=8))
SEP = st.sampled_from([", ", ",", " , ", "\t,\n", ",  "])
BLANKS = st.sampled_from(["", " ", "\t", "\n", " \x0b", "\x1c"])


@st.composite
def key_lists(draw: Any) -> str:
    head = draw(st.sampled_from(["PRIMARY KEY", "UNIQUE", "primary key", "Unique", "PRIMARY  KEY", "PRIMARY\nKEY",
                                 "enable optimization Informational Constraint UNIQUE", "FOREIGN KEY"]))
    names = draw(st.lists(NAME, min_size=0, max_size=3))
    text = f"{head}{draw(st.sampled_from([' ', '', '  ']))}({draw(SEP).join(names)})"
    if draw(st.booleans()):
        text += f" INCLUDE ({draw(SEP).join(draw(st.lists(NAME, min_size=1, max_size=2)))})"
    tail = draw(st.sampled_from(["", " USING INDEX TABLESPACE ts", " USING INDEX TABLESPACE select",
                                 " USING INDEX TABLESPACE " + "t" * 64, " WITH (fillfactor=80)", " DEFERRABLE",
                                 " DISABLE", " NOT VALID", " REFERENCES t(a)", " -- c", " /* c */", ";"]))
    return draw(BLANKS) + text + tail + draw(BLANKS)


@st.composite
def checks(draw: Any) -> str:
    inner = draw(st.lists(st.sampled_from(["(", ")", "a", " > ", "0", "'x)'", '"q("', "$$)$$", "-- )\n", "/* ( */",
                                           "\\", "é", "::numeric", " AND ", "f(", "x)", "\n"]), max_size=8))
    head = draw(st.sampled_from(["CHECK (", "CHECK(", "check (", " CHECK (", "CHECK  ("]))
    tail = draw(st.sampled_from(["", " NO INHERIT", " NOT VALID", " DISABLE", ") DISABLE", " (b)", ")"]))
    return head + "".join(inner) + ")" + tail


def _constraint_el(text: str, contype: Any = "check") -> dict[str, Any]:
    el = {"fmt": "CONSTRAINT %{name}I %{definition}s", "name": "c", "type": "constraint", "definition": text}
    if contype is not None:
        el["contype"] = contype
    return el


def test_every_fixture_constraint_element() -> None:
    assert len(CONSTRAINTS) > 10
    for el in CONSTRAINTS:
        _same_constraint(el)


def test_every_fixture_column_element() -> None:
    assert len(COLUMNS) > 50
    for el in COLUMNS:
        _same_column(el)


@pytest.mark.parametrize("piece", HOSTILE)
def test_hostile_definitions(piece: str) -> None:
    for text in (f"PRIMARY KEY ({piece})", f"UNIQUE (a, {piece})", f"UNIQUE (a) INCLUDE ({piece})",
                 f"PRIMARY KEY (a) USING INDEX TABLESPACE {piece}", f"CHECK (({piece}))", f"CHECK ((a > 0)){piece}",
                 f"CHECK (a){piece}(b)", f"{piece}PRIMARY KEY (a)", f"PRIMARY KEY (a){piece}", piece):
        for contype in ("primary key", "unique", "check", None, 3, "nope"):
            _same_constraint(_constraint_el(text, contype))
        assert NEWCHECK.check_expr_text(text) == OLD._check_text(text), text


@settings(max_examples=400, deadline=None)
@given(key_lists(), st.sampled_from(["primary key", "unique", None]))
def test_generated_key_lists(text: str, contype: Any) -> None:
    _same_constraint(_constraint_el(text, contype))


@settings(max_examples=400, deadline=None)
@given(checks())
def test_generated_checks(text: str) -> None:
    _same_constraint(_constraint_el(text))
    assert NEWCHECK.check_expr_text(text) == OLD._check_text(text)


def test_key_list_words_are_plain() -> None:
    """The verbatim flag of a key list rests on this: requote quotes none of a key list's fixed words."""
    from ddlc.frontend.sql.pgwords import words

    assert not NEW._KEY_LIST_WORDS & words()
    assert NEW._key_list_plain() is True


TYPES = [{"typmod": "", "typarray": False, "typename": "int4", "schemaname": "pg_catalog"},
         {"typmod": "(10)", "typarray": False, "typename": "varchar", "schemaname": "pg_catalog"},
         {"typmod": "(0)", "typarray": False, "typename": "varchar", "schemaname": "pg_catalog"},
         {"typmod": "(12,2)", "typarray": True, "typename": "numeric", "schemaname": "pg_catalog"},
         {"typmod": "(1001)", "typarray": False, "typename": "numeric", "schemaname": "pg_catalog"},
         {"typmod": "(10); DROP", "typarray": False, "typename": "varchar", "schemaname": "pg_catalog"},
         {"typmod": "(3)", "typarray": False, "typename": "TIMESTAMP WITH TIME ZONE", "schemaname": ""},
         {"typmod": "(3)", "typarray": False, "typename": "TIMESTAMP'; --", "schemaname": ""},
         {"typmod": "(9)", "typarray": False, "typename": "TIME(", "schemaname": ""},
         {"typmod": "", "typarray": False, "type_name": "character varying", "schemaname": ""},
         {"typmod": "", "typarray": False, "type_name": "bad'name", "schemaname": ""},
         {"typmod": "(5)", "typarray": False, "type_name": "bpchar", "schemaname": "pg_catalog"},
         {"typmod": "(5)", "typarray": False, "typename": 3, "schemaname": ""},
         {"typmod": 5, "typarray": False, "typename": "int4", "schemaname": ""},
         {"typmod": "", "typarray": "no", "typename": "int4", "schemaname": ""},
         {"typmod": "", "typarray": False, "typename": "int4", "schemaname": None},
         {"typmod": "", "typarray": False, "typename": "é", "schemaname": ""},
         {"typmod": "(2)", "typarray": False, "typename": "x", "schemaname": "s", "present": False}]
COLLATIONS = [{"fmt": "COLLATE %{name}D", "present": False},
              {"fmt": "COLLATE %{name}D", "name": {"objname": "default", "schemaname": "pg_catalog"}},
              {"fmt": "COLLATE %{name}D", "name": {"objname": "C", "schemaname": None}},
              {"fmt": "COLLATE %{name}D", "name": {"objname": "x\"'", "schemaname": 3}},
              {"fmt": "COLLATE %{name}D", "name": {"object_name": "x", "schema_name": "s"}},
              {"fmt": "COLLATE %{name}D", "name": "en_US"},
              {"fmt": "COLLATE %{name}D", "name": None},
              {"fmt": "COLLATE %{name}D"}, "", None, 3]
DEFAULTS = [{"fmt": "DEFAULT %{default}s", "present": False}, {"fmt": "DEFAULT %{default}s", "default": "0"},
            {"fmt": "DEFAULT %{default}s", "default": "'it''s'::text"}, {"fmt": "DEFAULT %{default}s", "default": "("},
            {"fmt": "DEFAULT %{default}s", "default": "1; DROP TABLE t"},
            {"fmt": "DEFAULT %{default}s", "default": "now() -- x"}, {"fmt": "DEFAULT %{default}s", "default": 3},
            {"fmt": "DEFAULT %{default}s", "default": ""}, {"fmt": "DEFAULT %{default}s"},
            {"fmt": "DEFAULT %{default}s", "default": {"present": False}}, "", None, "0"]


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(TYPES), st.sampled_from(COLLATIONS), st.sampled_from(DEFAULTS),
       st.sampled_from(["c", "é", "a\"b", 3]), st.booleans(), st.booleans())
def test_generated_columns(coltype: Any, collation: Any, default: Any, name: Any, collate: bool, alias: bool) -> None:
    el: dict[str, Any] = {"fmt": "%{name}I %{coltype}T %{collation}s %{default}s", "name": name, "type": "column",
                          "coltype": dict(coltype), "default": default, "collation": collation}
    if collation is None:
        del el["collation"]
    if default is None:
        del el["default"]
    if collate:
        el["collate"] = {"objname": "C", "schemaname": "pg_catalog"}
    if alias:
        el["column_type"] = el.pop("coltype")
    _same_column(el)
    for i in range(2):  # (a typmod verdict remembered: the second reading of the same type)
        _same_column(el)
        _same_column({**el, "coltype": dict(coltype)})


# -- CREATE INDEX: the invisible test and the key's enum members ---------------------------------------------------

def test_sort_and_nulls_members_are_the_calls() -> None:
    from ddlc.frontend.sql import index as IDX
    from ddlc.ir.index import NullsOrder, SortOrder

    assert {k: SortOrder(k) for k in ("ASC", "DESC")} == IDX._SORT
    assert {k: NullsOrder(k) for k in ("FIRST", "LAST")} == IDX._NULLS
    assert all(IDX._SORT[k] is SortOrder(k) for k in IDX._SORT) and all(IDX._NULLS[k] is NullsOrder(k) for k in IDX._NULLS)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(["CREATE %{unique}s INDEX", " ", "\t", "\n", "INVISIBLE", "invisible", "XINVISIBLE",
                                 "INVISIBLEX", "%{name}I", "VISIBLE", "é", "'", ""]), max_size=6))
def test_invisible_word(pieces: list[str]) -> None:
    from ddlc.frontend.build import index as BIDX

    fmt = "".join(pieces)
    el = {"fmt": fmt, "unique": "", "concurrently": "", "name": "i", "table": {"objname": "t", "schemaname": "s"},
          "index_am": "btree", "definition": "(a pg_catalog.int4_ops)"}
    got = BIDX.build_create_index(Obj(el, (), BuildContext(None)))
    assert got.invisible is (BIDX._INVISIBLE.search(fmt) is not None)
    assert got.layout == fmt


def test_every_fixture_index_definition_the_same_members() -> None:
    """The keys the fast readings make carry the members the cursor makes (round 13's test compares the readings)."""
    from ddlc.frontend.sql import index as IDX

    texts = [el["definition"] for el in _elements_with("definition") if isinstance(el.get("definition"), str)]
    texts += ["(a DESC NULLS FIRST, b ASC NULLS LAST)", "(lower(a) DESC NULLS LAST, (b + 1) NULLS FIRST)",
              "(a pg_catalog.text_ops DESC)"]
    for text in texts:
        fast = IDX._simple(text, ()) or IDX._keyed(text, ())
        if fast is not None:
            cursor = IDX._P(text, ()).definition()
            assert [(k.ordering, k.nulls) for k in fast.keys] == [(k.ordering, k.nulls) for k in cursor.keys], text


def _elements_with(key: str) -> list[dict[str, Any]]:
    return _fixture_objects(lambda x: key in x and "fmt" in x and "INDEX" in str(x.get("fmt")))


_ASCII_BUT_PARENS = {c: None for c in range(128) if chr(c) not in "()"}


def _balanced_by_removal(text: str) -> bool:
    """5ccc5bd's first ``_balanced`` (quadratic in the depth), the reference for the one-pass one."""
    p = text.translate(_ASCII_BUT_PARENS)
    while "()" in p:
        p = p.replace("()", "")
    return not p


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="()(a )é\u00ff'\"$-/*\n", max_size=60))
def test_balanced_in_one_pass_is_the_removal(text: str) -> None:
    assert NEWCHECK.balanced(text) == _balanced_by_removal(text), text
